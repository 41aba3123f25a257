// The retrograde solver: board symmetries, positions valued by hand, agreement with a plain
// depth-limited search and with the one-ply rule, folding against an unfolded build, the file
// (resume after a cut, load) and the command.
#include "tests/suites.h"

#include "tests/helpers.h"

#include "engine/mill/movegen.h"
#include "engine/mill/solve.h"
#include "engine/mill/symmetry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SMALL_TIMEOUT 60

static const char *SMALL[] = {"three", "nine-holes", "tapatan", "achi"};
#define NSMALL ((int)(sizeof SMALL / sizeof SMALL[0]))

// Solve a variant in memory with default rules, failing the test on error.
static SolveDb *build(MillRules *r, const char *variant, bool unfolded, const char *path) {
    rules_for(r, variant);
    SolveOptions opt = {path, 2, unfolded, NULL, NULL, 0};
    Error err = {{0}};
    SolveDb *db = solve_build(r, &opt, &err);
    ck_assert_msg(db, "%s: %s", variant, err.msg);
    return db;
}

static void set_fen(Position *p, const MillRules *r, const char *fen) {
    Error err = {{0}};
    ck_assert_msg(pos_set_fen(p, r, fen, &err), "%s: %s", fen, err.msg);
}

// clang-format off
static const struct { BoardKind kind; bool diagonals, ignore_adjacency; int n; } SYMMETRIES[] = {
    {BOARD_9,  false, false, 8},  // the square's rotations and reflections
    {BOARD_9,  true,  false, 8},
    {BOARD_9,  false, true,  72}, // nine-holes: rows, columns and the transpose permute freely
    {BOARD_16, false, false, 16}, // and the inner and outer squares trade places
    {BOARD_17, false, false, 8},
    {BOARD_24, false, false, 16},
};
// clang-format on

START_TEST(test_symmetries) {
    const Board *b = board_get(SYMMETRIES[_i].kind, SYMMETRIES[_i].diagonals);
    static Symmetries s;
    symmetry_init(&s, b, SYMMETRIES[_i].ignore_adjacency);
    ck_assert_int_eq(s.n, SYMMETRIES[_i].n);
    for (int g = 0; g < s.n; g++) {
        Bits seen = 0;
        for (int p = 0; p < b->npoints; p++) {
            int q = s.perm[g][p];
            seen |= BIT(q);
            ck_assert_uint_eq(symmetry_apply(&s, g, BIT(p)), BIT(q));
            if (!SYMMETRIES[_i].ignore_adjacency)
                ck_assert_uint_eq(symmetry_apply(&s, g, b->adj[p]), b->adj[q]);
        }
        ck_assert_uint_eq(seen, b->all);
        for (int l = 0; l < b->nlines; l++) {
            Bits image = symmetry_apply(&s, g, b->lines[l]);
            bool found = false;
            for (int k = 0; k < b->nlines; k++)
                found |= b->lines[k] == image;
            ck_assert_msg(found, "symmetry %d maps a line off the lines", g);
        }
    }
}
END_TEST

// clang-format off
static const struct { const char *variant, *fen; int value, distance; } KNOWN[] = {
    // Placing the third man on the row wins at once.
    {"three",   "WW1/BB1/3 w 1 1",        SOLVE_WIN,  1},
    {"three",   "WW1/BB1/3 b 1 1",        SOLVE_WIN,  1},
    // The other side owns a mill: lost, nothing to look up.
    {"three",   "WWW/BB1/B2 b 0 0",       SOLVE_LOSS, 0},
    // Black's men a1 b1 a2 are walled in by c1 b2 a3: no move, lost.
    {"three",   "W2/BW1/BBW b 0 0",       SOLVE_LOSS, 0},
    // In tapatan a3-b2-c1 is a diagonal mill of White's: Black to move has lost.
    {"tapatan", "W2/BW1/BBW b 0 0",       SOLVE_LOSS, 0},
    // White slides c2-c3 to close the top row; Black cannot reach c3 to stop it, so whatever
    // Black moves, White closes it next.
    {"three",   "WW1/1BW/BB1 w 0 0",      SOLVE_WIN,  1},
    {"three",   "WW1/1BW/BB1 b 0 0",      SOLVE_LOSS, 2},
    // Five: White places e1 to close a1-c1-e1 and takes one of Black's three men.
    {"five",    "B2/1B1/2B1/3/WW1 w 1 0", SOLVE_WIN,  1},
    // Five: Black is down to two men: White to move has won.
    {"five",    "B2/1B1/4/3/WW1 w 1 0",   SOLVE_WIN,  0},
};
// clang-format on

