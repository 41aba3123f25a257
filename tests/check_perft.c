// Perft against docs/variants.md, "Perft", and the vectors of tests/data/mill_perft.txt.
#include "tests/suites.h"

#include "tests/helpers.h"

#include "engine/mill/movegen.h"
#include "engine/mill/notation.h"
#include "engine/mill/perft.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PERFT_TIMEOUT 60

// Play the space-separated moves from p, failing on the first that is not legal.
static void replay(Position *p, const char *moves, const char *what) {
    char buf[2048], *save;
    snprintf(buf, sizeof buf, "%s", moves);
    int ply = 0;
    for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save), ply++) {
        Error err = {{0}};
        Move m;
        ck_assert_msg(move_parse(p, t, &m, &err), "%s: move %d '%s' refused: %s", what, ply + 1, t,
                      err.msg);
        Undo u;
        pos_do_move(p, m, &u);
    }
}

// Fail unless perft of p at `depth` is `want`, and p is unchanged by counting it.
static void assert_perft(Position *p, int depth, uint64_t want, const char *what) {
    Position before;
    memcpy(&before, p, sizeof before);
    uint64_t got = perft(p, depth);
    ck_assert_msg(got == want, "%s: perft %d is %" PRIu64 ", want %" PRIu64, what, depth, got,
                  want);
    ck_assert_msg(memcmp(&before, p, sizeof before) == 0, "%s: perft %d changed the position", what,
                  depth);
}

#define START_DEPTH 5

// clang-format off
static const struct { const char *variant; uint64_t perft[START_DEPTH]; } STARTS[] = {
    {"nine",       {24, 552, 12144, 255024, 5140800}},
    {"twelve",     {24, 552, 12144, 255024, 5150880}},
    {"eleven",     {24, 552, 12144, 255024, 5150880}},
    {"morabaraba", {24, 552, 12144, 255024, 5150880}},
    {"lasker",     {24, 552, 13552, 319176, 7911352}},
    {"six",        {16, 240, 3360, 43680, 531648}},
    {"five",       {16, 240, 3360, 43680, 531648}},
    {"seven",      {17, 272, 4080, 57120, 757848}},
    {"three",      {9, 72, 504, 3024, 15120}},
    {"nine-holes", {9, 72, 504, 3024, 15120}},
    {"tapatan",    {9, 72, 504, 3024, 15120}},
    {"achi",       {9, 72, 504, 3024, 15120}},
};
// clang-format on

#define NSTARTS ((int)(sizeof STARTS / sizeof STARTS[0]))

START_TEST(test_start_perft) {
    MillRules r;
    Position p;
    rules_for(&r, STARTS[_i].variant);
    pos_set_start(&p, &r);
    for (int d = 1; d <= START_DEPTH; d++)
        assert_perft(&p, d, STARTS[_i].perft[d - 1], STARTS[_i].variant);
}
END_TEST

START_TEST(test_nine_depth_6) {
    MillRules r;
    Position p;
    rules_for(&r, "nine");
    pos_set_start(&p, &r);
    assert_perft(&p, 6, 99274176, "nine");
}
END_TEST

START_TEST(test_nine_after_placements) {
    static const uint64_t want[] = {25, 291, 5853, 47154};
    MillRules r;
    Position p;
    rules_for(&r, "nine");
    pos_set_start(&p, &r);
    replay(&p, "d7 g7 g4 a7 a4 g1 f6 d6 b6 d2 f2 a1 e5 c5 c4 d5 e3 c3", "nine placements");
    ck_assert_int_eq(p.hand[WHITE], 0);
    ck_assert_int_eq(p.hand[BLACK], 0);
    for (int d = 1; d <= 4; d++)
        assert_perft(&p, d, want[d - 1], "nine after the placements");
}
END_TEST

START_TEST(test_depth_0) {
    MillRules r;
    Position p;
    rules_for(&r, "nine");
    pos_set_start(&p, &r);
    assert_perft(&p, 0, 1, "nine");
    // A finished game has no moves but is still one sequence of length 0.
    rules_for(&r, "three");
    ck_assert(pos_set_fen(&p, &r, "WWW/BB1/3 b 0 1 0 3", NULL));
    assert_perft(&p, 0, 1, "three, won");
    assert_perft(&p, 1, 0, "three, won");
    assert_perft(&p, 2, 0, "three, won");
}
END_TEST

START_TEST(test_data_file) {
    int n = vectors_load();
    ck_assert_msg(n > 0, "no vectors read from %s", DATA_FILE);
    for (int i = 0; i < VARIANT_COUNT; i++) {
        int rows = 0;
        for (int k = 0; k < n; k++)
            rows += strcmp(vectors[k].variant, VARIANTS[i].id) == 0;
        ck_assert_msg(rows > 0, "%s has no vector in %s", VARIANTS[i].id, DATA_FILE);
    }
}
END_TEST

START_TEST(test_vector_perft) {
    const Vector *v = &vectors[_i];
    ck_assert_msg(v->ok, "%s line %d does not parse", DATA_FILE, v->line);
    MillRules r;
    Position p;
    Error err = {{0}};
    char what[192];
    snprintf(what, sizeof what, "%s '%s' (line %d)", v->variant, v->fen, v->line);
    rules_for(&r, v->variant);
    ck_assert_msg(pos_set_fen(&p, &r, v->fen, &err), "%s refused: %s", what, err.msg);
    for (int d = 1; d <= 3; d++)
        assert_perft(&p, d, v->perft[d - 1], what);
    // Counting the last ply agrees with listing it.
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    ck_assert_ptr_nonnull(moves);
    int n = movegen_legal(&p, moves);
    free(moves);
    ck_assert_msg((uint64_t)n == v->perft[0], "%s: %d moves listed, want %" PRIu64, what, n,
                  v->perft[0]);
}
END_TEST

START_TEST(test_vector_replay) {
    const Vector *v = &vectors[_i];
    ck_assert_msg(v->ok, "%s line %d does not parse", DATA_FILE, v->line);
    MillRules r;
    Position p, parsed;
    char fen[FEN_MAX], what[192];
    snprintf(what, sizeof what, "%s '%s' (line %d)", v->variant, v->fen, v->line);
    rules_for(&r, v->variant);
    pos_set_start(&p, &r);
    replay(&p, v->moves, what);
    pos_get_fen(&p, fen, sizeof fen);
    ck_assert_msg(strcmp(fen, v->fen) == 0, "%s: the moves reach '%s'", what, fen);
    ck_assert(pos_set_fen(&parsed, &r, v->fen, NULL));
    ck_assert_msg(parsed.key == p.key, "%s: key after the moves differs from the parsed key", what);
}
END_TEST

Suite *perft_suite(void) {
    Suite *s = suite_create("perft");
    int nv = vectors_load();
    TCase *tc = tcase_create("start");
    tcase_set_timeout(tc, PERFT_TIMEOUT);
    tcase_add_loop_test(tc, test_start_perft, 0, NSTARTS);
    tcase_add_test(tc, test_nine_depth_6);
    tcase_add_test(tc, test_nine_after_placements);
    tcase_add_test(tc, test_depth_0);
    suite_add_tcase(s, tc);

    tc = tcase_create("data vectors");
    tcase_set_timeout(tc, PERFT_TIMEOUT);
    tcase_add_test(tc, test_data_file);
    tcase_add_loop_test(tc, test_vector_perft, 0, nv);
    tcase_add_loop_test(tc, test_vector_replay, 0, nv);
    suite_add_tcase(s, tc);
    return s;
}
