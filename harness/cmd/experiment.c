/* experiment.c — `ftsim experiment NAME`: the RNP network measurements (rnp/experiment_rnp.c)
 * and the paper's SCI torus experiments (scisys/experiment_sci.c), each with its options. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "experiment.h"
#include "experiment_ftdrb.h"
#include "experiment_rnp.h"
#include "experiment_sci.h"
#include "lockstep.h"
#include "pattern.h"
#include "tpool.h"

static const char usage_experiment[] =
    "usage: ftsim experiment NAME [--cycles N] [--seed S] [--model rtl|csim|both] [--out DIR]\n"
    "                        [--quiet]\n"
    "\n"
    "  rnp-load      RNP network (64 endpoints): delivered fraction, retries per message,\n"
    "                latency and accepted throughput vs offered load, for 0, 1, 4, 16 faults,\n"
    "                with and without the link fault table and the backward channel\n"
    "  rnp-patterns  the standard permutations, fault-free and with 4 faults\n"
    "  rnp-policy    permanent, transient and intermittent faults under three source\n"
    "                policies: no table, mask at the first diagnosis, FT-DRB's stages\n"
    "  ftdrb-rnp     FT-DRB (Zarza et al.) at its scale: rnpnet1024, the five permutations and\n"
    "                uniform, 0, 6 and 60 permanent link faults injected under load, per-source\n"
    "                tables with relays beside the global table; performance against the\n"
    "                fault-free run (latency difference and ratio) beside FT-DRB's Figure 3\n"
    "  ring-down-9, node-down-4, static-4, p2s-ring-down-9, p2s-node-down-4\n"
    "                the SCI torus experiments (ftsim experiment ring-down-9 --help)\n"
    "  ftdrb-sci     FT-DRB's Figure 3 on a 32x32 P2S torus, FT-DRB beside the hardware\n"
    "                failover alone (ftsim experiment ftdrb-sci --help)\n"
    "\n"
    "Each prints a markdown table and writes NAME.csv under --out (default build/experiments);\n"
    "`make paper` runs them all and draws the PNG plots. Defaults: --cycles 30000 a run,\n"
    "--seed 1, --model csim (the C model: the RTL gives the same numbers, slower).\n"
    "--jobs J: the runs on J processes, the output as with one. --shard K/N: only every Nth\n"
    "run from the Kth, written on stdout as a shard file; ftsim merge makes the report.\n"
    "\n"
    "ftdrb-rnp only (harness/rnp/ftdrb_rnp.md): --seeds N (3), --endpoints 16|64|256|1024 (1024),\n"
    "--cycles N the measuring window (6000), --json one JSON object on stdout instead of the\n"
    "tables, --quick the small version the tests run (64 endpoints, 0, 6 and 16 faults, one\n"
    "seed, short phases), --mutant dedup-last (tests only: destinations deduplicate by the\n"
    "last sequence number per source, which relays break; the ledger must catch it),\n"
    "--mutant crc8 (the weakened end-to-end check: a corrupted delivery must fail the run),\n"
    "--no-spread (ablation: relay whenever no direct choice is clear, no metapath spread by\n"
    "latency), --one-sender (ablation: an endpoint's one sender also serves its relay\n"
    "buffers), --relay-buf N (segments a relay buffer takes, 1 to 8, default 8: the tests\n"
    "make relays push back). Exit 1 when a message was neither delivered once nor reported\n"
    "failed to its source, or a corrupted one was delivered.\n";

static const char usage_sci[] =
    "usage: ftsim experiment NAME [--runs N] [--seed S] [--json] [--model csim|rtl|both]\n"
    "                        [--verbose] (per run and flow: gap, deliveries; driver log)\n"
    "                        [--out DIR] [--json-file F] [--quiet] [--probe-us U] [--window-ms M]\n"
    "                        [--time-scale K] [--cablenotok-ms T] [--readytogo-ms T]\n"
    "                        [--watchdog-ms T] [--host-rtx-ms T] [--compute-ms T]\n"
    "                        [--reg-write-us T] [--echo-timeout C] [--rsr-timeout C]\n"
    "                        [--threads N]\n"
    "\n"
    "The paper's experiments on the 2-D SCI torus (sci.md section 6, harness/scisys/sci_sys.md):\n"
    "  ring-down-9      3x3 LC3, flows tiger-1->8, 3->7, 1->3 and the control flow 5->9;\n"
    "                   the X-ring cable tiger-1 -> tiger-2 pulled\n"
    "  node-down-4      2x2 LC3, flow linden-1->4; linden-2 powered down\n"
    "  static-4         2x2 LC3, the static reconfiguration baseline; a cable pulled\n"
    "  p2s-ring-down-9  as ring-down-9 on P2S (hardware failover)\n"
    "  p2s-node-down-4  as node-down-4 on P2S\n"
    "\n"
    "Each run: saturated flows (bandwidth, latency before), then one 64-byte message per\n"
    "--probe-us per flow (default 500) with the fault at a random time (downtime: a flow's\n"
    "longest gap between deliveries), then saturated again (after). Prints the measured\n"
    "values beside the paper's; --json prints one object instead (--json-file F: as well).\n"
    "Writes the mean bandwidth and latency around the fault (1 ms bins) to NAME.csv under\n"
    "--out (default build/experiments); `make paper`, or harness/scripts/plot.py DIR/NAME.csv,\n"
    "draws NAME-bandwidth.png and NAME-latency.png from it.\n"
    "The paper's timers by default (50 ms, 200 ms, 1 s); --runs 5, --seed 1, --model csim.\n"
    "--threads N runs the C model's nodes, hosts and drivers on N threads, with the same\n"
    "results as on one (the RTL stays on one thread).\n"
    "--jobs J: the runs on J processes, the output as with one. --shard K/N: only every Nth\n"
    "run from the Kth, written on stdout as a shard file (no table, CSV or JSON; exit 0 once\n"
    "written); ftsim merge makes them of all N shards (harness/scisys/README.md).\n";

/* A timer or a rate: a positive number into *(double *)dst. */
static int positive(void *dst, const char *val, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    char *e;
    double v = strtod(val, &e);
    if (!*val || *e || !isfinite(v) || v <= 0)
        return -1;
    *(double *)dst = v;
    return 0;
}

