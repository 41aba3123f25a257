// go, stop and ponderhit: the search runs on its own thread while commands keep coming; its info
// lines and bestmove are checked against the protocol's form.
#include "tests/suites.h"

#include "tests/harness.h"
#include "tests/helpers.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// go, stop, ponderhit: the search runs on its thread while commands keep coming

#define THREE_MATE_IN_1 "WW1/3/BB1 w 1 1 0 3" // white places c3 and wins

// go depth 1 answers a legal move in every variant, from the start and after a few moves.
START_TEST(test_go_depth1_variants) {
    Proto *e = proto_open();
    char line[256], best[64];
    snprintf(line, sizeof line, "setoption name UCI_Variant value %s", VARIANT_IDS[_i]);
    ck_assert_str_eq(proto_send(e, line), "");
    for (int ply = 0; ply < 4; ply++) {
        uci_execute(&e->uci, "go depth 1");
        const char *out = proto_wait_bestmove(e);
        ck_assert_msg(count_prefix(out, "info depth 1 ") >= 1, "no depth 1 info:\n%s", out);
        assert_good_bestmove(e, out, best, sizeof best);
        char fen[128];
        proto_fen(e, fen, sizeof fen);
        snprintf(line, sizeof line, "position fen %s moves %s", fen, best);
        ck_assert_str_eq(proto_send(e, line), "");
    }
    proto_close(e);
}
END_TEST

// A finished game: bestmove (none), at once for a limited search, on stop for an infinite one.
START_TEST(test_go_game_over) {
    Proto *e = proto_open();
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value three"), "");
    ck_assert_str_eq(proto_send(e, "position fen " THREE_WON), "");
    uci_execute(&e->uci, "go depth 1");
    ck_assert_str_eq(proto_wait_bestmove(e), "bestmove (none)\n");
    uci_execute(&e->uci, "go movetime 50");
    ck_assert_str_eq(proto_wait_bestmove(e), "bestmove (none)\n");
    uci_execute(&e->uci, "go infinite");
    sleep_ms(50);
    ck_assert_str_eq(proto_take(e), "");
    ck_assert_str_eq(proto_send(e, "stop"), "bestmove (none)\n");
    // A draw by the N-move rule ends the game as well.
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value nine"), "");
    ck_assert_str_eq(proto_send(e, "setoption name NMoveRule value 4"), "");
    ck_assert_str_eq(proto_send(e, "position fen " NINE_3MEN), "");
    uci_execute(&e->uci, "go depth 2");
    ck_assert_str_eq(proto_wait_bestmove(e), "bestmove (none)\n");
    proto_close(e);
}
END_TEST

// The node count of a depth-9 search from a cleared table.
static long long depth9_nodes(Proto *e) {
    ck_assert_str_eq(proto_send(e, "ucinewgame"), "");
    uci_execute(&e->uci, "go depth 9");
    char line[512];
    long long nodes = -1;
    ck_assert(line_after(proto_wait_bestmove(e), "info depth 9 ", line, sizeof line));
    const char *p = strstr(line, " nodes ");
    ck_assert(p && sscanf(p, " nodes %lld", &nodes) == 1);
    return nodes;
}

// The search switches: each one off changes the tree of a fixed-depth search; on again, the
// tree is the default one.
START_TEST(test_search_switches) {
    static const char *const SWITCHES[] = {"ReverseFutility", "LateMovePruning",
                                           "LateMoveReductions", "Quiescence", "AspirationWindows"};
    Proto *e = proto_open();
    char cmd[128];
    ck_assert_str_eq(proto_send(e, "position startpos moves d7 g7 g4 a7 a4 g1"), "");
    long long base = depth9_nodes(e);
    for (int i = 0; i < 5; i++) {
        snprintf(cmd, sizeof cmd, "setoption name %s value false", SWITCHES[i]);
        ck_assert_str_eq(proto_send(e, cmd), "");
        long long off = depth9_nodes(e);
        ck_assert_msg(off != base, "%s off: the same search (%lld nodes)", SWITCHES[i], off);
        snprintf(cmd, sizeof cmd, "setoption name %s value true", SWITCHES[i]);
        ck_assert_str_eq(proto_send(e, cmd), "");
    }
    ck_assert_int_eq(depth9_nodes(e), base);
    ck_assert_str_eq(proto_send(e, "setoption name Quiescence value maybe"),
                     "info string error: option Quiescence takes true or false, not 'maybe'\n");
    proto_close(e);
}
END_TEST

