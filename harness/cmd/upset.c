/* upset.c — `ftsim upset --campaign NAME`: an upset campaign, one upset a run into a loaded
 * system against a golden run of the same seed, and the report of FTGM's Table 1 (Zhou et al.)
 * (harness/scisys/sci_sys.md section 9; harness/core/upset_run.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "json_io.h"
#include "lockstep.h"
#include "prng.h"
#include "rnp_upset.h"
#include "sci_upset.h"
#include "sci_sys.h"
#include "upset_run.h"

static const char usage[] =
    "usage: ftsim upset --campaign NAME [--runs N] [--seed S] [--no-selftest] [--confirm K]\n"
    "                 [--jobs J] [--shard K/N] [--json]\n"
    "\n"
    "An upset campaign: each run injects one upset (one stored bit flipped, as a vector's\n"
    "`seu` statement) at a random time into a loaded system with detection and recovery, runs\n"
    "a fixed window beside a golden run of the same seed, lets the traffic drain, and\n"
    "classifies the outcome (harness/core/upset_run.h). Campaigns (NAME):\n"
    "  lc3-tables  a 3x3 LC3 torus: every bit of node (1,1)'s X-LC LRT and BRT (1,024 bits),\n"
    "              exhaustive\n"
    "  lc3-regs    ... every bit of node (1,1)'s control registers (LC CTRL, TADDR, PSB), exhaustive\n"
    "  lc3-node    ... random bits of every element of node (1,1) the C model keeps (1,430 runs)\n"
    "  p2s-tables, p2s-regs, p2s-node   the same on a 3x3 P2S torus (tables: the entries in use)\n"
    "  rnp-config  rnpnet64 with its monitor (harness/rnp/README.md, \"Monitoring\"): every\n"
    "              configuration bit of every router (swallow, disable, seed, mode, backchan)\n"
    "  rnp-lfsr    ... every router's LFSR, every bit\n"
    "  rnp-port    ... random bits of the routers' port state (alloc, rot, forward and\n"
    "              backward ports; 1,430 runs)\n"
    "On the tori every node sends a 64-byte message every 20 us to each of two seeded random\n"
    "destinations; the drivers' timers are divided by 1000 (self-test every 0.5 ms = 50,000\n"
    "cycles); the flip comes 0.6 to 1.1 ms into the run, the window is 1.5 ms. --runs N takes N\n"
    "runs (an exhaustive column: N sites spread over it). --no-selftest: the ablation with the\n"
    "self-test off. --confirm K reruns up to K runs of every failure class with the RTL and the\n"
    "C model in lockstep (default 1; 0: none). The report is FTGM's Table 1 (failures, %\n"
    "of faults, % of failures per outcome), the failure coverage of the watchdog and the\n"
    "self-test with its 95% (Wilson) interval, and rows that must be 0: messages lost or\n"
    "duplicated, corrupted messages delivered, RTL/C divergence (and the golden runs' false\n"
    "alarms, 0 too). --json: the report as JSON.\n"
    "--jobs J: the runs on J processes. --shard K/N: every Nth run from the Kth, written on\n"
    "stdout as a shard file; ftsim merge makes the report of all N shards, byte for byte the\n"
    "report of one process. Exit 0 when those rows are 0, 1 otherwise, 2 on bad arguments.\n";

typedef struct upset_ctx {
    const char *name;
    int rnp;            /* the RNP network (rcfg), else the SCI torus (cfg) */
    sci_upset_cfg_t cfg;
    rnp_upset_cfg_t rcfg;
    const char *column;
    unsigned nsites, runs, confirm;
    int random, json;
    uint64_t seed;
    /* the report */
    unsigned n[UPSET_NOUTCOMES];
    uint64_t lost, dup, diverged, asserted, alarms;
    unsigned caught_any; /* failures the watchdog, self-test or scrub caught at any time */
    double det_lat_sum, rec_lat_sum;
    unsigned ndet_lat, nrec_lat;
    int first_run[UPSET_NOUTCOMES]; /* a run of each outcome, for the confirmation (-1: none) */
    char first_site[UPSET_NOUTCOMES][64];
    uint64_t first_at[UPSET_NOUTCOMES];
} upset_ctx_t;

