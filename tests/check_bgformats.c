// Backgammon position formats: gnubg Position ID and Match ID, XGID; round trips on the
// examples of docs/backgammon.md and values gnubg 1.07 printed, and refusals of bad input.
#include "tests/suites.h"

#include "engine/backgammon/ids.h"

#include <stdio.h>
#include <string.h>

#define START_POS "4HPwATDgc/ABMA"
#define START_XGID "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"

START_TEST(test_start_ids) {
    BgPosition p;
    bg_set_start(&p);
    char pos[BG_POSITION_ID_LEN + 1], match[BG_MATCH_ID_LEN + 1], xgid[BG_XGID_MAX];
    bg_position_id(&p, pos);
    bg_match_id(&p, match);
    ck_assert_str_eq(pos, START_POS);
    ck_assert_str_eq(match, "cAkAAAAAAAAA"); // gnubg's new money game, Jacoby on
    // The XGID of the start in docs/backgammon.md has Jacoby off.
    p.jacoby = false;
    bg_xgid(&p, xgid, sizeof xgid);
    ck_assert_str_eq(xgid, START_XGID);
}
END_TEST

// Position IDs of data/bg_plays.txt and the documents read and write back unchanged.
static const char *const POSITION_IDS[] = {
    "4HPwATDgc/ABMA", "AACAkCRJqqoAAA", "4HPwATDgc/ABUA", "sHPwATDgHHwAeA", "sNvBATBw38ABMA",
    "2G4bADDOAgAAAA", "AwAAYDsAAAAAAA", "tN0dAATb3AMAAA", "2+4OAADs3hcAAA", "v0MChgK7HwgAAA",
    "u20DYAD77hEAAA", "ABDAEBIAAAAAAA", "mGfwATCwZ/ABMA", "sGfwATDgc/ABMA",
};
#define NPOSITION_IDS (int)(sizeof POSITION_IDS / sizeof POSITION_IDS[0])

START_TEST(test_position_id_round_trip) {
    for (int turn = 0; turn < 2; turn++) {
        BgPosition p;
        bg_set_start(&p);
        p.turn = turn;
        Error err;
        ck_assert_msg(bg_read_position_id(POSITION_IDS[_i], turn, &p.b, &err), "%s", err.msg);
        char out[BG_POSITION_ID_LEN + 1];
        bg_position_id(&p, out);
        ck_assert_str_eq(out, POSITION_IDS[_i]);
        // Through an XGID and back.
        char xgid[BG_XGID_MAX];
        BgPosition q;
        bg_xgid(&p, xgid, sizeof xgid);
        ck_assert_msg(bg_read_xgid(xgid, &q, &err), "%s: %s", xgid, err.msg);
        bg_position_id(&q, out);
        ck_assert_str_eq(out, POSITION_IDS[_i]);
        ck_assert_int_eq(memcmp(&q.b, &p.b, sizeof p.b), 0);
    }
}
END_TEST

// Match IDs gnubg 1.07 wrote, with what they say.
typedef struct MatchCase {
    const char *id;
    int turn, d1, d2, cube, owner, length, s0, s1;
    bool jacoby, crawford, doubled;
} MatchCase;

// clang-format off
static const MatchCase MATCHES[] = {
    {"cAkAAAAAAAAA", 1, 0, 0, 1, -1, 0, 0, 0, true,  false, false}, // new money game
    {"cAkAAAAAAAAE", 1, 0, 0, 1, -1, 0, 0, 0, false, false, false}, // the same, Jacoby off
    {"cIkFAAAAAAAE", 1, 3, 1, 1, -1, 0, 0, 0, false, false, false}, // set dice 3 1
    {"MAEAAAAAAAAA", 0, 0, 0, 1, -1, 0, 0, 0, true,  false, false},
};
// clang-format on
#define NMATCHES (int)(sizeof MATCHES / sizeof MATCHES[0])

START_TEST(test_match_id) {
    const MatchCase *c = &MATCHES[_i];
    BgPosition p;
    bg_set_start(&p);
    Error err;
    ck_assert_msg(bg_read_match_id(c->id, &p, &err), "%s", err.msg);
    ck_assert_int_eq(p.turn, c->turn);
    ck_assert_int_eq(p.dice[0], c->d1);
    ck_assert_int_eq(p.dice[1], c->d2);
    ck_assert_int_eq(p.cube, c->cube);
    ck_assert_int_eq(p.owner, c->owner);
    ck_assert_int_eq(p.length, c->length);
    ck_assert_int_eq(p.score[0], c->s0);
    ck_assert_int_eq(p.score[1], c->s1);
    ck_assert_int_eq(p.jacoby, c->jacoby);
    ck_assert_int_eq(p.crawford, c->crawford);
    ck_assert_int_eq(p.doubled, c->doubled);
    char out[BG_MATCH_ID_LEN + 1];
    bg_match_id(&p, out);
    ck_assert_str_eq(out, c->id);
}
END_TEST

