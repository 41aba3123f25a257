#include "engine/mill/eval.h"

#include "engine/core/compiler.h"

#include <stdio.h>

const char *const EVAL_FEATURE_NAMES[F_COUNT] = {
    "men", "mobility", "blocked", "open mills", "double mills", "two empty", "flying", "tempo",
};

// clang-format off
int eval_weights[BOARD_KINDS][PHASE_COUNT][F_COUNT] = {
    //                      men  mob  blk  open  dbl  two  fly  tempo
    [BOARD_24] = {{100, 29,   6,  68,  89,   0,   0,   53},
                  {100, 14,  -8,  31, 154,  17, 158,  -19}},
    [BOARD_16] = {{100,  3,  -1,  32,  19,   6,   0,   15},
                  {100, 11,  -2,  18, -12,   4,  60,    1}},
    [BOARD_17] = {{100,  4, -15, 101,  -2,  35,   0,   83},
                  {100,  7, -12,  22,   4,   9,  60,    2}},
    [BOARD_9]  = {{100,  2,  -6,  25,  10,   6,   0,   10},
                  {100,  9, -32,  20,  45,  18,  60,    5}},
};
// clang-format on

// The features and phase (inlined into eval_position, where it is hot). Everything is computed
// on whole point and line-slot sets (board.h), without a loop over the men or the lines.
static ALWAYS_INLINE int features(const Position *p, int f[F_COUNT]) {
    const MillRules *r = p->rules;
    const Board *b = r->board;
    int us = p->side;
    Bits own = p->men[us], opp = p->men[!us], empty = b->all & ~(own | opp);

    // Each line's slots lined up with those of its other two points: a line holding two own
    // men and an empty point has that point in e & a1 & a2, and so on.
    Slots a = board_slots(b, own), o = board_slots(b, opp), e = b->line_slots & ~(a | o);
    Slots a1 = slots_next(a), a2 = slots_next(a1), o1 = slots_next(o), o2 = slots_next(o1);
    Slots e1 = slots_next(e), e2 = slots_next(e1);
    // The points that close a side's mill are empty and those of its mills are its own, so
    // one mapping back to points serves both.
    Bits ours = board_slot_points(b, (e | a) & a1 & a2),
         theirs = board_slot_points(b, (e | o) & o1 & o2);
    Bits closers[2] = {ours & empty, theirs & empty}, in_mills[2] = {ours & own, theirs & opp};

    // Mobility counts (man, empty neighbour) pairs: the men whose k-th neighbour is empty,
    // summed over k. A man is blocked when it is no empty point's neighbour.
    uint64_t own2 = own | (uint64_t)own << 32, opp2 = opp | (uint64_t)opp << 32, near = 0;
    int mobility = 0;
    for (int w = 0; w < b->neighbour_words; w++) {
        uint64_t n = board_kth_neighbours(b, w, empty);
        mobility += bits_count64(n & own2) - bits_count64(n & opp2);
        near |= n;
    }
    Bits free = (Bits)(near | near >> 32);

    f[F_MEN] = bits_count(own) + p->hand[us] - bits_count(opp) - p->hand[!us];
    f[F_MOBILITY] = mobility;
    f[F_BLOCKED] = bits_count(own & ~free) - bits_count(opp & ~free);
    f[F_OPEN_MILLS] = bits_count(closers[0]) - bits_count(closers[1]);
    // A man in a mill next to a point that closes another mill (the line it would leave is
    // not checked: rare, and the weight is fitted to what is measured).
    f[F_DOUBLE_MILLS] = bits_count(in_mills[0] & board_neighbours(b, closers[0])) -
                        bits_count(in_mills[1] & board_neighbours(b, closers[1]));
    f[F_TWO_EMPTY] = bits_count64(a & e1 & e2) - bits_count64(o & e1 & e2);
    f[F_FLYING] = pos_flies(p, us) - pos_flies(p, !us);
    f[F_TEMPO] = 1;
    return p->hand[WHITE] || p->hand[BLACK] ? PHASE_PLACING : PHASE_MOVING;
}

int eval_features(const Position *p, int f[F_COUNT]) { return features(p, f); }

// The weighted sum is left scalar: as one vector multiply, it read the terms back as one wide
// load over eight narrow stores (compiler.h), a stall of a quarter of the evaluation's time.
NO_VECTORIZE int eval_position(const Position *p) {
    int f[F_COUNT];
    int phase = features(p, f), score = 0;
    const int *w = eval_weights[p->rules->board->kind][phase];
    for (int i = 0; i < F_COUNT; i++)
        score += w[i] * f[i];
    return score;
}

void eval_describe(const Position *p, char *buf, size_t n) {
    int f[F_COUNT];
    int phase = eval_features(p, f), score = 0;
    const int *w = eval_weights[p->rules->board->kind][phase];
    size_t len = (size_t)snprintf(buf, n, "phase: %s\n%-14s %6s %6s %6s\n",
                                  phase == PHASE_PLACING ? "placing" : "moving", "term", "value",
                                  "weight", "cp");
    for (int i = 0; i < F_COUNT && len < n; i++) {
        int cp = w[i] * f[i];
        score += cp;
        len += (size_t)snprintf(buf + len, n - len, "%-14s %6d %6d %6d\n", EVAL_FEATURE_NAMES[i],
                                f[i], w[i], cp);
    }
    if (len < n)
        snprintf(buf + len, n - len, "total: %d cp (side to move)\n", score);
}
