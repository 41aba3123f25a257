// The mill search.
//
// Iterative deepening (one function, its stop checks in one place) over an aspiration-window
// root search; below it a plain recursive principal variation search with:
//   - the transposition table (cutoffs at non-PV nodes, its move ordered first),
//   - draws by repetition (any repetition since the last placement or removal) and by the
//     N-move rule, mate-distance pruning,
//   - move ordering: hash move, mill closers (removals of threatening men first), moves that
//     block an opponent mill, two killers per ply, history,
//   - reverse futility pruning, late move pruning and logarithmic late move reductions,
//   - a quiescence search over mill-closing moves.
// With endgame databases (MillSearchRoot.tb), a position found in them is not searched: its exact
// value comes back as a mate score or a draw; at the root only the moves that keep the
// database value are searched.
// Lazy SMP: helper threads run the same iterative deepening on their own copies, sharing only
// the table; the main thread decides when to stop and which move to play.
#include "engine/mill/search.h"

#include "engine/core/clock.h"
#include "engine/core/compiler.h"
#include "engine/core/timeman.h"
#include "engine/mill/eval.h"
#include "engine/mill/movegen.h"
#include "engine/mill/notation.h"
#include "engine/mill/order.h"
#include "engine/mill/solve.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const MillSearchParams MILL_SEARCH_DEFAULTS = {
    .reverse_futility = true,
    .late_move_pruning = true,
    .reductions = true,
    .quiescence = true,
    .aspiration = true,
};

#define ARENA_MOVES (4 * MAX_MOVES)
#define QS_MAX_PLIES 8
#define MAX_ROOT_MOVES MAX_MOVES

typedef struct RootMove {
    Move move;
    int score, prev_score;
    Move pv[MAX_PLY];
    int pvlen;
    int seldepth;
} RootMove;

typedef struct Shared Shared;

typedef struct Worker {
    Shared *sh;
    const Tablebase *tb; // the game's endgame databases, or NULL (read at every node)
    TT tt;               // a copy of the shared table's handle, fixed for the search
    int id;
    Position stack[MAX_PLY + 2]; // the root, then the position at each ply of the path
    Position *pos;               // the current one
    uint64_t *keys; // game history then search path; keys[nkeys - 1] is the current position
    int nkeys;
    _Atomic uint64_t nodes;
    int seldepth;
    int root_depth;
    OrderHistory order;
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pvlen[MAX_PLY + 1];
    Move arena[ARENA_MOVES];
    OrderKey keys_arena[ARENA_MOVES];
    int arena_used;
    RootMove *root;
    int nroot, pv_idx;
    int completed_depth;
    // The switches and evaluation weights of the game searched, copied for the search.
    MillSearchParams params;
    EvalWeights weights;
} Worker;

struct Shared {
    const MillSearchRoot *game;
    TT *tt;
    const SearchLimits *lim;
    SearchHooks *hooks;
    TimeManager tm;
    // The main thread's own state (only it reads and writes these): its decision to stop, and
    // whether it finished depth 1, after which stops are honoured.
    bool abort, depth1_done;
    atomic_bool halt;        // depth 1 done and a stop decided or asked: all threads unwind
    _Atomic uint64_t tbhits; // endgame database probes that found the position
    int nthreads;
    Worker **workers;
};

// True when the search must unwind: one flag, tested after every move searched. Depth 1
// always completes first, so that the move played is at least the best at one ply.
static inline bool stopped(const Worker *w) {
    return atomic_load_explicit(&w->sh->halt, memory_order_relaxed);
}

// Raise the halt flag when depth 1 is done and the main thread decided to stop or the GUI
// asked (the main thread calls this every thousand nodes and after depth 1).
static void update_halt(Shared *sh) {
    if (sh->depth1_done && (sh->abort || atomic_load(&sh->hooks->stop)))
        atomic_store(&sh->halt, true);
}

