// A TEMPORARY placeholder evaluation, to be replaced by the neural net of issue 6: a handful
// of hand-set terms (pip count, blots, made home points, checkers on the bar, anchors, what is
// left behind for gammons) squashed into the five cubeless probabilities gnubg reports. It is
// deterministic and cheap, and only meant to make `go` answer sensible-looking legal plays.
#ifndef ENGINE_BACKGAMMON_EVAL_H
#define ENGINE_BACKGAMMON_EVAL_H

#include "engine/backgammon/board.h"

#include <stddef.h>

// Cubeless probabilities from one player's view; gammons include backgammons.
typedef struct BgProbs {
    double win, win_gammon, win_backgammon, lose_gammon, lose_backgammon;
} BgProbs;

// The probabilities for player side, who is about to roll.
void bg_evaluate(const BgBoard *b, int side, BgProbs *out);

// The same probabilities seen by the other player.
BgProbs bg_probs_flip(const BgProbs *p);

// Cubeless money equity: win - lose + gammons and backgammons won - lost.
double bg_equity(const BgProbs *p);

// Whether the two players' checkers can still meet.
bool bg_contact(const BgBoard *b);

// The evaluation and its terms as text lines, for player side on roll.
void bg_eval_describe(const BgBoard *b, int side, char *buf, size_t n);

#endif
