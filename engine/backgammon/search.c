#include "engine/backgammon/search.h"

#include "engine/backgammon/bearoff.h"
#include "engine/backgammon/cube.h"
#include "engine/backgammon/met.h"
#include "engine/backgammon/notation.h"
#include "engine/core/clock.h"
#include "engine/core/random.h"
#include "engine/core/timeman.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The 21 rolls, larger die first, with their weight out of 36.
static const int ROLLS[21][3] = {
    {1, 1, 1}, {2, 1, 2}, {2, 2, 1}, {3, 1, 2}, {3, 2, 2}, {3, 3, 1}, {4, 1, 2},
    {4, 2, 2}, {4, 3, 2}, {4, 4, 1}, {5, 1, 2}, {5, 2, 2}, {5, 3, 2}, {5, 4, 2},
    {5, 5, 1}, {6, 1, 2}, {6, 2, 2}, {6, 3, 2}, {6, 4, 2}, {6, 5, 2}, {6, 6, 1},
};

void bg_search_init(BgSearch *s) {
    memset(s, 0, sizeof *s);
    s->nets = bg_nets_default();
    s->bearoff = true;
    for (int d = 0; d <= BG_MAX_DEPTH; d++)
        bg_plays_init(&s->pool[d]);
}

void bg_search_free(BgSearch *s) {
    for (int d = 0; d <= BG_MAX_DEPTH; d++)
        bg_plays_free(&s->pool[d]);
}

// Whether the search must give up: stop, the deadline or the node budget.
static bool give_up(BgSearch *s) {
    if (s->aborted)
        return true;
    if ((s->hooks && atomic_load(&s->hooks->stop)) ||
        (s->deadline_us && clock_now_us() >= s->deadline_us) ||
        (s->node_limit && s->nodes >= s->node_limit))
        s->aborted = true;
    return s->aborted;
}

// The value of the play that led to board a, from the view of side, who made it.
static void play_value(BgSearch *s, const BgBoard *a, int side, int depth, BgProbs *out) {
    if (bg_checkers(a, side) == 0) {
        int kind = bg_win_kind(a, side);
        *out = (BgProbs){1, kind >= 2, kind >= 3, 0, 0};
        return;
    }
    BgProbs o;
    bg_eval_ply(s, a, !side, depth, &o);
    *out = bg_probs_flip(&o);
}

void bg_eval_ply(BgSearch *s, const BgBoard *b, int side, int depth, BgProbs *out) {
    if (depth <= 0) {
        s->nodes++;
        bg_evaluate_with(s->nets, s->bearoff, b, side, out);
        return;
    }
    BgProbs sum = {0, 0, 0, 0, 0};
    BgPlayList *l = &s->pool[depth];
    for (int r = 0; r < 21; r++) {
        if (give_up(s)) {
            *out = sum;
            return;
        }
        BgProbs v;
        int n = bg_generate(b, side, ROLLS[r][0], ROLLS[r][1], l);
        if (n <= 0) {
            play_value(s, b, side, depth - 1, &v);
        } else {
            bg_best_play(s, b, side, l, depth - 1, &v);
        }
        double w = ROLLS[r][2] / 36.0;
        sum.win += w * v.win;
        sum.win_gammon += w * v.win_gammon;
        sum.win_backgammon += w * v.win_backgammon;
        sum.lose_gammon += w * v.lose_gammon;
        sum.lose_backgammon += w * v.lose_backgammon;
    }
    *out = sum;
}

// Sort idx[0..n) by decreasing eq (stable: equal values keep their order).
static void sort_by(int *idx, int n, const double *eq) {
    for (int i = 1; i < n; i++) {
        int v = idx[i], k = i;
        for (; k > 0 && eq[idx[k - 1]] < eq[v]; k--)
            idx[k] = idx[k - 1];
        idx[k] = v;
    }
}

// How many of the sorted idx survive a filter of keep plays within margin of the first.
static int filter(const int *idx, int n, const double *eq, int keep, double margin) {
    int m = 0;
    while (m < n && m < keep && eq[idx[m]] >= eq[idx[0]] - margin)
        m++;
    return m;
}

