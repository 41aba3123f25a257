// Game end against docs/variants.md, "Game end": men count, mills in mill-wins variants, the full
// board, the blocked side, repetition and the N-move rule, through pos_outcome, movegen and the
// game layer (MILL_FAMILY), which must agree that a finished game has no legal moves.
#include "engine/mill/game.h"
#include "engine/mill/movegen.h"
#include "engine/mill/notation.h"
#include "tests/suites.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct MoveList {
    int n;
    char tok[256][MOVE_STR_MAX];
    char text[256 * MOVE_STR_MAX]; // the moves sorted, space-separated
} MoveList;

// Append a move to a MoveList; a MoveFn for the game layer's legal_moves.
static void list_add(void *ctx, const char *move) {
    MoveList *l = ctx;
    if (l->n < 256)
        snprintf(l->tok[l->n], MOVE_STR_MAX, "%s", move);
    l->n++;
}

static int compare_tokens(const void *a, const void *b) { return strcmp(a, b); }

// Count the legal moves the game layer lists, keeping them sorted in `l` when it is not NULL.
static int game_moves(const Game *g, MoveList *l) {
    MoveList *mine = NULL;
    if (!l)
        l = mine = malloc(sizeof *l);
    ck_assert_ptr_nonnull(l);
    l->n = 0;
    int n = MILL_FAMILY.legal_moves(g, list_add, l);
    ck_assert_int_eq(n, l->n);
    int kept = n < 256 ? n : 256;
    qsort(l->tok, (size_t)kept, sizeof l->tok[0], compare_tokens);
    size_t len = 0;
    l->text[0] = '\0';
    for (int i = 0; i < kept; i++)
        len += (size_t)sprintf(l->text + len, "%s%s", i ? " " : "", l->tok[i]);
    free(mine);
    return n;
}

// Create a game of a variant, failing the test when it cannot.
static Game *game_new(const char *variant) {
    Game *g = MILL_FAMILY.create(variant);
    ck_assert_msg(g != NULL, "cannot create %s", variant);
    return g;
}

// Set an option, failing the test on error.
static void option(Game *g, const char *name, const char *value) {
    Error err;
    ck_assert_msg(MILL_FAMILY.set_option(g, name, value, &err), "%s=%s: %s", name, value, err.msg);
}

// Set a position and play moves, failing the test on error.
static void play(Game *g, const char *fen, const char *const *moves, int n) {
    Error err;
    ck_assert_msg(MILL_FAMILY.set_position(g, fen, moves, n, &err), "after %d moves: %s", n,
                  err.msg);
}

// Check the game's result and that its reason contains `why`.
static void expect_result(const Game *g, GameResult want, const char *why, const char *context) {
    char reason[128] = "";
    GameResult r = MILL_FAMILY.result(g, reason, sizeof reason);
    ck_assert_msg(r == want, "%s: result %d (%s), expected %d", context, r, reason, want);
    ck_assert_msg(strstr(reason, why) != NULL, "%s: reason '%s' lacks '%s'", context, reason, why);
    if (want != RESULT_NONE)
        ck_assert_msg(game_moves(g, NULL) == 0, "%s: a finished game lists moves", context);
    else
        ck_assert_msg(game_moves(g, NULL) > 0, "%s: a running game lists no move", context);
}

typedef struct ResultCase {
    const char *name;
    const char *variant;
    const char *fen;
    Outcome outcome;   // pos_outcome: rules 1-3, for the side to move
    GameResult result; // the game layer: rules 1-5
    const char *why;   // a phrase the result's reason contains
    int moves;         // exact number of legal moves (0 when the game is over)
} ResultCase;

