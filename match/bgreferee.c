// The backgammon referee. Design:
// - The rules are the engine's own: the referee keeps a BgPosition and plays every token on it
//   with bg_play_token_on, which refuses a cube action that is not allowed and a play that is
//   not one of the legal plays of the dice (compared as resulting positions).
// - A turn: when the player on roll may double (never on the opening roll, which is already
//   rolled), `go` before the roll answers `double` or `roll`; after `double` the opponent answers
//   `take` or `drop`. Then the referee rolls, sends the position with the bare roll (`... 52`)
//   and `go` answers the play (`52:13/8,13/11`). The game so far goes to the engines as
//   `position gnubgid <start>:<match id> moves ...`, canonical tokens only (no `roll`), so the
//   Match ID carries the match length, the score, the Crawford game and the Jacoby rule.
// - Duplicate dice: the roll of turn t of game g of pair q is a pure function of (seed, q, g,
//   t). The opening roll is a non-double: X's die and O's die, the higher one starts and plays
//   it, as in real backgammon. Both games (or matches) of a pair swap the engines' colours, so
//   each engine gets the rolls its opponent got.
// - Clocks, movetime, depth and nodes as in the mill referee; every answer (cube or play)
//   counts as a move of the clock.
#include "match/bgreferee.h"

#include "engine/backgammon/game.h"
#include "engine/backgammon/ids.h"
#include "engine/backgammon/movegen.h"
#include "engine/backgammon/notation.h"
#include "engine/core/clock.h"
#include "engine/core/random.h"
#include "match/engine_proc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define QUIT_GRACE_MS 500
#define EXIT_WAIT_MS 200
#define TOKEN_MAX 40

static const char COLOUR[2] = {'X', 'O'}; // engine[0] plays X, engine[1] O

void bg_dice(uint64_t seed, int pair, int game, int turn, int d[2]) {
    uint64_t rng = seed * 0x9E3779B97F4A7C15ull ^ (uint64_t)pair * 0xC2B2AE3D27D4EB4Full ^
                   (uint64_t)game * 0x165667B19E3779F9ull ^ (uint64_t)turn * 0xD6E8FEB86659FD93ull;
    random_next(&rng);
    do {
        // Rejection of the top values keeps every face equally likely.
        uint64_t v;
        do
            v = random_next(&rng) >> 32;
        while (v >= 4294967292ull); // 36 * 119304647
        d[0] = (int)(v % 6) + 1;
        d[1] = (int)(v / 6 % 6) + 1;
    } while (turn == 0 && d[0] == d[1]);
    if (turn > 0 && d[0] < d[1]) {
        int t = d[0];
        d[0] = d[1];
        d[1] = t;
    }
}

// The state of one money game or match in progress.
typedef struct Ref {
    const BgSetup *s;
    BgOutcome *o;
    EngineProc eng[2];
    int64_t clock_us[2];
    int moves_made[2];
    BgPosition pos;
    char start[64];         // the game's start as `<PositionID>:<MatchID>`
    char (*tok)[TOKEN_MAX]; // the game's tokens so far
    int ntok;
    FILE *mat;  // the move lines of the game being played
    char *text; // its buffer
    size_t tlen;
    int cell;  // cells written in the game: even left, odd right
    bool over; // the match ended by a fault
} Ref;

// The player (gnubg's numbering) an engine plays: engine 0 is X, player 1.
static int player_of(int engine) { return !engine; }

