#include "engine/backgammon/game.h"

#include "engine/backgammon/eval.h"
#include "engine/backgammon/ids.h"
#include "engine/backgammon/movegen.h"
#include "engine/backgammon/notation.h"
#include "engine/backgammon/search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct Game {
    BgPosition pos;
};

static const char *const PLAYER_NAME[2] = {"O", "X"};

// Play the checkers of a turn token whose dice are rolled.
static bool play_checkers(BgPosition *p, const BgTurnText *tt, const char *token, Error *err) {
    BgPlayList l;
    bg_plays_init(&l);
    int n = bg_generate(&p->b, p->turn, p->dice[0], p->dice[1], &l);
    bool ok = true;
    const BgPlay *found = NULL;
    BgBoard after;
    Error why;
    if (n < 0) {
        ok = error_set(err, "out of memory");
    } else if (tt->nseg == 0) {
        if (n > 0)
            ok = error_set(err, "'%.40s': %d legal plays, so passing is not allowed", token, n);
    } else if (!bg_segments_apply(&p->b, p->turn, tt, &after, &why)) {
        ok = error_set(err, "'%.40s' is not legal: %s", token, why.msg);
    } else {
        for (int i = 0; i < n && !found; i++)
            if (!memcmp(&l.v[i].after, &after, sizeof after))
                found = &l.v[i];
        if (!found)
            ok =
                error_set(err, "'%.40s' is not a legal play (%d legal plays; try moves)", token, n);
    }
    if (ok) {
        if (found)
            p->b = found->after;
        if (bg_checkers(&p->b, p->turn) == 0) {
            bg_finish(p, p->turn);
        } else {
            p->turn = !p->turn;
            p->dice[0] = p->dice[1] = 0;
        }
    }
    bg_plays_free(&l);
    return ok;
}

bool bg_play_token_on(BgPosition *p, const char *token, Error *err) {
    if (p->state != BG_PLAYING)
        return error_set(err, "'%.40s': the game is over", token);
    if (!strcmp(token, "double")) {
        if (!bg_can_double(p))
            return error_set(err, "double: the player on roll may not double now");
        p->doubled = true;
        return true;
    }
    if (!strcmp(token, "take") || !strcmp(token, "drop")) {
        if (!p->doubled)
            return error_set(err, "%s: no double was offered", token);
        p->doubled = false;
        if (token[0] == 't') {
            p->cube *= 2;
            p->owner = !p->turn;
        } else {
            p->state = BG_DROPPED;
            p->winner = p->turn;
            p->points = p->cube;
        }
        return true;
    }
    if (p->doubled)
        return error_set(err, "'%.40s': a double was offered: take or drop", token);
    if (!strcmp(token, "roll")) {
        if (p->dice[0])
            return error_set(err, "roll: the dice are already rolled (%d%d)", p->dice[0],
                             p->dice[1]);
        return true;
    }
    BgTurnText tt;
    if (!bg_turn_parse(token, &tt, err))
        return false;
    if (p->dice[0] && (tt.dice[0] != p->dice[0] || tt.dice[1] != p->dice[1]))
        return error_set(err, "'%.40s': the dice show %d%d", token, p->dice[0], p->dice[1]);
    if (!tt.has_play && p->dice[0])
        return error_set(err, "'%.40s': the dice are already rolled", token);
    BgPosition t = *p;
    t.dice[0] = tt.dice[0];
    t.dice[1] = tt.dice[1];
    if (tt.has_play && !play_checkers(&t, &tt, token, err))
        return false;
    *p = t;
    return true;
}

static Game *bg_create(const char *variant) {
    if (variant && strcmp(variant, "backgammon"))
        return NULL;
    Game *g = calloc(1, sizeof *g);
    if (g)
        bg_set_start(&g->pos);
    return g;
}

static void bg_destroy(Game *g) { free(g); }

static const char *bg_variant(const Game *g) {
    (void)g;
    return "backgammon";
}

static bool bg_set_variant(Game *g, const char *id, Error *err) {
    if (strcmp(id, "backgammon"))
        return error_set(err, "unknown variant '%.40s'", id);
    bg_set_start(&g->pos);
    return true;
}

static bool bg_set_option(Game *g, const char *name, const char *value, Error *err) {
    (void)g;
    (void)value;
    return error_set(err, "unknown option '%.40s'", name);
}

static void bg_get_option(const Game *g, const char *name, char *buf, size_t n) {
    (void)g;
    (void)name;
    snprintf(buf, n, "%s", "");
}

// Whether s is an XGID: with `XGID=`, or ten ':'-separated fields.
static bool is_xgid(const char *s) {
    int colons = 0;
    for (const char *c = s; *c; c++)
        colons += *c == ':';
    return !strncmp(s, "XGID=", 5) || colons == 9;
}

// Read a position string: an XGID or a gnubg ID.
static bool read_position(const char *s, BgPosition *p, Error *err) {
    if (is_xgid(s))
        return bg_read_xgid(s, p, err);
    return bg_read_gnubgid(s, p, err);
}

