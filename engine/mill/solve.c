#include "engine/mill/solve.h"

#include "engine/core/clock.h"
#include "engine/mill/movegen.h"
#include "engine/mill/symmetry.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef __BMI2__
#include <immintrin.h>
#endif

// A stored value: 0 draw (or not yet resolved while solving), else a flag and the distance.
#define V_WIN 0x4000u
#define V_LOSS 0x8000u
#define V_DIST 0x3fffu
#define NO_DIST 0xffffu

#define HANDS (SOLVE_MAX_MEN + 1)
#define FILE_MAGIC "TABSOLV1"
#define FILE_VERSION 1u
#define RECORD_MAGIC 0x44425553u // "SUBD"
#define ENDIAN_MARK 0x01020304u

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

struct SolveDb {
    MillRules rules;
    Symmetries sym;
    int npoints;
    int max_men; // the moving phase only, up to this many men a side; 0: the whole game
    int nsub;
    SubDb *sub; // in solving order, the members of a group next to each other
    int16_t id[HANDS][HANDS][HANDS][HANDS]; // [ha][hb][a][b] -> sub index, -1 none
    uint64_t total;
    _Atomic uint16_t *val;
};

typedef struct FileHeader {
    char magic[8];
    uint32_t version, endian;
    char variant[16];
    uint8_t flying, remove_from_mills, removal_per_mill, unfolded;
    uint32_t nsub, nsym;
    uint32_t max_men; // in what was padding: files of the whole game read 0
    uint64_t total;
} FileHeader;

typedef struct RecordHeader {
    uint32_t magic;
    int8_t a, b, ha, hb;
    uint64_t count, raw;
} RecordHeader;

static uint64_t binom[MAX_POINTS + 1][MAX_POINTS + 1];
static pthread_once_t binom_once = PTHREAD_ONCE_INIT;

static void init_binom(void) {
    for (int n = 0; n <= MAX_POINTS; n++) {
        binom[n][0] = 1;
        for (int k = 1; k <= n; k++)
            binom[n][k] = binom[n - 1][k - 1] + (k <= n - 1 ? binom[n - 1][k] : 0);
    }
}

