// tabula as a GNU Backgammon external player (external.h).
#include "protocol/external.h"

#include "engine/core/args.h"

#include "engine/backgammon/movegen.h"
#include "engine/backgammon/notation.h"
#include "engine/backgammon/search.h"
#include "engine/core/args.h"
#include "engine/core/clock.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define FIBS_FIELDS 50

// The 50 integers after `board:<name>:<name>:`; false when there are not exactly 50.
static bool read_fields(const char *line, int *v, Error *err) {
    if (strncmp(line, "board:", 6))
        return error_set(err, "not a board line");
    const char *s = line + 6;
    for (int k = 0; k < 2; k++) { // the two names
        s = strchr(s, ':');
        if (!s)
            return error_set(err, "board line without the two names");
        s++;
    }
    for (int i = 0; i < FIBS_FIELDS; i++) {
        char *end;
        long x = strtol(s, &end, 10);
        if (end == s || x < -1000 || x > 1000000)
            return error_set(err, "board field %d is not a number", i + 1);
        v[i] = (int)x;
        s = end;
        if (i < FIBS_FIELDS - 1) {
            if (*s != ':')
                return error_set(err, "board line with %d fields, expected %d", i + 1, FIBS_FIELDS);
            s++;
        }
    }
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s)
        return error_set(err, "board line with more than %d fields", FIBS_FIELDS);
    return true;
}

// clang-format off
enum { F_LENGTH = 0, F_SCORE = 1, F_OPP_SCORE = 2, F_BOARD = 3, F_TURN = 29, F_DICE = 30,
       F_OPP_DICE = 32, F_CUBE = 34, F_MAY_DOUBLE = 35, F_OPP_MAY_DOUBLE = 36, F_DOUBLED = 37,
       F_COLOUR = 38, F_DIRECTION = 39 };
// clang-format on

bool external_parse_board(const char *line, bool jacoby, BgPosition *p, int *direction,
                          Error *err) {
    int v[FIBS_FIELDS];
    if (!read_fields(line, v, err))
        return false;
    int colour = v[F_COLOUR], dir = v[F_DIRECTION];
    if (colour != 1 && colour != -1)
        return error_set(err, "colour %d (expected 1 or -1)", colour);
    if (dir != 1 && dir != -1)
        return error_set(err, "direction %d (expected 1 or -1)", dir);
    BgPosition q;
    memset(&q, 0, sizeof q);
    // Position k of the line is our point k when we move down (direction -1), 25 - k when up;
    // our bar is at the far end (25 going down), the opponent's at the near one.
    for (int k = 1; k <= 24; k++) {
        int x = v[F_BOARD + k] * colour; // > 0: ours
        int point = dir < 0 ? k : 25 - k;
        if (x > 15 || x < -15)
            return error_set(err, "%d checkers on point %d", x < 0 ? -x : x, k);
        if (x > 0)
            q.b.c[1][point - 1] = (uint8_t)x;
        else if (x < 0)
            q.b.c[0][24 - point] = (uint8_t)-x;
    }
    int my_bar = abs(v[F_BOARD + (dir < 0 ? 25 : 0)]);
    int opp_bar = abs(v[F_BOARD + (dir < 0 ? 0 : 25)]);
    if (my_bar > 15 || opp_bar > 15)
        return error_set(err, "too many checkers on the bar");
    q.b.c[1][BG_BAR] = (uint8_t)my_bar;
    q.b.c[0][BG_BAR] = (uint8_t)opp_bar;
    const char *why;
    if (!bg_board_valid(&q.b, &why))
        return error_set(err, "%s", why);
    if (bg_checkers(&q.b, 0) == 0 || bg_checkers(&q.b, 1) == 0)
        return error_set(err, "the game is over");

    int length = v[F_LENGTH], cube = v[F_CUBE];
    if (length < 0 || length > 32767)
        return error_set(err, "match length %d", length);
    if (length > 0) {
        if (v[F_SCORE] < 0 || v[F_SCORE] >= length || v[F_OPP_SCORE] < 0 ||
            v[F_OPP_SCORE] >= length)
            return error_set(err, "score %d-%d in a %d-point match", v[F_SCORE], v[F_OPP_SCORE],
                             length);
        q.score[1] = v[F_SCORE];
        q.score[0] = v[F_OPP_SCORE];
    }
    if (cube < 1 || cube > 4096 || (cube & (cube - 1)))
        return error_set(err, "cube %d", cube);
    q.length = length;
    q.cube = cube;
    q.jacoby = length == 0 && jacoby;
    bool may = v[F_MAY_DOUBLE] != 0, opp_may = v[F_OPP_MAY_DOUBLE] != 0;
    if (cube == 1 || (may && opp_may))
        q.owner = -1;
    else
        q.owner = may ? 1 : 0;
    q.crawford = length > 0 && cube == 1 && !may && !opp_may;
    q.state = BG_PLAYING;
    int d1 = v[F_DICE], d2 = v[F_DICE + 1];
    if (v[F_DOUBLED]) {
        q.doubled = true; // the opponent doubled: it is "on roll", we take or drop
        q.turn = 0;
    } else {
        q.turn = 1;
        if (d1 || d2) {
            if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6)
                return error_set(err, "dice %d %d", d1, d2);
            q.dice[0] = d1 > d2 ? d1 : d2;
            q.dice[1] = d1 > d2 ? d2 : d1;
        }
    }
    *p = q;
    *direction = dir;
    return true;
}