/* An LC or PSB timeout in whole cycles, 1 to 65535, into *(unsigned *)dst. */
static int cycles16(void *dst, const char *val, char *err, size_t errlen)
{
    double v;
    if (positive(&v, val, err, errlen) < 0)
        return -1;
    if (v > 65535 || v != floor(v)) {
        snprintf(err, errlen, "%s: whole cycles, 1 to 65535", val);
        return -1;
    }
    *(unsigned *)dst = (unsigned)v;
    return 0;
}

/* Where the results go, checked before the runs rather than after them: -1 to go on, or 2. */
static int sci_outputs(const experiment_sci_opts_t *o)
{
    mkdir(o->outdir, 0777);
    struct stat sb;
    if (stat(o->outdir, &sb) < 0 || !S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "ftsim experiment: --out %s: not a directory that can be made\n",
                o->outdir);
        return 2;
    }
    if (o->json_file) {
        FILE *jf = fopen(o->json_file, "w");
        if (!jf) {
            fprintf(stderr, "ftsim experiment: --json-file %s: cannot write\n", o->json_file);
            return 2;
        }
        fclose(jf);
    }
    return -1;
}

/* The SCI experiment `name`, argv its options (argv[-1] is the name); the campaign of merged
 * shards or NULL. */
static int sci_experiment(const char *name, int argc, char **argv, campaign_t *merged)
{
    experiment_sci_opts_t o;
    experiment_sci_defaults(&o);
    sci_sys_params_t *p = &o.par;
    const char *num = "a positive number";
    campaign_opts_t co = {0};
    const opts_opt_t opts[] = {
        {"jobs", 0, OPTS_UINT, &co.jobs, .min = 1, .max = 1024, .flags = OPTS_DEC,
         .msg = "1 to 1024 processes"},
        {"shard", 0, OPTS_FN, &co, .fn = campaign_parse_shard, .msg = "K/N, 1 <= K <= N"},
        {"json", 0, OPTS_FLAG, &o.json, .set = 1},
        {"quiet", 0, OPTS_FLAG, &o.quiet, .set = 1},
        {"verbose", 0, OPTS_FLAG, &o.verbose, .set = 1},
        {"runs", 0, OPTS_UINT, &o.runs, .min = 1, .max = 1000, .flags = OPTS_DEC,
         .msg = "1 to 1000"},
        {"seed", 0, OPTS_U64, &o.seed, .msg = "not a number"},
        {"model", 0, OPTS_FN, &o.models, .fn = cmd_models, .msg = "rtl, csim or both"},
        {"out", 0, OPTS_STR, .dst = &o.outdir},
        {"json-file", 0, OPTS_STR, .dst = &o.json_file},
        {"probe-us", 0, OPTS_FN, &o.probe_us, .fn = positive, .msg = num},
        {"window-ms", 0, OPTS_FN, &o.window_ms, .fn = positive, .msg = num},
        {"time-scale", 0, OPTS_FN, &p->time_scale, .fn = positive, .msg = num},
        {"cablenotok-ms", 0, OPTS_FN, &p->cablenotok_ms, .fn = positive, .msg = num},
        {"readytogo-ms", 0, OPTS_FN, &p->readytogo_ms, .fn = positive, .msg = num},
        {"watchdog-ms", 0, OPTS_FN, &p->watchdog_ms, .fn = positive, .msg = num},
        {"host-rtx-ms", 0, OPTS_FN, &p->host_rtx_ms, .fn = positive, .msg = num},
        {"compute-ms", 0, OPTS_FN, &p->compute_ms, .fn = positive, .msg = num},
        {"reg-write-us", 0, OPTS_FN, &p->reg_write_us, .fn = positive, .msg = num},
        {"echo-timeout", 0, OPTS_FN, &p->echo_timeout, .fn = cycles16, .msg = num},
        {"rsr-timeout", 0, OPTS_FN, &p->rsr_timeout, .fn = cycles16, .msg = num},
        {"threads", 0, OPTS_UINT, &o.threads, .min = 1, .max = TPOOL_MAX, .flags = OPTS_DEC,
         .msg = "1 to 64"},
        {0},
    };
    opts_cmd_t c = {.name = "experiment",
                    .style = OPTS_VALUE,
                    .unknown = "unknown option",
                    .missing = "needs a value (or is not an option)",
                    .opts = opts};
    opts_res_t r;
    int rc = opts_parse(&c, argc, argv, &r);
    if (rc == OPTS_HELP) {
        fputs(usage_sci, stdout);
        return 0;
    }
    if (rc == OPTS_UNKNOWN) /* read as an option with its value, as the usage writes them */
        snprintf(r.msg, sizeof r.msg, "ftsim experiment: %s%s%s: %s\n", argv[r.at],
                 r.at + 1 < argc ? " " : "", r.at + 1 < argc ? argv[r.at + 1] : "",
                 r.at + 1 < argc ? "unknown option" : "needs a value (or is not an option)");
    if (rc != OPTS_OK) {
        fputs(r.msg, stderr);
        if (rc != OPTS_BAD)
            fputs(usage_sci, stderr);
        return 2;
    }
    if (!co.shard_n && (rc = sci_outputs(&o)) >= 0) /* a shard writes neither */
        return rc;
    campaign_t *cp = cmd_campaign(merged, &co, "experiment", argc + 1, argv - 1);
    if (!cp)
        return 2;
    rc = experiment_sci_run(name, &o, cp);
    if (cp != merged)
        campaign_free(cp);
    return rc;
}