// clang-format off
static const ResultCase RESULT_CASES[] = {
    // 5.1 Fewer than 3 men. W a1 d1, B a7 d7 b4 e3.
    {"5.1 white short", "nine", "BB1/3/3/1B4/2B/3/WW1 w 0 0 0 30",
     OUTCOME_LOSS, RESULT_BLACK_WINS, "white has fewer than 3 men", 0},
    {"5.1 two on the board and one in hand", "nine", "BB1/3/3/1B4/2B/3/WW1 w 1 0 0 30",
     OUTCOME_NONE, RESULT_NONE, "goes on", 21},
    // W a1 d1 g4 c3, B a7 d7: white to move has won.
    {"5.1 black short, white to move", "nine", "BB1/3/3/5W/W2/3/WW1 w 0 0 0 30",
     OUTCOME_WIN, RESULT_WHITE_WINS, "black has fewer than 3 men", 0},
    {"5.1 both short, white to move", "nine", "BB1/3/3/6/3/3/WW1 w 0 0 0 30",
     OUTCOME_LOSS, RESULT_BLACK_WINS, "white has fewer than 3 men", 0},
    {"5.1 both short, black to move", "nine", "BB1/3/3/6/3/3/WW1 b 0 0 0 30",
     OUTCOME_LOSS, RESULT_WHITE_WINS, "black has fewer than 3 men", 0},
    {"5.1 twelve", "twelve", "BB1/3/3/1B4/2B/3/WW1 w 0 0 0 30",
     OUTCOME_LOSS, RESULT_BLACK_WINS, "fewer than 3", 0},
    {"5.1 eleven", "eleven", "BB1/3/3/1B4/2B/3/WW1 w 0 0 0 30",
     OUTCOME_LOSS, RESULT_BLACK_WINS, "fewer than 3", 0},
    {"5.1 morabaraba", "morabaraba", "BB1/3/3/1B4/2B/3/WW1 w 0 0 0 30",
     OUTCOME_LOSS, RESULT_BLACK_WINS, "fewer than 3", 0},
    {"5.1 lasker", "lasker", "BB1/3/3/1B4/2B/3/WW1 w 0 0 0 30",
     OUTCOME_LOSS, RESULT_BLACK_WINS, "fewer than 3", 0},
    // W a1 c1, B a5 c4 e3 on the 16- and 17-point boards.
    {"5.1 six", "six", "B2/1B1/3B/3/WW1 w 0 0 0 20",
     OUTCOME_LOSS, RESULT_BLACK_WINS, "fewer than 3", 0},
    {"5.1 five", "five", "B2/1B1/3B/3/WW1 w 0 0 0 20",
     OUTCOME_LOSS, RESULT_BLACK_WINS, "fewer than 3", 0},
    {"5.1 seven", "seven", "B2/1B1/4B/3/WW1 w 0 0 0 20",
     OUTCOME_LOSS, RESULT_BLACK_WINS, "fewer than 3", 0},
    // Only mill-removing variants: W a1 b2, B a3 c2 in three plays on.
    {"5.1 not in three", "three", "B2/1WB/W2 w 0 0 0 10",
     OUTCOME_NONE, RESULT_NONE, "goes on", 5},

    // 5.2 A mill wins. W a1 b1 c1, B a2 b3, black to move.
    {"5.2 three: white's mill", "three", "1B1/B2/WWW b 0 1 0 5",
     OUTCOME_LOSS, RESULT_WHITE_WINS, "white wins", 0},
    // Both own a mill: the side that moved last (not the side to move) has won.
    {"5.2 both mills, white to move", "three", "BBB/3/WWW w 0 0 0 10",
     OUTCOME_LOSS, RESULT_BLACK_WINS, "black wins", 0},
    {"5.2 both mills, black to move", "three", "BBB/3/WWW b 0 0 0 10",
     OUTCOME_LOSS, RESULT_WHITE_WINS, "white wins", 0},
    {"5.2 tapatan diagonal", "tapatan", "1BW/BW1/W2 b 0 1 0 5",
     OUTCOME_LOSS, RESULT_WHITE_WINS, "closed a mill", 0},
    {"5.2 achi diagonal", "achi", "W1B/1W1/B1W b 1 2 0 5",
     OUTCOME_LOSS, RESULT_WHITE_WINS, "closed a mill", 0},
    {"5.2 nine-holes column", "nine-holes", "W1B/W2/WB1 b 0 1 0 5",
     OUTCOME_LOSS, RESULT_WHITE_WINS, "closed a mill", 0},
    {"5.2 no diagonal mill in three", "three", "1BW/BW1/W2 b 0 1 0 5",
     OUTCOME_NONE, RESULT_NONE, "goes on", 4},
    {"5.2 a mill does not win in nine", "nine", "BB1/W2/3/1B4/2B/3/WWW w 0 0 0 30",
     OUTCOME_NONE, RESULT_NONE, "goes on", 4},

    // 5.3 Full board after placing.
    {"5.3 twelve full board", "twelve", "WBW/BWB/WBW/BWBWBW/BWB/WBW/BWB w 0 0 0 30",
     OUTCOME_DRAW, RESULT_DRAW, "full", 0},
    {"5.3 morabaraba full board", "morabaraba", "WBW/BWB/WBW/BWBWBW/BWB/WBW/BWB b 0 0 0 30",
     OUTCOME_DRAW, RESULT_DRAW, "full", 0},
    {"5.3 full board with mills", "twelve", "WBW/BWB/WBW/BWBWBW/BWB/WWW/BBB w 0 0 0 30",
     OUTCOME_DRAW, RESULT_DRAW, "full", 0},
    {"5.3 twelve, one man still in hand", "twelve", "WBW/BWB/WBW/BWBWBW/BWB/WBW/BW1 b 0 1 0 23",
     OUTCOME_NONE, RESULT_NONE, "goes on", 1},
    // Eleven has no such rule (and cannot fill its board): 22 men, a7 and g1 empty.
    {"5.3 not in eleven", "eleven", "1BW/BWB/WBW/BWBWBW/BWB/WBW/BW1 w 0 0 0 30",
     OUTCOME_NONE, RESULT_NONE, "goes on", 23},

    // 5.4 No legal action. W a1 d1 g7 b6 hemmed in by B a4 g1 d2 d7 g4 d6 b4.
    {"5.4 nine blocked", "nine", "1BW/WB1/3/BB3B/3/1B1/WWB w 0 0 0 30",
     OUTCOME_NONE, RESULT_BLACK_WINS, "white has no legal move", 0},
    {"5.4 nine, the blocker to move", "nine", "1BW/WB1/3/BB3B/3/1B1/WWB b 0 0 0 30",
     OUTCOME_NONE, RESULT_NONE, "goes on", 10},
    // With 3 men white flies out: 3 x 16 empty points.
    {"5.4 three men fly out", "nine", "1BW/3/3/B4B/3/1B1/WWB w 0 0 0 30",
     OUTCOME_NONE, RESULT_NONE, "goes on", 48},
    // W a1 e5 b4 (3 men, no flying in six) hemmed in by B c1 a3 e3 c5 b3 c4.
    {"5.4 six blocked at 3 men", "six", "1BW/WB1/BB1B/3/WB1 w 0 0 0 20",
     OUTCOME_NONE, RESULT_BLACK_WINS, "white has no legal move", 0},
};
// clang-format on

