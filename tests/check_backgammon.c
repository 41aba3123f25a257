// Backgammon rules: legal plays (docs/backgammon.md, "Rules", and the vectors of
// data/bg_plays.txt), bearing off, the bar, the larger-die rule, game ends and their scores,
// perft, and the protocol with UCI_Variant backgammon. The cube is in check_bgcube.c.
#include "tests/suites.h"

#include "tests/harness.h"
#include "tests/helpers.h"

#include "engine/backgammon/game.h"
#include "engine/backgammon/ids.h"
#include "engine/backgammon/movegen.h"
#include "engine/backgammon/notation.h"
#include "protocol/external.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BG_DATA_FILE "data/bg_plays.txt"
#define START_ID "4HPwATDgc/ABMA:cAkAAAAAAAAA"

// A position with X (player 1) on roll: x and o list "<point>:<count>" in each player's own
// numbering, `bar:<count>` for the bar; d1 d2 the dice (0 0: not rolled).
static BgPosition make(const char *x, const char *o, int d1, int d2) {
    BgPosition p;
    bg_set_start(&p);
    memset(&p.b, 0, sizeof p.b);
    const char *lists[2] = {o, x};
    for (int side = 0; side < 2; side++) {
        const char *s = lists[side];
        while (*s) {
            int q, n, used;
            if (!strncmp(s, "bar:", 4)) {
                ck_assert(sscanf(s + 4, "%d%n", &n, &used) == 1);
                p.b.c[side][BG_BAR] = (uint8_t)n;
                s += 4 + used;
            } else {
                ck_assert(sscanf(s, "%d:%d%n", &q, &n, &used) == 2);
                p.b.c[side][q - 1] = (uint8_t)n;
                s += used;
            }
            while (*s == ' ')
                s++;
        }
    }
    const char *why;
    ck_assert_msg(bg_board_valid(&p.b, &why), "%s", why);
    p.dice[0] = d1 > d2 ? d1 : d2;
    p.dice[1] = d1 > d2 ? d2 : d1;
    return p;
}

typedef struct Tokens {
    int n;
    char text[1 << 16]; // 2220 plays of 11 take some 50 KB
} Tokens;

static void add_token(void *ctx, const char *move) {
    Tokens *t = ctx;
    size_t len = strlen(t->text);
    snprintf(t->text + len, sizeof t->text - len, "%s%s", len ? " " : "", move);
    t->n++;
}

// The legal move tokens of p, space-separated, through the family.
static int legal(const BgPosition *p, Tokens *t) {
    Game *g = BG_FAMILY.create("backgammon");
    char id[64];
    Error err;
    bg_gnubgid(p, id, sizeof id);
    ck_assert_msg(BG_FAMILY.set_position(g, id, NULL, 0, &err), "%s: %s", id, err.msg);
    t->n = 0;
    t->text[0] = '\0';
    int n = BG_FAMILY.legal_moves(g, add_token, t);
    BG_FAMILY.destroy(g);
    ck_assert_int_eq(n, t->n);
    return n;
}

static int count_plays(const BgPosition *p) {
    BgPlayList l;
    bg_plays_init(&l);
    int n = bg_generate(&p->b, p->turn, p->dice[0], p->dice[1], &l);
    bg_plays_free(&l);
    return n;
}

// ---------------------------------------------------------------------------------------------
// Opening counts (docs/backgammon.md, "Rules")

// clang-format off
static const struct { int d1, d2, plays; } OPENING[] = {
    {1,1,42}, {2,1,15}, {2,2,75}, {3,1,16}, {3,2,17}, {3,3,73}, {4,1,14}, {4,2,18}, {4,3,17},
    {4,4,52}, {5,1,8},  {5,2,8},  {5,3,9},  {5,4,9},  {5,5,4},  {6,1,10}, {6,2,14}, {6,3,14},
    {6,4,14}, {6,5,7},  {6,6,11},
};
// clang-format on
#define NOPENING (int)(sizeof OPENING / sizeof OPENING[0])

START_TEST(test_opening_roll) {
    BgPosition p;
    bg_set_start(&p);
    p.dice[0] = OPENING[_i].d1;
    p.dice[1] = OPENING[_i].d2;
    ck_assert_int_eq(count_plays(&p), OPENING[_i].plays);
    // Either player on roll: the start is symmetric.
    p.turn = 0;
    ck_assert_int_eq(count_plays(&p), OPENING[_i].plays);
}
END_TEST

