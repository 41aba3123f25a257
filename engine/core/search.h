// What every family's search shares: score conventions, the limits of one `go`, the progress
// report the protocol formats, and the hooks through which a running search is told to stop.
#ifndef ENGINE_CORE_SEARCH_H
#define ENGINE_CORE_SEARCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define MAX_PLY 128
#define MAX_MULTIPV 64
#define PV_TEXT_MAX 2048

// Scores are centi-men from the side to move's view (100 = one man). A win in n plies from
// the root scores SCORE_MATE - n; a loss -(SCORE_MATE - n).
#define SCORE_DRAW 0
#define SCORE_MATE 32000
#define SCORE_MATE_IN_MAX (SCORE_MATE - MAX_PLY)
#define SCORE_INFINITE 32001
#define SCORE_NONE 32002

typedef struct SearchLimits {
    int depth;        // plies; 0 = no limit
    uint64_t nodes;   // 0 = no limit
    int64_t movetime; // ms; 0 = none
    int64_t time[2];  // ms left on the clocks of white and black; -1 = not given
    int64_t inc[2];   // ms increments
    int movestogo;    // 0 = not given
    int mate;         // find a win in this many moves; 0 = not asked
    bool infinite;    // search until stop
    int nsearchmoves; // restrict the root to these moves (tokens); 0 = all
    const char *const *searchmoves;
    int rollouts;     // backgammon: truncated rollouts per candidate play; 0 = none
    int64_t start_us; // clock_now_us() when `go` arrived
    // Engine settings for this search.
    int threads;
    int multipv;
    int64_t move_overhead; // ms kept in reserve for communication
    bool show_wdl;
} SearchLimits;

// One iteration's result for one principal variation, for an `info` line.
typedef struct SearchReport {
    int depth, seldepth, multipv;
    int score; // see above; mate scores are recognised by |score| >= SCORE_MATE_IN_MAX
    bool lowerbound, upperbound;
    int wdl[3]; // per mille win/draw/loss, when show_wdl
    uint64_t nodes;
    uint64_t tbhits; // endgame database probes that found the position
    int64_t time_ms;
    int hashfull;         // per mille
    char pv[PV_TEXT_MAX]; // moves separated by spaces
    // Backgammon: the cubeless probabilities (win, win gammon, win backgammon, lose gammon,
    // lose backgammon) and the equity, for the side to move.
    bool has_probs;
    double probs[5];
    double equity;
    // Backgammon cube decisions: the cubeful equities per unit of the present cube (match
    // play: match winning chances), `nodouble E doubletake E doublepass E` from the doubler's
    // view, or `take E pass E` from the taker's; empty otherwise.
    char cube[96];
} SearchReport;

typedef struct SearchHooks {
    void (*report)(void *ctx, const SearchReport *r);
    void (*message)(void *ctx, const char *text); // becomes `info string <text>`
    void *ctx;
    atomic_bool stop;          // set by `stop` or `quit`: finish at once with the best move so far
    atomic_bool ponder;        // true while pondering: time limits wait for `ponderhit`
    atomic_llong ponderhit_us; // when `ponderhit` arrived (clock_now_us), 0 before
} SearchHooks;

typedef struct SearchResult {
    char best[32];   // "(none)" when the game is over
    char ponder[32]; // empty when there is no reply to ponder on
} SearchResult;

// The number of moves to mate for a mate score (negative when being mated).
static inline int score_mate_moves(int score) {
    return score > 0 ? (SCORE_MATE - score + 1) / 2 : -(SCORE_MATE + score) / 2;
}

#endif
