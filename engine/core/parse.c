#include "engine/core/parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

bool parse_integer(const char *s, long long min, long long max, long long *out) {
    const char *digits = s[0] == '-' && min < 0 ? s + 1 : s;
    if (!isdigit((unsigned char)digits[0]))
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*end || errno || v < min || v > max)
        return false;
    *out = v;
    return true;
}
