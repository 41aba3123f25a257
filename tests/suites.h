// The libcheck suites, one per module; tests/check_main.c runs them all.
#ifndef TESTS_SUITES_H
#define TESTS_SUITES_H

#include <check.h>

Suite *board_suite(void);
Suite *position_suite(void);
Suite *perft_suite(void);
Suite *movegen_suite(void);
Suite *rules_suite(void);
Suite *notation_suite(void);
Suite *uci_suite(void);
// The uci suite's test cases in check_uci_framing.c, check_uci_go.c and check_uci_commands.c.
void uci_framing_cases(Suite *s);
void uci_go_cases(Suite *s);
void uci_commands_cases(Suite *s);
Suite *search_suite(void);
Suite *binary_suite(void);
Suite *stats_suite(void);
Suite *referee_suite(void);
Suite *match_suite(void);
Suite *book_suite(void);
Suite *bgmatch_suite(void);
Suite *solve_suite(void);
Suite *backgammon_suite(void);
// The backgammon suite's test cases in check_bgcube.c.
void backgammon_cube_cases(Suite *s);
Suite *bgformats_suite(void);
Suite *tb_suite(void);
Suite *bgnet_suite(void);
Suite *bgprompt_suite(void);
Suite *conformance_suite(void);
Suite *ubgi_suite(void);

#endif
