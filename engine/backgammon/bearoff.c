#include "engine/backgammon/bearoff.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

static float dist[BG_BEAROFF_POSITIONS][BG_BEAROFF_ROLLS];
static float gdist[BG_BEAROFF_POSITIONS][BG_BEAROFF_GAMMON_ROLLS];
static float mean[BG_BEAROFF_POSITIONS], gmean[BG_BEAROFF_POSITIONS];
static pthread_once_t once = PTHREAD_ONCE_INIT, start_once = PTHREAD_ONCE_INIT;
static atomic_bool built; // build() has finished

// cum[j][s][a]: how many positions come before those with a checkers on point j + 1 among
// the positions that have s checkers or fewer on points j + 1..6 (the combinatorial rank).
static int cum[6][BG_CHECKERS + 1][BG_CHECKERS + 2];

// C(n, k) for the small numbers of the index.
static int choose(int n, int k) {
    if (k < 0 || k > n)
        return 0;
    long r = 1;
    for (int i = 1; i <= k; i++)
        r = r * (n - k + i) / i;
    return (int)r;
}

static void init_index(void) {
    for (int j = 0; j < 6; j++)
        for (int s = 0; s <= BG_CHECKERS; s++) {
            cum[j][s][0] = 0;
            for (int a = 1; a <= s + 1 && a <= BG_CHECKERS + 1; a++)
                cum[j][s][a] = cum[j][s][a - 1] + choose(s - (a - 1) + 5 - j, 5 - j);
        }
}

static int rank(const int *pts) {
    int idx = 0, s = BG_CHECKERS;
    for (int j = 0; j < 6; j++) {
        idx += cum[j][s][pts[j]];
        s -= pts[j];
    }
    return idx;
}

// The position reached by the best play (argmin of the table), written back into pts.
static void play_best(int *pts, const int *d, int nd, int from_max, const float *table, bool gammon,
                      int *best_pts, float *best) {
    int hi = 0;
    for (int j = 5; j >= 0 && !hi; j--)
        if (pts[j])
            hi = j + 1;
    int on = pts[0] + pts[1] + pts[2] + pts[3] + pts[4] + pts[5];
    if (nd == 0 || hi == 0 || (gammon && on < 15)) {
        float v = table[rank(pts)];
        if (v < *best) {
            *best = v;
            memcpy(best_pts, pts, 6 * sizeof *pts);
        }
        return;
    }
    int die = d[0];
    for (int src = (from_max < hi ? from_max : hi); src >= 1; src--) {
        if (!pts[src - 1])
            continue;
        int dst = src - die;
        if (dst < 0 && src != hi)
            continue;
        pts[src - 1]--;
        if (dst > 0)
            pts[dst - 1]++;
        play_best(pts, d + 1, nd - 1, nd > 1 && d[1] == die ? src : 6, table, gammon, best_pts,
                  best);
        if (dst > 0)
            pts[dst - 1]--;
        pts[src - 1]++;
    }
}

// Fill one table entry (the distribution of rolls to finish, or to take the first checker
// off) from the entries of the positions a roll leads to, which have fewer pips.
static void fill(const int *pts, bool gammon) {
    int idx = rank(pts);
    float *out = gammon ? gdist[idx] : dist[idx];
    float *m = gammon ? gmean : mean;
    int nb = gammon ? BG_BEAROFF_GAMMON_ROLLS : BG_BEAROFF_ROLLS;
    int on = pts[0] + pts[1] + pts[2] + pts[3] + pts[4] + pts[5];
    memset(out, 0, (size_t)nb * sizeof *out);
    if (on == 0 || (gammon && on < 15)) {
        out[0] = 1;
        m[idx] = 0;
        return;
    }
    double acc[BG_BEAROFF_ROLLS] = {0};
    for (int a = 1; a <= 6; a++)
        for (int b = 1; b <= a; b++) {
            double w = a == b ? 1.0 / 36 : 2.0 / 36;
            int d[4] = {a, b, a, a};
            int nd = a == b ? 4 : 2;
            int work[6], best_pts[6];
            float best = 1e30f;
            memcpy(work, pts, sizeof work);
            play_best(work, d, nd, 6, m, gammon, best_pts, &best);
            if (a != b) {
                int e[2] = {b, a};
                play_best(work, e, 2, 6, m, gammon, best_pts, &best);
            }
            const float *next = gammon ? gdist[rank(best_pts)] : dist[rank(best_pts)];
            for (int n = 0; n + 1 < nb; n++)
                acc[n + 1] += w * next[n];
            acc[nb - 1] += w * next[nb - 1]; // never reached in practice
        }
    double mu = 0;
    for (int n = 0; n < nb; n++) {
        out[n] = (float)acc[n];
        mu += n * acc[n];
    }
    m[idx] = (float)mu;
}

