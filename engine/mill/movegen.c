#include "engine/mill/movegen.h"

#include "engine/core/compiler.h"

#include <assert.h>
#if defined(__AVX512F__) || defined(__AVX2__)
#include <immintrin.h>
#endif

// The men of opp that may be removed (inline here: generation calls it at every mill).
static inline Bits removable(const Position *p, Bits opp) {
    if (p->rules->remove_from_mills)
        return opp;
    Bits free = opp & ~board_in_mills(p->rules->board, opp);
    return free ? free : opp;
}

Bits movegen_removable(const Position *p, Bits opp) { return removable(p, opp); }

// True when removing must stop: the opponent has no man on the board or is already lost.
static inline bool removals_end(Bits opp, int opp_hand) {
    return !opp || bits_count(opp) + opp_hand < 3;
}

// Call visit(ctx, from, destinations among `targets`, own men without the mover) for each kind
// of action of the side to move: placements (from = NO_POINT), then the moves of each man on
// the board.
#define FOR_EACH_ACTION(p, targets, visit, ctx)                                                    \
    do {                                                                                           \
        const MillRules *r_ = (p)->rules;                                                          \
        const Board *b_ = r_->board;                                                               \
        int us_ = (p)->side;                                                                       \
        Bits own_ = (p)->men[us_], empty_ = b_->all & ~(own_ | (p)->men[!us_]) & (targets);        \
        if ((p)->hand[us_] && empty_)                                                              \
            visit(ctx, NO_POINT, empty_, own_);                                                    \
        if (!(p)->hand[us_] || r_->variant->lasker) {                                              \
            bool fly_ = pos_flies((p), us_);                                                       \
            for (Bits m_ = fly_ ? own_ : own_ & board_neighbours(b_, empty_); m_;) {               \
                int f_ = bits_pop(&m_);                                                            \
                Bits to_ = fly_ ? empty_ : b_->adj[f_] & empty_;                                   \
                if (to_)                                                                           \
                    visit(ctx, f_, to_, own_ & ~BIT(f_));                                          \
            }                                                                                      \
        }                                                                                          \
    } while (0)

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
    for (Bits c = removable(p, opp); c;) {
        int x = bits_pop(&c);
        add_removals(p, move_add_removal(m, x), k - 1, opp & ~BIT(x), moves, n);
    }
}

// The number of sequences of k removals from opp.
static uint64_t count_removals(const Position *p, int k, Bits opp) {
    int opp_hand = p->hand[!p->side];
    if (!k || removals_end(opp, opp_hand))
        return 1;
    Bits c = removable(p, opp);
    if (k == 1)
        return (uint64_t)bits_count(c);
    uint64_t total = 0;
    while (c) {
        int x = bits_pop(&c);
        total += count_removals(p, k - 1, opp & ~BIT(x));
    }
    return total;
}

#if defined(__AVX2__) && !defined(__AVX512F__)
// PACK_ORDER[m], for an 8-bit set m: byte k is the lane of m's k-th member, in lane order (the
// bytes past its size are 0). list_points packs a list's words by it with vpermd where there is
// no VPCOMPRESSD. The compiler builds the table.
#define PACK_AT(m, j)                                                                              \
    ((uint64_t)((m) >> (j)&1) * (j) << 8 * __builtin_popcount((m) & ((1u << (j)) - 1)))
#define PACK(m)                                                                                    \
    (PACK_AT(m, 1) | PACK_AT(m, 2) | PACK_AT(m, 3) | PACK_AT(m, 4) | PACK_AT(m, 5) |               \
     PACK_AT(m, 6) | PACK_AT(m, 7))
#define PACK4(m) PACK(m), PACK((m) + 1), PACK((m) + 2), PACK((m) + 3)
#define PACK16(m) PACK4(m), PACK4((m) + 4), PACK4((m) + 8), PACK4((m) + 12)
#define PACK64(m) PACK16(m), PACK16((m) + 16), PACK16((m) + 32), PACK16((m) + 48)
static const uint64_t PACK_ORDER[256] = {PACK64(0u), PACK64(64u), PACK64(128u), PACK64(192u)};
#undef PACK64
#undef PACK16
#undef PACK4
#undef PACK
#undef PACK_AT
#endif

