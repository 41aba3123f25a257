#include "protocol/uci.h"

#include "engine/mill/game.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define BOARD_TEXT_MAX 1024

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
    output_line(u->out, "uciok");
}

static void cmd_isready(Uci *u, const Tokens *t) {
    (void)t;
    output_line(u->out, "readyok");
}

static void cmd_setoption(Uci *u, const Tokens *t) {
    char b1[48], msg[160];
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
    if (!name || !value) {
        error_reply(u, "out of memory");
    } else if (!strcasecmp(name, "UCI_Variant")) {
        for (char *c = value; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        if (!u->family->set_variant(u->game, value, &err))
            error_reply(u, err.msg);
    } else {
        const GameOption *o = NULL;
        for (int i = 0; i < u->family->noptions && !o; i++)
            if (!strcasecmp(name, u->family->options[i].name))
                o = &u->family->options[i];
        if (!o) {
            snprintf(msg, sizeof msg, "unknown option '%s'", shown(name, b1));
            error_reply(u, msg);
        } else {
            if (o->type == OPTION_CHECK)
                for (char *c = value; *c; c++)
                    *c = (char)tolower((unsigned char)*c);
            if (!u->family->set_option(u->game, o->name, value, &err))
                error_reply(u, err.msg);
        }
    }
    free(name);
    free(value);
}

static void cmd_ucinewgame(Uci *u, const Tokens *t) {
    (void)t;
    Error err;
    u->family->set_position(u->game, NULL, NULL, 0, &err);
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

static void cmd_moves(Uci *u, const Tokens *t) {
    (void)t;
    MovesCtx c = {NULL, 0, 0};
    int n = u->family->legal_moves(u->game, collect_move, &c);
    output_line(u->out, "%s", n && c.buf ? c.buf : "(none)");
    free(c.buf);
}

static void cmd_quit(Uci *u, const Tokens *t) {
    (void)t;
    u->quit = true;
}

static void cmd_help(Uci *u, const Tokens *t);

typedef struct Command {
    const char *name;
    void (*run)(Uci *u, const Tokens *t);
    const char *help;
} Command;

// clang-format off
static const Command COMMANDS[] = {
    {"uci",        cmd_uci,        "identify, list the options, answer uciok"},
    {"isready",    cmd_isready,    "answer readyok"},
    {"setoption",  cmd_setoption,  "setoption name <id> [value <x>]: set an option"},
    {"ucinewgame", cmd_ucinewgame, "start a new game from the variant's start position"},
    {"position",   cmd_position,   "position startpos|fen <string> [moves <m1> ...]"},
    {"perft",      cmd_perft,      "perft <depth>: count move sequences, per move"},
    {"d",          cmd_d,          "draw the board, the position string and its key"},
    {"moves",      cmd_moves,      "list the legal moves"},
    {"help",       cmd_help,       "list the commands"},
    {"quit",       cmd_quit,       "leave"},
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
    return u->game != NULL;
}

void uci_free(Uci *u) {
    if (u->game)
        u->family->destroy(u->game);
    u->game = NULL;
}

bool uci_execute(Uci *u, const char *line) {
    Tokens t;
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
}
