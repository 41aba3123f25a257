// The schedule's pairings, the tally of the games played, the report and the JSON summary of a
// match, and the merge of the summaries of its shards (`tabula match --merge`).
#ifndef MATCH_REPORT_H
#define MATCH_REPORT_H

#include "match/config.h"

#include <stdbool.h>
#include <stdio.h>

// The result of a game as PGN writes it ("1-0", "0-1", "1/2-1/2", "*").
extern const char *const MATCH_RESULT_TEXT[];

typedef struct Pairing {
    int a, b; // engine indexes; counts are from a's point of view
} Pairing;

// One game of the schedule, as the report needs it.
typedef struct Played {
    bool done;
    int white, black;
    GameResult result;
    Termination termination;
    int plies;
    char reason[192];
} Played;

// The report's numbers.
typedef struct Tally {
    int npairings;
    Pairing pairing[MAX_PAIRINGS];
    MatchCounts counts[MAX_PAIRINGS];
    double points[MAX_ENGINES];
    int played[MAX_ENGINES];
    int faults[MAX_ENGINES][TERM_COUNT]; // games lost by each termination other than normal
    int terminations[TERM_COUNT];
    int white[3]; // games won by White, drawn, won by Black
    int games;
} Tally;

// The pairings of the schedule (round robin, or the first engine against each other one);
// returns how many.
int match_pairings(int nengines, bool gauntlet, Pairing *p);
// An empty tally of the schedule's pairings.
void tally_init(Tally *t, int nengines, bool gauntlet);
// Count game g (done) into t: per pairing from its first engine's view, per engine, per
// termination; with pair_done, also the pair of games 2q and 2q + 1 it completes.
void tally_add(Tally *t, const Played *o, int g, bool pair_done);
// Count every game played. Game pair q holds games 2q and 2q + 1.
void tally_games(int nengines, bool gauntlet, const Played *o, int ngames, Tally *t);
// Print the report: each pairing, the standings, the terminations, and the SPRT when sprt is
// not NULL.
void match_print_report(FILE *out, const char *const *names, int nengines, const Tally *t,
                        const SprtParams *sprt);
// Write the summary to path: the match's identity, every game (the done ones when merged), and
// the report's numbers; false when it cannot be written.
bool match_write_json(const char *path, const MatchConfig *cfg, const char *const *names,
                      const Played *o, int ngames, const Tally *t, bool merged);
// `tabula match --merge FILE... [--json OUT] [--sprt ...]`, with the arguments after --merge;
// returns the exit status.
int match_merge(int argc, char **argv, FILE *out, FILE *err);

#endif