static unsigned sys_site(const upset_ctx_t *x, unsigned k, char *buf, size_t len)
{
    return x->rnp ? rnp_upset_site(&x->rcfg, x->column, k, buf, len)
                  : sci_upset_site(&x->cfg, x->column, k, buf, len);
}

/* One run of either system, its models as `models`. */
static int sys_run(const upset_ctx_t *x, unsigned models, const char *site, uint64_t at,
                   upset_result_t *r, char *err, size_t errlen)
{
    if (x->rnp) {
        rnp_upset_cfg_t c = x->rcfg;
        rnp_upset_stats_t st;
        c.models = models;
        int rc = rnp_upset_run_stats(&c, site, at, r, &st, err, errlen);
        r->golden_alarms = st.golden_detections;
        return rc;
    }
    sci_upset_cfg_t c = x->cfg;
    c.models = models;
    return sci_upset_run(&c, site, at, r, err, errlen);
}

/* The span of flip times after the warmup: one self-test interval. */
static uint64_t sys_span(const upset_ctx_t *x) { return x->rnp ? x->rcfg.t_st : x->cfg.span; }

/* Run i's site and time: an exhaustive column's i-th site (spread when --runs is fewer), or a
 * seeded draw; the time a seeded draw in the span. */
static void run_plan(const upset_ctx_t *x, unsigned i, char *site, size_t len, uint64_t *at)
{
    prng_t rng;
    prng_seed(&rng, x->seed * 0x9E3779B97F4A7C15ull + i);
    unsigned k;
    if (x->random)
        k = prng_below(&rng, x->nsites);
    else
        k = (unsigned)((uint64_t)i * x->nsites / x->runs);
    sys_site(x, k, site, len);
    *at = prng_below(&rng, (uint32_t)sys_span(x));
}

static int upset_run(void *ctx, unsigned i, campaign_w_t *w, char *err, size_t errlen)
{
    upset_ctx_t *x = ctx;
    char site[64];
    uint64_t at;
    run_plan(x, i, site, sizeof site, &at);
    upset_result_t r;
    char msg[400];
    if (sys_run(x, LS_CSIM, site, at, &r, msg, sizeof msg) < 0) {
        campaign_w_str(w, "site", site);
        campaign_w_str(w, "error", msg);
        (void)err, (void)errlen;
        return 0;
    }
    campaign_w_str(w, "site", r.site);
    campaign_w_u64(w, "at", r.at);
    campaign_w_str(w, "outcome", upset_outcome_name(r.outcome));
    campaign_w_str(w, "first", upset_detector_name(r.first));
    campaign_w_u64s(w, "det", r.det_cycle, UPSET_NDETECTORS);
    campaign_w_u64(w, "detect_latency", r.detect_latency);
    campaign_w_u64(w, "recover_latency", r.recover_latency);
    campaign_w_u64(w, "recoveries", r.recoveries);
    campaign_w_u64(w, "generated", r.generated);
    campaign_w_u64(w, "delivered", r.delivered);
    campaign_w_u64(w, "lost", r.lost);
    campaign_w_u64(w, "duplicated", r.duplicated);
    campaign_w_u64(w, "misrouted", r.misrouted);
    campaign_w_u64(w, "corrupted", r.corrupted);
    campaign_w_u64(w, "late", r.late);
    campaign_w_u64(w, "asserted", (uint64_t)r.asserted);
    campaign_w_u64(w, "diverged", (uint64_t)r.diverged);
    campaign_w_u64(w, "golden_alarms", r.golden_alarms);
    return 0;
}

