// The parts of the command loop that its files share: protocol/uci.c holds the command table
// and the loop; options.c the engine's options, the handshakes and setoption; position.c the
// game record, position, a person's commands and query; go.c the search thread and go;
// extras.c the engine's own commands; ubgi.c the UBGI dialect. Nothing outside protocol/ includes
// this.
#ifndef PROTOCOL_COMMAND_H
#define PROTOCOL_COMMAND_H

#include "protocol/state.h"

#include <stdbool.h>
#include <stddef.h>

#define BOARD_TEXT_MAX 2048
#define EVAL_TEXT_MAX 4096
#define ANALYZE_TEXT_MAX 65536
#define TIME_MAX 1000000000000LL   // ms; thirty years, far from any overflow
#define COUNT_MAX 1000000          // depth, mate, movestogo
#define ROLLOUT_MAX 100000         // backgammon rollout trials per candidate
#define PLAY_MOVETIME_DEFAULT 1000 // ms

// A command line split into words.
typedef struct Tokens {
    int n;
    char **v;
    char *buf;
} Tokens;

// Split a line on spaces and tabs (CR and LF end it); false when out of memory.
bool tokens_split(const char *line, Tokens *t);
void tokens_free(Tokens *t);
// Join tokens [from, to) with single spaces into a new string.
char *tokens_join(const Tokens *t, int from, int to);
// A copy of user text that is safe to echo: at most 40 printable characters.
const char *text_shown(const char *s, char buf[48]);
// Reply with one error line (`info string error: ...`).
void reply_error(Uci *u, const char *msg);
// Reply with each line of text.
void reply_lines(Uci *u, char *text);

// The game record.
void record_clear(UciRecord *r);
bool record_push(UciRecord *r, const char *move);
void record_pop(UciRecord *r);
// A record from a start and the turns of t from index from on.
bool record_make(UciRecord *r, const char *fen, const Tokens *t, int from);
// Set the game to the record's start and its first n turns; all or nothing.
bool record_replay(Uci *u, int n, Error *err);
// Add a turn to the record and play it, under the game lock; all or nothing.
bool record_play(Uci *u, const char *turn, Error *err);

// Dice, in a family with GAME_HAS_DICE.
typedef enum DiceStage { DICE_TO_ROLL, DICE_ROLLED, DICE_DOUBLED, DICE_OVER } DiceStage;
bool has_dice(const Uci *u);
// Throw two dice (1..6 each) from the engine's generator (`roll seed <n>`, else the clock).
void dice_throw(int d[2]);
// Where the game stands; the dice, larger first, when they are rolled (else 0 0).
DiceStage dice_stage(const Uci *u, int dice[2]);
// Whether a person's text reads as a play (`8/5 6/5`, `bar/22*`) rather than a command.
bool looks_like_play(const char *text);
// The turn token a person's text names, into out: a play in gnubg's form made legal token.
bool person_turn(Uci *u, const char *text, char *out, size_t n, Error *err);

// The engine's options.
void options_reset(Uci *u);
bool options_set_engine(Uci *u, UciOption id, const char *value, Error *err);
int options_find_engine(const char *name);

// The search.
void search_start(Uci *u, const SearchLimits *lim, bool ponder, bool plays);
bool go_parse(const Uci *u, const Tokens *t, SearchLimits *lim, bool *ponder, int *moves_at,
              char *msg, size_t n);
void go_apply_settings(const Uci *u, SearchLimits *lim);
void go_debug_limits(Uci *u, const char *cmd, const SearchLimits *lim, bool ponder);
// The legal moves as one space-separated string (malloc'd), their count in *count.
char *moves_text(const Uci *u, int *count);
bool moves_has_word(const char *list, const char *word);

// The handlers of the command table.
void cmd_uci(Uci *u, const Tokens *t);
void cmd_ugi(Uci *u, const Tokens *t);
void cmd_isready(Uci *u, const Tokens *t);
void cmd_debug(Uci *u, const Tokens *t);
void cmd_setoption(Uci *u, const Tokens *t);
void cmd_ucinewgame(Uci *u, const Tokens *t);
void cmd_position(Uci *u, const Tokens *t);
void cmd_move(Uci *u, const Tokens *t);
void cmd_undo(Uci *u, const Tokens *t);
void cmd_play(Uci *u, const Tokens *t);
void cmd_roll(Uci *u, const Tokens *t);
void cmd_go(Uci *u, const Tokens *t);
void cmd_stop(Uci *u, const Tokens *t);
void cmd_ponderhit(Uci *u, const Tokens *t);
void cmd_query(Uci *u, const Tokens *t);
void cmd_perft(Uci *u, const Tokens *t);
void cmd_bench(Uci *u, const Tokens *t);
void cmd_d(Uci *u, const Tokens *t);
void cmd_moves(Uci *u, const Tokens *t);
void cmd_eval(Uci *u, const Tokens *t);
void cmd_analyze(Uci *u, const Tokens *t);
void cmd_quit(Uci *u, const Tokens *t);
void cmd_ubgi(Uci *u, const Tokens *t);

// The UBGI dialect: its state at its defaults (the dialect off); execute one line in it, false
// when the line belongs to the command table (`uci` and `ugi`, which leave the dialect).
void ubgi_reset(Uci *u);
bool ubgi_execute(Uci *u, const Tokens *t);

#endif
