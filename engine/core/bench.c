#include "engine/core/bench.h"

#include "engine/core/clock.h"
#include "engine/core/registry.h"

#include <stdio.h>

#define BENCH_HASH_MB 16

typedef struct BenchPosition {
    const char *variant;
    const char *fen; // NULL: the variant's start
} BenchPosition;

// Each variant's start and positions of its placing, moving and flying phases, taken from
// tests/data/mill_perft.txt (games still going on).
// clang-format off
static const BenchPosition POSITIONS[] = {
    {"nine",       NULL},
    {"nine",       "1BB/1W1/1W1/W3W1/1B1/B2/3 w 5 5 0 5"},
    {"nine",       "1B1/BW1/1WB/W1W1BW/1WB/B1W/BBB b 0 0 7 13"},
    {"nine",       "2W/2B/3/1W4/1B1/W2/1B1 b 0 0 2 23"},
    {"nine",       "WW1/1W1/1W1/3W1W/3/3/BBB w 0 0 0 22"},
    {"twelve",     NULL},
    {"twelve",     "2B/W2/W2/1WB1BB/2B/3/1WW w 7 7 0 6"},
    {"twelve",     "BBB/2W/3/2W1WW/1WW/3/3 w 0 0 0 22"},
    {"twelve",     "W2/3/BB1/1WWW2/W2/1W1/1B1 b 0 0 16 36"},
    {"eleven",     NULL},
    {"eleven",     "W2/1WB/1B1/WWWWBB/1B1/1BW/3 w 4 4 0 8"},
    {"eleven",     "1WW/WBW/W1B/2B1W1/2B/B1B/3 b 0 0 8 24"},
    {"eleven",     "2W/3/3/5W/BBB/3/2W w 0 0 0 26"},
    {"morabaraba", NULL},
    {"morabaraba", "3/1B1/3/1B4/3/3/W1W w 10 10 0 3"},
    {"morabaraba", "1BB/1BB/1WW/BWBWWB/1B1/W1W/WBW w 3 3 0 10"},
    {"morabaraba", "1W1/WBW/B2/1WW2W/B2/W2/3 b 0 0 2 41"},
    {"lasker",     NULL},
    {"lasker",     "3/WWW/3/1BB3/3/3/3 b 6 6 0 5"},
    {"lasker",     "BB1/WBB/WW1/BW2W1/3/BB1/W1W w 3 3 1 11"},
    {"lasker",     "B2/W2/W1W/B2W2/2W/W2/B2 b 0 0 1 28"},
    {"six",        NULL},
    {"six",        "W1W/3/W1BW/BB1/2W b 1 2 0 5"},
    {"six",        "1W1/BWB/BW1B/BWB/W1W w 0 0 10 12"},
    {"six",        "1BW/2B/B3/W2/WWW w 0 0 5 15"},
    {"five",       NULL},
    {"five",       "1W1/WWW/2B1/3/1B1 b 1 2 0 4"},
    {"five",       "B1B/1W1/W3/W1B/BWB b 0 0 9 10"},
    {"five",       "W1W/1B1/W1B1/3/BBW w 0 0 9 12"},
    {"seven",      NULL},
    {"seven",      "WBW/W2/1B2B/WBW/BWB w 1 1 0 7"},
    {"seven",      "W2/WW1/BBB1B/B1B/BWW b 0 0 5 10"},
    {"seven",      "1WB/1W1/B1WWW/3/1BB b 0 0 0 12"},
    {"three",      NULL},
    {"three",      "1WW/1W1/B1B b 0 1 0 3"},
    {"three",      "W1B/1WW/BB1 w 0 0 0 4"},
    {"three",      "BW1/WWB/B2 w 0 0 16 12"},
    {"nine-holes", NULL},
    {"nine-holes", "2B/1W1/BW1 w 1 1 0 3"},
    {"nine-holes", "W1W/W1B/BB1 b 0 0 3 5"},
    {"nine-holes", "BWW/B2/WB1 w 0 0 52 30"},
    {"tapatan",    NULL},
    {"tapatan",    "2W/1W1/1B1 b 1 2 0 2"},
    {"tapatan",    "WBB/W2/B1W b 0 0 1 4"},
    {"tapatan",    "W2/BBW/BW1 w 0 0 18 13"},
    {"achi",       NULL},
    {"achi",       "1W1/B2/1BW w 2 2 0 3"},
    {"achi",       "WWB/BW1/WBB b 0 0 1 5"},
    {"achi",       "BWB/BWW/W1B w 0 0 22 16"},
};
// clang-format on

