#include "engine/mill/game.h"

#include "engine/core/parse.h"
#include "engine/core/tt.h"
#include "engine/mill/eval.h"
#include "engine/mill/movegen.h"
#include "engine/mill/notation.h"
#include "engine/mill/perft.h"
#include "engine/mill/sanmill.h"
#include "engine/mill/search.h"
#include "engine/mill/solve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HASH_DEFAULT_MB 16

#define TB_PATH_MAX 1024

struct Game {
    MillGame mill;
    TT tt;
    Tablebase *tb;
    char tb_path[TB_PATH_MAX];
};

const MillGame *mill_game_of(const Game *g) { return &g->mill; }

static const char *color_name(int side) { return side == WHITE ? "white" : "black"; }

static bool push_key(MillGame *g, uint64_t key) {
    if (g->nkeys == g->cap) {
        int cap = g->cap ? 2 * g->cap : 64;
        uint64_t *k = realloc(g->keys, (size_t)cap * sizeof *k);
        if (!k)
            return false;
        g->keys = k;
        g->cap = cap;
    }
    g->keys[g->nkeys++] = key;
    return true;
}

// Start a fresh history at the current position.
static void reset_history(MillGame *g) {
    g->nkeys = 0;
    push_key(g, g->pos.key);
}

bool mill_game_play(MillGame *g, Move m) {
    Undo u;
    pos_do_move(&g->pos, m, &u);
    if (!push_key(g, g->pos.key)) {
        pos_undo_move(&g->pos, m, &u);
        return false;
    }
    return true;
}

// How many times the current position occurred since the last placement or removal.
static int repetitions(const MillGame *g) {
    int window = g->pos.quiet_plies + 1, count = 0;
    uint64_t key = g->pos.key;
    for (int i = g->nkeys - 1; i >= 0 && window > 0; i--, window--)
        count += g->keys[i] == key;
    return count;
}

GameResult mill_game_result(const MillGame *g, char *reason, size_t n) {
    const Position *p = &g->pos;
    const MillRules *r = &g->rules;
    int us = p->side, winner = -1;
    const char *why = "";
    switch (pos_outcome(p)) {
    case OUTCOME_LOSS:
        winner = !us;
        why = r->variant->mill_wins ? "closed a mill" : "fewer than 3 men";
        break;
    case OUTCOME_WIN:
        winner = us;
        why = r->variant->mill_wins ? "closed a mill" : "fewer than 3 men";
        break;
    case OUTCOME_DRAW:
        snprintf(reason, n, "draw: the board is full after placing");
        return RESULT_DRAW;
    case OUTCOME_NONE:
        break;
    }
    if (winner >= 0) {
        if (r->variant->mill_wins)
            snprintf(reason, n, "%s wins: %s %s", color_name(winner), color_name(winner), why);
        else
            snprintf(reason, n, "%s wins: %s has %s", color_name(winner), color_name(!winner), why);
        return winner == WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
    }
    if (movegen_count(p) == 0) {
        snprintf(reason, n, "%s wins: %s has no legal move", color_name(!us), color_name(us));
        return us == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
    }
    if (r->nmove_rule && p->quiet_plies >= r->nmove_rule) {
        snprintf(reason, n, "draw: %d plies without a placement or removal", r->nmove_rule);
        return RESULT_DRAW;
    }
    if (r->repetition && repetitions(g) >= 3) {
        snprintf(reason, n, "draw: threefold repetition");
        return RESULT_DRAW;
    }
    snprintf(reason, n, "the game goes on");
    return RESULT_NONE;
}

static Game *mill_create(const char *variant) {
    const Variant *v = variant_find(variant ? variant : "nine");
    Game *g = calloc(1, sizeof *g);
    if (!v || !g || !tt_init(&g->tt, HASH_DEFAULT_MB)) {
        free(g);
        return NULL;
    }
    rules_init(&g->mill.rules, v);
    pos_set_start(&g->mill.pos, &g->mill.rules);
    reset_history(&g->mill);
    g->mill.params = MILL_SEARCH_DEFAULTS;
    g->mill.weights = &EVAL_WEIGHTS_DEFAULT;
    return g;
}

void mill_game_set_search(Game *g, const MillSearchParams *params, const EvalWeights *weights) {
    g->mill.params = *params;
    g->mill.weights = weights;
}

static void mill_destroy(Game *g) {
    if (g) {
        free(g->mill.keys);
        tt_free(&g->tt);
        tb_close(g->tb);
    }
    free(g);
}

