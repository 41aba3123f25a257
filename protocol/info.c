#include "protocol/info.h"

#include <stdio.h>

void info_format(const SearchReport *r, bool show_wdl, char *buf, size_t n) {
    char score[48], wdl[224] = "", tbhits[32] = "";
    int len;
    if (r->score >= SCORE_MATE_IN_MAX || r->score <= -SCORE_MATE_IN_MAX)
        len = snprintf(score, sizeof score, "mate %d", score_mate_moves(r->score));
    else
        len = snprintf(score, sizeof score, "cp %d", r->score);
    if (r->lowerbound || r->upperbound)
        snprintf(score + len, sizeof score - (size_t)len, " %s",
                 r->lowerbound ? "lowerbound" : "upperbound");
    if (show_wdl)
        snprintf(wdl, sizeof wdl, " wdl %d %d %d", r->wdl[0], r->wdl[1], r->wdl[2]);
    if (r->has_probs)
        snprintf(wdl, sizeof wdl, " probs %.4f %.4f %.4f %.4f %.4f equity %.4f%s%s", r->probs[0],
                 r->probs[1], r->probs[2], r->probs[3], r->probs[4], r->equity,
                 r->cube[0] ? " cube " : "", r->cube);
    if (r->tbhits)
        snprintf(tbhits, sizeof tbhits, " tbhits %llu", (unsigned long long)r->tbhits);
    int64_t ms = r->time_ms > 0 ? r->time_ms : 0;
    unsigned long long nps = (unsigned long long)(r->nodes * 1000 / (uint64_t)(ms > 1 ? ms : 1));
    snprintf(buf, n,
             "info depth %d seldepth %d multipv %d score %s%s nodes %llu nps %llu%s hashfull %d "
             "time %lld%s%s",
             r->depth, r->seldepth, r->multipv, score, wdl, (unsigned long long)r->nodes, nps,
             tbhits, r->hashfull, (long long)ms, r->pv[0] ? " pv " : "", r->pv);
}

void info_bestmove(const SearchResult *res, bool with_ponder, char *buf, size_t n) {
    if (with_ponder && res->ponder[0])
        snprintf(buf, n, "bestmove %s ponder %s", res->best, res->ponder);
    else
        snprintf(buf, n, "bestmove %s", res->best);
}
