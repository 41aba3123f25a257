// The command loop. Commands are looked up in one table; each command that changes what a
// running search reads (the game, the table, the settings) first stops the search and waits
// for its bestmove. `go` is parsed into SearchLimits and hands them to a search thread, which
// reports through the hooks and prints the one bestmove; everything goes through the locked
// Output writer.
#include "protocol/uci.h"

#include "bench/bench.h"
#include "engine/core/clock.h"
#include "engine/mill/game.h"
#include "protocol/info.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define BOARD_TEXT_MAX 1024
#define EVAL_TEXT_MAX 4096
#define TIME_MAX 1000000000000LL // ms; thirty years, far from any overflow
#define COUNT_MAX 1000000        // depth, mate, movestogo

typedef struct Tokens {
    int n;
    char **v;
    char *buf;
} Tokens;

// Split a line on spaces and tabs (CR and LF end it).
static bool tokenize(const char *line, Tokens *t) {
    size_t len = strcspn(line, "\r\n");
    t->n = 0;
    t->buf = malloc(len + 1);
    t->v = malloc((len / 2 + 2) * sizeof *t->v);
    if (!t->buf || !t->v) {
        free(t->buf);
        free(t->v);
        return false;
    }
    memcpy(t->buf, line, len);
    t->buf[len] = '\0';
    for (char *save, *s = strtok_r(t->buf, " \t", &save); s; s = strtok_r(NULL, " \t", &save))
        t->v[t->n++] = s;
    return true;
}

static void tokens_free(Tokens *t) {
    free(t->buf);
    free(t->v);
}

// A copy of user text that is safe to echo: at most 40 printable characters.
static const char *shown(const char *s, char buf[48]) {
    int i = 0;
    for (; s[i] && i < 40; i++)
        buf[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
    strcpy(buf + i, s[i] ? "..." : "");
    return buf;
}

// Reply with one error line; bytes outside printable ASCII that user text brought into the
// message are shown as '?'.
static void error_reply(Uci *u, const char *msg) {
    char clean[512];
    size_t i = 0;
    for (; msg[i] && i + 1 < sizeof clean; i++)
        clean[i] = msg[i] >= 0x20 && msg[i] <= 0x7e ? msg[i] : '?';
    clean[i] = '\0';
    output_line(u->out, "info string error: %s", clean);
}

// Join tokens [from, to) with single spaces into a new string.
static char *join(const Tokens *t, int from, int to) {
    size_t len = 1;
    for (int i = from; i < to; i++)
        len += strlen(t->v[i]) + 1;
    char *s = malloc(len), *end = s;
    if (!s)
        return NULL;
    for (int i = from; i < to; i++) {
        size_t n = strlen(t->v[i]);
        if (i > from)
            *end++ = ' ';
        memcpy(end, t->v[i], n);
        end += n;
    }
    *end = '\0';
    return s;
}

// Read a whole token as a decimal number in [min, max].
static bool parse_number(const char *s, long long min, long long max, long long *out) {
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end || errno || v < min || v > max)
        return false;
    *out = v;
    return true;
}

// ---------------------------------------------------------------------------------------------
// The engine's options

typedef enum OptionKind { KIND_SPIN, KIND_CHECK, KIND_BUTTON } OptionKind;

typedef struct EngineOption {
    const char *name;
    OptionKind kind;
    int def, min, max;
} EngineOption;

// clang-format off
static const EngineOption ENGINE_OPTIONS[UCI_OPTION_COUNT] = {
    [UCI_HASH]          = {"Hash",          KIND_SPIN,   16, 1, 65536},
    [UCI_CLEAR_HASH]    = {"Clear Hash",    KIND_BUTTON,  0, 0, 0},
    [UCI_THREADS]       = {"Threads",       KIND_SPIN,    1, 1, 256},
    [UCI_MULTIPV]       = {"MultiPV",       KIND_SPIN,    1, 1, MAX_MULTIPV},
    [UCI_PONDER]        = {"Ponder",        KIND_CHECK,   0, 0, 1},
    [UCI_MOVE_OVERHEAD] = {"Move Overhead", KIND_SPIN,   30, 0, 5000},
    [UCI_SHOW_WDL]      = {"UCI_ShowWDL",   KIND_CHECK,   0, 0, 1},
};
// clang-format on

