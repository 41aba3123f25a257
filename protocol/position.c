// The game record, position, a person's commands (new, move, undo, play, roll) and query.
#include "protocol/command.h"
#include "protocol/uci.h"

#include "engine/core/clock.h"
#include "engine/core/parse.h"
#include "engine/core/random.h"
#include "engine/core/registry.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

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

// Add a turn to the record and play it, under the game lock; all or nothing.
bool record_play(Uci *u, const char *turn, Error *err) {
    if (!record_push(&u->record, turn))
        return error_set(err, "out of memory");
    pthread_mutex_lock(&u->game_lock);
    bool ok = record_replay(u, u->record.nmoves, err);
    pthread_mutex_unlock(&u->game_lock);
    if (!ok)
        record_pop(&u->record);
    return ok;
}

// ---------------------------------------------------------------------------------------------
// Dice (families with GAME_HAS_DICE): the prompt's roll, and the throws of `play`

// One generator for the process, seeded from the clock on first use or by `roll seed <n>`.
// Only the command loop's thread and a `play` search's thread throw, never both at once: every
// command that throws stops the search first.
static uint64_t dice_rng;
static bool dice_seeded;

bool has_dice(const Uci *u) { return u->family->capabilities & GAME_HAS_DICE; }

void dice_throw(int d[2]) {
    if (!dice_seeded) {
        dice_rng = (uint64_t)clock_now_us() ^ ((uint64_t)getpid() << 32);
        dice_seeded = true;
    }
    for (int i = 0; i < 2; i++)
        d[i] = 1 + (int)(random_next(&dice_rng) % 6);
}

// Where a dice family's game stands, read from its legal moves: dice[] holds the dice (larger
// first) when they are rolled.
DiceStage dice_stage(const Uci *u, int dice[2]) {
    char *list = moves_text(u, NULL);
    DiceStage st = DICE_OVER;
    dice[0] = dice[1] = 0;
    if (list && moves_has_word(list, "roll")) {
        st = DICE_TO_ROLL;
    } else if (list && moves_has_word(list, "take")) {
        st = DICE_DOUBLED;
    } else if (list && list[0] >= '1' && list[0] <= '6' && list[2] == ':') {
        st = DICE_ROLLED;
        dice[0] = list[0] - '0';
        dice[1] = list[1] - '0';
    }
    free(list);
    return st;
}

// The legal turn token for a play a person typed with the dice rolled: `8/5 6/5`, `8/5(2)`,
// `31:8/5,6/5`, ... is played on a scratch game, and the legal token giving the same
// position is the one kept (the record holds tokens as `moves` writes them).
static bool canonical_play(Uci *u, const int dice[2], const char *text, char *out, size_t n,
                           Error *err) {
    char token[GAME_POSITION_MAX], pos[GAME_POSITION_MAX], want[GAME_POSITION_MAX];
    char got[GAME_POSITION_MAX];
    if (text[0] >= '1' && text[0] <= '6' && text[1] >= '1' && text[1] <= '6' && text[2] == ':')
        snprintf(token, sizeof token, "%s", text);
    else
        snprintf(token, sizeof token, "%d%d:%s", dice[0], dice[1], text);
    Game *g = u->family->create(u->family->variant(u->game));
    if (!g)
        return error_set(err, "out of memory");
    pthread_mutex_lock(&u->game_lock);
    u->family->get_position(u->game, pos, sizeof pos);
    pthread_mutex_unlock(&u->game_lock);
    const char *one[1] = {token};
    bool ok = u->family->set_position(g, pos, one, 1, err);
    if (!ok && !strncmp(err->msg, "move 1, ", 8)) // the one turn played: no need to count
        memmove(err->msg, err->msg + 8, strlen(err->msg + 8) + 1);
    char **moves = NULL;
    int count = ok ? uci_legal_moves(u, &moves) : 0;
    if (ok) {
        u->family->get_position(g, want, sizeof want);
        snprintf(out, n, "%s", token); // the family read it: kept as typed if nothing matches
        for (int i = 0; i < count; i++) {
            one[0] = moves[i];
            if (u->family->set_position(g, pos, one, 1, err)) {
                u->family->get_position(g, got, sizeof got);
                if (!strcmp(got, want)) {
                    snprintf(out, n, "%s", moves[i]);
                    break;
                }
            }
        }
    }
    for (int i = 0; i < count; i++)
        free(moves[i]);
    free(moves);
    u->family->destroy(g);
    return ok;
}

// Whether text reads as a backgammon play rather than a command: it starts with a point
// (a digit) or the bar.
bool looks_like_play(const char *text) {
    return (text[0] >= '0' && text[0] <= '9') || !strncasecmp(text, "bar", 3);
}

