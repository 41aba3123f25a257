// Position strings (docs/variants.md, "Position string") and make/unmake: round trips, refusals,
// keys, clocks.
#include "tests/suites.h"

#include "tests/helpers.h"

#include "engine/core/random.h"
#include "engine/mill/movegen.h"
#include "engine/mill/notation.h"
#include "engine/mill/position.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Fail unless the two positions agree on board, hands, side, clocks and key.
static void assert_same_position(const Position *a, const Position *b, const char *where) {
    EXPECT(memcmp(a->men, b->men, sizeof a->men) == 0, "%s: men differ", where);
    EXPECT(memcmp(a->hand, b->hand, sizeof a->hand) == 0, "%s: hands differ", where);
    EXPECT(a->side == b->side, "%s: side differs", where);
    EXPECT(a->quiet_plies == b->quiet_plies, "%s: quiet plies %d, want %d", where, a->quiet_plies,
           b->quiet_plies);
    EXPECT(a->fullmove == b->fullmove, "%s: move number %d, want %d", where, a->fullmove,
           b->fullmove);
    EXPECT(a->key == b->key, "%s: keys differ", where);
    EXPECT(a->rules == b->rules, "%s: rules differ", where);
}

// Parse a position string that must be valid.
static void set_fen_ok(Position *p, const MillRules *r, const char *fen) {
    Error err = {{0}};
    EXPECT(pos_set_fen(p, r, fen, &err), "%s '%s' refused: %s", r->variant->id, fen, err.msg);
}

// Play the move written as `token`, which must be legal.
static Move play(Position *p, const char *token, Undo *u) {
    Error err = {{0}};
    Move m;
    ck_assert_msg(move_parse(p, token, &m, &err), "%s: %s", token, err.msg);
    pos_do_move(p, m, u);
    ck_assert_msg(p->key == pos_compute_key(p), "key wrong after %s", token);
    return m;
}

// clang-format off
static const struct { const char *variant, *fen; } STARTS[] = {
    {"nine",       "3/3/3/6/3/3/3 w 9 9 0 1"},
    {"twelve",     "3/3/3/6/3/3/3 w 12 12 0 1"},
    {"eleven",     "3/3/3/6/3/3/3 w 11 11 0 1"},
    {"morabaraba", "3/3/3/6/3/3/3 w 12 12 0 1"},
    {"lasker",     "3/3/3/6/3/3/3 w 10 10 0 1"},
    {"six",        "3/3/4/3/3 w 6 6 0 1"},
    {"five",       "3/3/4/3/3 w 5 5 0 1"},
    {"seven",      "3/3/5/3/3 w 7 7 0 1"},
    {"three",      "3/3/3 w 3 3 0 1"},
    {"nine-holes", "3/3/3 w 3 3 0 1"},
    {"tapatan",    "3/3/3 w 3 3 0 1"},
    {"achi",       "3/3/3 w 4 4 0 1"},
};
// clang-format on

#define NSTARTS ((int)(sizeof STARTS / sizeof STARTS[0]))

START_TEST(test_start_strings) {
    MillRules r;
    rules_for(&r, STARTS[_i].variant);
    Position start, parsed;
    char fen[FEN_MAX];
    pos_set_start(&start, &r);
    ck_assert_uint_eq(start.key, pos_compute_key(&start));
    pos_get_fen(&start, fen, sizeof fen);
    ck_assert_str_eq(fen, STARTS[_i].fen);
    set_fen_ok(&parsed, &r, STARTS[_i].fen);
    assert_same_position(&parsed, &start, STARTS[_i].variant);
}
END_TEST

START_TEST(test_every_variant_has_a_start) {
    ck_assert_int_eq(VARIANT_COUNT, NSTARTS);
    for (int i = 0; i < VARIANT_COUNT; i++)
        ck_assert_str_eq(VARIANTS[i].id, STARTS[i].variant);
}
END_TEST

START_TEST(test_data_round_trip) {
    const Vector *v = &vectors[_i];
    ck_assert_msg(v->ok, "%s line %d is not 'variant | fen | perft | moves'", DATA_FILE, v->line);
    MillRules r;
    rules_for(&r, v->variant);
    Position p, again;
    char fen[FEN_MAX];
    set_fen_ok(&p, &r, v->fen);
    ck_assert_msg(p.key == pos_compute_key(&p), "%s '%s': key", v->variant, v->fen);
    pos_get_fen(&p, fen, sizeof fen);
    ck_assert_msg(strcmp(fen, v->fen) == 0, "%s line %d: '%s' written back as '%s'", v->variant,
                  v->line, v->fen, fen);
    set_fen_ok(&again, &r, fen);
    assert_same_position(&again, &p, v->fen);
}
END_TEST

