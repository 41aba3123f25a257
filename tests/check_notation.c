// Move notation against docs/variants.md, "Notation": format/parse round trips of every legal move,
// `(none)`, refused tokens with their error messages, and removals written as their own token
// in the game layer's move list.
#include "engine/backgammon/notation.h"
#include "engine/mill/game.h"
#include "engine/mill/movegen.h"
#include "engine/mill/notation.h"
#include "tests/suites.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct RoundTripCase {
    const char *variant;
    const char *options; // one "Name=value" or ""
    const char *fen;
    int count; // legal moves
} RoundTripCase;

// clang-format off
static const RoundTripCase ROUND_TRIP_CASES[] = {
    {"nine",       "", "3/3/3/6/3/3/3 w 9 9 0 1", 24},
    {"nine",       "", "2W/1B1/3/6/3/3/W2 b 7 8 0 2", 21},
    {"nine",       "", "3/W2/BBB/B3BW/3/3/WW1 w 0 0 0 20", 7},
    {"nine",       "", "BB1/1W1/3/1B3W/2B/3/W2 w 0 0 0 30", 51},
    {"nine",       "", "1B1/2B/3/1WW2B/3/3/W1W w 0 0 0 20", 10},
    {"nine",       "", "3/3/3/6/3/3/WW1 w 7 8 0 4", 22},
    {"twelve",     "", "WBW/BWB/WBW/BWBWBW/BWB/WWW/B1B b 0 1 0 23", 9},
    {"eleven",     "", "1BW/BWB/WBW/BWBWBW/BWB/WBW/BW1 w 0 0 0 30", 23},
    {"morabaraba", "", "W2/1B1/3/W3B1/WB1/W2/1WW w 6 9 0 7", 20},
    {"morabaraba", "", "2W/B2/1B1/3B1W/B2/2W/WW1 w 0 0 0 30", 29},
    {"morabaraba", "", "2W/3/1B1/5W/3/3/WW1 w 8 5 0 12", 19},
    {"lasker",     "", "BB1/1W1/3/1B3W/3/3/W2 w 6 7 0 4", 26},
    {"six",        "", "B2/1WB/1B1W/3/WB1 w 0 0 0 20", 6},
    {"five",       "", "3/3/4/3/3 w 5 5 0 1", 16},
    {"seven",      "RemovalPerMill=true", "BWB/BWB/1W1W1/BW1/BWB w 1 0 0 13", 843},
    {"three",      "", "2B/BW1/WBW w 0 0 0 10", 3},
    {"nine-holes", "", "B1W/BB1/WW1 w 0 0 0 10", 9},
    {"tapatan",    "", "1BW/B1B/WW1 w 0 0 0 10", 4},
    {"achi",       "", "B2/1W1/WB1 w 2 2 0 3", 5},
};
// clang-format on

// Check that a token has the shape of section 4: point, optional -point, then xpoint...
static bool token_well_formed(const char *s) {
    if (!isalpha((unsigned char)s[0]) || !isdigit((unsigned char)s[1]))
        return false;
    s += 2;
    if (*s == '-') {
        if (!isalpha((unsigned char)s[1]) || !isdigit((unsigned char)s[2]))
            return false;
        s += 3;
    }
    while (*s == 'x') {
        if (!isalpha((unsigned char)s[1]) || !isdigit((unsigned char)s[2]))
            return false;
        s += 3;
    }
    return *s == '\0';
}

// Every legal move of a position: formatted, parsed back to the same move, and accepted by
// the game layer as a one-move list.
START_TEST(test_round_trip) {
    const RoundTripCase *c = &ROUND_TRIP_CASES[_i];
    MillRules rules;
    Position pos;
    Error err;
    rules_init(&rules, variant_find(c->variant));
    Game *g = MILL_FAMILY.create(c->variant);
    ck_assert_ptr_nonnull(g);
    if (!strcmp(c->options, "RemovalPerMill=true")) {
        rules.removal_per_mill = true;
        ck_assert(MILL_FAMILY.set_option(g, "RemovalPerMill", "true", &err));
    }
    ck_assert_msg(pos_set_fen(&pos, &rules, c->fen, &err), "%s: %s", c->fen, err.msg);
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    ck_assert_ptr_nonnull(moves);
    int n = movegen_legal(&pos, moves);
    ck_assert_msg(n == c->count, "%s %s: %d moves, expected %d", c->variant, c->fen, n, c->count);
    for (int i = 0; i < n; i++) {
        char s[MOVE_STR_MAX], again[MOVE_STR_MAX];
        Move m = MOVE_NONE;
        move_format(rules.board, moves[i], s);
        ck_assert_msg(strlen(s) < MOVE_STR_MAX && token_well_formed(s), "%s: bad token '%s'",
                      c->variant, s);
        ck_assert_msg(move_parse(&pos, s, &m, &err), "%s %s: '%s' refused: %s", c->variant, c->fen,
                      s, err.msg);
        ck_assert_msg(m == moves[i], "%s: '%s' parsed to %#x, generated %#x", c->variant, s, m,
                      moves[i]);
        move_format(rules.board, m, again);
        ck_assert_str_eq(s, again);
        const char *list[] = {s};
        ck_assert_msg(MILL_FAMILY.set_position(g, c->fen, list, 1, &err), "%s: game refuses %s: %s",
                      c->variant, s, err.msg);
    }
    free(moves);
    MILL_FAMILY.destroy(g);
}
END_TEST

