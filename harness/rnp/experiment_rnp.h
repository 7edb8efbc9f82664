/* experiment_rnp.h — what the RNP experiments share (experiment_rnp.c, ftdrb_rnp.c): the
 * traffic patterns, the network they open, and the experiments' entries (ftsim experiment). */
#ifndef FTSIM_EXPERIMENT_RNP_H
#define FTSIM_EXPERIMENT_RNP_H

#include "experiment.h"
#include "lockstep.h"
#include "pattern.h"
#include "prng.h"

/* pattern.h's patterns, in its order, without the hotspot (the names here are the RNP tables'). */
enum {
    PAT_UNIFORM = (int)TP_UNIFORM,
    PAT_BITREV = (int)TP_BITREV,
    PAT_SHUFFLE = (int)TP_SHUFFLE,
    PAT_BUTTERFLY = (int)TP_BUTTERFLY,
    PAT_TRANSPOSE = (int)TP_TRANSPOSE,
    PAT_COMPLEMENT = (int)TP_COMPLEMENT,
    NPAT
};
extern const char *const rnp_pat_names[NPAT];

/* Source s's destination under pattern pat on n endpoints (uniform: drawn from rng, never s;
 * a permutation may map s to itself: the caller sends nothing then). */
unsigned rnp_pat_dst(unsigned pat, unsigned s, unsigned n, prng_t *rng);

/* The network the experiments run (rnpnet of `endpoints`, an extra stage from 256 on, wiring
 * seed 1) opened on `models` (LS_*) into ls; NULL with a message in err (DEV_ERR_LEN). The
 * caller closes ls and releases the design. */
const dev_design_t *rnp_open(unsigned endpoints, unsigned models, lockstep_t *ls, char *err);

/* `ftsim experiment rnp-load | rnp-patterns | rnp-policy | ftdrb-rnp` (experiment_rnp.c): runs
 * experiment `name`, each run a run of campaign c (campaign.h): 0 done (in a shard: the shard
 * written), 2 cannot run, -1 not one of this family's experiments. */
int experiment_rnp(const char *name, const exp_opts_t *o, campaign_t *c);

/* `ftsim experiment ftdrb-rnp` (ftdrb_rnp.c): 0 done, 1 a message not delivered once nor
 * failed to its source, 2 cannot run. */
int experiment_ftdrb_rnp(const exp_opts_t *o, campaign_t *c);

#endif
