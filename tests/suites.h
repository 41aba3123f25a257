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
Suite *search_suite(void);
Suite *session_suite(void);
Suite *stats_suite(void);
Suite *referee_suite(void);
Suite *match_suite(void);
Suite *solve_suite(void);
Suite *backgammon_suite(void);
Suite *bgformats_suite(void);
Suite *tb_suite(void);
Suite *bgnet_suite(void);
Suite *conformance_suite(void);

#endif