// go depth 3: info lines in the protocol's form, deepening to 3, then the bestmove, which is
// the first move of the last principal variation.
START_TEST(test_go_info_format) {
    Proto *e = proto_open();
    Info infos[64];
    char best[64];
    ck_assert_str_eq(proto_send(e, "position startpos moves d7 g7 g4 a7"), "");
    uci_execute(&e->uci, "go depth 3");
    const char *out = proto_wait_bestmove(e);
    ck_assert_msg(printable_ascii(out), "%s", out);
    ck_assert_msg(!strncmp(last_line(out), "bestmove ", 9), "bestmove is not the last line:\n%s",
                  out);
    int n = parse_infos(out, infos, 64);
    ck_assert_int_ge(n, 1);
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(infos[i].multipv, 1);
        ck_assert_msg(!infos[i].has_wdl, "wdl without UCI_ShowWDL:\n%s", out);
        ck_assert_int_le(infos[i].depth, 3);
        if (i > 0) {
            ck_assert_int_ge(infos[i].depth, infos[i - 1].depth);
            ck_assert(infos[i].nodes >= infos[i - 1].nodes);
            ck_assert(infos[i].time >= infos[i - 1].time);
        }
    }
    ck_assert_int_eq(infos[n - 1].depth, 3);
    char *copy = strdup(out);
    assert_good_bestmove(e, copy, best, sizeof best);
    ck_assert_str_eq(best, infos[n - 1].first);
    free(copy);
    proto_close(e);
}
END_TEST

// UCI_ShowWDL adds `wdl w d l` to every info line.
START_TEST(test_go_show_wdl) {
    Proto *e = proto_open();
    Info infos[64];
    ck_assert_str_eq(proto_send(e, "setoption name UCI_ShowWDL value true"), "");
    uci_execute(&e->uci, "go depth 3");
    const char *out = proto_wait_bestmove(e);
    int n = parse_infos(out, infos, 64);
    ck_assert_int_ge(n, 1);
    for (int i = 0; i < n; i++)
        ck_assert_msg(infos[i].has_wdl, "no wdl:\n%s", out);
    ck_assert_str_eq(proto_send(e, "setoption name UCI_ShowWDL value false"), "");
    uci_execute(&e->uci, "go depth 2");
    out = proto_wait_bestmove(e);
    n = parse_infos(out, infos, 64);
    for (int i = 0; i < n; i++)
        ck_assert_msg(!infos[i].has_wdl, "wdl after switching it off:\n%s", out);
    proto_close(e);
}
END_TEST

// stop ends an infinite search at once with exactly one legal bestmove; later stops are silent.
START_TEST(test_go_infinite_stop) {
    static const char *const gos[] = {"go infinite", "go", "go searchmoves d6 b4", "go winc 100"};
    Proto *e = proto_open();
    for (size_t i = 0; i < sizeof gos / sizeof gos[0]; i++) {
        uci_execute(&e->uci, gos[i]);
        sleep_ms(100);
        char *text = proto_peek(e);
        ck_assert_msg(count_prefix(text, "bestmove") == 0, "'%s' ended by itself:\n%s", gos[i],
                      text);
        free(text);
        double t0 = seconds();
        uci_execute(&e->uci, "stop");
        double t = seconds() - t0;
        ck_assert_msg(t < 2.0, "stop took %.2f s", t);
        char *out = strdup(proto_take(e));
        ck_assert_ptr_nonnull(out);
        assert_good_bestmove(e, out, NULL, 0);
        free(out);
        ck_assert_str_eq(proto_send(e, "stop"), "");
        ck_assert_str_eq(proto_send(e, "ponderhit"), "");
    }
    proto_close(e);
}
END_TEST

