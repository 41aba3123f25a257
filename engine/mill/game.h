// A mill game: rules, current position and the keys of the positions played since it was
// set up, for repetition, and how the engine searches and evaluates it. Implements the Game
// interface for the mill family.
#ifndef ENGINE_MILL_GAME_H
#define ENGINE_MILL_GAME_H

#include "engine/core/game.h"
#include "engine/mill/position.h"
#include "engine/mill/search.h"
#include "engine/mill/tablebase.h"

typedef struct MillGame {
    MillRules rules;
    Position pos;
    uint64_t *keys; // keys[0..nkeys-1]: every position of the game so far, the current last
    int nkeys, cap;
    const Tablebase *tb;        // the endgame databases the search probes; NULL: none
    MillSearchParams params;    // set by the search options; a variant change keeps them
    const EvalWeights *weights; // EVAL_WEIGHTS_DEFAULT unless mill_game_set_search says others
} MillGame;

extern const GameFamily MILL_FAMILY;

// The mill game behind a handle created by MILL_FAMILY.
const MillGame *mill_game_of(const Game *g);

// Result of the game with its history: docs/variants.md, "Game end".
GameResult mill_game_result(const MillGame *g, char *reason, size_t n);

// Play a legal move, recording the new position's key.
bool mill_game_play(MillGame *g, Move m);

// Search the game behind g with these switches and evaluation weights (not copied: they must
// outlive g's searches), as the self-play and tuning tools do.
void mill_game_set_search(Game *g, const MillSearchParams *params, const EvalWeights *weights);

#endif
