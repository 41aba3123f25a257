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
#include <stdint.h>

// With AVX-512 BITALG, one VPSHUFBITQMB gathers 64 arbitrary bits of a word: the byte tables
// below become one instruction each (the same sets; the tables stay for other processors).
#if defined(__AVX512BITALG__) && defined(__AVX512BW__) && defined(__AVX512F__)
#include <immintrin.h>
#define BOARD_BITSHUFFLE 1
#endif

#define MAX_POINTS 24
#define MAX_LINES 20
#define MAX_LINES_AT 6 // the centre of the 17-point board lies on six mill lines
#define MAX_RANKS 7
#define NO_POINT 31
#define MAX_DEGREE 8 // the centre of the 9-point board with diagonals

// Line slots: all mill lines of a board at once, as one 64-bit set in three fields of
// MAX_LINES bits. Bit s * MAX_LINES + i stands for the s-th point (s < 3, in point order) of
// line i. A point set maps to its slots and slots map back to their points by byte-indexed
// tables, and rotating the fields lines up each line's three points, so that a handful of
// word operations replace a loop over the lines.
typedef uint64_t Slots;
#define SLOTS_ALL ((1ull << 3 * MAX_LINES) - 1)
#define SLOT_BYTES ((3 * MAX_LINES + 7) / 8)
#define POINT_BYTES ((MAX_POINTS + 7) / 8)

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
    Slots line_slots;                     // the slots of the board's lines
    Slots slots_of[POINT_BYTES][256];     // slots of the points in one byte of a point set
    Bits points_of[SLOT_BYTES][256];      // points of the slots in one byte of a slot set
    Bits neighbours_of[POINT_BYTES][256]; // points next to a point in one byte of a point set
    // For k below the largest degree, the points whose k-th neighbour lies in a point set, by
    // byte of the set, packed two to a word (k = 2w and 2w + 1 in word w).
    int neighbour_words;
    uint64_t kth_neighbour_of[MAX_DEGREE / 2][POINT_BYTES][256];
    // The same maps as bit gathers: byte j of a row names the bit of the source that becomes
    // bit j of the result (BOARD_ZERO_BIT where none). slot_src: slot j's point; point_src[w]:
    // the (2w)-th slot of point j (j < 32) or the (2w + 1)-th of point j - 32; neighbour_src[w]:
    // likewise the neighbours of each point.
    int slot_words; // rows of point_src in use: half the most lines through a point, rounded up
    _Alignas(64) uint8_t slot_src[64];
    _Alignas(64) uint8_t point_src[MAX_LINES_AT / 2][64];
    _Alignas(64) uint8_t neighbour_src[MAX_DEGREE / 2][64];
    // The 24-point board as three rings of eight points (board_rings), else false; always false
    // where the bit gathers serve (BOARD_BITSHUFFLE), whose evaluation does not read them.
    bool rings;
    uint64_t ring_bits[POINT_BYTES][256];
} Board;

#define BOARD_ZERO_BIT 63 // a bit that is 0 in every point and slot set

#ifdef BOARD_BITSHUFFLE
// Bit j of the result is bit src[j] of v.
static inline uint64_t board_gather(uint64_t v, const uint8_t src[64]) {
    return _mm512_bitshuffle_epi64_mask(_mm512_set1_epi64((long long)v),
                                        _mm512_load_si512((const void *)src));
}

// The points j with bit j or bit j + 32 set in the gather of v by any of the first n rows.
static inline Bits board_gather_points(uint64_t v, const uint8_t rows[][64], int n) {
    uint64_t g = board_gather(v, rows[0]);
    for (int w = 1; w < n; w++)
        g |= board_gather(v, rows[w]);
    return (Bits)(g | g >> 32);
}
#endif

// The generated board of a kind, with or without the diagonal lines.
const Board *board_get(BoardKind kind, bool diagonals);

// The point named by the first two characters of s (e.g. "d6"), or -1.
int board_point(const Board *b, const char *s);

// The line slots of the points in `men`.
static inline Slots board_slots(const Board *b, Bits men) {
#ifdef BOARD_BITSHUFFLE
    return board_gather(men, b->slot_src);
#else
    Slots s = 0;
    for (int k = 0; k < POINT_BYTES; k++)
        s |= b->slots_of[k][men >> 8 * k & 255];
    return s;
#endif
}

