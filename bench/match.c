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
#include "bench/match.h"

#include "bench/json.h"
#include "bench/opening.h"
#include "bench/referee.h"
#include "bench/stats.h"
#include "engine/core/clock.h"
#include "engine/core/parse.h"
#include "engine/core/random.h"
#include "engine/mill/game.h"
#include "engine/mill/variant.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ENGINES 16
#define MAX_PAIRINGS (MAX_ENGINES * (MAX_ENGINES - 1) / 2)
#define MAX_CONCURRENCY 256
#define MAX_GAMES 10000000
#define EVENT "tabula match"

static const char USAGE[] =
    "usage: tabula match --engine KEY=VALUE... --engine KEY=VALUE... [options]\n"
    "       tabula match --merge FILE.json... [--json OUT] [--sprt ...]\n"
    "\n"
    "Plays games between engines over UCI or UGI, refereed by tabula's own rules.\n"
    "\n"
    "engine keys (after --engine, or after --each for every engine):\n"
    "  cmd=COMMAND        the command line that starts the engine (through /bin/sh)\n"
    "  name=NAME          its name in records and reports (default: the command's basename)\n"
    "  proto=uci|ugi      the protocol (default uci)\n"
    "  tc=[MOVES/]TIME[+INC]  a clock, in seconds: 10+0.1, 40/60, 60+0.5\n"
    "  st=SECONDS         a fixed time per move\n"
    "  depth=N, nodes=N   a fixed depth or node count per move (alone or with a clock)\n"
    "  option.NAME=VALUE  sent as 'setoption name NAME value VALUE'\n"
    "\n"
    "options:\n"
    "  --variant ID         the variant (default nine)\n"
    "  --games N            games per pairing, rounded up to a whole number of pairs (default 2)\n"
    "  --gauntlet           the first engine against each other one (default: round robin)\n"
    "  --openings random:PLIES | file:PATH\n"
    "                       random legal plies from the start (default 8, fewer on small boards),\n"
    "                       or one opening per line: 'startpos moves ...', 'fen <string> [moves\n"
    "                       ...]' or a move list; each opening is played twice, colours swapped\n"
    "  --seed N             seed of the random openings (default 1)\n"
    "  --concurrency N      games at once (default 1)\n"
    "  --draw movenumber=M movecount=N score=CP\n"
    "                       adjudicate a draw from move M when both engines' scores stay within\n"
    "                       CP for N moves each\n"
    "  --resign movecount=N score=CP\n"
    "                       adjudicate a win when both engines agree for N moves each that one\n"
    "                       side is at least CP ahead\n"
    "  --maxplies N         adjudicate a draw after N plies (default 1000)\n"
    "  --timemargin MS      how late past its clock or movetime an answer may come (default 0)\n"
    "  --movetimeout MS     the longest wait without a clock: handshake, depth or nodes searches\n"
    "                       (default 30000)\n"
    "  --sprt elo0=E0 elo1=E1 alpha=A beta=B\n"
    "                       stop when the SPRT of the first two engines decides\n"
    "  --shard I/N          play only slice I of N of the schedule (whole game pairs)\n"
    "  --pgn FILE           write the game records\n"
    "  --json FILE          write the summary, with every game, as JSON\n"
    "  --log FILE           write every line sent to and read from the engines\n"
    "  --quiet              no progress line per game\n"
    "  --merge FILE...      combine the JSON summaries of shards into one report\n";

// clang-format off
static const char *const RESULT_TEXT[] = {
    [RESULT_NONE] = "*", [RESULT_WHITE_WINS] = "1-0", [RESULT_BLACK_WINS] = "0-1",
    [RESULT_DRAW] = "1/2-1/2",
};
// clang-format on

typedef struct Pairing {
    int a, b; // engine indexes; counts are from a's point of view
} Pairing;

typedef struct MatchConfig {
    char variant[32];
    int nengines;
    EngineConfig engine[MAX_ENGINES];
    bool gauntlet;
    int games; // per pairing, even
    int concurrency;
    uint64_t seed;
    int random_plies;
    char openings_path[512]; // empty: random openings
    Adjudication adj;
    int64_t timemargin_ms, movetimeout_ms;
    bool sprt;
    SprtParams sprt_params;
    int shard, nshards;
    const char *pgn_path, *json_path, *log_path;
    bool quiet;
} MatchConfig;

// One game of the schedule, as the report needs it.
typedef struct Played {
    bool done;
    int white, black;
    GameResult result;
    Termination termination;
    int plies;
    char reason[192];
} Played;

// The report's numbers.
typedef struct Tally {
    int npairings;
    Pairing pairing[MAX_PAIRINGS];
    MatchCounts counts[MAX_PAIRINGS];
    double points[MAX_ENGINES];
    int played[MAX_ENGINES];
    int faults[MAX_ENGINES][TERM_COUNT]; // games lost by each termination other than normal
    int terminations[TERM_COUNT];
    int games;
} Tally;

static atomic_int interrupted;

static void on_interrupt(int sig) {
    (void)sig;
    atomic_store(&interrupted, 1);
}

// ---------------------------------------------------------------------------------------------
// Arguments