int bg_best_play(BgSearch *s, const BgBoard *b, int side, const BgPlayList *l, int depth,
                 BgProbs *best) {
    int n = l->n;
    if (n <= 0)
        return -1;
    int bi = 0;
    double be = -1e9;
    if (depth == 0 || n == 1) {
        for (int i = 0; i < n; i++) {
            BgProbs v;
            play_value(s, &l->v[i].after, side, depth, &v);
            double e = bg_equity(&v);
            if (e > be) {
                be = e;
                bi = i;
                *best = v;
            }
        }
        return bi;
    }
    int *idx = malloc((size_t)n * sizeof *idx);
    double *eq = malloc((size_t)n * sizeof *eq);
    if (!idx || !eq) {
        free(idx);
        free(eq);
        return bg_best_play(s, b, side, l, 0, best);
    }
    for (int i = 0; i < n; i++) {
        BgProbs v;
        play_value(s, &l->v[i].after, side, 0, &v);
        eq[i] = bg_equity(&v);
        idx[i] = i;
    }
    sort_by(idx, n, eq);
    int m = filter(idx, n, eq, BG_NODE_KEEP, BG_NODE_MARGIN);
    // The deeper values need the list after the recursion has reused deeper pools only: l
    // belongs to a shallower depth (or the caller), so it stays intact.
    for (int k = 0; k < m; k++) {
        BgProbs v;
        play_value(s, &l->v[idx[k]].after, side, depth, &v);
        double e = bg_equity(&v);
        if (e > be) {
            be = e;
            bi = idx[k];
            *best = v;
        }
    }
    free(idx);
    free(eq);
    return bi;
}

static void report(SearchHooks *hooks, const SearchLimits *lim, int depth, int multipv,
                   const BgProbs *pr, const char *pv, uint64_t nodes, const char *cube) {
    if (!hooks || !hooks->report)
        return;
    SearchReport r;
    memset(&r, 0, sizeof r);
    r.depth = depth;
    r.seldepth = depth;
    r.multipv = multipv;
    double eq = bg_equity(pr);
    r.score = (int)lround(eq * 100);
    r.has_probs = true;
    r.probs[0] = pr->win;
    r.probs[1] = pr->win_gammon;
    r.probs[2] = pr->win_backgammon;
    r.probs[3] = pr->lose_gammon;
    r.probs[4] = pr->lose_backgammon;
    r.equity = eq;
    r.nodes = nodes;
    r.time_ms = (clock_now_us() - lim->start_us) / 1000;
    snprintf(r.pv, sizeof r.pv, "%s", pv);
    snprintf(r.cube, sizeof r.cube, "%s", cube ? cube : "");
    hooks->report(hooks->ctx, &r);
}

// Whether token is among the searchmoves (all moves when there are none).
static bool allowed(const SearchLimits *lim, const char *token) {
    if (lim->nsearchmoves == 0)
        return true;
    for (int i = 0; i < lim->nsearchmoves; i++)
        if (!strcmp(lim->searchmoves[i], token))
            return true;
    return false;
}

// Backgammon's tuning of the time manager: one budget, both limits, at most half the clock.
static const TimeParams BG_TIME = {.moves_to_go = 30,
                                   .inc_percent = 50,
                                   .soft_max_percent = 50,
                                   .hard_over_soft = 1,
                                   .hard_divisor = 1,
                                   .reserve_percent = 50};

// The deepest depth to search and the time budget (ms, 0 = none) for this go.
static int plan(const BgPosition *p, const SearchLimits *lim, BgSearch *s, int64_t *budget_ms) {
    int maxd = BG_DEFAULT_DEPTH;
    TimeManager tm;
    tm_init(&tm, lim, p->turn == 1 ? 0 : 1, &BG_TIME); // player 1 (X) has the first clock
    *budget_ms = tm.hard_us == INT64_MAX ? 0 : (tm.hard_us + 999) / 1000;
    if (*budget_ms || lim->nodes)
        maxd = BG_MAX_DEPTH;
    if (s->hooks && atomic_load(&s->hooks->ponder))
        maxd = BG_DEFAULT_DEPTH; // no deadline while pondering: do not start a deep search
    if (lim->depth > 0)
        maxd = lim->depth < BG_MAX_DEPTH ? lim->depth : BG_MAX_DEPTH;
    if (*budget_ms > 0 && !(s->hooks && atomic_load(&s->hooks->ponder)))
        s->deadline_us = lim->start_us + *budget_ms * 1000;
    // Building the bear-off database takes about a second: a search on the clock does not
    // wait for it (it is built alongside) but evaluates bear-offs with the nets meanwhile.
    if ((*budget_ms > 0 || lim->infinite) && !bg_bearoff_ready())
        s->bearoff = false;
    s->node_limit = lim->nodes;
    return maxd;
}

// Set up a search of p under lim: its state, and the deepest depth with the time budget.
static int search_start(BgSearch *s, const BgPosition *p, const SearchLimits *lim,
                        SearchHooks *hooks, int64_t *budget_ms) {
    bg_search_init(s);
    s->hooks = hooks;
    return plan(p, lim, s, budget_ms);
}

// Whether the next iteration, expected to take about 25 times the last, fits the budget.
static bool next_fits(const SearchLimits *lim, int64_t budget_ms, int64_t last_us) {
    if (budget_ms <= 0)
        return true;
    int64_t now = clock_now_us();
    return now - lim->start_us + 25 * last_us <= budget_ms * 1000;
}

