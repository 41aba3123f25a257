// tabula's match equity table and match cube decisions (met.h).
#include "engine/backgammon/met.h"

#include <math.h>
#include <pthread.h>

#define N BG_MET_GRID
#define MAX_CUBE 256 // a cube this high counts as dead

// One game in hand, from the view of "me": the scores away, whether it is the Crawford game or
// a later one (the next game is then post-Crawford), and how wins and losses end (shares of
// single, gammon, backgammon, summing to 1).
typedef struct GameModel {
    int a, b;
    bool post;
    double win[3], lose[3];
} GameModel;

static double met_pre[BG_MET_MAX + 1][BG_MET_MAX + 1];
static double met_post[BG_MET_MAX + 1][BG_MET_MAX + 1];
static pthread_once_t met_once = PTHREAD_ONCE_INIT;

static int clamp_away(int a) { return a > BG_MET_MAX ? BG_MET_MAX : a; }

// The table's entry for a, b away (1 when a has won, 0 when b has), pre- or post-Crawford.
static double lookup(int a, int b, bool post) {
    if (a <= 0)
        return 1;
    if (b <= 0)
        return 0;
    a = clamp_away(a);
    b = clamp_away(b);
    return post ? met_post[a][b] : met_pre[a][b];
}

// The equity at the start of the game after this one, the scores then a, b away.
static double after(const GameModel *g, int a, int b) { return lookup(a, b, g->post); }

// The equities after a win (*v1) and a loss (*v0) with cube c.
static void end_values(const GameModel *g, int c, double *v1, double *v0) {
    *v1 = *v0 = 0;
    for (int k = 0; k < 3; k++) {
        *v1 += g->win[k] * after(g, g->a - (k + 1) * c, g->b);
        *v0 += g->lose[k] * after(g, g->a, g->b - (k + 1) * c);
    }
}

// Whether nobody can gain by turning cube c: any win already ends the match either way.
static bool dead(const GameModel *g, int c) { return c >= MAX_CUBE || (c >= g->a && c >= g->b); }

static void linear(double v0, double v1, double *out) {
    for (int i = 0; i <= N; i++)
        out[i] = v0 + (v1 - v0) * i / N;
}

// The least concave majorant (sign 1) or greatest convex minorant (sign -1) of f, in place.
static void hull(double *f, int sign) {
    int st[N + 1], n = 0;
    for (int i = 0; i <= N; i++) {
        while (n >= 2) {
            int j = st[n - 2], k = st[n - 1];
            // Drop k when it lies on the wrong side of the chord j..i.
            double cross = (f[k] - f[j]) * (i - j) - (f[i] - f[j]) * (k - j);
            if (sign * cross > 0)
                break;
            n--;
        }
        st[n++] = i;
    }
    for (int s = 0; s + 1 < n; s++)
        for (int i = st[s] + 1; i < st[s + 1]; i++)
            f[i] = f[st[s]] + (f[st[s + 1]] - f[st[s]]) * (i - st[s]) / (st[s + 1] - st[s]);
}

static void opp_owns(const GameModel *g, int c, double *out);

// My equity over the grid when I own cube c.
static void me_owns(const GameModel *g, int c, double *out) {
    double v1, v0;
    end_values(g, c, &v1, &v0);
    if (dead(g, c)) {
        linear(v0, v1, out);
        return;
    }
    double take[N + 1], drop = after(g, g->a - c, g->b);
    opp_owns(g, 2 * c, take);
    for (int i = 1; i < N; i++)
        out[i] = take[i] < drop ? take[i] : drop;
    out[0] = v0;
    out[N] = v1;
    hull(out, 1);
}

// My equity over the grid when the opponent owns cube c.
static void opp_owns(const GameModel *g, int c, double *out) {
    double v1, v0;
    end_values(g, c, &v1, &v0);
    if (dead(g, c)) {
        linear(v0, v1, out);
        return;
    }
    double take[N + 1], drop = after(g, g->a, g->b - c);
    me_owns(g, 2 * c, take);
    for (int i = 1; i < N; i++)
        out[i] = take[i] > drop ? take[i] : drop;
    out[0] = v0;
    out[N] = v1;
    hull(out, -1);
}

// My equity over the grid with cube c centred: I stop (double) for lo[i], the opponent for
// hi[i]; projected SOR on the martingale's discrete Laplacian.
static void centred(const GameModel *g, int c, double *out) {
    double v1, v0;
    end_values(g, c, &v1, &v0);
    linear(v0, v1, out);
    if (dead(g, c))
        return;
    double lo[N + 1], hi[N + 1], t[N + 1];
    double my_drop = after(g, g->a - c, g->b), their_drop = after(g, g->a, g->b - c);
    opp_owns(g, 2 * c, t);
    for (int i = 0; i <= N; i++)
        lo[i] = t[i] < my_drop ? t[i] : my_drop;
    me_owns(g, 2 * c, t);
    for (int i = 0; i <= N; i++)
        hi[i] = t[i] > their_drop ? t[i] : their_drop;
    double omega = 2 / (1 + sin(M_PI / N));
    for (int sweep = 0; sweep < 20 * N * N; sweep++) {
        double change = 0;
        for (int i = 1; i < N; i++) {
            double x = out[i] + omega * ((out[i - 1] + out[i + 1]) / 2 - out[i]);
            x = x < lo[i] ? lo[i] : x;
            x = x > hi[i] ? hi[i] : x;
            change = fmax(change, fabs(x - out[i]));
            out[i] = x;
        }
        if (change < 1e-12)
            break;
    }
}

