// eval and bench, the UGI dialect, debug and help <command>, a person's commands (new, move,
// undo, play), Sanmill's position strings, and the prompt's completion and accessors.
#include "tests/suites.h"

#include "tests/harness.h"
#include "tests/helpers.h"

#include "protocol/prompt.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// eval, bench

START_TEST(test_eval) {
    Proto *e = proto_open();
    const char *out = proto_send(e, "eval");
    ck_assert_int_ge(count_lines(out), 2);
    ck_assert_msg(count_prefix(out, ERROR_PREFIX) == 0 && printable_ascii(out), "%s", out);
    ck_assert_str_eq(proto_send(e, "position startpos moves " NINE_18), "");
    char *before = proto_snapshot(e);
    out = proto_send(e, "eval");
    ck_assert_int_ge(count_lines(out), 2);
    char *after = proto_snapshot(e);
    ck_assert_str_eq(before, after);
    free(before);
    free(after);
    // A finished game is evaluated too.
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value three"), "");
    ck_assert_str_eq(proto_send(e, "position fen " THREE_WON), "");
    ck_assert_int_ge(count_lines(proto_send(e, "eval")), 2);
    proto_close(e);
}
END_TEST

// Strip the nps of the bench's last line: what stays must be the same on every run.
static void strip_nps(char *text) {
    char *last = (char *)last_line(text);
    char *nps = strstr(last, " nodes ");
    ck_assert_msg(nps != NULL, "no ' nodes ' in the last line '%s'", last);
    strcpy(nps, " nodes\n");
}

// bench: one line per position, then `<nodes> nodes <nps> nps`; the same count on every run;
// the engine's position and options are left alone.
START_TEST(test_bench) {
    Proto *e = proto_open();
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value six"), "");
    ck_assert_str_eq(proto_send(e, "setoption name Hash value 2"), "");
    ck_assert_str_eq(proto_send(e, "position startpos moves a5 b4"), "");
    char *before = proto_snapshot(e);
    char *first = proto_send_copy(e, "bench 3");
    char *second = proto_send_copy(e, "bench 3");
    char *after = proto_snapshot(e);
    ck_assert_str_eq(before, after);
    int n = count_lines(first);
    ck_assert_int_ge(n, 13);
    ck_assert(printable_ascii(first));
    const char *last = last_line(first);
    unsigned long long nodes, nps;
    char tail[8];
    ck_assert_msg(sscanf(last, "%llu nodes %llu nps%7s", &nodes, &nps, tail) == 2 && nodes > 0,
                  "last line '%s'", last);
    ck_assert_msg(count_prefix(first, ERROR_PREFIX) == 0 && !strstr(first, "error"), "%s", first);
    // Every variant is in it.
    for (size_t i = 0; i < sizeof VARIANT_IDS / sizeof VARIANT_IDS[0]; i++) {
        char pattern[32];
        snprintf(pattern, sizeof pattern, " %s ", VARIANT_IDS[i]);
        ck_assert_msg(strstr(first, pattern) != NULL, "no %s in:\n%s", VARIANT_IDS[i], first);
    }
    // Per position: "<i>/<n> <variant> <position>: bestmove <m> nodes <k>", summing to nodes.
    unsigned long long sum = 0;
    for (const char *l = first; l < last; l = strchr(l, '\n') + 1) {
        int i, total;
        const char *bm = strstr(l, ": bestmove ");
        ck_assert_msg(sscanf(l, "%d/%d ", &i, &total) == 2 && total == n - 1 && bm &&
                          bm < strchr(l, '\n'),
                      "bad line: %.200s", l);
        unsigned long long k;
        char move[64];
        ck_assert_msg(sscanf(bm, ": bestmove %63s nodes %llu", move, &k) == 2, "%.200s", l);
        ck_assert_msg(strcmp(move, "(none)"), "a finished game in the bench: %.200s", l);
        sum += k;
    }
    ck_assert(sum == nodes);
    strip_nps(first);
    strip_nps(second);
    ck_assert_str_eq(first, second);
    free(first);
    free(second);
    free(before);
    free(after);
    proto_close(e);
}
END_TEST

static const char *const BAD_BENCHES[] = {
    "bench 0",   "bench -1", "bench x",   "bench 65",
    "bench 2 3", "bench 2x", "bench 1e3", "bench 99999999999999999999"};

