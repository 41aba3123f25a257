#include "engine/core/tt.h"

#include "engine/core/search.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

void tt_store(TT *tt, uint64_t key, uint32_t move, int score, int eval, int depth, int bound) {
    TTBucket *b = tt_bucket(tt, key);
    int slot = 0, slot_worth = INT32_MAX;
    for (int i = 0; i < 4; i++) {
        uint64_t k = load(&b->e[i].key), d = load(&b->e[i].data);
        if ((uint32_t)k == check_of(key, d)) {
            slot = i;
            if (!move)
                move = (uint32_t)(k >> 32);
            break;
        }
        int w = worth(tt, d);
        if (w < slot_worth) {
            slot = i;
            slot_worth = w;
        }
    }
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
