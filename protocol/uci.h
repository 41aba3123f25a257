// The command loop: one line in, its replies out, through a table of commands. `go` starts the
// search on its own thread, so the loop keeps reading while it runs. Two dialects share it:
// UCI, and UGI (the generic game runner cutegames), which differ only in the handshake and in
// the bestmove line; a person's commands (new, move, undo, play) work in both.
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

// The game as a start and the turns played from it: `position` sets it, `move` and `play`
// add a turn, `undo` takes one back by replaying the others.
typedef struct UciRecord {
    char *fen;    // the position string it started from; NULL: the variant's start
    char **moves; // one whole turn each, removals joined to their action
    int nmoves, cap;
} UciRecord;

typedef struct Uci {
    Output *out;
    const GameFamily *family;
    Game *game;
    bool quit;
    bool ugi;                      // the UGI dialect: `ugi` was the last handshake
    bool debug;                    // `debug on`: extra `info string` diagnostics
    int options[UCI_OPTION_COUNT]; // current values; checks are 0 or 1
    int64_t received_us;           // when the command being executed was read
    UciRecord record;
    SearchLimits play_limits; // what `play` searches with

    // The search in flight. Its thread reads game, limits and hooks until it is joined, so
    // every command that changes them stops and joins it first.
    bool searching;
    pthread_t thread;
    SearchLimits limits;
    SearchHooks hooks;
    char **searchmoves; // owned copies of the `go searchmoves` tokens
    bool search_ugi;    // the dialect its bestmove line is written in
    bool search_plays;  // a `play` search: its thread plays the move on the game
    // Held by commands that read the game alongside a search, and by a `play` search's thread
    // while it plays its move.
    pthread_mutex_t game_lock;
} Uci;

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
