// Retrograde solver for the mill variants on the 9-, 16- and 17-point boards, and for the
// moving phase of the 24-point variants up to a number of men a side (endgame databases:
// every position with no men in hand and 3 to max_men men a side, same index and file).
//
// A state is (men of the side to move, men of the other side, their men in hand); colours are
// folded by always naming the side to move first. Only hand pairs reachable from the start
// are stored: the side to move holds as many men in hand as the other side (it is White) or
// one more (Black). States are grouped into sub-databases by (own on board, other on board,
// own in hand, other in hand). Inside one, a state is ranked combinatorially: the colex rank
// of the own men among the board's points, times the number of placements of the other men,
// plus the colex rank of the other men among the points left empty by the own. Board
// symmetries are folded: only the state whose (own, other) pair is least over its orbit is
// kept, found by a bitmap over the combinatorial index with a popcount prefix per word.
//
// Each kept state holds 2 bytes: 0 for a draw, else WIN or LOSS for the side to move and the
// distance in plies to the end of the game (the winner hurrying, the loser delaying).
// Games end as docs/variants.md, "Game end" says, but for the draws by history: positions
// never forced to an end are draws (repetition), and the N-move rule is ignored.
//
// Sub-databases are solved children first: a placement moves to fewer men in hand, so the
// moving phase (no men in hand) comes first, by men on the board ascending, each pair
// (a, b) / (b, a) together since a move without removal passes from one to the other. Within
// such a group the states are iterated ply by ply: pass k marks WIN in k the states with a
// child lost in k-1, LOSS in k those whose children are all won in less than k.
#ifndef ENGINE_MILL_SOLVE_H
#define ENGINE_MILL_SOLVE_H

#include "engine/core/error.h"
#include "engine/mill/position.h"
#include "engine/mill/solve_db.h"
#include "engine/mill/solve_file.h"

#include <stddef.h>
#include <stdint.h>

enum { SOLVE_LOSS = -1, SOLVE_DRAW = 0, SOLVE_WIN = 1 };

typedef struct SolveProgress {
    uint64_t done, total; // positions finished (read back or solved) and in the database
    uint64_t resumed;     // of done, read back from the file
    int a, b, ha, hb;     // the sub-database at work (the first of its group)
    int pass;             // the iteration pass in it, 0 while its moves are generated
    double seconds;       // since the build started
} SolveProgress;

typedef void (*SolveProgressFn)(void *ctx, const SolveProgress *p);

typedef struct SolveOptions {
    const char *path;         // the database file, written as groups finish and resumed; NULL: none
    int threads;              // 0: every online processor
    bool unfolded;            // keep every state, no symmetry folding (to check the folding)
    SolveProgressFn progress; // called from the building thread, a few times a second
    void *ctx;
    int max_men; // 0: the whole game; else the moving phase only, 3 to max_men men a side
} SolveOptions;

typedef struct SolveStats {
    uint64_t positions, wins, draws, losses; // stored states, by value for the side to move
    uint64_t resumed;                        // of them, read back from the file
    int subdbs, symmetries;
    size_t bytes; // memory of the values and the index bitmaps
    int longest_win;
    char longest_fen[FEN_MAX]; // a state won in longest_win plies
    int start_value, start_distance;
} SolveStats;

// One sub-database: its men on the board and in hand, values and the time its group took.
typedef struct SolveSubStats {
    int a, b, ha, hb; // own and other men on the board, in hand
    bool done;
    uint64_t positions, raw; // stored states, and the size of the combinatorial index
    uint64_t wins, draws, losses;
    int longest_win, longest_loss; // plies; -1 / 0 when there is none
    size_t bytes;
    double seconds; // solving its group (0 when read back from a file)
} SolveSubStats;

// Solve the variant under `rules`, resuming from opt->path when it holds a part of the same
// database. Returns the database (NULL on error).
SolveDb *solve_build(const MillRules *rules, const SolveOptions *opt, Error *err);

// Value (SOLVE_WIN, SOLVE_DRAW, SOLVE_LOSS for the side to move) and distance in plies to the
// end of p; false when p is not in the database (other rules, an unreachable men-in-hand pair,
// a sub-database not yet solved). Positions already over are answered without a lookup.
bool solve_probe(const SolveDb *db, const Position *p, int *value, int *distance);

// Whether the database answers for positions played under r: the same variant and rule
// options; a moving-phase database (max_men) also for every variant whose moving phase plays
// alike (nine and lasker; twelve and eleven).
bool solve_rules_match(const SolveDb *db, const MillRules *r);

// 0 for a database of the whole game, else the most men a side it holds (no men in hand).
int solve_max_men(const SolveDb *db);

// The sub-databases, in solving order, and the statistics of number i.
int solve_subdbs(const SolveDb *db);
bool solve_sub_stats(const SolveDb *db, int i, SolveSubStats *st);

// The number of states the database stores, solved or not.
uint64_t solve_count(const SolveDb *db);

// The state stored as number i (0 <= i < solve_count), as a position with the side to move
// that can have its men in hand (Black when it holds one more); false if not solved yet.
bool solve_state(const SolveDb *db, uint64_t i, Position *p);

// Count the values, find a longest win, probe the start.
void solve_stats(const SolveDb *db, SolveStats *st);

#endif
