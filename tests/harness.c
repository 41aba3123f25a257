#include "tests/harness.h"

#include "tests/helpers.h"

#include <check.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

// ---------------------------------------------------------------------------------------------
// An engine in this process

Proto *proto_open(void) {
    Proto *e = calloc(1, sizeof *e);
    ck_assert_ptr_nonnull(e);
    e->f = open_memstream(&e->buf, &e->len);
    ck_assert_ptr_nonnull(e->f);
    output_init(&e->out, e->f);
    ck_assert(uci_init(&e->uci, &e->out));
    return e;
}

void proto_close(Proto *e) {
    uci_free(&e->uci);
    output_free(&e->out);
    fclose(e->f);
    free(e->buf);
    free(e->last);
    free(e);
}

// A search thread may be writing: the stream is read under the writer's lock.
const char *proto_take(Proto *e) {
    pthread_mutex_lock(&e->out.lock);
    fflush(e->f);
    free(e->last);
    e->last = strndup(e->buf + e->seen, e->len - e->seen);
    e->seen = e->len;
    pthread_mutex_unlock(&e->out.lock);
    ck_assert_ptr_nonnull(e->last);
    return e->last;
}

char *proto_peek(Proto *e) {
    pthread_mutex_lock(&e->out.lock);
    fflush(e->f);
    char *text = strndup(e->buf + e->seen, e->len - e->seen);
    pthread_mutex_unlock(&e->out.lock);
    ck_assert_ptr_nonnull(text);
    return text;
}

const char *proto_send(Proto *e, const char *line) {
    uci_execute(&e->uci, line);
    return proto_take(e);
}

char *proto_send_copy(Proto *e, const char *line) {
    char *text = strdup(proto_send(e, line));
    ck_assert_ptr_nonnull(text);
    return text;
}

bool proto_wait_lines(Proto *e, const char *prefix, int count, double timeout) {
    double t0 = seconds();
    for (;;) {
        char *text = proto_peek(e);
        bool found = count_prefix(text, prefix) >= count;
        free(text);
        if (found)
            return true;
        if (seconds() - t0 > timeout)
            return false;
        sleep_ms(1);
    }
}

bool proto_wait_line(Proto *e, const char *prefix, double timeout) {
    return proto_wait_lines(e, prefix, 1, timeout);
}

// The thread is joined even when no bestmove came, so that the test fails cleanly.
const char *proto_wait_bestmove(Proto *e) {
    bool ok = proto_wait_line(e, "bestmove ", SEARCH_WAIT);
    uci_stop_search(&e->uci);
    ck_assert_msg(ok, "no bestmove within %.0f s", SEARCH_WAIT);
    return proto_take(e);
}

char *proto_run(const char *script, bool each) {
    Proto *e = proto_open();
    char *copy = strdup(script);
    ck_assert_ptr_nonnull(copy);
    for (char *line = copy, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        uci_execute(&e->uci, line);
        if (each)
            uci_finish_search(&e->uci);
    }
    free(copy);
    uci_finish_search(&e->uci);
    char *text = strdup(proto_take(e));
    ck_assert_ptr_nonnull(text);
    proto_close(e);
    return text;
}

char *proto_loop(const char *input, size_t len) {
    Proto *e = proto_open();
    FILE *in = fmemopen((void *)input, len, "r");
    ck_assert_ptr_nonnull(in);
    uci_loop(&e->uci, in);
    fclose(in);
    char *text = strdup(proto_take(e));
    ck_assert_ptr_nonnull(text);
    proto_close(e);
    return text;
}

void proto_fen(Proto *e, char *buf, size_t n) {
    ck_assert_msg(line_after(proto_send(e, "d"), "Position: ", buf, n),
                  "d prints no Position line");
}

void proto_key(Proto *e, char *buf, size_t n) {
    ck_assert_msg(line_after(proto_send(e, "d"), "Key: ", buf, n), "d prints no Key line");
}

char *proto_snapshot(Proto *e) {
    char *d = proto_send_copy(e, "d");
    const char *opts = proto_send(e, "uci");
    char *all = malloc(strlen(d) + strlen(opts) + 1);
    ck_assert_ptr_nonnull(all);
    strcpy(all, d);
    strcat(all, opts);
    free(d);
    return all;
}

