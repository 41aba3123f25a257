// The one writer every reply goes through: whole lines, locked and flushed at once, so that
// a search thread and the input loop never interleave and tests can capture a memory stream.
#ifndef PROTOCOL_OUTPUT_H
#define PROTOCOL_OUTPUT_H

#include <pthread.h>
#include <stdio.h>

typedef struct Output {
    FILE *f;
    pthread_mutex_t lock;
} Output;

void output_init(Output *o, FILE *f);
void output_free(Output *o);

// Write one formatted line (the newline is added) and flush.
void output_line(Output *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

// Write text that already holds its newlines, and flush.
void output_text(Output *o, const char *text);

#endif
