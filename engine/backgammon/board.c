#include "engine/backgammon/board.h"

#include <string.h>

// clang-format off
static const uint8_t START[BG_SLOTS] = {
    0, 0, 0, 0, 0, 5,  0, 3, 0, 0, 0, 0,
    5, 0, 0, 0, 0, 0,  0, 0, 0, 0, 0, 2,  0,
};
// clang-format on

void bg_set_start(BgPosition *p) {
    memset(p, 0, sizeof *p);
    memcpy(p->b.c[0], START, sizeof START);
    memcpy(p->b.c[1], START, sizeof START);
    p->turn = 1;
    p->cube = 1;
    p->owner = -1;
    p->jacoby = true;
    p->state = BG_PLAYING;
}

int bg_checkers(const BgBoard *b, int side) {
    int n = 0;
    for (int i = 0; i < BG_SLOTS; i++)
        n += b->c[side][i];
    return n;
}

int bg_pips(const BgBoard *b, int side) {
    int n = 0;
    for (int i = 0; i < BG_SLOTS; i++)
        n += b->c[side][i] * (i + 1);
    return n;
}

bool bg_board_valid(const BgBoard *b, const char **why) {
    for (int s = 0; s < 2; s++)
        if (bg_checkers(b, s) > BG_CHECKERS) {
            *why = "more than 15 checkers";
            return false;
        }
    for (int i = 0; i < BG_POINTS; i++)
        if (b->c[0][i] && b->c[1][BG_POINTS - 1 - i]) {
            *why = "a point holds checkers of both players";
            return false;
        }
    return true;
}

int bg_win_kind(const BgBoard *b, int winner) {
    int loser = !winner;
    if (bg_checkers(b, loser) < BG_CHECKERS)
        return 1;
    // The loser's points 19..24 are the winner's home board.
    for (int i = 18; i < BG_SLOTS; i++)
        if (b->c[loser][i])
            return 3;
    return 2;
}

void bg_finish(BgPosition *p, int winner) {
    int kind = bg_win_kind(&p->b, winner);
    if (p->length == 0 && p->jacoby && p->owner < 0)
        kind = 1;
    p->state = BG_OVER;
    p->winner = winner;
    p->points = kind * p->cube;
    p->dice[0] = p->dice[1] = 0;
    p->doubled = false;
}

// A splitmix64 step, to spread the key's inputs.
static uint64_t mix(uint64_t h, uint64_t v) {
    h += v + 0x9E3779B97F4A7C15ULL;
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ULL;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBULL;
    return h ^ (h >> 31);
}

bool bg_can_double(const BgPosition *p) {
    return p->state == BG_PLAYING && !p->doubled && !p->dice[0] &&
           (p->owner < 0 || p->owner == p->turn) && !p->crawford && p->cube < 4096;
}

uint64_t bg_key(const BgPosition *p) {
    uint64_t h = 0;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < BG_SLOTS; i += 8) {
            uint64_t w = 0;
            for (int k = 0; k < 8 && i + k < BG_SLOTS; k++)
                w |= (uint64_t)p->b.c[s][i + k] << (8 * k);
            h = mix(h, w);
        }
    uint64_t st = (uint64_t)p->turn | (uint64_t)p->dice[0] << 1 | (uint64_t)p->dice[1] << 4 |
                  (uint64_t)p->doubled << 7 | (uint64_t)(p->owner + 1) << 8 |
                  (uint64_t)p->crawford << 10 | (uint64_t)p->jacoby << 11 |
                  (uint64_t)p->state << 12 | (uint64_t)p->cube << 16;
    h = mix(h, st);
    h = mix(h, (uint64_t)p->length | (uint64_t)p->score[0] << 16 | (uint64_t)p->score[1] << 32);
    return h;
}