static const char usage_ftdrb[] =
    "usage: ftsim experiment ftdrb-sci [--torus WxH] [--faults K,K,..] [--patterns P,P,..]\n"
    "                        [--every-us U] [--warm-ms M] [--learn-ms M] [--measure-ms M]\n"
    "                        [--time-scale K] [--seed S] [--threads N] [--model csim|rtl|both]\n"
    "                        [--json] [--json-file F] [--out DIR] [--quiet] [--verbose]\n"
    "                        [--jobs J] [--shard K/N] [--sweep] [--no-spread]\n"
    "\n"
    "FT-DRB's evaluation (Zarza et al., Figure 3) on a P2S torus (harness/scisys/ftdrb_sci.md):\n"
    "every node sends one 64-byte message every --every-us to its pattern's destination\n"
    "(default, per pattern: twice the interval at which it saturates the fault-free 32x32\n"
    "torus, so half its saturation throughput; --sweep measures that: fault-free, intervals 10\n"
    "to 40 us)\n"
    "(--patterns, default bitrev,shuffle,butterfly,transpose,complement,uniform); after\n"
    "--warm-ms (0.2) K cables of distinct rings are pulled at random times (--faults, default\n"
    "0,1,2,6; the first K of one seeded order, the same for every pattern); once the drivers\n"
    "are idle (their timers divided by --time-scale, default 1000) and --learn-ms (1) after the\n"
    "last fault, the latency of what is delivered in --measure-ms (1). Each pattern and K runs\n"
    "twice: with the P2S hardware failover alone, and with FT-DRB in the hosts. Pairs the\n"
    "faults leave unconnected get no flow (excluded; a node with both rings down is isolated).\n"
    "Performance: the latency fault-free / with K faults (percent), and the difference, beside\n"
    "the FT-DRB paper's 97 % average, 88 % worst, 100 % best. Every message is delivered once, in\n"
    "order, and acknowledged; without FT-DRB the flows the failover cannot route are abandoned\n"
    "and counted; with it, a connected pair that does not deliver fails the experiment (exit\n"
    "1). Writes ftdrb-sci.csv under --out (default build/experiments; `make paper` plots it);\n"
    "--json prints one JSON object instead of the table. Defaults: 32x32, --seed 1, --threads 1,\n"
    "the C model. --jobs J: runs on J processes; --shard K/N with ftsim merge as elsewhere.\n"
    "--no-spread: FT-DRB with one path per pair (its metapath's ablation); the table gives each\n"
    "pair's paths used in the window and the busiest path's share (--verbose: every pair's).\n";

