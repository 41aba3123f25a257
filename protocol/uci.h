// The command loop: one line in, its replies out, through a table of commands.
#ifndef PROTOCOL_UCI_H
#define PROTOCOL_UCI_H

#include "engine/core/game.h"
#include "protocol/output.h"

#include <stdbool.h>
#include <stdio.h>

#define TABULA_VERSION "0.1"

typedef struct Uci {
    Output *out;
    const GameFamily *family;
    Game *game;
    bool quit;
} Uci;

// Set up the protocol state on the default variant (nine), replying through out.
bool uci_init(Uci *u, Output *out);
void uci_free(Uci *u);

// Execute one command line (without or with its line end); false once `quit` was read.
bool uci_execute(Uci *u, const char *line);

// Read and execute lines from in until end of input or `quit`.
void uci_loop(Uci *u, FILE *in);

#endif
