/*
 * sci_upset.h — one run of an upset campaign on a loaded SCI torus (harness/scisys/sci_sys.md
 * section 9): the system with detection and recovery, a golden run of the same seed beside
 * it, one upset, a fixed window, and what came of it (harness/core/upset_run.h).
 */
#ifndef FTSIM_SCI_UPSET_H
#define FTSIM_SCI_UPSET_H

#include <stddef.h>
#include <stdint.h>

#include "upset_run.h"

typedef struct sci_upset_cfg {
    int p2s;
    unsigned w, h;      /* 3 x 3 */
    unsigned models;    /* the upset run's models: LS_CSIM, or LS_BOTH (a lockstep confirmation) */
    double every_us;    /* every node sends one 64-byte message every this to each of two random
                           destinations (the load) */
    double time_scale;  /* divides the drivers' timers (self-test 500 ms -> 0.5 ms at 1000) */
    uint64_t warmup;    /* cycles of traffic before the earliest flip */
    uint64_t span;      /* the flip comes at warmup + [0, span) */
    uint64_t window;    /* cycles run after the flip before the flows stop and drain */
    unsigned ft;        /* SCI_FT_* */
    uint64_t seed;      /* the traffic's */
    unsigned node;      /* the node whose state is upset (index y * W + x): (1,1) */
} sci_upset_cfg_t;

void sci_upset_cfg_default(sci_upset_cfg_t *c);
/* Site k of a column ("tables": one X-LC's LRT and BRT (P2S: the entries of the ids that
 * exist, both sets); "regs": the node's control registers; "node": every bit of every element
 * the C model keeps) as an upset target and bit, "n1.1.x.lrt[0x12] bit0", into buf. Returns the
 * column's number of sites (0: no such column). */
unsigned sci_upset_site(const sci_upset_cfg_t *c, const char *column, unsigned k, char *buf,
                      size_t len);
/* One run: site flipped at warmup + at_offset; every field of *r. 0, or -1 with a message. */
int sci_upset_run(const sci_upset_cfg_t *c, const char *site, uint64_t at_offset, upset_result_t *r,
                char *err, size_t errlen);

#endif