// Every field of the state survives both formats.
START_TEST(test_state_round_trip) {
    BgPosition p;
    bg_set_start(&p);
    p.turn = 0;
    p.cube = 4;
    p.owner = 1;
    p.length = 7;
    p.score[0] = 3;
    p.score[1] = 5;
    p.dice[0] = 6;
    p.dice[1] = 2;
    p.jacoby = false;
    char id[64], xgid[BG_XGID_MAX];
    BgPosition q;
    Error err;
    bg_gnubgid(&p, id, sizeof id);
    ck_assert_msg(bg_read_gnubgid(id, &q, &err), "%s", err.msg);
    ck_assert_int_eq(memcmp(&p, &q, sizeof p), 0);
    bg_xgid(&p, xgid, sizeof xgid);
    ck_assert_str_eq(xgid, "XGID=-b----E-C---eE---c-e----B-:2:1:-1:62:5:3:0:7:10");
    ck_assert_msg(bg_read_xgid(xgid, &q, &err), "%s", err.msg);
    ck_assert_int_eq(memcmp(&p, &q, sizeof p), 0);
    // A double offered, the Crawford game.
    p.dice[0] = p.dice[1] = 0;
    p.doubled = true;
    p.owner = 0;
    p.score[1] = 6;
    p.crawford = true;
    bg_gnubgid(&p, id, sizeof id);
    ck_assert(bg_read_gnubgid(id, &q, &err));
    ck_assert_int_eq(memcmp(&p, &q, sizeof p), 0);
    bg_xgid(&p, xgid, sizeof xgid);
    ck_assert_str_eq(xgid, "XGID=-b----E-C---eE---c-e----B-:2:-1:-1:D:6:3:1:7:10");
    ck_assert(bg_read_xgid(xgid, &q, &err));
    ck_assert_int_eq(memcmp(&p, &q, sizeof p), 0);
}
END_TEST

START_TEST(test_xgid_start) {
    BgPosition p;
    Error err;
    ck_assert_msg(bg_read_xgid(START_XGID, &p, &err), "%s", err.msg);
    char id[64];
    bg_gnubgid(&p, id, sizeof id);
    ck_assert_str_eq(id, START_POS ":cAkAAAAAAAAE");
    ck_assert_int_eq(p.turn, 1);
    ck_assert(!p.jacoby);
    // Without the prefix too.
    ck_assert(bg_read_xgid(START_XGID + 5, &p, &err));
}
END_TEST

static const char *const BAD_GNUBG[] = {
    "4HPwATDgc/ABM",                // too short
    "4HPwATDgc/ABMA:cAkAAAAAAAA",   // Match ID too short
    "4HPwATDgc/AB!A:cAkAAAAAAAAA",  // not base64
    "//////////////:cAkAAAAAAAAA",  // more than 15 checkers
    "4HPwATDgc/ABMA:cAkAAAAAAAAAA", // Match ID too long
    "4HPwATDgc/ABMA:cIkfAAAAAAAA",  // dice of 7
    "4HPwATDgc/ABMA:cIkBAAAAAAAA",  // one die only
    "",
};

static const char *const BAD_XGID[] = {
    "XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10",   // 25 board characters
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0",     // 9 fields
    "XGID=-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10",  // turn 0
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:71:0:0:0:0:10",  // die 7
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:5:0:0:5:10",  // score = length
    "XGID=-b----E-C---eE---c-e----Bz:0:0:1:00:0:0:0:0:10",  // z
    "XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",  // bottom checker on top's bar
    "XGID=-b----P-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",  // 25 checkers
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10:", // 11 fields
};

START_TEST(test_bad_ids) {
    BgPosition p, before;
    bg_set_start(&p);
    before = p;
    Error err;
    for (size_t i = 0; i < sizeof BAD_GNUBG / sizeof BAD_GNUBG[0]; i++) {
        ck_assert_msg(!bg_read_gnubgid(BAD_GNUBG[i], &p, &err), "accepted '%s'", BAD_GNUBG[i]);
        ck_assert_int_eq(memcmp(&p, &before, sizeof p), 0);
    }
    for (size_t i = 0; i < sizeof BAD_XGID / sizeof BAD_XGID[0]; i++) {
        ck_assert_msg(!bg_read_xgid(BAD_XGID[i], &p, &err), "accepted '%s'", BAD_XGID[i]);
        ck_assert_int_eq(memcmp(&p, &before, sizeof p), 0);
    }
}
END_TEST

Suite *bgformats_suite(void) {
    Suite *s = suite_create("bgformats");
    TCase *tc = tcase_create("ids");
    tcase_add_test(tc, test_start_ids);
    tcase_add_loop_test(tc, test_position_id_round_trip, 0, NPOSITION_IDS);
    tcase_add_loop_test(tc, test_match_id, 0, NMATCHES);
    tcase_add_test(tc, test_state_round_trip);
    tcase_add_test(tc, test_xgid_start);
    tcase_add_test(tc, test_bad_ids);
    suite_add_tcase(s, tc);
    return s;
}
