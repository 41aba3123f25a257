// Backgammon matches (match/bgmatch.c, match/bgreferee.c): short runs between tabula
// processes whose .mat records are replayed here with the engine's rules (every cell legal, by
// the right player, the Crawford game without a double, the points as written), duplicate dice,
// an engine that plays an illegal move, the arguments and the points estimate.
#include "engine/backgammon/game.h"
#include "engine/backgammon/ids.h"
#include "match/bgmatch.h"
#include "match/bgreferee.h"
#include "match/match.h"
#include "tests/harness.h"
#include "tests/helpers.h"
#include "tests/suites.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// Run `tabula match` (tests/harness.h, run_subcommand); its output and errors in *out.
static int run(const char *args, char **out) { return run_subcommand(match_main, args, out, NULL); }

#define MAX_CELLS 600

// One game of a .mat file: the header's scores, the cells in order with their column (0 left,
// 1 right), and the Wins line.
typedef struct MatGame {
    int score[2];
    int ncells;
    int column[MAX_CELLS];
    char cell[MAX_CELLS][64];
    int win_column, win_points;
} MatGame;

// Add a cell (trimmed) unless empty.
static void add_cell(MatGame *g, int column, const char *text, size_t n) {
    while (n && text[0] == ' ')
        text++, n--;
    while (n && (text[n - 1] == ' ' || text[n - 1] == '\n'))
        n--;
    if (!n)
        return;
    ck_assert_int_lt(g->ncells, MAX_CELLS);
    g->column[g->ncells] = column;
    snprintf(g->cell[g->ncells++], sizeof g->cell[0], "%.*s", (int)n, text);
}

// Read a .mat file into games; return how many, after the header's match length in *length.
static int read_mat(const char *path, MatGame *games, int max, int *length) {
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    char line[256];
    int n = 0;
    MatGame *g = NULL;
    *length = -1;
    while (fgets(line, sizeof line, f)) {
        int a, b;
        char name[64];
        if (*length < 0 && sscanf(line, " %d point match", &a) == 1) {
            *length = a;
        } else if (!strncmp(line, " Game ", 6)) {
            ck_assert_int_lt(n, max);
            g = &games[n++];
            memset(g, 0, sizeof *g);
            g->win_column = -1;
            ck_assert(fgets(line, sizeof line, f));
            ck_assert_int_eq(sscanf(line, " %63s : %d %63s : %d", name, &a, name, &b), 4);
            g->score[0] = a;
            g->score[1] = b;
        } else if (g && strstr(line, "Wins ")) {
            ck_assert_int_eq(sscanf(strstr(line, "Wins "), "Wins %d", &g->win_points), 1);
            g->win_column = strstr(line, "Wins ") - line > 20;
        } else if (g && strlen(line) > 5 && line[3] == ')') {
            // "NNN) left      right": the left cell ends at two spaces; an empty left cell
            // leaves the right one past column 30.
            const char *rest = line + 5, *gap = strstr(rest + 1, "  ");
            size_t lead = strspn(rest, " ");
            if (rest + lead - line >= 30) {
                add_cell(g, 1, rest + lead, strlen(rest + lead));
            } else {
                size_t left = gap ? (size_t)(gap - rest) : strlen(rest);
                add_cell(g, 0, rest, left);
                if (gap)
                    add_cell(g, 1, gap, strlen(gap));
            }
        }
    }
    fclose(f);
    return n;
}

