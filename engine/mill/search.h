// Search of the mill family.
#ifndef ENGINE_MILL_SEARCH_H
#define ENGINE_MILL_SEARCH_H

#include "engine/core/search.h"
#include "engine/core/tt.h"
#include "engine/mill/eval.h"
#include "engine/mill/tablebase.h"

// Switches for the selective parts of the search, so that self-play can measure each one.
typedef struct MillSearchParams {
    bool reverse_futility; // static-eval cutoffs near the leaves
    bool late_move_pruning;
    bool reductions; // late move reductions
    bool quiescence; // mill-closing moves past the horizon
    bool aspiration;
} MillSearchParams;

// Every switch on.
extern const MillSearchParams MILL_SEARCH_DEFAULTS;

// What the search reads of a game: the position, the positions played before it (for
// repetitions), whether the game is over, and how to search and evaluate.
typedef struct MillSearchRoot {
    const Position *pos;
    const uint64_t *keys; // keys[0..nkeys-1]: every position of the game so far, pos last
    int nkeys;
    bool over;                      // the game has ended: there is no move to search
    const Tablebase *tb;            // the endgame databases to probe; NULL: none
    const MillSearchParams *params; // copied when the search starts
    const EvalWeights *weights;     // copied when the search starts
} MillSearchRoot;

// Search the root's position; see GameFamily.search.
void mill_search(const MillSearchRoot *root, TT *tt, const SearchLimits *lim, SearchHooks *hooks,
                 SearchResult *out);

#endif
