#include "engine/mill/solve_db.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint64_t db_binom[MAX_POINTS + 1][MAX_POINTS + 1];
static pthread_once_t binom_once = PTHREAD_ONCE_INIT;

static void init_binom(void) {
    for (int n = 0; n <= MAX_POINTS; n++) {
        db_binom[n][0] = 1;
        for (int k = 1; k <= n; k++)
            db_binom[n][k] = db_binom[n - 1][k - 1] + (k <= n - 1 ? db_binom[n - 1][k] : 0);
    }
}

// The set of k points of rank r in colex order.
Bits db_colex_unrank(uint64_t r, int k) {
    Bits x = 0;
    for (int j = k; j >= 1; j--) {
        int p = j - 1;
        while (db_binom[p + 1][j] <= r)
            p++;
        x |= BIT(p);
        r -= db_binom[p][j];
    }
    return x;
}

// True when no symmetry maps (own, opp) to a smaller pair.
static bool is_canonical(const Symmetries *s, Bits own, Bits opp) {
    uint64_t k = db_state_key(own, opp);
    for (int g = 1; g < s->n; g++)
        if (db_state_key(symmetry_apply(s, g, own), symmetry_apply(s, g, opp)) < k)
            return false;
    return true;
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
    s->opp_count = db_binom[db->npoints - a][b];
    s->raw = db_binom[db->npoints][a] * s->opp_count;
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
    int cap = DB_HANDS * DB_HANDS * DB_HANDS * 2;
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
    for (uint64_t i = 0; i < db_binom[n][s->a]; i++, own = s->a ? db_next_set(own) : 0) {
        Bits free = all & ~own;
        Bits packed = s->b ? (Bits)((1ull << s->b) - 1) : 0;
        for (uint64_t j = 0; j < s->opp_count; j++, raw++, packed = s->b ? db_next_set(packed) : 0)
            if (is_canonical(&db->sym, own, db_expand(packed, free)))
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

int db_online_threads(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

// Index every sub-database and lay out the value array.
bool db_index_all(SolveDb *db, int threads, Error *err) {
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

SolveDb *db_create(const MillRules *rules, bool unfolded, int max_men) {
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
