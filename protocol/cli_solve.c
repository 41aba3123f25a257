#include "engine/core/args.h"
#include "engine/core/clock.h"
#include "engine/core/registry.h"
#include "engine/mill/solve.h"
#include "engine/mill/variant.h"
#include "protocol/cli.h"

#include <stdio.h>
#include <unistd.h>

typedef struct SolveTicker {
    bool tty;
    double last;
} SolveTicker;

// Print the solver's progress on stderr: one rewritten line on a terminal, else a line every
// few seconds.
static void print_solve_progress(void *ctx, const SolveProgress *p) {
    SolveTicker *t = ctx;
    if (p->seconds - t->last < (t->tty ? 0.2 : 5.0) && p->done < p->total)
        return;
    t->last = p->seconds;
    double rate = p->seconds > 0 ? (double)(p->done - p->resumed) / p->seconds : 0;
    char left[32] = "time left unknown";
    if (rate > 0)
        snprintf(left, sizeof left, "%.0f s left", (double)(p->total - p->done) / rate);
    fprintf(stderr,
            "%s%llu/%llu positions (%.1f%%), %.0f/s, %s; at %d+%d men on the board, "
            "%d+%d in hand, pass %d%s",
            t->tty ? "\r" : "", (unsigned long long)p->done, (unsigned long long)p->total,
            p->total ? 100.0 * (double)p->done / (double)p->total : 100.0, rate, left, p->a, p->b,
            p->ha, p->hb, p->pass, t->tty ? "\033[K" : "\n");
}

// The word for a solved value.
static const char *value_word(int value) {
    return value == SOLVE_WIN ? "win" : value == SOLVE_LOSS ? "loss" : "draw";
}

// One line per sub-database of the moving phase: men, size, values, longest win, time.
static void print_sub_stats(const SolveDb *db) {
    printf("%-5s %12s %12s %12s %12s %12s %8s %8s %9s %8s\n", "men", "raw index", "stored", "wins",
           "draws", "losses", "win max", "loss max", "MB", "seconds");
    SolveSubStats s;
    for (int i = 0; solve_sub_stats(db, i, &s); i++)
        printf("%d-%-3d %12llu %12llu %12llu %12llu %12llu %8d %8d %9.1f %8.1f\n", s.a, s.b,
               (unsigned long long)s.raw, (unsigned long long)s.positions,
               (unsigned long long)s.wins, (unsigned long long)s.draws,
               (unsigned long long)s.losses, s.longest_win, s.longest_loss,
               (double)s.bytes / (1 << 20), s.seconds);
    printf("(a-b: the side to move has a men, the other b; the seconds are those of the group "
           "a-b with b-a)\n");
}

#define SOLVE_USAGE "usage: tabula solve VARIANT [--men M] [--out FILE] [--threads N]\n"

int cli_solve(int argc, char **argv) {
    const char *variant = NULL, *out = NULL, *arg;
    int threads = 0, men = 0;
    Args a;
    args_init(&a, "tabula solve", argc, argv, stderr);
    while (args_more(&a)) {
        if (args_string(&a, "--out", &out) || args_int(&a, "--men", 1, 64, &men) ||
            args_int(&a, "--threads", 1, 4096, &threads))
            continue;
        if ((arg = args_operand(&a)) && !variant)
            variant = arg;
        else if (arg)
            args_fail(&a, "unexpected argument '%s' (one variant only)", arg);
        else
            args_unknown(&a);
    }
    if (a.failed) {
        fputs(SOLVE_USAGE, stderr);
        return 2;
    }
    if (!variant) {
        fprintf(stderr,
                "tabula solve: which variant? (three, nine-holes, tapatan, achi, five, six, "
                "seven; nine, twelve, eleven, morabaraba, lasker with --men)\n" SOLVE_USAGE);
        return 2;
    }
    const GameFamily *f = registry_find(variant);
    if (!f) {
        cli_unknown_variant("tabula solve", variant);
        return 2;
    }
    if (!(f->capabilities & GAME_CAN_SOLVE)) {
        fprintf(stderr, "tabula solve: %s cannot be solved (the solver solves mill variants)\n",
                variant);
        return 2;
    }
    const Variant *v = variant_find(variant);
    char path[4096];
    if (out)
        snprintf(path, sizeof path, "%s", out);
    else if (men)
        snprintf(path, sizeof path, "%s-men%d.tdb", v->id, men);
    else
        snprintf(path, sizeof path, "%s.tdb", v->id);
    MillRules rules;
    rules_init(&rules, v);
    Error err;
    SolveTicker ticker = {isatty(STDERR_FILENO), -1e9};
    SolveOptions opt = {path, threads, false, print_solve_progress, &ticker, men};
    int64_t t0 = clock_now_us();
    SolveDb *db = solve_build(&rules, &opt, &err);
    double secs = (double)(clock_now_us() - t0) / 1e6;
    if (ticker.tty)
        fputs("\n", stderr);
    if (!db) {
        fprintf(stderr, "tabula solve: %s\n", err.msg);
        return 1;
    }
    SolveStats st;
    solve_stats(db, &st);
    printf("%s (%s) solved in %.2f s into %s\n", v->title, v->id, secs, path);
    printf("positions: %llu in %d sub-databases, %d board symmetries folded, %.1f MB\n",
           (unsigned long long)st.positions, st.subdbs, st.symmetries,
           (double)st.bytes / (1 << 20));
    printf("values for the side to move: %llu wins, %llu draws, %llu losses\n",
           (unsigned long long)st.wins, (unsigned long long)st.draws,
           (unsigned long long)st.losses);
    if (st.longest_win >= 0)
        printf("longest win: %d plies, from %s\n", st.longest_win, st.longest_fen);
    if (men) {
        print_sub_stats(db);
        solve_free(db);
        return 0;
    }
    if (st.start_value == SOLVE_DRAW)
        printf("start: draw\n");
    else
        printf("start: %s for White (the side to move) in %d plies: %s\n",
               value_word(st.start_value), st.start_distance,
               st.start_value == SOLVE_WIN ? "a first-player win" : "a second-player win");
    solve_free(db);
    return 0;
}
