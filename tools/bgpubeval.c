// bg-pubeval: tabula against Tesauro's pubeval, cubeless money games, the dice of each pair of
// games shared with the sides swapped. Prints points per game for tabula with a 95% interval.
// Usage: bg-pubeval [--games N] [--depth D] [--seed S] [--weights FILE]
// (the engine's embedded weights unless --weights is given).
#include "tools/bggames.h"
#include "engine/core/clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    int games = 5000, depth = 0;
    unsigned long long seed = 1;
    const char *weights = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--games"))
            games = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--depth"))
            depth = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed"))
            seed = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--weights"))
            weights = argv[i + 1];
        else {
            fprintf(stderr, "usage: bg-pubeval [--games N] [--depth D] [--seed S] "
                            "[--weights FILE]\n");
            return 2;
        }
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
           depth, ppg, 1.96 * se, games, seed, (clock_now_us() - t0) / 1e6);
    return 0;
}
