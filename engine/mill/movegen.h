// Legal moves of a mill position (docs/variants.md, "A turn"), respecting the end of the game
// by the position alone (docs/variants.md, "Game end"): a finished game has no moves. Draws by
// repetition and the N-move rule need the game's history and are the game layer's business.
#ifndef ENGINE_MILL_MOVEGEN_H
#define ENGINE_MILL_MOVEGEN_H

#include "engine/mill/position.h"

// Enough for any reachable position: a turn closing k mills has at most 12!/(12-k)! removal
// orders, and no board lets more than a handful of actions close several mills at once.
#define MAX_MOVES 8192

// Write the legal moves to `moves` (room for MAX_MOVES; entries past the count returned may be
// written too, as scratch) and return how many there are.
int movegen_legal(const Position *p, Move *moves);

// The legal moves that close a mill (with their removals; in mill-wins variants the moves
// that win); 0 when the game is over. The same room as movegen_legal.
int movegen_closing(const Position *p, Move *moves);

// True when m is one of the legal moves (what movegen_legal lists), without listing them: for
// the hash move, searched before the others are generated. Any 32-bit word may be asked.
bool movegen_is_legal(const Position *p, Move m);

// movegen_legal and movegen_closing for a position whose game the caller has found not over
// (pos_outcome is OUTCOME_NONE), as the search has at every node: the end is not tested again.
int movegen_legal_ongoing(const Position *p, Move *moves);
int movegen_closing_ongoing(const Position *p, Move *moves);

// The number of legal moves, without listing them (perft's last ply).
uint64_t movegen_count(const Position *p);

// The opponent men that a removal may take now.
Bits movegen_removable(const Position *p, Bits opp);

#endif
