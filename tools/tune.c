// Fit the evaluation weights of one board family to self-play results (Texel's method).
//
//   build/tune [--variant ID] [--games N] [--nodes N] [--jobs J] [--seed S] [--plies P]
//              [--iters N]
//
// The engine plays N games against itself from random P-ply openings, N nodes a move. Every
// quiet position (no mill to close for the side to move) is kept with its features and the
// game's result from the side to move's view. With men fixed at 100 (the protocol's unit),
// the logistic scale s is fitted first, then the other weights by Adam on the mean squared
// error between the result and 1 / (1 + exp(-eval / s)). The fitted rows are printed in the
// layout of EVAL_WEIGHTS_DEFAULT in engine/mill/eval.c, with the error before and after.
#include "tools/play.h"

#include "engine/core/args.h"
#include "engine/core/random.h"
#include "engine/mill/movegen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct Sample {
    int8_t f[F_COUNT];
    uint8_t phase;
    uint8_t result2; // 0 loss, 1 draw, 2 win for the side to move
} Sample;

typedef struct GameSamples {
    Sample s[MAX_GAME_PLIES];
    int side[MAX_GAME_PLIES];
    int n;
    int skip; // opening plies not to keep
    int seen;
} GameSamples;

static int clamp8(int v) { return v < -127 ? -127 : v > 127 ? 127 : v; }

static void record(void *ctx, const Position *p) {
    GameSamples *g = ctx;
    Move moves[MAX_MOVES];
    if (g->seen++ < g->skip || g->n >= MAX_GAME_PLIES || movegen_closing(p, moves) > 0)
        return;
    int f[F_COUNT];
    Sample *s = &g->s[g->n];
    s->phase = (uint8_t)eval_features(p, f);
    for (int i = 0; i < F_COUNT; i++)
        s->f[i] = (int8_t)clamp8(f[i]);
    g->side[g->n++] = p->side;
}

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

// Mean squared error of the weights w with scale s over the samples.
static double error(const Sample *v, size_t n, double w[PHASE_COUNT][F_COUNT], double s) {
    double e = 0;
    for (size_t k = 0; k < n; k++) {
        double ev = 0;
        for (int i = 0; i < F_COUNT; i++)
            ev += w[v[k].phase][i] * v[k].f[i];
        double d = v[k].result2 / 2.0 - sigmoid(ev / s);
        e += d * d;
    }
    return n ? e / (double)n : 0;
}

// Golden-section search of the scale minimising the error.
static double fit_scale(const Sample *v, size_t n, double w[PHASE_COUNT][F_COUNT]) {
    double a = 10, b = 3000, g = (sqrt(5) - 1) / 2;
    for (int it = 0; it < 60; it++) {
        double c = b - g * (b - a), d = a + g * (b - a);
        if (error(v, n, w, c) < error(v, n, w, d))
            b = d;
        else
            a = c;
    }
    return (a + b) / 2;
}

// Adam on every weight but men.
static void fit_weights(const Sample *v, size_t n, double w[PHASE_COUNT][F_COUNT], double s,
                        int iters) {
    double m[PHASE_COUNT][F_COUNT] = {{0}}, u[PHASE_COUNT][F_COUNT] = {{0}};
    const double lr = 1.0, b1 = 0.9, b2 = 0.999, eps = 1e-12;
    for (int it = 1; it <= iters; it++) {
        double grad[PHASE_COUNT][F_COUNT] = {{0}};
        for (size_t k = 0; k < n; k++) {
            const Sample *x = &v[k];
            double ev = 0;
            for (int i = 0; i < F_COUNT; i++)
                ev += w[x->phase][i] * x->f[i];
            double p = sigmoid(ev / s);
            double g = -2.0 * (x->result2 / 2.0 - p) * p * (1 - p) / s;
            for (int i = 0; i < F_COUNT; i++)
                grad[x->phase][i] += g * x->f[i];
        }
        for (int ph = 0; ph < PHASE_COUNT; ph++)
            for (int i = 0; i < F_COUNT; i++) {
                if (i == F_MEN)
                    continue;
                double gr = grad[ph][i] / (double)n;
                m[ph][i] = b1 * m[ph][i] + (1 - b1) * gr;
                u[ph][i] = b2 * u[ph][i] + (1 - b2) * gr * gr;
                double mh = m[ph][i] / (1 - pow(b1, it)), uh = u[ph][i] / (1 - pow(b2, it));
                w[ph][i] -= lr * mh / (sqrt(uh) + eps);
            }
    }
}

