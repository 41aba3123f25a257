// The command loop. Commands are looked up in one table; each command that changes what a
// running search reads (the game, the table, the settings) first stops the search and waits
// for its bestmove. `go` is parsed into SearchLimits and hands them to a search thread, which
// reports through the hooks and prints the one bestmove; everything goes through the locked
// Output writer. The game is also kept as a record (start and turns) so that a person's
// `move`, `undo` and `play` work on top of `position`.
#include "protocol/uci.h"

#include "engine/core/parse.h"

#include "engine/backgammon/game.h"
#include "engine/core/bench.h"
#include "engine/core/clock.h"
#include "engine/core/registry.h"
#include "engine/mill/game.h"
#include "protocol/info.h"
#include "protocol/sanmill.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define BOARD_TEXT_MAX 2048
#define EVAL_TEXT_MAX 4096
#define ANALYZE_TEXT_MAX 65536
#define TIME_MAX 1000000000000LL   // ms; thirty years, far from any overflow
#define COUNT_MAX 1000000          // depth, mate, movestogo
#define ROLLOUT_MAX 100000         // backgammon rollout trials per candidate
#define PLAY_MOVETIME_DEFAULT 1000 // ms

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
    } else if (o->kind == KIND_SPIN && !parse_integer(value, o->min, o->max, &v)) {
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
// The game record: the start and the turns played, so that a turn can be taken back

static void record_clear(UciRecord *r) {
    free(r->fen);
    for (int i = 0; i < r->nmoves; i++)
        free(r->moves[i]);
    free(r->moves);
    *r = (UciRecord){NULL, NULL, 0, 0};
}

// Add a turn; false when out of memory, with the record unchanged.
static bool record_push(UciRecord *r, const char *move) {
    if (r->nmoves == r->cap) {
        int cap = r->cap ? 2 * r->cap : 64;
        char **m = realloc(r->moves, (size_t)cap * sizeof *m);
        if (!m)
            return false;
        r->moves = m;
        r->cap = cap;
    }
    if (!(r->moves[r->nmoves] = strdup(move)))
        return false;
    r->nmoves++;
    return true;
}

static void record_pop(UciRecord *r) { free(r->moves[--r->nmoves]); }

// A record of fen (NULL: the start) and the tokens [from, t->n), each removal token (`xd7`)
// joined to the turn before it, as the position command reads them.
static bool record_make(UciRecord *r, const char *fen, const Tokens *t, int from) {
    *r = (UciRecord){NULL, NULL, 0, 0};
    if (fen && !(r->fen = strdup(fen)))
        return false;
    for (int i = from; i < t->n; i++) {
        char *turn = join(t, i, i + 1);
        while (turn && i + 1 < t->n && t->v[i + 1][0] == 'x') {
            char *longer = realloc(turn, strlen(turn) + strlen(t->v[i + 1]) + 1);
            if (!longer) {
                free(turn);
                turn = NULL;
                break;
            }
            turn = strcat(longer, t->v[++i]);
        }
        bool ok = turn && record_push(r, turn);
        free(turn);
        if (!ok) {
            record_clear(r);
            return false;
        }
    }
    return true;
}

// Set the game to the record's start and its first n turns; all or nothing.
static bool replay(Uci *u, int n, Error *err) {
    return u->family->set_position(u->game, u->record.fen, (const char *const *)u->record.moves, n,
                                   err);
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

// A `play` search's move goes on the board, under the game lock, before the bestmove line, so
// that whoever reads that line finds the move played.
static void play_move(Uci *u, const char *move) {
    Error err;
    bool ok = record_push(&u->record, move);
    pthread_mutex_lock(&u->game_lock);
    if (ok && !replay(u, u->record.nmoves, &err)) {
        record_pop(&u->record);
        ok = false;
    }
    pthread_mutex_unlock(&u->game_lock);
    if (!ok)
        error_reply(u, "play: the move could not be played");
}

// The search thread: search, then print the one bestmove of this go.
static void *search_main(void *arg) {
    Uci *u = arg;
    SearchResult res;
    char line[96];
    u->family->search(u->game, &u->limits, &u->hooks, &res);
    if (u->search_plays && strcmp(res.best, "(none)"))
        play_move(u, res.best);
    info_bestmove(&res, !u->search_ugi, line, sizeof line);
    output_line(u->out, "%s", line);
    return NULL;
}

// Start the search thread on lim; the previous search must have been joined.
static void start_search(Uci *u, const SearchLimits *lim, bool ponder, bool plays) {
    u->limits = *lim;
    u->hooks.report = report_info;
    u->hooks.message = report_message;
    u->hooks.ctx = u;
    u->search_ugi = u->ugi;
    u->search_plays = plays;
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
    GO_ROLLOUT,
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
    [GO_ROLLOUT]   = {"rollout",   1,         ROLLOUT_MAX, true},
};

// UGI names the players p1 (white, who moves first) and p2.
static const struct { const char *name; GoKey key; } GO_ALIASES[] = {
    {"p1time", GO_WTIME}, {"p2time", GO_BTIME}, {"p1inc", GO_WINC}, {"p2inc", GO_BINC},
};
// clang-format on

// The key of a numeric go argument, GO_COUNT when name is none.
static GoKey go_key(const char *name) {
    for (int k = 0; k < GO_COUNT; k++)
        if (!strcmp(name, GO_NUMBERS[k].name))
            return (GoKey)k;
    for (size_t i = 0; i < sizeof GO_ALIASES / sizeof GO_ALIASES[0]; i++)
        if (!strcmp(name, GO_ALIASES[i].name))
            return GO_ALIASES[i].key;
    return GO_COUNT;
}

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
    case GO_ROLLOUT:
        lim->rollouts = (int)v;
        break;
    case GO_COUNT:
        break;
    }
}

