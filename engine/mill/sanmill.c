// Sanmill's FEN, field by field (as Sanmill writes it, and as this reader takes it):
//
//   1     the board: inner/middle/outer ring, 8 points each from 12 o'clock clockwise
//   2     side to move, w or b
//   3     phase: r ready, p placing, m moving, o game over (tabula derives the phase itself)
//   4     action: p place, s select, r remove (refused: tabula has no half-made turn), ? none
//   5-10  white on board, white in hand, black on board, black in hand, white to remove,
//         black to remove (the on-board counts must match the board, the removals be 0)
//   11-14 last mill from/to point of white, then of black (a rule tabula does not have)
//   15    the mills formed, as a 64-bit mask (white << 32 | black)
//   16    plies since the last placement or removal
//   17    the move number
//   then  `ids:nodes` when fields 11-15 count points 0-23 (none -1) instead of Sanmill's
//         squares 8-31 (none 0); capture-state tokens `c:`, `i:`, `l:`, `m:`, `p:` are refused
//
// Fields 11-15 are checked for form and range and otherwise ignored.
#include "engine/mill/sanmill.h"

#include "engine/core/parse.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define FIELDS 17
#define RING_POINTS 8
#define MAX_MEN 24
#define CLOCK_MAX 1000000000LL

enum { RING_INNER, RING_MIDDLE, RING_OUTER };

typedef struct RingPoint {
    int ring, index; // index 0 is 12 o'clock, then clockwise
} RingPoint;

// The 24 points in the order of a tabula position string (ranks from the top, left to right),
// each with its place in Sanmill's board field.
// clang-format off
static const RingPoint POINTS[24] = {
    {RING_OUTER, 7},  {RING_OUTER, 0},  {RING_OUTER, 1},                     // a7 d7 g7
    {RING_MIDDLE, 7}, {RING_MIDDLE, 0}, {RING_MIDDLE, 1},                    // b6 d6 f6
    {RING_INNER, 7},  {RING_INNER, 0},  {RING_INNER, 1},                     // c5 d5 e5
    {RING_OUTER, 6},  {RING_MIDDLE, 6}, {RING_INNER, 6},                     // a4 b4 c4
    {RING_INNER, 2},  {RING_MIDDLE, 2}, {RING_OUTER, 2},                     // e4 f4 g4
    {RING_INNER, 5},  {RING_INNER, 4},  {RING_INNER, 3},                     // c3 d3 e3
    {RING_MIDDLE, 5}, {RING_MIDDLE, 4}, {RING_MIDDLE, 3},                    // b2 d2 f2
    {RING_OUTER, 5},  {RING_OUTER, 4},  {RING_OUTER, 3},                     // a1 d1 g1
};
// clang-format on

// Points per rank of the 24-point board, from the top.
static const int RANK_SIZES[] = {3, 3, 3, 6, 3, 3, 3};

static const char *const VARIANTS_24[] = {"nine", "twelve", "eleven", "morabaraba", "lasker"};

bool sanmill_detect(const char *fen) {
    size_t board = strcspn(fen, " ");
    for (size_t i = 0; i < board; i++)
        if (strchr("O@*X", fen[i]))
            return true;
    return false;
}

bool sanmill_variant_ok(const char *variant) {
    for (size_t i = 0; i < sizeof VARIANTS_24 / sizeof VARIANTS_24[0]; i++)
        if (!strcmp(variant, VARIANTS_24[i]))
            return true;
    return false;
}

// Read the 64-bit mills mask: decimal, no sign; each 32-bit half may only use the bits of
// real points (8-31 for Sanmill's squares, 0-23 for nodes).
static bool read_mills(const char *s, bool nodes) {
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9')
        return false;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno)
        return false;
    uint32_t valid = nodes ? 0x00ffffffu : 0xffffff00u;
    return ((uint32_t)(v >> 32) & ~valid) == 0 && ((uint32_t)v & ~valid) == 0;
}

// The board field: three rings of 8 points separated by '/'. Fills men[24] in tabula's
// order with 'W', 'B' or 0.
static bool read_board(const char *s, char men[24], int count[2], Error *err) {
    if (strlen(s) != 3 * RING_POINTS + 2 || s[RING_POINTS] != '/' || s[2 * RING_POINTS + 1] != '/')
        return error_set(err,
                         "Sanmill position: the board '%.40s' is not three rings of 8 "
                         "points separated by '/'",
                         s);
    count[0] = count[1] = 0;
    for (int i = 0; i < 24; i++) {
        char c = s[POINTS[i].ring * (RING_POINTS + 1) + POINTS[i].index];
        if (c == 'X')
            return error_set(err, "Sanmill position: a marked point (X) has no tabula counterpart");
        if (c != 'O' && c != '@' && c != '*')
            return error_set(err, "Sanmill position: '%c' on the board is not O, @ or *",
                             c >= 0x20 && c <= 0x7e ? c : '?');
        men[i] = c == 'O' ? 'W' : c == '@' ? 'B' : 0;
        if (men[i])
            count[c == '@']++;
    }
    return true;
}

