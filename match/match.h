// tabula match: engine-against-engine matches refereed by tabula's own rules (round robin or
// gauntlet, clocks, openings, adjudication, concurrency, game records, statistics, SPRT,
// shards and merging). The user documentation is docs/match.md.
#ifndef MATCH_MATCH_H
#define MATCH_MATCH_H

#include <stdio.h>

// Run `tabula match` with its arguments (argv[0] is the first option); the report and the
// progress go to out, errors to err. Returns the exit status: 0 when every scheduled game was
// played or the SPRT stopped the match, 1 when interrupted or an output could not be written,
// 2 on bad arguments.
int match_main(int argc, char **argv, FILE *out, FILE *err);

#endif