// Parse the arguments of `go` (or `play`) as a stream of keywords and values into lim.
// searchmoves takes the rest of the line: *moves_at is the index of its first move (t->n
// without it). False with a message on the first bad argument.
static bool parse_go(const Uci *u, const Tokens *t, SearchLimits *lim, bool *ponder, int *moves_at,
                     char *msg, size_t n) {
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
                snprintf(msg, n, "%s searchmoves needs at least one move", t->v[0]);
                return false;
            }
            *moves_at = i + 1;
            break;
        } else {
            GoKey key = go_key(k);
            if (key == GO_COUNT) {
                snprintf(msg, n, "unknown %s argument '%s'", t->v[0], shown(k, b1));
                return false;
            }
            if (key == GO_ROLLOUT && strcmp(u->family->name, "backgammon")) {
                snprintf(msg, n, "%s rollout is for backgammon", t->v[0]);
                return false;
            }
            const GoNumber *g = &GO_NUMBERS[key];
            long long v;
            if (i + 1 == t->n) {
                snprintf(msg, n, "%s %s needs a value", t->v[0], k);
                return false;
            }
            if (!parse_integer(t->v[++i], g->min, g->max, &v)) {
                snprintf(msg, n, "%s %s takes a number from %lld to %lld, not '%s'", t->v[0], k,
                         g->min < 0 ? 0 : g->min, g->max, shown(t->v[i], b2));
                return false;
            }
            go_store(lim, key, v);
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

// The legal moves as one space-separated string (NULL when there are none), under the lock.
static char *legal_moves_text(const Uci *u, int *count) {
    MovesCtx c = {NULL, 0, 0};
    pthread_mutex_lock((pthread_mutex_t *)&u->game_lock);
    int n = u->family->legal_moves(u->game, collect_move, &c);
    pthread_mutex_unlock((pthread_mutex_t *)&u->game_lock);
    if (count)
        *count = n;
    return c.buf;
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
    char *list = legal_moves_text(u, NULL);
    bool ok = true;
    for (int i = from; i < t->n && ok; i++)
        if (!list || !has_word(list, t->v[i])) {
            snprintf(msg, n, "searchmoves: '%s' is not a legal move", shown(t->v[i], b1));
            ok = false;
        }
    free(list);
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

// Add the engine settings and the arrival time to the limits of a search.
static void apply_settings(const Uci *u, SearchLimits *lim) {
    lim->start_us = u->received_us;
    lim->threads = u->options[UCI_THREADS];
    lim->multipv = u->options[UCI_MULTIPV];
    lim->move_overhead = u->options[UCI_MOVE_OVERHEAD];
    lim->show_wdl = u->options[UCI_SHOW_WDL];
}

// With `debug on`, show the limits a search starts with.
static void debug_limits(Uci *u, const char *cmd, const SearchLimits *lim, bool ponder) {
    if (!u->debug)
        return;
    output_line(u->out,
                "info string %s: depth %d nodes %llu movetime %lld wtime %lld btime %lld winc "
                "%lld binc %lld movestogo %d mate %d infinite %s ponder %s searchmoves %d",
                cmd, lim->depth, (unsigned long long)lim->nodes, (long long)lim->movetime,
                (long long)lim->time[0], (long long)lim->time[1], (long long)lim->inc[0],
                (long long)lim->inc[1], lim->movestogo, lim->mate, lim->infinite ? "true" : "false",
                ponder ? "true" : "false", lim->nsearchmoves);
}

// go: parse, check the searchmoves, and start the search with the current settings.
static void cmd_go(Uci *u, const Tokens *t) {
    char msg[320];
    SearchLimits lim = {.time = {-1, -1}};
    bool ponder;
    int moves_at;
    if (!parse_go(u, t, &lim, &ponder, &moves_at, msg, sizeof msg) ||
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
    apply_settings(u, &lim);
    debug_limits(u, "go", &lim, ponder);
    start_search(u, &lim, ponder, false);
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
// Handshakes, options, positions

// Switch to the family of variant id on a new game (same Hash size); the old game stays when
// that fails.
static bool switch_family(Uci *u, const GameFamily *f, const char *id, Error *err) {
    Game *g = f->create(id);
    if (!g)
        return error_set(err, "cannot create a %s game", f->name);
    if (!f->set_hash(g, u->options[UCI_HASH], err)) {
        f->destroy(g);
        return false;
    }
    pthread_mutex_lock(&u->game_lock);
    u->family->destroy(u->game);
    u->family = f;
    u->game = g;
    pthread_mutex_unlock(&u->game_lock);
    return true;
}

// The handshake of either dialect: identity, the options with their current values, and the
// dialect's ok; the dialect is kept for the bestmove lines that follow.
static void handshake(Uci *u, bool ugi) {
    const GameFamily *f = u->family;
    char line[1024], value[1024];
    u->ugi = ugi;
    output_line(u->out, "id name tabula %s", TABULA_VERSION);
    output_line(u->out, "id author the tabula developers");
    pthread_mutex_lock(&u->game_lock);
    int len = snprintf(line, sizeof line, "option name UCI_Variant type combo default %s",
                       f->variant(u->game));
    for (int i = 0; registry_variant(i); i++)
        len += snprintf(line + len, sizeof line - (size_t)len, " var %s", registry_variant(i));
    output_line(u->out, "%s", line);
    for (int i = 0; i < f->noptions; i++) {
        const GameOption *o = &f->options[i];
        f->get_option(u->game, o->name, value, sizeof value);
        if (o->type == OPTION_CHECK)
            output_line(u->out, "option name %s type check default %s", o->name, value);
        else if (o->type == OPTION_STRING)
            output_line(u->out, "option name %s type string default %s", o->name,
                        value[0] ? value : "<empty>");
        else
            output_line(u->out, "option name %s type spin default %s min %d max %d", o->name, value,
                        o->min, o->max);
    }
    pthread_mutex_unlock(&u->game_lock);
    for (int i = 0; i < UCI_OPTION_COUNT; i++)
        declare_option(u, (UciOption)i);
    output_line(u->out, ugi ? "ugiok" : "uciok");
}

static void cmd_uci(Uci *u, const Tokens *t) {
    (void)t;
    handshake(u, false);
}

static void cmd_ugi(Uci *u, const Tokens *t) {
    (void)t;
    handshake(u, true);
}

static void cmd_isready(Uci *u, const Tokens *t) {
    (void)t;
    output_line(u->out, "readyok");
}

static void cmd_debug(Uci *u, const Tokens *t) {
    if (t->n != 2 || (strcmp(t->v[1], "on") && strcmp(t->v[1], "off"))) {
        error_reply(u, "usage: debug on|off");
        return;
    }
    u->debug = !strcmp(t->v[1], "on");
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
        const GameFamily *f = registry_find(value);
        if (f && f != u->family) {
            if (!switch_family(u, f, value, &err))
                error_reply(u, err.msg);
            else
                record_clear(&u->record);
        } else if (!u->family->set_variant(u->game, value, &err))
            error_reply(u, err.msg);
        else
            record_clear(&u->record);
    } else if (engine >= 0) {
        if (!set_engine_option(u, (UciOption)engine, value, &err))
            error_reply(u, err.msg);
    } else {
        set_rule_option(u, name, value);
    }
    free(name);
    free(value);
}

// ucinewgame, uginewgame and new: the variant's start, history forgotten, hash cleared.
static void cmd_ucinewgame(Uci *u, const Tokens *t) {
    (void)t;
    Error err;
    u->family->set_position(u->game, NULL, NULL, 0, &err);
    u->family->clear_hash(u->game);
    record_clear(&u->record);
}

static void cmd_position(Uci *u, const Tokens *t) {
    char b1[48], msg[320], converted[SANMILL_FEN_MAX];
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
    } else if (t->n >= 2 && (!strcmp(t->v[1], "fen") || !strcmp(t->v[1], "gnubgid") ||
                             !strcmp(t->v[1], "xgid"))) {
        if (fen_end == 2) {
            snprintf(msg, sizeof msg, "position %s needs a position string", t->v[1]);
            error_reply(u, msg);
            return;
        }
        fen = join(t, 2, fen_end);
        if (!fen) {
            error_reply(u, "out of memory");
            return;
        }
    } else {
        error_reply(u, "usage: position startpos|fen <string>|gnubgid <id>|xgid <XGID> [moves "
                       "<m1> ...]");
        return;
    }
    Error err;
    bool ok = true;
    if (fen && u->family == &MILL_FAMILY && sanmill_detect(fen)) {
        const char *variant = u->family->variant(u->game);
        if (!sanmill_variant_ok(variant))
            ok = error_set(&err,
                           "a Sanmill position needs a 24-point variant (nine, twelve, eleven, "
                           "morabaraba, lasker), not %s",
                           variant);
        else if ((ok = sanmill_to_fen(fen, converted, sizeof converted, &err))) {
            free(fen);
            fen = strdup(converted);
            ok = fen || error_set(&err, "out of memory");
        }
    }
    UciRecord r;
    if (ok && !record_make(&r, fen, t, moves_at))
        ok = error_set(&err, "out of memory");
    else if (ok) {
        const char *const *moves = (const char *const *)r.moves;
        ok = u->family->set_position(u->game, fen, moves, r.nmoves, &err);
        if (ok) {
            record_clear(&u->record);
            u->record = r;
        } else {
            record_clear(&r);
        }
    }
    if (!ok) {
        snprintf(msg, sizeof msg, "%s (position unchanged)", err.msg);
        error_reply(u, msg);
    }
    free(fen);
}

// ---------------------------------------------------------------------------------------------
// A person's commands: new, move, undo, play

// move <m>: play one turn on the current position (a removal may follow as its own token).
static void cmd_move(Uci *u, const Tokens *t) {
    char b1[48], msg[400];
    if (t->n < 2 || t->v[1][0] == 'x') {
        error_reply(u, "usage: move <move>, e.g. move d6, move a1-a4, move d6xa1");
        return;
    }
    for (int i = 2; i < t->n; i++)
        if (t->v[i][0] != 'x') {
            snprintf(msg, sizeof msg, "move takes one move; '%s' is another", shown(t->v[i], b1));
            error_reply(u, msg);
            return;
        }
    char *turn = join(t, 1, t->n);
    if (turn) // "a1-a4 xd7" -> "a1-a4xd7"
        for (char *s = turn; (s = strchr(s, ' '));)
            memmove(s, s + 1, strlen(s));
    Error err;
    if (!turn || !record_push(&u->record, turn)) {
        error_reply(u, "out of memory");
    } else if (!replay(u, u->record.nmoves, &err)) {
        record_pop(&u->record);
        snprintf(msg, sizeof msg, "cannot play '%s': %s (position unchanged)", shown(turn, b1),
                 err.msg);
        error_reply(u, msg);
    }
    free(turn);
}

// undo: take back the last turn played since the position was set.
static void cmd_undo(Uci *u, const Tokens *t) {
    char msg[320];
    Error err;
    if (t->n > 1) {
        error_reply(u, "usage: undo");
        return;
    }
    if (u->record.nmoves == 0) {
        error_reply(u, "undo: no move to take back");
        return;
    }
    if (!replay(u, u->record.nmoves - 1, &err)) {
        snprintf(msg, sizeof msg, "undo: %s (position unchanged)", err.msg);
        error_reply(u, msg);
        return;
    }
    record_pop(&u->record);
}

// play [limits]: the engine searches and plays its move on the board. The limits are those of
// go, without infinite, ponder and searchmoves; they are kept for the next bare `play`.
static void cmd_play(Uci *u, const Tokens *t) {
    char msg[320], reason[160];
    SearchLimits lim = u->play_limits;
    if (t->n > 1) {
        bool ponder;
        int moves_at;
        lim = (SearchLimits){.time = {-1, -1}};
        if (!parse_go(u, t, &lim, &ponder, &moves_at, msg, sizeof msg)) {
            error_reply(u, msg);
            return;
        }
        if (ponder || moves_at < t->n || lim.infinite) {
            error_reply(u, "play takes the limits of go (depth, nodes, movetime, mate, the "
                           "clocks), and at least one that ends the search");
            return;
        }
        u->play_limits = lim;
    }
    if (u->family->result(u->game, reason, sizeof reason) != RESULT_NONE) {
        snprintf(msg, sizeof msg, "play: the game is over (%s)", reason);
        error_reply(u, msg);
        return;
    }
    apply_settings(u, &lim);
    debug_limits(u, "play", &lim, false);
    start_search(u, &lim, false, true);
}

// ---------------------------------------------------------------------------------------------
// query (UGI)

// query gameover|p1turn|result: `response ...` about the current position.
static void cmd_query(Uci *u, const Tokens *t) {
    char b1[48], msg[160], reason[160], fen[128];
    if (t->n != 2) {
        error_reply(u, "usage: query gameover|p1turn|result");
        return;
    }
    pthread_mutex_lock(&u->game_lock);
    GameResult r = u->family->result(u->game, reason, sizeof reason);
    u->family->get_position(u->game, fen, sizeof fen);
    pthread_mutex_unlock(&u->game_lock);
    // The side to move is the second field of the position string.
    const char *side = fen + strcspn(fen, " ");
    if (!strcmp(t->v[1], "gameover")) {
        output_line(u->out, "response %s", r != RESULT_NONE ? "true" : "false");
    } else if (!strcmp(t->v[1], "p1turn")) {
        output_line(u->out, "response %s", !strncmp(side, " w", 2) ? "true" : "false");
    } else if (!strcmp(t->v[1], "result")) {
        output_line(u->out, "response %s",
                    r == RESULT_WHITE_WINS   ? "p1win"
                    : r == RESULT_BLACK_WINS ? "p2win"
                    : r == RESULT_DRAW       ? "draw"
                                             : "none");
    } else {
        snprintf(msg, sizeof msg, "unknown query '%s' (gameover, p1turn or result)",
                 shown(t->v[1], b1));
        error_reply(u, msg);
    }
}

// ---------------------------------------------------------------------------------------------
// The engine's extras

typedef struct DivideCtx {
    Output *out;
} DivideCtx;

static void divide_line(void *ctx, const char *move, uint64_t count) {
    output_line(((DivideCtx *)ctx)->out, "%s: %llu", move, (unsigned long long)count);
}

#define PERFT_MAX_DEPTH 64

static void cmd_perft(Uci *u, const Tokens *t) {
    long long depth = 0;
    if (t->n != 2 || !parse_integer(t->v[1], 1, PERFT_MAX_DEPTH, &depth)) {
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
    pthread_mutex_lock(&u->game_lock);
    u->family->render(u->game, board, sizeof board);
    u->family->get_position(u->game, fen, sizeof fen);
    u->family->result(u->game, reason, sizeof reason);
    uint64_t key = u->family->key(u->game);
    const char *variant = u->family->variant(u->game);
    pthread_mutex_unlock(&u->game_lock);
    output_text(u->out, board);
    output_line(u->out, "Variant: %s", variant);
    output_line(u->out, "Position: %s", fen);
    output_line(u->out, "Key: %016llX", (unsigned long long)key);
    output_line(u->out, "Result: %s", reason);
}

static void cmd_moves(Uci *u, const Tokens *t) {
    (void)t;
    int n;
    char *list = legal_moves_text(u, &n);
    output_line(u->out, "%s", n && list ? list : "(none)");
    free(list);
}

// Print text one reply line per line.
static void output_lines(Uci *u, char *text) {
    for (char *line = text, *next; *line; line = next) {
        next = line + strcspn(line, "\n");
        if (*next)
            *next++ = '\0';
        output_line(u->out, "%s", line);
    }
}

// eval: the family's evaluation text, one reply line per line.
static void cmd_eval(Uci *u, const Tokens *t) {
    (void)t;
    char text[EVAL_TEXT_MAX];
    pthread_mutex_lock(&u->game_lock);
    u->family->eval(u->game, text, sizeof text);
    pthread_mutex_unlock(&u->game_lock);
    output_lines(u, text);
}

// analyze: the exact value of the position and of every legal move from the endgame
// databases, or one info string line saying why the position is in none.
static void cmd_analyze(Uci *u, const Tokens *t) {
    if (t->n > 1) {
        error_reply(u, "usage: analyze");
        return;
    }
    char *text = malloc(ANALYZE_TEXT_MAX);
    if (!text) {
        error_reply(u, "out of memory");
        return;
    }
    pthread_mutex_lock(&u->game_lock);
    bool found = u->family->analyze(u->game, text, ANALYZE_TEXT_MAX);
    pthread_mutex_unlock(&u->game_lock);
    if (found)
        output_lines(u, text);
    else
        output_line(u->out, "info string analyze: the position is not in the tablebase: %s", text);
    free(text);
}

static void bench_line(void *ctx, const char *line) { output_line(ctx, "%s", line); }

// bench [depth]: the bench of bench/bench.c, on a game of its own.
static void cmd_bench(Uci *u, const Tokens *t) {
    long long depth = BENCH_DEPTH_DEFAULT;
    if (t->n > 2 || (t->n == 2 && !parse_integer(t->v[1], 1, BENCH_DEPTH_MAX, &depth))) {
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
    const char *usage;
    const char *help;
} Command;

// clang-format off
static const Command COMMANDS[] = {
    {"uci",        cmd_uci,        false, "uci",
     "identify, list the options, answer uciok; the UCI dialect"},
    {"ugi",        cmd_ugi,        false, "ugi",
     "as uci, answering ugiok; the UGI dialect (bestmove without ponder)"},
    {"isready",    cmd_isready,    false, "isready",
     "answer readyok (at once, also while searching)"},
    {"debug",      cmd_debug,      false, "debug on|off",
     "with on, extra info string diagnostics (the limits of each search)"},
    {"setoption",  cmd_setoption,  true,  "setoption name <id> [value <x>]",
     "set an option; uci lists them"},
    {"ucinewgame", cmd_ucinewgame, true,  "ucinewgame",
     "a new game: the variant's start, history forgotten, hash cleared"},
    {"uginewgame", cmd_ucinewgame, true,  "uginewgame",
     "the same as ucinewgame"},
    {"new",        cmd_ucinewgame, true,  "new",
     "the same as ucinewgame"},
    {"position",   cmd_position,   true,
     "position startpos|fen <string>|gnubgid <id>|xgid <XGID> [moves <m1> ...]",
     "set the position (mill: a tabula or a Sanmill string; backgammon: a gnubg "
     "PositionID:MatchID or an XGID), then play the moves"},
    {"move",       cmd_move,       true,  "move <m>",
     "play one legal move on the current position"},
    {"undo",       cmd_undo,       true,  "undo",
     "take back the last move played since the position was set"},
    {"play",       cmd_play,       true,  "play [<limits of go>]",
     "the engine searches (first movetime 1000, then the last limits given) and plays "
     "its move"},
    {"go",         cmd_go,         true,
     "go [wtime|btime|winc|binc|p1time|p2time|p1inc|p2inc <ms>] [movestogo <n>] [depth <d>] "
     "[nodes <n>] [mate <n>] [movetime <ms>] [infinite] [ponder] [searchmoves <m1> ...]",
     "search the position: info lines, then bestmove"},
    {"stop",       cmd_stop,       false, "stop",
     "stop the search; it answers bestmove"},
    {"ponderhit",  cmd_ponderhit,  false, "ponderhit",
     "the pondered move was played: search on the clock"},
    {"query",      cmd_query,      false, "query gameover|p1turn|result",
     "answer response true|false, or response p1win|p2win|draw|none"},
    {"perft",      cmd_perft,      true,  "perft <depth>",
     "count the move sequences of depth plies, per move"},
    {"bench",      cmd_bench,      true,  "bench [depth]",
     "search the bench positions, count the nodes"},
    {"d",          cmd_d,          false, "d",
     "draw the board, the position string and its key"},
    {"moves",      cmd_moves,      false, "moves",
     "list the legal moves"},
    {"eval",       cmd_eval,       false, "eval",
     "the static evaluation and its terms"},
    {"analyze",    cmd_analyze,    false, "analyze",
     "the exact value of the position and of each legal move from the endgame databases "
     "(option TablebasePath)"},
    {"help",       cmd_help,       false, "help [command]",
     "list the commands, or explain one"},
    {"quit",       cmd_quit,       false, "quit",
     "stop any search and leave"},
};
// clang-format on

#define NCOMMANDS (int)(sizeof COMMANDS / sizeof COMMANDS[0])

static const Command *find_command(const char *name) {
    for (int i = 0; i < NCOMMANDS; i++)
        if (!strcmp(name, COMMANDS[i].name))
            return &COMMANDS[i];
    return NULL;
}

// help: one line per command; help <command>: its usage and what it does.
static void cmd_help(Uci *u, const Tokens *t) {
    char b1[48], msg[120];
    if (t->n == 1) {
        for (int i = 0; i < NCOMMANDS; i++)
            output_line(u->out, "%-11s %s", COMMANDS[i].name, COMMANDS[i].help);
        return;
    }
    const Command *c = t->n == 2 ? find_command(t->v[1]) : NULL;
    if (!c) {
        if (t->n == 2)
            snprintf(msg, sizeof msg, "help: unknown command '%s'", shown(t->v[1], b1));
        else
            snprintf(msg, sizeof msg, "usage: help [command]");
        error_reply(u, msg);
        return;
    }
    output_line(u->out, "usage: %s", c->usage);
    output_line(u->out, "%s", c->help);
}

bool uci_init(Uci *u, Output *out) {
    u->out = out;
    u->family = registry_default_family();
    u->game = u->family->create(registry_default_variant());
    u->quit = false;
    u->ugi = false;
    u->debug = false;
    for (int i = 0; i < UCI_OPTION_COUNT; i++)
        u->options[i] = ENGINE_OPTIONS[i].def;
    u->received_us = 0;
    u->record = (UciRecord){NULL, NULL, 0, 0};
    u->play_limits = (SearchLimits){.time = {-1, -1}, .movetime = PLAY_MOVETIME_DEFAULT};
    u->searching = false;
    u->searchmoves = NULL;
    u->search_ugi = false;
    u->search_plays = false;
    u->limits = (SearchLimits){.time = {-1, -1}};
    u->hooks = (SearchHooks){.report = NULL};
    atomic_init(&u->hooks.stop, false);
    atomic_init(&u->hooks.ponder, false);
    atomic_init(&u->hooks.ponderhit_us, 0);
    pthread_mutex_init(&u->game_lock, NULL);
    return u->game != NULL;
}

void uci_free(Uci *u) {
    uci_stop_search(u);
    free(u->searchmoves);
    u->searchmoves = NULL;
    record_clear(&u->record);
    if (u->game) { // a second uci_free does nothing
        u->family->destroy(u->game);
        pthread_mutex_destroy(&u->game_lock);
    }
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
        const Command *c = find_command(t.v[0]);
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
    ssize_t len;
    while (!u->quit && (len = getline(&line, &cap, in)) >= 0) {
        if (memchr(line, '\0', (size_t)len))
            error_reply(u, "the line holds a NUL byte; ignored");
        else
            uci_execute(u, line);
    }
    free(line);
    uci_finish_search(u);
}

// ---------------------------------------------------------------------------------------------
// For the prompt

const char *uci_command_name(int i) { return i >= 0 && i < NCOMMANDS ? COMMANDS[i].name : NULL; }

const char *uci_option_name(const Uci *u, int i) {
    if (i == 0)
        return "UCI_Variant";
    i--;
    if (i >= 0 && i < u->family->noptions)
        return u->family->options[i].name;
    i -= u->family->noptions;
    return i >= 0 && i < UCI_OPTION_COUNT ? ENGINE_OPTIONS[i].name : NULL;
}

int uci_legal_moves(const Uci *u, char ***moves) {
    int n;
    char *list = legal_moves_text(u, &n);
    *moves = NULL;
    if (n <= 0 || !list) {
        free(list);
        return 0;
    }
    char **v = calloc((size_t)n, sizeof *v);
    int k = 0;
    for (char *save, *s = v ? strtok_r(list, " ", &save) : NULL; s && k < n;
         s = strtok_r(NULL, " ", &save))
        if ((v[k] = strdup(s)))
            k++;
    free(list);
    if (k == 0) {
        free(v);
        v = NULL;
    }
    *moves = v;
    return k;
}

void uci_print_board(Uci *u) {
    char board[BOARD_TEXT_MAX];
    pthread_mutex_lock(&u->game_lock);
    u->family->render(u->game, board, sizeof board);
    pthread_mutex_unlock(&u->game_lock);
    output_text(u->out, board);
}
