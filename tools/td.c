#include "tools/td.h"

#include "engine/backgammon/eval.h"
#include "engine/backgammon/search.h"
#include "engine/core/random.h"
#include "tools/bggames.h"

#include <pthread.h>

#define MAX_STEPS 4000

typedef struct Step {
    BgBoard b;
    int side;  // about to roll
    BgProbs v; // the nets' value when the game was played, side's view
    BgEvalKind kind;
} Step;

static _Thread_local Step steps[MAX_STEPS];

// One gradient step of net n towards target t (five values) on board b for side on roll.
static void train_step(BgNet *n, const BgBoard *b, int side, const double *t, float alpha) {
    float x[BG_NET_INPUTS], h[BG_NET_MAX_HIDDEN], y[BG_NET_OUTPUTS];
    int active[BG_NET_INPUTS];
    int na = bg_net_inputs(b, side, x, active);
    bg_net_forward(n, x, active, na, h, y);
    int H = n->hidden;
    float dout[BG_NET_OUTPUTS], dh[BG_NET_MAX_HIDDEN];
    for (int k = 0; k < BG_NET_OUTPUTS; k++)
        dout[k] = (float)(t[k] - y[k]) * y[k] * (1 - y[k]);
    for (int j = 0; j < H; j++) {
        float s = 0;
        for (int k = 0; k < BG_NET_OUTPUTS; k++)
            s += dout[k] * n->w2[k * H + j];
        dh[j] = alpha * s * h[j] * (1 - h[j]);
    }
    for (int k = 0; k < BG_NET_OUTPUTS; k++) {
        float a = alpha * dout[k];
        float *w = n->w2 + k * H;
        for (int j = 0; j < H; j++)
            w[j] += a * h[j];
        n->b2[k] += a;
    }
    for (int j = 0; j < H; j++)
        n->b1[j] += dh[j];
    for (int a = 0; a < na; a++) {
        int i = active[a];
        float xi = x[i];
        float *row = n->w1 + (size_t)i * H;
        for (int j = 0; j < H; j++)
            row[j] += dh[j] * xi;
    }
}

static void probs_to(const BgProbs *p, double *t) {
    t[0] = p->win;
    t[1] = p->win_gammon;
    t[2] = p->win_backgammon;
    t[3] = p->lose_gammon;
    t[4] = p->lose_backgammon;
}

// One gradient step of the net for step st's position towards the probabilities p.
static void learn(BgNets *nets, const Step *st, const BgProbs *p, double alpha) {
    double target[5];
    probs_to(p, target);
    BgNet *net = &nets->net[st->kind == BG_EVAL_CONTACT ? BG_NET_CONTACT : BG_NET_RACE];
    train_step(net, &st->b, st->side, target, (float)alpha);
}

// The starting board of a self-play game; returns the side that opens (from *rng).
static int game_start(BgBoard *b, uint64_t *rng) {
    BgPosition start;
    bg_set_start(&start);
    *b = start.b;
    return (int)(random_next(rng) & 1);
}

// A roll as the higher and the lower die; the opening roll of a game is never a double.
static void roll(uint64_t *rng, bool opening, int *hi, int *lo) {
    int d1, d2;
    do {
        d1 = bg_rng_die(rng);
        d2 = bg_rng_die(rng);
    } while (opening && d1 == d2);
    *hi = d1 > d2 ? d1 : d2;
    *lo = d1 > d2 ? d2 : d1;
}

