// The referee of one game (match/referee.c) with real engine processes: the tabula binary of
// this build (TABULA_BIN, set by the Makefile) and the misbehaving engines of
// data/fake_engine.sh. Every fault must lose the game for the engine at fault, with its
// termination, and within the time the referee allows.
#include "engine/mill/game.h"
#include "match/referee.h"
#include "tests/harness.h"
#include "tests/helpers.h"
#include "tests/suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define FAKE "sh data/fake_engine.sh "

// An engine started with cmd, searching with the limits in `limits` ("depth=1" style).
static EngineConfig engine(const char *name, const char *cmd, int depth, int64_t tc_ms,
                           int64_t movetime_ms) {
    EngineConfig c;
    memset(&c, 0, sizeof c);
    snprintf(c.name, sizeof c.name, "%s", name);
    snprintf(c.cmd, sizeof c.cmd, "%s", cmd);
    c.depth = depth;
    c.tc_time_ms = tc_ms;
    c.movetime_ms = movetime_ms;
    return c;
}

static EngineConfig good_engine(void) { return engine("tabula", tabula_bin(), 1, 0, 0); }

// Set up a game of the variant between white and black, with no opening and no adjudication.
static void setup(GameSetup *s, const char *variant, const EngineConfig *white,
                  const EngineConfig *black, int64_t movetimeout_ms) {
    memset(s, 0, sizeof *s);
    s->variant = variant;
    s->engine[0] = white;
    s->engine[1] = black;
    s->movetimeout_ms = movetimeout_ms;
}

// Play one game between white and black from the variant's start.
static GameRecord *play(const char *variant, const EngineConfig *white, const EngineConfig *black,
                        int64_t movetimeout_ms) {
    static GameSetup s;
    setup(&s, variant, white, black, movetimeout_ms);
    s.adj.max_plies = 400;
    GameRecord *rec = malloc(sizeof *rec);
    ck_assert_ptr_nonnull(rec);
    referee_play(&s, rec);
    return rec;
}

typedef struct FaultCase {
    const char *mode;
    int64_t tc_ms, movetime_ms; // the fake's limits; neither: depth 1
    Termination want;
    const char *reason; // a piece of the recorded reason
    double max_seconds; // how long the game may take
} FaultCase;

// clang-format off
static const FaultCase FAULTS[] = {
    {"illegal", 0,   0,   TERM_ILLEGAL,   "lost: illegal move 'z9'",                 5},
    {"none",    0,   0,   TERM_ILLEGAL,   "lost: illegal move '(none)'",             5},
    {"crash",   0,   0,   TERM_ABANDONED, "lost: engine crashed (exit status 3) while thinking", 5},
    {"silent",  300, 0,   TERM_TIME,      "lost: no move within 300 ms",             3},
    {"silent",  0,   0,   TERM_STALLED,   "lost: no move within 400 ms",             3},
    {"slow",    0,   200, TERM_TIME,      "lost: no move within 200 ms",             3},
    {"dead",    0,   0,   TERM_ABANDONED, "lost: engine crashed (exit status 1) before 'uciok'", 5},
    {"mute",    0,   0,   TERM_STALLED,   "lost: no 'uciok' within 400 ms",          3},
};
// clang-format on

// Each fault, by the side to move first and by the second player, loses for the faulty side.
START_TEST(test_fault_loses) {
    const FaultCase *f = &FAULTS[_i / 2];
    bool fake_white = _i % 2 == 0;
    char cmd[256];
    snprintf(cmd, sizeof cmd, FAKE "%s", f->mode);
    EngineConfig fake =
        engine("fake", cmd, f->tc_ms || f->movetime_ms ? 0 : 1, f->tc_ms, f->movetime_ms);
    EngineConfig good = good_engine();
    double t0 = seconds();
    GameRecord *rec =
        fake_white ? play("nine", &fake, &good, 400) : play("nine", &good, &fake, 400);
    double took = seconds() - t0;
    ck_assert_msg(rec->termination == f->want, "%s: termination %s (%s)", f->mode,
                  referee_termination_name(rec->termination), rec->reason);
    ck_assert_int_eq(rec->result, fake_white ? RESULT_BLACK_WINS : RESULT_WHITE_WINS);
    ck_assert_msg(strstr(rec->reason, f->reason), "%s: reason '%s'", f->mode, rec->reason);
    ck_assert_msg(strstr(rec->reason, fake_white ? "white lost:" : "black lost:"), "reason '%s'",
                  rec->reason);
    ck_assert_msg(took < f->max_seconds, "%s: the game took %.2f s", f->mode, took);
    // The faulty engine made no move; its opponent made at most one.
    ck_assert_int_le(rec->nplies, fake_white ? 0 : 1);
    free(rec);
}
END_TEST

