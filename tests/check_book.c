// The opening books (match/book.c, match/books.c): every variant's book is legal, balanced as
// its header says (exact values checked on the small solved boards), made again byte for byte
// by the command in its header, and played by `tabula match` by default.
#include "engine/mill/game.h"
#include "engine/mill/solve.h"
#include "engine/mill/variant.h"
#include "match/book.h"
#include "match/match.h"
#include "match/opening.h"
#include "match/referee.h"
#include "tests/harness.h"
#include "tests/helpers.h"
#include "tests/suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const MILL_VARIANTS[] = {"three",  "five",       "six",     "seven",
                                            "nine",   "eleven",     "twelve",  "morabaraba",
                                            "lasker", "nine-holes", "tapatan", "achi"};
#define NBOOKS (int)(sizeof MILL_VARIANTS / sizeof MILL_VARIANTS[0])

// The book of variant as a list of openings; *n their count.
static Opening *book_openings(const char *variant, int *n) {
    size_t len;
    const char *text = book_text(variant, &len);
    ck_assert_msg(text != NULL, "%s has no book", variant);
    char *copy = strndup(text, len);
    Opening *list = calloc(1000, sizeof *list);
    ck_assert_ptr_nonnull(list);
    *n = 0;
    for (char *save, *line = strtok_r(copy, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        ck_assert_int_lt(*n, 1000);
        Error e;
        ck_assert_msg(opening_parse_line(line, &list[*n], &e), "%s: %s: %s", variant, line, e.msg);
        (*n)++;
    }
    free(copy);
    return list;
}

START_TEST(test_books_legal) {
    for (int v = 0; v < NBOOKS; v++) {
        const char *id = MILL_VARIANTS[v];
        size_t len;
        const char *text = book_text(id, &len);
        char head[64];
        snprintf(head, sizeof head, "# tabula openings %s --seed ", id);
        ck_assert_msg(text && !strncmp(text, head, strlen(head)), "%s: header", id);
        int n;
        Opening *list = book_openings(id, &n);
        // The 9-point boards have few distinct openings; the others fill the default count.
        ck_assert_msg(n >= (variant_find(id)->men <= 4 ? 30 : 200), "%s: %d openings", id, n);
        GameSetup *s = calloc(1, sizeof *s);
        for (int i = 0; i < n; i++) {
            s->variant = id;
            s->fen = NULL;
            s->nopening = list[i].n;
            memcpy(s->opening, list[i].moves, sizeof list[i].moves);
            Error e;
            ck_assert_msg(referee_check_opening(s, &e), "%s: opening %d: %s", id, i + 1, e.msg);
            for (int j = 0; j < i; j++)
                ck_assert_msg(list[j].n != list[i].n ||
                                  memcmp(list[j].moves, list[i].moves, sizeof list[i].moves),
                              "%s: openings %d and %d are the same", id, j + 1, i + 1);
        }
        free(s);
        free(list);
    }
    size_t len;
    ck_assert_ptr_null(book_text("backgammon", &len));
}
END_TEST

// The exact values of a small solved variant's book: all draws where the header says so,
// else wins for White and for Black in equal numbers.
static void check_exact(const char *id) {
    MillRules rules;
    rules_init(&rules, variant_find(id));
    SolveOptions opt = {.threads = 1};
    Error e;
    SolveDb *db = solve_build(&rules, &opt, &e);
    ck_assert_msg(db != NULL, "%s", e.msg);
    size_t len;
    bool draws = strstr(book_text(id, &len), "exact value draw") != NULL;
    int n, white = 0, black = 0;
    Opening *list = book_openings(id, &n);
    Game *g = MILL_FAMILY.create(id);
    for (int i = 0; i < n; i++) {
        const char *ptr[OPENING_MAX_PLIES];
        for (int k = 0; k < list[i].n; k++)
            ptr[k] = list[i].moves[k];
        ck_assert(MILL_FAMILY.set_position(g, NULL, ptr, list[i].n, &e));
        int value, distance;
        ck_assert(solve_probe(db, &mill_game_of(g)->pos, &value, &distance));
        if (draws) {
            ck_assert_msg(value == SOLVE_DRAW, "%s: opening %d is not a draw", id, i + 1);
        } else {
            ck_assert_int_ne(value, SOLVE_DRAW);
            bool w = (value == SOLVE_WIN) == (MILL_FAMILY.to_act(g) == SIDE_FIRST);
            *(w ? &white : &black) += 1;
        }
    }
    ck_assert_msg(abs(white - black) <= 1, "%s: %d won for White, %d for Black", id, white, black);
    MILL_FAMILY.destroy(g);
    free(list);
    solve_free(db);
}

START_TEST(test_books_exact) {
    check_exact("three");
    check_exact("nine-holes");
    check_exact("tapatan");
    check_exact("achi");
}
END_TEST

// Run `tabula openings` (tests/harness.h, run_subcommand): its status, and its output alone in
// *out (to be freed).
static int openings(const char *args, char **out) {
    char *err;
    int status = run_subcommand(book_main, args, out, &err);
    free(err);
    return status;
}

START_TEST(test_books_remade) {
    const char *ids[] = {"three", "tapatan", "achi"};
    for (int i = 0; i < 3; i++) {
        size_t len;
        const char *text = book_text(ids[i], &len);
        char cmd[256], *out;
        // The header's first line is the command that made the book.
        sscanf(text, "# tabula openings %255[^\n]", cmd);
        ck_assert_int_eq(openings(cmd, &out), 0);
        ck_assert_msg(strlen(out) == len && !memcmp(out, text, len), "%s: not remade by '%s'",
                      ids[i], cmd);
        free(out);
    }
    char *out;
    ck_assert_int_eq(openings("", &out), 2);
    free(out);
    ck_assert_int_eq(openings("backgammon", &out), 2);
    free(out);
    ck_assert_int_eq(openings("nine --count 0", &out), 2);
    free(out);
    ck_assert_int_eq(openings("nine six", &out), 2);
    free(out);
}
END_TEST

// The match's JSON summary names its openings: the book by default.
static void check_match_openings(const char *extra, const char *spec) {
    char json[] = "/tmp/tabula-book-json-XXXXXX";
    int fd = mkstemp(json);
    ck_assert_int_ge(fd, 0);
    close(fd);
    char args[1024], *text;
    snprintf(args, sizeof args,
             "--variant three --engine cmd=%%T depth=1 --engine cmd=%%T depth=1 --games 2 "
             "--quiet --json %s %s",
             json, extra);
    ck_assert_int_eq(run_subcommand(match_main, args, &text, NULL), 0);
    // Two games: White's wins, draws and losses add up to them.
    int w, d, l;
    const char *colours = strstr(text, "colours: White +");
    ck_assert_msg(colours && sscanf(colours, "colours: White +%d =%d -%d", &w, &d, &l) == 3 &&
                      w + d + l == 2,
                  "%s", text);
    free(text);
    FILE *j = fopen(json, "r");
    char all[1 << 16];
    size_t got = fread(all, 1, sizeof all - 1, j);
    all[got] = '\0';
    fclose(j);
    unlink(json);
    ck_assert_msg(strstr(all, spec), "no %s in %s", spec, all);
}

START_TEST(test_match_uses_book) {
    check_match_openings("", "\"openings\": \"book\"");
    check_match_openings("--openings random:2", "\"openings\": \"random:2\"");
    check_match_openings("--openings random:2 --openings book", "\"openings\": \"book\"");
}
END_TEST

Suite *book_suite(void) {
    Suite *s = suite_create("book");
    TCase *tc = tcase_create("book");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_books_legal);
    tcase_add_test(tc, test_books_exact);
    tcase_add_test(tc, test_books_remade);
    tcase_add_test(tc, test_match_uses_book);
    suite_add_tcase(s, tc);
    return s;
}
