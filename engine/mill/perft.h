// Perft: the number of legal move sequences of a given length (docs/variants.md, "Perft").
#ifndef ENGINE_MILL_PERFT_H
#define ENGINE_MILL_PERFT_H

#include "engine/mill/position.h"

// Count the leaves at `depth` plies below p; the last ply is counted, not played.
uint64_t perft(Position *p, int depth);

#endif
