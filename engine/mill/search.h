// Search of the mill family.
#ifndef ENGINE_MILL_SEARCH_H
#define ENGINE_MILL_SEARCH_H

#include "engine/core/search.h"
#include "engine/core/tt.h"
#include "engine/mill/game.h"

// Switches for the selective parts of the search, so that self-play can measure each one.
typedef struct MillSearchParams {
    bool reverse_futility; // static-eval cutoffs near the leaves
    bool late_move_pruning;
    bool reductions; // late move reductions
    bool quiescence; // mill-closing moves past the horizon
    bool aspiration;
} MillSearchParams;

extern MillSearchParams mill_search_params;

// Search the game's current position; see GameFamily.search.
void mill_search(const MillGame *g, TT *tt, const SearchLimits *lim, SearchHooks *hooks,
                 SearchResult *out);

#endif
