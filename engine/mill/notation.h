// Move notation (docs/variants.md, "Notation"): `d6`, `a1-a4`, `d6xa1`, `b2-b4xd7xf4`, `(none)`.
#ifndef ENGINE_MILL_NOTATION_H
#define ENGINE_MILL_NOTATION_H

#include "engine/mill/position.h"

#define MOVE_STR_MAX 24 // "a1-a4" plus four "xd7": 18 bytes with the terminator

// Write the move's token.
void move_format(const Board *b, Move m, char *buf);

// Write n moves separated by spaces, as many as fit in cap bytes.
void move_format_line(const Board *b, const Move *moves, int n, char *buf, size_t cap);

// Find the legal move of p written as `token`; on failure say why and return false.
bool move_parse(const Position *p, const char *token, Move *out, Error *err);

#endif