// Read a whole decimal number of seconds, at least 0, as milliseconds.
static bool parse_seconds(const char *s, int64_t *ms) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !(v >= 0) || v > 1e9)
        return false;
    *ms = (int64_t)llround(v * 1000);
    return true;
}

static bool parse_double(const char *s, double *v) {
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return end != s && !*end && !errno && isfinite(*v);
}

// Parse a time control: [MOVES/]TIME[+INC], seconds.
static bool parse_tc(const char *s, EngineConfig *c) {
    char buf[64];
    if (strlen(s) >= sizeof buf)
        return false;
    snprintf(buf, sizeof buf, "%s", s);
    char *time = buf, *slash = strchr(buf, '/'), *plus = strchr(buf, '+');
    long long moves = 0;
    int64_t inc = 0;
    if (slash) {
        *slash = '\0';
        if (!parse_integer(buf, 1, 100000, &moves))
            return false;
        time = slash + 1;
    }
    if (plus) {
        *plus = '\0';
        if (!parse_seconds(plus + 1, &inc))
            return false;
    }
    int64_t base;
    if (!parse_seconds(time, &base) || base <= 0)
        return false;
    c->tc_moves = (int)moves;
    c->tc_time_ms = base;
    c->tc_inc_ms = inc;
    return true;
}

// Apply one KEY=VALUE of an engine.
static bool engine_key(EngineConfig *c, const char *arg, FILE *err) {
    const char *eq = strchr(arg, '=');
    if (!eq) {
        fprintf(err, "tabula match: engine setting '%s' is not KEY=VALUE\n", arg);
        return false;
    }
    size_t klen = (size_t)(eq - arg);
    const char *v = eq + 1;
    long long n;
    bool ok = true;
#define KEY(k) (klen == strlen(k) && !strncmp(arg, k, klen))
    if (KEY("cmd")) {
        ok = *v && strlen(v) < sizeof c->cmd;
        if (ok)
            snprintf(c->cmd, sizeof c->cmd, "%s", v);
    } else if (KEY("name")) {
        ok = *v && strlen(v) < sizeof c->name && !strpbrk(v, "\"\\{}");
        if (ok)
            snprintf(c->name, sizeof c->name, "%s", v);
    } else if (KEY("proto")) {
        ok = !strcmp(v, "uci") || !strcmp(v, "ugi");
        c->proto = !strcmp(v, "ugi") ? PROTO_UGI : PROTO_UCI;
    } else if (KEY("tc")) {
        ok = parse_tc(v, c);
    } else if (KEY("st")) {
        ok = parse_seconds(v, &c->movetime_ms) && c->movetime_ms > 0;
    } else if (KEY("depth")) {
        ok = parse_integer(v, 1, 1000, &n);
        c->depth = ok ? (int)n : 0;
    } else if (KEY("nodes")) {
        ok = parse_integer(v, 1, (long long)1e15, &n);
        c->nodes = ok ? n : 0;
    } else if (klen > 7 && !strncmp(arg, "option.", 7)) {
        int i = 0;
        while (i < c->noptions && (strlen(c->option_name[i]) != klen - 7 ||
                                   strncmp(c->option_name[i], arg + 7, klen - 7)))
            i++;
        ok = klen - 7 < sizeof c->option_name[0] && strlen(v) < sizeof c->option_value[0] &&
             i < MAX_ENGINE_OPTIONS;
        if (ok) {
            snprintf(c->option_name[i], sizeof c->option_name[i], "%.*s", (int)klen - 7, arg + 7);
            snprintf(c->option_value[i], sizeof c->option_value[i], "%s", v);
            c->noptions += i == c->noptions;
        }
    } else {
        fprintf(err, "tabula match: unknown engine key '%.*s'\n", (int)klen, arg);
        return false;
    }
#undef KEY
    if (!ok)
        fprintf(err, "tabula match: bad engine setting '%s'\n", arg);
    return ok;
}

// Parse KEY=VALUE arguments of a flag like --sprt: each key's value into vals (NAN when
// absent); false on an unknown key or a bad number.
static bool parse_keyed(int argc, char **argv, int *i, const char *const *keys, double *vals,
                        const char *flag, FILE *err) {
    for (int k = 0; keys[k]; k++)
        vals[k] = NAN;
    while (*i + 1 < argc && strncmp(argv[*i + 1], "--", 2)) {
        const char *arg = argv[++*i], *eq = strchr(arg, '=');
        int k = 0;
        while (keys[k] && (!eq || strlen(keys[k]) != (size_t)(eq - arg) ||
                           strncmp(keys[k], arg, (size_t)(eq - arg))))
            k++;
        if (!keys[k] || !parse_double(eq + 1, &vals[k])) {
            fprintf(err, "tabula match: bad %s setting '%s'\n", flag, arg);
            return false;
        }
    }
    return true;
}

// The default name of an engine: the basename of the command's first word.
static void default_name(EngineConfig *c) {
    char word[sizeof c->name];
    size_t n = strcspn(c->cmd, " \t");
    snprintf(word, sizeof word, "%.*s", (int)(n < sizeof word ? n : sizeof word - 1), c->cmd);
    const char *base = strrchr(word, '/');
    snprintf(c->name, sizeof c->name, "%s", base ? base + 1 : word);
}