// Format hand-built moves, and `(none)` for MOVE_NONE.
START_TEST(test_format) {
    const Board *b24 = board_get(BOARD_24, false), *b17 = board_get(BOARD_17, false);
    const Board *b9 = board_get(BOARD_9, true);
    char s[MOVE_STR_MAX];
    move_format(b24, MOVE_NONE, s);
    ck_assert_str_eq(s, "(none)");
    move_format(b24, move_make(NO_POINT, board_point(b24, "d6")), s);
    ck_assert_str_eq(s, "d6");
    Move m = move_make(board_point(b24, "a1"), board_point(b24, "a4"));
    move_format(b24, m, s);
    ck_assert_str_eq(s, "a1-a4");
    move_format(b24, move_add_removal(m, board_point(b24, "d7")), s);
    ck_assert_str_eq(s, "a1-a4xd7");
    m = move_make(board_point(b24, "b2"), board_point(b24, "b4"));
    m = move_add_removal(move_add_removal(m, board_point(b24, "d7")), board_point(b24, "f4"));
    move_format(b24, m, s);
    ck_assert_str_eq(s, "b2-b4xd7xf4");
    m = move_make(NO_POINT, board_point(b24, "d6"));
    move_format(b24, move_add_removal(m, board_point(b24, "a1")), s);
    ck_assert_str_eq(s, "d6xa1");
    // The longest token: a move with four removals.
    m = move_make(board_point(b17, "c2"), board_point(b17, "c3"));
    const char *rem[] = {"a1", "a5", "e1", "e5"};
    for (int i = 0; i < 4; i++)
        m = move_add_removal(m, board_point(b17, rem[i]));
    move_format(b17, m, s);
    ck_assert_str_eq(s, "c2-c3xa1xa5xe1xe5");
    move_format(b9, move_make(board_point(b9, "a1"), board_point(b9, "b2")), s);
    ck_assert_str_eq(s, "a1-b2");
}
END_TEST

// W a1 b4 c4 g1, B d7 f6 g4: a1-a4 closes a4-b4-c4 and removes one black man.
static const char *const MILL_FEN = "1B1/2B/3/1WW2B/3/3/W1W w 0 0 0 20";

typedef struct BadToken {
    const char *token;
    const char *phrase; // the error message contains it ("" = any message)
} BadToken;

// clang-format off
static const BadToken BAD_TOKENS[] = {
    {"h9", ""},
    {"a2", "not a point"}, // a file and rank of the 24 board, but no point there
    {"d6-", ""},
    {"d6xx", ""},
    {"a1-a4xd7garbage", ""},
    {"", ""},
    {"a1-a4xd7xf6xg4xd7xf6xg4xd7", ""}, // longer than any move
    {"a1-a4xd7xf6xg4xd7xf6", ""},       // five removals
    {"a1-", ""},
    {"-a4", ""},
    {"a1a4", ""},
    {"A1-A4xD7", ""},
    {"a1-a4x", ""},
    {"a1-a4xd7 ", ""},
    {" a1-a4xd7", ""},
    {"a1--a4", ""},
    {"a1-a4-d7", ""},
    {"a10", ""},
    {"xd7", ""},
    {"(none)", ""},
    {"a1-g7", "not a legal move"},      // not adjacent, no flying with 4 men
    {"d6", "not a legal move"},         // no man in hand
    {"d7-d6", "not a legal move"},      // black's man
    {"a1-a4", "closes a mill"},         // the removal is missing
    {"a1-d1xd7", "closes no mill"},     // a removal without a mill
    {"b4-b6xd7", "closes no mill"},
    {"a1-a4xb4", "removal"},            // white's own man
    {"a1-a4xa7", "removal"},            // an empty point
    {"a1-a4xd7xf6", "removal"},         // one mill, two removals
    {"a1-a4xd7xd7", "removal"},
};
// clang-format on

