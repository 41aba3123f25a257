#include "tools/play.h"

#include "engine/core/clock.h"
#include "engine/core/random.h"
#include "engine/mill/movegen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void play_default_player(Player *pl) {
    pl->params = MILL_SEARCH_DEFAULTS;
    pl->weights = EVAL_WEIGHTS_DEFAULT;
}

double play_game(const char *variant, char opening[][MOVE_STR_MAX], int nopen, uint64_t nodes,
                 const Player *white, const Player *black, PositionFn fn, void *ctx) {
    Game *engine[2] = {MILL_FAMILY.create(variant), MILL_FAMILY.create(variant)};
    Game *ref = MILL_FAMILY.create(variant);
    char(*moves)[MOVE_STR_MAX] = calloc(MAX_GAME_PLIES + MAX_OPENING, MOVE_STR_MAX);
    const char **ptr = calloc(MAX_GAME_PLIES + MAX_OPENING, sizeof *ptr);
    int n = 0;
    for (; n < nopen; n++) {
        strcpy(moves[n], opening[n]);
        ptr[n] = moves[n];
    }
    double result = 0.5;
    Error err;
    if (!MILL_FAMILY.set_position(ref, NULL, ptr, n, &err)) {
        fprintf(stderr, "play: bad opening: %s\n", err.msg);
        exit(1);
    }
    for (;;) {
        char why[160];
        GameResult r = MILL_FAMILY.result(ref, why, sizeof why);
        if (r != RESULT_NONE || n >= MAX_GAME_PLIES) {
            result = r == RESULT_WHITE_WINS ? 1.0 : r == RESULT_BLACK_WINS ? 0.0 : 0.5;
            break;
        }
        int side = mill_game_of(ref)->pos.side;
        const Player *pl = side == WHITE ? white : black;
        if (fn)
            fn(ctx, &mill_game_of(ref)->pos);
        Game *e = engine[side];
        mill_game_set_search(e, &pl->params, &pl->weights);
        MILL_FAMILY.set_position(e, NULL, ptr, n, &err);
        SearchLimits lim = {.nodes = nodes,
                            .time = {-1, -1},
                            .threads = 1,
                            .multipv = 1,
                            .start_us = clock_now_us()};
        SearchHooks hooks = {0};
        SearchResult res;
        MILL_FAMILY.search(e, &lim, &hooks, &res);
        strcpy(moves[n], res.best);
        ptr[n] = moves[n];
        n++;
        if (!MILL_FAMILY.set_position(ref, NULL, ptr, n, &err)) {
            fprintf(stderr, "play: the engine played an illegal move %s: %s\n", res.best, err.msg);
            exit(1);
        }
    }
    MILL_FAMILY.destroy(engine[0]);
    MILL_FAMILY.destroy(engine[1]);
    MILL_FAMILY.destroy(ref);
    free(moves);
    free(ptr);
    return result;
}