// Replay a game of a .mat file with the engine's rules: each cell by the player who acts, each
// token legal, the game over at the end with the Wins line's winner and points. The left column
// is player 0 (the start is symmetric). Returns the rolls in order (two digits each) in rolls.
static void replay(const MatGame *g, int length, bool crawford, char *rolls, size_t nrolls) {
    BgPosition p;
    bg_set_start(&p);
    p.length = length;
    p.jacoby = length == 0;
    p.score[0] = g->score[0];
    p.score[1] = g->score[1];
    p.crawford = crawford;
    ck_assert_int_gt(g->ncells, 0);
    p.turn = g->column[0];
    size_t used = 0;
    rolls[0] = '\0';
    for (int i = 0; i < g->ncells; i++) {
        const char *c = g->cell[i];
        int actor = p.doubled ? !p.turn : p.turn;
        ck_assert_msg(g->column[i] == actor, "cell %d '%s' in the wrong column", i, c);
        char token[80];
        int n;
        if (sscanf(c, "Doubles => %d", &n) == 1) {
            ck_assert_int_eq(n, 2 * p.cube);
            snprintf(token, sizeof token, "double");
        } else if (!strcmp(c, "Takes") || !strcmp(c, "Drops")) {
            snprintf(token, sizeof token, "%s", c[0] == 'T' ? "take" : "drop");
        } else {
            ck_assert_msg(strlen(c) >= 3 && c[2] == ':', "cell '%s'", c);
            snprintf(token, sizeof token, "%.2s:%s", c, c[3] ? c + 4 : "-");
            if (used + 3 < nrolls)
                used += (size_t)snprintf(rolls + used, nrolls - used, "%.2s ", c);
        }
        Error err;
        ck_assert_msg(bg_play_token_on(&p, token, &err), "cell %d '%s': %s", i, c, err.msg);
    }
    ck_assert_msg(p.state == BG_OVER || p.state == BG_DROPPED, "the game is not over");
    ck_assert_int_eq(g->win_column, p.winner);
    ck_assert_int_eq(g->win_points, p.points);
}

// Find the number after prefix in text.
static int number_after(const char *text, const char *prefix) {
    const char *p = strstr(text, prefix);
    ck_assert_msg(p != NULL, "no '%s' in %s", prefix, text);
    return atoi(p + strlen(prefix));
}

START_TEST(test_money_duplicate) {
    char mat[] = "/tmp/tabula-bgmat-XXXXXX";
    int fd = mkstemp(mat);
    ck_assert_int_ge(fd, 0);
    close(fd);
    char args[512], *out;
    snprintf(args, sizeof args,
             "--variant backgammon --engine cmd=%%T name=a nodes=1 --engine cmd=%%T name=b depth=1 "
             "--games 2 --seed 5 --quiet --mat %s",
             mat);
    ck_assert_int_eq(run(args, &out), 0);
    ck_assert_msg(strstr(out, "terminations: normal 2\n"), "%s", out);
    static MatGame games[4];
    int length;
    ck_assert_int_eq(read_mat(mat, games, 4, &length), 2);
    ck_assert_int_eq(length, 0);
    char rolls[2][2048];
    int points[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        replay(&games[i], 0, false, rolls[i], sizeof rolls[i]);
        points[games[i].win_column] += games[i].win_points;
    }
    // The second game's header carries the score after the first.
    ck_assert_int_eq(games[1].score[games[0].win_column], games[0].win_points);
    // The report's points are the records' points.
    ck_assert_int_eq(number_after(out, "a won "),
                     (games[0].win_column == 0) + (games[1].win_column == 0));
    char *p = strstr(out, "a won ");
    ck_assert_int_eq(number_after(p, "games and "), points[0]);
    ck_assert_int_eq(number_after(strstr(p, "b won "), "games and "), points[1]);
    // Duplicate dice: the same rolls turn by turn, the other engine starting (a plays X, then
    // O, and the same colour starts), as long as both games last.
    ck_assert_int_ne(games[0].column[0], games[1].column[0]);
    size_t n = strlen(rolls[0]) < strlen(rolls[1]) ? strlen(rolls[0]) : strlen(rolls[1]);
    ck_assert_uint_ge(n, 30);
    ck_assert_msg(!strncmp(rolls[0], rolls[1], n), "rolls differ:\n%s\n%s", rolls[0], rolls[1]);
    unlink(mat);
    free(out);
}
END_TEST

