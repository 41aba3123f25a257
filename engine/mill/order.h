// Move ordering of the mill search: the keys moves are taken by, their scores, and the killer
// and history tables that the search's cutoffs teach. Static inline: every function here runs
// at every node, inlined into the search (engine/mill/search.c).
//
// The code for each instruction set is its own function, and the block below the includes
// picks the ones this build runs; every other path still compiles where its instructions are
// available, so that each is checked in more builds.
#ifndef ENGINE_MILL_ORDER_H
#define ENGINE_MILL_ORDER_H

#include "engine/core/compiler.h"
#include "engine/core/search.h"
#include "engine/mill/movegen.h"

#if defined(__AVX512F__) || defined(__AVX2__)
#include <immintrin.h>
#endif
#include <stdint.h>

// The implementations this build runs: scoring sixteen moves at a time needs AVX-512 with
// VPOPCNTDQ (the removed man's empty neighbours), eight AVX2; taking the best reads sixteen
// keys at a time with AVX-512, eight with AVX2. Without either, one at a time.
#if defined(__AVX512F__) && defined(__AVX512VPOPCNTDQ__)
#define score_moves_isa score_moves_avx512
#elif defined(__AVX2__)
#define score_moves_isa score_moves_avx2
#else
#define score_moves_isa score_moves_scalar
#endif
#if defined(__AVX512F__)
#define take_best_live take_best_avx512
#elif defined(__AVX2__)
#define take_best_live take_best_avx2
#else
#define take_best_live take_best_unused
#endif

// Move ordering keys: the score above the move's place in the list, so that keys are unique
// and the largest key is the best score, first in the list among equal scores: the move a
// stable sort puts first. The search takes its moves one at a time by the largest key, so a
// node that cuts off early orders no more than it searches. 32 bits: the place in the low
// KEY_POS_BITS (a list holds at most MAX_MOVES), the score above it (|score| < 2^18).
typedef int32_t OrderKey;
#define KEY_TAKEN INT32_MIN
#define KEY_POS_BITS 13
#define KEY_POS_MAX ((1 << KEY_POS_BITS) - 1)
_Static_assert(MAX_MOVES <= KEY_POS_MAX + 1, "a list place fits in the key");

// The ordering scores by tier, highest first: moves with removals (more removals first, then
// removals of threatening men, then of men with more empty neighbours), moves that block an
// opponent mill, the two killers, then history (order_update_quiet keeps it within about +-16384).
enum {
    SCORE_REMOVALS = 1 << 16,      // plus REMOVAL_EACH and its extras per removal
    REMOVAL_EACH = 1 << 13,        // above the most a removal's extras add (1000 + 8) times four
    SCORE_BLOCKING = 1 << 16,      // below any move with a removal
    SCORE_KILLER0 = 1 << 15,       // the moves scored below this are quiet
    SCORE_KILLER1 = (1 << 15) - 1, // above any history score
};
_Static_assert(SCORE_REMOVALS > SCORE_KILLER0, "a move with a removal never scores as quiet");

// What the search learns for its ordering: two killers per ply, and history by side and
// order_history_index (a move's origin and destination).
typedef struct OrderHistory {
    Move killers[MAX_PLY][2];
    int history[2][1024];
} OrderHistory;

static inline OrderKey order_key(int score, int pos) {
    return (OrderKey)(score * (1 << KEY_POS_BITS) + (KEY_POS_MAX - pos));
}
static inline int order_key_score(OrderKey k) { return k >> KEY_POS_BITS; }
static inline int order_key_pos(OrderKey k) { return KEY_POS_MAX - (k & KEY_POS_MAX); }

// A move's origin and destination as one index: the low ten bits of the move.
static inline int order_history_index(Move m) { return (int)(m & 1023); }

// The opponent men on a line with another of theirs and an empty point: the removals that
// break a mill threat.
static inline Bits threat_men(const Board *b, Bits opp, Bits empty) {
    Slots o = board_slots(b, opp), e = board_slots(b, empty);
    Slots o1 = slots_next(o), e1 = slots_next(e);
    return board_slot_points(b, o & ((o1 & slots_next(e1)) | (e1 & slots_next(o1))));
}

// The ordering score of a move with removals: after every quiet move; more removals first,
// then removals of threatening men, then of men with more empty neighbours.
static inline int removal_score(const Board *b, Move m, Bits threats, Bits empty) {
    int s = SCORE_REMOVALS;
    for (int k = 0, r; k < MAX_REMOVALS && (r = move_removal(m, k)) >= 0; k++)
        s += REMOVAL_EACH + (threats & BIT(r) ? 1000 : 0) + bits_count(b->adj[r] & empty);
    return s;
}

