// Endgame databases for the search: the files `tabula solve` writes, loaded from one file or
// from every `*.tdb` file of a directory, and probed by position. A probe tries the databases
// in the order loaded (file names sorted) and answers from the first that holds the position:
// a whole small game (`tabula solve seven`) or the moving phase of a 24-point variant with few
// men (`tabula solve nine --men 5`). Everything is read-only once loaded, so the search
// threads probe without locks.
#ifndef ENGINE_MILL_TABLEBASE_H
#define ENGINE_MILL_TABLEBASE_H

#include "engine/core/error.h"
#include "engine/mill/position.h"

#include <stddef.h>
#include <stdint.h>

typedef struct Tablebase Tablebase;

// Load the database file at path, or every `*.tdb` file of the directory at path. NULL with
// the reason when a file cannot be read, is not a database, or the directory holds none.
Tablebase *tb_open(const char *path, Error *err);

void tb_close(Tablebase *tb);

// Value (SOLVE_WIN, SOLVE_DRAW, SOLVE_LOSS for the side to move) and distance in plies of p,
// from the first database holding it; false when none does.
bool tb_probe(const Tablebase *tb, const Position *p, int *value, int *distance);

// Why p is not in any database, for a person (`analyze`).
void tb_why_not(const Tablebase *tb, const Position *p, char *buf, size_t n);

// At the root: keep the moves that hold the value of p, best first by distance. Won: the moves
// to a position lost for the opponent in the fewest plies; drawn: the moves to a drawn
// position; lost: the moves that lose in the most plies. Returns the new count, or n with the
// moves untouched when p or one of its children is not in a database. *probes counts the
// probes that hit.
int tb_root_moves(const Tablebase *tb, const Position *p, Move *moves, int n, uint64_t *probes);

#endif
