#include "engine/backgammon/net.h"

#include "engine/core/random.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "TBGN"
#define VERSION 3

// The weights file, embedded by weights.c.
extern const unsigned char bg_weights_data[];
extern const unsigned char bg_weights_end[];

// The rolls (of 36) on which the opponent can hit a blot of "me": c is my array, o the
// opponent's, both in their own numbering. In my numbering an opponent checker on its point r
// stands on my point 25 - r (its bar on my 0) and moves up; it may not land on a point I hold
// (two or more). A roll hits when one checker reaches a blot with one die, with both dice
// through an open point, or with a double in up to four steps through open points. While the
// opponent has checkers on the bar only those are considered (they must enter first).
static int shots_against(const uint8_t *c, const uint8_t *o) {
    uint32_t blot = 0, block = 0; // bit q: my point q (1..24)
    for (int q = 1; q <= BG_POINTS; q++) {
        if (c[q - 1] == 1)
            blot |= 1u << q;
        else if (c[q - 1] >= 2)
            block |= 1u << q;
    }
    if (!blot)
        return 0;
    int src[BG_SLOTS], ns = 0;
    if (o[BG_BAR])
        src[ns++] = 0;
    else
        for (int r = BG_POINTS; r >= 1; r--)
            if (o[r - 1] && 25 - r < 24)
                src[ns++] = 25 - r;
    int shots = 0;
    for (int a = 1; a <= 6; a++)
        for (int d = a; d <= 6; d++) {
            bool hit = false;
            for (int k = 0; k < ns && !hit; k++) {
                int p = src[k];
                if (a == d) {
                    for (int step = 1, at = p; step <= 4; step++) {
                        at += a;
                        if (at > BG_POINTS || (block >> at & 1))
                            break;
                        if (blot >> at & 1) {
                            hit = true;
                            break;
                        }
                    }
                } else {
                    int s = p + a + d;
                    hit = (p + a <= BG_POINTS && (blot >> (p + a) & 1)) ||
                          (p + d <= BG_POINTS && (blot >> (p + d) & 1)) ||
                          (s <= BG_POINTS && (blot >> s & 1) &&
                           (!(block >> (p + a) & 1) || !(block >> (p + d) & 1)));
                }
            }
            if (hit)
                shots += a == d ? 1 : 2;
        }
    return shots;
}

// The rolls (of 36) that move a checker of mine on point q its full number (the sum of the
// dice) without landing on a point the opponent holds (gnubg's escapes, doubles counted as two
// steps); 36 when nothing of the opponent's stands in its way. They depend only on which of
// the 12 points in front of q are held, so they come from a table over those 12 bits (bit j:
// the point 12 - j pips ahead), built once.
static uint8_t escape_table[1 << 12];
static pthread_once_t escape_once = PTHREAD_ONCE_INIT;

static void build_escapes(void) {
    for (int w = 0; w < 1 << 12; w++) {
        int n = 0;
        for (int a = 1; a <= 6; a++)
            for (int d = a; d <= 6; d++) {
                bool ba = w >> (12 - a) & 1, bd = w >> (12 - d) & 1;
                bool bs = w >> (12 - a - d) & 1;
                if (!bs && !(ba && bd))
                    n += a == d ? 1 : 2;
            }
        escape_table[w] = (uint8_t)n;
    }
}

// The points 1..24 (bits 1..24, in my numbering) that the opponent holds; o is its array.
static uint32_t held_against(const uint8_t *o) {
    uint32_t held = 0;
    for (int t = 1; t <= BG_POINTS; t++) // my point t is the opponent's 25 - t, index 24 - t
        if (o[24 - t] >= 2)
            held |= 1u << t;
    return held;
}

static int escapes_from(int q, uint32_t held) {
    uint32_t w = q >= 12 ? held >> (q - 12) : held << (12 - q);
    return escape_table[w & 0xFFF];
}

static int back_escapes(const uint8_t *c, uint32_t held) {
    int q = 0;
    for (int i = BG_SLOTS - 1; i >= 0 && !q; i--)
        if (c[i])
            q = i + 1; // the bar is 25
    return escapes_from(q, held);
}

