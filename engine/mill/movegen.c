#include "engine/mill/movegen.h"

#include <assert.h>

Bits movegen_removable(const Position *p, Bits opp) {
    if (p->rules->remove_from_mills)
        return opp;
    Bits free = opp & ~board_in_mills(p->rules->board, opp);
    return free ? free : opp;
}

// True when removing must stop: the opponent has no man on the board or is already lost.
static inline bool removals_end(Bits opp, int opp_hand) {
    return !opp || bits_count(opp) + opp_hand < 3;
}

// The point sets of the side to move's actions: for each origin (NO_POINT for placements)
// the destinations it may reach.
typedef struct Actions {
    int n;
    int from[MAX_POINTS + 1];
    Bits to[MAX_POINTS + 1];
} Actions;

static void list_actions(const Position *p, Actions *a) {
    const MillRules *r = p->rules;
    const Board *b = r->board;
    int us = p->side;
    Bits own = p->men[us], empty = b->all & ~(own | p->men[!us]);
    a->n = 0;
    if (p->hand[us]) {
        a->from[a->n] = NO_POINT;
        a->to[a->n++] = empty;
        if (!r->variant->lasker)
            return;
    }
    bool fly = r->flying && !p->hand[us] && (r->variant->fly_always || bits_count(own) == 3);
    for (Bits m = own; m;) {
        int f = bits_pop(&m);
        Bits to = fly ? empty : b->adj[f] & empty;
        if (to) {
            a->from[a->n] = f;
            a->to[a->n++] = to;
        }
    }
}

// The number of removals the action landing on `to` must make (0 when it closes no mill).
static inline int removals_due(const Position *p, Bits own_after, int to) {
    const MillRules *r = p->rules;
    int k = board_mills_at(r->board, to, own_after);
    if (!k || r->variant->mill_wins)
        return 0;
    return r->removal_per_mill ? k : 1;
}

// Add m followed by every legal sequence of k removals from opp.
static void add_removals(const Position *p, Move m, int k, Bits opp, Move *moves, int *n) {
    int opp_hand = p->hand[!p->side];
    if (!k || removals_end(opp, opp_hand)) {
        if (*n < MAX_MOVES)
            moves[(*n)++] = m;
        return;
    }
    for (Bits c = movegen_removable(p, opp); c;) {
        int x = bits_pop(&c);
        add_removals(p, move_add_removal(m, x), k - 1, opp & ~BIT(x), moves, n);
    }
}

// The number of sequences of k removals from opp.
static uint64_t count_removals(const Position *p, int k, Bits opp) {
    int opp_hand = p->hand[!p->side];
    if (!k || removals_end(opp, opp_hand))
        return 1;
    Bits c = movegen_removable(p, opp);
    if (k == 1)
        return (uint64_t)bits_count(c);
    uint64_t total = 0;
    while (c) {
        int x = bits_pop(&c);
        total += count_removals(p, k - 1, opp & ~BIT(x));
    }
    return total;
}

int movegen_legal(const Position *p, Move *moves) {
    if (pos_outcome(p) != OUTCOME_NONE)
        return 0;
    Actions a;
    list_actions(p, &a);
    Bits own = p->men[p->side], opp = p->men[!p->side];
    int n = 0;
    for (int i = 0; i < a.n; i++) {
        int f = a.from[i];
        Bits base = f == NO_POINT ? own : own & ~BIT(f);
        for (Bits to = a.to[i]; to;) {
            int t = bits_pop(&to);
            int k = removals_due(p, base | BIT(t), t);
            add_removals(p, move_make(f, t), k, opp, moves, &n);
        }
    }
    assert(n < MAX_MOVES);
    return n;
}

uint64_t movegen_count(const Position *p) {
    if (pos_outcome(p) != OUTCOME_NONE)
        return 0;
    Actions a;
    list_actions(p, &a);
    Bits own = p->men[p->side], opp = p->men[!p->side];
    uint64_t plain = 0, closing = 0, multi = 0;
    for (int i = 0; i < a.n; i++) {
        int f = a.from[i];
        Bits base = f == NO_POINT ? own : own & ~BIT(f);
        for (Bits to = a.to[i]; to;) {
            int t = bits_pop(&to);
            int k = removals_due(p, base | BIT(t), t);
            if (k == 0)
                plain++;
            else if (k == 1)
                closing++;
            else
                multi += count_removals(p, k, opp);
        }
    }
    if (closing)
        closing *= count_removals(p, 1, opp);
    return plain + closing + multi;
}
