#include "engine/mill/perft.h"

#include "engine/mill/movegen.h"

#include <stdlib.h>

// Perft below p with one move buffer per ply taken from `buf`.
static uint64_t perft_rec(Position *p, int depth, Move *buf) {
    if (depth == 1)
        return movegen_count(p);
    int n = movegen_legal(p, buf);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        Undo u;
        pos_do_move(p, buf[i], &u);
        total += perft_rec(p, depth - 1, buf + n);
        pos_undo_move(p, buf[i], &u);
    }
    return total;
}

uint64_t perft(Position *p, int depth) {
    if (depth <= 0)
        return 1;
    Move *buf = malloc((size_t)depth * MAX_MOVES * sizeof *buf);
    if (!buf)
        abort();
    uint64_t total = perft_rec(p, depth, buf);
    free(buf);
    return total;
}