// Write the tabula position string.
static void write_fen(const char men[24], char side, const long long hand[2], long long plies,
                      long long fullmove, char *buf, size_t n) {
    char board[48];
    size_t len = 0;
    int point = 0;
    for (size_t r = 0; r < sizeof RANK_SIZES / sizeof RANK_SIZES[0]; r++) {
        int empty = 0;
        if (r)
            board[len++] = '/';
        for (int k = 0; k < RANK_SIZES[r]; k++, point++) {
            if (!men[point]) {
                empty++;
                continue;
            }
            if (empty)
                board[len++] = (char)('0' + empty);
            empty = 0;
            board[len++] = men[point];
        }
        if (empty)
            board[len++] = (char)('0' + empty);
    }
    board[len] = '\0';
    snprintf(buf, n, "%s %c %lld %lld %lld %lld", board, side, hand[0], hand[1], plies, fullmove);
}

bool sanmill_to_fen(const char *sanmill, char *buf, size_t n, Error *err) {
    char copy[512], *f[FIELDS];
    if (strlen(sanmill) >= sizeof copy)
        return error_set(err, "Sanmill position: too long");
    strcpy(copy, sanmill);
    int nf = 0;
    char *save, *tok = strtok_r(copy, " ", &save);
    for (; tok && nf < FIELDS; tok = strtok_r(NULL, " ", &save))
        f[nf++] = tok;
    if (nf < FIELDS)
        return error_set(err, "Sanmill position: %d fields, not 17", nf);

    // The extensions decide how fields 11-15 count points.
    bool nodes = false;
    for (; tok; tok = strtok_r(NULL, " ", &save)) {
        if (!strcasecmp(tok, "ids:nodes"))
            nodes = true;
        else if (strchr("ciplm", tok[0]) && tok[1] == ':')
            return error_set(err,
                             "Sanmill position: '%.24s' (pending capture state) has no tabula "
                             "counterpart",
                             tok);
        else
            return error_set(err, "Sanmill position: unexpected '%.24s' after the 17 fields", tok);
    }

    char men[24];
    int count[2];
    if (!read_board(f[0], men, count, err))
        return false;
    if (strcmp(f[1], "w") && strcmp(f[1], "b"))
        return error_set(err, "Sanmill position: side to move '%.24s' is not w or b", f[1]);
    if (strlen(f[2]) != 1 || !strchr("rpmo", f[2][0]))
        return error_set(err, "Sanmill position: phase '%.24s' is not r, p, m or o", f[2]);
    if (!strcmp(f[3], "r"))
        return error_set(err, "Sanmill position: a removal is pending (action r), which tabula "
                              "writes as part of the mill-closing move; give the position "
                              "before that move and the move with its removal");
    if (strcmp(f[3], "p") && strcmp(f[3], "s") && strcmp(f[3], "?"))
        return error_set(err, "Sanmill position: action '%.24s' is not p, s, r or ?", f[3]);

    static const char *const COUNT_NAMES[] = {"white on board",  "white in hand",
                                              "black on board",  "black in hand",
                                              "white to remove", "black to remove"};
    long long c[6];
    for (int i = 0; i < 6; i++)
        if (!parse_integer(f[4 + i], 0, MAX_MEN, &c[i]))
            return error_set(err, "Sanmill position: %s '%.24s' is not a number from 0 to %d",
                             COUNT_NAMES[i], f[4 + i], MAX_MEN);
    for (int side = 0; side < 2; side++)
        if (c[2 * side] != count[side])
            return error_set(err, "Sanmill position: %s is %lld but the board holds %d",
                             COUNT_NAMES[2 * side], c[2 * side], count[side]);
    if (c[4] || c[5])
        return error_set(err,
                         "Sanmill position: a removal is pending (%lld, %lld to remove), "
                         "which tabula writes as part of the mill-closing move",
                         c[4], c[5]);

    long long v;
    for (int i = 10; i < 14; i++) {
        bool ok = nodes ? parse_integer(f[i], -1, 23, &v)
                        : parse_integer(f[i], 0, 31, &v) && (v == 0 || v >= 8);
        if (!ok)
            return error_set(err, "Sanmill position: last mill point '%.24s' is not %s", f[i],
                             nodes ? "-1 or 0 to 23 (ids:nodes)" : "0 or 8 to 31");
    }
    if (!read_mills(f[14], nodes))
        return error_set(err, "Sanmill position: mills mask '%.24s' is not a mask of points",
                         f[14]);
    long long plies, fullmove;
    if (!parse_integer(f[15], 0, CLOCK_MAX, &plies))
        return error_set(err, "Sanmill position: plies counter '%.24s' is not a number", f[15]);
    // Sanmill reads a move number of 0 as 1.
    if (!parse_integer(f[16], 0, CLOCK_MAX, &fullmove))
        return error_set(err, "Sanmill position: move number '%.24s' is not a number", f[16]);
    long long hand[2] = {c[1], c[3]};
    write_fen(men, f[1][0], hand, plies, fullmove ? fullmove : 1, buf, n);
    return true;
}
