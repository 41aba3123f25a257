// The solver's database in memory: which sub-databases exist and in which order they are
// solved, the combinatorial index of each (with its bitmap of the states kept after folding
// the board's symmetries), and the values. See engine/mill/solve.h for the scheme.
#ifndef ENGINE_MILL_SOLVE_DB_H
#define ENGINE_MILL_SOLVE_DB_H

#include "engine/core/error.h"
#include "engine/mill/position.h"
#include "engine/mill/symmetry.h"

#include <assert.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif

// Men each side can have at most in a solvable variant.
#define SOLVE_MAX_MEN 7

// A stored value: 0 draw (or not yet resolved while solving), else a flag and the distance.
#define DB_WIN 0x4000u
#define DB_LOSS 0x8000u
#define DB_DIST 0x3fffu
#define DB_NO_DIST 0xffffu

#define DB_HANDS (SOLVE_MAX_MEN + 1)

typedef struct SubDb {
    int a, b, ha, hb;   // own men on board, other men on board, own and other men in hand
    int group;          // the sub-databases of a group are solved together
    double seconds;     // spent solving its group (0 when read back)
    uint64_t raw;       // combinatorial index size: C(N, a) * C(N - a, b)
    uint64_t opp_count; // C(N - a, b)
    uint64_t *bits;     // canonical states of the combinatorial index
    uint32_t *prefix;   // canonical states before each word of bits
    uint64_t count;     // canonical states
    uint64_t offset;    // of its first value in the database's value array
    bool done;
} SubDb;

typedef struct SolveDb SolveDb;

struct SolveDb {
    MillRules rules;
    Symmetries sym;
    int npoints;
    int max_men; // the moving phase only, up to this many men a side; 0: the whole game
    int nsub;
    SubDb *sub; // in solving order, the members of a group next to each other
    int16_t id[DB_HANDS][DB_HANDS][DB_HANDS][DB_HANDS]; // [ha][hb][a][b] -> sub index, -1 none
    uint64_t total;
    _Atomic uint16_t *val;
};

// Binomial coefficients C(n, k) for n, k <= MAX_POINTS, filled once by db_create.
extern uint64_t db_binom[MAX_POINTS + 1][MAX_POINTS + 1];

// The bits of x at the set points of mask, packed to the bottom (BMI2 pext).
static inline Bits db_compress(Bits x, Bits mask) {
#ifdef __BMI2__
    return _pext_u32(x, mask);
#else
    Bits r = 0;
    for (Bits bit = 1; mask; mask &= mask - 1, bit <<= 1)
        if (x & mask & -mask)
            r |= bit;
    return r;
#endif
}

// The low bits of x spread over the set points of mask (BMI2 pdep).
static inline Bits db_expand(Bits x, Bits mask) {
#ifdef __BMI2__
    return _pdep_u32(x, mask);
#else
    Bits r = 0;
    for (Bits bit = 1; mask; mask &= mask - 1, bit <<= 1)
        if (x & bit)
            r |= mask & -mask;
    return r;
#endif
}

// Rank of a point set among the sets of its size in colex order (= numeric order).
static inline uint64_t db_colex_rank(Bits x) {
    uint64_t r = 0;
    for (int j = 1; x; j++)
        r += db_binom[bits_pop(&x)][j];
    return r;
}

// The next set with as many points in numeric order (Gosper); x must not be empty.
static inline Bits db_next_set(Bits x) {
    Bits c = x & -x, r = x + c;
    return (((r ^ x) >> 2) / c) | r;
}

static inline uint64_t db_state_key(Bits own, Bits opp) { return (uint64_t)own << 32 | opp; }

// Map (own, opp) to the least pair of its orbit.
static inline void db_canonicalize(const Symmetries *s, Bits *own, Bits *opp) {
    uint64_t best = db_state_key(*own, *opp);
    for (int g = 1; g < s->n; g++) {
        uint64_t k = db_state_key(symmetry_apply(s, g, *own), symmetry_apply(s, g, *opp));
        if (k < best)
            best = k;
    }
    *own = (Bits)(best >> 32);
    *opp = (Bits)best;
}

static inline uint64_t db_raw_index(const SolveDb *db, const SubDb *s, Bits own, Bits opp) {
    Bits all = (Bits)((1ull << db->npoints) - 1);
    return db_colex_rank(own) * s->opp_count + db_colex_rank(db_compress(opp, all & ~own));
}

static inline uint64_t db_canonical_rank(const SubDb *s, uint64_t raw) {
    uint64_t w = s->bits[raw >> 6] & ((1ull << (raw & 63)) - 1);
    return s->prefix[raw >> 6] + (uint64_t)__builtin_popcountll(w);
}

// The position of (own, opp) in the value array; the state must be canonical and stored.
static inline uint64_t db_value_index(const SolveDb *db, const SubDb *s, Bits own, Bits opp) {
    uint64_t raw = db_raw_index(db, s, own, opp);
    assert(s->bits[raw >> 6] >> (raw & 63) & 1);
    return s->offset + db_canonical_rank(s, raw);
}

static inline const SubDb *db_find_sub(const SolveDb *db, int a, int b, int ha, int hb) {
    if (a > SOLVE_MAX_MEN || b > SOLVE_MAX_MEN || ha > SOLVE_MAX_MEN || hb > SOLVE_MAX_MEN)
        return NULL;
    int i = db->id[ha][hb][a][b];
    return i < 0 ? NULL : &db->sub[i];
}

static inline uint16_t db_load_value(const SolveDb *db, uint64_t i) {
    return atomic_load_explicit(&db->val[i], memory_order_relaxed);
}

static inline void db_store_value(SolveDb *db, uint64_t i, uint16_t v) {
    atomic_store_explicit(&db->val[i], v, memory_order_relaxed);
}

static inline size_t db_bitmap_words(const SubDb *s) { return (size_t)((s->raw + 63) / 64); }

// The set of k points of rank r in colex order.
Bits db_colex_unrank(uint64_t r, int k);

// True when the rules can be solved: the whole game of a variant of the 9-, 16- or 17-point
// board (max_men 0), or the moving phase of a variant where a mill removes, up to max_men men
// a side (3 to SOLVE_MAX_MEN; the 24-point variants); else say why.
bool solve_supported(const MillRules *rules, int max_men, Error *err);

// An empty database for the rules: its sub-databases laid out, not yet indexed.
SolveDb *db_create(const MillRules *rules, bool unfolded, int max_men);

// Index every sub-database with this many threads and lay out the value array.
bool db_index_all(SolveDb *db, int threads, Error *err);

// The processors online (1 to 256).
int db_online_threads(void);

// The rules the database was solved under.
const MillRules *solve_rules(const SolveDb *db);

void solve_free(SolveDb *db);

#endif
