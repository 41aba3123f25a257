#include "tests/helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

Vector vectors[MAX_VECTORS];
static int nvectors = -1;

// Strip blanks from both ends of s in place.
static char *trim(char *s) {
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    return s;
}

// Fill v from the four '|'-separated fields of a data line; false when they do not parse.
static bool parse_vector(char *s, Vector *v) {
    char *field[4];
    for (int i = 0; i < 4; i++) {
        field[i] = s;
        s = strchr(s, '|');
        if ((s == NULL) != (i == 3))
            return false;
        if (s)
            *s++ = '\0';
    }
    snprintf(v->variant, sizeof v->variant, "%s", trim(field[0]));
    snprintf(v->fen, sizeof v->fen, "%s", trim(field[1]));
    snprintf(v->moves, sizeof v->moves, "%s", trim(field[3]));
    char *end = field[2];
    for (int d = 0; d < 3; d++) {
        char *start = end;
        v->perft[d] = strtoull(start, &end, 10);
        if (end == start)
            return false;
    }
    return *trim(end) == '\0' && strlen(field[3]) < sizeof v->moves;
}

int vectors_load(void) {
    if (nvectors >= 0)
        return nvectors;
    nvectors = 0;
    FILE *f = fopen(DATA_FILE, "r");
    if (!f)
        return 0;
    char buf[4096];
    int lineno = 0;
    while (fgets(buf, sizeof buf, f) && nvectors < MAX_VECTORS) {
        lineno++;
        buf[strcspn(buf, "\r\n")] = '\0';
        char *s = trim(buf);
        if (*s == '#' || *s == '\0')
            continue;
        Vector *v = &vectors[nvectors++];
        memset(v, 0, sizeof *v);
        v->line = lineno;
        v->ok = parse_vector(s, v);
    }
    fclose(f);
    return nvectors;
}

void rules_for(MillRules *r, const char *id) {
    const Variant *v = variant_find(id);
    ck_assert_msg(v != NULL, "unknown variant '%s'", id);
    rules_init(r, v);
}

int count_prefix(const char *text, const char *prefix) {
    int n = 0;
    size_t plen = strlen(prefix);
    for (const char *l = text; *l;) {
        n += !strncmp(l, prefix, plen);
        const char *end = strchr(l, '\n');
        if (!end)
            break;
        l = end + 1;
    }
    return n;
}

bool line_after(const char *text, const char *prefix, char *buf, size_t n) {
    size_t plen = strlen(prefix);
    for (const char *l = text; *l;) {
        const char *end = strchr(l, '\n');
        size_t len = end ? (size_t)(end - l) : strlen(l);
        if (len >= plen && !strncmp(l, prefix, plen)) {
            snprintf(buf, n, "%.*s", (int)(len - plen), l + plen);
            return true;
        }
        if (!end)
            break;
        l = end + 1;
    }
    return false;
}

void sleep_ms(int ms) {
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
