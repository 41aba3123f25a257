#include "engine/mill/variant.h"

#include <string.h>

// clang-format off
const Variant VARIANTS[] = {
//   id            title                   board     diag   men wins   fly    always full   lasker per-mill
    {"nine",       "Nine Men's Morris",    BOARD_24, false, 9,  false, true,  false, false, false, false},
    {"twelve",     "Twelve Men's Morris",  BOARD_24, true,  12, false, true,  false, true,  false, false},
    {"eleven",     "Eleven Men's Morris",  BOARD_24, true,  11, false, true,  false, false, false, false},
    {"morabaraba", "Morabaraba",           BOARD_24, true,  12, false, true,  false, true,  false, true},
    {"lasker",     "Lasker Morris",        BOARD_24, false, 10, false, true,  false, false, true,  false},
    {"six",        "Six Men's Morris",     BOARD_16, false, 6,  false, false, false, false, false, false},
    {"five",       "Five Men's Morris",    BOARD_16, false, 5,  false, false, false, false, false, false},
    {"seven",      "Seven Men's Morris",   BOARD_17, false, 7,  false, false, false, false, false, false},
    {"three",      "Three Men's Morris",   BOARD_9,  false, 3,  true,  false, false, false, false, false},
    {"nine-holes", "Nine Holes",           BOARD_9,  false, 3,  true,  true,  true,  false, false, false},
    {"tapatan",    "Tapatan",              BOARD_9,  true,  3,  true,  false, false, false, false, false},
    {"achi",       "Achi",                 BOARD_9,  true,  4,  true,  false, false, false, false, false},
};
// clang-format on

const int VARIANT_COUNT = (int)(sizeof VARIANTS / sizeof VARIANTS[0]);

const Variant *variant_find(const char *id) {
    for (int i = 0; i < VARIANT_COUNT; i++)
        if (strcmp(VARIANTS[i].id, id) == 0)
            return &VARIANTS[i];
    return NULL;
}

void rules_init(MillRules *r, const Variant *v) {
    r->variant = v;
    r->board = board_get(v->board, v->diagonals);
    r->flying = v->flying;
    r->remove_from_mills = false;
    r->removal_per_mill = v->removal_per_mill;
    r->repetition = true;
    r->nmove_rule = NMOVE_DEFAULT;
}