// clang-format off
static const struct { const char *variant, *in, *out; } SPLIT_RUNS[] = {
    {"nine",  "21/3/3/111111/3/3/3 w 9 9 0 1",    "3/3/3/6/3/3/3 w 9 9 0 1"},
    {"nine",  "W11/12/3/211W1/3/3/1B1 w 7 8 0 3", "W2/3/3/4W1/3/3/1B1 w 7 8 0 3"},
    {"nine",  "B2/3/3/33/3/3/2W b 8 8 4 9",       "B2/3/3/6/3/3/2W b 8 8 4 9"},
    {"six",   "111/3/1W11/3/3 b 5 6 0 1",         "3/3/1W2/3/3 b 5 6 0 1"},
    {"seven", "3/3/11B11/3/3 w 7 6 0 2",          "3/3/2B2/3/3 w 7 6 0 2"},
    {"three", "111/1W1/12 b 2 3 0 1",             "3/1W1/3 b 2 3 0 1"},
};
// clang-format on

START_TEST(test_split_runs) {
    MillRules r;
    rules_for(&r, SPLIT_RUNS[_i].variant);
    Position p;
    char fen[FEN_MAX];
    set_fen_ok(&p, &r, SPLIT_RUNS[_i].in);
    pos_get_fen(&p, fen, sizeof fen);
    ck_assert_str_eq(fen, SPLIT_RUNS[_i].out);
}
END_TEST

// The two clocks may be left out (docs/variants.md): they default to 0 plies and move 1, and
// the engine writes them back in full.
START_TEST(test_optional_clocks) {
    MillRules r;
    rules_for(&r, "nine");
    Position p;
    char fen[FEN_MAX];
    set_fen_ok(&p, &r, "3/1W1/3/6/3/1B1/3 b 8 8");
    pos_get_fen(&p, fen, sizeof fen);
    ck_assert_str_eq(fen, "3/1W1/3/6/3/1B1/3 b 8 8 0 1");
    set_fen_ok(&p, &r, "3/1W1/3/6/3/1B1/3 b 8 8 7");
    pos_get_fen(&p, fen, sizeof fen);
    ck_assert_str_eq(fen, "3/1W1/3/6/3/1B1/3 b 8 8 7 1");
}
END_TEST

// The counters stop at CLOCK_MAX, so every position written can be read back, and undo
// restores them exactly (a fuzzer found a move number rolling over the old read limit).
START_TEST(test_counters_saturate) {
    MillRules r;
    rules_for(&r, "nine");
    Position p, before, again;
    char fen[FEN_MAX];
    Undo u1, u2;
    // The move number, while placing: black's placement would count it past the limit.
    set_fen_ok(&p, &r, "3/1W1/3/6/3/1B1/3 b 8 8 0 1000000000");
    before = p;
    Move m1 = play(&p, "a7", &u1);
    Move m2 = play(&p, "a1", &u2);
    pos_get_fen(&p, fen, sizeof fen);
    ck_assert_str_eq(fen, "B2/1W1/3/6/3/1B1/W2 b 7 7 0 1000000000");
    set_fen_ok(&again, &r, fen);
    pos_undo_move(&p, m2, &u2);
    pos_undo_move(&p, m1, &u1);
    assert_same_position(&p, &before, "after undoing the placements");
    // The plies counter, while moving.
    set_fen_ok(&p, &r, "WWW/3/3/6/3/3/BBB w 0 0 1000000000 7");
    before = p;
    m1 = play(&p, "a7-a4", &u1);
    pos_get_fen(&p, fen, sizeof fen);
    ck_assert_str_eq(fen, "1WW/3/3/W5/3/3/BBB b 0 0 1000000000 7");
    set_fen_ok(&again, &r, fen);
    pos_undo_move(&p, m1, &u1);
    assert_same_position(&p, &before, "after undoing the move");
}
END_TEST

#define LONG_DIGITS                                                                                \
    "1111111111111111111111111111111111111111111111111111111111111111111111111111111111111111"

