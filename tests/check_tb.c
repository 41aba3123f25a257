// Endgame databases of the 24-point variants and their use: the moving-phase database of nine
// with three men a side checked against the one-ply rule and hand-made endgames, the tablebase
// loader, the search's probes (exact scores, the shortest win at the root), `analyze` and the
// TablebasePath option's errors.
#include "tests/suites.h"

#include "tests/harness.h"
#include "tests/helpers.h"

#include "engine/mill/movegen.h"
#include "engine/mill/notation.h"
#include "engine/mill/solve.h"
#include "engine/mill/tablebase.h"
#include "protocol/uci.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TB_TIMEOUT 60

// The database of nine's moving phase with 3 men a side, built once for the suite (one
// thread: the fixture runs unchecked, before the tests fork).
static char db_dir[] = "/tmp/tabula-tb-XXXXXX";
static char db_path[sizeof db_dir + 16];

static void build_db(void) {
    ck_assert_ptr_nonnull(mkdtemp(db_dir));
    snprintf(db_path, sizeof db_path, "%s/n3.tdb", db_dir);
    MillRules r;
    rules_for(&r, "nine");
    SolveOptions opt = {db_path, 1, false, NULL, NULL, 3};
    Error err = {{0}};
    SolveDb *db = solve_build(&r, &opt, &err);
    ck_assert_msg(db, "%s", err.msg);
    solve_free(db);
}

static void remove_db(void) {
    unlink(db_path);
    rmdir(db_dir);
}

static void set_fen(Position *p, const MillRules *r, const char *fen) {
    Error err = {{0}};
    ck_assert_msg(pos_set_fen(p, r, fen, &err), "%s: %s", fen, err.msg);
}

static Tablebase *open_tb(void) {
    Error err = {{0}};
    Tablebase *tb = tb_open(db_path, &err);
    ck_assert_msg(tb, "%s", err.msg);
    return tb;
}

// clang-format off
static const struct { const char *variant, *fen; int value, distance; } KNOWN[] = {
    // White a7 d7 and c3, flying: c3 to g7 closes the top row, the removal leaves Black two.
    {"nine",   "WW1/3/3/6/W2/2B/1BB w 0 0 0 1", SOLVE_WIN,  1},
    // Black d1 g1 and f2 likewise fly f2 to a1.
    {"nine",   "WW1/3/3/6/W2/2B/1BB b 0 0 0 1", SOLVE_WIN,  1},
    // Black to move cannot close a mill and can block only one of White's two open lines
    // (g7 and a4): White closes the other.
    {"nine",   "WW1/3/3/6/2B/1B1/W1B b 0 0 0 1", SOLVE_LOSS, 2},
    // The same database answers lasker (the moving phase plays alike).
    {"lasker", "WW1/3/3/6/W2/2B/1BB w 0 0 0 1", SOLVE_WIN,  1},
};
// clang-format on

START_TEST(test_known) {
    Tablebase *tb = open_tb();
    MillRules r;
    rules_for(&r, KNOWN[_i].variant);
    Position p;
    set_fen(&p, &r, KNOWN[_i].fen);
    int v = 9, d = -1;
    ck_assert_msg(tb_probe(tb, &p, &v, &d), "%s not found", KNOWN[_i].fen);
    ck_assert_msg(v == KNOWN[_i].value && d == KNOWN[_i].distance, "%s: %d in %d, want %d in %d",
                  KNOWN[_i].fen, v, d, KNOWN[_i].value, KNOWN[_i].distance);
    tb_close(tb);
}
END_TEST

static uint64_t rng_state = 0x7ab1e;

static unsigned rng(unsigned n) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(rng_state >> 33) % n;
}

// A random 3-3 position of nine with no men in hand, not over.
static void random_33(Position *p, const MillRules *r) {
    do {
        memset(p, 0, sizeof *p);
        p->rules = r;
        p->fullmove = 1;
        p->side = (int)rng(2);
        for (int side = 0; side < 2; side++)
            while (bits_count(p->men[side]) < 3) {
                int q = (int)rng(24);
                if (!((p->men[0] | p->men[1]) & BIT(q)))
                    p->men[side] |= BIT(q);
            }
        p->key = pos_compute_key(p);
    } while (pos_outcome(p) != OUTCOME_NONE);
}

