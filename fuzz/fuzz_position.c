// libFuzzer harness for the position-string and move parsers, with the invariants that tie
// them to the rest of the engine checked on every input that parses.
//
// Input: byte 0 picks the variant (modulo the variant count: '0' is nine, '1' twelve, ...),
// the low three bits of byte 1 toggle Flying, RemoveFromMills and RemovalPerMill from the
// variant's defaults (so '0' keeps them); then a first line, the position string (empty:
// the start), and after it move tokens separated by spaces, tabs or newlines. A first line in
// Sanmill's FEN goes through sanmill_to_fen first, as the protocol does.
//
// Checked, with a message and abort() when broken: a parsed position's string reads back to itself;
// every move that parses formats back to a token that parses to the same move; the incremental key
// equals the key from scratch after every move and after taking the moves back.
#include "engine/mill/movegen.h"
#include "engine/mill/notation.h"
#include "engine/mill/position.h"
#include "engine/mill/sanmill.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLIES 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

// Report a broken invariant and crash, so that libFuzzer keeps the input.
__attribute__((noreturn, format(printf, 1, 2))) static void broken(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("fuzz_position: invariant broken: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

// A position string must read back to the same position and string.
static void check_round_trip(const Position *p) {
    char fen[FEN_MAX], again[FEN_MAX];
    Position q;
    Error err;
    pos_get_fen(p, fen, sizeof fen);
    if (!pos_set_fen(&q, p->rules, fen, &err))
        broken("the position string '%s' written by pos_get_fen does not read back: %s", fen,
               err.msg);
    pos_get_fen(&q, again, sizeof again);
    if (strcmp(fen, again))
        broken("the position string '%s' reads back as '%s'", fen, again);
    if (q.key != p->key || q.key != pos_compute_key(&q))
        broken("the key of '%s' differs after reading it back", fen);
}

// Parse each token as a move of the current position and play it; a token that parses is
// checked against its formatted form. Stops at the first token that does not parse or when
// the game is over.
static void play_tokens(Position *p, char *text) {
    Move played[MAX_PLIES];
    Undo undo[MAX_PLIES];
    int n = 0;
    for (char *save, *tok = strtok_r(text, " \t\r\n", &save); tok && n < MAX_PLIES;
         tok = strtok_r(NULL, " \t\r\n", &save)) {
        Move m, again;
        Error err;
        char token[MOVE_STR_MAX];
        if (pos_outcome(p) != OUTCOME_NONE || movegen_count(p) == 0)
            break;
        if (!move_parse(p, tok, &m, &err))
            break;
        move_format(p->rules->board, m, token);
        if (!move_parse(p, token, &again, &err) || again != m)
            broken("the move '%s' is written '%s', which does not read back to it", tok, token);
        pos_do_move(p, m, &undo[n]);
        played[n++] = m;
        if (p->key != pos_compute_key(p))
            broken("the incremental key differs from the key from scratch after '%s'", token);
        check_round_trip(p);
    }
    while (n > 0) {
        n--;
        pos_undo_move(p, played[n], &undo[n]);
    }
    if (p->key != pos_compute_key(p))
        broken("the incremental key differs from the key from scratch after the takebacks");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2)
        return 0;
    MillRules rules;
    rules_init(&rules, &VARIANTS[data[0] % VARIANT_COUNT]);
    rules.flying ^= data[1] & 1;
    rules.remove_from_mills ^= (data[1] >> 1) & 1;
    rules.removal_per_mill ^= (data[1] >> 2) & 1;

    char *text = malloc(size - 1);
    if (!text)
        return 0;
    memcpy(text, data + 2, size - 2);
    text[size - 2] = '\0';
    char *moves = text + strcspn(text, "\n");
    if (*moves)
        *moves++ = '\0';

    Position p;
    Error err;
    char converted[SANMILL_FEN_MAX];
    const char *fen = text;
    if (sanmill_detect(fen) && sanmill_to_fen(fen, converted, sizeof converted, &err))
        fen = converted;
    if (!*text) {
        pos_set_start(&p, &rules);
    } else if (pos_set_fen(&p, &rules, fen, &err)) {
        check_round_trip(&p);
    } else {
        free(text);
        return 0;
    }
    char before[FEN_MAX], after[FEN_MAX];
    pos_get_fen(&p, before, sizeof before);
    play_tokens(&p, moves);
    pos_get_fen(&p, after, sizeof after);
    if (strcmp(before, after))
        broken("taking the moves back gives '%s', not '%s'", after, before);
    free(text);
    return 0;
}
