// `tabula match --variant backgammon`: duplicate-dice money games or matches to N points
// between two engines, the points-per-game report and the .mat file. docs/match.md,
// "Backgammon", is the user documentation.
#ifndef MATCH_BGMATCH_H
#define MATCH_BGMATCH_H

#include "match/config.h"

#include <stdio.h>

// Money-play points of a duplicate run: each pair's mean points per game for the first engine.
typedef struct BgPoints {
    int pairs;
    double mean, lo, hi; // points per game and its 95% interval
    bool known;          // false with fewer than two pairs, or all pairs alike
} BgPoints;

// Estimate the first engine's points per game from the pair sums (both games of a pair added,
// one sample per pair): the mean and a normal 95% interval (unknown when all pairs are
// alike).
BgPoints bg_points_estimate(const double *pair_sums, int npairs);
// Run the backgammon match of cfg; returns the exit status as match_main does.
int bgmatch_run(const MatchConfig *cfg, FILE *out, FILE *err);

#endif
