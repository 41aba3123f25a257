// The game families tabula plays, in one list that every front end reads: the protocol's
// UCI_Variant, and each subcommand's --variant. The first family's first variant is the
// default.
#ifndef ENGINE_CORE_REGISTRY_H
#define ENGINE_CORE_REGISTRY_H

#include "engine/core/game.h"

// The i-th family, NULL past the last.
const GameFamily *registry_family(int i);
// The i-th variant id over all families in order, NULL past the last.
const char *registry_variant(int i);
// The family that plays variant id, NULL when none does.
const GameFamily *registry_find(const char *id);
// The default family and variant: what the engine plays before any UCI_Variant.
const GameFamily *registry_default_family(void);
const char *registry_default_variant(void);

#endif
