// libFuzzer harness for the command loop. The input's first byte picks the variant to start
// from, among every variant of every family (the registry's), so that each family is fuzzed
// from its first line on; the rest is a conversation, one command per line (a NUL ends its line
// early, as it does for uci_loop), executed by uci_execute on a fresh Uci that writes to
// /dev/null. Each line is also Tab-completed at its last word by prompt_complete.
//
// Kept fast and free of false hangs:
// - `go` and `play` run as written (their arguments are parsed), but the search never outlives
//   the lines that are allowed during a search (isready, stop, ponderhit, query, d, moves, eval,
//   debug): any other line, and the end of the input, first stops it. A search thus lasts a
//   few lines at most, and depth 1 (which the search always finishes) is tiny.
// - `bench` lines are skipped (bench searches a fixed set of positions, not the input).
// - perft depths above 2 and Threads above 4 are lowered to those.
// - Every transposition table is 1 MB, whatever Hash says: tt_init is wrapped at link time
//   (-Wl,--wrap=tt_init). The table's size changes nothing the fuzzer can check, and the 16 MB
//   table of each fresh engine would take most of the time (and Hash 65536 all the memory).
#include "engine/core/registry.h"
#include "engine/core/tt.h"
#include "protocol/prompt.h"
#include "protocol/uci.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PERFT_CAP 2
#define THREADS_CAP 4
#define MAX_TOKENS 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
bool __real_tt_init(TT *tt, size_t mb);
bool __wrap_tt_init(TT *tt, size_t mb);

bool __wrap_tt_init(TT *tt, size_t mb) {
    (void)mb;
    return __real_tt_init(tt, 1);
}

// The first MAX_TOKENS tokens of line (split on spaces and tabs; CR and LF end it, as in the
// command loop) in a malloc'd copy *buf; returns the count of all its tokens.
static int tokens_of(const char *line, char **buf, char **t) {
    size_t len = strcspn(line, "\r\n");
    int k = 0;
    if (!(*buf = strndup(line, len)))
        abort();
    for (char *save, *s = strtok_r(*buf, " \t", &save); s; s = strtok_r(NULL, " \t", &save))
        if (k++ < MAX_TOKENS)
            t[k - 1] = s;
    return k;
}

// Whether s is a whole decimal number above cap (as the command loop reads numbers).
static bool above(const char *s, long long cap) {
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    return end != s && !*end && !errno && v > cap;
}

// Whether a command may run while a search goes on without first stopping it.
static bool runs_during_search(const char *cmd) {
    static const char *const LIST[] = {"isready", "stop", "ponderhit", "query", "d",
                                       "moves",   "eval", "debug",     NULL};
    for (int i = 0; LIST[i]; i++)
        if (!strcmp(cmd, LIST[i]))
            return true;
    return false;
}

// Execute one line as the harness allows it (see the top of the file).
static void execute(Uci *u, char *line) {
    char *buf, *t[MAX_TOKENS];
    int n = tokens_of(line, &buf, t);
    bool setoption =
        n == 5 && !strcmp(t[0], "setoption") && !strcmp(t[1], "name") && !strcmp(t[3], "value");
    if (n > 0 && u->searching && !runs_during_search(t[0]))
        uci_stop_search(u);
    if (n > 0 && !strcmp(t[0], "bench")) {
        // Skipped.
    } else if (n == 2 && !strcmp(t[0], "perft") && above(t[1], PERFT_CAP)) {
        uci_execute(u, "perft 2");
    } else if (setoption && !strcasecmp(t[2], "Threads") && above(t[4], THREADS_CAP)) {
        uci_execute(u, "setoption name Threads value 4");
    } else {
        uci_execute(u, line);
    }
    free(buf);
}

// Tab completion at the end of line, as if the cursor were there.
static void complete(Prompt *p, const char *line) {
    size_t len = strlen(line), start = len;
    while (start > 0 && line[start - 1] != ' ' && line[start - 1] != '\t')
        start--;
    char **words;
    int n = prompt_complete(p, line, (int)start, (int)len, &words);
    for (int i = 0; i < n; i++)
        free(words[i]);
    free(words);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static FILE *sink;
    static Prompt prompt; // its scratch game outlives the inputs: set up afresh on each use
    if (!sink && !(sink = fopen("/dev/null", "w")))
        abort();
    if (size == 0)
        return 0;
    int nvariants = 0;
    while (registry_variant(nvariants))
        nvariants++;
    char variant[96];
    snprintf(variant, sizeof variant, "setoption name UCI_Variant value %s",
             registry_variant(data[0] % nvariants));
    data++, size--;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    Output out;
    Uci u;
    output_init(&out, sink);
    if (!uci_init(&u, &out))
        abort();
    prompt.u = &u;
    uci_execute(&u, variant);
    for (char *line = text, *next; line < text + size && !u.quit; line = next) {
        char *nl = memchr(line, '\n', (size_t)(text + size - line));
        next = nl ? nl + 1 : text + size;
        if (nl)
            *nl = '\0';
        complete(&prompt, line);
        execute(&u, line);
    }
    uci_stop_search(&u);
    uci_free(&u);
    output_free(&out);
    free(text);
    return 0;
}