// Replay a record's moves with the rules; return the result the rules give after them.
static GameResult replay_result(const char *variant, const GameRecord *rec) {
    Game *g = MILL_FAMILY.create(variant);
    const char **moves = malloc(sizeof *moves * MAX_RECORD_PLIES);
    for (int i = 0; i < rec->nplies; i++)
        moves[i] = rec->ply[i].move;
    Error err;
    ck_assert_msg(MILL_FAMILY.set_position(g, NULL, moves, rec->nplies, &err), "%s", err.msg);
    char reason[128];
    GameResult r = MILL_FAMILY.result(g, reason, sizeof reason);
    MILL_FAMILY.destroy(g);
    free(moves);
    return r;
}

// Two real engines finish a game by the rules: every recorded move legal, the result the
// one the rules give at the end, scores and depths read from the info lines.
START_TEST(test_game_by_the_rules) {
    static const char *const GAME_VARIANTS[] = {"nine", "three", "six", "morabaraba"};
    const char *variant = GAME_VARIANTS[_i];
    EngineConfig a = good_engine(), b = good_engine();
    b.depth = 2;
    GameRecord *rec = play(variant, &a, &b, 10000);
    ck_assert_msg(rec->termination == TERM_NORMAL || rec->termination == TERM_ADJUDICATION,
                  "%s: %s", referee_termination_name(rec->termination), rec->reason);
    ck_assert_int_ne(rec->result, RESULT_NONE);
    if (rec->termination == TERM_NORMAL)
        ck_assert_int_eq(replay_result(variant, rec), rec->result);
    else
        ck_assert_int_eq(rec->nplies, 400);
    for (int i = 0; i < rec->nplies; i++) {
        ck_assert_msg(rec->ply[i].has_score, "ply %d has no score", i);
        ck_assert_int_eq(rec->ply[i].depth, i % 2 ? 2 : 1);
    }
    free(rec);
}
END_TEST

// Under a clock the engines keep time: no forfeit, and the clocks were charged. White speaks
// UGI, black UCI; the log shows each dialect's handshake and go, with protocol.md's arrows.
START_TEST(test_clock_game) {
    EngineConfig a = engine("a", tabula_bin(), 0, 1000, 0), b = a;
    a.tc_inc_ms = b.tc_inc_ms = 20;
    a.proto = PROTO_UGI;
    snprintf(b.name, sizeof b.name, "b");
    static GameSetup s;
    setup(&s, "three", &a, &b, 10000);
    char *log;
    size_t len;
    s.log = open_memstream(&log, &len);
    GameRecord *rec = malloc(sizeof *rec);
    referee_play(&s, rec);
    fclose(s.log);
    ck_assert_msg(rec->termination == TERM_NORMAL || rec->termination == TERM_ADJUDICATION, "%s",
                  rec->reason);
    ck_assert_int_ge(rec->min_clock_ms[0], 0);
    ck_assert_int_ge(rec->min_clock_ms[1], 0);
    int64_t used = 0;
    for (int i = 0; i < rec->nplies; i++)
        used += rec->ply[i].time_us;
    ck_assert_int_gt(used, 0);
    // The arrows of docs/protocol.md: '>' sent to the engine, '<' read from it.
    ck_assert_msg(strstr(log, " a > ugi\n") && strstr(log, " a < ugiok\n") &&
                      strstr(log, " a > uginewgame\n") && strstr(log, " a > go p1time "),
                  "%.2000s", log);
    ck_assert_msg(strstr(log, " b > uci\n") && strstr(log, " b < uciok\n") &&
                      strstr(log, " b > ucinewgame\n") && strstr(log, " b > go wtime ") &&
                      strstr(log, " b < bestmove "),
                  "%.2000s", log);
    free(log);
    free(rec);
}
END_TEST

// Score and length adjudication.
START_TEST(test_adjudication) {
    static GameSetup s;
    EngineConfig a = good_engine(), b = good_engine();
    setup(&s, "nine", &a, &b, 10000);
    GameRecord *rec = malloc(sizeof *rec);

    // Any score is within 100000 cp: a draw as soon as each side has moved once.
    s.adj.draw_moves = 1;
    s.adj.draw_score = 100000;
    referee_play(&s, rec);
    ck_assert_int_eq(rec->termination, TERM_ADJUDICATION);
    ck_assert_int_eq(rec->result, RESULT_DRAW);
    ck_assert_int_eq(rec->nplies, 2);

    // Not before move 5: ten plies.
    s.adj.draw_from = 5;
    referee_play(&s, rec);
    ck_assert_int_eq(rec->nplies, 10);

    // The ply limit.
    s.adj = (Adjudication){.max_plies = 7};
    referee_play(&s, rec);
    ck_assert_int_eq(rec->termination, TERM_ADJUDICATION);
    ck_assert_int_eq(rec->result, RESULT_DRAW);
    ck_assert_int_eq(rec->nplies, 7);

    // Nine men in hand against three, none on the board: no mill is possible in the first two
    // plies, and both engines score it beyond 300 cp for white.
    s.fen = "3/3/3/6/3/3/3 w 9 3 0 1";
    s.adj = (Adjudication){.resign_moves = 1, .resign_score = 300};
    referee_play(&s, rec);
    ck_assert_msg(rec->termination == TERM_ADJUDICATION, "%s", rec->reason);
    ck_assert_int_eq(rec->result, RESULT_WHITE_WINS);
    ck_assert_int_eq(rec->nplies, 2);
    free(rec);
}
END_TEST

