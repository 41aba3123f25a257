#include "engine/mill/perft.h"

#include "engine/mill/movegen.h"

#include <stdlib.h>

uint64_t perft(Position *p, int depth) {
    if (depth <= 0)
        return 1;
    if (depth == 1)
        return movegen_count(p);
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    if (!moves)
        abort();
    int n = movegen_legal(p, moves);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        Undo u;
        pos_do_move(p, moves[i], &u);
        total += perft(p, depth - 1);
        pos_undo_move(p, moves[i], &u);
    }
    free(moves);
    return total;
}
