// The evaluation nets: two fully connected nets with one sigmoid hidden layer and five sigmoid
// outputs (the cubeless probabilities win, win gammon, win backgammon, lose gammon, lose
// backgammon of the player about to roll), one for contact positions and one for races.
//
// Inputs (BG_NET_INPUTS, Tesauro's truncated unary code), first for the player on roll, then
// for its opponent, each in its own numbering:
//   points 1..24: 4 units each, n >= 1, n >= 2, n >= 3, (n - 3) / 2 when n > 3
//   bar / 2, borne off / 15, pip count / 100, checkers still outside the home board / 15,
//   the opponent's shots (rolls of 36 that hit one of the player's blots) / 36, the rolls
//   that move the player's rearmost checker its full number past the opponent's points / 36,
//   the player's longest prime / 6, its containment (36 less the rolls that move its worst
//   placed checker on its points 13..24 or the bar its full number past the opponent's
//   points) / 36, the pips its checkers must travel to pass the opponent's rearmost checker
//   / 152, and with checkers on the bar the rolls on which none enters (the opponent's home
//   points held, squared) / 36.
// Hidden weights are stored input-major (w1[i * hidden + j]) so that one active input adds a
// contiguous row to the hidden sums: inputs are sparse and the loop vectorises without
// reordering any float sum, so every build computes the same bits (given -ffp-contract=off).
//
// The weights file (little-endian): "TBGN" magic, uint32 version, uint64 games trained, the
// trainer's uint64 random state, then per net (contact, race) uint32 inputs, hidden, outputs
// and the floats w1[inputs * hidden], b1[hidden], w2[outputs * hidden], b2[outputs].
#ifndef ENGINE_BACKGAMMON_NET_H
#define ENGINE_BACKGAMMON_NET_H

#include "engine/backgammon/board.h"

#include <stddef.h>
#include <stdint.h>

#define BG_NET_HALF 106 // inputs per player
#define BG_NET_INPUTS (2 * BG_NET_HALF)
#define BG_NET_OUTPUTS 5
#define BG_NET_MAX_HIDDEN 128
#define BG_NET_CONTACT 0
#define BG_NET_RACE 1

typedef struct BgNet {
    int inputs, hidden;
    float *w1, *b1, *w2, *b2;
} BgNet;

typedef struct BgNets {
    BgNet net[2];   // BG_NET_CONTACT, BG_NET_RACE
    uint64_t games; // self-play games behind these weights
    uint64_t rng;   // the trainer's random state when they were saved
} BgNets;

// The input vector of board b for player side on roll; returns the number of non-zero inputs
// and lists their indexes in active (BG_NET_INPUTS entries).
int bg_net_inputs(const BgBoard *b, int side, float *x, int *active);

// Forward pass: hidden activations into h (may be NULL) and the five outputs into out.
void bg_net_forward(const BgNet *n, const float *x, const int *active, int nactive, float *h,
                    float *out);

// Allocate nets of the given sizes with small random weights from seed (deterministic).
int bg_nets_init(BgNets *n, int hidden_contact, int hidden_race, uint64_t seed);
void bg_nets_free(BgNets *n);

// Grow net n to the given number of hidden units (at least its own): the new units get small
// random input weights from seed and zero output weights, so the outputs do not change.
int bg_net_widen(BgNet *n, int hidden, uint64_t seed);

// Read from / write to memory or a file; 0 on success, -1 on a malformed buffer or I/O error.
int bg_nets_read(BgNets *n, const unsigned char *buf, size_t len);
int bg_nets_load(BgNets *n, const char *path);
int bg_nets_save(const BgNets *n, const char *path);

// A checksum of all weights (FNV-1a over their bytes).
uint64_t bg_nets_checksum(const BgNets *n);

// The nets the engine plays with: the weights embedded at build time (weights.bin).
const BgNets *bg_nets_default(void);

#endif
