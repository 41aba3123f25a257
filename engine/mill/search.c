// The mill search.
//
// Iterative deepening (one function, its stop checks in one place) over an aspiration-window
// root search; below it a plain recursive principal variation search with:
//   - the transposition table (cutoffs at non-PV nodes, its move ordered first),
//   - draws by repetition (any repetition since the last placement or removal) and by the
//     N-move rule, mate-distance pruning,
//   - move ordering: hash move, mill closers (removals of threatening men first), moves that
//     block an opponent mill, two killers per ply, history,
//   - reverse futility pruning, late move pruning and logarithmic late move reductions,
//   - a quiescence search over mill-closing moves.
// With endgame databases (MillGame.tb), a position found in them is not searched: its exact
// value comes back as a mate score or a draw; at the root only the moves that keep the
// database value are searched.
// Lazy SMP: helper threads run the same iterative deepening on their own copies, sharing only
// the table; the main thread decides when to stop and which move to play.
#include "engine/mill/search.h"

#include "engine/core/clock.h"
#include "engine/core/compiler.h"
#include "engine/core/timeman.h"
#include "engine/mill/eval.h"
#include "engine/mill/movegen.h"
#include "engine/mill/notation.h"
#include "engine/mill/solve.h"

#include <math.h>
#if defined(__AVX512F__) || defined(__AVX2__)
#include <immintrin.h>
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

MillSearchParams mill_search_params = {
    .reverse_futility = true,
    .late_move_pruning = true,
    .reductions = true,
    .quiescence = true,
    .aspiration = true,
};

#define ARENA_MOVES (4 * MAX_MOVES)
#define QS_MAX_PLIES 8
#define MAX_ROOT_MOVES MAX_MOVES

typedef struct RootMove {
    Move move;
    int score, prev_score;
    Move pv[MAX_PLY];
    int pvlen;
    int seldepth;
} RootMove;

typedef struct Shared Shared;

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
// opponent mill, the two killers, then history (update_quiet keeps it within about +-16384).
enum {
    SCORE_REMOVALS = 1 << 16,      // plus REMOVAL_EACH and its extras per removal
    REMOVAL_EACH = 1 << 13,        // above the most a removal's extras add (1000 + 8) times four
    SCORE_BLOCKING = 1 << 16,      // below any move with a removal
    SCORE_KILLER0 = 1 << 15,       // the moves scored below this are quiet
    SCORE_KILLER1 = (1 << 15) - 1, // above any history score
};
_Static_assert(SCORE_REMOVALS > SCORE_KILLER0, "a move with a removal never scores as quiet");

typedef struct Worker {
    Shared *sh;
    const Tablebase *tb; // the game's endgame databases, or NULL (read at every node)
    TT tt;               // a copy of the shared table's handle, fixed for the search
    int id;
    Position stack[MAX_PLY + 2]; // the root, then the position at each ply of the path
    Position *pos;               // the current one
    uint64_t *keys; // game history then search path; keys[nkeys - 1] is the current position
    int nkeys;
    _Atomic uint64_t nodes;
    int seldepth;
    int root_depth;
    Move killers[MAX_PLY][2];
    int history[2][1024]; // by side and history_index (origin and destination)
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pvlen[MAX_PLY + 1];
    Move arena[ARENA_MOVES];
    OrderKey keys_arena[ARENA_MOVES];
    int arena_used;
    RootMove *root;
    int nroot, pv_idx;
    int completed_depth;
} Worker;

struct Shared {
    const MillGame *game;
    TT *tt;
    const SearchLimits *lim;
    SearchHooks *hooks;
    TimeManager tm;
    // The main thread's own state (only it reads and writes these): its decision to stop, and
    // whether it finished depth 1, after which stops are honoured.
    bool abort, depth1_done;
    atomic_bool halt;        // depth 1 done and a stop decided or asked: all threads unwind
    _Atomic uint64_t tbhits; // endgame database probes that found the position
    int nthreads;
    Worker **workers;
};

// True when the search must unwind: one flag, tested after every move searched. Depth 1
// always completes first, so that the move played is at least the best at one ply.
static inline bool stopped(const Worker *w) {
    return atomic_load_explicit(&w->sh->halt, memory_order_relaxed);
}

// Raise the halt flag when depth 1 is done and the main thread decided to stop or the GUI
// asked (the main thread calls this every thousand nodes and after depth 1).
static void update_halt(Shared *sh) {
    if (sh->depth1_done && (sh->abort || atomic_load(&sh->hooks->stop)))
        atomic_store(&sh->halt, true);
}

static uint64_t total_nodes(const Shared *sh) {
    uint64_t n = 0;
    for (int i = 0; i < sh->nthreads; i++)
        n += atomic_load_explicit(&sh->workers[i]->nodes, memory_order_relaxed);
    return n;
}

