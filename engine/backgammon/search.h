// Backgammon search: expectimax over the 21 rolls with a move filter, deepened one ply at a
// time.
//
// A position before the roll is worth, at depth 0, its static evaluation (eval.h); at depth
// d > 0, the average over the 21 rolls (doubles 1/36, others 2/36) of the best play for that
// roll, where plays are first ranked at depth 0 and only the best few (the filter, below) are
// looked at with depth d - 1 from the opponent's side. With the dice rolled, a play at depth d
// is worth the opponent's position at depth d, seen from our side: depth 0 is the plain
// evaluation of each play, depth 1 looks at every reply roll, depth 2 also at our next roll.
//
// Filters: at the root every play at depth 0, then the best BG_ROOT_KEEP within
// BG_ROOT_MARGIN of equity of the best go deeper; inside the tree the best BG_NODE_KEEP within
// BG_NODE_MARGIN.
//
// `go`: `depth n` searches n plies (up to BG_MAX_DEPTH), `nodes n` stops deepening once n
// evaluations are spent (`nodes 1` is 0-ply), `movetime` and the clocks deepen while the next
// depth is expected to fit; a `go` without a depth stops at BG_DEFAULT_DEPTH. An iteration cut
// short by stop or time is dropped for the last complete one.
//
// Cube, at the search depth: in money play from Janowski's cubeful equity (cube.h); in match
// play from match winning chances with tabula's own match equity table (met.h).
#ifndef ENGINE_BACKGAMMON_SEARCH_H
#define ENGINE_BACKGAMMON_SEARCH_H

#include "engine/backgammon/board.h"
#include "engine/backgammon/eval.h"
#include "engine/backgammon/movegen.h"
#include "engine/core/search.h"

#define BG_MAX_DEPTH 4
#define BG_DEFAULT_DEPTH 2
#define BG_ROOT_KEEP 8
#define BG_ROOT_MARGIN 0.16
#define BG_NODE_KEEP 3
#define BG_NODE_MARGIN 0.10
// `go rollout n`: after the search, its best BG_ROOT_KEEP candidates are rolled out n times
// each (duplicate dice, 0-ply play) for BG_ROLLOUT_PLIES plies and then evaluated; the ranking
// by rollout replaces the search's, and info reports the rollout probabilities (at depth
// BG_ROLLOUT_PLIES). A stop during the rollouts keeps the search's ranking.
#define BG_ROLLOUT_PLIES 10

// The state of one search: the nets, whether to use the bear-off database, the evaluations
// spent, and when to give up (polled once per roll).
typedef struct BgSearch {
    const BgNets *nets;
    bool bearoff;
    uint64_t nodes;
    uint64_t node_limit; // 0 = none
    int64_t deadline_us; // 0 = none
    SearchHooks *hooks;  // NULL = never stopped from outside
    bool aborted;
    BgPlayList pool[BG_MAX_DEPTH + 1]; // one play list per depth, reused across its rolls
} BgSearch;

// A search with the engine's nets and no limits; bg_search_free releases its play lists.
void bg_search_init(BgSearch *s);
void bg_search_free(BgSearch *s);

// The value at depth d of the position where side is about to roll (see above).
void bg_eval_ply(BgSearch *s, const BgBoard *b, int side, int depth, BgProbs *out);

// The index in l (the plays of side with the rolled dice) of the best play at depth d, with
// its probabilities from side's view in *best; -1 when l is empty.
int bg_best_play(BgSearch *s, const BgBoard *b, int side, const BgPlayList *l, int depth,
                 BgProbs *best);

// `go` on a backgammon position.
void bg_search(const BgPosition *p, const SearchLimits *lim, SearchHooks *hooks, SearchResult *out);

#endif
