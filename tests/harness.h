// The protocol test harness: the command loop in this process writing into a memory stream
// (Proto), the real binary on pipes (Child), and the checks of protocol text that the suites
// share. Every suite that drives the protocol goes through it.
#ifndef TESTS_HARNESS_H
#define TESTS_HARNESS_H

#include "protocol/output.h"
#include "protocol/uci.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define ERROR_PREFIX "info string error: "
// Seconds to wait for a search that should end: generous, for the sanitizer build on a
// loaded machine.
#define SEARCH_WAIT 20.0
// Seconds to wait for any reply of the binary before failing: generous, for a loaded machine.
#define CHILD_WAIT 10.0

// ---------------------------------------------------------------------------------------------
// An engine in this process: the command loop on the default variant, replying into memory.

typedef struct Proto {
    Output out;
    Uci uci;
    FILE *f;
    char *buf;   // everything written so far
    size_t len;  // its length
    size_t seen; // how much of it proto_take has handed out
    char *last;  // what the last proto_take returned
} Proto;

// Start an engine on the default variant; proto_close frees it.
Proto *proto_open(void);
// Stop its search (the bestmove is written) and free it.
void proto_close(Proto *e);
// What it wrote since the last take; valid until the next take.
const char *proto_take(Proto *e);
// A copy of what it wrote since the last take, which stays to be taken; the caller frees it.
char *proto_peek(Proto *e);
// Execute one line and return what it wrote; valid until the next take.
const char *proto_send(Proto *e, const char *line);
// Execute one line and return a copy of what it wrote; the caller frees it.
char *proto_send_copy(Proto *e, const char *line);
// Wait up to timeout seconds for count lines starting with prefix among those not yet taken.
bool proto_wait_lines(Proto *e, const char *prefix, int count, double timeout);
// Wait up to timeout seconds for one line starting with prefix among those not yet taken.
bool proto_wait_line(Proto *e, const char *prefix, double timeout);
// Wait for the search's bestmove, join its thread and return everything not yet taken.
const char *proto_wait_bestmove(Proto *e);

// Run a script of '\n'-separated lines through a fresh engine and return all it wrote; the
// caller frees it. A search still running at the end is waited for (stopped when it would not
// end); with each, after every line, so that each line's replies follow the search before it.
char *proto_run(const char *script, bool each);
// Feed input of len bytes to uci_loop in a fresh engine and return all it wrote; the caller
// frees it.
char *proto_loop(const char *input, size_t len);

// The current position string, read through `d`.
void proto_fen(Proto *e, char *buf, size_t n);
// The current key, read through `d`.
void proto_key(Proto *e, char *buf, size_t n);
// Everything observable about the state: the `d` output and the options after `uci`; the
// caller frees it.
char *proto_snapshot(Proto *e);
// Whether move is one of the legal moves of the engine's position.
bool proto_is_legal(Proto *e, const char *move);
// Check a finished search's output: exactly one bestmove, legal in the engine's position, and
// its ponder move legal after it; copy the move into best_out when it is not NULL. The
// position is set again from its string afterwards.
void assert_good_bestmove(Proto *e, const char *text, char *best_out, size_t n);

// ---------------------------------------------------------------------------------------------
// The real binary on pipes: $TABULA_BIN, or ../build/debug/tabula (the suites run from tests/).

typedef struct Child {
    pid_t pid;
    int in, out; // the binary's stdin (we write) and stdout (we read)
    char *buf;   // read but not yet taken
    size_t len, cap;
    char *log; // every line read, for failure messages
    size_t log_len, log_cap;
} Child;