// Containment: 36 less the escapes (as above) from the worst of my points 13 to 24 and the bar
// that hold a checker of mine; 0 when none does.
static int containment(const uint8_t *c, uint32_t held) {
    int worst = 36;
    bool any = false;
    for (int q = 13; q <= 25; q++)
        if (c[q - 1]) {
            int e = escapes_from(q, held);
            any = true;
            if (e < worst)
                worst = e;
        }
    return any ? 36 - worst : 0;
}

// The pips my checkers must travel to pass the opponent's rearmost checker (0 in a race).
static int break_contact(const uint8_t *c, const uint8_t *o) {
    int r = 0; // the opponent's rearmost checker, in its numbering (25 for its bar)
    for (int i = BG_SLOTS - 1; i >= 0 && !r; i--)
        if (o[i])
            r = i + 1;
    int edge = 25 - r, pips = 0; // my point of that checker
    for (int q = edge + 1; q <= 25; q++)
        pips += c[q - 1] * (q - edge);
    return pips;
}

// With checkers of mine on the bar, the rolls (of 36) on which none can enter: the opponent's
// home points held, squared.
static int enter_fails(const uint8_t *c, const uint8_t *o) {
    if (!c[BG_BAR])
        return 0;
    int closed = 0;
    for (int i = 0; i < 6; i++)
        closed += o[i] >= 2;
    return closed * closed;
}

// The longest run of consecutive points held (two or more checkers).
static int longest_prime(const uint8_t *c) {
    int best = 0, run = 0;
    for (int i = 0; i < BG_POINTS; i++) {
        run = c[i] >= 2 ? run + 1 : 0;
        if (run > best)
            best = run;
    }
    return best;
}

int bg_net_inputs(const BgBoard *b, int side, float *x, int *active) {
    pthread_once(&escape_once, build_escapes);
    memset(x, 0, BG_NET_INPUTS * sizeof *x);
    int na = 0;
    for (int s = 0; s < 2; s++) {
        const uint8_t *c = b->c[s ? !side : side];
        const uint8_t *o = b->c[s ? side : !side];
        uint32_t held = held_against(o);
        float *v = x + s * BG_NET_HALF;
        int base = s * BG_NET_HALF;
        int pips = 0, outside = 0, on = 0;
        for (int i = 0; i < BG_POINTS; i++) {
            int n = c[i];
            pips += n * (i + 1);
            on += n;
            if (i >= 6)
                outside += n;
            if (!n)
                continue;
            v[4 * i] = 1;
            active[na++] = base + 4 * i;
            if (n >= 2) {
                v[4 * i + 1] = 1;
                active[na++] = base + 4 * i + 1;
            }
            if (n >= 3) {
                v[4 * i + 2] = 1;
                active[na++] = base + 4 * i + 2;
            }
            if (n > 3) {
                v[4 * i + 3] = (n - 3) / 2.0f;
                active[na++] = base + 4 * i + 3;
            }
        }
        int bar = c[BG_BAR];
        pips += 25 * bar;
        on += bar;
        outside += bar;
        float tail[BG_NET_HALF - 96] = {bar / 2.0f,
                                        (BG_CHECKERS - on) / 15.0f,
                                        pips / 100.0f,
                                        outside / 15.0f,
                                        shots_against(c, o) / 36.0f,
                                        back_escapes(c, held) / 36.0f,
                                        longest_prime(c) / 6.0f,
                                        containment(c, held) / 36.0f,
                                        break_contact(c, o) / 152.0f,
                                        enter_fails(c, o) / 36.0f};
        for (int k = 0; k < BG_NET_HALF - 96; k++)
            if (tail[k] != 0) {
                v[96 + k] = tail[k];
                active[na++] = base + 96 + k;
            }
    }
    return na;
}

static inline float sigmoid(float z) {
    if (z > 40)
        return 1;
    if (z < -40)
        return 0;
    return 1 / (1 + expf(-z));
}