#define NKNOWN ((int)(sizeof KNOWN / sizeof KNOWN[0]))

// Every row, so that one failure does not hide the others; each variant is built once.
START_TEST(test_known_positions) {
    MillRules r;
    SolveDb *db = NULL;
    const char *built = NULL;
    char failures[2048] = "";
    for (int i = 0; i < NKNOWN; i++) {
        if (!built || strcmp(built, KNOWN[i].variant)) {
            solve_free(db);
            db = build(&r, KNOWN[i].variant, false, NULL);
            built = KNOWN[i].variant;
        }
        Position p;
        set_fen(&p, &r, KNOWN[i].fen);
        int value = 9, distance = -1;
        bool found = solve_probe(db, &p, &value, &distance);
        if (!found || value != KNOWN[i].value || distance != KNOWN[i].distance)
            snprintf(failures + strlen(failures), sizeof failures - strlen(failures),
                     "\n  %s %s: %s value %d distance %d, want %d %d", KNOWN[i].variant,
                     KNOWN[i].fen, found ? "found" : "NOT FOUND", value, distance, KNOWN[i].value,
                     KNOWN[i].distance);
    }
    solve_free(db);
    ck_assert_msg(!failures[0], "wrong values:%s", failures);
}
END_TEST

// A plain search that knows nothing of the solver: the value of p if the game is forced to end
// within `depth` plies, with the distance, else SEARCH_OPEN. Exact for every distance up to
// depth; memoised on (key, depth) because the small boards transpose constantly.
#define SEARCH_OPEN 2
#define MEMO_BITS 20

typedef struct MemoEntry {
    uint64_t key;
    int8_t depth, value, distance;
} MemoEntry;

static MemoEntry *memo;

static void search(Position *p, int depth, int *value, int *distance) {
    Outcome o = pos_outcome(p);
    *distance = 0;
    if (o != OUTCOME_NONE) {
        *value = o == OUTCOME_WIN ? SOLVE_WIN : o == OUTCOME_LOSS ? SOLVE_LOSS : SOLVE_DRAW;
        return;
    }
    Move moves[MAX_MOVES];
    int n = movegen_legal(p, moves);
    if (n == 0) {
        *value = SOLVE_LOSS;
        return;
    }
    *value = SEARCH_OPEN;
    if (depth == 0)
        return;
    uint64_t key = p->key ^ (uint64_t)depth * 0x9e3779b97f4a7c15ull;
    MemoEntry *e = &memo[key & ((1u << MEMO_BITS) - 1)];
    if (e->key == key && e->depth == depth) {
        *value = e->value, *distance = e->distance;
        return;
    }
    int win = 1000, loss = -1;
    bool all_won = true;
    for (int i = 0; i < n; i++) {
        Undo u;
        int v, d;
        pos_do_move(p, moves[i], &u);
        search(p, depth - 1, &v, &d);
        pos_undo_move(p, moves[i], &u);
        if (v == SOLVE_LOSS && d + 1 < win)
            win = d + 1;
        else if (v == SOLVE_WIN && d + 1 > loss)
            loss = d + 1;
        if (v != SOLVE_WIN)
            all_won = false;
    }
    if (win < 1000)
        *value = SOLVE_WIN, *distance = win;
    else if (all_won)
        *value = SOLVE_LOSS, *distance = loss;
    *e = (MemoEntry){key, (int8_t)depth, (int8_t)*value, (int8_t)*distance};
}

static uint64_t rng_state = 0x5eed;

static unsigned rng(unsigned n) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(rng_state >> 33) % n;
}