// stop and ponderhit without a search are ignored, also after a search ended by itself.
START_TEST(test_stop_when_idle) {
    Proto *e = proto_open();
    ck_assert_str_eq(proto_send(e, "stop"), "");
    ck_assert_str_eq(proto_send(e, "ponderhit"), "");
    uci_execute(&e->uci, "go depth 1");
    ck_assert(proto_wait_line(e, "bestmove", SEARCH_WAIT));
    proto_take(e);
    ck_assert_str_eq(proto_send(e, "stop"), "");
    ck_assert_str_eq(proto_send(e, "ponderhit"), "");
    ck_assert_str_eq(proto_send(e, "stop"), "");
    proto_close(e);
}
END_TEST

// isready, d, moves, eval, uci and help answer during a search without stopping it.
START_TEST(test_commands_during_search) {
    static const char *const reading[] = {"isready", "d", "moves", "eval", "uci", "help"};
    Proto *e = proto_open();
    uci_execute(&e->uci, "go infinite");
    for (size_t i = 0; i < sizeof reading / sizeof reading[0]; i++) {
        uci_execute(&e->uci, reading[i]);
        char *text = proto_peek(e);
        ck_assert_msg(count_prefix(text, "bestmove") == 0, "'%s' stopped the search:\n%s",
                      reading[i], text);
        ck_assert_msg(count_prefix(text, ERROR_PREFIX) == 0, "%s", text);
        free(text);
    }
    const char *out = proto_take(e);
    ck_assert_msg(count_prefix(out, "readyok") == 1, "%s", out);
    ck_assert_msg(count_prefix(out, "uciok") == 1, "%s", out);
    ck_assert_msg(count_prefix(out, "Position: " NINE_START) == 1, "%s", out);
    out = proto_send(e, "stop");
    ck_assert_int_eq(count_prefix(out, "bestmove "), 1);
    proto_close(e);
}
END_TEST

// Each command that changes the state first stops the search: its bestmove comes before the
// command's own replies, and the command then runs.
static const char *const STOPPING[] = {
    "position startpos moves d7",
    "setoption name Hash value 8",
    "setoption name UCI_Variant value six",
    "setoption name Flying value false",
    "ucinewgame",
    "perft 1",
    "bench 1",
    "go depth 1",
    "stop",
    "quit",
    "position garbage",
};

START_TEST(test_command_stops_search) {
    const char *cmd = STOPPING[_i];
    Proto *e = proto_open();
    uci_execute(&e->uci, "go infinite");
    sleep_ms(20);
    bool go_on = uci_execute(&e->uci, cmd);
    ck_assert(go_on == (strcmp(cmd, "quit") != 0));
    if (!strcmp(cmd, "go depth 1")) // the second search ends by itself
        ck_assert(proto_wait_lines(e, "bestmove ", 2, SEARCH_WAIT));
    uci_stop_search(&e->uci);
    proto_take(e);
    char *out = strdup(e->last);
    ck_assert_ptr_nonnull(out);
    // Only info lines precede the first bestmove, which is a legal move of the start.
    const char *first = strstr(out, "bestmove ");
    ck_assert_msg(first != NULL, "'%s' did not stop the search:\n%s", cmd, out);
    for (const char *l = out; l < first; l = strchr(l, '\n') + 1)
        ck_assert_msg(!strncmp(l, "info ", 5), "'%s' replied before the bestmove:\n%s", cmd, out);
    char best[64];
    sscanf(first, "bestmove %63s", best);
    bool start_point = false;
    for (int i = 0; i < NINE_NPOINTS; i++)
        start_point |= !strcmp(best, NINE_POINTS[i]);
    ck_assert_msg(start_point, "bestmove %s is not a move of the start", best);
    ck_assert_int_eq(count_prefix(out, "bestmove "), strcmp(cmd, "go depth 1") ? 1 : 2);
    if (!strcmp(cmd, "perft 1"))
        ck_assert_msg(has_line(out, "Nodes searched: 24"), "%s", out);
    if (!strcmp(cmd, "position startpos moves d7")) {
        char fen[128];
        proto_fen(e, fen, sizeof fen);
        ck_assert_str_eq(fen, "1W1/3/3/6/3/3/3 b 8 9 0 1");
    }
    if (!strcmp(cmd, "position garbage"))
        ck_assert_int_eq(count_prefix(out, ERROR_PREFIX), 1);
    free(out);
    proto_close(e);
}
END_TEST

