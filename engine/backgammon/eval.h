// The static evaluation: the five cubeless probabilities of the player about to roll, from the
// bear-off database when both sides have all their checkers home (bearoff.h), else from the
// race net when the sides can no longer meet, else from the contact net (net.h). Outputs are
// made consistent (backgammons <= gammons <= wins).
#ifndef ENGINE_BACKGAMMON_EVAL_H
#define ENGINE_BACKGAMMON_EVAL_H

#include "engine/backgammon/board.h"
#include "engine/backgammon/net.h"
#include "engine/backgammon/probs.h"

#include <stddef.h>

typedef enum BgEvalKind { BG_EVAL_CONTACT, BG_EVAL_RACE, BG_EVAL_BEAROFF } BgEvalKind;

// The probabilities for player side, who is about to roll, with the engine's nets.
void bg_evaluate(const BgBoard *b, int side, BgProbs *out);

// The same with the given nets; bearoff false skips the database. Returns what was used.
BgEvalKind bg_evaluate_with(const BgNets *nets, bool bearoff, const BgBoard *b, int side,
                            BgProbs *out);

// Which evaluator a position gets.
BgEvalKind bg_eval_kind(const BgBoard *b);

// The same probabilities seen by the other player.
BgProbs bg_probs_flip(const BgProbs *p);

// Cubeless money equity: win - lose + gammons and backgammons won - lost.
double bg_equity(const BgProbs *p);

// Whether the two players' checkers can still meet.
bool bg_contact(const BgBoard *b);

// The evaluation as text lines, for player side on roll.
void bg_eval_describe(const BgBoard *b, int side, char *buf, size_t n);

#endif