// The bits of x at the set points of mask, packed to the bottom (BMI2 pext).
static inline Bits compress(Bits x, Bits mask) {
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
static inline Bits expand(Bits x, Bits mask) {
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
static inline uint64_t colex_rank(Bits x) {
    uint64_t r = 0;
    for (int j = 1; x; j++)
        r += binom[bits_pop(&x)][j];
    return r;
}

// The set of k points of rank r in colex order.
static Bits colex_unrank(uint64_t r, int k) {
    Bits x = 0;
    for (int j = k; j >= 1; j--) {
        int p = j - 1;
        while (binom[p + 1][j] <= r)
            p++;
        x |= BIT(p);
        r -= binom[p][j];
    }
    return x;
}

// The next set with as many points in numeric order (Gosper); x must not be empty.
static inline Bits next_set(Bits x) {
    Bits c = x & -x, r = x + c;
    return (((r ^ x) >> 2) / c) | r;
}

static inline uint64_t state_key(Bits own, Bits opp) { return (uint64_t)own << 32 | opp; }

// True when no symmetry maps (own, opp) to a smaller pair.
static bool is_canonical(const Symmetries *s, Bits own, Bits opp) {
    uint64_t k = state_key(own, opp);
    for (int g = 1; g < s->n; g++)
        if (state_key(symmetry_apply(s, g, own), symmetry_apply(s, g, opp)) < k)
            return false;
    return true;
}

// Map (own, opp) to the least pair of its orbit.
static void canonicalize(const Symmetries *s, Bits *own, Bits *opp) {
    uint64_t best = state_key(*own, *opp);
    for (int g = 1; g < s->n; g++) {
        uint64_t k = state_key(symmetry_apply(s, g, *own), symmetry_apply(s, g, *opp));
        if (k < best)
            best = k;
    }
    *own = (Bits)(best >> 32);
    *opp = (Bits)best;
}

static inline uint64_t raw_index(const SolveDb *db, const SubDb *s, Bits own, Bits opp) {
    Bits all = (Bits)((1ull << db->npoints) - 1);
    return colex_rank(own) * s->opp_count + colex_rank(compress(opp, all & ~own));
}

static inline uint64_t canonical_rank(const SubDb *s, uint64_t raw) {
    uint64_t w = s->bits[raw >> 6] & ((1ull << (raw & 63)) - 1);
    return s->prefix[raw >> 6] + (uint64_t)__builtin_popcountll(w);
}

// The position of (own, opp) in the value array; the state must be canonical and stored.
static inline uint64_t value_index(const SolveDb *db, const SubDb *s, Bits own, Bits opp) {
    uint64_t raw = raw_index(db, s, own, opp);
    assert(s->bits[raw >> 6] >> (raw & 63) & 1);
    return s->offset + canonical_rank(s, raw);
}

static const SubDb *find_sub(const SolveDb *db, int a, int b, int ha, int hb) {
    if (a > SOLVE_MAX_MEN || b > SOLVE_MAX_MEN || ha > SOLVE_MAX_MEN || hb > SOLVE_MAX_MEN)
        return NULL;
    int i = db->id[ha][hb][a][b];
    return i < 0 ? NULL : &db->sub[i];
}

// ---------------------------------------------------------------------------------------------
// Layout: which sub-databases exist and in which order they are solved.

bool solve_supported(const MillRules *r, int max_men, Error *err) {
    const Variant *v = r->variant;
    if (max_men) {
        if (v->mill_wins)
            return error_set(err, "--men applies to the variants where a mill removes, not %s",
                             v->id);
        if (max_men < 3 || max_men > SOLVE_MAX_MEN || max_men > v->men)
            return error_set(err, "--men takes a number from 3 to %d",
                             v->men < SOLVE_MAX_MEN ? v->men : SOLVE_MAX_MEN);
        return true; // the moving phase plays the same in every variant, lasker's included
    }
    if (v->board == BOARD_24)
        return error_set(err,
                         "%s is played on the 24-point board; the solver handles the whole "
                         "game on the 9-, 16- and 17-point boards, and the moving phase of the "
                         "24-point variants with --men",
                         v->id);
    if (v->lasker || v->men > SOLVE_MAX_MEN)
        return error_set(err, "the solver does not handle the rules of %s", v->id);
    return true;
}

static void add_sub(SolveDb *db, int a, int b, int ha, int hb, int group) {
    SubDb *s = &db->sub[db->nsub];
    memset(s, 0, sizeof *s);
    s->a = a, s->b = b, s->ha = ha, s->hb = hb, s->group = group;
    s->opp_count = binom[db->npoints - a][b];
    s->raw = binom[db->npoints][a] * s->opp_count;
    db->id[ha][hb][a][b] = (int16_t)db->nsub++;
}

// The men on the board a side can have with h in hand: all placed men where mills win, else
// down to the fewest that do not lose at once.
static void board_range(const SolveDb *db, int h, int *lo, int *hi) {
    int men = db->rules.variant->men;
    *hi = db->max_men ? db->max_men : men - h;
    *lo = db->rules.variant->mill_wins ? men - h : (3 - h > 0 ? 3 - h : 0);
}

// List the sub-databases in solving order.
static void layout(SolveDb *db) {
    int men = db->rules.variant->men, n = db->npoints, group = 0;
    int cap = HANDS * HANDS * HANDS * 2;
    db->sub = calloc((size_t)cap, sizeof *db->sub);
    memset(db->id, -1, sizeof db->id);
    for (int t = 0; t <= (db->max_men ? 0 : 2 * men); t++) {
        int ha = (t + 1) / 2, hb = t / 2, alo, ahi, blo, bhi;
        board_range(db, ha, &alo, &ahi);
        board_range(db, hb, &blo, &bhi);
        if (t == 0) {
            // Moving phase: (a, b) with (b, a), by men on the board ascending.
            for (int sum = alo + blo; sum <= ahi + bhi; sum++)
                for (int a = alo; a <= ahi; a++) {
                    int b = sum - a;
                    if (b < a || b < blo || b > bhi || a + b > n)
                        continue;
                    add_sub(db, a, b, 0, 0, group);
                    if (b != a)
                        add_sub(db, b, a, 0, 0, group);
                    group++;
                }
            continue;
        }
        for (int a = alo; a <= ahi; a++)
            for (int b = blo; b <= bhi; b++)
                if (a + b <= n)
                    add_sub(db, a, b, ha, hb, group++);
    }
    assert(db->nsub <= cap);
}

// ---------------------------------------------------------------------------------------------
// Index bitmaps, built by several threads, one sub-database at a time each.

typedef struct IndexJob {
    SolveDb *db;
    atomic_int next;
    int first, last; // sub-databases to index: [first, last)
} IndexJob;

// Mark the canonical states of one sub-database.
static void index_sub(SolveDb *db, SubDb *s) {
    int n = db->npoints;
    Bits all = (Bits)((1ull << n) - 1);
    size_t words = (size_t)((s->raw + 63) / 64);
    s->bits = calloc(words ? words : 1, sizeof *s->bits);
    s->prefix = calloc(words ? words : 1, sizeof *s->prefix);
    uint64_t raw = 0;
    Bits own = s->a ? (Bits)((1ull << s->a) - 1) : 0;
    for (uint64_t i = 0; i < binom[n][s->a]; i++, own = s->a ? next_set(own) : 0) {
        Bits free = all & ~own;
        Bits packed = s->b ? (Bits)((1ull << s->b) - 1) : 0;
        for (uint64_t j = 0; j < s->opp_count; j++, raw++, packed = s->b ? next_set(packed) : 0)
            if (is_canonical(&db->sym, own, expand(packed, free)))
                s->bits[raw >> 6] |= 1ull << (raw & 63);
    }
    uint64_t count = 0;
    for (size_t w = 0; w < words; w++) {
        s->prefix[w] = (uint32_t)count;
        count += (uint64_t)__builtin_popcountll(s->bits[w]);
    }
    s->count = count;
}

static void *index_worker(void *arg) {
    IndexJob *job = arg;
    for (int i; (i = atomic_fetch_add(&job->next, 1) + job->first) < job->last;)
        index_sub(job->db, &job->db->sub[i]);
    return NULL;
}

static int online_threads(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

// Index every sub-database and lay out the value array.
static bool index_all(SolveDb *db, int threads, Error *err) {
    IndexJob job = {.db = db, .first = 0, .last = db->nsub};
    atomic_init(&job.next, 0);
    pthread_t tid[256];
    int started = 0;
    for (; started < threads - 1; started++)
        if (pthread_create(&tid[started], NULL, index_worker, &job))
            break;
    index_worker(&job);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    db->total = 0;
    for (int i = 0; i < db->nsub; i++) {
        if (!db->sub[i].bits || !db->sub[i].prefix)
            return error_set(err, "out of memory for the index");
        db->sub[i].offset = db->total;
        db->total += db->sub[i].count;
    }
    if (db->total >= UINT32_MAX)
        return error_set(err, "%llu positions: too many for this solver",
                         (unsigned long long)db->total);
    db->val = calloc(db->total ? db->total : 1, sizeof *db->val);
    if (!db->val)
        return error_set(err, "out of memory for %llu values", (unsigned long long)db->total);
    return true;
}

static SolveDb *db_create(const MillRules *rules, bool unfolded, int max_men) {
    pthread_once(&binom_once, init_binom);
    SolveDb *db = calloc(1, sizeof *db);
    if (!db)
        return NULL;
    db->rules = *rules;
    db->max_men = max_men;
    db->npoints = rules->board->npoints;
    if (unfolded)
        symmetry_init_identity(&db->sym, rules->board);
    else
        symmetry_init(&db->sym, rules->board, rules->flying && rules->variant->fly_always);
    Position start;
    pos_set_start(&start, &db->rules); // makes sure the position keys exist
    layout(db);
    return db;
}

void solve_free(SolveDb *db) {
    if (!db)
        return;
    for (int i = 0; i < db->nsub; i++) {
        free(db->sub[i].bits);
        free(db->sub[i].prefix);
    }
    free(db->sub);
    free((void *)db->val);
    free(db);
}

const MillRules *solve_rules(const SolveDb *db) { return &db->rules; }

// ---------------------------------------------------------------------------------------------
// Solving one group.

typedef struct Group {
    int first, last; // its sub-databases
    uint64_t lo, hi; // its values
    Bits *own, *opp; // its states, in value order
    int16_t *sub;    // the sub-database of each
} Group;

// A state still open after its moves were generated: what its children outside the group
// say, and where its children inside the group are.
typedef struct Pending {
    uint32_t index;
    uint16_t ext_loss; // least distance of a child lost for its mover, NO_DIST for none
    uint16_t ext_win;  // greatest distance of a child won for its mover
    uint8_t ext_draw;  // a child is drawn
    uint16_t nedges;   // its children inside the group,
    uint32_t edges;    // from this one on in the worker's edge list
} Pending;

typedef struct Worker {
    SolveDb *db;
    const Group *grp;
    uint64_t lo, hi; // the group's states this worker generates
    Pending *pend;
    size_t npend, pcap;
    uint32_t *edge;
    size_t nedges, ecap;
    uint16_t max_ext;
    int pass;
    bool changed, oom;
    atomic_uint_fast64_t done;
    Move *moves;
} Worker;

static bool push_edge(Worker *w, uint32_t e) {
    if (w->nedges == w->ecap) {
        size_t cap = w->ecap ? 2 * w->ecap : 1 << 16;
        uint32_t *p = realloc(w->edge, cap * sizeof *p);
        if (!p)
            return false;
        w->edge = p, w->ecap = cap;
    }
    w->edge[w->nedges++] = e;
    return true;
}

static bool push_pending(Worker *w, const Pending *pd) {
    if (w->npend == w->pcap) {
        size_t cap = w->pcap ? 2 * w->pcap : 1 << 12;
        Pending *p = realloc(w->pend, cap * sizeof *p);
        if (!p)
            return false;
        w->pend = p, w->pcap = cap;
    }
    w->pend[w->npend++] = *pd;
    return true;
}

static inline uint16_t load_value(const SolveDb *db, uint64_t i) {
    return atomic_load_explicit(&db->val[i], memory_order_relaxed);
}

static inline void store_value(SolveDb *db, uint64_t i, uint16_t v) {
    atomic_store_explicit(&db->val[i], v, memory_order_relaxed);
}

// The stored value of an outcome of rules 1-3, for the side to move.
static uint16_t outcome_value(Outcome o) {
    return o == OUTCOME_LOSS ? V_LOSS : o == OUTCOME_WIN ? V_WIN : 0;
}

// Generate the moves of the worker's states: settle those whose children are all outside the
// group, queue the others with their edges.
static void *generate_worker(void *arg) {
    Worker *w = arg;
    SolveDb *db = w->db;
    const Group *grp = w->grp;
    for (uint64_t i = w->lo; i < w->hi; i++) {
        const SubDb *s = &db->sub[grp->sub[i - grp->lo]];
        Position p = {.men = {grp->own[i - grp->lo], grp->opp[i - grp->lo]},
                      .hand = {s->ha, s->hb},
                      .side = WHITE,
                      .rules = &db->rules};
        Outcome o = pos_outcome(&p);
        int n = o == OUTCOME_NONE ? movegen_legal_ongoing(&p, w->moves) : 0;
        if (o != OUTCOME_NONE || n == 0) {
            store_value(db, i, o == OUTCOME_NONE ? V_LOSS : outcome_value(o));
            atomic_fetch_add_explicit(&w->done, 1, memory_order_relaxed);
            continue;
        }
        Pending pd = {(uint32_t)i, NO_DIST, 0, 0, 0, (uint32_t)w->nedges};
        size_t edges0 = w->nedges;
        for (int k = 0; k < n; k++) {
            Undo u;
            pos_do_move(&p, w->moves[k], &u);
            uint16_t v;
            Outcome co = pos_outcome(&p);
            if (co != OUTCOME_NONE) {
                v = outcome_value(co);
            } else {
                Bits own = p.men[BLACK], opp = p.men[WHITE];
                const SubDb *c =
                    find_sub(db, bits_count(own), bits_count(opp), p.hand[BLACK], p.hand[WHITE]);
                assert(c);
                canonicalize(&db->sym, &own, &opp);
                uint64_t ci = value_index(db, c, own, opp);
                if (c->group == s->group) {
                    pos_undo_move(&p, w->moves[k], &u);
                    if (!push_edge(w, (uint32_t)ci))
                        w->oom = true;
                    continue;
                }
                assert(c->done);
                v = load_value(db, ci);
            }
            pos_undo_move(&p, w->moves[k], &u);
            if (v & V_LOSS) {
                if ((v & V_DIST) < pd.ext_loss)
                    pd.ext_loss = v & V_DIST;
            } else if (v & V_WIN) {
                if ((v & V_DIST) > pd.ext_win)
                    pd.ext_win = v & V_DIST;
            } else {
                pd.ext_draw = 1;
            }
        }
        if (w->nedges == edges0) {
            // Every child is settled: the value follows at once.
            uint16_t v = pd.ext_loss != NO_DIST ? (uint16_t)(V_WIN | (pd.ext_loss + 1))
                         : pd.ext_draw          ? 0
                                                : (uint16_t)(V_LOSS | (pd.ext_win + 1));
            store_value(db, i, v);
        } else {
            pd.nedges = (uint16_t)(w->nedges - edges0);
            uint16_t ext = pd.ext_loss != NO_DIST ? pd.ext_loss : pd.ext_win;
            if (ext > w->max_ext)
                w->max_ext = ext;
            if (!push_pending(w, &pd))
                w->oom = true;
        }
        atomic_fetch_add_explicit(&w->done, 1, memory_order_relaxed);
    }
    return NULL;
}

// One pass of the iteration over the worker's open states: settle those decided in `pass`
// plies, and drop them from the list.
static void *pass_worker(void *arg) {
    Worker *w = arg;
    SolveDb *db = w->db;
    unsigned k = (unsigned)w->pass;
    size_t kept = 0;
    w->changed = false;
    for (size_t i = 0; i < w->npend; i++) {
        const Pending *pd = &w->pend[i];
        bool win = pd->ext_loss < k;
        bool loss = !win && !pd->ext_draw && pd->ext_loss == NO_DIST && pd->ext_win < k;
        for (size_t e = pd->edges; e < pd->edges + pd->nedges && !win; e++) {
            uint16_t v = load_value(db, w->edge[e]);
            if (v & V_LOSS && (v & V_DIST) < k)
                win = true;
            else if (!(v & V_WIN && (v & V_DIST) < k))
                loss = false;
        }
        if (win || loss) {
            store_value(db, pd->index, (uint16_t)((win ? V_WIN : V_LOSS) | k));
            w->changed = true;
        } else {
            w->pend[kept++] = *pd;
        }
    }
    w->npend = kept;
    return NULL;
}

typedef struct Runner {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int left;
    void *(*fn)(void *);
} Runner;

typedef struct RunArg {
    Runner *r;
    void *arg;
} RunArg;

static void *run_one(void *p) {
    RunArg *ra = p;
    ra->r->fn(ra->arg);
    pthread_mutex_lock(&ra->r->lock);
    ra->r->left--;
    pthread_cond_signal(&ra->r->cond);
    pthread_mutex_unlock(&ra->r->lock);
    return NULL;
}

typedef struct Build {
    SolveDb *db;
    const SolveOptions *opt;
    int threads;
    int64_t t0;
    uint64_t done, resumed;
    Worker *workers;
    int a, b, ha, hb, pass;
    int64_t synced; // when the file was last forced to disk
} Build;

static void report(Build *bd) {
    if (!bd->opt->progress)
        return;
    uint64_t done = bd->done;
    if (bd->pass == 0)
        for (int t = 0; t < bd->threads; t++)
            done += atomic_load(&bd->workers[t].done);
    SolveProgress pr = {done,   bd->db->total, bd->resumed,
                        bd->a,  bd->b,         bd->ha,
                        bd->hb, bd->pass,      (double)(clock_now_us() - bd->t0) / 1e6};
    bd->opt->progress(bd->opt->ctx, &pr);
}

// Run fn on every worker, one thread each, reporting progress while waiting.
static void run_workers(Build *bd, void *(*fn)(void *), bool progress) {
    Runner r = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, bd->threads, fn};
    pthread_t tid[256];
    RunArg args[256];
    bool started[256];
    for (int t = 0; t < bd->threads; t++) {
        args[t] = (RunArg){&r, &bd->workers[t]};
        started[t] = t > 0 && !pthread_create(&tid[t], NULL, run_one, &args[t]);
    }
    for (int t = 1; t < bd->threads; t++)
        if (!started[t])
            run_one(&args[t]);
    run_one(&args[0]);
    pthread_mutex_lock(&r.lock);
    while (r.left > 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 250000000;
        if (ts.tv_nsec >= 1000000000)
            ts.tv_sec++, ts.tv_nsec -= 1000000000;
        pthread_cond_timedwait(&r.cond, &r.lock, &ts);
        if (progress && r.left > 0) {
            pthread_mutex_unlock(&r.lock);
            report(bd);
            pthread_mutex_lock(&r.lock);
        }
    }
    pthread_mutex_unlock(&r.lock);
    for (int t = 1; t < bd->threads; t++)
        if (started[t])
            pthread_join(tid[t], NULL);
}

// List the states of a group in value order.
static bool group_states(const SolveDb *db, Group *g) {
    size_t n = (size_t)(g->hi - g->lo);
    g->own = malloc((n ? n : 1) * sizeof *g->own);
    g->opp = malloc((n ? n : 1) * sizeof *g->opp);
    g->sub = malloc((n ? n : 1) * sizeof *g->sub);
    if (!g->own || !g->opp || !g->sub)
        return false;
    Bits all = (Bits)((1ull << db->npoints) - 1);
    size_t k = 0;
    for (int si = g->first; si < g->last; si++) {
        const SubDb *s = &db->sub[si];
        uint64_t raw = 0;
        Bits own = s->a ? (Bits)((1ull << s->a) - 1) : 0;
        for (uint64_t i = 0; i < binom[db->npoints][s->a]; i++, own = s->a ? next_set(own) : 0) {
            Bits packed = s->b ? (Bits)((1ull << s->b) - 1) : 0;
            for (uint64_t j = 0; j < s->opp_count; j++, raw++, packed = s->b ? next_set(packed) : 0)
                if (s->bits[raw >> 6] >> (raw & 63) & 1) {
                    g->own[k] = own;
                    g->opp[k] = expand(packed, all & ~own);
                    g->sub[k++] = (int16_t)si;
                }
        }
    }
    assert(k == n);
    return true;
}

static void group_free(Group *g) {
    free(g->own);
    free(g->opp);
    free(g->sub);
}

// Solve one group: generate, then iterate until a pass past every outside distance settles
// nothing more; the states left open are draws.
static bool solve_group(Build *bd, Group *g, Error *err) {
    SolveDb *db = bd->db;
    if (!group_states(db, g)) {
        group_free(g);
        return error_set(err, "out of memory listing the states");
    }
    uint64_t n = g->hi - g->lo;
    for (int t = 0; t < bd->threads; t++) {
        Worker *w = &bd->workers[t];
        w->grp = g;
        w->lo = g->lo + n * (uint64_t)t / (uint64_t)bd->threads;
        w->hi = g->lo + n * (uint64_t)(t + 1) / (uint64_t)bd->threads;
        w->npend = w->nedges = 0;
        w->max_ext = 0;
        w->oom = false;
        atomic_store(&w->done, 0);
    }
    bd->pass = 0;
    run_workers(bd, generate_worker, true);
    group_free(g);
    uint16_t max_ext = 0;
    size_t open = 0;
    for (int t = 0; t < bd->threads; t++) {
        if (bd->workers[t].oom)
            return error_set(err, "out of memory for the moves of a group");
        if (bd->workers[t].max_ext > max_ext)
            max_ext = bd->workers[t].max_ext;
        open += bd->workers[t].npend;
    }
    for (int k = 1; open; k++) {
        if (k >= (int)V_DIST)
            return error_set(err, "distances beyond %u plies", V_DIST);
        bool changed = false;
        bd->pass = k;
        for (int t = 0; t < bd->threads; t++)
            bd->workers[t].pass = k;
        run_workers(bd, pass_worker, false);
        open = 0;
        for (int t = 0; t < bd->threads; t++) {
            changed |= bd->workers[t].changed;
            open += bd->workers[t].npend;
        }
        if (!changed && k > max_ext)
            break;
        if (k % 16 == 0)
            report(bd);
    }
    bd->done += n;
    for (int t = 0; t < bd->threads; t++)
        atomic_store(&bd->workers[t].done, 0);
    return true;
}

// ---------------------------------------------------------------------------------------------
// The file: a header, the state count of every sub-database, then one record per solved
// sub-database (its index bitmap and its values), appended a group at a time.

static void fill_header(const SolveDb *db, FileHeader *h) {
    memset(h, 0, sizeof *h);
    memcpy(h->magic, FILE_MAGIC, sizeof h->magic);
    h->version = FILE_VERSION;
    h->endian = ENDIAN_MARK;
    snprintf(h->variant, sizeof h->variant, "%s", db->rules.variant->id);
    h->flying = db->rules.flying;
    h->remove_from_mills = db->rules.remove_from_mills;
    h->removal_per_mill = db->rules.removal_per_mill;
    h->unfolded = db->sym.n == 1;
    h->nsub = (uint32_t)db->nsub;
    h->nsym = (uint32_t)db->sym.n;
    h->max_men = (uint32_t)db->max_men;
    h->total = db->total;
}

static bool write_all(FILE *f, const void *p, size_t n) { return fwrite(p, 1, n, f) == n; }

static bool read_all(FILE *f, void *p, size_t n) { return fread(p, 1, n, f) == n; }

static bool write_start(const SolveDb *db, FILE *f) {
    FileHeader h;
    fill_header(db, &h);
    if (!write_all(f, &h, sizeof h))
        return false;
    for (int i = 0; i < db->nsub; i++)
        if (!write_all(f, &db->sub[i].count, sizeof db->sub[i].count))
            return false;
    return fflush(f) == 0;
}

static size_t bitmap_words(const SubDb *s) { return (size_t)((s->raw + 63) / 64); }

// Append the records of a solved group. They reach the kernel at once, so that a killed build
// resumes from them; the disk every few seconds (sync), since an fsync per small group would
// cost more than solving it.
static bool write_group(const SolveDb *db, FILE *f, int first, int last, bool sync) {
    for (int i = first; i < last; i++) {
        const SubDb *s = &db->sub[i];
        RecordHeader r = {RECORD_MAGIC,  (int8_t)s->a, (int8_t)s->b, (int8_t)s->ha,
                          (int8_t)s->hb, s->count,     s->raw};
        if (!write_all(f, &r, sizeof r) ||
            !write_all(f, s->bits, bitmap_words(s) * sizeof *s->bits) ||
            !write_all(f, (const void *)(db->val + s->offset), s->count * sizeof *db->val))
            return false;
    }
    return fflush(f) == 0 && (!sync || fsync(fileno(f)) == 0);
}

// Read the records that follow the header, as far as whole groups go; with check, the bitmaps
// must be the ones already built, else they are taken from the file. Returns the offset after
// the last whole group.
static long read_groups(SolveDb *db, FILE *f, bool check, uint64_t *positions) {
    long good = ftell(f);
    *positions = 0;
    uint64_t *tmp = NULL;
    int group_first = 0;
    for (int i = 0; i < db->nsub; i++) {
        SubDb *s = &db->sub[i];
        RecordHeader r;
        if (!read_all(f, &r, sizeof r) || r.magic != RECORD_MAGIC || r.a != s->a || r.b != s->b ||
            r.ha != s->ha || r.hb != s->hb || r.count != s->count || r.raw != s->raw)
            break;
        size_t words = bitmap_words(s);
        if (check) {
            uint64_t *t = realloc(tmp, (words ? words : 1) * sizeof *t);
            if (!t)
                break;
            tmp = t;
            if (!read_all(f, tmp, words * sizeof *tmp) || memcmp(tmp, s->bits, words * sizeof *tmp))
                break;
        } else {
            s->bits = malloc((words ? words : 1) * sizeof *s->bits);
            s->prefix = malloc((words ? words : 1) * sizeof *s->prefix);
            if (!s->bits || !s->prefix || !read_all(f, s->bits, words * sizeof *s->bits))
                break;
            uint64_t count = 0;
            for (size_t w = 0; w < words; w++) {
                s->prefix[w] = (uint32_t)count;
                count += (uint64_t)__builtin_popcountll(s->bits[w]);
            }
            if (count != s->count)
                break;
        }
        if (!read_all(f, (void *)(db->val + s->offset), s->count * sizeof *db->val))
            break;
        if (i + 1 == db->nsub || db->sub[i + 1].group != s->group) {
            for (int k = group_first; k <= i; k++) {
                db->sub[k].done = true;
                *positions += db->sub[k].count;
            }
            group_first = i + 1;
            good = ftell(f);
        }
    }
    free(tmp);
    // Values read for an incomplete group are solved again; clear them.
    for (int k = group_first; k < db->nsub; k++)
        if (!db->sub[k].done)
            memset((void *)(db->val + db->sub[k].offset), 0, db->sub[k].count * sizeof *db->val);
    return good;
}

// Open the database file: resume the groups it holds, or start it.
static FILE *open_output(SolveDb *db, const char *path, uint64_t *resumed, Error *err) {
    *resumed = 0;
    FILE *f = fopen(path, "r+b");
    if (f) {
        FileHeader want, got;
        fill_header(db, &want);
        if (read_all(f, &got, sizeof got)) {
            if (memcmp(&want, &got, sizeof want)) {
                fclose(f);
                error_set(err,
                          "%s holds another database (variant, rules or format); remove it "
                          "or choose another file",
                          path);
                return NULL;
            }
            bool same = true;
            for (int i = 0; i < db->nsub && same; i++) {
                uint64_t c;
                same = read_all(f, &c, sizeof c) && c == db->sub[i].count;
            }
            if (!same) {
                fclose(f);
                error_set(err, "%s holds another database; remove it or choose another file", path);
                return NULL;
            }
            long good = read_groups(db, f, true, resumed);
            if (fflush(f) || ftruncate(fileno(f), good) || fseek(f, good, SEEK_SET)) {
                error_set(err, "%s: %s", path, strerror(errno));
                fclose(f);
                return NULL;
            }
            return f;
        }
        fclose(f); // empty or cut inside the header: start again
    }
    f = fopen(path, "w+b");
    if (!f || !write_start(db, f)) {
        error_set(err, "cannot write %s: %s", path, strerror(errno));
        if (f)
            fclose(f);
        return NULL;
    }
    return f;
}

SolveDb *solve_build(const MillRules *rules, const SolveOptions *opt, Error *err) {
    if (!solve_supported(rules, opt->max_men, err))
        return NULL;
    SolveDb *db = db_create(rules, opt->unfolded, opt->max_men);
    if (!db) {
        error_set(err, "out of memory");
        return NULL;
    }
    int threads = opt->threads > 0 ? (opt->threads > 256 ? 256 : opt->threads) : online_threads();
    Build bd = {.db = db, .opt = opt, .threads = threads, .t0 = clock_now_us()};
    bd.synced = bd.t0;
    FILE *f = NULL;
    bool ok = index_all(db, threads, err);
    if (ok && opt->path) {
        f = open_output(db, opt->path, &bd.resumed, err);
        ok = f != NULL;
    }
    bd.done = bd.resumed;
    bd.workers = calloc((size_t)threads, sizeof *bd.workers);
    ok = ok && bd.workers;
    for (int t = 0; ok && t < threads; t++) {
        bd.workers[t].db = db;
        bd.workers[t].moves = malloc(MAX_MOVES * sizeof(Move));
        ok = bd.workers[t].moves != NULL;
    }
    for (int first = 0, last; ok && first < db->nsub; first = last) {
        for (last = first + 1; last < db->nsub && db->sub[last].group == db->sub[first].group;)
            last++;
        if (db->sub[first].done)
            continue;
        const SubDb *s = &db->sub[first];
        Group g = {first, last, s->offset, db->sub[last - 1].offset + db->sub[last - 1].count,
                   NULL,  NULL, NULL};
        bd.a = s->a, bd.b = s->b, bd.ha = s->ha, bd.hb = s->hb;
        int64_t t0 = clock_now_us();
        ok = solve_group(&bd, &g, err);
        for (int i = first; ok && i < last; i++) {
            db->sub[i].done = true;
            db->sub[i].seconds = (double)(clock_now_us() - t0) / 1e6;
        }
        bool sync = clock_now_us() - bd.synced > 5000000 || last == db->nsub;
        if (ok && f && !write_group(db, f, first, last, sync))
            ok = error_set(err, "cannot write %s: %s", opt->path, strerror(errno));
        if (sync)
            bd.synced = clock_now_us();
        if (ok)
            report(&bd);
    }
    if (bd.workers)
        for (int t = 0; t < threads; t++) {
            free(bd.workers[t].moves);
            free(bd.workers[t].pend);
            free(bd.workers[t].edge);
        }
    free(bd.workers);
    if (f && fclose(f) && ok)
        ok = error_set(err, "cannot write %s: %s", opt->path, strerror(errno));
    if (!ok) {
        solve_free(db);
        return NULL;
    }
    return db;
}

SolveDb *solve_load(const char *path, Error *err) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        error_set(err, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    FileHeader h;
    const Variant *v = NULL;
    if (!read_all(f, &h, sizeof h) || memcmp(h.magic, FILE_MAGIC, sizeof h.magic) ||
        h.version != FILE_VERSION || h.endian != ENDIAN_MARK ||
        !memchr(h.variant, 0, sizeof h.variant) || !(v = variant_find(h.variant))) {
        fclose(f);
        error_set(err, "%s is not a tabula solve database of this version", path);
        return NULL;
    }
    MillRules rules;
    rules_init(&rules, v);
    rules.flying = h.flying;
    rules.remove_from_mills = h.remove_from_mills;
    rules.removal_per_mill = h.removal_per_mill;
    int max_men = h.max_men <= SOLVE_MAX_MEN ? (int)h.max_men : -1;
    SolveDb *db = max_men >= 0 && solve_supported(&rules, max_men, err)
                      ? db_create(&rules, h.unfolded, max_men)
                      : NULL;
    bool ok = db && (int)h.nsub == db->nsub && (int)h.nsym == db->sym.n;
    for (int i = 0; ok && i < db->nsub; i++) {
        ok = read_all(f, &db->sub[i].count, sizeof db->sub[i].count);
        db->sub[i].offset = db->total;
        db->total += db->sub[i].count;
    }
    ok = ok && db->total == h.total && db->total < UINT32_MAX;
    if (ok)
        ok = (db->val = calloc(db->total ? db->total : 1, sizeof *db->val)) != NULL;
    uint64_t positions;
    if (ok)
        read_groups(db, f, false, &positions);
    fclose(f);
    if (!ok) {
        if (db || max_men < 0)
            error_set(err, "%s is damaged or does not match this version of tabula", path);
        solve_free(db);
        return NULL;
    }
    return db;
}

// ---------------------------------------------------------------------------------------------
// Probing and statistics.

bool solve_rules_match(const SolveDb *db, const MillRules *r) {
    const MillRules *d = &db->rules;
    if (r->flying != d->flying || r->remove_from_mills != d->remove_from_mills ||
        r->removal_per_mill != d->removal_per_mill)
        return false;
    if (!db->max_men)
        return r->variant == d->variant;
    // The moving phase with few men plays alike in every variant of the same board and removal
    // rules: the men each side started with, lasker's moves from the hand and a full board
    // after placing make no difference there.
    return r->board == d->board && r->variant->mill_wins == d->variant->mill_wins &&
           r->variant->fly_always == d->variant->fly_always;
}

int solve_max_men(const SolveDb *db) { return db->max_men; }

int solve_subdbs(const SolveDb *db) { return db->nsub; }

bool solve_sub_stats(const SolveDb *db, int i, SolveSubStats *st) {
    if (i < 0 || i >= db->nsub)
        return false;
    const SubDb *s = &db->sub[i];
    memset(st, 0, sizeof *st);
    st->a = s->a, st->b = s->b, st->ha = s->ha, st->hb = s->hb;
    st->done = s->done;
    st->seconds = s->seconds;
    st->positions = s->count;
    st->raw = s->raw;
    st->bytes =
        s->count * sizeof *db->val + bitmap_words(s) * (sizeof *s->bits + sizeof *s->prefix);
    st->longest_win = -1;
    for (uint64_t k = s->offset; s->done && k < s->offset + s->count; k++) {
        uint16_t v = load_value(db, k);
        if (v & V_WIN) {
            st->wins++;
            if ((int)(v & V_DIST) > st->longest_win)
                st->longest_win = v & V_DIST;
        } else if (v & V_LOSS) {
            st->losses++;
            if ((int)(v & V_DIST) > st->longest_loss)
                st->longest_loss = v & V_DIST;
        } else {
            st->draws++;
        }
    }
    return true;
}

bool solve_probe(const SolveDb *db, const Position *p, int *value, int *distance) {
    if (!solve_rules_match(db, p->rules))
        return false;
    Outcome o = pos_outcome(p);
    if (o != OUTCOME_NONE) {
        *value = o == OUTCOME_WIN ? SOLVE_WIN : o == OUTCOME_LOSS ? SOLVE_LOSS : SOLVE_DRAW;
        *distance = 0;
        return true;
    }
    int us = p->side;
    Bits own = p->men[us], opp = p->men[!us];
    const SubDb *s = find_sub(db, bits_count(own), bits_count(opp), p->hand[us], p->hand[!us]);
    if (!s || !s->done)
        return false;
    canonicalize(&db->sym, &own, &opp);
    uint64_t raw = raw_index(db, s, own, opp);
    if (!(s->bits[raw >> 6] >> (raw & 63) & 1))
        return false; // cannot happen with a database built by this code
    uint16_t v = load_value(db, s->offset + canonical_rank(s, raw));
    *value = v & V_WIN ? SOLVE_WIN : v & V_LOSS ? SOLVE_LOSS : SOLVE_DRAW;
    *distance = v & (V_WIN | V_LOSS) ? (int)(v & V_DIST) : 0;
    return true;
}

uint64_t solve_count(const SolveDb *db) { return db->total; }

bool solve_state(const SolveDb *db, uint64_t i, Position *p) {
    if (i >= db->total)
        return false;
    int lo = 0, hi = db->nsub - 1;
    while (lo < hi) { // the last sub-database starting at or before i
        int mid = (lo + hi + 1) / 2;
        if (db->sub[mid].offset <= i)
            lo = mid;
        else
            hi = mid - 1;
    }
    const SubDb *s = &db->sub[lo];
    if (!s->done)
        return false;
    uint64_t rank = i - s->offset;
    size_t wlo = 0, whi = bitmap_words(s) - 1;
    while (wlo < whi) { // the last word whose prefix is at most rank
        size_t mid = (wlo + whi + 1) / 2;
        if (s->prefix[mid] <= rank)
            wlo = mid;
        else
            whi = mid - 1;
    }
    uint64_t bits = s->bits[wlo];
    for (uint64_t k = rank - s->prefix[wlo]; k; k--)
        bits &= bits - 1;
    uint64_t raw = wlo * 64 + (uint64_t)__builtin_ctzll(bits);
    Bits all = (Bits)((1ull << db->npoints) - 1);
    Bits own = colex_unrank(raw / s->opp_count, s->a);
    Bits opp = expand(colex_unrank(raw % s->opp_count, s->b), all & ~own);
    int us = s->ha == s->hb ? WHITE : BLACK; // Black moves with one man more in hand
    memset(p, 0, sizeof *p);
    p->side = us;
    p->rules = &db->rules;
    p->fullmove = 1;
    p->men[us] = own, p->men[!us] = opp;
    p->hand[us] = s->ha, p->hand[!us] = s->hb;
    p->key = pos_compute_key(p);
    return true;
}

void solve_stats(const SolveDb *db, SolveStats *st) {
    memset(st, 0, sizeof *st);
    st->subdbs = db->nsub;
    st->symmetries = db->sym.n;
    st->longest_win = -1;
    uint64_t longest = 0;
    for (int si = 0; si < db->nsub; si++) {
        const SubDb *s = &db->sub[si];
        st->bytes +=
            s->count * sizeof *db->val + bitmap_words(s) * (sizeof *s->bits + sizeof *s->prefix);
        if (!s->done)
            continue;
        st->positions += s->count;
        for (uint64_t i = s->offset; i < s->offset + s->count; i++) {
            uint16_t v = load_value(db, i);
            if (v & V_WIN) {
                st->wins++;
                if ((int)(v & V_DIST) > st->longest_win)
                    st->longest_win = v & V_DIST, longest = i;
            } else if (v & V_LOSS) {
                st->losses++;
            } else {
                st->draws++;
            }
        }
    }
    Position p;
    if (st->longest_win >= 0 && solve_state(db, longest, &p))
        pos_get_fen(&p, st->longest_fen, sizeof st->longest_fen);
    Position start;
    pos_set_start(&start, &db->rules);
    st->start_value = SOLVE_DRAW;
    st->start_distance = -1;
    if (!solve_probe(db, &start, &st->start_value, &st->start_distance))
        st->start_distance = -1;
}