static uint64_t total_nodes(const Shared *sh) {
    uint64_t n = 0;
    for (int i = 0; i < sh->nthreads; i++)
        n += atomic_load_explicit(&sh->workers[i]->nodes, memory_order_relaxed);
    return n;
}

// The main thread's limit checks, every thousand nodes (the test inline, the checks not).
static void check_limits_now(Worker *w) {
    Shared *sh = w->sh;
    if (tm_hard_stop(&sh->tm, sh->lim, sh->hooks) ||
        (sh->lim->nodes && total_nodes(sh) >= sh->lim->nodes))
        sh->abort = true;
    update_halt(sh);
}

static inline void check_limits(Worker *w) {
    if (!(atomic_load_explicit(&w->nodes, memory_order_relaxed) & 1023) && w->id == 0)
        check_limits_now(w);
}

// True when the current position repeats one since the last placement or removal. The same
// side was to move an even number of plies back, but two plies back the mover's man stood on
// another point: the first that can repeat is four plies back.
static bool is_repetition(const Worker *w) {
    int window = w->pos->quiet_plies;
    if (window < 4)
        return false;
    uint64_t key = w->keys[w->nkeys - 1];
    for (int i = w->nkeys - 5; i >= 0 && window >= 4; i -= 2, window -= 2)
        if (w->keys[i] == key)
            return true;
    return false;
}

