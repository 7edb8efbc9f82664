/* experiment_sci.h — `ftsim experiment ring-down-9 | node-down-4 | static-4 | p2s-ring-down-9 |
 * p2s-node-down-4`: the paper's experiments on the running SCI torus (experiment_sci.c). */
#ifndef FTSIM_EXPERIMENT_SCI_H
#define FTSIM_EXPERIMENT_SCI_H

#include <stdint.h>

#include "campaign.h"
#include "sci_sys.h"

typedef struct experiment_sci_opts {
    unsigned runs, models; /* runs, each with the fault at a random time; LS_* */
    uint64_t seed;
    int json, quiet, verbose;
    const char *outdir, *json_file; /* the plots; the JSON object as well (or NULL) */
    double probe_us, window_ms, margin_ms;
    unsigned threads; /* the C model's nodes, hosts and drivers on this many (sci_sys_cfg_t) */
    sci_sys_params_t par;
} experiment_sci_opts_t;

/* Non-zero when name is one of these experiments. */
int experiment_sci_known(const char *name);
/* The defaults: 5 runs, seed 1, the C model, build/experiments, the paper's timers. */
void experiment_sci_defaults(experiment_sci_opts_t *o);
/* Runs experiment `name`, each run a run of campaign c (harness/core/campaign.h), and prints
 * its table (or JSON): 0 (in a shard: the shard written), or 1 when a run fails or the
 * results cannot be written (said why on stderr). */
int experiment_sci_run(const char *name, const experiment_sci_opts_t *o, campaign_t *c);

#endif
