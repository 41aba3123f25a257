// Backgammon as a person plays it through the command loop (docs/protocol.md, "A person's
// commands"): roll (random, seeded, chosen, refused), plays typed in gnubg's form and kept as
// the legal token, and play's whole turn (cube, dice, play) told in words.
#include "tests/harness.h"
#include "tests/suites.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BG_ON "setoption name UCI_Variant value backgammon"
#define START_ID "4HPwATDgc/ABMA:cAkAAAAAAAAA"

// An engine on backgammon's start.
static Proto *bg_open(void) {
    Proto *e = proto_open();
    ck_assert_str_eq(proto_send(e, BG_ON), "");
    return e;
}

// The position after `position startpos moves <moves>` on a fresh engine.
static void position_after(const char *moves, char *buf, size_t n) {
    Proto *e = bg_open();
    char line[256];
    snprintf(line, sizeof line, "position startpos moves %s", moves);
    ck_assert_str_eq(proto_send(e, line), "");
    proto_fen(e, buf, n);
    proto_close(e);
}

// The dice of a `Dice: a-b` reply.
static void read_dice_line(const char *text, int d[2]) {
    ck_assert_msg(sscanf(text, "Dice: %d-%d", &d[0], &d[1]) == 2, "%s", text);
    ck_assert_msg(d[0] >= d[1] && d[1] >= 1 && d[0] <= 6, "%s", text);
}

START_TEST(test_roll_seeded) {
    int first[8][2];
    for (int run = 0; run < 2; run++) {
        Proto *e = bg_open();
        ck_assert_str_eq(proto_send(e, "roll seed 42"), "");
        bool differ = false;
        for (int k = 0; k < 8; k++) {
            int d[2];
            read_dice_line(proto_send(e, "roll"), d);
            if (run == 0) {
                first[k][0] = d[0];
                first[k][1] = d[1];
            } else {
                ck_assert_int_eq(d[0], first[k][0]); // the same seed, the same dice
                ck_assert_int_eq(d[1], first[k][1]);
            }
            differ |= d[0] != first[0][0] || d[1] != first[0][1];
            char moves[32];
            snprintf(moves, sizeof moves, "%d%d:", d[0], d[1]);
            ck_assert_msg(!strncmp(proto_send(e, "moves"), moves, strlen(moves)), "%s", moves);
            ck_assert_str_eq(proto_send(e, "undo"), "");
        }
        ck_assert_msg(differ, "eight throws all alike");
        proto_close(e);
    }
}
END_TEST

START_TEST(test_roll_chosen) {
    Proto *e = bg_open();
    ck_assert_str_eq(proto_send(e, "roll 13"), "Dice: 3-1\n");
    char *d = proto_send_copy(e, "d");
    ck_assert_msg(strstr(d, "X (player 1) on roll, dice 31"), "%s", d);
    free(d);
    // Declining to double and throwing: the token `roll` stays the protocol's no-op.
    ck_assert_str_eq(proto_send(e, "position startpos moves roll 31"), "");
    ck_assert(proto_is_legal(e, "31:8/5,6/5"));
    proto_close(e);
}
END_TEST

// Each refusal is one error and leaves everything as it was.
static void refused(Proto *e, const char *line, const char *why) {
    char *before = proto_snapshot(e);
    const char *text = proto_send(e, line);
    assert_one_error(text, line);
    ck_assert_msg(strstr(text, why), "%s: %s", line, text);
    char *after = proto_snapshot(e);
    ck_assert_str_eq(before, after);
    free(before);
    free(after);
}

START_TEST(test_roll_refused) {
    Proto *e = proto_open(); // nine
    refused(e, "roll", "nine is played without dice");
    refused(e, "roll 31", "without dice");
    proto_close(e);
    e = bg_open();
    refused(e, "roll 71", "usage: roll");
    refused(e, "roll 3", "usage: roll");
    refused(e, "roll 31 42", "usage: roll");
    refused(e, "roll seed -1", "roll seed takes a number");
    ck_assert_str_eq(proto_send(e, "roll 64"), "Dice: 6-4\n");
    refused(e, "roll", "already rolled (6-4)");
    ck_assert_str_eq(proto_send(e, "position startpos moves double"), "");
    refused(e, "roll", "a double was offered");
    ck_assert_str_eq(proto_send(e, "move drop"), "");
    refused(e, "roll", "the game is over");
    proto_close(e);
}
END_TEST

// With no legal play the throw passes the turn: X on the bar against O's closed board.
START_TEST(test_roll_dance) {
    Proto *e = bg_open();
    ck_assert_str_eq(
        proto_send(e, "position xgid XGID=------B------------bbbbbbA:0:0:1:00:0:0:1:0:10"), "");
    const char *text = proto_send(e, "roll 66");
    ck_assert_str_eq(text, "Dice: 6-6\nNo legal play: the turn passes\n");
    char *d = proto_send_copy(e, "d");
    ck_assert_msg(strstr(d, "O (player 0) on roll, dice not rolled"), "%s", d);
    free(d);
    proto_close(e);
}
END_TEST

