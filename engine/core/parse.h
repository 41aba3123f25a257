// Reading numbers out of user text.
#ifndef ENGINE_CORE_PARSE_H
#define ENGINE_CORE_PARSE_H

#include <stdbool.h>

// Read the whole of s as a decimal integer in [min, max]: digits, with a leading '-' allowed
// when min < 0 (no spaces, no '+'); false otherwise.
bool parse_integer(const char *s, long long min, long long max, long long *out);

#endif
