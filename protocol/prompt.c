// The interactive prompt. Completion is split in two: prompt_complete works out the
// candidates from the words before the cursor and the engine's state (no libedit in it, so
// tests and the fuzzer can call it), and the libedit glue below hands them to readline's
// completion. libedit's callbacks take no context, so the one Prompt being edited is a
// file-level pointer.
//
// Option names with spaces ("Move Overhead") are completed word by word: libedit escapes a
// space inside a completion ("Move\ Overhead"), which the command loop would not read back.
#include "protocol/prompt.h"

#include "engine/core/registry.h"
#include "protocol/command.h"

#include <ctype.h>
#include <editline/readline.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/select.h>
#include <unistd.h>

#define HISTORY_FILE ".tabula_history"
#define HISTORY_MAX 1000
#define SNAPSHOT_MAX 256

typedef struct Words {
    char **v;
    int n, cap;
} Words;

// Append a copy of s unless it is already there.
static void words_add(Words *w, const char *s, size_t len) {
    for (int i = 0; i < w->n; i++)
        if (strlen(w->v[i]) == len && !strncmp(w->v[i], s, len))
            return;
    if (w->n == w->cap) {
        int cap = w->cap ? 2 * w->cap : 16;
        char **v = realloc(w->v, (size_t)cap * sizeof *v);
        if (!v)
            return;
        w->v = v;
        w->cap = cap;
    }
    char *copy = strndup(s, len);
    if (copy)
        w->v[w->n++] = copy;
}

// Whether s starts with the typed word; fold: in any case (option names and values are read
// in any case, commands and moves are not).
static bool starts_with(const char *s, const char *word, bool fold) {
    size_t len = strlen(word);
    return fold ? !strncasecmp(s, word, len) : !strncmp(s, word, len);
}

// Offer s when it starts with word.
static void offer(Words *w, const char *s, const char *word, bool fold) {
    if (starts_with(s, word, fold))
        words_add(w, s, strlen(s));
}

static void offer_all(Words *w, const char *const *list, const char *word, bool fold) {
    for (int i = 0; list[i]; i++)
        offer(w, list[i], word, fold);
}

// The index of the first token equal to s in t[from, n), -1 when there is none.
static int find_token(char **t, int from, int n, const char *s) {
    for (int i = from; i < n; i++)
        if (!strcmp(t[i], s))
            return i;
    return -1;
}

// Join t[from, to) with single spaces into a new string.
static char *join(char **t, int from, int to) {
    size_t len = 1;
    for (int i = from; i < to; i++)
        len += strlen(t[i]) + 1;
    char *s = malloc(len);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (int i = from; i < to; i++) {
        if (i > from)
            strcat(s, " ");
        strcat(s, t[i]);
    }
    return s;
}

// ---------------------------------------------------------------------------------------------
// Legal moves

typedef struct MoveOffer {
    Words *w;
    const char *word;
    char **typed; // moves already on the line, not offered again
    int ntyped;
} MoveOffer;

static void offer_move(void *ctx, const char *move) {
    MoveOffer *m = ctx;
    if (find_token(m->typed, 0, m->ntyped, move) < 0)
        offer(m->w, move, m->word, false);
}

// Offer the legal moves of the engine's position, but those in typed.
static void offer_current_moves(Prompt *p, Words *w, const char *word, char **typed, int ntyped) {
    char **moves;
    MoveOffer m = {w, word, typed, ntyped};
    int n = uci_legal_moves(p->u, &moves);
    for (int i = 0; i < n; i++) {
        offer_move(&m, moves[i]);
        free(moves[i]);
    }
    free(moves);
}

