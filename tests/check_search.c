// The mill search on positions with a known answer, through the Game interface.
#include "tests/suites.h"

#include "engine/core/clock.h"
#include "engine/core/random.h"
#include "engine/mill/eval.h"
#include "engine/mill/game.h"
#include "engine/mill/variant.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct Searched {
    SearchResult res;
    int last_score, last_depth, reports;
    uint64_t last_nodes;
    char legal[8192];
} Searched;

static void on_report(void *ctx, const SearchReport *r) {
    Searched *s = ctx;
    s->last_score = r->score;
    s->last_depth = r->depth;
    s->last_nodes = r->nodes;
    s->reports++;
}

static void add_legal(void *ctx, const char *move) {
    Searched *s = ctx;
    strcat(s->legal, " ");
    strcat(s->legal, move);
    strcat(s->legal, " ");
}

// Search variant/fen (NULL: the start) to `depth` with `threads`; fill s.
static void run(const char *variant, const char *fen, int depth, int threads, Searched *s) {
    memset(s, 0, sizeof *s);
    Game *g = MILL_FAMILY.create(variant);
    ck_assert_ptr_nonnull(g);
    Error err;
    ck_assert_msg(!fen || MILL_FAMILY.set_position(g, fen, NULL, 0, &err), "%s: %s", fen, err.msg);
    MILL_FAMILY.legal_moves(g, add_legal, s);
    SearchLimits lim = {.depth = depth, .time = {-1, -1}, .threads = threads, .multipv = 1};
    lim.start_us = clock_now_us();
    SearchHooks hooks = {.report = on_report, .ctx = s};
    MILL_FAMILY.search(g, &lim, &hooks, &s->res);
    MILL_FAMILY.destroy(g);
}

// True when move is one of the legal moves collected in s.
static bool is_legal(const Searched *s, const char *move) {
    char key[40];
    snprintf(key, sizeof key, " %s ", move);
    return strstr(s->legal, key) != NULL;
}

// clang-format off
static const struct { const char *name, *variant, *fen; int depth, mate; const char *best; }
KNOWN[] = {
    {"three: placing the third man on a line wins",
     "three", "WW1/3/BB1 w 1 1 0 3", 4, 1, "c3"},
    {"nine: a mill that leaves the opponent two men wins",
     "nine", "WW1/3/3/2B2W/3/W2/BB1 w 0 0 0 20", 4, 1, "g4-g7xa1 g4-g7xd1 g4-g7xc4"},
    {"nine: blocking the last free man wins",
     "nine", "W2/3/3/B1W2W/3/1W1/BBB w 0 0 0 20", 4, 1, "c4-b4"},
    {"nine: a flying double threat wins in two",
     "nine", "W2/B2/2W/3B2/3/2B/2W w 0 0 0 30", 5, 2, NULL},
    {"nine: the side facing a double threat is mated in one",
     "nine", "W2/B2/3/3B2/3/2B/W1W b 0 0 0 30", 6, -1, NULL},
};
// clang-format on

START_TEST(test_known_result) {
    Searched s;
    run(KNOWN[_i].variant, KNOWN[_i].fen, KNOWN[_i].depth, 1, &s);
    ck_assert_msg(is_legal(&s, s.res.best), "%s: bestmove %s is not legal", KNOWN[_i].name,
                  s.res.best);
    int score = s.last_score;
    ck_assert_msg(score >= SCORE_MATE_IN_MAX || score <= -SCORE_MATE_IN_MAX,
                  "%s: score %d is not a mate score", KNOWN[_i].name, score);
    ck_assert_msg(score_mate_moves(score) == KNOWN[_i].mate, "%s: mate %d, want mate %d",
                  KNOWN[_i].name, score_mate_moves(score), KNOWN[_i].mate);
    if (KNOWN[_i].best) {
        char key[40];
        snprintf(key, sizeof key, "%s ", s.res.best);
        char all[128];
        snprintf(all, sizeof all, "%s ", KNOWN[_i].best);
        ck_assert_msg(strstr(all, key) != NULL, "%s: bestmove %s, want one of %s", KNOWN[_i].name,
                      s.res.best, KNOWN[_i].best);
    }
}
END_TEST

// One position per variant: its start, searched to depth 1 and 3.
START_TEST(test_every_variant_legal) {
    const char *id = MILL_FAMILY.variant_id(_i);
    for (int depth = 1; depth <= 3; depth += 2) {
        Searched s;
        run(id, NULL, depth, 1, &s);
        ck_assert_msg(is_legal(&s, s.res.best), "%s depth %d: bestmove '%s' is not legal", id,
                      depth, s.res.best);
        ck_assert_int_eq(s.last_depth, depth);
    }
}
END_TEST

START_TEST(test_game_over_gives_none) {
    Searched s;
    run("three", "WWW/BB1/B2 b 0 0 0 4", 3, 1, &s);
    ck_assert_str_eq(s.res.best, "(none)");
    ck_assert_int_eq(s.reports, 0);
}
END_TEST

