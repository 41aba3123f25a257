// An engine as a child process for the match runner: started through /bin/sh, spoken to over
// two pipes, read line by line against a deadline, and always reaped.
#ifndef MATCH_ENGINE_PROC_H
#define MATCH_ENGINE_PROC_H

#include "engine/core/error.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

// The longest line kept; the rest of a longer line is read and dropped.
#define ENGINE_LINE_MAX 8192

typedef enum ReadStatus { READ_LINE, READ_TIMEOUT, READ_EOF } ReadStatus;

typedef struct EngineProc {
    pid_t pid;
    int to, from; // the engine's stdin and stdout
    char buf[ENGINE_LINE_MAX];
    size_t len;    // bytes in buf
    bool dropping; // inside an overlong line, dropping bytes up to its newline
    bool eof;
    bool reaped; // waited for: status holds its wait status
    int status;
    FILE *log; // when not NULL, every line both ways, prefixed with the tag
    char tag[72];
} EngineProc;

// Start `sh -c "<cmd>"` with its stderr on stderr_fd (on /dev/null when it is -1), in its own
// process group. The first call makes the process ignore SIGPIPE. log (may be NULL) is shared
// between threads; lines are written whole, `>` before a line sent to the engine and `<` before
// one read from it, as in docs/protocol.md.
bool engine_start(EngineProc *e, const char *cmd, const char *tag, FILE *log, int stderr_fd,
                  Error *err);
// Send one line (the newline is added); false when the engine is gone.
bool engine_send(EngineProc *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// Read the next line into line (without its newline) before the absolute time deadline_us
// (clock_now_us()).
ReadStatus engine_read(EngineProc *e, char *line, size_t n, int64_t deadline_us);
// Say in plain words why the engine's output ended, after waiting up to wait_ms for it to exit:
// "engine crashed (signal 11)", "engine crashed (exit status 3)", "engine exited", "command not
// found (exit status 127)", or "engine closed its output" when it is still running.
void engine_exit_text(EngineProc *e, int wait_ms, char *buf, size_t n);
// Ask the engine to quit, wait up to grace_ms for it to exit, then kill its process group;
// reap it.
void engine_stop(EngineProc *e, int grace_ms);

#endif