// What scoring a node's moves reads of it: the board, the sets of points, the killers of its
// ply and the side to move's history.
typedef struct ScoreInput {
    const Board *b;
    Bits opp, empty, opp_closers; // the opponent's men, the empty points, their closing points
    Move killer0, killer1;
    const int *history;
} ScoreInput;

#ifdef __AVX2__
// The largest of eight keys.
static inline OrderKey reduce_max8(__m256i v) {
    __m128i h = _mm_max_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    h = _mm_max_epi32(h, _mm_shuffle_epi32(h, 0x4e));
    return _mm_cvtsi128_si32(_mm_max_epi32(h, _mm_shuffle_epi32(h, 0xb1)));
}
#endif

#if defined(__AVX512F__) && defined(__AVX512VPOPCNTDQ__)
// Score sixteen moves at a time (see order_score_moves).
static ALWAYS_INLINE OrderKey score_moves_avx512(const ScoreInput *c, const Move *moves,
                                                 OrderKey *keys, int from, int n) {
    const Board *b = c->b;
    Bits opp = c->opp, empty = c->empty, opp_closers = c->opp_closers, threats = 0;
    Move killer0 = c->killer0, killer1 = c->killer1;
    bool have_threats = false;
    OrderKey top = KEY_TAKEN;
    const __m512i lane = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i field = _mm512_set1_epi32(31), hist_mask = _mm512_set1_epi32(1023);
    const __m512i killer0_v = _mm512_set1_epi32((int)killer0);
    const __m512i killer1_v = _mm512_set1_epi32((int)killer1);
    const __m512i closers_v = _mm512_set1_epi32((int)opp_closers);
    const __m512i empty_v = _mm512_set1_epi32((int)empty);
    __m512i top_v = _mm512_set1_epi32(KEY_TAKEN);
    for (int i = from; i < n; i += 16) {
        __mmask16 in = n - i >= 16 ? 0xffff : (__mmask16)((1u << (n - i)) - 1);
        __m512i m = _mm512_maskz_loadu_epi32(in, moves + i);
        __m512i to = _mm512_and_si512(m, field);
        __m512i r0 = _mm512_and_si512(_mm512_srli_epi32(m, 10), field);
        __mmask16 removing = _mm512_mask_test_epi32_mask(in, r0, r0);
        __mmask16 quiet = in & ~removing;
        // Quiet moves: an opponent mill blocked, then the killers, then history.
        __m512i s = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), quiet,
                                                _mm512_and_si512(m, hist_mask), c->history, 4);
        s = _mm512_mask_mov_epi32(s, _mm512_cmpeq_epi32_mask(m, killer1_v),
                                  _mm512_set1_epi32(SCORE_KILLER1));
        s = _mm512_mask_mov_epi32(s, _mm512_cmpeq_epi32_mask(m, killer0_v),
                                  _mm512_set1_epi32(SCORE_KILLER0));
        __mmask16 blocking =
            _mm512_test_epi32_mask(_mm512_srlv_epi32(closers_v, to), _mm512_set1_epi32(1));
        s = _mm512_mask_mov_epi32(s, blocking & quiet, _mm512_set1_epi32(SCORE_BLOCKING));
        if (removing) {
            if (!have_threats) {
                threats = threat_men(b, opp, empty);
                have_threats = true;
            }
            // One removal: its point is r0 - 1.
            __m512i r = _mm512_sub_epi32(r0, _mm512_set1_epi32(1));
            __m512i adj = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), removing, r,
                                                      (const int *)b->adj, 4);
            __m512i t = _mm512_and_si512(_mm512_srlv_epi32(_mm512_set1_epi32((int)threats), r),
                                         _mm512_set1_epi32(1));
            __m512i rs = _mm512_add_epi32(
                _mm512_set1_epi32(SCORE_REMOVALS + REMOVAL_EACH),
                _mm512_add_epi32(_mm512_mullo_epi32(t, _mm512_set1_epi32(1000)),
                                 _mm512_popcnt_epi32(_mm512_and_si512(adj, empty_v))));
            s = _mm512_mask_mov_epi32(s, removing, rs);
        }
        // The keys (order_key): score << KEY_POS_BITS | KEY_POS_MAX - place.
        __m512i place = _mm512_sub_epi32(_mm512_set1_epi32(KEY_POS_MAX - i), lane);
        __m512i key = _mm512_add_epi32(_mm512_slli_epi32(s, KEY_POS_BITS), place);
        _mm512_mask_storeu_epi32(keys + i, in, key);
        top_v = _mm512_mask_max_epi32(top_v, in, top_v, key);
        // More than one removal (a rare case): scored again by the scalar formula.
        __mmask16 multi = _mm512_mask_test_epi32_mask(removing, _mm512_srli_epi32(m, 15), field);
        while (multi) {
            int k = __builtin_ctz(multi);
            multi &= multi - 1;
            keys[i + k] = order_key(removal_score(b, moves[i + k], threats, empty), i + k);
            top = keys[i + k] > top ? keys[i + k] : top;
        }
    }
    // A lane scored again entered top_v with a smaller key (one removal counted), so the larger
    // of both maxima is the largest key.
    OrderKey top_lanes = _mm512_reduce_max_epi32(top_v);
    top = top_lanes > top ? top_lanes : top;
    return top;
}
#endif