// A position reached by up to max_plies random moves from the start.
static void random_position(Position *p, const MillRules *r, int max_plies) {
    pos_set_start(p, r);
    int plies = (int)rng((unsigned)max_plies + 1);
    Move moves[MAX_MOVES];
    for (int i = 0; i < plies; i++) {
        int n = movegen_legal(p, moves);
        if (n == 0)
            break;
        Undo u;
        pos_do_move(p, moves[rng((unsigned)n)], &u);
    }
}

// clang-format off
static const struct { const char *variant; int positions, depth, plies; } AGREE[] = {
    {"three",      300, 14, 30},
    {"nine-holes", 300, 14, 30},
    {"tapatan",    300, 14, 30},
    {"achi",       300, 14, 30},
    {"five",       100, 5,  40},
};
// clang-format on

// Every value follows from the children's by one ply of minimax: a win goes to a child lost
// soonest, a loss comes from children all won (the longest), a draw has a drawn child and no
// lost one.
static void check_one_ply(const SolveDb *db, Position *p) {
    int value, distance;
    char fen[FEN_MAX];
    pos_get_fen(p, fen, sizeof fen);
    EXPECT(solve_probe(db, p, &value, &distance), "%s not in the database", fen);
    Move moves[MAX_MOVES];
    int n = pos_outcome(p) == OUTCOME_NONE ? movegen_legal(p, moves) : -1;
    if (n <= 0) {
        EXPECT(distance == 0 && (n < 0 || value == SOLVE_LOSS), "%s: an ended game, %d in %d", fen,
               value, distance);
        return;
    }
    int win = 1000, loss = -1;
    bool draw = false;
    for (int k = 0; k < n; k++) {
        Undo u;
        int v, d;
        pos_do_move(p, moves[k], &u);
        EXPECT(solve_probe(db, p, &v, &d), "%s: a child not in the database", fen);
        pos_undo_move(p, moves[k], &u);
        if (v == SOLVE_LOSS && d + 1 < win)
            win = d + 1;
        if (v == SOLVE_WIN && d + 1 > loss)
            loss = d + 1;
        draw |= v == SOLVE_DRAW;
    }
    if (win < 1000)
        EXPECT(value == SOLVE_WIN && distance == win, "%s: %d in %d, want a win in %d", fen, value,
               distance, win);
    else if (draw)
        EXPECT(value == SOLVE_DRAW, "%s: %d in %d, want a draw", fen, value, distance);
    else
        EXPECT(value == SOLVE_LOSS && distance == loss, "%s: %d in %d, want a loss in %d", fen,
               value, distance, loss);
}

static void check_one_ply_rule(const SolveDb *db, const MillRules *r, int plies) {
    for (int i = 0; i < 2000; i++) {
        Position p;
        random_position(&p, r, plies);
        check_one_ply(db, &p);
    }
}

// Rows of the variant table cut down to four men, so that the 16- and 17-point boards with
// removals can be checked state by state in a moment.
// clang-format off
static const Variant FOUR_16 = {"four-16", "Four men on the 16-point board", BOARD_16, false, 4,
                                false, false, false, false, false, false};
static const Variant FOUR_17 = {"four-17", "Four men on the 17-point board", BOARD_17, false, 4,
                                false, false, false, false, false, false};
// clang-format on

static const char *EXHAUSTIVE[] = {"three", "nine-holes", "tapatan", "achi", "four-16", "four-17"};

// Every stored state obeys the one-ply rule with the distances, which together with the
// terminal values pins every win and loss (by induction on the distance) and leaves as draws
// exactly the states no side can force to an end.
START_TEST(test_every_state) {
    MillRules r;
    SolveDb *db;
    const char *id = EXHAUSTIVE[_i];
    if (!strcmp(id, "four-16") || !strcmp(id, "four-17")) {
        rules_init(&r, !strcmp(id, "four-16") ? &FOUR_16 : &FOUR_17);
        SolveOptions opt = {NULL, 2, false, NULL, NULL, 0};
        Error err = {{0}};
        db = solve_build(&r, &opt, &err);
        ck_assert_msg(db, "%s: %s", id, err.msg);
    } else {
        db = build(&r, id, false, NULL);
    }
    uint64_t n = solve_count(db);
    ck_assert_uint_gt(n, 50);
    for (uint64_t i = 0; i < n; i++) {
        Position p;
        EXPECT(solve_state(db, i, &p), "state %llu missing", (unsigned long long)i);
        check_one_ply(db, &p);
    }
    solve_free(db);
}
END_TEST