// Collect the KEY=VALUE arguments that follow argv[*i].
static int take_settings(int argc, char **argv, int *i, char **into, int max) {
    int n = 0;
    while (*i + 1 < argc && strncmp(argv[*i + 1], "--", 2) && n < max)
        into[n++] = argv[++*i];
    return n;
}

#define MAX_SETTINGS 64

// Parse the command line of a match (not --merge).
static bool parse_config(int argc, char **argv, MatchConfig *cfg, FILE *err) {
    memset(cfg, 0, sizeof *cfg);
    snprintf(cfg->variant, sizeof cfg->variant, "nine");
    cfg->games = 2;
    cfg->concurrency = 1;
    cfg->seed = 1;
    cfg->random_plies = -1;
    cfg->adj.max_plies = 1000;
    cfg->movetimeout_ms = 30000;
    cfg->shard = cfg->nshards = 1;
    char *each[MAX_SETTINGS], *own[MAX_ENGINES][MAX_SETTINGS];
    int neach = 0, nown[MAX_ENGINES] = {0};
    long long n;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--engine")) {
            if (cfg->nengines == MAX_ENGINES) {
                fprintf(err, "tabula match: at most %d engines\n", MAX_ENGINES);
                return false;
            }
            nown[cfg->nengines] = take_settings(argc, argv, &i, own[cfg->nengines], MAX_SETTINGS);
            cfg->nengines++;
        } else if (!strcmp(a, "--each")) {
            neach += take_settings(argc, argv, &i, each + neach, MAX_SETTINGS - neach);
        } else if (!strcmp(a, "--gauntlet")) {
            cfg->gauntlet = true;
        } else if (!strcmp(a, "--quiet")) {
            cfg->quiet = true;
        } else if (!strcmp(a, "--sprt")) {
            static const char *const KEYS[] = {"elo0", "elo1", "alpha", "beta", NULL};
            double val[4];
            if (!parse_keyed(argc, argv, &i, KEYS, val, a, err))
                return false;
            cfg->sprt = true;
            cfg->sprt_params =
                (SprtParams){isnan(val[0]) ? 0 : val[0], isnan(val[1]) ? 5 : val[1],
                             isnan(val[2]) ? 0.05 : val[2], isnan(val[3]) ? 0.05 : val[3]};
            SprtParams *p = &cfg->sprt_params;
            if (!(p->alpha > 0 && p->alpha < 0.5 && p->beta > 0 && p->beta < 0.5 &&
                  p->elo0 < p->elo1)) {
                fprintf(err, "tabula match: --sprt needs elo0 < elo1 and 0 < alpha, beta < 0.5\n");
                return false;
            }
        } else if (!strcmp(a, "--draw") || !strcmp(a, "--resign")) {
            bool draw = !strcmp(a, "--draw");
            static const char *const KEYS[] = {"movenumber", "movecount", "score", NULL};
            double val[3];
            if (!parse_keyed(argc, argv, &i, KEYS, val, a, err))
                return false;
            if (isnan(val[1]) || isnan(val[2]) || val[1] < 1 || val[1] > 1000 || val[2] < 0 ||
                val[2] > 100000 || (draw && !isnan(val[0]) && (val[0] < 0 || val[0] > 10000)) ||
                (!draw && !isnan(val[0]))) {
                fprintf(err, "tabula match: %s needs %smovecount=N score=CP\n", a,
                        draw ? "[movenumber=M] " : "");
                return false;
            }
            if (draw) {
                cfg->adj.draw_from = isnan(val[0]) ? 0 : (int)val[0];
                cfg->adj.draw_moves = (int)val[1];
                cfg->adj.draw_score = (int)val[2];
            } else {
                cfg->adj.resign_moves = (int)val[1];
                cfg->adj.resign_score = (int)val[2];
            }
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            return false;
        } else if (!v || !strncmp(v, "--", 2)) {
            fprintf(err, "tabula match: %s '%s'\n",
                    strncmp(a, "--", 2) ? "unexpected argument" : "missing value after", a);
            return false;
        } else if (!strcmp(a, "--variant")) {
            if (!variant_find(v)) {
                fprintf(err, "tabula match: unknown variant '%s'\n", v);
                return false;
            }
            snprintf(cfg->variant, sizeof cfg->variant, "%s", v);
            i++;
        } else if (!strcmp(a, "--games") && parse_integer(v, 1, MAX_GAMES, &n)) {
            cfg->games = (int)(n + (n & 1));
            i++;
        } else if (!strcmp(a, "--concurrency") && parse_integer(v, 1, MAX_CONCURRENCY, &n)) {
            cfg->concurrency = (int)n;
            i++;
        } else if (!strcmp(a, "--seed") && parse_integer(v, 0, LLONG_MAX, &n)) {
            cfg->seed = (uint64_t)n;
            i++;
        } else if (!strcmp(a, "--maxplies") && parse_integer(v, 1, MAX_RECORD_PLIES, &n)) {
            cfg->adj.max_plies = (int)n;
            i++;
        } else if (!strcmp(a, "--timemargin") && parse_integer(v, 0, 3600000, &n)) {
            cfg->timemargin_ms = n;
            i++;
        } else if (!strcmp(a, "--movetimeout") && parse_integer(v, 1, 86400000, &n)) {
            cfg->movetimeout_ms = n;
            i++;
        } else if (!strcmp(a, "--openings")) {
            if (!strncmp(v, "random:", 7) && parse_integer(v + 7, 0, OPENING_MAX_PLIES, &n)) {
                cfg->random_plies = (int)n;
            } else if (!strncmp(v, "file:", 5) && v[5] &&
                       strlen(v + 5) < sizeof cfg->openings_path) {
                snprintf(cfg->openings_path, sizeof cfg->openings_path, "%s", v + 5);
            } else {
                fprintf(err, "tabula match: --openings takes random:PLIES (0-%d) or file:PATH\n",
                        OPENING_MAX_PLIES);
                return false;
            }
            i++;
        } else if (!strcmp(a, "--shard")) {
            long long idx, cnt;
            char buf[48];
            char *slash = strlen(v) < sizeof buf ? strchr(strcpy(buf, v), '/') : NULL;
            if (!slash || (*slash = '\0', !parse_integer(buf, 1, MAX_GAMES, &idx)) ||
                !parse_integer(slash + 1, 1, MAX_GAMES, &cnt) || idx > cnt) {
                fprintf(err, "tabula match: --shard takes I/N with 1 <= I <= N\n");
                return false;
            }
            cfg->shard = (int)idx;
            cfg->nshards = (int)cnt;
            i++;
        } else if (!strcmp(a, "--pgn")) {
            cfg->pgn_path = argv[++i];
        } else if (!strcmp(a, "--json")) {
            cfg->json_path = argv[++i];
        } else if (!strcmp(a, "--log")) {
            cfg->log_path = argv[++i];
        } else {
            fprintf(err, "tabula match: bad option '%s %s'\n", a, v);
            return false;
        }
    }
    if (cfg->nengines < 2) {
        fprintf(err, "tabula match: give at least two engines (--engine cmd=...)\n");
        return false;
    }
    for (int e = 0; e < cfg->nengines; e++) {
        EngineConfig *c = &cfg->engine[e];
        for (int s = 0; s < neach; s++)
            if (!engine_key(c, each[s], err))
                return false;
        for (int s = 0; s < nown[e]; s++)
            if (!engine_key(c, own[e][s], err))
                return false;
        if (!c->cmd[0]) {
            fprintf(err, "tabula match: engine %d has no cmd=\n", e + 1);
            return false;
        }
        if (!c->tc_time_ms && !c->movetime_ms && !c->depth && !c->nodes) {
            fprintf(err, "tabula match: engine %d has no limit (tc=, st=, depth= or nodes=)\n",
                    e + 1);
            return false;
        }
        if (!c->name[0])
            default_name(c);
    }
    // Distinct names, so that records and reports can tell the engines apart.
    for (int e = 1; e < cfg->nengines; e++)
        for (int f = 0; f < e; f++)
            if (!strcmp(cfg->engine[e].name, cfg->engine[f].name)) {
                char base[48];
                snprintf(base, sizeof base, "%s", cfg->engine[e].name);
                snprintf(cfg->engine[e].name, sizeof cfg->engine[e].name, "%s-%d", base, e + 1);
                f = -1; // check the new name against all again
            }
    if (cfg->random_plies < 0) {
        const Variant *v = variant_find(cfg->variant);
        cfg->random_plies = v->men < 9 ? v->men - 1 : 8;
    }
    return true;
}