// quit during a search stops it; through uci_loop the loop returns with one bestmove.
START_TEST(test_quit_during_search) {
    Proto *e = proto_open();
    uci_execute(&e->uci, "go infinite");
    sleep_ms(20);
    ck_assert(!uci_execute(&e->uci, "quit"));
    ck_assert_int_eq(count_prefix(proto_take(e), "bestmove "), 1);
    proto_close(e);

    const char *script = "go infinite\nisready\nquit\nisready\n";
    double t0 = seconds();
    char *out = proto_loop(script, strlen(script));
    ck_assert_msg(seconds() - t0 < 5.0, "quit took %.1f s", seconds() - t0);
    ck_assert_int_eq(count_prefix(out, "readyok"), 1);
    ck_assert_int_eq(count_prefix(out, "bestmove "), 1);
    free(out);

    // An engine freed while searching stops the search too.
    e = proto_open();
    uci_execute(&e->uci, "go infinite");
    sleep_ms(20);
    uci_free(&e->uci);
    ck_assert_int_eq(count_prefix(proto_take(e), "bestmove "), 1);
    proto_close(e); // a second uci_free does nothing
}
END_TEST

// At end of input a running search is stopped and its bestmove printed before uci_loop returns.
// At end of input a search that would never end (infinite, bare go, ponder) is stopped; a
// search with its own limit finishes first, so that a piped script gets what it asked for.
START_TEST(test_eof_during_search) {
    static const char *const scripts[] = {
        "go infinite\n",
        "go\n",
        "go ponder movetime 100000\n",
        "position startpos moves d7\ngo movetime 300",
        "uci\nisready\nposition startpos\ngo depth 2\n",
    };
    for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; i++) {
        double t0 = seconds();
        char *out = proto_loop(scripts[i], strlen(scripts[i]));
        ck_assert_msg(seconds() - t0 < 5.0, "end of input took %.1f s", seconds() - t0);
        ck_assert_msg(count_prefix(out, "bestmove ") == 1, "script %zu gave:\n%s", i, out);
        ck_assert(count_prefix(out, ERROR_PREFIX) == 0);
        free(out);
    }
    // The limited searches ran to their limit: depth 2 was reached, and 300 ms were used.
    double t0 = seconds();
    char *out = proto_loop(scripts[3], strlen(scripts[3]));
    ck_assert_msg(seconds() - t0 >= 0.25, "go movetime 300 ended after %.2f s at end of input",
                  seconds() - t0);
    free(out);
    out = proto_loop(scripts[4], strlen(scripts[4]));
    ck_assert_msg(strstr(out, "info depth 2 ") != NULL, "go depth 2 did not reach depth 2:\n%s",
                  out);
    free(out);
}
END_TEST

