#include "match/config.h"

#include "engine/core/parse.h"
#include "engine/core/registry.h"
#include "engine/mill/game.h"
#include "engine/mill/variant.h"
#include "match/bgreferee.h"
#include "match/opening.h"

#include <math.h>
#include <string.h>

const char MATCH_USAGE[] =
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
    "  --variant ID         the variant (default nine; backgammon: see below)\n"
    "  --games N            games per pairing, rounded up to a whole number of pairs (default 2)\n"
    "  --gauntlet           the first engine against each other one (default: round robin)\n"
    "  --openings book | random:PLIES | file:PATH\n"
    "                       the variant's balanced opening book (the default), random legal\n"
    "                       plies from the start, or one opening per line: 'startpos moves ...',\n"
    "                       'fen <string> [moves ...]' or a move list; each opening is played\n"
    "                       twice, colours swapped\n"
    "  --seed N             seed of the random openings (default 1)\n"
    "  --concurrency N      games at once (default 1)\n"
    "  --draw movenumber=M movecount=N score=CP\n"
    "                       adjudicate a draw from move M when both engines' scores stay within\n"
    "                       CP for N moves each\n"
    "  --resign movecount=N score=CP\n"
    "                       adjudicate a win when both engines agree for N moves each that one\n"
    "                       side is at least CP ahead\n"
    "  --maxplies N         adjudicate a draw after N plies (default 1000)\n"
    "  --timemargin MS      how late past its clock or movetime an answer may come (default 0);\n"
    "                       on a loaded machine (more games at once than free cores) give\n"
    "                       some, e.g. 50, so that scheduling delays do not lose on time\n"
    "  --movetimeout MS     the longest wait without a clock: handshake, depth or nodes searches\n"
    "                       (default 30000)\n"
    "  --sprt elo0=E0 elo1=E1 alpha=A beta=B\n"
    "                       stop when the SPRT of the first two engines decides\n"
    "  --shard I/N          play only slice I of N of the schedule (whole game pairs)\n"
    "  --pgn FILE           write the game records\n"
    "  --json FILE          write the summary, with every game, as JSON\n"
    "  --log FILE           write every line sent to and read from the engines\n"
    "  --quiet              no progress line per game\n"
    "  --merge FILE...      combine the JSON summaries of shards into one report\n"
    "\n"
    "backgammon (--variant backgammon, two engines; docs/match.md):\n"
    "  --length N           matches to N points with the Crawford rule (default: money play;\n"
    "                       --games counts whole matches)\n"
    "  --jacoby on|off      the Jacoby rule in money play (default on)\n"
    "  --mat FILE           write the games as a Jellyfish .mat file (money play: one file;\n"
    "                       matches: FILE-1.mat, FILE-2.mat, ... with .mat stripped from FILE)\n"
    "  --seed N             also seeds the dice; both games of a pair get the same dice\n";

// Read a whole decimal number of seconds, at least 0, as milliseconds.
static bool seconds_ms(const char *s, int64_t *ms) {
    double v;
    if (!args_parse_double(s, &v) || !(v >= 0) || v > 1e9)
        return false;
    *ms = (int64_t)llround(v * 1000);
    return true;
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
        if (!seconds_ms(plus + 1, &inc))
            return false;
    }
    int64_t base;
    if (!seconds_ms(time, &base) || base <= 0)
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
        ok = seconds_ms(v, &c->movetime_ms) && c->movetime_ms > 0;
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

// Read the KEY=VALUE operands that follow the cursor, for option flag: each key's value into
// vals (NAN when absent); false after reporting an unknown key or a bad number.
static bool parse_keyed(Args *a, const char *const *keys, double *vals, const char *flag) {
    for (int k = 0; keys[k]; k++)
        vals[k] = NAN;
    const char *arg;
    while ((arg = args_operand(a))) {
        const char *eq = strchr(arg, '=');
        int k = 0;
        while (keys[k] && (!eq || strlen(keys[k]) != (size_t)(eq - arg) ||
                           strncmp(keys[k], arg, (size_t)(eq - arg))))
            k++;
        if (!keys[k] || !args_parse_double(eq + 1, &vals[k])) {
            args_fail(a, "bad %s setting '%s'", flag, arg);
            return false;
        }
    }
    return true;
}

bool match_parse_sprt(Args *a, SprtParams *p) {
    static const char *const KEYS[] = {"elo0", "elo1", "alpha", "beta", NULL};
    double val[4];
    if (!parse_keyed(a, KEYS, val, "--sprt"))
        return false;
    *p = (SprtParams){isnan(val[0]) ? 0 : val[0], isnan(val[1]) ? 5 : val[1],
                      isnan(val[2]) ? 0.05 : val[2], isnan(val[3]) ? 0.05 : val[3]};
    if (!(p->alpha > 0 && p->alpha < 0.5 && p->beta > 0 && p->beta < 0.5 && p->elo0 < p->elo1)) {
        args_fail(a, "--sprt needs elo0 < elo1 and 0 < alpha, beta < 0.5");
        return false;
    }
    return true;
}

