#include "engine/core/args.h"

#include "engine/core/parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void args_init(Args *a, const char *prog, int argc, char **argv, FILE *err) {
    *a = (Args){.prog = prog, .argc = argc, .argv = argv, .i = 0, .failed = false, .err = err};
}

bool args_more(const Args *a) { return !a->failed && a->i < a->argc; }

const char *args_peek(const Args *a) { return a->i < a->argc ? a->argv[a->i] : NULL; }

void args_fail(Args *a, const char *fmt, ...) {
    if (a->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(a->err, "%s: ", a->prog);
    vfprintf(a->err, fmt, ap);
    fputc('\n', a->err);
    va_end(ap);
    a->failed = true;
}

// Match option name at the cursor and take its value: from "--name=VALUE", or the next
// argument. Returns false when the argument is not name; *value is NULL after an error.
static bool take_value(Args *a, const char *name, const char **value) {
    const char *arg = args_peek(a);
    size_t n = strlen(name);
    *value = NULL;
    if (!args_more(a) || strncmp(arg, name, n) || (arg[n] != '\0' && arg[n] != '='))
        return false;
    a->i++;
    if (arg[n] == '=') {
        *value = arg + n + 1;
    } else if (a->i < a->argc && strncmp(a->argv[a->i], "--", 2)) {
        *value = a->argv[a->i++];
    } else {
        args_fail(a, "missing value after %s", name);
    }
    return true;
}

bool args_match(Args *a, const char *name) {
    if (!args_more(a) || strcmp(args_peek(a), name))
        return false;
    a->i++;
    return true;
}

bool args_flag(Args *a, const char *name, bool *out) {
    if (!args_match(a, name))
        return false;
    *out = true;
    return true;
}

// "option NAME", the name of an option's value in messages.
static const char *option_what(const char *name, char *buf, size_t n) {
    snprintf(buf, n, "option %s", name);
    return buf;
}

bool args_string(Args *a, const char *name, const char **out) {
    const char *v;
    if (!take_value(a, name, &v))
        return false;
    if (v)
        *out = v;
    return true;
}

bool args_int(Args *a, const char *name, int min, int max, int *out) {
    const char *v;
    if (!take_value(a, name, &v))
        return false;
    char what[80];
    if (v)
        args_to_int(a, option_what(name, what, sizeof what), v, min, max, out);
    return true;
}

bool args_long(Args *a, const char *name, long long min, long long max, long long *out) {
    const char *v;
    if (!take_value(a, name, &v))
        return false;
    char what[80];
    if (v)
        args_to_long(a, option_what(name, what, sizeof what), v, min, max, out);
    return true;
}

bool args_u64(Args *a, const char *name, uint64_t *out) {
    const char *v;
    if (!take_value(a, name, &v))
        return false;
    char what[80];
    if (v)
        args_to_u64(a, option_what(name, what, sizeof what), v, out);
    return true;
}

bool args_double(Args *a, const char *name, double min, double max, double *out) {
    const char *v;
    if (!take_value(a, name, &v))
        return false;
    char what[80];
    if (v)
        args_to_double(a, option_what(name, what, sizeof what), v, min, max, out);
    return true;
}

const char *args_operand(Args *a) {
    const char *arg = args_peek(a);
    if (!args_more(a) || (arg[0] == '-' && arg[1] != '\0'))
        return NULL;
    a->i++;
    return arg;
}

void args_unknown(Args *a) {
    const char *arg = args_peek(a);
    if (!args_more(a))
        return;
    a->i++;
    if (arg[0] == '-' && arg[1] != '\0')
        args_fail(a, "unknown option '%s'", arg);
    else
        args_fail(a, "unexpected argument '%s'", arg);
}

bool args_to_long(Args *a, const char *what, const char *text, long long min, long long max,
                  long long *out) {
    if (parse_integer(text, min, max, out))
        return true;
    args_fail(a, "bad %s '%s': not a whole number from %lld to %lld", what, text, min, max);
    return false;
}

bool args_to_int(Args *a, const char *what, const char *text, int min, int max, int *out) {
    long long v;
    if (!args_to_long(a, what, text, min, max, &v))
        return false;
    *out = (int)v;
    return true;
}

bool args_parse_u64(const char *s, uint64_t *out) {
    if (!isdigit((unsigned char)s[0]))
        return false;
    long long v;
    if (parse_integer(s, 0, INT64_MAX, &v)) {
        *out = (uint64_t)v;
        return true;
    }
    // Past 2^63: digits only, and no overflow.
    uint64_t x = 0;
    for (const char *p = s; *p; p++) {
        if (!isdigit((unsigned char)*p) || x > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
            return false;
        x = x * 10 + (uint64_t)(*p - '0');
    }
    *out = x;
    return true;
}

bool args_to_u64(Args *a, const char *what, const char *text, uint64_t *out) {
    if (args_parse_u64(text, out))
        return true;
    args_fail(a, "bad %s '%s': not a whole number from 0 to %llu", what, text,
              (unsigned long long)UINT64_MAX);
    return false;
}

bool args_parse_double(const char *s, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v) || isspace((unsigned char)s[0]))
        return false;
    *out = v;
    return true;
}

bool args_to_double(Args *a, const char *what, const char *text, double min, double max,
                    double *out) {
    double v;
    if (args_parse_double(text, &v) && v >= min && v <= max) {
        *out = v;
        return true;
    }
    args_fail(a, "bad %s '%s': not a number from %g to %g", what, text, min, max);
    return false;
}