// clang-format off
static const struct { const char *variant, *fen, *why; } MALFORMED[] = {
    {"nine",  "3/3/3/6/3/3 w 9 9 0 1",           "six ranks"},
    {"nine",  "3/3/3/6/3/3/3/3 w 9 9 0 1",       "eight ranks"},
    {"nine",  "3/3/3/6/3/3/3/ w 9 9 0 1",        "trailing slash"},
    {"nine",  "3//3/6/3/3/3 w 9 9 0 1",          "empty rank"},
    {"nine",  "4/3/3/6/3/3/3 w 9 9 0 1",         "rank with four points"},
    {"nine",  "2/3/3/6/3/3/3 w 9 9 0 1",         "rank with two points"},
    {"nine",  "WWWW/3/3/6/3/3/3 w 5 9 0 1",      "rank with four men"},
    {"nine",  "3/3/3/5/3/3/3 w 9 9 0 1",         "short middle rank"},
    {"nine",  "3/3/3/7/3/3/3 w 9 9 0 1",         "long middle rank"},
    {"nine",  "3/3/3/33/3/3/B3 w 9 8 0 1",       "long last rank"},
    {"nine",  "3/3/4/3/3 w 9 9 0 1",             "a six string under nine"},
    {"six",   "3/3/3/6/3/3/3 w 6 6 0 1",         "a nine string under six"},
    {"seven", "3/3/4/3/3 w 7 7 0 1",             "a six string under seven"},
    {"six",   "3/3/5/3/3 w 6 6 0 1",             "a seven string under six"},
    {"three", "3/3/4/3/3 w 3 3 0 1",             "a six string under three"},
    {"three", "3/3 w 3 3 0 1",                   "two ranks on the 9 board"},
    {"nine",  "3/3/3/6/3/3/X2 w 9 9 0 1",        "X in the ranks"},
    {"nine",  "3/3/3/6/3/3/03 w 9 9 0 1",        "0 in the ranks"},
    {"nine",  "w2/3/3/6/3/3/3 w 8 9 0 1",        "lowercase w in the ranks"},
    {"nine",  "b2/3/3/6/3/3/3 w 9 8 0 1",        "lowercase b in the ranks"},
    {"nine",  "3/3/3/6/3/3/3-w 9 9 0 1",         "dash in the ranks"},
    {"nine",  "3/3/3/6/3/3/3 x 9 9 0 1",         "side x"},
    {"nine",  "3/3/3/6/3/3/3 W 9 9 0 1",         "side W"},
    {"nine",  "3/3/3/6/3/3/3 white 9 9 0 1",     "side white"},
    {"nine",  "3/3/3/6/3/3/3 wb 9 9 0 1",        "side wb"},
    {"nine",  "3/3/3/6/3/3/3 w nine 9 0 1",      "white hand not a number"},
    {"nine",  "3/3/3/6/3/3/3 w 9 x 0 1",         "black hand not a number"},
    {"nine",  "3/3/3/6/3/3/3 w 9x 9 0 1",        "white hand with a suffix"},
    {"nine",  "3/3/3/6/3/3/3 w -1 9 0 1",        "negative white hand"},
    {"nine",  "3/3/3/6/3/3/3 w 9 -1 0 1",        "negative black hand"},
    {"nine",  "3/3/3/6/3/3/3 w 10 9 0 1",        "white hand above nine"},
    {"nine",  "3/3/3/6/3/3/3 w 9 10 0 1",        "black hand above nine"},
    {"six",   "3/3/4/3/3 w 7 6 0 1",             "hand above six"},
    {"three", "3/3/3 w 3 4 0 1",                 "hand above three"},
    {"nine",  "WWW/WWW/WWW/W5/3/3/3 w 0 9 0 1",  "ten white men on the board"},
    {"nine",  "WWW/3/3/6/3/3/3 w 7 9 0 1",       "ten white men on board and in hand"},
    {"nine",  "BBB/3/3/6/3/3/3 b 9 7 0 1",       "ten black men on board and in hand"},
    {"six",   "WWW/3/4/3/3 w 4 6 0 1",           "seven white men in six"},
    {"three", "WWW/B2/3 b 1 3 0 1",              "four white men in three"},
    {"achi",  "WWW/WW1/3 b 0 4 0 3",             "five white men in achi"},
    {"nine",  "",                                "empty string"},
    {"nine",  "3/3/3/6/3/3/3",                   "ranks only"},
    {"nine",  "3/3/3/6/3/3/3 w",                 "no hands"},
    {"nine",  "3/3/3/6/3/3/3 w 9",               "no black hand"},
    {"nine",  "3/3/3/6/3/3/3 w 9 9 0 1 9",       "seven fields"},
    {"nine",  "3/3/3/6/3/3/3 w 9 9 0 1 w",       "trailing word"},
    {"nine",  "3/3/3/6/3/3/3 w 9 9 x 1",         "quiet plies not a number"},
    {"nine",  "3/3/3/6/3/3/3 w 9 9 -1 1",        "negative quiet plies"},
    {"nine",  "3/3/3/6/3/3/3 w 9 9 0 y",         "move number not a number"},
    {"nine",  "3/3/3/6/3/3/3 w 9 9 0 1.5",       "fractional move number"},
    {"nine",  "3/3/3/6/3/3/3 w 9 9 0 0",         "move number 0"},
    {"nine",  "3/3/3/6/3/3/3 w 9 9 0 -2",        "negative move number"},
    {"nine",  "3/3/3/6/3/3/3 w 9 9 99999999999999999999 1", "quiet plies overflow"},
    {"nine",  "3/3/3/6/3/3/3 w 9 9 0 " LONG_DIGITS LONG_DIGITS LONG_DIGITS, "overlong string"},
    {"nine",  LONG_DIGITS LONG_DIGITS LONG_DIGITS " w 9 9 0 1", "overlong ranks"},
};
// clang-format on