// go movetime 100 answers by itself within 100 ms and some slack (the engine may stop early
// when its best move is stable).
START_TEST(test_go_movetime) {
    Proto *e = proto_open();
    double t0 = seconds();
    uci_execute(&e->uci, "go movetime 100");
    ck_assert(proto_wait_line(e, "bestmove", SEARCH_WAIT));
    double t = seconds() - t0;
    const char *out = proto_wait_bestmove(e);
    ck_assert_msg(t < 1.0, "go movetime 100 took %.3f s", t);
    char *copy = strdup(out);
    assert_good_bestmove(e, copy, NULL, 0);
    free(copy);
    // With clocks the search also ends by itself, well within the time left.
    t0 = seconds();
    uci_execute(&e->uci, "go wtime 3000 btime 3000 winc 0 binc 0");
    ck_assert(proto_wait_line(e, "bestmove", SEARCH_WAIT));
    t = seconds() - t0;
    proto_wait_bestmove(e);
    ck_assert_msg(t < 1.5, "3 s on the clock, the search took %.3f s", t);
    proto_close(e);
}
END_TEST

// In a fresh process, a backgammon search on the clock whose depth reaches bear-offs does not
// wait for the bear-off database (about a second to build, longer in the checked builds): it
// answers within its movetime, and so do the searches after it.
START_TEST(test_go_movetime_bearoff) {
    Child *p = child_start();
    child_send(p, "setoption name UCI_Variant value backgammon");
    free(child_sync(p));
    for (int i = 0; i < 3; i++) {
        child_send(p, "position gnubgid 3hsAAHTvBgoAAg:UQkJAAAAAAAA");
        char *text;
        double t = child_timed(p, "go movetime 200", "bestmove", &text);
        ck_assert_msg(t < 0.45, "search %d took %.3f s:\n%s", i + 1, t, text);
        ck_assert_msg(strstr(text, "bestmove 22:"), "%s", text);
        free(text);
    }
    child_quit(p);
}
END_TEST

// go nodes ends the search by itself near the node budget.
START_TEST(test_go_nodes) {
    enum { BUDGET = 3000 };
    Proto *e = proto_open();
    Info infos[128];
    uci_execute(&e->uci, "go nodes 3000");
    const char *out = proto_wait_bestmove(e);
    int n = parse_infos(out, infos, 128);
    // The budget is checked every thousand nodes or so.
    for (int i = 0; i < n; i++)
        ck_assert_msg(infos[i].nodes < BUDGET + 4096, "%lld nodes for a budget of %d",
                      infos[i].nodes, BUDGET);
    char *copy = strdup(out);
    assert_good_bestmove(e, copy, NULL, 0);
    free(copy);
    proto_close(e);
}
END_TEST

// go mate 1 finds the mill that wins three men's morris, reported as mate 1.
START_TEST(test_go_mate) {
    Proto *e = proto_open();
    Info infos[16];
    char best[64], ponder[64];
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value three"), "");
    ck_assert_str_eq(proto_send(e, "position fen " THREE_MATE_IN_1), "");
    uci_execute(&e->uci, "go mate 1");
    const char *out = proto_wait_bestmove(e);
    int n = parse_infos(out, infos, 16);
    ck_assert_int_ge(n, 1);
    ck_assert_msg(infos[n - 1].mate && infos[n - 1].score == 1, "not mate 1:\n%s", out);
    get_bestmove(out, best, ponder, sizeof best);
    ck_assert_str_eq(best, "c3");
    ck_assert_str_eq(ponder, "");
    // The same from a plain depth-limited search.
    uci_execute(&e->uci, "go depth 3");
    out = proto_wait_bestmove(e);
    n = parse_infos(out, infos, 16);
    ck_assert_msg(n >= 1 && infos[n - 1].mate && infos[n - 1].score == 1, "%s", out);
    proto_close(e);
}
END_TEST

