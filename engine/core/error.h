// A small fixed-size error message, filled by a failing call and printed by the caller.
#ifndef ENGINE_CORE_ERROR_H
#define ENGINE_CORE_ERROR_H

#include <stdbool.h>

typedef struct Error {
    char msg[256];
} Error;

// Format a message into err (when err is not NULL) and return false, so that a failing
// function can end with `return error_set(err, ...);`.
bool error_set(Error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