#define NMALFORMED ((int)(sizeof MALFORMED / sizeof MALFORMED[0]))

START_TEST(test_malformed_refused) {
    MillRules r;
    rules_for(&r, MALFORMED[_i].variant);
    Position p, before;
    Move moves[MAX_MOVES];
    Undo u;
    // Start from a position other than the start, so that a partial write would show.
    pos_set_start(&p, &r);
    ck_assert_int_gt(movegen_legal(&p, moves), 0);
    pos_do_move(&p, moves[movegen_legal(&p, moves) - 1], &u);
    memcpy(&before, &p, sizeof p);
    Error err;
    memset(&err, 0, sizeof err);
    bool ok = pos_set_fen(&p, &r, MALFORMED[_i].fen, &err);
    ck_assert_msg(!ok, "%s: %s '%s' accepted", MALFORMED[_i].variant, MALFORMED[_i].why,
                  MALFORMED[_i].fen);
    ck_assert_msg(err.msg[0] != '\0', "%s: refused with no message", MALFORMED[_i].why);
    ck_assert_msg(memcmp(&p, &before, sizeof p) == 0, "%s: position changed by a refused string",
                  MALFORMED[_i].why);
    ck_assert(!pos_set_fen(&p, &r, MALFORMED[_i].fen, NULL));
    ck_assert(memcmp(&p, &before, sizeof p) == 0);
}
END_TEST

// Fail unless `after` is `before` with move m played by its side to move.
static void assert_move_effects(const Position *before, const Position *after, Move m) {
    int us = before->side, them = !us, to = move_to(m), from = move_from(m);
    char fen[FEN_MAX], token[MOVE_STR_MAX];
    pos_get_fen(before, fen, sizeof fen);
    move_format(before->rules->board, m, token);
    Bits removed = 0;
    for (int i = 0; i < move_nremovals(m); i++) {
        int x = move_removal(m, i);
        EXPECT(before->men[them] & BIT(x), "%s in '%s': removes a point not the opponent's", token,
               fen);
        removed |= BIT(x);
    }
    EXPECT(bits_count(removed) == move_nremovals(m), "%s in '%s': repeated removal", token, fen);
    EXPECT(!((before->men[WHITE] | before->men[BLACK]) & BIT(to)), "%s in '%s': lands on a man",
           token, fen);
    if (from == NO_POINT) {
        EXPECT(after->hand[us] == before->hand[us] - 1, "%s in '%s': hand", token, fen);
        EXPECT(after->men[us] == (before->men[us] | BIT(to)), "%s in '%s': men", token, fen);
    } else {
        EXPECT(before->men[us] & BIT(from), "%s in '%s': moves a man it lacks", token, fen);
        EXPECT(after->hand[us] == before->hand[us], "%s in '%s': hand", token, fen);
        EXPECT(after->men[us] == (before->men[us] ^ BIT(from) ^ BIT(to)), "%s in '%s': men", token,
               fen);
    }
    EXPECT(after->hand[them] == before->hand[them], "%s in '%s': opponent's hand", token, fen);
    EXPECT(after->men[them] == (before->men[them] & ~removed), "%s in '%s': opponent's men", token,
           fen);
    EXPECT(after->side == them, "%s in '%s': side to move", token, fen);
    EXPECT(after->fullmove == before->fullmove + (us == BLACK), "%s in '%s': move number %d", token,
           fen, after->fullmove);
    bool irreversible = from == NO_POINT || removed;
    EXPECT(after->quiet_plies == (irreversible ? 0 : before->quiet_plies + 1),
           "%s in '%s': quiet plies %d", token, fen, after->quiet_plies);
    EXPECT(after->key == pos_compute_key(after), "%s in '%s': incremental key differs", token, fen);
}

