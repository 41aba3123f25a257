// The command loop: one line in, its replies out, through a table of commands. `go` starts the
// search on its own thread, so the loop keeps reading while it runs.
#ifndef PROTOCOL_UCI_H
#define PROTOCOL_UCI_H

#include "engine/core/game.h"
#include "engine/core/search.h"
#include "protocol/output.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define TABULA_VERSION "0.1"

// The engine's own options (the family declares the rule options).
typedef enum UciOption {
    UCI_HASH,
    UCI_CLEAR_HASH,
    UCI_THREADS,
    UCI_MULTIPV,
    UCI_PONDER,
    UCI_MOVE_OVERHEAD,
    UCI_SHOW_WDL,
    UCI_OPTION_COUNT
} UciOption;

typedef struct Uci {
    Output *out;
    const GameFamily *family;
    Game *game;
    bool quit;
    int options[UCI_OPTION_COUNT]; // current values; checks are 0 or 1
    int64_t received_us;           // when the command being executed was read

    // The search in flight. Its thread reads game, limits and hooks until it is joined, so
    // every command that changes them stops and joins it first.
    bool searching;
    pthread_t thread;
    SearchLimits limits;
    SearchHooks hooks;
    char **searchmoves; // owned copies of the `go searchmoves` tokens
} Uci;

// Set up the protocol state on the default variant (nine), replying through out.
bool uci_init(Uci *u, Output *out);
// Stop and join a running search (its bestmove is printed), then free everything.
void uci_free(Uci *u);

// Execute one command line (without or with its line end); false once `quit` was read.
bool uci_execute(Uci *u, const char *line);

// Read and execute lines from in until end of input or `quit`; a search still running at end
// of input is stopped and its bestmove printed before this returns.
void uci_loop(Uci *u, FILE *in);

// Stop a running search and wait for its bestmove; nothing when no search runs.
void uci_stop_search(Uci *u);

// Wait for a running search to end by its own limit (depth, nodes, time); an infinite or
// pondering search, which would not end, is stopped. Used before commands that change state
// and at end of input, so that piped scripts get the search they asked for.
void uci_finish_search(Uci *u);

#endif