// A repetition inside the search is a draw, seen from four quiet plies back: after a7-d7
// g1-d1 d7-a7 d1-g1, a7-d7 again repeats the position of four plies before, so it scores 0;
// with the Repetition rule off, the same move scores the evaluation.
START_TEST(test_repetition_in_search) {
    static const char *const shuffle[] = {"a7-d7", "g1-d1", "d7-a7", "d1-g1"};
    static const char *const again[] = {"a7-d7"};
    for (int on = 0; on < 2; on++) {
        Searched s;
        memset(&s, 0, sizeof s);
        Game *g = MILL_FAMILY.create("nine");
        ck_assert_ptr_nonnull(g);
        Error err;
        ck_assert(MILL_FAMILY.set_option(g, "Repetition", on ? "true" : "false", &err));
        ck_assert_msg(
            MILL_FAMILY.set_position(g, "W2/W2/2B/B3W1/W2/1B1/2B w 0 0 0 20", shuffle, 4, &err),
            "%s", err.msg);
        SearchLimits lim = {.depth = 3,
                            .time = {-1, -1},
                            .threads = 1,
                            .multipv = 1,
                            .nsearchmoves = 1,
                            .searchmoves = again};
        lim.start_us = clock_now_us();
        SearchHooks hooks = {.report = on_report, .ctx = &s};
        MILL_FAMILY.search(g, &lim, &hooks, &s.res);
        MILL_FAMILY.destroy(g);
        ck_assert_str_eq(s.res.best, "a7-d7");
        ck_assert_int_eq(s.last_depth, 3);
        if (on)
            ck_assert_int_eq(s.last_score, SCORE_DRAW);
        else
            ck_assert_int_ne(s.last_score, SCORE_DRAW);
    }
}
END_TEST

START_TEST(test_two_threads_legal) {
    Searched s;
    run("nine", NULL, 8, 2, &s);
    ck_assert_msg(is_legal(&s, s.res.best), "bestmove %s is not legal", s.res.best);
}
END_TEST

// The same search twice gives the same node count and move (one thread).
START_TEST(test_deterministic) {
    uint64_t nodes[2];
    char best[2][32];
    for (int k = 0; k < 2; k++) {
        Game *g = MILL_FAMILY.create("nine");
        Error err;
        const char *moves[] = {"d6", "f4", "d2"};
        ck_assert(MILL_FAMILY.set_position(g, NULL, moves, 3, &err));
        SearchLimits lim = {.depth = 7, .time = {-1, -1}, .threads = 1, .multipv = 1};
        lim.start_us = clock_now_us();
        Searched s = {0};
        SearchHooks hooks = {.report = on_report, .ctx = &s};
        MILL_FAMILY.search(g, &lim, &hooks, &s.res);
        nodes[k] = s.last_nodes;
        strcpy(best[k], s.res.best);
        MILL_FAMILY.destroy(g);
    }
    ck_assert_str_eq(best[0], best[1]);
    ck_assert_msg(nodes[0] == nodes[1] && nodes[0] > 0, "nodes %llu then %llu",
                  (unsigned long long)nodes[0], (unsigned long long)nodes[1]);
}
END_TEST

typedef struct StopCtx {
    SearchHooks hooks;
    SearchResult res;
    Game *g;
    SearchLimits lim;
} StopCtx;

static void *search_thread(void *arg) {
    StopCtx *c = arg;
    MILL_FAMILY.search(c->g, &c->lim, &c->hooks, &c->res);
    return NULL;
}

// An infinite search ends soon after stop, with a legal move.
START_TEST(test_stop_infinite) {
    StopCtx c = {0};
    c.g = MILL_FAMILY.create("nine");
    c.lim = (SearchLimits){.infinite = true, .time = {-1, -1}, .threads = 1, .multipv = 1};
    c.lim.start_us = clock_now_us();
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, search_thread, &c), 0);
    struct timespec ms50 = {0, 50000000};
    nanosleep(&ms50, NULL);
    int64_t t0 = clock_now_us();
    atomic_store(&c.hooks.stop, true);
    pthread_join(t, NULL);
    int64_t waited = clock_now_us() - t0;
    ck_assert_msg(waited < 200000, "stop took %lld us", (long long)waited);
    Searched s = {0};
    MILL_FAMILY.legal_moves(c.g, add_legal, &s);
    ck_assert_msg(is_legal(&s, c.res.best), "bestmove %s is not legal", c.res.best);
    MILL_FAMILY.destroy(c.g);
}
END_TEST

// A movetime search returns in about that time.
START_TEST(test_movetime) {
    Game *g = MILL_FAMILY.create("nine");
    SearchLimits lim = {.movetime = 100, .time = {-1, -1}, .threads = 1, .multipv = 1};
    lim.start_us = clock_now_us();
    SearchHooks hooks = {0};
    SearchResult res;
    MILL_FAMILY.search(g, &lim, &hooks, &res);
    int64_t took = clock_now_us() - lim.start_us;
    ck_assert_msg(took >= 50000 && took < 400000, "movetime 100 took %lld us", (long long)took);
    MILL_FAMILY.destroy(g);
}
END_TEST

