// The mill variants, one row each, and the rule options that change a variant's defaults.
#ifndef ENGINE_MILL_VARIANT_H
#define ENGINE_MILL_VARIANT_H

#include "engine/core/error.h"
#include "engine/mill/board.h"

#include <stdbool.h>

typedef struct Variant {
    const char *id;
    const char *title;
    BoardKind board;
    bool diagonals;
    int men;               // men each side starts with in hand
    bool mill_wins;        // closing a mill wins instead of removing
    bool flying;           // default of the Flying option
    bool fly_always;       // when flying, men always fly (nine-holes), not only at three
    bool full_board_draw;  // a full board when placing ends is a draw
    bool lasker;           // a turn may move instead of place while men are in hand
    bool removal_per_mill; // default: one removal per mill closed
} Variant;

// The rules in force: a variant with its options applied.
typedef struct MillRules {
    const Variant *variant;
    const Board *board;
    bool flying;
    bool remove_from_mills; // a man in a mill may always be removed
    bool removal_per_mill;
    bool repetition; // threefold repetition draws
    int nmove_rule;  // plies without placement or removal that draw; 0 = off
} MillRules;

#define NMOVE_DEFAULT 100
#define NMOVE_MAX 10000

extern const Variant VARIANTS[];
extern const int VARIANT_COUNT;

// The variant with this id, or NULL.
const Variant *variant_find(const char *id);

// Rules of a variant with every option at its default.
void rules_init(MillRules *r, const Variant *v);

#endif