// ---------------------------------------------------------------------------------------------
// Schedule and tally

static int make_pairings(int nengines, bool gauntlet, Pairing *p) {
    int n = 0;
    for (int a = 0; a < (gauntlet ? 1 : nengines); a++)
        for (int b = a + 1; b < nengines; b++)
            p[n++] = (Pairing){a, b};
    return n;
}

// The points of the white player in a result.
static double white_points(GameResult r) {
    return r == RESULT_WHITE_WINS ? 1 : r == RESULT_DRAW ? 0.5 : 0;
}

// Count game g (done) into t: per pairing from its first engine's view, per engine, per
// termination; with pair_done, also the pair of games 2q and 2q + 1 it completes.
static void tally_add(Tally *t, const Played *o, int g, bool pair_done) {
    int p = (g / 2) % t->npairings;
    int a = t->pairing[p].a;
    double wp = white_points(o[g].result);
    double pa = o[g].white == a ? wp : 1 - wp;
    MatchCounts *c = &t->counts[p];
    c->w += pa == 1;
    c->d += pa == 0.5;
    c->l += pa == 0;
    t->points[o[g].white] += wp;
    t->points[o[g].black] += 1 - wp;
    t->played[o[g].white]++;
    t->played[o[g].black]++;
    t->terminations[o[g].termination]++;
    if (o[g].termination != TERM_NORMAL && o[g].termination != TERM_ADJUDICATION &&
        o[g].result != RESULT_DRAW)
        t->faults[o[g].result == RESULT_WHITE_WINS ? o[g].black : o[g].white][o[g].termination]++;
    t->games++;
    if (pair_done) { // a's points in both games of the pair
        const Played *f = &o[g ^ 1];
        double fp = f->white == a ? white_points(f->result) : 1 - white_points(f->result);
        c->penta[(int)lround(2 * (fp + pa))]++;
    }
}

