// GNU Backgammon's external-player protocol: gnubg (`set player 1 external localhost:PORT`)
// connects to a TCP socket and sends, whenever that player has to act, one FIBS board line
// (`board:<name>:<name>:` then 50 colon-separated integers, then "\n" and a NUL byte); the
// player answers one line: a play with bar 25 and off 0 (`13/8 24/22`, `25/22 6/0`), or
// `double`, `roll`, `take`, `drop`. tabula answers with its own search.
//
// The board line, as gnubg writes it for the player who acts ("you"): match length (0 =
// money), your score, the opponent's score; 26 board fields (0 and 25 the bars, 1..24 the
// points; your checkers carry the sign of `colour`, the opponent's the other sign); whose
// turn; your dice (2) and the opponent's dice (2); the cube; may you double, may the opponent
// double; was a double offered to you; colour, direction, home, bar; borne off (you, the
// opponent); on the bar (you, the opponent); can move, forced move, Crawford done, redoubles.
// Only the board, the dice, the cube fields and the match fields are used; the counts are
// derived from the board.
#ifndef PROTOCOL_EXTERNAL_H
#define PROTOCOL_EXTERNAL_H

#include "engine/backgammon/board.h"
#include "engine/core/error.h"

#include <stdio.h>

// How tabula plays as an external player.
typedef struct ExternalSettings {
    int plies;   // 0 to BG_MAX_DEPTH; 0 is the static evaluation of every play
    bool jacoby; // money play: the Jacoby rule (the board line does not say)
    FILE *log;   // NULL, or where each line and its answer are written
} ExternalSettings;

// Read a FIBS board line into p, the player who acts being player 1 (X), the opponent player
// 0; *direction gets the line's direction (-1: you move from 24 to 1, as gnubg sends it).
bool external_parse_board(const char *line, bool jacoby, BgPosition *p, int *direction, Error *err);

// The answer to one line (without the newline): a play, a cube action, or `error: <why>`
// for a line that is not a valid board. Returns false for the error.
bool external_answer(const ExternalSettings *set, const char *line, char *out, size_t n);

// Answer every line of in on out until the end of in (NUL bytes between lines are skipped).
void external_serve(const ExternalSettings *set, FILE *in, FILE *out);

// `tabula external [--port PORT] [--plies N] [--jacoby on|off] [--once] [--verbose]`: listen on
// 127.0.0.1:PORT and serve each connection in turn.
int external_main(int argc, char **argv);

#endif
