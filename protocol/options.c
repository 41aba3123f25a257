// The engine's options and the handshakes that declare them, setoption, and a new game.
#include "protocol/command.h"
#include "protocol/uci.h"

#include "engine/core/parse.h"
#include "engine/core/registry.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
bool options_set_engine(Uci *u, UciOption id, const char *value, Error *err) {
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
int options_find_engine(const char *name) {
    for (int i = 0; i < UCI_OPTION_COUNT; i++)
        if (!strcasecmp(name, ENGINE_OPTIONS[i].name))
            return i;
    return -1;
}

// Every engine option at its default.
void options_reset(Uci *u) {
    for (int i = 0; i < UCI_OPTION_COUNT; i++)
        u->options[i] = ENGINE_OPTIONS[i].def;
}

const char *uci_option_name(const Uci *u, int i) {
    if (i == 0)
        return "UCI_Variant";
    i--;
    if (i >= 0 && i < u->family->noptions)
        return u->family->options[i].name;
    i -= u->family->noptions;
    return i >= 0 && i < UCI_OPTION_COUNT ? ENGINE_OPTIONS[i].name : NULL;
}

// ---------------------------------------------------------------------------------------------
// Handshakes, setoption, a new game

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

void cmd_uci(Uci *u, const Tokens *t) {
    (void)t;
    handshake(u, false);
}

void cmd_ugi(Uci *u, const Tokens *t) {
    (void)t;
    handshake(u, true);
}

void cmd_isready(Uci *u, const Tokens *t) {
    (void)t;
    output_line(u->out, "readyok");
}

void cmd_debug(Uci *u, const Tokens *t) {
    if (t->n != 2 || (strcmp(t->v[1], "on") && strcmp(t->v[1], "off"))) {
        reply_error(u, "usage: debug on|off");
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
        snprintf(msg, sizeof msg, "unknown option '%s'", text_shown(name, b1));
        reply_error(u, msg);
        return;
    }
    if (o->type == OPTION_CHECK)
        for (char *c = value; *c; c++)
            *c = (char)tolower((unsigned char)*c);
    if (!u->family->set_option(u->game, o->name, value, &err))
        reply_error(u, err.msg);
}

void cmd_setoption(Uci *u, const Tokens *t) {
    int value_kw = t->n; // index of the "value" keyword, t->n when absent
    for (int i = 3; i < t->n && value_kw == t->n; i++)
        if (!strcmp(t->v[i], "value"))
            value_kw = i;
    if (t->n < 3 || strcmp(t->v[1], "name")) {
        reply_error(u, "usage: setoption name <id> [value <x>]");
        return;
    }
    char *name = tokens_join(t, 2, value_kw);
    char *value = tokens_join(t, value_kw + 1 < t->n ? value_kw + 1 : t->n, t->n);
    Error err;
    int engine = name ? options_find_engine(name) : -1;
    if (!name || !value) {
        reply_error(u, "out of memory");
    } else if (!strcasecmp(name, "UCI_Variant")) {
        for (char *c = value; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        const GameFamily *f = registry_find(value);
        if (f == u->family && !strcmp(value, f->variant(u->game))) {
            // The variant in force: nothing changes, its rule options keep their values.
        } else if (f && f != u->family) {
            if (!switch_family(u, f, value, &err))
                reply_error(u, err.msg);
            else
                record_clear(&u->record);
        } else if (!u->family->set_variant(u->game, value, &err))
            reply_error(u, err.msg);
        else
            record_clear(&u->record);
    } else if (engine >= 0) {
        if (!options_set_engine(u, (UciOption)engine, value, &err))
            reply_error(u, err.msg);
    } else {
        set_rule_option(u, name, value);
    }
    free(name);
    free(value);
}

// ucinewgame, uginewgame and new: the variant's start, history forgotten, hash cleared.
void cmd_ucinewgame(Uci *u, const Tokens *t) {
    (void)t;
    Error err;
    u->family->set_position(u->game, NULL, NULL, 0, &err);
    u->family->clear_hash(u->game);
    record_clear(&u->record);
}
