/*
 * sci_report.h — one run of the torus as `ftsim torus` asks it (sci_scenario.h): the system
 * (harness/scisys/sci_sys.c) opened with the plan's flows and faults, run, its flows stopped
 * and drained, and the report, per flow at the end of the run: offered, sent, delivered, held,
 * retransmitted, FAIL_REPORTs, the longest gap seen from the source, latency, throughput; the
 * drivers' passes; whether the run ended before the drivers were done; the drain and its
 * verdict; the simulation speed. As a table, or (--json) one JSON object on stdout.
 */
#ifndef FTSIM_SCI_REPORT_H
#define FTSIM_SCI_REPORT_H

#include <stdint.h>
#include <time.h>

#include "prng.h"
#include "sci_scenario.h"
#include "sci_sys.h"

typedef struct sci_report {
    sci_sys_t *s;
    sci_sys_cfg_t cfg;
    time_t t0;
    uint64_t base, run_cycles;
    double build_s, run_s;
    int settled;
    char err[600];
    /* at the end of the run, before the drain: the report's figures */
    sci_flow_stats_t *snap;
    unsigned nsnap;
    unsigned busy;                  /* drivers still reconfiguring (or the static front end: 1) */
    char busy_at[160];              /* which: "(0,2) (1,2) ..." */
    uint64_t drain_cycles, drained; /* the drain's length, and the messages it delivered */
} sci_report_t;

/* The system with its flows and faults: 0, or 2 (said why). t zeroed by the caller. */
int sci_report_open(const sci_scn_t *o, prng_t *rng, sci_report_t *t);
/* The run, then the flows stopped and drained: 0, or 1 (t->err says why). */
int sci_report_run(const sci_scn_t *o, sci_report_t *t);
/* The report of the run that returned rc; the exit status (0 PASS, 1 FAIL, 2 --series). */
int sci_report_print(const sci_scn_t *o, const sci_report_t *t, int rc);
/* The system and what the run kept. */
void sci_report_free(sci_report_t *t);

#endif
