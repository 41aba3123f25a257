// Conformance of the command loop: every command of the table, in each dialect (UCI, UGI and
// a person's), against every variant of every family. Each line must give exactly its
// documented answer or one error line; after an error the state is as it was; the engine
// still answers isready. A command added to the table, or a member added to the Game
// interface, without a row here fails the suite.
#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "tests/harness.h"
#include "tests/suites.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// A new member of the Game interface changes its size: cover it below (test_members), then
// update the count.
#define GAME_FAMILY_MEMBERS 26
_Static_assert(sizeof(GameFamily) == GAME_FAMILY_MEMBERS * sizeof(void *),
               "a new member of GameFamily: cover it in tests/check_conformance.c");

// ---------------------------------------------------------------------------------------------
// The rows

typedef enum Errors {
    ERR_NEVER,  // always answers
    ERR_MAY,    // answers, or refuses where the family or the position does not allow it
    ERR_ALWAYS, // bad input: always one error line
} Errors;

// One command line. `{move}` is replaced by the first legal move, `{fen}` by the position
// string, `{format}` by the family's first position format, `{variant}` by the variant in
// force. expect: the prefixes its answer lines may start with, '|'-separated; "" for no
// answer; NULL for any non-empty answer.
typedef struct Row {
    const char *line;
    const char *expect;
    Errors errors;
    bool stop; // a search that runs until stop: send stop, then check
} Row;

#define SEARCH "info |bestmove "