// An empty tally of the schedule's pairings.
static void tally_init(Tally *t, int nengines, bool gauntlet) {
    memset(t, 0, sizeof *t);
    t->npairings = make_pairings(nengines, gauntlet, t->pairing);
}

// Count every game played. Game pair q holds games 2q and 2q + 1.
static void tally_games(int nengines, bool gauntlet, const Played *o, int ngames, Tally *t) {
    tally_init(t, nengines, gauntlet);
    for (int g = 0; g < ngames; g++)
        if (o[g].done)
            tally_add(t, o, g, (g & 1) && o[g - 1].done);
}

// ---------------------------------------------------------------------------------------------
// Reports

static void print_elo(FILE *out, const char *label, double v) {
    char buf[32];
    stats_format_elo(buf, sizeof buf, v);
    fprintf(out, "%s%s", label, buf);
}

static void print_report(FILE *out, const char *const *names, int nengines, const Tally *t,
                         const SprtParams *sprt) {
    for (int p = 0; p < t->npairings; p++) {
        const MatchCounts *c = &t->counts[p];
        int games = stats_games(c);
        EloEstimate e = stats_elo_estimate(c);
        fprintf(out, "%s vs %s: %d games, +%d =%d -%d, score %.1f%%, draw ratio %.1f%%\n",
                names[t->pairing[p].a], names[t->pairing[p].b], games, c->w, c->d, c->l,
                100 * stats_score(c), 100 * stats_draw_ratio(c));
        print_elo(out, "  Elo ", e.elo);
        print_elo(out, " [", e.lo);
        print_elo(out, ", ", e.hi);
        fprintf(out, "] (95%%, %s), LOS %.1f%%\n",
                e.model == STATS_PENTANOMIAL ? "pentanomial" : "trinomial", 100 * stats_los(c));
        fprintf(out, "  pairs by score 0, 0.5, 1, 1.5, 2: %d %d %d %d %d\n", c->penta[0],
                c->penta[1], c->penta[2], c->penta[3], c->penta[4]);
        if (sprt && p == 0) {
            SprtResult r = stats_sprt(c, sprt);
            fprintf(out, "  SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.2f [%.2f, %.2f] %s\n",
                    sprt->elo0, sprt->elo1, sprt->alpha, sprt->beta, r.llr, r.lower, r.upper,
                    stats_sprt_name(r.decision));
        }
    }
    if (nengines > 2) {
        fprintf(out, "standings:\n");
        for (int e = 0; e < nengines; e++)
            fprintf(out, "  %-24s %6.1f / %d\n", names[e], t->points[e], t->played[e]);
    }
    fprintf(out, "terminations:");
    for (int k = 0; k < TERM_COUNT; k++)
        if (t->terminations[k])
            fprintf(out, " %s %d,", referee_termination_name(k), t->terminations[k]);
    fprintf(out, " %d games\n", t->games);
    int faults = 0;
    for (int e = 0; e < nengines; e++)
        for (int k = 0; k < TERM_COUNT; k++)
            if (t->faults[e][k]) {
                fprintf(out, "%s %s: %d game%s lost by %s\n",
                        faults++ ? "     " : "faults:", names[e], t->faults[e][k],
                        t->faults[e][k] > 1 ? "s" : "", referee_termination_name(k));
            }
    if (!faults)
        fprintf(out, "faults: none (no illegal move, time forfeit, crash or stall)\n");
}

static void json_elo(FILE *f, const char *key, double v) {
    if (isfinite(v))
        fprintf(f, "\"%s\": %.2f", key, v == 0 ? 0.0 : v); // never "-0.00"
    else
        fprintf(f, "\"%s\": null", key);
}

