// What `go` answers for backgammon, for now: a 0-ply choice with the TEMPORARY placeholder
// evaluation (eval.h), whatever the depth asked. Each legal play is evaluated once from the
// opponent's side and the best cubeless equity wins (ties: the first generated). Before the
// roll the answer is `double` when the cubeless equity is at least BG_DOUBLE_FROM and below
// BG_TOO_GOOD (and doubling is allowed), else `roll`; to a double the answer is `take` when
// the doubler's cubeless equity is at most BG_TAKE_UPTO, else `drop`. No cube theory, match
// equity or look-ahead yet.
#ifndef ENGINE_BACKGAMMON_SEARCH_H
#define ENGINE_BACKGAMMON_SEARCH_H

#include "engine/backgammon/board.h"
#include "engine/core/search.h"

#define BG_DOUBLE_FROM 0.35
#define BG_TOO_GOOD 0.95
#define BG_TAKE_UPTO 0.50

void bg_search(const BgPosition *p, const SearchLimits *lim, SearchHooks *hooks, SearchResult *out);

#endif
