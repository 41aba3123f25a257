#include "match/workers.h"

#include "match/config.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>

static atomic_int interrupted;

// Note an interrupt: the workers finish the jobs they are playing and stop.
static void on_interrupt(int sig) {
    (void)sig;
    atomic_store(&interrupted, 1);
}

bool workers_interrupted(void) { return atomic_load(&interrupted); }

bool workers_run(int concurrency, int njobs, void *(*worker)(void *), void *arg) {
    struct sigaction sa = {.sa_handler = on_interrupt}, old_int;
    atomic_store(&interrupted, 0);
    sigaction(SIGINT, &sa, &old_int);
    int nthreads = concurrency < njobs ? concurrency : njobs;
    if (nthreads > MAX_CONCURRENCY)
        nthreads = MAX_CONCURRENCY;
    pthread_t threads[MAX_CONCURRENCY];
    int nstarted = 0;
    for (; nstarted < nthreads; nstarted++)
        if (pthread_create(&threads[nstarted], NULL, worker, arg))
            break;
    if (!nstarted && njobs)
        worker(arg);
    for (int i = 0; i < nstarted; i++)
        pthread_join(threads[i], NULL);
    sigaction(SIGINT, &old_int, NULL);
    return atomic_load(&interrupted);
}