// A clock search that gives only the opponent's time still ends (planned on that clock).
START_TEST(test_only_opponent_clock) {
    Game *g = MILL_FAMILY.create("nine");
    SearchLimits lim = {.time = {-1, 1000}, .threads = 1, .multipv = 1};
    lim.start_us = clock_now_us();
    SearchHooks hooks = {0};
    SearchResult res;
    MILL_FAMILY.search(g, &lim, &hooks, &res);
    int64_t took = clock_now_us() - lim.start_us;
    ck_assert_msg(took < 1000000, "the search took %lld us of a 1000 ms clock", (long long)took);
    MILL_FAMILY.destroy(g);
}
END_TEST

// The evaluation's features from their definitions, point by point and line by line, for one
// side of a position.
static void features_by_definition(const Position *p, int side, int f[F_COUNT]) {
    const Board *b = p->rules->board;
    Bits own = p->men[side], empty = b->all & ~(p->men[0] | p->men[1]), closers = 0, mills = 0;
    memset(f, 0, F_COUNT * sizeof f[0]);
    f[F_MEN] = bits_count(own) + p->hand[side];
    for (int l = 0; l < b->nlines; l++) {
        Bits line = b->lines[l];
        if (bits_count(line & own) == 2 && bits_count(line & empty) == 1)
            closers |= line & empty;
        if ((line & own) == line)
            mills |= line;
        f[F_TWO_EMPTY] += bits_count(line & own) == 1 && bits_count(line & empty) == 2;
    }
    Bits near_closers = 0;
    for (int q = 0; q < b->npoints; q++)
        if (closers & BIT(q))
            near_closers |= b->adj[q];
    for (int q = 0; q < b->npoints; q++)
        if (own & BIT(q)) {
            f[F_MOBILITY] += bits_count(b->adj[q] & empty);
            f[F_BLOCKED] += !(b->adj[q] & empty);
            f[F_DOUBLE_MILLS] += (mills & near_closers & BIT(q)) != 0;
        }
    f[F_OPEN_MILLS] = bits_count(closers);
    f[F_FLYING] = pos_flies(p, side);
    f[F_TEMPO] = side == p->side;
}

// eval_features and eval_position against the definitions on random positions of every
// variant (the 24-point boards take their own path, by rings, where no bit gather serves).
START_TEST(test_eval_features) {
    MillRules r;
    rules_init(&r, &VARIANTS[_i]);
    const Board *b = r.board;
    uint64_t state = 0x2545f4914f6cdd1dull + (uint64_t)_i, seed = 0;
    for (int it = 0; it < 5000; it++) {
        Position p = {.rules = &r};
        for (int q = 0; q < b->npoints; q++) {
            seed = random_next(&state);
            int v = (int)(seed % 3);
            if (v)
                p.men[v - 1] |= BIT(q);
        }
        if (it % 3 == 0) { // fewer men, as in an endgame
            p.men[0] &= (Bits)(seed >> 32);
            p.men[1] &= (Bits)(seed >> 40);
        }
        p.side = (int)(seed >> 20 & 1);
        p.hand[WHITE] = it % 2 ? 0 : (int)(seed >> 21 & 3);
        p.hand[BLACK] = it % 2 ? 0 : (int)(seed >> 23 & 3);
        int got[F_COUNT], own[F_COUNT], opp[F_COUNT], score = 0;
        int phase = eval_features(&p, got);
        features_by_definition(&p, p.side, own);
        features_by_definition(&p, !p.side, opp);
        for (int k = 0; k < F_COUNT; k++) {
            ck_assert_msg(got[k] == own[k] - opp[k], "%s: %s is %d, not %d (men %#x %#x)",
                          VARIANTS[_i].id, EVAL_FEATURE_NAMES[k], got[k], own[k] - opp[k], p.men[0],
                          p.men[1]);
            score += EVAL_WEIGHTS_DEFAULT.w[b->kind][phase][k] * got[k];
        }
        ck_assert_int_eq(phase, p.hand[0] || p.hand[1] ? PHASE_PLACING : PHASE_MOVING);
        ck_assert_int_eq(eval_position(&p, &EVAL_WEIGHTS_DEFAULT), score);
    }
}
END_TEST

Suite *search_suite(void) {
    Suite *s = suite_create("search");
    TCase *tc = tcase_create("known results");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_known_result, 0, (int)(sizeof KNOWN / sizeof KNOWN[0]));
    tcase_add_loop_test(tc, test_every_variant_legal, 0, VARIANT_COUNT);
    tcase_add_test(tc, test_game_over_gives_none);
    tcase_add_test(tc, test_two_threads_legal);
    tcase_add_test(tc, test_repetition_in_search);
    tcase_add_test(tc, test_deterministic);
    suite_add_tcase(s, tc);
    tc = tcase_create("limits");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_stop_infinite);
    tcase_add_test(tc, test_movetime);
    tcase_add_test(tc, test_only_opponent_clock);
    suite_add_tcase(s, tc);
    tc = tcase_create("evaluation");
    tcase_add_loop_test(tc, test_eval_features, 0, VARIANT_COUNT);
    suite_add_tcase(s, tc);
    return s;
}
