/* experiment_ftdrb.h — `ftsim experiment ftdrb-sci`: FT-DRB's evaluation (Figure 3) on a P2S
 * torus, the hardware failover alone beside FT-DRB in the hosts (experiment_ftdrb.c). */
#ifndef FTSIM_EXPERIMENT_FTDRB_H
#define FTSIM_EXPERIMENT_FTDRB_H

#include <stdint.h>

#include "campaign.h"
#include "sci_sys.h"

#define FTX_MAX_COUNTS 8

typedef struct experiment_ftdrb_opts {
    unsigned w, h, threads, models;
    uint64_t seed;
    int json, quiet, verbose, sweep;  /* sweep: the fault-free saturation per pattern */
    int no_spread;                       /* FT-DRB with one path per pair (the metapath's
                                            ablation, SCI_FTDRB_NO_SPREAD) */
    const char *outdir, *json_file;
    unsigned patterns;                   /* bit p: pattern p of harness/core/pattern.h */
    unsigned ncounts;                    /* fault counts: cables pulled */
    unsigned counts[FTX_MAX_COUNTS];
    double every_us;                     /* one 64-byte message per flow every this (0: per
                                            pattern, half its saturation on 32x32) */
    double warm_ms, spread_ms, learn_ms, measure_ms;
    sci_sys_params_t par;
} experiment_ftdrb_opts_t;

/* 32x32, the five permutations and uniform, 0, 1, 2 and 6 cables, the driver's timers / 1000. */
void experiment_ftdrb_defaults(experiment_ftdrb_opts_t *o);
/* The runs (pattern x fault count x without/with FT-DRB) as campaign c; the table (or JSON),
 * NAME.csv under o->outdir. 0, or 1 when a run fails or a message is lost. */
int experiment_ftdrb_run(const experiment_ftdrb_opts_t *o, campaign_t *c);

#endif