// The points of the line slots in `s`.
static inline Bits board_slot_points(const Board *b, Slots s) {
#ifdef BOARD_BITSHUFFLE
    return board_gather_points(s, b->point_src, b->slot_words);
#else
    Bits p = 0;
    for (int k = 0; k < SLOT_BYTES; k++)
        p |= b->points_of[k][s >> 8 * k & 255];
    return p;
#endif
}

// The slots rotated by one field: each line's s-th slot takes the value of its (s + 1)-th.
static inline Slots slots_next(Slots s) {
    return (s >> MAX_LINES | s << 2 * MAX_LINES) & SLOTS_ALL;
}

// The slots of the lines all of whose points have a slot in `s` (every slot of those lines).
static inline Slots slots_full(Slots s) {
    Slots n = slots_next(s);
    return s & n & slots_next(n);
}

// The slots outside `s` whose line's other two slots are in `s`.
static inline Slots slots_third(const Board *b, Slots s) {
    Slots n = slots_next(s);
    return b->line_slots & ~s & n & slots_next(n);
}

// The 24-point board as rings, for the evaluation where no bit gather serves: ring r (outer 0,
// middle 1, inner 2) in bits 16r to 16r + 7, its points clockwise from the top left corner, so
// that the corners are the even bits and the midpoints the odd ones; bits 16r + 8 to 16r + 15
// repeat the ring, so that one shift rotates it, and a shift by 16 steps to the next ring.
#define RING_LANES 0x000000ff00ff00ffull // the rings, not repeated
#define RING_EVEN 0x0000005500550055ull  // the corners
#define RING_ODD 0x000000aa00aa00aaull   // the midpoints

// The repeated rings of `men`.
static inline uint64_t board_rings(const Board *b, Bits men) {
    return b->ring_bits[0][men & 255] | b->ring_bits[1][men >> 8 & 255] |
           b->ring_bits[2][men >> 16 & 255];
}

// The points joined to the next ring: the midpoints, and with diagonals the corners too.
static inline uint64_t board_ring_across(const Board *b) {
    return b->diagonals ? RING_LANES : RING_ODD;
}

// The points with at least one neighbour in `men`.
static inline Bits board_neighbours(const Board *b, Bits men) {
#ifdef BOARD_BITSHUFFLE
    return board_gather_points(men, b->neighbour_src, b->neighbour_words);
#else
    Bits n = 0;
    for (int k = 0; k < POINT_BYTES; k++)
        n |= b->neighbours_of[k][men >> 8 * k & 255];
    return n;
#endif
}

// Word w of the k-th neighbour sets (see kth_neighbour_of): bit q (bit 32 + q) when the
// (2w)-th ((2w + 1)-th) neighbour of q is in `men`.
static inline uint64_t board_kth_neighbours(const Board *b, int w, Bits men) {
#ifdef BOARD_BITSHUFFLE
    return board_gather(men, b->neighbour_src[w]);
#else
    uint64_t n = 0;
    for (int k = 0; k < POINT_BYTES; k++)
        n |= b->kth_neighbour_of[w][k][men >> 8 * k & 255];
    return n;
#endif
}

// The men of `men` that stand in a complete mill line.
static inline Bits board_in_mills(const Board *b, Bits men) {
    return board_slot_points(b, slots_full(board_slots(b, men)));
}

// True when `men` holds all three points of some mill line.
static inline bool board_has_mill(const Board *b, Bits men) {
    return slots_full(board_slots(b, men)) != 0;
}

// The points that would complete a mill line of `men` if a man of theirs stood there: the
// third point of every line holding exactly two of `men`.
static inline Bits board_closing_points(const Board *b, Bits men) {
    return board_slot_points(b, slots_third(b, board_slots(b, men)));
}

// The number of mill lines through p that `men` (which holds p) completes.
static inline int board_mills_at(const Board *b, int p, Bits men) {
    int n = 0;
    for (int i = 0; i < b->nlines_at[p]; i++)
        n += (men & b->others[p][i]) == b->others[p][i];
    return n;
}

#endif
