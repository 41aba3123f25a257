// bench: a fixed set of positions across every variant, each searched to a fixed depth with
// one thread and a cleared 16 MB table. The total node count is the engine's signature: the
// same on every run and every build, and it changes exactly when the search does.
#ifndef ENGINE_CORE_BENCH_H
#define ENGINE_CORE_BENCH_H

#include <stdint.h>

#define BENCH_DEPTH_DEFAULT 12
#define BENCH_DEPTH_MAX 64

typedef void (*BenchLineFn)(void *ctx, const char *line);

// Search every bench position to depth, handing fn one line per position
// (`<i>/<n> <variant> <position>: bestmove <m> nodes <n>`) and then the summary
// `<nodes> nodes <nps> nps`. Returns the total node count (0 when out of memory).
uint64_t bench_run(int depth, BenchLineFn fn, void *ctx);

#endif
