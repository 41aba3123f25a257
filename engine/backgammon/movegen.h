// Legal plays of backgammon (docs/backgammon.md, "Rules"), counted as distinct resulting positions.
//
// Every order of the dice is tried (for a double, sub-moves in non-increasing order of their
// source point, which loses no position and avoids most repeats); each sequence that can go no
// further is a candidate, scored by how many dice it uses and, when only one die of a
// non-double plays, whether it is the larger. Only the best-scored candidates are kept, each
// resulting board once (an open-addressing table of board hashes, cleared by a generation
// stamp rather than by memset).
#ifndef ENGINE_BACKGAMMON_MOVEGEN_H
#define ENGINE_BACKGAMMON_MOVEGEN_H

#include "engine/backgammon/board.h"

#define BG_BAR_POINT 25 // the bar as a source point in the mover's numbering
#define BG_OFF_POINT 0  // bearing off as a destination

typedef struct BgPlay {
    BgBoard after;          // the board once the play is made (the mover not yet switched)
    uint8_t n;              // sub-moves, 1..4
    uint8_t from[4], to[4]; // in the mover's numbering: 25 bar, 1..24, 0 off
} BgPlay;

typedef struct BgPlayList {
    BgPlay *v;
    int n, cap;
    uint32_t *slot, *tag; // the dedup table: index + 1 of a play, valid when tag == stamp
    uint32_t tsize, stamp;
} BgPlayList;

void bg_plays_init(BgPlayList *l);
void bg_plays_free(BgPlayList *l);

// The legal plays of player side on b with dice d1 and d2, into l; returns their number (0
// when no checker can move), or -1 when out of memory.
int bg_generate(const BgBoard *b, int side, int d1, int d2, BgPlayList *l);

// Where a checker of the mover (me) on src (1..25) lands with die d, -1 when it cannot move
// there (no checker, bar not cleared, point blocked, bearing off not allowed). 0 is off.
int bg_destination(const uint8_t *me, const uint8_t *opp, int src, int d);

// Move one checker of me from src to dst (as bg_destination gave them); true when it hit.
bool bg_apply_step(uint8_t *me, uint8_t *opp, int src, int dst);

#endif
