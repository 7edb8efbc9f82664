/* sci_faultcheck.h — `ftsim faultcheck`: every single fault on a running W x H SCI torus, with the
 * checks of harness/scisys/sci_sys.md section 5 (sci_faultcheck.c). */
#ifndef FTSIM_SCI_CHECK_H
#define FTSIM_SCI_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "campaign.h"
#include "sci_route.h"

typedef struct sci_check_opts {
    unsigned w, h, models; /* the torus (2x2 up to 16x16, P2S 32x32); LS_* */
    int p2s, verbose, double_faults;
    double scale;          /* the timers divided by it */
    uint64_t seed, period; /* all-pairs traffic: a message per pair every `period` cycles */
    const char *fault;     /* just this fault (xring:R | yring:C | node:X,Y); NULL: every one */
    unsigned threads;      /* the C model's nodes, hosts and drivers on this many (sci_sys_cfg_t) */
    unsigned nfaults;      /* --faults K: every K faults at once (2: as double_faults); 0: none */
    int ftdrb;             /* the multi-fault cases again with FT-DRB (harness/scisys/ftdrb_sci.md) */
    int multi_only;        /* run the multi-fault cases only (not the single faults) */
    int quiet;             /* no progress on stderr */
} sci_check_opts_t;

/* The defaults: the C model, time scale 5000, seed 1, period 4000, every fault. */
void sci_check_defaults(sci_check_opts_t *o);
/* Runs the faults, each a run of campaign c (harness/core/campaign.h), and prints a line each
 * and a summary: 0 every one passed (or, in a shard, the shard written), 1 not; -1 with a
 * message when o->fault does not name a fault of the torus or the campaign fails. */
int sci_check_run(const sci_check_opts_t *o, campaign_t *c, char *err, size_t errlen);

/* The check's own search of what faults f leave connected (no routing code of the harness):
 * per node of the W x H torus its component in the graph of live rings (a ring is live when
 * its cable is in and none of its nodes is dead; it joins all its members, being a cycle), -1
 * for a dead node. Returns the number of components. */
unsigned sci_check_components(unsigned w, unsigned h, const sci_faults_t *f, int *comp);
/* Whether s reaches d directly or through one or two intermediates, every segment X first on
 * live rings (FT-DRB's multistep paths, harness/scisys/ftdrb_sci.md section 7). */
int sci_check_reach2(unsigned w, unsigned h, const sci_faults_t *f, unsigned s, unsigned d);

#endif