START_TEST(test_opening_sum) {
    BgPosition p;
    bg_set_start(&p);
    int sum = 0;
    for (int i = 0; i < NOPENING; i++) {
        p.dice[0] = OPENING[i].d1;
        p.dice[1] = OPENING[i].d2;
        sum += count_plays(&p);
    }
    ck_assert_int_eq(sum, 447);
    Game *g = BG_FAMILY.create("backgammon");
    ck_assert_uint_eq(BG_FAMILY.perft(g, 1, NULL, NULL), 447);
    BG_FAMILY.destroy(g);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// The vectors of data/bg_plays.txt (they agree with gnubg) and the harder cases of
// docs/backgammon.md

typedef struct BgVector {
    char id[32];
    int d1, d2, plays;
} BgVector;

static BgVector bgvec[64];
static int nbgvec = -1;

static int bg_vectors_load(void) {
    if (nbgvec >= 0)
        return nbgvec;
    nbgvec = 0;
    FILE *f = fopen(BG_DATA_FILE, "r");
    if (!f)
        return 0;
    char line[256];
    while (fgets(line, sizeof line, f) && nbgvec < 64) {
        char id[32];
        int roll, plays;
        if (line[0] == '#' || sscanf(line, " %31s | %d | %d", id, &roll, &plays) != 3)
            continue;
        BgVector *v = &bgvec[nbgvec++];
        snprintf(v->id, sizeof v->id, "%s", id);
        v->d1 = roll / 10;
        v->d2 = roll % 10;
        v->plays = plays;
    }
    fclose(f);
    return nbgvec;
}

START_TEST(test_data_file) { ck_assert_int_ge(bg_vectors_load(), 40); }
END_TEST

START_TEST(test_data_vector) {
    const BgVector *v = &bgvec[_i];
    BgPosition p;
    bg_set_start(&p);
    Error err;
    ck_assert_msg(bg_read_position_id(v->id, p.turn, &p.b, &err), "%s", err.msg);
    p.dice[0] = v->d1 > v->d2 ? v->d1 : v->d2;
    p.dice[1] = v->d1 > v->d2 ? v->d2 : v->d1;
    ck_assert_msg(count_plays(&p) == v->plays, "%s %d%d: %d plays, expected %d", v->id, v->d1,
                  v->d2, count_plays(&p), v->plays);
    // Every listed play is accepted back as a turn token and leads to a distinct position.
    static Tokens t;
    int n = legal(&p, &t);
    ck_assert_int_eq(n, v->plays ? v->plays : 1);
    char *save, *tok = strtok_r(t.text, " ", &save);
    for (int k = 0; tok; tok = strtok_r(NULL, " ", &save), k++) {
        BgPosition q = p;
        ck_assert_msg(bg_play_token_on(&q, tok, &err), "%s: %s", tok, err.msg);
    }
}
END_TEST

// clang-format off
static const BgVector HARDER[] = {
    {"AACAkCRJqqoAAA", 1, 1, 2220}, {"4HPwATDgc/ABUA", 6, 6, 0}, {"4HPwATDgc/ABUA", 5, 6, 4},
    {"sHPwATDgHHwAeA", 2, 2, 1},    {"sNvBATBw38ABMA", 6, 6, 1}, {"2G4bADDOAgAAAA", 5, 1, 2},
    {"AwAAYDsAAAAAAA", 6, 5, 1},    {"tN0dAATb3AMAAA", 2, 2, 38},
};
// clang-format on

START_TEST(test_harder_case) {
    const BgVector *v = &HARDER[_i];
    BgPosition p;
    bg_set_start(&p);
    Error err;
    ck_assert(bg_read_position_id(v->id, 1, &p.b, &err));
    p.dice[0] = v->d1 > v->d2 ? v->d1 : v->d2;
    p.dice[1] = v->d1 > v->d2 ? v->d2 : v->d1;
    ck_assert_int_eq(count_plays(&p), v->plays);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Hand-made positions

typedef struct HandCase {
    const char *name, *x, *o;
    int d1, d2;
    const char *plays; // every legal token, in generation order
} HandCase;

// clang-format off
static const HandCase HAND[] = {
    // Either die alone, not both (9 is blocked): the larger must be played.
    {"larger die", "20:1 1:14", "16:2 1:13", 6, 5, "65:20/14"},
    // The 6 is blocked outright: the smaller alone.
    {"smaller die", "20:1 1:14", "16:2 11:2 1:11", 6, 5, "65:20/15"},
    // Dice above the highest point bear off from it.
    {"bear off above", "3:2", "1:15", 6, 5, "65:3/off(2)"},
    // A 4 bears off from 3 only once 5 is empty; 5/1 then 3/off also uses both dice.
    {"bear off highest", "5:1 3:1", "1:15", 6, 4, "64:5/off,3/off 64:5/1,3/off"},
    // Bearing off needs every checker home.
    {"not all home", "7:1 2:1", "1:15", 6, 1, "61:7/1,2/1 61:7/off"},
    // The opponent's home board is closed: nothing can enter.
    {"closed board", "bar:1 6:14", "1:2 2:2 3:2 4:2 5:2 6:2 7:3", 6, 4, "64:-"},
    // Only the 24 is open: enter with the 1, then the 6 with any checker.
    {"bar first", "bar:1 13:14", "2:2 3:2 4:2 5:2 6:2 8:5", 6, 1, "61:bar/18 61:bar/24,13/7"},
    // Two on the bar and one can enter: the 6 is lost.
    {"two on the bar", "bar:2 13:13", "2:2 3:2 4:2 5:2 6:2 8:5", 6, 1, "61:bar/24"},
    // A hit on the way is kept in the notation.
    {"hit on the way", "24:2 6:13", "5:1 6:14", 6, 4,
     "64:24/20*,24/18 64:24/14 64:24/20*/14 ...."},
};
// clang-format on
#define NHAND (int)(sizeof HAND / sizeof HAND[0])

START_TEST(test_hand_case) {
    const HandCase *c = &HAND[_i];
    BgPosition p = make(c->x, c->o, c->d1, c->d2);
    static Tokens t;
    legal(&p, &t);
    if (strstr(c->plays, "....")) { // only some plays are listed: each must be there
        char want[256], *save;
        snprintf(want, sizeof want, "%s", c->plays);
        for (char *w = strtok_r(want, " ", &save); w; w = strtok_r(NULL, " ", &save))
            if (!strstr(w, "...."))
                ck_assert_msg(strstr(t.text, w), "%s: %s missing from %s", c->name, w, t.text);
        return;
    }
    ck_assert_msg(!strcmp(t.text, c->plays), "%s: %s, expected %s", c->name, t.text, c->plays);
}
END_TEST

START_TEST(test_hit_flags) {
    // Four checkers onto a blot: gnubg's form marks them all.
    BgPosition p = make("6:13", "21:1 1:14", 2, 2);
    static Tokens t;
    legal(&p, &t);
    ck_assert_msg(strstr(t.text, "22:6/4*(4)"), "%s", t.text);
    // gnubg's printed form, with spaces.
    BgPosition s;
    bg_set_start(&s);
    BgPlayList l;
    bg_plays_init(&l);
    int n = bg_generate(&s.b, s.turn, 6, 6, &l);
    bool found = false;
    for (int i = 0; i < n; i++) {
        char text[BG_PLAY_TEXT_MAX];
        bg_play_format(&s.b, s.turn, &l.v[i], " ", text, sizeof text);
        found |= !strcmp(text, "24/18(2) 13/7(2)");
    }
    bg_plays_free(&l);
    ck_assert(found);
}
END_TEST

START_TEST(test_token_forms) {
    BgPosition p, q;
    bg_set_start(&p);
    Error err;
    // The same play written several ways.
    static const char *const SAME[] = {"31:8/5,6/5", "13:6/5,8/5", "31:8/5*,6/5", "31:8/5 6/5"};
    char first[64] = "";
    for (int i = 0; i < 4; i++) {
        q = p;
        ck_assert_msg(bg_play_token_on(&q, SAME[i], &err), "%s: %s", SAME[i], err.msg);
        char id[64];
        bg_gnubgid(&q, id, sizeof id);
        if (i == 0)
            snprintf(first, sizeof first, "%s", id);
        ck_assert_str_eq(id, first);
    }
    // 64 as one checker, through either point, and as 24/18/14.
    q = p;
    ck_assert(bg_play_token_on(&q, "64:24/14", &err));
    q = p;
    ck_assert(bg_play_token_on(&q, "64:24/18/14", &err));
    // Refused: wrong dice, illegal, partial when more plays, malformed, pass with plays.
    static const char *const BAD[] = {"31:8/3",      "31:8/5",   "31:24/21,24/21", "31:-",
                                      "64:24/13",    "7:8/5",    "31:8/5,,6/5",    "31:bar/22",
                                      "31:8/5,6/5,", "31:25/22", "31:8/9,6/5",     "take",
                                      "drop",        "hello"};
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        q = p;
        ck_assert_msg(!bg_play_token_on(&q, BAD[i], &err), "accepted %s", BAD[i]);
        ck_assert_int_eq(memcmp(&q, &p, sizeof p), 0);
    }
    // A bare roll, then its play; a different roll's play is refused.
    q = p;
    ck_assert(bg_play_token_on(&q, "31", &err));
    ck_assert_int_eq(q.dice[0], 3);
    ck_assert(!bg_play_token_on(&q, "42:8/4,6/4", &err));
    ck_assert(bg_play_token_on(&q, "31:8/5,6/5", &err));
    ck_assert_int_eq(q.turn, 0);
    ck_assert_int_eq(q.dice[0], 0);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Game ends and scores

typedef struct EndCase {
    const char *o;
    int cube, owner;
    bool jacoby;
    int points, kind;
} EndCase;

// clang-format off
static const EndCase ENDS[] = {
    {"6:15",          1, -1, false, 2, 2}, // gammon
    {"6:15",          1, -1, true,  1, 2}, // Jacoby: a gammon counts single with the cube centred
    {"6:14 20:1",     1, -1, false, 3, 3}, // a checker in the winner's home board: backgammon
    {"6:14 bar:1",    1, -1, false, 3, 3}, // on the bar: backgammon
    {"6:14",          1, -1, false, 1, 1}, // one borne off: single
    {"6:15",          2,  1, true,  4, 2}, // the cube was turned: Jacoby no longer applies
    {"6:14 19:1",     4,  0, false, 12, 3},
    {"6:10 12:5",     1, -1, false, 2, 2}, // far behind but not in the winner's home: gammon
};
// clang-format on

START_TEST(test_game_end) {
    const EndCase *c = &ENDS[_i];
    BgPosition p = make("1:1", c->o, 2, 1);
    p.cube = c->cube;
    p.owner = c->owner;
    p.jacoby = c->jacoby;
    Error err;
    ck_assert_msg(bg_play_token_on(&p, "21:1/off", &err), "%s", err.msg);
    ck_assert_int_eq(p.state, BG_OVER);
    ck_assert_int_eq(p.winner, 1);
    ck_assert_int_eq(bg_win_kind(&p.b, 1), c->kind);
    ck_assert_int_eq(p.points, c->points);
    ck_assert(!bg_play_token_on(&p, "roll", &err));
    // In a match gammons count whatever the cube.
    p = make("1:1", c->o, 2, 1);
    p.length = 7;
    p.cube = c->cube;
    p.owner = c->owner;
    ck_assert(bg_play_token_on(&p, "21:1/off", &err));
    ck_assert_int_eq(p.points, c->kind * c->cube);
}
END_TEST

START_TEST(test_cube_actions) {
    Game *g = BG_FAMILY.create("backgammon");
    Error err;
    char reason[128];
    static Tokens t;
    const char *dd[] = {"double", "drop"};
    ck_assert(BG_FAMILY.set_position(g, NULL, dd, 2, &err));
    ck_assert_int_eq(BG_FAMILY.result(g, reason, sizeof reason), RESULT_WHITE_WINS);
    ck_assert_msg(strstr(reason, "1 point"), "%s", reason);
    ck_assert_int_eq(BG_FAMILY.legal_moves(g, NULL, NULL), 0);
    // double, take: the cube is O's at 2, X rolls and may not double.
    const char *dt[] = {"double", "take", "roll", "31:8/5,6/5"};
    ck_assert(BG_FAMILY.set_position(g, NULL, dt, 2, &err));
    t.n = 0;
    t.text[0] = '\0';
    ck_assert_int_eq(BG_FAMILY.legal_moves(g, add_token, &t), 1);
    ck_assert_str_eq(t.text, "roll");
    ck_assert(BG_FAMILY.set_position(g, NULL, dt, 4, &err));
    // Now O is on roll and owns the cube: it may redouble.
    t.n = 0;
    t.text[0] = '\0';
    ck_assert_int_eq(BG_FAMILY.legal_moves(g, add_token, &t), 2);
    ck_assert_str_eq(t.text, "roll double");
    char id[64];
    BG_FAMILY.get_position(g, id, sizeof id);
    BgPosition p;
    ck_assert(bg_read_gnubgid(id, &p, &err));
    ck_assert_int_eq(p.cube, 2);
    ck_assert_int_eq(p.owner, 0);
    // Refused: a double to be answered blocks everything else; no double after the roll.
    const char *bad1[] = {"double", "31:8/5,6/5"};
    const char *bad2[] = {"31", "double"};
    const char *bad3[] = {"double", "take", "double"};
    ck_assert(!BG_FAMILY.set_position(g, NULL, bad1, 2, &err));
    ck_assert(!BG_FAMILY.set_position(g, NULL, bad2, 2, &err));
    ck_assert(!BG_FAMILY.set_position(g, NULL, bad3, 3, &err));
    // The Crawford game has no doubling.
    BgPosition c;
    bg_set_start(&c);
    c.length = 5;
    c.score[0] = 4;
    c.crawford = true;
    ck_assert(!bg_can_double(&c));
    BG_FAMILY.destroy(g);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Perft

typedef struct DivideSum {
    uint64_t sum;
    int lines;
} DivideSum;

static void divide_add(void *ctx, const char *move, uint64_t count) {
    (void)move;
    DivideSum *d = ctx;
    d->sum += count;
    d->lines++;
}

START_TEST(test_perft) {
    Game *g = BG_FAMILY.create("backgammon");
    DivideSum d = {0, 0};
    ck_assert_uint_eq(BG_FAMILY.perft(g, 0, NULL, NULL), 1);
    // Our own figure (turns of a roll and a play, docs/backgammon.md), kept as a regression.
    ck_assert_uint_eq(BG_FAMILY.perft(g, 2, divide_add, &d), 202782);
    ck_assert_uint_eq(d.sum, 202782);
    ck_assert_int_eq(d.lines, 21);
    // With the dice rolled the first layer is the plays: 16 after 31, each followed by 447
    // second turns or fewer.
    const char *roll[] = {"31"};
    Error err;
    ck_assert(BG_FAMILY.set_position(g, NULL, roll, 1, &err));
    d = (DivideSum){0, 0};
    ck_assert_uint_eq(BG_FAMILY.perft(g, 1, divide_add, &d), 16);
    ck_assert_int_eq(d.lines, 16);
    // A closed board: the roll is a pass, counted once.
    BgPosition p = make("bar:1 6:14", "1:2 2:2 3:2 4:2 5:2 6:2 7:3", 6, 4);
    ck_assert_uint_eq(bg_perft(&p, 1, NULL, NULL), 1);
    // A finished game has no turns.
    const char *dd[] = {"double", "drop"};
    ck_assert(BG_FAMILY.set_position(g, NULL, dd, 2, &err));
    ck_assert_uint_eq(BG_FAMILY.perft(g, 1, NULL, NULL), 0);
    BG_FAMILY.destroy(g);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// The protocol

#define BG_ON "setoption name UCI_Variant value backgammon\n"

// go rollout: the search's candidates rolled out, reported at depth BG_ROLLOUT_PLIES, the
// same on every run (duplicate dice from the position's key); refused for the mill games.
START_TEST(test_go_rollout) {
    const char *script = BG_ON "position startpos moves 31\ngo depth 1 rollout 40\n";
    char *a = proto_run(script, true), *b = proto_run(script, true);
    const char *ra = strstr(a, "info depth 10 "), *rb = strstr(b, "info depth 10 ");
    ck_assert_msg(ra && rb && strstr(a, "bestmove 31:"), "%s", a);
    // The probabilities and node counts of the rollout line, and the move, are the same.
    ck_assert(!strncmp(strstr(ra, " probs "), strstr(rb, " probs "),
                       (size_t)(strstr(ra, " nps ") - strstr(ra, " probs "))));
    ck_assert_str_eq(strstr(a, "bestmove"), strstr(b, "bestmove"));
    ck_assert_int_eq(count_prefix(a, "info string error"), 0);
    free(a);
    free(b);
    a = proto_run("go rollout 5\n" BG_ON "go rollout 0\n", true);
    ck_assert_msg(strstr(a, "info string error: go rollout: nine has no rollouts\n"), "%s", a);
    ck_assert_msg(strstr(a, "info string error: go rollout takes a number from 1 to"), "%s", a);
    free(a);
}
END_TEST

START_TEST(test_uci_variant) {
    char *text =
        proto_run("uci\n" BG_ON "d\nuci\nsetoption name UCI_Variant value nine\nd\n", true);
    ck_assert_msg(strstr(text, " var nine") && strstr(text, " var backgammon"), "%s", text);
    ck_assert_msg(strstr(text, "default backgammon"), "%s", text);
    ck_assert_msg(strstr(text, "Position: " START_ID), "%s", text);
    ck_assert_msg(strstr(text, "X: 167 pips, 0 off"), "%s", text);
    ck_assert_msg(strstr(text, "Position: 3/3/3/6/3/3/3 w 9 9 0 1"), "%s", text);
    ck_assert_int_eq(count_prefix(text, "info string error"), 0);
    free(text);
}
END_TEST

START_TEST(test_uci_position_moves) {
    char *text =
        proto_run(BG_ON "position startpos moves 31:8/5,6/5 64\nd\nmoves\n"
                        "position gnubgid sGfwATDgc/ABMA:MAETAAAAAAAA\nd\n"
                        "position xgid XGID=-b---BD-B---eE---c-e----B-:0:0:-1:64:0:0:1:0:10\n"
                        "d\nposition startpos\nmoves\n",
                  true);
    ck_assert_int_eq(count_prefix(text, "Position: sGfwATDgc/ABMA:MAETAAAAAAAA"), 3);
    ck_assert_int_eq(count_prefix(text, "XGID=-b---BD-B---eE---c-e----B-:0:0:-1:64:0:0:1:0:10"), 3);
    ck_assert_msg(strstr(text, "O (player 0) on roll, dice 64"), "%s", text);
    ck_assert_msg(strstr(text, "64:24/14 "), "%s", text);
    ck_assert_msg(strstr(text, "\nroll double\n"), "%s", text);
    ck_assert_int_eq(count_prefix(text, "info string error"), 0);
    free(text);
}
END_TEST

START_TEST(test_uci_errors) {
    char *text = proto_run(BG_ON "position startpos moves 31:8/5,6/5\n"
                                 "position startpos moves 31:8/3\nd\n"
                                 "position gnubgid 4HPwATDgc/ABM\nposition xgid XGID=bad\n"
                                 "position startpos moves take\nposition fen\nperft 0\n",
                           true);
    ck_assert_int_eq(count_prefix(text, "info string error"), 6);
    ck_assert_msg(strstr(text, "Position: sGfwATDgc/ABMA:MAEAAAAAAAAA"), "%s", text);
    free(text);
}
END_TEST

START_TEST(test_uci_go) {
    char *text = proto_run(BG_ON "position startpos moves 31\ngo depth 1\nposition startpos\ngo\n"
                                 "position startpos moves double\ngo depth 2\n"
                                 "position startpos moves 65\ngo searchmoves 65:24/13\n"
                                 "position startpos moves double drop\ngo\n"
                                 "position gnubgid 4HPwATDgc/ABUA:cAkbAAAAAAAA\ngo\n",
                           true);
    char best[64];
    ck_assert(line_after(text, "bestmove ", best, sizeof best));
    BgPosition p;
    bg_set_start(&p);
    p.dice[0] = 3;
    p.dice[1] = 1;
    static Tokens t;
    legal(&p, &t);
    ck_assert_msg(strstr(t.text, best), "%s not among %s", best, t.text);
    ck_assert_msg(strstr(text, "bestmove roll\n"), "%s", text);
    ck_assert_msg(strstr(text, "bestmove take\n"), "%s", text);
    ck_assert_msg(strstr(text, "bestmove 65:24/13\n"), "%s", text);
    ck_assert_msg(strstr(text, "bestmove (none)\n"), "%s", text);
    ck_assert_msg(strstr(text, "bestmove 66:-\n"), "%s", text);
    ck_assert_msg(strstr(text, " probs 0."), "%s", text);
    ck_assert_msg(strstr(text, " equity "), "%s", text);
    ck_assert_int_eq(count_prefix(text, "bestmove"), 6);
    ck_assert_int_eq(count_prefix(text, "info string error"), 0);
    free(text);
}
END_TEST

START_TEST(test_uci_perft) {
    char *text = proto_run(BG_ON "perft 1\nposition startpos moves 66\nperft 1\n", true);
    ck_assert_msg(strstr(text, "31: 16\n"), "%s", text);
    ck_assert_msg(strstr(text, "Nodes searched: 447\n"), "%s", text);
    ck_assert_msg(strstr(text, "66:24/18(2),13/7(2): 1\n"), "%s", text);
    ck_assert_msg(strstr(text, "Nodes searched: 11\n"), "%s", text);
    free(text);
}
END_TEST

// gnubg's external-player lines (protocol/external.h), as gnubg 1.07 sent them: the opening
// position after the opponent played 13/8 24/22, before our roll, and with 31 rolled.
#define EXT_HEAD                                                                                   \
    "board:gnubg:tabula:0:0:0:0:-1:0:-1:0:0:5:0:3:0:0:0:-4:5:0:0:0:-4:0:-5:0:0:0:0:2:0:1:"
#define EXT_TAIL ":1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1"
#define EXT_CUBE EXT_HEAD "0:0:0:0" EXT_TAIL
#define EXT_ROLL EXT_HEAD "3:1:3:1" EXT_TAIL

START_TEST(test_external_parse) {
    BgPosition p;
    Error err;
    int dir = 0;
    ck_assert_msg(external_parse_board(EXT_ROLL, true, &p, &dir, &err), "%s", err.msg);
    ck_assert_int_eq(dir, -1);
    ck_assert_int_eq(p.turn, 1);
    ck_assert_int_eq(p.dice[0], 3);
    ck_assert_int_eq(p.dice[1], 1);
    ck_assert_int_eq(p.b.c[1][23], 2);
    ck_assert_int_eq(p.b.c[1][12], 5);
    ck_assert_int_eq(p.b.c[1][7], 3);
    ck_assert_int_eq(p.b.c[1][5], 5);
    ck_assert_int_eq(p.b.c[0][23], 1); // their 24-point is our 1-point
    ck_assert_int_eq(p.b.c[0][21], 1);
    ck_assert_int_eq(p.b.c[0][12], 4);
    ck_assert_int_eq(p.b.c[0][7], 4);
    ck_assert_int_eq(p.b.c[0][5], 5);
    ck_assert_int_eq(p.cube, 1);
    ck_assert_int_eq(p.owner, -1);
    ck_assert_int_eq(p.length, 0);
    ck_assert(!p.doubled);
}
END_TEST

START_TEST(test_external_answers) {
    ExternalSettings set = {0, true, NULL};
    char out[256];
    ck_assert(external_answer(&set, EXT_ROLL, out, sizeof out));
    int a, b, c, d;
    char extra;
    ck_assert_msg(sscanf(out, "%d/%d %d/%d%c", &a, &b, &c, &d, &extra) == 4, "%s", out);
    ck_assert(a > b && c > d && a - b + c - d == 4);
    ck_assert(external_answer(&set, EXT_CUBE, out, sizeof out));
    ck_assert_msg(!strcmp(out, "roll") || !strcmp(out, "double"), "%s", out);
    // The opponent doubled to 2: take or drop.
    const char *offered = EXT_HEAD "0:0:0:0:1:1:1:1:1:-1:0:25:0:0:0:0:0:0:0:1";
    ck_assert_msg(external_answer(&set, offered, out, sizeof out), "%s", out);
    ck_assert_msg(!strcmp(out, "take") || !strcmp(out, "drop"), "%s", out);
    // Our last checker on the bar against a closed board: nothing to play, an empty answer.
    const char *closed = "board:a:b:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:"
                         "-2:-2:-2:-2:-2:-2:1:1:6:5:6:5:1:1:1:0:1:-1:0:25:14:3:1:0:0:0:0:1";
    ck_assert_msg(external_answer(&set, closed, out, sizeof out), "%s", out);
    ck_assert_str_eq(out, "");
}
END_TEST

// clang-format off
static const char *const EXT_BAD[] = {
    "",
    "board",
    "hello:world",
    "board:a:b:1:2:3",
    "board:a:b:" "0:0:0:x:-1:0:-1:0:0:5:0:3:0:0:0:-4:5:0:0:0:-4:0:-5:0:0:0:0:2:0:1:3:1:3:1"
        EXT_TAIL,
    EXT_ROLL ":7",                                    // 51 fields
    EXT_HEAD "7:1:7:1" EXT_TAIL,                      // a die of 7
    EXT_HEAD "3:1:3:1:3:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1", // cube 3
    EXT_HEAD "3:1:3:1:1:1:1:0:5:-1:0:25:0:0:0:0:0:0:0:1", // colour 5
    "board:a:b:0:0:0:0:-1:0:-1:0:0:16:0:3:0:0:0:-4:5:0:0:0:-4:0:-5:0:0:0:0:2:0:1:3:1:3:1"
        EXT_TAIL,                                     // 16 checkers on a point
    "board:a:b:0:0:0:0:-1:0:-1:0:0:5:0:3:0:0:0:-4:5:0:0:0:-4:0:-5:0:0:0:0:2:0:1:3:1:3:1"
        ":1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:99999999999999999999",
    "board:a:b:5:7:0:0:-1:0:-1:0:0:5:0:3:0:0:0:-4:5:0:0:0:-4:0:-5:0:0:0:0:2:0:1:3:1:3:1"
        EXT_TAIL,                                     // score 7 in a 5-point match
    "board:a:b:" "0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:1:3:1:3:1" EXT_TAIL,
};
// clang-format on

START_TEST(test_external_bad) {
    ExternalSettings set = {0, true, NULL};
    char out[256];
    ck_assert(!external_answer(&set, EXT_BAD[_i], out, sizeof out));
    ck_assert_msg(!strncmp(out, "error: ", 7), "%s", out);
}
END_TEST

START_TEST(test_external_serve) {
    static const char in_text[] = EXT_CUBE "\n\0" EXT_ROLL "\r\n\0nonsense\n";
    FILE *in = fmemopen((void *)in_text, sizeof in_text - 1, "r");
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    ExternalSettings set = {0, true, NULL};
    external_serve(&set, in, out);
    fclose(in);
    fclose(out);
    int lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += buf[i] == '\n';
    ck_assert_msg(lines == 3, "%s", buf);
    ck_assert_msg(strstr(buf, "\nerror: not a board line\n"), "%s", buf);
    free(buf);
}
END_TEST

Suite *backgammon_suite(void) {
    Suite *s = suite_create("backgammon");
    TCase *tc = tcase_create("plays");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_opening_roll, 0, NOPENING);
    tcase_add_test(tc, test_opening_sum);
    tcase_add_test(tc, test_data_file);
    tcase_add_loop_test(tc, test_data_vector, 0, bg_vectors_load());
    tcase_add_loop_test(tc, test_harder_case, 0, (int)(sizeof HARDER / sizeof HARDER[0]));
    tcase_add_loop_test(tc, test_hand_case, 0, NHAND);
    tcase_add_test(tc, test_hit_flags);
    tcase_add_test(tc, test_token_forms);
    suite_add_tcase(s, tc);

    tc = tcase_create("game");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_game_end, 0, (int)(sizeof ENDS / sizeof ENDS[0]));
    tcase_add_test(tc, test_cube_actions);
    tcase_add_test(tc, test_perft);
    suite_add_tcase(s, tc);

    tc = tcase_create("protocol");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_uci_variant);
    tcase_add_test(tc, test_uci_position_moves);
    tcase_add_test(tc, test_uci_errors);
    tcase_add_test(tc, test_uci_go);
    tcase_add_test(tc, test_uci_perft);
    suite_add_tcase(s, tc);

    tc = tcase_create("external");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_external_parse);
    tcase_add_test(tc, test_go_rollout);
    tcase_add_test(tc, test_external_answers);
    tcase_add_loop_test(tc, test_external_bad, 0, (int)(sizeof EXT_BAD / sizeof EXT_BAD[0]));
    tcase_add_test(tc, test_external_serve);
    suite_add_tcase(s, tc);

    backgammon_cube_cases(s);
    return s;
}
