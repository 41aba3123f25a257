// The configuration of a match and its command line: engines and their KEY=VALUE settings,
// the schedule's options, adjudication, SPRT, shards and outputs. The options are those of
// docs/match.md; the help text is MATCH_USAGE.
#ifndef MATCH_CONFIG_H
#define MATCH_CONFIG_H

#include "engine/core/args.h"
#include "match/referee.h"
#include "match/stats.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define MAX_ENGINES 16
#define MAX_PAIRINGS (MAX_ENGINES * (MAX_ENGINES - 1) / 2)
#define MAX_CONCURRENCY 256
#define MAX_GAMES 10000000

extern const char MATCH_USAGE[];

typedef struct MatchConfig {
    char variant[32];
    int nengines;
    EngineConfig engine[MAX_ENGINES];
    bool gauntlet;
    int games; // per pairing, even
    int concurrency;
    uint64_t seed;
    int random_plies;
    bool book;               // the variant's opening book (match/book.h), the default
    char openings_path[512]; // empty: the book or random openings
    Adjudication adj;
    int64_t timemargin_ms, movetimeout_ms;
    bool sprt;
    SprtParams sprt_params;
    int shard, nshards;
    const char *pgn_path, *json_path, *log_path;
    bool quiet;
    // Backgammon: a match to length points (0: money play), the Jacoby rule in money play,
    // the .mat file.
    int length;
    bool jacoby;
    const char *mat_path;
} MatchConfig;

// Parse the command line of a match (not --merge) into cfg; false after printing the reason on
// err.
bool match_parse_config(int argc, char **argv, MatchConfig *cfg, FILE *err);
// Read the KEY=VALUE operands of --sprt that follow the cursor (elo0, elo1, alpha, beta; the
// defaults 0, 5, 0.05, 0.05) into p, checking them; false after reporting an error.
bool match_parse_sprt(Args *a, SprtParams *p);
// Print the message of a command-line error (one line, from the parser) on err with a pointer
// to the help: "tabula match: unknown option '--x' (try tabula match --help)".
void match_usage_error(FILE *err, const char *prog, const char *msg);

#endif