static const char *mill_variant(const Game *g) { return g->mill.rules.variant->id; }

static bool mill_set_variant(Game *g, const char *id, Error *err) {
    const Variant *v = variant_find(id);
    if (!v)
        return error_set(err, "unknown variant '%.40s'", id);
    rules_init(&g->mill.rules, v);
    pos_set_start(&g->mill.pos, &g->mill.rules);
    reset_history(&g->mill);
    return true;
}

// clang-format off
static const GameOption OPTIONS[] = {
    {"Flying",          OPTION_CHECK, 0, 0},
    {"RemoveFromMills", OPTION_CHECK, 0, 0},
    {"RemovalPerMill",  OPTION_CHECK, 0, 0},
    {"Repetition",      OPTION_CHECK, 0, 0},
    {"NMoveRule",       OPTION_SPIN,  0, NMOVE_MAX},
    // Endgame databases (tabula solve): a file or a directory of *.tdb files; empty: none.
    {"TablebasePath",   OPTION_STRING, 0, 0},
    // Search switches, so that a match can measure what each part of the search is worth.
    {"ReverseFutility",    OPTION_CHECK, 0, 0},
    {"LateMovePruning",    OPTION_CHECK, 0, 0},
    {"LateMoveReductions", OPTION_CHECK, 0, 0},
    {"Quiescence",         OPTION_CHECK, 0, 0},
    {"AspirationWindows",  OPTION_CHECK, 0, 0},
};
// clang-format on

// The rules field an option sets: a flag or the N-move length.
static bool *option_flag(MillRules *r, const char *name) {
    if (!strcmp(name, "Flying"))
        return &r->flying;
    if (!strcmp(name, "RemoveFromMills"))
        return &r->remove_from_mills;
    if (!strcmp(name, "RemovalPerMill"))
        return &r->removal_per_mill;
    if (!strcmp(name, "Repetition"))
        return &r->repetition;
    return NULL;
}

// The search switch of p an option sets.
static bool *search_flag(MillSearchParams *p, const char *name) {
    if (!strcmp(name, "ReverseFutility"))
        return &p->reverse_futility;
    if (!strcmp(name, "LateMovePruning"))
        return &p->late_move_pruning;
    if (!strcmp(name, "LateMoveReductions"))
        return &p->reductions;
    if (!strcmp(name, "Quiescence"))
        return &p->quiescence;
    if (!strcmp(name, "AspirationWindows"))
        return &p->aspiration;
    return NULL;
}

// Load the databases at path (empty or <empty>: none); on failure keep those loaded.
static bool set_tablebase(Game *g, const char *path, Error *err) {
    Tablebase *tb = NULL;
    if (strlen(path) >= TB_PATH_MAX)
        return error_set(err, "option TablebasePath: the path is too long");
    if (*path && strcmp(path, "<empty>")) {
        Error e;
        if (!(tb = tb_open(path, &e)))
            return error_set(err, "option TablebasePath: %s (tablebase unchanged)", e.msg);
    } else {
        path = "";
    }
    tb_close(g->tb);
    g->tb = tb;
    g->mill.tb = tb;
    snprintf(g->tb_path, sizeof g->tb_path, "%s", path);
    return true;
}

static bool mill_set_option(Game *g, const char *name, const char *value, Error *err) {
    MillRules *r = &g->mill.rules;
    if (!strcmp(name, "TablebasePath"))
        return set_tablebase(g, value, err);
    bool *flag = option_flag(r, name);
    if (!flag)
        flag = search_flag(&g->mill.params, name);
    if (flag) {
        if (strcmp(value, "true") && strcmp(value, "false"))
            return error_set(err, "option %s takes true or false, not '%.40s'", name, value);
        *flag = !strcmp(value, "true");
        return true;
    }
    if (!strcmp(name, "NMoveRule")) {
        long long v;
        if (!parse_integer(value, 0, NMOVE_MAX, &v))
            return error_set(err, "option NMoveRule takes a number from 0 to %d, not '%.40s'",
                             NMOVE_MAX, value);
        r->nmove_rule = (int)v;
        return true;
    }
    return error_set(err, "unknown option '%.40s'", name);
}

