// The referee. Design:
// - The rules are the engine's own (MILL_FAMILY): before each move the whole game is replayed
//   from the start position with set_position, which validates every move and keeps the
//   repetition history; the game ends when its result is not RESULT_NONE.
// - Clocks are wall time from writing `go` to reading `bestmove`, in microseconds. A side whose
//   answer comes later than its clock (or its movetime) plus the time margin loses on time; the
//   referee stops waiting at that instant, so a silent engine costs no more than its clock.
//   Without a clock or movetime the wait is capped by movetimeout ("stalled connection").
// - Scores for adjudication are read from the last `info ... score` line before `bestmove`.
#include "match/referee.h"

#include "engine/core/clock.h"
#include "engine/core/parse.h"
#include "engine/mill/game.h"
#include "match/engine_proc.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MATE_CP 100000 // a mate score, in centipawns, for adjudication thresholds
#define QUIT_GRACE_MS 500
// How long to wait for an engine whose output ended to exit, to tell a crash from an exit.
#define EXIT_WAIT_MS 200

static const char *const TERMINATION_NAMES[TERM_COUNT] = {
    [TERM_NORMAL] = "normal",       [TERM_ADJUDICATION] = "adjudication",
    [TERM_TIME] = "time forfeit",   [TERM_ILLEGAL] = "illegal move",
    [TERM_ABANDONED] = "abandoned", [TERM_STALLED] = "stalled connection",
};

static const char *const SIDE_NAME[2] = {"white", "black"};

const char *referee_termination_name(Termination t) {
    return t < TERM_COUNT ? TERMINATION_NAMES[t] : "unknown";
}

Termination referee_termination_of(const char *name) {
    for (int t = 0; t < TERM_COUNT; t++)
        if (!strcmp(name, TERMINATION_NAMES[t]))
            return (Termination)t;
    return TERM_COUNT;
}

// The state of one game in progress.
typedef struct Match1 {
    const GameSetup *s;
    GameRecord *rec;
    Game *game;
    EngineProc eng[2];
    const char *moves[MAX_RECORD_PLIES];
    int64_t clock_us[2];
    int moves_made[2];
    int lose_run[2], win_run[2], draw_run[2]; // consecutive own moves past the thresholds
} Match1;

static void finish(Match1 *m, GameResult r, Termination t, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void finish(Match1 *m, GameResult r, Termination t, const char *fmt, ...) {
    m->rec->result = r;
    m->rec->termination = t;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->rec->reason, sizeof m->rec->reason, fmt, ap);
    va_end(ap);
    for (char *c = m->rec->reason; *c; c++) // it goes into a record comment and JSON
        if (*c == '{' || *c == '}' || *c == '"' || *c == '\\' || (unsigned char)*c < 32 ||
            (unsigned char)*c > 126)
            *c = '?';
}

// The side at fault loses.
static GameResult loss_of(int side) { return side == 0 ? RESULT_BLACK_WINS : RESULT_WHITE_WINS; }

// Replay the game so far, plus `extra` when not NULL; false when that is not legal.
static bool replay(Match1 *m, const char *extra, Error *err) {
    int n = m->rec->nplies;
    if (extra)
        m->moves[n++] = extra;
    return MILL_FAMILY.set_position(m->game, m->s->fen, m->moves, n, err);
}

// The side to move, from the position string.
static int side_to_move(const Game *g) {
    char fen[FEN_MAX];
    MILL_FAMILY.get_position(g, fen, sizeof fen);
    const char *sp = strchr(fen, ' ');
    return sp && sp[1] == 'b';
}

// Wait for a line starting with `want` (a whole token) within the timeout; on failure end
// the game against `side` and return false.
static bool expect(Match1 *m, int side, const char *want, int64_t timeout_ms) {
    char line[ENGINE_LINE_MAX];
    int64_t deadline = clock_now_us() + timeout_ms * 1000;
    size_t n = strlen(want);
    for (;;) {
        ReadStatus st = engine_read(&m->eng[side], line, sizeof line, deadline);
        if (st == READ_EOF) {
            char why[96];
            engine_exit_text(&m->eng[side], EXIT_WAIT_MS, why, sizeof why);
            finish(m, loss_of(side), TERM_ABANDONED, "%s lost: %s before '%s'", SIDE_NAME[side],
                   why, want);
            return false;
        }
        if (st == READ_TIMEOUT) {
            finish(m, loss_of(side), TERM_STALLED, "%s lost: no '%s' within %lld ms",
                   SIDE_NAME[side], want, (long long)timeout_ms);
            return false;
        }
        if (!strncmp(line, want, n) && (line[n] == '\0' || line[n] == ' '))
            return true;
    }
}

