// train-bg: tabula's trainer for the backgammon nets; the method is described in
// tools/td.h.
//
// --games is the length of the run (the step size goes linearly from --alpha to --alpha-end
// over it); --until stops earlier (at that many games in all), to be resumed later.
//
// Deterministic for a seed: the weights file holds the games played and the random state, so
// a run resumed from a checkpoint continues exactly as if it had not stopped.
//
// Usage: train-bg [--games N] [--until N] [--seed S] [--out FILE] [--resume] [--alpha A]
//                 [--alpha-end B]
//                 [--lambda L] [--hidden-contact H] [--hidden-race H] [--widen-contact H]
//                 [--widen-race H] [--report N]
//                 [--bench-every N] [--bench-games N] [--save-every N] [--refine]
//                 [--threads N] [--quiet]
//
// --widen-contact H and --widen-race H, with --resume, grow the resumed nets to H hidden units
// first (net.h: bg_net_widen, seeded by --seed); the outputs are unchanged until training.
// --refine trains towards the nets' own 1-ply values instead of TD(lambda) (bg_train.h), on
// --threads threads (1 to 16; the weights do not depend on it).
#include "engine/core/args.h"
#include "engine/core/clock.h"
#include "tools/bggames.h"
#include "tools/td.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_SEED 20240601ULL

typedef struct Options {
    uint64_t games, until, seed, report, bench_every, bench_games, save_every;
    const char *out;
    bool resume, quiet, refine;
    double alpha, alpha_end, lambda;
    int hidden_contact, hidden_race, widen_contact, widen_race, threads;
} Options;

static int usage(void) {
    fprintf(
        stderr,
        "usage: train-bg [--games N] [--until N] [--seed S] [--out FILE] [--resume] [--alpha A] "
        "[--alpha-end B] [--lambda L] [--hidden-contact H] [--hidden-race H] "
        "[--widen-contact H] [--widen-race H] "
        "[--report N] [--bench-every N] [--bench-games N] [--save-every N] "
        "[--refine] [--threads N] [--quiet]\n");
    return 2;
}