static int seu_take(void *ctx, unsigned i, const char *rec, char *err, size_t errlen)
{
    upset_ctx_t *x = ctx;
    campaign_rec_t r;
    if (campaign_rec_parse(&r, rec, err, errlen) < 0)
        return -1;
    if (campaign_rec_has(&r, "error")) {
        snprintf(err, errlen, "run %u (%s): %s", i, campaign_rec_str(&r, "site"),
                 campaign_rec_str(&r, "error"));
        campaign_rec_free(&r);
        return -1;
    }
    int o = upset_outcome_of(campaign_rec_str(&r, "outcome"));
    if (o < 0) {
        snprintf(err, errlen, "run %u: unknown outcome", i);
        campaign_rec_free(&r);
        return -1;
    }
    x->n[o]++;
    uint64_t det[UPSET_NDETECTORS] = {0};
    campaign_rec_u64s(&r, "det", det, UPSET_NDETECTORS);
    if (upset_is_failure(o) && (det[UPSET_DET_WATCHDOG] || det[UPSET_DET_SELFTEST] || det[UPSET_DET_SCRUB]))
        x->caught_any++;
    x->lost += campaign_rec_u64(&r, "lost");
    x->dup += campaign_rec_u64(&r, "duplicated");
    x->diverged += campaign_rec_u64(&r, "diverged");
    x->asserted += campaign_rec_u64(&r, "asserted");
    x->alarms += campaign_rec_u64(&r, "golden_alarms");
    uint64_t dl = campaign_rec_u64(&r, "detect_latency"), rl = campaign_rec_u64(&r, "recover_latency");
    if (dl)
        x->det_lat_sum += (double)dl, x->ndet_lat++;
    if (rl)
        x->rec_lat_sum += (double)rl, x->nrec_lat++;
    if (x->first_run[o] < 0) {
        x->first_run[o] = (int)i;
        snprintf(x->first_site[o], sizeof x->first_site[o], "%s", campaign_rec_str(&r, "site"));
        x->first_at[o] = campaign_rec_u64(&r, "at");
    }
    int bad = r.bad != NULL;
    campaign_rec_free(&r);
    if (bad) {
        snprintf(err, errlen, "run %u: a record with a missing field", i);
        return -1;
    }
    return 0;
}

/* Wilson's 95% interval of k successes in n. */
static void wilson(unsigned k, unsigned n, double *lo, double *hi)
{
    if (!n) {
        *lo = 0, *hi = 1;
        return;
    }
    double z = 1.959964, p = (double)k / n, d = 1 + z * z / n;
    double c = (p + z * z / (2.0 * n)) / d, h = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / d;
    *lo = c - h < 0 ? 0 : c - h;
    *hi = c + h > 1 ? 1 : c + h;
}

static const char *const row_name[UPSET_NOUTCOMES] = {
    "no impact: masked", "no impact: latent", "no impact: reconverged",
    "hung (watchdog)",   "caught by the self-test", "caught by the protocol",
    "caught by the scrub", "misrouted or lost packet", "corrupted message delivered",
    "latency anomaly"};

