// The interactive prompt, for a person at a terminal: libedit line editing, history kept in
// ~/.tabula_history, Tab completion of the command line, and the board drawn after each
// command that changes the position. Piped input never comes here (see uci_loop).
#ifndef PROTOCOL_PROMPT_H
#define PROTOCOL_PROMPT_H

#include "engine/core/game.h"
#include "protocol/uci.h"

// What completion reads: the engine, and a game of its own on which `position ... moves`
// lines are replayed to find the moves legal after them.
typedef struct Prompt {
    Uci *u;
    Game *scratch;                    // created on first use
    const GameFamily *scratch_family; // the family that created it: the engine may switch
} Prompt;

void prompt_init(Prompt *p, Uci *u);
void prompt_free(Prompt *p);

// The completions of the word line[start, end) given the words before it: command names, the
// keywords of a command, option names (word by word), variant ids, `true`/`false` and legal
// moves. Returns their count and a malloc'd array of malloc'd strings in *words (NULL when
// there are none); the caller frees both levels.
int prompt_complete(Prompt *p, const char *line, int start, int end, char ***words);

// Read and execute lines at a prompt until `quit` or end of input.
void prompt_run(Uci *u);

#endif
