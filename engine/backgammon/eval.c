// The weights below were set by hand in a few minutes and never tuned: this evaluation is a
// stand-in so that the protocol can be exercised end to end. See eval.h.
#include "engine/backgammon/eval.h"

#include <math.h>
#include <stdio.h>

#define ROLL_PIPS 4.0     // what being on roll is worth in a race, in pips
#define BLOT_OWN -0.15    // per blot of the side on roll (logit)
#define BLOT_THEIRS 0.10  // per blot of the opponent, who is about to be shot at
#define HOME_POINT 0.12   // per point made in one's home board
#define BAR_CHECKER -0.40 // per checker on one's bar
#define ANCHOR 0.10       // per point held in the opponent's home board
#define GAMMON_BASE 0.02  // gammon share of wins with nothing left behind
#define GAMMON_PER 0.02   // and per (pips outside home / 6) of the loser's checkers
#define GAMMON_MAX 0.6
#define BACKGAMMON_BASE 0.01 // backgammon share of gammons
#define BACKGAMMON_PER 0.02  // per loser checker on the bar or in the winner's home board

typedef struct Terms {
    int pips[2];
    double race, blots, home, bar, anchors, logit;
    double gshare[2], bgshare[2]; // of the wins of player k
} Terms;

bool bg_contact(const BgBoard *b) {
    int top[2] = {0, 0};
    for (int s = 0; s < 2; s++)
        for (int i = BG_SLOTS - 1; i >= 0 && !top[s]; i--)
            if (b->c[s][i])
                top[s] = i + 1;
    return top[0] && top[1] && top[0] + top[1] > 25;
}

static double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

// Gammon and backgammon shares of the wins of player w over player l.
static void gammon_shares(const BgBoard *b, int w, Terms *t) {
    int l = !w;
    if (bg_checkers(b, l) < BG_CHECKERS) {
        t->gshare[w] = t->bgshare[w] = 0;
        return;
    }
    double behind = 0;
    int back = 0;
    for (int i = 6; i < BG_SLOTS; i++)
        behind += b->c[l][i] * (i + 1 - 6) / 6.0;
    for (int i = 18; i < BG_SLOTS; i++)
        back += b->c[l][i];
    t->gshare[w] = clampd(GAMMON_BASE + GAMMON_PER * behind, 0, GAMMON_MAX);
    t->bgshare[w] = clampd(BACKGAMMON_BASE + BACKGAMMON_PER * back, 0, 0.5);
}

static void terms(const BgBoard *b, int side, Terms *t) {
    const uint8_t *me = b->c[side], *op = b->c[!side];
    t->pips[0] = bg_pips(b, side);
    t->pips[1] = bg_pips(b, !side);
    double avg = (t->pips[0] + t->pips[1]) / 2.0;
    t->race = (t->pips[1] - t->pips[0] + ROLL_PIPS) / fmax(2.0, 0.1 * avg);
    t->blots = t->home = t->bar = t->anchors = 0;
    if (bg_contact(b)) {
        for (int i = 0; i < BG_POINTS; i++) {
            t->blots += (me[i] == 1) * BLOT_OWN + (op[i] == 1) * BLOT_THEIRS;
            if (i < 6)
                t->home += HOME_POINT * ((me[i] >= 2) - (op[i] >= 2));
            if (i >= 18)
                t->anchors += ANCHOR * ((me[i] >= 2) - (op[i] >= 2));
        }
        t->bar = BAR_CHECKER * (me[BG_BAR] - op[BG_BAR]);
    }
    t->logit = t->race + t->blots + t->home + t->bar + t->anchors;
    gammon_shares(b, side, t);
    gammon_shares(b, !side, t);
    // gshare[0]/[1] were written for side and !side: index them by role instead.
    double g_me = t->gshare[side], g_op = t->gshare[!side];
    double b_me = t->bgshare[side], b_op = t->bgshare[!side];
    t->gshare[0] = g_me;
    t->gshare[1] = g_op;
    t->bgshare[0] = b_me;
    t->bgshare[1] = b_op;
}

static void probs_of(const Terms *t, BgProbs *out) {
    double w = 1 / (1 + exp(-t->logit));
    out->win = w;
    out->win_gammon = w * t->gshare[0];
    out->win_backgammon = out->win_gammon * t->bgshare[0];
    out->lose_gammon = (1 - w) * t->gshare[1];
    out->lose_backgammon = out->lose_gammon * t->bgshare[1];
}

void bg_evaluate(const BgBoard *b, int side, BgProbs *out) {
    Terms t;
    terms(b, side, &t);
    probs_of(&t, out);
}

BgProbs bg_probs_flip(const BgProbs *p) {
    return (BgProbs){1 - p->win, p->lose_gammon, p->lose_backgammon, p->win_gammon,
                     p->win_backgammon};
}

double bg_equity(const BgProbs *p) {
    return 2 * p->win - 1 + p->win_gammon - p->lose_gammon + p->win_backgammon - p->lose_backgammon;
}

void bg_eval_describe(const BgBoard *b, int side, char *buf, size_t n) {
    Terms t;
    BgProbs p;
    terms(b, side, &t);
    probs_of(&t, &p);
    snprintf(buf, n,
             "evaluation: temporary placeholder (pip count and a few hand-set terms)\n"
             "pips        %d to %d (%s)\n"
             "race        %+.3f\n"
             "blots       %+.3f\n"
             "home points %+.3f\n"
             "bar         %+.3f\n"
             "anchors     %+.3f\n"
             "logit       %+.3f\n"
             "probs       %.4f %.4f %.4f %.4f %.4f (win, win gammon, win backgammon, lose "
             "gammon, lose backgammon)\n"
             "equity      %+.4f (cubeless, for the player on roll)\n",
             t.pips[0], t.pips[1], bg_contact(b) ? "contact" : "race", t.race, t.blots, t.home,
             t.bar, t.anchors, t.logit, p.win, p.win_gammon, p.win_backgammon, p.lose_gammon,
             p.lose_backgammon, bg_equity(&p));
}
