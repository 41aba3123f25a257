// Move generation against docs/variants.md, "A turn": hand-made positions, each with its exact
// legal move list (a sorted set of formatted tokens, or the tokens that start with a prefix) and
// its exact move count. Every row is checked through movegen_legal, movegen_count and the game
// layer's legal_moves, which must all agree.
#include "engine/core/random.h"
#include "engine/mill/game.h"
#include "engine/mill/movegen.h"
#include "engine/mill/notation.h"
#include "tests/suites.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Tokens {
    int n;
    char tok[MAX_MOVES][MOVE_STR_MAX];
} Tokens;

// Allocate an empty token list (it is too large for the stack).
static Tokens *tokens_new(void) {
    Tokens *t = calloc(1, sizeof *t);
    ck_assert_ptr_nonnull(t);
    return t;
}

// Append one token; a MoveFn for the game layer's legal_moves.
static void tokens_add(void *ctx, const char *move) {
    Tokens *t = ctx;
    ck_assert_int_lt(t->n, MAX_MOVES);
    ck_assert_uint_lt(strlen(move), MOVE_STR_MAX);
    strcpy(t->tok[t->n++], move);
}

// Split a space-separated list of tokens into t.
static void tokens_from_text(Tokens *t, const char *text) {
    char word[64];
    int len;
    while (sscanf(text, "%63s%n", word, &len) == 1) {
        tokens_add(t, word);
        text += len;
    }
}

static int compare_tokens(const void *a, const void *b) { return strcmp(a, b); }

// Sort t and join the tokens that start with prefix, space-separated, into a new string.
static char *tokens_join(Tokens *t, const char *prefix) {
    qsort(t->tok, (size_t)t->n, sizeof t->tok[0], compare_tokens);
    char *s = malloc((size_t)t->n * MOVE_STR_MAX + 1);
    ck_assert_ptr_nonnull(s);
    size_t len = 0, plen = strlen(prefix);
    s[0] = '\0';
    for (int i = 0; i < t->n; i++) {
        if (strncmp(t->tok[i], prefix, plen))
            continue;
        len += (size_t)sprintf(s + len, "%s%s", len ? " " : "", t->tok[i]);
    }
    return s;
}

// Set one rule option on the rules directly, mirroring the game layer's option names.
static void rules_set_option(MillRules *r, const char *name, const char *value) {
    bool on = !strcmp(value, "true");
    if (!strcmp(name, "Flying"))
        r->flying = on;
    else if (!strcmp(name, "RemoveFromMills"))
        r->remove_from_mills = on;
    else if (!strcmp(name, "RemovalPerMill"))
        r->removal_per_mill = on;
    else if (!strcmp(name, "Repetition"))
        r->repetition = on;
    else if (!strcmp(name, "NMoveRule"))
        r->nmove_rule = atoi(value);
    else
        ck_abort_msg("unknown option %s", name);
}

// Apply "Name=value ..." to both the rules and the game.
static void apply_options(MillRules *r, Game *g, const char *options) {
    char name[32], value[16];
    int len;
    while (sscanf(options, " %31[^=]=%15s%n", name, value, &len) == 2) {
        Error err;
        rules_set_option(r, name, value);
        ck_assert_msg(MILL_FAMILY.set_option(g, name, value, &err), "option %s=%s: %s", name, value,
                      err.msg);
        options += len;
    }
}

typedef struct MovesCase {
    const char *name; // the rule the row checks
    const char *variant;
    const char *options; // "Name=value ..." applied before the position is set
    const char *fen;
    const char *prefix; // only tokens starting with this are compared ("" = all)
    const char *expect; // exact set of those tokens, in any order
    int count;          // exact number of legal moves
} MovesCase;

