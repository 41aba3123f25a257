// Time manager: how long one search may take.
//
// Policy. With `movetime` the search uses that time less `Move Overhead`. With a clock it
// plans, out of usable = time left - overhead, a soft limit (no new iteration starts after it;
// scaled up while the best move is unstable, down while it is stable) and a hard limit (the
// search stops at once): soft = min(usable / moves-to-go + 3/4 increment, usable / 5),
// hard = min(5 * soft, usable / 3 + 3/4 increment, 70% of usable). The 30% reserve keeps a
// low clock above the increment, so the engine never flags. `depth`, `nodes`, `mate` and
// `infinite` set no time limit. While pondering nothing stops on time; after `ponderhit` the
// clock counts from the ponderhit.
#ifndef ENGINE_CORE_TIMEMAN_H
#define ENGINE_CORE_TIMEMAN_H

#include "engine/core/search.h"

typedef struct TimeManager {
    int64_t soft_us, hard_us; // budgets; INT64_MAX when unlimited
    bool fixed;               // movetime: use all of it, whatever the best move does
} TimeManager;

// Plan the search of the side to move (0 white, 1 black).
void tm_init(TimeManager *tm, const SearchLimits *lim, int side);

// Microseconds spent: since `go`, or since `ponderhit` after pondering.
int64_t tm_elapsed_us(const SearchLimits *lim, const SearchHooks *h);

// True when the search must stop now.
bool tm_hard_stop(const TimeManager *tm, const SearchLimits *lim, const SearchHooks *h);

// True when no new iteration should start; scale > 1 allows more time.
bool tm_soft_stop(const TimeManager *tm, const SearchLimits *lim, const SearchHooks *h,
                  double scale);

#endif
