// Match statistics (match/stats.c) against values computed independently.
//
// How the expected values were obtained: the round ones by hand (shown next to the row); the
// others with a separate Python 3 script (standard library only) written for this test, not
// derived from the C code:
//   elo(s)   = -400 * math.log10(1 / s - 1)
//   interval: counts -> pdf [(i / (len - 1), count_i / n)], s = sum v p, var = sum p (v - s)^2,
//             h = 1.959963984540054 * math.sqrt(var / n), elo(max(0, s - h)), elo(min(1, s + h))
//   LOS      = 0.5 * (1 + math.erf((w - l) / math.sqrt(2 * (w + l))))
//   llr      = the exact GSPRT: zero counts -> 1e-3, f = counts / sum, values v_k = k / k_max,
//              s0, s1 = L_(elo0), L_(elo1) with L_(x) = 1 / (1 + 10 ** (-x / 400)); for each s
//              the multinomial p_k = f_k / (1 + lam (v_k - s)) with lam found by 300 bisection
//              steps on sum f_k (v_k - s) / (1 + lam (v_k - s)) = 0, renormalised; llr =
//              sum counts_k log(p1_k / p0_k)
//   bounds   = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
// Values are quoted to 6 significant digits or more and compared with a tolerance.
#include "match/stats.h"
#include "tests/suites.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define TOL 1e-4
#define NONE                                                                                       \
    { 0, 0, 0, 0, 0 }

// Check that got equals want within TOL, or is the same infinity.
static bool near(double got, double want) {
    if (isinf(want))
        return got == want;
    return !isnan(got) && fabs(got - want) < TOL;
}