// Read --draw or --resign (draw) and its KEY=VALUE operands into adj.
static bool parse_adjudication(Args *a, bool draw, Adjudication *adj) {
    static const char *const KEYS[] = {"movenumber", "movecount", "score", NULL};
    const char *flag = draw ? "--draw" : "--resign";
    double val[3];
    if (!parse_keyed(a, KEYS, val, flag))
        return false;
    if (isnan(val[1]) || isnan(val[2]) || val[1] < 1 || val[1] > 1000 || val[2] < 0 ||
        val[2] > 100000 || (draw && !isnan(val[0]) && (val[0] < 0 || val[0] > 10000)) ||
        (!draw && !isnan(val[0]))) {
        args_fail(a, "%s needs %smovecount=N score=CP", flag, draw ? "[movenumber=M] " : "");
        return false;
    }
    if (draw) {
        adj->draw_from = isnan(val[0]) ? 0 : (int)val[0];
        adj->draw_moves = (int)val[1];
        adj->draw_score = (int)val[2];
    } else {
        adj->resign_moves = (int)val[1];
        adj->resign_score = (int)val[2];
    }
    return true;
}

// Check and take the variant: the mill variants and backgammon.
static bool take_variant(Args *a, const char *id, MatchConfig *cfg) {
    if ((variant_find(id) || !strcmp(id, "backgammon")) && strlen(id) < sizeof cfg->variant) {
        snprintf(cfg->variant, sizeof cfg->variant, "%s", id);
        return true;
    }
    if (registry_find(id)) {
        args_fail(a, "the match runner referees the mill variants and backgammon, not %s", id);
        return false;
    }
    char known[512];
    size_t n = 0;
    known[0] = '\0';
    for (int i = 0; MILL_FAMILY.variant_id(i) && n < sizeof known; i++)
        n += (size_t)snprintf(known + n, sizeof known - n, "%s%s", i ? ", " : "",
                              MILL_FAMILY.variant_id(i));
    args_fail(a, "unknown variant '%s' (known: %s)", id, known);
    return false;
}

// Read --openings book, random:PLIES or file:PATH.
static bool take_openings(Args *a, const char *v, MatchConfig *cfg) {
    long long n;
    cfg->book = false;
    cfg->openings_path[0] = '\0';
    if (!strcmp(v, "book")) {
        cfg->book = true;
    } else if (!strncmp(v, "random:", 7) && parse_integer(v + 7, 0, OPENING_MAX_PLIES, &n)) {
        cfg->random_plies = (int)n;
    } else if (!strncmp(v, "file:", 5) && v[5] && strlen(v + 5) < sizeof cfg->openings_path) {
        snprintf(cfg->openings_path, sizeof cfg->openings_path, "%s", v + 5);
    } else {
        args_fail(a, "--openings takes book, random:PLIES (0-%d) or file:PATH", OPENING_MAX_PLIES);
        return false;
    }
    return true;
}

