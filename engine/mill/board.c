#include "engine/mill/board.h"

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

typedef struct BoardSpec {
    int nfiles, nranks;
    const char *lines;     // polylines separated by ','
    const char *diagonals; // extra polylines when the variant has diagonals, or NULL
} BoardSpec;

// clang-format off
static const BoardSpec SPECS[BOARD_KINDS] = {
    [BOARD_24] = {7, 7,
        "a7 d7 g7,b6 d6 f6,c5 d5 e5,a4 b4 c4,e4 f4 g4,c3 d3 e3,b2 d2 f2,a1 d1 g1,"
        "a1 a4 a7,b2 b4 b6,c3 c4 c5,d7 d6 d5,d3 d2 d1,e3 e4 e5,f2 f4 f6,g1 g4 g7",
        "a1 b2 c3,a7 b6 c5,g7 f6 e5,g1 f2 e3"},
    [BOARD_16] = {5, 5,
        "a1 c1 e1,e1 e3 e5,a5 c5 e5,a1 a3 a5,b2 c2 d2,d2 d3 d4,b4 c4 d4,b2 b3 b4,"
        "c1 c2,e3 d3,c5 c4,a3 b3",
        NULL},
    [BOARD_17] = {5, 5,
        "a1 c1 e1,e1 e3 e5,a5 c5 e5,a1 a3 a5,b2 c2 d2,d2 d3 d4,b4 c4 d4,b2 b3 b4,"
        "c1 c2 c3 c4 c5,a3 b3 c3 d3 e3",
        NULL},
    [BOARD_9] = {3, 3,
        "a1 b1 c1,a2 b2 c2,a3 b3 c3,a1 a2 a3,b1 b2 b3,c1 c2 c3",
        "a1 b2 c3,a3 b2 c1"},
};
// clang-format on

static Board boards[BOARD_KINDS][2];
static pthread_once_t boards_once = PTHREAD_ONCE_INIT;

// Collect the points named in a polyline list into grid cells.
static void mark_points(const char *s, bool cell[MAX_RANKS][MAX_RANKS]) {
    for (; s && *s; s++)
        if (*s >= 'a' && *s <= 'g')
            cell[s[1] - '1'][s[0] - 'a'] = true;
}

// Add the adjacencies and mill lines of a polyline list.
static void add_polylines(Board *b, const char *s) {
    while (s && *s) {
        int pts[8], n = 0;
        for (; *s && *s != ','; s++)
            if (*s >= 'a' && *s <= 'g') {
                pts[n++] = board_point(b, s);
                s++;
            }
        if (*s == ',')
            s++;
        for (int i = 0; i + 1 < n; i++) {
            b->adj[pts[i]] |= BIT(pts[i + 1]);
            b->adj[pts[i + 1]] |= BIT(pts[i]);
            b->seg_from[b->polylines] = pts[i];
            b->seg_to[b->polylines++] = pts[i + 1];
        }
        for (int i = 0; i + 2 < n; i++) {
            Bits line = BIT(pts[i]) | BIT(pts[i + 1]) | BIT(pts[i + 2]);
            assert(b->nlines < MAX_LINES);
            b->lines[b->nlines++] = line;
            for (int k = 0; k < 3; k++) {
                int p = pts[i + k];
                assert(b->nlines_at[p] < MAX_LINES_AT);
                b->others[p][b->nlines_at[p]++] = line & ~BIT(p);
            }
        }
    }
}