// Declare one engine option with its current value, as `uci` does.
static void declare_option(Uci *u, UciOption id) {
    const EngineOption *o = &ENGINE_OPTIONS[id];
    int v = u->options[id];
    if (o->kind == KIND_SPIN)
        output_line(u->out, "option name %s type spin default %d min %d max %d", o->name, v, o->min,
                    o->max);
    else if (o->kind == KIND_CHECK)
        output_line(u->out, "option name %s type check default %s", o->name, v ? "true" : "false");
    else
        output_line(u->out, "option name %s type button", o->name);
}

// Set an engine option; the Hash table is resized before the value is kept, so a failure
// leaves the old table and value.
static bool set_engine_option(Uci *u, UciOption id, const char *value, Error *err) {
    const EngineOption *o = &ENGINE_OPTIONS[id];
    long long v = 0;
    if (o->kind == KIND_CHECK) {
        if (!strcasecmp(value, "true"))
            v = 1;
        else if (strcasecmp(value, "false"))
            return error_set(err, "option %s takes true or false, not '%.40s'", o->name, value);
    } else if (o->kind == KIND_SPIN && !parse_number(value, o->min, o->max, &v)) {
        return error_set(err, "option %s takes a number from %d to %d, not '%.40s'", o->name,
                         o->min, o->max, value);
    }
    if (id == UCI_HASH && !u->family->set_hash(u->game, (int)v, err))
        return false;
    if (id == UCI_CLEAR_HASH)
        u->family->clear_hash(u->game);
    u->options[id] = (int)v;
    return true;
}

// The index of the engine option called name (any case), -1 when there is none.
static int find_engine_option(const char *name) {
    for (int i = 0; i < UCI_OPTION_COUNT; i++)
        if (!strcasecmp(name, ENGINE_OPTIONS[i].name))
            return i;
    return -1;
}

// ---------------------------------------------------------------------------------------------
// The search thread

// Print one iteration's report as an info line (the hooks' report, on the search thread).
static void report_info(void *ctx, const SearchReport *r) {
    Uci *u = ctx;
    char line[INFO_LINE_MAX];
    info_format(r, u->limits.show_wdl, line, sizeof line);
    output_line(u->out, "%s", line);
}

// Print a message of the search as `info string`.
static void report_message(void *ctx, const char *text) {
    output_line(((Uci *)ctx)->out, "info string %s", text);
}

// The search thread: search, then print the one bestmove of this go.
static void *search_main(void *arg) {
    Uci *u = arg;
    SearchResult res;
    char line[96];
    u->family->search(u->game, &u->limits, &u->hooks, &res);
    info_bestmove(&res, line, sizeof line);
    output_line(u->out, "%s", line);
    return NULL;
}

// Start the search thread on lim; the previous search must have been joined.
static void start_search(Uci *u, const SearchLimits *lim, bool ponder) {
    u->limits = *lim;
    u->hooks.report = report_info;
    u->hooks.message = report_message;
    u->hooks.ctx = u;
    atomic_store(&u->hooks.stop, false);
    atomic_store(&u->hooks.ponder, ponder);
    atomic_store(&u->hooks.ponderhit_us, 0);
    if (pthread_create(&u->thread, NULL, search_main, u) != 0) {
        error_reply(u, "cannot start the search thread");
        return;
    }
    u->searching = true;
}

void uci_stop_search(Uci *u) {
    if (!u->searching)
        return;
    atomic_store(&u->hooks.stop, true);
    pthread_join(u->thread, NULL);
    u->searching = false;
}

void uci_finish_search(Uci *u) {
    if (!u->searching)
        return;
    if (u->limits.infinite || atomic_load(&u->hooks.ponder))
        atomic_store(&u->hooks.stop, true);
    pthread_join(u->thread, NULL);
    u->searching = false;
}

