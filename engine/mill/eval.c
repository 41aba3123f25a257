#include "engine/mill/eval.h"

#include "engine/core/compiler.h"

#include <stdio.h>

const char *const EVAL_FEATURE_NAMES[F_COUNT] = {
    "men", "mobility", "blocked", "open mills", "double mills", "two empty", "flying", "tempo",
};

// clang-format off
const EvalWeights EVAL_WEIGHTS_DEFAULT = {{
    //                      men  mob  blk  open  dbl  two  fly  tempo
    [BOARD_24] = {{100, 29,   6,  68,  89,   0,   0,   53},
                  {100, 14,  -8,  31, 154,  17, 158,  -19}},
    [BOARD_16] = {{100,  3,  -1,  32,  19,   6,   0,   15},
                  {100, 11,  -2,  18, -12,   4,  60,    1}},
    [BOARD_17] = {{100,  4, -15, 101,  -2,  35,   0,   83},
                  {100,  7, -12,  22,   4,   9,  60,    2}},
    [BOARD_9]  = {{100,  2,  -6,  25,  10,   6,   0,   10},
                  {100,  9, -32,  20,  45,  18,  60,    5}},
}};
// clang-format on

#ifndef BOARD_BITSHUFFLE
// Both sides at once, in the rings of board.h: lane 0 of a pair is the side to move's, lane 1
// the opponent's.
typedef uint64_t RingPair __attribute__((vector_size(16)));

// Bit i of each ring is bit i + k (mod 8) of the repeated rings d.
static inline RingPair ring_rot(RingPair d, int k) { return d >> k & RING_LANES; }

// The points next to a point of the rings x (not repeated).
static inline RingPair ring_neighbours(RingPair x, uint64_t across) {
    RingPair d = x | x << 8;
    return ring_rot(d, 1) | ring_rot(d, 7) | ((x << 16 | x >> 16) & across);
}

// The points whose line's other two points are in the repeated rings d: on a ring's side, a
// corner with the two points after it or before it, or a midpoint between two; across the
// rings, a point with its partners in the other two rings.
static inline RingPair ring_third(RingPair d, uint64_t across) {
    RingPair r1 = ring_rot(d, 1), r2 = ring_rot(d, 2), l1 = ring_rot(d, 7), l2 = ring_rot(d, 6);
    RingPair x = d & across;
    RingPair cross = (x >> 16 & x >> 32) | (x << 16 & x >> 16) | (x << 16 & x << 32);
    return (RING_EVEN & ((r1 & r2) | (l1 & l2))) | (RING_ODD & l1 & r1) | (across & cross);
}

static inline int pair_diff(RingPair v) { return bits_count64(v[0]) - bits_count64(v[1]); }

// The features of features() below on the 24-point board, the same values by rings (the
// two-empty term only where two_empty is set, else 0).
static ALWAYS_INLINE void ring_features(const Board *b, Bits own, Bits opp, int f[F_COUNT],
                                        bool two_empty) {
    uint64_t a = board_rings(b, own), o = board_rings(b, opp), across = board_ring_across(b);
    uint64_t empty = ~(a | o) & (RING_LANES | RING_LANES << 8);
    RingPair d = {a, o}, e = {empty, empty};
    RingPair m = d & RING_LANES, es = e & RING_LANES, ma = m & across;
    RingPair third = ring_third(d, across), closers = es & third;
    RingPair e1 = ring_rot(e, 1), e2 = ring_rot(e, 2);
    f[F_MOBILITY] = pair_diff((m & e1) | (m & ring_rot(e, 7)) << 8) +
                    pair_diff((ma & es >> 16) | (ma & es << 16) << 8);
    f[F_BLOCKED] = pair_diff(m & ~ring_neighbours(es, across));
    f[F_OPEN_MILLS] = pair_diff(closers);
    f[F_DOUBLE_MILLS] = pair_diff(m & third & ring_neighbours(closers, across));
    if (!two_empty) {
        f[F_TWO_EMPTY] = 0;
        return;
    }
    // Lines with one of the side's men and two empty points: on the sides, from each corner
    // clockwise; across (in the outer ring's bits, moved out of the way of the sides).
    RingPair sides =
        RING_EVEN & ((m & e1 & e2) | (es & ring_rot(d, 1) & e2) | (es & e1 & ring_rot(d, 2)));
    RingPair cross =
        (m & es >> 16 & es >> 32) | (es & m >> 16 & es >> 32) | (es & es >> 16 & m >> 32);
    f[F_TWO_EMPTY] = pair_diff(sides | (cross & across & 255) << 8);
}
#endif

// The features and phase (inlined into eval_position, where it is hot). Everything is computed
// on whole point and line-slot sets (board.h), or rings on the 24-point board, without a loop
// over the men or the lines.
static ALWAYS_INLINE int features(const Position *p, const EvalWeights *weights, int f[F_COUNT],
                                  bool all) {
    const MillRules *r = p->rules;
    const Board *b = r->board;
    int us = p->side;
    Bits own = p->men[us], opp = p->men[!us], empty = b->all & ~(own | opp);
    int phase = p->hand[WHITE] || p->hand[BLACK] ? PHASE_PLACING : PHASE_MOVING;
    // Unless all are asked for, a term of weight 0 in this phase is not computed (it is 0).
    const int *weight = weights->w[b->kind][phase];
    f[F_MEN] = bits_count(own) + p->hand[us] - bits_count(opp) - p->hand[!us];
    f[F_FLYING] = all || weight[F_FLYING] ? pos_flies(p, us) - pos_flies(p, !us) : 0;
    f[F_TEMPO] = 1;
#ifndef BOARD_BITSHUFFLE
    if (b->rings) {
        ring_features(b, own, opp, f, all || weight[F_TWO_EMPTY]);
        return phase;
    }
#endif

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

    f[F_MOBILITY] = mobility;
    f[F_BLOCKED] = bits_count(own & ~free) - bits_count(opp & ~free);
    f[F_OPEN_MILLS] = bits_count(closers[0]) - bits_count(closers[1]);
    // A man in a mill next to a point that closes another mill (the line it would leave is
    // not checked: rare, and the weight is fitted to what is measured).
    f[F_DOUBLE_MILLS] = bits_count(in_mills[0] & board_neighbours(b, closers[0])) -
                        bits_count(in_mills[1] & board_neighbours(b, closers[1]));
    f[F_TWO_EMPTY] =
        all || weight[F_TWO_EMPTY] ? bits_count64(a & e1 & e2) - bits_count64(o & e1 & e2) : 0;
    return phase;
}

int eval_features(const Position *p, int f[F_COUNT]) {
    return features(p, &EVAL_WEIGHTS_DEFAULT, f, true);
}

// The weighted sum is left scalar: as one vector multiply, it read the terms back as one wide
// load over eight narrow stores (compiler.h), a stall of a quarter of the evaluation's time.
NO_VECTORIZE int eval_position(const Position *p, const EvalWeights *weights) {
    int f[F_COUNT];
    int phase = features(p, weights, f, false), score = 0;
    const int *w = weights->w[p->rules->board->kind][phase];
    for (int i = 0; i < F_COUNT; i++)
        score += w[i] * f[i];
    return score;
}

void eval_describe(const Position *p, const EvalWeights *weights, char *buf, size_t n) {
    int f[F_COUNT];
    int phase = eval_features(p, f), score = 0;
    const int *w = weights->w[p->rules->board->kind][phase];
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