// Openings: the given plies are played before the engines move and marked as book.
START_TEST(test_opening_and_record) {
    static GameSetup s;
    EngineConfig a = good_engine(), b = good_engine();
    setup(&s, "nine", &a, &b, 10000);
    s.adj.max_plies = 6;
    Opening o;
    Error err;
    ck_assert(opening_parse_line("startpos moves d7 g7 g4", &o, &err));
    ck_assert_int_eq(o.n, 3);
    ck_assert(!o.has_fen);
    s.nopening = o.n;
    memcpy(s.opening, o.moves, sizeof o.moves);
    ck_assert(referee_check_opening(&s, &err));
    GameRecord *rec = malloc(sizeof *rec);
    referee_play(&s, rec);
    ck_assert_int_eq(rec->nopening, 3);
    ck_assert_int_eq(rec->nplies, 6);
    ck_assert_str_eq(rec->ply[2].move, "g4");

    char *text;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    referee_write_record(f, &s, rec, "test", 7);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text, "[Event \"test\"]\n[Site \""));
    ck_assert_ptr_nonnull(strstr(text, "[Round \"7\"]"));
    // Site is this machine's name, Date today's date.
    char host[256] = "", tag[300], today[16];
    gethostname(host, sizeof host);
    snprintf(tag, sizeof tag, "[Site \"%s\"]", host);
    ck_assert_msg(host[0] && strstr(text, tag), "%s not in\n%s", tag, text);
    time_t now = time(NULL);
    strftime(today, sizeof today, "%Y.%m.%d", localtime(&now));
    snprintf(tag, sizeof tag, "[Date \"%s\"]", today);
    ck_assert_msg(strstr(text, tag), "%s not in\n%s", tag, text);
    ck_assert_ptr_nonnull(strstr(text, "[Variant \"nine\"]"));
    ck_assert_ptr_nonnull(strstr(text, "[FEN \"3/3/3/6/3/3/3 w 9 9 0 1\"]"));
    ck_assert_ptr_nonnull(strstr(text, "[Result \"1/2-1/2\"]"));
    ck_assert_ptr_nonnull(strstr(text, "[Termination \"adjudication\"]"));
    ck_assert_ptr_nonnull(strstr(text, "[TimeControl \"depth=1\"]"));
    ck_assert_ptr_nonnull(strstr(text, "1. d7 {book} g7 {book} 2. g4 {book} "));
    ck_assert_msg(strstr(text, "/1 0.0"), "no {score/depth time} comment in\n%s", text);
    free(text);

    // Openings that the rules refuse.
    ck_assert(opening_parse_line("d7 d7", &o, &err));
    s.nopening = o.n;
    memcpy(s.opening, o.moves, sizeof o.moves);
    ck_assert(!referee_check_opening(&s, &err));
    ck_assert(opening_parse_line("fen 3/3/3/6/3/3/3 w 9 9 0 1 moves a7", &o, &err));
    ck_assert(o.has_fen);
    ck_assert_str_eq(o.fen, "3/3/3/6/3/3/3 w 9 9 0 1");
    ck_assert(opening_parse_line("3/3/3/6/3/3/3 w 9 9 0 1 a7 d7", &o, &err));
    ck_assert_int_eq(o.n, 2);
    ck_assert(!opening_parse_line("fen 3/3/3 w 9", &o, &err));
    free(rec);
}
END_TEST

Suite *referee_suite(void) {
    Suite *s = suite_create("referee");
    TCase *tc = tcase_create("faults");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_fault_loses, 0, 2 * (int)(sizeof FAULTS / sizeof FAULTS[0]));
    suite_add_tcase(s, tc);
    tc = tcase_create("games");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_game_by_the_rules, 0, 4);
    tcase_add_test(tc, test_clock_game);
    tcase_add_test(tc, test_adjudication);
    tcase_add_test(tc, test_opening_and_record);
    suite_add_tcase(s, tc);
    return s;
}
