// The backgammon match runner. Design:
// - Two engines A (the first --engine) and B. Unit u of the schedule (a money game, or a whole
//   match with --length) belongs to pair q = u / 2; A plays X in unit 2q and O in unit 2q + 1.
//   Both units of a pair get the same dice (bg_dice of the seed and q), so each engine gets the
//   rolls its opponent got and most of the luck cancels within the pair.
// - The statistics take one sample per completed pair: A's points summed over its two games
//   (money), or its matches won (0, 1 or 2) as the pentanomial counts of the Elo estimate.
// - Worker threads take units in schedule order, each with fresh engine processes; the .mat
//   file is written at the end, in schedule order, so that its scores run in that order.
#include "match/bgmatch.h"

#include "match/bgreferee.h"
#include "match/stats.h"
#include "match/workers.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct BgRunner {
    const MatchConfig *cfg;
    BgOutcome *outcome; // every unit of the schedule
    bool *done;
    int nunits, next, finished;
    FILE *out, *log;
    pthread_mutex_t lock;
} BgRunner;

BgPoints bg_points_estimate(const double *pair_sums, int npairs) {
    BgPoints p = {.pairs = npairs, .lo = -INFINITY, .hi = INFINITY};
    if (npairs == 0)
        return p;
    double sum = 0, sq = 0;
    for (int i = 0; i < npairs; i++)
        sum += pair_sums[i] / 2;
    p.mean = sum / npairs;
    for (int i = 0; i < npairs; i++)
        sq += (pair_sums[i] / 2 - p.mean) * (pair_sums[i] / 2 - p.mean);
    // Pairs all alike (identical deterministic engines, whose duplicate games mirror each
    // other) have no spread to estimate an error from: the interval is unknown, never a point.
    if (npairs >= 2 && sq > 0) {
        double half = STATS_Z95 * sqrt(sq / (npairs - 1) / npairs);
        p.lo = p.mean - half;
        p.hi = p.mean + half;
        p.known = true;
    }
    return p;
}

// A's result in unit u: its net points (money), or 1 for a match won and 0 for one lost.
static double a_result(const BgRunner *r, int u) {
    const BgOutcome *o = &r->outcome[u];
    int a = u & 1; // the engine slot A played
    if (r->cfg->length)
        return o->winner == a;
    return o->points[a] - o->points[!a];
}

// The counts and estimates of the units finished so far.
typedef struct BgTally {
    int units, a_wins, b_wins, none;
    int a_points, b_points, kinds[4], doubles, drops;
    int terminations[TERM_COUNT];
    MatchCounts counts; // matches, from A's view
    BgPoints points;    // money
} BgTally;

// Count every finished unit and the completed pairs.
static void tally(const BgRunner *r, BgTally *t) {
    memset(t, 0, sizeof *t);
    double *sums = malloc(((size_t)r->nunits / 2 + 1) * sizeof *sums);
    int npairs = 0;
    for (int u = 0; u < r->nunits; u++) {
        if (!r->done[u])
            continue;
        const BgOutcome *o = &r->outcome[u];
        int a = u & 1;
        t->units++;
        t->a_wins += o->winner == a;
        t->b_wins += o->winner == !a;
        t->none += o->winner < 0;
        t->terminations[o->termination]++;
        t->doubles += o->doubles;
        t->drops += o->drops;
        if (!r->cfg->length) {
            t->a_points += o->points[a];
            t->b_points += o->points[!a];
            if (o->termination == TERM_NORMAL)
                t->kinds[o->kind]++;
        } else if (o->winner >= 0) {
            t->counts.w += o->winner == a;
            t->counts.l += o->winner != a;
        }
        if ((u & 1) && r->done[u - 1]) {
            if (sums)
                sums[npairs] = a_result(r, u) + a_result(r, u - 1);
            npairs++;
            if (r->cfg->length)
                t->counts.penta[2 * (int)(a_result(r, u) + a_result(r, u - 1))]++;
        }
    }
    if (sums)
        t->points = bg_points_estimate(sums, npairs);
    free(sums);
}

// Write the points-per-game estimate: "+0.040 [-0.210, +0.290]".
static void format_points(char *buf, size_t n, const BgPoints *p) {
    if (p->known)
        snprintf(buf, n, "%+.3f [%+.3f, %+.3f]", p->mean, p->lo, p->hi);
    else
        snprintf(buf, n, "%+.3f [unknown]", p->mean);
}