// ---------------------------------------------------------------------------------------------
// go

typedef enum GoKey {
    GO_WTIME,
    GO_BTIME,
    GO_WINC,
    GO_BINC,
    GO_MOVESTOGO,
    GO_DEPTH,
    GO_NODES,
    GO_MATE,
    GO_MOVETIME,
    GO_COUNT
} GoKey;

typedef struct GoNumber {
    const char *name;
    long long min, max;
    bool limit; // ends the search by itself; a go without any is infinite
} GoNumber;

// The clocks may arrive negative from a GUI whose engine overstepped a margin: read as 0.
// clang-format off
static const GoNumber GO_NUMBERS[GO_COUNT] = {
    [GO_WTIME]     = {"wtime",     -TIME_MAX, TIME_MAX,  true},
    [GO_BTIME]     = {"btime",     -TIME_MAX, TIME_MAX,  true},
    [GO_WINC]      = {"winc",      0,         TIME_MAX,  false},
    [GO_BINC]      = {"binc",      0,         TIME_MAX,  false},
    [GO_MOVESTOGO] = {"movestogo", 0,         COUNT_MAX, false},
    [GO_DEPTH]     = {"depth",     1,         COUNT_MAX, true},
    [GO_NODES]     = {"nodes",     1,         LLONG_MAX, true},
    [GO_MATE]      = {"mate",      1,         COUNT_MAX, true},
    [GO_MOVETIME]  = {"movetime",  1,         TIME_MAX,  true},
};
// clang-format on

// Keep the value of a numeric go argument in lim.
static void go_store(SearchLimits *lim, GoKey key, long long v) {
    switch (key) {
    case GO_WTIME:
    case GO_BTIME:
        lim->time[key == GO_BTIME] = v < 0 ? 0 : v;
        break;
    case GO_WINC:
    case GO_BINC:
        lim->inc[key == GO_BINC] = v;
        break;
    case GO_MOVESTOGO:
        lim->movestogo = (int)v;
        break;
    case GO_DEPTH:
        lim->depth = (int)v;
        break;
    case GO_NODES:
        lim->nodes = (uint64_t)v;
        break;
    case GO_MATE:
        lim->mate = (int)v;
        break;
    case GO_MOVETIME:
        lim->movetime = v;
        break;
    case GO_COUNT:
        break;
    }
}

// Parse the arguments of `go` as a stream of keywords and values into lim. searchmoves takes
// the rest of the line: *moves_at is the index of its first move (t->n without it). False with
// a message on the first bad argument.
static bool parse_go(const Tokens *t, SearchLimits *lim, bool *ponder, int *moves_at, char *msg,
                     size_t n) {
    char b1[48], b2[48];
    bool limited = false;
    *ponder = false;
    *moves_at = t->n;
    for (int i = 1; i < t->n; i++) {
        const char *k = t->v[i];
        if (!strcmp(k, "infinite")) {
            lim->infinite = true;
        } else if (!strcmp(k, "ponder")) {
            *ponder = true;
        } else if (!strcmp(k, "searchmoves")) {
            if (i + 1 == t->n) {
                snprintf(msg, n, "go searchmoves needs at least one move");
                return false;
            }
            *moves_at = i + 1;
            break;
        } else {
            int key = 0;
            while (key < GO_COUNT && strcmp(k, GO_NUMBERS[key].name))
                key++;
            if (key == GO_COUNT) {
                snprintf(msg, n, "unknown go argument '%s'", shown(k, b1));
                return false;
            }
            const GoNumber *g = &GO_NUMBERS[key];
            long long v;
            if (i + 1 == t->n) {
                snprintf(msg, n, "go %s needs a value", g->name);
                return false;
            }
            if (!parse_number(t->v[++i], g->min, g->max, &v)) {
                snprintf(msg, n, "go %s takes a number from %lld to %lld, not '%s'", g->name,
                         g->min < 0 ? 0 : g->min, g->max, shown(t->v[i], b2));
                return false;
            }
            go_store(lim, (GoKey)key, v);
            limited |= g->limit;
        }
    }
    if (!limited)
        lim->infinite = true;
    return true;
}