// The database and the search give the same value and distance wherever the distance is within
// the search's depth, and the search finds nothing forced where the database has a draw or a
// longer fight. On the 9-point boards the depth is beyond the longest win, so every value is
// checked in full. Then the one-ply rule on more random positions of the same build.
START_TEST(test_agrees_with_search) {
    MillRules r;
    SolveDb *db = build(&r, AGREE[_i].variant, false, NULL);
    memo = calloc(1u << MEMO_BITS, sizeof *memo);
    ck_assert_ptr_nonnull(memo);
    int depth = AGREE[_i].depth, decided = 0;
    for (int i = 0; i < AGREE[_i].positions; i++) {
        Position p;
        random_position(&p, &r, AGREE[_i].plies);
        char fen[FEN_MAX];
        pos_get_fen(&p, fen, sizeof fen);
        int value, distance, sv, sd;
        EXPECT(solve_probe(db, &p, &value, &distance), "%s: %s not in the database",
               AGREE[_i].variant, fen);
        search(&p, depth, &sv, &sd);
        if (value != SOLVE_DRAW && distance <= depth) {
            EXPECT(sv == value && sd == distance,
                   "%s %s: database %d in %d, search %d in %d (depth %d)", AGREE[_i].variant, fen,
                   value, distance, sv, sd, depth);
            decided++;
        } else {
            EXPECT(sv == SEARCH_OPEN, "%s %s: database %d in %d, search %d in %d (depth %d)",
                   AGREE[_i].variant, fen, value, distance, sv, sd, depth);
        }
    }
    ck_assert_int_gt(decided, AGREE[_i].positions / 10);
    free(memo);
    check_one_ply_rule(db, &r, AGREE[_i].plies);
    solve_free(db);
}
END_TEST

// Folded and unfolded builds give every position of the board the same value and distance:
// all 3^9 boards with every pair of men in hand.
START_TEST(test_folding) {
    MillRules r, ru;
    SolveDb *db = build(&r, SMALL[_i], false, NULL);
    SolveDb *full = build(&ru, SMALL[_i], true, NULL);
    SolveStats sf, su;
    solve_stats(db, &sf);
    solve_stats(full, &su);
    ck_assert_int_gt(sf.symmetries, 1);
    ck_assert_int_eq(su.symmetries, 1);
    ck_assert_uint_lt(sf.positions * 4, su.positions);
    ck_assert_int_eq(sf.start_value, su.start_value);
    ck_assert_int_eq(sf.start_distance, su.start_distance);
    ck_assert_int_eq(sf.longest_win, su.longest_win);
    const Board *b = r.board;
    int men = r.variant->men, compared = 0;
    for (int code = 0; code < 19683; code++) {
        Position p = {.rules = &r};
        for (int pt = 0, c = code; pt < b->npoints; pt++, c /= 3)
            if (c % 3)
                p.men[c % 3 - 1] |= BIT(pt);
        for (int hw = 0; hw <= men; hw++)
            for (int hb = 0; hb <= men; hb++)
                for (int side = 0; side < 2; side++) {
                    p.hand[WHITE] = hw, p.hand[BLACK] = hb, p.side = side;
                    Position q = p;
                    q.rules = &ru;
                    int v1, d1, v2, d2;
                    bool in1 = solve_probe(db, &p, &v1, &d1);
                    bool in2 = solve_probe(full, &q, &v2, &d2);
                    EXPECT(in1 == in2, "stored in one build only");
                    if (in1) {
                        EXPECT(v1 == v2 && d1 == d2, "folded %d in %d, unfolded %d in %d", v1, d1,
                               v2, d2);
                        compared++;
                    }
                }
    }
    ck_assert_int_gt(compared, 1000);
    solve_free(db);
    solve_free(full);
}
END_TEST

