// Helpers shared by the suites: the perft vectors of data/mill_perft.txt and a few assertions.
#ifndef TESTS_HELPERS_H
#define TESTS_HELPERS_H

#include "engine/mill/variant.h"

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DATA_FILE "data/mill_perft.txt"
#define MAX_VECTORS 256

// Fail with a message when cond is false. Hot loops use it instead of ck_assert, which records
// a check point with the runner on every pass: too slow for a hundred thousand positions.
#define EXPECT(cond, ...)                                                                          \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ck_abort_msg(__VA_ARGS__);                                                             \
    } while (0)

// One line of the data file: variant | position string | perft d1 d2 d3 | moves.
typedef struct Vector {
    int line;
    bool ok; // false when the line does not parse, so that its test fails
    char variant[16];
    char fen[128];
    uint64_t perft[3];
    char moves[2048];
} Vector;

extern Vector vectors[MAX_VECTORS];

// Read every vector of DATA_FILE once; return how many there are (0 when it is missing).
int vectors_load(void);

// Set up the default rules of a variant, failing the test when it is unknown.
void rules_for(MillRules *r, const char *id);

// Text helpers for the protocol suites.
// How many lines of text start with prefix.
int count_prefix(const char *text, const char *prefix);
// Copy the rest of the first line of text that starts with prefix into buf; false if none.
bool line_after(const char *text, const char *prefix, char *buf, size_t n);
// Sleep for ms milliseconds.
void sleep_ms(int ms);
// A monotonic clock in seconds.
double seconds(void);

#endif
