// Board geometry of the mill family, generated from a short description of each board.
//
// A board is described by polylines: runs of points joined along which men slide. Two points
// are adjacent when they follow each other on a polyline; every three consecutive points of a
// polyline form a mill line. The spokes of the 16-point board are two-point polylines (moves
// but no mill); the crosses of the 17-point board are five-point polylines (three mills each).
// Points are numbered in position-string order: ranks from the top down, files left to right.
#ifndef ENGINE_MILL_BOARD_H
#define ENGINE_MILL_BOARD_H

#include "engine/core/bits.h"

#include <stdbool.h>

#define MAX_POINTS 24
#define MAX_LINES 20
#define MAX_LINES_AT 6 // the centre of the 17-point board lies on six mill lines
#define MAX_RANKS 7
#define NO_POINT 31

typedef enum BoardKind { BOARD_24, BOARD_16, BOARD_17, BOARD_9, BOARD_KINDS } BoardKind;

typedef struct Board {
    BoardKind kind;
    bool diagonals;
    int npoints;
    int nfiles, nranks;
    Bits all;
    char name[MAX_POINTS][3];
    int file[MAX_POINTS], rank[MAX_POINTS]; // 0-based, rank 0 at the bottom
    Bits adj[MAX_POINTS];
    int nlines;
    Bits lines[MAX_LINES];
    int nlines_at[MAX_POINTS];
    Bits others[MAX_POINTS][MAX_LINES_AT]; // each mill line through a point, less the point
    int rank_points[MAX_RANKS];            // points per rank in the position string, top first
    int polylines;                         // for drawing: pairs of adjacent points
    int seg_from[64], seg_to[64];
} Board;

// The generated board of a kind, with or without the diagonal lines.
const Board *board_get(BoardKind kind, bool diagonals);

// The point named by the first two characters of s (e.g. "d6"), or -1.
int board_point(const Board *b, const char *s);

// The men of `men` that stand in a complete mill line (branch-free over all line slots).
static inline Bits board_in_mills(const Board *b, Bits men) {
    Bits in = 0;
    for (int i = 0; i < MAX_LINES; i++) {
        Bits line = b->lines[i];
        in |= line & (0u - (Bits)((men & line) == line && line));
    }
    return in;
}

// True when `men` holds all three points of some mill line.
static inline bool board_has_mill(const Board *b, Bits men) { return board_in_mills(b, men) != 0; }

// The points that would complete a mill line of `men` if a man of theirs stood there: the
// third point of every line holding exactly two of `men`. Unused line slots are empty and
// never count, so the loop has a fixed length the compiler can unroll or vectorise.
static inline Bits board_closing_points(const Board *b, Bits men) {
    Bits c = 0;
    for (int i = 0; i < MAX_LINES; i++) {
        Bits line = b->lines[i], x = men & line;
        Bits two = (Bits)((x != line) & ((x & (x - 1)) != 0));
        c |= line & ~x & (0u - two);
    }
    return c;
}

// The number of mill lines through p that `men` (which holds p) completes.
static inline int board_mills_at(const Board *b, int p, Bits men) {
    int n = 0;
    for (int i = 0; i < b->nlines_at[p]; i++)
        n += (men & b->others[p][i]) == b->others[p][i];
    return n;
}

#endif