/* --faults K,K,..: up to FTX_MAX_COUNTS cable counts (0 first, for the performance). */
static int fault_counts(void *dst, const char *val, char *err, size_t errlen)
{
    experiment_ftdrb_opts_t *o = dst;
    unsigned n = 0;
    const char *p = val;
    while (*p) {
        char *e;
        unsigned long v = strtoul(p, &e, 10);
        if (e == p || v > 64 || n == FTX_MAX_COUNTS || (*e && *e != ','))
            break;
        o->counts[n++] = (unsigned)v;
        p = *e ? e + 1 : e;
        if (!*p && *e) {
            n = 0;
            break;
        }
    }
    if (*p || !n || o->counts[0] != 0) {
        snprintf(err, errlen, "%s: cable counts 0 to 64 separated by commas, 0 first (the "
                 "fault-free reference), at most %u", val, FTX_MAX_COUNTS);
        return -1;
    }
    o->ncounts = n;
    return 0;
}

/* --patterns P,P,..: names of harness/core/pattern.h (hotspot left out). */
static int pattern_list(void *dst, const char *val, char *err, size_t errlen)
{
    unsigned m = 0;
    char buf[200];
    snprintf(buf, sizeof buf, "%s", val);
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int p = traffic_pattern_find(t);
        if (p < 0 || p == TP_HOTSPOT) {
            snprintf(err, errlen, "%s: bitrev, shuffle, butterfly, transpose, complement or "
                     "uniform, separated by commas", t);
            return -1;
        }
        m |= 1u << p;
    }
    if (!m) {
        snprintf(err, errlen, "no pattern");
        return -1;
    }
    *(unsigned *)dst = m;
    return 0;
}

