#include "protocol/output.h"

#include <stdarg.h>

void output_init(Output *o, FILE *f) {
    o->f = f;
    pthread_mutex_init(&o->lock, NULL);
}

void output_free(Output *o) { pthread_mutex_destroy(&o->lock); }

void output_line(Output *o, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&o->lock);
    vfprintf(o->f, fmt, ap);
    fputc('\n', o->f);
    fflush(o->f);
    pthread_mutex_unlock(&o->lock);
    va_end(ap);
}

void output_text(Output *o, const char *text) {
    pthread_mutex_lock(&o->lock);
    fputs(text, o->f);
    fflush(o->f);
    pthread_mutex_unlock(&o->lock);
}
