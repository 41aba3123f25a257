// Transposition table, shared by all search threads without locks.
//
// Layout. A bucket is one 64-byte cache line of four 16-byte entries. An entry is two 64-bit
// words: the data word (score, static evaluation, depth, generation and bound) and the key
// word (the best move, the family's 32-bit encoding, beside the low 32 bits of the position
// key XORed with both halves of the data word). The bucket index comes from the high bits of
// the key, so index and check use the whole key.
// Replacement. A store goes to the entry holding the same key, else to the entry of least
// worth, worth = depth - 8 * age in generations; a store of the same key keeps its move when
// the new one has none.
// Mate scores are stored relative to the node (distance from it) and restored relative to the
// root by the caller's ply, so that a mate found along one path reads right along another.
// Threads share the table without locks: each word is read and written as a relaxed atomic,
// and an entry torn between two writers fails the XOR check and reads as a miss. (With AVX2 a
// probe or store first scans the bucket with two vector loads; the entry a probe returns is
// read again word by word and checked.) The move is only used to order moves and is matched
// against the legal list, so a stale move costs a little ordering, never an illegal move.
#ifndef ENGINE_CORE_TT_H
#define ENGINE_CORE_TT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT };

// An entry as the search sees it.
typedef struct TTEntry {
    uint32_t move;
    int16_t score;
    int16_t eval;
    uint8_t depth;
    uint8_t bound;
    uint8_t generation;
} TTEntry;

// An entry as stored.
typedef struct TTSlot {
    _Atomic uint64_t key;  // move << 32 | (key32 ^ data's two halves)
    _Atomic uint64_t data; // score | eval << 16 | depth << 32 | generation << 40 | bound << 46
} TTSlot;

typedef struct TTBucket {
    TTSlot e[4];
} TTBucket;

typedef struct TT {
    TTBucket *buckets;
    size_t nbuckets;
    uint8_t generation;
} TT;

// Allocate mb megabytes (at least 1); false when out of memory (the table keeps its old size).
bool tt_init(TT *tt, size_t mb);
void tt_free(TT *tt);
void tt_clear(TT *tt);
// Age the entries: called once per search.
void tt_new_search(TT *tt);
// The bucket of key: the key scaled to the table (the high half of key * nbuckets, one
// multiply).
static inline TTBucket *tt_bucket(const TT *tt, uint64_t key) {
    return &tt->buckets[(size_t)(((unsigned __int128)key * tt->nbuckets) >> 64)];
}

// Start loading the bucket of key into the cache.
static inline void tt_prefetch(const TT *tt, uint64_t key) {
    __builtin_prefetch(tt_bucket(tt, key));
}
// Copy the entry of key into *e and return true when there is one.
bool tt_probe(const TT *tt, uint64_t key, TTEntry *e);
void tt_store(TT *tt, uint64_t key, uint32_t move, int score, int eval, int depth, int bound);
// Per mille of the first thousand buckets' entries written in this generation.
int tt_hashfull(const TT *tt);

// Mate scores from root-relative to node-relative and back.
int tt_score_to(int score, int ply);
int tt_score_from(int score, int ply);

#endif