// Offer the moves legal after `position startpos|<format> <text> moves <moves>`, replayed on
// the scratch game under the engine's variant and rule options; nothing when that fails. The
// text is read by the family, as `position` does.
static void offer_moves_after(Prompt *p, Words *w, const char *word, const char *format,
                              const char *fen, char **moves, int nmoves) {
    const GameFamily *f = p->u->family;
    const char *variant = f->variant(p->u->game);
    Error err;
    if (p->scratch && p->scratch_family != f) { // the engine switched family since
        p->scratch_family->destroy(p->scratch);
        p->scratch = NULL;
    }
    if (!p->scratch) {
        if (!(p->scratch = f->create(variant)))
            return;
        p->scratch_family = f;
        f->set_hash(p->scratch, 1, &err); // it never searches
    }
    if (!f->set_variant(p->scratch, variant, &err))
        return;
    pthread_mutex_lock(&p->u->game_lock);
    for (int i = 0; i < f->noptions; i++) {
        char value[64];
        if (f->options[i].type == OPTION_STRING)
            continue; // a path to load (TablebasePath): no bearing on the legal moves
        f->get_option(p->u->game, f->options[i].name, value, sizeof value);
        f->set_option(p->scratch, f->options[i].name, value, &err);
    }
    pthread_mutex_unlock(&p->u->game_lock);
    char converted[GAME_POSITION_MAX];
    if (fen && !f->read_position(p->scratch, format, fen, converted, sizeof converted, &err))
        return;
    if (fen)
        fen = converted;
    if (!f->set_position(p->scratch, fen, (const char *const *)moves, nmoves, &err))
        return;
    MoveOffer m = {w, word, NULL, 0};
    f->legal_moves(p->scratch, offer_move, &m);
}

// ---------------------------------------------------------------------------------------------
// The commands' arguments

// The k-th space-separated word of name and its length; NULL when name has fewer words.
static const char *name_word(const char *name, int k, size_t *len) {
    for (; k > 0 && name; k--)
        if ((name = strchr(name, ' ')))
            name++;
    if (name)
        *len = strcspn(name, " ");
    return name;
}

// setoption name <id> [value <x>]: the option name one word at a time, then `value`, then the
// variant ids or true/false.
static void complete_setoption(Prompt *p, char **t, int n, const char *word, Words *w) {
    static const char *const BOOLS[] = {"true", "false", NULL};
    if (n == 1) {
        offer(w, "name", word, false);
        return;
    }
    if (strcmp(t[1], "name"))
        return;
    int value_kw = find_token(t, 3, n, "value");
    if (value_kw < 0) {
        int k = n - 2; // the index of the word being typed within the option's name
        const char *name;
        for (int i = 0; (name = uci_option_name(p->u, i)); i++) {
            const char *s;
            size_t len;
            bool same = true;
            for (int j = 0; j < k && same; j++)
                same = (s = name_word(name, j, &len)) && strlen(t[2 + j]) == len &&
                       !strncasecmp(s, t[2 + j], len);
            if (!same)
                continue;
            if ((s = name_word(name, k, &len)) && !strncasecmp(s, word, strlen(word)) &&
                strlen(word) <= len)
                words_add(w, s, len);
            else if (!s && k > 0)
                offer(w, "value", word, false);
        }
    } else if (n == value_kw + 1) {
        char *name = join(t, 2, value_kw);
        const GameFamily *f = p->u->family;
        if (name && !strcasecmp(name, "UCI_Variant")) {
            const char *id;
            for (int i = 0; (id = registry_variant(i)); i++)
                offer(w, id, word, true);
        }
        for (int i = 0; name && i < f->noptions; i++)
            if (f->options[i].type == OPTION_CHECK && !strcasecmp(name, f->options[i].name))
                offer_all(w, BOOLS, word, true);
        free(name);
    }
}

// position startpos|fen <string> [moves <m1> ...]: the keywords, then the moves legal after
// the ones already typed.
static void complete_position(Prompt *p, char **t, int n, const char *word, Words *w) {
    const GameFamily *f = p->u->family;
    if (n == 1) {
        offer(w, "startpos", word, false);
        offer_all(w, f->position_formats, word, false);
        return;
    }
    int moves_kw = find_token(t, 1, n, "moves");
    bool startpos = !strcmp(t[1], "startpos"), fen = false;
    for (int i = 0; f->position_formats[i]; i++)
        fen = fen || !strcmp(t[1], f->position_formats[i]);
    if (moves_kw < 0) {
        if ((startpos && n == 2) || (fen && n >= 3))
            offer(w, "moves", word, false);
    } else if (startpos && moves_kw == 2) {
        offer_moves_after(p, w, word, NULL, NULL, t + 3, n - 3);
    } else if (fen && moves_kw > 2) {
        char *s = join(t, 2, moves_kw);
        if (s)
            offer_moves_after(p, w, word, t[1], s, t + moves_kw + 1, n - moves_kw - 1);
        free(s);
    }
}