static int report(upset_ctx_t *x, unsigned confirmed, unsigned confirm_bad, const char *cmsg)
{
    unsigned total = 0, fail = 0;
    for (unsigned o = 0; o < UPSET_NOUTCOMES; o++) {
        total += x->n[o];
        fail += upset_is_failure(o) ? x->n[o] : 0;
    }
    unsigned cov = x->n[UPSET_HUNG] + x->n[UPSET_SELFTEST] + x->n[UPSET_SCRUB];
    double lo, hi, alo, ahi;
    wilson(cov, fail, &lo, &hi);
    wilson(x->caught_any, fail, &alo, &ahi);
    /* A corrupted message delivered fails the campaign as a lost one does: the end-to-end check
     * (the hosts' CRC) is there so that an upset can cost a message, never deliver a wrong one. */
    int ok = x->lost == 0 && x->dup == 0 && x->diverged == 0 && confirm_bad == 0 && x->alarms == 0 &&
             x->n[UPSET_CORRUPTED] == 0;
    if (x->json) {
        json_object *doc = json_object_new_object(), *rows = json_object_new_object();
        json_io_add(doc, "campaign", json_io_str(x->name));
        json_io_add(doc, "runs", json_io_u64(total));
        json_io_add(doc, "selftest",
                    json_io_i64(x->rnp ? x->rcfg.selftest : !!(x->cfg.ft & SCI_FT_SELFTEST)));
        for (unsigned o = 0; o < UPSET_NOUTCOMES; o++)
            json_io_add(rows, upset_outcome_name(o), json_io_u64(x->n[o]));
        json_io_add(doc, "rows", rows);
        json_io_add(doc, "failures", json_io_u64(fail));
        json_io_add(doc, "coverage", json_io_fixed(fail ? (double)cov / fail : 1.0, 6));
        json_io_add(doc, "coverage_lo", json_io_fixed(lo, 6));
        json_io_add(doc, "coverage_hi", json_io_fixed(hi, 6));
        json_io_add(doc, "caught_any", json_io_fixed(fail ? (double)x->caught_any / fail : 1.0, 6));
        json_io_add(doc, "caught_any_lo", json_io_fixed(alo, 6));
        json_io_add(doc, "caught_any_hi", json_io_fixed(ahi, 6));
        json_io_add(doc, "lost", json_io_u64(x->lost));
        json_io_add(doc, "duplicated", json_io_u64(x->dup));
        json_io_add(doc, "diverged", json_io_u64(x->diverged));
        json_io_add(doc, "asserted", json_io_u64(x->asserted));
        json_io_add(doc, "golden_alarms", json_io_u64(x->alarms));
        json_io_add(doc, "detect_latency_mean",
                    json_io_fixed(x->ndet_lat ? x->det_lat_sum / x->ndet_lat : 0.0, 1));
        json_io_add(doc, "recover_latency_mean",
                    json_io_fixed(x->nrec_lat ? x->rec_lat_sum / x->nrec_lat : 0.0, 1));
        json_io_add(doc, "confirmed", json_io_u64(confirmed));
        json_io_add(doc, "confirm_failed", json_io_u64(confirm_bad));
        json_io_add(doc, "pass", json_io_bool(ok));
        json_io_write(stdout, doc);
        json_object_put(doc);
        return ok ? 0 : 1;
    }
    printf("%-30s %9s %9s %11s\n", "outcome", "runs", "% faults", "% failures");
    for (unsigned o = 0; o < UPSET_NOUTCOMES; o++) {
        printf("%-30s %9u %8.2f%%", row_name[o], x->n[o], total ? 100.0 * x->n[o] / total : 0.0);
        if (upset_is_failure(o))
            printf(" %10.2f%%\n", fail ? 100.0 * x->n[o] / fail : 0.0);
        else
            printf(" %11s\n", "-");
    }
    printf("%-30s %9u %8.2f%% %10.2f%%\n", "total failures", fail,
           total ? 100.0 * fail / total : 0.0, fail ? 100.0 : 0.0);
    printf("%-30s %9llu\n", "messages lost or duplicated", (unsigned long long)(x->lost + x->dup));
    printf("%-30s %9llu\n", "RTL/C divergence", (unsigned long long)x->diverged);
    printf("%-30s %9llu\n", "false alarms (golden runs)", (unsigned long long)x->alarms);
    if (x->asserted)
        printf("RTL assertions after the upset (lockstep runs): %llu\n",
               (unsigned long long)x->asserted);
    printf("failure coverage (watchdog + self-test%s): %u of %u = %.1f%% (95%% interval %.1f%% to "
           "%.1f%%)\n",
           x->n[UPSET_SCRUB] ? " + scrub" : "", cov, fail, fail ? 100.0 * cov / fail : 100.0,
           100.0 * lo, 100.0 * hi);
    printf("caught by them at any time in the window (after the protocol too): %u of %u = %.1f%% "
           "(95%% interval %.1f%% to %.1f%%)\n",
           x->caught_any, fail, fail ? 100.0 * x->caught_any / fail : 100.0, 100.0 * alo,
           100.0 * ahi);
    if (x->rnp)
        printf("mean detection latency %.0f cycles, mean recovery %.0f cycles\n",
               x->ndet_lat ? x->det_lat_sum / x->ndet_lat : 0.0,
               x->nrec_lat ? x->rec_lat_sum / x->nrec_lat : 0.0);
    else
        printf("mean detection latency %.1f us, mean recovery %.1f us (simulated, %d-fold time "
               "scale)\n",
               x->ndet_lat ? x->det_lat_sum / x->ndet_lat / 100.0 : 0.0,
               x->nrec_lat ? x->rec_lat_sum / x->nrec_lat / 100.0 : 0.0, (int)x->cfg.time_scale);
    if (x->confirm)
        printf("confirmed in RTL/C lockstep: %u runs, %u differed%s%s\n", confirmed, confirm_bad,
               *cmsg ? ": " : "", cmsg);
    printf("%s upset %s: %u runs\n", ok ? "PASS" : "FAIL", x->name, total);
    return ok ? 0 : 1;
}

