// Position formats: GNU Backgammon's Position ID (14 base64 characters, the board) and Match
// ID (12 characters, cube, dice and match state), and eXtreme Gammon's XGID. See
// BACKGAMMON.md for the bit layouts; each reader checks everything and changes nothing when it
// fails.
#ifndef ENGINE_BACKGAMMON_IDS_H
#define ENGINE_BACKGAMMON_IDS_H

#include "engine/backgammon/board.h"
#include "engine/core/error.h"

#include <stddef.h>

#define BG_POSITION_ID_LEN 14
#define BG_MATCH_ID_LEN 12
#define BG_XGID_MAX 80

// The Position ID of the board as seen by the player on roll, p->turn.
void bg_position_id(const BgPosition *p, char out[BG_POSITION_ID_LEN + 1]);
// Read a Position ID into b, the player on roll being turn.
bool bg_read_position_id(const char *id, int turn, BgBoard *b, Error *err);

void bg_match_id(const BgPosition *p, char out[BG_MATCH_ID_LEN + 1]);
// Read a Match ID into p (all but the board), checking it.
bool bg_read_match_id(const char *id, BgPosition *p, Error *err);

// Read `<PositionID>:<MatchID>` (or a Position ID alone: a money game before the roll with
// player 1 on roll) into p.
bool bg_read_gnubgid(const char *s, BgPosition *p, Error *err);
// Write `<PositionID>:<MatchID>`.
void bg_gnubgid(const BgPosition *p, char *out, size_t n);

// Read an XGID (with or without the `XGID=` prefix) into p.
bool bg_read_xgid(const char *s, BgPosition *p, Error *err);
void bg_xgid(const BgPosition *p, char *out, size_t n);

#endif