// One row of RESULT_CASES through pos_outcome, movegen and the game layer.
START_TEST(test_result_table) {
    const ResultCase *c = &RESULT_CASES[_i];
    MillRules rules;
    Position pos;
    Error err;
    rules_init(&rules, variant_find(c->variant));
    ck_assert_msg(pos_set_fen(&pos, &rules, c->fen, &err), "%s: %s", c->name, err.msg);
    ck_assert_msg(pos_outcome(&pos) == c->outcome, "%s: outcome %d, expected %d", c->name,
                  pos_outcome(&pos), c->outcome);
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    ck_assert_ptr_nonnull(moves);
    int n = movegen_legal(&pos, moves);
    ck_assert_msg(n == c->moves, "%s: movegen_legal %d, expected %d", c->name, n, c->moves);
    ck_assert_msg(movegen_count(&pos) == (uint64_t)c->moves, "%s: movegen_count %llu", c->name,
                  (unsigned long long)movegen_count(&pos));
    free(moves);

    Game *g = game_new(c->variant);
    play(g, c->fen, NULL, 0);
    expect_result(g, c->result, c->why, c->name);
    ck_assert_msg(game_moves(g, NULL) == c->moves, "%s: legal_moves %d, expected %d", c->name,
                  game_moves(g, NULL), c->moves);
    MILL_FAMILY.destroy(g);
}
END_TEST

