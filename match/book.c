// `tabula openings`: a balanced opening book for a mill variant. Candidates are random legal
// plies from the start (seeded, as `--openings random:PLIES` makes them); a candidate is kept
// when it is balanced:
// - in a variant the solver solves whole, by its exact value: a draw where the variant's
//   candidates include draws, else won for White and for Black in equal numbers;
// - otherwise by a fixed-depth search of one thread from a cleared table: the score (side to
//   move's view) within +-window centi-men. The depth reaches past the end of the placing by
//   default: a shallower score misjudges the men still to be placed (at depth 14 after 8 plies
//   of morabaraba, the kept openings gave White 33% in self-play).
// Each position is kept once. The book's first lines say the command that made it.
#include "match/book.h"

#include "engine/core/args.h"
#include "engine/core/random.h"
#include "engine/mill/game.h"
#include "engine/mill/movegen.h"
#include "engine/mill/solve.h"
#include "engine/mill/variant.h"
#include "match/opening.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BOOK_USAGE                                                                                 \
    "usage: tabula openings VARIANT [--seed N] [--count N] [--plies N] [--depth D] "               \
    "[--window CP] [--out FILE]\n"

#define BOOK_TRIES 200  // candidates tried per opening asked for
#define BOOK_STALE 5000 // candidates in a row without a new position: all were seen

typedef struct BookParams {
    const char *variant;
    uint64_t seed;
    int count, plies, depth, window;
} BookParams;

typedef struct Book {
    FILE *out, *err;
    bool tty; // err is a terminal: progress on one rewritten line
    const BookParams *bp;
    Game *g;
    SolveDb *db;               // NULL: judged by search
    char (*bag)[MOVE_STR_MAX]; // room for the legal moves
    uint64_t *keys;
    int nkeys, kept, tried;
    int white_wins, black_wins; // kept so far, in a variant without draws
} Book;

static void keep_score(void *ctx, const SearchReport *r) { *(int *)ctx = r->score; }

// The search score of the game's position at the book's depth, from a cleared table.
static int search_score(Book *b) {
    SearchLimits lim = {.depth = b->bp->depth, .time = {-1, -1}, .threads = 1, .multipv = 1};
    int score = SCORE_NONE;
    SearchHooks hooks = {.report = keep_score, .ctx = &score};
    atomic_init(&hooks.stop, false);
    atomic_init(&hooks.ponder, false);
    atomic_init(&hooks.ponderhit_us, 0);
    SearchResult res;
    MILL_FAMILY.clear_hash(b->g);
    MILL_FAMILY.search(b->g, &lim, &hooks, &res);
    return score;
}

// Whether the exact value keeps the position: a draw; in a variant whose candidates have no
// draw (with_draws false), a win for the colour that has fewer so far.
static bool exact_keeps(Book *b, bool with_draws) {
    const MillGame *mg = mill_game_of(b->g);
    int value, distance;
    if (!solve_probe(b->db, &mg->pos, &value, &distance))
        return false;
    if (with_draws)
        return value == SOLVE_DRAW;
    if (value == SOLVE_DRAW)
        return false;
    bool white = (value == SOLVE_WIN) == (MILL_FAMILY.to_act(b->g) == SIDE_FIRST);
    if (white ? b->white_wins > b->black_wins : b->black_wins > b->white_wins)
        return false;
    *(white ? &b->white_wins : &b->black_wins) += 1;
    return true;
}

// Whether key is new; remembered when it is.
static bool first_time(Book *b, uint64_t key) {
    for (int i = 0; i < b->nkeys; i++)
        if (b->keys[i] == key)
            return false;
    b->keys[b->nkeys++] = key;
    return true;
}

// Set the book's game to candidate t: plies random legal moves from the start, seeded by the
// book's seed and t, none of them ending the game. False when the game ends sooner.
static bool candidate(Book *b, int t, char moves[OPENING_MAX_PLIES][MOVE_STR_MAX]) {
    uint64_t rng = b->bp->seed * 0x2545F4914F6CDD1Dull + (uint64_t)t;
    random_next(&rng);
    return opening_random_on(b->g, b->bp->plies, &rng, moves, b->bag) == b->bp->plies;
}

// Try candidates until count are kept or the tries run out (BOOK_TRIES per opening asked, or
// BOOK_STALE in a row that bring no new position); print each kept one.
static void fill(Book *b, bool with_draws) {
    const BookParams *bp = b->bp;
    char moves[OPENING_MAX_PLIES][MOVE_STR_MAX];
    int tries = bp->count * BOOK_TRIES, stale = 0;
    for (int t = 0; t < tries && stale < BOOK_STALE && b->kept < bp->count; t++) {
        int n = bp->plies;
        if (!candidate(b, t, moves) || !first_time(b, MILL_FAMILY.key(b->g))) {
            stale++;
            continue;
        }
        stale = 0;
        b->tried++;
        bool keep;
        if (b->db) {
            keep = exact_keeps(b, with_draws);
        } else {
            int score = search_score(b);
            keep = score != SCORE_NONE && abs(score) <= bp->window;
        }
        if (keep) {
            b->kept++;
            fputs("startpos moves", b->out);
            for (int i = 0; i < n; i++)
                fprintf(b->out, " %s", moves[i]);
            fputc('\n', b->out);
        }
        if (!b->db && (b->tty || b->tried % 50 == 0))
            fprintf(b->err, "%s%s: %d of %d kept, %d positions tried%s", b->tty ? "\r" : "",
                    bp->variant, b->kept, bp->count, b->tried, b->tty ? "" : "\n");
    }
    if (!b->db && b->tty)
        fputc('\n', b->err);
}

