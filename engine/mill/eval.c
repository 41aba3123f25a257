#include "engine/mill/eval.h"

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

// Mobility, blocked men and double mills of the men `own` among empty points `empty`.
static inline void men_features(const Board *b, Bits own, Bits empty, Bits in_mills, Bits closers,
                                int f[F_COUNT], int sign) {
    int mobility = 0, blocked = 0, doubles = 0;
    for (Bits m = own; m;) {
        int q = bits_pop(&m);
        Bits to = b->adj[q] & empty;
        mobility += bits_count(to);
        blocked += !to;
        // A man in a mill next to a point that closes another mill (the line it would leave
        // is not checked: rare, and the weight is fitted to what is measured).
        doubles += (in_mills & BIT(q)) && (to & closers);
    }
    f[F_MOBILITY] += sign * mobility;
    f[F_BLOCKED] += sign * blocked;
    f[F_DOUBLE_MILLS] += sign * doubles;
}

// The features and phase (inlined into eval_position, where it is hot).
static inline __attribute__((always_inline)) int features(const Position *p, int f[F_COUNT]) {
    const MillRules *r = p->rules;
    const Board *b = r->board;
    int us = p->side;
    Bits own = p->men[us], opp = p->men[!us], empty = b->all & ~(own | opp);
    Bits closers[2] = {0, 0}, in_mills[2] = {0, 0};
    int two_empty[2] = {0, 0};
    for (int i = 0; i < MAX_LINES; i++) {
        Bits l = b->lines[i];
        int e = bits_count(empty & l), a = bits_count(own & l), o = bits_count(opp & l);
        Bits le = l & empty;
        closers[0] |= le & (0u - (Bits)(a == 2));
        closers[1] |= le & (0u - (Bits)(o == 2));
        in_mills[0] |= l & (0u - (Bits)(a == 3));
        in_mills[1] |= l & (0u - (Bits)(o == 3));
        two_empty[0] += a == 1 && e == 2;
        two_empty[1] += o == 1 && e == 2;
    }
    for (int i = 0; i < F_COUNT; i++)
        f[i] = 0;
    men_features(b, own, empty, in_mills[0], closers[0], f, 1);
    men_features(b, opp, empty, in_mills[1], closers[1], f, -1);
    f[F_MEN] = bits_count(own) + p->hand[us] - bits_count(opp) - p->hand[!us];
    f[F_OPEN_MILLS] = bits_count(closers[0]) - bits_count(closers[1]);
    f[F_TWO_EMPTY] = two_empty[0] - two_empty[1];
    bool fly_rule = r->flying;
    bool fly_us = fly_rule && !p->hand[us] && (r->variant->fly_always || bits_count(own) == 3);
    bool fly_them = fly_rule && !p->hand[!us] && (r->variant->fly_always || bits_count(opp) == 3);
    f[F_FLYING] = fly_us - fly_them;
    f[F_TEMPO] = 1;
    return p->hand[WHITE] || p->hand[BLACK] ? PHASE_PLACING : PHASE_MOVING;
}

int eval_features(const Position *p, int f[F_COUNT]) { return features(p, f); }

int eval_position(const Position *p) {
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