// 5.3 through the game: the last placement filling the board draws, unless it closes a mill
// and so empties a point again.
START_TEST(test_full_board_by_play) {
    const char *last[] = {"g1"};
    MoveList *l = malloc(sizeof *l);
    ck_assert_ptr_nonnull(l);
    for (int i = 0; i < 2; i++) {
        Game *g = game_new(i ? "morabaraba" : "twelve");
        play(g, "WBW/BWB/WBW/BWBWBW/BWB/WBW/BW1 b 0 1 0 23", last, 1);
        expect_result(g, RESULT_DRAW, "full", "last placement");
        MILL_FAMILY.destroy(g);
    }

    // W mill b2-d2-f2; black's last man closes a1-d1-g1 and must take a white man outside it.
    const char *fen = "WBW/BWB/WBW/BWBWBW/BWB/WWW/B1B b 0 1 0 23";
    Game *g = game_new("twelve");
    play(g, fen, NULL, 0);
    ck_assert_int_eq(game_moves(g, l), 9);
    ck_assert_str_eq(l->text, "d1xa7 d1xb4 d1xc5 d1xd3 d1xd6 d1xe4 d1xe5 d1xg4 d1xg7");
    const char *take_g7[] = {"d1xg7"}, *take_a7[] = {"d1xa7"};
    play(g, fen, take_g7, 1);
    expect_result(g, RESULT_NONE, "goes on", "d1xg7");
    ck_assert_int_eq(game_moves(g, l), 1);
    ck_assert_str_eq(l->text, "g4-g7");
    // a7's neighbours d7, a4, b6 are all black: white is blocked, not drawn.
    play(g, fen, take_a7, 1);
    expect_result(g, RESULT_BLACK_WINS, "no legal move", "d1xa7");
    MILL_FAMILY.destroy(g);
    free(l);

    // A full board has more men than eleven gives.
    Error err;
    g = game_new("eleven");
    ck_assert(
        !MILL_FAMILY.set_position(g, "WBW/BWB/WBW/BWBWBW/BWB/WBW/BWB w 0 0 0 30", NULL, 0, &err));
    ck_assert(strlen(err.msg) > 0);
    MILL_FAMILY.destroy(g);
}
END_TEST

// W a1 g1 b6 f2, B a7 g7 e3 c3: white shuffles b6-b4-b6, black e3-e4-e3.
static const char *const REP_FEN = "B1B/W2/3/6/B1B/2W/W1W w 0 0 0 1";
static const char *const SHUFFLE[] = {"b6-b4", "e3-e4", "b4-b6", "e4-e3", "b6-b4", "e3-e4",
                                      "b4-b6", "e4-e3", "b6-b4", "e3-e4", "b4-b6", "e4-e3"};

// 5.2 Through the game: the action that closes a mill wins at once, removing nothing.
START_TEST(test_mill_win_by_play) {
    // Tapatan, W a1 c3 b1, B a2 c2 b3: b1-b2 closes the diagonal a1-b2-c3.
    const char *diagonal[] = {"b1-b2"};
    Game *g = game_new("tapatan");
    play(g, "1BW/B1B/WW1 w 0 0 0 10", diagonal, 1);
    expect_result(g, RESULT_WHITE_WINS, "white wins: white closed a mill", "tapatan b1-b2");
    MILL_FAMILY.destroy(g);

    // Nine holes, W a1 b1 c3, B a2 b2 a3: c3 flies to c1; then black's reply is refused.
    const char *fly[] = {"c3-c1", "a3-b3"};
    g = game_new("nine-holes");
    play(g, "B1W/BB1/WW1 w 0 0 0 10", fly, 1);
    expect_result(g, RESULT_WHITE_WINS, "white closed a mill", "nine-holes c3-c1");
    Error err;
    ck_assert(!MILL_FAMILY.set_position(g, "B1W/BB1/WW1 w 0 0 0 10", fly, 2, &err));
    MILL_FAMILY.destroy(g);

    // Achi placement: black closes b3-b2-b1 and wins.
    const char *col[] = {"a1", "b3", "c3", "b2", "a3", "b1"};
    g = game_new("achi");
    play(g, NULL, col, 6);
    expect_result(g, RESULT_BLACK_WINS, "black wins", "achi b1");
    MILL_FAMILY.destroy(g);
}
END_TEST