#define WALK_GAMES 40
#define WALK_PLIES 160

START_TEST(test_make_unmake_walk) {
    const Variant *v = &VARIANTS[_i];
    MillRules r;
    rules_init(&r, v);
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    static Position history[WALK_PLIES + 1];
    static Move played[WALK_PLIES];
    static Undo undos[WALK_PLIES];
    ck_assert_ptr_nonnull(moves);
    uint64_t seed = 0x5eed0000ull + (uint64_t)_i;
    long total = 0, removals = 0;
    for (int game = 0; game < WALK_GAMES; game++) {
        Position p, check;
        char fen[FEN_MAX];
        pos_set_start(&p, &r);
        int ply = 0;
        for (; ply < WALK_PLIES; ply++) {
            int n = movegen_legal(&p, moves);
            if (n == 0)
                break;
            Move m = moves[random_next(&seed) % (uint64_t)n];
            history[ply] = p;
            played[ply] = m;
            pos_do_move(&p, m, &undos[ply]);
            assert_move_effects(&history[ply], &p, m);
            removals += move_nremovals(m);
            // Undo at once, then play again.
            check = p;
            pos_undo_move(&p, m, &undos[ply]);
            assert_same_position(&p, &history[ply], v->id);
            pos_do_move(&p, m, &undos[ply]);
            assert_same_position(&p, &check, v->id);
            // The position string of every position reads back as the same position.
            pos_get_fen(&p, fen, sizeof fen);
            set_fen_ok(&check, &r, fen);
            assert_same_position(&check, &p, fen);
        }
        total += ply;
        // Take the whole game back.
        while (ply-- > 0) {
            pos_undo_move(&p, played[ply], &undos[ply]);
            assert_same_position(&p, &history[ply], v->id);
        }
    }
    free(moves);
    ck_assert_int_gt(total, WALK_GAMES * 6);
    if (!v->mill_wins)
        ck_assert_msg(removals > 0, "%s: no removal in %ld plies", v->id, total);
}
END_TEST

START_TEST(test_clocks_placing) {
    MillRules r;
    rules_for(&r, "nine");
    Position p;
    Undo u[2];
    pos_set_start(&p, &r);
    play(&p, "d7", &u[0]);
    ck_assert_int_eq(p.side, BLACK);
    ck_assert_int_eq(p.fullmove, 1);
    ck_assert_int_eq(p.quiet_plies, 0);
    ck_assert_int_eq(p.hand[WHITE], 8);
    ck_assert_int_eq(p.hand[BLACK], 9);
    play(&p, "d1", &u[1]);
    ck_assert_int_eq(p.side, WHITE);
    ck_assert_int_eq(p.fullmove, 2);
    ck_assert_int_eq(p.quiet_plies, 0);
    ck_assert_int_eq(p.hand[BLACK], 8);
}
END_TEST

