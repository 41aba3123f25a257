// Self-play of the mill search against itself with one feature switched off, to measure what
// each selective feature of the search gains.
//
//   build/selfplay [--variant ID] [--games N] [--nodes N] [--off FEATURE] [--jobs J]
//                  [--seed S] [--plies P] [--b-eval W1,W2,...]
//
// Engine A has every feature; engine B has FEATURE switched off (none: both identical), and
// with --b-eval the given evaluation weights for the variant's board (2 x 8 numbers: the
// placing row, then the moving row) instead of the built-in ones.
// Openings are P random plies from a seeded generator; each opening is played twice with the
// colours swapped. Each move is searched with a fixed node budget, one thread, its own 16 MB
// table. The result is A's score, with Elo and a 95% interval (trinomial model).
#include "match/stats.h"
#include "tools/play.h"

#include "engine/core/args.h"
#include "engine/core/parse.h"
#include "engine/core/random.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct Config {
    const char *variant;
    int games, jobs, plies;
    uint64_t nodes;
    uint64_t seed;
    const char *off;
    const char *b_eval;
} Config;

// Read 2 x F_COUNT comma-separated weights into w; false when malformed.
static bool parse_weights(const char *s, int w[PHASE_COUNT][F_COUNT]) {
    for (int k = 0; k < PHASE_COUNT * F_COUNT; k++) {
        char num[24];
        size_t n = strcspn(s, ",");
        long long v;
        if (n >= sizeof num || (k + 1 < PHASE_COUNT * F_COUNT) != (s[n] == ','))
            return false;
        snprintf(num, sizeof num, "%.*s", (int)n, s);
        if (!parse_integer(num, -1000000, 1000000, &v))
            return false;
        w[k / F_COUNT][k % F_COUNT] = (int)v;
        s += n + (s[n] == ',');
    }
    return true;
}

// Switch off the named feature in p; false when there is no such feature.
static bool switch_off(MillSearchParams *p, const char *name) {
    if (!strcmp(name, "none"))
        return true;
    if (!strcmp(name, "reverse_futility"))
        p->reverse_futility = false;
    else if (!strcmp(name, "late_move_pruning"))
        p->late_move_pruning = false;
    else if (!strcmp(name, "reductions"))
        p->reductions = false;
    else if (!strcmp(name, "quiescence"))
        p->quiescence = false;
    else if (!strcmp(name, "aspiration"))
        p->aspiration = false;
    else
        return false;
    return true;
}

int main(int argc, char **argv) {
    Config c = {"nine", 100, 2, 4, 20000, 1, "none", NULL};
    Args args;
    args_init(&args, "selfplay", argc - 1, argv + 1, stderr);
    while (args_more(&args))
        if (!args_string(&args, "--variant", &c.variant) &&
            !args_int(&args, "--games", 1, 10000000, &c.games) &&
            !args_u64(&args, "--nodes", &c.nodes) && !args_string(&args, "--off", &c.off) &&
            !args_int(&args, "--jobs", 1, 1024, &c.jobs) && !args_u64(&args, "--seed", &c.seed) &&
            !args_int(&args, "--plies", 0, 1000, &c.plies) &&
            !args_string(&args, "--b-eval", &c.b_eval))
            args_unknown(&args);
    if (args.failed)
        return 2;
    Player a, b;
    play_default_player(&a);
    b = a;
    if (!switch_off(&b.params, c.off)) {
        fprintf(stderr, "selfplay: unknown feature %s\n", c.off);
        return 2;
    }
    const Variant *var = variant_find(c.variant);
    if (!var) {
        fprintf(stderr, "selfplay: unknown variant %s\n", c.variant);
        return 2;
    }
    if (c.b_eval && !parse_weights(c.b_eval, b.weights.w[var->board])) {
        fprintf(stderr, "selfplay: --b-eval needs %d comma-separated numbers\n",
                PHASE_COUNT * F_COUNT);
        return 2;
    }
    int pairs = (c.games + 1) / 2;
    int fds[64][2], jobs = c.jobs < 1 ? 1 : c.jobs > 64 ? 64 : c.jobs;
    for (int j = 0; j < jobs; j++) {
        if (pipe(fds[j]) != 0)
            return 1;
        if (fork() == 0) {
            close(fds[j][0]);
            int wdl[3] = {0, 0, 0}; // A's wins, draws, losses
            for (int p = j; p < pairs; p += jobs) {
                uint64_t rng = c.seed * 1000003u + (uint64_t)p;
                char opening[MAX_OPENING][MOVE_STR_MAX];
                int nopen = opening_random(c.variant, c.plies, &rng, opening);
                for (int color = 0; color < 2; color++) {
                    bool a_white = color == 0;
                    double w = play_game(c.variant, opening, nopen, c.nodes, a_white ? &a : &b,
                                         a_white ? &b : &a, NULL, NULL);
                    double score_a = a_white ? w : 1.0 - w;
                    wdl[score_a == 1.0 ? 0 : score_a == 0.5 ? 1 : 2]++;
                }
            }
            if (write(fds[j][1], wdl, sizeof wdl) != (ssize_t)sizeof wdl)
                _exit(1);
            _exit(0);
        }
        close(fds[j][1]);
    }
    int w = 0, d = 0, l = 0;
    for (int j = 0; j < jobs; j++) {
        int wdl[3] = {0, 0, 0};
        if (read(fds[j][0], wdl, sizeof wdl) == (ssize_t)sizeof wdl) {
            w += wdl[0];
            d += wdl[1];
            l += wdl[2];
        }
        wait(NULL);
    }
    MatchCounts mc = {.w = w, .d = d, .l = l};
    EloEstimate est = stats_elo_estimate(&mc);
    char elo[32], lo[32], hi[32];
    stats_format_elo(elo, sizeof elo, est.elo);
    stats_format_elo(lo, sizeof lo, est.lo);
    stats_format_elo(hi, sizeof hi, est.hi);
    printf("%s, %llu nodes/move, A = all features, B = without %s%s%s: %d games, A +%d =%d -%d, "
           "score %.3f, Elo %s [%s, %s]\n",
           c.variant, (unsigned long long)c.nodes, c.off, c.b_eval ? ", eval " : "",
           c.b_eval ? c.b_eval : "", stats_games(&mc), w, d, l, est.score, elo, lo, hi);
    return 0;
}
