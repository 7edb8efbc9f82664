/* fuzz.h — `ftsim fuzz`: seeded random traffic on a design, models in lockstep. */
#ifndef FTSIM_FUZZ_H
#define FTSIM_FUZZ_H

#include <stdint.h>

typedef struct fuzz_opts {
    uint64_t seed;
    uint64_t cycles;
    unsigned models;      /* LS_RTL, LS_CSIM, LS_BOTH */
    const char *outdir;   /* where a failure's reproducer goes (default build/fuzz) */
    const char *record;   /* write the run as a golden vector */
    const char *wave;     /* trace the whole run (RTL) */
    int quiet;            /* no progress line */
    double *cps;          /* out: simulated cycles per second (for bench) */
    uint16_t *capture;    /* out: if set, 16 input words per cycle (f0..f7, b0..b7), cycles long */
} fuzz_opts_t;

/* 0 pass, 1 a divergence or an end-to-end check failed (reproducer written), 2 cannot run. */
int fuzz_rn1(const fuzz_opts_t *o);

#endif
