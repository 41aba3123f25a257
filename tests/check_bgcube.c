// The backgammon cube: Janowski's money cube (engine/backgammon/cube.h) and the match equity
// table and match cube (engine/backgammon/met.h), against hand-checked values.
#include "tests/harness.h"
#include "tests/suites.h"

#include "engine/backgammon/cube.h"
#include "engine/backgammon/game.h"
#include "engine/backgammon/met.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

// Janowski money cube (cube.h), hand-checked. No gammons (W = L = 1), x = 0.68: the taker
// owning the cube has equity -1 + 2.34 q per unit, so doubled to 2 it takes from q = 1 / 4.68
// = 21.4% (a dead cube, x = 0: 25%).
static BgProbs no_gammons(double win) {
    BgProbs p = {win, 0, 0, 0, 0};
    return p;
}

START_TEST(test_cube_take_point) {
    // The doubler's chances are 1 - q.
    BgCubeDecision d = bg_cube_decide(&(BgProbs){0.78, 0, 0, 0, 0}, true, false, 0.68);
    ck_assert(d.should_take); // q = 22%
    d = bg_cube_decide(&(BgProbs){0.79, 0, 0, 0, 0}, true, false, 0.68);
    ck_assert(!d.should_take); // q = 21%
    BgProbs at = no_gammons(1 - 0.5 / 2.34);
    ck_assert_double_eq_tol(bg_cube_decide(&at, true, false, 0.68).double_take, 1.0, 1e-9);
    // Dead cube: exactly 25%.
    at = no_gammons(0.75);
    ck_assert_double_eq_tol(bg_cube_decide(&at, true, false, 0.0).double_take, 1.0, 1e-9);
    // Cubeful equities at the ends: owning the cube at p = 0 loses 1, cashes at p >= 0.8.
    BgProbs zero = no_gammons(0), cash = no_gammons(0.8);
    ck_assert_double_eq_tol(bg_cubeful_money(&zero, BG_CUBE_MINE, false, 0.68), -1, 1e-9);
    ck_assert_double_eq_tol(bg_cubeful_money(&cash, BG_CUBE_MINE, false, 1.0), 1, 1e-9);
}
END_TEST

START_TEST(test_cube_doubling_window) {
    // No gammons, centred cube, x = 0.68: 50% is no double; 70% doubles (and is a take);
    // 85% doubles and is a pass.
    BgCubeDecision d = bg_cube_decide(&(BgProbs){0.50, 0, 0, 0, 0}, true, false, 0.68);
    ck_assert(!d.should_double);
    d = bg_cube_decide(&(BgProbs){0.70, 0, 0, 0, 0}, true, false, 0.68);
    ck_assert(d.should_double && d.should_take);
    d = bg_cube_decide(&(BgProbs){0.85, 0, 0, 0, 0}, true, false, 0.68);
    ck_assert(d.should_double && !d.should_take);
    // Too good: 85% wins with 60% gammons, the opponent passes; playing on is worth more than
    // the point (Jacoby off).
    d = bg_cube_decide(&(BgProbs){0.85, 0.60, 0, 0, 0}, true, false, 0.68);
    ck_assert(!d.should_double && !d.should_take);
    // With the Jacoby rule and a centred cube the same position doubles out.
    d = bg_cube_decide(&(BgProbs){0.85, 0.60, 0, 0, 0}, true, true, 0.68);
    ck_assert(d.should_double);
}
END_TEST

// The Jacoby rule, worked by hand: gnubg 1.07's 2-ply cubeless probabilities of the money
// position 4Jx4gDHg88jBAA (cube centred), 57.0% wins with 20.5% gammons against 9.6%. W =
// 1.3851, L = 1.2306, TP = 0.7306 / 3.1157 = 0.2345, CP = 2.2306 / 3.1157 = 0.7159. No double:
// the live part keeps the gammons (the cube is turned before they count), -1 + 2 (q - TP) /
// (CP - TP) = 0.3937; the dead part counts them single, 2q - 1 = 0.1406; 0.68 x 0.3937 + 0.32 x
// 0.1406 = 0.3136. Double/take: 2 (0.68 x 0.0455 + 0.32 x 0.2598) = 0.2300. No double, take
// (gnubg's cubeful 2-ply answer: no double +0.323, double/take +0.230). Counting the gammons
// single in the live part too would give no double 0.2043 and a wrong double.
START_TEST(test_cube_jacoby_gammons) {
    BgProbs p = {0.5703, 0.2054, 0.0142, 0.0959, 0.0032};
    BgCubeDecision d = bg_cube_decide(&p, true, true, 0.68);
    ck_assert_double_eq_tol(d.no_double, 0.3136, 5e-4);
    ck_assert_double_eq_tol(d.double_take, 0.2300, 5e-4);
    ck_assert(!d.should_double && d.should_take);
    ck_assert(!bg_cube_decide(&p, true, true, BG_MONEY_CUBE_EFFICIENCY).should_double);
    // Jacoby off: the dead part keeps the gammons too, and no double is worth more.
    BgCubeDecision off = bg_cube_decide(&p, true, false, 0.68);
    ck_assert(off.no_double > d.no_double && !off.should_double);
    // Owning the cube, the rule does not apply: the same with or without it.
    ck_assert_double_eq_tol(bg_cube_decide(&p, false, true, 0.68).no_double,
                            bg_cube_decide(&p, false, false, 0.68).no_double, 1e-12);
}
END_TEST

