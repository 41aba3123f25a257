// Whole sessions through pipes to the real binary, as a GUI drives it: one scripted session per
// dialect (UCI, UGI), a person's commands, the reply times of `isready` and `stop` during a
// search, and a table of hostile lines. The binary is ../tabula (the tests run from tests/;
// `make check` builds it first), or $TABULA_BIN; a missing binary fails the suite.
#include "tests/suites.h"

#include "tests/helpers.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ERROR_PREFIX "info string error: "
// How long a reply may take at most: isready and stop answer within 50 ms (the contract).
#define REPLY_LIMIT 0.050
// How long to wait for anything before failing: generous, for a loaded machine.
#define WAIT 10.0
#define NINE_START "3/3/3/6/3/3/3 w 9 9 0 1"
#define NINE_18 "d7 g7 g4 a7 a4 g1 f6 d6 b6 d2 f2 a1 e5 c5 c4 d5 e3 c3"
#define SANMILL_START "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"

typedef struct Engine {
    pid_t pid;
    int in, out; // the engine's stdin (we write) and stdout (we read)
    char *buf;   // read but not yet taken
    size_t len, cap;
    char *log; // every line read, for failure messages
    size_t log_len, log_cap;
} Engine;

static const char *engine_path(void) {
    const char *env = getenv("TABULA_BIN");
    return env && *env ? env : "../tabula";
}

