// Engine-against-engine games in one process, for the bench tools (self-play, tuning).
#ifndef TOOLS_PLAY_H
#define TOOLS_PLAY_H

#include "engine/mill/eval.h"
#include "engine/mill/game.h"
#include "engine/mill/notation.h"
#include "engine/mill/search.h"
#include "match/opening.h"

#define MAX_GAME_PLIES 400
#define MAX_OPENING OPENING_MAX_PLIES

// What one side plays with: its search switches and evaluation weights.
typedef struct Player {
    MillSearchParams params;
    EvalWeights weights;
} Player;

// Called with each position before the side to move searches it.
typedef void (*PositionFn)(void *ctx, const Position *p);

// The built-in player.
void play_default_player(Player *pl);

// Play a game after the opening, each move searched with `nodes` nodes; return the result
// for white (1, 0.5, 0). fn, when not NULL, sees every position searched.
double play_game(const char *variant, char opening[][MOVE_STR_MAX], int nopen, uint64_t nodes,
                 const Player *white, const Player *black, PositionFn fn, void *ctx);

#endif
