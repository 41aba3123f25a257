// The real binary through pipes, driven as a GUI drives it: one scripted game per dialect (UCI,
// UGI), a person's commands, the reply times of `isready` and `stop` during a search, and a table
// of hostile lines. The binary is $TABULA_BIN, or ../build/debug/tabula (the tests run from
// tests/; `make check` builds it first); a missing binary fails the suite.
#include "tests/suites.h"

#include "tests/harness.h"
#include "tests/helpers.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// How long a reply may take at most: isready and stop answer within 50 ms (docs/protocol.md).
#define REPLY_LIMIT 0.050

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
static char *legal_moves(Child *e) {
    child_send(e, "moves");
    char *line = child_read_line(e, CHILD_WAIT);
    ck_assert_msg(line != NULL, "no reply to moves: %s", child_log_tail(e));
    return line;
}

// Check that text holds exactly one bestmove line (child_expect ends text with it) of 2 tokens in
// UGI, 2 or 4 in UCI, its move one of legal; copy the move into best.
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

// Every line of the binary's output is a protocol line (or the reply to `moves`).
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
    Child *e = child_start();
    char *text = child_sync(e);
    ck_assert_str_eq(text, "");
    free(text);
    child_quit(e);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Reply times during a search: isready and stop within 50 ms, measured from writing the line
// to reading the reply.

static void check_reply_times(Child *e, const char *go, bool ugi) {
    char *legal = legal_moves(e);
    child_send(e, go);
    sleep_ms(100);
    for (int i = 0; i < 5; i++) {
        char *text;
        double t = child_timed(e, "isready", "readyok", &text);
        ck_assert_msg(count_prefix(text, "bestmove") == 0, "'%s' ended by itself:\n%s", go, text);
        ck_assert_msg(t < REPLY_LIMIT, "readyok %.1f ms after isready during '%s'", t * 1000, go);
        free(text);
        sleep_ms(20);
    }
    char *text;
    double t = child_timed(e, "stop", "bestmove", &text);
    ck_assert_msg(t < REPLY_LIMIT, "bestmove %.1f ms after stop during '%s'", t * 1000, go);
    check_bestmove(text, legal, ugi, NULL, 0);
    free(text);
    free(legal);
}

// ---------------------------------------------------------------------------------------------
// A whole game in UCI