int main(int argc, char **argv) {
    const char *variant = "nine";
    int games = 400, jobs = 2, plies = 6, iters = 1000;
    uint64_t nodes = 5000, seed = 7;
    Args args;
    args_init(&args, "tune", argc - 1, argv + 1, stderr);
    while (args_more(&args))
        if (!args_string(&args, "--variant", &variant) &&
            !args_int(&args, "--games", 1, 10000000, &games) &&
            !args_u64(&args, "--nodes", &nodes) && !args_int(&args, "--jobs", 1, 1024, &jobs) &&
            !args_u64(&args, "--seed", &seed) && !args_int(&args, "--plies", 0, 1000, &plies) &&
            !args_int(&args, "--iters", 0, 100000000, &iters))
            args_unknown(&args);
    if (args.failed)
        return 2;
    const Variant *var = variant_find(variant);
    if (!var) {
        fprintf(stderr, "tune: unknown variant %s\n", variant);
        return 2;
    }
    if (jobs < 1 || jobs > 64)
        jobs = 2;
    Player pl;
    play_default_player(&pl);
    int fds[64][2];
    for (int j = 0; j < jobs; j++) {
        if (pipe(fds[j]) != 0)
            return 1;
        if (fork() == 0) {
            close(fds[j][0]);
            GameSamples *gs = malloc(sizeof *gs);
            for (int gi = j; gi < games; gi += jobs) {
                uint64_t rng = seed * 1000003u + (uint64_t)gi;
                char opening[MAX_OPENING][MOVE_STR_MAX];
                int nopen = opening_random(variant, plies, &rng, opening);
                gs->n = gs->seen = gs->skip = 0;
                double white = play_game(variant, opening, nopen, nodes, &pl, &pl, record, gs);
                for (int k = 0; k < gs->n; k++) {
                    double r = gs->side[k] == WHITE ? white : 1 - white;
                    gs->s[k].result2 = (uint8_t)lround(r * 2);
                }
                size_t bytes = (size_t)gs->n * sizeof(Sample);
                if (write(fds[j][1], gs->s, bytes) != (ssize_t)bytes)
                    _exit(1);
            }
            _exit(0);
        }
        close(fds[j][1]);
    }
    size_t n = 0, cap = 1 << 16;
    Sample *v = malloc(cap * sizeof *v);
    for (int j = 0; j < jobs; j++) {
        Sample s;
        while (read(fds[j][0], &s, sizeof s) == (ssize_t)sizeof s) {
            if (n == cap)
                v = realloc(v, (cap *= 2) * sizeof *v);
            v[n++] = s;
        }
        wait(NULL);
    }
    double w[PHASE_COUNT][F_COUNT];
    for (int ph = 0; ph < PHASE_COUNT; ph++)
        for (int i = 0; i < F_COUNT; i++)
            w[ph][i] = EVAL_WEIGHTS_DEFAULT.w[var->board][ph][i];
    double s = fit_scale(v, n, w), before = error(v, n, w, s);
    fit_weights(v, n, w, s, iters);
    double s2 = fit_scale(v, n, w), after = error(v, n, w, s2);
    printf("%s: %zu positions from %d games, %llu nodes/move; scale %.1f; error %.5f -> %.5f "
           "(scale %.1f)\n",
           variant, n, games, (unsigned long long)nodes, s, before, after, s2);
    for (int ph = 0; ph < PHASE_COUNT; ph++) {
        printf("    {");
        for (int i = 0; i < F_COUNT; i++)
            printf("%s%d", i ? ", " : "", (int)lround(w[ph][i]));
        printf("}, // %s\n", ph == PHASE_PLACING ? "placing" : "moving");
    }
    free(v);
    return 0;
}
