/* tpool.c — see tpool.h.
 *
 * A loop (a "job") is published in three steps, in this order: every share's counter is set
 * to the new job's number and the share's first item; the job's fields (function, context,
 * count, run length) are stored; the job number `gen` is bumped. A thread that sees a new
 * `gen` reads the fields and takes runs by compare-and-swap on a share's counter, expecting
 * the job number it read. All of these are sequentially consistent atomics, so a thread that
 * read the fields of a later job than the one it expects finds every counter already moved
 * on, and its swap fails: a thread runs a function only on items of the job whose fields it
 * read. The caller counts the finished items (`done`) and returns at n.
 *
 * Waiting spins first (SPIN_NS), then sleeps on a condition variable. A sleeper announces
 * itself (an atomic count or flag) under the mutex before it checks its condition once more,
 * and the thread that changes the condition looks at the announcement afterwards and signals
 * under the mutex: no wake-up is lost. */
#include "tpool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How long a wait spins before it sleeps: longer than the serial stretch between two loops
 * of a simulated cycle, far shorter than a pause a person would notice a core busy for. */
#define SPIN_NS  200000ll
#define YIELD_NS 20000ll /* after this, a spinning thread yields its core now and then */
#define RUNS     4u      /* a share is taken in about this many runs */

/* One thread's share of the current loop: the job number << 32 | its next item. A cache line
 * each, so threads taking runs of their own shares do not contend. */
typedef struct share {
    _Alignas(64) atomic_uint_fast64_t next;
} share_t;

typedef struct worker {
    tpool_t *p;
    unsigned k; /* its share */
    pthread_t th;
} worker_t;

struct tpool {
    unsigned n; /* threads, the caller included */
    worker_t *w;
    unsigned started; /* workers created */
    share_t *share;   /* n of them */
    /* the job: written once a loop, read by every thread (one cache line) */
    _Alignas(64) _Atomic(tpool_fn_t) fn;
    _Atomic(void *) ctx;
    atomic_uint items, run;
    atomic_uint gen; /* the job's number, bumped to publish it */
    atomic_bool stop;
    /* items finished: added to once a loop by each thread, polled by the caller; a line of its
     * own, so the adds do not take the job's line from threads polling `gen` */
    _Alignas(64) atomic_uint done;
    /* sleeping */
    _Alignas(64) pthread_mutex_t mu;
    pthread_cond_t go, fin;
    atomic_uint idle;         /* workers asleep on `go` (or about to be) */
    atomic_bool caller_sleep; /* the caller asleep on `fin` (or about to be) */
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* Spin until ready(p, arg) or the spin time is up. Returns ready(p, arg). */
static bool spin_until(bool (*ready)(tpool_t *, unsigned), tpool_t *p, unsigned arg)
{
    long long t0 = 0;
    for (unsigned k = 0;; k++) {
        if (ready(p, arg))
            return true;
        cpu_relax();
        if ((k & 63u) != 63u)
            continue;
        long long t = now_ns();
        if (!t0)
            t0 = t;
        else if (t - t0 > SPIN_NS)
            return ready(p, arg);
        else if (t - t0 > YIELD_NS)
            sched_yield(); /* more threads than free cores: let the one we wait for run */
    }
}

static bool new_job(tpool_t *p, unsigned seen)
{
    return atomic_load(&p->gen) != seen || atomic_load(&p->stop);
}

static bool all_done(tpool_t *p, unsigned n) { return atomic_load(&p->done) == n; }

/* Share k of n items: [lo, hi). */
static void share_range(unsigned n, unsigned k, unsigned nshares, unsigned *lo, unsigned *hi)
{
    *lo = (unsigned)((uint64_t)n * k / nshares);
    *hi = (unsigned)((uint64_t)n * (k + 1u) / nshares);
}

/* Take runs of job `gen` (whose fields the caller read) from share `first` on, then from the
 * others', until none is left; adds what it did to done once, at the end. */
static void take_runs(tpool_t *p, unsigned gen, unsigned first, tpool_fn_t fn, void *ctx,
                      unsigned n, unsigned run)
{
    unsigned did = 0;
    for (unsigned j = 0; j < p->n; j++) {
        unsigned k = (first + j) % p->n, lo, hi;
        share_range(n, k, p->n, &lo, &hi);
        atomic_uint_fast64_t *c = &p->share[k].next;
        uint_fast64_t cur = atomic_load(c);
        for (;;) {
            unsigned at = (unsigned)(cur & 0xFFFFFFFFu);
            if ((unsigned)(cur >> 32) != gen || at >= hi)
                break;
            unsigned end = hi - at > run ? at + run : hi;
            if (!atomic_compare_exchange_weak(c, &cur, ((uint_fast64_t)gen << 32) | end))
                continue; /* cur holds the counter as it is now */
            fn(ctx, at, end);
            did += end - at;
            cur = atomic_load(c);
        }
    }
    if (!did)
        return;
    unsigned before = atomic_fetch_add(&p->done, did);
    if (before + did == n && atomic_load(&p->caller_sleep)) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_signal(&p->fin);
        pthread_mutex_unlock(&p->mu);
    }
}