bool proto_is_legal(Proto *e, const char *move) {
    static char buf[16384];
    static char *tok[2048];
    if (!strcmp(move, "(none)"))
        return false;
    int n = split_moves(proto_send(e, "moves"), buf, sizeof buf, tok, 2048);
    for (int i = 0; i < n; i++)
        if (!strcmp(tok[i], move))
            return true;
    return false;
}

void assert_good_bestmove(Proto *e, const char *text, char *best_out, size_t n) {
    char best[64], ponder[64], fen[128], line[512];
    char *copy = strdup(text);
    ck_assert_ptr_nonnull(copy);
    get_bestmove(copy, best, ponder, sizeof best);
    free(copy);
    ck_assert_msg(proto_is_legal(e, best), "bestmove %s is not legal", best);
    if (ponder[0]) {
        proto_fen(e, fen, sizeof fen);
        snprintf(line, sizeof line, "position fen %s moves %s", fen, best);
        ck_assert_str_eq(proto_send(e, line), "");
        ck_assert_msg(proto_is_legal(e, ponder), "ponder %s is not legal after %s", ponder, best);
        snprintf(line, sizeof line, "position fen %s", fen);
        ck_assert_str_eq(proto_send(e, line), "");
    }
    if (best_out)
        snprintf(best_out, n, "%s", best);
}

// ---------------------------------------------------------------------------------------------
// The real binary on pipes

const char *tabula_bin(void) {
    const char *env = getenv("TABULA_BIN");
    return env && *env ? env : "../build/debug/tabula";
}

