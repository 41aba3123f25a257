// Recursive descent over RFC 8259 JSON; strings keep \uXXXX escapes below 0x80 and write
// others as UTF-8. Depth is capped so that hostile input cannot exhaust the stack.
#include "match/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_DEPTH_MAX 64

typedef struct Parser {
    const char *s, *start;
    char *err;
    size_t errn;
    bool failed;
} Parser;

static Json *fail(Parser *p, const char *what) {
    if (!p->failed)
        snprintf(p->err, p->errn, "%s at byte %td", what, p->s - p->start);
    p->failed = true;
    return NULL;
}

static void skip_space(Parser *p) {
    while (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r')
        p->s++;
}

static int hex(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// Parse a string literal at p->s (on its opening quote) into a new buffer.
static char *parse_string(Parser *p) {
    const char *q = ++p->s;
    size_t cap = 16, len = 0;
    char *out = malloc(cap);
    while (out && *q != '"') {
        if (len + 5 > cap) {
            char *grown = realloc(out, cap *= 2);
            if (!grown) {
                free(out);
                out = NULL;
                break;
            }
            out = grown;
        }
        unsigned char c = (unsigned char)*q++;
        if (c < 0x20) {
            p->s = q - 1;
            free(out);
            fail(p, c ? "control character in a string" : "unterminated string");
            return NULL;
        }
        if (c != '\\') {
            out[len++] = (char)c;
            continue;
        }
        c = (unsigned char)*q++;
        const char *esc = strchr("\"\\/bfnrt", c);
        if (c && esc) {
            out[len++] = "\"\\/\b\f\n\r\t"[esc - "\"\\/bfnrt"];
        } else if (c == 'u') {
            unsigned v = 0;
            for (int i = 0; i < 4; i++) {
                int h = hex(q[i]);
                if (h < 0) {
                    p->s = q;
                    free(out);
                    fail(p, "bad \\u escape");
                    return NULL;
                }
                v = v * 16 + (unsigned)h;
            }
            q += 4;
            if (v < 0x80) {
                out[len++] = (char)v;
            } else if (v < 0x800) {
                out[len++] = (char)(0xC0 | v >> 6);
                out[len++] = (char)(0x80 | (v & 0x3F));
            } else {
                out[len++] = (char)(0xE0 | v >> 12);
                out[len++] = (char)(0x80 | (v >> 6 & 0x3F));
                out[len++] = (char)(0x80 | (v & 0x3F));
            }
        } else {
            p->s = q - 1;
            free(out);
            fail(p, "bad escape");
            return NULL;
        }
    }
    if (!out) {
        fail(p, "out of memory");
        return NULL;
    }
    out[len] = '\0';
    p->s = q + 1;
    return out;
}

static Json *parse_value(Parser *p, int depth);

static Json *new_node(Parser *p, JsonType t) {
    Json *j = calloc(1, sizeof *j);
    if (!j)
        return fail(p, "out of memory");
    j->type = t;
    return j;
}

// Parse an array or an object; p->s is on its opening bracket.
static Json *parse_container(Parser *p, int depth, bool object) {
    char close = object ? '}' : ']';
    Json *j = new_node(p, object ? JSON_OBJECT : JSON_ARRAY);
    if (!j)
        return NULL;
    p->s++;
    skip_space(p);
    Json **tail = &j->child;
    if (*p->s == close) {
        p->s++;
        return j;
    }
    for (;;) {
        char *key = NULL;
        skip_space(p);
        if (object) {
            if (*p->s != '"' || !(key = parse_string(p))) {
                json_free(j);
                return fail(p, "expected a key");
            }
            skip_space(p);
            if (*p->s != ':') {
                free(key);
                json_free(j);
                return fail(p, "expected ':'");
            }
            p->s++;
        }
        Json *v = parse_value(p, depth + 1);
        if (!v) {
            free(key);
            json_free(j);
            return NULL;
        }
        v->key = key;
        *tail = v;
        tail = &v->next;
        skip_space(p);
        if (*p->s == ',') {
            p->s++;
            continue;
        }
        if (*p->s == close) {
            p->s++;
            return j;
        }
        json_free(j);
        return fail(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static Json *parse_value(Parser *p, int depth) {
    if (depth > JSON_DEPTH_MAX)
        return fail(p, "nesting too deep");
    skip_space(p);
    char c = *p->s;
    if (c == '{' || c == '[')
        return parse_container(p, depth, c == '{');
    if (c == '"') {
        char *s = parse_string(p);
        Json *j = s ? new_node(p, JSON_STRING) : NULL;
        if (!j) {
            free(s);
            return NULL;
        }
        j->string = s;
        return j;
    }
    static const struct {
        const char *word;
        JsonType type;
        bool value;
    } WORDS[] = {{"true", JSON_BOOL, true}, {"false", JSON_BOOL, false}, {"null", JSON_NULL, 0}};
    for (size_t i = 0; i < sizeof WORDS / sizeof WORDS[0]; i++) {
        size_t n = strlen(WORDS[i].word);
        if (!strncmp(p->s, WORDS[i].word, n)) {
            Json *j = new_node(p, WORDS[i].type);
            if (j)
                j->boolean = WORDS[i].value;
            p->s += n;
            return j;
        }
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        char *end;
        double v = strtod(p->s, &end);
        if (end == p->s)
            return fail(p, "bad number");
        Json *j = new_node(p, JSON_NUMBER);
        if (j)
            j->number = v;
        p->s = end;
        return j;
    }
    return fail(p, c ? "unexpected character" : "unexpected end");
}

Json *json_parse(const char *text, char *err, size_t n) {
    Parser p = {.s = text, .start = text, .err = err, .errn = n};
    Json *j = parse_value(&p, 0);
    if (j) {
        skip_space(&p);
        if (*p.s) {
            json_free(j);
            return fail(&p, "trailing characters");
        }
    }
    return j;
}

void json_free(Json *j) {
    while (j) {
        Json *next = j->next;
        json_free(j->child);
        free(j->string);
        free(j->key);
        free(j);
        j = next;
    }
}

const Json *json_get(const Json *obj, const char *key) {
    if (!obj || obj->type != JSON_OBJECT)
        return NULL;
    for (const Json *m = obj->child; m; m = m->next)
        if (m->key && !strcmp(m->key, key))
            return m;
    return NULL;
}

double json_number(const Json *obj, const char *key, double def) {
    const Json *m = json_get(obj, key);
    return m && m->type == JSON_NUMBER ? m->number : def;
}

const char *json_string(const Json *obj, const char *key, const char *def) {
    const Json *m = json_get(obj, key);
    return m && m->type == JSON_STRING ? m->string : def;
}

void json_write_string(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}
