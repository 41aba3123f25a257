#include "engine/core/registry.h"

#include "engine/backgammon/game.h"
#include "engine/mill/game.h"

#include <string.h>

static const GameFamily *const FAMILIES[] = {&MILL_FAMILY, &BG_FAMILY};
#define NFAMILIES (int)(sizeof FAMILIES / sizeof FAMILIES[0])

const GameFamily *registry_family(int i) { return i >= 0 && i < NFAMILIES ? FAMILIES[i] : NULL; }

const char *registry_variant(int i) {
    if (i < 0)
        return NULL;
    for (int k = 0; k < NFAMILIES; k++) {
        int n = 0;
        while (FAMILIES[k]->variant_id(n))
            n++;
        if (i < n)
            return FAMILIES[k]->variant_id(i);
        i -= n;
    }
    return NULL;
}

const GameFamily *registry_find(const char *id) {
    for (int k = 0; k < NFAMILIES; k++)
        for (int i = 0; FAMILIES[k]->variant_id(i); i++)
            if (!strcmp(id, FAMILIES[k]->variant_id(i)))
                return FAMILIES[k];
    return NULL;
}

const GameFamily *registry_default_family(void) { return FAMILIES[0]; }

const char *registry_default_variant(void) { return FAMILIES[0]->variant_id(0); }
