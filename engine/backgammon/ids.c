#include "engine/backgammon/ids.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Base64 of n bytes without padding.
static void b64_encode(const uint8_t *in, int n, char *out) {
    int bits = 0, k = 0;
    uint32_t acc = 0; // only the low 14 bits matter: at most 6 pending bits plus a byte
    for (int i = 0; i < n; i++) {
        acc = ((acc << 8) | in[i]) & 0x3FFF;
        bits += 8;
        while (bits >= 6) {
            out[k++] = B64[(acc >> (bits - 6)) & 63];
            bits -= 6;
        }
    }
    if (bits > 0)
        out[k++] = B64[(acc << (6 - bits)) & 63];
    out[k] = '\0';
}

// Decode exactly len base64 characters into n bytes; false on a character outside the set.
static bool b64_decode(const char *s, int len, uint8_t *out, int n) {
    int bits = 0, acc = 0, k = 0;
    memset(out, 0, (size_t)n);
    for (int i = 0; i < len; i++) {
        const char *c = s[i] ? strchr(B64, s[i]) : NULL;
        if (!c)
            return false;
        acc = ((acc << 6) | (int)(c - B64)) & 0xFFFF;
        bits += 6;
        if (bits >= 8) {
            if (k < n)
                out[k++] = (uint8_t)(acc >> (bits - 8));
            bits -= 8;
        }
    }
    return true;
}

static int get_bit(const uint8_t *key, int k) { return key[k / 8] >> (k % 8) & 1; }
static void set_bit(uint8_t *key, int k) { key[k / 8] |= (uint8_t)(1 << (k % 8)); }

static unsigned get_field(const uint8_t *key, int at, int width) {
    unsigned v = 0;
    for (int j = 0; j < width; j++)
        v |= (unsigned)get_bit(key, at + j) << j;
    return v;
}

static void set_field(uint8_t *key, int at, int width, unsigned v) {
    for (int j = 0; j < width; j++)
        if (v >> j & 1)
            set_bit(key, at + j);
}

void bg_position_id(const BgPosition *p, char out[BG_POSITION_ID_LEN + 1]) {
    uint8_t key[10] = {0};
    int k = 0;
    for (int s = 0; s < 2; s++) {
        int side = s == 0 ? !p->turn : p->turn;
        for (int i = 0; i < BG_SLOTS; i++) {
            for (int c = 0; c < p->b.c[side][i]; c++)
                set_bit(key, k++);
            k++;
        }
    }
    b64_encode(key, 10, out);
}

bool bg_read_position_id(const char *id, int turn, BgBoard *b, Error *err) {
    uint8_t key[10];
    if (strlen(id) != BG_POSITION_ID_LEN || !b64_decode(id, BG_POSITION_ID_LEN, key, 10))
        return error_set(err, "a Position ID is 14 base64 characters, not '%.40s'", id);
    BgBoard t;
    memset(&t, 0, sizeof t);
    int k = 0;
    for (int s = 0; s < 2; s++) {
        int side = s == 0 ? !turn : turn, total = 0;
        for (int i = 0; i < BG_SLOTS; i++) {
            while (k < 80 && get_bit(key, k)) {
                if (++total > BG_CHECKERS)
                    return error_set(err, "Position ID %s: more than 15 checkers", id);
                t.c[side][i]++;
                k++;
            }
            if (k++ >= 80)
                return error_set(err, "Position ID %s: the bits run out", id);
        }
    }
    const char *why;
    if (!bg_board_valid(&t, &why))
        return error_set(err, "Position ID %s: %s", id, why);
    *b = t;
    return true;
}