// A position of `position fen` (either form), `position gnubgid` or `position xgid`, checked
// and kept as written: set_position reads both forms.
static bool bg_read_position(const Game *g, const char *format, const char *text, char *buf,
                             size_t n, Error *err) {
    (void)g;
    BgPosition t;
    bool xgid = is_xgid(text);
    if (strcmp(format, "fen") && strcmp(format, "gnubgid") && strcmp(format, "xgid"))
        return error_set(err, "backgammon reads no %s position (fen, gnubgid or xgid)", format);
    if (!strcmp(format, "gnubgid") && xgid)
        return error_set(err, "an XGID is read by position xgid, not gnubgid");
    if (!strcmp(format, "xgid") && !xgid)
        return error_set(err, "not an XGID (XGID=... with ten fields)");
    if (!read_position(text, &t, err))
        return false;
    if (strlen(text) >= n)
        return error_set(err, "the position string is too long");
    strcpy(buf, text);
    return true;
}

static bool bg_set_position(Game *g, const char *fen, const char *const *moves, int nmoves,
                            Error *err) {
    BgPosition t;
    Error e;
    if (!fen)
        bg_set_start(&t);
    else if (!read_position(fen, &t, err))
        return false;
    for (int i = 0; i < nmoves; i++)
        if (!bg_play_token_on(&t, moves[i], &e))
            return error_set(err, "move %d, %s", i + 1, e.msg);
    g->pos = t;
    return true;
}

static void bg_get_position(const Game *g, char *buf, size_t n) { bg_gnubgid(&g->pos, buf, n); }

static uint64_t bg_game_key(const Game *g) { return bg_key(&g->pos); }

// Player 1 (X) is the first player; after a double the decision is the opponent's.
static GameSide bg_to_act(const Game *g) {
    const BgPosition *p = &g->pos;
    int player = p->doubled ? !p->turn : p->turn;
    return player == 1 ? SIDE_FIRST : SIDE_SECOND;
}

static int bg_legal_moves(const Game *g, MoveFn fn, void *ctx) {
    const BgPosition *p = &g->pos;
    if (p->state != BG_PLAYING)
        return 0;
    if (p->doubled) {
        if (fn) {
            fn(ctx, "take");
            fn(ctx, "drop");
        }
        return 2;
    }
    if (!p->dice[0]) {
        bool dbl = bg_can_double(p);
        if (fn) {
            fn(ctx, "roll");
            if (dbl)
                fn(ctx, "double");
        }
        return 1 + dbl;
    }
    BgPlayList l;
    bg_plays_init(&l);
    int n = bg_generate(&p->b, p->turn, p->dice[0], p->dice[1], &l);
    for (int i = 0; i < n && fn; i++) {
        char tok[BG_PLAY_TEXT_MAX];
        bg_play_token(&p->b, p->turn, p->dice[0], p->dice[1], &l.v[i], tok, sizeof tok);
        fn(ctx, tok);
    }
    if (n == 0 && fn) {
        char tok[8];
        snprintf(tok, sizeof tok, "%d%d:-", p->dice[0], p->dice[1]);
        fn(ctx, tok);
    }
    bg_plays_free(&l);
    return n < 0 ? 0 : n == 0 ? 1 : n;
}

static GameResult bg_result(const Game *g, char *reason, size_t n) {
    const BgPosition *p = &g->pos;
    if (p->state == BG_PLAYING) {
        snprintf(reason, n, "the game goes on");
        return RESULT_NONE;
    }
    static const char *const KIND[] = {"", "a single game", "a gammon", "a backgammon"};
    if (p->state == BG_DROPPED)
        snprintf(reason, n, "%s wins %d point%s: %s dropped the double", PLAYER_NAME[p->winner],
                 p->points, p->points == 1 ? "" : "s", PLAYER_NAME[!p->winner]);
    else
        snprintf(reason, n, "%s wins %s, %d point%s", PLAYER_NAME[p->winner],
                 KIND[bg_win_kind(&p->b, p->winner)], p->points, p->points == 1 ? "" : "s");
    // Player 1 (X) starts from startpos: it is the protocol's first player (white, p1).
    return p->winner == 1 ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
}

static uint64_t bg_game_perft(Game *g, int depth, DivideFn fn, void *ctx) {
    return bg_perft(&g->pos, depth, fn, ctx);
}