/* One run of every failure class again, the RTL and the C model in lockstep: the same outcome,
 * no divergence. */
static void confirm_rtl(upset_ctx_t *x, unsigned *done, unsigned *bad, char *msg, size_t len)
{
    *done = *bad = 0;
    *msg = 0;
    uint64_t warm = x->rnp ? x->rcfg.warmup : x->cfg.warmup;
    for (unsigned o = UPSET_HUNG; o < UPSET_NOUTCOMES && x->confirm; o++) {
        if (x->first_run[o] < 0)
            continue;
        upset_result_t r;
        char err[400];
        int rc = sys_run(x, LS_BOTH, x->first_site[o], x->first_at[o] - warm, &r, err, sizeof err);
        (*done)++;
        if (rc < 0 || r.diverged || r.outcome != o) {
            (*bad)++;
            snprintf(msg, len, "%s at %llu: %.120s", x->first_site[o],
                     (unsigned long long)x->first_at[o],
                     rc < 0 ? err : r.diverged ? "diverged" : upset_outcome_name(r.outcome));
        }
    }
}

int cmd_upset(int argc, char **argv) { return cmd_upset_with(argc, argv, NULL); }

int cmd_upset_with(int argc, char **argv, campaign_t *merged)
{
    upset_ctx_t x;
    memset(&x, 0, sizeof x);
    x.seed = 1;
    x.confirm = 1;
    const char *name = NULL;
    int no_st = 0;
    campaign_opts_t co = {0};
    const opts_opt_t opts[] = {
        {"jobs", 0, OPTS_UINT, &co.jobs, .min = 1, .max = 1024, .flags = OPTS_DEC,
         .msg = "1 to 1024 processes"},
        {"shard", 0, OPTS_FN, &co, .fn = campaign_parse_shard, .msg = "K/N, 1 <= K <= N"},
        {"campaign", 0, OPTS_STR, .dst = &name},
        {"runs", 0, OPTS_UINT, &x.runs, .min = 1, .max = 1000000, .flags = OPTS_DEC,
         .msg = "1 to 1000000"},
        {"seed", 0, OPTS_U64, &x.seed, .msg = "a number"},
        {"confirm", 0, OPTS_UINT, &x.confirm, .max = 100, .flags = OPTS_DEC, .msg = "0 to 100"},
        {"no-selftest", 0, OPTS_FLAG, &no_st, .set = 1},
        {"json", 0, OPTS_FLAG, &x.json, .set = 1},
        {0},
    };
    opts_cmd_t c = {.name = "upset",
                    .style = OPTS_VALUE,
                    .unknown = "unknown option or missing value",
                    .missing = "unknown option or missing value",
                    .opts = opts};
    int rc = cmd_parse(&c, usage, argc, argv, NULL);
    if (rc >= 0)
        return rc;
    static const char *const names[] = {"lc3-tables", "lc3-regs", "lc3-node", "p2s-tables",
                                        "p2s-regs",   "p2s-node", "rnp-config", "rnp-lfsr",
                                        "rnp-port",   NULL};
    unsigned k = 0;
    while (name && names[k] && strcmp(name, names[k]))
        k++;
    if (!name || !names[k]) {
        fprintf(stderr, "ftsim upset: --campaign NAME is one of lc3-tables lc3-regs lc3-node "
                        "p2s-tables p2s-regs p2s-node rnp-config rnp-lfsr rnp-port\n");
        return 2;
    }
    x.name = name;
    x.rnp = k >= 6;
    sci_upset_cfg_default(&x.cfg);
    x.cfg.p2s = k >= 3 && k < 6;
    x.cfg.seed = x.seed;
    if (no_st)
        x.cfg.ft &= ~(unsigned)SCI_FT_SELFTEST;
    rnp_upset_cfg_default(&x.rcfg);
    x.rcfg.seed = x.seed;
    if (no_st)
        x.rcfg.selftest = 0;
    x.column = strchr(name, '-') + 1;
    x.random = !strcmp(x.column, "node") || !strcmp(x.column, "port");
    char tmp[64];
    x.nsites = sys_site(&x, 0, tmp, sizeof tmp);
    if (!x.runs)
        x.runs = x.random ? 1430u : x.nsites;
    if (!x.random && x.runs > x.nsites)
        x.runs = x.nsites;
    for (unsigned o = 0; o < UPSET_NOUTCOMES; o++)
        x.first_run[o] = -1;
    campaign_t *cp = cmd_campaign(merged, &co, "upset", argc, argv);
    if (!cp)
        return 2;
    campaign_param(cp, "campaign", "%s", name);
    campaign_param(cp, "runs", "%u", x.runs);
    campaign_param(cp, "seed", "%llu", (unsigned long long)x.seed);
    campaign_param(cp, "selftest", "%d", !no_st);
    if (!x.json && campaign_reporting(cp) && x.rnp)
        printf("upset %s: %u runs on rnpnet%u with its monitor, every router, %s (%u sites); load "
               "%.2f of saturation (8-byte messages to %u partners per source); watchdog every "
               "%llu cycles, self-test every %llu; flip at %llu..%llu, window %llu cycles; "
               "self-test %s; seed %llu\n",
               name, x.runs, x.rcfg.endpoints, x.random ? "random bits" : "exhaustive", x.nsites,
               x.rcfg.load, RNP_UPSET_PARTNERS, (unsigned long long)x.rcfg.t_wd,
               (unsigned long long)x.rcfg.t_st, (unsigned long long)x.rcfg.warmup,
               (unsigned long long)(x.rcfg.warmup + x.rcfg.t_st),
               (unsigned long long)x.rcfg.window, no_st ? "off" : "on",
               (unsigned long long)x.seed);
    else if (!x.json && campaign_reporting(cp))
        printf("upset %s: %u runs on a %ux%u %s torus, node (1,1), %s (%u sites); load: 64 bytes "
               "every %.0f us to each of 2 destinations per node; time scale %.0f; flip at "
               "%.1f..%.1f ms, window %.1f ms; self-test %s; seed %llu\n",
               name, x.runs, x.cfg.w, x.cfg.h, x.cfg.p2s ? "P2S" : "LC3",
               x.random ? "random bits" : "exhaustive", x.nsites, x.cfg.every_us,
               x.cfg.time_scale, (double)x.cfg.warmup / 1e5,
               (double)(x.cfg.warmup + x.cfg.span) / 1e5, (double)x.cfg.window / 1e5,
               no_st ? "off" : "on", (unsigned long long)x.seed);
    fflush(stdout);
    campaign_hooks_t h = {upset_run, seu_take, NULL};
    char err[600];
    rc = campaign_exec(cp, x.runs, &h, &x, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "ftsim upset: %s\n", err);
        if (cp != merged)
            campaign_free(cp);
        return 2;
    }
    if (campaign_reporting(cp)) {
        unsigned done = 0, bad = 0;
        char cmsg[260];
        /* the RTL prints its assertions (an observation after an upset) on stdout: they go to
         * stderr, so that stdout is the report (and --json one JSON object) */
        fflush(stdout);
        int saved = dup(1);
        if (saved >= 0)
            dup2(2, 1);
        confirm_rtl(&x, &done, &bad, cmsg, sizeof cmsg);
        fflush(stdout);
        if (saved >= 0) {
            dup2(saved, 1);
            close(saved);
        }
        rc = report(&x, done, bad, cmsg);
    } else
        rc = 0;
    if (cp != merged)
        campaign_free(cp);
    return rc;
}