// Read --shard I/N.
static bool take_shard(Args *a, const char *v, MatchConfig *cfg) {
    long long idx, cnt;
    char buf[48];
    char *slash = strlen(v) < sizeof buf ? strchr(strcpy(buf, v), '/') : NULL;
    if (!slash || (*slash = '\0', !parse_integer(buf, 1, MAX_GAMES, &idx)) ||
        !parse_integer(slash + 1, 1, MAX_GAMES, &cnt) || idx > cnt) {
        args_fail(a, "--shard takes I/N with 1 <= I <= N");
        return false;
    }
    cfg->shard = (int)idx;
    cfg->nshards = (int)cnt;
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

// Collect the KEY=VALUE operands that follow the cursor.
static int take_settings(Args *a, const char **into, int max) {
    int n = 0;
    const char *arg;
    while (n < max && (arg = args_operand(a)))
        into[n++] = arg;
    return n;
}

#define MAX_SETTINGS 64

// Read the options of the command line into cfg and the engines' settings.
static bool read_options(Args *a, MatchConfig *cfg, const char **each, int *neach,
                         const char *(*own)[MAX_SETTINGS], int *nown) {
    const char *v = NULL;
    int games = 0;
    long long margin = cfg->timemargin_ms, timeout = cfg->movetimeout_ms;
    bool sprt = false, draw = false, resign = false;
    while (args_more(a)) {
        if (args_match(a, "--engine")) {
            if (cfg->nengines == MAX_ENGINES) {
                args_fail(a, "at most %d engines", MAX_ENGINES);
                return false;
            }
            nown[cfg->nengines] = take_settings(a, own[cfg->nengines], MAX_SETTINGS);
            cfg->nengines++;
        } else if (args_match(a, "--each")) {
            *neach += take_settings(a, each + *neach, MAX_SETTINGS - *neach);
        } else if (args_flag(a, "--gauntlet", &cfg->gauntlet) ||
                   args_flag(a, "--quiet", &cfg->quiet)) {
        } else if (args_flag(a, "--sprt", &sprt)) {
            cfg->sprt = true;
            if (!match_parse_sprt(a, &cfg->sprt_params))
                return false;
        } else if (args_flag(a, "--draw", &draw) || args_flag(a, "--resign", &resign)) {
            if (!parse_adjudication(a, draw, &cfg->adj))
                return false;
            draw = resign = false;
        } else if (args_string(a, "--variant", &v)) {
            if (v && !take_variant(a, v, cfg))
                return false;
            v = NULL;
        } else if (args_int(a, "--games", 1, MAX_GAMES, &games)) {
            cfg->games = games + (games & 1);
        } else if (args_int(a, "--concurrency", 1, MAX_CONCURRENCY, &cfg->concurrency) ||
                   args_u64(a, "--seed", &cfg->seed) ||
                   args_int(a, "--maxplies", 1, MAX_RECORD_PLIES, &cfg->adj.max_plies) ||
                   args_long(a, "--timemargin", 0, 3600000, &margin) ||
                   args_long(a, "--movetimeout", 1, 86400000, &timeout) ||
                   args_string(a, "--pgn", &cfg->pgn_path) ||
                   args_string(a, "--json", &cfg->json_path) ||
                   args_string(a, "--log", &cfg->log_path)) {
        } else if (args_string(a, "--openings", &v)) {
            if (v && !take_openings(a, v, cfg))
                return false;
            v = NULL;
        } else if (args_int(a, "--length", 1, BG_MAX_LENGTH, &cfg->length) ||
                   args_string(a, "--mat", &cfg->mat_path)) {
        } else if (args_string(a, "--jacoby", &v)) {
            if (v && strcmp(v, "on") && strcmp(v, "off")) {
                args_fail(a, "--jacoby takes on or off");
                return false;
            }
            if (v)
                cfg->jacoby = !strcmp(v, "on");
            v = NULL;
        } else if (args_string(a, "--shard", &v)) {
            if (v && !take_shard(a, v, cfg))
                return false;
            v = NULL;
        } else {
            args_unknown(a);
        }
    }
    cfg->timemargin_ms = margin;
    cfg->movetimeout_ms = timeout;
    return !a->failed;
}

// Whether arg is the option name, alone or as name=value.
static bool is_option(const char *arg, const char *name) {
    size_t n = strlen(name);
    return !strncmp(arg, name, n) && (arg[n] == '\0' || arg[n] == '=');
}

// Check the options that backgammon takes or refuses: two engines, no mill-only option; the
// backgammon options only with backgammon.
static bool check_backgammon(const MatchConfig *cfg, int argc, char **argv, FILE *err) {
    static const char *const MILL_ONLY[] = {"--pgn",      "--json",   "--openings", "--sprt",
                                            "--draw",     "--resign", "--gauntlet", "--shard",
                                            "--maxplies", NULL};
    static const char *const BG_ONLY[] = {"--length", "--jacoby", "--mat", NULL};
    bool bg = !strcmp(cfg->variant, "backgammon");
    const char *const *refused = bg ? MILL_ONLY : BG_ONLY;
    for (int i = 0; i < argc; i++)
        for (int k = 0; refused[k]; k++)
            if (is_option(argv[i], refused[k])) {
                fprintf(err, "tabula match: %s is for %s matches only\n", refused[k],
                        bg ? "mill" : "backgammon");
                return false;
            }
    if (bg && cfg->nengines != 2) {
        fprintf(err, "tabula match: backgammon matches take exactly two engines\n");
        return false;
    }
    for (int i = 0; bg && cfg->length && i < argc; i++)
        if (is_option(argv[i], "--jacoby")) {
            fprintf(err, "tabula match: --jacoby is for money play (without --length)\n");
            return false;
        }
    return true;
}

bool match_parse_config(int argc, char **argv, MatchConfig *cfg, FILE *err) {
    memset(cfg, 0, sizeof *cfg);
    snprintf(cfg->variant, sizeof cfg->variant, "nine");
    cfg->games = 2;
    cfg->concurrency = 1;
    cfg->seed = 1;
    cfg->random_plies = -1;
    cfg->book = true;
    cfg->adj.max_plies = 1000;
    cfg->movetimeout_ms = 30000;
    cfg->shard = cfg->nshards = 1;
    cfg->jacoby = true;
    const char *each[MAX_SETTINGS], *own[MAX_ENGINES][MAX_SETTINGS];
    int neach = 0, nown[MAX_ENGINES] = {0};
    Args a;
    args_init(&a, "tabula match", argc, argv, err);
    if (!read_options(&a, cfg, each, &neach, own, nown))
        return false;
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
                snprintf(cfg->engine[e].name, sizeof cfg->engine[e].name, "%.47s-%d", base, e + 1);
                f = -1; // check the new name against all again
            }
    if (!check_backgammon(cfg, argc, argv, err))
        return false;
    if (cfg->random_plies < 0 && variant_find(cfg->variant)) {
        const Variant *v = variant_find(cfg->variant);
        cfg->random_plies = v->men < 9 ? v->men - 1 : 8;
    }
    return true;
}

void match_usage_error(FILE *err, const char *prog, const char *msg) {
    size_t len = strlen(msg);
    while (len && msg[len - 1] == '\n')
        len--;
    if (!len)
        fprintf(err, "%s: bad arguments", prog);
    fprintf(err, "%.*s (try %s --help)\n", (int)len, msg, prog);
}