// The main thread's limit checks, every thousand nodes (the test inline, the checks not).
static void check_limits_now(Worker *w) {
    Shared *sh = w->sh;
    if (tm_hard_stop(&sh->tm, sh->lim, sh->hooks) ||
        (sh->lim->nodes && total_nodes(sh) >= sh->lim->nodes))
        sh->abort = true;
    update_halt(sh);
}

static inline void check_limits(Worker *w) {
    if (!(atomic_load_explicit(&w->nodes, memory_order_relaxed) & 1023) && w->id == 0)
        check_limits_now(w);
}

// True when the current position repeats one since the last placement or removal. The same
// side was to move an even number of plies back, but two plies back the mover's man stood on
// another point: the first that can repeat is four plies back.
static bool is_repetition(const Worker *w) {
    int window = w->pos->quiet_plies;
    if (window < 4)
        return false;
    uint64_t key = w->keys[w->nkeys - 1];
    for (int i = w->nkeys - 5; i >= 0 && window >= 4; i -= 2, window -= 2)
        if (w->keys[i] == key)
            return true;
    return false;
}

// Copy and make: the child is a copy of the position with the move made, and unmaking is
// going back to the parent's copy. The child's table bucket is fetched by the caller, earlier.
static inline void make(Worker *w, Move m) {
    w->pos[1] = w->pos[0];
    w->pos++;
    pos_apply(w->pos, m, false);
    w->keys[w->nkeys++] = w->pos->key;
    // Only this thread writes its count, so a plain increment published relaxed suffices.
    atomic_store_explicit(&w->nodes, atomic_load_explicit(&w->nodes, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

static inline void unmake(Worker *w) {
    w->nkeys--;
    w->pos--;
}

// True when m indexes only points of the board and, placing, a man in hand: what
// pos_key_after needs.
static inline bool move_plausible(const Position *p, Move m) {
    int np = p->rules->board->npoints, from = move_from(m);
    if (move_to(m) >= np || (from == NO_POINT ? !p->hand[p->side] : from >= np))
        return false;
    for (int i = 0, r; i < MAX_REMOVALS && (r = move_removal(m, i)) >= 0; i++)
        if (r >= np)
            return false;
    return true;
}

// Start loading the table buckets of the children after moves[from, n), all at once: a node
// that does not cut off on its first move searches most of the others, and the loads then
// overlap instead of each waiting on its own. Only children of depth 1 or more probe the
// table, so only nodes of depth 2 or more call this. Always inline: GCC takes a function that
// only prefetches for one without effect, and drops its calls.
static ALWAYS_INLINE void prefetch_children(const Worker *w, const Move *moves, int from, int n) {
    KeyBase kb = pos_key_base(w->pos);
    for (int j = from; j < n; j++)
        tt_prefetch(&w->tt, pos_key_step(kb, moves[j]));
}

static inline OrderKey order_key(int score, int pos) {
    return (OrderKey)(score * (1 << KEY_POS_BITS) + (KEY_POS_MAX - pos));
}
static inline int key_score(OrderKey k) { return k >> KEY_POS_BITS; }
static inline int key_pos(OrderKey k) { return KEY_POS_MAX - (k & KEY_POS_MAX); }

// A move's origin and destination as one index: the low ten bits of the move.
static inline int history_index(Move m) { return (int)(m & 1023); }

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

#ifdef __AVX2__
// The largest of eight keys.
static inline OrderKey reduce_max8(__m256i v) {
    __m128i h = _mm_max_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    h = _mm_max_epi32(h, _mm_shuffle_epi32(h, 0x4e));
    return _mm_cvtsi128_si32(_mm_max_epi32(h, _mm_shuffle_epi32(h, 0xb1)));
}
#endif

// Score moves [from, n) for ordering, higher first, and return the largest key (the move
// take_best would take first). With AVX-512, sixteen moves at a time, with AVX2 eight: the same
// scores as the scalar loop, which other processors run.
static OrderKey score_moves(const Worker *w, const Move *moves, OrderKey *keys, int from, int n,
                            int ply) {
    const Position *p = w->pos;
    const Board *b = p->rules->board;
    int us = p->side;
    Bits opp = p->men[!us];
    Bits empty = b->all & ~(p->men[us] | opp);
    Bits opp_closers = board_closing_points(b, opp) & empty;
    Move killer0 = w->killers[ply][0], killer1 = w->killers[ply][1];
    Bits threats = 0;
    bool have_threats = false;
    OrderKey top = KEY_TAKEN;
#if defined(__AVX512F__) && defined(__AVX512VPOPCNTDQ__)
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
                                                _mm512_and_si512(m, hist_mask), w->history[us], 4);
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
#elif defined(__AVX2__)
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
        __m256i s = _mm256_mask_i32gather_epi32(zero, w->history[us],
                                                _mm256_and_si256(m, hist_mask), quiet, 4);
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
#else
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
            s = w->history[us][history_index(m)];
            s = m == killer1 ? SCORE_KILLER1 : s;
            s = m == killer0 ? SCORE_KILLER0 : s;
            s = opp_closers & BIT(to) ? SCORE_BLOCKING : s;
        }
        keys[i] = order_key(s, i);
        top = keys[i] > top ? keys[i] : top;
    }
#endif
    return top;
}

