// The engine's extras: perft, d, moves, eval, analyze, bench, quit.
#include "protocol/command.h"
#include "protocol/uci.h"

#include "engine/core/bench.h"
#include "engine/core/parse.h"

#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// The engine's extras

typedef struct DivideCtx {
    Output *out;
} DivideCtx;

static void divide_line(void *ctx, const char *move, uint64_t count) {
    output_line(((DivideCtx *)ctx)->out, "%s: %llu", move, (unsigned long long)count);
}

#define PERFT_MAX_DEPTH 64

void cmd_perft(Uci *u, const Tokens *t) {
    long long depth = 0;
    if (t->n != 2 || !parse_integer(t->v[1], 1, PERFT_MAX_DEPTH, &depth)) {
        reply_error(u, "usage: perft <depth>, depth from 1 to 64");
        return;
    }
    DivideCtx ctx = {u->out};
    uint64_t total = u->family->perft(u->game, (int)depth, divide_line, &ctx);
    output_line(u->out, "Nodes searched: %llu", (unsigned long long)total);
}

void cmd_d(Uci *u, const Tokens *t) {
    (void)t;
    char board[BOARD_TEXT_MAX], fen[128], reason[160];
    pthread_mutex_lock(&u->game_lock);
    u->family->render(u->game, board, sizeof board);
    u->family->get_position(u->game, fen, sizeof fen);
    u->family->result(u->game, reason, sizeof reason);
    uint64_t key = u->family->key(u->game);
    const char *variant = u->family->variant(u->game);
    pthread_mutex_unlock(&u->game_lock);
    output_text(u->out, board);
    output_line(u->out, "Variant: %s", variant);
    output_line(u->out, "Position: %s", fen);
    output_line(u->out, "Key: %016llX", (unsigned long long)key);
    output_line(u->out, "Result: %s", reason);
}

void cmd_moves(Uci *u, const Tokens *t) {
    (void)t;
    int n;
    char *list = moves_text(u, &n);
    output_line(u->out, "%s", n && list ? list : "(none)");
    free(list);
}

// eval: the family's evaluation text, one reply line per line.
void cmd_eval(Uci *u, const Tokens *t) {
    (void)t;
    char text[EVAL_TEXT_MAX];
    pthread_mutex_lock(&u->game_lock);
    u->family->eval(u->game, text, sizeof text);
    pthread_mutex_unlock(&u->game_lock);
    reply_lines(u, text);
}

// analyze: the exact value of the position and of every legal move from the endgame
// databases, or one info string line saying why the position is in none.
void cmd_analyze(Uci *u, const Tokens *t) {
    if (t->n > 1) {
        reply_error(u, "usage: analyze");
        return;
    }
    if (!(u->family->capabilities & GAME_CAN_ANALYZE)) {
        char msg[160];
        snprintf(msg, sizeof msg, "analyze: %s has no endgame databases",
                 u->family->variant(u->game));
        reply_error(u, msg);
        return;
    }
    char *text = malloc(ANALYZE_TEXT_MAX);
    if (!text) {
        reply_error(u, "out of memory");
        return;
    }
    pthread_mutex_lock(&u->game_lock);
    bool found = u->family->analyze(u->game, text, ANALYZE_TEXT_MAX);
    pthread_mutex_unlock(&u->game_lock);
    if (found)
        reply_lines(u, text);
    else
        output_line(u->out, "info string analyze: the position is not in the tablebase: %s", text);
    free(text);
}

static void bench_line(void *ctx, const char *line) { output_line(ctx, "%s", line); }

// bench [depth]: the bench of engine/core/bench.c, on games of its own.
void cmd_bench(Uci *u, const Tokens *t) {
    long long depth = BENCH_DEPTH_DEFAULT;
    if (t->n > 2 || (t->n == 2 && !parse_integer(t->v[1], 1, BENCH_DEPTH_MAX, &depth))) {
        reply_error(u, "usage: bench [depth], depth from 1 to 64");
        return;
    }
    bench_run((int)depth, bench_line, u->out);
}

void cmd_quit(Uci *u, const Tokens *t) {
    (void)t;
    uci_stop_search(u);
    u->quit = true;
}