// clang-format off
static const Row ROWS[] = {
    {"uci",                                  "id |option |uciok",  ERR_NEVER,  false},
    {"ugi",                                  "id |option |ugiok",  ERR_NEVER,  false},
    {"ubgi",                                 "id |proto |ubgiok",  ERR_NEVER,  false},
    {"isready",                              "readyok",            ERR_NEVER,  false},
    {"isready now",                          "readyok",            ERR_NEVER,  false},
    {"debug on",                             "",                   ERR_NEVER,  false},
    {"debug off",                            "",                   ERR_NEVER,  false},
    {"debug maybe",                          "",                   ERR_ALWAYS, false},
    {"setoption name Hash value 2",          "",                   ERR_NEVER,  false},
    {"setoption name Hash value -5",         "",                   ERR_ALWAYS, false},
    {"setoption name MultiPV value 2",       "",                   ERR_NEVER,  false},
    {"setoption name UCI_Variant value {variant}", "",             ERR_NEVER,  false},
    {"setoption name UCI_Variant value nosuch", "",                ERR_ALWAYS, false},
    {"setoption name Nosuch value 1",        "",                   ERR_ALWAYS, false},
    {"setoption",                            "",                   ERR_ALWAYS, false},
    {"ucinewgame",                           "",                   ERR_NEVER,  false},
    {"uginewgame",                           "",                   ERR_NEVER,  false},
    {"new",                                  "",                   ERR_NEVER,  false},
    {"position startpos",                    "",                   ERR_NEVER,  false},
    {"position startpos moves {move}",       "",                   ERR_NEVER,  false},
    {"position {format} {fen}",              "",                   ERR_NEVER,  false},
    {"position fen",                         "",                   ERR_ALWAYS, false},
    {"position fen !!garbage!!",             "",                   ERR_ALWAYS, false},
    {"position gnubgid 4HPwATDgc/ABMA:cAkAAAAAAAAA", "",           ERR_MAY,    false},
    {"position xgid XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:1:0:10", "", ERR_MAY, false},
    {"position 1W1/3/3/6/3/3/3 b 8 9 0 1",   "",                   ERR_ALWAYS, false},
    {"position startpos moves zz9",          "",                   ERR_ALWAYS, false},
    {"position startpos extra",              "",                   ERR_ALWAYS, false},
    {"position",                             "",                   ERR_ALWAYS, false},
    {"move {move}",                          "",                   ERR_NEVER,  false},
    {"move zz9",                             "",                   ERR_ALWAYS, false},
    {"move",                                 "",                   ERR_ALWAYS, false},
    {"undo",                                 "",                   ERR_MAY,    false},
    {"play depth 1",                         SEARCH "|tabula ",    ERR_NEVER,  false},
    {"play depth x",                         "",                   ERR_ALWAYS, false},
    {"roll",                                 "Dice: |No legal play", ERR_MAY,  false},
    {"roll 31",                              "Dice: |No legal play", ERR_MAY,  false},
    {"roll seed 7",                          "",                   ERR_MAY,    false},
    {"roll 71",                              "",                   ERR_ALWAYS, false},
    {"roll seed x",                          "",                   ERR_ALWAYS, false},
    {"go depth 1",                           SEARCH,               ERR_NEVER,  false},
    {"go nodes 200",                         SEARCH,               ERR_NEVER,  false},
    {"go movetime 20",                       SEARCH,               ERR_NEVER,  false},
    {"go wtime 500 btime 500 winc 10 binc 10", SEARCH,             ERR_NEVER,  false},
    {"go p1time 500 p2time 500 movestogo 5", SEARCH,               ERR_NEVER,  false},
    {"go depth 1 searchmoves {move}",        SEARCH,               ERR_NEVER,  false},
    {"go depth 1 searchmoves zz9",           "",                   ERR_ALWAYS, false},
    {"go depth 1 rollout 2",                 SEARCH,               ERR_MAY,    false},
    {"go infinite",                          SEARCH,               ERR_NEVER,  true},
    {"go ponder depth 1",                    SEARCH,               ERR_NEVER,  true},
    {"go depth",                             "",                   ERR_ALWAYS, false},
    {"go depth -1",                          "",                   ERR_ALWAYS, false},
    {"go frobnicate",                        "",                   ERR_ALWAYS, false},
    {"stop",                                 "",                   ERR_NEVER,  false},
    {"ponderhit",                            "",                   ERR_NEVER,  false},
    {"query gameover",                       "response ",          ERR_NEVER,  false},
    {"query p1turn",                         "response ",          ERR_NEVER,  false},
    {"query result",                         "response ",          ERR_NEVER,  false},
    {"query nosuch",                         "",                   ERR_ALWAYS, false},
    {"query",                                "",                   ERR_ALWAYS, false},
    {"perft 1",                              NULL,                 ERR_NEVER,  false},
    {"perft x",                              "",                   ERR_ALWAYS, false},
    {"bench 1",                              NULL,                 ERR_NEVER,  false},
    {"bench 0",                              "",                   ERR_ALWAYS, false},
    {"d",                                    NULL,                 ERR_NEVER,  false},
    {"moves",                                NULL,                 ERR_NEVER,  false},
    {"eval",                                 NULL,                 ERR_NEVER,  false},
    {"analyze",                              "info string analyze", ERR_MAY,   false},
    {"analyze now",                          "",                   ERR_ALWAYS, false},
    {"help",                                 NULL,                 ERR_NEVER,  false},
    {"help go",                              "usage: |search",     ERR_NEVER,  false},
    {"help nosuch",                          "",                   ERR_ALWAYS, false},
    {"frobnicate",                           "",                   ERR_ALWAYS, false},
    {"\x01\xff\xfe",                         "",                   ERR_ALWAYS, false},
    {"# a comment",                          "",                   ERR_NEVER,  false},
    {"quit",                                 "",                   ERR_NEVER,  false},
};
// clang-format on
#define NROWS (int)(sizeof ROWS / sizeof ROWS[0])

static const char *const DIALECTS[] = {"uci", "ugi", NULL}; // NULL: a person, no handshake
#define NDIALECTS 3

// ---------------------------------------------------------------------------------------------
// State and checks

// What a refused command must leave as it was: the family, variant, position, rule options and
// the number of turns played.
typedef struct State {
    const GameFamily *family;
    char variant[32], fen[GAME_POSITION_MAX], options[1024];
    int nmoves;
} State;

