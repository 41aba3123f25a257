// Bit helpers for point sets of up to 32 points.
#ifndef ENGINE_CORE_BITS_H
#define ENGINE_CORE_BITS_H

#include <stdint.h>

typedef uint32_t Bits;

static inline int bits_count(Bits b) { return __builtin_popcount(b); }

static inline int bits_count64(uint64_t b) { return __builtin_popcountll(b); }

static inline int bits_lsb(Bits b) { return __builtin_ctz(b); }

// Remove and return the lowest set point.
static inline int bits_pop(Bits *b) {
    int p = __builtin_ctz(*b);
    *b &= *b - 1;
    return p;
}

#define BIT(p) ((Bits)1u << (p))

#endif
