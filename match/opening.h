// Openings for matches: random legal plies from the start, or lines of an openings file.
#ifndef MATCH_OPENING_H
#define MATCH_OPENING_H

#include "engine/core/error.h"
#include "engine/core/game.h"
#include "engine/mill/notation.h"
#include "engine/mill/position.h"

#include <stdint.h>

#define OPENING_MAX_PLIES 64

typedef struct Opening {
    bool has_fen;
    char fen[FEN_MAX]; // the start position string when has_fen
    int n;
    char moves[OPENING_MAX_PLIES][MOVE_STR_MAX];
} Opening;

// Fill moves with up to `plies` random legal moves from the start of `variant` (seeded by
// *rng), stopping before a move that would end the game; return how many.
int opening_random(const char *variant, int plies, uint64_t *rng,
                   char moves[OPENING_MAX_PLIES][MOVE_STR_MAX]);
// The same on a mill game g of the variant (set to its start first, left at the opening's
// end), with room for MAX_MOVES legal moves.
int opening_random_on(Game *g, int plies, uint64_t *rng, char moves[][MOVE_STR_MAX],
                      char (*room)[MOVE_STR_MAX]);

// Read one line of an openings file: what follows `position` in the protocol (`startpos
// [moves ...]`, `fen <string> [moves ...]`), a bare position string with optional `moves ...`,
// or a bare move list. The moves are not checked here (the referee checks them against the
// variant).
bool opening_parse_line(const char *line, Opening *o, Error *err);

#endif
