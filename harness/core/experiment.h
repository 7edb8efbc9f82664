/* experiment.h — `ftsim experiment NAME`: measurements reproduced in simulation. */
#ifndef FTSIM_EXPERIMENT_H
#define FTSIM_EXPERIMENT_H

#include <stdint.h>

#include "campaign.h"

typedef struct exp_opts {
    uint64_t cycles, seed;
    unsigned models;    /* LS_CSIM by default: measurements need speed, lockstep checks rightness */
    const char *outdir; /* CSV files (default build/experiments) */
    int quiet;          /* no progress bar */
    /* ftdrb-rnp only (0: its defaults) */
    unsigned seeds, endpoints; /* seeds per configuration; network size */
    int json, quick;           /* one JSON object on stdout; the small version for tests */
    int cycles_set;            /* --cycles given: the measuring window */
    int dedup_last;            /* --mutant dedup-last (tests: the ledger must catch it) */
    int crc8;                  /* --mutant crc8: the weakened end-to-end check */
    int no_spread, one_sender; /* ablations: no metapath; one sender per endpoint */
    unsigned relay_buf;        /* --relay-buf N: segments a relay buffer takes (tests) */
} exp_opts_t;

#endif
