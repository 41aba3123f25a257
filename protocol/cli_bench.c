#include "engine/core/args.h"
#include "engine/core/bench.h"
#include "protocol/cli.h"

#include <stdio.h>

// Print one line of the bench on stdout.
static void print_line(void *ctx, const char *line) {
    (void)ctx;
    puts(line);
}

int cli_bench(int argc, char **argv) {
    int depth = BENCH_DEPTH_DEFAULT;
    Args a;
    args_init(&a, "tabula bench", argc, argv, stderr);
    const char *arg = args_operand(&a);
    if (arg)
        args_to_int(&a, "depth", arg, 1, BENCH_DEPTH_MAX, &depth);
    if (args_more(&a))
        args_unknown(&a);
    if (a.failed) {
        fputs("usage: tabula bench [DEPTH]\n", stderr);
        return 2;
    }
    return bench_run(depth, print_line, NULL) ? 0 : 1;
}