// The moves not yet taken. With AVX-512 or AVX2 and at most 64 moves, a bit per list place in
// *live, and the keys are only read; otherwise a taken move's key is overwritten with KEY_TAKEN.
#if defined(__AVX512F__) || defined(__AVX2__)
#define LIVE_MAX 64
#else
#define LIVE_MAX 0
#endif

static inline uint64_t live_all(int n) { return n < 64 ? (1ull << n) - 1 : ~0ull; }

static inline void mark_taken(OrderKey *keys, uint64_t *live, int n, int pos) {
    if (n <= LIVE_MAX)
        *live &= ~(1ull << pos);
    else
        keys[pos] = KEY_TAKEN;
}

// Take the move of the largest key among those not taken in keys[0, n): return its key.
static inline OrderKey take_best(OrderKey *keys, int n, uint64_t *live) {
    OrderKey best;
#ifdef __AVX512F__
    if (n <= LIVE_MAX) {
        // Sixteen keys per step, the taken ones masked out: no store, so the next pick's loads
        // never wait for one.
        __m512i b = _mm512_set1_epi32(KEY_TAKEN);
        for (int k = 0; k < n; k += 16) {
            __mmask16 m = (__mmask16)(*live >> k);
            b = _mm512_mask_max_epi32(b, m, b, _mm512_maskz_loadu_epi32(m, keys + k));
        }
        best = _mm512_reduce_max_epi32(b);
        *live &= ~(1ull << key_pos(best));
        return best;
    }
#elif defined(__AVX2__)
    if (n <= LIVE_MAX) {
        // Eight keys per step: a lane is read only when its move is live (a masked load reads
        // the others as 0, which the OR turns into KEY_TAKEN).
        const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
        const __m256i taken = _mm256_set1_epi32(KEY_TAKEN);
        __m256i b = taken;
        for (int k = 0; k < n; k += 8) {
            __m256i on = _mm256_cmpeq_epi32(
                _mm256_and_si256(_mm256_set1_epi32((int)(*live >> k)), bit), bit);
            __m256i v = _mm256_maskload_epi32(keys + k, on);
            b = _mm256_max_epi32(b, _mm256_or_si256(v, _mm256_andnot_si256(on, taken)));
        }
        best = reduce_max8(b);
        *live &= ~(1ull << key_pos(best));
        return best;
    }
#endif
    (void)live;
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
    keys[key_pos(best)] = KEY_TAKEN;
    return best;
}

// Move the best-scored move of [i, n) to i (the first of equal scores, by exchange).
static inline void pick(Move *moves, OrderKey *keys, int i, int n) {
    int best = i;
    for (int k = i + 1; k < n; k++)
        if (key_score(keys[k]) > key_score(keys[best]))
            best = k;
    Move m = moves[i];
    moves[i] = moves[best];
    moves[best] = m;
    OrderKey s = keys[i];
    keys[i] = keys[best];
    keys[best] = s;
}

#define RFP_MARGIN 70

// Late move reductions by depth and move number: grow with the logarithm of both.
static int reductions[64][64];
static pthread_once_t reductions_once = PTHREAD_ONCE_INIT;

static void init_reductions(void) {
    for (int d = 1; d < 64; d++)
        for (int i = 1; i < 64; i++)
            reductions[d][i] = (int)(0.5 + log(d) * log(i) / 2.0);
}

// The value of a finished or drawn position, or SCORE_NONE when play goes on.
static inline int terminal_score(const Worker *w, int ply) {
    const Position *p = w->pos;
    switch (pos_outcome_of(p, ply > 0)) {
    case OUTCOME_LOSS:
        return -(SCORE_MATE - ply);
    case OUTCOME_WIN:
        return SCORE_MATE - ply;
    case OUTCOME_DRAW:
        return SCORE_DRAW;
    case OUTCOME_NONE:
        break;
    }
    const MillRules *r = p->rules;
    if (ply > 0 && r->nmove_rule && p->quiet_plies >= r->nmove_rule)
        return SCORE_DRAW;
    if (ply > 0 && r->repetition && is_repetition(w))
        return SCORE_DRAW;
    return SCORE_NONE;
}