// Start the engine with its stdin and stdout on pipes; it dies with the test process.
static void engine_start(Engine *e) {
    const char *path = engine_path();
    ck_assert_msg(access(path, X_OK) == 0, "no engine binary at %s (make check builds it)", path);
    signal(SIGPIPE, SIG_IGN);
    int to[2], from[2];
    ck_assert(pipe(to) == 0 && pipe(from) == 0);
    pid_t parent = getpid();
    e->pid = fork();
    ck_assert(e->pid >= 0);
    if (e->pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(126);
        dup2(to[0], STDIN_FILENO);
        dup2(from[1], STDOUT_FILENO);
        close(to[0]), close(to[1]), close(from[0]), close(from[1]);
        execl(path, "tabula", (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    e->in = to[1];
    e->out = from[0];
    e->buf = e->log = NULL;
    e->len = e->cap = e->log_len = e->log_cap = 0;
}

// The end of what the engine wrote, for failure messages.
static const char *log_tail(const Engine *e) {
    if (!e->log)
        return "(nothing)";
    return e->log_len > 1500 ? e->log + e->log_len - 1500 : e->log;
}

static void append(char **s, size_t *len, size_t *cap, const char *data, size_t n) {
    if (*len + n + 1 > *cap) {
        *cap = (*len + n + 1) * 2;
        *s = realloc(*s, *cap);
        ck_assert_ptr_nonnull(*s);
    }
    memcpy(*s + *len, data, n);
    *len += n;
    (*s)[*len] = '\0';
}

// Write n bytes and a newline.
static void send_bytes(Engine *e, const char *data, size_t n) {
    char nl = '\n';
    for (size_t done = 0; done < n;) {
        ssize_t k = write(e->in, data + done, n - done);
        ck_assert_msg(k > 0 || errno == EINTR, "the engine closed its input: %s", log_tail(e));
        if (k > 0)
            done += (size_t)k;
    }
    ck_assert_msg(write(e->in, &nl, 1) == 1, "the engine closed its input: %s", log_tail(e));
}

static void send_line(Engine *e, const char *line) { send_bytes(e, line, strlen(line)); }

// Read one line (without its newline) within timeout seconds; NULL at a timeout or end of
// output. The caller frees it.
static char *read_line(Engine *e, double timeout) {
    double end = seconds() + timeout;
    for (;;) {
        char *nl = e->buf ? memchr(e->buf, '\n', e->len) : NULL;
        if (nl) {
            size_t n = (size_t)(nl - e->buf);
            char *line = strndup(e->buf, n);
            ck_assert_ptr_nonnull(line);
            append(&e->log, &e->log_len, &e->log_cap, e->buf, n + 1);
            memmove(e->buf, nl + 1, e->len - n - 1);
            e->len -= n + 1;
            return line;
        }
        double left = end - seconds();
        if (left <= 0)
            return NULL;
        struct pollfd p = {e->out, POLLIN, 0};
        int r = poll(&p, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            continue;
        char chunk[65536];
        ssize_t k = read(e->out, chunk, sizeof chunk);
        if (k <= 0)
            return NULL;
        append(&e->buf, &e->len, &e->cap, chunk, (size_t)k);
    }
}

// Read lines until one starts with prefix; return all of them, '\n'-terminated (the caller
// frees). Fails the test when none comes within timeout.
static char *expect(Engine *e, const char *prefix, double timeout) {
    char *text = NULL;
    size_t len = 0, cap = 0;
    append(&text, &len, &cap, "", 0);
    double end = seconds() + timeout;
    for (;;) {
        char *line = read_line(e, end - seconds());
        ck_assert_msg(line != NULL, "no '%s' within %.1f s; the engine wrote:\n%s", prefix, timeout,
                      log_tail(e));
        append(&text, &len, &cap, line, strlen(line));
        append(&text, &len, &cap, "\n", 1);
        bool found = !strncmp(line, prefix, strlen(prefix));
        free(line);
        if (found)
            return text;
    }
}

// Send a line and time its reply, a line starting with prefix; return the seconds taken.
static double timed(Engine *e, const char *line, const char *prefix, char **text) {
    double t0 = seconds();
    send_line(e, line);
    char *reply = expect(e, prefix, WAIT);
    double t = seconds() - t0;
    if (text)
        *text = reply;
    else
        free(reply);
    return t;
}

// Send isready and return everything before readyok.
static char *sync_engine(Engine *e) {
    send_line(e, "isready");
    char *text = expect(e, "readyok", WAIT);
    text[strlen(text) - strlen("readyok\n")] = '\0';
    return text;
}

// Send quit and check that the engine exits with status 0; kill it if it does not.
static void engine_quit(Engine *e) {
    send_line(e, "quit");
    double end = seconds() + WAIT;
    int status = 0;
    pid_t r;
    while ((r = waitpid(e->pid, &status, WNOHANG)) == 0 && seconds() < end)
        sleep_ms(1);
    if (r == 0) {
        kill(e->pid, SIGKILL);
        waitpid(e->pid, &status, 0);
    }
    ck_assert_msg(r == e->pid, "the engine did not exit after quit");
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the engine exited with %d",
                  status);
    close(e->in);
    close(e->out);
    free(e->buf);
    free(e->log);
}

// Whether word is one of the space-separated words of list.
static bool has_word(const char *list, const char *word) {
    char copy[8192];
    snprintf(copy, sizeof copy, "%s", list);
    for (char *save, *w = strtok_r(copy, " \n", &save); w; w = strtok_r(NULL, " \n", &save))
        if (!strcmp(w, word))
            return true;
    return false;
}

// The legal moves of the engine's position, as `moves` lists them.
static char *legal_moves(Engine *e) {
    send_line(e, "moves");
    char *line = read_line(e, WAIT);
    ck_assert_msg(line != NULL, "no reply to moves: %s", log_tail(e));
    return line;
}

// Check that text holds exactly one bestmove line, the last one, with tokens words (2 in UGI,
// 2 or 4 in UCI), its move one of legal; copy the move into best.
static void check_bestmove(const char *text, const char *legal, bool ugi, char *best, size_t n) {
    char rest[256], a[64] = "", kw[64] = "", b[64] = "", extra[64] = "";
    ck_assert_msg(count_prefix(text, "bestmove") == 1, "not one bestmove in:\n%s", text);
    ck_assert(line_after(text, "bestmove ", rest, sizeof rest));
    int k = sscanf(rest, "%63s %63s %63s %63s", a, kw, b, extra);
    if (ugi)
        ck_assert_msg(k == 1, "UGI bestmove with %d tokens: 'bestmove %s'", k + 1, rest);
    else
        ck_assert_msg(k == 1 || (k == 3 && !strcmp(kw, "ponder")), "bad 'bestmove %s'", rest);
    ck_assert_msg(has_word(legal, a), "bestmove %s is not one of: %s", a, legal);
    if (best)
        snprintf(best, n, "%s", a);
}

// Every line of a session's output is a protocol line (or the reply to `moves`).
static void check_protocol_lines(const char *text) {
    static const char *const prefixes[] = {"id name ", "id author ", "option name ",
                                           "uciok",    "ugiok",      "readyok",
                                           "info ",    "bestmove ",  "response "};
    for (const char *l = text; *l;) {
        bool ok = false;
        for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0] && !ok; i++)
            ok = !strncmp(l, prefixes[i], strlen(prefixes[i]));
        ok |= strspn(l, "abcdefg1234567x- ") == strcspn(l, "\n");
        ck_assert_msg(ok, "not a protocol line: %.100s", l);
        const char *end = strchr(l, '\n');
        if (!end)
            break;
        l = end + 1;
    }
}

// ---------------------------------------------------------------------------------------------
// The binary is there

START_TEST(test_binary_present) {
    Engine e;
    engine_start(&e);
    char *text = sync_engine(&e);
    ck_assert_str_eq(text, "");
    free(text);
    engine_quit(&e);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Reply times during a search: isready and stop within 50 ms, measured from writing the line
// to reading the reply.

static void check_reply_times(Engine *e, const char *go, bool ugi) {
    char *legal = legal_moves(e);
    send_line(e, go);
    sleep_ms(100);
    for (int i = 0; i < 5; i++) {
        char *text;
        double t = timed(e, "isready", "readyok", &text);
        ck_assert_msg(count_prefix(text, "bestmove") == 0, "'%s' ended by itself:\n%s", go, text);
        ck_assert_msg(t < REPLY_LIMIT, "readyok %.1f ms after isready during '%s'", t * 1000, go);
        free(text);
        sleep_ms(20);
    }
    char *text;
    double t = timed(e, "stop", "bestmove", &text);
    ck_assert_msg(t < REPLY_LIMIT, "bestmove %.1f ms after stop during '%s'", t * 1000, go);
    check_bestmove(text, legal, ugi, NULL, 0);
    free(text);
    free(legal);
}

// ---------------------------------------------------------------------------------------------
// A whole UCI session

START_TEST(test_uci_session) {
    Engine e;
    char best[64], line[512], *text;
    engine_start(&e);
    send_line(&e, "uci");
    text = expect(&e, "uciok", WAIT);
    ck_assert_msg(!strncmp(text, "id name tabula ", 15), "%s", text);
    ck_assert(count_prefix(text, "id author ") == 1);
    ck_assert(count_prefix(text, "option name UCI_Variant type combo default nine ") == 1);
    ck_assert(count_prefix(text, "option name Hash type spin ") == 1);
    ck_assert(count_prefix(text, "option name Ponder type check ") == 1);
    free(text);

    send_line(&e, "setoption name Hash value 32");
    send_line(&e, "setoption name Ponder value true");
    send_line(&e, "setoption name UCI_Variant value nine");
    send_line(&e, "setoption name Move Overhead value 10");
    text = sync_engine(&e);
    ck_assert_str_eq(text, "");
    free(text);
    send_line(&e, "ucinewgame");
    text = sync_engine(&e);
    ck_assert_str_eq(text, "");
    free(text);

    // A move on the clock.
    send_line(&e, "position startpos moves d7 g7");
    char *legal = legal_moves(&e);
    double t0 = seconds();
    send_line(&e, "go wtime 2000 btime 2000 winc 20 binc 20");
    text = expect(&e, "bestmove", WAIT);
    ck_assert_msg(seconds() - t0 < 1.5, "%.2f s for a move with 2 s on the clock", seconds() - t0);
    ck_assert_msg(count_prefix(text, "info depth ") >= 1, "%s", text);
    check_bestmove(text, legal, false, best, sizeof best);
    free(text);
    free(legal);

    // The GUI plays the move and a reply, then an infinite search with isready and stop.
    snprintf(line, sizeof line, "position startpos moves d7 g7 %s", best);
    send_line(&e, line);
    legal = legal_moves(&e);
    size_t len = strlen(line);
    snprintf(line + len, sizeof line - len, " %.*s", (int)strcspn(legal, " "), legal);
    free(legal);
    send_line(&e, line);
    check_reply_times(&e, "go infinite", false);

    // Pondering: no answer before ponderhit, an answer on the clock after it.
    legal = legal_moves(&e);
    send_line(&e, "go ponder wtime 1000 btime 1000 winc 10 binc 10");
    sleep_ms(200);
    text = sync_engine(&e);
    ck_assert_msg(count_prefix(text, "bestmove") == 0, "the ponder search ended:\n%s", text);
    free(text);
    t0 = seconds();
    send_line(&e, "ponderhit");
    text = expect(&e, "bestmove", WAIT);
    ck_assert_msg(seconds() - t0 < 1.0, "%.2f s after ponderhit with 1 s on the clock",
                  seconds() - t0);
    check_bestmove(text, legal, false, NULL, 0);
    free(text);

    // A ponder miss: stop answers at once.
    send_line(&e, "go ponder wtime 1000 btime 1000");
    sleep_ms(50);
    double t = timed(&e, "stop", "bestmove", &text);
    ck_assert_msg(t < REPLY_LIMIT, "bestmove %.1f ms after stop while pondering", t * 1000);
    check_bestmove(text, legal, false, NULL, 0);
    free(text);

    // A fixed depth, then a new game in another variant.
    send_line(&e, "go depth 4");
    text = expect(&e, "bestmove", WAIT);
    ck_assert_msg(count_prefix(text, "info depth 4 ") >= 1, "%s", text);
    check_bestmove(text, legal, false, NULL, 0);
    free(text);
    free(legal);
    send_line(&e, "setoption name UCI_Variant value six");
    send_line(&e, "ucinewgame");
    send_line(&e, "position startpos moves a5 b4");
    legal = legal_moves(&e);
    send_line(&e, "go movetime 100");
    text = expect(&e, "bestmove", WAIT);
    check_bestmove(text, legal, false, NULL, 0);
    free(text);
    free(legal);
    text = sync_engine(&e);
    free(text);
    check_protocol_lines(e.log);
    ck_assert(strstr(e.log, ERROR_PREFIX) == NULL);
    engine_quit(&e);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// A whole UGI session, as cutegames drives it

static void query(Engine *e, const char *what, const char *answer) {
    char line[64], want[64];
    snprintf(line, sizeof line, "query %s", what);
    send_line(e, line);
    char *reply = read_line(e, WAIT);
    snprintf(want, sizeof want, "response %s", answer);
    ck_assert_msg(reply && !strcmp(reply, want), "'%s' answered '%s', not '%s'", line,
                  reply ? reply : "(nothing)", want);
    free(reply);
}

START_TEST(test_ugi_session) {
    Engine e;
    char best[64], line[256], *text;
    engine_start(&e);
    send_line(&e, "ugi");
    text = expect(&e, "ugiok", WAIT);
    ck_assert_msg(!strncmp(text, "id name tabula ", 15), "%s", text);
    ck_assert(count_prefix(text, "option name ") >= 10 && count_prefix(text, "uciok") == 0);
    free(text);
    send_line(&e, "setoption name Hash value 8");
    text = sync_engine(&e);
    ck_assert_str_eq(text, "");
    free(text);
    send_line(&e, "uginewgame");
    send_line(&e, "position startpos");
    query(&e, "p1turn", "true");
    query(&e, "gameover", "false");
    query(&e, "result", "none");

    // p1time/p2time/p1inc/p2inc, and a bestmove of exactly two tokens.
    char *legal = legal_moves(&e);
    double t0 = seconds();
    send_line(&e, "go p1time 1000 p2time 1000 p1inc 10 p2inc 10");
    text = expect(&e, "bestmove", WAIT);
    ck_assert_msg(seconds() - t0 < 1.0, "%.2f s for a move with 1 s on the clock", seconds() - t0);
    check_bestmove(text, legal, true, best, sizeof best);
    free(text);
    free(legal);
    snprintf(line, sizeof line, "position startpos moves %s", best);
    send_line(&e, line);
    query(&e, "p1turn", "false");
    query(&e, "result", "none");
    legal = legal_moves(&e);
    send_line(&e, "go depth 4");
    text = expect(&e, "bestmove", WAIT);
    check_bestmove(text, legal, true, NULL, 0);
    free(text);
    free(legal);
    send_line(&e, "go movetime 100");
    text = expect(&e, "bestmove", WAIT);
    ck_assert_int_eq(count_prefix(text, "bestmove "), 1);
    free(text);
    check_reply_times(&e, "go infinite", true);

    // Finished games: a win for each side and a draw.
    send_line(&e, "setoption name UCI_Variant value three");
    send_line(&e, "uginewgame");
    send_line(&e, "position startpos moves a1 a2 b1 b2 c1");
    query(&e, "gameover", "true");
    query(&e, "result", "p1win");
    query(&e, "p1turn", "false");
    send_line(&e, "go depth 3");
    text = expect(&e, "bestmove", WAIT);
    ck_assert_msg(!strcmp(text, "bestmove (none)\n"), "%s", text);
    free(text);
    send_line(&e, "position startpos moves a1 a2 b3 b2 c3 c2");
    query(&e, "gameover", "true");
    query(&e, "result", "p2win");
    query(&e, "p1turn", "true");
    send_line(&e, "setoption name UCI_Variant value nine");
    send_line(&e, "setoption name NMoveRule value 4");
    send_line(&e, "position fen W1W/W2/3/6/3/2B/B1B w 0 0 4 20");
    query(&e, "gameover", "true");
    query(&e, "result", "draw");
    // An unknown query is an error, and the session goes on.
    send_line(&e, "query colour");
    text = sync_engine(&e);
    ck_assert_msg(count_prefix(text, ERROR_PREFIX) == 1 && !strchr(strchr(text, '\n') + 1, '\n'),
                  "%s", text);
    free(text);
    query(&e, "p1turn", "true");
    engine_quit(&e);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// A person's commands through the pipe

static void position_is(Engine *e, const char *fen) {
    char got[128];
    send_line(e, "d");
    char *text = expect(e, "Result: ", WAIT);
    ck_assert(line_after(text, "Position: ", got, sizeof got));
    ck_assert_msg(!strcmp(got, fen), "position %s, not %s", got, fen);
    free(text);
}

// The first bear-off evaluation of a fresh process: one checker each on its 1-point, the
// player on roll wins. (The database's index tables were once read before they were built,
// so the first answer of every process said 0; later ones were right.)
START_TEST(test_first_bearoff_eval) {
    Engine e;
    engine_start(&e);
    send_line(&e, "setoption name UCI_Variant value backgammon");
    send_line(&e, "position xgid XGID=-A----------------------a-:0:0:1:00:0:0:0:0:10");
    for (int k = 0; k < 2; k++) {
        send_line(&e, "eval");
        char *text = expect(&e, "equity", WAIT);
        ck_assert_msg(strstr(text, "bear-off database") &&
                          strstr(text, "probs       1.0000 0.0000 0.0000 0.0000 0.0000"),
                      "eval %d: %s", k + 1, text);
        free(text);
    }
    engine_quit(&e);
}
END_TEST

START_TEST(test_person_session) {
    Engine e;
    char *text;
    engine_start(&e);
    send_line(&e, "new");
    send_line(&e, "move d7");
    send_line(&e, "move g7");
    send_line(&e, "move zz");
    text = sync_engine(&e);
    ck_assert_msg(count_prefix(text, ERROR_PREFIX) == 1, "%s", text);
    free(text);
    position_is(&e, "1WB/3/3/6/3/3/3 w 8 8 0 2");
    send_line(&e, "undo");
    position_is(&e, "1W1/3/3/6/3/3/3 b 8 9 0 1");
    send_line(&e, "play movetime 100");
    text = expect(&e, "bestmove", WAIT);
    free(text);
    send_line(&e, "d");
    text = expect(&e, "Result: ", WAIT);
    ck_assert_msg(strstr(text, "b 8 9 0 1") == NULL && strstr(text, " w 8 8 0 2") != NULL,
                  "the engine's move is not on the board:\n%s", text);
    free(text);
    send_line(&e, "undo");
    send_line(&e, "undo");
    position_is(&e, NINE_START);
    send_line(&e, "undo");
    text = sync_engine(&e);
    ck_assert_msg(count_prefix(text, ERROR_PREFIX "undo") == 1, "%s", text);
    free(text);
    // A Sanmill position, then moves with a removal written as its own token.
    send_line(&e, "position fen O*O*****/**@*****/@******* w p p 2 7 2 7 0 0 0 0 0 0 0 0 4");
    position_is(&e, "1B1/3/1W1/3WB1/3/3/3 w 7 7 0 4");
    send_line(&e, "move a1");
    send_line(&e, "move g1");
    send_line(&e, "move a4");
    send_line(&e, "move d6");
    send_line(&e, "move a7 xd7");
    position_is(&e, "W2/1B1/1W1/W2WB1/3/3/W1B b 4 5 0 6");
    send_line(&e, "undo");
    position_is(&e, "1B1/1B1/1W1/W2WB1/3/3/W1B w 5 5 0 6");
    engine_quit(&e);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Hostile input: each row is a fresh engine, a setup, the line, then isready. The line gets
// exactly `errors` error lines and nothing else but search output; `d` and the handshake's
// option list are the same before and after; isready still answers.

typedef enum Big {
    BIG_NONE,
    BIG_TOKEN,
    BIG_TOKENS,
    BIG_MOVES,
    BIG_FEN,
    BIG_NAME,
    BIG_SEARCHMOVES
} Big;

typedef struct Hostile {
    const char *setup; // lines sent first, '\n'-separated; NULL for none
    const char *line;  // the hostile bytes, without the newline
    size_t len;        // their length when they hold a NUL byte, else 0
    Big big;           // a 1 MB line made at run time instead of line
    int errors;        // error lines due: 0 or 1
    bool search;       // a search runs (from the setup or the line): one bestmove in all
} Hostile;

#define ERR(s)                                                                                     \
    { NULL, s, 0, BIG_NONE, 1, false }
#define ERR_IN(setup, s)                                                                           \
    { setup, s, 0, BIG_NONE, 1, false }
#define RAW(s)                                                                                     \
    { NULL, s, sizeof(s) - 1, BIG_NONE, 1, false }
#define QUIET(s)                                                                                   \
    { NULL, s, 0, BIG_NONE, 0, false }
#define SEARCHING "position fen 1WB/3/3/6/3/3/3 w 8 8 0 2\ngo infinite"
#define DURING(s, n)                                                                               \
    { SEARCHING, s, 0, BIG_NONE, n, true }
#define BIGLINE(kind)                                                                              \
    { NULL, NULL, 0, kind, 1, false }
#define SIX "setoption name UCI_Variant value six"
#define UGI_SETUP "ugi\nposition startpos moves d7"

static const Hostile HOSTILE[] = {
    // Unknown commands.
    ERR("foo"),
    ERR("Isready"),
    ERR("ISREADY"),
    ERR("isready2"),
    ERR("uci_"),
    ERR("D"),
    ERR("quitx"),
    ERR("ugi2"),
    ERR("register later"),
    ERR("stopp"),
    ERR("123"),
    ERR("-"),
    ERR("!@#$%^&*()"),
    ERR("position\\ startpos"),
    ERR("\"uci\""),
    // Bad option values and option names.
    ERR("setoption"),
    ERR("setoption name"),
    ERR("setoption UCI_Variant value six"),
    ERR("setoption name Foo value 1"),
    ERR("setoption name Flying value yes"),
    ERR("setoption name Flying value 1"),
    ERR("setoption name NMoveRule value 10001"),
    ERR("setoption name NMoveRule value -1"),
    ERR("setoption name NMoveRule value 1e3"),
    ERR("setoption name Hash value 0"),
    ERR("setoption name Hash value 65537"),
    ERR("setoption name Hash value 99999999999999999999"),
    ERR("setoption name Threads value 0"),
    ERR("setoption name MultiPV value 65"),
    ERR("setoption name Move Overhead value -1"),
    ERR("setoption name Ponder value maybe"),
    ERR("setoption name UCI_ShowWDL value 2"),
    ERR("setoption name Repetition"),
    // Wrong variant ids.
    ERR("setoption name UCI_Variant value chess"),
    ERR("setoption name UCI_Variant value backgammonx"),
    ERR("setoption name UCI_Variant value nine extra"),
    ERR("setoption name UCI_Variant value"),
    ERR("setoption name UCI_Variant value ninemen"),
    ERR("setoption name UCI_Variant value 9"),
    ERR("setoption name UCI_Variant value nine-men"),
    // Bad tabula position strings.
    ERR("position"),
    ERR("position foo"),
    ERR("position STARTPOS"),
    ERR("position startpos garbage"),
    ERR("position fen"),
    ERR("position fen moves d7"),
    ERR("position fen garbage"),
    ERR("position fen 3/3/3 w 3 3 0 1"),
    ERR("position fen 3/3/3/6/3/3 w 9 9 0 1"),
    ERR("position fen 3/3/3/7/3/3/3 w 9 9 0 1"),
    ERR("position fen 3/3/3/6/3/3/3/3 w 9 9 0 1"),
    ERR("position fen 3/3/3/6/3/3/3 x 9 9 0 1"),
    ERR("position fen 3/3/3/6/3/3/3 w 10 9 0 1"),
    ERR("position fen 3/3/3/6/3/3/3 w -1 9 0 1"),
    ERR("position fen 3/3/3/6/3/3/3 w 9 9 0 0"),
    ERR("position fen 3/3/3/6/3/3/3 w 9"),
    ERR("position fen 3/3/3/6/3/3/3 w 9 9 0 1 extra"),
    ERR("position fen WWW/WWW/WWW/6/3/3/3 b 1 9 0 1"),
    ERR("position fen W/3/3/6/3/3/3 w 8 9 0 1"),
    // Bad Sanmill positions.
    ERR("position fen ********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0"),
    ERR("position fen ********/********/******* w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"),
    ERR("position fen ********/********/********* w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"),
    ERR("position fen ********-********-******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"),
    ERR("position fen X*******/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"),
    ERR("position fen Q*******/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"),
    ERR("position fen ********/********/******** x p p 0 9 0 9 0 0 0 0 0 0 0 0 1"),
    ERR("position fen ********/********/******** w z p 0 9 0 9 0 0 0 0 0 0 0 0 1"),
    ERR("position fen O@O*****/********/******** w p r 2 7 1 8 1 0 0 0 0 0 0 0 3"),
    ERR("position fen O*******/********/******** w p p 2 8 0 9 0 0 0 0 0 0 0 0 1"),
    ERR("position fen ********/********/******** w p p 0 9 0 9 0 1 0 0 0 0 0 0 1"),
    ERR("position fen ********/********/******** w p p 0 10 0 9 0 0 0 0 0 0 0 0 1"),
    ERR("position fen ********/********/******** w p p 0 9 0 9 0 0 5 0 0 0 0 0 1"),
    ERR("position fen ********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1"),
    ERR("position fen ********/********/******** w p p 0 9 0 9 0 0 24 0 0 0 0 0 1 ids:nodes"),
    ERR("position fen ********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 -1 0 1"),
    ERR("position fen ********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 255 0 1"),
    ERR("position fen ********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 a 1"),
    ERR("position fen ********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 foo"),
    ERR("position fen ********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 c:w-1-8|b-0-"),
    ERR_IN(SIX, "position fen " SANMILL_START),
    ERR("position fen " SANMILL_START " moves d7 d7"),
    // Illegal and half-valid move lists.
    ERR("position startpos moves d7 d7"),
    ERR("position startpos moves z9"),
    ERR("position startpos moves d7-g7"),
    ERR("position startpos moves d7xa1"),
    ERR("position startpos moves xd7"),
    ERR("position startpos moves d7 a1 g7 a4 a7"),
    ERR("position startpos moves d7 a1 g7 a4 a7xd7"),
    ERR("position startpos moves d7 a1 g7 a4 a7 xa1 xa4"),
    ERR("position startpos moves " NINE_18 " a7-a4"),
    ERR("position startpos moves " NINE_18 " b6-b4"),
    ERR("position startpos moves d7,g7"),
    ERR("position startpos moves d7 moves g7"),
    // A person's commands.
    ERR("move"),
    ERR("move zz"),
    ERR("move d7 g7"),
    ERR("move xd7"),
    ERR("move d7-g7"),
    ERR("undo"),
    ERR("undo 2"),
    ERR("play infinite"),
    ERR("play ponder movetime 10"),
    ERR("play foo"),
    ERR("play depth 0"),
    ERR("play searchmoves d7"),
    ERR_IN("setoption name UCI_Variant value three\nposition fen WWW/3/BB1 b 0 1 0 3", "play"),
    ERR_IN("position startpos moves d7", "move d7"),
    // go arguments.
    ERR("go depth"),
    ERR("go depth 0"),
    ERR("go foo"),
    ERR("go searchmoves zz"),
    ERR("go p1time abc"),
    ERR("go movetime -1"),
    ERR("go nodes 0"),
    ERR("go depth 99999999999999999999"),
    ERR("go Depth 3"),
    // UGI.
    ERR_IN(UGI_SETUP, "query"),
    ERR_IN(UGI_SETUP, "query foo"),
    ERR_IN(UGI_SETUP, "query gameover extra"),
    ERR_IN(UGI_SETUP, "query P1TURN"),
    ERR_IN(UGI_SETUP, "uginewgame2"),
    // The engine's extras.
    ERR("debug"),
    ERR("debug maybe"),
    ERR("help foo"),
    ERR("help go extra"),
    ERR("perft 0"),
    ERR("perft 65"),
    ERR("bench 0"),
    ERR("bench x"),
    // NUL and bytes that are not UTF-8 or not printable.
    RAW("isready\0junk"),
    RAW("\0"),
    RAW("position startpos moves d7\0 g7"),
    RAW("quit\0"),
    ERR("\xff\xfe"),
    ERR("\xc3\x28"),
    ERR("\xe2\x82"),
    ERR("position fen \xff\xfe w 9 9 0 1"),
    ERR("setoption name \xff value 1"),
    ERR("setoption name UCI_Variant value \xc0\xaf"),
    ERR("position startpos moves d7 \xed\xa0\x80"),
    ERR("\x1b[2J\x07"),
    // 1 MB lines.
    BIGLINE(BIG_TOKEN),
    BIGLINE(BIG_TOKENS),
    BIGLINE(BIG_MOVES),
    BIGLINE(BIG_FEN),
    BIGLINE(BIG_NAME),
    BIGLINE(BIG_SEARCHMOVES),
    // Valid but out of place: go before position, stop and ponderhit while idle.
    {NULL, "go depth 2", 0, BIG_NONE, 0, true},
    QUIET("stop"),
    QUIET("ponderhit"),
    // Commands during a search.
    DURING("foo", 1),
    DURING("position garbage", 1),
    DURING("setoption name Hash value 0", 1),
    DURING("go depth 0", 1),
    DURING("move zz", 1),
    DURING("undo", 1),
    DURING("\xff", 1),
    DURING("help nothing", 1),
    DURING("ponderhit", 0),
    DURING("debug off", 0),
    DURING("perft x", 1),
};

#define NHOSTILE (int)(sizeof HOSTILE / sizeof HOSTILE[0])

// Make a 1 MB line of the given kind; the caller frees it.
static char *big_line(Big kind, size_t *len) {
    enum { MB = 1 << 20 };
    static const char *const heads[] = {
        [BIG_TOKEN] = "",
        [BIG_TOKENS] = "",
        [BIG_MOVES] = "position startpos moves ",
        [BIG_FEN] = "position fen ",
        [BIG_NAME] = "setoption name ",
        [BIG_SEARCHMOVES] = "go depth 1 searchmoves d7 ",
    };
    char *s = malloc(MB + 64);
    ck_assert_ptr_nonnull(s);
    strcpy(s, heads[kind]);
    size_t n = strlen(s);
    for (; n < MB; n++)
        switch (kind) {
        case BIG_TOKEN:
            s[n] = 'j';
            break;
        case BIG_NAME:
            s[n] = 'a';
            break;
        case BIG_FEN:
            s[n] = n % 2 ? '/' : '3';
            break;
        default: // tokens of junk, junk moves
            s[n] = n % 3 == 2 ? ' ' : 'z';
            break;
        }
    s[n] = '\0';
    *len = n;
    return s;
}

// Write a line for a message: bytes outside printable ASCII as \xHH, at most 80 of them.
static const char *escaped(const char *s, size_t n, char *buf, size_t size) {
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && i < 80 && len + 5 < size; i++) {
        unsigned char c = (unsigned char)s[i];
        len +=
            (size_t)snprintf(buf + len, size - len, c >= 0x20 && c <= 0x7e ? "%c" : "\\x%02x", c);
    }
    return buf;
}

// The state as the engine shows it: `d` and the option list of the dialect's handshake.
static char *snapshot(Engine *e, bool ugi) {
    send_line(e, "d");
    char *d = expect(e, "Result: ", WAIT);
    send_line(e, ugi ? "ugi" : "uci");
    char *options = expect(e, ugi ? "ugiok" : "uciok", WAIT);
    char *all = malloc(strlen(d) + strlen(options) + 1);
    ck_assert_ptr_nonnull(all);
    strcpy(all, d);
    strcat(all, options);
    free(d);
    free(options);
    // Search output may fall between the lines of a snapshot: keep only the state.
    char *w = all;
    for (char *l = all; *l;) {
        char *end = strchr(l, '\n');
        size_t n = end ? (size_t)(end - l + 1) : strlen(l);
        if (strncmp(l, "info ", 5) && strncmp(l, "bestmove ", 9)) {
            memmove(w, l, n);
            w += n;
        }
        l += n;
    }
    *w = '\0';
    return all;
}

START_TEST(test_hostile) {
    const Hostile *h = &HOSTILE[_i];
    char name[400];
    size_t len = h->len ? h->len : h->line ? strlen(h->line) : 0;
    char *big = h->big ? big_line(h->big, &len) : NULL;
    const char *line = big ? big : h->line;
    escaped(line, len, name, sizeof name);
    bool ugi = h->setup && !strncmp(h->setup, "ugi", 3);

    Engine e;
    engine_start(&e);
    if (h->setup) {
        char *copy = strdup(h->setup);
        ck_assert_ptr_nonnull(copy);
        for (char *save, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
            send_line(&e, l);
        free(copy);
    }
    char *text = sync_engine(&e);
    ck_assert_msg(count_prefix(text, ERROR_PREFIX) == 0, "the setup of '%s' failed:\n%s", name,
                  text);
    free(text);
    char *before = snapshot(&e, ugi);

    send_bytes(&e, line, len);
    char *reply = sync_engine(&e);
    int errors = count_prefix(reply, ERROR_PREFIX);
    ck_assert_msg(errors == h->errors, "'%s' gave %d error lines, not %d:\n%.2000s", name, errors,
                  h->errors, reply);
    for (const char *l = reply; *l; l = strchr(l, '\n') + 1)
        ck_assert_msg(!strncmp(l, "info ", 5) || !strncmp(l, "bestmove ", 9),
                      "'%s' gave an unexpected line:\n%.2000s", name, reply);
    ck_assert_msg(strlen(reply) < 4096 || h->search, "'%s' gave a long reply", name);
    free(reply);

    char *after = snapshot(&e, ugi);
    ck_assert_msg(!strcmp(before, after), "'%s' changed the state:\n%s\n---\n%s", name, before,
                  after);
    free(before);
    free(after);
    // A search still running ends on stop; one bestmove in all when one was due.
    send_line(&e, "stop");
    text = sync_engine(&e);
    free(text);
    int bestmoves = count_prefix(e.log, "bestmove ");
    ck_assert_msg(bestmoves == (h->search ? 1 : 0), "'%s': %d bestmove lines:\n%s", name, bestmoves,
                  log_tail(&e));
    ck_assert_msg(count_prefix(e.log, ERROR_PREFIX) == h->errors, "'%s':\n%s", name, log_tail(&e));
    engine_quit(&e);
    free(big);
}
END_TEST

Suite *session_suite(void) {
    Suite *s = suite_create("session");
    TCase *tc = tcase_create("dialects");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_binary_present);
    tcase_add_test(tc, test_uci_session);
    tcase_add_test(tc, test_ugi_session);
    tcase_add_test(tc, test_person_session);
    tcase_add_test(tc, test_first_bearoff_eval);
    suite_add_tcase(s, tc);

    tc = tcase_create("hostile");
    tcase_set_timeout(tc, 20);
    tcase_add_loop_test(tc, test_hostile, 0, NHOSTILE);
    suite_add_tcase(s, tc);
    return s;
}
