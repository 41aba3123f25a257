// The search's progress and result as protocol lines: `info ...` and `bestmove ...`.
#ifndef PROTOCOL_INFO_H
#define PROTOCOL_INFO_H

#include "engine/core/search.h"

#include <stdbool.h>
#include <stddef.h>

// Enough for every field of an info line and a full principal variation.
#define INFO_LINE_MAX (PV_TEXT_MAX + 256)

// Format one iteration's report as an info line (without the newline):
// info depth <d> seldepth <s> multipv <k> score cp <x>|mate <n> [lowerbound|upperbound]
// [wdl <w> <d> <l> | probs <w> <wg> <wbg> <lg> <lbg> equity <e>] nodes <n> nps <n> hashfull <h>
// time <ms> pv <moves>
void info_format(const SearchReport *r, bool show_wdl, char *buf, size_t n);

// Format the final answer: bestmove <m> [ponder <m>], the ponder move only when with_ponder
// (UGI's bestmove has exactly two tokens).
void info_bestmove(const SearchResult *res, bool with_ponder, char *buf, size_t n);

#endif
