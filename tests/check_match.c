// The match runner (match/) and its JSON reader (match/json.c): arguments, schedules,
// summaries, SPRT stop, and sharded runs merged into the same totals as one run.
#include "match/json.h"
#include "match/match.h"
#include "tests/harness.h"
#include "tests/helpers.h"
#include "tests/suites.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

// Run `tabula match` (tests/harness.h, run_subcommand); its output and errors in *out.
static int run(const char *args, char **out) { return run_subcommand(match_main, args, out, NULL); }

static Json *load_json(const char *path) {
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    char err[160];
    Json *j = json_parse(text, err, sizeof err);
    ck_assert_msg(j != NULL, "%s: %s", path, err);
    return j;
}

START_TEST(test_json_parse) {
    char err[160];
    Json *j = json_parse(" {\"a\": [1, -2.5e1, true, null], \"s\": \"x\\\"\\u0041\\n\", "
                         "\"o\": {}} ",
                         err, sizeof err);
    ck_assert_msg(j != NULL, "%s", err);
    const Json *a = json_get(j, "a");
    ck_assert_int_eq(a->type, JSON_ARRAY);
    ck_assert(a->child->number == 1);
    ck_assert(a->child->next->number == -25);
    ck_assert(a->child->next->next->boolean);
    ck_assert_int_eq(a->child->next->next->next->type, JSON_NULL);
    ck_assert_str_eq(json_string(j, "s", ""), "x\"A\n");
    ck_assert_int_eq(json_get(j, "o")->type, JSON_OBJECT);
    ck_assert(json_get(j, "missing") == NULL);
    ck_assert(json_number(j, "s", 7) == 7);
    json_free(j);

    static const char *const BAD[] = {
        "",      "{",   "[1,]",   "{\"a\" 1}", "{\"a\": 1,}", "\"abc",
        "[1] 2", "tru", "{1: 2}", "\"\\x\"",   "\"\\u12g4\"", "[-]",
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        err[0] = '\0';
        ck_assert_msg(json_parse(BAD[i], err, sizeof err) == NULL, "accepted '%s'", BAD[i]);
        ck_assert_msg(strstr(err, "at byte"), "no position in '%s'", err);
    }
    char deep[300];
    memset(deep, '[', sizeof deep - 1);
    deep[sizeof deep - 1] = '\0';
    ck_assert(json_parse(deep, err, sizeof err) == NULL);

    // What json_write_string writes reads back.
    char *text;
    size_t n;
    FILE *f = open_memstream(&text, &n);
    json_write_string(f, "q\"b\\s\x01");
    fclose(f);
    j = json_parse(text, err, sizeof err);
    ck_assert_str_eq(j->string, "q\"b\\s\x01");
    json_free(j);
    free(text);
}
END_TEST

