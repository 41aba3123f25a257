#include "engine/core/timeman.h"

#include "engine/core/clock.h"

#define MIN_BUDGET_US 1000

void tm_init(TimeManager *tm, const SearchLimits *lim, int side, const TimeParams *params) {
    int64_t overhead = lim->move_overhead * 1000;
    tm->soft_us = tm->hard_us = INT64_MAX;
    tm->fixed = false;
    if (lim->infinite)
        return;
    if (lim->movetime > 0) {
        int64_t t = lim->movetime * 1000 - overhead;
        tm->soft_us = tm->hard_us = t > MIN_BUDGET_US ? t : MIN_BUDGET_US;
        tm->fixed = true;
        return;
    }
    // Only the opponent's clock given (a GUI's slip): plan with it rather than search forever.
    if (lim->time[side] < 0 && lim->time[!side] >= 0)
        side = !side;
    if (lim->time[side] < 0)
        return;
    int64_t left = lim->time[side] * 1000, inc = lim->inc[side] > 0 ? lim->inc[side] * 1000 : 0;
    int mtg = lim->movestogo > 0 ? lim->movestogo : params->moves_to_go;
    int64_t usable = left - overhead;
    if (usable < MIN_BUDGET_US)
        usable = MIN_BUDGET_US;
    int64_t inc_share = inc * params->inc_percent / 100;
    int64_t reserve = usable * params->reserve_percent / 100;
    int64_t soft = usable / mtg + inc_share;
    if (soft > usable * params->soft_max_percent / 100)
        soft = usable * params->soft_max_percent / 100;
    int64_t hard = usable / params->hard_divisor + inc_share;
    if (hard > params->hard_over_soft * soft)
        hard = params->hard_over_soft * soft;
    if (mtg == 1)
        soft = hard = reserve;
    // Keep a reserve, so that a clock running low settles above the increment instead of at
    // the overhead.
    if (hard > reserve)
        hard = reserve;
    if (soft > hard)
        soft = hard;
    tm->soft_us = soft > MIN_BUDGET_US / 2 ? soft : MIN_BUDGET_US / 2;
    tm->hard_us = hard > MIN_BUDGET_US ? hard : MIN_BUDGET_US;
}

int64_t tm_elapsed_us(const SearchLimits *lim, const SearchHooks *h) {
    int64_t from = atomic_load(&h->ponderhit_us);
    return clock_now_us() - (from ? from : lim->start_us);
}

bool tm_hard_stop(const TimeManager *tm, const SearchLimits *lim, const SearchHooks *h) {
    if (tm->hard_us == INT64_MAX || atomic_load(&h->ponder))
        return false;
    return tm_elapsed_us(lim, h) >= tm->hard_us;
}

bool tm_soft_stop(const TimeManager *tm, const SearchLimits *lim, const SearchHooks *h,
                  double scale) {
    if (tm->soft_us == INT64_MAX || atomic_load(&h->ponder))
        return false;
    if (tm->fixed)
        scale = 1.0;
    int64_t budget = (int64_t)((double)tm->soft_us * scale);
    if (budget > tm->hard_us)
        budget = tm->hard_us;
    return tm_elapsed_us(lim, h) >= budget;
}