// End the game against side, whose engine no longer reads its input.
static void lost_input(Match1 *m, int side) {
    char why[96];
    engine_exit_text(&m->eng[side], EXIT_WAIT_MS, why, sizeof why);
    finish(m, loss_of(side), TERM_ABANDONED, "%s lost: %s", SIDE_NAME[side], why);
}

// Start an engine and bring it to a new game of the variant with its options.
static bool start_engine(Match1 *m, int side) {
    const EngineConfig *c = m->s->engine[side];
    EngineProc *e = &m->eng[side];
    char tag[72];
    snprintf(tag, sizeof tag, "%s%s%s", m->s->log_tag ? m->s->log_tag : "",
             m->s->log_tag ? " " : "", c->name);
    Error err;
    if (!engine_start(e, c->cmd, tag, m->s->log, -1, &err)) {
        finish(m, loss_of(side), TERM_ABANDONED, "%s lost: %s", SIDE_NAME[side], err.msg);
        return false;
    }
    bool ugi = c->proto == PROTO_UGI;
    int64_t wait = m->s->movetimeout_ms;
    if (!engine_send(e, ugi ? "ugi" : "uci") || !expect(m, side, ugi ? "ugiok" : "uciok", wait))
        goto gone;
    if (!engine_send(e, "setoption name UCI_Variant value %s", m->s->variant))
        goto gone;
    for (int i = 0; i < c->noptions; i++)
        if (!engine_send(e, "setoption name %s value %s", c->option_name[i], c->option_value[i]))
            goto gone;
    if (!engine_send(e, "isready") || !expect(m, side, "readyok", wait))
        goto gone;
    if (!engine_send(e, ugi ? "uginewgame" : "ucinewgame") || !engine_send(e, "isready") ||
        !expect(m, side, "readyok", wait))
        goto gone;
    return true;
gone:
    if (m->rec->result == RESULT_NONE)
        lost_input(m, side);
    return false;
}

// Send the position: the start (or the start position string) and every move so far.
static bool send_position(Match1 *m, EngineProc *e) {
    size_t cap = 64 + sizeof m->rec->start_fen + (size_t)m->rec->nplies * MOVE_STR_MAX;
    char *line = malloc(cap);
    if (!line)
        return false;
    size_t len = m->s->fen ? (size_t)snprintf(line, cap, "position fen %s", m->s->fen)
                           : (size_t)snprintf(line, cap, "position startpos");
    if (m->rec->nplies)
        len += (size_t)snprintf(line + len, cap - len, " moves");
    for (int i = 0; i < m->rec->nplies; i++)
        len += (size_t)snprintf(line + len, cap - len, " %s", m->moves[i]);
    bool ok = engine_send(e, "%s", line);
    free(line);
    return ok;
}

void referee_format_go(const EngineConfig *const engine[2], int side, const int64_t clock_us[2],
                       int moves_made, char *buf, size_t n) {
    const EngineConfig *c = engine[side];
    bool ugi = c->proto == PROTO_UGI;
    static const char *const TIME[2][2] = {{"wtime", "btime"}, {"p1time", "p2time"}};
    static const char *const INC[2][2] = {{"winc", "binc"}, {"p1inc", "p2inc"}};
    size_t len = (size_t)snprintf(buf, n, "go");
    for (int s = 0; s < 2; s++) {
        const EngineConfig *o = engine[s];
        if (!o->tc_time_ms)
            continue;
        len +=
            (size_t)snprintf(buf + len, n - len, " %s %lld %s %lld", TIME[ugi][s],
                             (long long)(clock_us[s] / 1000), INC[ugi][s], (long long)o->tc_inc_ms);
    }
    if (c->tc_time_ms && c->tc_moves)
        len += (size_t)snprintf(buf + len, n - len, " movestogo %d",
                                c->tc_moves - moves_made % c->tc_moves);
    if (c->movetime_ms)
        len += (size_t)snprintf(buf + len, n - len, " movetime %lld", (long long)c->movetime_ms);
    if (c->depth)
        len += (size_t)snprintf(buf + len, n - len, " depth %d", c->depth);
    if (c->nodes)
        snprintf(buf + len, n - len, " nodes %lld", (long long)c->nodes);
}