#ifdef __AVX2__
// Score eight moves at a time (see order_score_moves).
static ALWAYS_INLINE OrderKey score_moves_avx2(const ScoreInput *c, const Move *moves,
                                               OrderKey *keys, int from, int n) {
    const Board *b = c->b;
    Bits opp = c->opp, empty = c->empty, opp_closers = c->opp_closers, threats = 0;
    Move killer0 = c->killer0, killer1 = c->killer1;
    bool have_threats = false;
    OrderKey top = KEY_TAKEN;
    // Eight moves at a time, as above; the removed man's empty neighbours counted by nibbles.
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi32(1);
    const __m256i field = _mm256_set1_epi32(31), hist_mask = _mm256_set1_epi32(1023);
    const __m256i killer0_v = _mm256_set1_epi32((int)killer0);
    const __m256i killer1_v = _mm256_set1_epi32((int)killer1);
    const __m256i closers_v = _mm256_set1_epi32((int)opp_closers);
    const __m256i empty_v = _mm256_set1_epi32((int)empty);
    const __m256i nibble_count = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0,
                                                  1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    __m256i top_v = _mm256_set1_epi32(KEY_TAKEN);
    for (int i = from; i < n; i += 8) {
        __m256i in = _mm256_cmpgt_epi32(_mm256_set1_epi32(n - i), lane);
        __m256i m = _mm256_maskload_epi32((const int *)moves + i, in);
        __m256i to = _mm256_and_si256(m, field);
        __m256i r0 = _mm256_and_si256(_mm256_srli_epi32(m, 10), field);
        __m256i removing = _mm256_andnot_si256(_mm256_cmpeq_epi32(r0, zero), in);
        __m256i quiet = _mm256_andnot_si256(removing, in);
        // Quiet moves: an opponent mill blocked, then the killers, then history.
        __m256i s =
            _mm256_mask_i32gather_epi32(zero, c->history, _mm256_and_si256(m, hist_mask), quiet, 4);
        s = _mm256_blendv_epi8(s, _mm256_set1_epi32(SCORE_KILLER1),
                               _mm256_cmpeq_epi32(m, killer1_v));
        s = _mm256_blendv_epi8(s, _mm256_set1_epi32(SCORE_KILLER0),
                               _mm256_cmpeq_epi32(m, killer0_v));
        __m256i blocking =
            _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_srlv_epi32(closers_v, to), one), one);
        s = _mm256_blendv_epi8(s, _mm256_set1_epi32(SCORE_BLOCKING),
                               _mm256_and_si256(blocking, quiet));
        int removing_bits = _mm256_movemask_ps(_mm256_castsi256_ps(removing));
        if (removing_bits) {
            if (!have_threats) {
                threats = threat_men(b, opp, empty);
                have_threats = true;
            }
            // One removal: its point is r0 - 1.
            __m256i r = _mm256_sub_epi32(r0, one);
            __m256i adj = _mm256_and_si256(
                _mm256_mask_i32gather_epi32(zero, (const int *)b->adj, r, removing, 4), empty_v);
            __m256i bytes = _mm256_add_epi8(
                _mm256_shuffle_epi8(nibble_count, _mm256_and_si256(adj, _mm256_set1_epi8(15))),
                _mm256_shuffle_epi8(nibble_count, _mm256_and_si256(_mm256_srli_epi32(adj, 4),
                                                                   _mm256_set1_epi8(15))));
            __m256i count = _mm256_madd_epi16(_mm256_maddubs_epi16(bytes, _mm256_set1_epi8(1)),
                                              _mm256_set1_epi16(1));
            __m256i t =
                _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32((int)threats), r), one);
            __m256i rs = _mm256_add_epi32(
                _mm256_set1_epi32(SCORE_REMOVALS + REMOVAL_EACH),
                _mm256_add_epi32(
                    _mm256_and_si256(_mm256_sub_epi32(zero, t), _mm256_set1_epi32(1000)), count));
            s = _mm256_blendv_epi8(s, rs, removing);
        }
        // The keys (order_key): score << KEY_POS_BITS | KEY_POS_MAX - place.
        __m256i place = _mm256_sub_epi32(_mm256_set1_epi32(KEY_POS_MAX - i), lane);
        __m256i key = _mm256_add_epi32(_mm256_slli_epi32(s, KEY_POS_BITS), place);
        _mm256_maskstore_epi32(keys + i, in, key);
        top_v = _mm256_max_epi32(top_v, _mm256_blendv_epi8(_mm256_set1_epi32(KEY_TAKEN), key, in));
        // More than one removal (a rare case): scored again by the scalar formula.
        int multi = removing_bits & _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(
                                        _mm256_and_si256(_mm256_srli_epi32(m, 15), field), zero)));
        while (multi) {
            int k = __builtin_ctz((unsigned)multi);
            multi &= multi - 1;
            keys[i + k] = order_key(removal_score(b, moves[i + k], threats, empty), i + k);
            top = keys[i + k] > top ? keys[i + k] : top;
        }
    }
    OrderKey top_lanes = reduce_max8(top_v);
    top = top_lanes > top ? top_lanes : top;
    return top;
}
#endif

