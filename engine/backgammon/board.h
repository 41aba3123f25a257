// The backgammon position: both players' checkers, whose turn it is, the dice and the cube and
// match state that travel with a gnubg Match ID or an XGID.
//
// Each player's checkers are counted in that player's own numbering: c[p][i] is the number of
// player p's checkers on its point i + 1 (i = 0..23, point 1 is the last point before bearing
// off) and c[p][BG_BAR] those on the bar. Borne-off checkers are what is missing from 15. A
// player's point q is the opponent's point 25 - q. Players are 0 and 1 as in gnubg's Match ID;
// player 1 is X (drawn at the bottom, XGID's upper-case bottom player) and player 0 is O.
#ifndef ENGINE_BACKGAMMON_BOARD_H
#define ENGINE_BACKGAMMON_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#define BG_POINTS 24
#define BG_BAR 24   // index of the bar in a player's array
#define BG_SLOTS 25 // points 1..24 and the bar
#define BG_CHECKERS 15

typedef struct BgBoard {
    uint8_t c[2][BG_SLOTS];
} BgBoard;

typedef enum BgState { BG_NO_GAME, BG_PLAYING, BG_OVER, BG_RESIGNED, BG_DROPPED } BgState;

typedef struct BgPosition {
    BgBoard b;
    int turn;      // the player on roll (the doubler while a double is offered)
    int dice[2];   // larger first; 0 0 before the roll
    bool doubled;  // a double is offered: the other player takes or drops
    int cube;      // 1, 2, 4, ...
    int owner;     // -1 centred, else the player who owns the cube
    int length;    // match length; 0 = money play
    int score[2];  // match score (kept, not advanced at the end of a game)
    bool crawford; // this is the Crawford game (no doubling)
    bool jacoby;   // money play: gammons count single while the cube is centred
    BgState state; // BG_PLAYING, or how the game ended
    int winner;    // when the game is over
    int points;    // points won, cube included, when the game is over
} BgPosition;

// The start of a money game: player 1 on roll, cube centred, Jacoby rule on, dice not rolled.
void bg_set_start(BgPosition *p);

// Checkers of player side still on the board (15 minus those borne off).
int bg_checkers(const BgBoard *b, int side);
// Pip count of player side: sum of point numbers, 25 for the bar.
int bg_pips(const BgBoard *b, int side);

// Whether a board is sane: 15 or fewer checkers each, no point held by both.
bool bg_board_valid(const BgBoard *b, const char **why);

// After the side to move bore off its last checker: mark the game over with its points
// (single, gammon, backgammon, times the cube; Jacoby in money play with a centred cube).
void bg_finish(BgPosition *p, int winner);

// How a finished game was won: 1 single, 2 gammon, 3 backgammon (before the cube).
int bg_win_kind(const BgBoard *b, int winner);

// Whether the player on roll may double now.
bool bg_can_double(const BgPosition *p);

// A 64-bit key of the whole state (board, turn, dice, cube, match).
uint64_t bg_key(const BgPosition *p);

#endif
