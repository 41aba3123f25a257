#include "engine/backgammon/eval.h"

#include "engine/backgammon/bearoff.h"

#include <stdio.h>

bool bg_contact(const BgBoard *b) {
    int top[2] = {0, 0};
    for (int s = 0; s < 2; s++)
        for (int i = BG_SLOTS - 1; i >= 0 && !top[s]; i--)
            if (b->c[s][i])
                top[s] = i + 1;
    return top[0] && top[1] && top[0] + top[1] > 25;
}

BgEvalKind bg_eval_kind(const BgBoard *b) {
    if (bg_contact(b))
        return BG_EVAL_CONTACT;
    return bg_bearoff_applies(b) ? BG_EVAL_BEAROFF : BG_EVAL_RACE;
}

static double clamp01(double x) { return x < 0 ? 0 : x > 1 ? 1 : x; }

BgEvalKind bg_evaluate_with(const BgNets *nets, bool bearoff, const BgBoard *b, int side,
                            BgProbs *out) {
    BgEvalKind kind = bg_eval_kind(b);
    if (kind == BG_EVAL_BEAROFF && bearoff) {
        bg_bearoff_probs(b, side, out);
        return kind;
    }
    const BgNet *n = &nets->net[kind == BG_EVAL_CONTACT ? BG_NET_CONTACT : BG_NET_RACE];
    float x[BG_NET_INPUTS], y[BG_NET_OUTPUTS];
    int active[BG_NET_INPUTS];
    int na = bg_net_inputs(b, side, x, active);
    bg_net_forward(n, x, active, na, NULL, y);
    out->win = clamp01(y[0]);
    out->win_gammon = y[1] < out->win ? y[1] : out->win;
    out->win_backgammon = y[2] < out->win_gammon ? y[2] : out->win_gammon;
    out->lose_gammon = y[3] < 1 - out->win ? y[3] : 1 - out->win;
    out->lose_backgammon = y[4] < out->lose_gammon ? y[4] : out->lose_gammon;
    // No gammon is possible for a side that has borne a checker off.
    if (bg_checkers(b, !side) < BG_CHECKERS)
        out->win_gammon = out->win_backgammon = 0;
    if (bg_checkers(b, side) < BG_CHECKERS)
        out->lose_gammon = out->lose_backgammon = 0;
    return kind;
}

void bg_evaluate(const BgBoard *b, int side, BgProbs *out) {
    bg_evaluate_with(bg_nets_default(), true, b, side, out);
}

BgProbs bg_probs_flip(const BgProbs *p) {
    return (BgProbs){1 - p->win, p->lose_gammon, p->lose_backgammon, p->win_gammon,
                     p->win_backgammon};
}

double bg_equity(const BgProbs *p) {
    return 2 * p->win - 1 + p->win_gammon - p->lose_gammon + p->win_backgammon - p->lose_backgammon;
}

void bg_eval_describe(const BgBoard *b, int side, char *buf, size_t n) {
    static const char *const WHAT[] = {"contact net", "race net", "bear-off database"};
    BgProbs p;
    BgEvalKind kind = bg_evaluate_with(bg_nets_default(), true, b, side, &p);
    const BgNets *nets = bg_nets_default();
    snprintf(buf, n,
             "evaluation: %s (nets %d and %d hidden units, %llu self-play games)\n"
             "pips        %d to %d\n"
             "probs       %.4f %.4f %.4f %.4f %.4f (win, win gammon, win backgammon, lose "
             "gammon, lose backgammon)\n"
             "equity      %+.4f (cubeless, for the player on roll)\n",
             WHAT[kind], nets->net[0].hidden, nets->net[1].hidden, (unsigned long long)nets->games,
             bg_pips(b, side), bg_pips(b, !side), p.win, p.win_gammon, p.win_backgammon,
             p.lose_gammon, p.lose_backgammon, bg_equity(&p));
}