Child *child_start(void) {
    const char *path = tabula_bin();
    ck_assert_msg(access(path, X_OK) == 0, "no engine binary at %s (make check builds it)", path);
    signal(SIGPIPE, SIG_IGN);
    Child *p = calloc(1, sizeof *p);
    ck_assert_ptr_nonnull(p);
    int to[2], from[2];
    ck_assert(pipe(to) == 0 && pipe(from) == 0);
    pid_t parent = getpid();
    p->pid = fork();
    ck_assert(p->pid >= 0);
    if (p->pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(126);
        dup2(to[0], STDIN_FILENO);
        dup2(from[1], STDOUT_FILENO);
        close(to[0]), close(to[1]), close(from[0]), close(from[1]);
        execl(path, "tabula", (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    p->in = to[1];
    p->out = from[0];
    return p;
}

const char *child_log_tail(const Child *p) {
    if (!p->log)
        return "(nothing)";
    return p->log_len > 1500 ? p->log + p->log_len - 1500 : p->log;
}

// Append n bytes of data to the growing string s of length len in cap bytes.
static void append(char **s, size_t *len, size_t *cap, const char *data, size_t n) {
    if (*len + n + 1 > *cap) {
        *cap = (*len + n + 1) * 2;
        *s = realloc(*s, *cap);
        ck_assert_ptr_nonnull(*s);
    }
    memcpy(*s + *len, data, n);
    *len += n;
    (*s)[*len] = '\0';
}

void child_send_bytes(Child *p, const char *data, size_t n) {
    char nl = '\n';
    for (size_t done = 0; done < n;) {
        ssize_t k = write(p->in, data + done, n - done);
        ck_assert_msg(k > 0 || errno == EINTR, "the engine closed its input: %s",
                      child_log_tail(p));
        if (k > 0)
            done += (size_t)k;
    }
    ck_assert_msg(write(p->in, &nl, 1) == 1, "the engine closed its input: %s", child_log_tail(p));
}

void child_send(Child *p, const char *line) { child_send_bytes(p, line, strlen(line)); }

char *child_read_line(Child *p, double timeout) {
    double end = seconds() + timeout;
    for (;;) {
        char *nl = p->buf ? memchr(p->buf, '\n', p->len) : NULL;
        if (nl) {
            size_t n = (size_t)(nl - p->buf);
            char *line = strndup(p->buf, n);
            ck_assert_ptr_nonnull(line);
            append(&p->log, &p->log_len, &p->log_cap, p->buf, n + 1);
            memmove(p->buf, nl + 1, p->len - n - 1);
            p->len -= n + 1;
            return line;
        }
        double left = end - seconds();
        if (left <= 0)
            return NULL;
        struct pollfd pfd = {p->out, POLLIN, 0};
        int r = poll(&pfd, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            continue;
        char chunk[65536];
        ssize_t k = read(p->out, chunk, sizeof chunk);
        if (k <= 0)
            return NULL;
        append(&p->buf, &p->len, &p->cap, chunk, (size_t)k);
    }
}

char *child_expect(Child *p, const char *prefix, double timeout) {
    char *text = NULL;
    size_t len = 0, cap = 0;
    append(&text, &len, &cap, "", 0);
    double end = seconds() + timeout;
    for (;;) {
        char *line = child_read_line(p, end - seconds());
        ck_assert_msg(line != NULL, "no '%s' within %.1f s; the engine wrote:\n%s", prefix, timeout,
                      child_log_tail(p));
        append(&text, &len, &cap, line, strlen(line));
        append(&text, &len, &cap, "\n", 1);
        bool found = !strncmp(line, prefix, strlen(prefix));
        free(line);
        if (found)
            return text;
    }
}

double child_timed(Child *p, const char *line, const char *prefix, char **text) {
    double t0 = seconds();
    child_send(p, line);
    char *reply = child_expect(p, prefix, CHILD_WAIT);
    double t = seconds() - t0;
    if (text)
        *text = reply;
    else
        free(reply);
    return t;
}

char *child_sync(Child *p) {
    child_send(p, "isready");
    char *text = child_expect(p, "readyok", CHILD_WAIT);
    text[strlen(text) - strlen("readyok\n")] = '\0';
    return text;
}

void child_quit(Child *p) {
    child_send(p, "quit");
    double end = seconds() + CHILD_WAIT;
    int status = 0;
    pid_t r;
    while ((r = waitpid(p->pid, &status, WNOHANG)) == 0 && seconds() < end)
        sleep_ms(1);
    if (r == 0) {
        kill(p->pid, SIGKILL);
        waitpid(p->pid, &status, 0);
    }
    ck_assert_msg(r == p->pid, "the engine did not exit after quit");
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the engine exited with %d",
                  status);
    close(p->in);
    close(p->out);
    free(p->buf);
    free(p->log);
    free(p);
}

// ---------------------------------------------------------------------------------------------
// Protocol text

int count_lines(const char *text) {
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

bool has_line(const char *text, const char *line) {
    size_t len = strlen(line);
    for (const char *l = text; *l;) {
        const char *end = strchr(l, '\n');
        size_t n = end ? (size_t)(end - l) : strlen(l);
        if (n == len && !strncmp(l, line, len))
            return true;
        if (!end)
            break;
        l = end + 1;
    }
    return false;
}

bool printable_ascii(const char *text) {
    for (const unsigned char *c = (const unsigned char *)text; *c; c++)
        if (*c != '\n' && (*c < 0x20 || *c > 0x7e))
            return false;
    return true;
}

void assert_one_error(const char *text, const char *input) {
    ck_assert_msg(count_lines(text) == 1, "'%.60s' gave %d lines, not one error line:\n%.400s",
                  input, count_lines(text), text);
    ck_assert_msg(!strncmp(text, ERROR_PREFIX, strlen(ERROR_PREFIX)),
                  "'%.60s' gave '%.200s', not an error line", input, text);
}

// Order two strings for qsort.
static int compare_strings(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

bool same_moves(const char *reply, const char *list) {
    char a[4096], b[4096], *ta[512], *tb[512];
    int na = 0, nb = 0;
    if (count_lines(reply) != 1)
        return false;
    snprintf(a, sizeof a, "%s", reply);
    a[strcspn(a, "\n")] = '\0';
    snprintf(b, sizeof b, "%s", list);
    for (char *save, *t = strtok_r(a, " ", &save); t && na < 512; t = strtok_r(NULL, " ", &save))
        ta[na++] = t;
    for (char *save, *t = strtok_r(b, " ", &save); t && nb < 512; t = strtok_r(NULL, " ", &save))
        tb[nb++] = t;
    if (na != nb)
        return false;
    qsort(ta, (size_t)na, sizeof *ta, compare_strings);
    qsort(tb, (size_t)nb, sizeof *tb, compare_strings);
    for (int i = 0; i < na; i++)
        if (strcmp(ta[i], tb[i]))
            return false;
    return true;
}

int split_moves(const char *text, char *buf, size_t n, char **tok, int max) {
    ck_assert_int_eq(count_lines(text), 1);
    snprintf(buf, n, "%s", text);
    buf[strcspn(buf, "\n")] = '\0';
    int k = 0;
    for (char *save, *t = strtok_r(buf, " ", &save); t && k < max; t = strtok_r(NULL, " ", &save))
        tok[k++] = t;
    return k;
}

const char *last_line(const char *text) {
    const char *l = text + strlen(text);
    if (l > text && l[-1] == '\n')
        l--;
    while (l > text && l[-1] != '\n')
        l--;
    return l;
}

void get_bestmove(const char *text, char *best, char *ponder, size_t n) {
    char rest[256], a[64] = "", kw[64] = "", b[64] = "", extra[64] = "";
    int lines = count_prefix(text, "bestmove");
    ck_assert_msg(lines == 1, "%d bestmove lines in:\n%.3000s", lines, text);
    ck_assert(line_after(text, "bestmove ", rest, sizeof rest));
    int k = sscanf(rest, "%63s %63s %63s %63s", a, kw, b, extra);
    ck_assert_msg(k == 1 || (k == 3 && !strcmp(kw, "ponder")), "bad line 'bestmove %s'", rest);
    ck_assert_msg(!strchr(rest, '\t') && !strstr(rest, "  ") && rest[strlen(rest) - 1] != ' ',
                  "bad spacing in 'bestmove %s'", rest);
    snprintf(best, n, "%s", a);
    snprintf(ponder, n, "%s", k == 3 ? b : "");
}

const char *escape_line(const char *s, char *buf, size_t n) {
    size_t len = 0;
    buf[0] = '\0';
    for (const unsigned char *c = (const unsigned char *)s; *c && *c != '\n' && len + 5 < n; c++)
        len +=
            (size_t)snprintf(buf + len, n - len, *c >= 0x20 && *c <= 0x7e ? "%c" : "\\x%02x", *c);
    return buf;
}

// Read a decimal number token (negative only when sign) into v.
static bool read_number(const char *tok, bool sign, long long *v) {
    const char *d = sign && *tok == '-' ? tok + 1 : tok;
    if (!*d || strspn(d, "0123456789") != strlen(d) || strlen(d) > 18)
        return false;
    *v = strtoll(tok, NULL, 10);
    return true;
}

// Keywords in order, numbers numeric, single spaces.
void parse_info(const char *line, Info *in) {
    char buf[4096], *tok[1024];
    int n = 0, i = 0;
    long long v[3];
    ck_assert_msg(strlen(line) < sizeof buf, "info line too long");
    ck_assert_msg(!strstr(line, "  ") && line[strlen(line) - 1] != ' ' && !strchr(line, '\t'),
                  "bad spacing: '%s'", line);
    strcpy(buf, line);
    for (char *save, *t = strtok_r(buf, " ", &save); t && n < 1024; t = strtok_r(NULL, " ", &save))
        tok[n++] = t;
#define KEYWORD(k)                                                                                 \
    ck_assert_msg(i < n && !strcmp(tok[i], k), "expected '%s' at token %d of '%s'", k, i, line), i++
#define NUMBER(sign, out)                                                                          \
    ck_assert_msg(i < n && read_number(tok[i], sign, out), "token %d of '%s' is not a number", i,  \
                  line),                                                                           \
        i++
    memset(in, 0, sizeof *in);
    KEYWORD("info");
    KEYWORD("depth");
    NUMBER(false, &v[0]);
    in->depth = (int)v[0];
    KEYWORD("seldepth");
    NUMBER(false, &v[0]);
    in->seldepth = (int)v[0];
    KEYWORD("multipv");
    NUMBER(false, &v[0]);
    in->multipv = (int)v[0];
    KEYWORD("score");
    ck_assert_msg(i < n && (!strcmp(tok[i], "cp") || !strcmp(tok[i], "mate")),
                  "no cp or mate after score in '%s'", line);
    in->mate = !strcmp(tok[i++], "mate");
    NUMBER(true, &in->score);
    ck_assert_msg(!in->mate || in->score != 0, "mate 0 in '%s'", line);
    if (i < n && (!strcmp(tok[i], "lowerbound") || !strcmp(tok[i], "upperbound")))
        i++;
    if (i < n && !strcmp(tok[i], "wdl")) {
        i++;
        NUMBER(false, &v[0]);
        NUMBER(false, &v[1]);
        NUMBER(false, &v[2]);
        ck_assert_msg(v[0] + v[1] + v[2] == 1000, "wdl does not add up to 1000: '%s'", line);
        in->has_wdl = true;
    }
    KEYWORD("nodes");
    NUMBER(false, &in->nodes);
    KEYWORD("nps");
    NUMBER(false, &in->nps);
    KEYWORD("hashfull");
    NUMBER(false, &in->hashfull);
    KEYWORD("time");
    NUMBER(false, &in->time);
    KEYWORD("pv");
    ck_assert_msg(i < n, "empty pv in '%s'", line);
    snprintf(in->first, sizeof in->first, "%s", tok[i]);
#undef KEYWORD
#undef NUMBER
    ck_assert_msg(in->depth >= 1 && in->multipv >= 1, "'%s'", line);
    ck_assert_msg(in->hashfull <= 1000, "hashfull over 1000: '%s'", line);
    ck_assert_msg(in->nps == in->nodes * 1000 / (in->time > 1 ? in->time : 1),
                  "nps is not nodes * 1000 / time: '%s'", line);
}

int parse_infos(const char *text, Info *infos, int max) {
    int n = 0;
    for (const char *l = text; *l;) {
        const char *end = strchr(l, '\n');
        size_t len = end ? (size_t)(end - l) : strlen(l);
        if (len > 5 && !strncmp(l, "info ", 5) && strncmp(l, "info string", 11)) {
            char *line = strndup(l, len);
            ck_assert_ptr_nonnull(line);
            ck_assert_msg(n < max, "too many info lines");
            parse_info(line, &infos[n++]);
            free(line);
        }
        if (!end)
            break;
        l = end + 1;
    }
    return n;
}

const char *const NINE_POINTS[24] = {"a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5",
                                     "e5", "a4", "b4", "c4", "e4", "f4", "g4", "c3",
                                     "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1"};

const char *const VARIANT_IDS[NVARIANTS] = {"nine",   "twelve",     "eleven",  "morabaraba",
                                            "lasker", "six",        "five",    "seven",
                                            "three",  "nine-holes", "tapatan", "achi"};

int run_subcommand(SubcommandFn fn, const char *args, char **out, char **err) {
    char buf[2048], *argv[64];
    int argc = 0;
    size_t len = 0;
    for (const char *p = args; *p && len < sizeof buf - 256; p++) {
        if (p[0] == '%' && p[1] == 'T') {
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s", tabula_bin());
            p++;
        } else {
            buf[len++] = *p;
        }
    }
    buf[len] = '\0';
    for (char *save, *tok = strtok_r(buf, " ", &save); tok && argc < 63;
         tok = strtok_r(NULL, " ", &save))
        argv[argc++] = tok;
    argv[argc] = NULL;
    for (char *c = buf; c < buf + len; c++)
        if (*c == '~')
            *c = ' ';
    char *text = NULL, *err_text = NULL;
    size_t n, en;
    FILE *f = open_memstream(&text, &n), *e = open_memstream(&err_text, &en);
    int status = fn(argc, argv, f, e);
    fclose(f);
    fclose(e);
    if (out && err) {
        *out = text;
        *err = err_text;
        return status;
    }
    if (out) {
        size_t total = strlen(text) + strlen(err_text) + 1;
        *out = malloc(total);
        snprintf(*out, total, "%s%s", text, err_text);
    }
    free(text);
    free(err_text);
    return status;
}
