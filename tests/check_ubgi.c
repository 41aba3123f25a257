// The UBGI dialect (protocol/ubgi.c, docs/protocol.md): a scripted conversation of a
// backgammon controller through the command loop in this process, each play checked against
// the legal plays, each error code with the state left as it was, and one run of the binary.
#include "engine/core/game.h"
#include "tests/harness.h"
#include "tests/suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define START_ID "4HPwATDgc/ABMA:cAkAAAAAAAAA"
#define HANDSHAKE "id name tabula 0.1\nid author the tabula developers\nproto 0.2\nubgiok\n"
// X on the bar with 6-4 against a closed board: no legal play.
#define CLOSED "XGID=------N-----------cbbbbbbA:0:0:1:64:0:0:0:0:10"
// The start with X's double offered: O takes.
#define DOUBLED "XGID=-b----E-C---eE---c-e----B-:0:0:1:D:0:0:0:0:10"
// X bearing off, O far behind, Jacoby on: X doubles (and O should drop).
#define BEAROFF "XGID=-EEE---------------o------:0:0:1:00:0:0:1:0:10"
// X on the bar: the play enters.
#define ON_BAR "XGID=-b----E-C---eE---c-e----AA:0:0:1:00:0:0:0:0:10"
// X has borne off every checker: the game is over.
#define FINISHED "XGID=-------------------o------:0:0:1:00:0:0:0:0:10"

// An engine in the UBGI dialect, with quiet 1-ply searches unless a test wants more.
static Proto *ubgi_open(void) {
    Proto *p = proto_open();
    ck_assert_str_eq(proto_send(p, "ubgi"), HANDSHAKE);
    ck_assert_str_eq(proto_send(p, "set engine.ply 1"), "");
    ck_assert_str_eq(proto_send(p, "set engine.info false"), "");
    return p;
}

// Whether payload is a legal play of the engine's position with its dice: each `from/to` a
// point, `bar` or `off`, one per die, the whole made on a scratch game; `pass` exactly when
// nothing can be played.
static bool payload_legal(Proto *p, const char *payload, int d1, int d2) {
    const GameFamily *f = p->uci.family;
    char id[GAME_POSITION_MAX], token[128];
    f->get_position(p->uci.game, id, sizeof id);
    int len = snprintf(token, sizeof token, "%d%d:", d1 > d2 ? d1 : d2, d1 > d2 ? d2 : d1);
    if (!strcmp(payload, "pass")) {
        snprintf(token + len, sizeof token - (size_t)len, "-");
    } else {
        int n = 0;
        for (const char *s = payload; *s; n++) {
            size_t k = strcspn(s, " ");
            char from[8], to[8];
            ck_assert_msg(sscanf(s, "%7[0-9bar]/%7[0-9off]", from, to) == 2, "bad token in '%s'",
                          payload);
            ck_assert_msg(strlen(from) + 1 + strlen(to) == k, "bad token in '%s'", payload);
            len += snprintf(token + len, sizeof token - (size_t)len, "%s%.*s", n ? "," : "", (int)k,
                            s);
            s += k + (s[k] == ' ');
        }
        ck_assert_int_eq(n, d1 == d2 ? 4 : 2); // every position below plays the whole roll
    }
    Game *g = f->create("backgammon");
    Error err;
    const char *moves[] = {token};
    bool ok = f->set_position(g, id, moves, 1, &err);
    f->destroy(g);
    return ok;
}

// The payload of one `<prefix><payload>` answer line, and that it is the only line.
static const char *answer_payload(const char *out, const char *prefix) {
    size_t k = strlen(prefix);
    ck_assert_msg(!strncmp(out, prefix, k) && count_lines(out) == 1, "expected '%s...', got: %s",
                  prefix, out);
    static char buf[128];
    snprintf(buf, sizeof buf, "%.*s", (int)strcspn(out + k, "\n"), out + k);
    return buf;
}

START_TEST(test_handshake) {
    Proto *p = proto_open();
    ck_assert_str_ne(p->uci.family->variant(p->uci.game), "backgammon"); // nine by default
    ck_assert_str_eq(proto_send(p, "ubgi"), HANDSHAKE);
    ck_assert_str_eq(p->uci.family->variant(p->uci.game), "backgammon");
    ck_assert_str_eq(proto_send(p, "isready"), "readyok\n");
    ck_assert_str_eq(proto_send(p, "ubgi"), HANDSHAKE); // again: the same answer
    // uci leaves the dialect: UCI's answers and errors again.
    char *out = proto_send_copy(p, "uci");
    ck_assert_ptr_nonnull(strstr(out, "\nuciok\n"));
    free(out);
    ck_assert_str_eq(proto_send(p, "keys"), ERROR_PREFIX "unknown command 'keys' (try help)\n");
    ck_assert_str_eq(proto_send(p, "ubgi"), HANDSHAKE);
    ck_assert_str_eq(proto_send(p, "d"), "error bad_command unknown command 'd'\n");
    ck_assert(!uci_execute(&p->uci, "quit"));
    proto_close(p);
}
END_TEST

