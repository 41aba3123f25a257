// A small JSON reader, enough for the match runner to read back its own summaries when it
// merges the outputs of several shards. It parses the whole text into a tree.
#ifndef MATCH_JSON_H
#define MATCH_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum JsonType {
    JSON_NULL,
    JSON_BOOL,
    JSON_NUMBER,
    JSON_STRING,
    JSON_ARRAY,
    JSON_OBJECT
} JsonType;

typedef struct Json Json;
struct Json {
    JsonType type;
    bool boolean;
    double number;
    char *string; // JSON_STRING: the value; a member of an object: its key (in key)
    char *key;
    Json *child; // arrays and objects: the first element
    Json *next;  // the next element of the enclosing array or object
};

// Parse text (NUL-terminated); NULL on a syntax error, with a message and its byte offset in
// err (at least 128 bytes).
Json *json_parse(const char *text, char *err, size_t n);
void json_free(Json *j);
// The member of an object with that key, or NULL.
const Json *json_get(const Json *obj, const char *key);
// The member's number, or def when it is missing or not a number.
double json_number(const Json *obj, const char *key, double def);
// The member's string, or def.
const char *json_string(const Json *obj, const char *key, const char *def);
// Write s as a JSON string literal, quotes included.
void json_write_string(FILE *f, const char *s);

#endif