// The value at p of a function on the grid.
static double at(const double *f, double p) {
    double x = p * N;
    int i = (int)x;
    if (i >= N)
        return f[N];
    if (i < 0)
        return f[0];
    return f[i] + (f[i + 1] - f[i]) * (x - i);
}

static GameModel table_game(int a, int b, bool post) {
    GameModel g = {
        a, b, post, {1 - BG_MET_GAMMON, BG_MET_GAMMON, 0}, {1 - BG_MET_GAMMON, BG_MET_GAMMON, 0}};
    return g;
}

// The equity at the start of a game at a, b away, the cube centred at 1 (dead in the
// Crawford game).
static double game_start(const GameModel *g, bool crawford) {
    double f[N + 1];
    if ((g->a == 1) != (g->b == 1) && !crawford) { // post-Crawford: the cube is live
        centred(g, 1, f);
        return at(f, 0.5);
    }
    if (g->a == 1 || g->b == 1) { // DMP, or the Crawford game: no cube
        double v1, v0;
        end_values(g, 1, &v1, &v0);
        return (v1 + v0) / 2;
    }
    centred(g, 1, f);
    return at(f, 0.5);
}

// Both tables by increasing total away, each entry from smaller ones only (post-Crawford
// first: the Crawford game leads into it).
static void build(void) {
    for (int s = 2; s <= 2 * BG_MET_MAX; s++)
        for (int a = 1; a <= BG_MET_MAX; a++) {
            int b = s - a;
            if (b < 1 || b > BG_MET_MAX)
                continue;
            GameModel post = table_game(a, b, true);
            met_post[a][b] = (a == 1 || b == 1) ? game_start(&post, false) : 0;
            GameModel pre = table_game(a, b, a == 1 || b == 1); // the Crawford game leads on
            met_pre[a][b] = (a == 1 && b == 1) ? 0.5 : game_start(&pre, a == 1 || b == 1);
            if (a == 1 && b == 1)
                met_post[a][b] = 0.5;
        }
}

double bg_met(int a, int b, bool post_crawford) {
    pthread_once(&met_once, build);
    return lookup(a, b, post_crawford);
}

// Shares of single, gammon and backgammon among wins of probability w, gammons wg and
// backgammons wbg (gammons including backgammons).
static void shares(double w, double wg, double wbg, double *out) {
    if (w < 1e-9) {
        out[0] = 1;
        out[1] = out[2] = 0;
        return;
    }
    out[2] = wbg / w;
    out[1] = (wg - wbg) / w;
    out[0] = 1 - out[1] - out[2];
}

BgCubeDecision bg_match_cube_decide(const BgPosition *p, const BgProbs *pr, double x) {
    pthread_once(&met_once, build);
    int me = p->turn;
    int a = p->length - p->score[me], b = p->length - p->score[!me];
    bool post = !p->crawford && (a == 1 || b == 1);
    GameModel g = {a, b, p->crawford || post, {0}, {0}};
    shares(pr->win, pr->win_gammon, pr->win_backgammon, g.win);
    shares(1 - pr->win, pr->lose_gammon, pr->lose_backgammon, g.lose);
    int c = p->cube;
    double q = pr->win, f[N + 1], v1, v0;
    BgCubeDecision d;
    if (p->owner < 0)
        centred(&g, c, f);
    else
        me_owns(&g, c, f);
    end_values(&g, c, &v1, &v0);
    d.no_double = x * at(f, q) + (1 - x) * (q * v1 + (1 - q) * v0);
    opp_owns(&g, 2 * c, f);
    end_values(&g, 2 * c, &v1, &v0);
    d.double_take = x * at(f, q) + (1 - x) * (q * v1 + (1 - q) * v0);
    d.double_pass = after(&g, a - c, b);
    double best = d.double_take < d.double_pass ? d.double_take : d.double_pass;
    d.should_double = best > d.no_double + 1e-9;
    d.should_take = d.double_take <= d.double_pass;
    if (p->crawford || (post && a == 1))
        d.should_double = false; // no cube in the Crawford game; the leader gains nothing
    else if (post && b == 1 && p->owner < 0)
        d.should_double = true; // post-Crawford: the trailer doubles at once
    return d;
}
