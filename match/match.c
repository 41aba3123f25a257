// The match runner. Design:
// - The schedule is a pure function of the configuration: pairings (round robin or gauntlet),
//   then for each opening k and each pairing p one game pair q = k * npairings + p, played as
//   game 2q (the pairing's first engine white) and 2q + 1 (colours swapped). Opening k is the
//   same for every pairing and every shard: random openings are seeded by (seed, k).
// - A shard i/n plays the pairs with q % n == i - 1, whole pairs, so the pentanomial counts of
//   merged shards equal those of one run.
// - Worker threads take games in schedule order; each game starts fresh engine processes.
//   Results, records and progress lines are written under one lock as games finish.
// - The JSON summary lists every game played (pair, colours, result, termination); merging
//   reads these lists back, checks that the files come from the same match, and computes the
//   report from the union, with the same code as a single run.
#include "match/match.h"

#include "engine/core/clock.h"
#include "engine/core/random.h"
#include "engine/mill/game.h"
#include "engine/mill/variant.h"
#include "match/bgmatch.h"
#include "match/book.h"
#include "match/config.h"
#include "match/opening.h"
#include "match/referee.h"
#include "match/report.h"
#include "match/stats.h"
#include "match/workers.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define EVENT "tabula match"

// ---------------------------------------------------------------------------------------------
// Running

typedef struct Runner {
    const MatchConfig *cfg;
    const char *names[MAX_ENGINES];
    Pairing pairing[MAX_PAIRINGS];
    int npairings;
    Opening *openings; // from a file; NULL with random openings
    int nopenings;
    Played *outcome; // every game of the schedule
    int ngames;
    int *jobs; // this shard's games, in schedule order
    int njobs, next, finished;
    bool stop;   // the SPRT decided
    Tally tally; // of the games finished so far, kept as they finish
    FILE *out, *pgn, *log;
    pthread_mutex_t lock;
    bool write_failed;
} Runner;

// Set up game g of the schedule.
static void setup_game(const Runner *r, int g, GameSetup *s, char *fen_buf) {
    const MatchConfig *cfg = r->cfg;
    int q = g / 2, k = q / r->npairings;
    const Pairing *p = &r->pairing[q % r->npairings];
    memset(s, 0, sizeof *s);
    s->variant = cfg->variant;
    s->engine[0] = &cfg->engine[g & 1 ? p->b : p->a];
    s->engine[1] = &cfg->engine[g & 1 ? p->a : p->b];
    s->adj = cfg->adj;
    s->timemargin_ms = cfg->timemargin_ms;
    s->movetimeout_ms = cfg->movetimeout_ms;
    s->log = r->log;
    if (r->openings) {
        const Opening *o = &r->openings[k % r->nopenings];
        if (o->has_fen) {
            strcpy(fen_buf, o->fen);
            s->fen = fen_buf;
        }
        s->nopening = o->n;
        memcpy(s->opening, o->moves, sizeof o->moves);
    } else {
        uint64_t rng = cfg->seed * 0x2545F4914F6CDD1Dull + (uint64_t)k;
        random_next(&rng);
        s->nopening = opening_random(cfg->variant, cfg->random_plies, &rng, s->opening);
    }
}

// Say how a game ended for its progress line: the referee's reason when an engine lost by a
// fault ("black lost: engine crashed (signal 11)"), else the termination ("normal").
static const char *how_it_ended(const Played *o) {
    bool fault = o->termination != TERM_NORMAL && o->termination != TERM_ADJUDICATION;
    return fault && o->reason[0] ? o->reason : referee_termination_name(o->termination);
}

// Count game g into the running tally, print its progress line (unless quiet) and check the
// SPRT.
static void progress(Runner *r, int g) {
    const Played *o = &r->outcome[g];
    tally_add(&r->tally, r->outcome, g, r->outcome[g ^ 1].done);
    const Tally *t = &r->tally;
    int p = (g / 2) % r->npairings;
    const MatchCounts *c = &t->counts[p];
    EloEstimate e = stats_elo_estimate(c);
    char elo[32], interval[80];
    stats_format_elo(elo, sizeof elo, e.elo);
    stats_format_interval(interval, sizeof interval, &e);
    if (!r->cfg->quiet)
        fprintf(r->out, "game %d/%d: %s - %s %s (%s, %d plies) | %s vs %s +%d =%d -%d, Elo %s %s\n",
                r->finished, r->njobs, r->names[o->white], r->names[o->black],
                MATCH_RESULT_TEXT[o->result], how_it_ended(o), o->plies, r->names[r->pairing[p].a],
                r->names[r->pairing[p].b], c->w, c->d, c->l, elo, interval);
    fflush(r->out);
    if (r->cfg->sprt && p == 0) {
        SprtResult s = stats_sprt(c, &r->cfg->sprt_params);
        if (s.decision != SPRT_CONTINUE && !r->stop) {
            r->stop = true;
            fprintf(r->out, "SPRT: %s accepted (LLR %.2f); finishing the games in progress\n",
                    stats_sprt_name(s.decision), s.llr);
        }
    }
}

