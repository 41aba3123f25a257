// The command loop's common parts: a line in tokens, and replies.
#include "protocol/command.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

// Split a line on spaces and tabs (CR and LF end it).
bool tokens_split(const char *line, Tokens *t) {
    size_t len = strcspn(line, "\r\n");
    t->n = 0;
    t->buf = malloc(len + 1);
    t->v = malloc((len / 2 + 2) * sizeof *t->v);
    if (!t->buf || !t->v) {
        free(t->buf);
        free(t->v);
        return false;
    }
    memcpy(t->buf, line, len);
    t->buf[len] = '\0';
    for (char *save, *s = strtok_r(t->buf, " \t", &save); s; s = strtok_r(NULL, " \t", &save))
        t->v[t->n++] = s;
    return true;
}

void tokens_free(Tokens *t) {
    free(t->buf);
    free(t->v);
}

// A copy of user text that is safe to echo: at most 40 printable characters.
const char *text_shown(const char *s, char buf[48]) {
    int i = 0;
    for (; s[i] && i < 40; i++)
        buf[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
    strcpy(buf + i, s[i] ? "..." : "");
    return buf;
}

// Reply with one error line; bytes outside printable ASCII that user text brought into the
// message are shown as '?'.
void reply_error(Uci *u, const char *msg) {
    char clean[512];
    size_t i = 0;
    for (; msg[i] && i + 1 < sizeof clean; i++)
        clean[i] = msg[i] >= 0x20 && msg[i] <= 0x7e ? msg[i] : '?';
    clean[i] = '\0';
    if (u->ubgi.on) // the loop's own errors (a NUL byte, no memory) in the UBGI dialect
        output_line(u->out, "error bad_command %s", clean);
    else
        output_line(u->out, "info string error: %s", clean);
}

// Join tokens [from, to) with single spaces into a new string.
char *tokens_join(const Tokens *t, int from, int to) {
    size_t len = 1;
    for (int i = from; i < to; i++)
        len += strlen(t->v[i]) + 1;
    char *s = malloc(len), *end = s;
    if (!s)
        return NULL;
    for (int i = from; i < to; i++) {
        size_t n = strlen(t->v[i]);
        if (i > from)
            *end++ = ' ';
        memcpy(end, t->v[i], n);
        end += n;
    }
    *end = '\0';
    return s;
}

// Print text one reply line per line.
void reply_lines(Uci *u, char *text) {
    for (char *line = text, *next; *line; line = next) {
        next = line + strcspn(line, "\n");
        if (*next)
            *next++ = '\0';
        output_line(u->out, "%s", line);
    }
}