/* `ftsim experiment ftdrb-sci`: argv its options (argv[-1] is the name). */
static int ftdrb_experiment(int argc, char **argv, campaign_t *merged)
{
    experiment_ftdrb_opts_t o;
    experiment_ftdrb_defaults(&o);
    const char *num = "a positive number";
    campaign_opts_t co = {0};
    cmd_size_t sz = {&o.w, &o.h};
    const opts_opt_t opts[] = {
        {"jobs", 0, OPTS_UINT, &co.jobs, .min = 1, .max = 1024, .flags = OPTS_DEC,
         .msg = "1 to 1024 processes"},
        {"shard", 0, OPTS_FN, &co, .fn = campaign_parse_shard, .msg = "K/N, 1 <= K <= N"},
        {"json", 0, OPTS_FLAG, &o.json, .set = 1},
        {"quiet", 0, OPTS_FLAG, &o.quiet, .set = 1},
        {"verbose", 0, OPTS_FLAG, &o.verbose, .set = 1},
        {"sweep", 0, OPTS_FLAG, &o.sweep, .set = 1},
        {"no-spread", 0, OPTS_FLAG, &o.no_spread, .set = 1},
        {"torus", 0, OPTS_FN, &sz, .fn = cmd_size, .msg = "WxH"},
        {"faults", 0, OPTS_FN, &o, .fn = fault_counts},
        {"patterns", 0, OPTS_FN, &o.patterns, .fn = pattern_list},
        {"seed", 0, OPTS_U64, &o.seed, .msg = "not a number"},
        {"model", 0, OPTS_FN, &o.models, .fn = cmd_models, .msg = "rtl, csim or both"},
        {"out", 0, OPTS_STR, .dst = &o.outdir},
        {"json-file", 0, OPTS_STR, .dst = &o.json_file},
        {"every-us", 0, OPTS_FN, &o.every_us, .fn = positive, .msg = num},
        {"warm-ms", 0, OPTS_FN, &o.warm_ms, .fn = positive, .msg = num},
        {"learn-ms", 0, OPTS_FN, &o.learn_ms, .fn = positive, .msg = num},
        {"measure-ms", 0, OPTS_FN, &o.measure_ms, .fn = positive, .msg = num},
        {"time-scale", 0, OPTS_FN, &o.par.time_scale, .fn = positive, .msg = num},
        {"threads", 0, OPTS_UINT, &o.threads, .min = 1, .max = TPOOL_MAX, .flags = OPTS_DEC,
         .msg = "1 to 64"},
        {0},
    };
    opts_cmd_t c = {.name = "experiment",
                    .style = OPTS_VALUE,
                    .unknown = "unknown option",
                    .missing = "needs a value (or is not an option)",
                    .opts = opts};
    int rc = cmd_parse(&c, usage_ftdrb, argc, argv, NULL);
    if (rc >= 0)
        return rc;
    unsigned nr = 0;
    for (unsigned f = 0; f < o.ncounts; f++)
        nr = o.counts[f] > nr ? o.counts[f] : nr;
    if (o.w < 3 || o.h < 3 || nr > o.w + o.h) {
        fprintf(stderr, "ftsim experiment ftdrb-sci: --torus %ux%u with %u cables: 3x3 up to "
                "32x32, at most one cable a ring (%u rings)\n", o.w, o.h, nr, o.w + o.h);
        return 2;
    }
    for (int p = 0; p < TP_N; p++)
        if ((o.patterns >> p & 1u) && traffic_pattern_unfit(p, o.w, o.h)) {
            fprintf(stderr, "ftsim experiment ftdrb-sci: --patterns %s %s (%ux%u)\n",
                    traffic_pattern_names[p], traffic_pattern_unfit(p, o.w, o.h), o.w, o.h);
            return 2;
        }
    experiment_sci_opts_t out = {.outdir = o.outdir, .json_file = o.json_file};
    if (!co.shard_n && (rc = sci_outputs(&out)) >= 0)
        return rc;
    campaign_t *cp = cmd_campaign(merged, &co, "experiment", argc + 1, argv - 1);
    if (!cp)
        return 2;
    rc = experiment_ftdrb_run(&o, cp);
    if (cp != merged)
        campaign_free(cp);
    return rc;
}

/* The RNP experiments: argv[0] the name, its options after it; the campaign of merged shards
 * or NULL. */