// Every value follows from the children's by one ply of minimax, with the distances: with the
// terminal values this pins every win and loss of the database. Checked on random positions
// of both colours and on their mirror images (the 16 symmetries are folded in the index).
START_TEST(test_one_ply_rule) {
    Tablebase *tb = open_tb();
    MillRules r;
    rules_for(&r, "nine");
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    int checked = 0, decided = 0;
    for (int i = 0; i < 3000; i++) {
        Position p;
        random_33(&p, &r);
        int value, distance;
        EXPECT(tb_probe(tb, &p, &value, &distance), "a 3-3 position not found");
        int n = movegen_legal(&p, moves);
        if (n == 0) {
            EXPECT(value == SOLVE_LOSS && distance == 0, "no move but not lost");
            continue;
        }
        int win = 1000, loss = -1;
        bool draw = false;
        for (int k = 0; k < n; k++) {
            Position c = p;
            Undo u;
            int v, d;
            pos_do_move(&c, moves[k], &u);
            EXPECT(tb_probe(tb, &c, &v, &d), "a child not found");
            if (v == SOLVE_LOSS && d + 1 < win)
                win = d + 1;
            if (v == SOLVE_WIN && d + 1 > loss)
                loss = d + 1;
            draw |= v == SOLVE_DRAW;
        }
        char fen[FEN_MAX];
        pos_get_fen(&p, fen, sizeof fen);
        if (win < 1000)
            EXPECT(value == SOLVE_WIN && distance == win, "%s: %d in %d, want a win in %d", fen,
                   value, distance, win);
        else if (draw)
            EXPECT(value == SOLVE_DRAW, "%s: %d in %d, want a draw", fen, value, distance);
        else
            EXPECT(value == SOLVE_LOSS && distance == loss, "%s: %d in %d, want a loss in %d", fen,
                   value, distance, loss);
        checked++;
        decided += value != SOLVE_DRAW && distance > 1;
    }
    ck_assert_int_gt(checked, 2000);
    ck_assert_int_gt(decided, 100);
    free(moves);
    tb_close(tb);
}
END_TEST

// The file's statistics: one sub-database, most positions won for the side to move.
START_TEST(test_stats) {
    Error err = {{0}};
    SolveDb *db = solve_load(db_path, &err);
    ck_assert_msg(db, "%s", err.msg);
    ck_assert_int_eq(solve_max_men(db), 3);
    ck_assert_int_eq(solve_subdbs(db), 1);
    SolveSubStats s;
    ck_assert(solve_sub_stats(db, 0, &s));
    ck_assert_int_eq(s.a, 3);
    ck_assert_int_eq(s.b, 3);
    ck_assert(s.done);
    ck_assert_uint_eq(s.wins + s.draws + s.losses, s.positions);
    ck_assert_uint_gt(s.wins, s.losses);
    ck_assert_uint_lt(s.positions * 15, s.raw); // folded by the 16 symmetries
    ck_assert_int_gt(s.longest_win, 5);
    ck_assert(!solve_sub_stats(db, 1, &s));
    // Twelve is another board (diagonals): not answered.
    MillRules r;
    rules_for(&r, "twelve");
    ck_assert(!solve_rules_match(db, &r));
    rules_for(&r, "nine");
    r.flying = false;
    ck_assert(!solve_rules_match(db, &r));
    solve_free(db);
}
END_TEST

START_TEST(test_unsupported) {
    MillRules r;
    Error err = {{0}};
    rules_for(&r, "nine");
    ck_assert(solve_supported(&r, 5, &err));
    ck_assert(!solve_supported(&r, 2, &err));
    ck_assert(!solve_supported(&r, SOLVE_MAX_MEN + 1, &err));
    rules_for(&r, "tapatan");
    ck_assert(!solve_supported(&r, 3, &err)); // a mill wins: no moving phase to speak of
}
END_TEST

static char *run_with_db(const char *fmt, const char *arg) {
    char script[2048];
    int n = snprintf(script, sizeof script, "setoption name TablebasePath value %s\n", db_path);
    snprintf(script + n, sizeof script - (size_t)n, fmt, arg);
    return proto_run(script, false);
}

// The move of the bestmove line.
static void bestmove(const char *text, char *buf, size_t n) {
    ck_assert_msg(line_after(text, "bestmove ", buf, n), "no bestmove in:\n%s", text);
    buf[strcspn(buf, " ")] = '\0';
}