// Every position by increasing pip count, so that whatever a roll leads to is done first.
static void build(void) {
    init_index();
    static int order[BG_BEAROFF_POSITIONS][6];
    int n = 0;
    for (int pips = 0; pips <= 6 * BG_CHECKERS; pips++) {
        int p[6];
        for (p[0] = 0; p[0] <= 15; p[0]++)
            for (p[1] = 0; p[0] + p[1] <= 15; p[1]++)
                for (p[2] = 0; p[0] + p[1] + p[2] <= 15; p[2]++)
                    for (p[3] = 0; p[0] + p[1] + p[2] + p[3] <= 15; p[3]++)
                        for (p[4] = 0; p[0] + p[1] + p[2] + p[3] + p[4] <= 15; p[4]++) {
                            int rest = pips - (p[0] + 2 * p[1] + 3 * p[2] + 4 * p[3] + 5 * p[4]);
                            if (rest < 0 || rest % 6)
                                continue;
                            p[5] = rest / 6;
                            if (p[0] + p[1] + p[2] + p[3] + p[4] + p[5] > 15)
                                continue;
                            memcpy(order[n++], p, sizeof p);
                        }
    }
    for (int i = 0; i < n; i++) {
        const int *p = order[i];
        fill(p, false);
        if (p[0] + p[1] + p[2] + p[3] + p[4] + p[5] == BG_CHECKERS)
            fill(p, true);
        else
            gdist[rank(p)][0] = 1; // a checker is off already
    }
}

static void ensure(void) { pthread_once(&once, build); }

static void *build_thread(void *arg) {
    (void)arg;
    ensure();
    atomic_store(&built, true);
    return NULL;
}

// Start the build on a thread of its own (a failed start leaves the database unbuilt).
static void start_build(void) {
    pthread_attr_t attr;
    pthread_t t;
    if (pthread_attr_init(&attr) != 0)
        return;
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_create(&t, &attr, build_thread, NULL);
    pthread_attr_destroy(&attr);
}

bool bg_bearoff_ready(void) {
    if (atomic_load(&built))
        return true;
    pthread_once(&start_once, start_build);
    return false;
}

int bg_bearoff_index(const int *pts) {
    ensure();
    return rank(pts);
}

const float *bg_bearoff_dist(int index) {
    ensure();
    return dist[index];
}

const float *bg_bearoff_gammon_dist(int index) {
    ensure();
    return gdist[index];
}

bool bg_bearoff_applies(const BgBoard *b) {
    for (int s = 0; s < 2; s++)
        for (int i = 6; i < BG_SLOTS; i++)
            if (b->c[s][i])
                return false;
    return true;
}

void bg_bearoff_probs(const BgBoard *b, int side, BgProbs *out) {
    ensure(); // rank() below reads the index tables that the build fills
    int me[6], op[6];
    for (int j = 0; j < 6; j++) {
        me[j] = b->c[side][j];
        op[j] = b->c[!side][j];
    }
    int im = rank(me), io = rank(op);
    const float *dm = bg_bearoff_dist(im), *dop = bg_bearoff_dist(io);
    const float *gm = bg_bearoff_gammon_dist(im), *gop = bg_bearoff_gammon_dist(io);
    // P(opponent needs >= n rolls), for n = 0..; the same for its first checker off.
    double ge[BG_BEAROFF_ROLLS + 1], gge[BG_BEAROFF_GAMMON_ROLLS + 1];
    ge[BG_BEAROFF_ROLLS] = 0;
    for (int n = BG_BEAROFF_ROLLS - 1; n >= 0; n--)
        ge[n] = ge[n + 1] + dop[n];
    gge[BG_BEAROFF_GAMMON_ROLLS] = 0;
    for (int n = BG_BEAROFF_GAMMON_ROLLS - 1; n >= 0; n--)
        gge[n] = gge[n + 1] + gop[n];
    double win = 0, wg = 0, lg = 0;
    for (int n = 1; n < BG_BEAROFF_ROLLS; n++) {
        win += dm[n] * ge[n];
        if (n < BG_BEAROFF_GAMMON_ROLLS)
            wg += dm[n] * gge[n];
    }
    // The opponent wins a gammon when it finishes in n rolls while we, rolling first, need
    // more than n rolls to take our first checker off.
    double gme[BG_BEAROFF_GAMMON_ROLLS + 1];
    gme[BG_BEAROFF_GAMMON_ROLLS] = 0;
    for (int n = BG_BEAROFF_GAMMON_ROLLS - 1; n >= 0; n--)
        gme[n] = gme[n + 1] + gm[n];
    for (int n = 1; n + 1 < BG_BEAROFF_GAMMON_ROLLS; n++)
        lg += dop[n] * gme[n + 1];
    if (win > 1)
        win = 1;
    out->win = win;
    out->win_gammon = wg;
    out->win_backgammon = 0;
    out->lose_gammon = lg;
    out->lose_backgammon = 0;
}
