// Cube decisions in money play from cubeful equity, Janowski's model (1993): the cubeful
// equity is x times the equity with a fully live cube plus (1 - x) times the cubeless (dead
// cube) equity, x being the cube efficiency (BG_MONEY_CUBE_EFFICIENCY).
//
// With W and L the average values of a win and of a loss (gammons and backgammons included)
// and p the cubeless chance to win, the live-cube equity of the player on roll, per unit of
// cube, is linear in p between its end points: owning the cube, from -L at p = 0 to +1 at the
// cash point CP = (L + 1) / (W + L + 0.5) (above which it cashes); with the cube centred, -1
// up to the opponent's take point TP = (L - 0.5) / (W + L + 0.5) and +1 from CP; with the
// opponent owning it, -1 up to TP and W at p = 1. Doubling is right when min(double/take,
// double/pass) beats no double; taking when double/take is no worse than -1 for the taker.
// For W = L = 1 and x = 0.68 the take point is 0.5 / 2.34 = 21.4%.
//
// Match play is not covered yet (no match equity table): the search keeps its simple
// thresholds there.
#ifndef ENGINE_BACKGAMMON_CUBE_H
#define ENGINE_BACKGAMMON_CUBE_H

#include "engine/backgammon/eval.h"

#include <stdbool.h>

// Money play: fitted to gnubg 1.07's 2-ply cubeful decisions (scripts/bg_error.py --cube, two
// samples of gnubg's self-play positions: 0.68 put 57 and 62 of 348 and 316 decisions wrong
// with gnubg's own cubeless probabilities, 0.75 put 18 and 20).
#define BG_MONEY_CUBE_EFFICIENCY 0.75
// Match play (met.h): not fitted; the value long used for money.
#define BG_CUBE_EFFICIENCY 0.68

// Who owns the cube, seen from the player whose equity is computed.
typedef enum BgCubeOwner { BG_CUBE_CENTRED, BG_CUBE_MINE, BG_CUBE_THEIRS } BgCubeOwner;

// Cubeful money equity per unit of cube of the player whose probabilities p are, the cube
// held as owner says, at efficiency x. jacoby: the Jacoby rule holds, so with the cube
// centred the dead-cube part counts gammons single; the live part keeps them, because the
// cube is turned (and the rule lapses) before the game ends.
double bg_cubeful_money(const BgProbs *p, BgCubeOwner owner, bool jacoby, double x);

// The doubler's three equities (per unit of the present cube) and the right actions.
typedef struct BgCubeDecision {
    double no_double, double_take, double_pass;
    bool should_double; // double/take or double/pass beats no double
    bool should_take;   // the taker loses less by taking than by passing
} BgCubeDecision;

// The money decision of the player on roll with cubeless probabilities p, who may double
// (the cube centred when centred, else owned by the doubler); jacoby: gammons count only once
// the cube is turned (bg_cubeful_money).
BgCubeDecision bg_cube_decide(const BgProbs *p, bool centred, bool jacoby, double x);

#endif
