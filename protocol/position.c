// The game record, position, a person's commands (new, move, undo, play) and query.
#include "protocol/command.h"
#include "protocol/uci.h"

#include "engine/core/registry.h"

#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// The game record: the start and the turns played, so that a turn can be taken back

void record_clear(UciRecord *r) {
    free(r->fen);
    for (int i = 0; i < r->nmoves; i++)
        free(r->moves[i]);
    free(r->moves);
    *r = (UciRecord){NULL, NULL, 0, 0};
}

// Add a turn; false when out of memory, with the record unchanged.
bool record_push(UciRecord *r, const char *move) {
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

void record_pop(UciRecord *r) { free(r->moves[--r->nmoves]); }

// A record of fen (NULL: the start) and the tokens [from, t->n), each removal token (`xd7`)
// joined to the turn before it, as the position command reads them.
bool record_make(UciRecord *r, const char *fen, const Tokens *t, int from) {
    *r = (UciRecord){NULL, NULL, 0, 0};
    if (fen && !(r->fen = strdup(fen)))
        return false;
    for (int i = from; i < t->n; i++) {
        char *turn = tokens_join(t, i, i + 1);
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
bool record_replay(Uci *u, int n, Error *err) {
    return u->family->set_position(u->game, u->record.fen, (const char *const *)u->record.moves, n,
                                   err);
}

// Whether the family reads positions written in format (a keyword of `position`).
static bool reads_format(const GameFamily *f, const char *format) {
    for (int i = 0; f->position_formats[i]; i++)
        if (!strcmp(format, f->position_formats[i]))
            return true;
    return false;
}

// Whether some family reads positions written in format.
static bool any_reads_format(const char *format) {
    const GameFamily *f;
    for (int i = 0; (f = registry_family(i)); i++)
        if (reads_format(f, format))
            return true;
    return false;
}

// position startpos|<format> <string> [moves ...]: the formats are the family's own.
void cmd_position(Uci *u, const Tokens *t) {
    char b1[48], msg[320], fen[GAME_POSITION_MAX];
    int moves_at = t->n, fen_end = t->n;
    for (int i = 1; i < t->n; i++)
        if (!strcmp(t->v[i], "moves")) {
            moves_at = i + 1;
            fen_end = i;
            break;
        }
    char *text = NULL;
    if (t->n >= 2 && !strcmp(t->v[1], "startpos")) {
        if (fen_end > 2) {
            snprintf(msg, sizeof msg, "unexpected '%s' after startpos", text_shown(t->v[2], b1));
            reply_error(u, msg);
            return;
        }
    } else if (t->n >= 2 && any_reads_format(t->v[1])) {
        if (!reads_format(u->family, t->v[1])) {
            snprintf(msg, sizeof msg, "position %s: %s reads no such position (position unchanged)",
                     t->v[1], u->family->variant(u->game));
            reply_error(u, msg);
            return;
        }
        if (fen_end == 2) {
            snprintf(msg, sizeof msg, "position %s needs a position string", t->v[1]);
            reply_error(u, msg);
            return;
        }
        text = tokens_join(t, 2, fen_end);
        if (!text) {
            reply_error(u, "out of memory");
            return;
        }
    } else {
        reply_error(u, "usage: position startpos|fen <string>|gnubgid <id>|xgid <XGID> [moves "
                       "<m1> ...]");
        return;
    }
    Error err;
    bool ok = !text || u->family->read_position(u->game, t->v[1], text, fen, sizeof fen, &err);
    UciRecord r;
    if (ok && !record_make(&r, text ? fen : NULL, t, moves_at))
        ok = error_set(&err, "out of memory");
    else if (ok) {
        const char *const *moves = (const char *const *)r.moves;
        ok = u->family->set_position(u->game, text ? fen : NULL, moves, r.nmoves, &err);
        if (ok) {
            record_clear(&u->record);
            u->record = r;
        } else {
            record_clear(&r);
        }
    }
    if (!ok) {
        snprintf(msg, sizeof msg, "%s (position unchanged)", err.msg);
        reply_error(u, msg);
    }
    free(text);
}

// ---------------------------------------------------------------------------------------------
// A person's commands: new, move, undo, play

// move <m>: play one turn on the current position (a removal may follow as its own token).
void cmd_move(Uci *u, const Tokens *t) {
    char b1[48], msg[400];
    if (t->n < 2 || t->v[1][0] == 'x') {
        reply_error(u, "usage: move <move>, e.g. move d6, move a1-a4, move d6xa1");
        return;
    }
    for (int i = 2; i < t->n; i++)
        if (t->v[i][0] != 'x') {
            snprintf(msg, sizeof msg, "move takes one move; '%s' is another",
                     text_shown(t->v[i], b1));
            reply_error(u, msg);
            return;
        }
    char *turn = tokens_join(t, 1, t->n);
    if (turn) // "a1-a4 xd7" -> "a1-a4xd7"
        for (char *s = turn; (s = strchr(s, ' '));)
            memmove(s, s + 1, strlen(s));
    Error err;
    if (!turn || !record_push(&u->record, turn)) {
        reply_error(u, "out of memory");
    } else if (!record_replay(u, u->record.nmoves, &err)) {
        record_pop(&u->record);
        snprintf(msg, sizeof msg, "cannot play '%s': %s (position unchanged)", text_shown(turn, b1),
                 err.msg);
        reply_error(u, msg);
    }
    free(turn);
}

// undo: take back the last turn played since the position was set.
void cmd_undo(Uci *u, const Tokens *t) {
    char msg[320];
    Error err;
    if (t->n > 1) {
        reply_error(u, "usage: undo");
        return;
    }
    if (u->record.nmoves == 0) {
        reply_error(u, "undo: no move to take back");
        return;
    }
    if (!record_replay(u, u->record.nmoves - 1, &err)) {
        snprintf(msg, sizeof msg, "undo: %s (position unchanged)", err.msg);
        reply_error(u, msg);
        return;
    }
    record_pop(&u->record);
}

// play [limits]: the engine searches and plays its move on the board. The limits are those of
// go, without infinite, ponder and searchmoves; they are kept for the next bare `play`.
void cmd_play(Uci *u, const Tokens *t) {
    char msg[320], reason[160];
    SearchLimits lim = u->play_limits;
    if (t->n > 1) {
        bool ponder;
        int moves_at;
        lim = (SearchLimits){.time = {-1, -1}};
        if (!go_parse(u, t, &lim, &ponder, &moves_at, msg, sizeof msg)) {
            reply_error(u, msg);
            return;
        }
        if (ponder || moves_at < t->n || lim.infinite) {
            reply_error(u, "play takes the limits of go (depth, nodes, movetime, mate, the "
                           "clocks), and at least one that ends the search");
            return;
        }
        u->play_limits = lim;
    }
    if (u->family->result(u->game, reason, sizeof reason) != RESULT_NONE) {
        snprintf(msg, sizeof msg, "play: the game is over (%s)", reason);
        reply_error(u, msg);
        return;
    }
    go_apply_settings(u, &lim);
    go_debug_limits(u, "play", &lim, false);
    search_start(u, &lim, false, true);
}

// ---------------------------------------------------------------------------------------------
// query (UGI)

// query gameover|p1turn|result: `response ...` about the current position.
void cmd_query(Uci *u, const Tokens *t) {
    char b1[48], msg[160], reason[160];
    if (t->n != 2) {
        reply_error(u, "usage: query gameover|p1turn|result");
        return;
    }
    pthread_mutex_lock(&u->game_lock);
    GameResult r = u->family->result(u->game, reason, sizeof reason);
    GameSide side = u->family->to_act(u->game);
    pthread_mutex_unlock(&u->game_lock);
    if (!strcmp(t->v[1], "gameover")) {
        output_line(u->out, "response %s", r != RESULT_NONE ? "true" : "false");
    } else if (!strcmp(t->v[1], "p1turn")) {
        output_line(u->out, "response %s", side == SIDE_FIRST ? "true" : "false");
    } else if (!strcmp(t->v[1], "result")) {
        output_line(u->out, "response %s",
                    r == RESULT_WHITE_WINS   ? "p1win"
                    : r == RESULT_BLACK_WINS ? "p2win"
                    : r == RESULT_DRAW       ? "draw"
                                             : "none");
    } else {
        snprintf(msg, sizeof msg, "unknown query '%s' (gameover, p1turn or result)",
                 text_shown(t->v[1], b1));
        reply_error(u, msg);
    }
}