#define NPOSITIONS (int)(sizeof POSITIONS / sizeof POSITIONS[0])

// The node count of the last report; a depth-limited search reports after its last iteration.
static void keep_nodes(void *ctx, const SearchReport *r) { *(uint64_t *)ctx = r->nodes; }

// Drop the search's messages: the bench prints only its own lines.
static void ignore_message(void *ctx, const char *text) {
    (void)ctx;
    (void)text;
}

// Search the game's position to depth; return its node count.
static uint64_t search_one(const GameFamily *f, Game *g, int depth, SearchResult *res) {
    uint64_t nodes = 0;
    SearchLimits lim = {
        .depth = depth, .time = {-1, -1}, .start_us = clock_now_us(), .threads = 1, .multipv = 1};
    SearchHooks hooks = {.report = keep_nodes, .message = ignore_message, .ctx = &nodes};
    atomic_init(&hooks.stop, false);
    atomic_init(&hooks.ponder, false);
    atomic_init(&hooks.ponderhit_us, 0);
    f->search(g, &lim, &hooks, res);
    return nodes;
}

// Make *g a game of the family that plays variant, with the bench's table: the game is kept
// while the family stays the same (set_variant then switches it), else made anew. False, with
// the reason in err, when no family plays variant or memory runs out.
static bool game_for(const char *variant, const GameFamily **f, Game **g, Error *err) {
    const GameFamily *want = registry_find(variant);
    if (!want) {
        error_set(err, "unknown variant '%s'", variant);
        return false;
    }
    if (*g && *f == want)
        return want->set_variant(*g, variant, err);
    if (*g)
        (*f)->destroy(*g);
    *f = want;
    *g = want->create(variant);
    if (*g && want->set_hash(*g, BENCH_HASH_MB, err))
        return true;
    if (*g)
        want->destroy(*g);
    *g = NULL;
    return error_set(err, "out of memory");
}

uint64_t bench_run(int depth, BenchLineFn fn, void *ctx) {
    const GameFamily *f = NULL;
    Game *g = NULL;
    char line[320];
    Error err;
    uint64_t total = 0;
    int64_t us = 0;
    for (int i = 0; i < NPOSITIONS; i++) {
        const BenchPosition *bp = &POSITIONS[i];
        const char *shown = bp->fen ? bp->fen : "startpos";
        if (!game_for(bp->variant, &f, &g, &err) || !f->set_position(g, bp->fen, NULL, 0, &err)) {
            if (!g) {
                snprintf(line, sizeof line, "bench: %s", err.msg);
                fn(ctx, line);
                return 0;
            }
            snprintf(line, sizeof line, "%d/%d %s %s: error: %s", i + 1, NPOSITIONS, bp->variant,
                     shown, err.msg);
            fn(ctx, line);
            continue;
        }
        f->clear_hash(g);
        SearchResult res;
        int64_t t0 = clock_now_us();
        uint64_t nodes = search_one(f, g, depth, &res);
        us += clock_now_us() - t0;
        total += nodes;
        snprintf(line, sizeof line, "%d/%d %s %s: bestmove %s nodes %llu", i + 1, NPOSITIONS,
                 bp->variant, shown, res.best, (unsigned long long)nodes);
        fn(ctx, line);
    }
    if (g)
        f->destroy(g);
    int64_t ms = us / 1000 > 0 ? us / 1000 : 1;
    snprintf(line, sizeof line, "%llu nodes %llu nps", (unsigned long long)total,
             (unsigned long long)(total * 1000 / (uint64_t)ms));
    fn(ctx, line);
    return total;
}
