// bg-pubeval: tabula against Tesauro's pubeval, cubeless money games, the dice of each pair of
// games shared with the sides swapped. Prints points per game for tabula with a 95% interval.
// Usage: bg-pubeval [--games N] [--depth D] [--seed S] [--weights FILE]
// (the engine's embedded weights unless --weights is given).
#include "engine/core/args.h"
#include "engine/core/clock.h"
#include "tools/bggames.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    int games = 5000, depth = 0;
    uint64_t seed = 1;
    const char *weights = NULL;
    Args args;
    args_init(&args, "bg-pubeval", argc - 1, argv + 1, stderr);
    while (args_more(&args))
        if (!args_int(&args, "--games", 2, 100000000, &games) &&
            !args_int(&args, "--depth", 0, 8, &depth) && !args_u64(&args, "--seed", &seed) &&
            !args_string(&args, "--weights", &weights))
            args_unknown(&args);
    if (args.failed) {
        fprintf(stderr, "usage: bg-pubeval [--games N] [--depth D] [--seed S] [--weights FILE]\n");
        return 2;
    }
    BgNets own;
    const BgNets *nets = bg_nets_default();
    if (weights) {
        if (bg_nets_load(&own, weights)) {
            fprintf(stderr, "bg-pubeval: cannot read %s\n", weights);
            return 1;
        }
        nets = &own;
    }
    int64_t t0 = clock_now_us();
    double se, ppg = bg_match_pubeval(nets, depth, games, seed, &se);
    printf("tabula %d-ply vs pubeval: %+.3f ppg +- %.3f (95%%) over %d games (seed %llu, "
           "%.0f s)\n",
           depth, ppg, 1.96 * se, games, (unsigned long long)seed, (clock_now_us() - t0) / 1e6);
    return 0;
}
