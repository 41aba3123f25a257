// The UBGI dialect (Universal Backgammon Interface, draft 0.2; docs/protocol.md): after `ubgi`
// the loop hands every line here, to a small table of its own with its own answers
// (`bestmove 24/18 13/12`, `bestcube double`, `bestturn ...`) and errors (`error <code>
// <detail>`). The position and the dice are kept apart, as the controller sends them, and set
// on the loop's game before each search; the search runs on the loop's thread, since UBGI has
// no `stop`. UBGI is backgammon only, so this file reads gnubg's IDs and writes the plays with
// the backgammon modules, as protocol/external.c does.
#include "protocol/command.h"
#include "protocol/uci.h"

#include "engine/backgammon/ids.h"
#include "engine/backgammon/movegen.h"
#include "engine/backgammon/notation.h"
#include "engine/core/parse.h"
#include "engine/core/registry.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define UBGI_PROTO "0.2"
#define UBGI_PLY_DEFAULT 3 // tabula's default depth 2, counting the root
#define UBGI_MOVETIME_MAX 3600000
#define PAYLOAD_MAX 96

// ---------------------------------------------------------------------------------------------
// Answers and errors

typedef enum UbgiError { BAD_COMMAND, BAD_VALUE, BAD_STATE, UNSUPPORTED } UbgiError;

static const char *const ERROR_CODE[] = {"bad_command", "bad_value", "bad_state", "unsupported"};