// tabula's match equity table (met.h), hand-checked with g = BG_MET_GAMMON.
START_TEST(test_met_facts) {
    double g = BG_MET_GAMMON;
    ck_assert_double_eq_tol(bg_met(1, 1, false), 0.5, 1e-12); // DMP
    ck_assert_double_eq_tol(bg_met(1, 1, true), 0.5, 1e-12);
    // The Crawford game at 1-away 2-away: the trailer needs a gammon, or a single win and DMP.
    ck_assert_double_eq_tol(bg_met(2, 1, false), 0.5 * ((1 - g) * 0.5 + g), 1e-9);
    // Post-Crawford 2-away: the trailer doubles at once; take or (free) drop, 50%.
    ck_assert_double_eq_tol(bg_met(2, 1, true), 0.5, 1e-9);
    // Post-Crawford 3-away: the leader takes: a win leaves DMP, a gammon wins.
    ck_assert_double_eq_tol(bg_met(3, 1, true), 0.5 * ((1 - g) * 0.5 + g), 1e-9);
    for (int a = 1; a <= 12; a++)
        for (int b = 1; b <= 12; b++) {
            double m = bg_met(a, b, false);
            ck_assert_double_eq_tol(m + bg_met(b, a, false), 1, 1e-6); // symmetric
            ck_assert(m > 0 && m < 1);
            if (a == b)
                ck_assert_double_eq_tol(m, 0.5, 1e-6);
            ck_assert(bg_met(a + 1, b, false) <= m + 1e-9); // further away: worse
            ck_assert(bg_met(a, b + 1, false) >= m - 1e-9);
        }
}
END_TEST

// A match position before the roll, turn = 1 at da away against dt away.
static BgPosition match_pos(int length, int da, int dt, bool crawford) {
    BgPosition p;
    bg_set_start(&p);
    p.jacoby = false;
    p.length = length;
    p.score[1] = length - da;
    p.score[0] = length - dt;
    p.crawford = crawford;
    return p;
}

// The taker's take point (its chance to win) when the player 'da' away doubles one 'dt' away.
static double take_point(int da, int dt, double gammon_share) {
    BgPosition p = match_pos(9, da, dt, false);
    double lo = 0, hi = 1;
    for (int i = 0; i < 40; i++) {
        double q = (lo + hi) / 2;
        BgProbs pr = {q, q * gammon_share, 0, 0, 0};
        if (bg_match_cube_decide(&p, &pr, BG_CUBE_EFFICIENCY).should_take)
            lo = q;
        else
            hi = q;
    }
    return 1 - lo;
}

START_TEST(test_match_take_points) {
    // Sane (between 15% and 35%) at a few scores, and the take decision is monotone in the
    // taker's chances: once a take, a take for every better position.
    static const int SCORES[][2] = {{2, 4}, {3, 5}, {4, 4}, {5, 7}, {7, 7}};
    for (size_t k = 0; k < sizeof SCORES / sizeof SCORES[0]; k++) {
        double tp = take_point(SCORES[k][0], SCORES[k][1], 0);
        ck_assert_msg(tp > 0.15 && tp < 0.35, "%d-away doubles %d-away: take point %.3f",
                      SCORES[k][0], SCORES[k][1], tp);
        BgPosition p = match_pos(9, SCORES[k][0], SCORES[k][1], false);
        bool taken = false;
        for (int i = 100; i >= 0; i--) { // the doubler's chances going down
            BgProbs pr = {i / 100.0, 0, 0, 0, 0};
            bool t = bg_match_cube_decide(&p, &pr, BG_CUBE_EFFICIENCY).should_take;
            ck_assert(!taken || t);
            taken = t;
        }
        // The doubler's gammons make the take harder.
        ck_assert(take_point(SCORES[k][0], SCORES[k][1], 0.3) >= tp - 1e-6);
    }
    // 2-away 2-away: the cube is dead once turned, so the take point is the Crawford equity of
    // the trailer, 1/2 ((1 - g) / 2 + g).
    ck_assert_double_eq_tol(take_point(2, 2, 0), 0.5 * ((1 - BG_MET_GAMMON) * 0.5 + BG_MET_GAMMON),
                            2e-3);
}
END_TEST

