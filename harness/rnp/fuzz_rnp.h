/* fuzz_rnp.h — the RNP fuzzers: one RN1 (fuzz_rn1.c), a network of them (fuzz_rnpnet.c).
 * Each returns 0 pass, 1 a divergence or an end-to-end check failed (reproducer written),
 * 2 cannot run. */
#ifndef FTSIM_FUZZ_RNP_H
#define FTSIM_FUZZ_RNP_H

#include "dev.h"
#include "fuzz.h"

typedef struct fuzz_rn1_opts {
    fuzz_opts_t base;
    uint16_t *capture; /* out: if set, 16 input words per cycle (f0..f7, b0..b7), cycles long */
    int plain;         /* default configuration and no mid-run writes (stim capture) */
    /* The design whose devices are driven (NULL: rn1_design); another harness's devices of
     * RN1 (the SystemC harness's, for its bench) with the same ports. */
    const dev_design_t *design;
} fuzz_rn1_opts_t;

typedef struct fuzz_rnpnet_opts {
    fuzz_opts_t base;
    unsigned endpoints; /* 16, 64, 256, 1024 */
    int extra;          /* extra stages; -1: the default for the size */
    unsigned faults;    /* random faults injected at random times in the first half */
    int backchan;       /* the backward channel on */
    int no_lft;         /* the link fault table off */
    unsigned retries;   /* retry limit (0: default) */
    unsigned gap;       /* a message every ~gap cycles per endpoint (0: default 150) */
} fuzz_rnpnet_opts_t;

int fuzz_rn1(const fuzz_rn1_opts_t *o);
int fuzz_rnpnet(const fuzz_rnpnet_opts_t *o);

#endif