static void state_get(Proto *p, State *s) {
    uci_finish_search(&p->uci);
    const GameFamily *f = p->uci.family;
    s->family = f;
    snprintf(s->variant, sizeof s->variant, "%s", f->variant(p->uci.game));
    f->get_position(p->uci.game, s->fen, sizeof s->fen);
    size_t len = 0;
    s->options[0] = '\0';
    for (int i = 0; i < f->noptions; i++) {
        char value[128];
        f->get_option(p->uci.game, f->options[i].name, value, sizeof value);
        len += (size_t)snprintf(s->options + len, sizeof s->options - len, "%s=%s;",
                                f->options[i].name, value);
    }
    s->nmoves = p->uci.record.nmoves;
}

static void collect_first(void *ctx, const char *move) {
    char *first = ctx;
    if (!first[0])
        snprintf(first, 64, "%s", move);
}

// Expand the placeholders of a row's line.
static void expand(Proto *p, const char *tmpl, char *out, size_t n) {
    const GameFamily *f = p->uci.family;
    char move[64] = "", fen[GAME_POSITION_MAX];
    f->legal_moves(p->uci.game, collect_first, move);
    f->get_position(p->uci.game, fen, sizeof fen);
    size_t len = 0;
    out[0] = '\0';
    for (const char *s = tmpl; *s && len + 1 < n;) {
        const char *with = NULL;
        size_t skip = 0;
        if (!strncmp(s, "{move}", 6))
            with = move, skip = 6;
        else if (!strncmp(s, "{fen}", 5))
            with = fen, skip = 5;
        else if (!strncmp(s, "{format}", 8))
            with = f->position_formats[0], skip = 8;
        else if (!strncmp(s, "{variant}", 9))
            with = f->variant(p->uci.game), skip = 9;
        if (with) {
            len += (size_t)snprintf(out + len, n - len, "%s", with);
            s += skip;
        } else {
            out[len++] = *s++;
            out[len] = '\0';
        }
    }
}

// Whether line starts with one of the '|'-separated prefixes of expect.
static bool line_expected(const char *line, size_t len, const char *expect) {
    for (const char *e = expect; *e;) {
        size_t k = strcspn(e, "|");
        if (k <= len && !strncmp(line, e, k))
            return true;
        e += k + (e[k] == '|');
    }
    return false;
}

// Check one answer against a row; true when it was an error.
static bool check_answer(const Row *row, const char *line, const char *out, const char *where) {
    bool error = !strncmp(out, ERROR_PREFIX, strlen(ERROR_PREFIX));
    if (error) {
        ck_assert_msg(row->errors != ERR_NEVER, "%s: '%s' refused: %s", where, line, out);
        assert_one_error(out, line);
        return true;
    }
    ck_assert_msg(row->errors != ERR_ALWAYS, "%s: '%s' not refused: '%s'", where, line, out);
    ck_assert_msg(!strstr(out, "\n" ERROR_PREFIX), "%s: '%s': an error among: %s", where, line,
                  out);
    if (!row->expect) {
        ck_assert_msg(out[0], "%s: '%s' answered nothing", where, line);
        return false;
    }
    if (!row->expect[0]) {
        ck_assert_msg(!out[0], "%s: '%s' answered '%s'", where, line, out);
        return false;
    }
    ck_assert_msg(out[0], "%s: '%s' answered nothing", where, line);
    for (const char *s = out; *s;) {
        size_t k = strcspn(s, "\n");
        ck_assert_msg(line_expected(s, k, row->expect), "%s: '%s': unexpected line '%.*s'", where,
                      line, (int)k, s);
        s += k + (s[k] == '\n');
    }
    if (strstr(row->expect, "bestmove"))
        ck_assert_msg(strstr(out, "bestmove "), "%s: '%s' gave no bestmove: %s", where, line, out);
    return false;
}

