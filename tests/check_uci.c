// The protocol command loop: commands run through memory streams, replies checked line by line.
#include "tests/suites.h"

#include "tests/helpers.h"

#include "protocol/info.h"
#include "protocol/output.h"
#include "protocol/prompt.h"
#include "protocol/uci.h"

#include <ctype.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NINE_START "3/3/3/6/3/3/3 w 9 9 0 1"
#define SIX_START "3/3/4/3/3 w 6 6 0 1"
#define THREE_START "3/3/3 w 3 3 0 1"
// Nine after 18 placements (RULES.md section 6): perft 1 is 25.
#define NINE_18 "d7 g7 g4 a7 a4 g1 f6 d6 b6 d2 f2 a1 e5 c5 c4 d5 e3 c3"
#define NINE_18_FEN "BWB/WBW/BBW/W1W2W/B1W/1BW/B1B w 0 0 0 10"
// Three men's morris where white owns a mill: the game is over.
#define THREE_WON "WWW/3/BB1 b 0 1 0 3"
// Nine, moving phase, white with 3 men (flying by default) and 4 plies without a placement.
#define NINE_3MEN "W1W/W2/3/6/3/2B/B1B w 0 0 4 20"
// White's moves there without flying.
#define SLIDES "a7-d7 a7-a4 g7-d7 g7-g4 b6-d6 b6-b4"
#define ERROR_PREFIX "info string error: "

static const char *const NINE_POINTS[] = {"a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5",
                                          "e5", "a4", "b4", "c4", "e4", "f4", "g4", "c3",
                                          "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1"};
#define NINE_NPOINTS (int)(sizeof NINE_POINTS / sizeof NINE_POINTS[0])

typedef struct Session {
    Output out;
    Uci uci;
    FILE *f;
    char *buf;
    size_t len, seen;
    char *last;
} Session;

// Start a protocol session on the default variant that writes into a memory stream.
static void session_open(Session *s) {
    s->buf = NULL;
    s->len = s->seen = 0;
    s->last = NULL;
    s->f = open_memstream(&s->buf, &s->len);
    ck_assert_ptr_nonnull(s->f);
    output_init(&s->out, s->f);
    ck_assert(uci_init(&s->uci, &s->out));
}

static void session_close(Session *s) {
    uci_free(&s->uci);
    output_free(&s->out);
    fclose(s->f);
    free(s->buf);
    free(s->last);
}

// Take what the session wrote since the last call; valid until the next call. A search thread
// may be writing: the stream is read under the writer's lock.
static const char *take_output(Session *s) {
    pthread_mutex_lock(&s->out.lock);
    fflush(s->f);
    free(s->last);
    s->last = strndup(s->buf + s->seen, s->len - s->seen);
    s->seen = s->len;
    pthread_mutex_unlock(&s->out.lock);
    ck_assert_ptr_nonnull(s->last);
    return s->last;
}

// A copy of what the session wrote since the last take_output, which it leaves in place; for
// the caller to free.
static char *peek_output(Session *s) {
    pthread_mutex_lock(&s->out.lock);
    fflush(s->f);
    char *text = strndup(s->buf + s->seen, s->len - s->seen);
    pthread_mutex_unlock(&s->out.lock);
    ck_assert_ptr_nonnull(text);
    return text;
}

// Execute one line and return what it wrote; valid until the next call.
static const char *execute(Session *s, const char *line) {
    uci_execute(&s->uci, line);
    return take_output(s);
}

// Execute one line and return a copy of what it wrote, for the caller to free.
static char *execute_copy(Session *s, const char *line) {
    char *text = strdup(execute(s, line));
    ck_assert_ptr_nonnull(text);
    return text;
}

// Run a script of '\n'-separated lines, one uci_execute each, and return all the output.
static char *run(const char *script) {
    Session s;
    session_open(&s);
    char *copy = strdup(script);
    ck_assert_ptr_nonnull(copy);
    for (char *line = copy, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        uci_execute(&s.uci, line);
    }
    free(copy);
    char *text = strdup(take_output(&s));
    ck_assert_ptr_nonnull(text);
    session_close(&s);
    return text;
}

// Feed input of len bytes to uci_loop in a fresh session and return all the output.
static char *run_loop(const char *input, size_t len) {
    Session s;
    session_open(&s);
    FILE *in = fmemopen((void *)input, len, "r");
    ck_assert_ptr_nonnull(in);
    uci_loop(&s.uci, in);
    fclose(in);
    char *text = strdup(take_output(&s));
    ck_assert_ptr_nonnull(text);
    session_close(&s);
    return text;
}