// Score one move at a time (see order_score_moves).
static ALWAYS_INLINE OrderKey score_moves_scalar(const ScoreInput *c, const Move *moves,
                                                 OrderKey *keys, int from, int n) {
    const Board *b = c->b;
    Bits opp = c->opp, empty = c->empty, opp_closers = c->opp_closers, threats = 0;
    Move killer0 = c->killer0, killer1 = c->killer1;
    bool have_threats = false;
    OrderKey top = KEY_TAKEN;
    for (int i = from; i < n; i++) {
        Move m = moves[i];
        int to = move_to(m), s;
        if (move_removal(m, 0) >= 0) {
            if (!have_threats) {
                threats = threat_men(b, opp, empty);
                have_threats = true;
            }
            s = removal_score(b, m, threats, empty);
        } else {
            // Blocking an opponent mill, then the killers, then history (selects, no branches).
            s = c->history[order_history_index(m)];
            s = m == killer1 ? SCORE_KILLER1 : s;
            s = m == killer0 ? SCORE_KILLER0 : s;
            s = opp_closers & BIT(to) ? SCORE_BLOCKING : s;
        }
        keys[i] = order_key(s, i);
        top = keys[i] > top ? keys[i] : top;
    }
    return top;
}

// Score moves [from, n) of the node at ply for ordering, higher first, and return the largest
// key (the move order_take_best would take first). Every implementation gives the same scores.
static inline OrderKey order_score_moves(const OrderHistory *h, const Position *p,
                                         const Move *moves, OrderKey *keys, int from, int n,
                                         int ply) {
    const Board *b = p->rules->board;
    int us = p->side;
    Bits opp = p->men[!us];
    Bits empty = b->all & ~(p->men[us] | opp);
    ScoreInput c = {b,
                    opp,
                    empty,
                    board_closing_points(b, opp) & empty,
                    h->killers[ply][0],
                    h->killers[ply][1],
                    h->history[us]};
    return score_moves_isa(&c, moves, keys, from, n);
}

// The moves not yet taken. With AVX-512 or AVX2 and at most 64 moves, a bit per list place in
// *live, and the keys are only read; otherwise a taken move's key is overwritten with KEY_TAKEN.
#if defined(__AVX512F__) || defined(__AVX2__)
#define LIVE_MAX 64
#else
#define LIVE_MAX 0
#endif

static inline uint64_t order_live_all(int n) { return n < 64 ? (1ull << n) - 1 : ~0ull; }

static inline void order_mark_taken(OrderKey *keys, uint64_t *live, int n, int pos) {
    if (n <= LIVE_MAX)
        *live &= ~(1ull << pos);
    else
        keys[pos] = KEY_TAKEN;
}

