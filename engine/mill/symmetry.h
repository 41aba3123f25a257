// Symmetries of a mill board: the permutations of its points that map mill lines to mill lines
// and, where men slide, neighbours to neighbours. They are found by search over the generated
// board (board.c), never written by hand, so a new board brings its own.
#ifndef ENGINE_MILL_SYMMETRY_H
#define ENGINE_MILL_SYMMETRY_H

#include "engine/mill/board.h"

#include <stdint.h>

// Enough for every board: 72 on the 9-point board without adjacency (rows, columns, transpose).
#define MAX_SYMMETRIES 128

typedef struct Symmetries {
    int n; // the identity is number 0
    uint8_t perm[MAX_SYMMETRIES][MAX_POINTS];
    Bits map[MAX_SYMMETRIES][3][256]; // image of each byte of a point set
} Symmetries;

// Find the board's symmetries; with ignore_adjacency (men always fly) only the lines count.
void symmetry_init(Symmetries *s, const Board *b, bool ignore_adjacency);

// The identity alone: an unfolded index.
void symmetry_init_identity(Symmetries *s, const Board *b);

// The image of a point set under symmetry g.
static inline Bits symmetry_apply(const Symmetries *s, int g, Bits x) {
    return s->map[g][0][x & 255] | s->map[g][1][x >> 8 & 255] | s->map[g][2][x >> 16 & 255];
}

#endif
