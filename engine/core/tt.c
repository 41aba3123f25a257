#include "engine/core/tt.h"

#include "engine/core/search.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#ifdef __AVX2__
#include <immintrin.h>
#endif

#define HUGE_PAGE (2u << 20)

// Memory for the table: on 2 MB boundaries and in huge pages where the system has them, since
// a probe lands on a random line of the whole table and with small pages most probes would
// also miss the TLB.
static TTBucket *alloc_buckets(size_t bytes) {
    if (bytes < HUGE_PAGE)
        return aligned_alloc(64, bytes);
    TTBucket *b = aligned_alloc(HUGE_PAGE, (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE);
#ifdef MADV_HUGEPAGE
    if (b)
        madvise(b, bytes, MADV_HUGEPAGE);
#endif
    return b;
}

bool tt_init(TT *tt, size_t mb) {
    if (mb < 1)
        mb = 1;
    size_t n = (mb << 20) / sizeof(TTBucket);
    TTBucket *b = alloc_buckets(n * sizeof(TTBucket));
    if (!b)
        return false;
    free(tt->buckets);
    tt->buckets = b;
    tt->nbuckets = n;
    tt_clear(tt);
    return true;
}

void tt_free(TT *tt) {
    free(tt->buckets);
    tt->buckets = NULL;
    tt->nbuckets = 0;
}

void tt_clear(TT *tt) {
    memset(tt->buckets, 0, tt->nbuckets * sizeof(TTBucket));
    tt->generation = 0;
}

void tt_new_search(TT *tt) { tt->generation = (uint8_t)((tt->generation + 1) & 63); }

static inline uint64_t pack(int score, int eval, int depth, int generation, int bound) {
    return (uint64_t)(uint16_t)score | (uint64_t)(uint16_t)eval << 16 | (uint64_t)depth << 32 |
           (uint64_t)generation << 40 | (uint64_t)bound << 46;
}

static inline uint32_t check_of(uint64_t key, uint64_t data) {
    return (uint32_t)key ^ (uint32_t)data ^ (uint32_t)(data >> 32);
}

static inline uint64_t load(_Atomic uint64_t *w) {
    return atomic_load_explicit(w, memory_order_relaxed);
}

static inline void unpack(uint64_t k, uint64_t d, TTEntry *e) {
    e->move = (uint32_t)(k >> 32);
    e->score = (int16_t)(uint16_t)d;
    e->eval = (int16_t)(uint16_t)(d >> 16);
    e->depth = (uint8_t)(d >> 32);
    e->generation = (uint8_t)(d >> 40 & 63);
    e->bound = (uint8_t)(d >> 46 & 3);
}

#ifdef __AVX2__
// With AVX2 the four entries of a bucket are tested at once, without a branch per entry: the
// probes near the leaves, most of which miss, mispredicted those branches often. The same
// entries are found and chosen as by the loops below.

// A bucket's key and data words, in the lanes of entries 0, 2, 1 and 3.
typedef struct Lanes {
    __m256i keys, data;
} Lanes;

static inline Lanes bucket_lanes(const TTBucket *b) {
    __m256i lo = _mm256_load_si256((const __m256i *)(const void *)b);     // k0 d0 k1 d1
    __m256i hi = _mm256_load_si256((const __m256i *)(const void *)b + 1); // k2 d2 k3 d3
    return (Lanes){_mm256_unpacklo_epi64(lo, hi), _mm256_unpackhi_epi64(lo, hi)};
}

// A mask of lanes as a mask of entries.
static inline unsigned entry_mask(int lanes) {
    return (unsigned)((lanes & 9) | (lanes >> 1 & 2) | (lanes << 1 & 4));
}

// The lanes whose check matches key (all ones), the others zero.
static inline __m256i lanes_matching(Lanes l, uint64_t key) {
    __m256i x = _mm256_xor_si256(
        _mm256_xor_si256(l.keys, l.data),
        _mm256_xor_si256(_mm256_srli_epi64(l.data, 32), _mm256_set1_epi64x((long long)key)));
    return _mm256_cmpeq_epi64(_mm256_slli_epi64(x, 32), _mm256_setzero_si256());
}

static inline int lane_bits(__m256i v) { return _mm256_movemask_pd(_mm256_castsi256_pd(v)); }

bool tt_probe(const TT *tt, uint64_t key, TTEntry *e) {
    TTBucket *b = tt_bucket(tt, key);
    Lanes l = bucket_lanes(b);
    __m256i unbound = _mm256_cmpeq_epi64(_mm256_and_si256(l.data, _mm256_set1_epi64x(3ll << 46)),
                                         _mm256_setzero_si256());
    unsigned hits = entry_mask(lane_bits(_mm256_andnot_si256(unbound, lanes_matching(l, key))));
    if (!hits)
        return false;
    int i = __builtin_ctz(hits);
    uint64_t k = load(&b->e[i].key), d = load(&b->e[i].data);
    if ((uint32_t)k != check_of(key, d) || (d >> 46 & 3) == BOUND_NONE)
        return false; // rewritten by another thread since the vector loads
    unpack(k, d, e);
    return true;
}

// The entry of least worth, the first of those of equal worth.
static inline int least_worth(const TT *tt, Lanes l) {
    __m256i depth = _mm256_and_si256(_mm256_srli_epi64(l.data, 32), _mm256_set1_epi64x(255));
    __m256i gen = _mm256_and_si256(_mm256_srli_epi64(l.data, 40), _mm256_set1_epi64x(63));
    __m256i age = _mm256_and_si256(_mm256_sub_epi64(_mm256_set1_epi64x(tt->generation), gen),
                                   _mm256_set1_epi64x(63));
    // worth * 4 + the lane's entry, so that the least is the first entry of least worth
    __m256i w = _mm256_sub_epi64(depth, _mm256_slli_epi64(age, 3));
    __m256i v = _mm256_or_si256(_mm256_slli_epi64(w, 2), _mm256_set_epi64x(3, 1, 2, 0));
    __m256i t = _mm256_permute4x64_epi64(v, 0x4e);
    v = _mm256_blendv_epi8(v, t, _mm256_cmpgt_epi64(v, t));
    t = _mm256_shuffle_epi32(v, 0x4e);
    v = _mm256_blendv_epi8(v, t, _mm256_cmpgt_epi64(v, t));
    return _mm_cvtsi128_si32(_mm256_castsi256_si128(v)) & 3;
}

// The entry a store of key goes to: the one holding key, else the least worth keeping. When
// it holds key and move is none, *move becomes its move.
static inline int store_slot(const TT *tt, TTBucket *b, uint64_t key, uint32_t *move) {
    Lanes l = bucket_lanes(b);
    unsigned same = entry_mask(lane_bits(lanes_matching(l, key)));
    if (!same)
        return least_worth(tt, l);
    int i = __builtin_ctz(same);
    if (!*move)
        *move = (uint32_t)(load(&b->e[i].key) >> 32);
    return i;
}
#else
bool tt_probe(const TT *tt, uint64_t key, TTEntry *e) {
    TTBucket *b = tt_bucket(tt, key);
    for (int i = 0; i < 4; i++) {
        uint64_t k = load(&b->e[i].key), d = load(&b->e[i].data);
        if ((uint32_t)k == check_of(key, d) && (d >> 46 & 3) != BOUND_NONE) {
            unpack(k, d, e);
            return true;
        }
    }
    return false;
}

// How much an entry is worth keeping: deep and recent entries are worth more.
static inline int worth(const TT *tt, uint64_t d) {
    int age = (tt->generation - (int)(d >> 40 & 63)) & 63;
    return (int)(uint8_t)(d >> 32) - 8 * age;
}

static inline int store_slot(const TT *tt, TTBucket *b, uint64_t key, uint32_t *move) {
    int slot = 0, slot_worth = INT32_MAX;
    for (int i = 0; i < 4; i++) {
        uint64_t k = load(&b->e[i].key), d = load(&b->e[i].data);
        if ((uint32_t)k == check_of(key, d)) {
            if (!*move)
                *move = (uint32_t)(k >> 32);
            return i;
        }
        int w = worth(tt, d);
        if (w < slot_worth) {
            slot = i;
            slot_worth = w;
        }
    }
    return slot;
}
#endif

void tt_store(TT *tt, uint64_t key, uint32_t move, int score, int eval, int depth, int bound) {
    TTBucket *b = tt_bucket(tt, key);
    int slot = store_slot(tt, b, key, &move);
    uint64_t d = pack(score, eval,
                      depth < 0     ? 0
                      : depth > 255 ? 255
                                    : depth,
                      tt->generation, bound);
    atomic_store_explicit(&b->e[slot].data, d, memory_order_relaxed);
    atomic_store_explicit(&b->e[slot].key, (uint64_t)move << 32 | check_of(key, d),
                          memory_order_relaxed);
}

int tt_hashfull(const TT *tt) {
    size_t n = tt->nbuckets < 250 ? tt->nbuckets : 250, used = 0;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 4; k++) {
            uint64_t d = load(&tt->buckets[i].e[k].data);
            used += (d >> 46 & 3) != BOUND_NONE && (d >> 40 & 63) == tt->generation;
        }
    return n ? (int)(used * 1000 / (n * 4)) : 0;
}

int tt_score_to(int score, int ply) {
    return score >= SCORE_MATE_IN_MAX    ? score + ply
           : score <= -SCORE_MATE_IN_MAX ? score - ply
                                         : score;
}

int tt_score_from(int score, int ply) {
    return score >= SCORE_MATE_IN_MAX    ? score - ply
           : score <= -SCORE_MATE_IN_MAX ? score + ply
                                         : score;
}
