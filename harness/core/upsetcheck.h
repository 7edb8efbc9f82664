/*
 * upsetcheck.h — `ftsim upsetcheck`: every element of a design's upset map checked against a
 * stimulus (vectors/README.md, "Upsets").
 *
 * For each element and each of its bits, the stimulus of a vector (or of several, in turn: its
 * drives, register writes and controls; its expectations are ignored) is played with one upset
 * at a cycle N drawn from a seeded PRNG among the cycles where the C model says the bit is live
 * (dev_design_t.upset_live; any cycle when it cannot say), and the bit passes when, within a
 * window of cycles from N:
 *   - the flip is seen from outside, in the model that takes it: an output, a debug word or a
 *     register read through the register port differs from the same stimulus without the
 *     upset (a table entry read through its index and data registers: read before and after
 *     the flip, the difference is exactly the bit), never a read-back of the state written;
 *   - and the two models stay in lockstep: every output, debug word and register read equal,
 *     cycle by cycle (an RTL-only element: the RTL alone, against the run without the upset).
 * A flip that a try does not see (the state is overwritten before anything reads it) is tried
 * again at another cycle, up to `tries` times. A divergence fails the element at once: the
 * message names the upset as a vector statement and the cycle, so `@N seu ...` added to the
 * stimulus reproduces it with `ftsim play`. An RTL assertion after the flip is counted, not a
 * failure (an observation of the upset). An element the design says nothing reads
 * (DEV_UPSET_MASKED) is flipped a few times and passes when no flip is ever seen.
 *
 * The core knows no design: the map, the register names of a table's front door and the
 * composites' prefixes all come through dev_design_t.
 */
#ifndef FTSIM_UPSETCHECK_H
#define FTSIM_UPSETCHECK_H

#include <stdint.h>

#include "vec.h"

typedef struct upset_check_opts {
    const char *only;  /* check these elements only (names in the map, comma-separated), NULL:
                          all */
    unsigned part;     /* a composite: the part whose elements are checked (its prefix) */
    unsigned tries;    /* flip cycles tried per bit before the bit counts as never seen */
    uint64_t window;   /* cycles compared from the flip on */
    uint64_t seed;     /* the PRNG of flip cycles and table indices */
    unsigned max_bits; /* bits checked per element (0: every bit; else spread from 0 to the
                           top bit) */
    int verbose;       /* a line per bit */
} upset_check_opts_t;

/* Check every element against the stimuli stim[0..nstim) (vectors of one device; the tries of a
 * bit take them in turn); prints a line per element and ends with `N passed, N failed`
 * (elements). Returns 0 all passed, 1 any failed, 2 cannot run (message printed). */
int upset_check(const vec_t *const *stim, unsigned nstim, const upset_check_opts_t *o);

#endif