START_TEST(test_illegal_engine_loses) {
    char fake[] = "/tmp/tabula-bgfake-XXXXXX";
    int fd = mkstemp(fake);
    ck_assert_int_ge(fd, 0);
    // It answers every question, cube or play, with the same illegal play.
    const char *script = "#!/bin/sh\nwhile read -r line; do case \"$line\" in\n"
                         "uci) echo uciok;; isready) echo readyok;;\n"
                         "go*) echo 'bestmove 21:24/1';; quit) exit 0;; esac; done\n";
    ck_assert_int_eq(write(fd, script, strlen(script)), (int)strlen(script));
    ck_assert_int_eq(fchmod(fd, 0700), 0);
    close(fd);
    char args[512], *out;
    snprintf(args, sizeof args,
             "--variant backgammon --engine cmd=%%T name=good nodes=1 --engine cmd=%s name=fake "
             "nodes=1 --games 2",
             fake);
    ck_assert_int_eq(run(args, &out), 0);
    ck_assert_msg(strstr(out, "terminations: illegal move 2\n"), "%s", out);
    ck_assert_int_eq(number_after(out, "good won "), 2);
    // Both games name the fake and what was wrong, in the progress lines and the report.
    int reasons = 0;
    for (const char *p = out; (p = strstr(p, "fake (")); p++)
        if (!strncmp(p + 9, "lost: ", 6) &&
            (!strncmp(p + 15, "illegal play '21:24/1' for ", 27) ||
             !strncmp(p + 15, "'21:24/1' is not a cube action", 30)))
            reasons++;
    ck_assert_msg(reasons == 4, "%s", out);
    unlink(fake);
    free(out);
}
END_TEST

START_TEST(test_length_crawford) {
    char stem[] = "/tmp/tabula-bglen-XXXXXX";
    int fd = mkstemp(stem);
    ck_assert_int_ge(fd, 0);
    close(fd);
    char args[512], log[64], *out;
    snprintf(log, sizeof log, "%s.log", stem);
    snprintf(args, sizeof args,
             "--variant backgammon --engine cmd=%%T name=a --engine cmd=%%T name=b --each nodes=1 "
             "--games 2 --length 3 --seed 1 --quiet --mat %s.mat --log %s",
             stem, log);
    ck_assert_int_eq(run(args, &out), 0);
    ck_assert_msg(strstr(out, "matches to 3 points (Crawford rule)"), "%s", out);
    ck_assert_msg(strstr(out, "terminations: normal 2\n"), "%s", out);
    int crawford_games = 0;
    for (int m = 1; m <= 2; m++) {
        char path[96];
        snprintf(path, sizeof path, "%s-%d.mat", stem, m);
        static MatGame games[BG_MAX_GAMES];
        int length, n = read_mat(path, games, BG_MAX_GAMES, &length);
        ck_assert_int_eq(length, 3);
        ck_assert_int_ge(n, 1);
        int score[2] = {0, 0};
        bool crawford_done = false;
        for (int i = 0; i < n; i++) {
            ck_assert_int_eq(games[i].score[0], score[0]);
            ck_assert_int_eq(games[i].score[1], score[1]);
            ck_assert(score[0] < 3 && score[1] < 3);
            bool crawford = !crawford_done && (score[0] == 2 || score[1] == 2);
            crawford_done |= crawford;
            crawford_games += crawford;
            char rolls[2048];
            replay(&games[i], 3, crawford, rolls, sizeof rolls);
            score[games[i].win_column] += games[i].win_points;
        }
        ck_assert(score[0] >= 3 || score[1] >= 3);
        unlink(path);
    }
    ck_assert_int_ge(crawford_games, 1);
    // The engines were told: some position had the Crawford flag, each with a player 2-away.
    FILE *f = fopen(log, "r");
    ck_assert(f != NULL);
    char line[8192];
    int told = 0;
    while (fgets(line, sizeof line, f)) {
        const char *id = strstr(line, "position gnubgid ");
        if (!id)
            continue;
        char text[64];
        ck_assert_int_eq(sscanf(id + 17, "%63s", text), 1);
        BgPosition p;
        Error err;
        ck_assert_msg(bg_read_gnubgid(text, &p, &err), "%s: %s", text, err.msg);
        ck_assert_int_eq(p.length, 3);
        if (p.crawford) {
            ck_assert(p.score[0] == 2 || p.score[1] == 2);
            told++;
        }
    }
    fclose(f);
    ck_assert_int_gt(told, 0);
    unlink(log);
    unlink(stem);
    free(out);
}
END_TEST