static int log2_of(int v) {
    int n = 0;
    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

void bg_match_id(const BgPosition *p, char out[BG_MATCH_ID_LEN + 1]) {
    uint8_t key[9] = {0};
    set_field(key, 0, 4, (unsigned)log2_of(p->cube));
    set_field(key, 4, 2, p->owner < 0 ? 3u : (unsigned)p->owner);
    set_field(key, 6, 1, (unsigned)p->turn);
    set_field(key, 7, 1, p->crawford);
    set_field(key, 8, 3, (unsigned)p->state);
    set_field(key, 11, 1, (unsigned)(p->doubled ? !p->turn : p->turn));
    set_field(key, 12, 1, p->doubled);
    set_field(key, 15, 3, (unsigned)p->dice[0]);
    set_field(key, 18, 3, (unsigned)p->dice[1]);
    set_field(key, 21, 15, (unsigned)p->length);
    set_field(key, 36, 15, (unsigned)p->score[0]);
    set_field(key, 51, 15, (unsigned)p->score[1]);
    set_field(key, 66, 1, !p->jacoby);
    b64_encode(key, 9, out);
}

bool bg_read_match_id(const char *id, BgPosition *p, Error *err) {
    uint8_t key[9];
    if (strlen(id) != BG_MATCH_ID_LEN || !b64_decode(id, BG_MATCH_ID_LEN, key, 9))
        return error_set(err, "a Match ID is 12 base64 characters, not '%.40s'", id);
    BgPosition t = *p;
    unsigned cube = get_field(key, 0, 4), owner = get_field(key, 4, 2);
    unsigned state = get_field(key, 8, 3), acting = get_field(key, 11, 1);
    unsigned d1 = get_field(key, 15, 3), d2 = get_field(key, 18, 3);
    if (cube > 12 || owner == 2)
        return error_set(err, "Match ID %s: bad cube (value 2^%u, owner %u)", id, cube, owner);
    if (state > BG_OVER)
        return error_set(err, "Match ID %s: resigned or dropped games are not supported", id);
    if (get_field(key, 13, 2))
        return error_set(err, "Match ID %s: resignation offers are not supported", id);
    if (d1 > 6 || d2 > 6 || (!d1) != (!d2))
        return error_set(err, "Match ID %s: bad dice %u %u", id, d1, d2);
    t.cube = 1 << cube;
    t.owner = owner == 3 ? -1 : (int)owner;
    t.turn = (int)get_field(key, 6, 1);
    t.crawford = get_field(key, 7, 1);
    t.state = state == BG_OVER ? BG_OVER : BG_PLAYING;
    t.doubled = get_field(key, 12, 1);
    if (t.doubled && (int)acting == t.turn)
        return error_set(err, "Match ID %s: a double offered to the player who doubled", id);
    if (t.doubled && d1)
        return error_set(err, "Match ID %s: a double offered after the roll", id);
    t.dice[0] = (int)(d1 > d2 ? d1 : d2);
    t.dice[1] = (int)(d1 > d2 ? d2 : d1);
    t.length = (int)get_field(key, 21, 15);
    t.score[0] = (int)get_field(key, 36, 15);
    t.score[1] = (int)get_field(key, 51, 15);
    t.jacoby = !get_field(key, 66, 1);
    if (t.length && (t.score[0] >= t.length || t.score[1] >= t.length))
        return error_set(err, "Match ID %s: a score reaches the match length", id);
    *p = t;
    return true;
}

// After the board and state were read: settle a finished game, refuse contradictions.
static bool settle(BgPosition *t, const char *what, Error *err) {
    int off0 = bg_checkers(&t->b, 0) == 0, off1 = bg_checkers(&t->b, 1) == 0;
    if (off0 && off1)
        return error_set(err, "%s: both players have borne off every checker", what);
    if (off0 || off1) {
        bg_finish(t, off0 ? 0 : 1);
        return true;
    }
    if (t->state == BG_OVER)
        return error_set(err, "%s: the game is marked over but nobody has borne off", what);
    return true;
}

bool bg_read_gnubgid(const char *s, BgPosition *p, Error *err) {
    char pos[BG_POSITION_ID_LEN + 1];
    size_t len = strcspn(s, ":");
    if (len != BG_POSITION_ID_LEN)
        return error_set(err, "expected <PositionID>:<MatchID>, not '%.40s'", s);
    memcpy(pos, s, len);
    pos[len] = '\0';
    BgPosition t;
    bg_set_start(&t);
    if (s[len] == ':' && !bg_read_match_id(s + len + 1, &t, err))
        return false;
    if (!bg_read_position_id(pos, t.turn, &t.b, err) || !settle(&t, "gnubgid", err))
        return false;
    *p = t;
    return true;
}

void bg_gnubgid(const BgPosition *p, char *out, size_t n) {
    char pos[BG_POSITION_ID_LEN + 1], match[BG_MATCH_ID_LEN + 1];
    bg_position_id(p, pos);
    bg_match_id(p, match);
    snprintf(out, n, "%s:%s", pos, match);
}

// Read a whole decimal field in [min, max].
static bool field_int(const char *s, int min, int max, int *out) {
    char *end;
    if (!*s || (*s != '-' && (*s < '0' || *s > '9')))
        return false;
    long v = strtol(s, &end, 10);
    if (*end || v < min || v > max)
        return false;
    *out = (int)v;
    return true;
}

bool bg_read_xgid(const char *s, BgPosition *p, Error *err) {
    char buf[128], *f[10];
    int nf = 0;
    if (!strncmp(s, "XGID=", 5))
        s += 5;
    if (strlen(s) >= sizeof buf)
        return error_set(err, "XGID too long");
    strcpy(buf, s);
    for (char *c = buf; nf < 10;) {
        f[nf++] = c;
        c = strchr(c, ':');
        if (!c)
            break;
        *c++ = '\0';
    }
    int colons = 0;
    for (const char *c = s; *c; c++)
        colons += *c == ':';
    if (nf != 10 || colons != 9)
        return error_set(err, "an XGID has 10 fields separated by ':', not '%.40s'", s);
    if (strlen(f[0]) != 26)
        return error_set(err, "XGID: the board field has 26 characters, not '%.40s'", f[0]);
    BgPosition t;
    bg_set_start(&t);
    memset(&t.b, 0, sizeof t.b);
    for (int i = 0; i < 26; i++) {
        char c = f[0][i];
        int n = c >= 'A' && c <= 'P' ? c - 'A' + 1 : c >= 'a' && c <= 'p' ? c - 'a' + 1 : 0;
        bool bottom = c >= 'A' && c <= 'P';
        if (c != '-' && !n)
            return error_set(err, "XGID: bad board character '%c'", c);
        if (!n)
            continue;
        if ((i == 0 && bottom) || (i == 25 && !bottom))
            return error_set(err, "XGID: a checker on the wrong bar");
        // Bottom is player 1 (points as numbered), top is player 0 (point i is its 25 - i).
        if (bottom)
            t.b.c[1][i == 25 ? BG_BAR : i - 1] = (uint8_t)n;
        else
            t.b.c[0][i == 0 ? BG_BAR : 24 - i] = (uint8_t)n;
    }
    const char *why;
    if (!bg_board_valid(&t.b, &why))
        return error_set(err, "XGID: %s", why);
    int cube, pos, turn, s1, s0, rules, len, maxcube;
    if (!field_int(f[1], 0, 12, &cube) || !field_int(f[2], -1, 1, &pos) ||
        !field_int(f[3], -1, 1, &turn) || turn == 0)
        return error_set(err, "XGID: bad cube, cube owner or turn field");
    if (!field_int(f[5], 0, 32767, &s1) || !field_int(f[6], 0, 32767, &s0) ||
        !field_int(f[7], 0, 3, &rules) || !field_int(f[8], 0, 32767, &len) ||
        !field_int(f[9], 0, 15, &maxcube))
        return error_set(err, "XGID: bad score, rules, match length or maximum cube field");
    t.cube = 1 << cube;
    t.owner = pos == 0 ? -1 : pos == 1 ? 1 : 0;
    t.turn = turn == 1 ? 1 : 0;
    if (!strcmp(f[4], "00")) {
        t.dice[0] = t.dice[1] = 0;
    } else if (!strcmp(f[4], "D")) {
        t.doubled = true;
    } else if (strlen(f[4]) == 2 && f[4][0] >= '1' && f[4][0] <= '6' && f[4][1] >= '1' &&
               f[4][1] <= '6') {
        int a = f[4][0] - '0', b = f[4][1] - '0';
        t.dice[0] = a > b ? a : b;
        t.dice[1] = a > b ? b : a;
    } else {
        return error_set(err, "XGID: bad dice field '%.8s' (00, D or two dice)", f[4]);
    }
    t.length = len;
    t.score[0] = s0;
    t.score[1] = s1;
    if (len && (s0 >= len || s1 >= len))
        return error_set(err, "XGID: a score reaches the match length");
    t.crawford = len && (rules & 1);
    t.jacoby = !len && (rules & 1);
    if (!settle(&t, "XGID", err))
        return false;
    *p = t;
    return true;
}

void bg_xgid(const BgPosition *p, char *out, size_t n) {
    char board[27];
    memset(board, '-', 26);
    board[26] = '\0';
    for (int i = 0; i < BG_POINTS; i++) {
        if (p->b.c[1][i])
            board[i + 1] = (char)('A' + p->b.c[1][i] - 1);
        if (p->b.c[0][i])
            board[24 - i] = (char)('a' + p->b.c[0][i] - 1);
    }
    if (p->b.c[1][BG_BAR])
        board[25] = (char)('A' + p->b.c[1][BG_BAR] - 1);
    if (p->b.c[0][BG_BAR])
        board[0] = (char)('a' + p->b.c[0][BG_BAR] - 1);
    char dice[8] = "00";
    if (p->doubled)
        strcpy(dice, "D");
    else if (p->dice[0])
        snprintf(dice, sizeof dice, "%d%d", p->dice[0] % 10, p->dice[1] % 10);
    int rules = p->length ? p->crawford : p->jacoby;
    snprintf(out, n, "XGID=%s:%d:%d:%d:%s:%d:%d:%d:%d:10", board, log2_of(p->cube),
             p->owner < 0    ? 0
             : p->owner == 1 ? 1
                             : -1,
             p->turn == 1 ? 1 : -1, dice, p->score[1], p->score[0], rules, p->length);
}
