// The worker threads of a match run (mill or backgammon): up to --concurrency threads that
// take jobs from the runner until none is left, with Ctrl-C caught so that the games being
// played finish and the report is still written.
#ifndef MATCH_WORKERS_H
#define MATCH_WORKERS_H

#include <stdbool.h>

// Run worker(arg) on min(concurrency, njobs) threads (on the calling thread when none can be
// started, and not at all without jobs), SIGINT caught meanwhile; return whether it came.
bool workers_run(int concurrency, int njobs, void *(*worker)(void *), void *arg);

// Whether SIGINT has come during workers_run: a worker takes no new job then.
bool workers_interrupted(void);

#endif
