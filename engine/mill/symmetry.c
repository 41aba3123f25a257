#include "engine/mill/symmetry.h"

#include <assert.h>
#include <stdbool.h>
#include <string.h>

typedef struct Search {
    const Board *b;
    bool adjacency;
    Symmetries *s;
    uint8_t perm[MAX_POINTS];
    Bits used;
} Search;

// True when the set of lines holds `line`.
static bool is_line(const Board *b, Bits line) {
    for (int i = 0; i < b->nlines; i++)
        if (b->lines[i] == line)
            return true;
    return false;
}

// Whether mapping point i to j agrees with the points 0..i-1 already mapped.
static bool consistent(const Search *c, int i, int j) {
    const Board *b = c->b;
    if (b->nlines_at[i] != b->nlines_at[j])
        return false;
    for (int k = 0; k < i; k++)
        if (c->adjacency && !!(b->adj[i] & BIT(k)) != !!(b->adj[j] & BIT(c->perm[k])))
            return false;
    // A line whose highest point is i is now mapped in full: its image must be a line.
    for (int l = 0; l < b->nlines; l++) {
        Bits line = b->lines[l];
        if (!(line & BIT(i)) || line >> i != 1)
            continue;
        Bits image = BIT(j);
        for (Bits m = line & ~BIT(i); m;)
            image |= BIT(c->perm[bits_pop(&m)]);
        if (!is_line(b, image))
            return false;
    }
    return true;
}

// Fill the byte tables of symmetry g from its permutation.
static void fill_maps(Symmetries *s, int g, int npoints) {
    for (int byte = 0; byte < 3; byte++)
        for (int x = 0; x < 256; x++) {
            Bits image = 0;
            for (int k = 0; k < 8; k++) {
                int p = byte * 8 + k;
                if (x & (1 << k) && p < npoints)
                    image |= BIT(s->perm[g][p]);
            }
            s->map[g][byte][x] = image;
        }
}

// Extend the partial permutation from point i on; record each complete one.
static void extend(Search *c, int i) {
    if (i == c->b->npoints) {
        assert(c->s->n < MAX_SYMMETRIES);
        memcpy(c->s->perm[c->s->n++], c->perm, sizeof c->perm);
        return;
    }
    for (int j = 0; j < c->b->npoints; j++) {
        if (c->used & BIT(j) || !consistent(c, i, j))
            continue;
        c->perm[i] = (uint8_t)j;
        c->used |= BIT(j);
        extend(c, i + 1);
        c->used &= ~BIT(j);
    }
}

void symmetry_init(Symmetries *s, const Board *b, bool ignore_adjacency) {
    Search c = {.b = b, .adjacency = !ignore_adjacency, .s = s};
    memset(s, 0, sizeof *s);
    extend(&c, 0); // the identity comes first: every point tries itself first
    assert(s->n >= 1);
    for (int p = 0; p < b->npoints; p++)
        assert(s->perm[0][p] == p);
    for (int g = 0; g < s->n; g++)
        fill_maps(s, g, b->npoints);
}

void symmetry_init_identity(Symmetries *s, const Board *b) {
    memset(s, 0, sizeof *s);
    s->n = 1;
    for (int p = 0; p < b->npoints; p++)
        s->perm[0][p] = (uint8_t)p;
    fill_maps(s, 0, b->npoints);
}
