/* fuzz.h — `ftsim fuzz`: seeded random traffic on a design, models in lockstep. What every
 * fuzzer takes; each design family's fuzzers declare their own options, embedding these
 * (rnp/fuzz_rnp.h, sci/fuzz_sci.h). */
#ifndef FTSIM_FUZZ_H
#define FTSIM_FUZZ_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

typedef struct fuzz_opts {
    uint64_t seed;
    uint64_t cycles;
    unsigned models;    /* LS_RTL, LS_CSIM, LS_BOTH */
    const char *outdir; /* where a failure's reproducer goes (default build/fuzz) */
    const char *record; /* write the run as a golden vector */
    const char *wave;   /* trace the run (RTL) */
    uint64_t wave_from; /* ... only its cycles from wave_from */
    uint64_t wave_to;   /* ... to wave_to (0: to the end) */
    int quiet;          /* no progress line */
    double *cps;        /* out: simulated cycles per second (for bench) */
} fuzz_opts_t;

struct dev_catalog;

/* Keep the first failure of a run: "cycle N: message" into why (later ones are dropped). */
void fuzz_first_failure(int *failed, char *why, size_t len, uint64_t cycle, const char *fmt,
                        va_list ap);

/* Replay a fuzz reproducer vector (lockstep unless models is LS_CSIM; a waveform to fst when
 * given), printing what it shows and how to open it: `hint`, or by default make wave V=vec.
 * cat names the reproducer's device: the fuzzer's own family is enough. */
void fuzz_replay(const struct dev_catalog *cat, const char *vec, const char *fst, unsigned models,
                 const char *hint);

#endif