int main(int argc, char **argv) {
    Options o = {.games = 100000,
                 .seed = 1,
                 .report = 1000,
                 .bench_every = 10000,
                 .bench_games = 1000,
                 .save_every = 10000,
                 .out = "bgnet.bin",
                 .alpha = 0.1,
                 .alpha_end = 0.1,
                 .lambda = 0.7,
                 .hidden_contact = 80,
                 .hidden_race = 40,
                 .threads = 1};
    bool alpha_end_set = false;
    Args args;
    args_init(&args, "train-bg", argc - 1, argv + 1, stderr);
    while (args_more(&args)) {
        if (args_double(&args, "--alpha-end", 0, 10, &o.alpha_end)) {
            alpha_end_set = true;
        } else if (!args_flag(&args, "--resume", &o.resume) &&
                   !args_flag(&args, "--quiet", &o.quiet) &&
                   !args_flag(&args, "--refine", &o.refine) &&
                   !args_u64(&args, "--games", &o.games) && !args_u64(&args, "--until", &o.until) &&
                   !args_u64(&args, "--seed", &o.seed) && !args_string(&args, "--out", &o.out) &&
                   !args_double(&args, "--alpha", 0, 10, &o.alpha) &&
                   !args_double(&args, "--lambda", 0, 1, &o.lambda) &&
                   !args_int(&args, "--hidden-contact", 1, 100000, &o.hidden_contact) &&
                   !args_int(&args, "--hidden-race", 1, 100000, &o.hidden_race) &&
                   !args_int(&args, "--threads", 1, 16, &o.threads) &&
                   !args_int(&args, "--widen-contact", 0, 100000, &o.widen_contact) &&
                   !args_int(&args, "--widen-race", 0, 100000, &o.widen_race) &&
                   !args_u64(&args, "--report", &o.report) &&
                   !args_u64(&args, "--bench-every", &o.bench_every) &&
                   !args_u64(&args, "--bench-games", &o.bench_games) &&
                   !args_u64(&args, "--save-every", &o.save_every)) {
            args_unknown(&args);
        }
    }
    if (args.failed)
        return usage();
    if (!alpha_end_set)
        o.alpha_end = o.alpha;
    BgNets nets;
    if (o.resume) {
        if (bg_nets_load(&nets, o.out)) {
            fprintf(stderr, "train-bg: cannot read %s to resume\n", o.out);
            return 1;
        }
        printf("resumed from %s at game %llu\n", o.out, (unsigned long long)nets.games);
        int want[2] = {o.widen_contact, o.widen_race};
        for (int k = 0; k < 2; k++)
            if (want[k] > nets.net[k].hidden &&
                bg_net_widen(&nets.net[k], want[k], o.seed + (uint64_t)k)) {
                fprintf(stderr, "train-bg: cannot widen to %d hidden units (at most %d)\n", want[k],
                        BG_NET_MAX_HIDDEN);
                return 1;
            }
    } else if (bg_nets_init(&nets, o.hidden_contact, o.hidden_race, o.seed)) {
        fprintf(stderr, "train-bg: bad net sizes (1 to %d hidden units)\n", BG_NET_MAX_HIDDEN);
        return 1;
    }
    char method[32];
    if (o.refine)
        snprintf(method, sizeof method, "1-ply targets");
    else
        snprintf(method, sizeof method, "lambda %.2f", o.lambda);
    printf("train-bg: %llu games, seed %llu, alpha %.4f -> %.4f, %s, hidden %d and %d\n",
           (unsigned long long)o.games, (unsigned long long)o.seed, o.alpha, o.alpha_end, method,
           nets.net[0].hidden, nets.net[1].hidden);
    fflush(stdout);
    int64_t t0 = clock_now_us(), tr = t0;
    uint64_t plies = 0, since = 0;
    uint64_t last = o.until && o.until < o.games ? o.until : o.games;
    while (nets.games < last) {
        double alpha = o.alpha + (o.alpha_end - o.alpha) * (double)nets.games / (double)o.games;
        plies += (uint64_t)(o.refine ? bg_refine_game(&nets, &nets.rng, alpha, o.threads)
                                     : bg_train_game(&nets, &nets.rng, alpha, o.lambda));
        nets.games++;
        since++;
        if (!o.quiet && o.report && nets.games % o.report == 0) {
            int64_t now = clock_now_us();
            printf("games %llu  %.0f games/s  %.1f plies/game  alpha %.4f  %.0f s\n",
                   (unsigned long long)nets.games, since * 1e6 / (double)(now - tr),
                   (double)plies / (double)since, alpha, (now - t0) / 1e6);
            tr = now;
            since = plies = 0;
            fflush(stdout);
        }
        if (o.save_every && nets.games % o.save_every == 0 && bg_nets_save(&nets, o.out))
            fprintf(stderr, "train-bg: cannot write %s\n", o.out);
        if (!o.quiet && o.bench_every && nets.games % o.bench_every == 0) {
            double se, ppg = bg_match_pubeval(&nets, 0, (int)o.bench_games, BENCH_SEED, &se);
            printf("bench games %llu: %+.3f ppg +- %.3f (95%%) vs pubeval over %llu games, 0 ply\n",
                   (unsigned long long)nets.games, ppg, 1.96 * se,
                   (unsigned long long)o.bench_games);
            fflush(stdout);
        }
    }
    if (bg_nets_save(&nets, o.out)) {
        fprintf(stderr, "train-bg: cannot write %s\n", o.out);
        return 1;
    }
    printf("done: %llu games, weights checksum %016llx, written to %s in %.0f s\n",
           (unsigned long long)nets.games, (unsigned long long)bg_nets_checksum(&nets), o.out,
           (clock_now_us() - t0) / 1e6);
    bg_nets_free(&nets);
    return 0;
}
