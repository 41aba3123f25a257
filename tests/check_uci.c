// The protocol command loop, one command at a time: the handshake, setoption, position, perft,
// moves and d, run through an engine writing into memory and checked line by line. The other
// commands are in check_uci_framing.c, check_uci_go.c and check_uci_commands.c, which add their
// test cases to this suite.
#include "tests/suites.h"

#include "tests/harness.h"
#include "tests/helpers.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// uci, isready, help

START_TEST(test_uci_handshake) {
    char *out = proto_run("uci", false);
    const char *expected = "option name UCI_Variant type combo default nine var nine var twelve "
                           "var eleven var morabaraba var lasker var six var five var seven var "
                           "three var nine-holes var tapatan var achi var backgammon\n"
                           "option name Flying type check default true\n"
                           "option name RemoveFromMills type check default false\n"
                           "option name RemovalPerMill type check default false\n"
                           "option name Repetition type check default true\n"
                           "option name NMoveRule type spin default 100 min 0 max 10000\n"
                           "option name TablebasePath type string default <empty>\n"
                           "option name ReverseFutility type check default true\n"
                           "option name LateMovePruning type check default true\n"
                           "option name LateMoveReductions type check default true\n"
                           "option name Quiescence type check default true\n"
                           "option name AspirationWindows type check default true\n"
                           "option name Hash type spin default 16 min 1 max 65536\n"
                           "option name Clear Hash type button\n"
                           "option name Threads type spin default 1 min 1 max 256\n"
                           "option name MultiPV type spin default 1 min 1 max 64\n"
                           "option name Ponder type check default false\n"
                           "option name Move Overhead type spin default 30 min 0 max 5000\n"
                           "option name UCI_ShowWDL type check default false\n"
                           "uciok\n";
    ck_assert_msg(!strncmp(out, "id name tabula ", strlen("id name tabula ")), "got:\n%s", out);
    const char *author = strchr(out, '\n') + 1;
    ck_assert_msg(!strncmp(author, "id author ", strlen("id author ")), "got:\n%s", out);
    const char *options = strchr(author, '\n') + 1;
    ck_assert_str_eq(options, expected);
    free(out);
}
END_TEST

START_TEST(test_isready) {
    char *out = proto_run("isready", false);
    ck_assert_str_eq(out, "readyok\n");
    free(out);
}
END_TEST

START_TEST(test_help_lists_commands) {
    static const char *const names[] = {
        "uci",      "ugi",   "isready", "debug", "setoption", "ucinewgame", "uginewgame", "new",
        "position", "move",  "undo",    "play",  "go",        "stop",       "ponderhit",  "query",
        "perft",    "bench", "d",       "moves", "eval",      "help",       "quit"};
    char *out = proto_run("help", false);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char prefix[32], rest[128];
        snprintf(prefix, sizeof prefix, "%s ", names[i]);
        ck_assert_msg(line_after(out, prefix, rest, sizeof rest), "help does not list '%s':\n%s",
                      names[i], out);
    }
    ck_assert(strstr(out, ERROR_PREFIX) == NULL);
    free(out);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// setoption

START_TEST(test_setoption_variant_six) {
    Proto *e = proto_open();
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value six"), "");
    const char *d = proto_send(e, "d");
    ck_assert_msg(has_line(d, "Variant: six"), "got:\n%s", d);
    ck_assert_msg(has_line(d, "Position: " SIX_START), "got:\n%s", d);
    ck_assert_msg(has_line(d, "   a   b   c   d   e"), "got:\n%s", d);
    const char *p = proto_send(e, "perft 2");
    ck_assert_msg(has_line(p, "Nodes searched: 240"), "got:\n%s", p);
    proto_close(e);
}
END_TEST

