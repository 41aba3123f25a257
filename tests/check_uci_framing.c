// The protocol's framing: line ends, blanks, unknown commands, raw bytes, long lines, quit and
// uci_loop; and the info lines formatted from made-up reports.
#include "tests/suites.h"

#include "tests/harness.h"
#include "tests/helpers.h"

#include "protocol/info.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// Framing

START_TEST(test_framing_crlf) {
    Proto *e = proto_open();
    char fen[128];
    ck_assert_str_eq(proto_send(e, "isready\r\n"), "readyok\n");
    ck_assert_str_eq(proto_send(e, "isready\n"), "readyok\n");
    ck_assert_str_eq(proto_send(e, "position startpos moves d7 g7\r\n"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "1WB/3/3/6/3/3/3 w 8 8 0 2");
    ck_assert_msg(has_line(proto_send(e, "perft 1\r"), "Nodes searched: 22"), "%s", e->last);
    proto_close(e);
    const char *script = "isready\r\nposition startpos moves d7\r\nmoves\r\n";
    char *out = proto_loop(script, strlen(script));
    ck_assert_msg(!strncmp(out, "readyok\n", 8) && count_lines(out) == 2 &&
                      strstr(out, "d7") == NULL && strstr(out, "\r") == NULL,
                  "got:\n%s", out);
    free(out);
}
END_TEST

START_TEST(test_framing_whitespace) {
    Proto *e = proto_open();
    char fen[128];
    ck_assert_str_eq(proto_send(e, "  \t isready \t "), "readyok\n");
    ck_assert_str_eq(proto_send(e, "\tposition \t startpos\t\tmoves   d7\t \tg7  "), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "1WB/3/3/6/3/3/3 w 8 8 0 2");
    ck_assert_str_eq(proto_send(e, "position   fen\t3/3/3/6/3/3/3 \t b  9\t8   0 1"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "3/3/3/6/3/3/3 b 9 8 0 1");
    ck_assert_str_eq(proto_send(e, "setoption  name\tUCI_Variant \t value   six "), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, SIX_START);
    const char *p = proto_send(e, "perft\t\t1   ");
    ck_assert_msg(has_line(p, "Nodes searched: 16"), "got:\n%s", p);
    proto_close(e);
}
END_TEST

START_TEST(test_framing_silent_lines) {
    static const char *const silent[] = {"",     "\n",       "\r\n",       "   ",
                                         "\t\t", " \t \r\n", "# comment",  "#isready",
                                         "#",    "  # quit", "\t#perft 1", "#d\r\n"};
    Proto *e = proto_open();
    for (size_t i = 0; i < sizeof silent / sizeof silent[0]; i++) {
        ck_assert_msg(uci_execute(&e->uci, silent[i]), "'%s' quit", silent[i]);
        ck_assert_msg(!strcmp(proto_take(e), ""), "'%s' gave '%s'", silent[i], e->last);
    }
    proto_close(e);
    const char *script = "\n\r\n# uci\n   \n\t\n#quit\nisready\n";
    char *out = proto_loop(script, strlen(script));
    ck_assert_str_eq(out, "readyok\n");
    free(out);
}
END_TEST

static const char *const UNKNOWN_COMMANDS[] = {
    "foo", "Isready", "ISREADY", "isready2", "is", "perft2", "go2", "uci_", "D", "dd", "quitx",
};

START_TEST(test_framing_unknown_command) {
    char *out = proto_run(UNKNOWN_COMMANDS[_i], false);
    assert_one_error(out, UNKNOWN_COMMANDS[_i]);
    ck_assert_msg(!strncmp(out, ERROR_PREFIX "unknown command", strlen(ERROR_PREFIX) + 15),
                  "got: %s", out);
    ck_assert_msg(strstr(out, UNKNOWN_COMMANDS[_i]) != NULL, "got: %s", out);
    free(out);
}
END_TEST

// Lines with bytes that are not printable ASCII; each is bad input for some command.
static const char *const RAW_BYTES[] = {
    "\x01\xff\xfe",
    "\x1b[2J\x07",
    "isready\x01",
    "position \x01\xff\xfe",
    "position startpos moves \x01\xff\xfe",
    "position startpos moves d7 \x1b[2J",
    "position startpos moves d7\xff",
    "position fen \x01\xff\xfe w 9 9 0 1",
    "position fen 3/3/3/6/3/3/3 \x01\xff 9 9 0 1",
    "setoption name UCI_Variant value \x01\xff\xfe",
    "setoption name \x01\xff\xfe value 1",
    "setoption name Flying value \x01\xff\xfe",
    "setoption name NMoveRule value \x01\xff\xfe",
    "perft \x01\xff\xfe",
};

// Error replies never echo raw control or high bytes.
START_TEST(test_framing_no_raw_bytes) {
    char in[256], got[512];
    char *out = proto_run(RAW_BYTES[_i], false);
    assert_one_error(out, escape_line(RAW_BYTES[_i], in, sizeof in));
    ck_assert_msg(printable_ascii(out), "'%s' is echoed raw: %s",
                  escape_line(RAW_BYTES[_i], in, sizeof in), escape_line(out, got, sizeof got));
    free(out);
}
END_TEST

// Lines of 1 MB made of many short tokens, each a bad argument of some command.
static const char *const LONG_LINE_HEADS[] = {
    "foo ",
    "position startpos moves ",
    "position fen ",
    "setoption name ",
    "setoption name UCI_Variant value ",
    "setoption name NMoveRule value ",
    "perft ",
    "go ",
    "go searchmoves ",
    "go depth 1 searchmoves d7 ",
    "bench ",
};

// A long line of many tokens is refused in a time linear in its length, not quadratic: a
// quadratic join took 5-6 s on 1 MB, the linear one takes milliseconds; 1 s leaves room for a
// loaded machine and the sanitizer build.
START_TEST(test_framing_long_line_fast) {
    enum { MB = 1 << 20 };
    char *line = malloc(MB + 64);
    ck_assert_ptr_nonnull(line);
    strcpy(line, LONG_LINE_HEADS[_i]);
    for (size_t len = strlen(line); len < MB; len += 3)
        memcpy(line + len, "3/ ", 4);
    Proto *e = proto_open();
    double t0 = seconds();
    const char *out = proto_send(e, line);
    double t = seconds() - t0;
    assert_one_error(out, LONG_LINE_HEADS[_i]);
    ck_assert_msg(t < 1.0, "'%s' + 1 MB of short tokens took %.2f s", LONG_LINE_HEADS[_i], t);
    proto_close(e);
    free(line);
}
END_TEST

// One megabyte of junk on a line, and a position line with thousands of tokens.
START_TEST(test_framing_long_lines) {
    enum { MB = 1 << 20 };
    char *line = malloc(MB + 64);
    ck_assert_ptr_nonnull(line);
    Proto *e = proto_open();
    ck_assert_str_eq(proto_send(e, "position startpos moves d7 g7"), "");
    char *before = proto_snapshot(e);

    memset(line, 'j', MB);
    line[MB] = '\0';
    const char *r = proto_send(e, line);
    assert_one_error(r, "1 MB token");
    ck_assert_int_lt((int)strlen(r), 200);

    for (int i = 0; i < MB; i++)
        line[i] = i % 5 == 4 ? ' ' : "junk"[i % 5];
    assert_one_error(proto_send(e, line), "1 MB of junk tokens");

    strcpy(line, "position startpos moves ");
    for (size_t len = strlen(line); len < MB; len += 3)
        memcpy(line + len, "zz ", 4);
    assert_one_error(proto_send(e, line), "position with 1 MB of junk moves");

    strcpy(line, "position fen ");
    for (size_t len = strlen(line); len < MB; len += 2)
        memcpy(line + len, "3/", 3);
    assert_one_error(proto_send(e, line), "1 MB position string");

    strcpy(line, "setoption name ");
    memset(line + strlen(line), 'a', MB);
    line[MB] = '\0';
    assert_one_error(proto_send(e, line), "1 MB option name");

    strcpy(line, "setoption name UCI_Variant value ");
    memset(line + strlen(line), 'v', MB);
    line[MB] = '\0';
    assert_one_error(proto_send(e, line), "1 MB variant name");

    strcpy(line, "perft ");
    for (size_t len = strlen(line); len < MB; len++)
        line[len] = '7', line[len + 1] = '\0';
    assert_one_error(proto_send(e, line), "1 MB perft depth");

    char *after = proto_snapshot(e);
    ck_assert_str_eq(before, after);
    free(after);

    // Through uci_loop: the 1 MB line is read whole, and the next line still runs.
    memset(line, 'q', MB);
    strcpy(line + MB, "\nisready\n");
    char *out = proto_loop(line, strlen(line));
    ck_assert_int_eq(count_lines(out), 2);
    ck_assert_msg(!strncmp(out, ERROR_PREFIX, strlen(ERROR_PREFIX)), "got: %.200s", out);
    ck_assert_str_eq(strchr(out, '\n') + 1, "readyok\n");
    free(out);
    free(before);
    free(line);
    proto_close(e);
}
END_TEST

// Thousands of moves: accepted when legal, refused as a whole when the game ends on the way.
START_TEST(test_framing_many_moves) {
    enum { CYCLES = 1000 };
    const char *cycle = " a4-b4 a1-d1 b4-a4 d1-a1";
    size_t cap = strlen("position startpos moves " NINE_18) + CYCLES * strlen(cycle) + 32;
    char *line = malloc(cap), fen[128];
    ck_assert_ptr_nonnull(line);
    strcpy(line, "position startpos moves " NINE_18);
    size_t len = strlen(line);
    for (int i = 0; i < CYCLES; i++, len += strlen(cycle))
        memcpy(line + len, cycle, strlen(cycle) + 1);

    Proto *e = proto_open();
    ck_assert_str_eq(proto_send(e, "position startpos moves d7"), "");
    char *before = proto_snapshot(e);
    // With the default rules the third repetition ends the game.
    assert_one_error(proto_send(e, line), "4000 shuffling moves with repetition on");
    char *after = proto_snapshot(e);
    ck_assert_str_eq(before, after);
    free(after);

    ck_assert_str_eq(proto_send(e, "setoption name Repetition value false"), "");
    ck_assert_str_eq(proto_send(e, "setoption name NMoveRule value 0"), "");
    ck_assert_str_eq(proto_send(e, line), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "BWB/WBW/BBW/W1W2W/B1W/1BW/B1B w 0 0 4000 2010");
    ck_assert_msg(has_line(proto_send(e, "perft 1"), "Nodes searched: 25"), "%s", e->last);

    // The same line with its last move illegal changes nothing.
    line[len - 2] = 'g';
    char *before2 = proto_snapshot(e);
    assert_one_error(proto_send(e, line), "4000 moves, the last illegal");
    after = proto_snapshot(e);
    ck_assert_str_eq(before2, after);
    free(before2);
    free(after);
    free(before);
    free(line);
    proto_close(e);
}
END_TEST

START_TEST(test_framing_quit) {
    Proto *e = proto_open();
    ck_assert(uci_execute(&e->uci, "isready"));
    ck_assert(uci_execute(&e->uci, "position startpos moves d7"));
    ck_assert(!uci_execute(&e->uci, "quit"));
    ck_assert_str_eq(proto_take(e), "readyok\n");
    proto_close(e);

    e = proto_open();
    ck_assert(!uci_execute(&e->uci, "  quit\r\n"));
    proto_close(e);

    // uci_loop stops at quit: later lines are not executed.
    e = proto_open();
    const char *script = "isready\nposition startpos moves d7\nquit\nisready\n"
                         "position startpos moves g7\nuci\n";
    FILE *in = fmemopen((void *)script, strlen(script), "r");
    ck_assert_ptr_nonnull(in);
    uci_loop(&e->uci, in);
    ck_assert_str_eq(proto_take(e), "readyok\n");
    // The line before quit was played; the one after it was not.
    char fen[128];
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "1W1/3/3/6/3/3/3 b 8 9 0 1");
    fclose(in);
    proto_close(e);

    // A last line without its newline is still executed; so is everything before end of input.
    const char *tail = "isready\nisready";
    char *out = proto_loop(tail, strlen(tail));
    ck_assert_str_eq(out, "readyok\nreadyok\n");
    free(out);
    const char *q = "quit";
    out = proto_loop(q, strlen(q));
    ck_assert_str_eq(out, "");
    free(out);
}
END_TEST

// A whole game through uci_loop, as a GUI would drive it.
START_TEST(test_loop_script) {
    const char *script = "uci\n"
                         "isready\n"
                         "setoption name UCI_Variant value six\n"
                         "ucinewgame\n"
                         "position startpos moves a5 b4\n"
                         "moves\n"
                         "perft 1\n"
                         "quit\n";
    char *out = proto_loop(script, strlen(script));
    ck_assert_msg(has_line(out, "uciok"), "got:\n%s", out);
    ck_assert_msg(has_line(out, "readyok"), "got:\n%s", out);
    ck_assert_msg(has_line(out, "Nodes searched: 14"), "got:\n%s", out);
    ck_assert(strstr(out, ERROR_PREFIX) == NULL);
    free(out);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// info lines, formatted from made-up reports

static SearchReport make_report(int score) {
    SearchReport r = {.depth = 5, .seldepth = 7, .multipv = 1, .score = score};
    r.nodes = 12345;
    r.time_ms = 0;
    r.hashfull = 3;
    strcpy(r.pv, "d6 b4");
    return r;
}

START_TEST(test_info_format) {
    char line[INFO_LINE_MAX];
    SearchReport r = make_report(35);
    info_format(&r, false, line, sizeof line);
    ck_assert_str_eq(line, "info depth 5 seldepth 7 multipv 1 score cp 35 nodes 12345 nps "
                           "12345000 hashfull 3 time 0 pv d6 b4");
    r.time_ms = 2000;
    r.nodes = 1000000;
    r.multipv = 2;
    r.score = -120;
    info_format(&r, false, line, sizeof line);
    ck_assert_str_eq(line, "info depth 5 seldepth 7 multipv 2 score cp -120 nodes 1000000 nps "
                           "500000 hashfull 3 time 2000 pv d6 b4");
    r = make_report(35);
    r.lowerbound = true;
    r.wdl[0] = 500, r.wdl[1] = 400, r.wdl[2] = 100;
    info_format(&r, true, line, sizeof line);
    ck_assert_str_eq(line, "info depth 5 seldepth 7 multipv 1 score cp 35 lowerbound wdl 500 400 "
                           "100 nodes 12345 nps 12345000 hashfull 3 time 0 pv d6 b4");
    r.lowerbound = false;
    r.upperbound = true;
    info_format(&r, false, line, sizeof line);
    ck_assert_msg(strstr(line, " score cp 35 upperbound nodes 12345 ") != NULL, "%s", line);
}
END_TEST

// Mate scores in moves of the side to move, negative when it is being mated.
START_TEST(test_info_mate_scores) {
    static const struct {
        int score;
        const char *text;
    } cases[] = {
        {SCORE_MATE - 1, " score mate 1 "},     {SCORE_MATE - 2, " score mate 1 "},
        {SCORE_MATE - 3, " score mate 2 "},     {SCORE_MATE - 9, " score mate 5 "},
        {-(SCORE_MATE - 2), " score mate -1 "}, {-(SCORE_MATE - 4), " score mate -2 "},
        {-SCORE_MATE, " score mate 0 "},        {SCORE_MATE_IN_MAX - 1, " score cp "},
    };
    char line[INFO_LINE_MAX];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        SearchReport r = make_report(cases[i].score);
        info_format(&r, false, line, sizeof line);
        ck_assert_msg(strstr(line, cases[i].text) != NULL, "score %d gave '%s'", cases[i].score,
                      line);
    }
}
END_TEST

START_TEST(test_info_bestmove) {
    char line[96];
    SearchResult res = {.best = "d6", .ponder = "b4"};
    info_bestmove(&res, true, line, sizeof line);
    ck_assert_str_eq(line, "bestmove d6 ponder b4");
    // UGI: exactly two tokens.
    info_bestmove(&res, false, line, sizeof line);
    ck_assert_str_eq(line, "bestmove d6");
    res.ponder[0] = '\0';
    info_bestmove(&res, true, line, sizeof line);
    ck_assert_str_eq(line, "bestmove d6");
    strcpy(res.best, "(none)");
    info_bestmove(&res, true, line, sizeof line);
    ck_assert_str_eq(line, "bestmove (none)");
}
END_TEST

// Add the framing, info and long-line test cases to the uci suite.
void uci_framing_cases(Suite *s) {
    int nunknown = (int)(sizeof UNKNOWN_COMMANDS / sizeof UNKNOWN_COMMANDS[0]);
    int nraw = (int)(sizeof RAW_BYTES / sizeof RAW_BYTES[0]);
    int nlong = (int)(sizeof LONG_LINE_HEADS / sizeof LONG_LINE_HEADS[0]);
    TCase *tc;

    tc = tcase_create("framing");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_framing_crlf);
    tcase_add_test(tc, test_framing_whitespace);
    tcase_add_test(tc, test_framing_silent_lines);
    tcase_add_loop_test(tc, test_framing_unknown_command, 0, nunknown);
    tcase_add_loop_test(tc, test_framing_no_raw_bytes, 0, nraw);
    tcase_add_test(tc, test_framing_long_lines);
    tcase_add_test(tc, test_framing_many_moves);
    tcase_add_test(tc, test_framing_quit);
    tcase_add_test(tc, test_loop_script);
    suite_add_tcase(s, tc);

    tc = tcase_create("info");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_info_format);
    tcase_add_test(tc, test_info_mate_scores);
    tcase_add_test(tc, test_info_bestmove);
    suite_add_tcase(s, tc);

    tc = tcase_create("long lines");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, test_framing_long_line_fast, 0, nlong);
    suite_add_tcase(s, tc);
}
