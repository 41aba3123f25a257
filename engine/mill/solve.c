#include "engine/mill/solve.h"

#include "engine/core/clock.h"
#include "engine/mill/movegen.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
    uint16_t ext_loss; // least distance of a child lost for its mover, DB_NO_DIST for none
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

// The stored value of an outcome of the position alone (pos_outcome), for the side to move.
static uint16_t outcome_value(Outcome o) {
    return o == OUTCOME_LOSS ? DB_LOSS : o == OUTCOME_WIN ? DB_WIN : 0;
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
            db_store_value(db, i, o == OUTCOME_NONE ? DB_LOSS : outcome_value(o));
            atomic_fetch_add_explicit(&w->done, 1, memory_order_relaxed);
            continue;
        }
        Pending pd = {(uint32_t)i, DB_NO_DIST, 0, 0, 0, (uint32_t)w->nedges};
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
                    db_find_sub(db, bits_count(own), bits_count(opp), p.hand[BLACK], p.hand[WHITE]);
                assert(c);
                db_canonicalize(&db->sym, &own, &opp);
                uint64_t ci = db_value_index(db, c, own, opp);
                if (c->group == s->group) {
                    pos_undo_move(&p, w->moves[k], &u);
                    if (!push_edge(w, (uint32_t)ci))
                        w->oom = true;
                    continue;
                }
                assert(c->done);
                v = db_load_value(db, ci);
            }
            pos_undo_move(&p, w->moves[k], &u);
            if (v & DB_LOSS) {
                if ((v & DB_DIST) < pd.ext_loss)
                    pd.ext_loss = v & DB_DIST;
            } else if (v & DB_WIN) {
                if ((v & DB_DIST) > pd.ext_win)
                    pd.ext_win = v & DB_DIST;
            } else {
                pd.ext_draw = 1;
            }
        }
        if (w->nedges == edges0) {
            // Every child is settled: the value follows at once.
            uint16_t v = pd.ext_loss != DB_NO_DIST ? (uint16_t)(DB_WIN | (pd.ext_loss + 1))
                         : pd.ext_draw             ? 0
                                                   : (uint16_t)(DB_LOSS | (pd.ext_win + 1));
            db_store_value(db, i, v);
        } else {
            pd.nedges = (uint16_t)(w->nedges - edges0);
            uint16_t ext = pd.ext_loss != DB_NO_DIST ? pd.ext_loss : pd.ext_win;
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
        bool loss = !win && !pd->ext_draw && pd->ext_loss == DB_NO_DIST && pd->ext_win < k;
        for (size_t e = pd->edges; e < pd->edges + pd->nedges && !win; e++) {
            uint16_t v = db_load_value(db, w->edge[e]);
            if (v & DB_LOSS && (v & DB_DIST) < k)
                win = true;
            else if (!(v & DB_WIN && (v & DB_DIST) < k))
                loss = false;
        }
        if (win || loss) {
            db_store_value(db, pd->index, (uint16_t)((win ? DB_WIN : DB_LOSS) | k));
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
        for (uint64_t i = 0; i < db_binom[db->npoints][s->a];
             i++, own = s->a ? db_next_set(own) : 0) {
            Bits packed = s->b ? (Bits)((1ull << s->b) - 1) : 0;
            for (uint64_t j = 0; j < s->opp_count;
                 j++, raw++, packed = s->b ? db_next_set(packed) : 0)
                if (s->bits[raw >> 6] >> (raw & 63) & 1) {
                    g->own[k] = own;
                    g->opp[k] = db_expand(packed, all & ~own);
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
        if (k >= (int)DB_DIST)
            return error_set(err, "distances beyond %u plies", DB_DIST);
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

SolveDb *solve_build(const MillRules *rules, const SolveOptions *opt, Error *err) {
    if (!solve_supported(rules, opt->max_men, err))
        return NULL;
    SolveDb *db = db_create(rules, opt->unfolded, opt->max_men);
    if (!db) {
        error_set(err, "out of memory");
        return NULL;
    }
    int threads =
        opt->threads > 0 ? (opt->threads > 256 ? 256 : opt->threads) : db_online_threads();
    Build bd = {.db = db, .opt = opt, .threads = threads, .t0 = clock_now_us()};
    bd.synced = bd.t0;
    FILE *f = NULL;
    bool ok = db_index_all(db, threads, err);
    if (ok && opt->path) {
        f = solve_file_open(db, opt->path, &bd.resumed, err);
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
        if (ok && f && !solve_file_write_group(db, f, first, last, sync))
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
        s->count * sizeof *db->val + db_bitmap_words(s) * (sizeof *s->bits + sizeof *s->prefix);
    st->longest_win = -1;
    for (uint64_t k = s->offset; s->done && k < s->offset + s->count; k++) {
        uint16_t v = db_load_value(db, k);
        if (v & DB_WIN) {
            st->wins++;
            if ((int)(v & DB_DIST) > st->longest_win)
                st->longest_win = v & DB_DIST;
        } else if (v & DB_LOSS) {
            st->losses++;
            if ((int)(v & DB_DIST) > st->longest_loss)
                st->longest_loss = v & DB_DIST;
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
    const SubDb *s = db_find_sub(db, bits_count(own), bits_count(opp), p->hand[us], p->hand[!us]);
    if (!s || !s->done)
        return false;
    db_canonicalize(&db->sym, &own, &opp);
    uint64_t raw = db_raw_index(db, s, own, opp);
    if (!(s->bits[raw >> 6] >> (raw & 63) & 1))
        return false; // cannot happen with a database built by this code
    uint16_t v = db_load_value(db, s->offset + db_canonical_rank(s, raw));
    *value = v & DB_WIN ? SOLVE_WIN : v & DB_LOSS ? SOLVE_LOSS : SOLVE_DRAW;
    *distance = v & (DB_WIN | DB_LOSS) ? (int)(v & DB_DIST) : 0;
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
    size_t wlo = 0, whi = db_bitmap_words(s) - 1;
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
    Bits own = db_colex_unrank(raw / s->opp_count, s->a);
    Bits opp = db_expand(db_colex_unrank(raw % s->opp_count, s->b), all & ~own);
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
            s->count * sizeof *db->val + db_bitmap_words(s) * (sizeof *s->bits + sizeof *s->prefix);
        if (!s->done)
            continue;
        st->positions += s->count;
        for (uint64_t i = s->offset; i < s->offset + s->count; i++) {
            uint16_t v = db_load_value(db, i);
            if (v & DB_WIN) {
                st->wins++;
                if ((int)(v & DB_DIST) > st->longest_win)
                    st->longest_win = v & DB_DIST, longest = i;
            } else if (v & DB_LOSS) {
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
