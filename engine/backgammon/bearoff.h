// The one-sided bear-off database: for every position of up to 15 checkers on a player's six
// home points (C(21, 6) = 54,264 of them), the exact distribution of the number of rolls it
// needs to bear them all off when it always plays to minimise the expected number of rolls,
// and, for positions of 15 checkers, the distribution of the rolls before the first checker
// is off (for gammons). Built by dynamic programming over increasing pip counts, in well
// under a second, the first time it is needed.
//
// Two one-sided distributions give a race of two such positions: the player on roll, needing
// n rolls, wins when the opponent needs n or more; it wins a gammon when the opponent, still
// with 15 checkers, needs n or more rolls to take its first checker off. Treating the sides
// as independent (each minimises its own expected rolls) is the usual one-sided
// approximation; it is exact for the win probability in most positions and very close in the
// rest.
#ifndef ENGINE_BACKGAMMON_BEAROFF_H
#define ENGINE_BACKGAMMON_BEAROFF_H

#include "engine/backgammon/board.h"
#include "engine/backgammon/probs.h"

#include <stdbool.h>

#define BG_BEAROFF_POSITIONS 54264
#define BG_BEAROFF_ROLLS 32 // rolls 0..31; no position needs more than 30
#define BG_BEAROFF_GAMMON_ROLLS 8

// Whether the database is built, without waiting: the first call that finds it unbuilt starts
// the build on a thread of its own (about a second). The other functions build it on first use
// and wait; a search under a clock asks this first and evaluates with the nets until then.
bool bg_bearoff_ready(void);

// The index of the home-board position pts[0..5] (checkers on points 1..6, at most 15).
int bg_bearoff_index(const int *pts);

// P(bearing off in exactly n rolls), n = 0..BG_BEAROFF_ROLLS - 1, for position index.
const float *bg_bearoff_dist(int index);

// P(first checker off in exactly n rolls) for a position of 15 checkers (else all zero).
const float *bg_bearoff_gammon_dist(int index);

// Whether both players have all their remaining checkers on their home boards.
bool bg_bearoff_applies(const BgBoard *b);

// The cubeless probabilities of player side, on roll, in such a position.
void bg_bearoff_probs(const BgBoard *b, int side, BgProbs *out);

#endif