// clang-format off
static const MovesCase MOVES_CASES[] = {
    // 3.2 Placing: every empty point, nothing else.
    {"place: nine start", "nine", "", "3/3/3/6/3/3/3 w 9 9 0 1", "",
     "a1 a4 a7 b2 b4 b6 c3 c4 c5 d1 d2 d3 d5 d6 d7 e3 e4 e5 f2 f4 f6 g1 g4 g7", 24},
    {"place: twelve start", "twelve", "", "3/3/3/6/3/3/3 w 12 12 0 1", "",
     "a1 a4 a7 b2 b4 b6 c3 c4 c5 d1 d2 d3 d5 d6 d7 e3 e4 e5 f2 f4 f6 g1 g4 g7", 24},
    {"place: six start", "six", "", "3/3/4/3/3 w 6 6 0 1", "",
     "a1 a3 a5 b2 b3 b4 c1 c2 c4 c5 d2 d3 d4 e1 e3 e5", 16},
    {"place: seven start (with c3)", "seven", "", "3/3/5/3/3 w 7 7 0 1", "",
     "a1 a3 a5 b2 b3 b4 c1 c2 c3 c4 c5 d2 d3 d4 e1 e3 e5", 17},
    {"place: three start", "three", "", "3/3/3 w 3 3 0 1", "",
     "a1 a2 a3 b1 b2 b3 c1 c2 c3", 9},
    // W a1 g7, B d6 b4: the 20 empty points.
    {"place: empty points only", "nine", "", "2W/1B1/3/1B4/3/3/W2 w 7 7 0 3", "",
     "a4 a7 b2 b6 c3 c4 c5 d1 d2 d3 d5 d7 e3 e4 e5 f2 f4 f6 g1 g4", 20},
    // W a1 g7, B d6, black to place.
    {"place: black places", "nine", "", "2W/1B1/3/6/3/3/W2 b 7 8 0 2", "",
     "a4 a7 b2 b4 b6 c3 c4 c5 d1 d2 d3 d5 d7 e3 e4 e5 f2 f4 f6 g1 g4", 21},

    // 3.3 Moving along lines to adjacent empty points. W d7 b4 e3 g1, B a7 d6 d3 g4 f2.
    {"move: adjacent empty points", "nine", "", "BW1/1B1/3/1W3B/1BW/2B/2W w 0 0 0 20", "",
     "b4-a4 b4-b2 b4-b6 b4-c4 d7-g7 e3-e4 g1-d1", 7},
    // The same with f2 empty: no diagonal f2 on the plain 24 board...
    {"move: no diagonals in nine", "nine", "", "BW1/1B1/3/1W3B/1BW/3/2W w 0 0 0 20", "",
     "b4-a4 b4-b2 b4-b6 b4-c4 d7-g7 e3-e4 g1-d1", 7},
    // ...but e3-f2 and g1-f2 along the diagonal g1-f2-e3 in twelve.
    {"move: diagonals in twelve", "twelve", "", "BW1/1B1/3/1W3B/1BW/3/2W w 0 0 0 20", "",
     "b4-a4 b4-b2 b4-b6 b4-c4 d7-g7 e3-e4 e3-f2 g1-d1 g1-f2", 9},

    // 3.4/3.5 Closing a mill by placing: W a1 d1, B d6 d5 b2; g1 removes any black man.
    {"mill: placement removes", "nine", "", "3/1B1/1B1/6/3/B2/WW1 w 7 6 0 4", "g1",
     "g1xb2 g1xd5 g1xd6", 21},
    // Closing by moving: W a1 d1 g4 b6, B a4 d2 f4 d6; g4-g1 closes a1-d1-g1.
    {"mill: move removes", "nine", "", "3/WB1/3/B3BW/3/1B1/WW1 w 0 0 0 20", "",
     "b6-b4 d1-g1 g4-g1xa4 g4-g1xd2 g4-g1xd6 g4-g1xf4 g4-g7", 7},

    // 3.5 Protection. W a1 d1, B mill a7-d7-g7 and b4 outside: only b4.
    {"protect: mill men kept while one is outside", "nine", "",
     "BBB/3/3/1B4/3/3/WW1 w 7 5 0 5", "g1", "g1xb4", 18},
    // B has only the mill a7-d7-g7: any of it.
    {"protect: all men in mills, any may go", "nine", "", "BBB/3/3/6/3/3/WW1 w 7 6 0 4", "g1",
     "g1xa7 g1xd7 g1xg7", 21},
    {"protect: RemoveFromMills lifts it", "nine", "RemoveFromMills=true",
     "BBB/3/3/1B4/3/3/WW1 w 7 5 0 5", "g1", "g1xa7 g1xb4 g1xd7 g1xg7", 21},
    // Moving phase: W a1 d1 g4 b6, B mill c5-d5-e5 plus a4 f4.
    {"protect: moving phase", "nine", "", "3/W2/BBB/B3BW/3/3/WW1 w 0 0 0 20", "",
     "b6-b4 b6-d6 d1-d2 d1-g1 g4-g1xa4 g4-g1xf4 g4-g7", 7},
    {"protect: moving phase, RemoveFromMills", "nine", "RemoveFromMills=true",
     "3/W2/BBB/B3BW/3/3/WW1 w 0 0 0 20", "g4-g1",
     "g4-g1xa4 g4-g1xc5 g4-g1xd5 g4-g1xe5 g4-g1xf4", 10},

    // 3.5 Two mills at once. W a1 d1 g4 g7: g1 closes a1-d1-g1 and g1-g4-g7.
    // B d7 f4 free, c5-d5-e5 a mill.
    {"two mills: nine removes one", "nine", "", "1BW/3/BBB/4BW/3/3/WW1 w 5 4 0 5", "g1",
     "g1xd7 g1xf4", 16},
    {"two mills: morabaraba removes two, both orders", "morabaraba", "",
     "1BW/3/BBB/4BW/3/3/WW1 w 8 7 0 5", "g1", "g1xd7xf4 g1xf4xd7", 16},
    {"two mills: RemovalPerMill in nine", "nine", "RemovalPerMill=true",
     "1BW/3/BBB/4BW/3/3/WW1 w 5 4 0 5", "g1", "g1xd7xf4 g1xf4xd7", 16},
    // B d7 free, c5-d5-e5 a mill: d7 first, then the mill is open to the second removal.
    {"two mills: protection re-evaluated", "morabaraba", "", "1BW/3/BBB/5W/3/3/WW1 w 8 8 0 5",
     "g1", "g1xd7xc5 g1xd7xd5 g1xd7xe5", 18},
    {"two mills: morabaraba without RemovalPerMill", "morabaraba", "RemovalPerMill=false",
     "1BW/3/BBB/5W/3/3/WW1 w 8 8 0 5", "g1", "g1xd7", 16},
    // W d1 g1 a4 a7 b2 c3: a1 closes three mills; B d3 d6 f4 in every order.
    {"three mills: morabaraba corner", "morabaraba", "", "W2/1B1/3/W3B1/WB1/W2/1WW w 6 9 0 7",
     "a1",
     "a1xd3xd6xf4 a1xd3xf4xd6 a1xd6xd3xf4 a1xd6xf4xd3 a1xf4xd3xd6 a1xf4xd6xd3", 20},
    // Seven, W c1 c2 c4 c5 b3 d3: c3 closes four mills; B's 7 free men give 7*6*5*4 orders.
    {"four mills: seven centre, RemovalPerMill", "seven", "RemovalPerMill=true",
     "BWB/BWB/1W1W1/BW1/BWB w 1 0 0 13", "c3xa1xa5xb2x",
     "c3xa1xa5xb2xb4 c3xa1xa5xb2xd4 c3xa1xa5xb2xe1 c3xa1xa5xb2xe5", 843},
    {"four mills: seven centre, one removal", "seven", "", "BWB/BWB/1W1W1/BW1/BWB w 1 0 0 13",
     "", "a3 d2 e3 c3xa1 c3xa5 c3xb2 c3xb4 c3xd4 c3xe1 c3xe5", 10},

    // 3.5 Removing stops early.
    // B has no man on the board: g1 closes a mill and removes nothing.
    {"stop: no opponent man on the board", "nine", "", "3/3/3/6/3/3/WW1 w 7 8 0 4", "g1", "g1",
     22},
    // Morabaraba, B d5 only on the board (5 in hand): the second removal has nothing to take.
    {"stop: board emptied by the first removal", "morabaraba", "",
     "2W/3/1B1/5W/3/3/WW1 w 8 5 0 12", "g1", "g1xd5", 19},
    // W a1 d1 g4 g7 f2, B b6 d5 c3 (3 men, none in hand): f2-g1 closes two mills, but after
    // one removal black has 2 men and has lost.
    {"stop: below 3 men after the first removal", "morabaraba", "",
     "2W/B2/1B1/5W/B2/2W/WW1 w 0 0 0 30", "",
     "a1-a4 a1-b2 d1-d2 d1-g1xb6 d1-g1xc3 d1-g1xd5 f2-d2 f2-e3 f2-f4 f2-g1xb6 f2-g1xc3 "
     "f2-g1xd5 g4-f4 g4-g1xb6 g4-g1xc3 g4-g1xd5 g7-d7 g7-f6", 18},
    // B 2 on the board and 1 in hand: one removal leaves 2 in all.
    {"stop: below 3 men counting the hand", "morabaraba", "", "2W/B2/1B1/5W/3/3/WW1 w 8 1 0 12",
     "g1", "g1xb6 g1xd5", 19},
    // B 3 on the board and 1 in hand: after one removal 3 remain, so both removals happen.
    {"stop: 3 men left, removing goes on", "morabaraba", "", "2W/B2/1B1/5W/B2/3/WW1 w 8 1 0 12",
     "g1", "g1xb6xc3 g1xb6xd5 g1xc3xb6 g1xc3xd5 g1xd5xb6 g1xd5xc3", 22},
    // B 4 on the board: both removals happen, 12 orders.
    {"stop: 4 men, both removals", "morabaraba", "", "2W/B2/1B1/3B1W/B2/2W/WW1 w 0 0 0 30",
     "f2-g1",
     "f2-g1xb6xc3 f2-g1xb6xd5 f2-g1xb6xe4 f2-g1xc3xb6 f2-g1xc3xd5 f2-g1xc3xe4 "
     "f2-g1xd5xb6 f2-g1xd5xc3 f2-g1xd5xe4 f2-g1xe4xb6 f2-g1xe4xc3 f2-g1xe4xd5", 29},

    // 3.3 Flying. W a1 d6 g4 (3 men, none in hand), B a7 d7 b4 e3: 3 x 17 empty points.
    {"fly: nine at 3 men", "nine", "", "BB1/1W1/3/1B3W/2B/3/W2 w 0 0 0 30", "a1-",
     "a1-a4 a1-b2 a1-b6 a1-c3 a1-c4 a1-c5 a1-d1 a1-d2 a1-d3 a1-d5 a1-e4 a1-e5 a1-f2 a1-f4 "
     "a1-f6 a1-g1 a1-g7", 51},
    {"fly: Flying=false in nine", "nine", "Flying=false", "BB1/1W1/3/1B3W/2B/3/W2 w 0 0 0 30",
     "", "a1-a4 a1-d1 d6-b6 d6-d5 d6-f6 g4-f4 g4-g1 g4-g7", 8},
    {"fly: not at 4 men", "nine", "", "BB1/1W1/3/1B3W/W1B/3/W2 w 0 0 0 30", "",
     "a1-a4 a1-d1 c3-c4 c3-d3 d6-b6 d6-d5 d6-f6 g4-f4 g4-g1 g4-g7", 10},
    {"fly: not with a man in hand", "nine", "", "BB1/1W1/3/1B3W/2B/3/W2 w 1 1 0 10", "a1-", "",
     17},
    {"fly: lasker at 3 men", "lasker", "", "BB1/1W1/3/1B3W/2B/3/W2 w 0 6 0 30", "a1-",
     "a1-a4 a1-b2 a1-b6 a1-c3 a1-c4 a1-c5 a1-d1 a1-d2 a1-d3 a1-d5 a1-e4 a1-e5 a1-f2 a1-f4 "
     "a1-f6 a1-g1 a1-g7", 51},
    // W a1 c4 e3 (3 men), B c1 d4 a5 b3 on the 16-point board: no flying by default.
    {"no fly: six", "six", "", "B2/1WB/1B1W/3/WB1 w 0 0 0 20", "",
     "a1-a3 c4-b4 c4-c5 e3-d3 e3-e1 e3-e5", 6},
    {"no fly: five", "five", "", "B2/1WB/1B1W/3/WB1 w 0 0 0 20", "",
     "a1-a3 c4-b4 c4-c5 e3-d3 e3-e1 e3-e5", 6},
    {"fly: Flying=true in six", "six", "Flying=true", "B2/1WB/1B1W/3/WB1 w 0 0 0 20", "a1-",
     "a1-a3 a1-b2 a1-b4 a1-c2 a1-c5 a1-d2 a1-d3 a1-e1 a1-e5", 27},
    {"no fly: seven (c3 joins the cross)", "seven", "", "B2/1WB/1B2W/3/WB1 w 0 0 0 20", "",
     "a1-a3 c4-b4 c4-c3 c4-c5 e3-d3 e3-e1 e3-e5", 7},
    // 9-point board: W b2 a1 c1, B a2 b1 c3.
    {"no fly: three, orthogonal only", "three", "", "2B/BW1/WBW w 0 0 0 10", "",
     "b2-b3 b2-c2 c1-c2", 3},
    {"diagonals: tapatan", "tapatan", "", "2B/BW1/WBW w 0 0 0 10", "",
     "b2-a3 b2-b3 b2-c2 c1-c2", 4},
    {"diagonals: achi", "achi", "", "2B/BW1/WBW w 0 0 0 10", "", "b2-a3 b2-b3 b2-c2 c1-c2", 4},
    // Nine holes: W a1 b1 c3 fly anywhere; c3-c1 closes a1-b1-c1 and removes nothing.
    {"fly: nine-holes always", "nine-holes", "", "B1W/BB1/WW1 w 0 0 0 10", "",
     "a1-b3 a1-c1 a1-c2 b1-b3 b1-c1 b1-c2 c3-b3 c3-c1 c3-c2", 9},
    // A position string with 2 white men: they still fly (only the 3-men rule is nine's).
    {"fly: nine-holes at 2 men", "nine-holes", "", "B1W/BB1/W2 w 0 0 0 10", "",
     "a1-b1 a1-b3 a1-c1 a1-c2 c3-b1 c3-b3 c3-c1 c3-c2", 8},
    {"fly: Flying=false in nine-holes", "nine-holes", "Flying=false", "B1W/BB1/WW1 w 0 0 0 10",
     "", "b1-c1 c3-b3 c3-c2", 3},

    // 3.2 Lasker: placements and adjacent moves while men are in hand.
    {"lasker: place or move", "lasker", "", "BB1/1W1/3/1B3W/3/3/W2 w 6 7 0 4", "",
     "a4 b2 b6 c3 c4 c5 d1 d2 d3 d5 e3 e4 e5 f2 f4 f6 g1 g7 "
     "a1-a4 a1-d1 d6-b6 d6-d5 d6-f6 g4-f4 g4-g1 g4-g7", 26},
    {"lasker: nine only places", "nine", "", "BB1/1W1/3/1B3W/3/3/W2 w 6 6 0 4", "",
     "a4 b2 b6 c3 c4 c5 d1 d2 d3 d5 e3 e4 e5 f2 f4 f6 g1 g7", 18},

    // 3.6 Mill-wins variants never append removals.
    {"mill wins: three placement", "three", "", "3/BB1/WW1 w 1 1 0 3", "",
     "a3 b3 c1 c2 c3", 5},
    // W a1 c3 b1, B a2 c2 b3: b1-b2 closes the diagonal a1-b2-c3.
    {"mill wins: tapatan diagonal move", "tapatan", "", "1BW/B1B/WW1 w 0 0 0 10", "",
     "a1-b2 b1-b2 b1-c1 c3-b2", 4},
    // W a1 b2 + 2 in hand, B a3 b1: c3 closes a1-b2-c3.
    {"mill wins: achi placement", "achi", "", "B2/1W1/WB1 w 2 2 0 3", "", "a2 b3 c1 c2 c3",
     5},
};
// clang-format on

