// The balanced opening books of the mill variants: one file per variant in match/openings/,
// embedded in the binary, played by `tabula match` unless --openings says otherwise, and made
// by `tabula openings` from a seed. docs/match.md, "Schedule and openings", says how they are
// chosen.
#ifndef MATCH_BOOK_H
#define MATCH_BOOK_H

#include <stddef.h>
#include <stdio.h>

// The embedded book of a variant (the text of match/openings/<variant>.txt), NULL when the
// variant has none; *len its length.
const char *book_text(const char *variant, size_t *len);

// Run `tabula openings` with its arguments (argv[0] is the first one): print a new book on out
// (or into --out), progress on err. Returns the exit status (0, or 2 on bad arguments).
int book_main(int argc, char **argv, FILE *out, FILE *err);

#endif
