// Perft over chance layers: each turn is one of the 21 rolls (counted once, not weighted),
// then one of the distinct legal plays; a roll with no legal play is one pass. The cube is
// ignored (a pending double counts as taken).
#include "engine/backgammon/game.h"
#include "engine/backgammon/movegen.h"
#include "engine/backgammon/notation.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct Perft {
    BgPlayList *lists; // one per remaining depth
    bool oom;
} Perft;

static uint64_t before_roll(Perft *pf, const BgBoard *b, int side, int depth);

// The count of a position whose side has rolled d1 d2.
static uint64_t rolled(Perft *pf, const BgBoard *b, int side, int d1, int d2, int depth) {
    BgPlayList *l = &pf->lists[depth];
    int n = bg_generate(b, side, d1, d2, l);
    if (n < 0) {
        pf->oom = true;
        return 0;
    }
    if (n == 0)
        return depth == 1 ? 1 : before_roll(pf, b, !side, depth - 1);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        const BgBoard *a = &l->v[i].after;
        if (bg_checkers(a, side) == 0)
            continue; // the game is over: no more turns
        total += before_roll(pf, a, !side, depth - 1);
    }
    return total;
}

static uint64_t before_roll(Perft *pf, const BgBoard *b, int side, int depth) {
    if (depth == 0)
        return 1;
    uint64_t total = 0;
    for (int d1 = 1; d1 <= 6; d1++)
        for (int d2 = 1; d2 <= d1; d2++)
            total += rolled(pf, b, side, d1, d2, depth);
    return total;
}

uint64_t bg_perft(const BgPosition *p, int depth,
                  void (*fn)(void *ctx, const char *move, uint64_t count), void *ctx) {
    if (depth <= 0)
        return 1;
    if (p->state != BG_PLAYING)
        return 0;
    Perft pf = {calloc((size_t)depth + 1, sizeof(BgPlayList)), false};
    if (!pf.lists)
        return 0;
    uint64_t total = 0;
    if (!p->dice[0]) {
        for (int d1 = 1; d1 <= 6; d1++)
            for (int d2 = 1; d2 <= d1; d2++) {
                uint64_t c = rolled(&pf, &p->b, p->turn, d1, d2, depth);
                total += c;
                if (fn) {
                    char roll[3] = {(char)('0' + d1), (char)('0' + d2), '\0'};
                    fn(ctx, roll, c);
                }
            }
    } else {
        BgPlayList root;
        bg_plays_init(&root);
        int n = bg_generate(&p->b, p->turn, p->dice[0], p->dice[1], &root);
        for (int i = 0; i < n; i++) {
            const BgBoard *a = &root.v[i].after;
            uint64_t c = depth == 1                     ? 1
                         : bg_checkers(a, p->turn) == 0 ? 0
                                                        : before_roll(&pf, a, !p->turn, depth - 1);
            total += c;
            if (fn) {
                char tok[BG_PLAY_TEXT_MAX];
                bg_play_token(&p->b, p->turn, p->dice[0], p->dice[1], &root.v[i], tok, sizeof tok);
                fn(ctx, tok, c);
            }
        }
        if (n == 0) {
            total = depth == 1 ? 1 : before_roll(&pf, &p->b, !p->turn, depth - 1);
            if (fn) {
                char tok[8];
                snprintf(tok, sizeof tok, "%d%d:-", p->dice[0], p->dice[1]);
                fn(ctx, tok, total);
            }
        }
        bg_plays_free(&root);
    }
    for (int i = 0; i <= depth; i++)
        bg_plays_free(&pf.lists[i]);
    free(pf.lists);
    return pf.oom ? 0 : total;
}