// One half of the board (points lo..hi of the player at the bottom, in drawing order) as five
// rows of checkers; a count above five is written in the fifth row.
static int draw_row(const BgPosition *p, int bottom, int row, bool top_half, char *out) {
    static const int TOP[12] = {13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24};
    static const int BOT[12] = {12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
    const int *pts = top_half ? TOP : BOT;
    int len = sprintf(out, " |");
    for (int k = 0; k < 12; k++) {
        int q = pts[k], own = p->b.c[bottom][q - 1], opp = p->b.c[!bottom][24 - q];
        int count = own ? own : opp;
        char ch = own ? PLAYER_NAME[bottom][0] : PLAYER_NAME[!bottom][0];
        if (count > row && (row < 4 || count == 5))
            len += sprintf(out + len, " %c ", ch);
        else if (row == 4 && count > 5)
            len += sprintf(out + len, "%2d ", count);
        else
            len += sprintf(out + len, "   ");
        if (k == 5)
            len += sprintf(out + len, "|   |");
    }
    return len + sprintf(out + len, "|\n");
}

static void bg_render(const Game *g, char *buf, size_t n) {
    const BgPosition *p = &g->pos;
    // One orientation whoever is on roll, as a person sees a real board: X (player 1, the
    // first player from startpos) at the bottom, the points numbered from X's side.
    int bottom = 1, top = 0, on_roll = p->turn;
    char line[128];
    size_t len = 0;
#define PUT(...)                                                                                   \
    do {                                                                                           \
        int w_ = snprintf(buf + len, n - len, __VA_ARGS__);                                        \
        if (w_ > 0)                                                                                \
            len = len + (size_t)w_ < n ? len + (size_t)w_ : n - 1;                                 \
    } while (0)
    buf[0] = '\0';
    PUT(" +13-14-15-16-17-18------19-20-21-22-23-24-+   %s: %d pips, %d off\n", PLAYER_NAME[top],
        bg_pips(&p->b, top), BG_CHECKERS - bg_checkers(&p->b, top));
    for (int r = 0; r < 5; r++) {
        draw_row(p, bottom, r, true, line);
        PUT("%s", line);
    }
    PUT(" |                  |BAR|                  |   bar: %s %d, %s %d\n", PLAYER_NAME[top],
        p->b.c[top][BG_BAR], PLAYER_NAME[bottom], p->b.c[bottom][BG_BAR]);
    for (int r = 4; r >= 0; r--) {
        draw_row(p, bottom, r, false, line);
        PUT("%s", line);
    }
    PUT(" +12-11-10--9--8--7-------6--5--4--3--2--1-+   %s: %d pips, %d off\n", PLAYER_NAME[bottom],
        bg_pips(&p->b, bottom), BG_CHECKERS - bg_checkers(&p->b, bottom));
    if (p->state != BG_PLAYING) {
        bg_result(g, line, sizeof line);
        PUT("Game over: %s\n", line);
    } else if (p->doubled)
        PUT("%s (player %d) doubled to %d: %s to take or drop\n", PLAYER_NAME[on_roll], on_roll,
            2 * p->cube, PLAYER_NAME[!on_roll]);
    else if (p->dice[0])
        PUT("%s (player %d) on roll, dice %d%d\n", PLAYER_NAME[on_roll], on_roll, p->dice[0],
            p->dice[1]);
    else
        PUT("%s (player %d) on roll, dice not rolled\n", PLAYER_NAME[on_roll], on_roll);
    if (p->owner < 0)
        PUT("Cube: %d, centred\n", p->cube);
    else
        PUT("Cube: %d, owned by %s\n", p->cube, PLAYER_NAME[p->owner]);
    if (p->length)
        PUT("Match: %d points, score O %d, X %d%s\n", p->length, p->score[0], p->score[1],
            p->crawford ? ", Crawford game" : "");
    else
        PUT("Money game, Jacoby %s\n", p->jacoby ? "on" : "off");
    char xgid[BG_XGID_MAX];
    bg_xgid(p, xgid, sizeof xgid);
    PUT("%s\n", xgid);
#undef PUT
}

static void bg_game_search(Game *g, const SearchLimits *lim, SearchHooks *hooks,
                           SearchResult *out) {
    bg_search(&g->pos, lim, hooks, out);
}

static void bg_eval(const Game *g, char *buf, size_t n) {
    bg_eval_describe(&g->pos.b, g->pos.turn, buf, n);
}

static bool bg_set_hash(Game *g, int mb, Error *err) {
    (void)g;
    (void)mb;
    (void)err;
    return true; // no table yet
}

static void bg_clear_hash(Game *g) { (void)g; }

static const char *bg_variant_id(int i) { return i == 0 ? "backgammon" : NULL; }

static const char *const BG_FORMATS[] = {"fen", "gnubgid", "xgid", NULL};

const GameFamily BG_FAMILY = {
    .name = "backgammon",
    .variant_id = bg_variant_id,
    .capabilities = GAME_CAN_ROLLOUT | GAME_HAS_DICE,
    .position_formats = BG_FORMATS,
    .create = bg_create,
    .destroy = bg_destroy,
    .variant = bg_variant,
    .set_variant = bg_set_variant,
    .options = NULL,
    .noptions = 0,
    .set_option = bg_set_option,
    .get_option = bg_get_option,
    .read_position = bg_read_position,
    .set_position = bg_set_position,
    .get_position = bg_get_position,
    .key = bg_game_key,
    .legal_moves = bg_legal_moves,
    .result = bg_result,
    .to_act = bg_to_act,
    .perft = bg_game_perft,
    .render = bg_render,
    .search = bg_game_search,
    .eval = bg_eval,
    .set_hash = bg_set_hash,
    .clear_hash = bg_clear_hash,
};