// The path of the binary under test.
const char *tabula_bin(void);
// Start the binary with its stdin and stdout on pipes; it dies with the test process. A
// missing binary fails the test.
Child *child_start(void);
// Send quit, check that the binary exits with status 0 (it is killed when it does not), and
// free p.
void child_quit(Child *p);
// The end of what the binary wrote, for failure messages.
const char *child_log_tail(const Child *p);
// Write n bytes and a newline.
void child_send_bytes(Child *p, const char *data, size_t n);
// Write a line and its newline.
void child_send(Child *p, const char *line);
// Read one line (without its newline) within timeout seconds; NULL at a timeout or end of
// output. The caller frees it.
char *child_read_line(Child *p, double timeout);
// Read lines until one starts with prefix; return all of them, '\n'-terminated (the caller
// frees). Fails the test when none comes within timeout.
char *child_expect(Child *p, const char *prefix, double timeout);
// Send a line and time its reply, a line starting with prefix; return the seconds taken and,
// when text is not NULL, the lines read (the caller frees).
double child_timed(Child *p, const char *line, const char *prefix, char **text);
// Send isready and return everything before readyok; the caller frees it.
char *child_sync(Child *p);

// A subcommand's entry point, as match_main: arguments after its name, output and errors.
typedef int (*SubcommandFn)(int argc, char **argv, FILE *out, FILE *err);
// Run fn with a space-separated argument string ("%T" stands for the engine binary, '~' for a
// space inside an argument); return its status. Its output goes to *out and its errors to *err
// (each to be freed); with err NULL the errors follow the output in *out; with out NULL both
// are dropped.
int run_subcommand(SubcommandFn fn, const char *args, char **out, char **err);

// ---------------------------------------------------------------------------------------------
// Protocol text

// How many lines text has.
int count_lines(const char *text);
// Whether text holds this exact line.
bool has_line(const char *text, const char *line);
// Whether text is printable ASCII but for its line ends.
bool printable_ascii(const char *text);
// Check that text is exactly one `info string error: ...` line; input names the line sent.
void assert_one_error(const char *text, const char *input);
// Whether a `moves` reply lists exactly the moves of the space-separated list, in any order.
bool same_moves(const char *reply, const char *list);
// Split the single line of a `moves` reply into tokens in buf; return their count.
int split_moves(const char *text, char *buf, size_t n, char **tok, int max);
// The start of the last line of text.
const char *last_line(const char *text);
// Read the one bestmove line of text into best and ponder ("" when absent), checking its form.
void get_bestmove(const char *text, char *best, char *ponder, size_t n);

// Write the first line of s into buf with every byte outside printable ASCII as \xHH.
const char *escape_line(const char *s, char *buf, size_t n);

// What an info line of a search says.
typedef struct Info {
    int depth, seldepth, multipv;
    bool mate;
    long long score; // centi-men, or moves to mate
    bool has_wdl;
    long long nodes, nps, hashfull, time;
    char first[64]; // the first move of the pv
} Info;

// Parse an info line, failing the test when it is not in the protocol's form.
void parse_info(const char *line, Info *in);
// Parse every info line of text except `info string`; return how many there are.
int parse_infos(const char *text, Info *infos, int max);

// Positions and lists the protocol suites share.
#define NINE_START "3/3/3/6/3/3/3 w 9 9 0 1"
#define SIX_START "3/3/4/3/3 w 6 6 0 1"
#define THREE_START "3/3/3 w 3 3 0 1"
// Nine after 18 placements (docs/variants.md, "Perft"): perft 1 is 25.
#define NINE_18 "d7 g7 g4 a7 a4 g1 f6 d6 b6 d2 f2 a1 e5 c5 c4 d5 e3 c3"
#define NINE_18_FEN "BWB/WBW/BBW/W1W2W/B1W/1BW/B1B w 0 0 0 10"
// Three men's morris where white owns a mill: the game is over.
#define THREE_WON "WWW/3/BB1 b 0 1 0 3"
// Nine, moving phase, white with 3 men (flying by default) and 4 plies without a placement.
#define NINE_3MEN "W1W/W2/3/6/3/2B/B1B w 0 0 4 20"
// White's moves there without flying.
#define SLIDES "a7-d7 a7-a4 g7-d7 g7-g4 b6-d6 b6-b4"
#define SANMILL_START "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"
// The 24 points of nine men's morris, in the order of the position string.
extern const char *const NINE_POINTS[24];
#define NINE_NPOINTS 24
// Every mill variant's id.
extern const char *const VARIANT_IDS[12];
#define NVARIANTS 12

#endif