// The search gives the database's exact value: a mate score with the database's distance, and
// tbhits on its info lines.
START_TEST(test_search_probe) {
    char *text = run_with_db("position fen %s\ngo depth 3\n", "WW1/3/3/6/2B/1B1/W1B b 0 0 0 1");
    ck_assert_msg(strstr(text, "score mate -1 "), "%s", text); // lost in 2 plies
    ck_assert_msg(strstr(text, " tbhits "), "%s", text);
    free(text);
    // Black still has a man in hand: the root is not in the database, its children are.
    // Placing it on a1 closes the bottom row and takes White down to two men.
    text = run_with_db("position fen %s\ngo depth 2\n", "WW1/3/3/6/W2/3/1BB b 0 1 0 1");
    ck_assert_msg(strstr(text, " tbhits "), "%s", text);
    char move[32];
    bestmove(text, move, sizeof move);
    ck_assert_msg(!strncmp(move, "a1x", 3), "bestmove %s", move);
    ck_assert_msg(strstr(text, "score mate 1 "), "%s", text);
    free(text);
}
END_TEST

// With the database, the move played from a won position is one of the moves to the shortest
// win, on random won positions where some winning moves are longer.
START_TEST(test_shortest_win) {
    Tablebase *tb = open_tb();
    MillRules r;
    rules_for(&r, "nine");
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    int found = 0;
    for (int tries = 0; tries < 5000 && found < 4; tries++) {
        Position p;
        random_33(&p, &r);
        int value, distance, n = movegen_legal(&p, moves);
        if (!tb_probe(tb, &p, &value, &distance) || value != SOLVE_WIN || distance < 3)
            continue;
        // A longer win must exist beside the shortest.
        bool longer = false;
        for (int k = 0; k < n && !longer; k++) {
            Position c = p;
            Undo u;
            int v, d;
            pos_do_move(&c, moves[k], &u);
            longer = tb_probe(tb, &c, &v, &d) && v == SOLVE_LOSS && d + 1 > distance;
        }
        if (!longer)
            continue;
        found++;
        char fen[FEN_MAX], best[32];
        pos_get_fen(&p, fen, sizeof fen);
        char *text = run_with_db("position fen %s\ngo depth 4\n", fen);
        bestmove(text, best, sizeof best);
        Move m;
        ck_assert_msg(move_parse(&p, best, &m, NULL), "%s: bestmove %s", fen, best);
        Undo u;
        int v, d;
        pos_do_move(&p, m, &u);
        ck_assert(tb_probe(tb, &p, &v, &d));
        ck_assert_msg(v == SOLVE_LOSS && d + 1 == distance, "%s: %s leaves %d in %d, want %d", fen,
                      best, v, d, distance - 1);
        char want[32];
        snprintf(want, sizeof want, "score mate %d ", (distance + 1) / 2);
        ck_assert_msg(strstr(text, want), "%s: no '%s' in\n%s", fen, want, text);
        free(text);
    }
    ck_assert_int_eq(found, 4);
    free(moves);
    tb_close(tb);
}
END_TEST

// analyze lists the position's value and every legal move's, best first.
START_TEST(test_analyze) {
    char *text = run_with_db("position fen %s\nmoves\nanalyze\n", "WW1/3/3/6/W2/2B/1BB w 0 0 0 1");
    // The first line is the moves command's answer: count the moves.
    int nmoves = 1;
    for (const char *s = text; *s != '\n'; s++)
        nmoves += *s == ' ';
    const char *a = strchr(text, '\n') + 1;
    ck_assert_msg(!strncmp(a, "white to move: win in 1 plies\n", 30), "%s", text);
    ck_assert_int_eq(count_prefix(a, "c3-g7x"), 3); // three removals, each a win in 1
    char line[64];
    ck_assert(line_after(a, "c3-g7xd1: ", line, sizeof line));
    ck_assert_str_eq(line, "win in 1");
    int lines = 0;
    for (const char *s = a; *s; s++)
        lines += *s == '\n';
    ck_assert_int_eq(lines, nmoves + 1);
    // The wins come first.
    ck_assert_msg(!strncmp(strchr(a, '\n') + 1, "c3-g7x", 6), "%s", a);
    free(text);
    // Not in the database: one clear line.
    text = run_with_db("position startpos\nanalyze\n%s", "");
    ck_assert_msg(!strcmp(text, "info string analyze: the position is not in the tablebase: men "
                                "are still in hand; the databases hold the moving phase\n"),
                  "%s", text);
    free(text);
    text = proto_run("position fen WW1/3/3/6/W2/2B/1BB w 0 0 0 1\nanalyze\n", false);
    ck_assert_msg(strstr(text, "info string analyze: the position is not in the tablebase: no "
                               "tablebase is loaded"),
                  "%s", text);
    free(text);
}
END_TEST

