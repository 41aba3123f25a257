// The command loop: one line in, its replies out, through a table of commands. `go` starts the
// search on its own thread, so the loop keeps reading while it runs. Two dialects share it:
// UCI, and UGI (the generic game runner cutegames), which differ only in the handshake and in
// the bestmove line; a person's commands (new, move, undo, play) work in both.
#ifndef PROTOCOL_UCI_H
#define PROTOCOL_UCI_H

#include "protocol/output.h"
#include "protocol/state.h"

#include <stdbool.h>
#include <stdio.h>

// Set up the protocol state on the default variant (nine), replying through out.
bool uci_init(Uci *u, Output *out);
// Stop and join a running search (its bestmove is printed), then free everything.
void uci_free(Uci *u);

// Execute one command line (without or with its line end); false once `quit` was read.
bool uci_execute(Uci *u, const char *line);

// Read and execute lines from in until end of input or `quit`; a search still running at end
// of input is stopped and its bestmove printed before this returns. A line holding a NUL
// byte is refused whole.
void uci_loop(Uci *u, FILE *in);

// Stop a running search and wait for its bestmove; nothing when no search runs.
void uci_stop_search(Uci *u);

// Wait for a running search to end by its own limit (depth, nodes, time); an infinite or
// pondering search, which would not end, is stopped. Used before commands that change state
// and at end of input, so that piped scripts get the search they asked for.
void uci_finish_search(Uci *u);

// For Tab completion and the prompt's board; safe while a search runs.
// The i-th command of the table, NULL past the end.
const char *uci_command_name(int i);
// The i-th option name as declared after `uci`, NULL past the end.
const char *uci_option_name(const Uci *u, int i);
// The legal moves of the current position as a malloc'd array of malloc'd strings; returns
// their count (0 with *moves NULL when there are none). The caller frees both levels.
int uci_legal_moves(const Uci *u, char ***moves);
// Draw the board as `d` does, without the lines that follow it.
void uci_print_board(Uci *u);

#endif
