#include "tools/bggames.h"

#include "engine/backgammon/eval.h"
#include "engine/backgammon/search.h"
#include "engine/core/random.h"
#include "tools/pubeval.h"

#include <math.h>
#include <string.h>

#define MAX_TURNS 2000

int bg_rng_die(uint64_t *s) { return (int)(random_next(s) % 6) + 1; }

int bg_game(BgChooser choose[2], void *ctx[2], int first, uint64_t *rng) {
    BgPosition p;
    bg_set_start(&p);
    BgBoard b = p.b;
    int side = first;
    BgPlayList l;
    bg_plays_init(&l);
    int d1, d2, points = 0;
    do {
        d1 = bg_rng_die(rng);
        d2 = bg_rng_die(rng);
    } while (d1 == d2);
    for (int turn = 0; turn < MAX_TURNS; turn++) {
        if (turn > 0) {
            d1 = bg_rng_die(rng);
            d2 = bg_rng_die(rng);
        }
        int n = bg_generate(&b, side, d1 > d2 ? d1 : d2, d1 > d2 ? d2 : d1, &l);
        if (n > 0) {
            int k = choose[side](ctx[side], &b, side, d1 > d2 ? d1 : d2, d1 > d2 ? d2 : d1, &l);
            b = l.v[k].after;
            if (bg_checkers(&b, side) == 0) {
                int kind = bg_win_kind(&b, side);
                points = side == 1 ? kind : -kind;
                break;
            }
        }
        side = !side;
    }
    bg_plays_free(&l);
    return points;
}

typedef struct NetPlayer {
    BgSearch s;
    int depth;
} NetPlayer;

static int choose_net(void *ctx, const BgBoard *b, int side, int d1, int d2, const BgPlayList *l) {
    (void)d1;
    (void)d2;
    NetPlayer *np = ctx;
    BgProbs best;
    return bg_best_play(&np->s, b, side, l, np->depth, &best);
}

static int choose_pubeval(void *ctx, const BgBoard *b, int side, int d1, int d2,
                          const BgPlayList *l) {
    (void)ctx;
    (void)d1;
    (void)d2;
    bool race = !bg_contact(b);
    int best = 0;
    double be = -1e300;
    for (int i = 0; i < l->n; i++) {
        double v = pubeval_score(&l->v[i].after, side, race);
        if (v > be) {
            be = v;
            best = i;
        }
    }
    return best;
}

double bg_match_pubeval(const BgNets *nets, int depth, int games, uint64_t seed, double *se) {
    NetPlayer np;
    bg_search_init(&np.s);
    np.s.nets = nets;
    np.depth = depth;
    double sum = 0, sum2 = 0;
    int pairs = 0;
    for (int g = 0; g + 1 < games; g += 2) {
        // The same dice twice, player 1 moving first: tabula as player 1, then as player 0,
        // so that each side gets the other's rolls. The error is that of the pairs' means.
        double pair = 0;
        for (int k = 0; k < 2; k++) {
            uint64_t rng = seed + (uint64_t)g * 0x51ED27ULL;
            BgChooser ch[2];
            void *cx[2];
            int tab = k == 0 ? 1 : 0;
            ch[tab] = choose_net;
            cx[tab] = &np;
            ch[!tab] = choose_pubeval;
            cx[!tab] = NULL;
            int pts = bg_game(ch, cx, 1, &rng);
            pair += (tab == 1 ? pts : -pts) / 2.0;
        }
        sum += pair;
        sum2 += pair * pair;
        pairs++;
    }
    bg_search_free(&np.s);
    if (pairs == 0) {
        *se = 0;
        return 0;
    }
    double mean = sum / pairs;
    double var = pairs > 1 ? (sum2 - pairs * mean * mean) / (pairs - 1) : 0;
    *se = sqrt(var / pairs);
    return mean;
}