// Whether some candidate is an exact draw (so the book keeps only draws).
static bool candidates_draw(Book *b) {
    char moves[OPENING_MAX_PLIES][MOVE_STR_MAX];
    int value, distance;
    for (int t = 0; t < b->bp->count * BOOK_TRIES && t < BOOK_STALE * 10; t++)
        if (candidate(b, t, moves) &&
            solve_probe(b->db, &mill_game_of(b->g)->pos, &value, &distance) && value == SOLVE_DRAW)
            return true;
    return false;
}

// Make the book of bp on out: the header, then one opening per line.
static int make_book(const BookParams *bp, const MillRules *rules, FILE *out, FILE *err) {
    Book b = {.out = out, .err = err, .tty = isatty(fileno(err)), .bp = bp};
    b.g = MILL_FAMILY.create(bp->variant);
    b.keys = malloc((size_t)bp->count * BOOK_TRIES * sizeof *b.keys);
    b.bag = malloc(MAX_MOVES * sizeof *b.bag);
    Error e;
    if (!b.g || !b.keys || !b.bag || !MILL_FAMILY.set_hash(b.g, 16, &e)) {
        fprintf(err, "tabula openings: out of memory\n");
        free(b.keys);
        free(b.bag);
        if (b.g)
            MILL_FAMILY.destroy(b.g);
        return 1;
    }
    bool exact = solve_supported(rules, 0, &e);
    if (exact) {
        SolveOptions opt = {.threads = 0};
        fprintf(err, "%s: solving the variant for exact values\n", bp->variant);
        b.db = solve_build(rules, &opt, &e);
        if (!b.db) {
            fprintf(err, "tabula openings: %s\n", e.msg);
            free(b.keys);
            free(b.bag);
            MILL_FAMILY.destroy(b.g);
            return 1;
        }
    }
    bool with_draws = exact && candidates_draw(&b);
    fprintf(out, "# tabula openings %s --seed %" PRIu64 " --count %d --plies %d", bp->variant,
            bp->seed, bp->count, bp->plies);
    if (exact)
        fprintf(out, "\n# %d plies from the start, each with the exact value %s\n", bp->plies,
                with_draws ? "draw" : "win, for White and for Black alike");
    else
        fprintf(out,
                " --depth %d --window %d\n# %d plies from the start, each scored within "
                "+-%d centi-men by a search of depth %d\n",
                bp->depth, bp->window, bp->plies, bp->window, bp->depth);
    fill(&b, with_draws);
    if (b.kept < bp->count)
        fprintf(err, "%s: %d openings (fewer than %d: every distinct candidate was tried)\n",
                bp->variant, b.kept, bp->count);
    if (b.db)
        solve_free(b.db);
    free(b.keys);
    free(b.bag);
    MILL_FAMILY.destroy(b.g);
    return b.kept ? 0 : 1;
}

int book_main(int argc, char **argv, FILE *out, FILE *err) {
    BookParams bp = {.seed = 1, .count = 200, .plies = -1, .depth = -1, .window = 25};
    const char *path = NULL, *arg;
    long long seed = 1;
    Args a;
    args_init(&a, "tabula openings", argc, argv, err);
    while (args_more(&a)) {
        if (args_long(&a, "--seed", 0, INT64_MAX, &seed) ||
            args_int(&a, "--count", 1, 100000, &bp.count) ||
            args_int(&a, "--plies", 1, OPENING_MAX_PLIES, &bp.plies) ||
            args_int(&a, "--depth", 1, 64, &bp.depth) ||
            args_int(&a, "--window", 0, SCORE_MATE, &bp.window) || args_string(&a, "--out", &path))
            continue;
        if ((arg = args_operand(&a)) && !bp.variant)
            bp.variant = arg;
        else if (arg)
            args_fail(&a, "unexpected argument '%s' (one variant only)", arg);
        else
            args_unknown(&a);
    }
    if (!a.failed && !bp.variant)
        args_fail(&a, "which variant?");
    const Variant *v = a.failed ? NULL : variant_find(bp.variant);
    if (!a.failed && !v)
        args_fail(&a, "'%s' is not a mill variant", bp.variant);
    if (a.failed) {
        fputs(BOOK_USAGE, err);
        return 2;
    }
    bp.seed = (uint64_t)seed;
    if (bp.plies < 0)
        bp.plies = v->men < 9 ? v->men - 1 : 8;
    // A score is worth little before the search sees the placing end: reach two plies past it.
    if (bp.depth < 0)
        bp.depth = 2 * v->men + 2 - bp.plies > 12 ? 2 * v->men + 2 - bp.plies : 12;
    MillRules rules;
    rules_init(&rules, v);
    FILE *f = path ? fopen(path, "w") : out;
    if (!f) {
        fprintf(err, "tabula openings: cannot write '%s'\n", path);
        return 1;
    }
    int status = make_book(&bp, &rules, f, err);
    if (path && fclose(f) != 0) {
        fprintf(err, "tabula openings: cannot write '%s'\n", path);
        return 1;
    }
    return status;
}