// Run a row on a fresh engine: in the dialect, on the variant, from the start or after one move.
static void run_row(const Row *row, const char *variant, const char *dialect, bool moved) {
    Proto *p = proto_open();
    char line[512], where[96], set[96];
    snprintf(where, sizeof where, "%s/%s/%s", variant, dialect ? dialect : "person",
             moved ? "moved" : "start");
    snprintf(set, sizeof set, "setoption name UCI_Variant value %s", variant);
    ck_assert_str_eq(proto_send(p, set), "");
    if (dialect)
        proto_send(p, dialect);
    if (moved) {
        expand(p, "position startpos moves {move}", line, sizeof line);
        ck_assert_msg(!proto_send(p, line)[0], "%s: %s", where, line);
    }
    State before, after;
    state_get(p, &before);
    expand(p, row->line, line, sizeof line);
    uci_execute(&p->uci, line);
    if (row->stop) {
        struct timespec ms = {0, 20000000};
        nanosleep(&ms, NULL);
        char *early = strdup(proto_take(p));
        ck_assert_msg(!strstr(early, "bestmove"), "%s: '%s' answered before stop: %s", where, line,
                      early);
        uci_execute(&p->uci, "stop");
        size_t n = strlen(early);
        const char *rest = proto_take(p);
        char *out = malloc(n + strlen(rest) + 1);
        ck_assert_ptr_nonnull(out);
        strcpy(stpcpy(out, early), rest);
        check_answer(row, line, out, where);
        free(early);
        free(out);
    } else {
        uci_finish_search(&p->uci);
        if (check_answer(row, line, proto_take(p), where)) {
            state_get(p, &after);
            ck_assert_msg(before.family == after.family && !strcmp(before.variant, after.variant) &&
                              !strcmp(before.fen, after.fen) &&
                              !strcmp(before.options, after.options) &&
                              before.nmoves == after.nmoves,
                          "%s: '%s' refused but changed the state: %s %s -> %s %s", where, line,
                          before.variant, before.fen, after.variant, after.fen);
        }
    }
    ck_assert_str_eq(proto_send(p, "isready"), "readyok\n");
    proto_close(p);
}

static int nvariants(void) {
    int n = 0;
    while (registry_variant(n))
        n++;
    return n;
}

// Every row, in one variant and one dialect (the loop index picks both).
START_TEST(test_conformance) {
    int nv = nvariants();
    ck_assert_int_lt(_i, nv * NDIALECTS);
    const char *variant = registry_variant(_i / NDIALECTS);
    const char *dialect = DIALECTS[_i % NDIALECTS];
    for (int r = 0; r < NROWS; r++)
        for (int moved = 0; moved < 2; moved++)
            run_row(&ROWS[r], variant, dialect, moved);
}
END_TEST

// Every command of the table has a row.
START_TEST(test_every_command_covered) {
    const char *name;
    for (int i = 0; (name = uci_command_name(i)); i++) {
        bool found = false;
        size_t k = strlen(name);
        for (int r = 0; r < NROWS && !found; r++)
            found = !strncmp(ROWS[r].line, name, k) && (!ROWS[r].line[k] || ROWS[r].line[k] == ' ');
        ck_assert_msg(found, "command '%s' has no row in tests/check_conformance.c", name);
    }
}
END_TEST

