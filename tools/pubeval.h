// Tesauro's pubeval (1993, public domain): a linear evaluation of the position after a play,
// with one weight vector for contact and one for races, posted to rec.games.backgammon as a
// benchmark opponent. The weights are Tesauro's published values; the code is ours.
#ifndef TOOLS_PUBEVAL_H
#define TOOLS_PUBEVAL_H

#include "engine/backgammon/board.h"

// pubeval's score of board b after player side has played (higher is better for side); race
// selects the race weights.
double pubeval_score(const BgBoard *b, int side, bool race);

#endif
