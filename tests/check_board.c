// Board geometry against docs/variants.md, "Boards and coordinates": point counts and order,
// ranks, adjacency, mills.
#include "tests/helpers.h"
#include "tests/suites.h"

#include "engine/mill/board.h"

#include <string.h>

// The mill lines of docs/variants.md, "Boards and coordinates", written out by hand.
#define MILLS_24                                                                                   \
    "a7 d7 g7,b6 d6 f6,c5 d5 e5,a4 b4 c4,e4 f4 g4,c3 d3 e3,b2 d2 f2,a1 d1 g1,"                     \
    "a1 a4 a7,b2 b4 b6,c3 c4 c5,d7 d6 d5,d3 d2 d1,e3 e4 e5,f2 f4 f6,g1 g4 g7"
#define MILLS_24_DIAGONAL "a1 b2 c3,a7 b6 c5,g7 f6 e5,g1 f2 e3"
#define MILLS_16 "a1 c1 e1,e1 e3 e5,a5 c5 e5,a1 a3 a5,b2 c2 d2,d2 d3 d4,b4 c4 d4,b2 b3 b4"
#define MILLS_17_CROSS "c1 c2 c3,c2 c3 c4,c3 c4 c5,a3 b3 c3,b3 c3 d3,c3 d3 e3"
#define MILLS_9 "a1 b1 c1,a2 b2 c2,a3 b3 c3,a1 a2 a3,b1 b2 b3,c1 c2 c3"
#define MILLS_9_DIAGONAL "a1 b2 c3,a3 b2 c1"

typedef struct BoardCase {
    const char *label;
    BoardKind kind;
    bool diagonals;
    int npoints, nlines, nranks, nedges;
    int rank_points[MAX_RANKS];
    const char *order; // every point in position-string order
    const char *mills; // every mill line, comma separated
} BoardCase;

// clang-format off
static const BoardCase BOARDS[] = {
    {"24", BOARD_24, false, 24, 16, 7, 32, {3, 3, 3, 6, 3, 3, 3},
     "a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1",
     MILLS_24},
    {"24 with diagonals", BOARD_24, true, 24, 20, 7, 40, {3, 3, 3, 6, 3, 3, 3},
     "a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1",
     MILLS_24 "," MILLS_24_DIAGONAL},
    {"16", BOARD_16, false, 16, 8, 5, 20, {3, 3, 4, 3, 3},
     "a5 c5 e5 b4 c4 d4 a3 b3 d3 e3 b2 c2 d2 a1 c1 e1",
     MILLS_16},
    {"17", BOARD_17, false, 17, 14, 5, 24, {3, 3, 5, 3, 3},
     "a5 c5 e5 b4 c4 d4 a3 b3 c3 d3 e3 b2 c2 d2 a1 c1 e1",
     MILLS_16 "," MILLS_17_CROSS},
    {"9", BOARD_9, false, 9, 6, 3, 12, {3, 3, 3},
     "a3 b3 c3 a2 b2 c2 a1 b1 c1",
     MILLS_9},
    {"9 with diagonals", BOARD_9, true, 9, 8, 3, 16, {3, 3, 3},
     "a3 b3 c3 a2 b2 c2 a1 b1 c1",
     MILLS_9 "," MILLS_9_DIAGONAL},
};
// clang-format on

#define NBOARDS ((int)(sizeof BOARDS / sizeof BOARDS[0]))

typedef struct NeighbourCase {
    int board; // index into BOARDS
    const char *point;
    const char *neighbours;
} NeighbourCase;