typedef struct MovesCtx {
    char *buf;
    size_t len, cap;
} MovesCtx;

static void collect_move(void *ctx, const char *move) {
    MovesCtx *c = ctx;
    size_t need = c->len + strlen(move) + 2;
    if (need > c->cap) {
        size_t cap = need * 2;
        char *b = realloc(c->buf, cap);
        if (!b)
            return;
        c->buf = b;
        c->cap = cap;
    }
    c->len += (size_t)sprintf(c->buf + c->len, "%s%s", c->len ? " " : "", move);
}

// Whether word is one of the space-separated words of list.
static bool has_word(const char *list, const char *word) {
    size_t len = strlen(word);
    for (const char *s = list; *s;) {
        if (!strncmp(s, word, len) && (s[len] == ' ' || s[len] == '\0'))
            return true;
        const char *space = strchr(s, ' ');
        if (!space)
            break;
        s = space + 1;
    }
    return false;
}

// Check that the searchmoves tokens [from, t->n) are legal moves, as `moves` writes them.
static bool check_searchmoves(Uci *u, const Tokens *t, int from, char *msg, size_t n) {
    if (from == t->n)
        return true;
    char b1[48];
    MovesCtx c = {NULL, 0, 0};
    u->family->legal_moves(u->game, collect_move, &c);
    bool ok = true;
    for (int i = from; i < t->n && ok; i++)
        if (!c.buf || !has_word(c.buf, t->v[i])) {
            snprintf(msg, n, "searchmoves: '%s' is not a legal move", shown(t->v[i], b1));
            ok = false;
        }
    free(c.buf);
    return ok;
}

// Keep copies of tokens [from, t->n) for the search thread: one block, pointers then text.
static bool keep_searchmoves(Uci *u, const Tokens *t, int from) {
    free(u->searchmoves);
    u->searchmoves = NULL;
    int n = t->n - from;
    if (n <= 0)
        return true;
    size_t bytes = (size_t)n * sizeof(char *);
    for (int i = from; i < t->n; i++)
        bytes += strlen(t->v[i]) + 1;
    char **v = malloc(bytes);
    if (!v)
        return false;
    char *s = (char *)(v + n);
    for (int i = 0; i < n; i++) {
        size_t len = strlen(t->v[from + i]) + 1;
        memcpy(s, t->v[from + i], len);
        v[i] = s;
        s += len;
    }
    u->searchmoves = v;
    return true;
}

// go: parse, check the searchmoves, and start the search with the current settings.
static void cmd_go(Uci *u, const Tokens *t) {
    char msg[320];
    SearchLimits lim = {.time = {-1, -1}};
    bool ponder;
    int moves_at;
    if (!parse_go(t, &lim, &ponder, &moves_at, msg, sizeof msg) ||
        !check_searchmoves(u, t, moves_at, msg, sizeof msg)) {
        error_reply(u, msg);
        return;
    }
    if (!keep_searchmoves(u, t, moves_at)) {
        error_reply(u, "out of memory");
        return;
    }
    lim.nsearchmoves = t->n - moves_at;
    lim.searchmoves = (const char *const *)u->searchmoves;
    lim.start_us = u->received_us;
    lim.threads = u->options[UCI_THREADS];
    lim.multipv = u->options[UCI_MULTIPV];
    lim.move_overhead = u->options[UCI_MOVE_OVERHEAD];
    lim.show_wdl = u->options[UCI_SHOW_WDL];
    start_search(u, &lim, ponder);
}

static void cmd_stop(Uci *u, const Tokens *t) {
    (void)t;
    uci_stop_search(u);
}

