#include "engine/mill/position.h"

#include "engine/core/parse.h"
#include "engine/core/random.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t pos_point_keys[2][MAX_POINTS];
uint64_t pos_hand_keys[2][HAND_KEYS];
uint64_t pos_hand_steps[2][HAND_KEYS];
uint64_t pos_side_key;
static pthread_once_t keys_once = PTHREAD_ONCE_INIT;

static void init_keys(void) {
    uint64_t seed = 0x7461627573ull; // fixed, so keys are the same on every run
    for (int c = 0; c < 2; c++)
        for (int p = 0; p < MAX_POINTS; p++)
            pos_point_keys[c][p] = random_next(&seed);
    for (int c = 0; c < 2; c++)
        for (int h = 0; h < HAND_KEYS; h++)
            pos_hand_keys[c][h] = random_next(&seed);
    for (int c = 0; c < 2; c++)
        for (int h = 1; h < HAND_KEYS; h++)
            pos_hand_steps[c][h] = pos_hand_keys[c][h] ^ pos_hand_keys[c][h - 1];
    pos_side_key = random_next(&seed);
}

uint64_t pos_compute_key(const Position *p) {
    uint64_t k = p->side == BLACK ? pos_side_key : 0;
    for (int c = 0; c < 2; c++) {
        for (Bits b = p->men[c]; b;)
            k ^= pos_point_keys[c][bits_pop(&b)];
        k ^= pos_hand_keys[c][p->hand[c]];
    }
    return k;
}

void pos_set_start(Position *p, const MillRules *rules) {
    pthread_once(&keys_once, init_keys);
    memset(p, 0, sizeof *p);
    p->rules = rules;
    p->hand[WHITE] = p->hand[BLACK] = rules->variant->men;
    p->fullmove = 1;
    p->key = pos_compute_key(p);
}

// Parse the ranks field into the two sides' men.
static bool parse_ranks(const Board *b, const char *variant, const char *s, Bits men[2],
                        Error *err) {
    int expect = b->nranks;
    int rank = 0, p = 0, in_rank = 0;
    men[WHITE] = men[BLACK] = 0;
    for (const char *c = s;; c++) {
        if (*c == '/' || *c == '\0') {
            if (in_rank != b->rank_points[rank])
                return error_set(err,
                                 "rank %d from the top holds %d points; the %s board has %d "
                                 "there",
                                 rank + 1, in_rank, variant, b->rank_points[rank]);
            rank++;
            in_rank = 0;
            if (*c == '\0')
                break;
            if (rank == expect)
                return error_set(err, "the position string has more than %d ranks for %s", expect,
                                 variant);
        } else if (*c == 'W' || *c == 'B') {
            if (in_rank >= b->rank_points[rank])
                return error_set(err, "rank %d from the top has too many points for %s", rank + 1,
                                 variant);
            men[*c == 'B'] |= BIT(p++);
            in_rank++;
        } else if (*c >= '1' && *c <= '9') {
            int n = *c - '0';
            if (in_rank + n > b->rank_points[rank])
                return error_set(err, "rank %d from the top has too many points for %s", rank + 1,
                                 variant);
            p += n;
            in_rank += n;
        } else {
            return error_set(err, "unexpected character '%c' in the ranks (W, B, 1-9 and /)",
                             isprint((unsigned char)*c) ? *c : '?');
        }
    }
    if (rank != expect)
        return error_set(err, "the position string has %d ranks; the %s board has %d", rank,
                         variant, expect);
    return true;
}

bool pos_set_fen(Position *p, const MillRules *rules, const char *fen, Error *err) {
    pthread_once(&keys_once, init_keys);
    const Variant *v = rules->variant;
    char buf[256];
    char *field[7];
    int nf = 0;
    if (strlen(fen) >= sizeof buf)
        return error_set(err, "the position string is too long");
    strcpy(buf, fen);
    for (char *save, *t = strtok_r(buf, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (nf == 6)
            return error_set(err, "unexpected '%.20s' after the position string", t);
        field[nf++] = t;
    }
    if (nf < 4)
        return error_set(err, "a position string needs at least <ranks> <side> <white in hand> "
                              "<black in hand>");

    Position q = {.rules = rules};
    if (!parse_ranks(rules->board, v->id, field[0], q.men, err))
        return false;
    if (strcmp(field[1], "w") && strcmp(field[1], "b"))
        return error_set(err, "side to move must be w or b, not '%.20s'", field[1]);
    q.side = field[1][0] == 'b' ? BLACK : WHITE;
    long long n;
    for (int c = 0; c < 2; c++) {
        if (!parse_integer(field[2 + c], 0, v->men, &n))
            return error_set(err, "%s men in hand must be a number from 0 to %d, not '%.20s'",
                             c ? "black" : "white", v->men, field[2 + c]);
        q.hand[c] = (int)n;
        int total = bits_count(q.men[c]) + q.hand[c];
        if (total > v->men)
            return error_set(err, "%s has %d men on the board and in hand; %s gives %d",
                             c ? "black" : "white", total, v->id, v->men);
    }
    q.fullmove = 1;
    if (nf > 4) {
        if (!parse_integer(field[4], 0, CLOCK_MAX, &n))
            return error_set(err,
                             "plies since placement or removal must be a number from 0 to %d, "
                             "not '%.20s'",
                             CLOCK_MAX, field[4]);
        q.quiet_plies = (int)n;
    }
    if (nf > 5) {
        if (!parse_integer(field[5], 1, CLOCK_MAX, &n))
            return error_set(err, "the move number must be a number from 1 to %d, not '%.20s'",
                             CLOCK_MAX, field[5]);
        q.fullmove = (int)n;
    }
    q.key = pos_compute_key(&q);
    *p = q;
    return true;
}

void pos_get_fen(const Position *p, char *buf, size_t n) {
    const Board *b = p->rules->board;
    char s[FEN_MAX];
    int len = 0, pt = 0;
    for (int r = 0; r < b->nranks; r++) {
        int empty = 0;
        if (r)
            s[len++] = '/';
        for (int i = 0; i < b->rank_points[r]; i++, pt++) {
            char c = p->men[WHITE] & BIT(pt) ? 'W' : p->men[BLACK] & BIT(pt) ? 'B' : 0;
            if (!c) {
                empty++;
                continue;
            }
            if (empty)
                s[len++] = (char)('0' + empty);
            empty = 0;
            s[len++] = c;
        }
        if (empty)
            s[len++] = (char)('0' + empty);
    }
    snprintf(s + len, sizeof s - (size_t)len, " %c %d %d %d %d", p->side ? 'b' : 'w',
             p->hand[WHITE], p->hand[BLACK], p->quiet_plies, p->fullmove);
    snprintf(buf, n, "%s", s);
}
