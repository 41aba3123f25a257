// Match statistics for the match runner: score, draw ratio, Elo with a 95% interval, LOS and
// SPRT, from win/draw/loss counts and pentanomial game-pair counts. The formulas and their
// sources are in the design block of match/stats.c.
//
// Every function returns a defined number for every input, including zero games, except
// stats_los, NaN without decisive games; an Elo interval says whether it is known. An Elo
// difference saturates to +INFINITY or -INFINITY when the score is 1 or 0; print Elo
// values with stats_format_elo, which writes those as "+inf" and "-inf".
#ifndef MATCH_STATS_H
#define MATCH_STATS_H

#include <stdbool.h>
#include <stddef.h>

// The results of the first engine against the second. penta[k] counts the game pairs (one
// opening played with both colours) in which the first engine scored k/2 points: 0, 0.5, 1,
// 1.5, 2. Games outside a completed pair count in w, d, l only.
typedef struct MatchCounts {
    int w, d, l;
    int penta[5];
} MatchCounts;

// Which distribution of the score an estimate was computed from.
typedef enum StatsModel { STATS_TRINOMIAL, STATS_PENTANOMIAL } StatsModel;

// An Elo difference with its 95% interval. score is the mean score per game of the model's
// sample (n games for the trinomial model, n pairs for the pentanomial one). known is false
// when the sample cannot give an interval (fewer than two games, or all alike); lo and hi are
// then -inf and +inf and are not to be shown as numbers.
typedef struct EloEstimate {
    StatsModel model;
    int n;
    double score, elo, lo, hi;
    bool known;
} EloEstimate;

typedef enum SprtDecision { SPRT_CONTINUE, SPRT_ACCEPT_H0, SPRT_ACCEPT_H1 } SprtDecision;

// An SPRT of H0: elo = elo0 against H1: elo = elo1 (logistic Elo), with error rates alpha (of
// accepting H1 when H0 holds) and beta (of accepting H0 when H1 holds).
typedef struct SprtParams {
    double elo0, elo1, alpha, beta;
} SprtParams;

typedef struct SprtResult {
    double llr, lower, upper;
    SprtDecision decision;
} SprtResult;

// The 97.5% quantile of the standard normal distribution: the half-width of a 95% interval.
#define STATS_Z95 1.959963984540054

// Count the games, w + d + l.
int stats_games(const MatchCounts *c);
// Count the completed game pairs, the sum of penta.
int stats_pairs(const MatchCounts *c);
// Return the mean score per game, (w + d/2) / games; 0.5 with no games.
double stats_score(const MatchCounts *c);
// Return the share of drawn games; 0 with no games.
double stats_draw_ratio(const MatchCounts *c);
// Convert a score in [0, 1] to a logistic Elo difference; -inf at 0, +inf at 1.
double stats_elo(double score);
// Convert a logistic Elo difference to the expected score, 1 / (1 + 10^(-elo/400)).
double stats_score_of_elo(double elo);
// Return the variance of one game's score (0, 1/2, 1) under the trinomial model; 0 with no
// games.
double stats_trinomial_var(const MatchCounts *c);
// Return the variance of one pair's mean score per game (0, 1/4, 1/2, 3/4, 1) under the
// pentanomial model; 0 with no pairs.
double stats_pentanomial_var(const MatchCounts *c);
// Estimate the Elo difference and its 95% interval: from the pairs (pentanomial) when there
// are two or more and their scores differ, else from the games (trinomial) when there are two
// or more and their results differ, else the trinomial point with an unknown interval.
EloEstimate stats_elo_estimate(const MatchCounts *c);
// Return the likelihood of superiority of the first engine; NaN (undefined) without decisive
// games.
double stats_los(const MatchCounts *c);
// Return the log-likelihood ratio of H1: elo1 against H0: elo0 (logistic Elo), from the pairs
// when there are any, else from the games; 0 with no games.
double stats_sprt_llr(const MatchCounts *c, double elo0, double elo1);
// Set the stopping bounds of the SPRT: lower = log(beta / (1 - alpha)), upper = log((1 - beta) /
// alpha).
void stats_sprt_bounds(double alpha, double beta, double *lower, double *upper);
// Decide the SPRT: accept H1 at or above upper, H0 at or below lower, else continue.
SprtDecision stats_sprt_decide(double llr, double lower, double upper);
// Run the whole SPRT on the counts: the llr, the bounds and the decision.
SprtResult stats_sprt(const MatchCounts *c, const SprtParams *p);
// Name a decision: "H0", "H1" or "continue".
const char *stats_sprt_name(SprtDecision d);
// Write an Elo difference as "%+.1f", or "+inf" / "-inf"; return what snprintf returns.
int stats_format_elo(char *buf, size_t n, double elo);
// Write an estimate's interval as "[lo, hi]", or "[unknown]" when it is not known; return what
// snprintf returns.
int stats_format_interval(char *buf, size_t n, const EloEstimate *e);

#endif
