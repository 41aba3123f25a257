// The trainer for the backgammon nets (engine/backgammon/net.h), TD(lambda)
// by self-play in the manner of Tesauro's TD-Gammon.
//
// Each game is played by the nets being trained, greedily at 0 ply (every play evaluated, the
// best cubeless equity chosen; the bear-off database where it applies). Each position before
// a roll, from the view of the player about to roll, gets the lambda-return as its target:
// G_t = (1 - lambda) V_{t+1} + lambda G_{t+1}, seen from the other side (the positions
// alternate between the players), and the game's result (win, gammon, backgammon flags) after
// the last play. The values V are those of the nets as the game was played; the updates
// (plain gradient steps on the squared error of the five sigmoid outputs) are made after the
// game, position by position (offline TD(lambda)). Positions the bear-off database evaluates
// are not trained. The contact net learns contact positions, the race net races.
//
// Deterministic for a seed: the weights file holds the games played and the random state, so
// a run resumed from a checkpoint continues exactly as if it had not stopped.
#ifndef TOOLS_TD_H
#define TOOLS_TD_H

#include "engine/backgammon/net.h"

#include <stdint.h>

// Play one self-play game with nets (dice from *rng) and learn from it with step size alpha
// and the given lambda; returns the number of positions the game went through.
int bg_train_game(BgNets *nets, uint64_t *rng, double alpha, double lambda);

// Supervised refinement towards the nets' own 1-ply values: one self-play game played greedily
// at 0 ply; then every position of it before a roll (but the opening one, whose roll is never
// a double, and those of the bear-off database) gets its value at 1 ply (search.h: the average
// over the 21 rolls of the best play at 0 ply) from the nets as they were for the game, on
// `threads` threads; then one gradient step per position towards it, in the order of play.
// The 1-ply values are the better estimate (they play about 0.08 points per game better
// against pubeval), and the 0-ply nets learn to predict them. The result does not depend on
// the number of threads.
int bg_refine_game(BgNets *nets, uint64_t *rng, double alpha, int threads);

#endif