START_TEST(test_setoption_case_insensitive) {
    Proto *e = proto_open();
    char fen[128];
    ck_assert_str_eq(proto_send(e, "setoption name uci_variant value SIX"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, SIX_START);
    ck_assert_str_eq(proto_send(e, "setoption name UCI_VARIANT value Three"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, THREE_START);
    ck_assert_str_eq(proto_send(e, "setoption name Uci_Variant value NINE"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    ck_assert_str_eq(proto_send(e, "setoption name repetition value False"), "");
    ck_assert_str_eq(proto_send(e, "position fen " NINE_3MEN), "");
    ck_assert_str_eq(proto_send(e, "setoption name fLyInG value FALSE"), "");
    ck_assert_msg(same_moves(proto_send(e, "moves"), SLIDES), "got %s", e->last);
    ck_assert_str_eq(proto_send(e, "setoption name FLYING value True"), "");
    ck_assert_msg(!same_moves(proto_send(e, "moves"), SLIDES), "got %s", e->last);
    ck_assert_str_eq(proto_send(e, "setoption name nmoverule value 4"), "");
    ck_assert_str_eq(proto_send(e, "moves"), "(none)\n");
    proto_close(e);
}
END_TEST

START_TEST(test_setoption_variant) {
    Proto *e = proto_open();
    char fen[128];
    ck_assert_str_eq(proto_send(e, "position startpos moves d7 g7 g4"), "");
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value three"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, THREE_START);
    ck_assert_str_eq(proto_send(e, "position startpos moves b2"), "");
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value nine"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    // Setting the variant in force again changes nothing: not the position, not the rules.
    ck_assert_str_eq(proto_send(e, "position startpos moves d7"), "");
    ck_assert_str_eq(proto_send(e, "setoption name Flying value false"), "");
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value nine"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "1W1/3/3/6/3/3/3 b 8 9 0 1");
    ck_assert_ptr_nonnull(
        strstr(proto_send(e, "uci"), "option name Flying type check default false"));
    // Another variant resets the rule options to its defaults.
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value twelve"), "");
    ck_assert_ptr_nonnull(
        strstr(proto_send(e, "uci"), "option name Flying type check default true"));
    proto_close(e);
}
END_TEST

// The rule options act on the game: NMoveRule ends it, Flying changes the moves.
START_TEST(test_setoption_rules_take_effect) {
    Proto *e = proto_open();
    char buf[4096], *tok[256];
    // White has 3 men and flies by default; no flying leaves its 6 sliding moves.
    ck_assert_str_eq(proto_send(e, "position fen " NINE_3MEN), "");
    ck_assert_int_gt(split_moves(proto_send(e, "moves"), buf, sizeof buf, tok, 256), 6);
    ck_assert_str_eq(proto_send(e, "setoption name Flying value false"), "");
    ck_assert_msg(same_moves(proto_send(e, "moves"), SLIDES), "got %s", e->last);
    ck_assert_msg(has_line(proto_send(e, "d"), "Result: the game goes on"), "%s", e->last);
    ck_assert_str_eq(proto_send(e, "setoption name NMoveRule value 4"), "");
    const char *d = proto_send(e, "d");
    ck_assert_msg(line_after(d, "Result: draw", buf, sizeof buf), "got:\n%s", d);
    ck_assert_str_eq(proto_send(e, "moves"), "(none)\n");
    ck_assert_str_eq(proto_send(e, "setoption name NMoveRule value 0"), "");
    ck_assert_msg(has_line(proto_send(e, "d"), "Result: the game goes on"), "%s", e->last);
    proto_close(e);
}
END_TEST

static const char *const BAD_SETOPTIONS[] = {
    "setoption name UCI_Variant value chess",
    "setoption name UCI_Variant value backgammon2",
    "setoption name UCI_Variant value nine extra",
    "setoption name UCI_Variant",
    "setoption name UCI_Variant value",
    "setoption name Foo value 1",
    "setoption name Hashish value 16",
    "setoption name Flying value yes",
    "setoption name Flying value 1",
    "setoption name Flying",
    "setoption name Repetition value truee",
    "setoption name NMoveRule value 10001",
    "setoption name NMoveRule value -1",
    "setoption name NMoveRule value abc",
    "setoption name NMoveRule value 12abc",
    "setoption name NMoveRule value 99999999999999999999999",
    "setoption name NMoveRule",
    "setoption",
    "setoption name",
    "setoption UCI_Variant value six",
    "setoption value six",
    "setoption Name UCI_Variant value six",
    "setoption name Hash value 0",
    "setoption name Hash value 65537",
    "setoption name Hash value abc",
    "setoption name Hash value",
    "setoption name Hash",
    "setoption name Threads value 0",
    "setoption name Threads value 257",
    "setoption name MultiPV value 0",
    "setoption name MultiPV value 65",
    "setoption name MultiPV value 2.5",
    "setoption name Ponder value yes",
    "setoption name UCI_ShowWDL value 1",
    "setoption name Move Overhead value -1",
    "setoption name Move Overhead value 5001",
    "setoption name MoveOverhead value 10",
    "setoption name Clear",
};

// A bad setoption gives one error line and leaves variant, position and options alone.
START_TEST(test_setoption_bad) {
    Proto *e = proto_open();
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value six"), "");
    ck_assert_str_eq(proto_send(e, "setoption name NMoveRule value 42"), "");
    ck_assert_str_eq(proto_send(e, "setoption name Flying value true"), "");
    ck_assert_str_eq(proto_send(e, "position startpos moves a5 b4 c5"), "");
    char *before = proto_snapshot(e);
    assert_one_error(proto_send(e, BAD_SETOPTIONS[_i]), BAD_SETOPTIONS[_i]);
    char *after = proto_snapshot(e);
    ck_assert_msg(!strcmp(before, after), "'%s' changed the state:\n%s\n---\n%s",
                  BAD_SETOPTIONS[_i], before, after);
    free(before);
    free(after);
    proto_close(e);
}
END_TEST

START_TEST(test_setoption_spin_bounds) {
    Proto *e = proto_open();
    ck_assert_str_eq(proto_send(e, "setoption name NMoveRule value 10000"), "");
    ck_assert_str_eq(proto_send(e, "position fen W1W/W2/3/6/3/2B/B1B w 0 0 9999 20"), "");
    ck_assert_msg(has_line(proto_send(e, "d"), "Result: the game goes on"), "%s", e->last);
    ck_assert_str_eq(proto_send(e, "position fen W1W/W2/3/6/3/2B/B1B w 0 0 10000 20"), "");
    ck_assert_msg(
        has_line(proto_send(e, "d"), "Result: draw: 10000 plies without a placement or removal"),
        "%s", e->last);
    ck_assert_str_eq(proto_send(e, "setoption name NMoveRule value 0"), "");
    ck_assert_str_eq(proto_send(e, "position fen W1W/W2/3/6/3/2B/B1B w 0 0 1000000 20"), "");
    ck_assert_msg(has_line(proto_send(e, "d"), "Result: the game goes on"), "%s", e->last);
    proto_close(e);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// position, ucinewgame

START_TEST(test_position_startpos_moves) {
    Proto *e = proto_open();
    char fen[128];
    ck_assert_str_eq(proto_send(e, "position startpos"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    ck_assert_str_eq(proto_send(e, "position startpos moves"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    ck_assert_str_eq(proto_send(e, "position startpos moves d7"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "1W1/3/3/6/3/3/3 b 8 9 0 1");
    ck_assert_str_eq(proto_send(e, "position startpos moves d7 g7 g4 a7"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "BWB/3/3/5W/3/3/3 w 7 7 0 3");
    ck_assert_str_eq(proto_send(e, "position startpos moves " NINE_18), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_18_FEN);
    const char *p = proto_send(e, "perft 1");
    ck_assert_int_eq(count_lines(p), 26);
    ck_assert_msg(has_line(p, "Nodes searched: 25"), "got:\n%s", p);
    // A mill-closing placement with its removal, then a slide.
    ck_assert_str_eq(proto_send(e, "position startpos moves d7 a1 g7 a4 a7xa1 g1 b6"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "WWW/W2/3/B5/3/3/2B b 5 6 0 4");
    ck_assert_str_eq(proto_send(e, "position startpos moves " NINE_18 " f6-f4 d6-f6"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "BWB/W1B/BBW/W1W1WW/B1W/1BW/B1B w 0 0 2 11");
    proto_close(e);
}
END_TEST

START_TEST(test_position_fen_round_trip) {
    static const char *const fens[] = {NINE_START, NINE_18_FEN, "1W1/3/3/6/3/3/3 b 8 9 0 1",
                                       NINE_3MEN, "BWB/WBW/BBW/1WW2W/B1W/1BW/B1B b 0 0 9 14"};
    Proto *e = proto_open();
    char line[256], fen[128];
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        snprintf(line, sizeof line, "position fen %s", fens[i]);
        ck_assert_str_eq(proto_send(e, line), "");
        proto_fen(e, fen, sizeof fen);
        ck_assert_str_eq(fen, fens[i]);
    }
    // The last two fields may be left out; split empty runs are accepted.
    ck_assert_str_eq(proto_send(e, "position fen 3/3/3/6/3/3/3 w 9 9"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    ck_assert_str_eq(proto_send(e, "position fen 3/12/3/6/3/3/3 w 9 9 0 1"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    // fen + moves equals startpos + the same moves.
    ck_assert_str_eq(proto_send(e,
                                "position fen BWB/3/3/5W/3/3/3 w 7 7 0 3 moves a4 g1 f6 d6 b6 d2 "
                                "f2 a1 e5 c5 c4 d5 e3 c3"),
                     "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_18_FEN);
    ck_assert_str_eq(proto_send(e, "position fen " NINE_18_FEN " moves f6-f4 d6-f6"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "BWB/W1B/BBW/W1W1WW/B1W/1BW/B1B w 0 0 2 11");
    // Another variant's string is read on its own board.
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value six"), "");
    ck_assert_str_eq(proto_send(e, "position fen W2/B1W/4/3/2B b 4 4 0 3"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, "W2/B1W/4/3/2B b 4 4 0 3");
    proto_close(e);
}
END_TEST

// A removal written as its own token equals the joined form.
START_TEST(test_position_split_removal) {
    Proto *e = proto_open();
    char joined[128], split[128];
    ck_assert_str_eq(proto_send(e, "position startpos moves d7 a1 g7 a4 a7xa1"), "");
    proto_fen(e, joined, sizeof joined);
    ck_assert_str_eq(proto_send(e, "position startpos moves d7 a1 g7 a4 a7 xa1"), "");
    proto_fen(e, split, sizeof split);
    ck_assert_str_eq(split, joined);
    ck_assert_str_eq(joined, "WWW/3/3/B5/3/3/3 b 6 7 0 3");

    ck_assert_str_eq(proto_send(e, "position startpos moves " NINE_18 " b6-b4xa7"), "");
    proto_fen(e, joined, sizeof joined);
    ck_assert_str_eq(proto_send(e, "position startpos moves " NINE_18 " b6-b4 xa7"), "");
    proto_fen(e, split, sizeof split);
    ck_assert_str_eq(split, joined);
    ck_assert_str_eq(proto_send(e, "position startpos moves " NINE_18 " b6-b4\txa7"), "");
    proto_fen(e, split, sizeof split);
    ck_assert_str_eq(split, joined);
    ck_assert_str_eq(joined, "1WB/1BW/BBW/WWW2W/B1W/1BW/B1B b 0 0 0 10");
    proto_close(e);
}
END_TEST

START_TEST(test_ucinewgame) {
    Proto *e = proto_open();
    char fen[128];
    ck_assert_str_eq(proto_send(e, "position startpos moves " NINE_18), "");
    ck_assert_str_eq(proto_send(e, "ucinewgame"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    ck_assert_str_eq(proto_send(e, "position fen " NINE_3MEN), "");
    ck_assert_str_eq(proto_send(e, "ucinewgame"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    // The start of the current variant, not of nine.
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value six"), "");
    ck_assert_str_eq(proto_send(e, "position startpos moves a5 b4"), "");
    ck_assert_str_eq(proto_send(e, "ucinewgame"), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, SIX_START);
    ck_assert_msg(has_line(proto_send(e, "d"), "Variant: six"), "%s", e->last);
    proto_close(e);
}
END_TEST

static const char *const BAD_POSITIONS[] = {
    "position",
    "position foo",
    "position STARTPOS",
    "position startpos garbage",
    "position startpos garbage moves d6",
    "position startpos fen " NINE_START,
    "position fen",
    "position fen moves d6",
    "position fen garbage",
    "position fen " THREE_START,
    "position fen 3/3/3/6/3/3 w 9 9 0 1",
    "position fen 3/3/3/7/3/3/3 w 9 9 0 1",
    "position fen 3/3/3/6/3/3/3 x 9 9 0 1",
    "position fen 3/3/3/6/3/3/3 w 10 9 0 1",
    "position fen 3/3/3/6/3/3/3 w -1 9 0 1",
    "position fen 3/3/3/6/3/3/3 w 9 9 0 0",
    "position fen 3/3/3/6/3/3/3 w 9 9 -3 1",
    "position fen 3/3/3/6/3/3/3 w 9",
    "position fen 3/3/3/6/3/3/3 w 9 9 0 1 extra",
    "position fen 3/3/3/6/3/3/3 w 9 9 0 1 extra moves d7",
    "position fen WWW/WWW/WWW/6/3/3/3 b 1 9 0 1",
    "position fen 3/3/3/6/3/3/3 w 9 9 0 1 moves d7 d7",
    "position fen " NINE_START " moves z9",
    "position startpos moves d7 g7 g4 a7 d7 d6",
    "position startpos moves " NINE_18 " e3-e4 e3-e4",
    "position startpos moves d7 d7",
    "position startpos moves z9",
    "position startpos moves d7-g7",
    "position startpos moves d7xa1",
    "position startpos moves xd7",
    "position startpos moves d7 xa1",
    "position startpos moves d7 moves g7",
    "position startpos moves d7 a1 g7 a4 a7",
    "position startpos moves d7 a1 g7 a4 a7xd7",
    "position startpos moves d7 a1 g7 a4 a7 xa1 xa4",
    "position startpos moves d7 a1 g7 a4 a7xa1xa4",
    "position startpos moves " NINE_18 " b6-b4",
    "position startpos moves " NINE_18 " b6-b4xd7",
    "position startpos moves " NINE_18 " a4-b4xa7",
    "position startpos moves " NINE_18 " a7-a4",
    "position startpos moves " NINE_18 " b6-b4xa7 a1-d1 a1-d1",
    "position startpos moves d7 a1 g7 a4 a7xa1 g1 b6 f6 a7-a4",
    "position startpos moves d7 g7 g4 a7 d7g7",
    "position startpos moves d7,g7",
};

// A bad position or move list gives one error line and leaves the position as it was.
START_TEST(test_position_bad) {
    Proto *e = proto_open();
    ck_assert_str_eq(proto_send(e, "position startpos moves d7 g7 g4"), "");
    char *before = proto_snapshot(e);
    assert_one_error(proto_send(e, BAD_POSITIONS[_i]), BAD_POSITIONS[_i]);
    char *after = proto_snapshot(e);
    ck_assert_msg(!strcmp(before, after), "'%s' changed the state:\n%s\n---\n%s", BAD_POSITIONS[_i],
                  before, after);
    free(before);
    free(after);
    proto_close(e);
}
END_TEST

// A move after the game is over is refused, and so is a position from another board.
START_TEST(test_position_after_game_over) {
    Proto *e = proto_open();
    char fen[128];
    ck_assert_str_eq(proto_send(e, "setoption name UCI_Variant value three"), "");
    ck_assert_str_eq(proto_send(e, "position fen " THREE_WON), "");
    proto_fen(e, fen, sizeof fen);
    ck_assert_str_eq(fen, THREE_WON);
    char *before = proto_snapshot(e);
    assert_one_error(proto_send(e, "position fen " THREE_WON " moves c1"), "moves after a win");
    assert_one_error(proto_send(e, "position startpos moves a1 a3 b1 b3 c1 c3"),
                     "moves after a win");
    assert_one_error(proto_send(e, "position fen " NINE_START), "nine string in three");
    char *after = proto_snapshot(e);
    ck_assert_str_eq(before, after);
    free(before);
    free(after);
    proto_close(e);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// perft

START_TEST(test_perft_2_start) {
    char *out = proto_run("perft 2", false);
    ck_assert_int_eq(count_lines(out), 25);
    char line[32];
    for (int i = 0; i < NINE_NPOINTS; i++) {
        snprintf(line, sizeof line, "%s: 23", NINE_POINTS[i]);
        ck_assert_msg(has_line(out, line), "no line '%s' in:\n%s", line, out);
    }
    const char *last = out + strlen(out) - strlen("Nodes searched: 552\n");
    ck_assert_str_eq(last, "Nodes searched: 552\n");
    free(out);
}
END_TEST

START_TEST(test_perft_variants) {
    char *out = proto_run("position startpos moves " NINE_18 "\nperft 2", false);
    ck_assert_msg(has_line(out, "Nodes searched: 291"), "got:\n%s", out);
    free(out);
    out = proto_run("setoption name UCI_Variant value seven\nperft 3", false);
    ck_assert_msg(has_line(out, "Nodes searched: 4080"), "got:\n%s", out);
    free(out);
    out = proto_run("setoption name UCI_Variant value tapatan\nperft 4", false);
    ck_assert_msg(has_line(out, "Nodes searched: 3024"), "got:\n%s", out);
    free(out);
    out = proto_run("setoption name UCI_Variant value lasker\nperft 3", false);
    ck_assert_msg(has_line(out, "Nodes searched: 13552"), "got:\n%s", out);
    free(out);
    // A finished game has no moves to count.
    out = proto_run("setoption name UCI_Variant value three\nposition fen " THREE_WON "\nperft 1",
                    false);
    ck_assert_str_eq(out, "Nodes searched: 0\n");
    free(out);
}
END_TEST

// Perft leaves the position where it was.
START_TEST(test_perft_keeps_position) {
    Proto *e = proto_open();
    ck_assert_str_eq(proto_send(e, "position startpos moves " NINE_18 " f6-f4"), "");
    char *before = proto_snapshot(e);
    ck_assert_msg(strstr(proto_send(e, "perft 3"), "\nNodes searched: ") != NULL, "%s", e->last);
    char *after = proto_snapshot(e);
    ck_assert_str_eq(before, after);
    free(before);
    free(after);
    proto_close(e);
}
END_TEST

static const char *const BAD_PERFTS[] = {
    "perft 0",   "perft -1",      "perft abc", "perft",     "perft 65",
    "perft 2 3", "perft 2x",      "perft x2",  "perft 1.5", "perft 99999999999999999999999",
    "perft 0x2", "perft depth 2",
};

START_TEST(test_perft_bad) {
    char *out = proto_run(BAD_PERFTS[_i], false);
    assert_one_error(out, BAD_PERFTS[_i]);
    ck_assert(strstr(out, "Nodes searched") == NULL);
    free(out);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// moves

START_TEST(test_moves_start) {
    char *out = proto_run("moves", false), buf[512], *tok[64];
    int n = split_moves(out, buf, sizeof buf, tok, 64);
    ck_assert_int_eq(n, NINE_NPOINTS);
    for (int i = 0; i < NINE_NPOINTS; i++) {
        int seen = 0;
        for (int k = 0; k < n; k++)
            seen += !strcmp(tok[k], NINE_POINTS[i]);
        ck_assert_msg(seen == 1, "%s listed %d times in '%s'", NINE_POINTS[i], seen, out);
    }
    free(out);
}
END_TEST

// `moves` and the perft divide list the same moves.
START_TEST(test_moves_match_perft) {
    Proto *e = proto_open();
    char buf[2048], *tok[128], line[64];
    ck_assert_str_eq(proto_send(e, "position startpos moves " NINE_18), "");
    int n = split_moves(proto_send(e, "moves"), buf, sizeof buf, tok, 128);
    ck_assert_int_eq(n, 25);
    const char *p = proto_send(e, "perft 1");
    for (int k = 0; k < n; k++) {
        snprintf(line, sizeof line, "%s: 1", tok[k]);
        ck_assert_msg(has_line(p, line), "no '%s' in:\n%s", line, p);
    }
    proto_close(e);
}
END_TEST

START_TEST(test_moves_game_over) {
    char *out = proto_run(
        "setoption name UCI_Variant value three\nposition fen " THREE_WON "\nmoves", false);
    ck_assert_str_eq(out, "(none)\n");
    free(out);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// d

START_TEST(test_d_start) {
    char *out = proto_run("d", false), key[64];
    const char *board = "7  .-----------.-----------.\n"
                        "   |           |           |\n"
                        "6  |   .-------.-------.   |\n"
                        "   |   |       |       |   |\n"
                        "5  |   |   .---.---.   |   |\n"
                        "   |   |   |       |   |   |\n"
                        "4  .---.---.       .---.---.\n"
                        "   |   |   |       |   |   |\n"
                        "3  |   |   .---.---.   |   |\n"
                        "   |   |       |       |   |\n"
                        "2  |   .-------.-------.   |\n"
                        "   |           |           |\n"
                        "1  .-----------.-----------.\n"
                        "   a   b   c   d   e   f   g\n"
                        "White to move; in hand: white 9, black 9\n";
    ck_assert_msg(!strncmp(out, board, strlen(board)), "got:\n%s", out);
    const char *rest = out + strlen(board);
    ck_assert_msg(!strncmp(rest, "Variant: nine\nPosition: " NINE_START "\nKey: ",
                           strlen("Variant: nine\nPosition: " NINE_START "\nKey: ")),
                  "got:\n%s", rest);
    ck_assert(line_after(out, "Key: ", key, sizeof key));
    ck_assert_int_eq((int)strlen(key), 16);
    ck_assert_msg(strspn(key, "0123456789abcdefABCDEF") == 16, "key '%s'", key);
    ck_assert_msg(has_line(out, "Result: the game goes on"), "got:\n%s", out);
    ck_assert_int_eq(count_lines(out), 19);
    free(out);
}
END_TEST

START_TEST(test_d_shows_men_and_result) {
    char *out = proto_run("position startpos moves d7 a1", false);
    ck_assert_str_eq(out, "");
    free(out);
    out = proto_run("position startpos moves d7 a1\nd", false);
    ck_assert_msg(!strncmp(out, "7  .-----------W-----------.\n", 29), "got:\n%s", out);
    ck_assert_msg(strstr(out, "\n1  B-----------.-----------.\n") != NULL, "got:\n%s", out);
    ck_assert_msg(has_line(out, "White to move; in hand: white 8, black 8"), "got:\n%s", out);
    ck_assert_msg(!strstr(out, "Game over"), "got:\n%s", out);
    free(out);
    out = proto_run("position startpos moves d7\nd", false);
    ck_assert_msg(has_line(out, "Black to move; in hand: white 8, black 9"), "got:\n%s", out);
    free(out);
    out = proto_run("setoption name UCI_Variant value three\nposition fen " THREE_WON "\nd", false);
    char result[160], over[160];
    ck_assert(line_after(out, "Result: ", result, sizeof result));
    ck_assert_msg(!strncmp(result, "white wins", 10), "Result: %s", result);
    // The board says the same in words, in place of who moves.
    ck_assert(line_after(out, "Game over: ", over, sizeof over));
    ck_assert_str_eq(over, result);
    ck_assert_msg(!strstr(out, " to move; "), "got:\n%s", out);
    ck_assert_msg(has_line(out, "Variant: three"), "got:\n%s", out);
    ck_assert_msg(has_line(out, "   a   b   c"), "got:\n%s", out);
    free(out);
}
END_TEST

// Two move orders to one position give one key; another position another key.
START_TEST(test_d_key_transposition) {
    Proto *e = proto_open();
    char k1[64], k2[64], k3[64], f1[128], f2[128];
    ck_assert_str_eq(proto_send(e, "position startpos moves d7 g7 g4 a7"), "");
    proto_key(e, k1, sizeof k1);
    proto_fen(e, f1, sizeof f1);
    ck_assert_str_eq(proto_send(e, "position startpos moves g4 a7 d7 g7"), "");
    proto_key(e, k2, sizeof k2);
    proto_fen(e, f2, sizeof f2);
    ck_assert_str_eq(f1, f2);
    ck_assert_str_eq(k1, k2);
    ck_assert_str_eq(proto_send(e, "position fen BWB/3/3/5W/3/3/3 w 7 7 0 3"), "");
    proto_key(e, k3, sizeof k3);
    ck_assert_str_eq(k1, k3);
    ck_assert_str_eq(proto_send(e, "position startpos moves d7 a7 g1 g7"), "");
    proto_key(e, k3, sizeof k3);
    ck_assert_str_ne(k1, k3);
    // The side to move is part of the key.
    ck_assert_str_eq(proto_send(e, "position fen BWB/3/3/5W/3/3/3 b 7 7 0 3"), "");
    proto_key(e, k3, sizeof k3);
    ck_assert_str_ne(k1, k3);
    proto_close(e);
}
END_TEST

// The uci suite: the test cases of this file and of the other check_uci_*.c files.
Suite *uci_suite(void) {
    Suite *s = suite_create("uci");
    int nbad_set = (int)(sizeof BAD_SETOPTIONS / sizeof BAD_SETOPTIONS[0]);
    int nbad_pos = (int)(sizeof BAD_POSITIONS / sizeof BAD_POSITIONS[0]);
    int nbad_perft = (int)(sizeof BAD_PERFTS / sizeof BAD_PERFTS[0]);
    TCase *tc;

    tc = tcase_create("handshake");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_uci_handshake);
    tcase_add_test(tc, test_isready);
    tcase_add_test(tc, test_help_lists_commands);
    suite_add_tcase(s, tc);

    tc = tcase_create("setoption");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_setoption_variant_six);
    tcase_add_test(tc, test_setoption_case_insensitive);
    tcase_add_test(tc, test_setoption_variant);
    tcase_add_test(tc, test_setoption_rules_take_effect);
    tcase_add_test(tc, test_setoption_spin_bounds);
    tcase_add_loop_test(tc, test_setoption_bad, 0, nbad_set);
    suite_add_tcase(s, tc);

    tc = tcase_create("position");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_position_startpos_moves);
    tcase_add_test(tc, test_position_fen_round_trip);
    tcase_add_test(tc, test_position_split_removal);
    tcase_add_test(tc, test_ucinewgame);
    tcase_add_test(tc, test_position_after_game_over);
    tcase_add_loop_test(tc, test_position_bad, 0, nbad_pos);
    suite_add_tcase(s, tc);

    tc = tcase_create("perft");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_perft_2_start);
    tcase_add_test(tc, test_perft_variants);
    tcase_add_test(tc, test_perft_keeps_position);
    tcase_add_loop_test(tc, test_perft_bad, 0, nbad_perft);
    suite_add_tcase(s, tc);

    tc = tcase_create("moves");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_moves_start);
    tcase_add_test(tc, test_moves_match_perft);
    tcase_add_test(tc, test_moves_game_over);
    suite_add_tcase(s, tc);

    tc = tcase_create("d");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_d_start);
    tcase_add_test(tc, test_d_shows_men_and_result);
    tcase_add_test(tc, test_d_key_transposition);
    suite_add_tcase(s, tc);

    uci_framing_cases(s);
    uci_go_cases(s);
    uci_commands_cases(s);
    return s;
}
