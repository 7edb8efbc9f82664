/* faultcheck.c — `ftsim faultcheck`: every single fault on a running SCI torus, with its
 * checks (scisys/sci_faultcheck.c). */
#include <stdio.h>

#include "cmd.h"
#include "lockstep.h"
#include "sci_faultcheck.h"
#include "tpool.h"

static const char usage[] =
    "usage: ftsim faultcheck --torus WxH [--p2s] [--model csim|rtl|both] [--fault F]\n"
    "                        [--double | --faults K] [--ftdrb] [--time-scale K] [--period C]\n"
    "                        [--seed S] [-v|-vv] [--threads N] [--multi-only] [--quiet]\n"
    "\n"
    "Runs the torus with all-pairs traffic (one 64-byte message per --period cycles per\n"
    "ordered pair, default 4000), the drivers (LC3) or the hardware failover (P2S), and every\n"
    "single fault in turn (each X ring, each Y ring, each node; or just --fault xring:R |\n"
    "yring:C | node:X,Y), with the timers divided by --time-scale (default 5000). For each\n"
    "fault: all pairs deliver after reconfiguration, nothing is scrubbed, retransmitted or\n"
    "lost after it, the tables read back change at exactly the nodes sci_route.md section 2 names,\n"
    "flows off the failed ring keep their fault-free jitter, and the queue dependency graph is\n"
    "acyclic (the cycles harness/sci/sci_route.md section 5 proves unavoidable are reported as\n"
    "known). --double: every pair of faults, reported (not failed); --faults K: every K of\n"
    "them; --fault A+B[+C..]: those faults alone, then together. --ftdrb: each case of\n"
    "several faults runs again with FT-DRB (Zarza et al.) in the hosts\n"
    "(harness/scisys/ftdrb_sci.md), and the ordered pairs of live nodes are counted against a\n"
    "search of the live rings: connected, reachable through <= 2 intermediates, delivering\n"
    "without and with FT-DRB; every reachable pair must deliver with FT-DRB (exit 1 if not).\n"
    "--multi-only: the cases of several faults only, not the single faults first (whose\n"
    "checks are calibrated at the default period: at --period 16000 three node faults of 4x4\n"
    "see one timeout round after reconfiguration).\n"
    "--threads N runs the\n"
    "model's nodes on N threads (the RTL's in N Verilator contexts), and the C model's hosts\n"
    "and drivers, with the same results as on one. Progress goes to stderr (a line per 5 % when not on a terminal;\n"
    "--quiet: none). Exit 0 when every single fault passes, 1 otherwise, 2 on bad\n"
    "arguments.\n"
    "\n"
    "--jobs J: the faults on J processes, the output as with one. --shard K/N: only every Nth\n"
    "fault from the Kth, written on stdout as a shard file (exit 0 once written); ftsim merge\n"
    "makes the report of all N shards (harness/scisys/README.md: over many machines).\n";

int cmd_faultcheck(int argc, char **argv) { return cmd_faultcheck_with(argc, argv, NULL); }

int cmd_faultcheck_with(int argc, char **argv, campaign_t *merged)
{
    sci_check_opts_t o;
    sci_check_defaults(&o);
    campaign_opts_t co = {0};
    const opts_opt_t opts[] = {
        {"jobs", 0, OPTS_UINT, &co.jobs, .min = 1, .max = 1024, .flags = OPTS_DEC,
         .msg = "1 to 1024 processes"},
        {"shard", 0, OPTS_FN, &co, .fn = campaign_parse_shard, .msg = "K/N, 1 <= K <= N"},
        {"p2s", 0, OPTS_FLAG, &o.p2s, .set = 1},
        {"double", 0, OPTS_FLAG, &o.double_faults, .set = 1},
        {"ftdrb", 0, OPTS_FLAG, &o.ftdrb, .set = 1},
        {"multi-only", 0, OPTS_FLAG, &o.multi_only, .set = 1},
        {"quiet", 0, OPTS_FLAG, &o.quiet, .set = 1},
        {"faults", 0, OPTS_UINT, &o.nfaults, .min = 2, .max = 4, .flags = OPTS_DEC,
         .msg = "2 to 4"},
        {NULL, 'v', OPTS_COUNT, .dst = &o.verbose},
        {"torus", 0, OPTS_FN, &(cmd_size_t){&o.w, &o.h}, .fn = cmd_size, .msg = "WxH"},
        {"model", 0, OPTS_FN, &o.models, .fn = cmd_models, .msg = "rtl, csim or both"},
        {"fault", 0, OPTS_STR, .dst = &o.fault},
        {"time-scale", 0, OPTS_DBL, &o.scale, .min = 1, .max = 1e6, .msg = "1 to 1e6"},
        {"period", 0, OPTS_U64, &o.period, .min = 500, .max = 1000000,
         .msg = "500 to 1000000 cycles"},
        {"seed", 0, OPTS_U64, &o.seed, .msg = "a number"},
        {"threads", 0, OPTS_UINT, &o.threads, .min = 1, .max = TPOOL_MAX, .flags = OPTS_DEC,
         .msg = "1 to 64"},
        {0},
    };
    opts_cmd_t c = {.name = "faultcheck",
                    .style = OPTS_VALUE,
                    .unknown = "unknown option or missing value",
                    .missing = "unknown option or missing value",
                    .opts = opts};
    int rc = cmd_parse(&c, usage, argc, argv, NULL);
    if (rc >= 0)
        return rc;
    unsigned max = o.p2s ? 32 : 16;
    if (o.w < 2 || o.h < 2 || o.w > max || o.h > max) {
        fprintf(stderr, "ftsim faultcheck: --torus WxH is required, %s tori are 2x2 to %ux%u\n",
                o.p2s ? "P2S" : "LC3", max, max);
        return 2;
    }
    campaign_t *cp = cmd_campaign(merged, &co, "faultcheck", argc, argv);
    if (!cp)
        return 2;
    char err[1024];
    rc = sci_check_run(&o, cp, err, sizeof err);
    if (cp != merged)
        campaign_free(cp);
    if (rc < 0) {
        fprintf(stderr, "ftsim faultcheck: %s\n", err);
        return 2;
    }
    return rc;
}
