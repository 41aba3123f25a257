// The front ends of tabula's subcommands: each reads its command line (argv[0] is the first
// argument after the subcommand's name), does its work, and returns the exit status: 0 on
// success, 1 when the work failed, 2 on a bad command line. protocol/main.c dispatches to
// them; `tabula match` is match/match.h's match_main and `tabula external` is
// protocol/external.h's external_main.
#ifndef PROTOCOL_CLI_H
#define PROTOCOL_CLI_H

// tabula bench [DEPTH]: the node-count signature of the search, and its speed.
int cli_bench(int argc, char **argv);
// tabula perft [--variant ID] [--fen STRING] [--divide] [DEPTH]: one timed perft.
int cli_perft(int argc, char **argv);
// tabula solve VARIANT [--men M] [--out FILE] [--threads N]: solve a mill variant.
int cli_solve(int argc, char **argv);

// Print on stderr the line `<prog>: unknown variant '<id>' (known: ...)`, with every variant
// of every family.
void cli_unknown_variant(const char *prog, const char *id);

#endif