// 5.5 The third occurrence of a position draws; the second does not.
START_TEST(test_repetition) {
    Game *g = game_new("nine");
    char ctx[32];
    for (int k = 0; k < 8; k++) {
        play(g, REP_FEN, SHUFFLE, k);
        snprintf(ctx, sizeof ctx, "%d plies", k);
        expect_result(g, RESULT_NONE, "goes on", ctx);
    }
    play(g, REP_FEN, SHUFFLE, 8);
    expect_result(g, RESULT_DRAW, "repetition", "8 plies");

    // The game is over: one more move is refused and the game stays as it was.
    char before[FEN_MAX], after[FEN_MAX];
    MILL_FAMILY.get_position(g, before, sizeof before);
    uint64_t key = MILL_FAMILY.key(g);
    Error err = {""};
    ck_assert(!MILL_FAMILY.set_position(g, REP_FEN, SHUFFLE, 9, &err));
    ck_assert_msg(strstr(err.msg, "over") != NULL, "error: %s", err.msg);
    MILL_FAMILY.get_position(g, after, sizeof after);
    ck_assert_str_eq(before, after);
    ck_assert_uint_eq(key, MILL_FAMILY.key(g));
    expect_result(g, RESULT_DRAW, "repetition", "after the refused move");

    // Repetition=false: no draw, however often.
    option(g, "Repetition", "false");
    expect_result(g, RESULT_NONE, "goes on", "Repetition=false, 8 plies");
    play(g, REP_FEN, SHUFFLE, 12);
    expect_result(g, RESULT_NONE, "goes on", "Repetition=false, 12 plies");
    option(g, "Repetition", "true");
    expect_result(g, RESULT_DRAW, "repetition", "Repetition=true again, 12 plies");
    MILL_FAMILY.destroy(g);
}
END_TEST

// 5.5 A placement in between starts the count again (lasker moves while men are in hand).
START_TEST(test_repetition_after_placement) {
    const char *fen = "B1B/W2/3/6/B1B/2W/W1W w 6 6 0 1";
    const char *moves[] = {"b6-b4", "e3-e4", "b4-b6", "e4-e3", "d6",    "e3-e4", "b6-b4",
                           "e4-e3", "b4-b6", "e3-e4", "b6-b4", "e4-e3", "b4-b6"};
    Game *g = game_new("lasker");
    play(g, fen, moves, 4);
    expect_result(g, RESULT_NONE, "goes on", "start position twice");
    play(g, fen, moves, 9);
    expect_result(g, RESULT_NONE, "goes on", "position after d6 twice");
    play(g, fen, moves, 12);
    expect_result(g, RESULT_NONE, "goes on", "12 plies");
    play(g, fen, moves, 13);
    expect_result(g, RESULT_DRAW, "repetition", "position after d6 three times");
    MILL_FAMILY.destroy(g);
}
END_TEST

// 5.5 A removal in between starts the count again.
START_TEST(test_repetition_after_removal) {
    // W a1 d1 g4 b6, B a7 c5 e3 d5.
    const char *fen = "B2/W2/BB1/5W/2B/3/WW1 w 0 0 0 1";
    const char *moves[] = {"b6-b4", "e3-e4", "b4-b6", "e4-e3", "g4-g1xa7", "e3-e4", "b6-b4",
                           "e4-e3", "b4-b6", "e3-e4", "b6-b4", "e4-e3",    "b4-b6"};
    Game *g = game_new("nine");
    play(g, fen, moves, 4);
    expect_result(g, RESULT_NONE, "goes on", "start position twice");
    play(g, fen, moves, 9);
    expect_result(g, RESULT_NONE, "goes on", "position after the removal twice");
    play(g, fen, moves, 13);
    expect_result(g, RESULT_DRAW, "repetition", "position after the removal three times");
    MILL_FAMILY.destroy(g);
}
END_TEST