// Print the progress line of unit u.
static void progress(BgRunner *r, int u) {
    const MatchConfig *cfg = r->cfg;
    const BgOutcome *o = &r->outcome[u];
    const char *a = cfg->engine[0].name, *b = cfg->engine[1].name;
    BgTally t;
    tally(r, &t);
    char est[256];
    if (cfg->length) {
        EloEstimate e = stats_elo_estimate(&t.counts);
        char elo[32], interval[80];
        stats_format_elo(elo, sizeof elo, e.elo);
        stats_format_interval(interval, sizeof interval, &e);
        snprintf(est, sizeof est, "%s vs %s +%d -%d, Elo %s %s", a, b, t.counts.w, t.counts.l, elo,
                 interval);
    } else {
        char pts[64];
        format_points(pts, sizeof pts, &t.points);
        snprintf(est, sizeof est, "%s %s points per game", a, pts);
    }
    fprintf(r->out, "%s %d/%d: %s (X) - %s (O): %s | %s\n", cfg->length ? "match" : "game",
            r->finished, r->nunits, u & 1 ? b : a, u & 1 ? a : b, o->reason, est);
    fflush(r->out);
}

// Play units of the schedule until none is left or an interrupt comes.
static void *worker(void *arg) {
    BgRunner *r = arg;
    const MatchConfig *cfg = r->cfg;
    BgOutcome *o = malloc(sizeof *o);
    while (o) {
        pthread_mutex_lock(&r->lock);
        if (workers_interrupted() || r->next == r->nunits) {
            pthread_mutex_unlock(&r->lock);
            break;
        }
        int u = r->next++;
        pthread_mutex_unlock(&r->lock);

        BgSetup s = {.engine = {&cfg->engine[u & 1], &cfg->engine[!(u & 1)]},
                     .left = u & 1,
                     .length = cfg->length,
                     .jacoby = cfg->jacoby,
                     .seed = cfg->seed,
                     .pair = u / 2,
                     .timemargin_ms = cfg->timemargin_ms,
                     .movetimeout_ms = cfg->movetimeout_ms,
                     .log = r->log};
        char tag[32];
        snprintf(tag, sizeof tag, "%s%d", cfg->length ? "match" : "game", u + 1);
        s.log_tag = tag;
        bg_referee_play(&s, o);

        pthread_mutex_lock(&r->lock);
        r->outcome[u] = *o;
        r->done[u] = true;
        r->finished++;
        if (!cfg->quiet)
            progress(r, u);
        pthread_mutex_unlock(&r->lock);
    }
    free(o);
    return NULL;
}

// Print the report: A's points per game (money) or matches won and Elo, the games' ends.
static void print_report(const BgRunner *r, const BgTally *t) {
    const MatchConfig *cfg = r->cfg;
    const char *a = cfg->engine[0].name, *b = cfg->engine[1].name;
    fprintf(r->out, "\nbackgammon %s, %s vs %s: %d %s, %d duplicate pairs\n",
            cfg->length   ? "matches"
            : cfg->jacoby ? "money play (Jacoby on)"
                          : "money play (Jacoby off)",
            a, b, t->units, cfg->length ? "matches" : "games", t->points.pairs);
    if (cfg->length) {
        fprintf(r->out, "  matches to %d points (Crawford rule)\n", cfg->length);
        EloEstimate e = stats_elo_estimate(&t->counts);
        char elo[32], interval[80];
        stats_format_elo(elo, sizeof elo, e.elo);
        stats_format_interval(interval, sizeof interval, &e);
        fprintf(r->out, "  %s won %d matches, %s won %d; score %.3f, Elo %s %s (95%%)\n", a,
                t->a_wins, b, t->b_wins, stats_score(&t->counts), elo, interval);
    } else {
        char pts[64];
        format_points(pts, sizeof pts, &t->points);
        fprintf(r->out, "  %s: %s points per game (95%%, one sample per pair)\n", a, pts);
        fprintf(r->out, "  %s won %d games and %d points, %s won %d games and %d points\n", a,
                t->a_wins, t->a_points, b, t->b_wins, t->b_points);
        fprintf(r->out, "  games played out: single %d, gammon %d, backgammon %d\n", t->kinds[1],
                t->kinds[2], t->kinds[3]);
    }
    fprintf(r->out, "  doubles offered %d, dropped %d\n", t->doubles, t->drops);
    fprintf(r->out, "terminations:");
    for (int k = 0; k < TERM_COUNT; k++)
        if (t->terminations[k])
            fprintf(r->out, " %s %d", referee_termination_name((Termination)k), t->terminations[k]);
    fprintf(r->out, "\n");
    for (int u = 0; u < r->nunits; u++) {
        const BgOutcome *o = &r->outcome[u];
        if (r->done[u] && o->termination != TERM_NORMAL)
            fprintf(r->out, "  %s %d: %s\n", cfg->length ? "match" : "game", u + 1, o->reason);
    }
}