// The exact value of the position from the endgame databases as a score (a mate distance
// for a win or loss, capped at MAX_PLY - 1 plies from the root), or SCORE_NONE when it is in
// none. An N-move draw already due is left to terminal_score; the databases ignore the rule.
static inline int tb_score(Worker *w, int ply) {
    const Tablebase *tb = w->tb;
    const Position *p = w->pos;
    int value, distance;
    if (!tb || (p->rules->nmove_rule && p->quiet_plies >= p->rules->nmove_rule) ||
        !tb_probe(tb, p, &value, &distance))
        return SCORE_NONE;
    atomic_fetch_add_explicit(&w->sh->tbhits, 1, memory_order_relaxed);
    int d = ply + distance < MAX_PLY - 1 ? ply + distance : MAX_PLY - 1;
    return value == SOLVE_WIN    ? SCORE_MATE - d
           : value == SOLVE_LOSS ? -(SCORE_MATE - d)
                                 : SCORE_DRAW;
}

// A node's bookkeeping (limits, selective depth), then its value when the game is over or
// drawn, else SCORE_NONE.
static inline int enter_node(Worker *w, int ply) {
    check_limits(w);
    if (ply > w->seldepth)
        w->seldepth = ply;
    return terminal_score(w, ply);
}

// Quiescence: the static evaluation, or better through mill-closing moves.
static int qsearch(Worker *w, int alpha, int beta, int ply, int qply) {
    int t = enter_node(w, ply);
    if (t != SCORE_NONE)
        return t;
    int stand = eval_position(w->pos);
    if (stand >= beta || ply >= MAX_PLY - 1 || qply >= QS_MAX_PLIES ||
        !mill_search_params.quiescence)
        return stand;
    if (stand > alpha)
        alpha = stand;
    if (w->arena_used + MAX_MOVES > ARENA_MOVES)
        return stand;
    Move *moves = w->arena + w->arena_used;
    OrderKey *keys = w->keys_arena + w->arena_used;
    int n = movegen_closing_ongoing(w->pos, moves);
    if (n == 0)
        return stand;
    w->arena_used += n;
    score_moves(w, moves, keys, 0, n, ply);
    int best = stand;
    for (int i = 0; i < n; i++) {
        pick(moves, keys, i, n);
        make(w, moves[i]);
        int score = -qsearch(w, -beta, -alpha, ply + 1, qply + 1);
        unmake(w);
        if (stopped(w))
            break;
        if (score > best) {
            best = score;
            if (score > alpha)
                alpha = score;
            if (score >= beta)
                break;
        }
    }
    w->arena_used -= n;
    return best;
}

// Remember a quiet move that caused a cutoff.
static void update_quiet(Worker *w, Move m, int depth, int ply, const Move *tried, int ntried) {
    int us = w->pos->side;
    if (w->killers[ply][0] != m) {
        w->killers[ply][1] = w->killers[ply][0];
        w->killers[ply][0] = m;
    }
    int bonus = depth * depth;
    int *h = &w->history[us][history_index(m)];
    *h += bonus - *h * bonus / 16384;
    for (int i = 0; i < ntried; i++) {
        if (tried[i] == m)
            continue;
        int *o = &w->history[us][history_index(tried[i])];
        *o -= bonus + *o * bonus / 16384;
    }
}