START_TEST(test_bench_bad) {
    char *out = proto_run(BAD_BENCHES[_i], false);
    assert_one_error(out, BAD_BENCHES[_i]);
    free(out);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// UGI, debug, help <command>

START_TEST(test_ugi_handshake) {
    Proto *e = proto_open();
    char *ugi = proto_send_copy(e, "ugi");
    const char *uci = proto_send(e, "uci");
    // The same lines, but for the last.
    ck_assert_msg(!strncmp(ugi, uci, strlen(uci) - strlen("uciok\n")), "%s\n---\n%s", ugi, uci);
    ck_assert_str_eq(last_line(ugi), "ugiok\n");
    ck_assert_str_eq(last_line(uci), "uciok\n");
    free(ugi);
    proto_close(e);
}
END_TEST

START_TEST(test_ugi_query) {
    Proto *e = proto_open();
    ck_assert_msg(!strcmp(last_line(proto_send(e, "ugi")), "ugiok\n"), "%s", e->last);
    ck_assert_str_eq(proto_send(e, "uginewgame"), "");
    ck_assert_str_eq(proto_send(e, "query p1turn"), "response true\n");
    ck_assert_str_eq(proto_send(e, "query gameover"), "response false\n");
    ck_assert_str_eq(proto_send(e, "query result"), "response none\n");
    ck_assert_str_eq(proto_send(e, "position startpos moves d7"), "");
    ck_assert_str_eq(proto_send(e, "query p1turn"), "response false\n");
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value three"), "");
    ck_assert_str_eq(proto_send(e, "position fen " THREE_WON), "");
    ck_assert_str_eq(proto_send(e, "query gameover"), "response true\n");
    ck_assert_str_eq(proto_send(e, "query result"), "response p1win\n");
    ck_assert_str_eq(proto_send(e, "position fen BBB/3/WW1 w 1 0 0 3"), "");
    ck_assert_str_eq(proto_send(e, "query result"), "response p2win\n");
    ck_assert_str_eq(proto_send(e, "query p1turn"), "response true\n");
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value nine"), "");
    ck_assert_str_eq(proto_send(e, "setoption name NMoveRule value 4"), "");
    ck_assert_str_eq(proto_send(e, "position fen " NINE_3MEN), "");
    ck_assert_str_eq(proto_send(e, "query result"), "response draw\n");
    ck_assert_str_eq(proto_send(e, "query gameover"), "response true\n");
    // uginewgame is ucinewgame.
    ck_assert_str_eq(proto_send(e, "uginewgame"), "");
    char fen[128];
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    static const char *const bad[] = {"query", "query foo", "query p1turn x", "query P1TURN",
                                      "query \x01\xff"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_one_error(proto_send(e, bad[i]), "bad query");
    proto_close(e);
}
END_TEST

// In UGI the bestmove line has exactly two tokens; uci switches back.
START_TEST(test_ugi_bestmove) {
    Proto *e = proto_open();
    char best[64], ponder[64];
    proto_send(e, "ugi");
    ck_assert_str_eq(proto_send(e, "position startpos moves d7 g7 g4 a7"), "");
    uci_execute(&e->uci, "go p1time 500 p2time 500 p1inc 10 p2inc 10");
    char *out = strdup(proto_wait_bestmove(e));
    get_bestmove(out, best, ponder, sizeof best);
    ck_assert_msg(!ponder[0], "a ponder move in UGI:\n%s", out);
    ck_assert(proto_is_legal(e, best));
    free(out);
    uci_execute(&e->uci, "go depth 4");
    out = strdup(proto_wait_bestmove(e));
    get_bestmove(out, best, ponder, sizeof best);
    ck_assert_msg(!ponder[0], "a ponder move in UGI:\n%s", out);
    free(out);
    proto_send(e, "uci");
    uci_execute(&e->uci, "go depth 4");
    out = strdup(proto_wait_bestmove(e));
    get_bestmove(out, best, ponder, sizeof best);
    ck_assert_msg(ponder[0], "no ponder move in UCI at depth 4:\n%s", out);
    free(out);
    proto_close(e);
}
END_TEST

START_TEST(test_debug) {
    Proto *e = proto_open();
    ck_assert_str_eq(proto_send(e, "debug on"), "");
    uci_execute(&e->uci, "go depth 2 p1time 300");
    const char *out = proto_wait_bestmove(e);
    ck_assert_msg(strstr(out, "info string go: depth 2 nodes 0 movetime 0 wtime 300 btime -1 ") ==
                      out,
                  "%s", out);
    ck_assert_str_eq(proto_send(e, "debug off"), "");
    uci_execute(&e->uci, "go depth 2");
    out = proto_wait_bestmove(e);
    ck_assert_msg(!strstr(out, "info string"), "%s", out);
    static const char *const bad[] = {"debug", "debug yes", "debug on off", "debug ON"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_one_error(proto_send(e, bad[i]), bad[i]);
    proto_close(e);
}
END_TEST

START_TEST(test_help_command) {
    Proto *e = proto_open();
    for (int i = 0; uci_command_name(i); i++) {
        char line[64];
        snprintf(line, sizeof line, "help %s", uci_command_name(i));
        const char *out = proto_send(e, line);
        ck_assert_msg(count_lines(out) == 2 && !strncmp(out, "usage: ", 7), "%s", out);
        ck_assert_msg(!strncmp(out + 7, uci_command_name(i), strlen(uci_command_name(i))), "%s",
                      out);
    }
    assert_one_error(proto_send(e, "help foo"), "help foo");
    assert_one_error(proto_send(e, "help go stop"), "help go stop");
    proto_close(e);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// A person's commands: new, move, undo, play

START_TEST(test_move_undo) {
    Proto *e = proto_open();
    char fen[128];
    ck_assert_str_eq(proto_send(e, "move d7"), "");
    ck_assert_str_eq(proto_send(e, "move a1"), "");
    ck_assert_str_eq(proto_send(e, "move g7"), "");
    ck_assert_str_eq(proto_send(e, "move a4"), "");
    ck_assert_str_eq(proto_send(e, "move a7 xa1"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "WWW/3/3/B5/3/3/3 b 6 7 0 3");
    // Taking back the mill restores the man removed.
    ck_assert_str_eq(proto_send(e, "undo"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "1WW/3/3/B5/3/3/B2 w 7 7 0 3");
    ck_assert_str_eq(proto_send(e, "move a7xa4"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "WWW/3/3/6/3/3/B2 b 6 7 0 3");
    // A bad move changes nothing.
    char *before = proto_snapshot(e);
    static const char *const bad[] = {"move",     "move zz",    "move a1",         "move d7 g7",
                                      "move xd7", "move d1-a1", "move d1 xa7 xg7", "move \xff",
                                      "undo 1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_one_error(proto_send(e, bad[i]), bad[i]);
    char *after = proto_snapshot(e);
    ck_assert_str_eq(before, after);
    free(before);
    free(after);
    // Undo back to the start, then one more is an error.
    for (int i = 0; i < 5; i++)
        ck_assert_str_eq(proto_send(e, "undo"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    assert_one_error(proto_send(e, "undo"), "undo at the start");
    proto_close(e);
}
END_TEST

// move and undo work on top of position, whose moves they extend and take back; a new
// position, ucinewgame, new and a new variant start a new record.
START_TEST(test_move_undo_after_position) {
    Proto *e = proto_open();
    char fen[128], key1[64], key2[64];
    ck_assert_str_eq(proto_send(e, "position startpos moves " NINE_18), "");
    proto_key(e, key1, sizeof key1);
    ck_assert_str_eq(proto_send(e, "move f6-f4"), "");
    ck_assert_str_eq(proto_send(e, "undo"), "");
    proto_key(e, key2, sizeof key2);
    ck_assert_str_eq(key1, key2);
    ck_assert_str_eq(proto_send(e, "undo"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "BWB/WBW/BBW/W1W2W/2W/1BW/B1B b 0 1 0 9");
    // Removals given as their own tokens in position are one turn each.
    ck_assert_str_eq(proto_send(e, "position fen " NINE_18_FEN " moves b6-b4 xa7 a1-d1"), "");
    ck_assert_str_eq(proto_send(e, "undo"), "");
    ck_assert_str_eq(proto_send(e, "undo"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_18_FEN);
    assert_one_error(proto_send(e, "undo"), "undo past the position string");
    ck_assert_str_eq(proto_send(e, "move a4-b4"), "");
    ck_assert_str_eq(proto_send(e, "new"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    assert_one_error(proto_send(e, "undo"), "undo after new");
    ck_assert_str_eq(proto_send(e, "move d7"), "");
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value six"), "");
    assert_one_error(proto_send(e, "undo"), "undo after a new variant");
    ck_assert_str_eq(proto_send(e, "move a5"), "");
    ck_assert_str_eq(proto_send(e, "ucinewgame"), "");
    assert_one_error(proto_send(e, "undo"), "undo after ucinewgame");
    // A failed position keeps the record.
    ck_assert_str_eq(proto_send(e, "position startpos moves a5 b4"), "");
    assert_one_error(proto_send(e, "position startpos moves zz"), "bad position");
    ck_assert_str_eq(proto_send(e, "undo"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "W2/3/4/3/3 b 5 6 0 1");
    proto_close(e);
}
END_TEST

START_TEST(test_play) {
    Proto *e = proto_open();
    char fen[128], best[64], ponder[64];
    ck_assert_str_eq(proto_send(e, "position startpos moves d7"), "");
    uci_execute(&e->uci, "play depth 3");
    char *out = strdup(proto_wait_bestmove(e));
    get_bestmove(out, best, ponder, sizeof best);
    free(out);
    proto_fen(e, fen, sizeof fen);
    ck_assert_msg(strstr(fen, " w 8 8 0 2") != NULL, "%s after play %s", fen, best);
    // The move played is the record's: undo takes it back.
    ck_assert_str_eq(proto_send(e, "undo"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "1W1/3/3/6/3/3/3 b 8 9 0 1");
    // A bare play uses the last limits (depth 3 here), by default 1 s.
    double t0 = seconds();
    uci_execute(&e->uci, "play");
    proto_wait_bestmove(e);
    ck_assert_msg(seconds() - t0 < 1.0, "play after play depth 3 took %.2f s", seconds() - t0);
    proto_fen(e, fen, sizeof fen);
    ck_assert_msg(strstr(fen, " w 8 8 0 2") != NULL, "%s", fen);
    // Stop ends a play search at once, and its move is played.
    uci_execute(&e->uci, "play movetime 100000");
    sleep_ms(50);
    ck_assert_int_eq(count_prefix(proto_send(e, "stop"), "bestmove "), 1);
    proto_fen(e, fen, sizeof fen);
    ck_assert_msg(strstr(fen, " b 7 8 0 2") != NULL, "%s", fen);
    // Nothing to play in a finished game.
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value three"), "");
    ck_assert_str_eq(proto_send(e, "position fen " THREE_WON), "");
    assert_one_error(proto_send(e, "play depth 1"), "play on a finished game");
    ck_assert(!e->uci.searching);
    proto_close(e);

    e = proto_open();
    double t1 = seconds();
    uci_execute(&e->uci, "play");
    proto_wait_bestmove(e);
    double t = seconds() - t1;
    ck_assert_msg(t > 0.3 && t < 3.0, "a bare play took %.2f s, not about 1 s", t);
    proto_close(e);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Sanmill's FEN

#define SANMILL_START "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"
// NINE_18_FEN in Sanmill's rings: inner d5 e5 e4 e3 d3 c3 c4 c5, middle d6 ... b6, outer d7
// ... a7.
#define SANMILL_18 "@O*O*@O@/@O*O@**O/O@O@*@O@ w m s 9 0 9 0 0 0 0 0 0 0 0 0 10"

// The points of Sanmill's rings in order: inner, middle, outer, each from 12 o'clock clockwise.
static const char *const RING_POINTS[24] = {"d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5",
                                            "d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6",
                                            "d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7"};

// A white man on each of Sanmill's 24 points is the same man placed on that point.
START_TEST(test_sanmill_points) {
    Proto *e = proto_open();
    char line[256], want[128], got[128];
    for (int i = 0; i < 24; i++) {
        char board[27];
        memset(board, '*', 26);
        board[8] = board[17] = '/';
        board[26] = '\0';
        board[i / 8 * 9 + i % 8] = 'O';
        snprintf(line, sizeof line, "position startpos moves %s", RING_POINTS[i]);
        ck_assert_str_eq(proto_send(e, line), "");
        proto_fen(e, want, sizeof want);
        snprintf(line, sizeof line, "position fen %s b p p 1 8 0 9 0 0 0 0 0 0 0 0 1", board);
        ck_assert_msg(!strcmp(proto_send(e, line), ""), "%s: %s", line, e->last);
        proto_fen(e, got, sizeof got);
        ck_assert_msg(!strcmp(got, want), "Sanmill point %d: %s, not %s (%s)", i, got, want,
                      RING_POINTS[i]);
    }
    proto_close(e);
}
END_TEST

START_TEST(test_sanmill_positions) {
    Proto *e = proto_open();
    char fen[128], k1[64], k2[64];
    ck_assert_str_eq(proto_send(e, "position startpos moves " NINE_18), "");
    proto_key(e, k1, sizeof k1);
    ck_assert_str_eq(proto_send(e, "position fen " SANMILL_18), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_18_FEN);
    proto_key(e, k2, sizeof k2);
    ck_assert_str_eq(k1, k2);
    // With the node-id marker the last-mill fields count 0-23, none -1.
    ck_assert_str_eq(proto_send(e, "position fen @O*O*@O@/@O*O@**O/O@O@*@O@ w m s 9 0 9 0 0 0 -1 "
                                   "-1 -1 -1 0 0 10 ids:nodes"),
                     "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_18_FEN);
    ck_assert_str_eq(proto_send(e, "position fen " SANMILL_START), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    ck_assert_str_eq(proto_send(e, "position fen ********/********/******** w p p 0 9 0 9 0 0 -1 "
                                   "-1 -1 -1 0 0 1 IDS:NODES moves d7 g7"),
                     "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "1WB/3/3/6/3/3/3 w 8 8 0 2");
    // Moves with removals as their own tokens, as Sanmill writes them.
    ck_assert_str_eq(proto_send(e, "position fen " SANMILL_18 " moves b6-b4 xa7"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "1WB/1BW/BBW/WWW2W/B1W/1BW/B1B b 0 0 0 10");
    // Counters: the plies since a placement or removal and the move number (0 reads as 1);
    // the mills mask and last-mill points are read and ignored.
    ck_assert_str_eq(proto_send(e, "position fen "
                                   "@O*O*@O@/@O*O@**O/O@O@*@O@ b m s 9 0 9 0 0 0 24 "
                                   "31 8 9 1099511628288 7 0"),
                     "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "BWB/WBW/BBW/W1W2W/B1W/1BW/B1B b 0 0 7 1");
    // The other 24-point variants read it too; lasker with men in hand and on the board.
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value lasker"), "");
    ck_assert_str_eq(proto_send(e, "position fen O*******/@*******/******** w p p 1 9 1 9 0 0 0 0 "
                                   "0 0 0 0 2"),
                     "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "3/1B1/1W1/6/3/3/3 w 9 9 0 2");
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value morabaraba"), "");
    ck_assert_str_eq(proto_send(e, "position fen ********/********/******** w p p 0 12 0 12 0 0 "
                                   "0 0 0 0 0 0 1"),
                     "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "3/3/3/6/3/3/3 w 12 12 0 1");
    proto_close(e);
}
END_TEST

static const char *const BAD_SANMILL[] = {
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0",
    "********/********/******** w p p 0 9 0 9 0 0",
    "********/********/*******",
    "********/********/******* w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
    "********/********/********* w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
    "********/********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
    "****************/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
    "X*******/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
    "W*******/********/******** w p p 1 8 0 9 0 0 0 0 0 0 0 0 1",
    "o*******/********/******** w p p 1 8 0 9 0 0 0 0 0 0 0 0 1",
    "********/********/******** W p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
    "********/********/******** w x p 0 9 0 9 0 0 0 0 0 0 0 0 1",
    "********/********/******** w pp p 0 9 0 9 0 0 0 0 0 0 0 0 1",
    "********/********/******** w p x 0 9 0 9 0 0 0 0 0 0 0 0 1",
    "OOO*****/@@******/******** w p r 3 6 2 7 1 0 0 0 0 0 0 0 3",
    "OOO*****/@@******/******** b p s 3 6 2 7 0 1 0 0 0 0 0 0 3",
    "O*******/********/******** b p p 0 8 0 9 0 0 0 0 0 0 0 0 1",
    "O*******/********/******** b p p 1 8 1 9 0 0 0 0 0 0 0 0 1",
    "********/********/******** w p p 0 -1 0 9 0 0 0 0 0 0 0 0 1",
    "********/********/******** w p p 0 25 0 9 0 0 0 0 0 0 0 0 1",
    "********/********/******** w p p 0 10 0 9 0 0 0 0 0 0 0 0 1",
    "********/********/******** w p p 0 9 0 9 0 0 7 0 0 0 0 0 1",
    "********/********/******** w p p 0 9 0 9 0 0 32 0 0 0 0 0 1",
    "********/********/******** w p p 0 9 0 9 0 0 -1 0 0 0 0 0 1",
    "********/********/******** w p p 0 9 0 9 0 0 0 x 0 0 0 0 1",
    "********/********/******** w p p 0 9 0 9 0 0 24 0 0 0 0 0 1 ids:nodes",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 1 0 1",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 ids:nodes extra",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 16777216 0 1 ids:nodes",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 -256 0 1",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 99999999999999999999 0 1",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 -1 1",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 -1",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 x",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 c:w-1-8|b-0-",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 i:w-0-|b-1-9",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 m:w-1-|b-0-",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 p:8",
    "O@O@O@O@/O@O@O@O@/O@O@O@O@ w m s 12 0 12 0 0 0 0 0 0 0 0 0 1",
    "OOO*****/********/******** b p p 3 6 0 9 0 0 0 0 0 0 0 0 2 moves d7 d7",
    "******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
    "*",
};

// A malformed Sanmill position gives one error line naming Sanmill, and changes nothing.
START_TEST(test_sanmill_bad) {
    Proto *e = proto_open();
    char line[512];
    ck_assert_str_eq(proto_send(e, "position startpos moves d7 g7 g4"), "");
    char *before = proto_snapshot(e);
    snprintf(line, sizeof line, "position fen %s", BAD_SANMILL[_i]);
    const char *out = proto_send(e, line);
    assert_one_error(out, line);
    char *after = proto_snapshot(e);
    ck_assert_msg(!strcmp(before, after), "'%s' changed the state", line);
    free(before);
    free(after);
    // Not on the 24-point board.
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value six"), "");
    out = proto_send(e, "position fen " SANMILL_START);
    assert_one_error(out, "Sanmill in six");
    ck_assert_msg(strstr(out, "24-point") != NULL, "%s", out);
    proto_close(e);
}
END_TEST

// How many completions the prompt offers at the end of line.
static int completions(Prompt *p, const char *line, const char *want) {
    size_t len = strlen(line), start = len;
    while (start > 0 && line[start - 1] != ' ')
        start--;
    char **words;
    int n = prompt_complete(p, line, (int)start, (int)len, &words);
    bool found = !want;
    for (int i = 0; i < n; i++) {
        found |= want && !strcmp(words[i], want);
        free(words[i]);
    }
    free(words);
    ck_assert_msg(found, "'%s' not offered after '%s'", want, line);
    return n;
}

// Completing the moves of a `position` line replays them on the prompt's own game; when the
// engine switches between the mill and backgammon families that game is made anew (it used
// to be the other family's, and was freed and used with the wrong functions).
START_TEST(test_prompt_across_families) {
    Proto *e = proto_open();
    Prompt p;
    prompt_init(&p, &e->uci);
    ck_assert_int_eq(completions(&p, "position startpos moves ", "d7"), 24);
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value backgammon"), "");
    ck_assert_int_eq(completions(&p, "position startpos moves 31 ", "31:8/5,6/5"), 16);
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value six"), "");
    ck_assert_int_eq(completions(&p, "position startpos moves ", "a5"), 16);
    prompt_free(&p);
    proto_close(e);
}
END_TEST

// A backgammon game that ended says so in words on the board, as on the Result line.
START_TEST(test_d_backgammon_over) {
    Proto *e = proto_open();
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value backgammon"), "");
    const char *d = proto_send(e, "d");
    ck_assert_msg(strstr(d, "on roll") && !strstr(d, "Game over"), "%s", d);
    ck_assert_str_eq(proto_send(e, "position startpos moves double drop"), "");
    char over[160], result[160];
    d = proto_send(e, "d");
    ck_assert_msg(line_after(d, "Game over: ", over, sizeof over), "%s", d);
    ck_assert_msg(line_after(d, "Result: ", result, sizeof result), "%s", d);
    ck_assert_str_eq(over, result);
    ck_assert_msg(strstr(over, "wins 1 point") && strstr(over, "dropped the double"), "%s", over);
    proto_close(e);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// The prompt's accessors, and NUL bytes through uci_loop

START_TEST(test_accessors) {
    Proto *e = proto_open();
    int n = 0;
    while (uci_command_name(n))
        n++;
    ck_assert_int_ge(n, 20);
    ck_assert_str_eq(uci_command_name(0), "uci");
    ck_assert_ptr_null(uci_command_name(-1));
    // The option names are those `uci` declares, in its order.
    const char *uci = proto_send(e, "uci");
    int k = 0;
    for (const char *l = uci; (l = strstr(l, "option name ")); l++, k++) {
        const char *name = uci_option_name(&e->uci, k), *end = strstr(l, " type ");
        ck_assert_ptr_nonnull(name);
        ck_assert_msg((size_t)(end - l - 12) == strlen(name) &&
                          !strncmp(l + 12, name, strlen(name)),
                      "option %d is %s", k, name);
    }
    ck_assert_int_eq(k, 19);
    ck_assert_ptr_null(uci_option_name(&e->uci, k));
    char **moves;
    ck_assert_int_eq(uci_legal_moves(&e->uci, &moves), 24);
    for (int i = 0; i < 24; i++)
        free(moves[i]);
    free(moves);
    ck_assert_str_eq(proto_send(e, "position startpos moves " NINE_18), "");
    n = uci_legal_moves(&e->uci, &moves);
    ck_assert_int_eq(n, 25);
    ck_assert_msg(strchr(moves[0], '-') != NULL, "%s", moves[0]);
    for (int i = 0; i < n; i++)
        free(moves[i]);
    free(moves);
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value three"), "");
    ck_assert_str_eq(proto_send(e, "position fen " THREE_WON), "");
    ck_assert_int_eq(uci_legal_moves(&e->uci, &moves), 0);
    ck_assert_ptr_null(moves);
    uci_print_board(&e->uci);
    char *board = strdup(proto_take(e));
    const char *d = proto_send(e, "d");
    // An empty board would be a prefix of anything: it must hold the drawing's last line.
    ck_assert_msg(has_line(board, "   a   b   c"), "%s", board);
    ck_assert_msg(!strncmp(d, board, strlen(board)) && !strstr(board, "Position"), "%s", board);
    free(board);
    proto_close(e);
}
END_TEST

START_TEST(test_loop_nul) {
    static const char script[] = "isready\0junk\nisready\n\0\nquit\0\nposition startpos moves d7"
                                 "\0 g7\nd\n";
    char *out = proto_loop(script, sizeof script - 1);
    ck_assert_int_eq(count_prefix(out, ERROR_PREFIX), 4);
    ck_assert_int_eq(count_prefix(out, "readyok"), 1);
    ck_assert_msg(strstr(out, "Position: " NINE_START "\n") != NULL, "%s", out);
    ck_assert(printable_ascii(out));
    free(out);
}
END_TEST

// Add the eval, bench, dialect, person's-command and Sanmill test cases to the uci suite.
void uci_commands_cases(Suite *s) {
    int nbad_bench = (int)(sizeof BAD_BENCHES / sizeof BAD_BENCHES[0]);
    TCase *tc;

    tc = tcase_create("eval and bench");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_eval);
    tcase_add_test(tc, test_bench);
    tcase_add_loop_test(tc, test_bench_bad, 0, nbad_bench);
    suite_add_tcase(s, tc);

    tc = tcase_create("dialects and a person's commands");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_ugi_handshake);
    tcase_add_test(tc, test_ugi_query);
    tcase_add_test(tc, test_ugi_bestmove);
    tcase_add_test(tc, test_debug);
    tcase_add_test(tc, test_help_command);
    tcase_add_test(tc, test_move_undo);
    tcase_add_test(tc, test_move_undo_after_position);
    tcase_add_test(tc, test_play);
    tcase_add_test(tc, test_accessors);
    tcase_add_test(tc, test_prompt_across_families);
    tcase_add_test(tc, test_d_backgammon_over);
    tcase_add_test(tc, test_loop_nul);
    suite_add_tcase(s, tc);

    tc = tcase_create("sanmill");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_sanmill_points);
    tcase_add_test(tc, test_sanmill_positions);
    tcase_add_loop_test(tc, test_sanmill_bad, 0, (int)(sizeof BAD_SANMILL / sizeof BAD_SANMILL[0]));
    suite_add_tcase(s, tc);
}
