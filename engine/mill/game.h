// A mill game: rules, current position and the keys of the positions played since it was
// set up, for repetition. Implements the Game interface for the mill family.
#ifndef ENGINE_MILL_GAME_H
#define ENGINE_MILL_GAME_H

#include "engine/core/game.h"
#include "engine/mill/position.h"
#include "engine/mill/tablebase.h"

typedef struct MillGame {
    MillRules rules;
    Position pos;
    uint64_t *keys; // keys[0..nkeys-1]: every position of the game so far, the current last
    int nkeys, cap;
    const Tablebase *tb; // the endgame databases the search probes; NULL: none
} MillGame;

extern const GameFamily MILL_FAMILY;

// The mill game behind a handle created by MILL_FAMILY.
const MillGame *mill_game_of(const Game *g);

// Result of the game with its history: rules 1-5 of RULES.md section 5.
GameResult mill_game_result(const MillGame *g, char *reason, size_t n);

// Play a legal move, recording the new position's key.
bool mill_game_play(MillGame *g, Move m);

#endif
