// The Game interface: one table of functions per game family (mill, backgammon).
//
// It is coarse on purpose: the protocol crosses it once per command, never per node. A game
// is an opaque handle created by its family. Every call that can fail takes an Error and
// leaves the game as it was when it fails. Every member is filled, except those a capability
// flag declares (analyze): the protocol asks the capabilities and the members, and never
// compares a family's name or reads its position string.
#ifndef ENGINE_CORE_GAME_H
#define ENGINE_CORE_GAME_H

#include "engine/core/error.h"
#include "engine/core/search.h"

#include <stddef.h>
#include <stdint.h>

typedef struct Game Game;

// Room for any family's position string, as get_position and read_position write it.
#define GAME_POSITION_MAX 256

typedef enum GameResult {
    RESULT_NONE,
    RESULT_WHITE_WINS,
    RESULT_BLACK_WINS,
    RESULT_DRAW
} GameResult;

// What a family can do beyond playing and searching.
typedef enum GameCapability {
    GAME_CAN_ANALYZE = 1 << 0, // analyze: exact values from endgame databases
    GAME_CAN_ROLLOUT = 1 << 1, // go rollout <n>: candidate plays rolled out
    GAME_CAN_SOLVE = 1 << 2,   // tabula solve: retrograde analysis of its small variants
    // Turns start with a throw of two dice: the moves before it are `roll` (no double) and
    // `double`, the turn token `<d1><d2>` sets the dice, and a play is `<d1><d2>:<play>`.
    GAME_HAS_DICE = 1 << 3,
} GameCapability;

// The player whose decision a game waits for: the first player (mill's white, backgammon's
// player 1, X) or the second; the index of the clocks in SearchLimits.
typedef enum GameSide { SIDE_FIRST, SIDE_SECOND } GameSide;

typedef enum OptionType { OPTION_CHECK, OPTION_SPIN, OPTION_STRING } OptionType;

// A rule option of a family, declared to GUIs after `uci`.
typedef struct GameOption {
    const char *name;
    OptionType type;
    int min, max; // spin only
} GameOption;

typedef void (*MoveFn)(void *ctx, const char *move);
typedef void (*DivideFn)(void *ctx, const char *move, uint64_t count);

typedef struct GameFamily {
    const char *name;
    const char *(*variant_id)(int i); // the i-th variant id, NULL past the last
    unsigned capabilities;            // GameCapability flags
    // The keywords of `position` that name a position format the family reads (`fen`,
    // `gnubgid`, ...), NULL-terminated.
    const char *const *position_formats;

    Game *(*create)(const char *variant);
    void (*destroy)(Game *g);
    const char *(*variant)(const Game *g);
    // Switch variant: options back to the variant's defaults, position to its start.
    bool (*set_variant)(Game *g, const char *id, Error *err);

    const GameOption *options;
    int noptions;
    // Values are "true"/"false" for checks, decimal numbers for spins, any text for strings
    // (empty: unset).
    bool (*set_option)(Game *g, const char *name, const char *value, Error *err);
    void (*get_option)(const Game *g, const char *name, char *buf, size_t n);

    // Read a position written in one of position_formats into the family's own position
    // string (what set_position reads), checking that it is in that format; false with the
    // reason when it is not.
    bool (*read_position)(const Game *g, const char *format, const char *text, char *buf, size_t n,
                          Error *err);
    // Set the position from a position string (NULL: the start) and play the moves; all or
    // nothing.
    bool (*set_position)(Game *g, const char *fen, const char *const *moves, int nmoves,
                         Error *err);
    void (*get_position)(const Game *g, char *buf, size_t n);
    uint64_t (*key)(const Game *g);
    // Call fn with each legal move; return how many there are (0 when the game is over).
    int (*legal_moves)(const Game *g, MoveFn fn, void *ctx);
    GameResult (*result)(const Game *g, char *reason, size_t n);
    // Whose decision the game waits for (a move, or backgammon's answer to a double).
    GameSide (*to_act)(const Game *g);
    // Perft of the current position, calling fn with each move's count when fn is not NULL.
    uint64_t (*perft)(Game *g, int depth, DivideFn fn, void *ctx);
    // The board drawn as text lines.
    void (*render)(const Game *g, char *buf, size_t n);

    // Search the current position until a limit or hooks->stop; blocks the calling thread,
    // reports each iteration through the hooks, and fills out with a legal move.
    void (*search)(Game *g, const SearchLimits *lim, SearchHooks *hooks, SearchResult *out);
    // The static evaluation of the current position and its terms, as text lines.
    void (*eval)(const Game *g, char *buf, size_t n);
    // The exact value of the current position and of each legal move from the endgame
    // databases, as text lines; false with the reason in buf when it is in none. Present with
    // GAME_CAN_ANALYZE only.
    bool (*analyze)(const Game *g, char *buf, size_t n);
    // Resize the transposition table (MB); clear it.
    bool (*set_hash)(Game *g, int mb, Error *err);
    void (*clear_hash)(Game *g);
} GameFamily;

#endif
