// The only main(): subcommands, or the protocol loop on stdin/stdout.
#include "engine/core/bench.h"
#include "match/match.h"
#include "engine/core/clock.h"
#include "engine/mill/game.h"
#include "engine/mill/solve.h"
#include "protocol/external.h"
#include "protocol/prompt.h"
#include "protocol/uci.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

static const char USAGE[] =
    "usage: tabula [command]\n"
    "\n"
    "With no command, tabula reads protocol commands (uci, position, go, ...) on stdin and\n"
    "answers on stdout; type 'help' at the prompt for the list.\n"
    "\n"
    "commands:\n"
    "  bench [DEPTH]\n"
    "        search a fixed set of positions of every variant to DEPTH (default " STRINGIFY(
        BENCH_DEPTH_DEFAULT) ") with one\n"
                             "        thread; the last line, '<nodes> nodes <nps> nps', has the "
                             "same node count on\n"
                             "        every run and build\n"
                             "  perft [--variant ID] [--fen STRING] [--divide] [DEPTH]\n"
                             "        count the move sequences of DEPTH plies (default 6) from the "
                             "variant's start\n"
                             "        or from STRING, and report the time and leaves per second\n"
                             "  match --engine cmd=... --engine cmd=... [options]\n"
                             "        play engines against each other, refereed by tabula's "
                             "rules;\n"
                             "        'tabula match --help' lists the options\n"
                             "  solve VARIANT [--men M] [--out FILE] [--threads N]\n"
                             "        solve a variant of the 9-, 16- or 17-point board by "
                             "retrograde analysis into\n"
                             "        FILE (default VARIANT.tdb; an unfinished FILE is resumed) "
                             "with N threads\n"
                             "        (default all), then print the value of the start and "
                             "statistics;\n"
                             "        with --men M, the endgame database of a 24-point variant: "
                             "every position\n"
                             "        with no men in hand and 3 to M men a side (default FILE "
                             "VARIANT-menM.tdb)\n"
                             "  external [--port PORT] [--plies N] [--jacoby on|off] [--once]\n"
                             "        play backgammon as a GNU Backgammon external player: "
                             "listen on\n"
                             "        127.0.0.1:PORT (default 4321) and answer gnubg's board "
                             "lines\n"
                             "  --help, -h       this text\n"
                             "  --version        the version\n";

static void print_line(void *ctx, const char *line) {
    (void)ctx;
    puts(line);
}

// tabula bench: the node-count signature of the search, and its speed.
static int run_bench(int argc, char **argv) {
    char *end;
    long depth = BENCH_DEPTH_DEFAULT;
    if (argc > 1 || (argc == 1 && ((depth = strtol(argv[0], &end, 10)) < 1 ||
                                   depth > BENCH_DEPTH_MAX || *end || end == argv[0]))) {
        fprintf(stderr, "tabula bench: bad argument '%s'\n%s", argv[argc > 1], USAGE);
        return 2;
    }
    return bench_run((int)depth, print_line, NULL) ? 0 : 1;
}

static void print_divide(void *ctx, const char *move, uint64_t count) {
    (void)ctx;
    printf("%s: %llu\n", move, (unsigned long long)count);
}

// tabula perft: one timed perft, for scripts and benchmarks.
static int run_perft(int argc, char **argv) {
    const char *variant = "nine", *fen = NULL;
    int depth = 6;
    bool divide = false;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--variant") && i + 1 < argc)
            variant = argv[++i];
        else if (!strcmp(argv[i], "--fen") && i + 1 < argc)
            fen = argv[++i];
        else if (!strcmp(argv[i], "--divide"))
            divide = true;
        else if (argv[i][0] != '-' && (depth = atoi(argv[i])) >= 1 && depth <= 64)
            continue;
        else {
            fprintf(stderr, "tabula perft: bad argument '%s'\n%s", argv[i], USAGE);
            return 2;
        }
    }
    Error err;
    Game *g = MILL_FAMILY.create(variant);
    if (!g) {
        fprintf(stderr, "tabula perft: unknown variant '%s'\n", variant);
        return 2;
    }
    if (fen && !MILL_FAMILY.set_position(g, fen, NULL, 0, &err)) {
        fprintf(stderr, "tabula perft: %s\n", err.msg);
        MILL_FAMILY.destroy(g);
        return 2;
    }
    int64_t t0 = clock_now_us();
    uint64_t n = MILL_FAMILY.perft(g, depth, divide ? print_divide : NULL, NULL);
    int64_t us = clock_now_us() - t0;
    printf("Nodes searched: %llu\n", (unsigned long long)n);
    printf("perft %d %s: %llu leaves in %.3f s, %.0f leaves/s\n", depth, variant,
           (unsigned long long)n, (double)us / 1e6, us ? (double)n * 1e6 / (double)us : 0.0);
    MILL_FAMILY.destroy(g);
    return 0;
}

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

// tabula solve: build a variant's database and report what it says.
static int run_solve(int argc, char **argv) {
    const char *variant = NULL, *out = NULL;
    int threads = 0, men = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--men") && i + 1 < argc && (men = atoi(argv[++i])) > 0)
            continue;
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc && (threads = atoi(argv[++i])) > 0)
            continue;
        else if (argv[i][0] != '-' && !variant)
            variant = argv[i];
        else {
            fprintf(stderr, "tabula solve: bad argument '%s'\n%s", argv[i], USAGE);
            return 2;
        }
    }
    const Variant *v = variant ? variant_find(variant) : NULL;
    if (!v) {
        fprintf(stderr, "tabula solve: %s\n%s",
                variant ? "unknown variant"
                        : "which variant? (three, nine-holes, tapatan, "
                          "achi, five, six, seven; nine, twelve, eleven, morabaraba, lasker "
                          "with --men)",
                variant ? "" : USAGE);
        return 2;
    }
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

// The protocol loop; on a terminal, the prompt.
static int run_protocol(void) {
    Output out;
    Uci u;
    output_init(&out, stdout);
    if (!uci_init(&u, &out)) {
        fprintf(stderr, "tabula: out of memory\n");
        return 1;
    }
    if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
        prompt_run(&u);
    } else {
        uci_loop(&u, stdin);
    }
    uci_free(&u);
    output_free(&out);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1) {
        if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
            fputs(USAGE, stdout);
            return 0;
        }
        if (!strcmp(argv[1], "--version")) {
            printf("tabula %s\n", TABULA_VERSION);
            return 0;
        }
        if (!strcmp(argv[1], "perft"))
            return run_perft(argc - 2, argv + 2);
        if (!strcmp(argv[1], "match"))
            return match_main(argc - 2, argv + 2, stdout, stderr);
        if (!strcmp(argv[1], "solve"))
            return run_solve(argc - 2, argv + 2);
        if (!strcmp(argv[1], "bench"))
            return run_bench(argc - 2, argv + 2);
        if (!strcmp(argv[1], "external"))
            return external_main(argc - 2, argv + 2);
        fprintf(stderr, "tabula: unknown command '%s'\n%s", argv[1], USAGE);
        return 2;
    }
    return run_protocol();
}