// clang-format off
static const NeighbourCase NEIGHBOURS[] = {
    {0, "d2", "d1 d3 b2 f2"},
    {0, "a1", "d1 a4"},
    {0, "a7", "a4 d7"},
    {0, "d6", "d7 d5 b6 f6"},
    {0, "b4", "a4 c4 b2 b6"},
    {0, "c4", "b4 c3 c5"},
    {0, "e4", "f4 e3 e5"},
    {0, "g4", "f4 g1 g7"},
    {0, "b2", "d2 b4"},
    {1, "a1", "d1 a4 b2"},
    {1, "b2", "d2 b4 a1 c3"},
    {1, "c3", "d3 c4 b2"},
    {1, "d2", "d1 d3 b2 f2"},
    {1, "f6", "d6 f4 g7 e5"},
    {1, "e3", "d3 e4 f2"},
    {1, "c4", "b4 c3 c5"},
    {2, "c1", "a1 e1 c2"},
    {2, "c2", "b2 d2 c1"},
    {2, "e3", "e1 e5 d3"},
    {2, "d3", "d2 d4 e3"},
    {2, "c5", "a5 e5 c4"},
    {2, "c4", "b4 d4 c5"},
    {2, "a3", "a1 a5 b3"},
    {2, "b3", "b2 b4 a3"},
    {2, "a1", "c1 a3"},
    {2, "b2", "c2 b3"},
    {3, "c3", "c2 c4 b3 d3"},
    {3, "c2", "b2 d2 c1 c3"},
    {3, "b3", "b2 b4 a3 c3"},
    {3, "c1", "a1 e1 c2"},
    {3, "a1", "c1 a3"},
    {4, "b2", "a2 c2 b1 b3"},
    {4, "a1", "a2 b1"},
    {4, "b1", "a1 c1 b2"},
    {5, "b2", "a1 a2 a3 b1 b3 c1 c2 c3"},
    {5, "a1", "a2 b1 b2"},
    {5, "b1", "a1 c1 b2"},
    {5, "c3", "b3 c2 b2"},
};
// clang-format on

#define NNEIGHBOURS ((int)(sizeof NEIGHBOURS / sizeof NEIGHBOURS[0]))

static const Board *case_board(const BoardCase *c) { return board_get(c->kind, c->diagonals); }

// Read the point set of a space-separated list of point names, failing on an unknown name.
static Bits parse_points(const Board *b, const char *s, int *count) {
    Bits set = 0;
    *count = 0;
    while (*s) {
        if (*s == ' ') {
            s++;
            continue;
        }
        int p = board_point(b, s);
        ck_assert_msg(p >= 0, "'%.2s' is not a point of the board", s);
        set |= BIT(p);
        (*count)++;
        s += 2;
    }
    return set;
}

// Count the mill lines of b equal to `line`.
static int count_line(const Board *b, Bits line) {
    int n = 0;
    for (int i = 0; i < b->nlines; i++)
        n += b->lines[i] == line;
    return n;
}

START_TEST(test_counts) {
    const BoardCase *c = &BOARDS[_i];
    const Board *b = case_board(c);
    ck_assert_msg(b->kind == c->kind && b->diagonals == c->diagonals, "board %s", c->label);
    ck_assert_int_eq(b->npoints, c->npoints);
    ck_assert_int_eq(b->nlines, c->nlines);
    ck_assert_int_eq(b->nranks, c->nranks);
    ck_assert_uint_eq(b->all, (Bits)((1ull << c->npoints) - 1));
    int sum = 0;
    for (int r = 0; r < c->nranks; r++) {
        ck_assert_msg(b->rank_points[r] == c->rank_points[r],
                      "board %s: rank %d from the top has %d points, want %d", c->label, r + 1,
                      b->rank_points[r], c->rank_points[r]);
        sum += b->rank_points[r];
    }
    ck_assert_int_eq(sum, c->npoints);
}
END_TEST

START_TEST(test_point_order) {
    const BoardCase *c = &BOARDS[_i];
    const Board *b = case_board(c);
    const char *s = c->order;
    for (int p = 0; p < b->npoints; p++, s += 3) {
        ck_assert_msg(strncmp(b->name[p], s, 2) == 0 && b->name[p][2] == '\0',
                      "board %s: point %d is '%s', want %.2s", c->label, p, b->name[p], s);
        ck_assert_int_eq(b->file[p], s[0] - 'a');
        ck_assert_int_eq(b->rank[p], s[1] - '1');
    }
    // The points of each rank of the position string share that board rank.
    int p = 0;
    for (int r = 0; r < b->nranks; r++)
        for (int i = 0; i < b->rank_points[r]; i++, p++)
            ck_assert_msg(b->rank[p] == b->nranks - 1 - r, "board %s: point %s in rank %d",
                          c->label, b->name[p], r + 1);
}
END_TEST

START_TEST(test_point_names_round_trip) {
    const BoardCase *c = &BOARDS[_i];
    const Board *b = case_board(c);
    for (int p = 0; p < b->npoints; p++)
        ck_assert_int_eq(board_point(b, b->name[p]), p);
    // Trailing text after the two characters is ignored.
    ck_assert_int_eq(board_point(b, "a1-b1"), board_point(b, "a1"));
    ck_assert_int_eq(board_point(b, "h1"), -1);
    ck_assert_int_eq(board_point(b, "a8"), -1);
    ck_assert_int_eq(board_point(b, "a0"), -1);
    ck_assert_int_eq(board_point(b, "A1"), -1);
    ck_assert_int_eq(board_point(b, "1a"), -1);
}
END_TEST

