// Monotonic wall clock.
#ifndef ENGINE_CORE_CLOCK_H
#define ENGINE_CORE_CLOCK_H

#include <stdint.h>
#include <time.h>

// Microseconds since an arbitrary fixed point.
static inline int64_t clock_now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

#endif
