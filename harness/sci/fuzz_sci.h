/* fuzz_sci.h — the SCI fuzzers: one link controller (fuzz_scilc.c); the nodes of a ring or a
 * torus with hosts running the end-to-end protocol while cables are pulled (fuzz_sciring.c).
 * Each returns 0 pass, 1 a divergence or an end-to-end check failed (reproducer written),
 * 2 cannot run. */
#ifndef FTSIM_FUZZ_SCI_H
#define FTSIM_FUZZ_SCI_H

#include "dev.h"
#include "fuzz.h"

typedef struct fuzz_scilc_opts {
    fuzz_opts_t base;
    const dev_design_t *design; /* the controller: lc3 or p2s */
} fuzz_scilc_opts_t;

typedef struct fuzz_sciring_opts {
    fuzz_opts_t base;
    unsigned nodes;            /* a ring's nodes (0: random 2..16 from the seed) */
    int p2s;                   /* 1 P2S (--p2s), 0 LC3 (--lc3), -1 from the seed */
    int pull;                  /* --pull I: pull node I's output cable once, no random cuts; -1 */
    int nocuts;                /* --no-cuts: no cable pulls (bench) */
    unsigned torus_w, torus_h; /* --torus WxH: a torus instead of a ring (0: a ring) */
    unsigned gap;              /* a message every ~gap cycles per flow (0: from the size) */
} fuzz_sciring_opts_t;

int fuzz_scilc(const fuzz_scilc_opts_t *o);
int fuzz_sciring(const fuzz_sciring_opts_t *o);

#endif
