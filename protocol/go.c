// go, stop and ponderhit: the search thread, and the arguments of go.
#include "protocol/command.h"
#include "protocol/uci.h"

#include "engine/core/clock.h"
#include "engine/core/parse.h"
#include "protocol/info.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
    if (ok && !record_replay(u, u->record.nmoves, &err)) {
        record_pop(&u->record);
        ok = false;
    }
    pthread_mutex_unlock(&u->game_lock);
    if (!ok)
        reply_error(u, "play: the move could not be played");
}

// Tell a dice family's turn in words: what `play` did, and the result when it ended the game.
static void tell_turn(Uci *u, const char *move, const int rolled[2]) {
    char words[200], reason[160];
    const char *colon = strchr(move, ':');
    if (colon) {
        char play[96], what[112];
        snprintf(play, sizeof play, "%s", colon + 1);
        for (char *c = play; (c = strchr(c, ','));)
            *c = ' ';
        if (!strcmp(play, "-"))
            snprintf(what, sizeof what, "cannot move");
        else
            snprintf(what, sizeof what, "plays %s", play);
        if (rolled)
            snprintf(words, sizeof words, "tabula rolls %d-%d and %s", rolled[0], rolled[1], what);
        else
            snprintf(words, sizeof words, "tabula %s (%c-%c)", what, move[0], move[1]);
    } else if (!strcmp(move, "double")) {
        snprintf(words, sizeof words, "tabula doubles: take or drop");
    } else if (!strcmp(move, "take") || !strcmp(move, "drop")) {
        snprintf(words, sizeof words, "tabula %ss the double", move);
    } else {
        snprintf(words, sizeof words, "tabula plays %s", move);
    }
    pthread_mutex_lock(&u->game_lock);
    GameResult r = u->family->result(u->game, reason, sizeof reason);
    pthread_mutex_unlock(&u->game_lock);
    if (r != RESULT_NONE)
        output_line(u->out, "%s; game over: %s", words, reason);
    else
        output_line(u->out, "%s", words);
}

// A `play` search's whole turn. Its move goes on the board; in a dice family, a move `roll`
// (no double) throws the dice and a second search, on a fresh clock, chooses the play; the
// turn is told in words.
static void play_turn(Uci *u, SearchResult *res) {
    int rolled[2];
    bool threw = false;
    if (has_dice(u) && !strcmp(res->best, "roll")) {
        char turn[8];
        dice_throw(rolled);
        if (rolled[0] < rolled[1]) {
            int d = rolled[0];
            rolled[0] = rolled[1];
            rolled[1] = d;
        }
        snprintf(turn, sizeof turn, "%d%d", rolled[0], rolled[1]);
        play_move(u, turn);
        u->limits.start_us = clock_now_us();
        u->family->search(u->game, &u->limits, &u->hooks, res);
        threw = true;
    }
    if (strcmp(res->best, "(none)"))
        play_move(u, res->best);
    if (has_dice(u))
        tell_turn(u, res->best, threw ? rolled : NULL);
}

// Hold the answer while the GUI still expects the search to run: under `go infinite`, and
// while pondering, bestmove waits for stop or ponderhit, whatever the family and however soon
// its search ended.
static void hold_until_released(Uci *u) {
    struct timespec ms = {0, 1000000};
    while ((u->limits.infinite || atomic_load(&u->hooks.ponder)) && !atomic_load(&u->hooks.stop))
        nanosleep(&ms, NULL);
}

// The search thread: search, then print the one bestmove of this go.
static void *search_main(void *arg) {
    Uci *u = arg;
    SearchResult res;
    char line[96];
    u->family->search(u->game, &u->limits, &u->hooks, &res);
    hold_until_released(u);
    if (u->search_plays && strcmp(res.best, "(none)"))
        play_turn(u, &res);
    info_bestmove(&res, !u->search_ugi, line, sizeof line);
    output_line(u->out, "%s", line);
    return NULL;
}

// Start the search thread on lim; the previous search must have been joined.
void search_start(Uci *u, const SearchLimits *lim, bool ponder, bool plays) {
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
        reply_error(u, "cannot start the search thread");
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
bool go_parse(const Uci *u, const Tokens *t, SearchLimits *lim, bool *ponder, int *moves_at,
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
                snprintf(msg, n, "unknown %s argument '%s'", t->v[0], text_shown(k, b1));
                return false;
            }
            if (key == GO_ROLLOUT && !(u->family->capabilities & GAME_CAN_ROLLOUT)) {
                snprintf(msg, n, "%s rollout: %s has no rollouts", t->v[0],
                         u->family->variant(u->game));
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
                         g->min < 0 ? 0 : g->min, g->max, text_shown(t->v[i], b2));
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
char *moves_text(const Uci *u, int *count) {
    MovesCtx c = {NULL, 0, 0};
    pthread_mutex_lock((pthread_mutex_t *)&u->game_lock);
    int n = u->family->legal_moves(u->game, collect_move, &c);
    pthread_mutex_unlock((pthread_mutex_t *)&u->game_lock);
    if (count)
        *count = n;
    return c.buf;
}

// Whether word is one of the space-separated words of list.
bool moves_has_word(const char *list, const char *word) {
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
    char *list = moves_text(u, NULL);
    bool ok = true;
    for (int i = from; i < t->n && ok; i++)
        if (!list || !moves_has_word(list, t->v[i])) {
            snprintf(msg, n, "searchmoves: '%s' is not a legal move", text_shown(t->v[i], b1));
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
void go_apply_settings(const Uci *u, SearchLimits *lim) {
    lim->start_us = u->received_us;
    lim->threads = u->options[UCI_THREADS];
    lim->multipv = u->options[UCI_MULTIPV];
    lim->move_overhead = u->options[UCI_MOVE_OVERHEAD];
    lim->show_wdl = u->options[UCI_SHOW_WDL];
}

// With `debug on`, show the limits a search starts with.
void go_debug_limits(Uci *u, const char *cmd, const SearchLimits *lim, bool ponder) {
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
void cmd_go(Uci *u, const Tokens *t) {
    char msg[320];
    SearchLimits lim = {.time = {-1, -1}};
    bool ponder;
    int moves_at;
    if (!go_parse(u, t, &lim, &ponder, &moves_at, msg, sizeof msg) ||
        !check_searchmoves(u, t, moves_at, msg, sizeof msg)) {
        reply_error(u, msg);
        return;
    }
    if (!keep_searchmoves(u, t, moves_at)) {
        reply_error(u, "out of memory");
        return;
    }
    lim.nsearchmoves = t->n - moves_at;
    lim.searchmoves = (const char *const *)u->searchmoves;
    go_apply_settings(u, &lim);
    go_debug_limits(u, "go", &lim, ponder);
    search_start(u, &lim, ponder, false);
}

void cmd_stop(Uci *u, const Tokens *t) {
    (void)t;
    uci_stop_search(u);
}

// The opponent played the expected move: the pondering search goes on as a normal one, its
// clock starting now.
void cmd_ponderhit(Uci *u, const Tokens *t) {
    (void)t;
    if (!u->searching || !atomic_load(&u->hooks.ponder))
        return;
    atomic_store(&u->hooks.ponderhit_us, u->received_us);
    atomic_store(&u->hooks.ponder, false);
}

int uci_legal_moves(const Uci *u, char ***moves) {
    int n;
    char *list = moves_text(u, &n);
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