// Read depth and score from an info line into the ply record.
static void parse_info(const char *line, PlyRecord *p) {
    char copy[ENGINE_LINE_MAX];
    snprintf(copy, sizeof copy, "%s", line);
    char *save, *tok = strtok_r(copy, " \t", &save);
    int multipv = 1;
    int depth = -1, score = 0;
    bool has_score = false, mate = false;
    while ((tok = strtok_r(NULL, " \t", &save))) {
        if (!strcmp(tok, "pv") || !strcmp(tok, "string"))
            break;
        char *val = NULL;
        if (!strcmp(tok, "depth") || !strcmp(tok, "multipv") || !strcmp(tok, "score"))
            val = strtok_r(NULL, " \t", &save);
        if (!val)
            continue;
        long long v;
        if (!strcmp(tok, "depth") && parse_integer(val, 0, INT_MAX, &v))
            depth = (int)v;
        else if (!strcmp(tok, "multipv") && parse_integer(val, 0, INT_MAX, &v))
            multipv = (int)v;
        else if ((!strcmp(val, "cp") || !strcmp(val, "mate")) &&
                 (tok = strtok_r(NULL, " \t", &save)) &&
                 parse_integer(tok, -INT_MAX, INT_MAX, &v)) {
            has_score = true;
            mate = !strcmp(val, "mate");
            score = (int)v;
        }
    }
    if (multipv != 1)
        return;
    if (depth >= 0)
        p->depth = depth;
    if (has_score) {
        p->has_score = true;
        p->mate = mate;
        p->score = score;
    }
}

// The score of a ply in centipawns for the thresholds; mates lie beyond them.
static int score_cp(const PlyRecord *p) {
    if (!p->mate)
        return p->score;
    return p->score > 0 ? MATE_CP : -MATE_CP;
}

// Update the adjudication runs with the mover's latest score.
static void track_scores(Match1 *m, int side, const PlyRecord *p) {
    const Adjudication *a = &m->s->adj;
    int cp = score_cp(p);
    bool known = p->has_score;
    m->lose_run[side] =
        known && a->resign_moves && cp <= -a->resign_score ? m->lose_run[side] + 1 : 0;
    m->win_run[side] = known && a->resign_moves && cp >= a->resign_score ? m->win_run[side] + 1 : 0;
    m->draw_run[side] =
        known && a->draw_moves && abs(cp) <= a->draw_score ? m->draw_run[side] + 1 : 0;
}

// Adjudicate on the scores; true when the game ended.
static bool adjudicate(Match1 *m) {
    const Adjudication *a = &m->s->adj;
    for (int s = 0; s < 2 && a->resign_moves; s++)
        if (m->lose_run[s] >= a->resign_moves && m->win_run[!s] >= a->resign_moves) {
            finish(m, loss_of(s), TERM_ADJUDICATION,
                   "%s wins by adjudication: both engines score it beyond %d cp for %d moves",
                   SIDE_NAME[!s], a->resign_score, a->resign_moves);
            return true;
        }
    if (a->draw_moves && m->rec->nplies >= 2 * a->draw_from && m->draw_run[0] >= a->draw_moves &&
        m->draw_run[1] >= a->draw_moves) {
        finish(m, RESULT_DRAW, TERM_ADJUDICATION,
               "draw by adjudication: both scores within %d cp for %d moves", a->draw_score,
               a->draw_moves);
        return true;
    }
    return false;
}

