// Engine child processes: posix_spawn with close-on-exec pipes, so that engines started by
// concurrent games never inherit each other's pipe ends (a leaked write end would hide an
// engine's exit from the referee).
#define _GNU_SOURCE // pipe2
#include "match/engine_proc.h"

#include "engine/core/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

// Write one line of the engine's traffic to the log, whole, under the log's lock.
static void log_line(EngineProc *e, const char *dir, const char *line) {
    if (!e->log)
        return;
    pthread_mutex_lock(&log_lock);
    fprintf(e->log, "%lld %s %s %s\n", (long long)(clock_now_us() / 1000), e->tag, dir, line);
    fflush(e->log);
    pthread_mutex_unlock(&log_lock);
}

static pthread_once_t sigpipe_once = PTHREAD_ONCE_INIT;

// An engine that dies while the referee writes to it must cost that engine the game, not kill
// the referee: writes to a closed pipe fail with EPIPE instead of raising SIGPIPE.
static void ignore_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }

bool engine_start(EngineProc *e, const char *cmd, const char *tag, FILE *log, int stderr_fd,
                  Error *err) {
    pthread_once(&sigpipe_once, ignore_sigpipe);
    memset(e, 0, sizeof *e);
    e->pid = -1;
    e->to = e->from = -1;
    e->log = log;
    snprintf(e->tag, sizeof e->tag, "%s", tag);
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC))
        return error_set(err, "pipe: %s", strerror(errno));
    if (pipe2(out, O_CLOEXEC)) {
        close(in[0]);
        close(in[1]);
        return error_set(err, "pipe: %s", strerror(errno));
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
    if (stderr_fd >= 0)
        posix_spawn_file_actions_adddup2(&fa, stderr_fd, STDERR_FILENO);
    else
        posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    // Its own process group: a Ctrl-C at the terminal reaches the referee, which lets the games
    // in progress finish, and not the engines; and a kill reaches the whole group, the engine
    // too when cmd is a compound command that sh stays around for.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    char *argv[] = {"sh", "-c", (char *)cmd, NULL};
    int rc = posix_spawn(&e->pid, "/bin/sh", &fa, &attr, argv, environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    if (rc) {
        close(in[1]);
        close(out[0]);
        e->pid = -1;
        return error_set(err, "cannot start '%s': %s", cmd, strerror(rc));
    }
    e->to = in[1];
    e->from = out[0];
    return true;
}

bool engine_send(EngineProc *e, const char *fmt, ...) {
    char line[ENGINE_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (len < 0 || (size_t)len >= sizeof line - 1 || e->to < 0)
        return false;
    log_line(e, ">", line);
    line[len++] = '\n';
    for (int off = 0; off < len;) {
        ssize_t w = write(e->to, line + off, (size_t)(len - off));
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        off += (int)w;
    }
    return true;
}

// Take one complete line out of the buffer, if there is one.
static bool take_line(EngineProc *e, char *line, size_t n) {
    char *nl = memchr(e->buf, '\n', e->len);
    if (!nl)
        return false;
    size_t len = (size_t)(nl - e->buf);
    size_t keep = len && e->buf[len - 1] == '\r' ? len - 1 : len;
    if (keep >= n)
        keep = n - 1;
    memcpy(line, e->buf, keep);
    line[keep] = '\0';
    e->len -= len + 1;
    memmove(e->buf, nl + 1, e->len);
    return true;
}

ReadStatus engine_read(EngineProc *e, char *line, size_t n, int64_t deadline_us) {
    for (;;) {
        if (take_line(e, line, n)) {
            if (e->dropping) { // the tail of an overlong line
                e->dropping = false;
                continue;
            }
            log_line(e, "<", line);
            return READ_LINE;
        }
        if (e->len == sizeof e->buf) { // an overlong line: keep its head, drop the rest
            memcpy(line, e->buf, n - 1);
            line[n - 1] = '\0';
            e->len = 0;
            e->dropping = true;
            log_line(e, "<", line);
            return READ_LINE;
        }
        if (e->eof || e->from < 0)
            return READ_EOF;
        int64_t left = deadline_us - clock_now_us();
        if (left <= 0)
            return READ_TIMEOUT;
        struct pollfd pfd = {.fd = e->from, .events = POLLIN};
        int ms = (int)((left + 999) / 1000);
        int r = poll(&pfd, 1, ms);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            continue; // the deadline check above decides
        ssize_t got = read(e->from, e->buf + e->len, sizeof e->buf - e->len);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got <= 0) {
            e->eof = true;
            if (e->len && !e->dropping) // a last line without its newline (len < size here)
                e->buf[e->len++] = '\n';
            continue;
        }
        e->len += (size_t)got;
    }
}

// Reap the engine if it has exited, waiting up to wait_ms; true when it is reaped.
static bool reap(EngineProc *e, int wait_ms) {
    if (e->reaped)
        return true;
    if (e->pid <= 0)
        return false;
    int64_t deadline = clock_now_us() + (int64_t)wait_ms * 1000;
    for (;;) {
        pid_t r = waitpid(e->pid, &e->status, WNOHANG);
        if (r == e->pid || (r < 0 && errno != EINTR)) {
            e->reaped = r == e->pid;
            return e->reaped;
        }
        if (clock_now_us() >= deadline)
            return false;
        usleep(2000);
    }
}

void engine_exit_text(EngineProc *e, int wait_ms, char *buf, size_t n) {
    if (!reap(e, wait_ms)) {
        snprintf(buf, n, "engine closed its output");
        return;
    }
    int st = e->status;
    // sh reports a command killed by signal N as exit status 128 + N.
    int sig = WIFSIGNALED(st) ? WTERMSIG(st)
              : WIFEXITED(st) && WEXITSTATUS(st) > 128 && WEXITSTATUS(st) < 160
                  ? WEXITSTATUS(st) - 128
                  : 0;
    if (sig)
        snprintf(buf, n, "engine crashed (signal %d, %s)", sig, strsignal(sig));
    else if (WEXITSTATUS(st) == 127)
        snprintf(buf, n, "command not found (exit status 127)");
    else if (WEXITSTATUS(st) == 126)
        snprintf(buf, n, "command cannot be run (exit status 126)");
    else if (WEXITSTATUS(st))
        snprintf(buf, n, "engine crashed (exit status %d)", WEXITSTATUS(st));
    else
        snprintf(buf, n, "engine exited");
}

void engine_stop(EngineProc *e, int grace_ms) {
    if (e->pid <= 0)
        return;
    engine_send(e, "quit");
    if (e->to >= 0)
        close(e->to);
    e->to = -1;
    if (!reap(e, grace_ms)) {
        kill(-e->pid, SIGKILL);
        while (waitpid(e->pid, &e->status, 0) < 0 && errno == EINTR)
            ;
    }
    if (e->from >= 0)
        close(e->from);
    e->from = -1;
    e->pid = -1;
}