static void fault(Ref *r, int loser, Termination t, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

// End the match against engine `loser`: an illegal answer, a crash, silence. In money play it
// loses the cube's value; in a match, the match.
static void fault(Ref *r, int loser, Termination t, const char *fmt, ...) {
    BgOutcome *o = r->o;
    char why[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    snprintf(o->reason, sizeof o->reason, "%.40s (%c) lost: %.140s", r->s->engine[loser]->name,
             COLOUR[loser], why);
    for (char *c = o->reason; *c; c++) // it goes into reports and records
        if (*c == '{' || *c == '}' || *c == '"' || *c == '\\' || (unsigned char)*c < 32 ||
            (unsigned char)*c > 126)
            *c = '?';
    o->termination = t;
    o->winner = !loser;
    o->kind = 0;
    if (r->s->length)
        o->points[!loser] = r->s->length;
    else {
        o->points[!loser] = r->pos.cube;
        o->points[loser] = 0;
        o->cube = r->pos.cube;
    }
    r->over = true;
}

// End the match against an engine that no longer reads its input.
static void lost_input(Ref *r, int e) {
    char why[96];
    engine_exit_text(&r->eng[e], EXIT_WAIT_MS, why, sizeof why);
    fault(r, e, TERM_ABANDONED, "%s", why);
}

// Wait for a line starting with `want` (a whole token) within the timeout; false after a fault.
static bool expect(Ref *r, int e, const char *want, int64_t timeout_ms) {
    char line[ENGINE_LINE_MAX];
    int64_t deadline = clock_now_us() + timeout_ms * 1000;
    size_t n = strlen(want);
    for (;;) {
        ReadStatus st = engine_read(&r->eng[e], line, sizeof line, deadline);
        if (st == READ_EOF) {
            char why[96];
            engine_exit_text(&r->eng[e], EXIT_WAIT_MS, why, sizeof why);
            fault(r, e, TERM_ABANDONED, "%s before '%s'", why, want);
            return false;
        }
        if (st == READ_TIMEOUT) {
            fault(r, e, TERM_STALLED, "no '%s' within %lld ms", want, (long long)timeout_ms);
            return false;
        }
        if (!strncmp(line, want, n) && (line[n] == '\0' || line[n] == ' '))
            return true;
    }
}

// Start an engine and switch it to backgammon with its options.
static bool start_engine(Ref *r, int e) {
    const EngineConfig *c = r->s->engine[e];
    EngineProc *p = &r->eng[e];
    char tag[72];
    snprintf(tag, sizeof tag, "%s%s%s", r->s->log_tag ? r->s->log_tag : "",
             r->s->log_tag ? " " : "", c->name);
    Error err;
    if (!engine_start(p, c->cmd, tag, r->s->log, -1, &err)) {
        fault(r, e, TERM_ABANDONED, "%s", err.msg);
        return false;
    }
    bool ugi = c->proto == PROTO_UGI;
    int64_t wait = r->s->movetimeout_ms;
    if (!engine_send(p, ugi ? "ugi" : "uci") || !expect(r, e, ugi ? "ugiok" : "uciok", wait))
        goto gone;
    if (!engine_send(p, "setoption name UCI_Variant value backgammon"))
        goto gone;
    for (int i = 0; i < c->noptions; i++)
        if (!engine_send(p, "setoption name %s value %s", c->option_name[i], c->option_value[i]))
            goto gone;
    if (!engine_send(p, "isready") || !expect(r, e, "readyok", wait))
        goto gone;
    return true;
gone:
    if (!r->over)
        lost_input(r, e);
    return false;
}

// Send the game so far and `go` to engine e and read its answer (the first word after
// `bestmove`) into answer; false after a fault.
static bool ask(Ref *r, int e, char *answer, size_t n) {
    const EngineConfig *c = r->s->engine[e];
    EngineProc *p = &r->eng[e];
    size_t cap = 64 + sizeof r->start + (size_t)r->ntok * TOKEN_MAX;
    char *line = malloc(cap);
    if (!line) {
        fault(r, e, TERM_ABANDONED, "out of memory");
        return false;
    }
    size_t len = (size_t)snprintf(line, cap, "position gnubgid %s", r->start);
    if (r->ntok)
        len += (size_t)snprintf(line + len, cap - len, " moves");
    for (int i = 0; i < r->ntok; i++)
        len += (size_t)snprintf(line + len, cap - len, " %s", r->tok[i]);
    char go[256];
    referee_format_go(r->s->engine, e, r->clock_us, r->moves_made[e], go, sizeof go);
    bool sent = engine_send(p, "%s", line) && engine_send(p, "%s", go);
    free(line);
    if (!sent) {
        lost_input(r, e);
        return false;
    }
    int64_t margin = r->s->timemargin_ms * 1000, limit;
    Termination late = TERM_TIME;
    if (c->tc_time_ms)
        limit = r->clock_us[e] + margin;
    else if (c->movetime_ms)
        limit = c->movetime_ms * 1000 + margin;
    else {
        limit = r->s->movetimeout_ms * 1000;
        late = TERM_STALLED;
    }
    int64_t t0 = clock_now_us();
    char buf[ENGINE_LINE_MAX];
    for (;;) {
        ReadStatus st = engine_read(p, buf, sizeof buf, t0 + limit);
        if (st == READ_EOF) {
            char why[96];
            engine_exit_text(p, EXIT_WAIT_MS, why, sizeof why);
            fault(r, e, TERM_ABANDONED, "%s while thinking", why);
            return false;
        }
        if (st == READ_TIMEOUT) {
            fault(r, e, late, "no answer within %lld ms", (long long)(limit / 1000));
            return false;
        }
        if (!strncmp(buf, "bestmove", 8) && (buf[8] == ' ' || buf[8] == '\0'))
            break;
    }
    int64_t used = clock_now_us() - t0;
    if (used > limit) {
        fault(r, e, late, "its answer came after %lld ms, allowed %lld ms",
              (long long)(used / 1000), (long long)(limit / 1000));
        return false;
    }
    if (c->tc_time_ms) {
        int64_t left = r->clock_us[e] - used;
        r->clock_us[e] = (left > 0 ? left : 0) + c->tc_inc_ms * 1000;
        if (c->tc_moves && (r->moves_made[e] + 1) % c->tc_moves == 0)
            r->clock_us[e] += c->tc_time_ms * 1000;
    }
    r->moves_made[e]++;
    r->o->decisions++;
    char *save, *word = strtok_r(buf + 8, " \t", &save);
    snprintf(answer, n, "%.*s", TOKEN_MAX - 1, word ? word : "");
    return true;
}

// Append a token to the game's list.
static void push_token(Ref *r, const char *token) {
    snprintf(r->tok[r->ntok++], TOKEN_MAX, "%s", token);
}

// Write one cell of the .mat move lines for engine e: its column, left or right. The cells
// alternate between the players (a double and its answer, then the doubler's roll), so the
// column of each cell is that of its player.
static void mat_cell(Ref *r, int e, const char *text) {
    bool left = e == r->s->left;
    if (r->cell == 0 && !left) {
        fprintf(r->mat, "  1)%29s", "");
        r->cell = 1;
    }
    if (r->cell & 1) {
        fprintf(r->mat, "%s\n", text);
    } else {
        // At least two spaces after the left cell: gnubg splits a line without two rolls there.
        int w = (int)strlen(text);
        fprintf(r->mat, "%3d) %-28s%s", r->cell / 2 + 1, text, w >= 27 ? "  " : "");
    }
    r->cell++;
}

// Let the player on roll answer a cube question and play a roll; false when the game ended.
static bool play_turn(Ref *r, int game, int turn) {
    BgPosition *p = &r->pos;
    int e = !p->turn; // the engine of the player on roll
    char answer[TOKEN_MAX];
    Error err;
    if (turn > 0 && bg_can_double(p)) {
        if (!ask(r, e, answer, sizeof answer))
            return false;
        if (strcmp(answer, "double") && strcmp(answer, "roll")) {
            fault(r, e, TERM_ILLEGAL, "'%s' is not a cube action before the roll (double or roll)",
                  answer);
            return false;
        }
        if (!strcmp(answer, "double")) {
            bg_play_token_on(p, "double", &err);
            push_token(r, "double");
            r->o->doubles++;
            char cell[32];
            snprintf(cell, sizeof cell, " Doubles => %d", 2 * p->cube);
            mat_cell(r, e, cell);
            if (!ask(r, !e, answer, sizeof answer))
                return false;
            if (strcmp(answer, "take") && strcmp(answer, "drop")) {
                fault(r, !e, TERM_ILLEGAL, "'%s' is not an answer to a double (take or drop)",
                      answer);
                return false;
            }
            bg_play_token_on(p, answer, &err);
            push_token(r, answer);
            mat_cell(r, !e, answer[0] == 't' ? " Takes" : " Drops");
            if (p->state != BG_PLAYING) {
                r->o->drops++;
                return false;
            }
        }
    }
    int d[2];
    bg_dice(r->s->seed, r->s->pair, game, turn, d);
    if (turn == 0) {
        // The opening roll: X's die and O's die; the higher one starts with both.
        p->turn = d[0] > d[1] ? 1 : 0;
        e = !p->turn;
        if (d[0] < d[1]) {
            int t = d[0];
            d[0] = d[1];
            d[1] = t;
        }
        bg_gnubgid(p, r->start, sizeof r->start);
    }
    char roll[4];
    snprintf(roll, sizeof roll, "%d%d", d[0], d[1]);
    BgPosition before = *p;
    bg_play_token_on(p, roll, &err);
    push_token(r, roll);
    bool ok = ask(r, e, answer, sizeof answer);
    r->ntok--; // the bare roll gives way to the play
    if (!ok)
        return false;
    if (!bg_play_token_on(p, answer, &err)) {
        *p = before;
        fault(r, e, TERM_ILLEGAL, "illegal play '%s' for %s: %s", answer, roll, err.msg);
        return false;
    }
    // The canonical token and gnubg's form of the play, from the legal play it matched.
    BgPlayList l;
    bg_plays_init(&l);
    int n = bg_generate(&before.b, before.turn, d[0], d[1], &l);
    const BgPlay *found = NULL;
    for (int i = 0; i < n && !found; i++)
        if (!memcmp(&l.v[i].after, &p->b, sizeof p->b))
            found = &l.v[i];
    char token[TOKEN_MAX], text[BG_PLAY_TEXT_MAX], cell[BG_PLAY_TEXT_MAX + 8];
    if (found) {
        bg_play_token(&before.b, before.turn, d[0], d[1], found, token, sizeof token);
        bg_play_format(&before.b, before.turn, found, " ", text, sizeof text);
    } else {
        snprintf(token, sizeof token, "%s:-", roll);
        text[0] = '\0';
    }
    bg_plays_free(&l);
    push_token(r, token);
    snprintf(cell, sizeof cell, "%s: %s", roll, text);
    mat_cell(r, e, cell);
    return p->state == BG_PLAYING;
}

// Say how a finished game was won, for the records.
static const char *const KIND_NAME[4] = {"drop", "single game", "gammon", "backgammon"};

// Play game `game` of the match from the score in o; false when a fault ended the match.
static bool play_game(Ref *r, int game, bool crawford) {
    BgOutcome *o = r->o;
    const BgSetup *s = r->s;
    BgPosition *p = &r->pos;
    bg_set_start(p);
    p->length = s->length;
    p->jacoby = s->length == 0 && s->jacoby;
    p->crawford = crawford;
    for (int e = 0; e < 2; e++)
        p->score[player_of(e)] = s->length ? o->points[e] : 0;
    r->ntok = 0;
    r->cell = 0;
    r->text = NULL;
    r->mat = open_memstream(&r->text, &r->tlen);
    BgGameText *g = &o->game[o->ngames++];
    g->score[0] = s->length ? o->points[0] : 0;
    g->score[1] = s->length ? o->points[1] : 0;
    bool ok = r->mat != NULL;
    if (!ok)
        fault(r, 0, TERM_ABANDONED, "out of memory");
    for (int e = 0; ok && e < 2; e++) {
        ok = engine_send(&r->eng[e], "ucinewgame") && engine_send(&r->eng[e], "isready");
        if (!ok)
            lost_input(r, e);
        else
            ok = expect(r, e, "readyok", s->movetimeout_ms);
    }
    for (int turn = 0; ok && !r->over; turn++) {
        if (r->ntok >= BG_MAX_DECISIONS - 4) {
            snprintf(o->reason, sizeof o->reason, "no result after %d tokens", r->ntok);
            o->termination = TERM_ADJUDICATION;
            o->winner = -1;
            r->over = true;
            break;
        }
        if (!play_turn(r, game, turn))
            break;
    }
    if (!r->over) {
        int winner = !p->winner; // the engine of the winning player
        int kind = p->state == BG_DROPPED ? 0 : bg_win_kind(&p->b, p->winner);
        fprintf(r->mat, "%s%*sWins %d point%s\n", r->cell & 1 ? "\n" : "",
                winner == s->left ? 6 : 34, "", p->points, p->points > 1 ? "s" : "");
        o->points[winner] += p->points;
        o->kind = kind;
        o->cube = p->cube;
        o->termination = TERM_NORMAL;
        o->winner = winner;
        snprintf(o->reason, sizeof o->reason, "%s (%c) wins %d point%s (%s, cube %d)",
                 s->engine[winner]->name, COLOUR[winner], p->points, p->points > 1 ? "s" : "",
                 KIND_NAME[kind], p->cube);
    } else if (r->mat && o->winner >= 0) {
        // gnubg reads a win that ends no game as the loser's resignation.
        fprintf(r->mat, "%s%*sWins %d point%s\n", r->cell & 1 ? "\n" : "",
                o->winner == s->left ? 6 : 34, "", p->cube, p->cube > 1 ? "s" : "");
    }
    if (r->mat)
        fclose(r->mat);
    g->moves = r->text;
    return !r->over;
}

void bg_referee_play(const BgSetup *s, BgOutcome *o) {
    memset(o, 0, sizeof *o);
    o->winner = -1;
    Ref r = {.s = s, .o = o};
    r.eng[0].pid = r.eng[1].pid = -1;
    bg_set_start(&r.pos);
    for (int e = 0; e < 2; e++)
        r.clock_us[e] = s->engine[e]->tc_time_ms * 1000;
    r.tok = malloc(BG_MAX_DECISIONS * sizeof *r.tok);
    if (!r.tok) {
        snprintf(o->reason, sizeof o->reason, "out of memory");
        o->termination = TERM_ABANDONED;
        return;
    }
    if (start_engine(&r, 0) && start_engine(&r, 1)) {
        bool crawford_done = false;
        for (int game = 0; game < BG_MAX_GAMES; game++) {
            // The Crawford game: the first game after a player reaches length - 1.
            bool crawford = false;
            if (s->length && !crawford_done &&
                (o->points[0] == s->length - 1 || o->points[1] == s->length - 1)) {
                crawford = true;
                crawford_done = true;
            }
            if (!play_game(&r, game, crawford) || !s->length)
                break;
            if (o->points[0] >= s->length || o->points[1] >= s->length) {
                int w = o->points[1] > o->points[0];
                o->winner = w;
                snprintf(o->reason, sizeof o->reason, "%s (%c) wins the match %d-%d",
                         s->engine[w]->name, COLOUR[w], o->points[w], o->points[!w]);
                break;
            }
        }
    }
    engine_stop(&r.eng[0], QUIT_GRACE_MS);
    engine_stop(&r.eng[1], QUIT_GRACE_MS);
    free(r.tok);
}

void bg_outcome_free(BgOutcome *o) {
    for (int g = 0; g < o->ngames; g++) {
        free(o->game[g].moves);
        o->game[g].moves = NULL;
    }
    o->ngames = 0;
}

void bg_mat_write_game(FILE *f, int number, const char *left, int left_score, const char *right,
                       int right_score, const char *moves) {
    char head[96];
    snprintf(head, sizeof head, "%s : %d", left, left_score);
    fprintf(f, " Game %d\n %-31s%s : %d\n%s\n", number, head, right, right_score,
            moves ? moves : "");
}