typedef struct ListCtx {
    const Position *p;
    Bits closers, opp, removable;
    bool have_removable, closing_only;
    Move *moves;
    int n;
} ListCtx;

// Add to the list, for each point x of `set` in point order, the word `base` with x + add in
// the five bits from `shift` on (a destination, or the first removal).
static ALWAYS_INLINE void list_points(ListCtx *c, Move base, int shift, int add, Bits set) {
#ifdef __AVX512F__
    // Sixteen points at a time: the words of points 0-15 (16-31) packed down to those in the
    // set and stored whole (the list has room for the lanes past its end).
    if (c->n + 32 <= MAX_MOVES) {
        __m512i lo = _mm512_add_epi32(
            _mm512_slli_epi32(
                _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0), shift),
            _mm512_set1_epi32((int)(base + ((Move)add << shift))));
        _mm512_storeu_si512(c->moves + c->n, _mm512_maskz_compress_epi32((__mmask16)set, lo));
        c->n += bits_count(set & 0xffff);
        if (set >> 16) {
            __m512i hi = _mm512_add_epi32(lo, _mm512_set1_epi32(16 << shift));
            _mm512_storeu_si512(c->moves + c->n,
                                _mm512_maskz_compress_epi32((__mmask16)(set >> 16), hi));
            c->n += bits_count(set >> 16);
        }
        return;
    }
#elif defined(__AVX2__)
    // Eight points at a time: the words of points 8k to 8k + 7 packed down to those in the set
    // (PACK_ORDER gives their lanes, in order, as vpermd indices) and stored whole.
    if (c->n + 8 * POINT_BYTES <= MAX_MOVES) {
        __m256i words =
            _mm256_add_epi32(_mm256_slli_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), shift),
                             _mm256_set1_epi32((int)(base + ((Move)add << shift))));
        for (int k = 0; k < POINT_BYTES; k++) {
            unsigned in = set >> 8 * k & 255;
            __m256i order = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)&PACK_ORDER[in]));
            _mm256_storeu_si256((__m256i *)(c->moves + c->n),
                                _mm256_permutevar8x32_epi32(words, order));
            c->n += bits_count(in);
            words = _mm256_add_epi32(words, _mm256_set1_epi32(8 << shift));
        }
        return;
    }
#endif
    while (set && c->n < MAX_MOVES)
        c->moves[c->n++] = base | (Move)(bits_pop(&set) + add) << shift;
}

// Add an action that must make k removals: single removals share the node's removable set.
static inline void list_closing(ListCtx *c, Move m, int k) {
    int opp_hand = c->p->hand[!c->p->side];
    if (k > 1 || removals_end(c->opp, opp_hand)) {
        add_removals(c->p, m, k, c->opp, c->moves, &c->n);
        return;
    }
    if (!c->have_removable) {
        c->removable = removable(c->p, c->opp);
        c->have_removable = true;
    }
    list_points(c, m, 10, 1, c->removable); // m has no removal yet: the first goes in bits 10-14
}

static ALWAYS_INLINE void list_action(ListCtx *c, int from, Bits dests, Bits base) {
    if (!c->closing_only)
        list_points(c, move_make(from, 0), 0, 0, dests & ~c->closers);
    const MillRules *r = c->p->rules;
    for (Bits to = dests & c->closers; to;) {
        int t = bits_pop(&to);
        // A placement onto a closing point closes a mill, so the count is needed only where
        // each mill removes a man; a man that moves may have been one of the line's two.
        int mills = from == NO_POINT && !r->removal_per_mill
                        ? 1
                        : board_mills_at(r->board, t, base | BIT(t));
        if (mills && !r->variant->mill_wins)
            list_closing(c, move_make(from, t), r->removal_per_mill ? mills : 1);
        else if ((mills || !c->closing_only) && c->n < MAX_MOVES)
            c->moves[c->n++] = move_make(from, t); // a plain move, or a mill that wins
    }
}

