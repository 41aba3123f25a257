#include "engine/core/args.h"
#include "engine/core/clock.h"
#include "engine/core/registry.h"
#include "protocol/cli.h"

#include <stdio.h>

#define PERFT_USAGE "usage: tabula perft [--variant ID] [--fen STRING] [--divide] [DEPTH]\n"

void cli_unknown_variant(const char *prog, const char *id) {
    fprintf(stderr, "%s: unknown variant '%s' (known:", prog, id);
    for (int i = 0; registry_variant(i); i++)
        fprintf(stderr, "%s %s", i ? "," : "", registry_variant(i));
    fputs(")\n", stderr);
}

// Print one move's count of a divided perft.
static void print_divide(void *ctx, const char *move, uint64_t count) {
    (void)ctx;
    printf("%s: %llu\n", move, (unsigned long long)count);
}

int cli_perft(int argc, char **argv) {
    const char *variant = registry_default_variant(), *fen = NULL, *arg;
    int depth = 6;
    bool divide = false;
    Args a;
    args_init(&a, "tabula perft", argc, argv, stderr);
    while (args_more(&a)) {
        if (args_string(&a, "--variant", &variant) || args_string(&a, "--fen", &fen) ||
            args_flag(&a, "--divide", &divide))
            continue;
        if ((arg = args_operand(&a)))
            args_to_int(&a, "depth", arg, 1, 64, &depth);
        else
            args_unknown(&a);
    }
    if (a.failed) {
        fputs(PERFT_USAGE, stderr);
        return 2;
    }
    const GameFamily *f = registry_find(variant);
    if (!f) {
        cli_unknown_variant("tabula perft", variant);
        return 2;
    }
    Error err;
    Game *g = f->create(variant);
    if (!g) {
        fprintf(stderr, "tabula perft: out of memory\n");
        return 1;
    }
    char own[GAME_POSITION_MAX];
    if (fen && (!f->read_position(g, "fen", fen, own, sizeof own, &err) ||
                !f->set_position(g, own, NULL, 0, &err))) {
        fprintf(stderr, "tabula perft: %s\n", err.msg);
        f->destroy(g);
        return 2;
    }
    int64_t t0 = clock_now_us();
    uint64_t n = f->perft(g, depth, divide ? print_divide : NULL, NULL);
    int64_t us = clock_now_us() - t0;
    printf("Nodes searched: %llu\n", (unsigned long long)n);
    printf("perft %d %s: %llu leaves in %.3f s, %.0f leaves/s\n", depth, variant,
           (unsigned long long)n, (double)us / 1e6, us ? (double)n * 1e6 / (double)us : 0.0);
    f->destroy(g);
    return 0;
}