START_TEST(test_missing_points) {
    ck_assert_int_eq(board_point(board_get(BOARD_24, false), "d4"), -1);
    ck_assert_int_eq(board_point(board_get(BOARD_24, true), "d4"), -1);
    ck_assert_int_eq(board_point(board_get(BOARD_24, false), "b7"), -1);
    ck_assert_int_eq(board_point(board_get(BOARD_24, false), "c6"), -1);
    ck_assert_int_eq(board_point(board_get(BOARD_16, false), "c3"), -1);
    ck_assert_int_eq(board_point(board_get(BOARD_16, false), "b1"), -1);
    ck_assert_int_eq(board_point(board_get(BOARD_16, false), "a2"), -1);
    ck_assert_int_eq(board_point(board_get(BOARD_17, false), "c3"), 8);
    ck_assert_int_eq(board_point(board_get(BOARD_17, false), "b5"), -1);
    ck_assert_int_eq(board_point(board_get(BOARD_9, false), "d1"), -1);
    ck_assert_int_eq(board_point(board_get(BOARD_9, false), "a4"), -1);
}
END_TEST

START_TEST(test_adjacency_symmetric) {
    const BoardCase *c = &BOARDS[_i];
    const Board *b = case_board(c);
    int edges = 0;
    for (int p = 0; p < b->npoints; p++) {
        ck_assert_msg(!(b->adj[p] & BIT(p)), "board %s: %s is its own neighbour", c->label,
                      b->name[p]);
        ck_assert_msg((b->adj[p] & ~b->all) == 0, "board %s: %s has a neighbour off the board",
                      c->label, b->name[p]);
        ck_assert_msg(b->adj[p] != 0, "board %s: %s has no neighbour", c->label, b->name[p]);
        for (int q = 0; q < b->npoints; q++)
            if (b->adj[p] & BIT(q)) {
                ck_assert_msg(b->adj[q] & BIT(p), "board %s: %s-%s adjacent one way only", c->label,
                              b->name[p], b->name[q]);
                edges += p < q;
            }
    }
    ck_assert_int_eq(edges, c->nedges);
    for (int p = b->npoints; p < MAX_POINTS; p++)
        ck_assert_uint_eq(b->adj[p], 0);
}
END_TEST

START_TEST(test_neighbours) {
    const NeighbourCase *n = &NEIGHBOURS[_i];
    const BoardCase *c = &BOARDS[n->board];
    const Board *b = case_board(c);
    int p = board_point(b, n->point), count;
    ck_assert_msg(p >= 0, "board %s: no point %s", c->label, n->point);
    Bits want = parse_points(b, n->neighbours, &count);
    ck_assert_msg(b->adj[p] == want, "board %s: neighbours of %s are not %s", c->label, n->point,
                  n->neighbours);
    ck_assert_int_eq(bits_count(b->adj[p]), count);
}
END_TEST

START_TEST(test_mills) {
    const BoardCase *c = &BOARDS[_i];
    const Board *b = case_board(c);
    char line[16];
    int nlisted = 0;
    for (const char *s = c->mills; *s;) {
        size_t len = strcspn(s, ",");
        ck_assert(len < sizeof line);
        memcpy(line, s, len);
        line[len] = '\0';
        s += len + (s[len] == ',');
        int count;
        Bits want = parse_points(b, line, &count);
        ck_assert_int_eq(count, 3);
        ck_assert_msg(count_line(b, want) == 1, "board %s: mill %s found %d times", c->label, line,
                      count_line(b, want));
        nlisted++;
    }
    // Every line is listed once, so the board has no mill beyond the list.
    ck_assert_int_eq(nlisted, c->nlines);
    ck_assert_int_eq(b->nlines, nlisted);
}
END_TEST

START_TEST(test_lines_at_points) {
    const BoardCase *c = &BOARDS[_i];
    const Board *b = case_board(c);
    for (int p = 0; p < b->npoints; p++) {
        int through = 0;
        for (int i = 0; i < b->nlines; i++)
            through += (b->lines[i] & BIT(p)) != 0;
        ck_assert_msg(b->nlines_at[p] == through, "board %s: %s lies on %d lines, not %d", c->label,
                      b->name[p], through, b->nlines_at[p]);
        for (int i = 0; i < b->nlines_at[p]; i++) {
            ck_assert(!(b->others[p][i] & BIT(p)));
            ck_assert_int_eq(bits_count(b->others[p][i]), 2);
            ck_assert_int_eq(count_line(b, b->others[p][i] | BIT(p)), 1);
        }
        // A point with every other point taken completes each line through it.
        ck_assert_int_eq(board_mills_at(b, p, b->all), through);
    }
}
END_TEST