// The opponent played the expected move: the pondering search goes on as a normal one, its
// clock starting now.
static void cmd_ponderhit(Uci *u, const Tokens *t) {
    (void)t;
    if (!u->searching || !atomic_load(&u->hooks.ponder))
        return;
    atomic_store(&u->hooks.ponderhit_us, u->received_us);
    atomic_store(&u->hooks.ponder, false);
}

// ---------------------------------------------------------------------------------------------
// The other commands

static void cmd_uci(Uci *u, const Tokens *t) {
    (void)t;
    const GameFamily *f = u->family;
    char line[1024], value[64];
    output_line(u->out, "id name tabula %s", TABULA_VERSION);
    output_line(u->out, "id author the tabula developers");
    int len = snprintf(line, sizeof line, "option name UCI_Variant type combo default %s",
                       f->variant(u->game));
    for (int i = 0; f->variant_id(i); i++)
        len += snprintf(line + len, sizeof line - (size_t)len, " var %s", f->variant_id(i));
    output_line(u->out, "%s", line);
    for (int i = 0; i < f->noptions; i++) {
        const GameOption *o = &f->options[i];
        f->get_option(u->game, o->name, value, sizeof value);
        if (o->type == OPTION_CHECK)
            output_line(u->out, "option name %s type check default %s", o->name, value);
        else
            output_line(u->out, "option name %s type spin default %s min %d max %d", o->name, value,
                        o->min, o->max);
    }
    for (int i = 0; i < UCI_OPTION_COUNT; i++)
        declare_option(u, (UciOption)i);
    output_line(u->out, "uciok");
}

static void cmd_isready(Uci *u, const Tokens *t) {
    (void)t;
    output_line(u->out, "readyok");
}

// Set a rule option of the family.
static void set_rule_option(Uci *u, const char *name, char *value) {
    char b1[48], msg[160];
    Error err;
    const GameOption *o = NULL;
    for (int i = 0; i < u->family->noptions && !o; i++)
        if (!strcasecmp(name, u->family->options[i].name))
            o = &u->family->options[i];
    if (!o) {
        snprintf(msg, sizeof msg, "unknown option '%s'", shown(name, b1));
        error_reply(u, msg);
        return;
    }
    if (o->type == OPTION_CHECK)
        for (char *c = value; *c; c++)
            *c = (char)tolower((unsigned char)*c);
    if (!u->family->set_option(u->game, o->name, value, &err))
        error_reply(u, err.msg);
}