// Let the side to move search and play; false when the game ended on this move.
static bool play_move(Match1 *m, int side) {
    const EngineConfig *c = m->s->engine[side];
    EngineProc *e = &m->eng[side];
    GameRecord *rec = m->rec;
    PlyRecord *p = &rec->ply[rec->nplies];
    memset(p, 0, sizeof *p);
    p->depth = -1;

    char go[256];
    referee_format_go(m->s->engine, side, m->clock_us, m->moves_made[side], go, sizeof go);
    int64_t margin = m->s->timemargin_ms * 1000, limit;
    Termination late = TERM_TIME;
    if (c->tc_time_ms)
        limit = m->clock_us[side] + margin;
    else if (c->movetime_ms)
        limit = c->movetime_ms * 1000 + margin;
    else {
        limit = m->s->movetimeout_ms * 1000;
        late = TERM_STALLED;
    }
    if (!send_position(m, e) || !engine_send(e, "%s", go)) {
        lost_input(m, side);
        return false;
    }
    int64_t t0 = clock_now_us();
    char line[ENGINE_LINE_MAX];
    for (;;) {
        ReadStatus st = engine_read(e, line, sizeof line, t0 + limit);
        if (st == READ_EOF) {
            char why[96];
            engine_exit_text(e, EXIT_WAIT_MS, why, sizeof why);
            finish(m, loss_of(side), TERM_ABANDONED, "%s lost: %s while thinking", SIDE_NAME[side],
                   why);
            return false;
        }
        if (st == READ_TIMEOUT) {
            finish(m, loss_of(side), late, "%s lost: no move within %lld ms", SIDE_NAME[side],
                   (long long)(limit / 1000));
            return false;
        }
        if (!strncmp(line, "info ", 5))
            parse_info(line, p);
        else if (!strncmp(line, "bestmove", 8) && (line[8] == ' ' || line[8] == '\0'))
            break;
    }
    p->time_us = clock_now_us() - t0;
    if (p->time_us > limit) {
        finish(m, loss_of(side), late, "%s lost: its move came after %lld ms, allowed %lld ms",
               SIDE_NAME[side], (long long)(p->time_us / 1000), (long long)(limit / 1000));
        return false;
    }
    if (c->tc_time_ms) {
        int64_t left = m->clock_us[side] - p->time_us;
        m->clock_us[side] = (left > 0 ? left : 0) + c->tc_inc_ms * 1000;
        if (c->tc_moves && (m->moves_made[side] + 1) % c->tc_moves == 0)
            m->clock_us[side] += c->tc_time_ms * 1000;
        if (left / 1000 < rec->min_clock_ms[side])
            rec->min_clock_ms[side] = left / 1000;
    }
    m->moves_made[side]++;

    char *save, *tok = strtok_r(line + 8, " \t", &save);
    Error err;
    if (!tok || strlen(tok) >= MOVE_STR_MAX || !replay(m, tok, &err)) {
        finish(m, loss_of(side), TERM_ILLEGAL, "%s lost: illegal move '%.*s'", SIDE_NAME[side], 40,
               tok ? tok : "");
        return false;
    }
    snprintf(p->move, sizeof p->move, "%s", tok);
    m->moves[rec->nplies++] = p->move;
    track_scores(m, side, p);
    return true;
}

bool referee_check_opening(const GameSetup *s, Error *err) {
    Game *g = MILL_FAMILY.create(s->variant);
    if (!g)
        return error_set(err, "unknown variant '%s'", s->variant);
    const char *moves[OPENING_MAX_PLIES];
    for (int i = 0; i < s->nopening; i++)
        moves[i] = s->opening[i];
    bool ok = MILL_FAMILY.set_position(g, s->fen, moves, s->nopening, err);
    char reason[128];
    if (ok && MILL_FAMILY.result(g, reason, sizeof reason) != RESULT_NONE)
        ok = error_set(err, "the game is over after the opening (%s)", reason);
    MILL_FAMILY.destroy(g);
    return ok;
}

void referee_play(const GameSetup *s, GameRecord *rec) {
    memset(rec, 0, sizeof *rec);
    rec->result = RESULT_NONE;
    Match1 m = {.s = s, .rec = rec};
    m.eng[0].pid = m.eng[1].pid = -1;
    for (int side = 0; side < 2; side++) {
        m.clock_us[side] = s->engine[side]->tc_time_ms * 1000;
        rec->min_clock_ms[side] = s->engine[side]->tc_time_ms;
    }
    m.game = MILL_FAMILY.create(s->variant);
    if (!m.game) {
        finish(&m, RESULT_DRAW, TERM_ABANDONED, "unknown variant '%s'", s->variant);
        return;
    }
    Error err;
    if (!MILL_FAMILY.set_position(m.game, s->fen, NULL, 0, &err)) {
        finish(&m, RESULT_DRAW, TERM_ABANDONED, "bad start position: %s", err.msg);
        MILL_FAMILY.destroy(m.game);
        return;
    }
    MILL_FAMILY.get_position(m.game, rec->start_fen, sizeof rec->start_fen);
    for (int i = 0; i < s->nopening && i < OPENING_MAX_PLIES; i++) {
        snprintf(rec->ply[i].move, MOVE_STR_MAX, "%s", s->opening[i]);
        rec->ply[i].depth = -1;
        m.moves[i] = rec->ply[i].move;
    }
    rec->nplies = rec->nopening = s->nopening;
    if (!replay(&m, NULL, &err)) {
        finish(&m, RESULT_DRAW, TERM_ABANDONED, "bad opening: %s", err.msg);
        MILL_FAMILY.destroy(m.game);
        return;
    }

    int max_plies = s->adj.max_plies > 0 && s->adj.max_plies < MAX_RECORD_PLIES ? s->adj.max_plies
                                                                                : MAX_RECORD_PLIES;
    if (start_engine(&m, 0) && start_engine(&m, 1)) {
        for (;;) {
            char reason[128];
            GameResult r = MILL_FAMILY.result(m.game, reason, sizeof reason);
            if (r != RESULT_NONE) {
                finish(&m, r, TERM_NORMAL, "%s", reason);
                break;
            }
            if (adjudicate(&m))
                break;
            if (rec->nplies >= max_plies) {
                finish(&m, RESULT_DRAW, TERM_ADJUDICATION, "draw by adjudication: %d plies",
                       rec->nplies);
                break;
            }
            if (!play_move(&m, side_to_move(m.game)))
                break;
        }
    }
    engine_stop(&m.eng[0], QUIT_GRACE_MS);
    engine_stop(&m.eng[1], QUIT_GRACE_MS);
    MILL_FAMILY.destroy(m.game);
}