// Write the summary: the match's identity, every game, and the report's numbers.
static bool write_json(const char *path, const MatchConfig *cfg, const char *const *names,
                       const Played *o, int ngames, const Tally *t, bool merged) {
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fprintf(f, "{\n  \"format\": \"tabula-match-1\",\n  \"variant\": ");
    json_write_string(f, cfg->variant);
    fprintf(f, ",\n  \"engines\": [");
    for (int e = 0; e < cfg->nengines; e++) {
        fprintf(f, "%s", e ? ", " : "");
        json_write_string(f, names[e]);
    }
    fprintf(f, "],\n  \"gauntlet\": %s,\n  \"games_per_pairing\": %d,\n  \"seed\": %llu,\n",
            cfg->gauntlet ? "true" : "false", cfg->games, (unsigned long long)cfg->seed);
    fprintf(f, "  \"openings\": ");
    char spec[600];
    if (cfg->openings_path[0])
        snprintf(spec, sizeof spec, "file:%s", cfg->openings_path);
    else
        snprintf(spec, sizeof spec, "random:%d", cfg->random_plies);
    json_write_string(f, spec);
    if (merged)
        fprintf(f, ",\n  \"shard\": null");
    else
        fprintf(f, ",\n  \"shard\": [%d, %d]", cfg->shard, cfg->nshards);
    if (cfg->sprt)
        fprintf(f, ",\n  \"sprt\": {\"elo0\": %g, \"elo1\": %g, \"alpha\": %g, \"beta\": %g}",
                cfg->sprt_params.elo0, cfg->sprt_params.elo1, cfg->sprt_params.alpha,
                cfg->sprt_params.beta);
    fprintf(f, ",\n  \"games\": [");
    int k = 0;
    for (int g = 0; g < ngames; g++) {
        if (!o[g].done)
            continue;
        fprintf(f,
                "%s\n    {\"game\": %d, \"pair\": %d, \"white\": %d, \"black\": %d, "
                "\"result\": \"%s\", \"termination\": \"%s\", \"plies\": %d, \"reason\": ",
                k++ ? "," : "", g, g / 2, o[g].white, o[g].black, RESULT_TEXT[o[g].result],
                referee_termination_name(o[g].termination), o[g].plies);
        json_write_string(f, o[g].reason);
        fprintf(f, "}");
    }
    fprintf(f, "\n  ],\n  \"pairings\": [");
    for (int p = 0; p < t->npairings; p++) {
        const MatchCounts *c = &t->counts[p];
        EloEstimate e = stats_elo_estimate(c);
        fprintf(f, "%s\n    {\"first\": ", p ? "," : "");
        json_write_string(f, names[t->pairing[p].a]);
        fprintf(f, ", \"second\": ");
        json_write_string(f, names[t->pairing[p].b]);
        fprintf(f,
                ", \"games\": %d, \"wins\": %d, \"draws\": %d, \"losses\": %d, "
                "\"penta\": [%d, %d, %d, %d, %d], \"score\": %.4f, \"draw_ratio\": %.4f, ",
                stats_games(c), c->w, c->d, c->l, c->penta[0], c->penta[1], c->penta[2],
                c->penta[3], c->penta[4], stats_score(c), stats_draw_ratio(c));
        json_elo(f, "elo", e.elo);
        fprintf(f, ", ");
        json_elo(f, "elo_lo", e.lo);
        fprintf(f, ", ");
        json_elo(f, "elo_hi", e.hi);
        fprintf(f, ", \"los\": %.4f", stats_los(c));
        if (cfg->sprt && p == 0) {
            SprtResult r = stats_sprt(c, &cfg->sprt_params);
            fprintf(f, ", \"sprt_llr\": %.4f, \"sprt_decision\": \"%s\"", r.llr,
                    stats_sprt_name(r.decision));
        }
        fprintf(f, "}");
    }
    fprintf(f, "\n  ],\n  \"terminations\": {");
    for (int k2 = 0, first = 1; k2 < TERM_COUNT; k2++)
        if (t->terminations[k2]) {
            fprintf(f, "%s\"%s\": %d", first ? "" : ", ", referee_termination_name(k2),
                    t->terminations[k2]);
            first = 0;
        }
    fprintf(f, "}\n}\n");
    bool written = !ferror(f);
    return (fclose(f) == 0) && written;
}

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

