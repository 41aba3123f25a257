// Money cube decisions from Janowski's cubeful equity (cube.h).
#include "engine/backgammon/cube.h"

// The average value of a win and of a loss for the player whose probabilities p are.
static void win_loss_values(const BgProbs *p, double *w, double *l) {
    double lose = 1 - p->win;
    *w = 1;
    *l = 1;
    if (p->win > 1e-9)
        *w = (p->win + p->win_gammon + p->win_backgammon) / p->win;
    if (lose > 1e-9)
        *l = (lose + p->lose_gammon + p->lose_backgammon) / lose;
}

double bg_cubeful_money(const BgProbs *p, BgCubeOwner owner, bool jacoby, double x) {
    double w, l, q = p->win;
    win_loss_values(p, &w, &l);
    // Under the Jacoby rule a game that ends with the cube centred counts gammons single: the
    // dead-cube part. The live cube is turned before the game ends, so gammons count in full
    // at the take and cash points it is turned at.
    double dead = jacoby && owner == BG_CUBE_CENTRED ? 2 * q - 1 : q * w - (1 - q) * l;
    double tp = (l - 0.5) / (w + l + 0.5), cp = (l + 1) / (w + l + 0.5);
    double live;
    switch (owner) {
    case BG_CUBE_MINE:
        live = q >= cp ? 1 : -l + (1 + l) * q / cp;
        break;
    case BG_CUBE_THEIRS:
        live = q <= tp ? -1 : -1 + (w + 1) * (q - tp) / (1 - tp);
        break;
    default:
        live = q <= tp ? -1 : q >= cp ? 1 : -1 + 2 * (q - tp) / (cp - tp);
        break;
    }
    return x * live + (1 - x) * dead;
}

BgCubeDecision bg_cube_decide(const BgProbs *p, bool centred, bool jacoby, double x) {
    BgCubeDecision d;
    d.no_double = bg_cubeful_money(p, centred ? BG_CUBE_CENTRED : BG_CUBE_MINE, jacoby, x);
    d.double_take = 2 * bg_cubeful_money(p, BG_CUBE_THEIRS, false, x);
    d.double_pass = 1;
    double best = d.double_take < d.double_pass ? d.double_take : d.double_pass;
    d.should_double = best > d.no_double;
    d.should_take = d.double_take <= d.double_pass;
    return d;
}