void referee_limits_text(const EngineConfig *c, char *buf, size_t n) {
    size_t len = 0;
    buf[0] = '\0';
    if (c->tc_time_ms) {
        if (c->tc_moves)
            len += (size_t)snprintf(buf + len, n - len, "%d/", c->tc_moves);
        len += (size_t)snprintf(buf + len, n - len, "%g", (double)c->tc_time_ms / 1000);
        if (c->tc_inc_ms)
            len += (size_t)snprintf(buf + len, n - len, "+%g", (double)c->tc_inc_ms / 1000);
    }
    if (c->movetime_ms)
        len += (size_t)snprintf(buf + len, n - len, "%sst=%g", len ? " " : "",
                                (double)c->movetime_ms / 1000);
    if (c->depth)
        len += (size_t)snprintf(buf + len, n - len, "%sdepth=%d", len ? " " : "", c->depth);
    if (c->nodes)
        snprintf(buf + len, n - len, "%snodes=%lld", len ? " " : "", (long long)c->nodes);
}

// A result as the record writes it.
static const char *result_text(GameResult r) {
    switch (r) {
    case RESULT_WHITE_WINS:
        return "1-0";
    case RESULT_BLACK_WINS:
        return "0-1";
    case RESULT_DRAW:
        return "1/2-1/2";
    default:
        return "*";
    }
}

// Append a token to the movetext, wrapping lines at 80 columns.
static void put_token(FILE *f, int *col, const char *tok) {
    int len = (int)strlen(tok);
    if (*col && *col + 1 + len > 80) {
        fputc('\n', f);
        *col = 0;
    } else if (*col) {
        fputc(' ', f);
        (*col)++;
    }
    fputs(tok, f);
    *col += len;
}

// Fill the PGN Site tag (this machine's host name, "?" when unknown) and Date tag (today,
// YYYY.MM.DD, local time).
static void pgn_site_date(char *site, size_t nsite, char *date, size_t ndate) {
    if (gethostname(site, nsite) != 0 || !site[0])
        snprintf(site, nsite, "?");
    site[nsite - 1] = '\0';
    for (char *c = site; *c; c++) // a tag value: no quote, backslash or control byte
        if (*c == '"' || *c == '\\' || (unsigned char)*c < 32)
            *c = '?';
    time_t now = time(NULL);
    struct tm tm;
    if (localtime_r(&now, &tm))
        strftime(date, ndate, "%Y.%m.%d", &tm);
}

