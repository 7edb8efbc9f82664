/*
 * torus.c — `ftsim torus`: the command line of a run of a 2-D SCI torus system with named
 * flows or a standard traffic pattern and faults at given or seeded random times. The scenario
 * language and the plan are harness/scisys/sci_scenario.c; the run and its report,
 * harness/scisys/sci_report.c.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "sci_report.h"
#include "sci_scenario.h"
#include "tpool.h"

static const char usage[] =
    "usage: ftsim torus --torus WxH [--p2s] [--static] [--model csim|rtl|both]\n"
    "                   [--traffic uniform|bitrev|shuffle|butterfly|transpose|complement|hotspot]\n"
    "                   [--every T] [--bytes B] [--flow NAME:SX,SY:DX,DY] ...\n"
    "                   [--fault WHEN:CONTROL] ... [--random-faults N] [--scenario FILE]\n"
    "                   [--run T] [--time-scale K] [--seed S] [--wave FILE.fst] [--log] [--json]\n"
    "                   [--wave-from T] [--wave-to T]\n"
    "                   [--series FILE.csv] [--bin T] [--no-skip] [--param NAME=VALUE] ...\n"
    "                   [--threads N] [--ftdrb]\n"
    "\n"
    "--ftdrb: FT-DRB (Zarza et al.) in the hosts (harness/scisys/ftdrb_sci.md): notifications of\n"
    "failed packets to their sources, per-source fault tables, multistep paths relayed by hosts.\n"
    "\n"
    "Runs the torus with its host agents and drivers (LC3) or hardware failover (P2S; --static:\n"
    "the static reconfiguration baseline instead of the drivers) for --run T of simulated time\n"
    "(default 10 ms), then stops the flows and lets them drain. Times (T, WHEN) are simulated\n"
    "time: 20ms, 150us, 2s, or cycles at 100 MHz. The driver's timers are the paper's (a pass\n"
    "takes about 250 ms) divided by --time-scale (default 1). Traffic patterns give every node a\n"
    "flow (uniform: two flows to random destinations, seeded) of one B-byte message (default\n"
    "64) every T (default 20us). --flow NAME:SX,SY:DX,DY adds a flow from node (SX,SY) to\n"
    "(DX,DY); NAME:SX,SY->DX,DY says the same, quoted (unquoted, the shell reads > as a\n"
    "redirection). CONTROL: cut x X,Y | restore x X,Y | cut y X,Y | restore y X,Y | off X,Y |\n"
    "on X,Y; a fault must fall inside the run (WHEN before T), else exit 2 (a scenario's faults\n"
    "past a shorter --run are left out, and the report says so). --random-faults N pulls N\n"
    "random cables at seeded random times and puts each back later.\n"
    "\n"
    "The report, per flow, is taken at the end of the run (the drain is not in it):\n"
    "  offered    messages the application wrote, and the one it is blocked in (a full window)\n"
    "  sent       messages sent at least once\n"
    "  delivered  messages delivered at the destination (in order, once each)\n"
    "  held       offered - sent: at the source, never sent (a full window, a driver's hold)\n"
    "  retrans    retransmissions: DATA packets sent again (go-back-N after a timeout, a\n"
    "             FAIL_REPORT or a driver's release)\n"
    "  fails      FAIL_REPORTs of the flow's packets (an LC gave one up: ring down, retries)\n"
    "  gap ms     the longest time the source had a message offered and nothing new was\n"
    "             delivered: a source that cannot send is in a gap too\n"
    "  lat us     mean latency, first send to delivery; MB/s: payload delivered per second\n"
    "Then the totals and the drivers' passes; a warning when the run ended while a driver was\n"
    "still reconfiguring (the figures are from before the recovery: run longer to see it); the\n"
    "drain: every message of a pair of live nodes delivered once, in order, and acknowledged\n"
    "(PASS), else FAIL (exit 1); simulated cycles per second. --json prints the same as one JSON\n"
    "object on stdout and nothing else (a warning or a failure goes to stderr as well).\n"
    "--log prints the faults, the drivers' steps and, on P2S, the hardware failover (LC\n"
    "redirect, NOTIFY, forced select) on stderr, one line each.\n"
    "\n"
    "--series writes every flow's deliveries and MB/s per --bin (default 1/100 of the run) as\n"
    "CSV. --no-skip steps the C model through every edge (for speed comparisons with the RTL,\n"
    "which has no idle skipping). --threads N runs the model's nodes on N threads, the C\n"
    "model's hosts and drivers too, with the same results as on one; it pays from about 8x8\n"
    "up. The RTL's nodes run in N parts, each in a Verilator context of its own (--wave: each\n"
    "part's own FST, merged into one at the end); with the RTL the hosts and\n"
    "drivers stay on one thread (a register read evaluates a model). --param sets one of the\n"
    "driver's parameters (cablenotok_ms readytogo_ms watchdog_ms host_rtx_ms compute_ms\n"
    "reg_write_us clock_mhz echo_timeout busy_limit retry_limit rsr_timeout fail_backoff\n"
    "window; defaults in harness/scisys/sci_sys.md section 3). --wave writes the RTL and the harness's state as\n"
    "FST; --wave-from T and --wave-to T dump only that part of the run (times as --fault's; the\n"
    "waveform keeps the run's time axis; nothing is dumped or spent on dumps outside).\n"
    "\n"
    "Scenario file (--scenario): the same as statements, one a line: torus WxH, p2s,\n"
    "time-scale K, flow NAME SX,SY -> DX,DY [bytes B] [every T], traffic PATTERN [every T]\n"
    "[bytes B], fault WHEN CONTROL, random-faults N, run T (harness/scisys/sci_sys.md section\n"
    "7). --run and --time-scale win over the file's; --torus must agree with its torus.\n";

/* --every T into microseconds. */
static int every_us(void *dst, const char *val, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    uint64_t c;
    if (sci_scn_time(val, &c) < 0 || c == 0)
        return -1;
    *(double *)dst = (double)c / 100.0;
    return 0;
}