#ifdef __AVX512F__
// Take the best live key, sixteen keys per step, the taken ones masked out: no store, so the
// next pick's loads never wait for one.
static ALWAYS_INLINE OrderKey take_best_avx512(const OrderKey *keys, int n, uint64_t *live) {
    OrderKey best;
    __m512i b = _mm512_set1_epi32(KEY_TAKEN);
    for (int k = 0; k < n; k += 16) {
        __mmask16 m = (__mmask16)(*live >> k);
        b = _mm512_mask_max_epi32(b, m, b, _mm512_maskz_loadu_epi32(m, keys + k));
    }
    best = _mm512_reduce_max_epi32(b);
    *live &= ~(1ull << order_key_pos(best));
    return best;
}
#endif

#ifdef __AVX2__
// Take the best live key, eight keys per step: a lane is read only when its move is live (a
// masked load reads the others as 0, which the OR turns into KEY_TAKEN).
static ALWAYS_INLINE OrderKey take_best_avx2(const OrderKey *keys, int n, uint64_t *live) {
    OrderKey best;
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    const __m256i taken = _mm256_set1_epi32(KEY_TAKEN);
    __m256i b = taken;
    for (int k = 0; k < n; k += 8) {
        __m256i on =
            _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)(*live >> k)), bit), bit);
        __m256i v = _mm256_maskload_epi32(keys + k, on);
        b = _mm256_max_epi32(b, _mm256_or_si256(v, _mm256_andnot_si256(on, taken)));
    }
    best = reduce_max8(b);
    *live &= ~(1ull << order_key_pos(best));
    return best;
}
#endif

// Take the best key, overwriting it with KEY_TAKEN.
static ALWAYS_INLINE OrderKey take_best_scalar(OrderKey *keys, int n) {
    OrderKey best;
    // Four running maxima: four short dependency chains instead of one long one (1% faster
    // than one, `tabula bench` medians of 15, twice).
    OrderKey b0 = KEY_TAKEN, b1 = KEY_TAKEN, b2 = KEY_TAKEN, b3 = KEY_TAKEN;
    int k = 0;
    for (; k + 4 <= n; k += 4) {
        b0 = keys[k] > b0 ? keys[k] : b0;
        b1 = keys[k + 1] > b1 ? keys[k + 1] : b1;
        b2 = keys[k + 2] > b2 ? keys[k + 2] : b2;
        b3 = keys[k + 3] > b3 ? keys[k + 3] : b3;
    }
    for (; k < n; k++)
        b0 = keys[k] > b0 ? keys[k] : b0;
    b0 = b1 > b0 ? b1 : b0;
    b2 = b3 > b2 ? b3 : b2;
    best = b2 > b0 ? b2 : b0;
    // The maxima may be taken in vector registers; hand the result over in a general one, or
    // the compiler may spill it with a narrow store and reload it with a wider load, which
    // cannot be forwarded (seen with 64-bit keys: an 8-byte store, a 16-byte load).
    __asm__("" : "+r"(best));
    keys[order_key_pos(best)] = KEY_TAKEN;
    return best;
}

// No live set without AVX2 (LIVE_MAX is 0): never called.
static inline OrderKey take_best_unused(OrderKey *keys, int n, uint64_t *live) {
    (void)live;
    return take_best_scalar(keys, n);
}

// Take the move of the largest key among those not taken in keys[0, n): return its key.
static inline OrderKey order_take_best(OrderKey *keys, int n, uint64_t *live) {
    if (n <= LIVE_MAX)
        return take_best_live(keys, n, live);
    return take_best_scalar(keys, n);
}

// Move the best-scored move of [i, n) to i (the first of equal scores, by exchange).
static inline void order_pick(Move *moves, OrderKey *keys, int i, int n) {
    int best = i;
    for (int k = i + 1; k < n; k++)
        if (order_key_score(keys[k]) > order_key_score(keys[best]))
            best = k;
    Move m = moves[i];
    moves[i] = moves[best];
    moves[best] = m;
    OrderKey s = keys[i];
    keys[i] = keys[best];
    keys[best] = s;
}

// Remember a quiet move of the side to move that caused a cutoff at ply, and that the quiet
// moves tried before it did not.
static inline void order_update_quiet(OrderHistory *h, int us, Move m, int depth, int ply,
                                      const Move *tried, int ntried) {
    if (h->killers[ply][0] != m) {
        h->killers[ply][1] = h->killers[ply][0];
        h->killers[ply][0] = m;
    }
    int bonus = depth * depth;
    int *hm = &h->history[us][order_history_index(m)];
    *hm += bonus - *hm * bonus / 16384;
    for (int i = 0; i < ntried; i++) {
        if (tried[i] == m)
            continue;
        int *o = &h->history[us][order_history_index(tried[i])];
        *o -= bonus + *o * bonus / 16384;
    }
}

#endif