START_TEST(test_spokes_are_not_mills) {
    const Board *b = board_get(BOARD_16, false);
    static const char *const spokes[][2] = {{"c1", "c2"}, {"e3", "d3"}, {"c5", "c4"}, {"a3", "b3"}};
    for (int i = 0; i < 4; i++) {
        int p = board_point(b, spokes[i][0]), q = board_point(b, spokes[i][1]);
        ck_assert(p >= 0 && q >= 0);
        ck_assert_msg(b->adj[p] & BIT(q), "%s-%s not adjacent", spokes[i][0], spokes[i][1]);
        for (int l = 0; l < b->nlines; l++)
            ck_assert_msg((b->lines[l] & (BIT(p) | BIT(q))) != (BIT(p) | BIT(q)),
                          "spoke %s-%s lies on a mill", spokes[i][0], spokes[i][1]);
        ck_assert_int_eq(b->nlines_at[p], 1);
        ck_assert_int_eq(b->nlines_at[q], 1);
    }
}
END_TEST

START_TEST(test_centre_of_17) {
    const Board *b = board_get(BOARD_17, false);
    int c3 = board_point(b, "c3"), c2 = board_point(b, "c2"), c1 = board_point(b, "c1");
    ck_assert_int_eq(b->nlines_at[c3], 6);
    ck_assert_int_eq(b->nlines_at[c2], 3); // b2-c2-d2, c1-c2-c3, c2-c3-c4
    ck_assert_int_eq(b->nlines_at[c1], 2); // a1-c1-e1, c1-c2-c3
    // The whole cross column holds three overlapping mills, all completed at c3.
    int count;
    Bits column = parse_points(b, "c1 c2 c3 c4 c5", &count);
    ck_assert_int_eq(board_mills_at(b, c3, column), 3);
    ck_assert_uint_eq(board_in_mills(b, column), column);
}
END_TEST

START_TEST(test_mill_helpers) {
    const Board *plain = board_get(BOARD_24, false), *diag = board_get(BOARD_24, true);
    int count;
    Bits top = parse_points(plain, "a7 d7 g7", &count);
    Bits bent = parse_points(plain, "a7 d7 d6", &count);
    Bits diagonal = parse_points(plain, "a1 b2 c3", &count);
    int a1 = board_point(plain, "a1");
    ck_assert(board_has_mill(plain, top));
    ck_assert(!board_has_mill(plain, bent));
    ck_assert(!board_has_mill(plain, diagonal));
    ck_assert(board_has_mill(diag, diagonal));
    ck_assert_uint_eq(board_in_mills(plain, top | diagonal), top);
    ck_assert_uint_eq(board_in_mills(diag, top | diagonal), top | diagonal);
    ck_assert_uint_eq(board_in_mills(plain, bent), 0);
    ck_assert_int_eq(board_mills_at(plain, a1, diagonal), 0);
    ck_assert_int_eq(board_mills_at(diag, a1, diagonal), 1);
    // With diagonals a corner lies on three lines and can complete all three at once.
    Bits corner = parse_points(diag, "a1 d1 g1 a4 a7 b2 c3", &count);
    ck_assert_int_eq(diag->nlines_at[a1], 3);
    ck_assert_int_eq(board_mills_at(diag, a1, corner), 3);
    ck_assert_int_eq(board_mills_at(plain, a1, corner), 2);
}
END_TEST

// Bit j of the result is bit src[j] of v: what VPSHUFBITQMB computes in board_gather.
static uint64_t gather_ref(uint64_t v, const uint8_t src[64]) {
    uint64_t g = 0;
    for (int j = 0; j < 64; j++)
        g |= (v >> src[j] & 1) << j;
    return g;
}