// go [<limit> <value>] ... [searchmoves <m1> ...]: the keywords (but in a limit's value),
// then after searchmoves the legal moves not listed yet.
static void complete_go(Prompt *p, char **t, int n, const char *word, Words *w) {
    static const char *const VALUED[] = {"wtime",  "btime",    "winc",      "binc",  "p1time",
                                         "p2time", "p1inc",    "p2inc",     "depth", "nodes",
                                         "mate",   "movetime", "movestogo", NULL};
    static const char *const BARE[] = {"infinite", "ponder", "searchmoves", NULL};
    int moves_kw = find_token(t, 1, n, "searchmoves");
    if (moves_kw >= 0) {
        offer_current_moves(p, w, word, t + moves_kw + 1, n - moves_kw - 1);
        return;
    }
    for (int i = 0; VALUED[i]; i++)
        if (!strcmp(t[n - 1], VALUED[i]))
            return;
    offer_all(w, VALUED, word, false);
    offer_all(w, BARE, word, false);
}

static int compare_words(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void prompt_init(Prompt *p, Uci *u) {
    p->u = u;
    p->scratch = NULL;
    p->scratch_family = NULL;
}

void prompt_free(Prompt *p) {
    if (p->scratch)
        p->scratch_family->destroy(p->scratch);
    p->scratch = NULL;
}

int prompt_complete(Prompt *p, const char *line, int start, int end, char ***words) {
    Words w = {NULL, 0, 0};
    size_t len = strlen(line);
    *words = NULL;
    if (start < 0 || start > end || (size_t)end > len)
        return 0;
    char *head = strndup(line, (size_t)start), *word = strndup(line + start, (size_t)(end - start));
    char **t = malloc(((size_t)start / 2 + 2) * sizeof *t);
    if (!head || !word || !t) {
        free(head);
        free(word);
        free(t);
        return 0;
    }
    int n = 0;
    for (char *save, *s = strtok_r(head, " \t", &save); s; s = strtok_r(NULL, " \t", &save))
        t[n++] = s;

    static const char *const DEBUG[] = {"on", "off", NULL};
    static const char *const QUERY[] = {"gameover", "p1turn", "result", NULL};
    if (n == 0 || (n == 1 && !strcmp(t[0], "help"))) {
        const char *name;
        for (int i = 0; (name = uci_command_name(i)); i++)
            offer(&w, name, word, false);
    } else if (!strcmp(t[0], "setoption")) {
        complete_setoption(p, t, n, word, &w);
    } else if (!strcmp(t[0], "position")) {
        complete_position(p, t, n, word, &w);
    } else if (!strcmp(t[0], "go")) {
        complete_go(p, t, n, word, &w);
    } else if (!strcmp(t[0], "move") && n == 1) {
        offer_current_moves(p, &w, word, NULL, 0);
    } else if (!strcmp(t[0], "debug") && n == 1) {
        offer_all(&w, DEBUG, word, false);
    } else if (!strcmp(t[0], "query") && n == 1) {
        offer_all(&w, QUERY, word, false);
    }
    free(head);
    free(word);
    free(t);
    if (w.n)
        qsort(w.v, (size_t)w.n, sizeof *w.v, compare_words);
    *words = w.v;
    return w.n;
}

// ---------------------------------------------------------------------------------------------
// libedit

static Prompt *editing; // the prompt whose state completion reads
static char **candidates;
static int ncandidates;

static void free_candidates(void) {
    for (int i = 0; i < ncandidates; i++)
        free(candidates[i]);
    free(candidates);
    candidates = NULL;
    ncandidates = 0;
}

// readline's generator: the state-th candidate (0 starts over), NULL after the last.
static char *next_candidate(const char *text, int state) {
    (void)text;
    return state < ncandidates ? strdup(candidates[state]) : NULL;
}

// readline's completion hook: never fall back to file names.
static char **complete(const char *text, int start, int end) {
    rl_attempted_completion_over = 1;
    free_candidates();
    ncandidates = prompt_complete(editing, rl_line_buffer, start, end, &candidates);
    return ncandidates ? rl_completion_matches(text, next_candidate) : NULL;
}

// The history file's path (malloc'd), NULL without $HOME.
static char *history_path(void) {
    const char *home = getenv("HOME");
    if (!home || !*home)
        return NULL;
    char *path = malloc(strlen(home) + sizeof "/" HISTORY_FILE);
    if (path)
        sprintf(path, "%s/%s", home, HISTORY_FILE);
    return path;
}

// Save the history; the file is created private (it holds what was typed). Failures are
// silent: a read-only or missing home only loses the history.
static void save_history(const char *path) {
    if (!path)
        return;
    int fd = open(path, O_WRONLY | O_CREAT, 0600);
    if (fd < 0)
        return;
    close(fd);
    write_history(path);
}

// The variant and position string, to see whether a command changed them.
static void snapshot(Uci *u, char *buf, size_t n) {
    char fen[SNAPSHOT_MAX];
    pthread_mutex_lock(&u->game_lock);
    u->family->get_position(u->game, fen, sizeof fen);
    snprintf(buf, n, "%s %s", u->family->variant(u->game), fen);
    pthread_mutex_unlock(&u->game_lock);
}

// The first word of line is cmd.
static bool is_command(const char *line, const char *cmd) {
    line += strspn(line, " \t");
    size_t len = strlen(cmd);
    return !strncmp(line, cmd, len) && (line[len] == '\0' || isspace((unsigned char)line[len]));
}

// Whether line is a move and no command: a person may type `d6` for `move d6` (the first word
// a legal move); in backgammon also a play in gnubg's form, `8/5 6/5` or `bar/22*` (move then
// says why it is refused when it is not legal), and `double`, `take`, `drop`.
static bool is_bare_move(Uci *u, const char *line) {
    line += strspn(line, " \t");
    size_t len = strcspn(line, " \t");
    if (!len || line[0] == '#')
        return false;
    const char *name;
    for (int i = 0; (name = uci_command_name(i)); i++)
        if (strlen(name) == len && !strncmp(name, line, len))
            return false;
    bool cube = (len == 6 && !strncmp(line, "double", 6)) ||
                (len == 4 && !strncmp(line, "take", 4)) || (len == 4 && !strncmp(line, "drop", 4));
    if ((u->family->capabilities & GAME_HAS_DICE) && (looks_like_play(line) || cube))
        return true; // move plays it or says why it cannot be played now
    char **moves;
    int n = uci_legal_moves(u, &moves);
    bool found = false;
    for (int i = 0; i < n; i++) {
        found = found || (strlen(moves[i]) == len && !strncmp(moves[i], line, len));
        free(moves[i]);
    }
    free(moves);
    return found;
}

// ---------------------------------------------------------------------------------------------
// Replies while a line is edited, and Ctrl-C
//
// While libedit reads a line, the replies (a search's info and bestmove lines) go to a pipe
// instead of the terminal; the key reader waits on the keyboard, that pipe and a second pipe
// that the SIGINT handler writes to. Replies are printed above the prompt, which is then drawn
// again with the partly typed line, so the prompt is always the last line. While a command
// runs, replies go straight to the terminal (nothing is being edited), and Ctrl-C has its
// default effect: bench or perft are not searches to stop.

typedef struct Plumbing {
    int replies[2]; // read end, write end
    int interrupts[2];
    FILE *replies_out; // the write end, as the Output's stream while a line is edited
    FILE *terminal;    // the Output's own stream
    char partial[1024];
    size_t npartial;   // the start of a reply line still being written
    bool play_pending; // a `play` search runs: draw the board after its bestmove
    bool saw_bestmove; // the replies shown held a bestmove line
    struct sigaction old_sigint;
} Plumbing;

static Plumbing plumbing = {.replies = {-1, -1}, .interrupts = {-1, -1}};

// SIGINT while a line is edited: only note it (the key reader acts on it, outside the
// handler, where stopping a search is allowed).
static void on_sigint(int sig) {
    (void)sig;
    int saved = errno;
    char c = 'i';
    if (write(plumbing.interrupts[1], &c, 1) < 0) {
        // the pipe is full: Ctrl-C was pressed many times already
    }
    errno = saved;
}

// Write n bytes to the terminal, each line ending in CR LF: libedit may have turned off the
// terminal's own newline translation.
static void put_terminal(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n')
            fputc('\r', stdout);
        fputc(s[i], stdout);
    }
}