// A file cut in the middle is resumed: the groups before the cut are read back, the rest
// solved again, and the result is the database built in one go. solve_load reads it too.
START_TEST(test_resume_and_load) {
    char path[] = "/tmp/tabula-solve-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    unlink(path);
    MillRules r;
    SolveDb *db = build(&r, "tapatan", false, path);
    SolveStats whole, again, loaded;
    solve_stats(db, &whole);
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    ck_assert_int_eq(truncate(path, size * 2 / 3), 0);
    solve_free(db);
    db = build(&r, "tapatan", false, path);
    solve_stats(db, &again);
    ck_assert_uint_gt(again.positions, 0);
    solve_free(db);
    Error err = {{0}};
    SolveDb *ld = solve_load(path, &err);
    ck_assert_msg(ld, "%s", err.msg);
    solve_stats(ld, &loaded);
    const SolveStats *all[] = {&again, &loaded};
    for (int i = 0; i < 2; i++) {
        ck_assert_uint_eq(all[i]->positions, whole.positions);
        ck_assert_uint_eq(all[i]->wins, whole.wins);
        ck_assert_uint_eq(all[i]->draws, whole.draws);
        ck_assert_uint_eq(all[i]->losses, whole.losses);
        ck_assert_int_eq(all[i]->longest_win, whole.longest_win);
        ck_assert_int_eq(all[i]->start_value, whole.start_value);
        ck_assert_int_eq(all[i]->start_distance, whole.start_distance);
    }
    // The loaded database answers for positions of its own rules only.
    MillRules other;
    rules_for(&other, "three");
    Position p;
    pos_set_start(&p, &other);
    int v, d;
    ck_assert(!solve_probe(ld, &p, &v, &d));
    pos_set_start(&p, solve_rules(ld));
    ck_assert(solve_probe(ld, &p, &v, &d));
    solve_free(ld);
    // A file of another variant is refused rather than overwritten.
    SolveOptions opt = {path, 1, false, NULL, NULL, 0};
    rules_for(&other, "three");
    ck_assert_ptr_null(solve_build(&other, &opt, &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "another database"));
    unlink(path);
}
END_TEST

START_TEST(test_unsupported) {
    MillRules r;
    Error err = {{0}};
    rules_for(&r, "nine");
    ck_assert(!solve_supported(&r, 0, &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "24-point"));
    rules_for(&r, "seven");
    ck_assert(solve_supported(&r, 0, &err));
}
END_TEST

// `tabula solve`: the start's value and the statistics on stdout.
START_TEST(test_command) {
    const char *bin = getenv("TABULA_BIN");
    ck_assert_msg(bin, "TABULA_BIN is not set");
    char path[] = "/tmp/tabula-solve-XXXXXX", cmd[512], out[4096] = "";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    unlink(path);
    snprintf(cmd, sizeof cmd, "%s solve tapatan --out %s --threads 2 2>/dev/null", bin, path);
    FILE *f = popen(cmd, "r");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    ck_assert_int_eq(pclose(f), 0);
    unlink(path);
    ck_assert_msg(strstr(out, "start: win for White"), "%s", out);
    ck_assert_msg(strstr(out, "positions: 564 "), "%s", out);
    snprintf(cmd, sizeof cmd, "%s solve nine 2>&1 >/dev/null", bin);
    f = popen(cmd, "r");
    n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    ck_assert_int_ne(pclose(f), 0);
    ck_assert_msg(strstr(out, "24-point"), "%s", out);
}
END_TEST

Suite *solve_suite(void) {
    Suite *s = suite_create("solve");
    TCase *tc = tcase_create("solve");
    tcase_set_timeout(tc, SMALL_TIMEOUT);
    tcase_add_loop_test(tc, test_symmetries, 0, (int)(sizeof SYMMETRIES / sizeof SYMMETRIES[0]));
    tcase_add_test(tc, test_known_positions);
    tcase_add_loop_test(tc, test_agrees_with_search, 0, (int)(sizeof AGREE / sizeof AGREE[0]));
    tcase_add_loop_test(tc, test_every_state, 0, (int)(sizeof EXHAUSTIVE / sizeof EXHAUSTIVE[0]));
    tcase_add_loop_test(tc, test_folding, 0, NSMALL);
    tcase_add_test(tc, test_resume_and_load);
    tcase_add_test(tc, test_unsupported);
    tcase_add_test(tc, test_command);
    suite_add_tcase(s, tc);
    return s;
}