// Reply with the one error line of a refused command: its code and why, in printable ASCII.
static void ubgi_error(Uci *u, UbgiError code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void ubgi_error(Uci *u, UbgiError code, const char *fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (char *c = msg; *c; c++)
        if (*c < 0x20 || *c > 0x7e)
            *c = '?';
    output_line(u->out, "error %s %s", ERROR_CODE[code], msg);
}

// ---------------------------------------------------------------------------------------------
// The keys of set, get and keys

typedef enum KeyType { KEY_INT, KEY_BOOL, KEY_ENUM } KeyType;

typedef enum KeyId { KEY_VARIANT, KEY_PLY, KEY_MOVETIME, KEY_INFO, KEY_THREADS, KEY_HASH } KeyId;

typedef struct UbgiKey {
    const char *name;
    KeyType type;
    int min, max;        // int only
    int def;             // int and bool (1 true); an enum's default is its only choice
    const char *choices; // enum only: '|'-separated
    bool minor;          // marked `!`: no effect on what the engine plays
    const char *about;
} UbgiKey;

// clang-format off
static const UbgiKey KEYS[] = {
    [KEY_VARIANT]  = {"game.variant",    KEY_ENUM, 0, 0, 0, "backgammon", false,
                      "the game played"},
    [KEY_PLY]      = {"engine.ply",      KEY_INT,  1, 4, UBGI_PLY_DEFAULT, NULL, false,
                      "plies searched counting the root: 1 is the static evaluation of each play"},
    [KEY_MOVETIME] = {"engine.movetime", KEY_INT,  0, UBGI_MOVETIME_MAX, 0, NULL, false,
                      "ms per decision, 0 for none; engine.ply still caps the depth"},
    [KEY_INFO]     = {"engine.info",     KEY_BOOL, 0, 0, 1, NULL, true,
                      "info lines while searching"},
    [KEY_THREADS]  = {"engine.threads",  KEY_INT,  1, 256, 1, NULL, true,
                      "search threads (the UCI option Threads)"},
    [KEY_HASH]     = {"engine.hash",     KEY_INT,  1, 65536, 16, NULL, true,
                      "hash table MB (the UCI option Hash)"},
};
// clang-format on

#define NKEYS (int)(sizeof KEYS / sizeof KEYS[0])

static int find_key(const char *name) {
    for (int i = 0; i < NKEYS; i++)
        if (!strcmp(name, KEYS[i].name))
            return i;
    return -1;
}

// The value of a key as set and get write it.
static void key_value(const Uci *u, KeyId id, char *buf, size_t n) {
    switch (id) {
    case KEY_VARIANT:
        snprintf(buf, n, "backgammon");
        break;
    case KEY_PLY:
        snprintf(buf, n, "%d", u->ubgi.ply);
        break;
    case KEY_MOVETIME:
        snprintf(buf, n, "%d", u->ubgi.movetime);
        break;
    case KEY_INFO:
        snprintf(buf, n, "%s", u->ubgi.info ? "true" : "false");
        break;
    case KEY_THREADS:
        snprintf(buf, n, "%d", u->options[UCI_THREADS]);
        break;
    case KEY_HASH:
        snprintf(buf, n, "%d", u->options[UCI_HASH]);
        break;
    }
}

// Set a key from the text of its value; one error line and nothing changed when it is refused.
static void key_set(Uci *u, const char *name, const char *value) {
    char b1[48], b2[48];
    int id = find_key(name);
    if (id < 0) {
        ubgi_error(u, UNSUPPORTED, "unknown key '%s'", text_shown(name, b1));
        return;
    }
    const UbgiKey *k = &KEYS[id];
    long long v = 0;
    if (k->type == KEY_INT && !parse_integer(value, k->min, k->max, &v)) {
        ubgi_error(u, BAD_VALUE, "%s takes an integer from %d to %d, not '%s'", k->name, k->min,
                   k->max, text_shown(value, b2));
        return;
    }
    if (k->type == KEY_BOOL) {
        if (strcmp(value, "true") && strcmp(value, "false")) {
            ubgi_error(u, BAD_VALUE, "%s takes true or false, not '%s'", k->name,
                       text_shown(value, b2));
            return;
        }
        v = value[0] == 't';
    }
    if (k->type == KEY_ENUM && strcmp(value, k->choices)) { // one choice so far
        ubgi_error(u, BAD_VALUE, "%s takes %s, not '%s'", k->name, k->choices,
                   text_shown(value, b2));
        return;
    }
    Error err;
    switch ((KeyId)id) {
    case KEY_VARIANT:
        break;
    case KEY_PLY:
        u->ubgi.ply = (int)v;
        break;
    case KEY_MOVETIME:
        u->ubgi.movetime = (int)v;
        break;
    case KEY_INFO:
        u->ubgi.info = v;
        break;
    case KEY_THREADS:
        u->options[UCI_THREADS] = (int)v;
        break;
    case KEY_HASH:
        if (!options_set_engine(u, UCI_HASH, value, &err))
            ubgi_error(u, BAD_VALUE, "%s", err.msg);
        break;
    }
}

// keys: one line per key, `key <name> <type> [<domain>] <default> [!] <description>`.
static void cmd_keys(Uci *u, const Tokens *t) {
    (void)t;
    for (int i = 0; i < NKEYS; i++) {
        const UbgiKey *k = &KEYS[i];
        const char *bang = k->minor ? " !" : "";
        if (k->type == KEY_INT)
            output_line(u->out, "key %s int %d..%d %d%s %s", k->name, k->min, k->max, k->def, bang,
                        k->about);
        else if (k->type == KEY_BOOL)
            output_line(u->out, "key %s bool %s%s %s", k->name, k->def ? "true" : "false", bang,
                        k->about);
        else
            output_line(u->out, "key %s enum %s %s%s %s", k->name, k->choices, k->choices, bang,
                        k->about);
    }
}

static void cmd_set(Uci *u, const Tokens *t) {
    if (t->n != 3) {
        ubgi_error(u, BAD_COMMAND, "usage: set <key> <value>");
        return;
    }
    key_set(u, t->v[1], t->v[2]);
}

static void cmd_get(Uci *u, const Tokens *t) {
    char b1[48], value[32];
    if (t->n != 2) {
        ubgi_error(u, BAD_COMMAND, "usage: get <key>");
        return;
    }
    int id = find_key(t->v[1]);
    if (id < 0) {
        ubgi_error(u, UNSUPPORTED, "unknown key '%s'", text_shown(t->v[1], b1));
        return;
    }
    key_value(u, (KeyId)id, value, sizeof value);
    output_line(u->out, "value %s %s", KEYS[id].name, value);
}

// setoption name <key> value <value>: UBGI 0.1's form of set.
static void cmd_setoption_v01(Uci *u, const Tokens *t) {
    if (t->n != 5 || strcmp(t->v[1], "name") || strcmp(t->v[3], "value")) {
        ubgi_error(u, BAD_COMMAND, "usage: setoption name <key> value <value>");
        return;
    }
    key_set(u, t->v[2], t->v[4]);
}

// ---------------------------------------------------------------------------------------------
// The handshake, the position and the dice

void ubgi_reset(Uci *u) {
    u->ubgi = (UbgiState){.on = false,
                          .ply = KEYS[KEY_PLY].def,
                          .movetime = KEYS[KEY_MOVETIME].def,
                          .info = KEYS[KEY_INFO].def};
}

// ubgi: backgammon, the dialect on, identity and ubgiok. The position and keys stay.
void cmd_ubgi(Uci *u, const Tokens *t) {
    (void)t;
    if (!registry_find("backgammon")) {
        ubgi_error(u, UNSUPPORTED, "this build has no backgammon");
        return;
    }
    if (strcmp(u->family->variant(u->game), "backgammon")) {
        // The loop's own way to switch family (Hash kept); it answers only when it fails.
        Tokens sw;
        if (!tokens_split("setoption name UCI_Variant value backgammon", &sw)) {
            ubgi_error(u, BAD_STATE, "out of memory");
            return;
        }
        cmd_setoption(u, &sw);
        tokens_free(&sw);
        if (strcmp(u->family->variant(u->game), "backgammon"))
            return;
    }
    u->ubgi.on = true;
    output_line(u->out, "id name tabula %s", TABULA_VERSION);
    output_line(u->out, "id author the tabula developers");
    output_line(u->out, "proto %s", UBGI_PROTO);
    output_line(u->out, "ubgiok");
}

static void cmd_isready_ubgi(Uci *u, const Tokens *t) {
    (void)t;
    output_line(u->out, "readyok");
}

static void cmd_quit_ubgi(Uci *u, const Tokens *t) {
    (void)t;
    u->quit = true;
}

// The UBGI position with the dice given (0 0: before the roll) on p; false without a position.
static bool ubgi_position(const Uci *u, const int dice[2], BgPosition *p) {
    Error err;
    if (!u->ubgi.position[0] || !bg_read_gnubgid(u->ubgi.position, p, &err))
        return false;
    p->dice[0] = dice[0];
    p->dice[1] = dice[1];
    return true;
}

// Set the loop's game (and its record) to p, so that it holds what UBGI holds.
static void set_game(Uci *u, const BgPosition *p) {
    char id[GAME_POSITION_MAX];
    Error err;
    bg_gnubgid(p, id, sizeof id);
    pthread_mutex_lock(&u->game_lock);
    bool ok = u->family->set_position(u->game, id, NULL, 0, &err);
    pthread_mutex_unlock(&u->game_lock);
    record_clear(&u->record);
    if (ok)
        u->record.fen = strdup(id);
}

// newgame: no position and no dice until the controller sends them; the hash cleared.
static void cmd_newgame(Uci *u, const Tokens *t) {
    cmd_ucinewgame(u, t);
    u->ubgi.position[0] = '\0';
    u->ubgi.dice[0] = u->ubgi.dice[1] = 0;
}

// position gnubgid <PositionID:MatchID> | xgid <XGID>: the dice of the ID become the dice.
static void cmd_position_ubgi(Uci *u, const Tokens *t) {
    char b1[48];
    BgPosition p;
    Error err;
    if (t->n != 3) {
        ubgi_error(u, BAD_COMMAND, "usage: position gnubgid <PositionID:MatchID> | xgid <XGID>");
        return;
    }
    bool ok;
    if (!strcmp(t->v[1], "gnubgid")) {
        ok = bg_read_gnubgid(t->v[2], &p, &err);
    } else if (!strcmp(t->v[1], "xgid")) {
        ok = bg_read_xgid(t->v[2], &p, &err);
    } else {
        ubgi_error(u, UNSUPPORTED, "position format '%s' (gnubgid or xgid)",
                   text_shown(t->v[1], b1));
        return;
    }
    if (!ok) {
        ubgi_error(u, BAD_VALUE, "%s: %s", t->v[1], err.msg);
        return;
    }
    int dice[2] = {p.dice[0], p.dice[1]};
    p.dice[0] = p.dice[1] = 0;
    bg_gnubgid(&p, u->ubgi.position, sizeof u->ubgi.position);
    u->ubgi.dice[0] = dice[0];
    u->ubgi.dice[1] = dice[1];
    p.dice[0] = dice[0];
    p.dice[1] = dice[1];
    set_game(u, &p);
}

// Refuse a decision on no position or a finished game; true when there is one to make.
static bool need_position(Uci *u, BgPosition *p) {
    int none[2] = {0, 0};
    if (!ubgi_position(u, none, p)) {
        ubgi_error(u, BAD_STATE, "missing position");
        return false;
    }
    if (p->state != BG_PLAYING) {
        ubgi_error(u, BAD_STATE, "the game is over");
        return false;
    }
    return true;
}

// dice <d1> <d2>: the roll of the player on roll, for go chequer and go turn.
static void cmd_dice(Uci *u, const Tokens *t) {
    char b1[48];
    long long d[2];
    BgPosition p;
    if (t->n != 3) {
        ubgi_error(u, BAD_COMMAND, "usage: dice <d1> <d2>");
        return;
    }
    for (int i = 0; i < 2; i++)
        if (!parse_integer(t->v[1 + i], 1, 6, &d[i])) {
            ubgi_error(u, BAD_VALUE, "a die shows 1 to 6, not '%s'", text_shown(t->v[1 + i], b1));
            return;
        }
    if (!need_position(u, &p))
        return;
    if (p.doubled) {
        ubgi_error(u, BAD_STATE, "a double is offered: take or drop comes before the roll");
        return;
    }
    u->ubgi.dice[0] = (int)(d[0] > d[1] ? d[0] : d[1]);
    u->ubgi.dice[1] = (int)(d[0] > d[1] ? d[1] : d[0]);
    ubgi_position(u, u->ubgi.dice, &p);
    set_game(u, &p);
}

// ---------------------------------------------------------------------------------------------
// go

// An info line of one completed depth: plies counting the root, and the cubeless equity of
// the player who acts.
static void report_ubgi(void *ctx, const SearchReport *r) {
    Uci *u = ctx;
    if (u->ubgi.info)
        output_line(u->out, "info depth %d nodes %llu time_ms %lld score %.4f", r->depth + 1,
                    (unsigned long long)r->nodes, (long long)(r->time_ms > 0 ? r->time_ms : 0),
                    r->equity);
}

// Search p on the loop's game with the keys' limits; the game is left on p.
static void search_on(Uci *u, const BgPosition *p, SearchResult *res) {
    SearchLimits lim = {.time = {-1, -1}};
    SearchHooks hooks = {.report = report_ubgi, .message = NULL, .ctx = u};
    atomic_init(&hooks.stop, false);
    atomic_init(&hooks.ponder, false);
    atomic_init(&hooks.ponderhit_us, 0);
    if (u->ubgi.ply == 1)
        lim.nodes = 1; // tabula's 0 ply
    else
        lim.depth = u->ubgi.ply - 1;
    lim.movetime = u->ubgi.movetime;
    go_apply_settings(u, &lim);
    lim.multipv = 1;
    lim.show_wdl = false;
    set_game(u, p);
    u->family->search(u->game, &lim, &hooks, res);
}

// Order the sub-moves of a play by decreasing source, then destination.
static void sort_submoves(uint8_t *from, uint8_t *to, int n) {
    for (int i = 1; i < n; i++)
        for (int j = i;
             j > 0 && (from[j] > from[j - 1] || (from[j] == from[j - 1] && to[j] > to[j - 1]));
             j--) {
            uint8_t f = from[j], d = to[j];
            from[j] = from[j - 1], to[j] = to[j - 1];
            from[j - 1] = f, to[j - 1] = d;
        }
}

// The UBGI payload of the search's play token (`31:8/5,6/5`): one `from/to` per die used,
// in the mover's numbering, `bar` and `off` by name, no hit marks; `pass` when nothing
// plays. The token is matched with a legal play through the board it leads to.
static bool payload_of(const BgPosition *p, const char *best, char *out, size_t n) {
    size_t len = strlen(best);
    if (len >= 2 && !strcmp(best + len - 2, ":-")) {
        snprintf(out, n, "pass");
        return true;
    }
    BgPlay pl;
    if (!bg_token_play(p, best, &pl))
        return false;
    sort_submoves(pl.from, pl.to, pl.n);
    size_t at = 0;
    out[0] = '\0';
    for (int k = 0; k < pl.n && at < n; k++) {
        char a[8], b[8];
        snprintf(a, sizeof a, pl.from[k] == BG_BAR_POINT ? "bar" : "%d", pl.from[k]);
        snprintf(b, sizeof b, pl.to[k] == BG_OFF_POINT ? "off" : "%d", pl.to[k]);
        at += (size_t)snprintf(out + at, n - at, "%s%s/%s", k ? " " : "", a, b);
    }
    return at < n;
}

// The play of the player on roll with the dice: its payload in out; false after an error line.
static bool best_play(Uci *u, char *out, size_t n) {
    BgPosition p;
    SearchResult res;
    if (!ubgi_position(u, u->ubgi.dice, &p))
        return false;
    search_on(u, &p, &res);
    if (!payload_of(&p, res.best, out, n)) {
        ubgi_error(u, BAD_STATE, "cannot write the play '%s'", res.best);
        return false;
    }
    return true;
}

// The cube decision on p before the roll: double or nodouble (a player who may not double
// answers nodouble at once), or with a double offered take or drop.
static const char *best_cube(Uci *u, const BgPosition *p) {
    SearchResult res;
    if (!p->doubled && !bg_can_double(p))
        return "nodouble";
    search_on(u, p, &res);
    if (p->doubled)
        return !strcmp(res.best, "take") ? "take" : "drop";
    return !strcmp(res.best, "double") ? "double" : "nodouble";
}

// go [chequer|cube|turn]: the play with the dice, the cube decision, or both in one answer.
static void cmd_go_ubgi(Uci *u, const Tokens *t) {
    char b1[48], play[PAYLOAD_MAX];
    BgPosition p;
    const char *mode = t->n == 2 ? t->v[1] : "chequer";
    bool chequer = !strcmp(mode, "chequer"), cube = !strcmp(mode, "cube");
    if (t->n > 2 || (!chequer && !cube && strcmp(mode, "turn"))) {
        ubgi_error(u, BAD_COMMAND, "usage: go [chequer|cube|turn], not 'go %s'",
                   text_shown(mode, b1));
        return;
    }
    if (!need_position(u, &p))
        return;
    if (cube) {
        const char *answer = best_cube(u, &p);
        int dice[2] = {u->ubgi.dice[0], u->ubgi.dice[1]};
        ubgi_position(u, dice, &p);
        set_game(u, &p);
        output_line(u->out, "bestcube %s", answer);
        return;
    }
    if (p.doubled) {
        ubgi_error(u, BAD_STATE, "a double is offered: go cube answers take or drop");
        return;
    }
    if (!u->ubgi.dice[0]) {
        ubgi_error(u, BAD_STATE, "missing dice");
        return;
    }
    if (chequer) {
        if (best_play(u, play, sizeof play))
            output_line(u->out, "bestmove %s", play);
        return;
    }
    if (!strcmp(best_cube(u, &p), "double")) {
        ubgi_position(u, u->ubgi.dice, &p);
        set_game(u, &p);
        output_line(u->out, "bestturn cube=double");
    } else if (best_play(u, play, sizeof play)) {
        output_line(u->out, "bestturn cube=nodouble move=%s", play);
    }
}

// ---------------------------------------------------------------------------------------------
// The table

typedef struct UbgiCommand {
    const char *name;
    void (*run)(Uci *u, const Tokens *t);
    bool args; // takes arguments (its handler checks them); else any is refused here
} UbgiCommand;

// clang-format off
static const UbgiCommand UBGI_COMMANDS[] = {
    {"ubgi",      cmd_ubgi,          false},
    {"isready",   cmd_isready_ubgi,  false},
    {"newgame",   cmd_newgame,       false},
    {"position",  cmd_position_ubgi, true},
    {"dice",      cmd_dice,          true},
    {"go",        cmd_go_ubgi,       true},
    {"set",       cmd_set,           true},
    {"get",       cmd_get,           true},
    {"keys",      cmd_keys,          false},
    {"setoption", cmd_setoption_v01, true},
    {"quit",      cmd_quit_ubgi,     false},
};
// clang-format on

#define NUBGI (int)(sizeof UBGI_COMMANDS / sizeof UBGI_COMMANDS[0])

bool ubgi_execute(Uci *u, const Tokens *t) {
    char b1[48];
    if (!strcmp(t->v[0], "uci") || !strcmp(t->v[0], "ugi")) {
        u->ubgi.on = false;
        return false;
    }
    for (int i = 0; i < NUBGI; i++) {
        const UbgiCommand *c = &UBGI_COMMANDS[i];
        if (strcmp(t->v[0], c->name))
            continue;
        if (!c->args && t->n > 1)
            ubgi_error(u, BAD_COMMAND, "%s takes no arguments", c->name);
        else
            c->run(u, t);
        return true;
    }
    ubgi_error(u, BAD_COMMAND, "unknown command '%s'", text_shown(t->v[0], b1));
    return true;
}