// Every key line is `key <name> <type> <domain> <default> [!] <description>` with the default
// inside the domain, and get answers that default on a fresh engine.
START_TEST(test_keys) {
    Proto *p = proto_open();
    proto_send(p, "ubgi");
    char *keys = proto_send_copy(p, "keys");
    int n = 0;
    bool ply = false, variant = false;
    for (char *save, *line = strtok_r(keys, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        char name[64], type[16], a[64], b[64], c[64], expect[160], get[96];
        int got = sscanf(line, "key %63s %15s %63s %63s %63s", name, type, a, b, c);
        ck_assert_msg(got >= 4, "bad key line '%s'", line);
        ck_assert_msg(strchr(name, '.') &&
                          (!strncmp(name, "game.", 5) || !strncmp(name, "engine.", 7)),
                      "key name '%s'", name);
        const char *def = a, *after = b;
        if (!strcmp(type, "int")) {
            int lo, hi, v;
            char rest;
            ck_assert_msg(sscanf(a, "%d..%d%c", &lo, &hi, &rest) == 2 && lo <= hi, "%s", line);
            ck_assert_msg(sscanf(b, "%d%c", &v, &rest) == 1 && v >= lo && v <= hi, "%s", line);
            def = b, after = got == 5 ? c : "";
        } else if (!strcmp(type, "bool")) {
            ck_assert_msg(!strcmp(a, "true") || !strcmp(a, "false"), "%s", line);
        } else if (!strcmp(type, "enum")) {
            char choices[70];
            snprintf(choices, sizeof choices, "|%s|", a);
            snprintf(expect, sizeof expect, "|%s|", b);
            ck_assert_msg(strstr(choices, expect), "%s: default not a choice", line);
            def = b, after = got == 5 ? c : "";
        } else {
            ck_abort_msg("unknown type in '%s'", line);
        }
        ck_assert_msg(after[0] && (strcmp(after, "!") || got == 5), "%s: no description", line);
        snprintf(expect, sizeof expect, "value %s %s\n", name, def);
        snprintf(get, sizeof get, "get %s", name);
        ck_assert_str_eq(proto_send(p, get), expect);
        ply |= !strcmp(name, "engine.ply") && !strcmp(a, "1..4");
        variant |= !strcmp(name, "game.variant") && !strcmp(a, "backgammon");
        n++;
    }
    ck_assert_int_ge(n, 4);
    ck_assert(ply && variant);
    free(keys);
    proto_close(p);
}
END_TEST

START_TEST(test_set_get) {
    Proto *p = proto_open();
    proto_send(p, "ubgi");
    ck_assert_str_eq(proto_send(p, "set engine.ply 2"), "");
    ck_assert_str_eq(proto_send(p, "get engine.ply"), "value engine.ply 2\n");
    ck_assert_int_eq(p->uci.ubgi.ply, 2);
    ck_assert_str_eq(proto_send(p, "set engine.info false"), "");
    ck_assert_str_eq(proto_send(p, "get engine.info"), "value engine.info false\n");
    ck_assert_str_eq(proto_send(p, "set engine.hash 4"), "");
    ck_assert_str_eq(proto_send(p, "get engine.hash"), "value engine.hash 4\n");
    ck_assert_str_eq(proto_send(p, "set game.variant backgammon"), "");
    // UBGI 0.1's form.
    ck_assert_str_eq(proto_send(p, "setoption name engine.ply value 4"), "");
    ck_assert_str_eq(proto_send(p, "get engine.ply"), "value engine.ply 4\n");
    proto_close(p);
}
END_TEST

START_TEST(test_chequer) {
    Proto *p = ubgi_open();
    ck_assert_str_eq(proto_send(p, "newgame"), "");
    ck_assert_str_eq(proto_send(p, "position gnubgid " START_ID), "");
    ck_assert_str_eq(proto_send(p, "dice 3 1"), "");
    const char *play = answer_payload(proto_send(p, "go chequer"), "bestmove ");
    ck_assert_str_eq(play, "8/5 6/5"); // everyone's 31
    ck_assert(payload_legal(p, play, 3, 1));
    ck_assert(!payload_legal(p, "8/4 6/5", 3, 1)); // the check itself can fail
    // go alone is go chequer; a double plays four checkers.
    proto_send(p, "dice 6 6");
    play = answer_payload(proto_send(p, "go"), "bestmove ");
    ck_assert(payload_legal(p, play, 6, 6));
    // Entering from the bar, bearing off.
    proto_send(p, "position xgid " ON_BAR);
    proto_send(p, "dice 3 1");
    play = answer_payload(proto_send(p, "go"), "bestmove ");
    ck_assert_msg(!strncmp(play, "bar/", 4), "%s", play);
    ck_assert(payload_legal(p, play, 3, 1));
    proto_send(p, "position xgid " BEAROFF);
    proto_send(p, "dice 6 5");
    play = answer_payload(proto_send(p, "go"), "bestmove ");
    ck_assert_str_eq(play, "3/off 3/off");
    ck_assert(payload_legal(p, play, 6, 5));
    // Deeper, with info lines: depth counts the root.
    proto_send(p, "set engine.ply 2");
    proto_send(p, "set engine.info true");
    proto_send(p, "position gnubgid " START_ID);
    proto_send(p, "dice 4 2");
    const char *out = proto_send(p, "go");
    ck_assert_msg(!strncmp(out, "info depth 1 nodes ", 19) && strstr(out, "\ninfo depth 2 nodes "),
                  "%s", out);
    ck_assert_str_eq(last_line(out), "bestmove 8/4 6/4\n");
    proto_close(p);
}
END_TEST

START_TEST(test_pass) {
    Proto *p = ubgi_open();
    ck_assert_str_eq(proto_send(p, "position xgid " CLOSED), ""); // the dice of the ID: 6 4
    ck_assert_str_eq(proto_send(p, "go chequer"), "bestmove pass\n");
    ck_assert(payload_legal(p, "pass", 6, 4));
    ck_assert_str_eq(proto_send(p, "go turn"), "bestturn cube=nodouble move=pass\n");
    proto_send(p, "position gnubgid " START_ID);
    proto_send(p, "dice 6 4");
    ck_assert(!payload_legal(p, "pass", 6, 4)); // a pass where a play exists is refused
    proto_close(p);
}
END_TEST

START_TEST(test_cube_and_turn) {
    Proto *p = ubgi_open();
    proto_send(p, "position gnubgid " START_ID);
    ck_assert_str_eq(proto_send(p, "go cube"), "bestcube nodouble\n");
    proto_send(p, "dice 3 1");
    ck_assert_str_eq(proto_send(p, "go turn"), "bestturn cube=nodouble move=8/5 6/5\n");
    proto_send(p, "position xgid " BEAROFF);
    ck_assert_str_eq(proto_send(p, "go cube"), "bestcube double\n");
    proto_send(p, "dice 2 1");
    ck_assert_str_eq(proto_send(p, "go turn"), "bestturn cube=double\n");
    proto_send(p, "position xgid " DOUBLED);
    ck_assert_str_eq(proto_send(p, "go cube"), "bestcube take\n");
    proto_close(p);
}
END_TEST

// What a refused line must leave as it was: the dialect's state and the game.
typedef struct Snapshot {
    UbgiState ubgi;
    char id[GAME_POSITION_MAX];
    int options[UCI_OPTION_COUNT];
} Snapshot;

static void snap(Proto *p, Snapshot *s) {
    memset(s, 0, sizeof *s);
    s->ubgi = p->uci.ubgi;
    p->uci.family->get_position(p->uci.game, s->id, sizeof s->id);
    memcpy(s->options, p->uci.options, sizeof s->options);
}

// Send line, expect exactly one `error <code> ...` line, and the state unchanged.
static void expect_error(Proto *p, const char *line, const char *code) {
    Snapshot before, after;
    char prefix[64];
    snap(p, &before);
    const char *out = proto_send(p, line);
    snprintf(prefix, sizeof prefix, "error %s ", code);
    ck_assert_msg(!strncmp(out, prefix, strlen(prefix)) && count_lines(out) == 1 &&
                      printable_ascii(out),
                  "'%s': expected one '%s...' line, got: %s", line, prefix, out);
    snap(p, &after);
    ck_assert_msg(!memcmp(&before.ubgi, &after.ubgi, sizeof before.ubgi) &&
                      !strcmp(before.id, after.id) &&
                      !memcmp(before.options, after.options, sizeof before.options),
                  "'%s' was refused but changed the state", line);
    ck_assert_str_eq(proto_send(p, "isready"), "readyok\n");
}

START_TEST(test_errors) {
    Proto *p = ubgi_open();
    // bad_state: nothing to decide yet.
    expect_error(p, "go", "bad_state");
    ck_assert_str_eq(proto_send(p, "go chequer"), "error bad_state missing position\n");
    expect_error(p, "go cube", "bad_state");
    expect_error(p, "dice 3 1", "bad_state");
    proto_send(p, "position gnubgid " START_ID);
    ck_assert_str_eq(proto_send(p, "go turn"), "error bad_state missing dice\n");
    expect_error(p, "go chequer", "bad_state");
    proto_send(p, "dice 5 2");
    char *first = proto_send_copy(p, "go");
    ck_assert_msg(!strncmp(first, "bestmove ", 9), "%s", first);
    // bad_command: unknown or malformed.
    expect_error(p, "frobnicate", "bad_command");
    expect_error(p, "Go", "bad_command"); // keywords are case-sensitive
    expect_error(p, "go sideways", "bad_command");
    expect_error(p, "go chequer now", "bad_command");
    expect_error(p, "dice 3", "bad_command");
    expect_error(p, "set engine.ply", "bad_command");
    expect_error(p, "get", "bad_command");
    expect_error(p, "isready now", "bad_command");
    expect_error(p, "position gnubgid", "bad_command");
    expect_error(p, "setoption name engine.ply 2", "bad_command");
    expect_error(p, "moves", "bad_command");
    expect_error(p, "\x01\xff", "bad_command");
    // bad_value: a value out of its domain.
    expect_error(p, "set engine.ply 0", "bad_value");
    expect_error(p, "set engine.ply 5", "bad_value");
    expect_error(p, "set engine.info maybe", "bad_value");
    expect_error(p, "set game.variant nine", "bad_value");
    expect_error(p, "dice 7 1", "bad_value");
    expect_error(p, "dice 0 1", "bad_value");
    expect_error(p, "position gnubgid 4HPwATDgc/AB!A:cAkAAAAAAAAA", "bad_value");
    expect_error(p, "position gnubgid " CLOSED, "bad_value");
    expect_error(p, "position xgid XGID=-b----E-C---eE---c-e----B-:0:0:1:71:0:0:0:0:10",
                 "bad_value");
    // unsupported: keys and formats tabula does not have.
    expect_error(p, "set engine.nosuch 1", "unsupported");
    expect_error(p, "get nosuch", "unsupported");
    expect_error(p, "position fen " START_ID, "unsupported");
    expect_error(p, "position startpos x", "unsupported");
    // The position and dice survived all of that.
    ck_assert_str_eq(proto_send(p, "go"), first);
    free(first);
    // bad_state in a decision that cannot be made now.
    proto_send(p, "position xgid " DOUBLED);
    expect_error(p, "dice 3 1", "bad_state");
    expect_error(p, "go chequer", "bad_state");
    expect_error(p, "go turn", "bad_state");
    proto_send(p, "position xgid " FINISHED);
    expect_error(p, "go cube", "bad_state");
    expect_error(p, "dice 3 1", "bad_state");
    proto_send(p, "newgame");
    expect_error(p, "go", "bad_state");
    proto_close(p);
}
END_TEST

// The binary on pipes: the handshake, a play, and quit.
START_TEST(test_binary) {
    Child *c = child_start();
    child_send(c, "ubgi");
    char *text = child_expect(c, "ubgiok", CHILD_WAIT);
    ck_assert_str_eq(text, HANDSHAKE);
    free(text);
    child_send(c, "set engine.ply 1");
    child_send(c, "position gnubgid " START_ID);
    child_send(c, "dice 1 3");
    child_send(c, "go chequer");
    text = child_expect(c, "bestmove", CHILD_WAIT);
    ck_assert_str_eq(last_line(text), "bestmove 8/5 6/5\n");
    free(text);
    child_send(c, "bogus");
    text = child_expect(c, "error", CHILD_WAIT);
    ck_assert_str_eq(text, "error bad_command unknown command 'bogus'\n");
    free(text);
    // The loop's own error, a line with a NUL byte, in the dialect's form too.
    child_send_bytes(c, "go\0x", 4);
    text = child_expect(c, "error", CHILD_WAIT);
    ck_assert_str_eq(text, "error bad_command the line holds a NUL byte; ignored\n");
    free(text);
    child_quit(c);
}
END_TEST

Suite *ubgi_suite(void) {
    Suite *s = suite_create("ubgi");
    TCase *tc = tcase_create("dialect");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_handshake);
    tcase_add_test(tc, test_keys);
    tcase_add_test(tc, test_set_get);
    tcase_add_test(tc, test_chequer);
    tcase_add_test(tc, test_pass);
    tcase_add_test(tc, test_cube_and_turn);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_binary);
    suite_add_tcase(s, tc);
    return s;
}