static int rnp_experiment(int argc, char **argv, campaign_t *merged)
{
    if (argc == 0 || !strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
        fputs(usage_experiment, argc ? stdout : stderr);
        return argc ? 0 : 2;
    }
    exp_opts_t o = {.seed = 1, .models = LS_CSIM, .outdir = "build/experiments"};
    campaign_opts_t co = {0};
    const char *mutant = NULL;
    const opts_opt_t opts[] = {
        {"jobs", 0, OPTS_UINT, &co.jobs, .min = 1, .max = 1024, .flags = OPTS_DEC,
         .msg = "bad argument: --jobs"},
        {"shard", 0, OPTS_FN, &co, .fn = campaign_parse_shard, .msg = "bad argument: --shard"},
        {"cycles", 0, OPTS_U64, &o.cycles, .min = 1000, .max = 0x1p64,
         .msg = "bad argument: --cycles"},
        {"seed", 0, OPTS_U64, &o.seed, .msg = "bad argument: --seed"},
        {"model", 0, OPTS_FN, &o.models, .fn = cmd_models, .msg = "bad argument: --model"},
        {"out", 0, OPTS_STR, &o.outdir, .msg = "bad argument: --out"},
        {"quiet", 0, OPTS_FLAG, &o.quiet, .set = 1},
        {"seeds", 0, OPTS_UINT, &o.seeds, .min = 1, .max = 100, .flags = OPTS_DEC,
         .msg = "bad argument: --seeds (1 to 100)"},
        {"endpoints", 0, OPTS_UINT, &o.endpoints, .min = 16, .max = 1024, .flags = OPTS_DEC,
         .msg = "bad argument: --endpoints (16, 64, 256 or 1024)"},
        {"json", 0, OPTS_FLAG, &o.json, .set = 1},
        {"quick", 0, OPTS_FLAG, &o.quick, .set = 1},
        {"mutant", 0, OPTS_STR, &mutant, .msg = "bad argument: --mutant"},
        {"no-spread", 0, OPTS_FLAG, &o.no_spread, .set = 1},
        {"one-sender", 0, OPTS_FLAG, &o.one_sender, .set = 1},
        {"relay-buf", 0, OPTS_UINT, &o.relay_buf, .min = 1, .max = 8, .flags = OPTS_DEC,
         .msg = "bad argument: --relay-buf (1 to 8)"},
        {0},
    };
    opts_cmd_t c = {
        .name = "experiment", .style = OPTS_HINT, .unknown = "bad argument", .opts = opts};
    int rc = cmd_parse(&c, usage_experiment, argc - 1, argv + 1, NULL);
    if (rc >= 0)
        return rc;
    o.cycles_set = o.cycles != 0;
    if (!o.cycles)
        o.cycles = 30000;
    int ftdrb = !strcmp(argv[0], "ftdrb-rnp");
    if (!ftdrb && (o.seeds || o.endpoints || o.json || o.quick || mutant || o.no_spread ||
                   o.one_sender || o.relay_buf))
        return cmd_bad("experiment",
                       "--seeds, --endpoints, --json, --quick, --mutant, --no-spread, "
                       "--one-sender and --relay-buf are ftdrb-rnp's",
                       argv[0]);
    if (o.endpoints && o.endpoints != 16 && o.endpoints != 64 && o.endpoints != 256 &&
        o.endpoints != 1024)
        return cmd_bad("experiment", "bad argument: --endpoints (16, 64, 256 or 1024)", NULL);
    if (mutant && strcmp(mutant, "dedup-last") && strcmp(mutant, "crc8"))
        return cmd_bad("experiment", "bad argument: --mutant (dedup-last, crc8)", mutant);
    o.dedup_last = mutant && !strcmp(mutant, "dedup-last");
    o.crc8 = mutant && !strcmp(mutant, "crc8");
    campaign_t *cp = cmd_campaign(merged, &co, "experiment", argc, argv);
    if (!cp)
        return 2;
    rc = experiment_rnp(argv[0], &o, cp);
    if (cp != merged)
        campaign_free(cp);
    if (rc < 0) {
        fprintf(stderr, "ftsim experiment: unknown experiment '%s'\n%s", argv[0], usage_experiment);
        return 2;
    }
    return rc;
}

int cmd_experiment(int argc, char **argv) { return cmd_experiment_with(argc, argv, NULL); }

int cmd_experiment_with(int argc, char **argv, campaign_t *merged)
{
    if (argc > 0 && experiment_sci_known(argv[0]))
        return sci_experiment(argv[0], argc - 1, argv + 1, merged);
    if (argc > 0 && !strcmp(argv[0], "ftdrb-sci"))
        return ftdrb_experiment(argc - 1, argv + 1, merged);
    return rnp_experiment(argc, argv, merged);
}
