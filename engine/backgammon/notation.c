#include "engine/backgammon/notation.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

typedef struct Step {
    int from, to;
    bool blot; // the destination held an enemy blot before the play
    bool hit;  // and this is the first sub-move onto it: marked with `*`
    bool used;
} Step;

static int point_text(int q, char *out) {
    if (q == BG_BAR_POINT)
        return sprintf(out, "bar");
    if (q == BG_OFF_POINT)
        return sprintf(out, "off");
    return sprintf(out, "%d", q);
}

// Whether two chains are the same once their `*` marks are removed.
static bool same_but_hits(const char *a, const char *b) {
    for (;; a++, b++) {
        while (*a == '*')
            a++;
        while (*b == '*')
            b++;
        if (*a != *b)
            return false;
        if (!*a)
            return true;
    }
}

void bg_play_format(const BgBoard *b, int side, const BgPlay *play, const char *sep, char *out,
                    size_t n) {
    if (play->n == 0) {
        snprintf(out, n, "-");
        return;
    }
    Step st[4];
    for (int i = 0; i < play->n; i++)
        st[i] = (Step){play->from[i], play->to[i], false, false, false};
    // Decreasing source, then decreasing destination.
    for (int i = 1; i < play->n; i++)
        for (int j = i; j > 0 && (st[j].from > st[j - 1].from ||
                                  (st[j].from == st[j - 1].from && st[j].to > st[j - 1].to));
             j--) {
            Step s = st[j];
            st[j] = st[j - 1];
            st[j - 1] = s;
        }
    // As gnubg marks hits: the first sub-move in that order onto a point that held an enemy
    // blot before the play (`bar/21* 24/21`, `6/4*/2 6/4(2)`); every checker's path through
    // such a point shows it (`6/4*/2(2)`).
    for (int i = 0; i < play->n; i++) {
        bool first = true;
        for (int j = 0; j < i; j++)
            first &= st[j].to != st[i].to;
        st[i].blot = st[i].to != BG_OFF_POINT && b->c[!side][24 - st[i].to] == 1;
        st[i].hit = first && st[i].blot;
    }
    // Chains of one checker's steps, written with their hit points.
    char chain[4][32];
    int nchain = 0;
    for (int i = 0; i < play->n; i++) {
        if (st[i].used)
            continue;
        char *c = chain[nchain++];
        int len = point_text(st[i].from, c);
        Step *cur = &st[i];
        cur->used = true;
        for (;;) {
            Step *next = NULL;
            for (int j = 0; j < play->n && cur->to != BG_OFF_POINT && !next; j++)
                if (!st[j].used && st[j].from == cur->to)
                    next = &st[j];
            if (!next || cur->blot) { // a checker's path is written through a blot's point
                c[len++] = '/';
                len += point_text(cur->to, c + len);
                if (cur->hit)
                    c[len++] = '*';
                c[len] = '\0';
            }
            if (!next)
                break;
            next->used = true;
            cur = next;
        }
    }
    // Chains equal but for the hit mark collapse to (n) with the first one's text, in the order
    // they first appear (`6/4*(4)`).
    size_t len = 0;
    bool done[4] = {false};
    out[0] = '\0';
    for (int i = 0; i < nchain; i++) {
        if (done[i])
            continue;
        int count = 1;
        for (int j = i + 1; j < nchain; j++)
            if (!done[j] && same_but_hits(chain[i], chain[j])) {
                done[j] = true;
                count++;
            }
        int w = count > 1
                    ? snprintf(out + len, n - len, "%s%s(%d)", len ? sep : "", chain[i], count)
                    : snprintf(out + len, n - len, "%s%s", len ? sep : "", chain[i]);
        if (w < 0 || (size_t)w >= n - len)
            return;
        len += (size_t)w;
    }
}

void bg_play_token(const BgBoard *b, int side, int d1, int d2, const BgPlay *play, char *out,
                   size_t n) {
    char text[BG_PLAY_TEXT_MAX];
    bg_play_format(b, side, play, ",", text, sizeof text);
    snprintf(out, n, "%d%d:%s", d1 > d2 ? d1 : d2, d1 > d2 ? d2 : d1, text);
}

// Read a point: 1..25 or bar (as a source), 0..24 or off (as a destination).
static bool read_point(const char **s, bool source, int *q) {
    const char *p = *s;
    if (!strncasecmp(p, source ? "bar" : "off", 3)) {
        *q = source ? BG_BAR_POINT : BG_OFF_POINT;
        *s = p + 3;
        return true;
    }
    if (!isdigit((unsigned char)*p))
        return false;
    int v = 0;
    for (int k = 0; isdigit((unsigned char)*p) && k < 3; k++)
        v = 10 * v + (*p++ - '0');
    if (isdigit((unsigned char)*p) || v > 25 || (source && v < 1) || (!source && v > 24))
        return false;
    *q = v;
    *s = p;
    return true;
}