static int compare_moves(const void *a, const void *b) {
    Move x = *(const Move *)a, y = *(const Move *)b;
    return (x > y) - (x < y);
}

static bool listed(const Move *sorted, int n, Move m) {
    return bsearch(&m, sorted, (size_t)n, sizeof m, compare_moves) != NULL;
}

// movegen_is_legal agrees with the list on every move of it and on words near them: each
// move with its origin, destination or a removal changed to every point, a removal dropped or
// added, and a stray high bit; then on random words.
static void expect_is_legal_agrees(const Position *p, const Move *moves, int n, const char *name) {
    Move *sorted = malloc((size_t)(n ? n : 1) * sizeof *sorted);
    ck_assert_ptr_nonnull(sorted);
    memcpy(sorted, moves, (size_t)n * sizeof *moves);
    qsort(sorted, (size_t)n, sizeof *sorted, compare_moves);
#define AGREE(word)                                                                                \
    do {                                                                                           \
        Move w_ = (word);                                                                          \
        ck_assert_msg(movegen_is_legal(p, w_) == listed(sorted, n, w_),                            \
                      "%s: movegen_is_legal(%#x) is %d", name, w_, movegen_is_legal(p, w_));       \
    } while (0)
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        ck_assert_msg(movegen_is_legal(p, m), "%s: listed move %#x not legal", name, m);
        int k = move_nremovals(m);
        for (int x = 0; x < 32; x++) {
            AGREE((m & ~31u) | (Move)x);
            AGREE((m & ~(31u << 5)) | (Move)x << 5);
            for (int j = 0; j < k; j++)
                AGREE((m & ~(31u << (10 + 5 * j))) | (Move)x << (10 + 5 * j));
            if (k < MAX_REMOVALS)
                AGREE(m | (Move)x << (10 + 5 * k));
        }
        if (k)
            AGREE(m & ~(31u << (10 + 5 * (k - 1))));
        AGREE(m | 1u << 31);
    }
    uint32_t seed = 2463534242u + (uint32_t)n;
    for (int i = 0; i < 2000; i++) {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        AGREE(seed & 0x3fffffffu);
        AGREE(seed & 0x3ff);
    }
