/*
 * upset_run.h — one run of an upset campaign (`ftsim upset --campaign NAME`): a running system, one
 * upset at a time drawn for the run, a fixed window against a golden run of the same seed, and
 * what came of it. The systems (the SCI torus with its drivers, the RNP network with its
 * monitor) fill an upset_result_t; the campaign writes it as its record and the report counts
 * the records alone. Knows no design.
 *
 * Outcomes, as the rows of the report (harness/core/README.md, "Upset campaigns"):
 *   no impact   masked       nothing seen outside and the state equals the golden run's at the end
 *               latent       nothing seen outside, the state still differs at the end
 *               reconverged  the outputs differed for a while; no failure, the state equal again
 *   failures, credited to the first detector in time:
 *               hung         the watchdog
 *               selftest     the self-test (test packets on the paths in use)
 *               protocol     the protocol's own detectors (CRC, echoes, FAIL_REPORT, RNP's
 *                            STATUS/CHECKSUM diagnosis), before any of the two above
 *               scrub        the read-back of whole tables (an ablation's detector only)
 *   failures no detector caught within the window:
 *               misrouted    a packet taken at the wrong place, or lost
 *               corrupted    a message delivered with a wrong payload
 *               latency      every message delivered, some of them unusually late
 * and two counts that must stay 0 after recovery: messages lost or duplicated (the ledger), and
 * a divergence between the RTL and the C model (a lockstep confirmation run).
 */
#ifndef FTSIM_UPSET_RUN_H
#define FTSIM_UPSET_RUN_H

#include <stdint.h>

typedef enum {
    UPSET_MASKED = 0,
    UPSET_LATENT,
    UPSET_RECONVERGED,
    UPSET_HUNG,
    UPSET_SELFTEST,
    UPSET_PROTOCOL,
    UPSET_SCRUB,
    UPSET_MISROUTED,
    UPSET_CORRUPTED,
    UPSET_LATENCY,
    UPSET_NOUTCOMES
} upset_outcome_t;

/* The detectors, in the order a report lists them ("none": none fired). */
typedef enum {
    UPSET_DET_NONE = 0,
    UPSET_DET_WATCHDOG,
    UPSET_DET_SELFTEST,
    UPSET_DET_PROTOCOL,
    UPSET_DET_SCRUB,
    UPSET_NDETECTORS
} upset_detector_t;

typedef struct upset_result {
    char site[64];         /* the upset as a vector statement's target and bit: "n1.1.x.lrt[0x12] bit0" */
    uint64_t at;           /* cycle of the flip (from the end of the boot) */
    upset_outcome_t outcome; /* as above */
    upset_detector_t first;  /* the first detector to fire (NONE: none) */
    uint64_t det_cycle[UPSET_NDETECTORS]; /* cycle each detector first fired after the flip (0: never) */
    uint64_t detect_latency;  /* cycles from the flip to the first of the watchdog and self-test
                                 (0: neither fired) */
    uint64_t recover_latency; /* cycles from that detection to the end of the recovery (0: none) */
    uint64_t recoveries;      /* blocks the hosts recovered */
    /* the ledger over the run, messages */
    uint64_t generated, delivered, lost, duplicated, corrupted, misrouted;
    uint64_t late;            /* messages later than the golden run's latest by the bound */
    int asserted;             /* an RTL assertion fired after the flip (lockstep runs) */
    int diverged;             /* the RTL and the C model differed (lockstep runs) */
    int out_differed;         /* the outputs differed from the golden run's at some cycle */
    int state_differs;        /* the state differs from the golden run's at the window's end */
    uint64_t golden_alarms;   /* the golden run's watchdog, self-test and scrub detections: false
                                 alarms (a campaign's load and bounds must keep them 0) */
} upset_result_t;

/* Names as the records and the report write them. */
const char *upset_outcome_name(upset_outcome_t o);
const char *upset_detector_name(upset_detector_t d);
/* The inverse: -1 when the name is none. */
int upset_outcome_of(const char *name);

/* The outcome of a run from what it saw (the one rule every system uses):
 * a detector fired -> its row (hung, selftest, protocol, scrub: the first in time);
 * else a corrupted delivery -> corrupted; a packet misrouted or lost -> misrouted;
 * late messages -> latency; else the no-impact rows by out_differed and state_differs. */
upset_outcome_t upset_classify(const upset_result_t *r);

/* Is the outcome a failure (anything but the three no-impact rows)? */
static inline int upset_is_failure(upset_outcome_t o) { return o >= UPSET_HUNG; }

#endif