// 5.5 The N-move rule: N quiet plies draw; NMoveRule sets N and 0 turns the rule off.
START_TEST(test_nmove_rule) {
    Game *g = game_new("nine");
    play(g, "B1B/W2/3/6/B1B/2W/W1W w 0 0 98 60", SHUFFLE, 1);
    expect_result(g, RESULT_NONE, "goes on", "99 quiet plies");
    play(g, "B1B/W2/3/6/B1B/2W/W1W w 0 0 98 60", SHUFFLE, 2);
    expect_result(g, RESULT_DRAW, "100 plies", "100 quiet plies");
    Error err;
    ck_assert(!MILL_FAMILY.set_position(g, "B1B/W2/3/6/B1B/2W/W1W w 0 0 98 60", SHUFFLE, 3, &err));

    // A position string already at N.
    play(g, "B1B/W2/3/6/B1B/2W/W1W w 0 0 99 60", NULL, 0);
    expect_result(g, RESULT_NONE, "goes on", "position string with 99");
    play(g, "B1B/W2/3/6/B1B/2W/W1W w 0 0 100 60", NULL, 0);
    expect_result(g, RESULT_DRAW, "100 plies", "position string with 100");
    play(g, "B1B/W2/3/6/B1B/2W/W1W w 0 0 150 60", NULL, 0);
    expect_result(g, RESULT_DRAW, "100 plies", "position string with 150");

    // The option applies to the position already set.
    option(g, "NMoveRule", "0");
    expect_result(g, RESULT_NONE, "goes on", "NMoveRule=0");
    option(g, "NMoveRule", "200");
    expect_result(g, RESULT_NONE, "goes on", "NMoveRule=200, 150 plies");
    option(g, "NMoveRule", "150");
    expect_result(g, RESULT_DRAW, "150 plies", "NMoveRule=150, 150 plies");

    option(g, "NMoveRule", "10");
    play(g, "B1B/W2/3/6/B1B/2W/W1W w 0 0 8 60", SHUFFLE, 1);
    expect_result(g, RESULT_NONE, "goes on", "NMoveRule=10, 9 plies");
    play(g, "B1B/W2/3/6/B1B/2W/W1W w 0 0 8 60", SHUFFLE, 2);
    expect_result(g, RESULT_DRAW, "10 plies", "NMoveRule=10, 10 plies");

    option(g, "NMoveRule", "0");
    play(g, "B1B/W2/3/6/B1B/2W/W1W w 0 0 5000 60", SHUFFLE, 4);
    expect_result(g, RESULT_NONE, "goes on", "NMoveRule=0, 5004 plies");

    // Out-of-range values are refused.
    ck_assert(!MILL_FAMILY.set_option(g, "NMoveRule", "-1", &err));
    ck_assert(!MILL_FAMILY.set_option(g, "NMoveRule", "abc", &err));
    ck_assert(!MILL_FAMILY.set_option(g, "NMoveRule", "10001", &err));
    ck_assert(!MILL_FAMILY.set_option(g, "Repetition", "yes", &err));
    MILL_FAMILY.destroy(g);
}
END_TEST

// 5.5 A removal or a placement resets the quiet-ply count.
START_TEST(test_nmove_reset) {
    char fen[FEN_MAX];
    const char *removal[] = {"g4-g1xa7"}, *quiet[] = {"b6-b4"}, *place[] = {"d6"};
    Game *g = game_new("nine");
    play(g, "B2/W2/BB1/5W/2B/3/WW1 w 0 0 99 60", removal, 1);
    expect_result(g, RESULT_NONE, "goes on", "removal at 99");
    MILL_FAMILY.get_position(g, fen, sizeof fen);
    ck_assert_str_eq(fen, "3/W2/BB1/6/2B/3/WWW b 0 0 0 60");
    play(g, "B2/W2/BB1/5W/2B/3/WW1 w 0 0 99 60", quiet, 1);
    expect_result(g, RESULT_DRAW, "100 plies", "quiet move at 99");
    MILL_FAMILY.destroy(g);

    g = game_new("lasker");
    play(g, "B1B/W2/3/6/B1B/2W/W1W w 6 6 99 60", place, 1);
    expect_result(g, RESULT_NONE, "goes on", "placement at 99");
    play(g, "B1B/W2/3/6/B1B/2W/W1W w 6 6 99 60", quiet, 1);
    expect_result(g, RESULT_DRAW, "100 plies", "lasker move at 99");
    MILL_FAMILY.destroy(g);
}
END_TEST