#undef AGREE
    free(sorted);
}

// One row of MOVES_CASES through movegen_legal, movegen_count and the game layer.
START_TEST(test_moves_table) {
    const MovesCase *c = &MOVES_CASES[_i];
    const Variant *v = variant_find(c->variant);
    ck_assert_msg(v != NULL, "%s: unknown variant %s", c->name, c->variant);
    MillRules rules;
    rules_init(&rules, v);
    Game *g = MILL_FAMILY.create(c->variant);
    ck_assert_ptr_nonnull(g);
    apply_options(&rules, g, c->options);

    Position pos;
    Error err;
    ck_assert_msg(pos_set_fen(&pos, &rules, c->fen, &err), "%s: %s", c->name, err.msg);
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    ck_assert_ptr_nonnull(moves);
    int n = movegen_legal(&pos, moves);
    ck_assert_msg(movegen_count(&pos) == (uint64_t)n, "%s: movegen_count %llu, movegen_legal %d",
                  c->name, (unsigned long long)movegen_count(&pos), n);
    expect_is_legal_agrees(&pos, moves, n, c->name);

    Tokens *got = tokens_new(), *want = tokens_new(), *game = tokens_new();
    for (int i = 0; i < n; i++) {
        char s[MOVE_STR_MAX];
        move_format(rules.board, moves[i], s);
        tokens_add(got, s);
    }
    char *all = tokens_join(got, "");
    for (int i = 1; i < got->n; i++)
        ck_assert_msg(strcmp(got->tok[i - 1], got->tok[i]), "%s: %s listed twice", c->name,
                      got->tok[i]);
    tokens_from_text(want, c->expect);
    char *got_s = tokens_join(got, c->prefix), *want_s = tokens_join(want, "");
    ck_assert_msg(!strcmp(got_s, want_s), "%s: moves '%s...'\n got: %s\nwant: %s", c->name,
                  c->prefix, got_s, want_s);
    ck_assert_msg(n == c->count, "%s: %d legal moves, expected %d: %s", c->name, n, c->count, all);

    ck_assert_msg(MILL_FAMILY.set_position(g, c->fen, NULL, 0, &err), "%s: %s", c->name, err.msg);
    int gn = MILL_FAMILY.legal_moves(g, tokens_add, game);
    char *game_s = tokens_join(game, "");
    ck_assert_msg(gn == n && !strcmp(game_s, all), "%s: game layer lists %d: %s", c->name, gn,
                  game_s);

    free(game_s);
    free(got_s);
    free(want_s);
    free(all);
    free(game);
    free(want);
    free(got);
    free(moves);
    MILL_FAMILY.destroy(g);
}
END_TEST

