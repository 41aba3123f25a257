// Static evaluation of mill positions: a linear sum of features, each the difference between
// the side to move and the opponent, weighted per board family and phase (placing, moving).
// The weights are data, fitted to self-play results by tools/tune.c.
#ifndef ENGINE_MILL_EVAL_H
#define ENGINE_MILL_EVAL_H

#include "engine/mill/position.h"

#include <stddef.h>

typedef enum EvalFeature {
    F_MEN,          // men on the board and in hand
    F_MOBILITY,     // sliding moves available
    F_BLOCKED,      // men with no empty neighbour
    F_OPEN_MILLS,   // empty points that would close a mill
    F_DOUBLE_MILLS, // a man that can step out of a mill into another one
    F_TWO_EMPTY,    // lines with one own man and two empty points
    F_FLYING,       // the side flies (3 men, none in hand, flying on)
    F_TEMPO,        // side to move (1) versus opponent (0)
    F_COUNT
} EvalFeature;

enum { PHASE_PLACING, PHASE_MOVING, PHASE_COUNT };

extern const char *const EVAL_FEATURE_NAMES[F_COUNT];
// Weights per board family (BoardKind), phase and feature; men weigh 100 by definition. A
// game holds its own (the tuner and self-play try others), the search a copy.
typedef struct EvalWeights {
    int w[BOARD_KINDS][PHASE_COUNT][F_COUNT];
} EvalWeights;

// The weights fitted by tools/tune.c, which the engine plays with.
extern const EvalWeights EVAL_WEIGHTS_DEFAULT;

// The features of p from the side to move's view, and its phase.
int eval_features(const Position *p, int f[F_COUNT]);

// The static evaluation in centi-men from the side to move's view, with the weights w.
int eval_position(const Position *p, const EvalWeights *w);

// The evaluation with the weights w and its terms as text.
void eval_describe(const Position *p, const EvalWeights *w, char *buf, size_t n);

#endif