START_TEST(test_clocks_moving) {
    MillRules r;
    rules_for(&r, "nine");
    Position p, start;
    Undo u[3];
    char fen[FEN_MAX];
    // White a7 d7 g4, black c4 b2 d2; no men in hand.
    set_fen_ok(&p, &r, "WW1/3/3/2B2W/3/BB1/3 w 0 0 5 20");
    start = p;
    Move m1 = play(&p, "g4-f4", &u[0]);
    ck_assert_int_eq(p.quiet_plies, 6);
    ck_assert_int_eq(p.fullmove, 20);
    Move m2 = play(&p, "b2-b4", &u[1]);
    ck_assert_int_eq(p.quiet_plies, 7);
    ck_assert_int_eq(p.fullmove, 21);
    pos_get_fen(&p, fen, sizeof fen);
    ck_assert_str_eq(fen, "WW1/3/3/1BB1W1/3/1B1/3 w 0 0 7 21");
    pos_undo_move(&p, m2, &u[1]);
    pos_undo_move(&p, m1, &u[0]);
    assert_same_position(&p, &start, "after taking back two moves");
    // A move that closes a mill removes a man and resets the count.
    play(&p, "g4-g7xc4", &u[2]);
    ck_assert_int_eq(p.quiet_plies, 0);
    ck_assert_int_eq(p.fullmove, 20);
    pos_get_fen(&p, fen, sizeof fen);
    ck_assert_str_eq(fen, "WWW/3/3/6/3/BB1/3 b 0 0 0 20");
}
END_TEST

START_TEST(test_clocks_lasker) {
    MillRules r;
    rules_for(&r, "lasker");
    Position p;
    Undo u[2];
    // A Lasker move while men are in hand is neither a placement nor a removal.
    set_fen_ok(&p, &r, "W2/3/3/6/3/3/B2 w 9 9 3 2");
    play(&p, "a7-d7", &u[0]);
    ck_assert_int_eq(p.quiet_plies, 4);
    ck_assert_int_eq(p.hand[WHITE], 9);
    play(&p, "g1", &u[1]);
    ck_assert_int_eq(p.quiet_plies, 0);
    ck_assert_int_eq(p.fullmove, 3);
    ck_assert_int_eq(p.hand[BLACK], 8);
}
END_TEST

START_TEST(test_triple_removal) {
    MillRules r;
    rules_for(&r, "morabaraba");
    Position p, before;
    Undo u;
    char fen[FEN_MAX];
    // Placing on a1 closes a1-a4-a7, a1-d1-g1 and a1-b2-c3: three removals in morabaraba.
    set_fen_ok(&p, &r, "W2/BB1/3/W2B2/W2/W2/1WW w 6 8 0 7");
    before = p;
    Move m = play(&p, "a1xb6xd6xe4", &u);
    ck_assert_int_eq(move_nremovals(m), 3);
    ck_assert_uint_eq(p.men[BLACK], 0);
    ck_assert_int_eq(p.quiet_plies, 0);
    pos_get_fen(&p, fen, sizeof fen);
    ck_assert_str_eq(fen, "W2/3/3/W5/W2/W2/WWW b 5 8 0 7");
    pos_undo_move(&p, m, &u);
    assert_same_position(&p, &before, "after undoing three removals");
    // Each order of the three removals is its own move.
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    ck_assert_ptr_nonnull(moves);
    int n = movegen_legal(&p, moves), orders = 0;
    for (int i = 0; i < n; i++)
        if (move_from(moves[i]) == NO_POINT && move_to(moves[i]) == move_to(m)) {
            ck_assert_int_eq(move_nremovals(moves[i]), 3);
            orders++;
        }
    free(moves);
    ck_assert_int_eq(orders, 6);
}
END_TEST

Suite *position_suite(void) {
    Suite *s = suite_create("position");
    int nv = vectors_load();
    TCase *tc = tcase_create("position string");
    tcase_add_loop_test(tc, test_start_strings, 0, NSTARTS);
    tcase_add_test(tc, test_every_variant_has_a_start);
    tcase_add_loop_test(tc, test_data_round_trip, 0, nv);
    tcase_add_loop_test(tc, test_split_runs, 0, (int)(sizeof SPLIT_RUNS / sizeof SPLIT_RUNS[0]));
    tcase_add_test(tc, test_optional_clocks);
    tcase_add_test(tc, test_counters_saturate);
    tcase_add_loop_test(tc, test_malformed_refused, 0, NMALFORMED);
    suite_add_tcase(s, tc);

    tc = tcase_create("make and unmake");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, test_make_unmake_walk, 0, VARIANT_COUNT);
    tcase_add_test(tc, test_clocks_placing);
    tcase_add_test(tc, test_clocks_moving);
    tcase_add_test(tc, test_clocks_lasker);
    tcase_add_test(tc, test_triple_removal);
    suite_add_tcase(s, tc);
    return s;
}