// searchmoves keeps the search to the moves listed.
START_TEST(test_go_searchmoves) {
    Proto *e = proto_open();
    Info infos[64];
    char best[64];
    uci_execute(&e->uci, "go depth 3 searchmoves a1 g7");
    const char *out = proto_wait_bestmove(e);
    int n = parse_infos(out, infos, 64);
    ck_assert_int_ge(n, 1);
    for (int i = 0; i < n; i++)
        ck_assert_msg(!strcmp(infos[i].first, "a1") || !strcmp(infos[i].first, "g7"), "%s", out);
    char *copy = strdup(out);
    assert_good_bestmove(e, copy, best, sizeof best);
    free(copy);
    ck_assert_msg(!strcmp(best, "a1") || !strcmp(best, "g7"), "bestmove %s", best);
    // One move: that move; with MultiPV above the number of moves, one line per move.
    ck_assert_str_eq(proto_send(e, "setoption name MultiPV value 3"), "");
    uci_execute(&e->uci, "go depth 2 searchmoves d6");
    out = proto_wait_bestmove(e);
    n = parse_infos(out, infos, 64);
    for (int i = 0; i < n; i++)
        ck_assert_msg(infos[i].multipv == 1 && !strcmp(infos[i].first, "d6"), "%s", out);
    copy = strdup(out);
    assert_good_bestmove(e, copy, best, sizeof best);
    free(copy);
    ck_assert_str_eq(best, "d6");
    proto_close(e);
}
END_TEST

// MultiPV 3: each depth reports lines multipv 1, 2, 3 with different first moves.
START_TEST(test_go_multipv) {
    Proto *e = proto_open();
    Info infos[128];
    ck_assert_str_eq(proto_send(e, "setoption name MultiPV value 3"), "");
    uci_execute(&e->uci, "go depth 3");
    const char *out = proto_wait_bestmove(e);
    int n = parse_infos(out, infos, 128);
    ck_assert_msg(n >= 3 && n % 3 == 0, "%d info lines:\n%s", n, out);
    for (int i = 0; i < n; i += 3) {
        for (int k = 0; k < 3; k++) {
            ck_assert_msg(infos[i + k].multipv == k + 1, "%s", out);
            ck_assert_int_eq(infos[i + k].depth, infos[i].depth);
        }
        ck_assert_msg(strcmp(infos[i].first, infos[i + 1].first) &&
                          strcmp(infos[i].first, infos[i + 2].first) &&
                          strcmp(infos[i + 1].first, infos[i + 2].first),
                      "repeated first moves:\n%s", out);
    }
    ck_assert_int_eq(infos[n - 1].depth, 3);
    char best[64];
    char *copy = strdup(out);
    assert_good_bestmove(e, copy, best, sizeof best);
    free(copy);
    ck_assert_str_eq(best, infos[n - 3].first);
    // Fewer legal moves than MultiPV: one line per move at most.
    ck_assert_str_eq(proto_send(e, "setoption name MultiPV value 64"), "");
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value three"), "");
    ck_assert_str_eq(proto_send(e, "position startpos moves b2 a1 c3"), "");
    uci_execute(&e->uci, "go depth 2");
    out = proto_wait_bestmove(e);
    n = parse_infos(out, infos, 128);
    for (int i = 0; i < n; i++)
        ck_assert_msg(infos[i].multipv <= 6, "%s", out);
    proto_close(e);
}
END_TEST

