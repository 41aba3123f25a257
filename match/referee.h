// The referee of one game between two engine processes, for the match runner: it keeps the
// clocks, sends the positions and `go`, checks every move with the engine's own rules code,
// adjudicates, and fills a game record. An illegal move, a crash or disconnect, silence or a
// flag fall loses the game for the engine at fault, with the reason recorded.
#ifndef MATCH_REFEREE_H
#define MATCH_REFEREE_H

#include "engine/core/game.h"
#include "match/opening.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define MAX_ENGINE_OPTIONS 32
#define MAX_RECORD_PLIES 1024

typedef enum Protocol { PROTO_UCI, PROTO_UGI } Protocol;

// How one engine is started and what it is told to search with. Limits combine: a clock with a
// depth cap sends both.
typedef struct EngineConfig {
    char name[64];
    char cmd[1024];
    Protocol proto;
    int64_t tc_time_ms, tc_inc_ms; // tc=[moves/]time[+inc] in seconds; tc_time_ms 0: no clock
    int tc_moves;                  // moves per period; 0: the whole game
    int64_t movetime_ms;           // st=seconds
    int depth;
    int64_t nodes;
    int noptions;
    char option_name[MAX_ENGINE_OPTIONS][64];
    char option_value[MAX_ENGINE_OPTIONS][128];
} EngineConfig;

// Score adjudication; a count of 0 turns that rule off. Scores are centipawns from the mover's
// point of view; a mate score counts as beyond any threshold.
typedef struct Adjudication {
    int resign_moves, resign_score; // both engines agree on the loser for resign_moves moves each
    int draw_from, draw_moves, draw_score; // from move draw_from, |score| <= draw_score for
                                           // draw_moves moves of each side
    int max_plies;                         // a game this long is a draw (0: MAX_RECORD_PLIES)
} Adjudication;

typedef struct GameSetup {
    const char *variant;
    const char *fen; // the start position string; NULL: the variant's start
    int nopening;
    char opening[OPENING_MAX_PLIES][MOVE_STR_MAX]; // played from fen before the engines move
    const EngineConfig *engine[2];                 // white, black
    Adjudication adj;
    int64_t timemargin_ms;  // how far past its clock or movetime an engine may answer
    int64_t movetimeout_ms; // the longest wait for a move without a clock or movetime
    FILE *log;              // engine traffic, or NULL
    const char *log_tag;    // prefix for log lines
} GameSetup;

typedef enum Termination {
    TERM_NORMAL,       // the rules ended the game
    TERM_ADJUDICATION, // score or length adjudication
    TERM_TIME,         // time forfeit
    TERM_ILLEGAL,      // illegal move
    TERM_ABANDONED,    // the engine crashed, exited or closed its output
    TERM_STALLED,      // no answer within the time allowed for a handshake or a depth search
    TERM_COUNT
} Termination;

typedef struct PlyRecord {
    char move[MOVE_STR_MAX];
    bool has_score, mate;
    int score; // centipawns, or the mate distance in moves, from the mover's point of view
    int depth;
    int64_t time_us;
} PlyRecord;

typedef struct GameRecord {
    GameResult result;
    Termination termination;
    char reason[192];   // the referee's words, e.g. "black: illegal move 'a1-a9'"
    char start_fen[96]; // the position before the opening, for the FEN tag
    int nopening;       // the first nopening plies are the opening
    int nplies;
    PlyRecord ply[MAX_RECORD_PLIES];
    int64_t min_clock_ms[2]; // the least time left on each clock after a move (clock games)
} GameRecord;

// Name a termination as in the Termination tag: "normal", "adjudication", "time forfeit",
// "illegal move", "abandoned", "stalled connection".
const char *referee_termination_name(Termination t);
// Parse a termination name; TERM_COUNT when unknown.
Termination referee_termination_of(const char *name);
// Check an opening against the rules (the moves legal from fen, the game not over after
// them); false with the reason in err.
bool referee_check_opening(const GameSetup *s, Error *err);
// Write the `go` command of engine side: the clocks of both engines (clock_us left, each with
// its increment), movestogo from the moves it has made, movetime, depth and nodes, in the
// engine's dialect (UCI's wtime/btime, UGI's p1time/p2time).
void referee_format_go(const EngineConfig *const engine[2], int side, const int64_t clock_us[2],
                       int moves_made, char *buf, size_t n);
// Start the engine once and wait up to timeout_ms for its handshake (uci/uciok or ugi/ugiok);
// when it fails, copy what the engine wrote on its stderr to err, then one line saying why, and
// return false. The engine is always stopped and reaped.
bool referee_check_engine(const EngineConfig *c, int64_t timeout_ms, FILE *err);
// Play one game; the record says how it ended. Always returns with both engines reaped.
void referee_play(const GameSetup *s, GameRecord *rec);
// Describe an engine's limits the way the command line gives them: "40/60+0.5 depth=12".
void referee_limits_text(const EngineConfig *c, char *buf, size_t n);
// Write the game as a record: tags, then the moves with `{score/depth time}` comments.
void referee_write_record(FILE *f, const GameSetup *s, const GameRecord *rec, const char *event,
                          int round);

#endif