START_TEST(test_uci_game) {
    Child *e = child_start();
    char best[64], line[512], *text;
    child_send(e, "uci");
    text = child_expect(e, "uciok", CHILD_WAIT);
    ck_assert_msg(!strncmp(text, "id name tabula ", 15), "%s", text);
    ck_assert(count_prefix(text, "id author ") == 1);
    ck_assert(count_prefix(text, "option name UCI_Variant type combo default nine ") == 1);
    ck_assert(count_prefix(text, "option name Hash type spin ") == 1);
    ck_assert(count_prefix(text, "option name Ponder type check ") == 1);
    free(text);

    child_send(e, "setoption name Hash value 32");
    child_send(e, "setoption name Ponder value true");
    child_send(e, "setoption name UCI_Variant value nine");
    child_send(e, "setoption name Move Overhead value 10");
    text = child_sync(e);
    ck_assert_str_eq(text, "");
    free(text);
    child_send(e, "ucinewgame");
    text = child_sync(e);
    ck_assert_str_eq(text, "");
    free(text);

    // A move on the clock.
    child_send(e, "position startpos moves d7 g7");
    char *legal = legal_moves(e);
    double t0 = seconds();
    child_send(e, "go wtime 2000 btime 2000 winc 20 binc 20");
    text = child_expect(e, "bestmove", CHILD_WAIT);
    ck_assert_msg(seconds() - t0 < 1.5, "%.2f s for a move with 2 s on the clock", seconds() - t0);
    ck_assert_msg(count_prefix(text, "info depth ") >= 1, "%s", text);
    check_bestmove(text, legal, false, best, sizeof best);
    free(text);
    free(legal);

    // The GUI plays the move and a reply, then an infinite search with isready and stop.
    snprintf(line, sizeof line, "position startpos moves d7 g7 %s", best);
    child_send(e, line);
    legal = legal_moves(e);
    size_t len = strlen(line);
    snprintf(line + len, sizeof line - len, " %.*s", (int)strcspn(legal, " "), legal);
    free(legal);
    child_send(e, line);
    check_reply_times(e, "go infinite", false);

    // Pondering: no answer before ponderhit, an answer on the clock after it.
    legal = legal_moves(e);
    child_send(e, "go ponder wtime 1000 btime 1000 winc 10 binc 10");
    sleep_ms(200);
    text = child_sync(e);
    ck_assert_msg(count_prefix(text, "bestmove") == 0, "the ponder search ended:\n%s", text);
    free(text);
    t0 = seconds();
    child_send(e, "ponderhit");
    text = child_expect(e, "bestmove", CHILD_WAIT);
    ck_assert_msg(seconds() - t0 < 1.0, "%.2f s after ponderhit with 1 s on the clock",
                  seconds() - t0);
    check_bestmove(text, legal, false, NULL, 0);
    free(text);

    // A ponder miss: stop answers at once.
    child_send(e, "go ponder wtime 1000 btime 1000");
    sleep_ms(50);
    double t = child_timed(e, "stop", "bestmove", &text);
    ck_assert_msg(t < REPLY_LIMIT, "bestmove %.1f ms after stop while pondering", t * 1000);
    check_bestmove(text, legal, false, NULL, 0);
    free(text);

    // A fixed depth, then a new game in another variant.
    child_send(e, "go depth 4");
    text = child_expect(e, "bestmove", CHILD_WAIT);
    ck_assert_msg(count_prefix(text, "info depth 4 ") >= 1, "%s", text);
    check_bestmove(text, legal, false, NULL, 0);
    free(text);
    free(legal);
    child_send(e, "setoption name UCI_Variant value six");
    child_send(e, "ucinewgame");
    child_send(e, "position startpos moves a5 b4");
    legal = legal_moves(e);
    child_send(e, "go movetime 100");
    text = child_expect(e, "bestmove", CHILD_WAIT);
    check_bestmove(text, legal, false, NULL, 0);
    free(text);
    free(legal);
    text = child_sync(e);
    free(text);
    check_protocol_lines(e->log);
    ck_assert(strstr(e->log, ERROR_PREFIX) == NULL);
    child_quit(e);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// A whole game in UGI, as cutegames drives it

static void query(Child *e, const char *what, const char *answer) {
    char line[64], want[64];
    snprintf(line, sizeof line, "query %s", what);
    child_send(e, line);
    char *reply = child_read_line(e, CHILD_WAIT);
    snprintf(want, sizeof want, "response %s", answer);
    ck_assert_msg(reply && !strcmp(reply, want), "'%s' answered '%s', not '%s'", line,
                  reply ? reply : "(nothing)", want);
    free(reply);
}

START_TEST(test_ugi_game) {
    Child *e = child_start();
    char best[64], line[256], *text;
    child_send(e, "ugi");
    text = child_expect(e, "ugiok", CHILD_WAIT);
    ck_assert_msg(!strncmp(text, "id name tabula ", 15), "%s", text);
    ck_assert(count_prefix(text, "option name ") >= 10 && count_prefix(text, "uciok") == 0);
    free(text);
    child_send(e, "setoption name Hash value 8");
    text = child_sync(e);
    ck_assert_str_eq(text, "");
    free(text);
    child_send(e, "uginewgame");
    child_send(e, "position startpos");
    query(e, "p1turn", "true");
    query(e, "gameover", "false");
    query(e, "result", "none");

    // p1time/p2time/p1inc/p2inc, and a bestmove of exactly two tokens.
    char *legal = legal_moves(e);
    double t0 = seconds();
    child_send(e, "go p1time 1000 p2time 1000 p1inc 10 p2inc 10");
    text = child_expect(e, "bestmove", CHILD_WAIT);
    ck_assert_msg(seconds() - t0 < 1.0, "%.2f s for a move with 1 s on the clock", seconds() - t0);
    check_bestmove(text, legal, true, best, sizeof best);
    free(text);
    free(legal);
    snprintf(line, sizeof line, "position startpos moves %s", best);
    child_send(e, line);
    query(e, "p1turn", "false");
    query(e, "result", "none");
    legal = legal_moves(e);
    child_send(e, "go depth 4");
    text = child_expect(e, "bestmove", CHILD_WAIT);
    check_bestmove(text, legal, true, NULL, 0);
    free(text);
    free(legal);
    child_send(e, "go movetime 100");
    text = child_expect(e, "bestmove", CHILD_WAIT);
    ck_assert_int_eq(count_prefix(text, "bestmove "), 1);
    free(text);
    check_reply_times(e, "go infinite", true);

    // Finished games: a win for each side and a draw.
    child_send(e, "setoption name UCI_Variant value three");
    child_send(e, "uginewgame");
    child_send(e, "position startpos moves a1 a2 b1 b2 c1");
    query(e, "gameover", "true");
    query(e, "result", "p1win");
    query(e, "p1turn", "false");
    child_send(e, "go depth 3");
    text = child_expect(e, "bestmove", CHILD_WAIT);
    ck_assert_msg(!strcmp(text, "bestmove (none)\n"), "%s", text);
    free(text);
    child_send(e, "position startpos moves a1 a2 b3 b2 c3 c2");
    query(e, "gameover", "true");
    query(e, "result", "p2win");
    query(e, "p1turn", "true");
    child_send(e, "setoption name UCI_Variant value nine");
    child_send(e, "setoption name NMoveRule value 4");
    child_send(e, "position fen W1W/W2/3/6/3/2B/B1B w 0 0 4 20");
    query(e, "gameover", "true");
    query(e, "result", "draw");
    // An unknown query is an error, and the game goes on.
    child_send(e, "query colour");
    text = child_sync(e);
    ck_assert_msg(count_prefix(text, ERROR_PREFIX) == 1 && !strchr(strchr(text, '\n') + 1, '\n'),
                  "%s", text);
    free(text);
    query(e, "p1turn", "true");
    child_quit(e);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// A person's commands through the pipe

static void position_is(Child *e, const char *fen) {
    char got[128];
    child_send(e, "d");
    char *text = child_expect(e, "Result: ", CHILD_WAIT);
    ck_assert(line_after(text, "Position: ", got, sizeof got));
    ck_assert_msg(!strcmp(got, fen), "position %s, not %s", got, fen);
    free(text);
}

// The first bear-off evaluation of a fresh process: one checker each on its 1-point, the
// player on roll wins. (The database's index tables were once read before they were built,
// so the first answer of every process said 0; later ones were right.)
START_TEST(test_first_bearoff_eval) {
    Child *e = child_start();
    child_send(e, "setoption name UCI_Variant value backgammon");
    child_send(e, "position xgid XGID=-A----------------------a-:0:0:1:00:0:0:0:0:10");
    for (int k = 0; k < 2; k++) {
        child_send(e, "eval");
        char *text = child_expect(e, "equity", CHILD_WAIT);
        ck_assert_msg(strstr(text, "bear-off database") &&
                          strstr(text, "probs       1.0000 0.0000 0.0000 0.0000 0.0000"),
                      "eval %d: %s", k + 1, text);
        free(text);
    }
    child_quit(e);
}
END_TEST

START_TEST(test_person_game) {
    Child *e = child_start();
    char *text;
    child_send(e, "new");
    child_send(e, "move d7");
    child_send(e, "move g7");
    child_send(e, "move zz");
    text = child_sync(e);
    ck_assert_msg(count_prefix(text, ERROR_PREFIX) == 1, "%s", text);
    free(text);
    position_is(e, "1WB/3/3/6/3/3/3 w 8 8 0 2");
    child_send(e, "undo");
    position_is(e, "1W1/3/3/6/3/3/3 b 8 9 0 1");
    child_send(e, "play movetime 100");
    text = child_expect(e, "bestmove", CHILD_WAIT);
    free(text);
    child_send(e, "d");
    text = child_expect(e, "Result: ", CHILD_WAIT);
    ck_assert_msg(strstr(text, "b 8 9 0 1") == NULL && strstr(text, " w 8 8 0 2") != NULL,
                  "the engine's move is not on the board:\n%s", text);
    free(text);
    child_send(e, "undo");
    child_send(e, "undo");
    position_is(e, NINE_START);
    child_send(e, "undo");
    text = child_sync(e);
    ck_assert_msg(count_prefix(text, ERROR_PREFIX "undo") == 1, "%s", text);
    free(text);
    // A Sanmill position, then moves with a removal written as its own token.
    child_send(e, "position fen O*O*****/**@*****/@******* w p p 2 7 2 7 0 0 0 0 0 0 0 0 4");
    position_is(e, "1B1/3/1W1/3WB1/3/3/3 w 7 7 0 4");
    child_send(e, "move a1");
    child_send(e, "move g1");
    child_send(e, "move a4");
    child_send(e, "move d6");
    child_send(e, "move a7 xd7");
    position_is(e, "W2/1B1/1W1/W2WB1/3/3/W1B b 4 5 0 6");
    child_send(e, "undo");
    position_is(e, "1B1/1B1/1W1/W2WB1/3/3/W1B w 5 5 0 6");
    child_quit(e);
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
static char *snapshot(Child *e, bool ugi) {
    child_send(e, "d");
    char *d = child_expect(e, "Result: ", CHILD_WAIT);
    child_send(e, ugi ? "ugi" : "uci");
    char *options = child_expect(e, ugi ? "ugiok" : "uciok", CHILD_WAIT);
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

    Child *e = child_start();
    if (h->setup) {
        char *copy = strdup(h->setup);
        ck_assert_ptr_nonnull(copy);
        for (char *save, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
            child_send(e, l);
        free(copy);
    }
    char *text = child_sync(e);
    ck_assert_msg(count_prefix(text, ERROR_PREFIX) == 0, "the setup of '%s' failed:\n%s", name,
                  text);
    free(text);
    char *before = snapshot(e, ugi);

    child_send_bytes(e, line, len);
    char *reply = child_sync(e);
    int errors = count_prefix(reply, ERROR_PREFIX);
    ck_assert_msg(errors == h->errors, "'%s' gave %d error lines, not %d:\n%.2000s", name, errors,
                  h->errors, reply);
    for (const char *l = reply; *l; l = strchr(l, '\n') + 1)
        ck_assert_msg(!strncmp(l, "info ", 5) || !strncmp(l, "bestmove ", 9),
                      "'%s' gave an unexpected line:\n%.2000s", name, reply);
    ck_assert_msg(strlen(reply) < 4096 || h->search, "'%s' gave a long reply", name);
    free(reply);

    char *after = snapshot(e, ugi);
    ck_assert_msg(!strcmp(before, after), "'%s' changed the state:\n%s\n---\n%s", name, before,
                  after);
    free(before);
    free(after);
    // A search still running ends on stop; one bestmove in all when one was due.
    child_send(e, "stop");
    text = child_sync(e);
    free(text);
    int bestmoves = count_prefix(e->log, "bestmove ");
    ck_assert_msg(bestmoves == (h->search ? 1 : 0), "'%s': %d bestmove lines:\n%s", name, bestmoves,
                  child_log_tail(e));
    ck_assert_msg(count_prefix(e->log, ERROR_PREFIX) == h->errors, "'%s':\n%s", name,
                  child_log_tail(e));
    child_quit(e);
    free(big);
}
END_TEST

// The binary suite: whole games and hostile lines through pipes.
Suite *binary_suite(void) {
    Suite *s = suite_create("binary");
    TCase *tc = tcase_create("dialects");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_binary_present);
    tcase_add_test(tc, test_uci_game);
    tcase_add_test(tc, test_ugi_game);
    tcase_add_test(tc, test_person_game);
    tcase_add_test(tc, test_first_bearoff_eval);
    suite_add_tcase(s, tc);

    tc = tcase_create("hostile");
    tcase_set_timeout(tc, 20);
    tcase_add_loop_test(tc, test_hostile, 0, NHOSTILE);
    suite_add_tcase(s, tc);
    return s;
}