// Scalar: take_best's loads follow score_moves' stores of the same keys (compiler.h).
NO_VECTORIZE static int search(Worker *w, int alpha, int beta, int depth, int ply, bool pv_node) {
    w->pvlen[ply] = 0;
    int tb = tb_score(w, ply);
    if (tb != SCORE_NONE)
        return tb;
    if (depth <= 0)
        return qsearch(w, alpha, beta, ply, 0);
    int t = enter_node(w, ply);
    if (t != SCORE_NONE)
        return t;
    if (stopped(w) || ply >= MAX_PLY - 1)
        return eval_position(w->pos);

    // Mate-distance pruning.
    int lo = -(SCORE_MATE - ply), hi = SCORE_MATE - ply - 1;
    if (alpha < lo)
        alpha = lo;
    if (beta > hi)
        beta = hi;
    if (alpha >= beta)
        return alpha;

    TTEntry e;
    Move tt_move = MOVE_NONE;
    uint64_t key = w->pos->key;
    bool tt_hit = tt_probe(&w->tt, key, &e);
    if (tt_hit) {
        tt_move = e.move;
        int s = tt_score_from(e.score, ply), bound = e.bound;
        if (!pv_node && e.depth >= depth &&
            (bound == BOUND_EXACT || (bound == BOUND_LOWER && s >= beta) ||
             (bound == BOUND_UPPER && s <= alpha)))
            return s;
    }
    const MillSearchParams *sp = &mill_search_params;
    // The static evaluation is needed only near the leaves, for reverse futility.
    int static_eval = SCORE_NONE;
    if (sp->reverse_futility && !pv_node && depth <= 4) {
        static_eval = tt_hit && e.eval != SCORE_NONE ? e.eval : eval_position(w->pos);
        // Far enough above beta near the leaves, the opponent cannot come back.
        if (abs(beta) < SCORE_MATE_IN_MAX && static_eval - RFP_MARGIN * depth >= beta)
            return static_eval - RFP_MARGIN * depth;
    }

    // The hash move goes first: fetch its child's bucket while its legality is checked (a
    // move of another position, from a key collision, must not index outside the key tables;
    // if it is not legal here, the fetch is only wasted). At depth 1 the child is a quiescence
    // node, which does not probe.
    if (depth >= 2 && tt_move && move_plausible(w->pos, tt_move))
        tt_prefetch(&w->tt, pos_key_after(w->pos, tt_move));
    if (w->arena_used + MAX_MOVES > ARENA_MOVES)
        return eval_position(w->pos);
    Move *moves = w->arena + w->arena_used;
    OrderKey *keys = w->keys_arena + w->arena_used;
    // A legal hash move is searched before the moves are generated (if it cuts off, they never
    // are); then it goes first in the list and the others are scored. Without one, the moves
    // are generated and scored at once, and the best-scored goes first by exchange with the
    // first in the list, which takes its place in the order of the rest.
    int first = tt_move && movegen_is_legal(w->pos, tt_move), n = 0, used;
    // The current move's list place and score, as plain integers (read out of vector lanes
    // late, such values were spilled and reloaded at a width the store could not forward).
    int cur_pos = 0, cur_score = 1 << 30;
    uint64_t live = 0; // the moves not yet taken, once the list is scored (mark_taken)
    if (first) {
        moves[0] = tt_move;
        n = 2; // at least; the others are counted when they are generated
        used = 1;
    } else {
        n = movegen_legal_ongoing(w->pos, moves);
        if (n == 0)
            return -(SCORE_MATE - ply);
        if (depth >= 2)
            prefetch_children(w, moves, 0, n);
        used = n;
        OrderKey k = score_moves(w, moves, keys, 0, n, ply);
        int b = key_pos(k);
        Move m = moves[0];
        moves[0] = moves[b];
        moves[b] = m;
        if (b)
            keys[b] = order_key(key_score(keys[0]), b);
        cur_score = key_score(k);
        live = live_all(n);
        mark_taken(keys, &live, n, 0);
    }
    w->arena_used += used;

    int best = -SCORE_INFINITE, alpha0 = alpha;
    // Late move pruning's place in the list: near the leaves, quiet moves from there on are
    // skipped (MAX_MOVES where it does not apply: no list is that long).
    int lmp_from =
        sp->late_move_pruning && !pv_node && depth <= 3 ? 3 + depth * depth * 2 : MAX_MOVES;
    Move best_move = MOVE_NONE;
    Move quiets[64];
    int nquiets = 0;
    for (int i = 0; i < n; i++) {
        if (i == 1 && first) {
            // The hash move did not cut off: now the rest.
            n = movegen_legal_ongoing(w->pos, moves);
            w->arena_used += n - used;
            used = n;
            for (int j = 0; j < n; j++)
                if (moves[j] == tt_move) {
                    moves[j] = moves[0];
                    moves[0] = tt_move;
                    break;
                }
            if (n == 1)
                break;
            if (depth >= 2)
                prefetch_children(w, moves, 1, n);
            OrderKey k = score_moves(w, moves, keys, 1, n, ply);
            live = live_all(n);
            mark_taken(keys, &live, n, 0);
            mark_taken(keys, &live, n, key_pos(k));
            cur_pos = key_pos(k);
            cur_score = key_score(k);
        } else if (i > 0) {
            OrderKey k = take_best(keys, n, &live);
            cur_pos = key_pos(k);
            cur_score = key_score(k);
        }
        Move m = moves[cur_pos];
        // Every move with a removal scores above the killers, and the hash move (1 << 30)
        // counts as not quiet, so the score alone tells.
        bool quiet = cur_score < SCORE_KILLER0;
        // Late move pruning: near the leaves, quiet moves far down the list are skipped. The
        // moves after a quiet one score lower, so are quiet too (removals score higher) and
        // are all skipped: stop here.
        if (i >= lmp_from && quiet && best > -SCORE_MATE_IN_MAX)
            break;
        make(w, m);
        int score;
        if (i == 0) {
            score = -search(w, -beta, -alpha, depth - 1, ply + 1, pv_node);
        } else {
            int r = 0;
            if (sp->reductions && depth >= 3 && i >= 2 && quiet) {
                r = reductions[depth < 64 ? depth : 63][i < 64 ? i : 63];
                r -= pv_node;
                if (r < 0)
                    r = 0;
                if (r > depth - 2)
                    r = depth - 2;
            }
            score = -search(w, -alpha - 1, -alpha, depth - 1 - r, ply + 1, false);
            if (score > alpha && r)
                score = -search(w, -alpha - 1, -alpha, depth - 1, ply + 1, false);
            if (score > alpha && score < beta && pv_node)
                score = -search(w, -beta, -alpha, depth - 1, ply + 1, true);
        }
        unmake(w);
        if (stopped(w)) {
            w->arena_used -= used;
            return best > -SCORE_INFINITE ? best : 0;
        }
        if (score > best) {
            best = score;
            best_move = m;
            if (score > alpha) {
                alpha = score;
                // Only a PV node's line is read: a zero-window node raises alpha only to cut
                // off, and its parent, which then does not raise its own, never copies it.
                if (pv_node) {
                    w->pv[ply][0] = m;
                    memcpy(w->pv[ply] + 1, w->pv[ply + 1],
                           (size_t)w->pvlen[ply + 1] * sizeof(Move));
                    w->pvlen[ply] = w->pvlen[ply + 1] + 1;
                }
                if (score >= beta) {
                    if (quiet)
                        update_quiet(w, m, depth, ply, quiets, nquiets);
                    break;
                }
            }
        }
        if (quiet && nquiets < 64)
            quiets[nquiets++] = m;
    }
    w->arena_used -= used;
    if (best == -SCORE_INFINITE) // every move was pruned
        return alpha;
    int bound = best >= beta ? BOUND_LOWER : best > alpha0 ? BOUND_EXACT : BOUND_UPPER;
    tt_store(&w->tt, key, best_move, tt_score_to(best, ply), static_eval, depth, bound);
    return best;
}