// The legal moves, or only those that close a mill (closing_only). A move closes a mill only
// onto a closing point of the men before it (board_closing_points), so when closing only, the
// other destinations and the men next to none of these points are left out at once. Where the
// caller knows the game goes on (ongoing), the end is not tested again.
static ALWAYS_INLINE int generate(const Position *p, Move *moves, bool closing_only, bool ongoing) {
    Bits closers = board_closing_points(p->rules->board, p->men[p->side]);
    if (closing_only && !(closers & ~(p->men[WHITE] | p->men[BLACK])))
        return 0;
    assert(!ongoing || pos_outcome(p) == OUTCOME_NONE);
    if (!ongoing && pos_outcome(p) != OUTCOME_NONE)
        return 0;
    ListCtx c = {p, closers, p->men[!p->side], 0, false, closing_only, moves, 0};
    FOR_EACH_ACTION(p, closing_only ? closers : p->rules->board->all, list_action, &c);
    assert(c.n < MAX_MOVES);
    return c.n;
}

int movegen_legal(const Position *p, Move *moves) { return generate(p, moves, false, false); }
int movegen_legal_ongoing(const Position *p, Move *moves) {
    return generate(p, moves, false, true);
}

// The rules of FOR_EACH_ACTION, list_action and add_removals, for one move.
bool movegen_is_legal(const Position *p, Move m) {
    const MillRules *r = p->rules;
    const Board *b = r->board;
    int us = p->side, to = move_to(m), from = move_from(m);
    Bits own = p->men[us], opp = p->men[!us], empty = b->all & ~(own | opp);
    if (m >> (10 + 5 * MAX_REMOVALS) || !(empty & BIT(to)) || pos_outcome(p) != OUTCOME_NONE)
        return false;
    Bits base = own;
    if (from == NO_POINT) {
        if (!p->hand[us])
            return false;
    } else {
        if (!(own & BIT(from)) || (p->hand[us] && !r->variant->lasker) ||
            !(pos_flies(p, us) || b->adj[from] & BIT(to)))
            return false;
        base &= ~BIT(from);
    }
    // The removals: k of them, each removable from what the earlier ones left, unless the
    // opponent runs out first; then nothing more.
    int k = removals_due(p, base | BIT(to), to), i = 0;
    for (; i < k && !removals_end(opp, p->hand[!us]); i++) {
        int x = move_removal(m, i);
        if (x < 0 || !(removable(p, opp) & BIT(x)))
            return false;
        opp &= ~BIT(x);
    }
    return !(m >> (10 + 5 * i));
}

int movegen_closing(const Position *p, Move *moves) { return generate(p, moves, true, false); }
int movegen_closing_ongoing(const Position *p, Move *moves) {
    return generate(p, moves, true, true);
}

typedef struct CountCtx {
    const Position *p;
    Bits closers;
    uint64_t plain, closing, multi;
} CountCtx;

// Only destinations among the closing points of the side to move can close a mill, so the
// others are counted by popcount and the few candidates checked line by line.
static ALWAYS_INLINE void count_action(CountCtx *c, int from, Bits dests, Bits base) {
    (void)from;
    c->plain += (uint64_t)bits_count(dests & ~c->closers);
    for (Bits to = dests & c->closers; to;) {
        int t = bits_pop(&to);
        int k = removals_due(c->p, base | BIT(t), t);
        if (k == 0)
            c->plain++;
        else if (k == 1)
            c->closing++;
        else
            c->multi += count_removals(c->p, k, c->p->men[!c->p->side]);
    }
}

uint64_t movegen_count(const Position *p) {
    if (pos_outcome(p) != OUTCOME_NONE)
        return 0;
    CountCtx c = {p, 0, 0, 0, 0};
    if (!p->rules->variant->mill_wins)
        c.closers = board_closing_points(p->rules->board, p->men[p->side]);
    FOR_EACH_ACTION(p, p->rules->board->all, count_action, &c);
    if (c.closing)
        c.closing *= count_removals(p, 1, p->men[!p->side]);
    return c.plain + c.closing + c.multi;
}
