#include "engine/backgammon/movegen.h"

#include <stdlib.h>
#include <string.h>

#define TABLE_MIN 4096

void bg_plays_init(BgPlayList *l) { memset(l, 0, sizeof *l); }

void bg_plays_free(BgPlayList *l) {
    free(l->v);
    free(l->slot);
    free(l->tag);
    memset(l, 0, sizeof *l);
}

int bg_destination(const uint8_t *me, const uint8_t *opp, int src, int d) {
    if (!me[src - 1] || (me[BG_BAR] && src != BG_BAR_POINT))
        return -1;
    int dst = src - d;
    if (dst >= 1)
        return opp[24 - dst] >= 2 ? -1 : dst;
    for (int i = 6; i < BG_SLOTS; i++) // bearing off needs every checker home
        if (me[i])
            return -1;
    if (dst == 0)
        return BG_OFF_POINT;
    for (int i = src; i < 6; i++) // a larger die bears off only from the highest point
        if (me[i])
            return -1;
    return BG_OFF_POINT;
}

bool bg_apply_step(uint8_t *me, uint8_t *opp, int src, int dst) {
    me[src - 1]--;
    if (dst == BG_OFF_POINT)
        return false;
    me[dst - 1]++;
    if (opp[24 - dst] == 1) {
        opp[24 - dst] = 0;
        opp[BG_BAR]++;
        return true;
    }
    return false;
}

static uint64_t board_hash(const BgBoard *b) {
    uint64_t h = 0x84222325CBF29CE4ULL;
    const uint8_t *p = &b->c[0][0];
    for (size_t i = 0; i < sizeof b->c; i++)
        h = (h ^ p[i]) * 0x100000001B3ULL;
    return h ^ (h >> 29);
}

// Make room for one more play and keep the table under half full; false when out of memory.
static bool reserve(BgPlayList *l) {
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 256;
        BgPlay *v = realloc(l->v, (size_t)cap * sizeof *v);
        if (!v)
            return false;
        l->v = v;
        l->cap = cap;
    }
    if (2 * (uint32_t)(l->n + 1) <= l->tsize)
        return true;
    uint32_t size = l->tsize ? 2 * l->tsize : TABLE_MIN;
    uint32_t *slot = malloc(size * sizeof *slot), *tag = calloc(size, sizeof *tag);
    if (!slot || !tag) {
        free(slot);
        free(tag);
        return false;
    }
    free(l->slot);
    free(l->tag);
    l->slot = slot;
    l->tag = tag;
    l->tsize = size;
    l->stamp = 1;
    for (int i = 0; i < l->n; i++) { // rehash
        uint32_t s = (uint32_t)board_hash(&l->v[i].after) & (size - 1);
        while (tag[s] == 1)
            s = (s + 1) & (size - 1);
        tag[s] = 1;
        slot[s] = (uint32_t)i + 1;
    }
    return true;
}

static void list_clear(BgPlayList *l) {
    l->n = 0;
    if (++l->stamp == 0) { // the stamp wrapped: clear for real
        if (l->tag)
            memset(l->tag, 0, l->tsize * sizeof *l->tag);
        l->stamp = 1;
    }
}

typedef struct Gen {
    BgBoard b;
    int side;
    int dice[4], ndice;
    bool dbl;
    uint8_t from[4], to[4];
    int best; // the score of the plays kept
    bool oom;
    BgPlayList *out;
} Gen;

// Add the current board as a play unless an equal board is already listed.
static void add_unique(Gen *g, int k) {
    BgPlayList *l = g->out;
    if (!reserve(l)) {
        g->oom = true;
        return;
    }
    uint32_t mask = l->tsize - 1, s = (uint32_t)board_hash(&g->b) & mask;
    for (; l->tag[s] == l->stamp; s = (s + 1) & mask)
        if (!memcmp(&l->v[l->slot[s] - 1].after, &g->b, sizeof g->b))
            return;
    BgPlay *p = &l->v[l->n++];
    p->after = g->b;
    p->n = (uint8_t)k;
    memcpy(p->from, g->from, sizeof p->from);
    memcpy(p->to, g->to, sizeof p->to);
    l->tag[s] = l->stamp;
    l->slot[s] = (uint32_t)l->n;
}

// A sequence of k sub-moves that can go no further.
static void leaf(Gen *g, int k) {
    int score = g->dbl ? 2 * k : k == 2 ? 4 : k == 1 ? 2 + (g->dice[0] > g->dice[1]) : 0;
    if (score < g->best)
        return;
    if (score > g->best) {
        g->best = score;
        list_clear(g->out);
    }
    if (k > 0)
        add_unique(g, k);
}

static void gen(Gen *g, int k, int maxsrc) {
    if (k == g->ndice || k >= 4) {
        leaf(g, k);
        return;
    }
    uint8_t *me = g->b.c[g->side], *opp = g->b.c[!g->side];
    int d = g->dice[k];
    bool any = false;
    int top = me[BG_BAR] ? BG_BAR_POINT : maxsrc;
    for (int src = top; src >= 1; src--) {
        int dst = bg_destination(me, opp, src, d);
        if (dst < 0)
            continue;
        any = true;
        uint8_t save_opp = dst > 0 ? opp[24 - dst] : 0;
        bool hit = bg_apply_step(me, opp, src, dst);
        g->from[k] = (uint8_t)src;
        g->to[k] = (uint8_t)dst;
        gen(g, k + 1, g->dbl ? src : BG_BAR_POINT);
        me[src - 1]++;
        if (dst > 0) {
            me[dst - 1]--;
            opp[24 - dst] = save_opp;
            if (hit)
                opp[BG_BAR]--;
        }
    }
    if (!any)
        leaf(g, k);
}

int bg_generate(const BgBoard *b, int side, int d1, int d2, BgPlayList *l) {
    Gen g = {.b = *b, .side = side, .out = l};
    list_clear(l);
    if (d1 == d2) {
        g.dbl = true;
        g.ndice = 4;
        g.dice[0] = g.dice[1] = g.dice[2] = g.dice[3] = d1;
        gen(&g, 0, BG_BAR_POINT);
    } else {
        g.ndice = 2;
        g.dice[0] = d1 > d2 ? d1 : d2;
        g.dice[1] = d1 > d2 ? d2 : d1;
        gen(&g, 0, BG_BAR_POINT);
        int t = g.dice[0];
        g.dice[0] = g.dice[1];
        g.dice[1] = t;
        gen(&g, 0, BG_BAR_POINT);
    }
    return g.oom ? -1 : l->n;
}