// Count game g into the running tally, print its progress line (unless quiet) and check the
// SPRT.
static void progress(Runner *r, int g) {
    const Played *o = &r->outcome[g];
    tally_add(&r->tally, r->outcome, g, r->outcome[g ^ 1].done);
    const Tally *t = &r->tally;
    int p = (g / 2) % r->npairings;
    const MatchCounts *c = &t->counts[p];
    EloEstimate e = stats_elo_estimate(c);
    char elo[3][32];
    stats_format_elo(elo[0], sizeof elo[0], e.elo);
    stats_format_elo(elo[1], sizeof elo[1], e.lo);
    stats_format_elo(elo[2], sizeof elo[2], e.hi);
    if (!r->cfg->quiet)
        fprintf(r->out,
                "game %d/%d: %s - %s %s (%s, %d plies) | %s vs %s +%d =%d -%d, Elo %s [%s, %s]\n",
                r->finished, r->njobs, r->names[o->white], r->names[o->black],
                RESULT_TEXT[o->result], referee_termination_name(o->termination), o->plies,
                r->names[r->pairing[p].a], r->names[r->pairing[p].b], c->w, c->d, c->l, elo[0],
                elo[1], elo[2]);
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

static void *worker(void *arg) {
    Runner *r = arg;
    GameRecord *rec = malloc(sizeof *rec);
    GameSetup *setup = malloc(sizeof *setup);
    char fen[FEN_MAX];
    while (rec && setup) {
        pthread_mutex_lock(&r->lock);
        if (r->stop || atomic_load(&interrupted) || r->next == r->njobs) {
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

// Read an openings file: one opening per non-blank line not starting with '#'.
static Opening *load_openings(const char *path, int *n, FILE *err) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(err, "tabula match: cannot read '%s': %s\n", path, strerror(errno));
        return NULL;
    }
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

// Check every opening against the variant's rules before any game starts.
static bool check_openings(const MatchConfig *cfg, const Opening *list, int n, FILE *err) {
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
            fprintf(err, "tabula match: opening %d of %s: %s\n", i + 1, cfg->openings_path, e.msg);
            ok = false;
        }
    }
    free(s);
    return ok;
}

static int run_match(const MatchConfig *cfg, FILE *out, FILE *err) {
    Runner r = {.cfg = cfg, .out = out};
    for (int e = 0; e < cfg->nengines; e++)
        r.names[e] = cfg->engine[e].name;
    r.npairings = make_pairings(cfg->nengines, cfg->gauntlet, r.pairing);
    tally_init(&r.tally, cfg->nengines, cfg->gauntlet);
    long long npairs = (long long)(cfg->games / 2) * r.npairings;
    if (2 * npairs > MAX_GAMES) {
        fprintf(err, "tabula match: more than %d games\n", MAX_GAMES);
        return 2;
    }
    if (cfg->openings_path[0]) {
        r.openings = load_openings(cfg->openings_path, &r.nopenings, err);
        if (!r.openings || !check_openings(cfg, r.openings, r.nopenings, err)) {
            free(r.openings);
            return 2;
        }
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
    struct sigaction sa = {.sa_handler = on_interrupt}, old_int;
    atomic_store(&interrupted, 0);
    sigaction(SIGINT, &sa, &old_int);
    int nthreads = cfg->concurrency < r.njobs ? cfg->concurrency : r.njobs;
    pthread_t threads[MAX_CONCURRENCY];
    int started = 0;
    for (; started < nthreads; started++)
        if (pthread_create(&threads[started], NULL, worker, &r))
            break;
    if (!started && r.njobs)
        worker(&r);
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    sigaction(SIGINT, &old_int, NULL);
    pthread_mutex_destroy(&r.lock);

    const Tally *t = &r.tally;
    if (atomic_load(&interrupted)) {
        fprintf(out, "interrupted after %d of %d games\n", r.finished, r.njobs);
        status = 1;
    }
    print_report(out, r.names, cfg->nengines, t, cfg->sprt ? &cfg->sprt_params : NULL);
    if (cfg->json_path &&
        !write_json(cfg->json_path, cfg, r.names, r.outcome, r.ngames, t, false)) {
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

// ---------------------------------------------------------------------------------------------
// Merging

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap) {
            char *grown = realloc(buf, cap *= 2);
            if (!grown) {
                free(buf);
                buf = NULL;
            }
            buf = grown;
        }
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

// The identity of a match in its JSON summary: files merge only when these agree.
static bool same_match(const Json *a, const Json *b) {
    static const char *const KEYS[] = {"variant", "gauntlet", "games_per_pairing",
                                       "seed",    "openings", "engines"};
    for (size_t k = 0; k < sizeof KEYS / sizeof KEYS[0]; k++) {
        const Json *x = json_get(a, KEYS[k]), *y = json_get(b, KEYS[k]);
        if (!x || !y || x->type != y->type)
            return false;
        if (x->type == JSON_STRING && strcmp(x->string, y->string))
            return false;
        if (x->type == JSON_NUMBER && x->number != y->number)
            return false;
        if (x->type == JSON_BOOL && x->boolean != y->boolean)
            return false;
        if (x->type == JSON_ARRAY) {
            const Json *u = x->child, *v = y->child;
            for (; u && v; u = u->next, v = v->next)
                if (u->type != JSON_STRING || v->type != JSON_STRING ||
                    strcmp(u->string, v->string))
                    return false;
            if (u || v)
                return false;
        }
    }
    return true;
}

static GameResult result_of(const char *s) {
    for (int r = RESULT_WHITE_WINS; r <= RESULT_DRAW; r++)
        if (!strcmp(s, RESULT_TEXT[r]))
            return (GameResult)r;
    return RESULT_NONE;
}

// Take the games of one summary into the outcome table; false on a malformed or conflicting
// entry.
static bool merge_games(const Json *doc, Played *o, int ngames, int nengines, const char *path,
                        FILE *err) {
    const Json *games = json_get(doc, "games");
    if (!games || games->type != JSON_ARRAY) {
        fprintf(err, "tabula match: %s: no games list\n", path);
        return false;
    }
    for (const Json *g = games->child; g; g = g->next) {
        double id = json_number(g, "game", -1), w = json_number(g, "white", -1),
               b = json_number(g, "black", -1);
        GameResult res = result_of(json_string(g, "result", ""));
        Termination term = referee_termination_of(json_string(g, "termination", ""));
        if (!(id >= 0 && id < ngames && id == floor(id)) || !(w >= 0 && w < nengines) ||
            !(b >= 0 && b < nengines) || res == RESULT_NONE || term == TERM_COUNT) {
            fprintf(err, "tabula match: %s: malformed game entry\n", path);
            return false;
        }
        Played *x = &o[(int)id];
        if (x->done) {
            if (x->result != res || x->white != (int)w || x->black != (int)b) {
                fprintf(err, "tabula match: %s: game %d conflicts with an earlier file\n", path,
                        (int)id + 1);
                return false;
            }
            continue; // the same game listed twice (a file given twice): once is enough
        }
        x->done = true;
        x->white = (int)w;
        x->black = (int)b;
        x->result = res;
        x->termination = term;
        x->plies = (int)json_number(g, "plies", 0);
        snprintf(x->reason, sizeof x->reason, "%s", json_string(g, "reason", ""));
    }
    return true;
}

static int run_merge(int argc, char **argv, FILE *out, FILE *err) {
    const char *json_out = NULL;
    const char *files[4096];
    int nfiles = 0;
    bool sprt_given = false;
    SprtParams sprt = {0, 5, 0.05, 0.05};
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--json") && i + 1 < argc) {
            json_out = argv[++i];
        } else if (!strcmp(argv[i], "--sprt")) {
            static const char *const KEYS[] = {"elo0", "elo1", "alpha", "beta", NULL};
            double v[4];
            if (!parse_keyed(argc, argv, &i, KEYS, v, "--sprt", err))
                return 2;
            sprt = (SprtParams){isnan(v[0]) ? 0 : v[0], isnan(v[1]) ? 5 : v[1],
                                isnan(v[2]) ? 0.05 : v[2], isnan(v[3]) ? 0.05 : v[3]};
            sprt_given = true;
        } else if (!strncmp(argv[i], "--", 2) || nfiles == 4096) {
            fprintf(err, "tabula match --merge: bad argument '%s'\n", argv[i]);
            return 2;
        } else {
            files[nfiles++] = argv[i];
        }
    }
    if (!nfiles) {
        fprintf(err, "tabula match --merge: give the JSON summaries to merge\n");
        return 2;
    }
    Json *docs[4096];
    int status = 0, ndocs = 0;
    Played *o = NULL;
    MatchConfig *cfg = calloc(1, sizeof *cfg);
    for (; ndocs < nfiles; ndocs++) {
        char *text = read_file(files[ndocs]);
        char msg[160];
        docs[ndocs] = text ? json_parse(text, msg, sizeof msg) : NULL;
        free(text);
        if (!docs[ndocs]) {
            fprintf(err, "tabula match: %s: %s\n", files[ndocs],
                    text ? msg : "cannot read the file");
            status = 2;
            goto done;
        }
        if (strcmp(json_string(docs[ndocs], "format", ""), "tabula-match-1") ||
            !same_match(docs[0], docs[ndocs])) {
            fprintf(err, "tabula match: %s is not a summary of the same match as %s\n",
                    files[ndocs], files[0]);
            ndocs++;
            status = 2;
            goto done;
        }
    }
    // The match's identity, from the first file.
    const Json *d = docs[0], *engines = json_get(d, "engines");
    const char *names[MAX_ENGINES];
    for (const Json *e = engines->child; e && cfg->nengines < MAX_ENGINES; e = e->next) {
        snprintf(cfg->engine[cfg->nengines].name, sizeof cfg->engine[0].name, "%s", e->string);
        names[cfg->nengines] = cfg->engine[cfg->nengines].name;
        cfg->nengines++;
    }
    snprintf(cfg->variant, sizeof cfg->variant, "%s", json_string(d, "variant", "?"));
    cfg->gauntlet = json_get(d, "gauntlet")->boolean;
    double games = json_number(d, "games_per_pairing", 0);
    cfg->seed = (uint64_t)json_number(d, "seed", 0);
    const char *spec = json_string(d, "openings", "");
    if (!strncmp(spec, "file:", 5))
        snprintf(cfg->openings_path, sizeof cfg->openings_path, "%s", spec + 5);
    else
        cfg->random_plies = atoi(spec + 7);
    const Json *js = json_get(d, "sprt");
    if (!sprt_given && js) {
        sprt = (SprtParams){json_number(js, "elo0", 0), json_number(js, "elo1", 5),
                            json_number(js, "alpha", 0.05), json_number(js, "beta", 0.05)};
        sprt_given = true;
    }
    cfg->sprt = sprt_given;
    cfg->sprt_params = sprt;
    Pairing pairs[MAX_PAIRINGS];
    int npairings = make_pairings(cfg->nengines, cfg->gauntlet, pairs);
    if (cfg->nengines < 2 || !(games >= 2 && games <= MAX_GAMES) || games * npairings > MAX_GAMES) {
        fprintf(err, "tabula match: %s: bad engines or games_per_pairing\n", files[0]);
        status = 2;
        goto done;
    }
    cfg->games = (int)games;
    int ngames = cfg->games * npairings;
    o = calloc((size_t)ngames, sizeof *o);
    for (int i = 0; o && i < ndocs; i++)
        if (!merge_games(docs[i], o, ngames, cfg->nengines, files[i], err)) {
            status = 2;
            goto done;
        }
    if (!o) {
        status = 1;
        goto done;
    }
    Tally t;
    tally_games(cfg->nengines, cfg->gauntlet, o, ngames, &t);
    fprintf(out, "merged %d files: %d of %d games\n", nfiles, t.games, ngames);
    print_report(out, names, cfg->nengines, &t, cfg->sprt ? &cfg->sprt_params : NULL);
    if (json_out && !write_json(json_out, cfg, names, o, ngames, &t, true)) {
        fprintf(err, "tabula match: cannot write '%s'\n", json_out);
        status = 1;
    }
done:
    for (int i = 0; i < ndocs; i++)
        json_free(docs[i]);
    free(o);
    free(cfg);
    return status;
}

int match_main(int argc, char **argv, FILE *out, FILE *err) {
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--merge"))
            return run_merge(argc - 1 - i, argv + i + 1, out, err);
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(USAGE, out);
            return 0;
        }
    MatchConfig *cfg = malloc(sizeof *cfg);
    if (!cfg)
        return 1;
    int status;
    if (!parse_config(argc, argv, cfg, err)) {
        fputs(USAGE, err);
        status = 2;
    } else {
        status = run_match(cfg, out, err);
    }
    free(cfg);
    return status;
}