static void mill_get_option(const Game *g, const char *name, char *buf, size_t n) {
    MillRules r = g->mill.rules;
    MillSearchParams sp = g->mill.params;
    bool *flag = option_flag(&r, name);
    if (!flag)
        flag = search_flag(&sp, name);
    if (flag)
        snprintf(buf, n, "%s", *flag ? "true" : "false");
    else if (!strcmp(name, "NMoveRule"))
        snprintf(buf, n, "%d", r.nmove_rule);
    else if (!strcmp(name, "TablebasePath"))
        snprintf(buf, n, "%s", g->tb_path);
    else
        snprintf(buf, n, "%s", "");
}

static bool mill_set_position(Game *g, const char *fen, const char *const *moves, int nmoves,
                              Error *err) {
    MillGame t = {.rules = g->mill.rules,
                  .tb = g->mill.tb,
                  .params = g->mill.params,
                  .weights = g->mill.weights};
    bool ok = true;
    if (fen)
        ok = pos_set_fen(&t.pos, &g->mill.rules, fen, err);
    else
        pos_set_start(&t.pos, &g->mill.rules);
    if (ok)
        reset_history(&t);
    for (int i = 0; ok && i < nmoves; i++) {
        char token[MOVE_STR_MAX * 2];
        int len = snprintf(token, sizeof token, "%s", moves[i]);
        if (moves[i][0] == 'x') {
            ok = error_set(err, "move %d: removal '%.24s' follows no move", i + 1, moves[i]);
            break;
        }
        while (i + 1 < nmoves && moves[i + 1][0] == 'x' && len < (int)sizeof token)
            len += snprintf(token + len, sizeof token - (size_t)len, "%s", moves[++i]);
        char why[128];
        Move m;
        Error e;
        if (mill_game_result(&t, why, sizeof why) != RESULT_NONE)
            ok = error_set(err, "move %d, %.24s: the game is over (%s)", t.nkeys, token, why);
        else if (!move_parse(&t.pos, token, &m, &e))
            ok = error_set(err, "move %d, %s", t.nkeys, e.msg);
        else if (!mill_game_play(&t, m))
            ok = error_set(err, "out of memory");
    }
    if (!ok) {
        free(t.keys);
        return false;
    }
    free(g->mill.keys);
    g->mill = t;
    g->mill.pos.rules = &g->mill.rules;
    return true;
}

static void mill_get_position(const Game *g, char *buf, size_t n) {
    pos_get_fen(&g->mill.pos, buf, n);
}

// The one format of `position`: tabula's position string, or Sanmill's FEN of a 24-point
// variant, converted.
static bool mill_read_position(const Game *g, const char *format, const char *text, char *buf,
                               size_t n, Error *err) {
    if (strcmp(format, "fen"))
        return error_set(err, "the mill games read no %s position (only fen)", format);
    if (sanmill_detect(text)) {
        const char *variant = g->mill.rules.variant->id;
        if (!sanmill_variant_ok(variant))
            return error_set(err,
                             "a Sanmill position needs a 24-point variant (nine, twelve, "
                             "eleven, morabaraba, lasker), not %s",
                             variant);
        return sanmill_to_fen(text, buf, n, err);
    }
    if (strlen(text) >= n)
        return error_set(err, "the position string is too long");
    strcpy(buf, text);
    return true;
}

static uint64_t mill_key(const Game *g) { return g->mill.pos.key; }

static GameSide mill_to_act(const Game *g) { return g->mill.pos.side ? SIDE_SECOND : SIDE_FIRST; }

static int mill_legal_moves(const Game *g, MoveFn fn, void *ctx) {
    char why[128];
    if (mill_game_result(&g->mill, why, sizeof why) != RESULT_NONE)
        return 0;
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    if (!moves)
        return 0;
    int n = movegen_legal(&g->mill.pos, moves);
    for (int i = 0; i < n && fn; i++) {
        char s[MOVE_STR_MAX];
        move_format(g->mill.rules.board, moves[i], s);
        fn(ctx, s);
    }
    free(moves);
    return n;
}

static GameResult mill_result(const Game *g, char *reason, size_t n) {
    return mill_game_result(&g->mill, reason, n);
}

static uint64_t mill_perft(Game *g, int depth, DivideFn fn, void *ctx) {
    Position p = g->mill.pos;
    if (depth <= 0)
        return 1;
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    if (!moves)
        return 0;
    int n = movegen_legal(&p, moves);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        Undo u;
        pos_do_move(&p, moves[i], &u);
        uint64_t count = perft(&p, depth - 1);
        pos_undo_move(&p, moves[i], &u);
        total += count;
        if (fn) {
            char s[MOVE_STR_MAX];
            move_format(g->mill.rules.board, moves[i], s);
            fn(ctx, s, count);
        }
    }
    free(moves);
    return total;
}

