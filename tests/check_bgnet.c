// Backgammon evaluation and search: the nets (deterministic, mirror-symmetric, consistent
// probabilities), the bear-off database on hand-computed cases, the expectimax search at
// depths 0 to 2, and the trainer (same seed, same weights).
#include "tests/suites.h"

#include "tests/helpers.h"

#include "engine/backgammon/bearoff.h"
#include "engine/backgammon/eval.h"
#include "engine/backgammon/ids.h"
#include "engine/backgammon/search.h"
#include "tools/bggames.h"
#include "tools/td.h"

#include <stdio.h>
#include <string.h>

// Positions as gnubg Position IDs (player 1 on roll): the start, a middle game, a player on
// the bar, a race, a bear-off.
static const char *const IDS[] = {
    "4HPwATDgc/ABMA", "sNvBATBw38ABMA", "4HPwATDgc/ABUA", "AACAkCRJqqoAAA",
    "2G4bADDOAgAAAA", "tN0dAATb3AMAAA", "AwAAYDsAAAAAAA",
};
#define NIDS (int)(sizeof IDS / sizeof IDS[0])

static BgPosition from_id(const char *id) {
    BgPosition p;
    Error err;
    ck_assert_msg(bg_read_gnubgid(id, &p, &err), "%s: %s", id, err.msg);
    return p;
}

static BgBoard swapped(const BgBoard *b) {
    BgBoard s;
    memcpy(s.c[0], b->c[1], sizeof s.c[0]);
    memcpy(s.c[1], b->c[0], sizeof s.c[1]);
    return s;
}

START_TEST(test_eval_symmetric) {
    BgPosition p = from_id(IDS[_i]);
    BgProbs a, b, c;
    for (int side = 0; side < 2; side++) {
        bg_evaluate(&p.b, side, &a);
        bg_evaluate(&p.b, side, &c);
        BgBoard s = swapped(&p.b);
        bg_evaluate(&s, !side, &b);
        ck_assert(!memcmp(&a, &c, sizeof a)); // deterministic
        ck_assert(!memcmp(&a, &b, sizeof a)); // the same position with the colours swapped
        ck_assert(a.win >= 0 && a.win <= 1);
        ck_assert(a.win_backgammon <= a.win_gammon && a.win_gammon <= a.win);
        ck_assert(a.lose_backgammon <= a.lose_gammon && a.lose_gammon <= 1 - a.win);
    }
}
END_TEST

// The hand features of the inputs (net.h) on the start and after one checker of X moved from
// its 6-point to its 5-point: O's two back checkers hit the blot 4 away with 11 direct rolls,
// 31, 22 and 11 (15 of 36); the back checkers of either side move their full roll on 24 of
// 36 (5s and 7s land on the opponent's points, 55 and 66 are blocked), and they are the worst
// contained of each side's checkers (from the 13-point only 11 and 66 are stopped: 34 of 36),
// so containment is 36 - 24; to pass the opponent's rearmost checker (on one's own 1-point)
// every checker must travel its point less one: 152 pips at the start, X 151 after its move.
// Then X's back checker on the bar: O holds one home point, so X fails to enter on 1 roll; X
// has 152 pips to travel again, and O, whose checkers must all pass the bar, its 167.
START_TEST(test_net_features) {
    BgPosition p;
    bg_set_start(&p);
    float x[BG_NET_INPUTS];
    int active[BG_NET_INPUTS];
    const int F = 100; // the first hand feature after the 96 point units and 4 counts
    for (int move = 0; move < 3; move++) {
        if (move == 1) {
            p.b.c[1][5]--;
            p.b.c[1][4]++;
        }
        if (move == 2) {
            p.b.c[1][23]--;
            p.b.c[1][BG_BAR]++;
        }
        bg_net_inputs(&p.b, 1, x, active);
        for (int s = 0; s < 2; s++) {
            const float *v = x + s * BG_NET_HALF;
            if (move < 2) {
                ck_assert_float_eq_tol(v[F] * 36, s == 0 && move ? 15 : 0, 1e-4);
                ck_assert_float_eq_tol(v[F + 1] * 36, 24, 1e-4);
            }
            ck_assert_float_eq_tol(v[F + 2] * 6, 1, 1e-4);
            ck_assert_float_eq_tol(v[F + 3] * 36, 12, 1e-4);
            int pass = s == 0 ? (move == 1 ? 151 : 152) : (move == 2 ? 167 : 152);
            ck_assert_float_eq_tol(v[F + 4] * 152, pass, 1e-3);
            ck_assert_float_eq_tol(v[F + 5] * 36, s == 0 && move == 2 ? 1 : 0, 1e-4);
        }
    }
}
END_TEST