// Search the root moves from pv_idx on within (alpha, beta); sort them best first.
static int search_root(Worker *w, int alpha, int beta, int depth) {
    int best = -SCORE_INFINITE;
    w->pvlen[0] = 0;
    for (int i = w->pv_idx; i < w->nroot; i++) {
        RootMove *rm = &w->root[i];
        w->seldepth = 0;
        tt_prefetch(&w->tt, pos_key_after(w->pos, rm->move));
        make(w, rm->move);
        int score;
        if (i == w->pv_idx) {
            score = -search(w, -beta, -alpha, depth - 1, 1, true);
        } else {
            score = -search(w, -alpha - 1, -alpha, depth - 1, 1, false);
            if (score > alpha && score < beta)
                score = -search(w, -beta, -alpha, depth - 1, 1, true);
        }
        unmake(w);
        if (stopped(w))
            break;
        if (i == w->pv_idx || score > alpha) {
            rm->score = score;
            rm->seldepth = w->seldepth;
            rm->pv[0] = rm->move;
            memcpy(rm->pv + 1, w->pv[1], (size_t)w->pvlen[1] * sizeof(Move));
            rm->pvlen = w->pvlen[1] + 1;
        } else {
            rm->score = -SCORE_INFINITE;
        }
        if (score > best)
            best = score;
        if (score > alpha) {
            alpha = score;
            // Keep the new best at the front of the searched range at once, so that a stop
            // in the middle of the iteration still plays it.
            RootMove tmp = *rm;
            memmove(&w->root[w->pv_idx + 1], &w->root[w->pv_idx],
                    (size_t)(i - w->pv_idx) * sizeof(RootMove));
            w->root[w->pv_idx] = tmp;
            if (score >= beta)
                break;
        }
    }
    return best;
}

// Aspiration windows around the previous score, widened on failure.
static int aspiration(Worker *w, int depth, int prev) {
    int delta = 40;
    int alpha = -SCORE_INFINITE, beta = SCORE_INFINITE;
    if (mill_search_params.aspiration && depth >= 4 && abs(prev) < SCORE_MATE_IN_MAX) {
        alpha = prev - delta;
        beta = prev + delta;
    }
    for (;;) {
        int score = search_root(w, alpha, beta, depth);
        if (stopped(w))
            return score;
        if (score <= alpha) {
            alpha = alpha - delta < -SCORE_INFINITE ? -SCORE_INFINITE : alpha - delta;
            beta = (alpha + beta) / 2 > score + 1 ? (alpha + beta) / 2 : score + 1;
        } else if (score >= beta) {
            beta = beta + delta > SCORE_INFINITE ? SCORE_INFINITE : beta + delta;
        } else {
            return score;
        }
        delta += delta / 2;
        if (delta > 1000) {
            alpha = -SCORE_INFINITE;
            beta = SCORE_INFINITE;
        }
    }
}

static void format_pv(const Board *b, const Move *pv, int n, char *buf, size_t cap) {
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len + MOVE_STR_MAX + 1 < cap; i++) {
        char s[MOVE_STR_MAX];
        move_format(b, pv[i], s);
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? " " : "", s);
    }
}

