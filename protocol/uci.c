// The command loop. Commands are looked up in one table, their handlers in the files that
// protocol/command.h lists; each command that changes what a running search reads (the game,
// the table, the settings) first stops the search and waits for its bestmove. `go` is parsed
// into SearchLimits and hands them to a search thread, which reports through the hooks and
// prints the one bestmove; everything goes through the locked Output writer. The game is also
// kept as a record (start and turns) so that a person's `move`, `undo` and `play` work on top
// of `position`. After `ubgi` the lines go to protocol/ubgi.c instead, but for `uci` and `ugi`.
#include "protocol/uci.h"

#include "engine/core/clock.h"
#include "engine/core/registry.h"
#include "protocol/command.h"

#include <stdlib.h>
#include <string.h>

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
    {"ubgi",       cmd_ubgi,       true,  "ubgi",
     "the UBGI dialect for backgammon controllers (docs/protocol.md); uci or ugi leaves it"},
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
     "its move; in backgammon its whole turn: cube, dice and play"},
    {"roll",       cmd_roll,       true,  "roll [<dice>] | roll seed <n>",
     "backgammon: the player on roll does not double and throws the dice (roll 31 sets "
     "them); roll seed <n> seeds later throws"},
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
            snprintf(msg, sizeof msg, "help: unknown command '%s'", text_shown(t->v[1], b1));
        else
            snprintf(msg, sizeof msg, "usage: help [command]");
        reply_error(u, msg);
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
    ubgi_reset(u);
    options_reset(u);
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
    if (!tokens_split(line, &t)) {
        reply_error(u, "out of memory");
        return !u->quit;
    }
    if (t.n > 0 && t.v[0][0] != '#' && !(u->ubgi.on && ubgi_execute(u, &t))) {
        const Command *c = find_command(t.v[0]);
        if (c) {
            if (c->stops)
                uci_finish_search(u);
            c->run(u, &t);
        } else {
            char b1[48], msg[120];
            snprintf(msg, sizeof msg, "unknown command '%s' (try help)", text_shown(t.v[0], b1));
            reply_error(u, msg);
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
            reply_error(u, "the line holds a NUL byte; ignored");
        else
            uci_execute(u, line);
    }
    free(line);
    uci_finish_search(u);
}

// ---------------------------------------------------------------------------------------------
// For the prompt

const char *uci_command_name(int i) { return i >= 0 && i < NCOMMANDS ? COMMANDS[i].name : NULL; }

void uci_print_board(Uci *u) {
    char board[BOARD_TEXT_MAX];
    pthread_mutex_lock(&u->game_lock);
    u->family->render(u->game, board, sizeof board);
    pthread_mutex_unlock(&u->game_lock);
    output_text(u->out, board);
}
