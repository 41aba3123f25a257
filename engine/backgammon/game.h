// Backgammon as a family of the Game interface: one variant, `backgammon`. A position is a
// BgPosition; turns are the protocol tokens of notation.h. See docs/backgammon.md.
#ifndef ENGINE_BACKGAMMON_GAME_H
#define ENGINE_BACKGAMMON_GAME_H

#include "engine/backgammon/board.h"
#include "engine/core/error.h"
#include "engine/core/game.h"

extern const GameFamily BG_FAMILY;

// Play one turn token (`31:8/5,6/5`, `65:-`, a bare roll `31`, `roll`, `double`, `take`,
// `drop`) on p; all or nothing.
bool bg_play_token_on(BgPosition *p, const char *token, Error *err);

// Perft as the protocol counts it (docs/backgammon.md): turns of a roll and a play, each of
// the 21 rolls once, a roll without a legal play counting as one pass; a finished game has no
// turns. fn, when not NULL, gets each first-layer choice (a roll, or a play when the dice are
// already rolled) with its count.
uint64_t bg_perft(const BgPosition *p, int depth,
                  void (*fn)(void *ctx, const char *move, uint64_t count), void *ctx);

#endif