// One truncated rollout of the board a (side has just played): both sides play their best
// 0-ply play for up to BG_ROLLOUT_PLIES plies with dice from *rng, then the position is
// evaluated; from side's view. The same seed for every candidate gives them the same dice
// (duplicate rollouts), which cancels most of the luck between them.
static void rollout_once(BgSearch *s, BgPlayList *l, const BgBoard *a, int side, uint64_t *rng,
                         BgProbs *out) {
    BgBoard b = *a;
    int mover = side; // who made the last play
    for (int ply = 0; ply < BG_ROLLOUT_PLIES; ply++) {
        if (bg_checkers(&b, mover) == 0)
            break;
        int turn = !mover;
        int d1 = (int)(random_next(rng) % 6) + 1, d2 = (int)(random_next(rng) % 6) + 1;
        int n = bg_generate(&b, turn, d1, d2, l);
        if (n > 0) {
            BgProbs best;
            int i = bg_best_play(s, &b, turn, l, 0, &best);
            if (i >= 0)
                b = l->v[i].after;
        }
        mover = turn;
    }
    BgProbs v;
    play_value(s, &b, mover, 0, &v); // from the view of whoever played last
    *out = mover == side ? v : bg_probs_flip(&v);
}

// The mean of `trials` duplicate rollouts after the play leading to a, from side's view; false
// when stopped.
static bool rollout(BgSearch *s, const BgBoard *a, int side, int trials, uint64_t seed,
                    BgProbs *out) {
    BgProbs sum = {0, 0, 0, 0, 0};
    BgPlayList l;
    bg_plays_init(&l);
    for (int t = 0; t < trials; t++) {
        if (give_up(s)) {
            bg_plays_free(&l);
            return false;
        }
        uint64_t rng = seed + (uint64_t)t * 0x9E3779B97F4A7C15ull;
        BgProbs v;
        rollout_once(s, &l, a, side, &rng, &v);
        sum.win += v.win;
        sum.win_gammon += v.win_gammon;
        sum.win_backgammon += v.win_backgammon;
        sum.lose_gammon += v.lose_gammon;
        sum.lose_backgammon += v.lose_backgammon;
    }
    bg_plays_free(&l);
    *out = (BgProbs){sum.win / trials, sum.win_gammon / trials, sum.win_backgammon / trials,
                     sum.lose_gammon / trials, sum.lose_backgammon / trials};
    return true;
}

// Take the values tmp[k] of the plays idx[k] (k < m) into pr and eq, sort idx by equity, and
// report the best `multipv` lines at depth.
static void rank(const BgPosition *p, const SearchLimits *lim, SearchHooks *hooks,
                 const BgPlayList *l, int *idx, int m, const BgProbs *tmp, BgProbs *pr, double *eq,
                 int depth, uint64_t nodes) {
    for (int k = 0; k < m; k++) {
        pr[idx[k]] = tmp[k];
        eq[idx[k]] = bg_equity(&tmp[k]);
    }
    sort_by(idx, m, eq);
    int lines = lim->multipv > 1 ? lim->multipv : 1;
    char tok[BG_PLAY_TEXT_MAX];
    for (int k = 0; k < lines && k < m; k++) {
        bg_play_token(&p->b, p->turn, p->dice[0], p->dice[1], &l->v[idx[k]], tok, sizeof tok);
        report(hooks, lim, depth, k + 1, &pr[idx[k]], tok, nodes, NULL);
    }
}

