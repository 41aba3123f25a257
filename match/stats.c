// Match statistics. Notation: w, d, l games won, drawn, lost by the first engine, N = w + d + l;
// penta[k] pairs in which it scored k/2 points, P = sum of penta.
//
// Score and Elo (logistic Elo model, as in the Elo rating system and fishtest's L_):
//   s = (w + d/2) / N,  E(elo) = 1 / (1 + 10^(-elo/400)),  elo(s) = -400 log10(1/s - 1),
//   saturating to -inf at s = 0 and +inf at s = 1.
// Variance of the score (the empirical distribution, divided by N as fishtest's stats() does):
//   trinomial, per game, values 0, 1/2, 1:  v3 = (w (1-s)^2 + d (1/2-s)^2 + l s^2) / N;
//   pentanomial, per pair, each pair scored as its mean per game, values k/4:
//     sp = sum penta[k] k/4 / P,  v5 = sum penta[k] (k/4 - sp)^2 / P.
//   Pairs share an opening, so v5 / P is the honest variance of the mean when openings are
//   biased; the trinomial v3 / N treats the games as independent.
// 95% interval (normal approximation of the mean score): s +- z sqrt(v / n), z = 1.95996...,
//   with n = N (trinomial) or P (pentanomial), clamped to [0, 1] and mapped through elo(s).
//   The pentanomial model needs P >= 2 and v5 > 0, else the trinomial one is used; it needs
//   N >= 2 and v3 > 0, else the interval is unknown. An empirical variance of 0 (one sample, or
//   every sample alike: all pairs 1-1, all games won) says only that no spread has been seen
//   yet; taken at its word it would give a point interval such as [+0.0, +0.0].
// LOS, likelihood of superiority (normal approximation of the trinomial with the draws removed,
//   via the error function, as on the Chess Programming Wiki "Match Statistics" page):
//   LOS = 1/2 (1 + erf((w - l) / sqrt(2 (w + l)))), undefined (NaN) when w + l = 0.
// SPRT (Wald's sequential probability ratio test) of H0: elo = elo0 against H1: elo = elo1,
//   s0 = E(elo0), s1 = E(elo1), as a generalised SPRT (GSPRT, M. Van den Bergh,
//   hardy.uhasselt.be/Fishtest/GSPRT_approximation.pdf): the outcomes are a multinomial with
//   values v_k = k / k_max (the pentanomial pairs when there are any, else the trinomial
//   games), H0 and H1 are the multinomials of largest likelihood with mean s0 and s1, and
//     LLR = sum_k n_k log(p1_k / p0_k).
//   The constrained maximum-likelihood multinomial of mean s is p_k = f_k / (1 + lambda (v_k -
//   s)), f the empirical frequencies, lambda the root of sum_k f_k (v_k - s) / (1 + lambda (v_k
//   - s)) = 0 (decreasing in lambda, found by bisection). As in fishtest's regularize(), a zero
//   count is replaced by 1e-3 so that every mean in (0, 1) is reachable. This exact form and
//   the approximation n (s1 - s0) (2 s - s0 - s1) / (2 v) that fishtest also offers agree on
//   large samples; on small or lopsided ones the approximation explodes (one won game gives
//   2.9, a hundred give 28574), which would stop a match after a game or two, so the exact
//   form is used. Bounds: accept H0 when LLR <= log(beta / (1 - alpha)), H1 when LLR >=
//   log((1 - beta) / alpha).
// Unlike fishtest, no games at all give LLR = 0 (fishtest gives -5e-7 from the 1e-3 prior alone).
#include "match/stats.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>

// The count that stands in for a zero in the SPRT (fishtest's regularize()).
#define REGULARIZE_EPS 1e-3

int stats_games(const MatchCounts *c) { return c->w + c->d + c->l; }

int stats_pairs(const MatchCounts *c) {
    int p = 0;
    for (int k = 0; k < 5; k++)
        p += c->penta[k];
    return p;
}

