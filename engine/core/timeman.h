// Time manager: how long one search may take, for every family; a family tunes it with its
// TimeParams.
//
// Policy. With `movetime` the search uses that time less `Move Overhead`. With a clock it
// plans, out of usable = time left - overhead, a soft limit (no new iteration starts after it;
// scaled up while the best move is unstable, down while it is stable) and a hard limit (the
// search stops at once): soft = min(usable / moves-to-go + a share of the increment, a share
// of usable), hard = min(hard_over_soft * soft, usable / hard_divisor + the same share of the
// increment, the reserve share of usable). The reserve keeps a low clock above the increment,
// so the engine never flags. `depth`, `nodes`, `mate` and `infinite` set no time limit. While
// pondering nothing stops on time; after `ponderhit` the clock counts from the ponderhit.
#ifndef ENGINE_CORE_TIMEMAN_H
#define ENGINE_CORE_TIMEMAN_H

#include "engine/core/search.h"

typedef struct TimeManager {
    int64_t soft_us, hard_us; // budgets; INT64_MAX when unlimited
    bool fixed;               // movetime: use all of it, whatever the best move does
} TimeManager;

// A family's tuning of the policy above.
typedef struct TimeParams {
    int moves_to_go;      // assumed when the GUI does not say
    int inc_percent;      // the share of the increment added to a move's budgets
    int soft_max_percent; // the soft limit's cap, in percent of the usable time
    int hard_over_soft;   // the hard limit's cap, in soft limits
    int hard_divisor;     // the hard limit's base: usable / hard_divisor
    int reserve_percent;  // no move takes more of the usable time (all of it with moves-to-go 1)
} TimeParams;

// Plan the search of the side to move (0 the first player, 1 the second) with a family's
// tuning.
void tm_init(TimeManager *tm, const SearchLimits *lim, int side, const TimeParams *params);

// Microseconds spent: since `go`, or since `ponderhit` after pondering.
int64_t tm_elapsed_us(const SearchLimits *lim, const SearchHooks *h);

// True when the search must stop now.
bool tm_hard_stop(const TimeManager *tm, const SearchLimits *lim, const SearchHooks *h);

// True when no new iteration should start; scale > 1 allows more time.
bool tm_soft_stop(const TimeManager *tm, const SearchLimits *lim, const SearchHooks *h,
                  double scale);

#endif