// A malformed or illegal token is refused with a message.
START_TEST(test_bad_token) {
    const BadToken *t = &BAD_TOKENS[_i];
    MillRules rules;
    Position pos;
    Error err = {""};
    rules_init(&rules, variant_find("nine"));
    ck_assert(pos_set_fen(&pos, &rules, MILL_FEN, &err));
    Move m = MOVE_NONE;
    ck_assert_msg(move_parse(&pos, "a1-a4xd7", &m, &err), "a1-a4xd7: %s", err.msg);
    ck_assert_msg(move_parse(&pos, "b4-b6", &m, &err), "b4-b6: %s", err.msg);

    err.msg[0] = '\0';
    ck_assert_msg(!move_parse(&pos, t->token, &m, &err), "'%s' accepted", t->token);
    ck_assert_msg(strlen(err.msg) > 0, "'%s' refused without a message", t->token);
    ck_assert_msg(strstr(err.msg, t->phrase) != NULL, "'%s': message '%s' lacks '%s'", t->token,
                  err.msg, t->phrase);

    // The game layer refuses it too and keeps its position.
    Game *g = MILL_FAMILY.create("nine");
    ck_assert_ptr_nonnull(g);
    ck_assert(MILL_FAMILY.set_position(g, MILL_FEN, NULL, 0, &err));
    const char *list[] = {t->token};
    err.msg[0] = '\0';
    ck_assert_msg(!MILL_FAMILY.set_position(g, MILL_FEN, list, 1, &err), "game accepts '%s'",
                  t->token);
    ck_assert(strlen(err.msg) > 0);
    char fen[FEN_MAX];
    MILL_FAMILY.get_position(g, fen, sizeof fen);
    ck_assert_str_eq(fen, MILL_FEN);
    MILL_FAMILY.destroy(g);
}
END_TEST

// Tokens on other boards: points that exist only on some boards.
START_TEST(test_board_points) {
    MillRules rules;
    Position pos;
    Error err;
    Move m;
    rules_init(&rules, variant_find("six"));
    ck_assert(pos_set_fen(&pos, &rules, "3/3/4/3/3 w 6 6 0 1", &err));
    ck_assert(!move_parse(&pos, "c3", &m, &err)); // the centre is not on the 16-point board
    ck_assert(!move_parse(&pos, "f2", &m, &err));
    ck_assert(move_parse(&pos, "c2", &m, &err));
    rules_init(&rules, variant_find("seven"));
    ck_assert(pos_set_fen(&pos, &rules, "3/3/5/3/3 w 7 7 0 1", &err));
    ck_assert_msg(move_parse(&pos, "c3", &m, &err), "%s", err.msg);
    rules_init(&rules, variant_find("three"));
    ck_assert(pos_set_fen(&pos, &rules, "3/3/3 w 3 3 0 1", &err));
    ck_assert(!move_parse(&pos, "d1", &m, &err));
    ck_assert(!move_parse(&pos, "a4", &m, &err));
    ck_assert(move_parse(&pos, "b2", &m, &err));
}
END_TEST

// A finished game has no legal move to parse.
START_TEST(test_parse_game_over) {
    MillRules rules;
    Position pos;
    Error err = {""};
    Move m;
    rules_init(&rules, variant_find("three"));
    ck_assert(pos_set_fen(&pos, &rules, "1B1/B2/WWW b 0 1 0 5", &err));
    ck_assert(!move_parse(&pos, "c3", &m, &err));
    ck_assert_msg(strstr(err.msg, "over") != NULL, "%s", err.msg);
}
END_TEST

// Write the position string the game reaches from fen through moves.
static void reach(const char *variant, const char *fen, const char *const *moves, int n,
                  char *out) {
    Game *g = MILL_FAMILY.create(variant);
    Error err;
    ck_assert_ptr_nonnull(g);
    ck_assert_msg(MILL_FAMILY.set_position(g, fen, moves, n, &err), "%s", err.msg);
    MILL_FAMILY.get_position(g, out, FEN_MAX);
    MILL_FAMILY.destroy(g);
}