#define ASSERT_NEAR(got, want, row)                                                                \
    ck_assert_msg(near((got), (want)), "row %d: %s = %.9g, want %.9g", (row), #got, (got), (want))

typedef struct ScoreCase {
    MatchCounts c;
    double score, draw_ratio, elo;
} ScoreCase;

// clang-format off
static const ScoreCase SCORE_CASES[] = {
    {{60,  0, 40, NONE}, 0.6, 0.0, 70.4365036},   // the classic 60% -> +70.4
    {{45, 30, 25, NONE}, 0.6, 0.3, 70.4365036},   // by hand: (45 + 15) / 100
    {{30, 40, 30, NONE}, 0.5, 0.4, 0.0},          // by hand: even score
    {{ 1,  2,  0, NONE}, 2.0 / 3, 2.0 / 3, 120.411998},
    {{10,  0,  0, NONE}, 1.0, 0.0, INFINITY},     // all wins saturate
    {{ 0,  0, 10, NONE}, 0.0, 0.0, -INFINITY},    // all losses saturate
    {{ 0, 10,  0, NONE}, 0.5, 1.0, 0.0},          // all draws
    {{ 0,  0,  0, NONE}, 0.5, 0.0, 0.0},          // no games: defined as even
};
// clang-format on

// Score, draw ratio and Elo from w/d/l.
START_TEST(test_score) {
    const ScoreCase *t = &SCORE_CASES[_i];
    ASSERT_NEAR(stats_score(&t->c), t->score, _i);
    ASSERT_NEAR(stats_draw_ratio(&t->c), t->draw_ratio, _i);
    ASSERT_NEAR(stats_elo(stats_score(&t->c)), t->elo, _i);
}
END_TEST

typedef struct EloCase {
    double score, elo;
} EloCase;

// clang-format off
static const EloCase ELO_CASES[] = {
    {0.6,   70.4365036},
    {0.75,  190.848502},   // by hand: -400 log10(1/3) = 400 * 0.4771213
    {0.25, -190.848502},
    {0.1,  -381.697004},
    {0.99,  798.254078},
    {0.5,   0.0},
    {0.0,  -INFINITY},
    {1.0,   INFINITY},
};
// clang-format on

// Elo of a score, and back to the score where it is finite.
START_TEST(test_elo) {
    const EloCase *t = &ELO_CASES[_i];
    double elo = stats_elo(t->score);
    ASSERT_NEAR(elo, t->elo, _i);
    if (isfinite(elo))
        ASSERT_NEAR(stats_score_of_elo(elo), t->score, _i);
}
END_TEST

typedef struct IntervalCase {
    MatchCounts c;
    StatsModel model;
    int n;
    double score, elo, lo, hi; // lo and hi only when known
    bool known;
} IntervalCase;

#define TRI STATS_TRINOMIAL
#define PENTA STATS_PENTANOMIAL
#define INF INFINITY
#define UNKNOWN 0, 0, false

// clang-format off
static const IntervalCase INTERVAL_CASES[] = {
    // A normal mix: the numbers of the formulas, trinomial without pairs, pentanomial with.
    {{60,  0,  40, NONE},                TRI,   100,  0.6,   70.4365036,  2.76687322,  143.909233, true},
    {{45, 30,  25, NONE},                TRI,   100,  0.6,   70.4365036,  14.1734220,  130.635605, true},
    {{30, 40,  30, {5, 10, 20, 10, 5}},  PENTA, 50,   0.5,   0.0,        -53.1579798,  53.1579798, true},
    {{28, 50,  22, {2, 8, 25, 10, 5}},   PENTA, 50,   0.54,  27.8543713, -17.7585322,  74.4518370, true},
    {{520, 1000, 480, {60, 240, 400, 220, 80}},
                                         PENTA, 1000, 0.505, 3.47447167, -7.39870886,  14.3544643, true},
    // One win, one loss: the interval of the score crosses both ends.
    {{ 1,  0,   1, NONE},                TRI,   2,    0.5,   0.0,        -INF,         INF,        true},
    // No game, one game: no interval.
    {{ 0,  0,   0, NONE},                TRI,   0,    0.5,   0.0,        UNKNOWN},
    {{ 1,  0,   0, NONE},                TRI,   1,    1.0,   INF,        UNKNOWN},
    {{ 0,  1,   0, NONE},                TRI,   1,    0.5,   0.0,        UNKNOWN},
    {{ 0,  0,   1, NONE},                TRI,   1,    0.0,  -INF,        UNKNOWN},
    // Every game alike: no spread seen, no interval.
    {{ 0, 10,   0, NONE},                TRI,   10,   0.5,   0.0,        UNKNOWN},
    {{10,  0,   0, NONE},                TRI,   10,   1.0,   INF,        UNKNOWN},
    // One pair of each score: too few pairs, so the games decide (by hand for 0, 1 and 2;
    // 0.5 and 1.5: s = 1/4, 3/4, v = 1/16, h = z sqrt(1/32) = 0.346479).
    {{ 0,  0,   2, {1, 0, 0, 0, 0}},     TRI,   2,    0.0,  -INF,        UNKNOWN},
    {{ 0,  1,   1, {0, 1, 0, 0, 0}},     TRI,   2,    0.25, -190.848502, -INF,         67.8894099, true},
    {{ 1,  0,   1, {0, 0, 1, 0, 0}},     TRI,   2,    0.5,   0.0,        -INF,         INF,        true},
    {{ 0,  2,   0, {0, 0, 1, 0, 0}},     TRI,   2,    0.5,   0.0,        UNKNOWN},
    {{ 1,  1,   0, {0, 0, 0, 1, 0}},     TRI,   2,    0.75,  190.848502, -67.8894099,  INF,        true},
    {{ 2,  0,   0, {0, 0, 0, 0, 1}},     TRI,   2,    1.0,   INF,        UNKNOWN},
    // All pairs alike: the pairs have no spread, the games may.
    {{ 5,  0,   5, {0, 0, 5, 0, 0}},     TRI,   10,   0.5,   0.0,        -251.77691,   251.77691,  true},
    {{ 6,  0,   5, {0, 0, 5, 0, 0}},     TRI,   11,   6.0 / 11, 31.6724984, -189.736297, 287.684934, true},
    {{ 0, 10,   0, {0, 0, 5, 0, 0}},     TRI,   10,   0.5,   0.0,        UNKNOWN},
    {{10,  0,   0, {0, 0, 0, 0, 5}},     TRI,   10,   1.0,   INF,        UNKNOWN},
};
// clang-format on

// The Elo estimate and its 95% interval, pentanomial when the pairs have a spread, else
// trinomial when the games have one, else unknown and printed as such.
START_TEST(test_interval) {
    const IntervalCase *t = &INTERVAL_CASES[_i];
    EloEstimate e = stats_elo_estimate(&t->c);
    ck_assert_int_eq(e.model, t->model);
    ck_assert_int_eq(e.n, t->n);
    ASSERT_NEAR(e.score, t->score, _i);
    ASSERT_NEAR(e.elo, t->elo, _i);
    ck_assert_msg(e.known == t->known, "row %d: known %d", _i, e.known);
    char buf[80];
    stats_format_interval(buf, sizeof buf, &e);
    if (t->known) {
        ASSERT_NEAR(e.lo, t->lo, _i);
        ASSERT_NEAR(e.hi, t->hi, _i);
        ck_assert_msg(strcmp(buf, "[unknown]") && buf[0] == '[', "row %d: %s", _i, buf);
    } else {
        ck_assert_str_eq(buf, "[unknown]");
    }
    // Never a point: an interval, when there is one, is wider than nothing.
    ck_assert_msg(!e.known || e.lo < e.hi, "row %d: [%g, %g]", _i, e.lo, e.hi);
}
END_TEST

typedef struct LosCase {
    int w, l;
    double los;
} LosCase;

// clang-format off
static const LosCase LOS_CASES[] = {
    {60,   40,  0.977249868},   // erf(1): Phi(2) = 0.97725
    {40,   60,  0.0227501319},
    {5,    0,   0.987326341},
    {0,    1,   0.158655254},   // Phi(-1)
    {1000, 900, 0.989109269},
    {50,   50,  0.5},
    {0,    0,   NAN},           // no decisive game: undefined
};
// clang-format on

// The likelihood of superiority; draws do not enter it.
START_TEST(test_los) {
    const LosCase *t = &LOS_CASES[_i];
    MatchCounts c = {t->w, 17, t->l, NONE};
    if (isnan(t->los))
        ck_assert_msg(isnan(stats_los(&c)), "row %d: LOS %g", _i, stats_los(&c));
    else
        ASSERT_NEAR(stats_los(&c), t->los, _i);
}
END_TEST

typedef struct VarCase {
    MatchCounts c;
    double tri, penta;
} VarCase;

// clang-format off
static const VarCase VAR_CASES[] = {
    // by hand: mean 0.5, (5 * 0.25 + 10 * 0.0625 + 10 * 0.0625 + 5 * 0.25) / 50 = 0.075;
    // trinomial (30 * 0.25 + 30 * 0.25) / 100 = 0.15
    {{30, 40, 30, {5, 10, 20, 10, 5}},          0.15,  0.075},
    {{28, 50, 22, {2, 8, 25, 10, 5}},           0.1241, 0.0559},
    {{520, 1000, 480, {60, 240, 400, 220, 80}}, 0.1249, 0.063725},
    {{60, 0, 40, NONE},                         0.24,  0.0},    // by hand: 0.6 * 0.4
    {{1, 0, 1, {1, 0, 0, 0, 1}},                0.25,  0.25},   // by hand: 0 and 1 points
    {{1, 0, 1, {0, 0, 1, 0, 0}},                0.25,  0.0},    // one pair: no spread
    {{0, 0, 0, NONE},                           0.0,   0.0},
};
// clang-format on

// The trinomial variance per game and the pentanomial variance per pair.
START_TEST(test_variance) {
    const VarCase *t = &VAR_CASES[_i];
    ASSERT_NEAR(stats_trinomial_var(&t->c), t->tri, _i);
    ASSERT_NEAR(stats_pentanomial_var(&t->c), t->penta, _i);
}
END_TEST

typedef struct SprtCase {
    MatchCounts c;
    SprtParams p;
    double llr;
    SprtDecision decision;
} SprtCase;

#define STD_SPRT                                                                                   \
    { 0, 5, 0.05, 0.05 }
#define CONT SPRT_CONTINUE
#define H0 SPRT_ACCEPT_H0
#define H1 SPRT_ACCEPT_H1

// clang-format off
static const SprtCase SPRT_CASES[] = {
    // Bounds +-2.944439 for alpha = beta = 0.05.
    {{600, 0, 400, NONE},              STD_SPRT, 2.77468492,  CONT},
    {{700, 0, 300, NONE},              STD_SPRT, 5.65291917,  H1},
    {{1040, 2000, 960, NONE},          STD_SPRT, 1.47446394,  CONT},
    {{2000, 5000, 2100, NONE},         STD_SPRT, -5.2836471,  H0},
    {{520, 1000, 480, {60, 240, 400, 220, 80}},
                                       STD_SPRT, 0.158542809, CONT},
    {{5100, 10000, 4900, {600, 2400, 4000, 2200, 800}},
                                       STD_SPRT, 1.58542809,  CONT},
    {{0, 0, 0, {500, 2300, 4000, 2400, 800}},
                                       STD_SPRT, 16.2551131,  H1},
    {{0, 0, 0, {800, 2400, 4000, 2200, 500}},
                                       STD_SPRT, -27.4866082, H0},
    // Bounds -2.251292 and 2.890372 for alpha = 0.05, beta = 0.1.
    {{600, 0, 400, NONE},              {0, 5, 0.05, 0.1}, 2.77468492, CONT},
    {{700, 0, 300, NONE},              {0, 5, 0.05, 0.1}, 5.65291917, H1},
    {{260, 500, 240, {30, 120, 200, 110, 40}},
                                       {-3, 1, 0.05, 0.1}, 0.291296979, CONT},
    {{260, 500, 240, {30, 120, 200, 110, 40}},
                                       {0, 0, 0.05, 0.05}, 0.0,        CONT},
    // Edge cases, kept finite by the 1e-3 regularisation of zero counts; a lopsided or tiny
    // sample moves the llr by about log(s1 / s0) per game, not by thousands.
    {{0, 100, 0, NONE},                STD_SPRT, -1.44190616, CONT},
    {{100, 0, 0, NONE},                STD_SPRT, 1.42876056,  CONT},
    {{0, 0, 100, NONE},                STD_SPRT, -1.4494708,  CONT},
    {{1, 0, 0, NONE},                  STD_SPRT, 0.0142873714, CONT},
    {{1, 1, 0, {0, 0, 0, 1, 0}},       STD_SPRT, 0.0143010684, CONT},
    {{2, 0, 0, {0, 0, 0, 0, 1}},       STD_SPRT, 0.0143158494, CONT},
    {{0, 0, 0, NONE},                  STD_SPRT, 0.0,         CONT},
};
// clang-format on

// The llr against the independent computation, and the decision against the bounds.
START_TEST(test_sprt) {
    const SprtCase *t = &SPRT_CASES[_i];
    SprtResult r = stats_sprt(&t->c, &t->p);
    double tol = fmax(TOL, 1e-6 * fabs(t->llr));
    ck_assert_msg(fabs(r.llr - t->llr) < tol, "row %d: llr %.9g, want %.9g", _i, r.llr, t->llr);
    ck_assert_msg(r.decision == t->decision, "row %d: %s, want %s", _i, stats_sprt_name(r.decision),
                  stats_sprt_name(t->decision));
}
END_TEST

// The bounds of Wald's test and the decision at and around them.
START_TEST(test_sprt_bounds) {
    double lower, upper;
    stats_sprt_bounds(0.05, 0.05, &lower, &upper);
    ASSERT_NEAR(lower, -2.94443898, 0);
    ASSERT_NEAR(upper, 2.94443898, 0);
    stats_sprt_bounds(0.05, 0.1, &lower, &upper);
    ASSERT_NEAR(lower, -2.2512918, 1);
    ASSERT_NEAR(upper, 2.89037176, 1);
    ck_assert_int_eq(stats_sprt_decide(upper, lower, upper), SPRT_ACCEPT_H1);
    ck_assert_int_eq(stats_sprt_decide(lower, lower, upper), SPRT_ACCEPT_H0);
    ck_assert_int_eq(stats_sprt_decide(0.0, lower, upper), SPRT_CONTINUE);
    ck_assert_str_eq(stats_sprt_name(SPRT_ACCEPT_H0), "H0");
    ck_assert_str_eq(stats_sprt_name(SPRT_ACCEPT_H1), "H1");
    ck_assert_str_eq(stats_sprt_name(SPRT_CONTINUE), "continue");
}
END_TEST

// Elo values as text: saturation is "+inf"/"-inf", zero is never "-0.0".
START_TEST(test_format) {
    char buf[32];
    stats_format_elo(buf, sizeof buf, stats_elo(0.6));
    ck_assert_str_eq(buf, "+70.4");
    stats_format_elo(buf, sizeof buf, stats_elo(0.25));
    ck_assert_str_eq(buf, "-190.8");
    stats_format_elo(buf, sizeof buf, stats_elo(0.5)); // -400 log10(1) is -0.0
    ck_assert_str_eq(buf, "+0.0");
    stats_format_elo(buf, sizeof buf, -0.01);
    ck_assert_str_eq(buf, "+0.0");
    stats_format_elo(buf, sizeof buf, stats_elo(1.0));
    ck_assert_str_eq(buf, "+inf");
    stats_format_elo(buf, sizeof buf, stats_elo(0.0));
    ck_assert_str_eq(buf, "-inf");
    stats_format_elo(buf, sizeof buf, NAN);
    ck_assert_str_eq(buf, "n/a");
}
END_TEST

// Every small count set, with and without pairs: no NaN anywhere, a finite llr, a LOS in
// [0, 1] or undefined exactly without decisive games, a known interval that holds the estimate
// and is not a point.
START_TEST(test_no_nan) {
    SprtParams p = STD_SPRT;
    for (int w = 0; w <= 3; w++)
        for (int d = 0; d <= 3; d++)
            for (int l = 0; l <= 3; l++)
                for (int mask = 0; mask < 32; mask++) {
                    MatchCounts c = {w, d, l, NONE};
                    for (int k = 0; k < 5; k++)
                        c.penta[k] = (mask >> k) & 1;
                    EloEstimate e = stats_elo_estimate(&c);
                    SprtResult r = stats_sprt(&c, &p);
                    double los = stats_los(&c);
                    ck_assert_msg(!isnan(e.elo) && !isnan(e.lo) && !isnan(e.hi) && e.lo <= e.elo &&
                                      e.elo <= e.hi && (!e.known || e.lo < e.hi),
                                  "%d/%d/%d pairs %d: %g [%g, %g]", w, d, l, mask, e.elo, e.lo,
                                  e.hi);
                    ck_assert_msg(isfinite(r.llr), "%d/%d/%d pairs %d: llr %g", w, d, l, mask,
                                  r.llr);
                    ck_assert(w + l == 0 ? isnan(los) : los >= 0.0 && los <= 1.0);
                    ck_assert(!isnan(stats_score(&c)) && !isnan(stats_draw_ratio(&c)));
                    ck_assert(!isnan(stats_trinomial_var(&c)));
                    ck_assert(!isnan(stats_pentanomial_var(&c)));
                }
}
END_TEST

#define COUNT(a) (int)(sizeof(a) / sizeof(a)[0])

Suite *stats_suite(void) {
    Suite *s = suite_create("stats");
    TCase *tc = tcase_create("match statistics");
    tcase_set_timeout(tc, 10);
    tcase_add_loop_test(tc, test_score, 0, COUNT(SCORE_CASES));
    tcase_add_loop_test(tc, test_elo, 0, COUNT(ELO_CASES));
    tcase_add_loop_test(tc, test_interval, 0, COUNT(INTERVAL_CASES));
    tcase_add_loop_test(tc, test_los, 0, COUNT(LOS_CASES));
    tcase_add_loop_test(tc, test_variance, 0, COUNT(VAR_CASES));
    tcase_add_loop_test(tc, test_sprt, 0, COUNT(SPRT_CASES));
    tcase_add_test(tc, test_sprt_bounds);
    tcase_add_test(tc, test_format);
    tcase_add_test(tc, test_no_nan);
    suite_add_tcase(s, tc);
    return s;
}