// Write the play of the token best (`31:8/5,6/5`) as `8/5 6/5`, one pair per die, in the
// line's numbering.
static bool numeric_play(const BgPosition *p, const char *best, int dir, char *out, size_t n) {
    BgPlay pl;
    out[0] = '\0';
    if (!bg_token_play(p, best, &pl))
        return false;
    size_t len = 0;
    for (int k = 0; k < pl.n; k++) {
        int from = pl.from[k], to = pl.to[k];
        if (dir > 0) {
            from = 25 - from;
            to = 25 - to;
        }
        int w = snprintf(out + len, n - len, "%s%d/%d", k ? " " : "", from, to);
        if (w < 0 || (size_t)w >= n - len)
            return false;
        len += (size_t)w;
    }
    return true;
}

bool external_answer(const ExternalSettings *set, const char *line, char *out, size_t n) {
    BgPosition p;
    Error err;
    int dir;
    if (!external_parse_board(line, set->jacoby, &p, &dir, &err)) {
        snprintf(out, n, "error: %s", err.msg);
        return false;
    }
    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.time[0] = lim.time[1] = -1;
    lim.multipv = 1;
    lim.threads = 1;
    lim.start_us = clock_now_us();
    if (set->plies > 0)
        lim.depth = set->plies;
    else
        lim.nodes = 1;
    SearchResult res;
    bg_search(&p, &lim, NULL, &res);
    if (!p.dice[0]) { // a cube action: double, roll, take, drop
        snprintf(out, n, "%s", res.best);
        return true;
    }
    size_t len = strlen(res.best);
    if (len >= 2 && !strcmp(res.best + len - 2, ":-")) {
        out[0] = '\0'; // nothing can be played
        return true;
    }
    if (!numeric_play(&p, res.best, dir, out, n)) {
        snprintf(out, n, "error: cannot write the play %s", res.best);
        return false;
    }
    return true;
}

void external_serve(const ExternalSettings *set, FILE *in, FILE *out) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    char answer[256];
    while ((got = getline(&line, &cap, in)) > 0) {
        // gnubg ends each line with "\n" and a NUL: skip NULs, strip the line end.
        char *s = line;
        while (s < line + got && *s == '\0')
            s++;
        size_t len = strnlen(s, (size_t)(line + got - s));
        while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
            s[--len] = '\0';
        if (!len)
            continue;
        external_answer(set, s, answer, sizeof answer);
        if (set->log)
            fprintf(set->log, "< %s\n> %s\n", s, answer);
        fprintf(out, "%s\n", answer);
        fflush(out);
    }
    free(line);
}

#define EXTERNAL_USAGE                                                                             \
    "usage: tabula external [--port PORT] [--plies N] [--jacoby on|off] [--once] [--verbose]\n"

int external_main(int argc, char **argv) {
    ExternalSettings set = {BG_DEFAULT_DEPTH, true, NULL};
    int port = 4321;
    bool once = false, verbose = false;
    const char *jacoby = "on";
    Args args;
    args_init(&args, "tabula external", argc, argv, stderr);
    while (args_more(&args))
        if (!args_int(&args, "--port", 1, 65535, &port) &&
            !args_int(&args, "--plies", 0, BG_MAX_DEPTH, &set.plies) &&
            !args_string(&args, "--jacoby", &jacoby) && !args_flag(&args, "--verbose", &verbose) &&
            !args_flag(&args, "--once", &once))
            args_unknown(&args);
    if (!args.failed && strcmp(jacoby, "on") && strcmp(jacoby, "off"))
        args_fail(&args, "--jacoby takes on or off, not '%.40s'", jacoby);
    if (args.failed) {
        fputs(EXTERNAL_USAGE, stderr);
        return 2;
    }
    set.jacoby = !strcmp(jacoby, "on");
    set.log = verbose ? stderr : NULL;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
        perror("tabula external: socket");
        return 1;
    }
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0 || listen(fd, 1) < 0) {
        perror("tabula external: bind");
        close(fd);
        return 1;
    }
    fprintf(stderr, "tabula external: listening on 127.0.0.1:%d, %d plies\n", port, set.plies);
    do {
        int c = accept(fd, NULL, NULL);
        if (c < 0) {
            perror("tabula external: accept");
            break;
        }
        int c2 = dup(c);
        FILE *in = fdopen(c, "r"), *out = c2 >= 0 ? fdopen(c2, "w") : NULL;
        if (in && out)
            external_serve(&set, in, out);
        if (in)
            fclose(in);
        else
            close(c);
        if (out)
            fclose(out);
        else if (c2 >= 0)
            close(c2);
    } while (!once);
    close(fd);
    return 0;
}