// The turn a person's text names in a dice family, into out: with the dice rolled a play in
// gnubg's form or as a token, made the legal token it amounts to; else the text itself (a
// token the family reads: `roll`, `double`, `take`, `drop`, `31`).
bool person_turn(Uci *u, const char *text, char *out, size_t n, Error *err) {
    int dice[2];
    DiceStage st = dice_stage(u, dice);
    char *list = moves_text(u, NULL);
    bool listed = list && moves_has_word(list, text);
    free(list);
    bool token = strlen(text) > 2 && text[2] == ':'; // the protocol's `31:8/5,6/5`
    if (listed || !strchr(text, '/') || (token && st != DICE_ROLLED)) {
        snprintf(out, n, "%s", text);
        return true;
    }
    if (st == DICE_TO_ROLL)
        return error_set(err, "roll the dice first (roll, or roll <dice> to set them)");
    if (st == DICE_DOUBLED)
        return error_set(err, "a double was offered: take or drop");
    if (st == DICE_OVER)
        return error_set(err, "the game is over");
    return canonical_play(u, dice, text, out, n, err);
}

// move <m>: play one turn on the current position (a removal may follow as its own token; in
// a dice family the words of one play, `move 8/5 6/5`).
void cmd_move(Uci *u, const Tokens *t) {
    char b1[48], msg[400], turn_buf[GAME_POSITION_MAX];
    Error err;
    if (t->n < 2 || t->v[1][0] == 'x') {
        reply_error(u, "usage: move <move>, e.g. move d6, move a1-a4, move d6xa1, move 8/5 6/5");
        return;
    }
    if (has_dice(u)) {
        char *text = tokens_join(t, 1, t->n);
        if (!text) {
            reply_error(u, "out of memory");
            return;
        }
        if (!person_turn(u, text, turn_buf, sizeof turn_buf, &err) ||
            !record_play(u, turn_buf, &err)) {
            snprintf(msg, sizeof msg, "cannot play '%s': %s (position unchanged)",
                     text_shown(text, b1), err.msg);
            reply_error(u, msg);
        }
        free(text);
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

// Read `31` or `13` as two dice, larger first.
static bool read_dice(const char *s, int d[2]) {
    if (s[0] < '1' || s[0] > '6' || s[1] < '1' || s[1] > '6' || s[2])
        return false;
    int a = s[0] - '0', b = s[1] - '0';
    d[0] = a > b ? a : b;
    d[1] = a > b ? b : a;
    return true;
}

// roll [<dice>] | roll seed <n>: the player on roll declines to double and throws the dice
// (random, or the dice given); with no legal play the turn passes at once. `roll seed <n>`
// seeds the dice of later throws (roll's and play's) and throws nothing.
void cmd_roll(Uci *u, const Tokens *t) {
    char b1[48], msg[320], turn[16];
    long long seed;
    int dice[2], d[2];
    Error err;
    if (!has_dice(u)) {
        snprintf(msg, sizeof msg, "roll: %s is played without dice", u->family->variant(u->game));
        reply_error(u, msg);
        return;
    }
    if (t->n == 3 && !strcmp(t->v[1], "seed")) {
        if (!parse_integer(t->v[2], 0, LLONG_MAX, &seed)) {
            snprintf(msg, sizeof msg, "roll seed takes a number from 0, not '%s'",
                     text_shown(t->v[2], b1));
            reply_error(u, msg);
            return;
        }
        dice_rng = (uint64_t)seed;
        dice_seeded = true;
        return;
    }
    if (t->n > 2 || (t->n == 2 && !read_dice(t->v[1], d))) {
        reply_error(u, "usage: roll [<dice>, e.g. roll 31] | roll seed <n>");
        return;
    }
    DiceStage st = dice_stage(u, dice);
    if (st != DICE_TO_ROLL) {
        if (st == DICE_ROLLED)
            snprintf(msg, sizeof msg, "roll: the dice are already rolled (%d-%d)", dice[0],
                     dice[1]);
        else
            snprintf(msg, sizeof msg, "roll: %s",
                     st == DICE_DOUBLED ? "a double was offered: take or drop"
                                        : "the game is over");
        reply_error(u, msg);
        return;
    }
    if (t->n == 1)
        dice_throw(d);
    snprintf(turn, sizeof turn, "%d%d", d[0] > d[1] ? d[0] : d[1], d[0] > d[1] ? d[1] : d[0]);
    if (!record_play(u, turn, &err)) {
        snprintf(msg, sizeof msg, "roll: %s (position unchanged)", err.msg);
        reply_error(u, msg);
        return;
    }
    output_line(u->out, "Dice: %c-%c", turn[0], turn[1]);
    char pass[24];
    snprintf(pass, sizeof pass, "%s:-", turn);
    char *list = moves_text(u, NULL);
    bool stuck = list && !strcmp(list, pass);
    free(list);
    if (stuck && record_play(u, pass, &err))
        output_line(u->out, "No legal play: the turn passes");
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
