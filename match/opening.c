#include "match/opening.h"

#include "engine/core/random.h"
#include "engine/mill/game.h"
#include "engine/mill/movegen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct MoveBag {
    char (*moves)[MOVE_STR_MAX];
    int n;
} MoveBag;

static void collect(void *ctx, const char *move) {
    MoveBag *bag = ctx;
    if (bag->n < MAX_MOVES)
        snprintf(bag->moves[bag->n++], MOVE_STR_MAX, "%s", move);
}

int opening_random_on(Game *g, int plies, uint64_t *rng, char moves[][MOVE_STR_MAX],
                      char (*room)[MOVE_STR_MAX]) {
    const char *ptr[OPENING_MAX_PLIES];
    Error err;
    char reason[128];
    MILL_FAMILY.set_position(g, NULL, NULL, 0, &err);
    int n = 0;
    while (n < plies && n < OPENING_MAX_PLIES) {
        MoveBag bag = {room, 0};
        if (MILL_FAMILY.legal_moves(g, collect, &bag) == 0)
            break;
        snprintf(moves[n], MOVE_STR_MAX, "%s", bag.moves[random_next(rng) % (uint64_t)bag.n]);
        ptr[n] = moves[n];
        if (!MILL_FAMILY.set_position(g, NULL, ptr, n + 1, &err) ||
            MILL_FAMILY.result(g, reason, sizeof reason) != RESULT_NONE)
            break; // (the game object is left as it was, or ended: stop either way)
        n++;
    }
    return n;
}

int opening_random(const char *variant, int plies, uint64_t *rng,
                   char moves[OPENING_MAX_PLIES][MOVE_STR_MAX]) {
    Game *g = MILL_FAMILY.create(variant);
    char(*room)[MOVE_STR_MAX] = malloc(MAX_MOVES * sizeof *room);
    int n = g && room ? opening_random_on(g, plies, rng, moves, room) : 0;
    free(room);
    if (g)
        MILL_FAMILY.destroy(g);
    return n;
}

bool opening_parse_line(const char *line, Opening *o, Error *err) {
    memset(o, 0, sizeof *o);
    char copy[4096];
    if (strlen(line) >= sizeof copy)
        return error_set(err, "line too long");
    snprintf(copy, sizeof copy, "%s", line);
    char *save, *tok = strtok_r(copy, " \t\r\n", &save);
    if (tok && !strcmp(tok, "startpos")) {
        tok = strtok_r(NULL, " \t\r\n", &save);
    } else if (tok && (!strcmp(tok, "fen") || strchr(tok, '/'))) {
        if (!strcmp(tok, "fen"))
            tok = strtok_r(NULL, " \t\r\n", &save);
        size_t len = 0;
        for (int field = 0; field < 6; field++) { // the six fields of the position string
            if (!tok || !strcmp(tok, "moves"))
                return error_set(err, "position string with %d fields, expected 6", field);
            len +=
                (size_t)snprintf(o->fen + len, sizeof o->fen - len, "%s%s", field ? " " : "", tok);
            if (len >= sizeof o->fen)
                return error_set(err, "position string too long");
            tok = strtok_r(NULL, " \t\r\n", &save);
        }
        o->has_fen = true;
    }
    if (tok && !strcmp(tok, "moves"))
        tok = strtok_r(NULL, " \t\r\n", &save);
    for (; tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
        if (o->n == OPENING_MAX_PLIES)
            return error_set(err, "more than %d opening plies", OPENING_MAX_PLIES);
        if (strlen(tok) >= MOVE_STR_MAX)
            return error_set(err, "move '%.32s' too long", tok);
        snprintf(o->moves[o->n++], MOVE_STR_MAX, "%s", tok);
    }
    return true;
}