// The engine options take effect and the search still answers legal moves.
START_TEST(test_engine_options) {
    Proto *e = proto_open();
    ck_assert_str_eq(proto_send(e, "setoption name Hash value 1"), "");
    ck_assert_msg(has_line(proto_send(e, "uci"), "option name Hash type spin default 1 min 1 max "
                                                 "65536"),
                  "%s", e->last);
    uci_execute(&e->uci, "go depth 4");
    char *out = strdup(proto_wait_bestmove(e));
    assert_good_bestmove(e, out, NULL, 0);
    free(out);
    ck_assert_str_eq(proto_send(e, "setoption name hash value 64"), "");
    ck_assert_str_eq(proto_send(e, "setoption name Clear Hash"), "");
    ck_assert_str_eq(proto_send(e, "setoption name clear hash value whatever"), "");
    ck_assert_str_eq(proto_send(e, "setoption name Threads value 2"), "");
    ck_assert_str_eq(proto_send(e, "setoption name Ponder value true"), "");
    ck_assert_str_eq(proto_send(e, "setoption name move overhead value 0"), "");
    ck_assert_str_eq(proto_send(e, "setoption name MultiPV value 2"), "");
    const char *uci = proto_send(e, "uci");
    ck_assert_msg(has_line(uci, "option name Hash type spin default 64 min 1 max 65536") &&
                      has_line(uci, "option name Threads type spin default 2 min 1 max 256") &&
                      has_line(uci, "option name Ponder type check default true") &&
                      has_line(uci, "option name MultiPV type spin default 2 min 1 max 64") &&
                      has_line(uci, "option name Move Overhead type spin default 0 min 0 max 5000"),
                  "%s", uci);
    // Two threads: a limited search and a stopped infinite one both answer legal moves.
    uci_execute(&e->uci, "go depth 5");
    out = strdup(proto_wait_bestmove(e));
    assert_good_bestmove(e, out, NULL, 0);
    free(out);
    uci_execute(&e->uci, "go infinite");
    sleep_ms(100);
    out = strdup(proto_send(e, "stop"));
    assert_good_bestmove(e, out, NULL, 0);
    free(out);
    ck_assert_str_eq(proto_send(e, "ucinewgame"), "");
    proto_close(e);
}
END_TEST

// Pondering: no time limit until ponderhit; then the search runs on the clock from the
// ponderhit and answers by itself.
START_TEST(test_go_ponder_ponderhit) {
    Proto *e = proto_open();
    ck_assert_str_eq(proto_send(e, "setoption name Move Overhead value 0"), "");
    ck_assert_str_eq(proto_send(e, "position startpos moves d7"), "");
    uci_execute(&e->uci, "go ponder movetime 200");
    sleep_ms(400);
    char *text = proto_peek(e);
    ck_assert_msg(count_prefix(text, "bestmove") == 0, "the ponder search ended:\n%s", text);
    free(text);
    double t0 = seconds();
    uci_execute(&e->uci, "ponderhit");
    ck_assert(proto_wait_line(e, "bestmove", SEARCH_WAIT));
    double t = seconds() - t0;
    char *out = strdup(proto_wait_bestmove(e));
    // The clock starts at the ponderhit: no answer at once, one within the movetime and slack.
    // (A stable best move may let the engine stop before the full movetime.)
    ck_assert_msg(t >= 0.05 && t < 1.5, "bestmove %.3f s after ponderhit, movetime 200", t);
    assert_good_bestmove(e, out, NULL, 0);
    free(out);

    // With clocks: no stop on time while pondering, a prompt answer after ponderhit.
    uci_execute(&e->uci, "go ponder wtime 1000 btime 1000");
    sleep_ms(300);
    text = proto_peek(e);
    ck_assert_msg(count_prefix(text, "bestmove") == 0, "the ponder search ended:\n%s", text);
    free(text);
    t0 = seconds();
    uci_execute(&e->uci, "ponderhit");
    ck_assert(proto_wait_line(e, "bestmove", SEARCH_WAIT));
    t = seconds() - t0;
    proto_wait_bestmove(e);
    ck_assert_msg(t < 0.8, "bestmove %.3f s after ponderhit with 1 s on the clock", t);

    // A ponder miss: stop ends the ponder search with one bestmove.
    uci_execute(&e->uci, "go ponder wtime 1000 btime 1000");
    sleep_ms(50);
    ck_assert_int_eq(count_prefix(proto_send(e, "stop"), "bestmove "), 1);
    proto_close(e);
}
END_TEST

static const char *const BAD_GOS[] = {
    "go depth",
    "go depth 0",
    "go depth -1",
    "go depth abc",
    "go depth 1.5",
    "go depth 3x",
    "go depth 99999999999999999999",
    "go nodes 0",
    "go nodes -5",
    "go movetime 0",
    "go movetime -10",
    "go mate 0",
    "go mate -2",
    "go wtime abc",
    "go wtime",
    "go winc -1",
    "go binc x",
    "go movestogo -1",
    "go foo",
    "go depth 2 foo",
    "go infinite bar",
    "go 5",
    "go Depth 3",
    "go searchmoves",
    "go depth 2 searchmoves",
    "go searchmoves zz",
    "go depth 2 searchmoves d7 zz",
    "go searchmoves d7-g7",
    "go depth \x01\xff",
};

