// A mill position: the men of both sides as point sets, men in hand, side to move and clocks,
// with an incremental 64-bit key over (board, side to move, men in hand).
//
// A move is one 32-bit word: the destination in bits 0-4, the origin in bits 5-9 (NO_POINT
// for a placement) and up to four removals in bits 10-29, five bits each holding point + 1
// (0 = no more removals). Four is the most any variant can make in one turn: three on the
// 24-point boards, four on the 17-point board with one removal per mill closed.
#ifndef ENGINE_MILL_POSITION_H
#define ENGINE_MILL_POSITION_H

#include "engine/core/error.h"
#include "engine/mill/variant.h"

#include <stddef.h>
#include <stdint.h>

enum { WHITE, BLACK };

typedef uint32_t Move;

#define MOVE_NONE 0u
#define MAX_REMOVALS 4
#define FEN_MAX 96

static inline Move move_make(int from, int to) { return (Move)to | (Move)from << 5; }
static inline int move_to(Move m) { return (int)(m & 31); }
static inline int move_from(Move m) { return (int)(m >> 5 & 31); }
static inline int move_removal(Move m, int i) { return (int)(m >> (10 + 5 * i) & 31) - 1; }

static inline int move_nremovals(Move m) {
    int n = 0;
    while (n < MAX_REMOVALS && move_removal(m, n) >= 0)
        n++;
    return n;
}

// Append a removal (there must be room: fewer than MAX_REMOVALS so far).
static inline Move move_add_removal(Move m, int point) {
    return m | (Move)(point + 1) << (10 + 5 * move_nremovals(m));
}

typedef struct Position {
    Bits men[2];
    int hand[2];
    int side;
    int quiet_plies; // plies since the last placement or removal
    int fullmove;
    uint64_t key;
    const MillRules *rules;
} Position;

typedef struct Undo {
    uint64_t key;
    int quiet_plies, fullmove;
} Undo;

// The largest plies counter and move number: read from a position string, and where the
// counting of moves stops, so that every position written can be read back.
#define CLOCK_MAX 1000000000

// How the game stands by the position alone (docs/variants.md, "Game end"), for the side to
// move.
typedef enum Outcome { OUTCOME_NONE, OUTCOME_LOSS, OUTCOME_WIN, OUTCOME_DRAW } Outcome;

// Set the start position of the rules' variant.
void pos_set_start(Position *p, const MillRules *rules);

// Parse a position string; on error, report it and leave p untouched.
bool pos_set_fen(Position *p, const MillRules *rules, const char *fen, Error *err);

// Write the position string (at most FEN_MAX bytes with the terminator).
void pos_get_fen(const Position *p, char *buf, size_t n);

// The key computed from scratch (equal to p->key while make/unmake are correct).
uint64_t pos_compute_key(const Position *p);

// The random keys of men on points, men in hand and black to move (position.c); exposed for
// the make and unmake below, which are inline because the search spends much of its time in
// them.
#define HAND_KEYS 16
extern uint64_t pos_point_keys[2][MAX_POINTS];
extern uint64_t pos_hand_keys[2][HAND_KEYS];
// pos_hand_steps[c][h]: the key's change when c's hand goes from h to h - 1.
extern uint64_t pos_hand_steps[2][HAND_KEYS];
extern uint64_t pos_side_key;

// What the keys after the moves of one position share: its key with the side to move
// changed, that with a man of the mover's hand placed, and the keys of both sides' men.
typedef struct KeyBase {
    uint64_t moved, placed;
    const uint64_t *own, *opp;
} KeyBase;

static inline KeyBase pos_key_base(const Position *p) {
    int us = p->side;
    uint64_t moved = p->key ^ pos_side_key;
    return (KeyBase){moved, moved ^ pos_hand_steps[us][p->hand[us]], pos_point_keys[us],
                     pos_point_keys[!us]};
}

