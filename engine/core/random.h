// Deterministic pseudo-random numbers (splitmix64) for hash keys and tests.
#ifndef ENGINE_CORE_RANDOM_H
#define ENGINE_CORE_RANDOM_H

#include <stdint.h>

// Advance the state and return the next 64-bit value.
static inline uint64_t random_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#endif