void referee_write_record(FILE *f, const GameSetup *s, const GameRecord *rec, const char *event,
                          int round) {
    char limits[2][96];
    referee_limits_text(s->engine[0], limits[0], sizeof limits[0]);
    referee_limits_text(s->engine[1], limits[1], sizeof limits[1]);
    char site[256], date[16] = "????.??.??";
    pgn_site_date(site, sizeof site, date, sizeof date);
    fprintf(f, "[Event \"%s\"]\n[Site \"%s\"]\n[Date \"%s\"]\n[Round \"%d\"]\n", event, site, date,
            round);
    fprintf(f, "[White \"%s\"]\n[Black \"%s\"]\n", s->engine[0]->name, s->engine[1]->name);
    fprintf(f, "[Result \"%s\"]\n[Variant \"%s\"]\n", result_text(rec->result), s->variant);
    fprintf(f, "[FEN \"%s\"]\n", rec->start_fen);
    fprintf(f, "[Termination \"%s\"]\n", referee_termination_name(rec->termination));
    if (!strcmp(limits[0], limits[1]))
        fprintf(f, "[TimeControl \"%s\"]\n", limits[0]);
    else
        fprintf(f, "[WhiteTimeControl \"%s\"]\n[BlackTimeControl \"%s\"]\n", limits[0], limits[1]);
    fprintf(f, "[PlyCount \"%d\"]\n\n", rec->nplies);

    // Move numbers from the start position string: its side to move and fullmove number.
    int side = strchr(rec->start_fen, ' ') && strchr(rec->start_fen, ' ')[1] == 'b';
    const char *last = strrchr(rec->start_fen, ' ');
    long long fullmove = 1;
    if (last && !parse_integer(last + 1, 1, INT_MAX, &fullmove))
        fullmove = 1;
    int col = 0;
    char tok[96];
    for (int i = 0; i < rec->nplies; i++) {
        const PlyRecord *p = &rec->ply[i];
        if (side == 0 || i == 0) {
            snprintf(tok, sizeof tok, "%lld.%s", fullmove, side ? ".." : "");
            put_token(f, &col, tok);
        }
        put_token(f, &col, p->move);
        if (i < rec->nopening) {
            put_token(f, &col, "{book}");
        } else {
            char score[32] = "";
            if (p->has_score && p->mate)
                snprintf(score, sizeof score, "%cM%d", p->score < 0 ? '-' : '+', abs(p->score));
            else if (p->has_score)
                snprintf(score, sizeof score, "%+.2f", p->score / 100.0);
            snprintf(tok, sizeof tok, "{%s%s%d %.3fs}", score, score[0] ? "/" : "",
                     p->depth < 0 ? 0 : p->depth, (double)p->time_us / 1e6);
            put_token(f, &col, tok);
        }
        if (side == 1)
            fullmove++;
        side = !side;
    }
    snprintf(tok, sizeof tok, "{%.90s}", rec->reason);
    put_token(f, &col, tok);
    put_token(f, &col, result_text(rec->result));
    fputs("\n\n", f);
}

// Copy what the engine wrote on its stderr (the file f) to err, at most a few kilobytes.
static void copy_stderr(FILE *f, FILE *err) {
    char buf[4096];
    rewind(f);
    size_t n = fread(buf, 1, sizeof buf, f);
    fwrite(buf, 1, n, err);
    if (n && buf[n - 1] != '\n')
        fputc('\n', err);
}

bool referee_check_engine(const EngineConfig *c, int64_t timeout_ms, FILE *err) {
    // The engine's stderr goes to a file rather than a pipe: an engine that writes much there
    // before its handshake must not block on a pipe nobody reads.
    FILE *errors = tmpfile();
    EngineProc e;
    Error start;
    bool ugi = c->proto == PROTO_UGI;
    const char *want = ugi ? "ugiok" : "uciok";
    char why[320] = "";
    if (!engine_start(&e, c->cmd, c->name, NULL, errors ? fileno(errors) : -1, &start)) {
        snprintf(why, sizeof why, "%s", start.msg);
    } else if (!engine_send(&e, ugi ? "ugi" : "uci")) {
        engine_exit_text(&e, EXIT_WAIT_MS, why, sizeof why);
    } else {
        char line[ENGINE_LINE_MAX];
        int64_t deadline = clock_now_us() + timeout_ms * 1000;
        size_t n = strlen(want);
        for (;;) {
            ReadStatus st = engine_read(&e, line, sizeof line, deadline);
            if (st == READ_EOF) {
                char text[96];
                engine_exit_text(&e, EXIT_WAIT_MS, text, sizeof text);
                snprintf(why, sizeof why, "%s before '%s'", text, want);
                break;
            }
            if (st == READ_TIMEOUT) {
                snprintf(why, sizeof why, "no '%s' within %lld ms (--movetimeout)", want,
                         (long long)timeout_ms);
                break;
            }
            if (!strncmp(line, want, n) && (line[n] == '\0' || line[n] == ' '))
                break;
        }
    }
    engine_stop(&e, QUIT_GRACE_MS);
    if (why[0]) {
        if (errors)
            copy_stderr(errors, err);
        fprintf(err, "tabula match: engine %s (cmd=%s) did not start: %s\n", c->name, c->cmd, why);
    }
    if (errors)
        fclose(errors);
    return !why[0];
}
