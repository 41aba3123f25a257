#include "engine/mill/notation.h"

#include "engine/mill/movegen.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void move_format(const Board *b, Move m, char *buf) {
    int from = move_from(m), to = move_to(m), len = 0;
    if (m == MOVE_NONE) {
        strcpy(buf, "(none)");
        return;
    }
    if (from != NO_POINT) {
        buf[len++] = b->name[from][0];
        buf[len++] = b->name[from][1];
        buf[len++] = '-';
    }
    buf[len++] = b->name[to][0];
    buf[len++] = b->name[to][1];
    for (int i = 0, r; i < MAX_REMOVALS && (r = move_removal(m, i)) >= 0; i++) {
        buf[len++] = 'x';
        buf[len++] = b->name[r][0];
        buf[len++] = b->name[r][1];
    }
    buf[len] = '\0';
}

// Read a point name at *s into *point; advance *s.
static bool read_point(const Board *b, const char **s, int *point, Error *err) {
    const char *c = *s;
    if (!isalpha((unsigned char)c[0]) || !isdigit((unsigned char)c[1]))
        return error_set(err, "expected a point such as d6 at '%.12s'", c);
    *point = board_point(b, c);
    if (*point < 0)
        return error_set(err, "%c%c is not a point of this board", c[0], c[1]);
    *s = c + 2;
    return true;
}

bool move_parse(const Position *p, const char *token, Move *out, Error *err) {
    const Board *b = p->rules->board;
    const char *s = token;
    int from = NO_POINT, to, removals[MAX_REMOVALS], nrem = 0;
    if (strlen(token) >= MOVE_STR_MAX)
        return error_set(err, "'%.24s...' is not a move", token);
    if (!read_point(b, &s, &to, err))
        return false;
    if (*s == '-') {
        s++;
        from = to;
        if (!read_point(b, &s, &to, err))
            return false;
    }
    while (*s == 'x') {
        s++;
        if (nrem == MAX_REMOVALS)
            return error_set(err, "%s: too many removals", token);
        if (!read_point(b, &s, &removals[nrem++], err))
            return false;
    }
    if (*s)
        return error_set(err, "'%s' is not a move (unexpected '%c')", token,
                         isprint((unsigned char)*s) ? *s : '?');

    Move want = move_make(from, to);
    for (int i = 0; i < nrem; i++)
        want = move_add_removal(want, removals[i]);
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    if (!moves)
        return error_set(err, "out of memory");
    int n = movegen_legal(p, moves);
    bool action_legal = false, action_removes = false;
    for (int i = 0; i < n; i++) {
        if (moves[i] == want) {
            free(moves);
            *out = want;
            return true;
        }
        if ((moves[i] & 1023) == (want & 1023)) {
            action_legal = true;
            action_removes |= move_removal(moves[i], 0) >= 0;
        }
    }
    free(moves);
    if (n == 0)
        return error_set(err, "%s: the game is over, there is no legal move", token);
    if (!action_legal)
        return error_set(err, "%s is not a legal move here", token);
    if (nrem && p->rules->variant->mill_wins)
        return error_set(err, "%s: in %s a mill wins the game and removes nothing", token,
                         p->rules->variant->id);
    if (action_removes && nrem == 0)
        return error_set(err, "%s closes a mill: name the man to remove, as in %sx<point>", token,
                         token);
    if (!action_removes)
        return error_set(err, "%s removes a man but closes no mill", token);
    return error_set(err,
                     "%s: illegal removal (a man in a mill is protected while the "
                     "opponent has men outside mills, and each mill removes one man)",
                     token);
}

void move_format_line(const Board *b, const Move *moves, int n, char *buf, size_t cap) {
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len + MOVE_STR_MAX + 1 < cap; i++) {
        char s[MOVE_STR_MAX];
        move_format(b, moves[i], s);
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? " " : "", s);
    }
}
