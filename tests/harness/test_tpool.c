/* test_tpool.c — the thread pool (harness/core/tpool.c): every item of a loop done exactly once
 * whatever the thread and item counts, loops back to back and after a sleep, results written by
 * the threads visible when the loop returns, thread numbers within the pool. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "tpool.h"

typedef struct job {
    tpool_t *p;
    unsigned *hits; /* per item: times done (plain writes: visible once the loop returns) */
    unsigned round;
    atomic_uint bad_thread;
    atomic_uint runs;
} job_t;

static void mark(void *ctx, unsigned lo, unsigned hi)
{
    job_t *j = ctx;
    if (lo >= hi || tpool_self(j->p) >= tpool_threads(j->p))
        atomic_fetch_add(&j->bad_thread, 1);
    atomic_fetch_add(&j->runs, 1);
    for (unsigned i = lo; i < hi; i++) {
        j->hits[i] += 1u + j->round; /* the round: a stale run of an earlier loop would show */
        for (volatile unsigned spin = 0; spin < (i % 7u) * 50u; spin++)
            ; /* uneven items, so threads take runs from each other */
    }
}

static void one(unsigned threads, unsigned n, unsigned rounds)
{
    char err[128];
    tpool_t *p = tpool_new(threads, err, sizeof err);
    CHECK(p, "tpool_new(%u): %s", threads, err);
    if (!p)
        return;
    CHECK(tpool_threads(p) == threads, "threads %u", tpool_threads(p));
    CHECK(tpool_self(p) == 0, "the caller is thread 0");
    job_t j = {.p = p, .hits = calloc(n ? n : 1, sizeof *j.hits)};
    unsigned bad = 0;
    for (unsigned r = 0; r < rounds; r++) {
        j.round = r;
        memset(j.hits, 0, (n ? n : 1) * sizeof *j.hits);
        tpool_for(p, n, mark, &j);
        for (unsigned i = 0; i < n; i++)
            bad += j.hits[i] != 1u + r;
        if (r == rounds / 2) { /* let the workers fall asleep, then wake them */
            struct timespec ts = {0, 5000000};
            nanosleep(&ts, NULL);
        }
    }
    CHECK(bad == 0, "%u threads, %u items: %u items not done exactly once", threads, n, bad);
    CHECK(atomic_load(&j.bad_thread) == 0, "%u threads: a run empty or on an unknown thread",
          threads);
    CHECK(n == 0 || atomic_load(&j.runs) >= rounds, "runs");
    free(j.hits);
    tpool_free(p);
}

int main(void)
{
    const unsigned items[] = {0, 1, 2, 3, 9, 100, 1024};
    for (unsigned t = 1; t <= 4; t++)
        for (unsigned k = 0; k < sizeof items / sizeof items[0]; k++)
            one(t, items[k], 200);
    one(16, 257, 50); /* more threads than cores */
    char err[128];
    CHECK(!tpool_new(0, err, sizeof err) && strstr(err, "1 to"), "0 threads refused: %s", err);
    CHECK(!tpool_new(TPOOL_MAX + 1, err, sizeof err), "too many refused");
    CHECK(tpool_threads(NULL) == 1 && tpool_self(NULL) == 0, "no pool: one thread");
    job_t j = {.p = NULL, .hits = calloc(5, sizeof *j.hits)};
    tpool_for(NULL, 5, mark, &j);
    CHECK(j.hits[0] == 1 && j.hits[4] == 1 && atomic_load(&j.runs) == 1, "no pool: one run");
    free(j.hits);
    tpool_free(NULL);
    return check_done();
}