// The gather rows of the processors with AVX-512 BITALG (board.h), computed bit by bit,
// against the byte tables.
static void expect_gathers(const Board *b, Bits men) {
    Slots slots = board_slots(b, men);
    ck_assert_uint_eq(gather_ref(men, b->slot_src), slots);
    uint64_t points = 0, near = 0;
    for (int w = 0; w < b->slot_words; w++)
        points |= gather_ref(slots, b->point_src[w]);
    ck_assert_uint_eq((Bits)(points | points >> 32), board_slot_points(b, slots));
    ck_assert_uint_eq((Bits)(points | points >> 32), men & board_slot_points(b, SLOTS_ALL));
    for (int w = 0; w < MAX_DEGREE / 2; w++) {
        uint64_t kth = gather_ref(men, b->neighbour_src[w]), expect = 0;
        if (w < b->neighbour_words)
            expect = b->kth_neighbour_of[w][0][men & 255] |
                     b->kth_neighbour_of[w][1][men >> 8 & 255] |
                     b->kth_neighbour_of[w][2][men >> 16 & 255];
        ck_assert_uint_eq(kth, expect);
        near |= kth;
    }
    ck_assert_uint_eq((Bits)(near | near >> 32), board_neighbours(b, men));
}

// The table-driven set helpers against their definitions line by line and point by point, on
// random point sets of every board.
START_TEST(test_set_helpers) {
    const Board *b = case_board(&BOARDS[_i]);
    uint64_t seed = 0x9e3779b97f4a7c15ull + (uint64_t)_i;
    for (int it = 0; it < 20000; it++) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        Bits men = (Bits)seed & (Bits)(seed >> 32) & b->all; // about a quarter of the points
        if (it & 1)
            men = (Bits)seed & b->all;
        Bits in = 0, closing = 0, near = 0;
        for (int l = 0; l < b->nlines; l++) {
            Bits line = b->lines[l], x = men & line;
            if (x == line)
                in |= line;
            if (bits_count(x) == 2)
                closing |= line & ~x;
        }
        for (int p = 0; p < b->npoints; p++)
            if (men & BIT(p))
                near |= b->adj[p];
        EXPECT(board_in_mills(b, men) == in, "in mills of %#x", men);
        EXPECT(board_has_mill(b, men) == (in != 0), "has mill %#x", men);
        EXPECT(board_closing_points(b, men) == closing, "closing points of %#x", men);
        EXPECT(board_neighbours(b, men) == near, "neighbours of %#x", men);
        expect_gathers(b, men);
        for (int k = 0; k < MAX_DEGREE; k++) {
            uint64_t word = board_kth_neighbours(b, k / 2, men);
            Bits kth = (Bits)(word >> 32 * (k % 2));
            Bits expect = 0;
            for (int q = 0; q < b->npoints; q++) {
                Bits a = b->adj[q];
                for (int j = 0; j < k && a; j++)
                    a &= a - 1;
                if (a && men & BIT(bits_lsb(a)))
                    expect |= BIT(q);
            }
            EXPECT(kth == expect && (k < 2 * b->neighbour_words || !expect), "neighbour %d of %#x",
                   k, men);
        }
    }
}
END_TEST

START_TEST(test_diagonal_flag) {
    // Boards without diagonal lines ignore the request for them.
    ck_assert_ptr_eq(board_get(BOARD_16, true), board_get(BOARD_16, false));
    ck_assert_ptr_eq(board_get(BOARD_17, true), board_get(BOARD_17, false));
    ck_assert(!board_get(BOARD_16, true)->diagonals);
    ck_assert_ptr_ne(board_get(BOARD_24, true), board_get(BOARD_24, false));
    ck_assert_ptr_ne(board_get(BOARD_9, true), board_get(BOARD_9, false));
    ck_assert_ptr_eq(board_get(BOARD_24, true), board_get(BOARD_24, true));
}
END_TEST

Suite *board_suite(void) {
    Suite *s = suite_create("board");
    TCase *tc = tcase_create("geometry");
    tcase_add_loop_test(tc, test_counts, 0, NBOARDS);
    tcase_add_loop_test(tc, test_point_order, 0, NBOARDS);
    tcase_add_loop_test(tc, test_point_names_round_trip, 0, NBOARDS);
    tcase_add_test(tc, test_missing_points);
    tcase_add_loop_test(tc, test_adjacency_symmetric, 0, NBOARDS);
    tcase_add_loop_test(tc, test_neighbours, 0, NNEIGHBOURS);
    tcase_add_test(tc, test_spokes_are_not_mills);
    tcase_add_test(tc, test_diagonal_flag);
    suite_add_tcase(s, tc);

    tc = tcase_create("mills");
    tcase_add_loop_test(tc, test_mills, 0, NBOARDS);
    tcase_add_loop_test(tc, test_lines_at_points, 0, NBOARDS);
    tcase_add_test(tc, test_centre_of_17);
    tcase_add_test(tc, test_mill_helpers);
    tcase_add_loop_test(tc, test_set_helpers, 0, NBOARDS);
    suite_add_tcase(s, tc);
    return s;
}
