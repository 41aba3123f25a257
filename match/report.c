#include "match/report.h"

#include "engine/core/parse.h"
#include "match/json.h"
#include "match/opening.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// The summary's format: version 2 numbers games and pairs from 1 (version 1 from 0).
#define SUMMARY_FORMAT "tabula-match-2"

// clang-format off
const char *const MATCH_RESULT_TEXT[] = {
    [RESULT_NONE] = "*", [RESULT_WHITE_WINS] = "1-0", [RESULT_BLACK_WINS] = "0-1",
    [RESULT_DRAW] = "1/2-1/2",
};
// clang-format on

// ---------------------------------------------------------------------------------------------
// Schedule and tally

int match_pairings(int nengines, bool gauntlet, Pairing *p) {
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

void tally_add(Tally *t, const Played *o, int g, bool pair_done) {
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
    t->white[wp == 1 ? 0 : wp == 0.5 ? 1 : 2]++;
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

void tally_init(Tally *t, int nengines, bool gauntlet) {
    memset(t, 0, sizeof *t);
    t->npairings = match_pairings(nengines, gauntlet, t->pairing);
}

void tally_games(int nengines, bool gauntlet, const Played *o, int ngames, Tally *t) {
    tally_init(t, nengines, gauntlet);
    for (int g = 0; g < ngames; g++)
        if (o[g].done)
            tally_add(t, o, g, (g & 1) && o[g - 1].done);
}

// ---------------------------------------------------------------------------------------------
// Reports

// How an engine lost a game by each fault, in the report's words.
static const char *const FAULT_TEXT[TERM_COUNT] = {
    [TERM_NORMAL] = "by the rules",
    [TERM_ADJUDICATION] = "by adjudication",
    [TERM_TIME] = "on time",
    [TERM_ILLEGAL] = "by an illegal move",
    [TERM_ABANDONED] = "by crashing, exiting or closing its pipes",
    [TERM_STALLED] = "by not answering in time (--movetimeout)",
};

// Print label and an Elo difference as the report shows it.
static void print_elo(FILE *out, const char *label, double v) {
    char buf[32];
    stats_format_elo(buf, sizeof buf, v);
    fprintf(out, "%s%s", label, buf);
}

void match_print_report(FILE *out, const char *const *names, int nengines, const Tally *t,
                        const SprtParams *sprt) {
    for (int p = 0; p < t->npairings; p++) {
        const MatchCounts *c = &t->counts[p];
        int games = stats_games(c);
        EloEstimate e = stats_elo_estimate(c);
        fprintf(out, "%s vs %s: %d games, +%d =%d -%d, score %.1f%%, draw ratio %.1f%%\n",
                names[t->pairing[p].a], names[t->pairing[p].b], games, c->w, c->d, c->l,
                100 * stats_score(c), 100 * stats_draw_ratio(c));
        char interval[80], los[16] = "n/a";
        stats_format_interval(interval, sizeof interval, &e);
        if (!isnan(stats_los(c)))
            snprintf(los, sizeof los, "%.1f%%", 100 * stats_los(c));
        print_elo(out, "  Elo ", e.elo);
        if (e.known)
            fprintf(out, " %s (95%%, %s), LOS %s\n", interval,
                    e.model == STATS_PENTANOMIAL ? "pentanomial" : "trinomial", los);
        else
            fprintf(out, " %s (too few games, or all alike), LOS %s\n", interval, los);
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
    if (t->games)
        fprintf(out, "colours: White +%d =%d -%d, White's score %.1f%%\n", t->white[0], t->white[1],
                t->white[2], 100.0 * (t->white[0] + 0.5 * t->white[1]) / t->games);
    fprintf(out, "terminations:");
    for (int k = 0; k < TERM_COUNT; k++)
        if (t->terminations[k])
            fprintf(out, " %s %d,", referee_termination_name(k), t->terminations[k]);
    fprintf(out, " %d games\n", t->games);
    int faults = 0;
    for (int e = 0; e < nengines; e++)
        for (int k = 0; k < TERM_COUNT; k++)
            if (t->faults[e][k]) {
                fprintf(out, "%s %s: %d game%s lost %s\n", faults++ ? "     " : "faults:", names[e],
                        t->faults[e][k], t->faults[e][k] > 1 ? "s" : "", FAULT_TEXT[k]);
            }
    if (!faults)
        fprintf(out, "faults: none (no illegal move, time forfeit, crash or stall)\n");
}

// Write one Elo member of the summary; null when it is not finite.
static void json_elo(FILE *f, const char *key, double v) {
    if (isfinite(v))
        fprintf(f, "\"%s\": %.2f", key, v == 0 ? 0.0 : v); // never "-0.00"
    else
        fprintf(f, "\"%s\": null", key);
}

bool match_write_json(const char *path, const MatchConfig *cfg, const char *const *names,
                      const Played *o, int ngames, const Tally *t, bool merged) {
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fprintf(f, "{\n  \"format\": \"" SUMMARY_FORMAT "\",\n  \"variant\": ");
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
    else if (cfg->book)
        snprintf(spec, sizeof spec, "book");
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
                k++ ? "," : "", g + 1, g / 2 + 1, o[g].white, o[g].black,
                MATCH_RESULT_TEXT[o[g].result], referee_termination_name(o[g].termination),
                o[g].plies);
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
        json_elo(f, "elo_lo", e.known ? e.lo : NAN);
        fprintf(f, ", ");
        json_elo(f, "elo_hi", e.known ? e.hi : NAN);
        if (isnan(stats_los(c)))
            fprintf(f, ", \"los\": null");
        else
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
// Merging

// Read a whole file into a new string; NULL when it cannot be read.
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

// The result a PGN result text names; RESULT_NONE for any other text.
static GameResult result_of(const char *s) {
    for (int r = RESULT_WHITE_WINS; r <= RESULT_DRAW; r++)
        if (!strcmp(s, MATCH_RESULT_TEXT[r]))
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
        if (!(id >= 1 && id <= ngames && id == floor(id)) || !(w >= 0 && w < nengines) ||
            !(b >= 0 && b < nengines) || res == RESULT_NONE || term == TERM_COUNT) {
            fprintf(err, "tabula match: %s: malformed game entry\n", path);
            return false;
        }
        Played *x = &o[(int)id - 1]; // numbered from 1, as in the PGN's Round tag
        if (x->done) {
            if (x->result != res || x->white != (int)w || x->black != (int)b) {
                fprintf(err, "tabula match: %s: game %d conflicts with an earlier file\n", path,
                        (int)id);
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

int match_merge(int argc, char **argv, FILE *out, FILE *err) {
    const char *json_out = NULL;
    const char *files[4096];
    int nfiles = 0;
    bool sprt_given = false;
    SprtParams sprt = {0, 5, 0.05, 0.05};
    // The parser's message is caught so that it can end with the pointer to --help.
    char *usage = NULL;
    size_t usage_len = 0;
    FILE *caught = open_memstream(&usage, &usage_len);
    Args a;
    args_init(&a, "tabula match --merge", argc, argv, caught ? caught : err);
    while (args_more(&a)) {
        const char *file;
        if (args_string(&a, "--json", &json_out)) {
        } else if (args_match(&a, "--sprt")) {
            sprt_given = match_parse_sprt(&a, &sprt);
        } else if ((file = args_operand(&a))) {
            if (nfiles == 4096)
                args_fail(&a, "at most 4096 files");
            else
                files[nfiles++] = file;
        } else {
            args_unknown(&a);
        }
    }
    if (!a.failed && !nfiles)
        args_fail(&a, "give the JSON summaries to merge");
    if (caught) {
        fclose(caught);
        if (a.failed)
            match_usage_error(err, "tabula match", usage);
        free(usage);
    }
    if (a.failed)
        return 2;
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
        if (!strcmp(json_string(docs[ndocs], "format", ""), "tabula-match-1")) {
            fprintf(err,
                    "tabula match: %s is an older summary (games numbered from 0); play its "
                    "shard again\n",
                    files[ndocs]);
            ndocs++;
            status = 2;
            goto done;
        }
        if (strcmp(json_string(docs[ndocs], "format", ""), SUMMARY_FORMAT) ||
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
    long long plies;
    cfg->book = !strcmp(spec, "book");
    if (!strncmp(spec, "file:", 5))
        snprintf(cfg->openings_path, sizeof cfg->openings_path, "%s", spec + 5);
    else if (!cfg->book)
        cfg->random_plies = parse_integer(spec + 7, 0, OPENING_MAX_PLIES, &plies) ? (int)plies : 0;
    const Json *js = json_get(d, "sprt");
    if (!sprt_given && js) {
        sprt = (SprtParams){json_number(js, "elo0", 0), json_number(js, "elo1", 5),
                            json_number(js, "alpha", 0.05), json_number(js, "beta", 0.05)};
        sprt_given = true;
    }
    cfg->sprt = sprt_given;
    cfg->sprt_params = sprt;
    Pairing pairs[MAX_PAIRINGS];
    int npairings = match_pairings(cfg->nengines, cfg->gauntlet, pairs);
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
    match_print_report(out, names, cfg->nengines, &t, cfg->sprt ? &cfg->sprt_params : NULL);
    if (json_out && !match_write_json(json_out, cfg, names, o, ngames, &t, true)) {
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