// Every member of every family is filled, but those a capability declares absent.
START_TEST(test_members) {
    const GameFamily *f;
    for (int i = 0; (f = registry_family(i)); i++) {
        ck_assert_ptr_nonnull(f->name);
        ck_assert_ptr_nonnull(f->variant_id);
        ck_assert_ptr_nonnull(f->variant_id(0));
        ck_assert_ptr_nonnull(f->position_formats);
        ck_assert_ptr_nonnull(f->position_formats[0]);
        ck_assert(f->create && f->destroy && f->variant && f->set_variant);
        ck_assert(f->noptions == 0 || f->options);
        ck_assert(f->set_option && f->get_option);
        ck_assert(f->read_position && f->set_position && f->get_position && f->key);
        ck_assert(f->legal_moves && f->result && f->to_act && f->perft && f->render);
        ck_assert(f->search && f->eval && f->set_hash && f->clear_hash);
        ck_assert_msg(!(f->capabilities & GAME_CAN_ANALYZE) == !f->analyze,
                      "%s: analyze and its capability disagree", f->name);
        ck_assert_msg(!(f->capabilities & ~(unsigned)(GAME_CAN_ANALYZE | GAME_CAN_ROLLOUT |
                                                      GAME_CAN_SOLVE | GAME_HAS_DICE)),
                      "%s: an unknown capability", f->name);
        // Every variant is the registry's and the family's.
        for (int v = 0; f->variant_id(v); v++)
            ck_assert_ptr_eq(registry_find(f->variant_id(v)), f);
    }
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Answers that were wrong for backgammon

// analyze under backgammon: one error line (it crashed the engine).
START_TEST(test_bg_analyze) {
    Proto *p = proto_open();
    proto_send(p, "setoption name UCI_Variant value backgammon");
    ck_assert_str_eq(proto_send(p, "analyze"),
                     ERROR_PREFIX "analyze: backgammon has no endgame databases\n");
    ck_assert_str_eq(proto_send(p, "isready"), "readyok\n");
    proto_close(p);
}
END_TEST

// query p1turn under backgammon: whose decision it is (it read the mill position string).
START_TEST(test_bg_p1turn) {
    Proto *p = proto_open();
    proto_send(p, "setoption name UCI_Variant value backgammon");
    ck_assert_str_eq(proto_send(p, "query p1turn"), "response true\n"); // X rolls first
    proto_send(p, "position startpos moves 31:8/5,6/5");
    ck_assert_str_eq(proto_send(p, "query p1turn"), "response false\n");
    proto_send(p, "position startpos moves 31:8/5,6/5 42:8/4,6/4");
    ck_assert_str_eq(proto_send(p, "query p1turn"), "response true\n");
    // X doubles: O is to take or drop.
    ck_assert_str_eq(proto_send(p, "move double"), "");
    ck_assert_str_eq(proto_send(p, "query p1turn"), "response false\n");
    ck_assert_str_eq(proto_send(p, "move take"), "");
    ck_assert_str_eq(proto_send(p, "query p1turn"), "response true\n");
    proto_close(p);
}
END_TEST

// go infinite under backgammon holds bestmove until stop (it answered at once).
START_TEST(test_bg_infinite_holds) {
    Proto *p = proto_open();
    proto_send(p, "setoption name UCI_Variant value backgammon");
    proto_send(p, "position startpos moves 31:8/5,6/5");
    proto_send(p, "go infinite");
    struct timespec ms = {0, 300000000};
    nanosleep(&ms, NULL);
    ck_assert_ptr_null(strstr(proto_take(p), "bestmove"));
    const char *out = proto_send(p, "stop");
    ck_assert_msg(strstr(out, "bestmove "), "%s", out);
    proto_send(p, "go ponder depth 1");
    nanosleep(&ms, NULL);
    ck_assert_ptr_null(strstr(proto_take(p), "bestmove"));
    proto_send(p, "ponderhit");
    uci_finish_search(&p->uci);
    ck_assert_ptr_nonnull(strstr(proto_take(p), "bestmove "));
    proto_close(p);
}
END_TEST

Suite *conformance_suite(void) {
    Suite *s = suite_create("conformance");
    TCase *tc = tcase_create("commands");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_conformance, 0, nvariants() * NDIALECTS);
    tcase_add_test(tc, test_every_command_covered);
    tcase_add_test(tc, test_members);
    suite_add_tcase(s, tc);
    tc = tcase_create("families");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_bg_analyze);
    tcase_add_test(tc, test_bg_p1turn);
    tcase_add_test(tc, test_bg_infinite_holds);
    suite_add_tcase(s, tc);
    return s;
}
