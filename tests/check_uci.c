// The protocol command loop: commands run through memory streams, replies checked line by line.
#include "tests/suites.h"

#include "protocol/output.h"
#include "protocol/uci.h"

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

// Take what the session wrote since the last call; valid until the next call.
static const char *take_output(Session *s) {
    fflush(s->f);
    free(s->last);
    s->last = strndup(s->buf + s->seen, s->len - s->seen);
    ck_assert_ptr_nonnull(s->last);
    s->seen = s->len;
    return s->last;
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

// Copy the rest of the first line of text that starts with prefix into buf; false if none.
static bool line_after(const char *text, const char *prefix, char *buf, size_t n) {
    size_t plen = strlen(prefix);
    for (const char *l = text; *l;) {
        const char *end = strchr(l, '\n');
        size_t len = end ? (size_t)(end - l) : strlen(l);
        if (len >= plen && !strncmp(l, prefix, plen)) {
            snprintf(buf, n, "%.*s", (int)(len - plen), l + plen);
            return true;
        }
        if (!end)
            break;
        l = end + 1;
    }
    return false;
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
                           "three var nine-holes var tapatan var achi\n"
                           "option name Flying type check default true\n"
                           "option name RemoveFromMills type check default false\n"
                           "option name RemovalPerMill type check default false\n"
                           "option name Repetition type check default true\n"
                           "option name NMoveRule type spin default 100 min 0 max 10000\n"
                           "uciok\n";
    ck_assert_msg(!strncmp(out, "id name tabula ", strlen("id name tabula ")), "got:\n%s", out);
    const char *author = strchr(out, '\n') + 1;
    ck_assert_msg(!strncmp(author, "id author ", strlen("id author ")), "got:\n%s", out);
    const char *options = strchr(author, '\n') + 1;
    ck_assert_str_eq(options, expected);
    ck_assert(strstr(out, "var backgammon") == NULL);
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
    static const char *const names[] = {"uci",   "isready", "setoption", "ucinewgame", "position",
                                        "perft", "d",       "moves",     "help",       "quit"};
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
    // Setting the same variant again also starts over.
    ck_assert_str_eq(execute(&s, "position startpos moves d7"), "");
    ck_assert_str_eq(execute(&s, "setoption name UCI_Variant value nine"), "");
    get_fen(&s, fen, sizeof fen);
    ck_assert_str_eq(fen, NINE_START);
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
    "setoption name UCI_Variant value backgammon",
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

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

// Lines of 1 MB made of many short tokens, each a bad argument of some command.
static const char *const LONG_LINE_HEADS[] = {
    "foo ",
    "position startpos moves ",
    "position fen ",
    "setoption name ",
    "setoption name UCI_Variant value ",
    "setoption name NMoveRule value ",
    "perft ",
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

Suite *uci_suite(void) {
    Suite *s = suite_create("uci");
    int nbad_set = (int)(sizeof BAD_SETOPTIONS / sizeof BAD_SETOPTIONS[0]);
    int nbad_pos = (int)(sizeof BAD_POSITIONS / sizeof BAD_POSITIONS[0]);
    int nbad_perft = (int)(sizeof BAD_PERFTS / sizeof BAD_PERFTS[0]);
    int nunknown = (int)(sizeof UNKNOWN_COMMANDS / sizeof UNKNOWN_COMMANDS[0]);
    int nraw = (int)(sizeof RAW_BYTES / sizeof RAW_BYTES[0]);
    int nlong = (int)(sizeof LONG_LINE_HEADS / sizeof LONG_LINE_HEADS[0]);

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

    tc = tcase_create("long lines");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, test_framing_long_line_fast, 0, nlong);
    suite_add_tcase(s, tc);
    return s;
}