// Read the sub-moves of a play into t (after its nseg segments): `8/5 6/5`, `8/5,6/5`,
// `8/5(2)`, `bar/22*`, `13/7*/5`, `6/off`; start is the whole text, for the messages.
static bool read_submoves(const char *s, const char *start, BgTurnText *t, Error *err) {
    s += strspn(s, " ");
    if (!*s)
        return error_set(err, "'%.40s': no sub-move (e.g. 8/5 6/5)", start);
    while (*s) {
        int from, to, reps = 1, nseg0 = t->nseg;
        if (!read_point(&s, true, &from) || *s != '/')
            return error_set(err, "'%.40s': a sub-move is <from>/<to>, e.g. 13/11 or bar/22*",
                             start);
        while (*s == '/') {
            s++;
            if (!read_point(&s, false, &to))
                return error_set(err, "'%.40s': bad destination point", start);
            if (*s == '*')
                s++;
            if (t->nseg == BG_MAX_SEGMENTS)
                return error_set(err, "'%.40s': too many sub-moves", start);
            t->from[t->nseg] = (uint8_t)from;
            t->to[t->nseg++] = (uint8_t)to;
            from = to;
        }
        if (*s == '(') {
            if (s[1] < '1' || s[1] > '4' || s[2] != ')')
                return error_set(err, "'%.40s': a repeat is (1) to (4)", start);
            reps = s[1] - '0';
            s += 3;
        }
        int len = t->nseg - nseg0;
        for (int r = 1; r < reps; r++)
            for (int k = 0; k < len; k++) {
                if (t->nseg == BG_MAX_SEGMENTS)
                    return error_set(err, "'%.40s': too many sub-moves", start);
                t->from[t->nseg] = t->from[nseg0 + k];
                t->to[t->nseg++] = t->to[nseg0 + k];
            }
        const char *next = s + strspn(s, " ");
        if (*next == ',') { // one comma between sub-moves, spaces around it allowed
            next++;
            next += strspn(next, " ");
            if (!*next)
                return error_set(err, "'%.40s': a sub-move must follow ','", start);
        } else if (next == s && *s) {
            return error_set(err, "'%.40s': unexpected '%c'", start, *s);
        }
        s = next;
    }
    return true;
}

bool bg_turn_parse(const char *s, BgTurnText *t, Error *err) {
    const char *start = s;
    memset(t, 0, sizeof *t);
    if (s[0] < '1' || s[0] > '6' || s[1] < '1' || s[1] > '6' || (s[2] && s[2] != ':'))
        return error_set(err, "'%.40s' is not a turn (e.g. 31:8/5,6/5, 65:- or a roll 31)", s);
    int a = s[0] - '0', b = s[1] - '0';
    t->dice[0] = a > b ? a : b;
    t->dice[1] = a > b ? b : a;
    if (!s[2])
        return true;
    t->has_play = true;
    s += 3;
    if (!strcmp(s, "-"))
        return true;
    return read_submoves(s, start, t, err);
}

bool bg_play_parse(const char *s, BgTurnText *t, Error *err) {
    memset(t, 0, sizeof *t);
    t->has_play = true;
    return read_submoves(s, s, t, err);
}

bool bg_segments_apply(const BgBoard *b, int side, const BgTurnText *t, BgBoard *after,
                       Error *err) {
    BgBoard w = *b;
    uint8_t *me = w.c[side], *opp = w.c[!side];
    for (int i = 0; i < t->nseg; i++) {
        int from = t->from[i], to = t->to[i];
        if (!me[from - 1])
            return error_set(err, "no checker to move on %d", from);
        if (to >= from)
            return error_set(err, "%d/%d moves backwards", from, to);
        if (to > 0 && opp[24 - to] >= 2)
            return error_set(err, "point %d is blocked", to);
        bg_apply_step(me, opp, from, to);
    }
    *after = w;
    return true;
}

bool bg_token_play(const BgPosition *p, const char *token, BgPlay *out) {
    BgTurnText tt;
    BgBoard after;
    Error err;
    if (!bg_turn_parse(token, &tt, &err) || !bg_segments_apply(&p->b, p->turn, &tt, &after, &err))
        return false;
    BgPlayList l;
    bg_plays_init(&l);
    int n = bg_generate(&p->b, p->turn, p->dice[0], p->dice[1], &l);
    bool found = false;
    for (int i = 0; i < n && !found; i++)
        if (!memcmp(&l.v[i].after, &after, sizeof after)) {
            *out = l.v[i];
            found = true;
        }
    bg_plays_free(&l);
    return found;
}