// Play games of the schedule until none is left, the SPRT decides or an interrupt comes.
static void *worker(void *arg) {
    Runner *r = arg;
    GameRecord *rec = malloc(sizeof *rec);
    GameSetup *setup = malloc(sizeof *setup);
    char fen[FEN_MAX];
    while (rec && setup) {
        pthread_mutex_lock(&r->lock);
        if (r->stop || workers_interrupted() || r->next == r->njobs) {
            pthread_mutex_unlock(&r->lock);
            break;
        }
        int g = r->jobs[r->next++];
        pthread_mutex_unlock(&r->lock);

        setup_game(r, g, setup, fen);
        char tag[32];
        snprintf(tag, sizeof tag, "game%d", g + 1);
        setup->log_tag = tag;
        referee_play(setup, rec);

        pthread_mutex_lock(&r->lock);
        Played *o = &r->outcome[g];
        o->done = true;
        o->white = (int)(setup->engine[0] - r->cfg->engine);
        o->black = (int)(setup->engine[1] - r->cfg->engine);
        o->result = rec->result;
        o->termination = rec->termination;
        o->plies = rec->nplies;
        snprintf(o->reason, sizeof o->reason, "%s", rec->reason);
        r->finished++;
        if (r->pgn) {
            referee_write_record(r->pgn, setup, rec, EVENT, g + 1);
            r->write_failed |= fflush(r->pgn) != 0;
        }
        progress(r, g);
        pthread_mutex_unlock(&r->lock);
    }
    free(rec);
    free(setup);
    return NULL;
}

// Read openings, one per non-blank line not starting with '#', from f (closed here); name
// says where they come from in messages.
static Opening *read_openings(FILE *f, const char *path, int *n, FILE *err) {
    Opening *list = NULL;
    int cap = 0, lineno = 0;
    *n = 0;
    char *line = NULL;
    size_t len = 0;
    bool ok = true;
    while (ok && getline(&line, &len, f) != -1) {
        lineno++;
        const char *s = line + strspn(line, " \t\r\n");
        if (!*s || *s == '#')
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            Opening *grown = realloc(list, (size_t)cap * sizeof *list);
            if (!grown) {
                ok = false;
                fprintf(err, "tabula match: out of memory\n");
                break;
            }
            list = grown;
        }
        Error e;
        if (!opening_parse_line(s, &list[*n], &e)) {
            fprintf(err, "tabula match: %s:%d: %s\n", path, lineno, e.msg);
            ok = false;
        }
        (*n)++;
    }
    free(line);
    fclose(f);
    if (ok && !*n) {
        fprintf(err, "tabula match: '%s' has no openings\n", path);
        ok = false;
    }
    if (!ok) {
        free(list);
        return NULL;
    }
    return list;
}

// The openings of cfg: its file, or the variant's book; NULL after reporting an error.
static Opening *load_openings(const MatchConfig *cfg, const char *name, int *n, FILE *err) {
    if (!cfg->book) {
        FILE *f = fopen(cfg->openings_path, "r");
        if (!f) {
            fprintf(err, "tabula match: cannot read '%s': %s\n", name, strerror(errno));
            return NULL;
        }
        return read_openings(f, name, n, err);
    }
    size_t len;
    const char *text = book_text(cfg->variant, &len);
    FILE *f = text ? fmemopen((void *)text, len, "r") : NULL;
    if (!f) {
        fprintf(err, "tabula match: %s has no opening book (use --openings random:PLIES)\n",
                cfg->variant);
        return NULL;
    }
    return read_openings(f, name, n, err);
}

// Check every opening against the variant's rules before any game starts.
static bool check_openings(const MatchConfig *cfg, const char *name, const Opening *list, int n,
                           FILE *err) {
    GameSetup *s = malloc(sizeof *s);
    bool ok = s != NULL;
    for (int i = 0; ok && i < n; i++) {
        memset(s, 0, sizeof *s);
        s->variant = cfg->variant;
        s->fen = list[i].has_fen ? list[i].fen : NULL;
        s->nopening = list[i].n;
        memcpy(s->opening, list[i].moves, sizeof list[i].moves);
        Error e;
        if (!referee_check_opening(s, &e)) {
            fprintf(err, "tabula match: opening %d of %s: %s\n", i + 1, name, e.msg);
            ok = false;
        }
    }
    free(s);
    return ok;
}

