// The referee of backgammon for the match runner: one money game, or one whole match to N
// points, between two engine processes. It rolls the dice (duplicate dice: drawn from the seed,
// the pair, the game of the match and the turn number), asks for cube actions and plays, checks
// every answer with the engine's own backgammon rules, scores the games and writes them in the
// Jellyfish .mat form gnubg imports. An illegal answer, a crash or silence loses, as in the mill
// referee, with the reason in plain words.
#ifndef MATCH_BGREFEREE_H
#define MATCH_BGREFEREE_H

#include "match/referee.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

// The longest match; a match to N points has at most 2N - 1 games.
#define BG_MAX_LENGTH 25
#define BG_MAX_GAMES (2 * BG_MAX_LENGTH)
// A game this long (decisions of both players) is stopped as abandoned, with no points.
#define BG_MAX_DECISIONS 4000

typedef struct BgSetup {
    const EngineConfig *engine[2]; // engine[0] plays X (gnubg's player 1), engine[1] plays O
    int left;                      // the engine written in the left column of the .mat
    int length;                    // 0: one money game; else a match to length points
    bool jacoby;                   // money play: gammons count single while the cube is centred
    uint64_t seed;
    int pair; // the dice are drawn from (seed, pair, game of the match, turn)
    int64_t timemargin_ms, movetimeout_ms;
    FILE *log;
    const char *log_tag;
} BgSetup;

// One money game, or one game of a match, as the .mat file writes it.
typedef struct BgGameText {
    int score[2]; // each engine's score before the game (match play)
    char *moves;  // the move lines (malloc'ed)
} BgGameText;

typedef struct BgOutcome {
    int points[2]; // money: points won in the game by each engine; match: the final score
    int winner;    // the engine that won the game or the match; -1 when none did
    Termination termination;
    char reason[192];
    int kind;      // money: 1 single, 2 gammon, 3 backgammon, 0 drop or fault
    int cube;      // money: the cube at the end of the game
    int doubles;   // doubles offered (all games)
    int drops;     // of which dropped
    int decisions; // answers of both engines
    int ngames;
    BgGameText game[BG_MAX_GAMES];
} BgOutcome;

// The dice of turn `turn` (0: the opening roll) of game `game` of the pair's match: d[0] X's
// and d[1] O's die for the opening roll, never a double; later rolls with d[0] >= d[1].
void bg_dice(uint64_t seed, int pair, int game, int turn, int d[2]);
// Play the money game or the match; the outcome says how it ended. Always returns with both
// engines reaped. Free the outcome's texts with bg_outcome_free.
void bg_referee_play(const BgSetup *s, BgOutcome *o);
void bg_outcome_free(BgOutcome *o);
// Write one game of a .mat file: ` Game N`, the names and scores (left column first), the moves.
void bg_mat_write_game(FILE *f, int number, const char *left, int left_score, const char *right,
                       int right_score, const char *moves);

#endif