// Write one match (unit u) to f: the header and its games, A in the left column.
static void write_match(FILE *f, const BgRunner *r, int u) {
    const MatchConfig *cfg = r->cfg;
    const BgOutcome *o = &r->outcome[u];
    int a = u & 1;
    fprintf(f, " %d point match\n\n", cfg->length);
    for (int g = 0; g < o->ngames; g++)
        bg_mat_write_game(f, g + 1, cfg->engine[0].name, o->game[g].score[a], cfg->engine[1].name,
                          o->game[g].score[!a], o->game[g].moves);
}

// Write the .mat file(s); false when one cannot be written.
static bool write_mat(const BgRunner *r, FILE *err) {
    const MatchConfig *cfg = r->cfg;
    const char *path = cfg->mat_path;
    if (!cfg->length) {
        FILE *f = fopen(path, "w");
        if (!f) {
            fprintf(err, "tabula match: cannot write '%s': %s\n", path, strerror(errno));
            return false;
        }
        fprintf(f, " 0 point match\n\n");
        int score[2] = {0, 0}, n = 0;
        for (int u = 0; u < r->nunits; u++) {
            if (!r->done[u])
                continue;
            const BgOutcome *o = &r->outcome[u];
            int a = u & 1;
            bg_mat_write_game(f, ++n, cfg->engine[0].name, score[0], cfg->engine[1].name, score[1],
                              o->ngames ? o->game[0].moves : NULL);
            score[0] += o->points[a];
            score[1] += o->points[!a];
        }
        return fclose(f) == 0;
    }
    size_t len = strlen(path);
    if (len > 4 && !strcmp(path + len - 4, ".mat"))
        len -= 4;
    bool ok = true;
    for (int u = 0; u < r->nunits && ok; u++) {
        if (!r->done[u])
            continue;
        char name[1024];
        snprintf(name, sizeof name, "%.*s-%d.mat", (int)(len < 1000 ? len : 1000), path, u + 1);
        FILE *f = fopen(name, "w");
        if (!f) {
            fprintf(err, "tabula match: cannot write '%s': %s\n", name, strerror(errno));
            return false;
        }
        write_match(f, r, u);
        ok = fclose(f) == 0;
    }
    return ok;
}

int bgmatch_run(const MatchConfig *cfg, FILE *out, FILE *err) {
    BgRunner r = {.cfg = cfg, .out = out, .nunits = cfg->games};
    bool started = true;
    for (int e = 0; e < 2; e++)
        started &= referee_check_engine(&cfg->engine[e], cfg->movetimeout_ms, err);
    if (!started) {
        fprintf(err, "tabula match: no game played\n");
        return 1;
    }
    int status = 0;
    r.outcome = calloc((size_t)r.nunits, sizeof *r.outcome);
    r.done = calloc((size_t)r.nunits, sizeof *r.done);
    if (!r.outcome || !r.done) {
        fprintf(err, "tabula match: out of memory\n");
        free(r.outcome);
        free(r.done);
        return 1;
    }
    if (cfg->log_path && !(r.log = fopen(cfg->log_path, "w"))) {
        fprintf(err, "tabula match: cannot write '%s': %s\n", cfg->log_path, strerror(errno));
        free(r.outcome);
        free(r.done);
        return 1;
    }
    if (cfg->length)
        fprintf(out, "match: backgammon, matches to %d points, %d matches, %d at once\n",
                cfg->length, r.nunits, cfg->concurrency);
    else
        fprintf(out, "match: backgammon, money play, Jacoby %s, %d games, %d at once\n",
                cfg->jacoby ? "on" : "off", r.nunits, cfg->concurrency);
    fflush(out);

    pthread_mutex_init(&r.lock, NULL);
    bool stopped = workers_run(cfg->concurrency, r.nunits, worker, &r);
    pthread_mutex_destroy(&r.lock);

    if (stopped) {
        fprintf(out, "interrupted after %d of %d %s\n", r.finished, r.nunits,
                cfg->length ? "matches" : "games");
        status = 1;
    }
    BgTally t;
    tally(&r, &t);
    print_report(&r, &t);
    if (cfg->mat_path && !write_mat(&r, err)) {
        fprintf(err, "tabula match: writing '%s' failed\n", cfg->mat_path);
        status = 1;
    }
    if (r.log)
        fclose(r.log);
    for (int u = 0; u < r.nunits; u++)
        bg_outcome_free(&r.outcome[u]);
    free(r.outcome);
    free(r.done);
    return status;
}