// Check that set_position with these moves fails and leaves the game exactly as it was.
static void expect_refused(Game *g, const char *fen, const char *const *moves, int n,
                           const char *context) {
    char before[FEN_MAX], after[FEN_MAX], r1[128], r2[128];
    MILL_FAMILY.get_position(g, before, sizeof before);
    uint64_t key = MILL_FAMILY.key(g);
    GameResult res = MILL_FAMILY.result(g, r1, sizeof r1);
    int nmoves = game_moves(g, NULL);
    Error err = {""};
    ck_assert_msg(!MILL_FAMILY.set_position(g, fen, moves, n, &err), "%s: accepted", context);
    ck_assert_msg(strstr(err.msg, "over") != NULL, "%s: error '%s'", context, err.msg);
    MILL_FAMILY.get_position(g, after, sizeof after);
    ck_assert_str_eq(before, after);
    ck_assert_uint_eq(key, MILL_FAMILY.key(g));
    ck_assert_int_eq(res, MILL_FAMILY.result(g, r2, sizeof r2));
    ck_assert_str_eq(r1, r2);
    ck_assert_int_eq(nmoves, game_moves(g, NULL));
}

// 5: a move after the end of the game is refused and the game state is kept.
START_TEST(test_moves_after_end_refused) {
    const char *opening[] = {"b2"};
    const char *three[] = {"a1", "a3", "b1", "b3", "c1", "c3"};
    Game *g = game_new("three");
    play(g, NULL, three, 5);
    expect_result(g, RESULT_WHITE_WINS, "white wins", "three: a1-b1-c1");
    expect_refused(g, NULL, three, 6, "three: a move after the mill");
    play(g, NULL, opening, 1);
    expect_refused(g, NULL, three, 6, "three: from a running game");
    MILL_FAMILY.destroy(g);

    // Nine: W a1 d1 g4 b6, B c5 d5 e3 (3 men); g4-g1 takes black down to 2.
    const char *last[] = {"g4-g1xe3", "c5-c4"};
    g = game_new("nine");
    play(g, "3/W2/BB1/5W/2B/3/WW1 w 0 0 0 40", last, 1);
    expect_result(g, RESULT_WHITE_WINS, "black has fewer than 3 men", "nine: down to 2");
    expect_refused(g, "3/W2/BB1/5W/2B/3/WW1 w 0 0 0 40", last, 2, "nine: black moves on");

    // A blocked side cannot move either.
    const char *blocked[] = {"a1-a4"};
    play(g, "1BW/WB1/3/BB3B/3/1B1/WWB w 0 0 0 30", NULL, 0);
    expect_refused(g, "1BW/WB1/3/BB3B/3/1B1/WWB w 0 0 0 30", blocked, 1, "nine: blocked");
    MILL_FAMILY.destroy(g);
}
END_TEST

Suite *rules_suite(void) {
    Suite *s = suite_create("rules");
    TCase *tc = tcase_create("game end");
    tcase_set_timeout(tc, 20);
    tcase_add_loop_test(tc, test_result_table, 0,
                        (int)(sizeof RESULT_CASES / sizeof RESULT_CASES[0]));
    tcase_add_test(tc, test_full_board_by_play);
    tcase_add_test(tc, test_mill_win_by_play);
    suite_add_tcase(s, tc);

    tc = tcase_create("draws");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, test_repetition);
    tcase_add_test(tc, test_repetition_after_placement);
    tcase_add_test(tc, test_repetition_after_removal);
    tcase_add_test(tc, test_nmove_rule);
    tcase_add_test(tc, test_nmove_reset);
    tcase_add_test(tc, test_moves_after_end_refused);
    suite_add_tcase(s, tc);
    return s;
}