static void choose_play(const BgPosition *p, const SearchLimits *lim, SearchHooks *hooks,
                        SearchResult *out) {
    BgSearch s;
    int64_t budget;
    int maxd = search_start(&s, p, lim, hooks, &budget);
    BgPlayList l;
    bg_plays_init(&l);
    int n = bg_generate(&p->b, p->turn, p->dice[0], p->dice[1], &l);
    if (n <= 0) {
        BgProbs pr;
        bg_eval_ply(&s, &p->b, !p->turn, 0, &pr);
        pr = bg_probs_flip(&pr);
        snprintf(out->best, sizeof out->best, "%d%d:-", p->dice[0], p->dice[1]);
        report(hooks, lim, 0, 1, &pr, out->best, s.nodes, NULL);
        bg_plays_free(&l);
        bg_search_free(&s);
        return;
    }
    int *idx = malloc((size_t)n * sizeof *idx);
    double *eq = malloc((size_t)n * sizeof *eq);
    BgProbs *pr = malloc((size_t)n * sizeof *pr);
    BgProbs *tmp = malloc((size_t)n * sizeof *tmp);
    char tok[BG_PLAY_TEXT_MAX];
    int m = 0;
    for (int i = 0; idx && eq && pr && tmp && i < n; i++) {
        bg_play_token(&p->b, p->turn, p->dice[0], p->dice[1], &l.v[i], tok, sizeof tok);
        if (allowed(lim, tok))
            idx[m++] = i;
    }
    if (m == 0) { // out of memory, or no searchmove matched: the first play
        bg_play_token(&p->b, p->turn, p->dice[0], p->dice[1], &l.v[0], out->best, sizeof out->best);
    } else {
        int lines = lim->multipv > 1 ? lim->multipv : 1;
        int64_t last_us = 0;
        for (int d = 0; d <= maxd; d++) {
            if (d > 0 && !next_fits(lim, budget, last_us))
                break;
            int64_t t0 = clock_now_us();
            int keep = d == 0 ? m : filter(idx, m, eq, BG_ROOT_KEEP, BG_ROOT_MARGIN);
            if (d > 0 && keep < (lines < m ? lines : m))
                keep = lines < m ? lines : m;
            for (int k = 0; k < keep; k++)
                play_value(&s, &l.v[idx[k]].after, p->turn, d, &tmp[k]);
            if (d > 0 && s.aborted)
                break;
            m = keep;
            rank(p, lim, hooks, &l, idx, m, tmp, pr, eq, d, s.nodes);
            last_us = clock_now_us() - t0;
        }
        if (lim->rollouts > 0) { // the candidates left by the search, rolled out
            int keep = m < BG_ROOT_KEEP ? m : BG_ROOT_KEEP;
            uint64_t seed = bg_key(p);
            int k = 0;
            for (;
                 k < keep && rollout(&s, &l.v[idx[k]].after, p->turn, lim->rollouts, seed, &tmp[k]);
                 k++)
                ;
            if (k == keep) { // complete: rank by the rollouts
                m = keep;
                rank(p, lim, hooks, &l, idx, m, tmp, pr, eq, BG_ROLLOUT_PLIES, s.nodes);
            }
        }
        bg_play_token(&p->b, p->turn, p->dice[0], p->dice[1], &l.v[idx[0]], out->best,
                      sizeof out->best);
    }
    free(idx);
    free(eq);
    free(pr);
    free(tmp);
    bg_plays_free(&l);
    bg_search_free(&s);
}

// Cube decisions, from the view of the player on roll (the doubler).
static void cube_action(const BgPosition *p, const SearchLimits *lim, SearchHooks *hooks,
                        SearchResult *out) {
    BgSearch s;
    int64_t budget;
    int maxd = search_start(&s, p, lim, hooks, &budget);
    BgProbs pr = {0, 0, 0, 0, 0};
    int64_t last_us = 0;
    const char *answer = "roll";
    for (int d = 0; d <= maxd; d++) {
        if (d > 0 && !next_fits(lim, budget, last_us))
            break;
        int64_t t0 = clock_now_us();
        BgProbs v;
        bg_eval_ply(&s, &p->b, p->turn, d, &v);
        if (d > 0 && s.aborted)
            break;
        pr = v;
        BgProbs shown = pr;
        // Money play: Janowski's cubeful equity (cube.h); match play: match winning chances
        // from tabula's own match equity table (met.h), at the efficiencies of cube.h.
        BgCubeDecision cd =
            p->length == 0 ? bg_cube_decide(&pr, p->owner < 0, p->jacoby, BG_MONEY_CUBE_EFFICIENCY)
                           : bg_match_cube_decide(p, &pr, BG_CUBE_EFFICIENCY);
        char cube[96];
        if (p->doubled) {
            answer = cd.should_take ? "take" : "drop";
            shown = bg_probs_flip(&pr); // reported for the player who answers
            // The taker's side: taking gives the doubler double/take, passing double/pass.
            bool money = p->length == 0;
            snprintf(cube, sizeof cube, "take %.4f pass %.4f",
                     money ? -cd.double_take : 1 - cd.double_take,
                     money ? -cd.double_pass : 1 - cd.double_pass);
        } else {
            answer = bg_can_double(p) && cd.should_double ? "double" : "roll";
            snprintf(cube, sizeof cube, "nodouble %.4f doubletake %.4f doublepass %.4f",
                     cd.no_double, cd.double_take, cd.double_pass);
        }
        if (!allowed(lim, answer) && lim->nsearchmoves > 0)
            answer = lim->searchmoves[0];
        report(hooks, lim, d, 1, &shown, answer, s.nodes, cube);
        last_us = clock_now_us() - t0;
    }
    snprintf(out->best, sizeof out->best, "%s", answer);
    bg_search_free(&s);
}

void bg_search(const BgPosition *p, const SearchLimits *lim, SearchHooks *hooks,
               SearchResult *out) {
    out->ponder[0] = '\0';
    if (p->state != BG_PLAYING) {
        strcpy(out->best, "(none)");
        return;
    }
    if (p->dice[0])
        choose_play(p, lim, hooks, out);
    else
        cube_action(p, lim, hooks, out);
}