static int count_lines(const char *text) {
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

// Whether text holds this exact line.
static bool has_line(const char *text, const char *line) {
    size_t len = strlen(line);
    for (const char *l = text; *l;) {
        const char *end = strchr(l, '\n');
        size_t n = end ? (size_t)(end - l) : strlen(l);
        if (n == len && !strncmp(l, line, len))
            return true;
        if (!end)
            break;
        l = end + 1;
    }
    return false;
}

// Read the current position string through `d`.
static void get_fen(Session *s, char *buf, size_t n) {
    ck_assert_msg(line_after(execute(s, "d"), "Position: ", buf, n), "d prints no Position line");
}

// Read the current key through `d`.
static void get_key(Session *s, char *buf, size_t n) {
    ck_assert_msg(line_after(execute(s, "d"), "Key: ", buf, n), "d prints no Key line");
}

// Capture everything observable about the state: the `d` output and the options after `uci`.
static char *snapshot(Session *s) {
    char *d = execute_copy(s, "d");
    const char *opts = execute(s, "uci");
    char *all = malloc(strlen(d) + strlen(opts) + 1);
    ck_assert_ptr_nonnull(all);
    strcpy(all, d);
    strcat(all, opts);
    free(d);
    return all;
}

// Check that text is exactly one `info string error: ...` line.
static void assert_one_error(const char *text, const char *input) {
    ck_assert_msg(count_lines(text) == 1, "'%.60s' gave %d lines, not one error line:\n%.400s",
                  input, count_lines(text), text);
    ck_assert_msg(!strncmp(text, ERROR_PREFIX, strlen(ERROR_PREFIX)),
                  "'%.60s' gave '%.200s', not an error line", input, text);
}

static bool printable_ascii(const char *text) {
    for (const unsigned char *c = (const unsigned char *)text; *c; c++)
        if (*c != '\n' && (*c < 0x20 || *c > 0x7e))
            return false;
    return true;
}

static int compare_strings(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

// Whether a `moves` reply lists exactly the moves of the space-separated list, in any order.
static bool same_moves(const char *reply, const char *list) {
    char a[4096], b[4096], *ta[512], *tb[512];
    int na = 0, nb = 0;
    if (count_lines(reply) != 1)
        return false;
    snprintf(a, sizeof a, "%s", reply);
    a[strcspn(a, "\n")] = '\0';
    snprintf(b, sizeof b, "%s", list);
    for (char *save, *t = strtok_r(a, " ", &save); t && na < 512; t = strtok_r(NULL, " ", &save))
        ta[na++] = t;
    for (char *save, *t = strtok_r(b, " ", &save); t && nb < 512; t = strtok_r(NULL, " ", &save))
        tb[nb++] = t;
    if (na != nb)
        return false;
    qsort(ta, (size_t)na, sizeof *ta, compare_strings);
    qsort(tb, (size_t)nb, sizeof *tb, compare_strings);
    for (int i = 0; i < na; i++)
        if (strcmp(ta[i], tb[i]))
            return false;
    return true;
}

// Split the single line of a `moves` reply into tokens; returns their count.
static int split_moves(const char *text, char *buf, size_t n, char **tok, int max) {
    ck_assert_int_eq(count_lines(text), 1);
    snprintf(buf, n, "%s", text);
    buf[strcspn(buf, "\n")] = '\0';
    int k = 0;
    for (char *save, *t = strtok_r(buf, " ", &save); t && k < max; t = strtok_r(NULL, " ", &save))
        tok[k++] = t;
    return k;
}

// ---------------------------------------------------------------------------------------------
// uci, isready, help

START_TEST(test_uci_handshake) {
    char *out = run("uci");
    const char *expected = "option name UCI_Variant type combo default nine var nine var twelve "
                           "var eleven var morabaraba var lasker var six var five var seven var "
                           "three var nine-holes var tapatan var achi var backgammon\n"
                           "option name Flying type check default true\n"
                           "option name RemoveFromMills type check default false\n"
                           "option name RemovalPerMill type check default false\n"
                           "option name Repetition type check default true\n"
                           "option name NMoveRule type spin default 100 min 0 max 10000\n"
                           "option name TablebasePath type string default <empty>\n"
                           "option name ReverseFutility type check default true\n"
                           "option name LateMovePruning type check default true\n"
                           "option name LateMoveReductions type check default true\n"
                           "option name Quiescence type check default true\n"
                           "option name AspirationWindows type check default true\n"
                           "option name Hash type spin default 16 min 1 max 65536\n"
                           "option name Clear Hash type button\n"
                           "option name Threads type spin default 1 min 1 max 256\n"
                           "option name MultiPV type spin default 1 min 1 max 64\n"
                           "option name Ponder type check default false\n"
                           "option name Move Overhead type spin default 30 min 0 max 5000\n"
                           "option name UCI_ShowWDL type check default false\n"
                           "uciok\n";
    ck_assert_msg(!strncmp(out, "id name tabula ", strlen("id name tabula ")), "got:\n%s", out);
    const char *author = strchr(out, '\n') + 1;
    ck_assert_msg(!strncmp(author, "id author ", strlen("id author ")), "got:\n%s", out);
    const char *options = strchr(author, '\n') + 1;
    ck_assert_str_eq(options, expected);
    free(out);
}
END_TEST

START_TEST(test_isready) {
    char *out = run("isready");
    ck_assert_str_eq(out, "readyok\n");
    free(out);
}
END_TEST

START_TEST(test_help_lists_commands) {
    static const char *const names[] = {
        "uci",      "ugi",   "isready", "debug", "setoption", "ucinewgame", "uginewgame", "new",
        "position", "move",  "undo",    "play",  "go",        "stop",       "ponderhit",  "query",
        "perft",    "bench", "d",       "moves", "eval",      "help",       "quit"};
    char *out = run("help");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char prefix[32], rest[128];
        snprintf(prefix, sizeof prefix, "%s ", names[i]);
        ck_assert_msg(line_after(out, prefix, rest, sizeof rest), "help does not list '%s':\n%s",
                      names[i], out);
    }
    ck_assert(strstr(out, ERROR_PREFIX) == NULL);
    free(out);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// setoption

START_TEST(test_setoption_variant_six) {
    Session s;
    session_open(&s);
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value six"), "");
    const char *d = execute(&s, "d");
    ck_assert_msg(has_line(d, "Variant: six"), "got:\n%s", d);
    ck_assert_msg(has_line(d, "Position: " SIX_START), "got:\n%s", d);
    ck_assert_msg(has_line(d, "   a   b   c   d   e"), "got:\n%s", d);
    const char *p = execute(&s, "perft 2");
    ck_assert_msg(has_line(p, "Nodes searched: 240"), "got:\n%s", p);
    session_close(&s);
}
END_TEST

START_TEST(test_setoption_case_insensitive) {
    Session s;
    char fen[128];
    session_open(&s);
    ck_assert_str_eq(execute(&s, "setoption name uci_variant value SIX"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, SIX_START);
    ck_assert_str_eq(execute(&s, "setoption name UCI_VARIANT value Three"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, THREE_START);
    ck_assert_str_eq(execute(&s, "setoption name Uci_Variant value NINE"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    ck_assert_str_eq(execute(&s, "setoption name repetition value False"), "");
    ck_assert_str_eq(execute(&s, "position fen " NINE_3MEN), "");
    ck_assert_str_eq(execute(&s, "setoption name fLyInG value FALSE"), "");
    ck_assert_msg(same_moves(execute(&s, "moves"), SLIDES), "got %s", s.last);
    ck_assert_str_eq(execute(&s, "setoption name FLYING value True"), "");
    ck_assert_msg(!same_moves(execute(&s, "moves"), SLIDES), "got %s", s.last);
    ck_assert_str_eq(execute(&s, "setoption name nmoverule value 4"), "");
    ck_assert_str_eq(execute(&s, "moves"), "(none)\n");
    session_close(&s);
}
END_TEST

START_TEST(test_setoption_variant_resets_position) {
    Session s;
    char fen[128];
    session_open(&s);
    ck_assert_str_eq(execute(&s, "position startpos moves d7 g7 g4"), "");
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value three"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, THREE_START);
    ck_assert_str_eq(execute(&s, "position startpos moves b2"), "");
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value nine"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    // Setting the variant in force again changes nothing: not the position, not the rules.
    ck_assert_str_eq(execute(&s, "position startpos moves d7"), "");
    ck_assert_str_eq(execute(&s, "setoption name Flying value false"), "");
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value nine"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "1W1/3/3/6/3/3/3 b 8 9 0 1");
    ck_assert_ptr_nonnull(strstr(execute(&s, "uci"), "option name Flying type check default false"));
    // Another variant resets the rule options to its defaults.
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value twelve"), "");
    ck_assert_ptr_nonnull(strstr(execute(&s, "uci"), "option name Flying type check default true"));
    session_close(&s);
}
END_TEST

// The rule options act on the game: NMoveRule ends it, Flying changes the moves.
START_TEST(test_setoption_rules_take_effect) {
    Session s;
    char buf[4096], *tok[256];
    session_open(&s);
    // White has 3 men and flies by default; no flying leaves its 6 sliding moves.
    ck_assert_str_eq(execute(&s, "position fen " NINE_3MEN), "");
    ck_assert_int_gt(split_moves(execute(&s, "moves"), buf, sizeof buf, tok, 256), 6);
    ck_assert_str_eq(execute(&s, "setoption name Flying value false"), "");
    ck_assert_msg(same_moves(execute(&s, "moves"), SLIDES), "got %s", s.last);
    ck_assert_msg(has_line(execute(&s, "d"), "Result: the game goes on"), "%s", s.last);
    ck_assert_str_eq(execute(&s, "setoption name NMoveRule value 4"), "");
    const char *d = execute(&s, "d");
    ck_assert_msg(line_after(d, "Result: draw", buf, sizeof buf), "got:\n%s", d);
    ck_assert_str_eq(execute(&s, "moves"), "(none)\n");
    ck_assert_str_eq(execute(&s, "setoption name NMoveRule value 0"), "");
    ck_assert_msg(has_line(execute(&s, "d"), "Result: the game goes on"), "%s", s.last);
    session_close(&s);
}
END_TEST

static const char *const BAD_SETOPTIONS[] = {
    "setoption name UCI_Variant value chess",
    "setoption name UCI_Variant value backgammon2",
    "setoption name UCI_Variant value nine extra",
    "setoption name UCI_Variant",
    "setoption name UCI_Variant value",
    "setoption name Foo value 1",
    "setoption name Hashish value 16",
    "setoption name Flying value yes",
    "setoption name Flying value 1",
    "setoption name Flying",
    "setoption name Repetition value truee",
    "setoption name NMoveRule value 10001",
    "setoption name NMoveRule value -1",
    "setoption name NMoveRule value abc",
    "setoption name NMoveRule value 12abc",
    "setoption name NMoveRule value 99999999999999999999999",
    "setoption name NMoveRule",
    "setoption",
    "setoption name",
    "setoption UCI_Variant value six",
    "setoption value six",
    "setoption Name UCI_Variant value six",
    "setoption name Hash value 0",
    "setoption name Hash value 65537",
    "setoption name Hash value abc",
    "setoption name Hash value",
    "setoption name Hash",
    "setoption name Threads value 0",
    "setoption name Threads value 257",
    "setoption name MultiPV value 0",
    "setoption name MultiPV value 65",
    "setoption name MultiPV value 2.5",
    "setoption name Ponder value yes",
    "setoption name UCI_ShowWDL value 1",
    "setoption name Move Overhead value -1",
    "setoption name Move Overhead value 5001",
    "setoption name MoveOverhead value 10",
    "setoption name Clear",
};

// A bad setoption gives one error line and leaves variant, position and options alone.
START_TEST(test_setoption_bad) {
    Session s;
    session_open(&s);
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value six"), "");
    ck_assert_str_eq(execute(&s, "setoption name NMoveRule value 42"), "");
    ck_assert_str_eq(execute(&s, "setoption name Flying value true"), "");
    ck_assert_str_eq(execute(&s, "position startpos moves a5 b4 c5"), "");
    char *before = snapshot(&s);
    assert_one_error(execute(&s, BAD_SETOPTIONS[_i]), BAD_SETOPTIONS[_i]);
    char *after = snapshot(&s);
    ck_assert_msg(!strcmp(before, after), "'%s' changed the state:\n%s\n---\n%s",
                  BAD_SETOPTIONS[_i], before, after);
    free(before);
    free(after);
    session_close(&s);
}
END_TEST

START_TEST(test_setoption_spin_bounds) {
    Session s;
    session_open(&s);
    ck_assert_str_eq(execute(&s, "setoption name NMoveRule value 10000"), "");
    ck_assert_str_eq(execute(&s, "position fen W1W/W2/3/6/3/2B/B1B w 0 0 9999 20"), "");
    ck_assert_msg(has_line(execute(&s, "d"), "Result: the game goes on"), "%s", s.last);
    ck_assert_str_eq(execute(&s, "position fen W1W/W2/3/6/3/2B/B1B w 0 0 10000 20"), "");
    ck_assert_msg(
        has_line(execute(&s, "d"), "Result: draw: 10000 plies without a placement or removal"),
        "%s", s.last);
    ck_assert_str_eq(execute(&s, "setoption name NMoveRule value 0"), "");
    ck_assert_str_eq(execute(&s, "position fen W1W/W2/3/6/3/2B/B1B w 0 0 1000000 20"), "");
    ck_assert_msg(has_line(execute(&s, "d"), "Result: the game goes on"), "%s", s.last);
    session_close(&s);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// position, ucinewgame

START_TEST(test_position_startpos_moves) {
    Session s;
    char fen[128];
    session_open(&s);
    ck_assert_str_eq(execute(&s, "position startpos"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    ck_assert_str_eq(execute(&s, "position startpos moves"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    ck_assert_str_eq(execute(&s, "position startpos moves d7"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "1W1/3/3/6/3/3/3 b 8 9 0 1");
    ck_assert_str_eq(execute(&s, "position startpos moves d7 g7 g4 a7"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "BWB/3/3/5W/3/3/3 w 7 7 0 3");
    ck_assert_str_eq(execute(&s, "position startpos moves " NINE_18), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_18_FEN);
    const char *p = execute(&s, "perft 1");
    ck_assert_int_eq(count_lines(p), 26);
    ck_assert_msg(has_line(p, "Nodes searched: 25"), "got:\n%s", p);
    // A mill-closing placement with its removal, then a slide.
    ck_assert_str_eq(execute(&s, "position startpos moves d7 a1 g7 a4 a7xa1 g1 b6"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "WWW/W2/3/B5/3/3/2B b 5 6 0 4");
    ck_assert_str_eq(execute(&s, "position startpos moves " NINE_18 " f6-f4 d6-f6"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "BWB/W1B/BBW/W1W1WW/B1W/1BW/B1B w 0 0 2 11");
    session_close(&s);
}
END_TEST

START_TEST(test_position_fen_round_trip) {
    static const char *const fens[] = {NINE_START, NINE_18_FEN, "1W1/3/3/6/3/3/3 b 8 9 0 1",
                                       NINE_3MEN, "BWB/WBW/BBW/1WW2W/B1W/1BW/B1B b 0 0 9 14"};
    Session s;
    char line[256], fen[128];
    session_open(&s);
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        snprintf(line, sizeof line, "position fen %s", fens[i]);
        ck_assert_str_eq(execute(&s, line), "");
        get_fen(&s, fen, sizeof fen);
        ck_assert_str_eq(fen, fens[i]);
    }
    // The last two fields may be left out; split empty runs are accepted.
    ck_assert_str_eq(execute(&s, "position fen 3/3/3/6/3/3/3 w 9 9"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    ck_assert_str_eq(execute(&s, "position fen 3/12/3/6/3/3/3 w 9 9 0 1"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    // fen + moves equals startpos + the same moves.
    ck_assert_str_eq(execute(&s, "position fen BWB/3/3/5W/3/3/3 w 7 7 0 3 moves a4 g1 f6 d6 b6 d2 "
                                 "f2 a1 e5 c5 c4 d5 e3 c3"),
                     "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_18_FEN);
    ck_assert_str_eq(execute(&s, "position fen " NINE_18_FEN " moves f6-f4 d6-f6"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "BWB/W1B/BBW/W1W1WW/B1W/1BW/B1B w 0 0 2 11");
    // Another variant's string is read on its own board.
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value six"), "");
    ck_assert_str_eq(execute(&s, "position fen W2/B1W/4/3/2B b 4 4 0 3"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "W2/B1W/4/3/2B b 4 4 0 3");
    session_close(&s);
}
END_TEST

// A removal written as its own token equals the joined form.
START_TEST(test_position_split_removal) {
    Session s;
    char joined[128], split[128];
    session_open(&s);
    ck_assert_str_eq(execute(&s, "position startpos moves d7 a1 g7 a4 a7xa1"), "");
    get_fen(&s, joined, sizeof joined);
    ck_assert_str_eq(execute(&s, "position startpos moves d7 a1 g7 a4 a7 xa1"), "");
    get_fen(&s, split, sizeof split);
    ck_assert_str_eq(split, joined);
    ck_assert_str_eq(joined, "WWW/3/3/B5/3/3/3 b 6 7 0 3");

    ck_assert_str_eq(execute(&s, "position startpos moves " NINE_18 " b6-b4xa7"), "");
    get_fen(&s, joined, sizeof joined);
    ck_assert_str_eq(execute(&s, "position startpos moves " NINE_18 " b6-b4 xa7"), "");
    get_fen(&s, split, sizeof split);
    ck_assert_str_eq(split, joined);
    ck_assert_str_eq(execute(&s, "position startpos moves " NINE_18 " b6-b4\txa7"), "");
    get_fen(&s, split, sizeof split);
    ck_assert_str_eq(split, joined);
    ck_assert_str_eq(joined, "1WB/1BW/BBW/WWW2W/B1W/1BW/B1B b 0 0 0 10");
    session_close(&s);
}
END_TEST

START_TEST(test_ucinewgame) {
    Session s;
    char fen[128];
    session_open(&s);
    ck_assert_str_eq(execute(&s, "position startpos moves " NINE_18), "");
    ck_assert_str_eq(execute(&s, "ucinewgame"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    ck_assert_str_eq(execute(&s, "position fen " NINE_3MEN), "");
    ck_assert_str_eq(execute(&s, "ucinewgame"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    // The start of the current variant, not of nine.
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value six"), "");
    ck_assert_str_eq(execute(&s, "position startpos moves a5 b4"), "");
    ck_assert_str_eq(execute(&s, "ucinewgame"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, SIX_START);
    ck_assert_msg(has_line(execute(&s, "d"), "Variant: six"), "%s", s.last);
    session_close(&s);
}
END_TEST

static const char *const BAD_POSITIONS[] = {
    "position",
    "position foo",
    "position STARTPOS",
    "position startpos garbage",
    "position startpos garbage moves d6",
    "position startpos fen " NINE_START,
    "position fen",
    "position fen moves d6",
    "position fen garbage",
    "position fen " THREE_START,
    "position fen 3/3/3/6/3/3 w 9 9 0 1",
    "position fen 3/3/3/7/3/3/3 w 9 9 0 1",
    "position fen 3/3/3/6/3/3/3 x 9 9 0 1",
    "position fen 3/3/3/6/3/3/3 w 10 9 0 1",
    "position fen 3/3/3/6/3/3/3 w -1 9 0 1",
    "position fen 3/3/3/6/3/3/3 w 9 9 0 0",
    "position fen 3/3/3/6/3/3/3 w 9 9 -3 1",
    "position fen 3/3/3/6/3/3/3 w 9",
    "position fen 3/3/3/6/3/3/3 w 9 9 0 1 extra",
    "position fen 3/3/3/6/3/3/3 w 9 9 0 1 extra moves d7",
    "position fen WWW/WWW/WWW/6/3/3/3 b 1 9 0 1",
    "position fen 3/3/3/6/3/3/3 w 9 9 0 1 moves d7 d7",
    "position fen " NINE_START " moves z9",
    "position startpos moves d7 g7 g4 a7 d7 d6",
    "position startpos moves " NINE_18 " e3-e4 e3-e4",
    "position startpos moves d7 d7",
    "position startpos moves z9",
    "position startpos moves d7-g7",
    "position startpos moves d7xa1",
    "position startpos moves xd7",
    "position startpos moves d7 xa1",
    "position startpos moves d7 moves g7",
    "position startpos moves d7 a1 g7 a4 a7",
    "position startpos moves d7 a1 g7 a4 a7xd7",
    "position startpos moves d7 a1 g7 a4 a7 xa1 xa4",
    "position startpos moves d7 a1 g7 a4 a7xa1xa4",
    "position startpos moves " NINE_18 " b6-b4",
    "position startpos moves " NINE_18 " b6-b4xd7",
    "position startpos moves " NINE_18 " a4-b4xa7",
    "position startpos moves " NINE_18 " a7-a4",
    "position startpos moves " NINE_18 " b6-b4xa7 a1-d1 a1-d1",
    "position startpos moves d7 a1 g7 a4 a7xa1 g1 b6 f6 a7-a4",
    "position startpos moves d7 g7 g4 a7 d7g7",
    "position startpos moves d7,g7",
};

// A bad position or move list gives one error line and leaves the position as it was.
START_TEST(test_position_bad) {
    Session s;
    session_open(&s);
    ck_assert_str_eq(execute(&s, "position startpos moves d7 g7 g4"), "");
    char *before = snapshot(&s);
    assert_one_error(execute(&s, BAD_POSITIONS[_i]), BAD_POSITIONS[_i]);
    char *after = snapshot(&s);
    ck_assert_msg(!strcmp(before, after), "'%s' changed the state:\n%s\n---\n%s", BAD_POSITIONS[_i],
                  before, after);
    free(before);
    free(after);
    session_close(&s);
}
END_TEST

// A move after the game is over is refused, and so is a position from another board.
START_TEST(test_position_after_game_over) {
    Session s;
    char fen[128];
    session_open(&s);
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value three"), "");
    ck_assert_str_eq(execute(&s, "position fen " THREE_WON), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, THREE_WON);
    char *before = snapshot(&s);
    assert_one_error(execute(&s, "position fen " THREE_WON " moves c1"), "moves after a win");
    assert_one_error(execute(&s, "position startpos moves a1 a3 b1 b3 c1 c3"), "moves after a win");
    assert_one_error(execute(&s, "position fen " NINE_START), "nine string in three");
    char *after = snapshot(&s);
    ck_assert_str_eq(before, after);
    free(before);
    free(after);
    session_close(&s);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// perft

START_TEST(test_perft_2_start) {
    char *out = run("perft 2");
    ck_assert_int_eq(count_lines(out), 25);
    char line[32];
    for (int i = 0; i < NINE_NPOINTS; i++) {
        snprintf(line, sizeof line, "%s: 23", NINE_POINTS[i]);
        ck_assert_msg(has_line(out, line), "no line '%s' in:\n%s", line, out);
    }
    const char *last = out + strlen(out) - strlen("Nodes searched: 552\n");
    ck_assert_str_eq(last, "Nodes searched: 552\n");
    free(out);
}
END_TEST

START_TEST(test_perft_variants) {
    char *out = run("position startpos moves " NINE_18 "\nperft 2");
    ck_assert_msg(has_line(out, "Nodes searched: 291"), "got:\n%s", out);
    free(out);
    out = run("setoption name UCI_Variant value seven\nperft 3");
    ck_assert_msg(has_line(out, "Nodes searched: 4080"), "got:\n%s", out);
    free(out);
    out = run("setoption name UCI_Variant value tapatan\nperft 4");
    ck_assert_msg(has_line(out, "Nodes searched: 3024"), "got:\n%s", out);
    free(out);
    out = run("setoption name UCI_Variant value lasker\nperft 3");
    ck_assert_msg(has_line(out, "Nodes searched: 13552"), "got:\n%s", out);
    free(out);
    // A finished game has no moves to count.
    out = run("setoption name UCI_Variant value three\nposition fen " THREE_WON "\nperft 1");
    ck_assert_str_eq(out, "Nodes searched: 0\n");
    free(out);
}
END_TEST

// Perft leaves the position where it was.
START_TEST(test_perft_keeps_position) {
    Session s;
    session_open(&s);
    ck_assert_str_eq(execute(&s, "position startpos moves " NINE_18 " f6-f4"), "");
    char *before = snapshot(&s);
    ck_assert_msg(strstr(execute(&s, "perft 3"), "\nNodes searched: ") != NULL, "%s", s.last);
    char *after = snapshot(&s);
    ck_assert_str_eq(before, after);
    free(before);
    free(after);
    session_close(&s);
}
END_TEST

static const char *const BAD_PERFTS[] = {
    "perft 0",   "perft -1",      "perft abc", "perft",     "perft 65",
    "perft 2 3", "perft 2x",      "perft x2",  "perft 1.5", "perft 99999999999999999999999",
    "perft 0x2", "perft depth 2",
};

START_TEST(test_perft_bad) {
    char *out = run(BAD_PERFTS[_i]);
    assert_one_error(out, BAD_PERFTS[_i]);
    ck_assert(strstr(out, "Nodes searched") == NULL);
    free(out);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// moves

START_TEST(test_moves_start) {
    char *out = run("moves"), buf[512], *tok[64];
    int n = split_moves(out, buf, sizeof buf, tok, 64);
    ck_assert_int_eq(n, NINE_NPOINTS);
    for (int i = 0; i < NINE_NPOINTS; i++) {
        int seen = 0;
        for (int k = 0; k < n; k++)
            seen += !strcmp(tok[k], NINE_POINTS[i]);
        ck_assert_msg(seen == 1, "%s listed %d times in '%s'", NINE_POINTS[i], seen, out);
    }
    free(out);
}
END_TEST

// `moves` and the perft divide list the same moves.
START_TEST(test_moves_match_perft) {
    Session s;
    char buf[2048], *tok[128], line[64];
    session_open(&s);
    ck_assert_str_eq(execute(&s, "position startpos moves " NINE_18), "");
    int n = split_moves(execute(&s, "moves"), buf, sizeof buf, tok, 128);
    ck_assert_int_eq(n, 25);
    const char *p = execute(&s, "perft 1");
    for (int k = 0; k < n; k++) {
        snprintf(line, sizeof line, "%s: 1", tok[k]);
        ck_assert_msg(has_line(p, line), "no '%s' in:\n%s", line, p);
    }
    session_close(&s);
}
END_TEST

START_TEST(test_moves_game_over) {
    char *out = run("setoption name UCI_Variant value three\nposition fen " THREE_WON "\nmoves");
    ck_assert_str_eq(out, "(none)\n");
    free(out);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// d

START_TEST(test_d_start) {
    char *out = run("d"), key[64];
    const char *board = "7  .-----------.-----------.\n"
                        "   |           |           |\n"
                        "6  |   .-------.-------.   |\n"
                        "   |   |       |       |   |\n"
                        "5  |   |   .---.---.   |   |\n"
                        "   |   |   |       |   |   |\n"
                        "4  .---.---.       .---.---.\n"
                        "   |   |   |       |   |   |\n"
                        "3  |   |   .---.---.   |   |\n"
                        "   |   |       |       |   |\n"
                        "2  |   .-------.-------.   |\n"
                        "   |           |           |\n"
                        "1  .-----------.-----------.\n"
                        "   a   b   c   d   e   f   g\n";
    ck_assert_msg(!strncmp(out, board, strlen(board)), "got:\n%s", out);
    const char *rest = out + strlen(board);
    ck_assert_msg(!strncmp(rest, "Variant: nine\nPosition: " NINE_START "\nKey: ",
                           strlen("Variant: nine\nPosition: " NINE_START "\nKey: ")),
                  "got:\n%s", rest);
    ck_assert(line_after(out, "Key: ", key, sizeof key));
    ck_assert_int_eq((int)strlen(key), 16);
    ck_assert_msg(strspn(key, "0123456789abcdefABCDEF") == 16, "key '%s'", key);
    ck_assert_msg(has_line(out, "Result: the game goes on"), "got:\n%s", out);
    ck_assert_int_eq(count_lines(out), 18);
    free(out);
}
END_TEST

START_TEST(test_d_shows_men_and_result) {
    char *out = run("position startpos moves d7 a1");
    ck_assert_str_eq(out, "");
    free(out);
    out = run("position startpos moves d7 a1\nd");
    ck_assert_msg(!strncmp(out, "7  .-----------W-----------.\n", 29), "got:\n%s", out);
    ck_assert_msg(strstr(out, "\n1  B-----------.-----------.\n") != NULL, "got:\n%s", out);
    free(out);
    out = run("setoption name UCI_Variant value three\nposition fen " THREE_WON "\nd");
    char result[160];
    ck_assert(line_after(out, "Result: ", result, sizeof result));
    ck_assert_msg(!strncmp(result, "white wins", 10), "Result: %s", result);
    ck_assert_msg(has_line(out, "Variant: three"), "got:\n%s", out);
    ck_assert_msg(has_line(out, "   a   b   c"), "got:\n%s", out);
    free(out);
}
END_TEST

// Two move orders to one position give one key; another position another key.
START_TEST(test_d_key_transposition) {
    Session s;
    char k1[64], k2[64], k3[64], f1[128], f2[128];
    session_open(&s);
    ck_assert_str_eq(execute(&s, "position startpos moves d7 g7 g4 a7"), "");
    get_key(&s, k1, sizeof k1);
    get_fen(&s, f1, sizeof f1);
    ck_assert_str_eq(execute(&s, "position startpos moves g4 a7 d7 g7"), "");
    get_key(&s, k2, sizeof k2);
    get_fen(&s, f2, sizeof f2);
    ck_assert_str_eq(f1, f2);
    ck_assert_str_eq(k1, k2);
    ck_assert_str_eq(execute(&s, "position fen BWB/3/3/5W/3/3/3 w 7 7 0 3"), "");
    get_key(&s, k3, sizeof k3);
    ck_assert_str_eq(k1, k3);
    ck_assert_str_eq(execute(&s, "position startpos moves d7 a7 g1 g7"), "");
    get_key(&s, k3, sizeof k3);
    ck_assert_str_ne(k1, k3);
    // The side to move is part of the key.
    ck_assert_str_eq(execute(&s, "position fen BWB/3/3/5W/3/3/3 b 7 7 0 3"), "");
    get_key(&s, k3, sizeof k3);
    ck_assert_str_ne(k1, k3);
    session_close(&s);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Framing

START_TEST(test_framing_crlf) {
    Session s;
    char fen[128];
    session_open(&s);
    ck_assert_str_eq(execute(&s, "isready\r\n"), "readyok\n");
    ck_assert_str_eq(execute(&s, "isready\n"), "readyok\n");
    ck_assert_str_eq(execute(&s, "position startpos moves d7 g7\r\n"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "1WB/3/3/6/3/3/3 w 8 8 0 2");
    ck_assert_msg(has_line(execute(&s, "perft 1\r"), "Nodes searched: 22"), "%s", s.last);
    session_close(&s);
    const char *script = "isready\r\nposition startpos moves d7\r\nmoves\r\n";
    char *out = run_loop(script, strlen(script));
    ck_assert_msg(!strncmp(out, "readyok\n", 8) && count_lines(out) == 2 &&
                      strstr(out, "d7") == NULL && strstr(out, "\r") == NULL,
                  "got:\n%s", out);
    free(out);
}
END_TEST

START_TEST(test_framing_whitespace) {
    Session s;
    char fen[128];
    session_open(&s);
    ck_assert_str_eq(execute(&s, "  \t isready \t "), "readyok\n");
    ck_assert_str_eq(execute(&s, "\tposition \t startpos\t\tmoves   d7\t \tg7  "), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "1WB/3/3/6/3/3/3 w 8 8 0 2");
    ck_assert_str_eq(execute(&s, "position   fen\t3/3/3/6/3/3/3 \t b  9\t8   0 1"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "3/3/3/6/3/3/3 b 9 8 0 1");
    ck_assert_str_eq(execute(&s, "setoption  name\tUCI_Variant \t value   six "), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, SIX_START);
    const char *p = execute(&s, "perft\t\t1   ");
    ck_assert_msg(has_line(p, "Nodes searched: 16"), "got:\n%s", p);
    session_close(&s);
}
END_TEST

START_TEST(test_framing_silent_lines) {
    static const char *const silent[] = {"",     "\n",       "\r\n",       "   ",
                                         "\t\t", " \t \r\n", "# comment",  "#isready",
                                         "#",    "  # quit", "\t#perft 1", "#d\r\n"};
    Session s;
    session_open(&s);
    for (size_t i = 0; i < sizeof silent / sizeof silent[0]; i++) {
        ck_assert_msg(uci_execute(&s.uci, silent[i]), "'%s' quit", silent[i]);
        ck_assert_msg(!strcmp(take_output(&s), ""), "'%s' gave '%s'", silent[i], s.last);
    }
    session_close(&s);
    const char *script = "\n\r\n# uci\n   \n\t\n#quit\nisready\n";
    char *out = run_loop(script, strlen(script));
    ck_assert_str_eq(out, "readyok\n");
    free(out);
}
END_TEST

static const char *const UNKNOWN_COMMANDS[] = {
    "foo", "Isready", "ISREADY", "isready2", "is", "perft2", "go2", "uci_", "D", "dd", "quitx",
};

START_TEST(test_framing_unknown_command) {
    char *out = run(UNKNOWN_COMMANDS[_i]);
    assert_one_error(out, UNKNOWN_COMMANDS[_i]);
    ck_assert_msg(!strncmp(out, ERROR_PREFIX "unknown command", strlen(ERROR_PREFIX) + 15),
                  "got: %s", out);
    ck_assert_msg(strstr(out, UNKNOWN_COMMANDS[_i]) != NULL, "got: %s", out);
    free(out);
}
END_TEST

// Lines with bytes that are not printable ASCII; each is bad input for some command.
static const char *const RAW_BYTES[] = {
    "\x01\xff\xfe",
    "\x1b[2J\x07",
    "isready\x01",
    "position \x01\xff\xfe",
    "position startpos moves \x01\xff\xfe",
    "position startpos moves d7 \x1b[2J",
    "position startpos moves d7\xff",
    "position fen \x01\xff\xfe w 9 9 0 1",
    "position fen 3/3/3/6/3/3/3 \x01\xff 9 9 0 1",
    "setoption name UCI_Variant value \x01\xff\xfe",
    "setoption name \x01\xff\xfe value 1",
    "setoption name Flying value \x01\xff\xfe",
    "setoption name NMoveRule value \x01\xff\xfe",
    "perft \x01\xff\xfe",
};

// Write the first line of s with every byte outside printable ASCII as \xHH.
static const char *escaped(const char *s, char *buf, size_t n) {
    size_t len = 0;
    buf[0] = '\0';
    for (const unsigned char *c = (const unsigned char *)s; *c && *c != '\n' && len + 5 < n; c++)
        len +=
            (size_t)snprintf(buf + len, n - len, *c >= 0x20 && *c <= 0x7e ? "%c" : "\\x%02x", *c);
    return buf;
}

// Error replies never echo raw control or high bytes.
START_TEST(test_framing_no_raw_bytes) {
    char in[256], got[512];
    char *out = run(RAW_BYTES[_i]);
    assert_one_error(out, escaped(RAW_BYTES[_i], in, sizeof in));
    ck_assert_msg(printable_ascii(out), "'%s' is echoed raw: %s",
                  escaped(RAW_BYTES[_i], in, sizeof in), escaped(out, got, sizeof got));
    free(out);
}
END_TEST

// Lines of 1 MB made of many short tokens, each a bad argument of some command.
static const char *const LONG_LINE_HEADS[] = {
    "foo ",
    "position startpos moves ",
    "position fen ",
    "setoption name ",
    "setoption name UCI_Variant value ",
    "setoption name NMoveRule value ",
    "perft ",
    "go ",
    "go searchmoves ",
    "go depth 1 searchmoves d7 ",
    "bench ",
};

// A long line of many tokens is refused in a time linear in its length, not quadratic: a
// quadratic join took 5-6 s on 1 MB, the linear one takes milliseconds; 1 s leaves room for a
// loaded machine and the sanitizer build.
START_TEST(test_framing_long_line_fast) {
    enum { MB = 1 << 20 };
    char *line = malloc(MB + 64);
    ck_assert_ptr_nonnull(line);
    strcpy(line, LONG_LINE_HEADS[_i]);
    for (size_t len = strlen(line); len < MB; len += 3)
        memcpy(line + len, "3/ ", 4);
    Session s;
    session_open(&s);
    double t0 = seconds();
    const char *out = execute(&s, line);
    double t = seconds() - t0;
    assert_one_error(out, LONG_LINE_HEADS[_i]);
    ck_assert_msg(t < 1.0, "'%s' + 1 MB of short tokens took %.2f s", LONG_LINE_HEADS[_i], t);
    session_close(&s);
    free(line);
}
END_TEST

// One megabyte of junk on a line, and a position line with thousands of tokens.
START_TEST(test_framing_long_lines) {
    enum { MB = 1 << 20 };
    char *line = malloc(MB + 64);
    ck_assert_ptr_nonnull(line);
    Session s;
    session_open(&s);
    ck_assert_str_eq(execute(&s, "position startpos moves d7 g7"), "");
    char *before = snapshot(&s);

    memset(line, 'j', MB);
    line[MB] = '\0';
    const char *r = execute(&s, line);
    assert_one_error(r, "1 MB token");
    ck_assert_int_lt((int)strlen(r), 200);

    for (int i = 0; i < MB; i++)
        line[i] = i % 5 == 4 ? ' ' : "junk"[i % 5];
    assert_one_error(execute(&s, line), "1 MB of junk tokens");

    strcpy(line, "position startpos moves ");
    for (size_t len = strlen(line); len < MB; len += 3)
        memcpy(line + len, "zz ", 4);
    assert_one_error(execute(&s, line), "position with 1 MB of junk moves");

    strcpy(line, "position fen ");
    for (size_t len = strlen(line); len < MB; len += 2)
        memcpy(line + len, "3/", 3);
    assert_one_error(execute(&s, line), "1 MB position string");

    strcpy(line, "setoption name ");
    memset(line + strlen(line), 'a', MB);
    line[MB] = '\0';
    assert_one_error(execute(&s, line), "1 MB option name");

    strcpy(line, "setoption name UCI_Variant value ");
    memset(line + strlen(line), 'v', MB);
    line[MB] = '\0';
    assert_one_error(execute(&s, line), "1 MB variant name");

    strcpy(line, "perft ");
    for (size_t len = strlen(line); len < MB; len++)
        line[len] = '7', line[len + 1] = '\0';
    assert_one_error(execute(&s, line), "1 MB perft depth");

    char *after = snapshot(&s);
    ck_assert_str_eq(before, after);
    free(after);

    // Through uci_loop: the 1 MB line is read whole, and the next line still runs.
    memset(line, 'q', MB);
    strcpy(line + MB, "\nisready\n");
    char *out = run_loop(line, strlen(line));
    ck_assert_int_eq(count_lines(out), 2);
    ck_assert_msg(!strncmp(out, ERROR_PREFIX, strlen(ERROR_PREFIX)), "got: %.200s", out);
    ck_assert_str_eq(strchr(out, '\n') + 1, "readyok\n");
    free(out);
    free(before);
    free(line);
    session_close(&s);
}
END_TEST

// Thousands of moves: accepted when legal, refused as a whole when the game ends on the way.
START_TEST(test_framing_many_moves) {
    enum { CYCLES = 1000 };
    const char *cycle = " a4-b4 a1-d1 b4-a4 d1-a1";
    size_t cap = strlen("position startpos moves " NINE_18) + CYCLES * strlen(cycle) + 32;
    char *line = malloc(cap), fen[128];
    ck_assert_ptr_nonnull(line);
    strcpy(line, "position startpos moves " NINE_18);
    size_t len = strlen(line);
    for (int i = 0; i < CYCLES; i++, len += strlen(cycle))
        memcpy(line + len, cycle, strlen(cycle) + 1);

    Session s;
    session_open(&s);
    ck_assert_str_eq(execute(&s, "position startpos moves d7"), "");
    char *before = snapshot(&s);
    // With the default rules the third repetition ends the game.
    assert_one_error(execute(&s, line), "4000 shuffling moves with repetition on");
    char *after = snapshot(&s);
    ck_assert_str_eq(before, after);
    free(after);

    ck_assert_str_eq(execute(&s, "setoption name Repetition value false"), "");
    ck_assert_str_eq(execute(&s, "setoption name NMoveRule value 0"), "");
    ck_assert_str_eq(execute(&s, line), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "BWB/WBW/BBW/W1W2W/B1W/1BW/B1B w 0 0 4000 2010");
    ck_assert_msg(has_line(execute(&s, "perft 1"), "Nodes searched: 25"), "%s", s.last);

    // The same line with its last move illegal changes nothing.
    line[len - 2] = 'g';
    char *before2 = snapshot(&s);
    assert_one_error(execute(&s, line), "4000 moves, the last illegal");
    after = snapshot(&s);
    ck_assert_str_eq(before2, after);
    free(before2);
    free(after);
    free(before);
    free(line);
    session_close(&s);
}
END_TEST

START_TEST(test_framing_quit) {
    Session s;
    session_open(&s);
    ck_assert(uci_execute(&s.uci, "isready"));
    ck_assert(uci_execute(&s.uci, "position startpos moves d7"));
    ck_assert(!uci_execute(&s.uci, "quit"));
    ck_assert_str_eq(take_output(&s), "readyok\n");
    session_close(&s);

    session_open(&s);
    ck_assert(!uci_execute(&s.uci, "  quit\r\n"));
    session_close(&s);

    // uci_loop stops at quit: later lines are not executed.
    session_open(&s);
    const char *script = "isready\nposition startpos moves d7\nquit\nisready\n"
                         "position startpos moves g7\nuci\n";
    FILE *in = fmemopen((void *)script, strlen(script), "r");
    ck_assert_ptr_nonnull(in);
    uci_loop(&s.uci, in);
    ck_assert_str_eq(take_output(&s), "readyok\n");
    // The line before quit was played; the one after it was not.
    char fen[128];
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "1W1/3/3/6/3/3/3 b 8 9 0 1");
    fclose(in);
    session_close(&s);

    // A last line without its newline is still executed; so is everything before end of input.
    const char *tail = "isready\nisready";
    char *out = run_loop(tail, strlen(tail));
    ck_assert_str_eq(out, "readyok\nreadyok\n");
    free(out);
    const char *q = "quit";
    out = run_loop(q, strlen(q));
    ck_assert_str_eq(out, "");
    free(out);
}
END_TEST

// A whole session through uci_loop, as a GUI would drive it.
START_TEST(test_loop_script) {
    const char *script = "uci\n"
                         "isready\n"
                         "setoption name UCI_Variant value six\n"
                         "ucinewgame\n"
                         "position startpos moves a5 b4\n"
                         "moves\n"
                         "perft 1\n"
                         "quit\n";
    char *out = run_loop(script, strlen(script));
    ck_assert_msg(has_line(out, "uciok"), "got:\n%s", out);
    ck_assert_msg(has_line(out, "readyok"), "got:\n%s", out);
    ck_assert_msg(has_line(out, "Nodes searched: 14"), "got:\n%s", out);
    ck_assert(strstr(out, ERROR_PREFIX) == NULL);
    free(out);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// info lines, formatted from made-up reports

static SearchReport make_report(int score) {
    SearchReport r = {.depth = 5, .seldepth = 7, .multipv = 1, .score = score};
    r.nodes = 12345;
    r.time_ms = 0;
    r.hashfull = 3;
    strcpy(r.pv, "d6 b4");
    return r;
}

START_TEST(test_info_format) {
    char line[INFO_LINE_MAX];
    SearchReport r = make_report(35);
    info_format(&r, false, line, sizeof line);
    ck_assert_str_eq(line, "info depth 5 seldepth 7 multipv 1 score cp 35 nodes 12345 nps "
                           "12345000 hashfull 3 time 0 pv d6 b4");
    r.time_ms = 2000;
    r.nodes = 1000000;
    r.multipv = 2;
    r.score = -120;
    info_format(&r, false, line, sizeof line);
    ck_assert_str_eq(line, "info depth 5 seldepth 7 multipv 2 score cp -120 nodes 1000000 nps "
                           "500000 hashfull 3 time 2000 pv d6 b4");
    r = make_report(35);
    r.lowerbound = true;
    r.wdl[0] = 500, r.wdl[1] = 400, r.wdl[2] = 100;
    info_format(&r, true, line, sizeof line);
    ck_assert_str_eq(line, "info depth 5 seldepth 7 multipv 1 score cp 35 lowerbound wdl 500 400 "
                           "100 nodes 12345 nps 12345000 hashfull 3 time 0 pv d6 b4");
    r.lowerbound = false;
    r.upperbound = true;
    info_format(&r, false, line, sizeof line);
    ck_assert_msg(strstr(line, " score cp 35 upperbound nodes 12345 ") != NULL, "%s", line);
}
END_TEST

// Mate scores in moves of the side to move, negative when it is being mated.
START_TEST(test_info_mate_scores) {
    static const struct {
        int score;
        const char *text;
    } cases[] = {
        {SCORE_MATE - 1, " score mate 1 "},     {SCORE_MATE - 2, " score mate 1 "},
        {SCORE_MATE - 3, " score mate 2 "},     {SCORE_MATE - 9, " score mate 5 "},
        {-(SCORE_MATE - 2), " score mate -1 "}, {-(SCORE_MATE - 4), " score mate -2 "},
        {-SCORE_MATE, " score mate 0 "},        {SCORE_MATE_IN_MAX - 1, " score cp "},
    };
    char line[INFO_LINE_MAX];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        SearchReport r = make_report(cases[i].score);
        info_format(&r, false, line, sizeof line);
        ck_assert_msg(strstr(line, cases[i].text) != NULL, "score %d gave '%s'", cases[i].score,
                      line);
    }
}
END_TEST

START_TEST(test_info_bestmove) {
    char line[96];
    SearchResult res = {.best = "d6", .ponder = "b4"};
    info_bestmove(&res, true, line, sizeof line);
    ck_assert_str_eq(line, "bestmove d6 ponder b4");
    // UGI: exactly two tokens.
    info_bestmove(&res, false, line, sizeof line);
    ck_assert_str_eq(line, "bestmove d6");
    res.ponder[0] = '\0';
    info_bestmove(&res, true, line, sizeof line);
    ck_assert_str_eq(line, "bestmove d6");
    strcpy(res.best, "(none)");
    info_bestmove(&res, true, line, sizeof line);
    ck_assert_str_eq(line, "bestmove (none)");
}
END_TEST

// ---------------------------------------------------------------------------------------------
// go, stop, ponderhit: the search runs on its thread while commands keep coming

// Seconds to wait for a search that should end: generous, for the sanitizer build on a
// loaded machine.
#define SEARCH_WAIT 20.0
#define THREE_MATE_IN_1 "WW1/3/BB1 w 1 1 0 3" // white places c3 and wins

// Wait up to timeout seconds for a line starting with prefix among the lines written since
// the last take_output.
static bool wait_for_lines(Session *s, const char *prefix, int count, double timeout);

static bool wait_for_line(Session *s, const char *prefix, double timeout) {
    return wait_for_lines(s, prefix, 1, timeout);
}

// Wait up to timeout seconds for count lines starting with prefix among the lines written
// since the last take_output.
static bool wait_for_lines(Session *s, const char *prefix, int count, double timeout) {
    double t0 = seconds();
    for (;;) {
        char *text = peek_output(s);
        bool found = count_prefix(text, prefix) >= count;
        free(text);
        if (found)
            return true;
        if (seconds() - t0 > timeout)
            return false;
        sleep_ms(1);
    }
}

// Wait for the search's bestmove, join its thread and return everything written since the
// last take_output.
static const char *finish_search(Session *s) {
    bool ok = wait_for_line(s, "bestmove ", SEARCH_WAIT);
    uci_stop_search(&s->uci);
    ck_assert_msg(ok, "no bestmove within %.0f s", SEARCH_WAIT);
    return take_output(s);
}

// The start of the last line of text.
static const char *last_line(const char *text) {
    const char *l = text + strlen(text);
    if (l > text && l[-1] == '\n')
        l--;
    while (l > text && l[-1] != '\n')
        l--;
    return l;
}

// Read the one bestmove line of text into best and ponder ("" when absent).
static void get_bestmove(const char *text, char *best, char *ponder, size_t n) {
    char rest[256], a[64] = "", kw[64] = "", b[64] = "", extra[64] = "";
    int lines = count_prefix(text, "bestmove");
    ck_assert_msg(lines == 1, "%d bestmove lines in:\n%.3000s", lines, text);
    ck_assert(line_after(text, "bestmove ", rest, sizeof rest));
    int k = sscanf(rest, "%63s %63s %63s %63s", a, kw, b, extra);
    ck_assert_msg(k == 1 || (k == 3 && !strcmp(kw, "ponder")), "bad line 'bestmove %s'", rest);
    ck_assert_msg(!strchr(rest, '\t') && !strstr(rest, "  ") && rest[strlen(rest) - 1] != ' ',
                  "bad spacing in 'bestmove %s'", rest);
    snprintf(best, n, "%s", a);
    snprintf(ponder, n, "%s", k == 3 ? b : "");
}

// Whether move is one of the legal moves of the session's position.
static bool is_legal(Session *s, const char *move) {
    static char buf[16384];
    static char *tok[2048];
    if (!strcmp(move, "(none)"))
        return false;
    int n = split_moves(execute(s, "moves"), buf, sizeof buf, tok, 2048);
    for (int i = 0; i < n; i++)
        if (!strcmp(tok[i], move))
            return true;
    return false;
}

// Check a finished search's output: exactly one bestmove, legal in the session's position,
// and its ponder move legal after it. The position is set again from its string afterwards.
static void assert_good_bestmove(Session *s, const char *text, char *best_out, size_t n) {
    char best[64], ponder[64], fen[128], line[512];
    char *copy = strdup(text);
    ck_assert_ptr_nonnull(copy);
    get_bestmove(copy, best, ponder, sizeof best);
    free(copy);
    ck_assert_msg(is_legal(s, best), "bestmove %s is not legal", best);
    if (ponder[0]) {
        get_fen(s, fen, sizeof fen);
        snprintf(line, sizeof line, "position fen %s moves %s", fen, best);
        ck_assert_str_eq(execute(s, line), "");
        ck_assert_msg(is_legal(s, ponder), "ponder %s is not legal after %s", ponder, best);
        snprintf(line, sizeof line, "position fen %s", fen);
        ck_assert_str_eq(execute(s, line), "");
    }
    if (best_out)
        snprintf(best_out, n, "%s", best);
}

typedef struct Info {
    int depth, seldepth, multipv;
    bool mate;
    long long score; // centi-men, or moves to mate
    bool has_wdl;
    long long nodes, nps, hashfull, time;
    char first[64]; // the first move of the pv
} Info;

// Read a decimal number token (negative only when sign) into v.
static bool read_number(const char *tok, bool sign, long long *v) {
    const char *d = sign && *tok == '-' ? tok + 1 : tok;
    if (!*d || strspn(d, "0123456789") != strlen(d) || strlen(d) > 18)
        return false;
    *v = strtoll(tok, NULL, 10);
    return true;
}

// Parse an info line against the contract: keywords in order, numbers numeric, single spaces.
static void parse_info(const char *line, Info *in) {
    char buf[4096], *tok[1024];
    int n = 0, i = 0;
    long long v[3];
    ck_assert_msg(strlen(line) < sizeof buf, "info line too long");
    ck_assert_msg(!strstr(line, "  ") && line[strlen(line) - 1] != ' ' && !strchr(line, '\t'),
                  "bad spacing: '%s'", line);
    strcpy(buf, line);
    for (char *save, *t = strtok_r(buf, " ", &save); t && n < 1024; t = strtok_r(NULL, " ", &save))
        tok[n++] = t;
#define KEYWORD(k)                                                                                 \
    ck_assert_msg(i < n && !strcmp(tok[i], k), "expected '%s' at token %d of '%s'", k, i, line), i++
#define NUMBER(sign, out)                                                                          \
    ck_assert_msg(i < n && read_number(tok[i], sign, out), "token %d of '%s' is not a number", i,  \
                  line),                                                                           \
        i++
    memset(in, 0, sizeof *in);
    KEYWORD("info");
    KEYWORD("depth");
    NUMBER(false, &v[0]);
    in->depth = (int)v[0];
    KEYWORD("seldepth");
    NUMBER(false, &v[0]);
    in->seldepth = (int)v[0];
    KEYWORD("multipv");
    NUMBER(false, &v[0]);
    in->multipv = (int)v[0];
    KEYWORD("score");
    ck_assert_msg(i < n && (!strcmp(tok[i], "cp") || !strcmp(tok[i], "mate")),
                  "no cp or mate after score in '%s'", line);
    in->mate = !strcmp(tok[i++], "mate");
    NUMBER(true, &in->score);
    ck_assert_msg(!in->mate || in->score != 0, "mate 0 in '%s'", line);
    if (i < n && (!strcmp(tok[i], "lowerbound") || !strcmp(tok[i], "upperbound")))
        i++;
    if (i < n && !strcmp(tok[i], "wdl")) {
        i++;
        NUMBER(false, &v[0]);
        NUMBER(false, &v[1]);
        NUMBER(false, &v[2]);
        ck_assert_msg(v[0] + v[1] + v[2] == 1000, "wdl does not add up to 1000: '%s'", line);
        in->has_wdl = true;
    }
    KEYWORD("nodes");
    NUMBER(false, &in->nodes);
    KEYWORD("nps");
    NUMBER(false, &in->nps);
    KEYWORD("hashfull");
    NUMBER(false, &in->hashfull);
    KEYWORD("time");
    NUMBER(false, &in->time);
    KEYWORD("pv");
    ck_assert_msg(i < n, "empty pv in '%s'", line);
    snprintf(in->first, sizeof in->first, "%s", tok[i]);
#undef KEYWORD
#undef NUMBER
    ck_assert_msg(in->depth >= 1 && in->multipv >= 1, "'%s'", line);
    ck_assert_msg(in->hashfull <= 1000, "hashfull over 1000: '%s'", line);
    ck_assert_msg(in->nps == in->nodes * 1000 / (in->time > 1 ? in->time : 1),
                  "nps is not nodes * 1000 / time: '%s'", line);
}

// Parse every info line of text except `info string`; return how many there are.
static int parse_infos(const char *text, Info *infos, int max) {
    int n = 0;
    for (const char *l = text; *l;) {
        const char *end = strchr(l, '\n');
        size_t len = end ? (size_t)(end - l) : strlen(l);
        if (len > 5 && !strncmp(l, "info ", 5) && strncmp(l, "info string", 11)) {
            char *line = strndup(l, len);
            ck_assert_ptr_nonnull(line);
            ck_assert_msg(n < max, "too many info lines");
            parse_info(line, &infos[n++]);
            free(line);
        }
        if (!end)
            break;
        l = end + 1;
    }
    return n;
}

static const char *const VARIANT_IDS[] = {"nine",   "twelve",     "eleven",  "morabaraba",
                                          "lasker", "six",        "five",    "seven",
                                          "three",  "nine-holes", "tapatan", "achi"};

// go depth 1 answers a legal move in every variant, from the start and after a few moves.
START_TEST(test_go_depth1_variants) {
    Session s;
    char line[256], best[64];
    session_open(&s);
    snprintf(line, sizeof line, "setoption name UCI_Variant value %s", VARIANT_IDS[_i]);
    ck_assert_str_eq(execute(&s, line), "");
    for (int ply = 0; ply < 4; ply++) {
        uci_execute(&s.uci, "go depth 1");
        const char *out = finish_search(&s);
        ck_assert_msg(count_prefix(out, "info depth 1 ") >= 1, "no depth 1 info:\n%s", out);
        assert_good_bestmove(&s, out, best, sizeof best);
        char fen[128];
        get_fen(&s, fen, sizeof fen);
        snprintf(line, sizeof line, "position fen %s moves %s", fen, best);
        ck_assert_str_eq(execute(&s, line), "");
    }
    session_close(&s);
}
END_TEST

// A finished game: bestmove (none), at once for a limited search, on stop for an infinite one.
START_TEST(test_go_game_over) {
    Session s;
    session_open(&s);
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value three"), "");
    ck_assert_str_eq(execute(&s, "position fen " THREE_WON), "");
    uci_execute(&s.uci, "go depth 1");
    ck_assert_str_eq(finish_search(&s), "bestmove (none)\n");
    uci_execute(&s.uci, "go movetime 50");
    ck_assert_str_eq(finish_search(&s), "bestmove (none)\n");
    uci_execute(&s.uci, "go infinite");
    sleep_ms(50);
    ck_assert_str_eq(take_output(&s), "");
    ck_assert_str_eq(execute(&s, "stop"), "bestmove (none)\n");
    // A draw by the N-move rule ends the game as well.
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value nine"), "");
    ck_assert_str_eq(execute(&s, "setoption name NMoveRule value 4"), "");
    ck_assert_str_eq(execute(&s, "position fen " NINE_3MEN), "");
    uci_execute(&s.uci, "go depth 2");
    ck_assert_str_eq(finish_search(&s), "bestmove (none)\n");
    session_close(&s);
}
END_TEST

// The node count of a depth-9 search from a cleared table.
static long long depth9_nodes(Session *s) {
    ck_assert_str_eq(execute(s, "ucinewgame"), "");
    uci_execute(&s->uci, "go depth 9");
    char line[512];
    long long nodes = -1;
    ck_assert(line_after(finish_search(s), "info depth 9 ", line, sizeof line));
    const char *p = strstr(line, " nodes ");
    ck_assert(p && sscanf(p, " nodes %lld", &nodes) == 1);
    return nodes;
}

// The search switches: each one off changes the tree of a fixed-depth search; on again, the
// tree is the default one.
START_TEST(test_search_switches) {
    static const char *const SWITCHES[] = {"ReverseFutility", "LateMovePruning",
                                           "LateMoveReductions", "Quiescence", "AspirationWindows"};
    Session s;
    session_open(&s);
    char cmd[128];
    ck_assert_str_eq(execute(&s, "position startpos moves d7 g7 g4 a7 a4 g1"), "");
    long long base = depth9_nodes(&s);
    for (int i = 0; i < 5; i++) {
        snprintf(cmd, sizeof cmd, "setoption name %s value false", SWITCHES[i]);
        ck_assert_str_eq(execute(&s, cmd), "");
        long long off = depth9_nodes(&s);
        ck_assert_msg(off != base, "%s off: the same search (%lld nodes)", SWITCHES[i], off);
        snprintf(cmd, sizeof cmd, "setoption name %s value true", SWITCHES[i]);
        ck_assert_str_eq(execute(&s, cmd), "");
    }
    ck_assert_int_eq(depth9_nodes(&s), base);
    ck_assert_str_eq(execute(&s, "setoption name Quiescence value maybe"),
                     "info string error: option Quiescence takes true or false, not 'maybe'\n");
    session_close(&s);
}
END_TEST

// go depth 3: info lines in the contract's format, deepening to 3, then the bestmove, which is
// the first move of the last principal variation.
START_TEST(test_go_info_format) {
    Session s;
    Info infos[64];
    char best[64];
    session_open(&s);
    ck_assert_str_eq(execute(&s, "position startpos moves d7 g7 g4 a7"), "");
    uci_execute(&s.uci, "go depth 3");
    const char *out = finish_search(&s);
    ck_assert_msg(printable_ascii(out), "%s", out);
    ck_assert_msg(!strncmp(last_line(out), "bestmove ", 9), "bestmove is not the last line:\n%s",
                  out);
    int n = parse_infos(out, infos, 64);
    ck_assert_int_ge(n, 1);
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(infos[i].multipv, 1);
        ck_assert_msg(!infos[i].has_wdl, "wdl without UCI_ShowWDL:\n%s", out);
        ck_assert_int_le(infos[i].depth, 3);
        if (i > 0) {
            ck_assert_int_ge(infos[i].depth, infos[i - 1].depth);
            ck_assert(infos[i].nodes >= infos[i - 1].nodes);
            ck_assert(infos[i].time >= infos[i - 1].time);
        }
    }
    ck_assert_int_eq(infos[n - 1].depth, 3);
    char *copy = strdup(out);
    assert_good_bestmove(&s, copy, best, sizeof best);
    ck_assert_str_eq(best, infos[n - 1].first);
    free(copy);
    session_close(&s);
}
END_TEST

// UCI_ShowWDL adds `wdl w d l` to every info line.
START_TEST(test_go_show_wdl) {
    Session s;
    Info infos[64];
    session_open(&s);
    ck_assert_str_eq(execute(&s, "setoption name UCI_ShowWDL value true"), "");
    uci_execute(&s.uci, "go depth 3");
    const char *out = finish_search(&s);
    int n = parse_infos(out, infos, 64);
    ck_assert_int_ge(n, 1);
    for (int i = 0; i < n; i++)
        ck_assert_msg(infos[i].has_wdl, "no wdl:\n%s", out);
    ck_assert_str_eq(execute(&s, "setoption name UCI_ShowWDL value false"), "");
    uci_execute(&s.uci, "go depth 2");
    out = finish_search(&s);
    n = parse_infos(out, infos, 64);
    for (int i = 0; i < n; i++)
        ck_assert_msg(!infos[i].has_wdl, "wdl after switching it off:\n%s", out);
    session_close(&s);
}
END_TEST

// stop ends an infinite search at once with exactly one legal bestmove; later stops are silent.
START_TEST(test_go_infinite_stop) {
    static const char *const gos[] = {"go infinite", "go", "go searchmoves d6 b4", "go winc 100"};
    Session s;
    session_open(&s);
    for (size_t i = 0; i < sizeof gos / sizeof gos[0]; i++) {
        uci_execute(&s.uci, gos[i]);
        sleep_ms(100);
        char *text = peek_output(&s);
        ck_assert_msg(count_prefix(text, "bestmove") == 0, "'%s' ended by itself:\n%s", gos[i],
                      text);
        free(text);
        double t0 = seconds();
        uci_execute(&s.uci, "stop");
        double t = seconds() - t0;
        ck_assert_msg(t < 2.0, "stop took %.2f s", t);
        char *out = strdup(take_output(&s));
        ck_assert_ptr_nonnull(out);
        assert_good_bestmove(&s, out, NULL, 0);
        free(out);
        ck_assert_str_eq(execute(&s, "stop"), "");
        ck_assert_str_eq(execute(&s, "ponderhit"), "");
    }
    session_close(&s);
}
END_TEST

// stop and ponderhit without a search are ignored, also after a search ended by itself.
START_TEST(test_stop_when_idle) {
    Session s;
    session_open(&s);
    ck_assert_str_eq(execute(&s, "stop"), "");
    ck_assert_str_eq(execute(&s, "ponderhit"), "");
    uci_execute(&s.uci, "go depth 1");
    ck_assert(wait_for_line(&s, "bestmove", SEARCH_WAIT));
    take_output(&s);
    ck_assert_str_eq(execute(&s, "stop"), "");
    ck_assert_str_eq(execute(&s, "ponderhit"), "");
    ck_assert_str_eq(execute(&s, "stop"), "");
    session_close(&s);
}
END_TEST

// isready, d, moves, eval, uci and help answer during a search without stopping it.
START_TEST(test_commands_during_search) {
    static const char *const reading[] = {"isready", "d", "moves", "eval", "uci", "help"};
    Session s;
    session_open(&s);
    uci_execute(&s.uci, "go infinite");
    for (size_t i = 0; i < sizeof reading / sizeof reading[0]; i++) {
        uci_execute(&s.uci, reading[i]);
        char *text = peek_output(&s);
        ck_assert_msg(count_prefix(text, "bestmove") == 0, "'%s' stopped the search:\n%s",
                      reading[i], text);
        ck_assert_msg(count_prefix(text, ERROR_PREFIX) == 0, "%s", text);
        free(text);
    }
    const char *out = take_output(&s);
    ck_assert_msg(count_prefix(out, "readyok") == 1, "%s", out);
    ck_assert_msg(count_prefix(out, "uciok") == 1, "%s", out);
    ck_assert_msg(count_prefix(out, "Position: " NINE_START) == 1, "%s", out);
    out = execute(&s, "stop");
    ck_assert_int_eq(count_prefix(out, "bestmove "), 1);
    session_close(&s);
}
END_TEST

// Each command that changes the state first stops the search: its bestmove comes before the
// command's own replies, and the command then runs.
static const char *const STOPPING[] = {
    "position startpos moves d7",
    "setoption name Hash value 8",
    "setoption name UCI_Variant value six",
    "setoption name Flying value false",
    "ucinewgame",
    "perft 1",
    "bench 1",
    "go depth 1",
    "stop",
    "quit",
    "position garbage",
};

START_TEST(test_command_stops_search) {
    const char *cmd = STOPPING[_i];
    Session s;
    session_open(&s);
    uci_execute(&s.uci, "go infinite");
    sleep_ms(20);
    bool go_on = uci_execute(&s.uci, cmd);
    ck_assert(go_on == (strcmp(cmd, "quit") != 0));
    if (!strcmp(cmd, "go depth 1")) // the second search ends by itself
        ck_assert(wait_for_lines(&s, "bestmove ", 2, SEARCH_WAIT));
    uci_stop_search(&s.uci);
    take_output(&s);
    char *out = strdup(s.last);
    ck_assert_ptr_nonnull(out);
    // Only info lines precede the first bestmove, which is a legal move of the start.
    const char *first = strstr(out, "bestmove ");
    ck_assert_msg(first != NULL, "'%s' did not stop the search:\n%s", cmd, out);
    for (const char *l = out; l < first; l = strchr(l, '\n') + 1)
        ck_assert_msg(!strncmp(l, "info ", 5), "'%s' replied before the bestmove:\n%s", cmd, out);
    char best[64];
    sscanf(first, "bestmove %63s", best);
    bool start_point = false;
    for (int i = 0; i < NINE_NPOINTS; i++)
        start_point |= !strcmp(best, NINE_POINTS[i]);
    ck_assert_msg(start_point, "bestmove %s is not a move of the start", best);
    ck_assert_int_eq(count_prefix(out, "bestmove "), strcmp(cmd, "go depth 1") ? 1 : 2);
    if (!strcmp(cmd, "perft 1"))
        ck_assert_msg(has_line(out, "Nodes searched: 24"), "%s", out);
    if (!strcmp(cmd, "position startpos moves d7")) {
        char fen[128];
        get_fen(&s, fen, sizeof fen);
        ck_assert_str_eq(fen, "1W1/3/3/6/3/3/3 b 8 9 0 1");
    }
    if (!strcmp(cmd, "position garbage"))
        ck_assert_int_eq(count_prefix(out, ERROR_PREFIX), 1);
    free(out);
    session_close(&s);
}
END_TEST

// quit during a search stops it; through uci_loop the loop returns with one bestmove.
START_TEST(test_quit_during_search) {
    Session s;
    session_open(&s);
    uci_execute(&s.uci, "go infinite");
    sleep_ms(20);
    ck_assert(!uci_execute(&s.uci, "quit"));
    ck_assert_int_eq(count_prefix(take_output(&s), "bestmove "), 1);
    session_close(&s);

    const char *script = "go infinite\nisready\nquit\nisready\n";
    double t0 = seconds();
    char *out = run_loop(script, strlen(script));
    ck_assert_msg(seconds() - t0 < 5.0, "quit took %.1f s", seconds() - t0);
    ck_assert_int_eq(count_prefix(out, "readyok"), 1);
    ck_assert_int_eq(count_prefix(out, "bestmove "), 1);
    free(out);

    // A session freed while searching stops the search too.
    session_open(&s);
    uci_execute(&s.uci, "go infinite");
    sleep_ms(20);
    uci_free(&s.uci);
    ck_assert_int_eq(count_prefix(take_output(&s), "bestmove "), 1);
    session_close(&s); // a second uci_free does nothing
}
END_TEST

// At end of input a running search is stopped and its bestmove printed before uci_loop returns.
// At end of input a search that would never end (infinite, bare go, ponder) is stopped; a
// search with its own limit finishes first, so that a piped script gets what it asked for.
START_TEST(test_eof_during_search) {
    static const char *const scripts[] = {
        "go infinite\n",
        "go\n",
        "go ponder movetime 100000\n",
        "position startpos moves d7\ngo movetime 300",
        "uci\nisready\nposition startpos\ngo depth 2\n",
    };
    for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; i++) {
        double t0 = seconds();
        char *out = run_loop(scripts[i], strlen(scripts[i]));
        ck_assert_msg(seconds() - t0 < 5.0, "end of input took %.1f s", seconds() - t0);
        ck_assert_msg(count_prefix(out, "bestmove ") == 1, "script %zu gave:\n%s", i, out);
        ck_assert(count_prefix(out, ERROR_PREFIX) == 0);
        free(out);
    }
    // The limited searches ran to their limit: depth 2 was reached, and 300 ms were used.
    double t0 = seconds();
    char *out = run_loop(scripts[3], strlen(scripts[3]));
    ck_assert_msg(seconds() - t0 >= 0.25, "go movetime 300 ended after %.2f s at end of input",
                  seconds() - t0);
    free(out);
    out = run_loop(scripts[4], strlen(scripts[4]));
    ck_assert_msg(strstr(out, "info depth 2 ") != NULL, "go depth 2 did not reach depth 2:\n%s",
                  out);
    free(out);
}
END_TEST

// go movetime 100 answers by itself within 100 ms and some slack (the engine may stop early
// when its best move is stable).
START_TEST(test_go_movetime) {
    Session s;
    session_open(&s);
    double t0 = seconds();
    uci_execute(&s.uci, "go movetime 100");
    ck_assert(wait_for_line(&s, "bestmove", SEARCH_WAIT));
    double t = seconds() - t0;
    const char *out = finish_search(&s);
    ck_assert_msg(t < 1.0, "go movetime 100 took %.3f s", t);
    char *copy = strdup(out);
    assert_good_bestmove(&s, copy, NULL, 0);
    free(copy);
    // With clocks the search also ends by itself, well within the time left.
    t0 = seconds();
    uci_execute(&s.uci, "go wtime 3000 btime 3000 winc 0 binc 0");
    ck_assert(wait_for_line(&s, "bestmove", SEARCH_WAIT));
    t = seconds() - t0;
    finish_search(&s);
    ck_assert_msg(t < 1.5, "3 s on the clock, the search took %.3f s", t);
    session_close(&s);
}
END_TEST

// go nodes ends the search by itself near the node budget.
START_TEST(test_go_nodes) {
    enum { BUDGET = 3000 };
    Session s;
    Info infos[128];
    session_open(&s);
    uci_execute(&s.uci, "go nodes 3000");
    const char *out = finish_search(&s);
    int n = parse_infos(out, infos, 128);
    // The budget is checked every thousand nodes or so.
    for (int i = 0; i < n; i++)
        ck_assert_msg(infos[i].nodes < BUDGET + 4096, "%lld nodes for a budget of %d",
                      infos[i].nodes, BUDGET);
    char *copy = strdup(out);
    assert_good_bestmove(&s, copy, NULL, 0);
    free(copy);
    session_close(&s);
}
END_TEST

// go mate 1 finds the mill that wins three men's morris, reported as mate 1.
START_TEST(test_go_mate) {
    Session s;
    Info infos[16];
    char best[64], ponder[64];
    session_open(&s);
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value three"), "");
    ck_assert_str_eq(execute(&s, "position fen " THREE_MATE_IN_1), "");
    uci_execute(&s.uci, "go mate 1");
    const char *out = finish_search(&s);
    int n = parse_infos(out, infos, 16);
    ck_assert_int_ge(n, 1);
    ck_assert_msg(infos[n - 1].mate && infos[n - 1].score == 1, "not mate 1:\n%s", out);
    get_bestmove(out, best, ponder, sizeof best);
    ck_assert_str_eq(best, "c3");
    ck_assert_str_eq(ponder, "");
    // The same from a plain depth-limited search.
    uci_execute(&s.uci, "go depth 3");
    out = finish_search(&s);
    n = parse_infos(out, infos, 16);
    ck_assert_msg(n >= 1 && infos[n - 1].mate && infos[n - 1].score == 1, "%s", out);
    session_close(&s);
}
END_TEST

// searchmoves keeps the search to the moves listed.
START_TEST(test_go_searchmoves) {
    Session s;
    Info infos[64];
    char best[64];
    session_open(&s);
    uci_execute(&s.uci, "go depth 3 searchmoves a1 g7");
    const char *out = finish_search(&s);
    int n = parse_infos(out, infos, 64);
    ck_assert_int_ge(n, 1);
    for (int i = 0; i < n; i++)
        ck_assert_msg(!strcmp(infos[i].first, "a1") || !strcmp(infos[i].first, "g7"), "%s", out);
    char *copy = strdup(out);
    assert_good_bestmove(&s, copy, best, sizeof best);
    free(copy);
    ck_assert_msg(!strcmp(best, "a1") || !strcmp(best, "g7"), "bestmove %s", best);
    // One move: that move; with MultiPV above the number of moves, one line per move.
    ck_assert_str_eq(execute(&s, "setoption name MultiPV value 3"), "");
    uci_execute(&s.uci, "go depth 2 searchmoves d6");
    out = finish_search(&s);
    n = parse_infos(out, infos, 64);
    for (int i = 0; i < n; i++)
        ck_assert_msg(infos[i].multipv == 1 && !strcmp(infos[i].first, "d6"), "%s", out);
    copy = strdup(out);
    assert_good_bestmove(&s, copy, best, sizeof best);
    free(copy);
    ck_assert_str_eq(best, "d6");
    session_close(&s);
}
END_TEST

// MultiPV 3: each depth reports lines multipv 1, 2, 3 with different first moves.
START_TEST(test_go_multipv) {
    Session s;
    Info infos[128];
    session_open(&s);
    ck_assert_str_eq(execute(&s, "setoption name MultiPV value 3"), "");
    uci_execute(&s.uci, "go depth 3");
    const char *out = finish_search(&s);
    int n = parse_infos(out, infos, 128);
    ck_assert_msg(n >= 3 && n % 3 == 0, "%d info lines:\n%s", n, out);
    for (int i = 0; i < n; i += 3) {
        for (int k = 0; k < 3; k++) {
            ck_assert_msg(infos[i + k].multipv == k + 1, "%s", out);
            ck_assert_int_eq(infos[i + k].depth, infos[i].depth);
        }
        ck_assert_msg(strcmp(infos[i].first, infos[i + 1].first) &&
                          strcmp(infos[i].first, infos[i + 2].first) &&
                          strcmp(infos[i + 1].first, infos[i + 2].first),
                      "repeated first moves:\n%s", out);
    }
    ck_assert_int_eq(infos[n - 1].depth, 3);
    char best[64];
    char *copy = strdup(out);
    assert_good_bestmove(&s, copy, best, sizeof best);
    free(copy);
    ck_assert_str_eq(best, infos[n - 3].first);
    // Fewer legal moves than MultiPV: one line per move at most.
    ck_assert_str_eq(execute(&s, "setoption name MultiPV value 64"), "");
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value three"), "");
    ck_assert_str_eq(execute(&s, "position startpos moves b2 a1 c3"), "");
    uci_execute(&s.uci, "go depth 2");
    out = finish_search(&s);
    n = parse_infos(out, infos, 128);
    for (int i = 0; i < n; i++)
        ck_assert_msg(infos[i].multipv <= 6, "%s", out);
    session_close(&s);
}
END_TEST

// The engine options take effect and the search still answers legal moves.
START_TEST(test_engine_options) {
    Session s;
    session_open(&s);
    ck_assert_str_eq(execute(&s, "setoption name Hash value 1"), "");
    ck_assert_msg(has_line(execute(&s, "uci"), "option name Hash type spin default 1 min 1 max "
                                               "65536"),
                  "%s", s.last);
    uci_execute(&s.uci, "go depth 4");
    char *out = strdup(finish_search(&s));
    assert_good_bestmove(&s, out, NULL, 0);
    free(out);
    ck_assert_str_eq(execute(&s, "setoption name hash value 64"), "");
    ck_assert_str_eq(execute(&s, "setoption name Clear Hash"), "");
    ck_assert_str_eq(execute(&s, "setoption name clear hash value whatever"), "");
    ck_assert_str_eq(execute(&s, "setoption name Threads value 2"), "");
    ck_assert_str_eq(execute(&s, "setoption name Ponder value true"), "");
    ck_assert_str_eq(execute(&s, "setoption name move overhead value 0"), "");
    ck_assert_str_eq(execute(&s, "setoption name MultiPV value 2"), "");
    const char *uci = execute(&s, "uci");
    ck_assert_msg(has_line(uci, "option name Hash type spin default 64 min 1 max 65536") &&
                      has_line(uci, "option name Threads type spin default 2 min 1 max 256") &&
                      has_line(uci, "option name Ponder type check default true") &&
                      has_line(uci, "option name MultiPV type spin default 2 min 1 max 64") &&
                      has_line(uci, "option name Move Overhead type spin default 0 min 0 max 5000"),
                  "%s", uci);
    // Two threads: a limited search and a stopped infinite one both answer legal moves.
    uci_execute(&s.uci, "go depth 5");
    out = strdup(finish_search(&s));
    assert_good_bestmove(&s, out, NULL, 0);
    free(out);
    uci_execute(&s.uci, "go infinite");
    sleep_ms(100);
    out = strdup(execute(&s, "stop"));
    assert_good_bestmove(&s, out, NULL, 0);
    free(out);
    ck_assert_str_eq(execute(&s, "ucinewgame"), "");
    session_close(&s);
}
END_TEST

// Pondering: no time limit until ponderhit; then the search runs on the clock from the
// ponderhit and answers by itself.
START_TEST(test_go_ponder_ponderhit) {
    Session s;
    session_open(&s);
    ck_assert_str_eq(execute(&s, "setoption name Move Overhead value 0"), "");
    ck_assert_str_eq(execute(&s, "position startpos moves d7"), "");
    uci_execute(&s.uci, "go ponder movetime 200");
    sleep_ms(400);
    char *text = peek_output(&s);
    ck_assert_msg(count_prefix(text, "bestmove") == 0, "the ponder search ended:\n%s", text);
    free(text);
    double t0 = seconds();
    uci_execute(&s.uci, "ponderhit");
    ck_assert(wait_for_line(&s, "bestmove", SEARCH_WAIT));
    double t = seconds() - t0;
    char *out = strdup(finish_search(&s));
    // The clock starts at the ponderhit: no answer at once, one within the movetime and slack.
    // (A stable best move may let the engine stop before the full movetime.)
    ck_assert_msg(t >= 0.05 && t < 1.5, "bestmove %.3f s after ponderhit, movetime 200", t);
    assert_good_bestmove(&s, out, NULL, 0);
    free(out);

    // With clocks: no stop on time while pondering, a prompt answer after ponderhit.
    uci_execute(&s.uci, "go ponder wtime 1000 btime 1000");
    sleep_ms(300);
    text = peek_output(&s);
    ck_assert_msg(count_prefix(text, "bestmove") == 0, "the ponder search ended:\n%s", text);
    free(text);
    t0 = seconds();
    uci_execute(&s.uci, "ponderhit");
    ck_assert(wait_for_line(&s, "bestmove", SEARCH_WAIT));
    t = seconds() - t0;
    finish_search(&s);
    ck_assert_msg(t < 0.8, "bestmove %.3f s after ponderhit with 1 s on the clock", t);

    // A ponder miss: stop ends the ponder search with one bestmove.
    uci_execute(&s.uci, "go ponder wtime 1000 btime 1000");
    sleep_ms(50);
    ck_assert_int_eq(count_prefix(execute(&s, "stop"), "bestmove "), 1);
    session_close(&s);
}
END_TEST

static const char *const BAD_GOS[] = {
    "go depth",
    "go depth 0",
    "go depth -1",
    "go depth abc",
    "go depth 1.5",
    "go depth 3x",
    "go depth 99999999999999999999",
    "go nodes 0",
    "go nodes -5",
    "go movetime 0",
    "go movetime -10",
    "go mate 0",
    "go mate -2",
    "go wtime abc",
    "go wtime",
    "go winc -1",
    "go binc x",
    "go movestogo -1",
    "go foo",
    "go depth 2 foo",
    "go infinite bar",
    "go 5",
    "go Depth 3",
    "go searchmoves",
    "go depth 2 searchmoves",
    "go searchmoves zz",
    "go depth 2 searchmoves d7 zz",
    "go searchmoves d7-g7",
    "go depth \x01\xff",
};

// A bad go gives one error line and starts no search.
START_TEST(test_go_bad) {
    Session s;
    char in[256];
    session_open(&s);
    const char *out = execute(&s, BAD_GOS[_i]);
    assert_one_error(out, escaped(BAD_GOS[_i], in, sizeof in));
    ck_assert_msg(printable_ascii(out), "%s", out);
    ck_assert(!s.uci.searching);
    sleep_ms(20);
    ck_assert_str_eq(execute(&s, "stop"), "");
    session_close(&s);
}
END_TEST

// Negative clock times (a GUI's engine overstepped a margin) are read as no time left.
START_TEST(test_go_negative_clock) {
    Session s;
    session_open(&s);
    double t0 = seconds();
    uci_execute(&s.uci, "go wtime -50 btime -50");
    char *out = strdup(finish_search(&s));
    ck_assert_msg(seconds() - t0 < 1.0, "took %.2f s with no time left", seconds() - t0);
    assert_good_bestmove(&s, out, NULL, 0);
    free(out);
    session_close(&s);
}
END_TEST

// A new go while one runs: the first answers its bestmove, then the second runs.
START_TEST(test_go_twice) {
    Session s;
    session_open(&s);
    uci_execute(&s.uci, "go infinite");
    sleep_ms(20);
    uci_execute(&s.uci, "go depth 2");
    ck_assert(wait_for_lines(&s, "bestmove ", 2, SEARCH_WAIT));
    const char *out = finish_search(&s);
    ck_assert_int_eq(count_prefix(out, "bestmove "), 2);
    ck_assert_msg(strstr(strstr(out, "bestmove "), "info depth 2 ") != NULL, "%s", out);
    session_close(&s);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// eval, bench

START_TEST(test_eval) {
    Session s;
    session_open(&s);
    const char *out = execute(&s, "eval");
    ck_assert_int_ge(count_lines(out), 2);
    ck_assert_msg(count_prefix(out, ERROR_PREFIX) == 0 && printable_ascii(out), "%s", out);
    ck_assert_str_eq(execute(&s, "position startpos moves " NINE_18), "");
    char *before = snapshot(&s);
    out = execute(&s, "eval");
    ck_assert_int_ge(count_lines(out), 2);
    char *after = snapshot(&s);
    ck_assert_str_eq(before, after);
    free(before);
    free(after);
    // A finished game is evaluated too.
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value three"), "");
    ck_assert_str_eq(execute(&s, "position fen " THREE_WON), "");
    ck_assert_int_ge(count_lines(execute(&s, "eval")), 2);
    session_close(&s);
}
END_TEST

// Strip the nps of the bench's last line: what stays must be the same on every run.
static void strip_nps(char *text) {
    char *last = (char *)last_line(text);
    char *nps = strstr(last, " nodes ");
    ck_assert_msg(nps != NULL, "no ' nodes ' in the last line '%s'", last);
    strcpy(nps, " nodes\n");
}

// bench: one line per position, then `<nodes> nodes <nps> nps`; the same count on every run;
// the session's position and options are left alone.
START_TEST(test_bench) {
    Session s;
    session_open(&s);
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value six"), "");
    ck_assert_str_eq(execute(&s, "setoption name Hash value 2"), "");
    ck_assert_str_eq(execute(&s, "position startpos moves a5 b4"), "");
    char *before = snapshot(&s);
    char *first = execute_copy(&s, "bench 3");
    char *second = execute_copy(&s, "bench 3");
    char *after = snapshot(&s);
    ck_assert_str_eq(before, after);
    int n = count_lines(first);
    ck_assert_int_ge(n, 13);
    ck_assert(printable_ascii(first));
    const char *last = last_line(first);
    unsigned long long nodes, nps;
    char tail[8];
    ck_assert_msg(sscanf(last, "%llu nodes %llu nps%7s", &nodes, &nps, tail) == 2 && nodes > 0,
                  "last line '%s'", last);
    ck_assert_msg(count_prefix(first, ERROR_PREFIX) == 0 && !strstr(first, "error"), "%s", first);
    // Every variant is in it.
    for (size_t i = 0; i < sizeof VARIANT_IDS / sizeof VARIANT_IDS[0]; i++) {
        char pattern[32];
        snprintf(pattern, sizeof pattern, " %s ", VARIANT_IDS[i]);
        ck_assert_msg(strstr(first, pattern) != NULL, "no %s in:\n%s", VARIANT_IDS[i], first);
    }
    // Per position: "<i>/<n> <variant> <position>: bestmove <m> nodes <k>", summing to nodes.
    unsigned long long sum = 0;
    for (const char *l = first; l < last; l = strchr(l, '\n') + 1) {
        int i, total;
        const char *bm = strstr(l, ": bestmove ");
        ck_assert_msg(sscanf(l, "%d/%d ", &i, &total) == 2 && total == n - 1 && bm &&
                          bm < strchr(l, '\n'),
                      "bad line: %.200s", l);
        unsigned long long k;
        char move[64];
        ck_assert_msg(sscanf(bm, ": bestmove %63s nodes %llu", move, &k) == 2, "%.200s", l);
        ck_assert_msg(strcmp(move, "(none)"), "a finished game in the bench: %.200s", l);
        sum += k;
    }
    ck_assert(sum == nodes);
    strip_nps(first);
    strip_nps(second);
    ck_assert_str_eq(first, second);
    free(first);
    free(second);
    free(before);
    free(after);
    session_close(&s);
}
END_TEST

static const char *const BAD_BENCHES[] = {
    "bench 0",   "bench -1", "bench x",   "bench 65",
    "bench 2 3", "bench 2x", "bench 1e3", "bench 99999999999999999999"};

START_TEST(test_bench_bad) {
    char *out = run(BAD_BENCHES[_i]);
    assert_one_error(out, BAD_BENCHES[_i]);
    free(out);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// UGI, debug, help <command>

START_TEST(test_ugi_handshake) {
    Session s;
    session_open(&s);
    char *ugi = execute_copy(&s, "ugi");
    const char *uci = execute(&s, "uci");
    // The same lines, but for the last.
    ck_assert_msg(!strncmp(ugi, uci, strlen(uci) - strlen("uciok\n")), "%s\n---\n%s", ugi, uci);
    ck_assert_str_eq(last_line(ugi), "ugiok\n");
    ck_assert_str_eq(last_line(uci), "uciok\n");
    free(ugi);
    session_close(&s);
}
END_TEST

START_TEST(test_ugi_query) {
    Session s;
    session_open(&s);
    ck_assert_msg(!strcmp(last_line(execute(&s, "ugi")), "ugiok\n"), "%s", s.last);
    ck_assert_str_eq(execute(&s, "uginewgame"), "");
    ck_assert_str_eq(execute(&s, "query p1turn"), "response true\n");
    ck_assert_str_eq(execute(&s, "query gameover"), "response false\n");
    ck_assert_str_eq(execute(&s, "query result"), "response none\n");
    ck_assert_str_eq(execute(&s, "position startpos moves d7"), "");
    ck_assert_str_eq(execute(&s, "query p1turn"), "response false\n");
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value three"), "");
    ck_assert_str_eq(execute(&s, "position fen " THREE_WON), "");
    ck_assert_str_eq(execute(&s, "query gameover"), "response true\n");
    ck_assert_str_eq(execute(&s, "query result"), "response p1win\n");
    ck_assert_str_eq(execute(&s, "position fen BBB/3/WW1 w 1 0 0 3"), "");
    ck_assert_str_eq(execute(&s, "query result"), "response p2win\n");
    ck_assert_str_eq(execute(&s, "query p1turn"), "response true\n");
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value nine"), "");
    ck_assert_str_eq(execute(&s, "setoption name NMoveRule value 4"), "");
    ck_assert_str_eq(execute(&s, "position fen " NINE_3MEN), "");
    ck_assert_str_eq(execute(&s, "query result"), "response draw\n");
    ck_assert_str_eq(execute(&s, "query gameover"), "response true\n");
    // uginewgame is ucinewgame.
    ck_assert_str_eq(execute(&s, "uginewgame"), "");
    char fen[128];
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    static const char *const bad[] = {"query", "query foo", "query p1turn x", "query P1TURN",
                                      "query \x01\xff"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_one_error(execute(&s, bad[i]), "bad query");
    session_close(&s);
}
END_TEST

// In UGI the bestmove line has exactly two tokens; uci switches back.
START_TEST(test_ugi_bestmove) {
    Session s;
    char best[64], ponder[64];
    session_open(&s);
    execute(&s, "ugi");
    ck_assert_str_eq(execute(&s, "position startpos moves d7 g7 g4 a7"), "");
    uci_execute(&s.uci, "go p1time 500 p2time 500 p1inc 10 p2inc 10");
    char *out = strdup(finish_search(&s));
    get_bestmove(out, best, ponder, sizeof best);
    ck_assert_msg(!ponder[0], "a ponder move in UGI:\n%s", out);
    ck_assert(is_legal(&s, best));
    free(out);
    uci_execute(&s.uci, "go depth 4");
    out = strdup(finish_search(&s));
    get_bestmove(out, best, ponder, sizeof best);
    ck_assert_msg(!ponder[0], "a ponder move in UGI:\n%s", out);
    free(out);
    execute(&s, "uci");
    uci_execute(&s.uci, "go depth 4");
    out = strdup(finish_search(&s));
    get_bestmove(out, best, ponder, sizeof best);
    ck_assert_msg(ponder[0], "no ponder move in UCI at depth 4:\n%s", out);
    free(out);
    session_close(&s);
}
END_TEST

START_TEST(test_debug) {
    Session s;
    session_open(&s);
    ck_assert_str_eq(execute(&s, "debug on"), "");
    uci_execute(&s.uci, "go depth 2 p1time 300");
    const char *out = finish_search(&s);
    ck_assert_msg(strstr(out, "info string go: depth 2 nodes 0 movetime 0 wtime 300 btime -1 ") ==
                      out,
                  "%s", out);
    ck_assert_str_eq(execute(&s, "debug off"), "");
    uci_execute(&s.uci, "go depth 2");
    out = finish_search(&s);
    ck_assert_msg(!strstr(out, "info string"), "%s", out);
    static const char *const bad[] = {"debug", "debug yes", "debug on off", "debug ON"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_one_error(execute(&s, bad[i]), bad[i]);
    session_close(&s);
}
END_TEST

START_TEST(test_help_command) {
    Session s;
    session_open(&s);
    for (int i = 0; uci_command_name(i); i++) {
        char line[64];
        snprintf(line, sizeof line, "help %s", uci_command_name(i));
        const char *out = execute(&s, line);
        ck_assert_msg(count_lines(out) == 2 && !strncmp(out, "usage: ", 7), "%s", out);
        ck_assert_msg(!strncmp(out + 7, uci_command_name(i), strlen(uci_command_name(i))), "%s",
                      out);
    }
    assert_one_error(execute(&s, "help foo"), "help foo");
    assert_one_error(execute(&s, "help go stop"), "help go stop");
    session_close(&s);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// A person's commands: new, move, undo, play

START_TEST(test_move_undo) {
    Session s;
    char fen[128];
    session_open(&s);
    ck_assert_str_eq(execute(&s, "move d7"), "");
    ck_assert_str_eq(execute(&s, "move a1"), "");
    ck_assert_str_eq(execute(&s, "move g7"), "");
    ck_assert_str_eq(execute(&s, "move a4"), "");
    ck_assert_str_eq(execute(&s, "move a7 xa1"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "WWW/3/3/B5/3/3/3 b 6 7 0 3");
    // Taking back the mill restores the man removed.
    ck_assert_str_eq(execute(&s, "undo"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "1WW/3/3/B5/3/3/B2 w 7 7 0 3");
    ck_assert_str_eq(execute(&s, "move a7xa4"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "WWW/3/3/6/3/3/B2 b 6 7 0 3");
    // A bad move changes nothing.
    char *before = snapshot(&s);
    static const char *const bad[] = {"move",     "move zz",    "move a1",         "move d7 g7",
                                      "move xd7", "move d1-a1", "move d1 xa7 xg7", "move \xff",
                                      "undo 1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_one_error(execute(&s, bad[i]), bad[i]);
    char *after = snapshot(&s);
    ck_assert_str_eq(before, after);
    free(before);
    free(after);
    // Undo back to the start, then one more is an error.
    for (int i = 0; i < 5; i++)
        ck_assert_str_eq(execute(&s, "undo"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    assert_one_error(execute(&s, "undo"), "undo at the start");
    session_close(&s);
}
END_TEST

// move and undo work on top of position, whose moves they extend and take back; a new
// position, ucinewgame, new and a new variant start a new record.
START_TEST(test_move_undo_after_position) {
    Session s;
    char fen[128], key1[64], key2[64];
    session_open(&s);
    ck_assert_str_eq(execute(&s, "position startpos moves " NINE_18), "");
    get_key(&s, key1, sizeof key1);
    ck_assert_str_eq(execute(&s, "move f6-f4"), "");
    ck_assert_str_eq(execute(&s, "undo"), "");
    get_key(&s, key2, sizeof key2);
    ck_assert_str_eq(key1, key2);
    ck_assert_str_eq(execute(&s, "undo"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "BWB/WBW/BBW/W1W2W/2W/1BW/B1B b 0 1 0 9");
    // Removals given as their own tokens in position are one turn each.
    ck_assert_str_eq(execute(&s, "position fen " NINE_18_FEN " moves b6-b4 xa7 a1-d1"), "");
    ck_assert_str_eq(execute(&s, "undo"), "");
    ck_assert_str_eq(execute(&s, "undo"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_18_FEN);
    assert_one_error(execute(&s, "undo"), "undo past the position string");
    ck_assert_str_eq(execute(&s, "move a4-b4"), "");
    ck_assert_str_eq(execute(&s, "new"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    assert_one_error(execute(&s, "undo"), "undo after new");
    ck_assert_str_eq(execute(&s, "move d7"), "");
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value six"), "");
    assert_one_error(execute(&s, "undo"), "undo after a new variant");
    ck_assert_str_eq(execute(&s, "move a5"), "");
    ck_assert_str_eq(execute(&s, "ucinewgame"), "");
    assert_one_error(execute(&s, "undo"), "undo after ucinewgame");
    // A failed position keeps the record.
    ck_assert_str_eq(execute(&s, "position startpos moves a5 b4"), "");
    assert_one_error(execute(&s, "position startpos moves zz"), "bad position");
    ck_assert_str_eq(execute(&s, "undo"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "W2/3/4/3/3 b 5 6 0 1");
    session_close(&s);
}
END_TEST

START_TEST(test_play) {
    Session s;
    char fen[128], best[64], ponder[64];
    session_open(&s);
    ck_assert_str_eq(execute(&s, "position startpos moves d7"), "");
    uci_execute(&s.uci, "play depth 3");
    char *out = strdup(finish_search(&s));
    get_bestmove(out, best, ponder, sizeof best);
    free(out);
    get_fen(&s, fen, sizeof fen);
    ck_assert_msg(strstr(fen, " w 8 8 0 2") != NULL, "%s after play %s", fen, best);
    // The move played is the record's: undo takes it back.
    ck_assert_str_eq(execute(&s, "undo"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "1W1/3/3/6/3/3/3 b 8 9 0 1");
    // A bare play uses the last limits (depth 3 here), by default 1 s.
    double t0 = seconds();
    uci_execute(&s.uci, "play");
    finish_search(&s);
    ck_assert_msg(seconds() - t0 < 1.0, "play after play depth 3 took %.2f s", seconds() - t0);
    get_fen(&s, fen, sizeof fen);
    ck_assert_msg(strstr(fen, " w 8 8 0 2") != NULL, "%s", fen);
    // Stop ends a play search at once, and its move is played.
    uci_execute(&s.uci, "play movetime 100000");
    sleep_ms(50);
    ck_assert_int_eq(count_prefix(execute(&s, "stop"), "bestmove "), 1);
    get_fen(&s, fen, sizeof fen);
    ck_assert_msg(strstr(fen, " b 7 8 0 2") != NULL, "%s", fen);
    // Nothing to play in a finished game.
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value three"), "");
    ck_assert_str_eq(execute(&s, "position fen " THREE_WON), "");
    assert_one_error(execute(&s, "play depth 1"), "play on a finished game");
    ck_assert(!s.uci.searching);
    session_close(&s);

    session_open(&s);
    double t1 = seconds();
    uci_execute(&s.uci, "play");
    finish_search(&s);
    double t = seconds() - t1;
    ck_assert_msg(t > 0.3 && t < 3.0, "a bare play took %.2f s, not about 1 s", t);
    session_close(&s);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Sanmill's FEN

#define SANMILL_START "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"
// NINE_18_FEN in Sanmill's rings: inner d5 e5 e4 e3 d3 c3 c4 c5, middle d6 ... b6, outer d7
// ... a7.
#define SANMILL_18 "@O*O*@O@/@O*O@**O/O@O@*@O@ w m s 9 0 9 0 0 0 0 0 0 0 0 0 10"

// The points of Sanmill's rings in order: inner, middle, outer, each from 12 o'clock clockwise.
static const char *const RING_POINTS[24] = {"d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5",
                                            "d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6",
                                            "d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7"};

// A white man on each of Sanmill's 24 points is the same man placed on that point.
START_TEST(test_sanmill_points) {
    Session s;
    char line[256], want[128], got[128];
    session_open(&s);
    for (int i = 0; i < 24; i++) {
        char board[27];
        memset(board, '*', 26);
        board[8] = board[17] = '/';
        board[26] = '\0';
        board[i / 8 * 9 + i % 8] = 'O';
        snprintf(line, sizeof line, "position startpos moves %s", RING_POINTS[i]);
        ck_assert_str_eq(execute(&s, line), "");
        get_fen(&s, want, sizeof want);
        snprintf(line, sizeof line, "position fen %s b p p 1 8 0 9 0 0 0 0 0 0 0 0 1", board);
        ck_assert_msg(!strcmp(execute(&s, line), ""), "%s: %s", line, s.last);
        get_fen(&s, got, sizeof got);
        ck_assert_msg(!strcmp(got, want), "Sanmill point %d: %s, not %s (%s)", i, got, want,
                      RING_POINTS[i]);
    }
    session_close(&s);
}
END_TEST

START_TEST(test_sanmill_positions) {
    Session s;
    char fen[128], k1[64], k2[64];
    session_open(&s);
    ck_assert_str_eq(execute(&s, "position startpos moves " NINE_18), "");
    get_key(&s, k1, sizeof k1);
    ck_assert_str_eq(execute(&s, "position fen " SANMILL_18), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_18_FEN);
    get_key(&s, k2, sizeof k2);
    ck_assert_str_eq(k1, k2);
    // With the node-id marker the last-mill fields count 0-23, none -1.
    ck_assert_str_eq(execute(&s, "position fen @O*O*@O@/@O*O@**O/O@O@*@O@ w m s 9 0 9 0 0 0 -1 "
                                 "-1 -1 -1 0 0 10 ids:nodes"),
                     "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_18_FEN);
    ck_assert_str_eq(execute(&s, "position fen " SANMILL_START), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
    ck_assert_str_eq(execute(&s, "position fen ********/********/******** w p p 0 9 0 9 0 0 -1 "
                                 "-1 -1 -1 0 0 1 IDS:NODES moves d7 g7"),
                     "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "1WB/3/3/6/3/3/3 w 8 8 0 2");
    // Moves with removals as their own tokens, as Sanmill writes them.
    ck_assert_str_eq(execute(&s, "position fen " SANMILL_18 " moves b6-b4 xa7"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "1WB/1BW/BBW/WWW2W/B1W/1BW/B1B b 0 0 0 10");
    // Counters: the plies since a placement or removal and the move number (0 reads as 1);
    // the mills mask and last-mill points are read and ignored.
    ck_assert_str_eq(execute(&s, "position fen "
                                 "@O*O*@O@/@O*O@**O/O@O@*@O@ b m s 9 0 9 0 0 0 24 "
                                 "31 8 9 1099511628288 7 0"),
                     "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "BWB/WBW/BBW/W1W2W/B1W/1BW/B1B b 0 0 7 1");
    // The other 24-point variants read it too; lasker with men in hand and on the board.
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value lasker"), "");
    ck_assert_str_eq(execute(&s, "position fen O*******/@*******/******** w p p 1 9 1 9 0 0 0 0 "
                                 "0 0 0 0 2"),
                     "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "3/1B1/1W1/6/3/3/3 w 9 9 0 2");
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value morabaraba"), "");
    ck_assert_str_eq(execute(&s, "position fen ********/********/******** w p p 0 12 0 12 0 0 "
                                 "0 0 0 0 0 0 1"),
                     "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, "3/3/3/6/3/3/3 w 12 12 0 1");
    session_close(&s);
}
END_TEST

static const char *const BAD_SANMILL[] = {
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0",
    "********/********/******** w p p 0 9 0 9 0 0",
    "********/********/*******",
    "********/********/******* w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
    "********/********/********* w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
    "********/********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
    "****************/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
    "X*******/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
    "W*******/********/******** w p p 1 8 0 9 0 0 0 0 0 0 0 0 1",
    "o*******/********/******** w p p 1 8 0 9 0 0 0 0 0 0 0 0 1",
    "********/********/******** W p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
    "********/********/******** w x p 0 9 0 9 0 0 0 0 0 0 0 0 1",
    "********/********/******** w pp p 0 9 0 9 0 0 0 0 0 0 0 0 1",
    "********/********/******** w p x 0 9 0 9 0 0 0 0 0 0 0 0 1",
    "OOO*****/@@******/******** w p r 3 6 2 7 1 0 0 0 0 0 0 0 3",
    "OOO*****/@@******/******** b p s 3 6 2 7 0 1 0 0 0 0 0 0 3",
    "O*******/********/******** b p p 0 8 0 9 0 0 0 0 0 0 0 0 1",
    "O*******/********/******** b p p 1 8 1 9 0 0 0 0 0 0 0 0 1",
    "********/********/******** w p p 0 -1 0 9 0 0 0 0 0 0 0 0 1",
    "********/********/******** w p p 0 25 0 9 0 0 0 0 0 0 0 0 1",
    "********/********/******** w p p 0 10 0 9 0 0 0 0 0 0 0 0 1",
    "********/********/******** w p p 0 9 0 9 0 0 7 0 0 0 0 0 1",
    "********/********/******** w p p 0 9 0 9 0 0 32 0 0 0 0 0 1",
    "********/********/******** w p p 0 9 0 9 0 0 -1 0 0 0 0 0 1",
    "********/********/******** w p p 0 9 0 9 0 0 0 x 0 0 0 0 1",
    "********/********/******** w p p 0 9 0 9 0 0 24 0 0 0 0 0 1 ids:nodes",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 1 0 1",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 ids:nodes extra",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 16777216 0 1 ids:nodes",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 -256 0 1",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 99999999999999999999 0 1",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 -1 1",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 -1",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 x",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 c:w-1-8|b-0-",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 i:w-0-|b-1-9",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 m:w-1-|b-0-",
    "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 p:8",
    "O@O@O@O@/O@O@O@O@/O@O@O@O@ w m s 12 0 12 0 0 0 0 0 0 0 0 0 1",
    "OOO*****/********/******** b p p 3 6 0 9 0 0 0 0 0 0 0 0 2 moves d7 d7",
    "******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
    "*",
};

// A malformed Sanmill position gives one error line naming Sanmill, and changes nothing.
START_TEST(test_sanmill_bad) {
    Session s;
    char line[512];
    session_open(&s);
    ck_assert_str_eq(execute(&s, "position startpos moves d7 g7 g4"), "");
    char *before = snapshot(&s);
    snprintf(line, sizeof line, "position fen %s", BAD_SANMILL[_i]);
    const char *out = execute(&s, line);
    assert_one_error(out, line);
    char *after = snapshot(&s);
    ck_assert_msg(!strcmp(before, after), "'%s' changed the state", line);
    free(before);
    free(after);
    // Not on the 24-point board.
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value six"), "");
    out = execute(&s, "position fen " SANMILL_START);
    assert_one_error(out, "Sanmill in six");
    ck_assert_msg(strstr(out, "24-point") != NULL, "%s", out);
    session_close(&s);
}
END_TEST

// How many completions the prompt offers at the end of line.
static int completions(Prompt *p, const char *line, const char *want) {
    size_t len = strlen(line), start = len;
    while (start > 0 && line[start - 1] != ' ')
        start--;
    char **words;
    int n = prompt_complete(p, line, (int)start, (int)len, &words);
    bool found = !want;
    for (int i = 0; i < n; i++) {
        found |= want && !strcmp(words[i], want);
        free(words[i]);
    }
    free(words);
    ck_assert_msg(found, "'%s' not offered after '%s'", want, line);
    return n;
}

// Completing the moves of a `position` line replays them on the prompt's own game; when the
// session switches between the mill and backgammon families that game is made anew (it used
// to be the other family's, and was freed and used with the wrong functions).
START_TEST(test_prompt_across_families) {
    Session s;
    session_open(&s);
    Prompt p;
    prompt_init(&p, &s.uci);
    ck_assert_int_eq(completions(&p, "position startpos moves ", "d7"), 24);
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value backgammon"), "");
    ck_assert_int_eq(completions(&p, "position startpos moves 31 ", "31:8/5,6/5"), 16);
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value six"), "");
    ck_assert_int_eq(completions(&p, "position startpos moves ", "a5"), 16);
    prompt_free(&p);
    session_close(&s);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// The prompt's accessors, and NUL bytes through uci_loop

START_TEST(test_accessors) {
    Session s;
    session_open(&s);
    int n = 0;
    while (uci_command_name(n))
        n++;
    ck_assert_int_ge(n, 20);
    ck_assert_str_eq(uci_command_name(0), "uci");
    ck_assert_ptr_null(uci_command_name(-1));
    // The option names are those `uci` declares, in its order.
    const char *uci = execute(&s, "uci");
    int k = 0;
    for (const char *l = uci; (l = strstr(l, "option name ")); l++, k++) {
        const char *name = uci_option_name(&s.uci, k), *end = strstr(l, " type ");
        ck_assert_ptr_nonnull(name);
        ck_assert_msg((size_t)(end - l - 12) == strlen(name) &&
                          !strncmp(l + 12, name, strlen(name)),
                      "option %d is %s", k, name);
    }
    ck_assert_int_eq(k, 19);
    ck_assert_ptr_null(uci_option_name(&s.uci, k));
    char **moves;
    ck_assert_int_eq(uci_legal_moves(&s.uci, &moves), 24);
    for (int i = 0; i < 24; i++)
        free(moves[i]);
    free(moves);
    ck_assert_str_eq(execute(&s, "position startpos moves " NINE_18), "");
    n = uci_legal_moves(&s.uci, &moves);
    ck_assert_int_eq(n, 25);
    ck_assert_msg(strchr(moves[0], '-') != NULL, "%s", moves[0]);
    for (int i = 0; i < n; i++)
        free(moves[i]);
    free(moves);
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value three"), "");
    ck_assert_str_eq(execute(&s, "position fen " THREE_WON), "");
    ck_assert_int_eq(uci_legal_moves(&s.uci, &moves), 0);
    ck_assert_ptr_null(moves);
    uci_print_board(&s.uci);
    char *board = strdup(take_output(&s));
    const char *d = execute(&s, "d");
    ck_assert_msg(!strncmp(d, board, strlen(board)) && !strstr(board, "Position"), "%s", board);
    free(board);
    session_close(&s);
}
END_TEST

START_TEST(test_loop_nul) {
    static const char script[] = "isready\0junk\nisready\n\0\nquit\0\nposition startpos moves d7"
                                 "\0 g7\nd\n";
    char *out = run_loop(script, sizeof script - 1);
    ck_assert_int_eq(count_prefix(out, ERROR_PREFIX), 4);
    ck_assert_int_eq(count_prefix(out, "readyok"), 1);
    ck_assert_msg(strstr(out, "Position: " NINE_START "\n") != NULL, "%s", out);
    ck_assert(printable_ascii(out));
    free(out);
}
END_TEST

Suite *uci_suite(void) {
    Suite *s = suite_create("uci");
    int nbad_set = (int)(sizeof BAD_SETOPTIONS / sizeof BAD_SETOPTIONS[0]);
    int nbad_pos = (int)(sizeof BAD_POSITIONS / sizeof BAD_POSITIONS[0]);
    int nbad_perft = (int)(sizeof BAD_PERFTS / sizeof BAD_PERFTS[0]);
    int nunknown = (int)(sizeof UNKNOWN_COMMANDS / sizeof UNKNOWN_COMMANDS[0]);
    int nraw = (int)(sizeof RAW_BYTES / sizeof RAW_BYTES[0]);
    int nlong = (int)(sizeof LONG_LINE_HEADS / sizeof LONG_LINE_HEADS[0]);
    int nvariants = (int)(sizeof VARIANT_IDS / sizeof VARIANT_IDS[0]);
    int nbad_go = (int)(sizeof BAD_GOS / sizeof BAD_GOS[0]);
    int nstopping = (int)(sizeof STOPPING / sizeof STOPPING[0]);
    int nbad_bench = (int)(sizeof BAD_BENCHES / sizeof BAD_BENCHES[0]);

    TCase *tc = tcase_create("handshake");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_uci_handshake);
    tcase_add_test(tc, test_isready);
    tcase_add_test(tc, test_help_lists_commands);
    suite_add_tcase(s, tc);

    tc = tcase_create("setoption");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_setoption_variant_six);
    tcase_add_test(tc, test_setoption_case_insensitive);
    tcase_add_test(tc, test_setoption_variant_resets_position);
    tcase_add_test(tc, test_setoption_rules_take_effect);
    tcase_add_test(tc, test_setoption_spin_bounds);
    tcase_add_loop_test(tc, test_setoption_bad, 0, nbad_set);
    suite_add_tcase(s, tc);

    tc = tcase_create("position");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_position_startpos_moves);
    tcase_add_test(tc, test_position_fen_round_trip);
    tcase_add_test(tc, test_position_split_removal);
    tcase_add_test(tc, test_ucinewgame);
    tcase_add_test(tc, test_position_after_game_over);
    tcase_add_loop_test(tc, test_position_bad, 0, nbad_pos);
    suite_add_tcase(s, tc);

    tc = tcase_create("perft");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_perft_2_start);
    tcase_add_test(tc, test_perft_variants);
    tcase_add_test(tc, test_perft_keeps_position);
    tcase_add_loop_test(tc, test_perft_bad, 0, nbad_perft);
    suite_add_tcase(s, tc);

    tc = tcase_create("moves");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_moves_start);
    tcase_add_test(tc, test_moves_match_perft);
    tcase_add_test(tc, test_moves_game_over);
    suite_add_tcase(s, tc);

    tc = tcase_create("d");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_d_start);
    tcase_add_test(tc, test_d_shows_men_and_result);
    tcase_add_test(tc, test_d_key_transposition);
    suite_add_tcase(s, tc);

    tc = tcase_create("framing");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_framing_crlf);
    tcase_add_test(tc, test_framing_whitespace);
    tcase_add_test(tc, test_framing_silent_lines);
    tcase_add_loop_test(tc, test_framing_unknown_command, 0, nunknown);
    tcase_add_loop_test(tc, test_framing_no_raw_bytes, 0, nraw);
    tcase_add_test(tc, test_framing_long_lines);
    tcase_add_test(tc, test_framing_many_moves);
    tcase_add_test(tc, test_framing_quit);
    tcase_add_test(tc, test_loop_script);
    suite_add_tcase(s, tc);

    tc = tcase_create("info");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_info_format);
    tcase_add_test(tc, test_info_mate_scores);
    tcase_add_test(tc, test_info_bestmove);
    suite_add_tcase(s, tc);

    tc = tcase_create("go");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_go_depth1_variants, 0, nvariants);
    tcase_add_test(tc, test_go_game_over);
    tcase_add_test(tc, test_search_switches);
    tcase_add_test(tc, test_go_info_format);
    tcase_add_test(tc, test_go_show_wdl);
    tcase_add_test(tc, test_go_mate);
    tcase_add_test(tc, test_go_searchmoves);
    tcase_add_test(tc, test_go_multipv);
    tcase_add_test(tc, test_go_nodes);
    tcase_add_test(tc, test_go_twice);
    tcase_add_test(tc, test_go_negative_clock);
    tcase_add_loop_test(tc, test_go_bad, 0, nbad_go);
    suite_add_tcase(s, tc);

    tc = tcase_create("search thread");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_go_infinite_stop);
    tcase_add_test(tc, test_stop_when_idle);
    tcase_add_test(tc, test_commands_during_search);
    tcase_add_loop_test(tc, test_command_stops_search, 0, nstopping);
    tcase_add_test(tc, test_quit_during_search);
    tcase_add_test(tc, test_eof_during_search);
    tcase_add_test(tc, test_go_movetime);
    tcase_add_test(tc, test_go_ponder_ponderhit);
    tcase_add_test(tc, test_engine_options);
    suite_add_tcase(s, tc);

    tc = tcase_create("eval and bench");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_eval);
    tcase_add_test(tc, test_bench);
    tcase_add_loop_test(tc, test_bench_bad, 0, nbad_bench);
    suite_add_tcase(s, tc);

    tc = tcase_create("dialects and a person's commands");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_ugi_handshake);
    tcase_add_test(tc, test_ugi_query);
    tcase_add_test(tc, test_ugi_bestmove);
    tcase_add_test(tc, test_debug);
    tcase_add_test(tc, test_help_command);
    tcase_add_test(tc, test_move_undo);
    tcase_add_test(tc, test_move_undo_after_position);
    tcase_add_test(tc, test_play);
    tcase_add_test(tc, test_accessors);
    tcase_add_test(tc, test_prompt_across_families);
    tcase_add_test(tc, test_loop_nul);
    suite_add_tcase(s, tc);

    tc = tcase_create("sanmill");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_sanmill_points);
    tcase_add_test(tc, test_sanmill_positions);
    tcase_add_loop_test(tc, test_sanmill_bad, 0, (int)(sizeof BAD_SANMILL / sizeof BAD_SANMILL[0]));
    suite_add_tcase(s, tc);

    tc = tcase_create("long lines");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, test_framing_long_line_fast, 0, nlong);
    suite_add_tcase(s, tc);
    return s;
}
