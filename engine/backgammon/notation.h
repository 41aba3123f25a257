// Move notation (BACKGAMMON.md): gnubg's printed form of a play, `24/18 13/11`, `bar/20*
// 13/11`, `6/4*(4)`, `5/off(2)`, and the protocol's turn tokens, `31:8/5,6/5`, `65:-`,
// `double`, `take`, `drop`, `roll`.
//
// Points are numbered from the mover's side; sub-moves are listed by decreasing source; one
// checker's consecutive steps are merged (`24/13`) and a point where it hit on the way is kept
// (`24/20*/14`); identical sub-moves collapse to `(n)`.
#ifndef ENGINE_BACKGAMMON_NOTATION_H
#define ENGINE_BACKGAMMON_NOTATION_H

#include "engine/backgammon/movegen.h"
#include "engine/core/error.h"

#include <stddef.h>

#define BG_PLAY_TEXT_MAX 64
// The longest turn token is 31 characters, so it fits SearchResult.best: at most four chains
// (a double), sources distinct unless the chains collapse to (n), at most one of them `bar`,
// each step `/dd*` or `/off`: `44:bar/22*,24/20*,23/19*,21/17*`.
#define BG_MAX_SEGMENTS 16

// Write play (made by player side from board b) with sub-moves separated by sep (" " for
// gnubg's form, "," inside a protocol token); "-" for an empty play (n == 0).
void bg_play_format(const BgBoard *b, int side, const BgPlay *play, const char *sep, char *out,
                    size_t n);

// The protocol token of a play: `<larger die><smaller die>:<play>`.
void bg_play_token(const BgBoard *b, int side, int d1, int d2, const BgPlay *play, char *out,
                   size_t n);

// A turn token read apart: the dice and the checker movements it names.
typedef struct BgTurnText {
    int dice[2];   // larger first
    bool has_play; // false for a bare roll `31`
    int nseg;      // 0 for `-`
    uint8_t from[BG_MAX_SEGMENTS], to[BG_MAX_SEGMENTS];
} BgTurnText;

// Read `31`, `31:-` or `31:8/5,6/5` (gnubg's spaces also accepted between sub-moves, `bar`
// and `off` or 25 and 0, `*` ignored, `(n)` repeats).
bool bg_turn_parse(const char *s, BgTurnText *t, Error *err);

// Read a play as a person types it in gnubg's form, without the dice: sub-moves separated by
// spaces or commas (`8/5 6/5`, `8/5,6/5`), `(n)` repeating one (`8/5(2)`), a checker's steps
// chained (`13/7*/5`), `bar` and `off` (or 25 and 0), `*` ignored. t's dice stay 0.
bool bg_play_parse(const char *s, BgTurnText *t, Error *err);

// Move the checkers as the segments say on a copy of b (each from a point holding one of the
// mover's checkers, forward, onto a point not held by two or more enemy checkers, hitting a
// blot); false when a segment cannot be made. The dice are not checked: the caller compares
// the board with the legal plays'.
bool bg_segments_apply(const BgBoard *b, int side, const BgTurnText *t, BgBoard *after, Error *err);

// The legal play of position p (with its dice) that the token `31:8/5,6/5` makes, its
// sub-moves one per die; false when the token is no legal play there (or a pass).
bool bg_token_play(const BgPosition *p, const char *token, BgPlay *out);

#endif
