/*
 * tpool.h — a fixed set of threads that share out the items of one loop at a time: the caller
 * hands tpool_for() a count, a function and its context; every thread (the caller's too) runs
 * the function on runs of items until none is left, and tpool_for() returns once every item
 * is done. Each call is a barrier, so a simulation that steps its models in parallel calls it
 * once per phase of a cycle.
 *
 * Sharing: each thread starts on its own contiguous share of the items (the same share every
 * call, so a model's state stays in that core's cache), in runs of a few, and when its share
 * is done takes runs from the others' shares. So a thread the system does not schedule for a
 * while (a machine busy with other work) holds up nothing: the others do its share, and a
 * thread that wakes to find the loop done just waits for the next one.
 *
 * Built for loops of tens of microseconds, many thousand a second: a thread waiting for the
 * next loop (or the caller waiting for the last run) spins for a while before it sleeps on a
 * condition variable, so back-to-back loops cost well under a microsecond to hand over, and an
 * idle pool costs nothing.
 *
 * A pool of one thread (or NULL) creates no thread: tpool_for() calls the function once on
 * every item. Which thread runs an item, and in what order items are done, is not fixed: a
 * loop whose result must not depend on the thread count writes per item and merges, after the
 * call, in item order. Knows no design.
 */
#ifndef FTSIM_TPOOL_H
#define FTSIM_TPOOL_H

#include <stddef.h>

#define TPOOL_MAX 64u /* the most threads a pool takes */

typedef struct tpool tpool_t;

/* Items lo .. hi - 1 of a loop. */
typedef void (*tpool_fn_t)(void *ctx, unsigned lo, unsigned hi);

/* A pool of `threads` threads (1 .. TPOOL_MAX), the caller counting as one. NULL with a
 * message when threads cannot be created. */
tpool_t *tpool_new(unsigned threads, char *err, size_t errlen);
/* Ends the threads. NULL does nothing. */
void tpool_free(tpool_t *p);
/* The threads of p, the caller included; 1 for NULL. */
unsigned tpool_threads(const tpool_t *p);
/* Which of p's threads the calling thread is: 1 .. threads - 1 for the pool's own, 0 for any
 * other (the caller of tpool_for); 0 for NULL. For a loop's function to find its thread's
 * own scratch space. */
unsigned tpool_self(const tpool_t *p);
/* fn on every item of 0 .. n-1 exactly once, shared out over the pool's threads (NULL: all
 * on the calling thread); returns when all are done, with everything they wrote visible to
 * the caller. Not reentrant: fn must not call tpool_for on the same pool. */
void tpool_for(tpool_t *p, unsigned n, tpool_fn_t fn, void *ctx);

#endif