int bg_train_game(BgNets *nets, uint64_t *rng, double alpha, double lambda) {
    BgBoard b;
    int side = game_start(&b, rng);
    BgPlayList l;
    bg_plays_init(&l);
    int T = 0;
    steps[0].b = b;
    steps[0].side = side;
    steps[0].kind = bg_evaluate_with(nets, true, &b, side, &steps[0].v);
    BgProbs outcome = {0, 0, 0, 0, 0};
    bool over = false;
    while (T + 1 < MAX_STEPS) {
        int hi, lo;
        roll(rng, T == 0, &hi, &lo);
        int n = bg_generate(&b, side, hi, lo, &l);
        BgProbs next; // the opponent's value of the position after the play
        BgEvalKind kind = BG_EVAL_CONTACT;
        if (n <= 0) {
            kind = bg_evaluate_with(nets, true, &b, !side, &next);
        } else {
            double be = -1e9;
            int bi = -1;
            for (int i = 0; i < n && !over; i++) {
                const BgBoard *a = &l.v[i].after;
                if (bg_checkers(a, side) == 0) {
                    int w = bg_win_kind(a, side);
                    outcome = (BgProbs){1, w >= 2, w >= 3, 0, 0};
                    over = true;
                    break;
                }
                BgProbs o;
                BgEvalKind k = bg_evaluate_with(nets, true, a, !side, &o);
                BgProbs mine = bg_probs_flip(&o);
                double e = bg_equity(&mine);
                if (e > be) {
                    be = e;
                    bi = i;
                    next = o;
                    kind = k;
                }
            }
            if (over)
                break;
            b = l.v[bi].after;
        }
        side = !side;
        T++;
        steps[T].b = b;
        steps[T].side = side;
        steps[T].v = next;
        steps[T].kind = kind;
    }
    bg_plays_free(&l);
    if (!over)
        return T; // a runaway game (never seen): nothing learnt
    // Targets from the end backwards; G is in the view of steps[t].side.
    BgProbs G = outcome;
    for (int t = T; t >= 0; t--) {
        if (t < T) {
            BgProbs nv = bg_probs_flip(&steps[t + 1].v), ng = bg_probs_flip(&G);
            G.win = (1 - lambda) * nv.win + lambda * ng.win;
            G.win_gammon = (1 - lambda) * nv.win_gammon + lambda * ng.win_gammon;
            G.win_backgammon = (1 - lambda) * nv.win_backgammon + lambda * ng.win_backgammon;
            G.lose_gammon = (1 - lambda) * nv.lose_gammon + lambda * ng.lose_gammon;
            G.lose_backgammon = (1 - lambda) * nv.lose_backgammon + lambda * ng.lose_backgammon;
        }
        if (steps[t].kind != BG_EVAL_BEAROFF)
            learn(nets, &steps[t], &G, alpha);
    }
    return T + 1;
}

// The 1-ply targets of positions [from, n) step by step, with nets that do not change meanwhile.
typedef struct TargetJob {
    const BgNets *nets;
    Step *steps;
    int from, n, stride;
} TargetJob;

static void *targets(void *arg) {
    TargetJob *j = arg;
    BgSearch s;
    bg_search_init(&s);
    s.nets = j->nets;
    s.bearoff = true;
    for (int t = j->from; t < j->n; t += j->stride)
        if (j->steps[t].kind != BG_EVAL_BEAROFF)
            bg_eval_ply(&s, &j->steps[t].b, j->steps[t].side, 1, &j->steps[t].v);
    bg_search_free(&s);
    return NULL;
}

int bg_refine_game(BgNets *nets, uint64_t *rng, double alpha, int threads) {
    BgSearch s;
    bg_search_init(&s);
    s.nets = nets;
    s.bearoff = true;
    BgBoard b;
    int side = game_start(&b, rng);
    BgPlayList l;
    bg_plays_init(&l);
    // The game, at 0 ply; the positions after the opening roll are kept.
    int T = 0;
    for (bool first = true; T < MAX_STEPS; first = false) {
        if (!first) {
            steps[T].b = b;
            steps[T].side = side;
            steps[T].kind = bg_eval_kind(&b);
            T++;
        }
        int hi, lo;
        roll(rng, first, &hi, &lo);
        int n = bg_generate(&b, side, hi, lo, &l);
        if (n > 0) {
            BgProbs v;
            b = l.v[bg_best_play(&s, &b, side, &l, 0, &v)].after;
            if (bg_checkers(&b, side) == 0)
                break;
        }
        side = !side;
    }
    bg_plays_free(&l);
    bg_search_free(&s);
    // Their 1-ply values with the nets as they were for the game, shared out position by
    // position among the threads, then the updates in the order of play.
    if (threads < 1)
        threads = 1;
    if (threads > 16)
        threads = 16;
    pthread_t tid[16];
    TargetJob jobs[16];
    int started = 0;
    for (int k = 0; k < threads; k++) {
        jobs[k] = (TargetJob){nets, steps, k, T, threads};
        if (k > 0 && pthread_create(&tid[k], NULL, targets, &jobs[k]) == 0)
            started |= 1 << k;
    }
    targets(&jobs[0]);
    for (int k = 1; k < threads; k++)
        if (started >> k & 1)
            pthread_join(tid[k], NULL);
        else
            targets(&jobs[k]);
    for (int t = 0; t < T; t++)
        if (steps[t].kind != BG_EVAL_BEAROFF)
            learn(nets, &steps[t], &steps[t].v, alpha);
    return T + 1;
}