// Draw the board: points as W, B or '.', joined by -, |, / and \ along their polylines; below
// it one line in words: who moves and the men in hand, or how the game ended.
static void mill_render(const Game *g, char *buf, size_t n) {
    const Position *p = &g->mill.pos;
    const Board *b = g->mill.rules.board;
    enum { W = 4 * (MAX_RANKS - 1) + 1, H = 2 * (MAX_RANKS - 1) + 1 };
    char grid[H][W + 1];
    int cols = 4 * (b->nfiles - 1) + 1, rows = 2 * (b->nranks - 1) + 1;
    for (int r = 0; r < rows; r++) {
        memset(grid[r], ' ', (size_t)cols);
        grid[r][cols] = '\0';
    }
    for (int s = 0; s < b->polylines; s++) {
        int a = b->seg_from[s], c = b->seg_to[s];
        int r0 = 2 * (b->nranks - 1 - b->rank[a]), c0 = 4 * b->file[a];
        int r1 = 2 * (b->nranks - 1 - b->rank[c]), c1 = 4 * b->file[c];
        int steps = abs(r1 - r0) > abs(c1 - c0) ? abs(r1 - r0) : abs(c1 - c0);
        char ch = r0 == r1 ? '-' : c0 == c1 ? '|' : (r1 - r0) * (c1 - c0) < 0 ? '/' : '\\';
        for (int k = 1; k < steps; k++) {
            int rr = r0 + (r1 - r0) * k / steps, cc = c0 + (c1 - c0) * k / steps;
            if (r0 == r1 || c0 == c1 || (r1 - r0) * k % steps == 0)
                grid[rr][cc] = ch;
        }
    }
    for (int q = 0; q < b->npoints; q++)
        grid[2 * (b->nranks - 1 - b->rank[q])][4 * b->file[q]] = p->men[WHITE] & BIT(q)   ? 'W'
                                                                 : p->men[BLACK] & BIT(q) ? 'B'
                                                                                          : '.';
    size_t len = 0;
    buf[0] = '\0';
    for (int r = 0; r < rows && len < n; r++) {
        int rank = b->nranks - r / 2;
        if (r % 2 == 0)
            len += (size_t)snprintf(buf + len, n - len, "%d  %s\n", rank, grid[r]);
        else
            len += (size_t)snprintf(buf + len, n - len, "   %s\n", grid[r]);
    }
    if (len < n) {
        len += (size_t)snprintf(buf + len, n - len, "  ");
        for (int f = 0; f < b->nfiles && len < n; f++)
            len += (size_t)snprintf(buf + len, n - len, " %c%s", 'a' + f,
                                    f + 1 < b->nfiles ? "  " : "\n");
    }
    char reason[128];
    if (len < n && mill_game_result(&g->mill, reason, sizeof reason) != RESULT_NONE)
        snprintf(buf + len, n - len, "Game over: %s\n", reason);
    else if (len < n)
        snprintf(buf + len, n - len, "%s to move; in hand: white %d, black %d\n",
                 p->side == WHITE ? "White" : "Black", p->hand[WHITE], p->hand[BLACK]);
}

static void mill_game_search(Game *g, const SearchLimits *lim, SearchHooks *hooks,
                             SearchResult *out) {
    char why[128];
    const MillGame *mg = &g->mill;
    MillSearchRoot root = {.pos = &mg->pos,
                           .keys = mg->keys,
                           .nkeys = mg->nkeys,
                           .over = mill_game_result(mg, why, sizeof why) != RESULT_NONE,
                           .tb = mg->tb,
                           .params = &mg->params,
                           .weights = mg->weights};
    mill_search(&root, &g->tt, lim, hooks, out);
}

static void mill_eval(const Game *g, char *buf, size_t n) {
    eval_describe(&g->mill.pos, g->mill.weights, buf, n);
}

static const char *value_name(int value) {
    return value == SOLVE_WIN ? "win" : value == SOLVE_LOSS ? "loss" : "draw";
}

// One line of analyze: "win in 7", "draw", "loss in 12".
static int format_value(char *buf, size_t n, int value, int distance) {
    if (value == SOLVE_DRAW)
        return snprintf(buf, n, "draw");
    return snprintf(buf, n, "%s in %d", value_name(value), distance);
}