static void *worker_main(void *arg)
{
    worker_t *w = arg;
    tpool_t *p = w->p;
    unsigned seen = 0;
    for (;;) {
        if (!spin_until(new_job, p, seen)) {
            pthread_mutex_lock(&p->mu);
            atomic_fetch_add(&p->idle, 1);
            while (!new_job(p, seen))
                pthread_cond_wait(&p->go, &p->mu);
            atomic_fetch_sub(&p->idle, 1);
            pthread_mutex_unlock(&p->mu);
        }
        if (atomic_load(&p->stop))
            return NULL;
        seen = atomic_load(&p->gen);
        take_runs(p, seen, w->k, atomic_load(&p->fn), atomic_load(&p->ctx), atomic_load(&p->items),
                  atomic_load(&p->run));
    }
}

void tpool_free(tpool_t *p)
{
    if (!p)
        return;
    atomic_store(&p->stop, true);
    pthread_mutex_lock(&p->mu);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (unsigned k = 0; k < p->started; k++)
        pthread_join(p->w[k].th, NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->fin);
    free(p->share);
    free(p->w);
    free(p);
}

tpool_t *tpool_new(unsigned threads, char *err, size_t errlen)
{
    if (threads < 1 || threads > TPOOL_MAX) {
        snprintf(err, errlen, "%u threads: a pool has 1 to %u", threads, TPOOL_MAX);
        return NULL;
    }
    tpool_t *p = aligned_alloc(_Alignof(tpool_t), sizeof *p); /* its lines apart */
    if (p) {
        memset(p, 0, sizeof *p);
        p->w = calloc(threads, sizeof *p->w);
        p->share = aligned_alloc(_Alignof(share_t), threads * sizeof *p->share);
    }
    if (!p || !p->w || !p->share) {
        if (p)
            free(p->w), free(p->share);
        free(p);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    p->n = threads;
    for (unsigned k = 0; k < threads; k++)
        atomic_init(&p->share[k].next, 0);
    atomic_init(&p->fn, NULL);
    atomic_init(&p->ctx, NULL);
    atomic_init(&p->items, 0);
    atomic_init(&p->run, 1);
    atomic_init(&p->gen, 0);
    atomic_init(&p->done, 0);
    atomic_init(&p->stop, false);
    atomic_init(&p->idle, 0);
    atomic_init(&p->caller_sleep, false);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->fin, NULL);
    for (unsigned k = 1; k < threads; k++) {
        worker_t *w = &p->w[p->started];
        w->p = p;
        w->k = k;
        int e = pthread_create(&w->th, NULL, worker_main, w);
        if (e) {
            snprintf(err, errlen, "cannot start thread %u of %u: %s", k + 1, threads, strerror(e));
            tpool_free(p);
            return NULL;
        }
        p->started++;
    }
    return p;
}

unsigned tpool_threads(const tpool_t *p) { return p ? p->n : 1u; }

unsigned tpool_self(const tpool_t *p)
{
    if (!p)
        return 0;
    pthread_t me = pthread_self();
    for (unsigned k = 0; k < p->started; k++)
        if (pthread_equal(me, p->w[k].th))
            return p->w[k].k;
    return 0;
}

void tpool_for(tpool_t *p, unsigned n, tpool_fn_t fn, void *ctx)
{
    if (!p || p->n == 1 || n <= 1) {
        if (n)
            fn(ctx, 0, n);
        return;
    }
    unsigned gen = atomic_load(&p->gen) + 1u;
    unsigned run = n / (p->n * RUNS);
    if (run < 1)
        run = 1;
    atomic_store(&p->done, 0);
    for (unsigned k = 0; k < p->n; k++) {
        unsigned lo, hi;
        share_range(n, k, p->n, &lo, &hi);
        atomic_store(&p->share[k].next, ((uint_fast64_t)gen << 32) | lo);
    }
    atomic_store(&p->fn, fn);
    atomic_store(&p->ctx, ctx);
    atomic_store(&p->items, n);
    atomic_store(&p->run, run);
    atomic_store(&p->gen, gen);
    if (atomic_load(&p->idle)) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->go);
        pthread_mutex_unlock(&p->mu);
    }
    take_runs(p, gen, 0, fn, ctx, n, run);
    if (!spin_until(all_done, p, n)) {
        pthread_mutex_lock(&p->mu);
        atomic_store(&p->caller_sleep, true);
        while (!all_done(p, n))
            pthread_cond_wait(&p->fin, &p->mu);
        atomic_store(&p->caller_sleep, false);
        pthread_mutex_unlock(&p->mu);
    }
}
