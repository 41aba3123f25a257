// Positions in the FEN of Sanmill, the Stockfish-derived mill engine, read as tabula position
// strings. Sanmill writes the 24-point board as three rings (inner, middle, outer), each of 8
// points from 12 o'clock clockwise, with `O` white, `@` black, `*` empty and `X` a marked
// point, then 16 more fields and optional extension tokens; docs/variants.md has the mapping.
#ifndef ENGINE_MILL_SANMILL_H
#define ENGINE_MILL_SANMILL_H

#include "engine/core/error.h"

#include <stdbool.h>
#include <stddef.h>

// Enough for any tabula position string converted from a Sanmill FEN.
#define SANMILL_FEN_MAX 96

// Whether a position string is in Sanmill's FEN: its board holds O, @, * or X, which a
// tabula position string never does.
bool sanmill_detect(const char *fen);

// Whether the variant plays on the 24-point board that Sanmill's FEN describes.
bool sanmill_variant_ok(const char *variant);

// Convert a Sanmill FEN (its fields separated by single spaces) into a tabula position
// string. Refuses, with the reason in err, anything malformed and anything tabula cannot
// represent: a pending removal, a marked point, capture-state extensions.
bool sanmill_to_fen(const char *sanmill, char *buf, size_t n, Error *err);

#endif