// Sort key of a move's value: higher is better for the side making it.
static long move_key(int value, int distance) {
    return value == SOLVE_WIN    ? 1000000L - distance
           : value == SOLVE_DRAW ? 0
           : value == SOLVE_LOSS ? -1000000L + distance
                                 : -2000000L;
}

static bool mill_analyze(const Game *g, char *buf, size_t n) {
    const MillGame *mg = &g->mill;
    const Position *p = &mg->pos;
    int value, distance;
    if (!g->tb || !tb_probe(g->tb, p, &value, &distance)) {
        tb_why_not(g->tb, p, buf, n);
        return false;
    }
    char why[128];
    int nmoves = 0;
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    int *cv = malloc(MAX_MOVES * sizeof *cv), *cd = malloc(MAX_MOVES * sizeof *cd);
    if (moves && cv && cd && mill_game_result(mg, why, sizeof why) == RESULT_NONE)
        nmoves = movegen_legal(p, moves);
    size_t len = (size_t)snprintf(buf, n, "%s to move: ", p->side == WHITE ? "white" : "black");
    len += (size_t)format_value(buf + len, n - len, value, distance);
    len += (size_t)snprintf(buf + len, n - len, "%s", value == SOLVE_DRAW ? "\n" : " plies\n");
    // Each move's value for the side making it, counted from here; best first.
    for (int i = 0; i < nmoves; i++) {
        Position c = *p;
        pos_apply_move(&c, moves[i]);
        if (tb_probe(g->tb, &c, &cv[i], &cd[i]))
            cv[i] = -cv[i], cd[i]++;
        else
            cv[i] = -2; // cannot happen with a complete database: listed last
    }
    // Best first: wins soonest, then draws, then losses latest.
    for (int i = 1; i < nmoves; i++)
        for (int j = i; j > 0 && move_key(cv[j], cd[j]) > move_key(cv[j - 1], cd[j - 1]); j--) {
            Move tm = moves[j];
            int tv = cv[j], td = cd[j];
            moves[j] = moves[j - 1], cv[j] = cv[j - 1], cd[j] = cd[j - 1];
            moves[j - 1] = tm, cv[j - 1] = tv, cd[j - 1] = td;
        }
    for (int i = 0; i < nmoves && len < n; i++) {
        char s[MOVE_STR_MAX];
        move_format(mg->rules.board, moves[i], s);
        len += (size_t)snprintf(buf + len, n - len, "%s: ", s);
        if (len < n && cv[i] == -2)
            len += (size_t)snprintf(buf + len, n - len, "not in the database");
        else if (len < n)
            len += (size_t)format_value(buf + len, n - len, cv[i], cd[i]);
        if (len < n)
            len += (size_t)snprintf(buf + len, n - len, "\n");
    }
    free(moves);
    free(cv);
    free(cd);
    return true;
}

static bool mill_set_hash(Game *g, int mb, Error *err) {
    if (mb < 1 || !tt_init(&g->tt, (size_t)mb))
        return error_set(err, "cannot allocate a %d MB hash table", mb);
    return true;
}

static void mill_clear_hash(Game *g) { tt_clear(&g->tt); }

static const char *mill_variant_id(int i) {
    return i >= 0 && i < VARIANT_COUNT ? VARIANTS[i].id : NULL;
}

static const char *const MILL_FORMATS[] = {"fen", NULL};

const GameFamily MILL_FAMILY = {
    .name = "mill",
    .variant_id = mill_variant_id,
    .capabilities = GAME_CAN_ANALYZE | GAME_CAN_SOLVE,
    .position_formats = MILL_FORMATS,
    .create = mill_create,
    .destroy = mill_destroy,
    .variant = mill_variant,
    .set_variant = mill_set_variant,
    .options = OPTIONS,
    .noptions = (int)(sizeof OPTIONS / sizeof OPTIONS[0]),
    .set_option = mill_set_option,
    .get_option = mill_get_option,
    .read_position = mill_read_position,
    .set_position = mill_set_position,
    .get_position = mill_get_position,
    .key = mill_key,
    .legal_moves = mill_legal_moves,
    .result = mill_result,
    .to_act = mill_to_act,
    .perft = mill_perft,
    .render = mill_render,
    .search = mill_game_search,
    .eval = mill_eval,
    .analyze = mill_analyze,
    .set_hash = mill_set_hash,
    .clear_hash = mill_clear_hash,
};