START_TEST(test_net_io) {
    const BgNets *d = bg_nets_default();
    ck_assert_int_ge(d->net[BG_NET_CONTACT].hidden, 40);
    ck_assert_int_ge(d->net[BG_NET_RACE].hidden, 40);
    ck_assert(d->games > 0);
    BgNets n;
    ck_assert_int_eq(bg_nets_save(d, "bgnet_test.bin"), 0);
    ck_assert_int_eq(bg_nets_load(&n, "bgnet_test.bin"), 0);
    ck_assert_uint_eq(bg_nets_checksum(&n), bg_nets_checksum(d));
    ck_assert_uint_eq(n.games, d->games);
    bg_nets_free(&n);
    remove("bgnet_test.bin");
    unsigned char junk[40] = "TBGN";
    ck_assert_int_eq(bg_nets_read(&n, junk, sizeof junk), -1);
}
END_TEST

// The distribution of position pts (checkers on points 1..6).
static const float *dist_of(int a, int b, int c, int d, int e, int f) {
    int pts[6] = {a, b, c, d, e, f};
    return bg_bearoff_dist(bg_bearoff_index(pts));
}

START_TEST(test_bearoff_cases) {
    const float eps = 1e-6f;
    const float *d = dist_of(1, 0, 0, 0, 0, 0); // one checker on the 1-point: one roll
    ck_assert_float_eq_tol(d[1], 1, eps);
    d = dist_of(2, 0, 0, 0, 0, 0); // two on the 1-point: one roll too
    ck_assert_float_eq_tol(d[1], 1, eps);
    d = dist_of(0, 0, 0, 0, 0, 0);
    ck_assert_float_eq_tol(d[0], 1, eps);
    // One checker on the 6-point stays on after 11, 21, 31, 41 and 32: 9 rolls in 36.
    d = dist_of(0, 0, 0, 0, 0, 1);
    ck_assert_float_eq_tol(d[1], 27.0f / 36, eps);
    ck_assert_float_eq_tol(d[2], 9.0f / 36, eps);
    // Three checkers on the 1-point: only doubles take them all at once.
    d = dist_of(3, 0, 0, 0, 0, 0);
    ck_assert_float_eq_tol(d[1], 6.0f / 36, eps);
    ck_assert_float_eq_tol(d[2], 30.0f / 36, eps);
    // Fifteen on the 1-point: the first checker is off at once.
    int full[6] = {15, 0, 0, 0, 0, 0};
    ck_assert_float_eq_tol(bg_bearoff_gammon_dist(bg_bearoff_index(full))[1], 1, eps);
}
END_TEST

START_TEST(test_bearoff_all) {
    // Every position has its own index and a distribution summing to 1.
    static unsigned char seen[BG_BEAROFF_POSITIONS];
    memset(seen, 0, sizeof seen);
    int p[6], n = 0;
    for (p[0] = 0; p[0] <= 15; p[0]++)
        for (p[1] = 0; p[0] + p[1] <= 15; p[1]++)
            for (p[2] = 0; p[0] + p[1] + p[2] <= 15; p[2]++)
                for (p[3] = 0; p[0] + p[1] + p[2] + p[3] <= 15; p[3]++)
                    for (p[4] = 0; p[0] + p[1] + p[2] + p[3] + p[4] <= 15; p[4]++)
                        for (p[5] = 0; p[0] + p[1] + p[2] + p[3] + p[4] + p[5] <= 15; p[5]++) {
                            int i = bg_bearoff_index(p);
                            EXPECT(i >= 0 && i < BG_BEAROFF_POSITIONS && !seen[i], "index %d", i);
                            seen[i] = 1;
                            double sum = 0;
                            const float *d = bg_bearoff_dist(i);
                            for (int k = 0; k < BG_BEAROFF_ROLLS; k++)
                                sum += d[k];
                            EXPECT(sum > 1 - 1e-5 && sum < 1 + 1e-5, "sum %f at %d", sum, i);
                            n++;
                        }
    ck_assert_int_eq(n, BG_BEAROFF_POSITIONS);
}
END_TEST

START_TEST(test_bearoff_race) {
    // X: two on its 1-point and two on its 2-point; O: two on its 1-point, on roll second.
    // X wins only by taking all four off now: 22, 33, 44, 55, 66, 5 rolls in 36.
    BgBoard b;
    memset(&b, 0, sizeof b);
    b.c[1][0] = 2;
    b.c[1][1] = 2;
    b.c[0][0] = 2;
    BgProbs pr;
    ck_assert(bg_eval_kind(&b) == BG_EVAL_BEAROFF);
    bg_evaluate(&b, 1, &pr);
    ck_assert_double_eq_tol(pr.win, 5.0 / 36, 1e-6);
    ck_assert_double_eq_tol(pr.win_gammon + pr.lose_gammon, 0, 1e-9);
}
END_TEST

