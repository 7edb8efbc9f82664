/*
 * rnp_upset.h — an RNP network under load with the host as its monitoring subsystem (FTGM,
 * Zhou et al.: a watchdog, a self-test of the paths in use only, recovery from the state the
 * host keeps), and one run of an upset campaign on it: the same loaded network from reset
 * twice, a golden run and a run with one upset, stepped side by side and compared
 * (harness/core/upset_run.h says what a run reports; harness/rnp/README.md, "Monitoring:
 * watchdog, self-test, recovery", says what each detector does and why its bounds are what
 * they are).
 *
 * Traffic: every source sends 8-byte messages to RNP_UPSET_PARTNERS partners drawn from the seed
 * (an application's communication pattern: the pairs "in use" the self-test covers), each
 * cycle with probability load x RNP_UPSET_SAT_PPM / 1e6, where RNP_UPSET_SAT_PPM is this
 * traffic's fault-free saturation throughput (messages per endpoint per cycle, parts per
 * million) on rnpnet64 with the backward channel and the link fault table on.
 */
#ifndef FTSIM_RNP_UPSET_H
#define FTSIM_RNP_UPSET_H

#include <stddef.h>
#include <stdint.h>

#include "upset_run.h" /* harness/core/upset_run.h: upset_result_t, upset_classify() */

#define RNP_UPSET_PARTNERS 4u
#define RNP_UPSET_SAT_PPM  30000u /* 0.030 msg/endpoint/cycle: README, "Monitoring" */

typedef struct rnp_upset_cfg {
    unsigned endpoints;     /* 64 */
    double load;            /* offered load, a fraction of RNP_UPSET_SAT_PPM (0.5) */
    uint64_t warmup;        /* cycles of traffic before the earliest flip */
    uint64_t window;        /* cycles run after the flip, then compared with the golden run */
    uint64_t t_wd, t_st;    /* watchdog period and self-test interval, cycles */
    int selftest, watchdog; /* 0: that detector off (the ablation "self-test off") */
    unsigned models;        /* LS_CSIM, or LS_BOTH: RTL and C model in lockstep */
    uint64_t seed;          /* traffic and router seeds */
} rnp_upset_cfg_t;

void rnp_upset_cfg_default(rnp_upset_cfg_t *c);

/* Sites of a column: "config" (swallow, disable, seed, mode, backchan of every router),
 * "lfsr" (lfsr of every router), "port" (alloc, rot and every fN.* / bN.* port field of every
 * router), "all" (every element of the map). Site k as an upset target and bit, "r5.lfsr
 * bit3"; table/port entries written as dev_upset_format writes them. Returns the number of
 * sites (0 for an unknown column or network size); writes site k into buf when k < n. */
unsigned rnp_upset_site(const rnp_upset_cfg_t *c, const char *column, unsigned k, char *buf,
                      size_t len);

/* What the monitor cost and saw in the faulty run, beside the result (overhead measurements,
 * the tests): messages and attempts of data and of test traffic (the self-test's rounds and
 * the recoveries' re-probes), router resets, configuration rewrites, the golden run's largest
 * data latency and the bound "late" used, the golden run's own detections (must be 0), the
 * cycles the drain took and whether it drained. */
typedef struct rnp_upset_stats {
    uint64_t data_msgs, data_attempts, test_msgs, test_attempts, reprobes;
    uint64_t resets, rewrites, golden_max_latency, late_bound, golden_detections;
    uint64_t test_max_latency; /* the golden run's slowest test message, first attempt to ACK */
    uint64_t drain_cycles;
    uint64_t refused;          /* data a full source queue refused (offered, not generated) */
    uint64_t delivered_by_end; /* data delivered before the window's end (accepted load) */
    uint64_t cycles;           /* warmup + offset + window */
    int drained;
} rnp_upset_stats_t;

/* One run: the loaded network from reset, golden run and faulty run of the same seed stepped
 * side by side, the flip of `site` at cycle warmup + at_offset, `window` cycles after it, then
 * a drain (new data stopped) until every message is done; fills every field of *r and
 * r->outcome = upset_classify(r), and *st with the stats (st may be NULL). Deterministic: the
 * same cfg, site and offset give the same bytes. Returns 0, or -1 with a message (a bad site,
 * a network that cannot be built). */
int rnp_upset_run_stats(const rnp_upset_cfg_t *c, const char *site, uint64_t at_offset, upset_result_t *r,
                      rnp_upset_stats_t *st, char *err, size_t errlen);

#endif