/* A time T (zero too) into cycles. */
static int time_or_zero(void *dst, const char *val, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return sci_scn_time(val, dst);
}

/* A time T (not zero) into cycles. */
static int time_cycles(void *dst, const char *val, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    uint64_t c;
    if (sci_scn_time(val, &c) < 0 || c == 0)
        return -1;
    *(uint64_t *)dst = c;
    return 0;
}

static int flow_arg(void *dst, const char *val, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    sci_scn_t *o = dst;
    if (o->nflow_args < 64)
        o->flow_args[o->nflow_args++] = val;
    return 0;
}

static int fault_arg(void *dst, const char *val, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    sci_scn_t *o = dst;
    if (o->nfault_args < SCI_SCN_MAXFAULT)
        o->fault_args[o->nfault_args++] = val;
    return 0;
}

static int param(void *dst, const char *val, char *err, size_t errlen)
{
    return sci_sys_param_set(dst, val, err, errlen);
}

/* The options into o: -1 to go on, else the exit status. */
static int torus_args(sci_scn_t *o, int argc, char **argv)
{
    const opts_opt_t opts[] = {
        {"p2s", 0, OPTS_FLAG, &o->p2s, .set = 1},
        {"static", 0, OPTS_FLAG, &o->stat, .set = 1},
        {"json", 0, OPTS_FLAG, &o->json, .set = 1},
        {"log", 0, OPTS_FLAG, &o->log, .set = 1},
        {"no-skip", 0, OPTS_FLAG, &o->no_skip, .set = 1},
        {"ft", 0, OPTS_FLAG, &o->ft, .set = 1},
        {"ftdrb", 0, OPTS_FLAG, &o->ftdrb, .set = 1},
        {"no-selftest", 0, OPTS_FLAG, &o->no_selftest, .set = 1},
        {"no-watchdog", 0, OPTS_FLAG, &o->no_watchdog, .set = 1},
        {"no-recovery", 0, OPTS_FLAG, &o->no_recovery, .set = 1},
        {"scrub", 0, OPTS_FLAG, &o->scrub, .set = 1},
        {"no-host-state", 0, OPTS_FLAG, &o->no_host_state, .set = 1},
        {"torus", 0, OPTS_FN, &(cmd_size_t){&o->w, &o->h}, .fn = cmd_size, .msg = "WxH"},
        {"model", 0, OPTS_FN, &o->models, .fn = cmd_models, .msg = "rtl, csim or both"},
        {"traffic", 0, OPTS_STR, .dst = &o->traffic},
        {"every", 0, OPTS_FN, &o->rate_us, .fn = every_us, .msg = "a time (20us, 1ms, cycles)"},
        {"bytes", 0, OPTS_UINT, &o->bytes, .min = 16, .max = 64, .flags = OPTS_DEC,
         .msg = "16 to 64"},
        {"flow", 0, OPTS_FN, o, .fn = flow_arg},
        {"fault", 0, OPTS_FN, o, .fn = fault_arg},
        {"random-faults", 0, OPTS_UINT, &o->random_faults, .max = 16, .flags = OPTS_DEC,
         .msg = "0 to 16"},
        {"scenario", 0, OPTS_STR, .dst = &o->scenario},
        {"run", 0, OPTS_FN, &o->cli_run, .fn = time_cycles, .msg = "a time (20ms, 2s, cycles)"},
        {"time-scale", 0, OPTS_DBL, &o->cli_time_scale, .min = 1, .max = 1e6, .msg = "1 to 1e6"},
        {"seed", 0, OPTS_U64, &o->seed, .msg = "a number"},
        {"param", 0, OPTS_FN, &o->par, .fn = param},
        {"series", 0, OPTS_STR, .dst = &o->series},
        {"bin", 0, OPTS_FN, &o->bin, .fn = time_cycles, .msg = "a time (100us, 1ms, cycles)"},
        {"wave", 0, OPTS_STR, .dst = &o->wave},
        {"threads", 0, OPTS_UINT, &o->threads, .min = 1, .max = TPOOL_MAX, .flags = OPTS_DEC,
         .msg = "1 to 64"},
        {"wave-from", 0, OPTS_FN, &o->wave_from, .fn = time_or_zero,
         .msg = "a time (2ms, 150us, cycles)"},
        {"wave-to", 0, OPTS_FN, &o->wave_to, .fn = time_cycles,
         .msg = "a time after 0 (3ms, 150us, cycles)"},
        {0},
    };
    opts_cmd_t c = {.name = "torus",
                    .style = OPTS_VALUE,
                    .unknown = "unknown option",
                    .missing = "unknown option or missing value",
                    .opts = opts};
    return cmd_parse(&c, usage, argc, argv, NULL);
}

int cmd_torus(int argc, char **argv)
{
    sci_scn_t o;
    sci_scn_init(&o);
    int rc = torus_args(&o, argc, argv);
    if (rc < 0)
        rc = cmd_wave_window("torus", o.wave, o.wave_from, o.wave_to);
    if (rc >= 0)
        return rc;
    prng_t rng;
    sci_report_t t;
    memset(&t, 0, sizeof t);
    rc = sci_scn_plan(&o, &rng);
    if (rc == 0)
        rc = sci_report_open(&o, &rng, &t);
    if (rc == 0)
        rc = sci_report_print(&o, &t, sci_report_run(&o, &t));
    sci_report_free(&t);
    sci_scn_free(&o);
    return rc;
}
