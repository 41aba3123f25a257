// Backgammon games between two players for the offline programs: cubeless money games (single
// 1, gammon 2, backgammon 3 points), dice from a seeded generator, and a match of tabula
// against pubeval with the dice of each pair of games shared and the sides swapped.
#ifndef TOOLS_BGGAMES_H
#define TOOLS_BGGAMES_H

#include "engine/backgammon/movegen.h"
#include "engine/backgammon/net.h"

#include <stdint.h>

// A player: the index in l (the legal plays of side with dice d1 d2 on b, at least one) of
// the play it makes.
typedef int (*BgChooser)(void *ctx, const BgBoard *b, int side, int d1, int d2,
                         const BgPlayList *l);

// One die from the generator of engine/core/random.h.
int bg_rng_die(uint64_t *s);

// Play one game from the start; player 1 (X) uses choose[1], player 0 choose[0]. The first
// roll is not a double and first moves; the dice come from *rng. Returns the points won by
// player 1 (negative when player 0 won); 0 if the game went beyond a sanity limit of turns.
int bg_game(BgChooser choose[2], void *ctx[2], int first, uint64_t *rng);

// tabula (nets at depth, 0 = 0-ply) against pubeval over games (an even number) games from
// seed: returns the mean points per game for tabula and its standard error in *se (from
// the pairs of games with the same dice).
double bg_match_pubeval(const BgNets *nets, int depth, int games, uint64_t seed, double *se);

#endif
