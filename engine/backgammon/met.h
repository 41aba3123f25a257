// Match play: tabula's own match equity table and cube decisions from match winning chances.
//
// Model (one game): the cubeless chance p of the player on roll to win moves as a continuous
// martingale from its present value to 0 or 1 (no market losers: it never jumps past a cube
// point), and a game won ends single, gammon or backgammon in fixed proportions. Over a grid
// of p (BG_MET_GRID steps) the equity of each cube state is then:
// - a dead cube (neither player can gain by doubling): linear, p V1 + (1 - p) V0, V1 and V0
//   being the match equities after a win and after a loss at this cube;
// - the player owns cube c: the least concave majorant of its stopping payoff (0 -> V0,
//   1 -> V1, inside: doubling, min(drop = score after winning c, take = the opponent owning
//   2c)): the optimal stopping value of a martingale;
// - the opponent owns it: the greatest convex minorant of the opponent's stopping payoff;
// - centred: both may stop, a Dynkin game, solved by projected SOR on the grid.
// The table: M(a, b) is the equity of the player a points away against one b away at the start
// of a game (p = 1/2) with the cube centred at 1, wins ending as a gammon in the proportion
// BG_MET_GAMMON (backgammons not counted). 1-away 1-away is 1/2. When one player is 1 away the
// game is the Crawford game (no cube); the games after it are post-Crawford, where only the
// trailer may usefully double (the same model solves them, so a free drop is taken where it
// is free). No published table is used.
//
// Decisions in a position: the same model with the position's own p and gammon and backgammon
// rates for the game in hand (the table for the games after it); the live-cube equity is mixed
// with the dead-cube one at efficiency x (as Janowski does for money):
// E = x E_live + (1 - x) E_dead.
#ifndef ENGINE_BACKGAMMON_MET_H
#define ENGINE_BACKGAMMON_MET_H

#include "engine/backgammon/board.h"
#include "engine/backgammon/cube.h"
#include "engine/backgammon/eval.h"

#include <stdbool.h>

#define BG_MET_MAX 25      // the table covers scores up to 25 away (further away: clamped)
#define BG_MET_GAMMON 0.26 // share of the games won that end as a gammon, in the table
#define BG_MET_GRID 64     // grid steps over p in [0, 1]

// The equity of the player a away against one b away at the start of a game (a, b >= 1;
// one of them 1: the Crawford game unless post_crawford).
double bg_met(int a, int b, bool post_crawford);

// Match cube decision of the player on roll of p (a match, dice not rolled), from cubeless
// probabilities pr, at efficiency x; the equities are match winning chances of the doubler.
BgCubeDecision bg_match_cube_decide(const BgPosition *p, const BgProbs *pr, double x);

#endif