// A bad go gives one error line and starts no search.
START_TEST(test_go_bad) {
    Proto *e = proto_open();
    char in[256];
    const char *out = proto_send(e, BAD_GOS[_i]);
    assert_one_error(out, escape_line(BAD_GOS[_i], in, sizeof in));
    ck_assert_msg(printable_ascii(out), "%s", out);
    ck_assert(!e->uci.searching);
    sleep_ms(20);
    ck_assert_str_eq(proto_send(e, "stop"), "");
    proto_close(e);
}
END_TEST

// Negative clock times (a GUI's engine overstepped a margin) are read as no time left.
START_TEST(test_go_negative_clock) {
    Proto *e = proto_open();
    double t0 = seconds();
    uci_execute(&e->uci, "go wtime -50 btime -50");
    char *out = strdup(proto_wait_bestmove(e));
    ck_assert_msg(seconds() - t0 < 1.0, "took %.2f s with no time left", seconds() - t0);
    assert_good_bestmove(e, out, NULL, 0);
    free(out);
    proto_close(e);
}
END_TEST

// A new go while one runs: the first answers its bestmove, then the second runs.
START_TEST(test_go_twice) {
    Proto *e = proto_open();
    uci_execute(&e->uci, "go infinite");
    sleep_ms(20);
    uci_execute(&e->uci, "go depth 2");
    ck_assert(proto_wait_lines(e, "bestmove ", 2, SEARCH_WAIT));
    const char *out = proto_wait_bestmove(e);
    ck_assert_int_eq(count_prefix(out, "bestmove "), 2);
    ck_assert_msg(strstr(strstr(out, "bestmove "), "info depth 2 ") != NULL, "%s", out);
    proto_close(e);
}
END_TEST

// Add the go and search-thread test cases to the uci suite.
void uci_go_cases(Suite *s) {
    int nvariants = (int)(sizeof VARIANT_IDS / sizeof VARIANT_IDS[0]);
    int nbad_go = (int)(sizeof BAD_GOS / sizeof BAD_GOS[0]);
    int nstopping = (int)(sizeof STOPPING / sizeof STOPPING[0]);
    TCase *tc;

    tc = tcase_create("go");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_go_depth1_variants, 0, nvariants);
    tcase_add_test(tc, test_go_game_over);
    tcase_add_test(tc, test_search_switches);
    tcase_add_test(tc, test_go_info_format);
    tcase_add_test(tc, test_go_show_wdl);
    tcase_add_test(tc, test_go_mate);
    tcase_add_test(tc, test_go_searchmoves);
    tcase_add_test(tc, test_go_multipv);
    tcase_add_test(tc, test_go_nodes);
    tcase_add_test(tc, test_go_twice);
    tcase_add_test(tc, test_go_negative_clock);
    tcase_add_loop_test(tc, test_go_bad, 0, nbad_go);
    suite_add_tcase(s, tc);

    tc = tcase_create("search thread");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_go_infinite_stop);
    tcase_add_test(tc, test_stop_when_idle);
    tcase_add_test(tc, test_commands_during_search);
    tcase_add_loop_test(tc, test_command_stops_search, 0, nstopping);
    tcase_add_test(tc, test_quit_during_search);
    tcase_add_test(tc, test_eof_during_search);
    tcase_add_test(tc, test_go_movetime);
    tcase_add_test(tc, test_go_movetime_bearoff);
    tcase_add_test(tc, test_go_ponder_ponderhit);
    tcase_add_test(tc, test_engine_options);
    suite_add_tcase(s, tc);
}
