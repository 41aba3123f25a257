// The state of the command loop: the engine's options, the game record and the search in
// flight. protocol/uci.h has the functions on it; the loop's own files share it through
// protocol/command.h.
#ifndef PROTOCOL_STATE_H
#define PROTOCOL_STATE_H

#include "engine/core/game.h"
#include "engine/core/search.h"
#include "protocol/output.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

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

// The UBGI dialect's own state (protocol/ubgi.c): its position and dice are set on the game
// before each search, so that a dialect switch keeps the position.
typedef struct UbgiState {
    bool on;                          // the UBGI dialect: `ubgi` was the last handshake
    char position[GAME_POSITION_MAX]; // gnubg's ID pair with the dice cleared; "" until set
    int dice[2];                      // larger first; 0 0 until set
    int ply;                          // engine.ply: plies counting the root (1 = 0-ply)
    int movetime;                     // engine.movetime: ms per decision, 0 for none
    bool info;                        // engine.info: info lines during a search
} UbgiState;

typedef struct Uci {
    Output *out;
    const GameFamily *family;
    Game *game;
    bool quit;
    bool ugi;                      // the UGI dialect: `ugi` was the last handshake
    bool debug;                    // `debug on`: extra `info string` diagnostics
    UbgiState ubgi;                // the UBGI dialect and its state
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

#endif