// Bad command lines: status 2 and a message naming the problem, before any game.
START_TEST(test_bad_arguments) {
    static const struct {
        const char *args, *message;
    } CASES[] = {
        {"--engine cmd=x depth=1", "at least two engines"},
        {"--engine cmd=x depth=1 --engine depth=1", "no cmd="},
        {"--engine cmd=x --engine cmd=y", "no limit"},
        {"--engine cmd=x tc=abc --engine cmd=y depth=1", "bad engine setting 'tc=abc'"},
        {"--engine cmd=x tc=0+1 --engine cmd=y depth=1", "bad engine setting"},
        {"--engine cmd=x colour=red --engine cmd=y depth=1", "unknown engine key 'colour'"},
        {"--engine cmd=x depth=1 --engine cmd=y depth=1 --variant chess", "unknown variant"},
        {"--engine cmd=x depth=1 --engine cmd=y depth=1 --games 0", "bad option"},
        {"--engine cmd=x depth=1 --engine cmd=y depth=1 --shard 3/2", "--shard"},
        {"--engine cmd=x depth=1 --engine cmd=y depth=1 --sprt elo0=5 elo1=0", "--sprt"},
        {"--engine cmd=x depth=1 --engine cmd=y depth=1 --openings books", "--openings"},
        {"--engine cmd=x depth=1 --engine cmd=y depth=1 --openings file:data/none.txt",
         "cannot read"},
        {"--engine cmd=x depth=1 --engine cmd=y depth=1 --draw score=5", "movecount"},
        {"--engine cmd=x depth=1 --engine cmd=y depth=1 --games", "missing value"},
        {"--merge", "give the JSON"},
        {"--merge data/fake_engine.sh", "unexpected character"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        char *out;
        ck_assert_int_eq(run(CASES[i].args, &out), 2);
        ck_assert_msg(strstr(out, CASES[i].message), "'%s': wanted '%s' in\n%s", CASES[i].args,
                      CASES[i].message, out);
        ck_assert_msg(count_lines(out) == 1, "'%s': more than one line:\n%s", CASES[i].args, out);
        free(out);
    }
    // A command-line error is one line with a pointer to the help, not the whole usage.
    char *err_out;
    ck_assert_int_eq(run("--engine cmd=x depth=1 --engine cmd=y depth=1 --bogus", &err_out), 2);
    ck_assert_str_eq(err_out, "tabula match: unknown option '--bogus' (try tabula match --help)\n");
    free(err_out);
    ck_assert_int_eq(run("--merge --bogus", &err_out), 2);
    ck_assert_msg(strstr(err_out, "(try tabula match --help)\n") && count_lines(err_out) == 1, "%s",
                  err_out);
    free(err_out);
    char *out;
    ck_assert_int_eq(run("--help", &out), 0);
    ck_assert_ptr_nonnull(strstr(out, "--concurrency N"));
    free(out);
}
END_TEST

// A summary's counts of its first pairing.
static void counts_of(const Json *doc, int c[8]) {
    const Json *p = json_get(doc, "pairings")->child;
    c[0] = (int)json_number(p, "wins", -1);
    c[1] = (int)json_number(p, "draws", -1);
    c[2] = (int)json_number(p, "losses", -1);
    const Json *penta = json_get(p, "penta")->child;
    for (int k = 0; k < 5; k++, penta = penta->next)
        c[3 + k] = (int)penta->number;
}

// The games of a summary as text, one "game result" per line, for comparison.
static void games_of(const Json *doc, char *buf, size_t n) {
    size_t len = 0;
    buf[0] = '\0';
    for (const Json *g = json_get(doc, "games")->child; g; g = g->next)
        len += (size_t)snprintf(buf + len, n - len, "%d %d %d %s\n",
                                (int)json_number(g, "game", -1), (int)json_number(g, "white", -1),
                                (int)json_number(g, "black", -1), json_string(g, "result", ""));
}

// Three shards merged give the same games and totals as one run of the whole match.
START_TEST(test_shards_merge) {
    char dir[] = "/tmp/tabula-match-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char args[1024], *out;
    const char *common = "--engine cmd=%T name=one depth=1 --engine cmd=%T name=two depth=2 "
                         "--games 10 --seed 5 --concurrency 2 --quiet";
    snprintf(args, sizeof args, "%s --json %s/all.json --pgn %s/all.pgn", common, dir, dir);
    ck_assert_int_eq(run(args, &out), 0);
    ck_assert_msg(strstr(out, "one vs two: 10 games"), "%s", out);
    free(out);
    for (int i = 1; i <= 3; i++) {
        snprintf(args, sizeof args, "%s --shard %d/3 --json %s/s%d.json", common, i, dir, i);
        ck_assert_int_eq(run(args, NULL), 0);
    }
    snprintf(args, sizeof args, "--merge %s/s1.json %s/s2.json %s/s3.json --json %s/m.json", dir,
             dir, dir, dir);
    ck_assert_int_eq(run(args, &out), 0);
    ck_assert_msg(strstr(out, "merged 3 files: 10 of 10 games"), "%s", out);
    free(out);

    char path[256];
    snprintf(path, sizeof path, "%s/all.json", dir);
    Json *all = load_json(path);
    snprintf(path, sizeof path, "%s/m.json", dir);
    Json *merged = load_json(path);
    snprintf(path, sizeof path, "%s/s2.json", dir);
    Json *s2 = load_json(path);
    int a[8], m[8];
    counts_of(all, a);
    counts_of(merged, m);
    ck_assert_int_eq(a[0] + a[1] + a[2], 10);
    ck_assert_int_eq(a[3] + a[4] + a[5] + a[6] + a[7], 5);
    for (int k = 0; k < 8; k++)
        ck_assert_int_eq(a[k], m[k]);
    static char ga[8192], gm[8192];
    games_of(all, ga, sizeof ga);
    games_of(merged, gm, sizeof gm);
    ck_assert_str_eq(ga, gm);
    // Games are numbered from 1, as in the records' Round tag.
    games_of(all, ga, sizeof ga);
    ck_assert_msg(!strncmp(ga, "1 ", 2) && strstr(ga, "\n10 ") && !strstr(ga, "\n0 "), "%s", ga);
    // Shard 2 of 3 holds the second and fifth pairs: games 3, 4, 9, 10.
    games_of(s2, ga, sizeof ga);
    ck_assert_msg(!strncmp(ga, "3 ", 2) && strstr(ga, "\n4 ") && strstr(ga, "\n9 ") &&
                      strstr(ga, "\n10 ") && !strstr(ga, "\n5 "),
                  "%s", ga);
    json_free(all);
    json_free(merged);
    json_free(s2);

    // The records: ten games with their tags.
    snprintf(path, sizeof path, "%s/all.pgn", dir);
    FILE *f = fopen(path, "r");
    char line[512];
    int events = 0, fens = 0, terms = 0;
    while (fgets(line, sizeof line, f)) {
        events += !strncmp(line, "[Event \"tabula match\"]", 22);
        fens += !strncmp(line, "[FEN \"", 6);
        terms += !strncmp(line, "[Termination \"", 14);
    }
    fclose(f);
    ck_assert_int_eq(events, 10);
    ck_assert_int_eq(fens, 10);
    ck_assert_int_eq(terms, 10);

    // Summaries of different matches do not merge.
    snprintf(args, sizeof args, "%s --seed 6 --games 2 --json %s/other.json", common, dir);
    ck_assert_int_eq(run(args, NULL), 0);
    snprintf(args, sizeof args, "--merge %s/s1.json %s/other.json", dir, dir);
    ck_assert_int_eq(run(args, &out), 2);
    ck_assert_ptr_nonnull(strstr(out, "not a summary of the same match"));
    free(out);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

// A faulty engine's losses are reported as faults; the SPRT stops a lopsided match early.
START_TEST(test_faults_and_sprt) {
    char *out;
    int status =
        run("--engine cmd=%T depth=1 --engine cmd=sh~data/fake_engine.sh~illegal name=fake depth=1 "
            "--games 400 --concurrency 2 --quiet --sprt elo0=0 elo1=50",
            &out);
    ck_assert_int_eq(status, 0);
    ck_assert_msg(strstr(out, "SPRT: H1 accepted"), "%s", out);
    ck_assert_msg(strstr(out, "fake: "), "%s", out);
    ck_assert_msg(strstr(out, "lost by an illegal move"), "%s", out);
    int games = -1;
    const char *p = strstr(out, "tabula vs fake: ");
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(sscanf(p, "tabula vs fake: %d games", &games), 1);
    ck_assert_int_lt(games, 400);
    ck_assert_int_ge(games, 10);
    free(out);
}
END_TEST

// Round robin and gauntlet schedules with three engines, and an openings file.
START_TEST(test_schedules) {
    char *out;
    ck_assert_int_eq(run("--engine cmd=%T name=a depth=1 --engine cmd=%T name=b depth=1 "
                         "--engine cmd=%T name=c depth=1 --games 2 --concurrency 2 --quiet",
                         &out),
                     0);
    ck_assert_msg(strstr(out, "a vs b: 2 games") && strstr(out, "a vs c: 2 games") &&
                      strstr(out, "b vs c: 2 games") && strstr(out, "standings:"),
                  "%s", out);
    ck_assert_msg(strstr(out, "6 games\n"), "%s", out);
    free(out);
    ck_assert_int_eq(run("--engine cmd=%T name=a depth=1 --engine cmd=%T name=b depth=1 "
                         "--engine cmd=%T name=c depth=1 --games 2 --gauntlet --quiet",
                         &out),
                     0);
    ck_assert_msg(strstr(out, "a vs b: 2 games") && strstr(out, "a vs c: 2 games") &&
                      !strstr(out, "b vs c"),
                  "%s", out);
    free(out);

    char path[] = "/tmp/tabula-openings-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char *book = "# two openings\nstartpos moves d7 g7\n\n"
                       "fen 3/3/3/6/3/3/3 w 9 9 0 1 moves a1\n";
    ck_assert_int_eq(write(fd, book, strlen(book)), (ssize_t)strlen(book));
    close(fd);
    char args[512];
    snprintf(args, sizeof args,
             "--engine cmd=%%T depth=1 --engine cmd=%%T depth=1 --games 4 --quiet "
             "--openings file:%s --maxplies 12",
             path);
    ck_assert_int_eq(run(args, &out), 0);
    ck_assert_msg(strstr(out, "tabula vs tabula-2: 4 games"), "%s", out);
    free(out);
    // An opening the rules refuse stops the match before it starts.
    fd = open(path, O_WRONLY | O_TRUNC);
    ck_assert_int_eq(write(fd, "d7 d7\n", 6), 6);
    close(fd);
    ck_assert_int_eq(run(args, &out), 2);
    ck_assert_msg(strstr(out, "opening 1 of"), "%s", out);
    free(out);
    unlink(path);
}
END_TEST

// Run the real binary (TABULA_BIN) as `tabula match ARGS...` with stdout and stderr on one
// pipe; return its pid and the pipe's read end in *fd.
static pid_t spawn_match(const char *const *args, int *fd) {
    const char *argv[32] = {tabula_bin(), "match"};
    int argc = 2;
    for (; args[argc - 2] && argc < 31; argc++)
        argv[argc] = args[argc - 2];
    argv[argc] = NULL;
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(p[1], STDOUT_FILENO);
        dup2(p[1], STDERR_FILENO);
        close(p[0]);
        close(p[1]);
        execv(argv[0], (char *const *)argv);
        _exit(126);
    }
    close(p[1]);
    *fd = p[0];
    return pid;
}

// Read fd to its end (or until wanted appears, when it is not NULL) within timeout seconds;
// return what was read, NUL-terminated (the caller frees).
static char *read_until(int fd, const char *wanted, double timeout) {
    size_t cap = 1 << 16, len = 0;
    char *text = calloc(cap, 1);
    double end = seconds() + timeout;
    while (len < cap - 1 && seconds() < end && !(wanted && strstr(text, wanted))) {
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        if (poll(&pfd, 1, 50) <= 0)
            continue;
        ssize_t got = read(fd, text + len, cap - 1 - len);
        if (got <= 0)
            break;
        len += (size_t)got;
        text[len] = '\0';
    }
    return text;
}

// Wait for pid to exit within timeout seconds (kill it after that) and return its exit status;
// -1 when it did not exit by itself.
static int wait_exit(pid_t pid, double timeout) {
    int status;
    double end = seconds() + timeout;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (seconds() > end) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -1;
        }
        sleep_ms(10);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// An engine that cannot start or finish its handshake stops the match before the first game:
// its own stderr, a line naming it, status 1. Through the real binary.
START_TEST(test_start_faults) {
    static const struct {
        const char *cmd, *stderr_text, *why;
    } CASES[] = {
        {"cmd=/nonexistent", "/nonexistent: not found", "command not found"},
        {"cmd=sh data/fake_engine.sh dead", "", "exit status 1) before 'uciok'"},
        {"cmd=echo oops >&2; exit 2", "oops", "exit status 2"},
        {"cmd=sh data/fake_engine.sh mute", "", "no 'uciok' within 300 ms"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        char good[600];
        snprintf(good, sizeof good, "cmd=%s", tabula_bin());
        const char *args[] = {"--engine", CASES[i].cmd,    "name=bad", "--engine",
                              good,       "--each",        "depth=1",  "--games",
                              "2",        "--movetimeout", "300",      NULL};
        int fd;
        double t0 = seconds();
        pid_t pid = spawn_match(args, &fd);
        char *out = read_until(fd, NULL, 20);
        close(fd);
        int status = wait_exit(pid, 5);
        ck_assert_msg(status == 1, "%s: status %d\n%s", CASES[i].cmd, status, out);
        ck_assert_msg(strstr(out, CASES[i].stderr_text) && strstr(out, CASES[i].why) &&
                          strstr(out, "tabula match: engine bad (") &&
                          strstr(out, "did not start") && strstr(out, "no game played"),
                      "%s:\n%s", CASES[i].cmd, out);
        ck_assert_msg(!strstr(out, "game 1/") && !strstr(out, "match: nine"), "%s:\n%s",
                      CASES[i].cmd, out);
        ck_assert_msg(seconds() - t0 < 10, "%s: took %.1f s", CASES[i].cmd, seconds() - t0);
        free(out);
    }
}
END_TEST

// A Ctrl-C (SIGINT) after a few games: the games in progress finish, the report follows with
// an honest interval (unknown, or a real range; never a point), and the status is 1.
START_TEST(test_interrupt) {
    char good[600];
    snprintf(good, sizeof good, "cmd=%s", tabula_bin());
    const char *args[] = {"--engine", good,  "--engine",   good, "--each", "depth=1",
                          "--games",  "200", "--maxplies", "40", NULL};
    int fd;
    pid_t pid = spawn_match(args, &fd);
    char *head = read_until(fd, "game 3/", 60);
    ck_assert_msg(strstr(head, "game 3/"), "no third game:\n%s", head);
    kill(pid, SIGINT);
    char *tail = read_until(fd, NULL, 60);
    close(fd);
    int status = wait_exit(pid, 10);
    ck_assert_msg(status == 1, "status %d\n%s%s", status, head, tail);
    const char *stop = strstr(tail, "interrupted after ");
    ck_assert_msg(stop, "%s%s", head, tail);
    int played = 0;
    ck_assert_int_eq(sscanf(stop, "interrupted after %d of", &played), 1);
    ck_assert_int_ge(played, 3);
    ck_assert_int_lt(played, 200);
    const char *elo = strstr(stop, "  Elo ");
    ck_assert_msg(elo, "%s", tail);
    char lo[32] = "", hi[32] = "";
    const char *open = strchr(elo, '[');
    if (strncmp(open, "[unknown]", 9)) {
        ck_assert_int_eq(sscanf(open, "[%31[^,], %31[^]]", lo, hi), 2);
        ck_assert_msg(strcmp(lo, hi), "a point interval: %.80s", elo);
    }
    free(head);
    free(tail);
}
END_TEST

Suite *match_suite(void) {
    Suite *s = suite_create("match");
    TCase *tc = tcase_create("json");
    tcase_add_test(tc, test_json_parse);
    tcase_add_test(tc, test_bad_arguments);
    suite_add_tcase(s, tc);
    tc = tcase_create("runs");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, test_shards_merge);
    tcase_add_test(tc, test_faults_and_sprt);
    tcase_add_test(tc, test_schedules);
    tcase_add_test(tc, test_start_faults);
    tcase_add_test(tc, test_interrupt);
    suite_add_tcase(s, tc);
    return s;
}