START_TEST(test_bad_arguments) {
    static const struct {
        const char *args, *want;
    } CASES[] = {
        {"--variant backgammon --engine cmd=x nodes=1 --engine cmd=y nodes=1 --pgn g.pgn",
         "--pgn is for mill matches only"},
        {"--variant backgammon --engine cmd=x nodes=1 --engine cmd=y nodes=1 --sprt",
         "--sprt is for mill matches only"},
        {"--engine cmd=x nodes=1 --engine cmd=y nodes=1 --length 3",
         "--length is for backgammon matches only"},
        {"--engine cmd=x nodes=1 --engine cmd=y nodes=1 --mat=a.mat",
         "--mat is for backgammon matches only"},
        {"--variant backgammon --engine cmd=x nodes=1 --engine cmd=y nodes=1 --engine cmd=z "
         "nodes=1",
         "exactly two engines"},
        {"--variant backgammon --engine cmd=x nodes=1 --engine cmd=y nodes=1 --length 3 --jacoby "
         "off",
         "--jacoby is for money play"},
        {"--variant backgammon --engine cmd=x nodes=1 --engine cmd=y nodes=1 --jacoby maybe",
         "--jacoby takes on or off"},
        {"--variant backgammon --engine cmd=x nodes=1 --engine cmd=y nodes=1 --length 26",
         "--length"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        char *out;
        ck_assert_int_eq(run(CASES[i].args, &out), 2);
        ck_assert_msg(strstr(out, CASES[i].want), "%s: %s", CASES[i].args, out);
        ck_assert_int_eq(count_lines(out), 1);
        free(out);
    }
}
END_TEST

START_TEST(test_points_and_dice) {
    double sums[] = {2, 0, -2, 0};
    BgPoints p = bg_points_estimate(sums, 4);
    ck_assert(p.known && fabs(p.mean) < 1e-12);
    // Pair values (per game) 1, 0, -1, 0: sd sqrt(2/3), the interval 1.96 sd / 2 wide each way.
    ck_assert(fabs(p.hi - STATS_Z95 * sqrt(2.0 / 3) / 2) < 1e-9 && fabs(p.lo + p.hi) < 1e-12);
    double same[] = {0, 0, 0};
    p = bg_points_estimate(same, 3);
    // All pairs alike: no spread to estimate from, so the interval is unknown, not a point.
    ck_assert(!p.known && p.mean == 0);
    p = bg_points_estimate(sums, 1);
    ck_assert(!p.known && p.mean == 1);
    // The dice: the opening roll never a double, later rolls larger die first, each of the 36
    // outcomes about as often, and the same numbers for the same arguments.
    int count[7][7] = {{0}};
    for (int t = 0; t < 36000; t++) {
        int d[2], e[2];
        bg_dice(7, t % 50, t / 50 % 3, t + 1, d);
        bg_dice(7, t % 50, t / 50 % 3, t + 1, e);
        ck_assert(d[0] == e[0] && d[1] == e[1]);
        ck_assert(d[0] >= d[1] && d[1] >= 1 && d[0] <= 6);
        count[d[0]][d[1]]++;
        bg_dice(7, t, 0, 0, d);
        ck_assert(d[0] != d[1]);
    }
    for (int a = 1; a <= 6; a++)
        for (int b = 1; b <= a; b++)
            ck_assert_msg(abs(count[a][b] - (a == b ? 1000 : 2000)) < 200, "%d%d: %d", a, b,
                          count[a][b]);
}
END_TEST

Suite *bgmatch_suite(void) {
    Suite *s = suite_create("bgmatch");
    TCase *tc = tcase_create("units");
    tcase_add_test(tc, test_bad_arguments);
    tcase_add_test(tc, test_points_and_dice);
    suite_add_tcase(s, tc);
    tc = tcase_create("runs");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_money_duplicate);
    tcase_add_test(tc, test_illegal_engine_loses);
    tcase_add_test(tc, test_length_crawford);
    suite_add_tcase(s, tc);
    return s;
}
