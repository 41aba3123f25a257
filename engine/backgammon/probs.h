// The cubeless probabilities of a backgammon position, the unit every evaluator (the nets, the
// bear-off database) answers in.
#ifndef ENGINE_BACKGAMMON_PROBS_H
#define ENGINE_BACKGAMMON_PROBS_H

// Cubeless probabilities from one player's view; gammons include backgammons.
typedef struct BgProbs {
    double win, win_gammon, win_backgammon, lose_gammon, lose_backgammon;
} BgProbs;

#endif