// Check that set_position refuses these moves and keeps the game's position.
static void refused(const char *variant, const char *fen, const char *const *moves, int n) {
    Game *g = MILL_FAMILY.create(variant);
    Error err = {""};
    char before[FEN_MAX], after[FEN_MAX];
    ck_assert_ptr_nonnull(g);
    ck_assert(MILL_FAMILY.set_position(g, fen, NULL, 0, &err));
    MILL_FAMILY.get_position(g, before, sizeof before);
    ck_assert_msg(!MILL_FAMILY.set_position(g, fen, moves, n, &err), "accepted %s (%d moves)",
                  moves[0], n);
    ck_assert(strlen(err.msg) > 0);
    MILL_FAMILY.get_position(g, after, sizeof after);
    ck_assert_str_eq(before, after);
    MILL_FAMILY.destroy(g);
}

// Section 4: a removal written as its own token is joined to the action before it.
START_TEST(test_split_removals) {
    // W a1 d1 g4 b6, B mill c5-d5-e5 plus a4 f4: g4-g1 closes a1-d1-g1.
    const char *fen = "3/W2/BBB/B3BW/3/3/WW1 w 0 0 0 20";
    char joined[FEN_MAX], split[FEN_MAX];
    const char *one[] = {"g4-g1xa4", "c5-c4"}, *two[] = {"g4-g1", "xa4", "c5-c4"};
    reach("nine", fen, one, 1, joined);
    reach("nine", fen, two, 2, split);
    ck_assert_str_eq(joined, split);
    ck_assert_str_eq(joined, "3/W2/BBB/4B1/3/3/WWW b 0 0 0 20");
    reach("nine", fen, one, 2, joined);
    reach("nine", fen, two, 3, split);
    ck_assert_str_eq(joined, split);

    const char *lead[] = {"xa4"}, *lead2[] = {"xa4", "g4-g1"}, *bare[] = {"g4-g1"};
    const char *bare_then[] = {"g4-g1", "c5-c4"}, *guarded[] = {"g4-g1", "xc5"};
    const char *extra[] = {"g4-g1", "xa4", "xf4"}, *extra2[] = {"g4-g1xa4", "xf4"};
    const char *quiet[] = {"b6-b4", "xa4"};
    refused("nine", fen, lead, 1);
    refused("nine", fen, lead2, 2);
    refused("nine", fen, bare, 1);
    refused("nine", fen, bare_then, 2);
    refused("nine", fen, guarded, 2);
    refused("nine", fen, extra, 3);
    refused("nine", fen, extra2, 2);
    refused("nine", fen, quiet, 2);

    // Morabaraba, W closes two mills with g1: both removals may be split off, in either order.
    const char *mfen = "1BW/3/BBB/4BW/3/3/WW1 w 8 7 0 5";
    const char *a[] = {"g1xd7xf4"}, *a2[] = {"g1", "xd7", "xf4"}, *a3[] = {"g1xd7", "xf4"};
    const char *b[] = {"g1xf4xd7"}, *b2[] = {"g1", "xf4", "xd7"};
    char pa[FEN_MAX], pa2[FEN_MAX], pa3[FEN_MAX], pb[FEN_MAX], pb2[FEN_MAX];
    reach("morabaraba", mfen, a, 1, pa);
    reach("morabaraba", mfen, a2, 3, pa2);
    reach("morabaraba", mfen, a3, 2, pa3);
    reach("morabaraba", mfen, b, 1, pb);
    reach("morabaraba", mfen, b2, 3, pb2);
    ck_assert_str_eq(pa, "2W/3/BBB/5W/3/3/WWW b 7 7 0 5");
    ck_assert_str_eq(pa, pa2);
    ck_assert_str_eq(pa, pa3);
    ck_assert_str_eq(pa, pb);
    ck_assert_str_eq(pa, pb2);
    const char *short1[] = {"g1", "xd7"}, *short2[] = {"g1xd7"};
    refused("morabaraba", mfen, short1, 2);
    refused("morabaraba", mfen, short2, 1);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Backgammon plays as a person types them (gnubg's form, without the dice)

typedef struct TypedPlay {
    const char *text;
    const char *segments; // "from/to ..." as read, 25 the bar and 0 off; NULL: refused
} TypedPlay;

// clang-format off
static const TypedPlay TYPED_PLAYS[] = {
    {"8/5 6/5",          "8/5 6/5"},
    {"8/5,6/5",          "8/5 6/5"},
    {"8/5, 6/5",         "8/5 6/5"},
    {"  8/5   6/5  ",    "8/5 6/5"},
    {"8/5(2)",           "8/5 8/5"},
    {"6/5(2) 8/7(2)",    "6/5 6/5 8/7 8/7"},
    {"bar/22*",          "25/22"},
    {"Bar/22* 13/9",     "25/22 13/9"},
    {"25/22",            "25/22"},
    {"13/7*/5",          "13/7 7/5"},
    {"24/20*/14(2)",     "24/20 20/14 24/20 20/14"},
    {"6/off",            "6/0"},
    {"5/off(2) 4/OFF",   "5/0 5/0 4/0"},
    {"6/0",              "6/0"},
    {"",                 NULL},
    {"   ",              NULL},
    {"8/",               NULL},
    {"8",                NULL},
    {"8/5 x",            NULL},
    {"8/5,",             NULL},
    {"8/5,,6/5",         NULL},
    {"off/5",            NULL},
    {"8/bar",            NULL},
    {"26/20",            NULL},
    {"0/5",              NULL},
    {"8/5(5)",           NULL},
    {"8/5(2",            NULL},
    {"8/5*6/5",          NULL},
    {"31:8/5,6/5",       NULL}, // the dice belong to a token, not to a typed play
};
// clang-format on

START_TEST(test_typed_play) {
    const TypedPlay *c = &TYPED_PLAYS[_i];
    BgTurnText t;
    Error err = {""};
    bool ok = bg_play_parse(c->text, &t, &err);
    if (!c->segments) {
        ck_assert_msg(!ok, "'%s' was read", c->text);
        ck_assert_msg(err.msg[0] && strstr(err.msg, c->text), "'%s': %s", c->text, err.msg);
        return;
    }
    ck_assert_msg(ok, "'%s': %s", c->text, err.msg);
    char got[128] = "";
    for (int i = 0; i < t.nseg; i++)
        snprintf(got + strlen(got), sizeof got - strlen(got), "%s%d/%d", i ? " " : "", t.from[i],
                 t.to[i]);
    ck_assert_str_eq(got, c->segments);
    ck_assert(t.has_play);
    ck_assert_int_eq(t.dice[0], 0);
}
END_TEST

// The protocol's tokens read as before, and a token's play is read as a typed play is.
START_TEST(test_turn_tokens_still_read) {
    BgTurnText a, b;
    Error err;
    ck_assert(bg_turn_parse("31:8/5,6/5", &a, &err));
    ck_assert(bg_play_parse("8/5 6/5", &b, &err));
    ck_assert_int_eq(a.dice[0], 3);
    ck_assert_int_eq(a.dice[1], 1);
    ck_assert_int_eq(a.nseg, b.nseg);
    ck_assert(!memcmp(a.from, b.from, sizeof a.from) && !memcmp(a.to, b.to, sizeof a.to));
    ck_assert(bg_turn_parse("13", &a, &err) && !a.has_play && a.dice[0] == 3);
    ck_assert(bg_turn_parse("65:-", &a, &err) && a.has_play && a.nseg == 0);
    ck_assert(!bg_turn_parse("31:", &a, &err));
    ck_assert(!bg_turn_parse("31:8/5,", &a, &err));
    ck_assert(!bg_turn_parse("71:8/1", &a, &err));
}
END_TEST

Suite *notation_suite(void) {
    Suite *s = suite_create("notation");
    TCase *tc = tcase_create("format and parse");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, test_round_trip, 0,
                        (int)(sizeof ROUND_TRIP_CASES / sizeof ROUND_TRIP_CASES[0]));
    tcase_add_test(tc, test_format);
    tcase_add_loop_test(tc, test_bad_token, 0, (int)(sizeof BAD_TOKENS / sizeof BAD_TOKENS[0]));
    tcase_add_test(tc, test_board_points);
    tcase_add_test(tc, test_parse_game_over);
    suite_add_tcase(s, tc);

    tc = tcase_create("game move lists");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_split_removals);
    suite_add_tcase(s, tc);

    tc = tcase_create("backgammon plays typed");
    tcase_add_loop_test(tc, test_typed_play, 0, (int)(sizeof TYPED_PLAYS / sizeof TYPED_PLAYS[0]));
    tcase_add_test(tc, test_turn_tokens_still_read);
    suite_add_tcase(s, tc);
    return s;
}