START_TEST(test_match_crawford_cube) {
    BgProbs strong = {0.85, 0.2, 0, 0.02, 0}, even = {0.5, 0.13, 0, 0.13, 0};
    // The Crawford game: no doubling, whatever the chances.
    BgPosition p = match_pos(5, 4, 1, true);
    ck_assert(!bg_match_cube_decide(&p, &strong, BG_CUBE_EFFICIENCY).should_double);
    ck_assert(!bg_can_double(&p));
    // Post-Crawford: the trailer doubles at once, the leader never.
    p = match_pos(5, 4, 1, false);
    ck_assert(bg_match_cube_decide(&p, &even, BG_CUBE_EFFICIENCY).should_double);
    p = match_pos(5, 1, 4, false);
    ck_assert(!bg_match_cube_decide(&p, &strong, BG_CUBE_EFFICIENCY).should_double);
    // An even position early in a long match: no double; a strong one: double.
    p = match_pos(9, 7, 7, false);
    ck_assert(!bg_match_cube_decide(&p, &even, BG_CUBE_EFFICIENCY).should_double);
    BgProbs good = {0.72, 0.1, 0, 0.03, 0};
    ck_assert(bg_match_cube_decide(&p, &good, BG_CUBE_EFFICIENCY).should_double);
}
END_TEST

// The info line of a cube decision gives the three equities, and bestmove follows them: a
// double when the smaller of double/take and double/pass beats no double; a drop is worth
// exactly one cube. The taker's line gives take and pass from its side.
START_TEST(test_cube_info) {
    Proto *e = proto_open();
    proto_send(e, "setoption name UCI_Variant value backgammon");
    // The Jacoby position above (no double), the start, and one tabula doubles at 0 ply.
    static const char *const IDS[] = {"4Jx4gDHg88jBAA", "4HPwATDgc/ABMA", "4PPgAUEzbuABMA"};
    int doubles = 0;
    for (int i = 0; i < 3; i++) {
        char line[96];
        snprintf(line, sizeof line, "position gnubgid %s", IDS[i]);
        proto_send(e, line);
        proto_send(e, "go nodes 1");
        const char *out = proto_wait_bestmove(e);
        double nd, dt, dp;
        const char *c = strstr(out, " cube nodouble ");
        ck_assert_msg(
            c && sscanf(c, " cube nodouble %lf doubletake %lf doublepass %lf", &nd, &dt, &dp) == 3,
            "%s", out);
        ck_assert_double_eq(dp, 1.0);
        bool dbl = (dt < dp ? dt : dp) > nd;
        doubles += dbl;
        ck_assert_msg(strstr(out, dbl ? "bestmove double" : "bestmove roll"), "%s", out);
        snprintf(line, sizeof line, "position gnubgid %s moves double", IDS[i]);
        proto_send(e, line);
        proto_send(e, "go nodes 1");
        out = proto_wait_bestmove(e);
        double take, pass;
        c = strstr(out, " cube take ");
        ck_assert_msg(c && sscanf(c, " cube take %lf pass %lf", &take, &pass) == 2, "%s", out);
        ck_assert_double_eq(pass, -1.0);
        ck_assert_double_eq_tol(take, -dt, 1e-4);
        ck_assert_msg(strstr(out, take >= pass ? "bestmove take" : "bestmove drop"), "%s", out);
    }
    ck_assert_int_eq(doubles, 1);
    proto_close(e);
}
END_TEST

// Add the cube test cases to the backgammon suite.
void backgammon_cube_cases(Suite *s) {
    TCase *tc = tcase_create("cube");
    tcase_add_test(tc, test_cube_take_point);
    tcase_add_test(tc, test_cube_doubling_window);
    tcase_add_test(tc, test_cube_jacoby_gammons);
    tcase_add_test(tc, test_cube_info);
    tcase_add_test(tc, test_met_facts);
    tcase_add_test(tc, test_match_take_points);
    tcase_add_test(tc, test_match_crawford_cube);
    suite_add_tcase(s, tc);
}
