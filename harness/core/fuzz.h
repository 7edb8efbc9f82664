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
    const char *wave;     /* trace the run (RTL) */
    uint64_t wave_from;   /* rnpnet: start the trace at this cycle */
    int quiet;            /* no progress line */
    double *cps;          /* out: simulated cycles per second (for bench) */
    uint16_t *capture;    /* out: if set, 16 input words per cycle (f0..f7, b0..b7), cycles long */
    /* --device rnpnet */
    unsigned endpoints;   /* 16, 64, 256, 1024 */
    int net_extra;        /* extra stages; -1: the default for the size */
    unsigned faults;      /* random faults injected at random times in the first half */
    int net_backchan;     /* the backward channel on */
    int net_no_lft;       /* the link fault table off */
    unsigned net_retries; /* retry limit (0: default) */
    unsigned net_gap;     /* a message every ~net_gap cycles per endpoint (0: default 150) */
    int is_net;           /* set by the command line: --device rnpnet */
    int plain;            /* rn1: default configuration and no mid-run writes (stim capture) */
    const struct dev_design *sci; /* --device lc3|p2s: the controller design */
    unsigned ring_nodes;  /* --device ring: nodes (0: random 2..16 from the seed) */
    int ring_p2s;         /* --device ring: 1 P2S (--p2s), 0 LC3 (--lc3), -1 from the seed */
    int is_ring;          /* set by the command line: --device ring */
    int ring_pull;        /* --pull I: pull node I's output cable once, no random cuts; -1 */
    int ring_nocuts;      /* --no-cuts: no cable pulls (bench) */
    unsigned torus_w, torus_h; /* --device torus --torus WxH (the ring fuzz on a torus) */
} fuzz_opts_t;

#include <stdarg.h>
#include <stddef.h>

struct dev_catalog;

/* Keep the first failure of a run: "cycle N: message" into why (later ones are dropped). */
void fuzz_first_failure(int *failed, char *why, size_t len, uint64_t cycle, const char *fmt,
                        va_list ap);

/* Replay a fuzz reproducer vector (lockstep unless models is LS_CSIM; a waveform to fst when
 * given), printing what it shows and how to open it: `hint`, or by default make wave V=vec.
 * cat names the reproducer's device: the fuzzer's own family is enough. */
void fuzz_replay(const struct dev_catalog *cat, const char *vec, const char *fst, unsigned models,
                 const char *hint);

/* 0 pass, 1 a divergence or an end-to-end check failed (reproducer written), 2 cannot run. */
int fuzz_rn1(const fuzz_opts_t *o);
int fuzz_rnpnet(const fuzz_opts_t *o);
/* One SCI link controller (lc3, p2s) under random stimulus, models in lockstep. */
int fuzz_scilc(const fuzz_opts_t *o, const struct dev_design *d);
/* N SCI nodes on a ring, hosts running the end-to-end protocol, cables pulled (fuzz_sciring.c). */
int fuzz_sciring(const fuzz_opts_t *o);

#endif