// Collect the sorted legal moves of a game as one string.
static char *game_moves(const Game *g) {
    Tokens *t = tokens_new();
    int n = MILL_FAMILY.legal_moves(g, tokens_add, t);
    ck_assert_int_eq(n, t->n);
    char *s = tokens_join(t, "");
    free(t);
    return s;
}

// Set a position and play moves through the game layer, failing the test on error.
static void play(Game *g, const char *fen, const char *const *moves, int n) {
    Error err;
    ck_assert_msg(MILL_FAMILY.set_position(g, fen, moves, n, &err), "%s", err.msg);
}

// 3.4: a man that leaves a mill and comes back closes it again, as often as it likes.
START_TEST(test_mill_reclosed) {
    // W a1 d1 g1 (a mill) b6, B a4 d2 f4 d6.
    const char *fen = "3/WB1/3/B3B1/3/1B1/WWW w 0 0 0 20";
    const char *moves[] = {"g1-g4", "d6-d5", "g4-g1xa4", "d5-d6", "g1-g4", "d6-d5"};
    Game *g = MILL_FAMILY.create("nine");
    ck_assert_ptr_nonnull(g);

    play(g, fen, moves, 2);
    char *s = game_moves(g);
    ck_assert_str_eq(s, "b6-b4 b6-d6 d1-g1 g4-g1xa4 g4-g1xd2 g4-g1xd5 g4-g1xf4 g4-g7");
    free(s);

    // Out again and back again: the same mill removes a second time.
    play(g, fen, moves, 6);
    s = game_moves(g);
    ck_assert_str_eq(s, "a1-a4 b6-b4 b6-d6 d1-g1 g4-g1xd2 g4-g1xd5 g4-g1xf4 g4-g7");
    free(s);
    MILL_FAMILY.destroy(g);
}
END_TEST