START_TEST(test_search_depths) {
    BgPosition p = from_id(IDS[_i]);
    int rolls[3][2] = {{3, 1}, {6, 6}, {5, 2}};
    BgPlayList l;
    bg_plays_init(&l);
    for (int r = 0; r < 3; r++) {
        int n = bg_generate(&p.b, p.turn, rolls[r][0], rolls[r][1], &l);
        for (int d = 0; d <= (r == 0 ? 2 : 1); d++) { // depth 2 takes a second at -O1
            BgSearch s;
            bg_search_init(&s);
            BgProbs best;
            int k = bg_best_play(&s, &p.b, p.turn, &l, d, &best);
            if (n == 0)
                ck_assert_int_eq(k, -1);
            else
                ck_assert(k >= 0 && k < n);
            ck_assert(n == 0 || (best.win >= 0 && best.win <= 1));
            bg_search_free(&s);
        }
    }
    bg_plays_free(&l);
}
END_TEST

START_TEST(test_trainer_deterministic) {
    uint64_t sums[2];
    for (int run = 0; run < 2; run++) {
        BgNets n;
        ck_assert_int_eq(bg_nets_init(&n, 8, 8, 7), 0);
        uint64_t before = bg_nets_checksum(&n);
        for (int g = 0; g < 3; g++)
            ck_assert_int_gt(bg_train_game(&n, &n.rng, 0.1, 0.7), 2);
        sums[run] = bg_nets_checksum(&n);
        ck_assert_uint_ne(sums[run], before);
        bg_nets_free(&n);
    }
    ck_assert_uint_eq(sums[0], sums[1]);
}
END_TEST

// A run saved and resumed after three games ends with the same weights as one that did not
// stop (the file holds the weights, the games and the random state).
START_TEST(test_trainer_resume) {
    BgNets a, b;
    ck_assert_int_eq(bg_nets_init(&a, 8, 8, 5), 0);
    ck_assert_int_eq(bg_nets_init(&b, 8, 8, 5), 0);
    for (int g = 0; g < 6; g++)
        bg_train_game(&a, &a.rng, 0.1, 0.7);
    for (int g = 0; g < 3; g++)
        bg_train_game(&b, &b.rng, 0.1, 0.7);
    ck_assert_int_eq(bg_nets_save(&b, "bgnet_resume.bin"), 0);
    bg_nets_free(&b);
    ck_assert_int_eq(bg_nets_load(&b, "bgnet_resume.bin"), 0);
    remove("bgnet_resume.bin");
    for (int g = 0; g < 3; g++)
        bg_train_game(&b, &b.rng, 0.1, 0.7);
    ck_assert_uint_eq(bg_nets_checksum(&a), bg_nets_checksum(&b));
    ck_assert_uint_eq(a.rng, b.rng);
    bg_nets_free(&a);
    bg_nets_free(&b);
}
END_TEST

START_TEST(test_refine_deterministic) {
    uint64_t sums[2];
    for (int run = 0; run < 2; run++) { // one thread, then three: the same weights
        BgNets n;
        ck_assert_int_eq(bg_nets_init(&n, 8, 8, 11), 0);
        uint64_t before = bg_nets_checksum(&n), rng = n.rng;
        ck_assert_int_gt(bg_refine_game(&n, &n.rng, 0.05, 1 + 2 * run), 2);
        ck_assert_uint_ne(n.rng, rng);
        sums[run] = bg_nets_checksum(&n);
        ck_assert_uint_ne(sums[run], before);
        bg_nets_free(&n);
    }
    ck_assert_uint_eq(sums[0], sums[1]);
}
END_TEST

Suite *bgnet_suite(void) {
    // Build the bear-off database (and load the nets) once here, before the runner forks,
    // so that every test inherits them instead of building them again.
    bg_bearoff_dist(0);
    bg_nets_default();
    Suite *s = suite_create("bgnet");
    TCase *tc = tcase_create("eval");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_eval_symmetric, 0, NIDS);
    tcase_add_test(tc, test_net_io);
    tcase_add_test(tc, test_net_features);
    tcase_add_test(tc, test_bearoff_cases);
    tcase_add_test(tc, test_bearoff_all);
    tcase_add_test(tc, test_bearoff_race);
    suite_add_tcase(s, tc);
    tc = tcase_create("search");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_search_depths, 0, 3);
    tcase_add_test(tc, test_trainer_deterministic);
    tcase_add_test(tc, test_trainer_resume);
    tcase_add_test(tc, test_refine_deterministic);
    suite_add_tcase(s, tc);
    return s;
}