static void cmd_setoption(Uci *u, const Tokens *t) {
    int value_kw = t->n; // index of the "value" keyword, t->n when absent
    for (int i = 3; i < t->n && value_kw == t->n; i++)
        if (!strcmp(t->v[i], "value"))
            value_kw = i;
    if (t->n < 3 || strcmp(t->v[1], "name")) {
        error_reply(u, "usage: setoption name <id> [value <x>]");
        return;
    }
    char *name = join(t, 2, value_kw);
    char *value = join(t, value_kw + 1 < t->n ? value_kw + 1 : t->n, t->n);
    Error err;
    int engine = name ? find_engine_option(name) : -1;
    if (!name || !value) {
        error_reply(u, "out of memory");
    } else if (!strcasecmp(name, "UCI_Variant")) {
        for (char *c = value; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        if (!u->family->set_variant(u->game, value, &err))
            error_reply(u, err.msg);
    } else if (engine >= 0) {
        if (!set_engine_option(u, (UciOption)engine, value, &err))
            error_reply(u, err.msg);
    } else {
        set_rule_option(u, name, value);
    }
    free(name);
    free(value);
}

static void cmd_ucinewgame(Uci *u, const Tokens *t) {
    (void)t;
    Error err;
    u->family->set_position(u->game, NULL, NULL, 0, &err);
    u->family->clear_hash(u->game);
}

static void cmd_position(Uci *u, const Tokens *t) {
    char b1[48], msg[320];
    int moves_at = t->n, fen_end = t->n;
    for (int i = 1; i < t->n; i++)
        if (!strcmp(t->v[i], "moves")) {
            moves_at = i + 1;
            fen_end = i;
            break;
        }
    char *fen = NULL;
    if (t->n >= 2 && !strcmp(t->v[1], "startpos")) {
        if (fen_end > 2) {
            snprintf(msg, sizeof msg, "unexpected '%s' after startpos", shown(t->v[2], b1));
            error_reply(u, msg);
            return;
        }
    } else if (t->n >= 2 && !strcmp(t->v[1], "fen")) {
        if (fen_end == 2) {
            error_reply(u, "position fen needs a position string");
            return;
        }
        fen = join(t, 2, fen_end);
        if (!fen) {
            error_reply(u, "out of memory");
            return;
        }
    } else {
        error_reply(u, "usage: position startpos|fen <string> [moves <m1> ...]");
        return;
    }
    Error err;
    const char *const *moves = (const char *const *)t->v + moves_at;
    if (!u->family->set_position(u->game, fen, moves, t->n - moves_at, &err)) {
        snprintf(msg, sizeof msg, "%s (position unchanged)", err.msg);
        error_reply(u, msg);
    }
    free(fen);
}

typedef struct DivideCtx {
    Output *out;
} DivideCtx;

static void divide_line(void *ctx, const char *move, uint64_t count) {
    output_line(((DivideCtx *)ctx)->out, "%s: %llu", move, (unsigned long long)count);
}

#define PERFT_MAX_DEPTH 64

static void cmd_perft(Uci *u, const Tokens *t) {
    char *end;
    long depth = 0;
    if (t->n == 2) {
        errno = 0;
        depth = strtol(t->v[1], &end, 10);
        if (*end || errno)
            depth = 0;
    }
    if (t->n != 2 || depth < 1 || depth > PERFT_MAX_DEPTH) {
        error_reply(u, "usage: perft <depth>, depth from 1 to 64");
        return;
    }
    DivideCtx ctx = {u->out};
    uint64_t total = u->family->perft(u->game, (int)depth, divide_line, &ctx);
    output_line(u->out, "Nodes searched: %llu", (unsigned long long)total);
}

static void cmd_d(Uci *u, const Tokens *t) {
    (void)t;
    char board[BOARD_TEXT_MAX], fen[128], reason[160];
    u->family->render(u->game, board, sizeof board);
    u->family->get_position(u->game, fen, sizeof fen);
    u->family->result(u->game, reason, sizeof reason);
    output_text(u->out, board);
    output_line(u->out, "Variant: %s", u->family->variant(u->game));
    output_line(u->out, "Position: %s", fen);
    output_line(u->out, "Key: %016llX", (unsigned long long)u->family->key(u->game));
    output_line(u->out, "Result: %s", reason);
}

static void cmd_moves(Uci *u, const Tokens *t) {
    (void)t;
    MovesCtx c = {NULL, 0, 0};
    int n = u->family->legal_moves(u->game, collect_move, &c);
    output_line(u->out, "%s", n && c.buf ? c.buf : "(none)");
    free(c.buf);
}

// eval: the family's evaluation text, one reply line per line.
static void cmd_eval(Uci *u, const Tokens *t) {
    (void)t;
    char text[EVAL_TEXT_MAX];
    u->family->eval(u->game, text, sizeof text);
    for (char *line = text, *next; *line; line = next) {
        next = line + strcspn(line, "\n");
        if (*next)
            *next++ = '\0';
        output_line(u->out, "%s", line);
    }
}

static void bench_line(void *ctx, const char *line) { output_line(ctx, "%s", line); }

// bench [depth]: the bench of bench/bench.c, on a game of its own.
static void cmd_bench(Uci *u, const Tokens *t) {
    long long depth = BENCH_DEPTH_DEFAULT;
    if (t->n > 2 || (t->n == 2 && !parse_number(t->v[1], 1, BENCH_DEPTH_MAX, &depth))) {
        error_reply(u, "usage: bench [depth], depth from 1 to 64");
        return;
    }
    bench_run((int)depth, bench_line, u->out);
}

static void cmd_quit(Uci *u, const Tokens *t) {
    (void)t;
    uci_stop_search(u);
    u->quit = true;
}

static void cmd_help(Uci *u, const Tokens *t);

typedef struct Command {
    const char *name;
    void (*run)(Uci *u, const Tokens *t);
    bool stops; // stops a running search (and waits for its bestmove) before it runs
    const char *help;
} Command;

// clang-format off
static const Command COMMANDS[] = {
    {"uci",        cmd_uci,        false, "identify, list the options, answer uciok"},
    {"isready",    cmd_isready,    false, "answer readyok (at once, also while searching)"},
    {"setoption",  cmd_setoption,  true,  "setoption name <id> [value <x>]: set an option"},
    {"ucinewgame", cmd_ucinewgame, true,  "start a new game from the variant's start position"},
    {"position",   cmd_position,   true,  "position startpos|fen <string> [moves <m1> ...]"},
    {"go",         cmd_go,         true,  "go [<limits>] [infinite] [ponder] [searchmoves <m>...]"},
    {"stop",       cmd_stop,       false, "stop the search; it answers bestmove"},
    {"ponderhit",  cmd_ponderhit,  false, "the pondered move was played: search on the clock"},
    {"perft",      cmd_perft,      true,  "perft <depth>: count move sequences, per move"},
    {"bench",      cmd_bench,      true,  "bench [depth]: search the bench positions, count nodes"},
    {"d",          cmd_d,          false, "draw the board, the position string and its key"},
    {"moves",      cmd_moves,      false, "list the legal moves"},
    {"eval",       cmd_eval,       false, "the static evaluation and its terms"},
    {"help",       cmd_help,       false, "list the commands"},
    {"quit",       cmd_quit,       false, "stop any search and leave"},
};
// clang-format on

static void cmd_help(Uci *u, const Tokens *t) {
    (void)t;
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        output_line(u->out, "%-11s %s", COMMANDS[i].name, COMMANDS[i].help);
}

bool uci_init(Uci *u, Output *out) {
    u->out = out;
    u->family = &MILL_FAMILY;
    u->game = u->family->create("nine");
    u->quit = false;
    for (int i = 0; i < UCI_OPTION_COUNT; i++)
        u->options[i] = ENGINE_OPTIONS[i].def;
    u->received_us = 0;
    u->searching = false;
    u->searchmoves = NULL;
    u->limits = (SearchLimits){.time = {-1, -1}};
    u->hooks = (SearchHooks){.report = NULL};
    atomic_init(&u->hooks.stop, false);
    atomic_init(&u->hooks.ponder, false);
    atomic_init(&u->hooks.ponderhit_us, 0);
    return u->game != NULL;
}

void uci_free(Uci *u) {
    uci_stop_search(u);
    free(u->searchmoves);
    u->searchmoves = NULL;
    if (u->game)
        u->family->destroy(u->game);
    u->game = NULL;
}

bool uci_execute(Uci *u, const char *line) {
    Tokens t;
    u->received_us = clock_now_us();
    if (!tokenize(line, &t)) {
        error_reply(u, "out of memory");
        return !u->quit;
    }
    if (t.n > 0 && t.v[0][0] != '#') {
        const Command *c = NULL;
        for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0] && !c; i++)
            if (!strcmp(t.v[0], COMMANDS[i].name))
                c = &COMMANDS[i];
        if (c) {
            if (c->stops)
                uci_finish_search(u);
            c->run(u, &t);
        } else {
            char b1[48], msg[120];
            snprintf(msg, sizeof msg, "unknown command '%s' (try help)", shown(t.v[0], b1));
            error_reply(u, msg);
        }
    }
    tokens_free(&t);
    return !u->quit;
}

void uci_loop(Uci *u, FILE *in) {
    char *line = NULL;
    size_t cap = 0;
    while (!u->quit && getline(&line, &cap, in) >= 0)
        uci_execute(u, line);
    free(line);
    uci_finish_search(u);
}