// A bad TablebasePath gives one error line and keeps the databases loaded before; an empty
// value unloads them. `uci` declares the option.
START_TEST(test_path_errors) {
    char *text = proto_run("uci\n", false);
    ck_assert_msg(strstr(text, "option name TablebasePath type string default <empty>\n"), "%s",
                  text);
    free(text);
    // A missing file, a directory without databases, a file that is not a database.
    char empty[] = "/tmp/tabula-tb-empty-XXXXXX", junk[] = "/tmp/tabula-tb-junk-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(empty));
    int fd = mkstemp(junk);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "not a database\n", 15), 15);
    close(fd);
    const char *const BAD[] = {"/nonexistent/tabula.tdb", empty, junk};
    for (int i = 0; i < 3; i++) {
        char script[512];
        snprintf(script, sizeof script,
                 "setoption name TablebasePath value %%s\nsetoption name TablebasePath value "
                 "%s\nposition fen WW1/3/3/6/W2/2B/1BB w 0 0 0 1\nanalyze\n",
                 BAD[i]);
        text = run_with_db(script, db_path);
        ck_assert_msg(count_prefix(text, "info string error: ") == 1, "%s:\n%s", BAD[i], text);
        ck_assert_msg(strstr(text, "option TablebasePath: "), "%s", text);
        ck_assert_msg(strstr(text, "white to move: win in 1 plies"), "%s: state changed\n%s",
                      BAD[i], text);
        free(text);
    }
    rmdir(empty);
    unlink(junk);
    // A directory of databases loads; an empty value unloads.
    text = run_with_db("position fen WW1/3/3/6/W2/2B/1BB b 0 0 0 1\nanalyze\nsetoption name "
                       "TablebasePath value\nanalyze\n%s",
                       "");
    ck_assert_msg(strstr(text, "black to move: win in 1 plies"), "%s", text);
    ck_assert_msg(strstr(text, "no tablebase is loaded"), "%s", text);
    free(text);
    char script[512];
    snprintf(script, sizeof script,
             "setoption name TablebasePath value %s\nposition fen WW1/3/3/6/W2/2B/1BB b 0 0 0 "
             "1\nanalyze\n",
             db_dir);
    text = proto_run(script, false);
    ck_assert_msg(strstr(text, "black to move: win in 1 plies"), "%s", text);
    free(text);
}
END_TEST

// Without a database the search reports no tbhits (and finds the win by itself).
START_TEST(test_no_tbhits_without_db) {
    char *text = proto_run("position fen WW1/3/3/6/W2/2B/1BB w 0 0 0 1\ngo depth 3\n", false);
    ck_assert_msg(!strstr(text, "tbhits"), "%s", text);
    ck_assert_msg(strstr(text, "bestmove c3-g7x"), "%s", text);
    free(text);
}
END_TEST

Suite *tb_suite(void) {
    Suite *s = suite_create("tb");
    TCase *tc = tcase_create("tb");
    tcase_set_timeout(tc, TB_TIMEOUT);
    tcase_add_unchecked_fixture(tc, build_db, remove_db);
    tcase_add_loop_test(tc, test_known, 0, (int)(sizeof KNOWN / sizeof KNOWN[0]));
    tcase_add_test(tc, test_one_ply_rule);
    tcase_add_test(tc, test_stats);
    tcase_add_test(tc, test_unsupported);
    tcase_add_test(tc, test_search_probe);
    tcase_add_test(tc, test_shortest_win);
    tcase_add_test(tc, test_analyze);
    tcase_add_test(tc, test_path_errors);
    tcase_add_test(tc, test_no_tbhits_without_db);
    suite_add_tcase(s, tc);
    return s;
}