// Win/draw/loss per mille for a score: a logistic model of the score.
static void score_wdl(int score, int wdl[3]) {
    if (score >= SCORE_MATE_IN_MAX || score <= -SCORE_MATE_IN_MAX) {
        wdl[0] = score > 0 ? 1000 : 0;
        wdl[1] = 0;
        wdl[2] = score > 0 ? 0 : 1000;
        return;
    }
    double win = 1000.0 / (1.0 + exp((200.0 - score) / 60.0));
    double loss = 1000.0 / (1.0 + exp((200.0 + score) / 60.0));
    wdl[0] = (int)lround(win);
    wdl[2] = (int)lround(loss);
    wdl[1] = 1000 - wdl[0] - wdl[2];
}

static void report(Worker *w, int depth, int k) {
    Shared *sh = w->sh;
    if (!sh->hooks->report)
        return;
    const RootMove *rm = &w->root[k];
    SearchReport r = {0};
    r.depth = depth;
    r.seldepth = rm->seldepth > depth ? rm->seldepth : depth;
    r.multipv = k + 1;
    r.score = rm->score;
    if (sh->lim->show_wdl)
        score_wdl(rm->score, r.wdl);
    r.nodes = total_nodes(sh);
    r.tbhits = atomic_load_explicit(&sh->tbhits, memory_order_relaxed);
    r.time_ms = (clock_now_us() - sh->lim->start_us) / 1000;
    r.hashfull = tt_hashfull(sh->tt);
    format_pv(w->pos->rules->board, rm->pv, rm->pvlen, r.pv, sizeof r.pv);
    sh->hooks->report(sh->hooks->ctx, &r);
}

// Stable sort of root moves [from, n) by score, best first.
static void sort_root(RootMove *root, int from, int n) {
    for (int i = from + 1; i < n; i++) {
        RootMove tmp = root[i];
        int j = i;
        while (j > from && root[j - 1].score < tmp.score) {
            root[j] = root[j - 1];
            j--;
        }
        root[j] = tmp;
    }
}

// Iterative deepening of one worker; the main worker also reports and decides to stop.
static void iterate(Worker *w) {
    Shared *sh = w->sh;
    const SearchLimits *lim = sh->lim;
    int max_depth = lim->depth > 0 && lim->depth < MAX_PLY - 1 ? lim->depth : MAX_PLY - 2;
    if (lim->mate > 0 && 2 * lim->mate - 1 < max_depth && !lim->depth)
        max_depth = 2 * lim->mate - 1 > 0 ? 2 * lim->mate - 1 : 1;
    int multipv = lim->multipv < 1 ? 1 : lim->multipv;
    if (multipv > w->nroot)
        multipv = w->nroot;
    Move last_best = MOVE_NONE;
    int stable = 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        // Helpers skip some depths so that the threads spread over the tree.
        if (w->id > 0 && depth > 1 && (depth + w->id) % 3 == 0)
            continue;
        w->root_depth = depth;
        for (int i = 0; i < w->nroot; i++)
            w->root[i].prev_score = w->root[i].score;
        for (w->pv_idx = 0; w->pv_idx < multipv && !stopped(w); w->pv_idx++) {
            aspiration(w, depth, w->root[w->pv_idx].prev_score);
            if (stopped(w))
                break;
            sort_root(w->root, w->pv_idx, w->nroot);
        }
        if (stopped(w))
            break;
        w->completed_depth = depth;
        if (w->id != 0)
            continue;
        sh->depth1_done = true;
        update_halt(sh);
        for (int k = 0; k < multipv; k++)
            report(w, depth, k);
        int score = w->root[0].score;
        if (lim->mate > 0 && score >= SCORE_MATE_IN_MAX && score_mate_moves(score) <= lim->mate)
            break;
        stable = w->root[0].move == last_best ? stable + 1 : 0;
        last_best = w->root[0].move;
        double scale = stable == 0 ? 1.8 : stable == 1 ? 1.2 : stable < 4 ? 0.9 : 0.6;
        if (tm_soft_stop(&sh->tm, lim, sh->hooks, scale))
            break;
        // A single legal move needs no deep search when time is limited.
        if (w->nroot == 1 && sh->tm.soft_us != INT64_MAX && depth >= 4)
            break;
    }
}

static void *helper_main(void *arg) {
    iterate(arg);
    return NULL;
}

static Worker *worker_new(Shared *sh, int id, const Position *root_pos, const RootMove *root,
                          int nroot) {
    Worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    const MillGame *g = sh->game;
    w->sh = sh;
    w->tb = g->tb;
    w->tt = *sh->tt;
    w->id = id;
    w->stack[0] = *root_pos;
    w->pos = w->stack;
    w->keys = malloc((size_t)(g->nkeys + MAX_PLY + 8) * sizeof *w->keys);
    w->root = malloc((size_t)nroot * sizeof *w->root);
    if (!w->keys || !w->root) {
        free(w->keys);
        free(w->root);
        free(w);
        return NULL;
    }
    memcpy(w->keys, g->keys, (size_t)g->nkeys * sizeof *w->keys);
    w->nkeys = g->nkeys;
    memcpy(w->root, root, (size_t)nroot * sizeof *root);
    w->nroot = nroot;
    return w;
}