// 3.5: each removal of a multi-removal move is legal on the board the previous one left, and
// movegen_removable follows protection and the RemoveFromMills rule.
START_TEST(test_removable_sets) {
    MillRules rules;
    Position pos;
    Error err;
    rules_init(&rules, variant_find("nine"));
    // B mill a7-d7-g7 plus b4.
    ck_assert(pos_set_fen(&pos, &rules, "BBB/3/3/1B4/3/3/WW1 w 7 5 0 5", &err));
    const Board *b = rules.board;
    Bits opp = pos.men[BLACK];
    Bits b4 = BIT(board_point(b, "b4"));
    ck_assert_uint_eq(movegen_removable(&pos, opp), b4);
    ck_assert_uint_eq(movegen_removable(&pos, opp & ~b4), opp & ~b4);
    rules.remove_from_mills = true;
    ck_assert_uint_eq(movegen_removable(&pos, opp), opp);
}
END_TEST

// The search's shortcuts against the full tests, on random games of every variant (and, in
// each, one removal per mill closed): after a move from a position whose game went on,
// pos_outcome_of(p, true) is pos_outcome(p), and while the game goes on the lists of
// movegen_legal_ongoing and movegen_closing_ongoing are those of movegen_legal and
// movegen_closing, move for move.
START_TEST(test_ongoing_shortcuts) {
    MillRules rules;
    rules_init(&rules, &VARIANTS[_i / 2]);
    rules.removal_per_mill = _i % 2;
    Move *a = malloc(MAX_MOVES * sizeof *a), *b = malloc(MAX_MOVES * sizeof *b);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    uint64_t state = 0x9e3779b97f4a7c15ull + (uint64_t)_i;
    int ended = 0;
    for (int game = 0; game < 60; game++) {
        Position p;
        pos_set_start(&p, &rules);
        for (int ply = 0; ply < 200; ply++) {
            Outcome o = pos_outcome(&p);
            if (ply > 0)
                ck_assert_int_eq(pos_outcome_of(&p, true), o);
            if (o != OUTCOME_NONE) {
                ended++;
                break;
            }
            int c = movegen_closing(&p, a);
            ck_assert_int_eq(movegen_closing_ongoing(&p, b), c);
            ck_assert_mem_eq(a, b, (size_t)c * sizeof *a);
            int n = movegen_legal(&p, a);
            ck_assert_int_eq(movegen_legal_ongoing(&p, b), n);
            ck_assert_mem_eq(a, b, (size_t)n * sizeof *a);
            if (n == 0)
                break;
            pos_apply_move(&p, a[random_next(&state) % (uint64_t)n]);
        }
    }
    ck_assert_msg(ended > 0, "%s: no random game ended", VARIANTS[_i / 2].id);
    free(a);
    free(b);
}
END_TEST

Suite *movegen_suite(void) {
    Suite *s = suite_create("movegen");
    TCase *tc = tcase_create("rules");
    tcase_set_timeout(tc, 20);
    tcase_add_loop_test(tc, test_moves_table, 0, (int)(sizeof MOVES_CASES / sizeof MOVES_CASES[0]));
    tcase_add_test(tc, test_mill_reclosed);
    tcase_add_test(tc, test_removable_sets);
    tcase_add_loop_test(tc, test_ongoing_shortcuts, 0, 2 * VARIANT_COUNT);
    suite_add_tcase(s, tc);
    return s;
}
