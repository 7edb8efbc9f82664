/*
 * sci_scenario.h — what a run of the torus (`ftsim torus`) is asked to do, from the command line
 * and a scenario file: the torus, its flows, its faults, the run, the options of the report.
 *
 * Scenario file (one statement a line, `#` comments; times are simulated time: `20ms`,
 * `150us`, `2s`, or a plain number of cycles at the link clock; harness/scisys/sci_sys.md
 * section 7):
 *   torus WxH                   (the torus; --torus, if given too, must say the same)
 *   p2s                         (P2S nodes, as --p2s)
 *   time-scale K                (as --time-scale, which wins when given)
 *   flow NAME SX,SY -> DX,DY [bytes B] [every T]
 *   traffic PATTERN [every T] [bytes B]
 *   fault WHEN CONTROL          (CONTROL: cut x X,Y | restore x X,Y | cut y X,Y |
 *                                restore y X,Y | off X,Y | on X,Y | reset X,Y | seu ...)
 *   random-faults N             (N cable pulls at seeded random times, each put back later)
 *   run T
 * A malformed line is `file:line: message`, exit 2, before anything runs; so is a fault at or
 * after the run's end.
 */
#ifndef FTSIM_SCI_SCENARIO_H
#define FTSIM_SCI_SCENARIO_H

#include <stddef.h>
#include <stdint.h>

#include "prng.h"
#include "sci_sys.h"

#define SCI_SCN_MAXF     4096
#define SCI_SCN_MAXFAULT 48

typedef struct sci_scn_flow {
    char name[48];
    unsigned sx, sy, dx, dy, bytes;
    double every_us;
} sci_scn_flow_t;
typedef struct sci_scn_fault {
    uint64_t at;
    char what[64];
    const char *arg; /* the --fault argument it came from, or NULL */
    unsigned line;   /* the scenario line it came from, or 0 */
    int left_out;    /* a scenario's fault at or after a shorter --run: not applied */
} sci_scn_fault_t;

typedef struct sci_scn {
    unsigned w, h, models, threads;
    int p2s, json, log, stat, no_skip;
    int ft, no_selftest, no_watchdog, no_recovery, scrub, no_host_state;
    int ftdrb; /* FT-DRB (Zarza et al.) in the hosts (harness/scisys/ftdrb_sci.md) */
    const char *traffic, *wave, *scenario, *series;
    uint64_t bin;
    double rate_us, time_scale;
    unsigned bytes, random_faults;
    uint64_t seed, run;
    sci_scn_flow_t *flows;
    unsigned nflows;
    sci_scn_fault_t faults[SCI_SCN_MAXFAULT];
    unsigned nfaults;
    sci_sys_params_t par;
    /* as given, read once the torus is known */
    const char *flow_args[64], *fault_args[SCI_SCN_MAXFAULT];
    unsigned nflow_args, nfault_args;
    uint64_t cli_run;      /* --run, which wins over a scenario's run */
    uint64_t scenario_run; /* the scenario's run (0: none) */
    double cli_time_scale; /* --time-scale (0: not given), which wins over a scenario's */
    unsigned torus_line;   /* the scenario's `torus` line (0: none) */
    char *scn_text;        /* the scenario file, read once */
    size_t scn_len;
    uint64_t wave_from, wave_to; /* --wave-from, --wave-to in cycles (wave_to 0: not given) */
} sci_scn_t;

/* The defaults: the C model, a 64-byte message every 20 us, seed 1, the driver's parameters. */
void sci_scn_init(sci_scn_t *o);
/* Simulated time to cycles at 100 MHz: "20ms", "150us", "2s", "12345". 0, or -1. */
int sci_scn_time(const char *s, uint64_t *cyc);
/* Everything the command line (o as parsed) and the scenario say, checked and completed: the
 * torus, the flows, the faults, the run and the bins; rng seeded and used for the patterns'
 * and random faults. 0, or 2 (said why on stderr: a scenario's line as `file:line: message`). */
int sci_scn_plan(sci_scn_t *o, prng_t *rng);
/* What the plan allocated. */
void sci_scn_free(sci_scn_t *o);

#endif