// Print the whole reply lines that arrived, and keep a line's start for later; true when
// something was printed. Holds the Output lock, so no line is half written meanwhile.
static bool drain_replies(bool all) {
    char buf[4096];
    bool printed = false;
    ssize_t n;
    while ((n = read(plumbing.replies[0], buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < n; i++) {
            char c = buf[i];
            if (plumbing.npartial < sizeof plumbing.partial - 1)
                plumbing.partial[plumbing.npartial++] = c;
            if (c != '\n' && plumbing.npartial < sizeof plumbing.partial - 1)
                continue;
            if (!printed && !all)
                fputs("\r\033[K", stdout); // the prompt line goes; it is drawn again below
            printed = true;
            plumbing.partial[plumbing.npartial] = '\0';
            if (!strncmp(plumbing.partial, "bestmove", 8))
                plumbing.saw_bestmove = true;
            put_terminal(plumbing.partial, plumbing.npartial);
            plumbing.npartial = 0;
        }
    }
    if (all && plumbing.npartial) {
        put_terminal(plumbing.partial, plumbing.npartial);
        plumbing.npartial = 0;
    }
    fflush(stdout);
    return printed;
}

// Send the replies to the pipe (edit) or to the terminal, printing what the pipe still holds
// first, under the Output lock.
static void route_replies(Uci *u, bool edit) {
    pthread_mutex_lock(&u->out->lock);
    if (edit) {
        u->out->f = plumbing.replies_out;
    } else {
        fflush(u->out->f);
        drain_replies(true);
        u->out->f = plumbing.terminal;
    }
    pthread_mutex_unlock(&u->out->lock);
}

// Draw the board, as after a command that changed the position.
static void draw(Uci *u) { uci_print_board(u); }

// Ctrl-C while a line is edited: stop the search if one runs (its bestmove arrives through
// the pipe) and return 0; else leave the line typed so far on the screen and return the key
// that empties it (Ctrl-U, kill-line in both of libedit's key maps) under a fresh prompt.
static int interrupted(Uci *u) {
    char c[16];
    while (read(plumbing.interrupts[0], c, sizeof c) > 0)
        continue;
    if (u->searching) {
        uci_stop_search(u);
        return 0;
    }
    fputs("^C\r\n", stdout);
    rl_forced_update_display();
    return 'U' & 0x1f;
}

// libedit's key reader: wait for a key, showing the replies and acting on Ctrl-C meanwhile.
static int read_key(FILE *in) {
    (void)in;
    int top =
        plumbing.replies[0] > plumbing.interrupts[0] ? plumbing.replies[0] : plumbing.interrupts[0];
    for (;;) {
        fd_set fds;
        FD_ZERO(&fds);
        FD_SET(STDIN_FILENO, &fds);
        FD_SET(plumbing.replies[0], &fds);
        FD_SET(plumbing.interrupts[0], &fds);
        if (select(top + 1, &fds, NULL, NULL, NULL) < 0) {
            if (errno == EINTR)
                continue;
            return EOF;
        }
        int key;
        if (FD_ISSET(plumbing.interrupts[0], &fds) && (key = interrupted(editing->u)))
            return key;
        if (FD_ISSET(plumbing.replies[0], &fds)) {
            pthread_mutex_lock(&editing->u->out->lock);
            bool printed = drain_replies(false);
            pthread_mutex_unlock(&editing->u->out->lock);
            if (plumbing.play_pending && plumbing.saw_bestmove) {
                // The move is on the board once bestmove is out: join the thread, draw it.
                plumbing.play_pending = false;
                uci_finish_search(editing->u);
                draw(editing->u);
            }
            plumbing.saw_bestmove = false;
            if (printed)
                rl_forced_update_display();
        }
        if (FD_ISSET(STDIN_FILENO, &fds)) {
            unsigned char c;
            ssize_t n = read(STDIN_FILENO, &c, 1);
            if (n == 1)
                return c;
            if (n < 0 && errno == EINTR)
                continue;
            return EOF;
        }
    }
}

// Open the pipes and catch SIGINT; false (and the plain blocking prompt) when that fails.
static bool plumbing_open(Uci *u) {
    if (pipe(plumbing.replies) < 0)
        return false;
    if (pipe(plumbing.interrupts) < 0) {
        close(plumbing.replies[0]);
        close(plumbing.replies[1]);
        return false;
    }
    for (int i = 0; i < 2; i++) {
        fcntl(plumbing.replies[i], F_SETFD, FD_CLOEXEC);
        fcntl(plumbing.interrupts[i], F_SETFD, FD_CLOEXEC);
        fcntl(plumbing.interrupts[i], F_SETFL, O_NONBLOCK);
    }
    fcntl(plumbing.replies[0], F_SETFL, O_NONBLOCK);
    plumbing.replies_out = fdopen(plumbing.replies[1], "w");
    plumbing.terminal = u->out->f;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    if (!plumbing.replies_out || sigaction(SIGINT, &sa, &plumbing.old_sigint) < 0)
        return false;
    rl_getc_function = read_key;
    rl_catch_signals = 0; // libedit's own handlers would pass Ctrl-C on to the default one
    return true;
}

// Put everything back as it was before the prompt.
static void plumbing_close(Uci *u) {
    if (plumbing.replies_out) {
        route_replies(u, false);
        sigaction(SIGINT, &plumbing.old_sigint, NULL);
        fclose(plumbing.replies_out);
        plumbing.replies_out = NULL;
    } else if (plumbing.replies[1] >= 0) {
        close(plumbing.replies[1]);
    }
    if (plumbing.replies[0] >= 0)
        close(plumbing.replies[0]);
    if (plumbing.interrupts[0] >= 0) {
        close(plumbing.interrupts[0]);
        close(plumbing.interrupts[1]);
    }
    plumbing.replies[0] = plumbing.replies[1] = -1;
    plumbing.interrupts[0] = plumbing.interrupts[1] = -1;
}

// Ctrl-C while a command runs in the foreground has its default effect (bench, perft).
static void foreground(bool on) {
    if (!plumbing.replies_out)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on ? SIG_DFL : on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}

// Execute one line typed at the prompt: a bare move is played; the board is drawn when the
// position changed (after a `play` search, once its bestmove is out).
static void run_line(Uci *u, const char *line) {
    char before[SNAPSHOT_MAX + 32], after[SNAPSHOT_MAX + 32];
    snapshot(u, before, sizeof before);
    plumbing.play_pending = false;
    if (is_bare_move(u, line)) {
        char *cmd = malloc(strlen(line) + sizeof "move ");
        if (cmd) {
            sprintf(cmd, "move %s", line + strspn(line, " \t"));
            uci_execute(u, cmd);
        }
        free(cmd);
    } else {
        uci_execute(u, line);
    }
    if (is_command(line, "play") && u->searching) {
        if (plumbing.replies_out) {
            plumbing.play_pending = true; // drawn by the key reader when the move is out
            return;
        }
        uci_finish_search(u);
    }
    snapshot(u, after, sizeof after);
    if (!u->quit &&
        (strcmp(before, after) || is_command(line, "new") || is_command(line, "ucinewgame")))
        draw(u);
}

void prompt_run(Uci *u) {
    Prompt p;
    char *path = history_path(), *line, *last = NULL;
    prompt_init(&p, u);
    editing = &p;
    rl_readline_name = "tabula"; // for $if tabula in ~/.editrc
    rl_attempted_completion_function = complete;
    rl_basic_word_break_characters = " \t";
    if (!plumbing_open(u))
        plumbing_close(u);
    stifle_history(HISTORY_MAX);
    if (path)
        read_history(path);
    output_line(u->out,
                "tabula %s: type 'help' for the commands, a move to play it, 'quit' to leave "
                "(Ctrl-C stops a search)",
                TABULA_VERSION);
    for (;;) {
        if (plumbing.replies_out)
            route_replies(u, true);
        line = u->quit ? NULL : readline("tabula> ");
        if (plumbing.replies_out)
            route_replies(u, false);
        if (!line)
            break;
        if (line[strspn(line, " \t")] && (!last || strcmp(line, last))) {
            add_history(line);
            save_history(path);
            free(last);
            last = strdup(line);
        }
        foreground(true);
        run_line(u, line);
        foreground(false);
        free(line);
    }
    if (!u->quit)
        fputc('\n', stdout); // end of input (Ctrl-D) left the cursor after the prompt
    plumbing_close(u);
    save_history(path);
    free_candidates();
    free(last);
    free(path);
    editing = NULL;
    prompt_free(&p);
}
