#include "engine/backgammon/search.h"

#include "engine/backgammon/eval.h"
#include "engine/backgammon/game.h"
#include "engine/backgammon/movegen.h"
#include "engine/backgammon/notation.h"
#include "engine/core/clock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The probabilities of the player who just made a play (board a), from its view.
static BgProbs after_play(const BgBoard *a, int side) {
    if (bg_checkers(a, side) == 0) {
        int kind = bg_win_kind(a, side);
        return (BgProbs){1, kind >= 2, kind >= 3, 0, 0};
    }
    BgProbs opp;
    bg_evaluate(a, !side, &opp);
    return bg_probs_flip(&opp);
}

static void report(SearchHooks *hooks, const SearchLimits *lim, int multipv, const BgProbs *pr,
                   const char *pv, uint64_t nodes) {
    if (!hooks || !hooks->report)
        return;
    SearchReport r;
    memset(&r, 0, sizeof r);
    r.depth = 0;
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

static void choose_play(const BgPosition *p, const SearchLimits *lim, SearchHooks *hooks,
                        SearchResult *out) {
    BgPlayList l;
    bg_plays_init(&l);
    int n = bg_generate(&p->b, p->turn, p->dice[0], p->dice[1], &l);
    if (n <= 0) {
        BgProbs pr;
        bg_evaluate(&p->b, !p->turn, &pr);
        pr = bg_probs_flip(&pr);
        snprintf(out->best, sizeof out->best, "%d%d:-", p->dice[0], p->dice[1]);
        report(hooks, lim, 1, &pr, out->best, 1);
        bg_plays_free(&l);
        return;
    }
    int *order = malloc((size_t)n * sizeof *order);
    double *eq = malloc((size_t)n * sizeof *eq);
    BgProbs *pr = malloc((size_t)n * sizeof *pr);
    char tok[BG_PLAY_TEXT_MAX];
    int m = 0;
    for (int i = 0; order && eq && pr && i < n; i++) {
        bg_play_token(&p->b, p->turn, p->dice[0], p->dice[1], &l.v[i], tok, sizeof tok);
        if (!allowed(lim, tok))
            continue;
        pr[i] = after_play(&l.v[i].after, p->turn);
        eq[i] = bg_equity(&pr[i]);
        // Insertion by equity, best first; equal equities keep generation order.
        int k = m++;
        for (; k > 0 && eq[order[k - 1]] < eq[i]; k--)
            order[k] = order[k - 1];
        order[k] = i;
    }
    if (m == 0) { // out of memory, or no searchmove matched: the first play
        bg_play_token(&p->b, p->turn, p->dice[0], p->dice[1], &l.v[0], out->best, sizeof out->best);
    } else {
        int lines = lim->multipv > 1 ? (lim->multipv < m ? lim->multipv : m) : 1;
        for (int k = 0; k < lines; k++) {
            bg_play_token(&p->b, p->turn, p->dice[0], p->dice[1], &l.v[order[k]], tok, sizeof tok);
            report(hooks, lim, k + 1, &pr[order[k]], tok, (uint64_t)m);
        }
        bg_play_token(&p->b, p->turn, p->dice[0], p->dice[1], &l.v[order[0]], out->best,
                      sizeof out->best);
    }
    free(order);
    free(eq);
    free(pr);
    bg_plays_free(&l);
}

void bg_search(const BgPosition *p, const SearchLimits *lim, SearchHooks *hooks,
               SearchResult *out) {
    out->ponder[0] = '\0';
    if (p->state != BG_PLAYING) {
        strcpy(out->best, "(none)");
        return;
    }
    if (p->dice[0]) {
        choose_play(p, lim, hooks, out);
        return;
    }
    // Cube decisions, from the doubler's (the player on roll's) view.
    BgProbs pr;
    bg_evaluate(&p->b, p->turn, &pr);
    double eq = bg_equity(&pr);
    const char *answer;
    if (p->doubled) {
        answer = eq <= BG_TAKE_UPTO ? "take" : "drop";
        pr = bg_probs_flip(&pr); // reported for the player who answers
    } else {
        answer = bg_can_double(p) && eq >= BG_DOUBLE_FROM && eq < BG_TOO_GOOD ? "double" : "roll";
    }
    if (!allowed(lim, answer) && lim->nsearchmoves > 0)
        answer = lim->searchmoves[0];
    snprintf(out->best, sizeof out->best, "%s", answer);
    report(hooks, lim, 1, &pr, answer, 1);
}