// The key after m from the position of kb.
static inline uint64_t pos_key_step(KeyBase kb, Move m) {
    int to = move_to(m), from = move_from(m);
    uint64_t k = (from == NO_POINT ? kb.placed : kb.moved ^ kb.own[from]) ^ kb.own[to];
    for (int i = 0, r; i < MAX_REMOVALS && (r = move_removal(m, i)) >= 0; i++)
        k ^= kb.opp[r];
    return k;
}

// The key of the position after m, without making it (to prefetch its table entry early).
static inline uint64_t pos_key_after(const Position *p, Move m) {
    return pos_key_step(pos_key_base(p), m);
}

// Make m on p, without keeping what undoing it needs (the search copies the position instead).
// The move number is counted only where `number` is set: the search never reads it.
static inline void pos_apply(Position *p, Move m, bool number) {
    int us = p->side, them = !us;
    int to = move_to(m), from = move_from(m);
    uint64_t k = p->key ^ pos_side_key ^ pos_point_keys[us][to];
    bool irreversible = from == NO_POINT;
    p->men[us] |= BIT(to);
    if (irreversible) {
        k ^= pos_hand_steps[us][p->hand[us]];
        p->hand[us]--;
    } else {
        p->men[us] ^= BIT(from);
        k ^= pos_point_keys[us][from];
    }
    for (int i = 0, r; i < MAX_REMOVALS && (r = move_removal(m, i)) >= 0; i++) {
        p->men[them] ^= BIT(r);
        k ^= pos_point_keys[them][r];
        irreversible = true;
    }
    p->quiet_plies = irreversible ? 0 : p->quiet_plies + (p->quiet_plies < CLOCK_MAX);
    if (number)
        p->fullmove += us == BLACK && p->fullmove < CLOCK_MAX;
    p->side = them;
    p->key = k;
}
static inline void pos_apply_move(Position *p, Move m) { pos_apply(p, m, true); }

static inline void pos_do_move(Position *p, Move m, Undo *u) {
    u->key = p->key;
    u->quiet_plies = p->quiet_plies;
    u->fullmove = p->fullmove;
    pos_apply_move(p, m);
}

static inline void pos_undo_move(Position *p, Move m, const Undo *u) {
    int them = p->side, us = !them;
    int to = move_to(m), from = move_from(m);
    for (int i = 0, r; i < MAX_REMOVALS && (r = move_removal(m, i)) >= 0; i++)
        p->men[them] |= BIT(r);
    p->men[us] ^= BIT(to);
    if (from == NO_POINT)
        p->hand[us]++;
    else
        p->men[us] |= BIT(from);
    p->side = us;
    p->key = u->key;
    p->quiet_plies = u->quiet_plies;
    p->fullmove = u->fullmove;
}

// True when side's men fly (move to any empty point): all men placed and the rules let them,
// always or with three men left.
static inline bool pos_flies(const Position *p, int side) {
    const MillRules *r = p->rules;
    return r->flying && !p->hand[side] && (r->variant->fly_always || bits_count(p->men[side]) == 3);
}

// Game end by men count, a mill in mill-wins variants, or a full board after placing. After
// a move from a position whose game went on (moved), the mover cannot have won: its own move
// took none of its men, and a mill of the side to move would have ended the game a ply earlier.
// So only the side to move's loss is tested.
static inline Outcome pos_outcome_of(const Position *p, bool moved) {
    const MillRules *r = p->rules;
    const Board *b = r->board;
    int us = p->side, them = !us;
    if (r->variant->mill_wins) {
        if (board_has_mill(b, p->men[them]))
            return OUTCOME_LOSS;
        if (!moved && board_has_mill(b, p->men[us]))
            return OUTCOME_WIN;
    } else {
        if (bits_count(p->men[us]) + p->hand[us] < 3)
            return OUTCOME_LOSS;
        if (!moved && bits_count(p->men[them]) + p->hand[them] < 3)
            return OUTCOME_WIN;
    }
    if (r->variant->full_board_draw && !p->hand[us] && !p->hand[them] &&
        (p->men[us] | p->men[them]) == b->all)
        return OUTCOME_DRAW;
    return OUTCOME_NONE;
}

static inline Outcome pos_outcome(const Position *p) { return pos_outcome_of(p, false); }

#endif