// Copy and make: the child is a copy of the position with the move made, and unmaking is
// going back to the parent's copy. The child's table bucket is fetched by the caller, earlier.
static inline void make(Worker *w, Move m) {
    w->pos[1] = w->pos[0];
    w->pos++;
    pos_apply(w->pos, m, false);
    w->keys[w->nkeys++] = w->pos->key;
    // Only this thread writes its count, so a plain increment published relaxed suffices.
    atomic_store_explicit(&w->nodes, atomic_load_explicit(&w->nodes, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

static inline void unmake(Worker *w) {
    w->nkeys--;
    w->pos--;
}

// True when m indexes only points of the board and, placing, a man in hand: what
// pos_key_after needs.
static inline bool move_plausible(const Position *p, Move m) {
    int np = p->rules->board->npoints, from = move_from(m);
    if (move_to(m) >= np || (from == NO_POINT ? !p->hand[p->side] : from >= np))
        return false;
    for (int i = 0, r; i < MAX_REMOVALS && (r = move_removal(m, i)) >= 0; i++)
        if (r >= np)
            return false;
    return true;
}

// Start loading the table buckets of the children after moves[from, n), all at once: a node
// that does not cut off on its first move searches most of the others, and the loads then
// overlap instead of each waiting on its own. Only children of depth 1 or more probe the
// table, so only nodes of depth 2 or more call this. Always inline: GCC takes a function that
// only prefetches for one without effect, and drops its calls.
static ALWAYS_INLINE void prefetch_children(const Worker *w, const Move *moves, int from, int n) {
    KeyBase kb = pos_key_base(w->pos);
    for (int j = from; j < n; j++)
        tt_prefetch(&w->tt, pos_key_step(kb, moves[j]));
}

#define RFP_MARGIN 70

// Late move reductions by depth and move number: grow with the logarithm of both.
static int reductions[64][64];
static pthread_once_t reductions_once = PTHREAD_ONCE_INIT;

static void init_reductions(void) {
    for (int d = 1; d < 64; d++)
        for (int i = 1; i < 64; i++)
            reductions[d][i] = (int)(0.5 + log(d) * log(i) / 2.0);
}

// The value of a finished or drawn position, or SCORE_NONE when play goes on.
static inline int terminal_score(const Worker *w, int ply) {
    const Position *p = w->pos;
    switch (pos_outcome_of(p, ply > 0)) {
    case OUTCOME_LOSS:
        return -(SCORE_MATE - ply);
    case OUTCOME_WIN:
        return SCORE_MATE - ply;
    case OUTCOME_DRAW:
        return SCORE_DRAW;
    case OUTCOME_NONE:
        break;
    }
    const MillRules *r = p->rules;
    if (ply > 0 && r->nmove_rule && p->quiet_plies >= r->nmove_rule)
        return SCORE_DRAW;
    if (ply > 0 && r->repetition && is_repetition(w))
        return SCORE_DRAW;
    return SCORE_NONE;
}

// The exact value of the position from the endgame databases as a score (a mate distance
// for a win or loss, capped at MAX_PLY - 1 plies from the root), or SCORE_NONE when it is in
// none. An N-move draw already due is left to terminal_score; the databases ignore the rule.
static inline int tb_score(Worker *w, int ply) {
    const Tablebase *tb = w->tb;
    const Position *p = w->pos;
    int value, distance;
    if (!tb || (p->rules->nmove_rule && p->quiet_plies >= p->rules->nmove_rule) ||
        !tb_probe(tb, p, &value, &distance))
        return SCORE_NONE;
    atomic_fetch_add_explicit(&w->sh->tbhits, 1, memory_order_relaxed);
    int d = ply + distance < MAX_PLY - 1 ? ply + distance : MAX_PLY - 1;
    return value == SOLVE_WIN    ? SCORE_MATE - d
           : value == SOLVE_LOSS ? -(SCORE_MATE - d)
                                 : SCORE_DRAW;
}

// A node's bookkeeping (limits, selective depth), then its value when the game is over or
// drawn, else SCORE_NONE.
static inline int enter_node(Worker *w, int ply) {
    check_limits(w);
    if (ply > w->seldepth)
        w->seldepth = ply;
    return terminal_score(w, ply);
}

// Quiescence: the static evaluation, or better through mill-closing moves.
static int qsearch(Worker *w, int alpha, int beta, int ply, int qply) {
    int t = enter_node(w, ply);
    if (t != SCORE_NONE)
        return t;
    int stand = eval_position(w->pos, &w->weights);
    if (stand >= beta || ply >= MAX_PLY - 1 || qply >= QS_MAX_PLIES || !w->params.quiescence)
        return stand;
    if (stand > alpha)
        alpha = stand;
    if (w->arena_used + MAX_MOVES > ARENA_MOVES)
        return stand;
    Move *moves = w->arena + w->arena_used;
    OrderKey *keys = w->keys_arena + w->arena_used;
    int n = movegen_closing_ongoing(w->pos, moves);
    if (n == 0)
        return stand;
    w->arena_used += n;
    order_score_moves(&w->order, w->pos, moves, keys, 0, n, ply);
    int best = stand;
    for (int i = 0; i < n; i++) {
        order_pick(moves, keys, i, n);
        make(w, moves[i]);
        int score = -qsearch(w, -beta, -alpha, ply + 1, qply + 1);
        unmake(w);
        if (stopped(w))
            break;
        if (score > best) {
            best = score;
            if (score > alpha)
                alpha = score;
            if (score >= beta)
                break;
        }
    }
    w->arena_used -= n;
    return best;
}

// Scalar: order_take_best's loads follow order_score_moves' stores of the same keys
// (compiler.h).
NO_VECTORIZE static int search(Worker *w, int alpha, int beta, int depth, int ply, bool pv_node) {
    w->pvlen[ply] = 0;
    int tb = tb_score(w, ply);
    if (tb != SCORE_NONE)
        return tb;
    if (depth <= 0)
        return qsearch(w, alpha, beta, ply, 0);
    int t = enter_node(w, ply);
    if (t != SCORE_NONE)
        return t;
    if (stopped(w) || ply >= MAX_PLY - 1)
        return eval_position(w->pos, &w->weights);

    // Mate-distance pruning.
    int lo = -(SCORE_MATE - ply), hi = SCORE_MATE - ply - 1;
    if (alpha < lo)
        alpha = lo;
    if (beta > hi)
        beta = hi;
    if (alpha >= beta)
        return alpha;

    TTEntry e;
    Move tt_move = MOVE_NONE;
    uint64_t key = w->pos->key;
    bool tt_hit = tt_probe(&w->tt, key, &e);
    if (tt_hit) {
        tt_move = e.move;
        int s = tt_score_from(e.score, ply), bound = e.bound;
        if (!pv_node && e.depth >= depth &&
            (bound == BOUND_EXACT || (bound == BOUND_LOWER && s >= beta) ||
             (bound == BOUND_UPPER && s <= alpha)))
            return s;
    }
    const MillSearchParams *sp = &w->params;
    // The static evaluation is needed only near the leaves, for reverse futility.
    int static_eval = SCORE_NONE;
    if (sp->reverse_futility && !pv_node && depth <= 4) {
        static_eval = tt_hit && e.eval != SCORE_NONE ? e.eval : eval_position(w->pos, &w->weights);
        // Far enough above beta near the leaves, the opponent cannot come back.
        if (abs(beta) < SCORE_MATE_IN_MAX && static_eval - RFP_MARGIN * depth >= beta)
            return static_eval - RFP_MARGIN * depth;
    }

    // The hash move goes first: fetch its child's bucket while its legality is checked (a
    // move of another position, from a key collision, must not index outside the key tables;
    // if it is not legal here, the fetch is only wasted). At depth 1 the child is a quiescence
    // node, which does not probe.
    if (depth >= 2 && tt_move && move_plausible(w->pos, tt_move))
        tt_prefetch(&w->tt, pos_key_after(w->pos, tt_move));
    if (w->arena_used + MAX_MOVES > ARENA_MOVES)
        return eval_position(w->pos, &w->weights);
    Move *moves = w->arena + w->arena_used;
    OrderKey *keys = w->keys_arena + w->arena_used;
    // A legal hash move is searched before the moves are generated (if it cuts off, they never
    // are); then it goes first in the list and the others are scored. Without one, the moves
    // are generated and scored at once, and the best-scored goes first by exchange with the
    // first in the list, which takes its place in the order of the rest.
    int first = tt_move && movegen_is_legal(w->pos, tt_move), n = 0, used;
    // The current move's list place and score, as plain integers (read out of vector lanes
    // late, such values were spilled and reloaded at a width the store could not forward).
    int cur_pos = 0, cur_score = 1 << 30;
    uint64_t live = 0; // the moves not yet taken, once the list is scored (order_mark_taken)
    if (first) {
        moves[0] = tt_move;
        n = 2; // at least; the others are counted when they are generated
        used = 1;
    } else {
        n = movegen_legal_ongoing(w->pos, moves);
        if (n == 0)
            return -(SCORE_MATE - ply);
        if (depth >= 2)
            prefetch_children(w, moves, 0, n);
        used = n;
        OrderKey k = order_score_moves(&w->order, w->pos, moves, keys, 0, n, ply);
        int b = order_key_pos(k);
        Move m = moves[0];
        moves[0] = moves[b];
        moves[b] = m;
        if (b)
            keys[b] = order_key(order_key_score(keys[0]), b);
        cur_score = order_key_score(k);
        live = order_live_all(n);
        order_mark_taken(keys, &live, n, 0);
    }
    w->arena_used += used;

    int best = -SCORE_INFINITE, alpha0 = alpha;
    // Late move pruning's place in the list: near the leaves, quiet moves from there on are
    // skipped (MAX_MOVES where it does not apply: no list is that long).
    int lmp_from =
        sp->late_move_pruning && !pv_node && depth <= 3 ? 3 + depth * depth * 2 : MAX_MOVES;
    Move best_move = MOVE_NONE;
    Move quiets[64];
    int nquiets = 0;
    for (int i = 0; i < n; i++) {
        if (i == 1 && first) {
            // The hash move did not cut off: now the rest.
            n = movegen_legal_ongoing(w->pos, moves);
            w->arena_used += n - used;
            used = n;
            for (int j = 0; j < n; j++)
                if (moves[j] == tt_move) {
                    moves[j] = moves[0];
                    moves[0] = tt_move;
                    break;
                }
            if (n == 1)
                break;
            if (depth >= 2)
                prefetch_children(w, moves, 1, n);
            OrderKey k = order_score_moves(&w->order, w->pos, moves, keys, 1, n, ply);
            live = order_live_all(n);
            order_mark_taken(keys, &live, n, 0);
            order_mark_taken(keys, &live, n, order_key_pos(k));
            cur_pos = order_key_pos(k);
            cur_score = order_key_score(k);
        } else if (i > 0) {
            OrderKey k = order_take_best(keys, n, &live);
            cur_pos = order_key_pos(k);
            cur_score = order_key_score(k);
        }
        Move m = moves[cur_pos];
        // Every move with a removal scores above the killers, and the hash move (1 << 30)
        // counts as not quiet, so the score alone tells.
        bool quiet = cur_score < SCORE_KILLER0;
        // Late move pruning: near the leaves, quiet moves far down the list are skipped. The
        // moves after a quiet one score lower, so are quiet too (removals score higher) and
        // are all skipped: stop here.
        if (i >= lmp_from && quiet && best > -SCORE_MATE_IN_MAX)
            break;
        make(w, m);
        int score;
        if (i == 0) {
            score = -search(w, -beta, -alpha, depth - 1, ply + 1, pv_node);
        } else {
            int r = 0;
            if (sp->reductions && depth >= 3 && i >= 2 && quiet) {
                r = reductions[depth < 64 ? depth : 63][i < 64 ? i : 63];
                r -= pv_node;
                if (r < 0)
                    r = 0;
                if (r > depth - 2)
                    r = depth - 2;
            }
            score = -search(w, -alpha - 1, -alpha, depth - 1 - r, ply + 1, false);
            if (score > alpha && r)
                score = -search(w, -alpha - 1, -alpha, depth - 1, ply + 1, false);
            if (score > alpha && score < beta && pv_node)
                score = -search(w, -beta, -alpha, depth - 1, ply + 1, true);
        }
        unmake(w);
        if (stopped(w)) {
            w->arena_used -= used;
            return best > -SCORE_INFINITE ? best : 0;
        }
        if (score > best) {
            best = score;
            best_move = m;
            if (score > alpha) {
                alpha = score;
                // Only a PV node's line is read: a zero-window node raises alpha only to cut
                // off, and its parent, which then does not raise its own, never copies it.
                if (pv_node) {
                    w->pv[ply][0] = m;
                    memcpy(w->pv[ply] + 1, w->pv[ply + 1],
                           (size_t)w->pvlen[ply + 1] * sizeof(Move));
                    w->pvlen[ply] = w->pvlen[ply + 1] + 1;
                }
                if (score >= beta) {
                    if (quiet)
                        order_update_quiet(&w->order, w->pos->side, m, depth, ply, quiets, nquiets);
                    break;
                }
            }
        }
        if (quiet && nquiets < 64)
            quiets[nquiets++] = m;
    }
    w->arena_used -= used;
    if (best == -SCORE_INFINITE) // every move was pruned
        return alpha;
    int bound = best >= beta ? BOUND_LOWER : best > alpha0 ? BOUND_EXACT : BOUND_UPPER;
    tt_store(&w->tt, key, best_move, tt_score_to(best, ply), static_eval, depth, bound);
    return best;
}

// Search the root moves from pv_idx on within (alpha, beta); sort them best first.
static int search_root(Worker *w, int alpha, int beta, int depth) {
    int best = -SCORE_INFINITE;
    w->pvlen[0] = 0;
    for (int i = w->pv_idx; i < w->nroot; i++) {
        RootMove *rm = &w->root[i];
        w->seldepth = 0;
        tt_prefetch(&w->tt, pos_key_after(w->pos, rm->move));
        make(w, rm->move);
        int score;
        if (i == w->pv_idx) {
            score = -search(w, -beta, -alpha, depth - 1, 1, true);
        } else {
            score = -search(w, -alpha - 1, -alpha, depth - 1, 1, false);
            if (score > alpha && score < beta)
                score = -search(w, -beta, -alpha, depth - 1, 1, true);
        }
        unmake(w);
        if (stopped(w))
            break;
        if (i == w->pv_idx || score > alpha) {
            rm->score = score;
            rm->seldepth = w->seldepth;
            rm->pv[0] = rm->move;
            memcpy(rm->pv + 1, w->pv[1], (size_t)w->pvlen[1] * sizeof(Move));
            rm->pvlen = w->pvlen[1] + 1;
        } else {
            rm->score = -SCORE_INFINITE;
        }
        if (score > best)
            best = score;
        if (score > alpha) {
            alpha = score;
            // Keep the new best at the front of the searched range at once, so that a stop
            // in the middle of the iteration still plays it.
            RootMove tmp = *rm;
            memmove(&w->root[w->pv_idx + 1], &w->root[w->pv_idx],
                    (size_t)(i - w->pv_idx) * sizeof(RootMove));
            w->root[w->pv_idx] = tmp;
            if (score >= beta)
                break;
        }
    }
    return best;
}

// Aspiration windows around the previous score, widened on failure.
static int aspiration(Worker *w, int depth, int prev) {
    int delta = 40;
    int alpha = -SCORE_INFINITE, beta = SCORE_INFINITE;
    if (w->params.aspiration && depth >= 4 && abs(prev) < SCORE_MATE_IN_MAX) {
        alpha = prev - delta;
        beta = prev + delta;
    }
    for (;;) {
        int score = search_root(w, alpha, beta, depth);
        if (stopped(w))
            return score;
        if (score <= alpha) {
            alpha = alpha - delta < -SCORE_INFINITE ? -SCORE_INFINITE : alpha - delta;
            beta = (alpha + beta) / 2 > score + 1 ? (alpha + beta) / 2 : score + 1;
        } else if (score >= beta) {
            beta = beta + delta > SCORE_INFINITE ? SCORE_INFINITE : beta + delta;
        } else {
            return score;
        }
        delta += delta / 2;
        if (delta > 1000) {
            alpha = -SCORE_INFINITE;
            beta = SCORE_INFINITE;
        }
    }
}

// Win/draw/loss per mille for a score: a logistic model of the score.
static void score_wdl(int score, int wdl[3]) {
    if (score >= SCORE_MATE_IN_MAX || score <= -SCORE_MATE_IN_MAX) {
        wdl[0] = score > 0 ? 1000 : 0;
        wdl[1] = 0;
        wdl[2] = score > 0 ? 0 : 1000;
        return;
    }
    double win = 1000.0 / (1.0 + exp((200.0 - score) / 60.0));
    double loss = 1000.0 / (1.0 + exp((200.0 + score) / 60.0));
    wdl[0] = (int)lround(win);
    wdl[2] = (int)lround(loss);
    wdl[1] = 1000 - wdl[0] - wdl[2];
}

static void report(Worker *w, int depth, int k) {
    Shared *sh = w->sh;
    if (!sh->hooks->report)
        return;
    const RootMove *rm = &w->root[k];
    SearchReport r = {0};
    r.depth = depth;
    r.seldepth = rm->seldepth > depth ? rm->seldepth : depth;
    r.multipv = k + 1;
    r.score = rm->score;
    if (sh->lim->show_wdl)
        score_wdl(rm->score, r.wdl);
    r.nodes = total_nodes(sh);
    r.tbhits = atomic_load_explicit(&sh->tbhits, memory_order_relaxed);
    r.time_ms = (clock_now_us() - sh->lim->start_us) / 1000;
    r.hashfull = tt_hashfull(sh->tt);
    move_format_line(w->pos->rules->board, rm->pv, rm->pvlen, r.pv, sizeof r.pv);
    sh->hooks->report(sh->hooks->ctx, &r);
}

// Stable sort of root moves [from, n) by score, best first.
static void sort_root(RootMove *root, int from, int n) {
    for (int i = from + 1; i < n; i++) {
        RootMove tmp = root[i];
        int j = i;
        while (j > from && root[j - 1].score < tmp.score) {
            root[j] = root[j - 1];
            j--;
        }
        root[j] = tmp;
    }
}

// Iterative deepening of one worker; the main worker also reports and decides to stop.
static void iterate(Worker *w) {
    Shared *sh = w->sh;
    const SearchLimits *lim = sh->lim;
    int max_depth = lim->depth > 0 && lim->depth < MAX_PLY - 1 ? lim->depth : MAX_PLY - 2;
    if (lim->mate > 0 && 2 * lim->mate - 1 < max_depth && !lim->depth)
        max_depth = 2 * lim->mate - 1 > 0 ? 2 * lim->mate - 1 : 1;
    int multipv = lim->multipv < 1 ? 1 : lim->multipv;
    if (multipv > w->nroot)
        multipv = w->nroot;
    Move last_best = MOVE_NONE;
    int stable = 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        // Helpers skip some depths so that the threads spread over the tree.
        if (w->id > 0 && depth > 1 && (depth + w->id) % 3 == 0)
            continue;
        w->root_depth = depth;
        for (int i = 0; i < w->nroot; i++)
            w->root[i].prev_score = w->root[i].score;
        for (w->pv_idx = 0; w->pv_idx < multipv && !stopped(w); w->pv_idx++) {
            aspiration(w, depth, w->root[w->pv_idx].prev_score);
            if (stopped(w))
                break;
            sort_root(w->root, w->pv_idx, w->nroot);
        }
        if (stopped(w))
            break;
        w->completed_depth = depth;
        if (w->id != 0)
            continue;
        sh->depth1_done = true;
        update_halt(sh);
        for (int k = 0; k < multipv; k++)
            report(w, depth, k);
        int score = w->root[0].score;
        if (lim->mate > 0 && score >= SCORE_MATE_IN_MAX && score_mate_moves(score) <= lim->mate)
            break;
        stable = w->root[0].move == last_best ? stable + 1 : 0;
        last_best = w->root[0].move;
        double scale = stable == 0 ? 1.8 : stable == 1 ? 1.2 : stable < 4 ? 0.9 : 0.6;
        if (tm_soft_stop(&sh->tm, lim, sh->hooks, scale))
            break;
        // A single legal move needs no deep search when time is limited.
        if (w->nroot == 1 && sh->tm.soft_us != INT64_MAX && depth >= 4)
            break;
    }
}

static void *helper_main(void *arg) {
    iterate(arg);
    return NULL;
}

static Worker *worker_new(Shared *sh, int id, const Position *root_pos, const RootMove *root,
                          int nroot) {
    Worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    const MillSearchRoot *g = sh->game;
    w->sh = sh;
    w->tb = g->tb;
    w->params = *g->params;
    w->weights = *g->weights;
    w->tt = *sh->tt;
    w->id = id;
    w->stack[0] = *root_pos;
    w->pos = w->stack;
    w->keys = malloc((size_t)(g->nkeys + MAX_PLY + 8) * sizeof *w->keys);
    w->root = malloc((size_t)nroot * sizeof *w->root);
    if (!w->keys || !w->root) {
        free(w->keys);
        free(w->root);
        free(w);
        return NULL;
    }
    memcpy(w->keys, g->keys, (size_t)g->nkeys * sizeof *w->keys);
    w->nkeys = g->nkeys;
    memcpy(w->root, root, (size_t)nroot * sizeof *root);
    w->nroot = nroot;
    return w;
}

static void worker_free(Worker *w) {
    if (w) {
        free(w->keys);
        free(w->root);
    }
    free(w);
}

// Keep the root moves named in searchmoves (all when none is legal).
static int filter_searchmoves(const Position *p, const SearchLimits *lim, RootMove *root, int n) {
    if (lim->nsearchmoves <= 0)
        return n;
    int k = 0;
    for (int i = 0; i < n; i++) {
        bool keep = false;
        for (int j = 0; j < lim->nsearchmoves && !keep; j++) {
            Move m;
            keep = move_parse(p, lim->searchmoves[j], &m, NULL) && m == root[i].move;
        }
        if (keep)
            root[k++] = root[i];
    }
    return k ? k : n;
}

// The mill games' tuning of the time manager: games are short (30 moves to go), the soft
// limit at most a fifth of the clock, the hard one at most five soft limits.
static const TimeParams MILL_TIME = {.moves_to_go = 30,
                                     .inc_percent = 75,
                                     .soft_max_percent = 20,
                                     .hard_over_soft = 5,
                                     .hard_divisor = 3,
                                     .reserve_percent = 70};

void mill_search(const MillSearchRoot *g, TT *tt, const SearchLimits *lim, SearchHooks *hooks,
                 SearchResult *out) {
    const Board *b = g->pos->rules->board;
    strcpy(out->best, "(none)");
    out->ponder[0] = '\0';
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    RootMove *root = malloc(MAX_ROOT_MOVES * sizeof *root);
    int n = 0;
    uint64_t root_tbhits = 0;
    if (moves && root && !g->over)
        n = movegen_legal(g->pos, moves);
    // In the endgame databases, only the moves that keep the value take part.
    n = tb_root_moves(g->tb, g->pos, moves, n, &root_tbhits);
    for (int i = 0; i < n; i++)
        root[i] = (RootMove){.move = moves[i],
                             .score = -SCORE_INFINITE,
                             .prev_score = -SCORE_INFINITE,
                             .pvlen = 1,
                             .pv = {moves[i]}};
    n = filter_searchmoves(g->pos, lim, root, n);
    if (n == 0) {
        free(moves);
        free(root);
        return;
    }

    pthread_once(&reductions_once, init_reductions);
    Shared sh = {.game = g, .tt = tt, .lim = lim, .hooks = hooks};
    tm_init(&sh.tm, lim, g->pos->side, &MILL_TIME);
    atomic_init(&sh.halt, false);
    atomic_init(&sh.tbhits, root_tbhits);
    int nthreads = lim->threads < 1 ? 1 : lim->threads;
    sh.workers = calloc((size_t)nthreads, sizeof *sh.workers);
    tt_new_search(tt);
    for (int i = 0; sh.workers && i < nthreads; i++) {
        sh.workers[i] = worker_new(&sh, i, g->pos, root, n);
        if (!sh.workers[i])
            break;
        sh.nthreads++;
    }
    if (sh.nthreads == 0) {
        move_format(b, root[0].move, out->best); // out of memory: any legal move
        free(sh.workers);
        free(moves);
        free(root);
        return;
    }
    pthread_t threads[256];
    int started = 0;
    for (int i = 1; i < sh.nthreads && i < 256; i++)
        if (pthread_create(&threads[started], NULL, helper_main, sh.workers[i]) == 0)
            started++;
    Worker *main_worker = sh.workers[0];
    iterate(main_worker);
    atomic_store(&sh.halt, true); // the helpers stop too
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);

    // The protocol, not the search, holds the move while the GUI waits for stop or ponderhit.
    const RootMove *best = &main_worker->root[0];
    move_format(b, best->move, out->best);
    if (best->pvlen > 1) {
        move_format(b, best->pv[1], out->ponder);
    } else {
        TTEntry e;
        Position p = *g->pos;
        pos_apply_move(&p, best->move);
        Move reply;
        char s[MOVE_STR_MAX];
        if (tt_probe(tt, p.key, &e) && e.move) {
            move_format(b, e.move, s);
            if (move_parse(&p, s, &reply, NULL))
                strcpy(out->ponder, s);
        }
    }
    for (int i = 0; i < sh.nthreads; i++)
        worker_free(sh.workers[i]);
    free(sh.workers);
    free(moves);
    free(root);
}