// Play the match of cfg: the schedule, the workers, the report and the summary.
static int run_match(const MatchConfig *cfg, FILE *out, FILE *err) {
    if (!strcmp(cfg->variant, "backgammon"))
        return bgmatch_run(cfg, out, err);
    Runner r = {.cfg = cfg, .out = out};
    for (int e = 0; e < cfg->nengines; e++)
        r.names[e] = cfg->engine[e].name;
    r.npairings = match_pairings(cfg->nengines, cfg->gauntlet, r.pairing);
    tally_init(&r.tally, cfg->nengines, cfg->gauntlet);
    long long npairs = (long long)(cfg->games / 2) * r.npairings;
    if (2 * npairs > MAX_GAMES) {
        fprintf(err, "tabula match: more than %d games\n", MAX_GAMES);
        return 2;
    }
    if (cfg->book || cfg->openings_path[0]) {
        char name[600];
        if (cfg->book)
            snprintf(name, sizeof name, "the opening book of %s", cfg->variant);
        else
            snprintf(name, sizeof name, "%s", cfg->openings_path);
        r.openings = load_openings(cfg, name, &r.nopenings, err);
        if (!r.openings || !check_openings(cfg, name, r.openings, r.nopenings, err)) {
            free(r.openings);
            return 2;
        }
    }
    // An engine that cannot start would lose every game by default and make the report a
    // list of forfeits; stop before the first game instead, with the engine's own words.
    bool started = true;
    for (int e = 0; e < cfg->nengines; e++)
        started &= referee_check_engine(&cfg->engine[e], cfg->movetimeout_ms, err);
    if (!started) {
        fprintf(err, "tabula match: no game played\n");
        free(r.openings);
        return 1;
    }
    int status = 0;
    r.ngames = (int)(2 * npairs);
    r.outcome = calloc((size_t)r.ngames, sizeof *r.outcome);
    r.jobs = malloc((size_t)r.ngames * sizeof *r.jobs);
    if (!r.outcome || !r.jobs) {
        fprintf(err, "tabula match: out of memory\n");
        status = 1;
        goto done;
    }
    for (int q = 0; q < npairs; q++)
        if (q % cfg->nshards == cfg->shard - 1) {
            r.jobs[r.njobs++] = 2 * q;
            r.jobs[r.njobs++] = 2 * q + 1;
        }
    if (cfg->pgn_path && !(r.pgn = fopen(cfg->pgn_path, "w"))) {
        fprintf(err, "tabula match: cannot write '%s': %s\n", cfg->pgn_path, strerror(errno));
        status = 1;
        goto done;
    }
    if (cfg->log_path && !(r.log = fopen(cfg->log_path, "w"))) {
        fprintf(err, "tabula match: cannot write '%s': %s\n", cfg->log_path, strerror(errno));
        status = 1;
        goto done;
    }
    fprintf(out, "match: %s, %d engines, %d games in this run (%d per pairing%s), %d at once\n",
            cfg->variant, cfg->nengines, r.njobs, cfg->games, cfg->nshards > 1 ? ", sharded" : "",
            cfg->concurrency);
    fflush(out);

    pthread_mutex_init(&r.lock, NULL);
    bool stopped = workers_run(cfg->concurrency, r.njobs, worker, &r);
    pthread_mutex_destroy(&r.lock);

    const Tally *t = &r.tally;
    if (stopped) {
        fprintf(out, "interrupted after %d of %d games\n", r.finished, r.njobs);
        status = 1;
    }
    match_print_report(out, r.names, cfg->nengines, t, cfg->sprt ? &cfg->sprt_params : NULL);
    if (cfg->json_path &&
        !match_write_json(cfg->json_path, cfg, r.names, r.outcome, r.ngames, t, false)) {
        fprintf(err, "tabula match: cannot write '%s'\n", cfg->json_path);
        status = 1;
    }
    if (r.write_failed) {
        fprintf(err, "tabula match: writing '%s' failed\n", cfg->pgn_path);
        status = 1;
    }
done:
    if (r.pgn)
        fclose(r.pgn);
    if (r.log)
        fclose(r.log);
    free(r.openings);
    free(r.outcome);
    free(r.jobs);
    return status;
}

int match_main(int argc, char **argv, FILE *out, FILE *err) {
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--merge"))
            return match_merge(argc - 1 - i, argv + i + 1, out, err);
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(MATCH_USAGE, out);
            return 0;
        }
    MatchConfig *cfg = malloc(sizeof *cfg);
    if (!cfg)
        return 1;
    // The parser's message is caught so that it can end with the pointer to --help.
    char *msg = NULL;
    size_t len = 0;
    FILE *caught = open_memstream(&msg, &len);
    bool parsed = match_parse_config(argc, argv, cfg, caught ? caught : err);
    if (caught) {
        fclose(caught);
        if (!parsed)
            match_usage_error(err, "tabula match", msg);
        free(msg);
    }
    int status = parsed ? run_match(cfg, out, err) : 2;
    free(cfg);
    return status;
}
