// Command-line options of the subcommands and the offline programs, read one by one from a
// cursor: flags, `--name VALUE` or `--name=VALUE` with bounds-checked numbers, and operands.
// Every error is one line `<program>: <what is wrong>` on the error stream; after one, the
// cursor stops and the caller exits with status 2.
//
//     Args a;
//     args_init(&a, "tabula perft", argc, argv, stderr);
//     while (args_more(&a))
//         if (!args_string(&a, "--fen", &fen) && !args_flag(&a, "--divide", &divide))
//             args_unknown(&a);
//     if (a.failed)
//         return 2;
#ifndef ENGINE_CORE_ARGS_H
#define ENGINE_CORE_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct Args {
    const char *prog; // names the program in messages, e.g. "tabula perft"
    int argc;
    char **argv;
    int i;       // the next argument to read
    bool failed; // an error was printed
    FILE *err;
} Args;

void args_init(Args *a, const char *prog, int argc, char **argv, FILE *err);
// Whether an argument is left to read and none was bad.
bool args_more(const Args *a);
// The next argument, not consumed; NULL past the last.
const char *args_peek(const Args *a);

// Each matcher below consumes the next argument and returns true when it is the option name
// (the value too: from the same argument after '=', or from the next one unless that starts
// with "--"); it returns false, consuming nothing, when the next argument is another option. A
// missing or bad value is reported; the matcher then returns true with a.failed set and *out
// unchanged.
bool args_flag(Args *a, const char *name, bool *out);
// Whether the next argument is name, consumed when it is: an option whose operands follow.
bool args_match(Args *a, const char *name);
bool args_string(Args *a, const char *name, const char **out);
bool args_int(Args *a, const char *name, int min, int max, int *out);
bool args_long(Args *a, const char *name, long long min, long long max, long long *out);
bool args_u64(Args *a, const char *name, uint64_t *out);
bool args_double(Args *a, const char *name, double min, double max, double *out);

// The next argument when it is an operand (not starting with '-', or "-" alone), consumed;
// NULL otherwise.
const char *args_operand(Args *a);
// Report the next argument as not understood and consume it.
void args_unknown(Args *a);
// Report an error in the program's name: `<prog>: <message>`, and stop the cursor.
void args_fail(Args *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

// Read text as the value of what (an option or operand name, for the message), reporting an
// error when it is not a whole number in [min, max] (a decimal number for the double).
bool args_to_int(Args *a, const char *what, const char *text, int min, int max, int *out);
bool args_to_long(Args *a, const char *what, const char *text, long long min, long long max,
                  long long *out);
bool args_to_u64(Args *a, const char *what, const char *text, uint64_t *out);
bool args_to_double(Args *a, const char *what, const char *text, double min, double max,
                    double *out);

// The plain conversions, without a message: a whole unsigned decimal number of 64 bits, and a
// finite decimal number (both the whole text).
bool args_parse_u64(const char *s, uint64_t *out);
bool args_parse_double(const char *s, double *out);

#endif
