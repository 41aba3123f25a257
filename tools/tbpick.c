// tbpick: random positions of an endgame database with a given value, as an openings file for
// `tabula match` (scripts/tbconvert.sh).
//
//   build/tbpick DB --men 3-3,4-3 --value won|drawn [--count N] [--min-plies D] [--seed S]
//                --out OPENINGS --key KEY
//
// Each position has A men on one side and B on the other (the colours and the side to move
// drawn at random), no men in hand, and is not over. `won`: a side wins in at least D plies
// (default 1) by the database; `drawn`: the database says draw. The positions are spread evenly
// over the material classes given. OPENINGS gets one position string per line; KEY the same
// line number's winner (`white`, `black` or `draw`) and distance in plies.
#include "engine/core/args.h"
#include "engine/core/random.h"
#include "engine/mill/solve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state;

static unsigned rng(unsigned n) { return (unsigned)(random_next(&rng_state) % n); }

// k random points among the free ones.
static Bits random_set(Bits free, int npoints, int k) {
    Bits s = 0;
    while (k > 0) {
        int p = (int)rng((unsigned)npoints);
        if (free & BIT(p) && !(s & BIT(p)))
            s |= BIT(p), k--;
    }
    return s;
}

static int usage(void) {
    fprintf(stderr, "usage: tbpick DB --men A-B[,A-B...] --value won|drawn [--count N] "
                    "[--min-plies D] [--seed S] --out OPENINGS --key KEY\n");
    return 2;
}

int main(int argc, char **argv) {
    const char *dbpath = NULL, *men = NULL, *value = NULL, *out = NULL, *key = NULL;
    int count = 100, min_plies = 1;
    rng_state = 1;
    Args args;
    args_init(&args, "tbpick", argc - 1, argv + 1, stderr);
    while (args_more(&args)) {
        const char *arg;
        if (args_string(&args, "--men", &men) || args_string(&args, "--value", &value) ||
            args_int(&args, "--count", 1, 100000000, &count) ||
            args_int(&args, "--min-plies", 0, 100000, &min_plies) ||
            args_u64(&args, "--seed", &rng_state) || args_string(&args, "--out", &out) ||
            args_string(&args, "--key", &key))
            continue;
        if ((arg = args_operand(&args)) && !dbpath)
            dbpath = arg;
        else if (arg)
            args_fail(&args, "one database only, not also '%s'", arg);
        else
            args_unknown(&args);
    }
    if (args.failed)
        return usage();
    int classes[16][2], nclasses = 0;
    for (const char *s = men; s && *s && nclasses < 16;) {
        int a, b, used;
        if (sscanf(s, "%d-%d%n", &a, &b, &used) != 2)
            return usage();
        classes[nclasses][0] = a, classes[nclasses++][1] = b;
        s += used;
        s += *s == ',';
    }
    if (!dbpath || !nclasses || !value || (strcmp(value, "won") && strcmp(value, "drawn")) ||
        !out || !key || count < 1)
        return usage();
    bool won = !strcmp(value, "won");
    Error err;
    SolveDb *db = solve_load(dbpath, &err);
    if (!db) {
        fprintf(stderr, "tbpick: %s\n", err.msg);
        return 1;
    }
    FILE *fo = fopen(out, "w"), *fk = fopen(key, "w");
    if (!fo || !fk) {
        fprintf(stderr, "tbpick: cannot write %s or %s\n", out, key);
        return 1;
    }
    const MillRules *r = solve_rules(db);
    int npoints = r->board->npoints;
    uint64_t tried = 0;
    for (int i = 0; i < count; i++) {
        int a = classes[i % nclasses][0], b = classes[i % nclasses][1];
        for (;;) {
            if (++tried > 100000000ull) {
                fprintf(stderr, "tbpick: no such positions in %s\n", dbpath);
                return 1;
            }
            Position p = {.rules = r, .fullmove = 1};
            int first = (int)rng(2); // the colour with a men
            p.side = (int)rng(2);
            p.men[first] = random_set(r->board->all, npoints, a);
            p.men[!first] = random_set(r->board->all & ~p.men[first], npoints, b);
            p.key = pos_compute_key(&p);
            int v, d;
            if (pos_outcome(&p) != OUTCOME_NONE || !solve_probe(db, &p, &v, &d) ||
                (v != SOLVE_DRAW && d == 0))
                continue;
            if (won ? v == SOLVE_DRAW || d < min_plies : v != SOLVE_DRAW)
                continue;
            char fen[FEN_MAX];
            pos_get_fen(&p, fen, sizeof fen);
            int winner = v == SOLVE_WIN ? p.side : !p.side;
            fprintf(fo, "%s\n", fen);
            fprintf(fk, "%s %d\n",
                    v == SOLVE_DRAW   ? "draw"
                    : winner == WHITE ? "white"
                                      : "black",
                    v == SOLVE_DRAW ? 0 : d);
            break;
        }
    }
    fclose(fo);
    fclose(fk);
    solve_free(db);
    return 0;
}