void bg_net_forward(const BgNet *n, const float *x, const int *active, int nactive, float *h,
                    float *out) {
    float sum[BG_NET_MAX_HIDDEN];
    int H = n->hidden;
    memcpy(sum, n->b1, (size_t)H * sizeof *sum);
    for (int a = 0; a < nactive; a++) {
        int i = active[a];
        float xi = x[i];
        const float *row = n->w1 + (size_t)i * H;
        if (xi == 1) {
            for (int j = 0; j < H; j++)
                sum[j] += row[j];
        } else {
            for (int j = 0; j < H; j++)
                sum[j] += row[j] * xi;
        }
    }
    float hid[BG_NET_MAX_HIDDEN];
    float *hh = h ? h : hid;
    for (int j = 0; j < H; j++)
        hh[j] = sigmoid(sum[j]);
    for (int k = 0; k < BG_NET_OUTPUTS; k++) {
        const float *w = n->w2 + (size_t)k * H;
        float z = n->b2[k];
        for (int j = 0; j < H; j++)
            z += w[j] * hh[j];
        out[k] = sigmoid(z);
    }
}

static size_t net_floats(int in, int hid) {
    return (size_t)in * hid + hid + (size_t)BG_NET_OUTPUTS * hid + BG_NET_OUTPUTS;
}

static int net_alloc(BgNet *n, int in, int hid) {
    if (hid < 1 || hid > BG_NET_MAX_HIDDEN || in != BG_NET_INPUTS)
        return -1;
    float *m = calloc(net_floats(in, hid), sizeof *m);
    if (!m)
        return -1;
    n->inputs = in;
    n->hidden = hid;
    n->w1 = m;
    n->b1 = m + (size_t)in * hid;
    n->w2 = n->b1 + hid;
    n->b2 = n->w2 + (size_t)BG_NET_OUTPUTS * hid;
    return 0;
}

// A uniform float in [-r, r].
static float uniform(uint64_t *s, float r) {
    return (float)((random_next(s) >> 11) * (1.0 / 9007199254740992.0) * 2 - 1) * r;
}

int bg_nets_init(BgNets *n, int hidden_contact, int hidden_race, uint64_t seed) {
    memset(n, 0, sizeof *n);
    int hid[2] = {hidden_contact, hidden_race};
    uint64_t s = seed;
    for (int k = 0; k < 2; k++) {
        if (net_alloc(&n->net[k], BG_NET_INPUTS, hid[k])) {
            bg_nets_free(n);
            return -1;
        }
        BgNet *t = &n->net[k];
        for (size_t i = 0; i < (size_t)t->inputs * t->hidden; i++)
            t->w1[i] = uniform(&s, 0.1f);
        for (int i = 0; i < BG_NET_OUTPUTS * t->hidden; i++)
            t->w2[i] = uniform(&s, 0.1f);
    }
    n->rng = seed;
    return 0;
}

int bg_net_widen(BgNet *n, int hidden, uint64_t seed) {
    int in = n->inputs, old = n->hidden;
    if (hidden < old)
        return -1;
    BgNet w;
    if (net_alloc(&w, in, hidden))
        return -1;
    uint64_t s = seed;
    for (int i = 0; i < in; i++)
        for (int j = 0; j < hidden; j++)
            w.w1[(size_t)i * hidden + j] = j < old ? n->w1[(size_t)i * old + j] : uniform(&s, 0.1f);
    memcpy(w.b1, n->b1, (size_t)old * sizeof *w.b1);
    for (int k = 0; k < BG_NET_OUTPUTS; k++)
        memcpy(w.w2 + k * hidden, n->w2 + k * old, (size_t)old * sizeof *w.w2);
    memcpy(w.b2, n->b2, BG_NET_OUTPUTS * sizeof *w.b2);
    free(n->w1);
    *n = w;
    return 0;
}

void bg_nets_free(BgNets *n) {
    for (int k = 0; k < 2; k++)
        free(n->net[k].w1);
    memset(n, 0, sizeof *n);
}