double stats_score(const MatchCounts *c) {
    int n = stats_games(c);
    return n ? (c->w + 0.5 * c->d) / n : 0.5;
}

double stats_draw_ratio(const MatchCounts *c) {
    int n = stats_games(c);
    return n ? (double)c->d / n : 0.0;
}

double stats_elo(double score) {
    assert(!isnan(score));
    if (score <= 0.0)
        return -INFINITY;
    if (score >= 1.0)
        return INFINITY;
    return -400.0 * log10(1.0 / score - 1.0);
}

double stats_score_of_elo(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

// Compute the mean and variance of the values k / (k_max) weighted by counts[0..k_max].
static void moments(const double *counts, int k_max, double *mean, double *var) {
    double n = 0, m = 0, v = 0;
    for (int k = 0; k <= k_max; k++)
        n += counts[k];
    if (n <= 0) {
        *mean = 0.5;
        *var = 0.0;
        return;
    }
    for (int k = 0; k <= k_max; k++)
        m += counts[k] * k / k_max;
    m /= n;
    for (int k = 0; k <= k_max; k++) {
        double x = (double)k / k_max - m;
        v += counts[k] * x * x;
    }
    *mean = m;
    *var = v / n;
}

// Copy the trinomial counts in ascending score order: losses, draws, wins.
static void trinomial_counts(const MatchCounts *c, double out[3]) {
    out[0] = c->l;
    out[1] = c->d;
    out[2] = c->w;
}

// Copy the pentanomial counts, 0 to 2 points.
static void pentanomial_counts(const MatchCounts *c, double out[5]) {
    for (int k = 0; k < 5; k++)
        out[k] = c->penta[k];
}

double stats_trinomial_var(const MatchCounts *c) {
    double counts[3], mean, var;
    trinomial_counts(c, counts);
    moments(counts, 2, &mean, &var);
    return var;
}

double stats_pentanomial_var(const MatchCounts *c) {
    double counts[5], mean, var;
    pentanomial_counts(c, counts);
    moments(counts, 4, &mean, &var);
    return var;
}

// Fill e from counts[0..k_max] over n outcomes: the mean, its Elo, and the interval when the
// sample has at least two outcomes and a variance; false when it has not.
static bool estimate_from(const double *counts, int k_max, int n, EloEstimate *e) {
    double var;
    e->n = n;
    moments(counts, k_max, &e->score, &var);
    e->elo = stats_elo(e->score);
    e->known = n >= 2 && var > 0;
    if (!e->known) {
        e->lo = -INFINITY;
        e->hi = INFINITY;
        return false;
    }
    double half = STATS_Z95 * sqrt(var / n);
    e->lo = stats_elo(fmax(0.0, e->score - half));
    e->hi = stats_elo(fmin(1.0, e->score + half));
    return true;
}

EloEstimate stats_elo_estimate(const MatchCounts *c) {
    EloEstimate e = {0};
    double counts[5];
    // A zero variance is no evidence of a zero spread: with every pair (or game) alike so far
    // the normal approximation would shrink the interval to a point, so the next model down
    // is used, and where none has a spread the interval is unknown.
    e.model = STATS_PENTANOMIAL;
    pentanomial_counts(c, counts);
    if (estimate_from(counts, 4, stats_pairs(c), &e))
        return e;
    e.model = STATS_TRINOMIAL;
    trinomial_counts(c, counts);
    estimate_from(counts, 2, stats_games(c), &e);
    return e;
}

double stats_los(const MatchCounts *c) {
    int decisive = c->w + c->l;
    if (decisive == 0)
        return NAN;
    return 0.5 * (1.0 + erf((c->w - c->l) / sqrt(2.0 * decisive)));
}

// Return the multinomial of largest likelihood with mean s on the values k / k_max, given the
// frequencies f (all positive): p_k = f_k / (1 + lambda (v_k - s)).
static void mle_with_mean(const double *f, int k_max, double s, double *p) {
    // lambda lies where every 1 + lambda (v_k - s) > 0: between -1 / (1 - s) and 1 / s.
    double lo = -1.0 / (1.0 - s), hi = 1.0 / s;
    for (int iter = 0; iter < 200; iter++) {
        double mid = 0.5 * (lo + hi), g = 0;
        for (int k = 0; k <= k_max; k++) {
            double d = (double)k / k_max - s;
            g += f[k] * d / (1.0 + mid * d);
        }
        if (g > 0)
            lo = mid;
        else
            hi = mid;
    }
    double lambda = 0.5 * (lo + hi), total = 0;
    for (int k = 0; k <= k_max; k++) {
        p[k] = f[k] / (1.0 + lambda * ((double)k / k_max - s));
        total += p[k];
    }
    for (int k = 0; k <= k_max; k++)
        p[k] /= total;
}

// Compute the GSPRT llr on counts[0..k_max] of the values k / k_max, zero counts regularised.
static double gsprt_llr(const double *counts, int k_max, double s0, double s1) {
    double reg[5] = {0}, f[5] = {0}, p0[5], p1[5], n = 0, llr = 0;
    for (int k = 0; k <= k_max; k++) {
        reg[k] = counts[k] > 0 ? counts[k] : REGULARIZE_EPS;
        n += reg[k];
    }
    for (int k = 0; k <= k_max; k++)
        f[k] = reg[k] / n;
    mle_with_mean(f, k_max, s0, p0);
    mle_with_mean(f, k_max, s1, p1);
    for (int k = 0; k <= k_max; k++)
        llr += reg[k] * log(p1[k] / p0[k]);
    return llr;
}

double stats_sprt_llr(const MatchCounts *c, double elo0, double elo1) {
    double counts[5];
    double s0 = stats_score_of_elo(elo0), s1 = stats_score_of_elo(elo1);
    if (stats_pairs(c) > 0) {
        pentanomial_counts(c, counts);
        return gsprt_llr(counts, 4, s0, s1);
    }
    if (stats_games(c) == 0)
        return 0.0;
    trinomial_counts(c, counts);
    return gsprt_llr(counts, 2, s0, s1);
}

void stats_sprt_bounds(double alpha, double beta, double *lower, double *upper) {
    assert(alpha > 0 && alpha < 1 && beta > 0 && beta < 1);
    *lower = log(beta / (1.0 - alpha));
    *upper = log((1.0 - beta) / alpha);
}

SprtDecision stats_sprt_decide(double llr, double lower, double upper) {
    if (llr >= upper)
        return SPRT_ACCEPT_H1;
    if (llr <= lower)
        return SPRT_ACCEPT_H0;
    return SPRT_CONTINUE;
}

SprtResult stats_sprt(const MatchCounts *c, const SprtParams *p) {
    SprtResult r;
    r.llr = stats_sprt_llr(c, p->elo0, p->elo1);
    stats_sprt_bounds(p->alpha, p->beta, &r.lower, &r.upper);
    r.decision = stats_sprt_decide(r.llr, r.lower, r.upper);
    return r;
}

const char *stats_sprt_name(SprtDecision d) {
    switch (d) {
    case SPRT_ACCEPT_H0:
        return "H0";
    case SPRT_ACCEPT_H1:
        return "H1";
    default:
        return "continue";
    }
}

int stats_format_elo(char *buf, size_t n, double elo) {
    if (isnan(elo))
        return snprintf(buf, n, "n/a");
    if (isinf(elo))
        return snprintf(buf, n, elo > 0 ? "+inf" : "-inf");
    double tenths = round(elo * 10.0) / 10.0;
    return snprintf(buf, n, "%+.1f", tenths == 0.0 ? 0.0 : tenths); // never "-0.0"
}

int stats_format_interval(char *buf, size_t n, const EloEstimate *e) {
    if (!e->known)
        return snprintf(buf, n, "[unknown]");
    char lo[32], hi[32];
    stats_format_elo(lo, sizeof lo, e->lo);
    stats_format_elo(hi, sizeof hi, e->hi);
    return snprintf(buf, n, "[%s, %s]", lo, hi);
}
