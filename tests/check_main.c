// The one test runner: every suite, forked, in one run. Run from the tests folder so that the
// data files under tests/data are found. CK_RUN_SUITE=<name> runs one suite.
#include "tests/suites.h"

#include <stdlib.h>

int main(void) {
    SRunner *sr = srunner_create(board_suite());
    srunner_add_suite(sr, position_suite());
    srunner_add_suite(sr, perft_suite());
    srunner_add_suite(sr, movegen_suite());
    srunner_add_suite(sr, rules_suite());
    srunner_add_suite(sr, notation_suite());
    srunner_add_suite(sr, uci_suite());
    srunner_add_suite(sr, search_suite());
    srunner_add_suite(sr, binary_suite());
    srunner_add_suite(sr, stats_suite());
    srunner_add_suite(sr, referee_suite());
    srunner_add_suite(sr, match_suite());
    srunner_add_suite(sr, book_suite());
    srunner_add_suite(sr, bgmatch_suite());
    srunner_add_suite(sr, solve_suite());
    srunner_add_suite(sr, backgammon_suite());
    srunner_add_suite(sr, bgformats_suite());
    srunner_add_suite(sr, tb_suite());
    srunner_add_suite(sr, bgnet_suite());
    srunner_add_suite(sr, bgprompt_suite());
    srunner_add_suite(sr, conformance_suite());
    srunner_add_suite(sr, ubgi_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