static uint32_t get32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const unsigned char *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }

int bg_nets_read(BgNets *n, const unsigned char *buf, size_t len) {
    memset(n, 0, sizeof *n);
    size_t at = 24;
    if (len < at || memcmp(buf, MAGIC, 4) || get32(buf + 4) != VERSION)
        return -1;
    n->games = get64(buf + 8);
    n->rng = get64(buf + 16);
    for (int k = 0; k < 2; k++) {
        if (len < at + 12)
            goto bad;
        uint32_t in = get32(buf + at), hid = get32(buf + at + 4), out = get32(buf + at + 8);
        at += 12;
        if (out != BG_NET_OUTPUTS || net_alloc(&n->net[k], (int)in, (int)hid))
            goto bad;
        size_t nf = net_floats((int)in, (int)hid);
        if (len < at + 4 * nf)
            goto bad;
        for (size_t i = 0; i < nf; i++) {
            uint32_t u = get32(buf + at + 4 * i);
            memcpy(&n->net[k].w1[i], &u, 4);
        }
        at += 4 * nf;
    }
    if (at != len)
        goto bad;
    return 0;
bad:
    bg_nets_free(n);
    return -1;
}

int bg_nets_load(BgNets *n, const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0, got;
    int rc = -1;
    do {
        if (len == cap) {
            unsigned char *nb = realloc(buf, cap = cap ? 2 * cap : 1 << 16);
            if (!nb)
                goto out;
            buf = nb;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    rc = bg_nets_read(n, buf, len);
out:
    free(buf);
    fclose(f);
    return rc;
}

static void put32(FILE *f, uint32_t v) {
    unsigned char b[4] = {v & 255, v >> 8 & 255, v >> 16 & 255, v >> 24};
    fwrite(b, 1, 4, f);
}

static void put64(FILE *f, uint64_t v) {
    put32(f, (uint32_t)v);
    put32(f, (uint32_t)(v >> 32));
}

int bg_nets_save(const BgNets *n, const char *path) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return -1;
    fwrite(MAGIC, 1, 4, f);
    put32(f, VERSION);
    put64(f, n->games);
    put64(f, n->rng);
    for (int k = 0; k < 2; k++) {
        const BgNet *t = &n->net[k];
        put32(f, (uint32_t)t->inputs);
        put32(f, (uint32_t)t->hidden);
        put32(f, BG_NET_OUTPUTS);
        size_t nf = net_floats(t->inputs, t->hidden);
        for (size_t i = 0; i < nf; i++) {
            uint32_t u;
            memcpy(&u, &t->w1[i], 4);
            put32(f, u);
        }
    }
    int bad = ferror(f);
    if (fclose(f) || bad || rename(tmp, path)) {
        remove(tmp);
        return -1;
    }
    return 0;
}

uint64_t bg_nets_checksum(const BgNets *n) {
    uint64_t h = 0xCBF29CE484222325ULL;
    for (int k = 0; k < 2; k++) {
        const BgNet *t = &n->net[k];
        const unsigned char *p = (const unsigned char *)t->w1;
        size_t len = 4 * net_floats(t->inputs, t->hidden);
        for (size_t i = 0; i < len; i++)
            h = (h ^ p[i]) * 0x100000001B3ULL;
    }
    return h;
}

static BgNets default_nets;
static pthread_once_t default_once = PTHREAD_ONCE_INIT;

static void load_default(void) {
    size_t len = (size_t)(bg_weights_end - bg_weights_data);
    if (bg_nets_read(&default_nets, bg_weights_data, len)) {
        // A broken embedded file is a build error; fall back to untrained nets rather than
        // crash, and say so on stderr (never stdout, which belongs to the protocol).
        fprintf(stderr, "tabula: the embedded backgammon weights are malformed\n");
        bg_nets_init(&default_nets, 8, 8, 1);
    }
}

const BgNets *bg_nets_default(void) {
    pthread_once(&default_once, load_default);
    return &default_nets;
}