// Fill the byte-indexed tables of line slots and neighbour sets.
static void build_tables(Board *b) {
    int slot_point[3 * MAX_LINES];
    for (int i = 0; i < 3 * MAX_LINES; i++)
        slot_point[i] = NO_POINT;
    for (int i = 0; i < b->nlines; i++) {
        Bits l = b->lines[i];
        for (int s = 0; s < 3; s++) {
            slot_point[s * MAX_LINES + i] = bits_pop(&l);
            b->line_slots |= 1ull << (s * MAX_LINES + i);
        }
    }
    int neighbour[MAX_POINTS][MAX_DEGREE], degree = 0;
    for (int q = 0; q < b->npoints; q++) {
        int d = 0;
        for (Bits a = b->adj[q]; a; d++) {
            assert(d < MAX_DEGREE);
            neighbour[q][d] = bits_pop(&a);
        }
        if (d > degree)
            degree = d;
        for (; d < MAX_DEGREE; d++)
            neighbour[q][d] = NO_POINT;
    }
    b->neighbour_words = (degree + 1) / 2;
    for (int k = 0; k < POINT_BYTES; k++)
        for (int v = 0; v < 256; v++)
            for (int j = 0; j < 8; j++) {
                if (!(v >> j & 1))
                    continue;
                int p = 8 * k + j;
                for (int i = 0; i < 3 * MAX_LINES; i++)
                    if (slot_point[i] == p)
                        b->slots_of[k][v] |= 1ull << i;
                b->neighbours_of[k][v] |= b->adj[p];
                for (int q = 0; q < b->npoints; q++)
                    for (int d = 0; d < MAX_DEGREE; d++)
                        if (neighbour[q][d] == p)
                            b->kth_neighbour_of[d / 2][k][v] |= 1ull << (q + 32 * (d % 2));
            }
    for (int k = 0; k < SLOT_BYTES; k++)
        for (int v = 0; v < 256; v++)
            for (int j = 0; j < 8; j++) {
                int i = 8 * k + j;
                if (v >> j & 1 && i < 3 * MAX_LINES && slot_point[i] != NO_POINT)
                    b->points_of[k][v] |= BIT(slot_point[i]);
            }
    // The same maps as rows of bit gathers (board.h).
    memset(b->slot_src, BOARD_ZERO_BIT, sizeof b->slot_src);
    memset(b->point_src, BOARD_ZERO_BIT, sizeof b->point_src);
    memset(b->neighbour_src, BOARD_ZERO_BIT, sizeof b->neighbour_src);
    int nslots[MAX_POINTS] = {0}, most = 1;
    for (int i = 0; i < 3 * MAX_LINES; i++) {
        int p = slot_point[i];
        if (p == NO_POINT)
            continue;
        b->slot_src[i] = (uint8_t)p;
        int k = nslots[p]++;
        b->point_src[k / 2][32 * (k % 2) + p] = (uint8_t)i;
        if (nslots[p] > most)
            most = nslots[p];
    }
    b->slot_words = (most + 1) / 2;
    for (int q = 0; q < b->npoints; q++)
        for (int d = 0; d < MAX_DEGREE && neighbour[q][d] != NO_POINT; d++)
            b->neighbour_src[d / 2][32 * (d % 2) + q] = (uint8_t)neighbour[q][d];
}

#ifndef BOARD_BITSHUFFLE
// The 24-point board's rings, each clockwise from its top left corner (board.h). Only the
// evaluation without bit gathers reads them.
static void build_rings(Board *b) {
    static const char *const ring = "a7d7g7g4g1d1a1a4b6d6f6f4f2d2b2b4c5d5e5e4e3d3c3c4";
    b->rings = true;
    for (int i = 0; i < 24; i++) {
        int p = board_point(b, ring + 2 * i), r = i / 8;
        uint64_t bits = 0x101ull << (16 * r + i % 8);
        for (int v = 0; v < 256; v++)
            if (v >> p % 8 & 1)
                b->ring_bits[p / 8][v] |= bits;
    }
}
#endif

static void build(Board *b, BoardKind kind, bool diagonals) {
    const BoardSpec *spec = &SPECS[kind];
    bool cell[MAX_RANKS][MAX_RANKS] = {{false}};
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->diagonals = diagonals;
    b->nfiles = spec->nfiles;
    b->nranks = spec->nranks;
    mark_points(spec->lines, cell);
    for (int r = spec->nranks - 1; r >= 0; r--)
        for (int f = 0; f < spec->nfiles; f++)
            if (cell[r][f]) {
                int p = b->npoints++;
                b->file[p] = f;
                b->rank[p] = r;
                b->name[p][0] = (char)('a' + f);
                b->name[p][1] = (char)('1' + r);
                b->rank_points[spec->nranks - 1 - r]++;
            }
    b->all = (Bits)((1ull << b->npoints) - 1);
    add_polylines(b, spec->lines);
    if (diagonals)
        add_polylines(b, spec->diagonals);
    build_tables(b);
#ifndef BOARD_BITSHUFFLE
    if (kind == BOARD_24)
        build_rings(b);
#endif
}

static void build_all(void) {
    for (int k = 0; k < BOARD_KINDS; k++)
        for (int d = 0; d < 2; d++)
            build(&boards[k][d], (BoardKind)k, d && SPECS[k].diagonals);
}

const Board *board_get(BoardKind kind, bool diagonals) {
    pthread_once(&boards_once, build_all);
    return &boards[kind][diagonals && SPECS[kind].diagonals];
}

int board_point(const Board *b, const char *s) {
    for (int p = 0; p < b->npoints; p++)
        if (s[0] == b->name[p][0] && s[1] == b->name[p][1])
            return p;
    return -1;
}