// A play in gnubg's form is the same turn as the protocol's token, and the record keeps the
// token (undo takes the play back, then the dice).
START_TEST(test_typed_plays) {
    static const char *const SAME_31[] = {"move 8/5 6/5", "move 6/5 8/5", "move 8/5,6/5",
                                          "move 31:6/5,8/5", "move 31:8/5,6/5"};
    char want[256], got[256];
    position_after("31:8/5,6/5", want, sizeof want);
    for (size_t i = 0; i < sizeof SAME_31 / sizeof SAME_31[0]; i++) {
        Proto *e = bg_open();
        if (strstr(SAME_31[i], "31:") == NULL)
            ck_assert_str_eq(proto_send(e, "roll 31"), "Dice: 3-1\n");
        ck_assert_str_eq(proto_send(e, SAME_31[i]), "");
        proto_fen(e, got, sizeof got);
        ck_assert_msg(!strcmp(got, want), "%s: %s, not %s", SAME_31[i], got, want);
        ck_assert_str_eq(proto_send(e, "undo"), "");
        proto_fen(e, got, sizeof got);
        if (strstr(SAME_31[i], "31:") == NULL) // the dice are still thrown
            ck_assert_str_ne(got, START_ID);
        proto_close(e);
    }
    // Doubles with (n), a hit marked with `*`, a checker's chain.
    position_after("11:8/7(2),6/5(2)", want, sizeof want);
    Proto *e = bg_open();
    ck_assert_str_eq(proto_send(e, "roll 11"), "Dice: 1-1\n");
    ck_assert_str_eq(proto_send(e, "move 6/5(2) 8/7(2)"), "");
    proto_fen(e, got, sizeof got);
    ck_assert_str_eq(got, want);
    proto_close(e);
    position_after("64:24/14 62:13/7,13/11", want, sizeof want);
    e = bg_open();
    ck_assert_str_eq(proto_send(e, "position startpos moves 64:24/14 62"), "");
    ck_assert_str_eq(proto_send(e, "move 13/11* 13/7"), "");
    proto_fen(e, got, sizeof got);
    ck_assert_str_eq(got, want);
    ck_assert_str_eq(proto_send(e, "roll 43"), "Dice: 4-3\n");
    ck_assert_str_eq(proto_send(e, "move bar/21 13/10"), "");
    ck_assert_str_eq(proto_send(e, "undo"), "");
    ck_assert_str_eq(proto_send(e, "move bar/22 22/18"), ""); // 25/22/18 with the 3 and the 4
    proto_close(e);
}
END_TEST

START_TEST(test_typed_plays_refused) {
    Proto *e = bg_open();
    refused(e, "move 8/5 6/5", "roll the dice first");
    ck_assert_str_eq(proto_send(e, "roll 31"), "Dice: 3-1\n");
    refused(e, "move 8/3", "not a legal play");
    refused(e, "move 8/5", "not a legal play"); // both dice must be played
    refused(e, "move 8/5 6/5 x", "a sub-move is <from>/<to>");
    refused(e, "move 9/6 6/5", "no checker");
    refused(e, "move 64:24/14", "the dice show 31");
    refused(e, "move double", "may");
    proto_close(e);
}
END_TEST

START_TEST(test_play_whole_turn) {
    Proto *e = bg_open();
    ck_assert_str_eq(proto_send(e, "roll seed 5"), "");
    proto_send(e, "play depth 1");
    const char *text = proto_wait_bestmove(e);
    char best[64], ponder[64], words[96];
    get_bestmove(text, best, ponder, sizeof best);
    int d1, d2;
    const char *told = strstr(text, "tabula rolls");
    ck_assert_msg(told && sscanf(told, "tabula rolls %d-%d and %95[^\n]", &d1, &d2, words) == 3,
                  "%s", text);
    // The words are the bestmove's play in gnubg's form.
    char play[96];
    snprintf(play, sizeof play, "%d%d:", d1, d2);
    ck_assert_msg(!strncmp(best, play, 3), "%s", text);
    snprintf(play, sizeof play, "plays %s", best + 3);
    for (char *c = play; (c = strchr(c, ','));)
        *c = ' ';
    ck_assert_str_eq(words, play);
    char want[256], got[256];
    char moves[80];
    snprintf(moves, sizeof moves, "%d%d %s", d1, d2, best);
    position_after(moves, want, sizeof want);
    proto_fen(e, got, sizeof got);
    ck_assert_str_eq(got, want); // the dice and the play are both on the board
    proto_close(e);

    // The engine answers a person's double.
    e = bg_open();
    ck_assert_str_eq(proto_send(e, "move double"), "");
    proto_send(e, "play depth 1");
    text = proto_wait_bestmove(e);
    ck_assert_msg(strstr(text, "tabula takes the double\n") && strstr(text, "bestmove take"), "%s",
                  text);
    char *d = proto_send_copy(e, "d");
    ck_assert_msg(strstr(d, "Cube: 2, owned by O") && strstr(d, "X (player 1) on roll"), "%s", d);
    free(d);
    proto_close(e);

    // Dice set by hand: the engine plays them.
    e = bg_open();
    ck_assert_str_eq(proto_send(e, "roll 21"), "Dice: 2-1\n");
    proto_send(e, "play depth 1");
    text = proto_wait_bestmove(e);
    ck_assert_msg(strstr(text, "tabula plays ") && strstr(text, "(2-1)\n"), "%s", text);
    proto_close(e);
}
END_TEST

Suite *bgprompt_suite(void) {
    Suite *s = suite_create("bgprompt");
    TCase *tc = tcase_create("roll");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_roll_seeded);
    tcase_add_test(tc, test_roll_chosen);
    tcase_add_test(tc, test_roll_refused);
    tcase_add_test(tc, test_roll_dance);
    suite_add_tcase(s, tc);
    tc = tcase_create("plays");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_typed_plays);
    tcase_add_test(tc, test_typed_plays_refused);
    tcase_add_test(tc, test_play_whole_turn);
    suite_add_tcase(s, tc);
    return s;
}
