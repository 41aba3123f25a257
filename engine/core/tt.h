// Transposition table, shared by all search threads without locks.
//
// Layout. A bucket is one 64-byte cache line of four 16-byte entries. An entry keeps the low
// 32 bits of the position key (the bucket index comes from the high bits, so together they
// use the whole key), the best move (the family's 32-bit encoding), the score and static
// evaluation, the depth, and the generation with the bound in one byte.
// Replacement. A store goes to the entry holding the same key, else to the entry of least
// worth, worth = depth - 8 * age in generations; a store of the same key keeps its move when
// the new one has none.
// Mate scores are stored relative to the node (distance from it) and restored relative to the
// root by the caller's ply, so that a mate found along one path reads right along another.
// Threads may race on an entry; the move read back is only used to order moves and is matched
// against the legal list, so a torn entry costs a little ordering, never an illegal move.
#ifndef ENGINE_CORE_TT_H
#define ENGINE_CORE_TT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT };

typedef struct TTEntry {
    uint32_t key32;
    uint32_t move;
    int16_t score;
    int16_t eval;
    uint8_t depth;
    uint8_t genbound; // generation << 2 | bound
    uint16_t pad;
} TTEntry;

typedef struct TTBucket {
    TTEntry e[4];
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
// Start loading the bucket of key into the cache.
void tt_prefetch(const TT *tt, uint64_t key);
// Copy the entry of key into *e and return true when there is one.
bool tt_probe(const TT *tt, uint64_t key, TTEntry *e);
void tt_store(TT *tt, uint64_t key, uint32_t move, int score, int eval, int depth, int bound);
// Per mille of the first thousand buckets' entries written in this generation.
int tt_hashfull(const TT *tt);

// Mate scores from root-relative to node-relative and back.
int tt_score_to(int score, int ply);
int tt_score_from(int score, int ply);

#endif
