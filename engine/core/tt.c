#include "engine/core/tt.h"

#include "engine/core/search.h"

#include <stdlib.h>
#include <string.h>

static inline TTBucket *bucket_of(const TT *tt, uint64_t key) {
    return &tt->buckets[(size_t)(((unsigned __int128)(key >> 32) * tt->nbuckets) >> 32)];
}

bool tt_init(TT *tt, size_t mb) {
    if (mb < 1)
        mb = 1;
    size_t n = (mb << 20) / sizeof(TTBucket);
    TTBucket *b = aligned_alloc(64, n * sizeof(TTBucket));
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

void tt_prefetch(const TT *tt, uint64_t key) { __builtin_prefetch(bucket_of(tt, key)); }

bool tt_probe(const TT *tt, uint64_t key, TTEntry *e) {
    const TTBucket *b = bucket_of(tt, key);
    for (int i = 0; i < 4; i++)
        if (b->e[i].key32 == (uint32_t)key && (b->e[i].genbound & 3) != BOUND_NONE) {
            *e = b->e[i];
            return true;
        }
    return false;
}

// How much an entry is worth keeping: deep and recent entries are worth more.
static inline int worth(const TT *tt, const TTEntry *e) {
    int age = (tt->generation - (e->genbound >> 2)) & 63;
    return e->depth - 8 * age;
}

void tt_store(TT *tt, uint64_t key, uint32_t move, int score, int eval, int depth, int bound) {
    TTBucket *b = bucket_of(tt, key);
    TTEntry *slot = &b->e[0];
    for (int i = 0; i < 4; i++) {
        TTEntry *e = &b->e[i];
        if (e->key32 == (uint32_t)key) {
            slot = e;
            if (!move)
                move = e->move;
            break;
        }
        if (worth(tt, e) < worth(tt, slot))
            slot = e;
    }
    slot->key32 = (uint32_t)key;
    slot->move = move;
    slot->score = (int16_t)score;
    slot->eval = (int16_t)eval;
    slot->depth = (uint8_t)(depth < 0 ? 0 : depth > 255 ? 255 : depth);
    slot->genbound = (uint8_t)(tt->generation << 2 | bound);
}

int tt_hashfull(const TT *tt) {
    size_t n = tt->nbuckets < 250 ? tt->nbuckets : 250, used = 0;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 4; k++)
            used += (tt->buckets[i].e[k].genbound & 3) != BOUND_NONE &&
                    (tt->buckets[i].e[k].genbound >> 2) == tt->generation;
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