static void worker_free(Worker *w) {
    if (w) {
        free(w->keys);
        free(w->root);
    }
    free(w);
}

// Keep the root moves named in searchmoves (all when none is legal).
static int filter_searchmoves(const Position *p, const SearchLimits *lim, RootMove *root, int n) {
    if (lim->nsearchmoves <= 0)
        return n;
    int k = 0;
    for (int i = 0; i < n; i++) {
        bool keep = false;
        for (int j = 0; j < lim->nsearchmoves && !keep; j++) {
            Move m;
            keep = move_parse(p, lim->searchmoves[j], &m, NULL) && m == root[i].move;
        }
        if (keep)
            root[k++] = root[i];
    }
    return k ? k : n;
}

// The mill games' tuning of the time manager: games are short (30 moves to go), the soft
// limit at most a fifth of the clock, the hard one at most five soft limits.
static const TimeParams MILL_TIME = {.moves_to_go = 30,
                                     .inc_percent = 75,
                                     .soft_max_percent = 20,
                                     .hard_over_soft = 5,
                                     .hard_divisor = 3,
                                     .reserve_percent = 70};

// Wait while the GUI still expects the search to run (infinite, or pondering).
static void wait_for_release(const SearchLimits *lim, SearchHooks *hooks) {
    struct timespec ms = {0, 1000000};
    while ((lim->infinite || atomic_load(&hooks->ponder)) && !atomic_load(&hooks->stop))
        nanosleep(&ms, NULL);
}

void mill_search(const MillGame *g, TT *tt, const SearchLimits *lim, SearchHooks *hooks,
                 SearchResult *out) {
    const Board *b = g->rules.board;
    char why[160];
    strcpy(out->best, "(none)");
    out->ponder[0] = '\0';
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    RootMove *root = malloc(MAX_ROOT_MOVES * sizeof *root);
    int n = 0;
    uint64_t root_tbhits = 0;
    if (moves && root && mill_game_result(g, why, sizeof why) == RESULT_NONE)
        n = movegen_legal(&g->pos, moves);
    // In the endgame databases, only the moves that keep the value take part.
    n = tb_root_moves(g->tb, &g->pos, moves, n, &root_tbhits);
    for (int i = 0; i < n; i++)
        root[i] = (RootMove){.move = moves[i],
                             .score = -SCORE_INFINITE,
                             .prev_score = -SCORE_INFINITE,
                             .pvlen = 1,
                             .pv = {moves[i]}};
    n = filter_searchmoves(&g->pos, lim, root, n);
    if (n == 0) {
        wait_for_release(lim, hooks);
        free(moves);
        free(root);
        return;
    }

    pthread_once(&reductions_once, init_reductions);
    Shared sh = {.game = g, .tt = tt, .lim = lim, .hooks = hooks};
    tm_init(&sh.tm, lim, g->pos.side, &MILL_TIME);
    atomic_init(&sh.halt, false);
    atomic_init(&sh.tbhits, root_tbhits);
    int nthreads = lim->threads < 1 ? 1 : lim->threads;
    sh.workers = calloc((size_t)nthreads, sizeof *sh.workers);
    tt_new_search(tt);
    for (int i = 0; sh.workers && i < nthreads; i++) {
        sh.workers[i] = worker_new(&sh, i, &g->pos, root, n);
        if (!sh.workers[i])
            break;
        sh.nthreads++;
    }
    if (sh.nthreads == 0) {
        move_format(b, root[0].move, out->best); // out of memory: any legal move
        free(sh.workers);
        free(moves);
        free(root);
        return;
    }
    pthread_t threads[256];
    int started = 0;
    for (int i = 1; i < sh.nthreads && i < 256; i++)
        if (pthread_create(&threads[started], NULL, helper_main, sh.workers[i]) == 0)
            started++;
    Worker *main_worker = sh.workers[0];
    iterate(main_worker);
    atomic_store(&sh.halt, true); // the helpers stop too
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);

    // Hold the move while the GUI still waits for stop or ponderhit.
    wait_for_release(lim, hooks);
    const RootMove *best = &main_worker->root[0];
    move_format(b, best->move, out->best);
    if (best->pvlen > 1) {
        move_format(b, best->pv[1], out->ponder);
    } else {
        TTEntry e;
        Position p = g->pos;
        pos_apply_move(&p, best->move);
        Move reply;
        char s[MOVE_STR_MAX];
        if (tt_probe(tt, p.key, &e) && e.move) {
            move_format(b, e.move, s);
            if (move_parse(&p, s, &reply, NULL))
                strcpy(out->ponder, s);
        }
    }
    for (int i = 0; i < sh.nthreads; i++)
        worker_free(sh.workers[i]);
    free(sh.workers);
    free(moves);
    free(root);
}
