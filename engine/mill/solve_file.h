// The solver's database file: a header (variant, rules, format), the state count of every
// sub-database, then one record per solved sub-database (its index bitmap and its values),
// appended a group at a time, so that a build resumes where a killed one stopped.
#ifndef ENGINE_MILL_SOLVE_FILE_H
#define ENGINE_MILL_SOLVE_FILE_H

#include "engine/core/error.h"
#include "engine/mill/solve_db.h"

#include <stdio.h>

// Open the database file at path for db (indexed): resume the groups it holds (marked done,
// their values read, *resumed of them), or start it. NULL on error.
FILE *solve_file_open(SolveDb *db, const char *path, uint64_t *resumed, Error *err);

// Append the records of the solved sub-databases [first, last) of one group; with sync, wait
// until they are on the disk.
bool solve_file_write_group(const SolveDb *db, FILE *f, int first, int last, bool sync);

// Read a database written by solve_build (complete or not).
SolveDb *solve_load(const char *path, Error *err);

#endif
