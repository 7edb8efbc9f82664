/*
 * experiment_ftdrb.c — `ftsim experiment ftdrb-sci`: FT-DRB's evaluation (Zarza et al.,
 * Figure 3) on a P2S torus of harness/scisys: the standard traffic patterns, K cables pulled at
 * random times under load, and the latency in steady state against the fault-free run, with the P2S
 * hardware failover alone (the baseline) and with FT-DRB in the hosts (ftdrb_sci.md).
 *
 * One run (pattern, K, without or with FT-DRB):
 *   1. every node sends one 64-byte message every --every to its pattern's destination; pairs
 *      the faults leave unconnected (the check's own search, sci_check_components) get no
 *      flow: they are counted as excluded, and a node both of whose rings are down as
 *      isolated;
 *   2. after --warm, the K cables (distinct rings, the same K for every pattern and the first K
 *      of one seeded order, so 1 is in 2 is in 6) are pulled at random times within --spread;
 *   3. the run goes on until every driver is idle (their timers divided by --time-scale) and
 *      --learn has passed since the last fault (FT-DRB's sources learn the faults from the
 *      traffic);
 *   4. --measure: the mean latency (first send to delivery) of what the flows deliver in it,
 *      and how many flows deliver at all;
 *   5. the flows stop and drain: every message delivered once, in order, and acknowledged
 *      (the ledger of sci_sys.c). Without FT-DRB a flow that delivered nothing in (4) is one
 *      the hardware failover cannot route (it guarantees one fault): it is abandoned before the
 *      drain and counted; with FT-DRB every flow must deliver and drain, else the run fails.
 * Performance, as the FT-DRB paper gives it: the latency difference to the fault-free run of the
 * same pattern and configuration, and the ratio L(0 faults) / L(K faults) in percent.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiment_ftdrb.h"
#include "json_io.h"
#include "lockstep.h"
#include "pattern.h"
#include "prng.h"
#include "sci_faultcheck.h"

#define NAME "ftdrb-sci"
#define FTX_MAXN 1024 /* the per-source figures of a run (the common pairs), up to 32x32 */

/* FT-DRB's Figure 3 (Zarza et al.; 1024-node torus, the five permutations): the average, the worst
 * (perfect shuffle, 60 faults) and the best (matrix transpose, 6 faults) performance. */
#define PAPER_AVG   97.0
#define PAPER_WORST 88.0
#define PAPER_BEST  100.0

typedef experiment_ftdrb_opts_t fopts_t;

static const char *pat_label(int p)
{
    static const char *const l[TP_N] = {"uniform",   "bit-reversal", "perfect-shuffle",
                                        "butterfly", "transpose",    "complement",
                                        "hotspot"};
    return l[p];
}

void experiment_ftdrb_defaults(experiment_ftdrb_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->w = o->h = 32;
    o->threads = 1;
    o->models = LS_CSIM;
    o->seed = 1;
    o->outdir = "build/experiments";
    o->patterns = 1u << TP_BITREV | 1u << TP_SHUFFLE | 1u << TP_BUTTERFLY | 1u << TP_TRANSPOSE |
                  1u << TP_COMPLEMENT | 1u << TP_UNIFORM;
    o->ncounts = 4;
    o->counts[0] = 0, o->counts[1] = 1, o->counts[2] = 2, o->counts[3] = 6;
    o->every_us = 0; /* per pattern: load_us[] */
    o->warm_ms = 0.2;
    o->spread_ms = 0.1;
    o->learn_ms = 1.0;
    o->measure_ms = 1.0;
    sci_sys_params_default(&o->par);
    o->par.time_scale = 1000;
}

/* The patterns in run order: the five of the FT-DRB paper, then uniform. */
static const int pat_order[] = {TP_BITREV,    TP_SHUFFLE,   TP_BUTTERFLY,
                                TP_TRANSPOSE, TP_COMPLEMENT, TP_UNIFORM};
#define NPO (sizeof pat_order / sizeof pat_order[0])

/* The stated load, per pattern: one message every this many us per node, twice the interval at
 * which the pattern saturates the fault-free 32x32 P2S torus (`--sweep`, measured: README,
 * "FT-DRB on the SCI torus"), so half the saturation throughput. */
static const double load_us[TP_N] = {
    [TP_UNIFORM] = 25,   [TP_BITREV] = 60,     [TP_SHUFFLE] = 30, [TP_BUTTERFLY] = 20,
    [TP_TRANSPOSE] = 60, [TP_COMPLEMENT] = 20, [TP_HOTSPOT] = 1000};

/* --sweep: the intervals tried, us, from the heaviest load. */
static const double sweep_us[] = {5, 7.5, 10, 12.5, 15, 17.5, 20, 25, 30, 40};
#define NSW      (sizeof sweep_us / sizeof sweep_us[0])
#define SWEEP_MS 0.5 /* --sweep's measurement window */
#define SAT_FRAC 0.97 /* saturated: less accepted than this fraction of what is offered */

static double every_of(const fopts_t *o, int pat) { return o->every_us > 0 ? o->every_us : load_us[pat]; }

typedef struct fcamp {
    const fopts_t *o;
    int pats[NPO];
    unsigned npat, nruns;
    struct fres *res; /* per run, in run order */
    int failed, parallel;
} fcamp_t;

/* Run i: pattern, fault count, FT-DRB (--sweep: pattern, fault-free, without). */
static void run_of(const fcamp_t *k, unsigned i, int *pat, unsigned *count, int *ftdrb)
{
    if (k->o->sweep) {
        *pat = k->pats[i / NSW], *count = 0, *ftdrb = 0;
        return;
    }
    *ftdrb = (int)(i % 2);
    *count = k->o->counts[i / 2 % k->o->ncounts];
    *pat = k->pats[i / 2 / k->o->ncounts];
}

typedef struct fres {
    int ok;
    double lat_us, bw_mbs;
    uint64_t msgs, offered, flows, excluded, isolated, delivering, abandoned, beyond;
    uint64_t msp, relayed, relay_drops, notes, fails;
    uint64_t relay_busy, relay_max, held, mp_added, mp_dropped;
    uint64_t paths[SCI_FTDRB_MPMAX + 1]; /* pairs by the paths they sent on in the window */
    double top_share; /* over the pairs that sent on two or more: the mean share of the busiest */
    char faults[1024];
    unsigned nsrc;                /* per source node (0: the torus is larger than FTX_MAXN): */
    uint64_t src_msgs[FTX_MAXN];  /* what its flow delivered in the window (0: none, or no flow) */
    double src_lat[FTX_MAXN];     /* their latencies summed, us */
    uint64_t src_direct[FTX_MAXN]; /* with FT-DRB, what it sent on its direct path in the window */
} fres_t;

/* The first `count` rings of a seeded order (the same for every pattern and configuration), each
 * as a pulled cable at a random place on it. */
static void pick_faults(const fopts_t *o, unsigned count, char (*ctl)[40], sci_faults_t *sf)
{
    prng_t rng;
    prng_seed(&rng, o->seed ^ 0xF7D8B00Full);
    unsigned nr = o->w + o->h, order[64];
    for (unsigned r = 0; r < nr; r++)
        order[r] = r;
    for (unsigned r = nr - 1; r > 0; r--) {
        unsigned j = prng_below(&rng, r + 1), t = order[r];
        order[r] = order[j], order[j] = t;
    }
    memset(sf, 0, sizeof *sf);
    for (unsigned f = 0; f < count; f++) {
        unsigned r = order[f], at = prng_below(&rng, r < o->h ? o->w : o->h);
        if (r < o->h) { /* the X ring of row r, cut after node (at, r) */
            snprintf(ctl[f], sizeof ctl[f], "cut x %u,%u", at, r);
            sf->xring[r] = 1;
        } else {
            snprintf(ctl[f], sizeof ctl[f], "cut y %u,%u", r - o->h, at);
            sf->yring[r - o->h] = 1;
        }
    }
}

/* Every flow's deliveries and latency sum; the messages the flows generated, summed. */
static uint64_t flows_snap(sci_sys_t *s, uint64_t *dl, double *lat)
{
    uint64_t gen = 0;
    for (unsigned k = 0; k < sci_sys_nflows(s); k++) {
        sci_flow_stats_t st;
        sci_sys_flow_stats(s, k, &st);
        dl[k] = st.delivered;
        lat[k] = st.lat_sum;
        gen += st.generated;
    }
    return gen;
}

/* Each pair's shares over the paths of its metapath in the measurement window: the pairs by
 * how many paths they sent on, the mean share of the busiest path of those that sent on two or
 * more, and (--verbose) one line per such pair. */
static void shares(const fcamp_t *k, sci_sys_t *s, int pat, unsigned count, int ftdrb, fres_t *r,
                   const unsigned *fsrc)
{
    double top = 0;
    uint64_t spread = 0;
    for (unsigned f = 0; ftdrb && f < sci_sys_nflows(s); f++) {
        sci_ftdrb_member_t m[SCI_FTDRB_MPMAX];
        unsigned nm = sci_sys_ftdrb_metapath(s, f, m), used = 0;
        uint64_t tot = 0, hi = 0;
        for (unsigned j = 0; j < nm; j++) {
            if (m[j].in1 < 0 && fsrc[f] < r->nsrc)
                r->src_direct[fsrc[f]] += m[j].sent;
            used += m[j].sent > 0;
            tot += m[j].sent;
            hi = m[j].sent > hi ? m[j].sent : hi;
        }
        r->paths[used]++;
        if (used < 2)
            continue;
        spread++;
        top += (double)hi / (double)tot;
        if (!k->o->verbose)
            continue;
        sci_flow_stats_t st;
        sci_sys_flow_stats(s, f, &st);
        fprintf(stderr, "%s: %s, %u cables: pair %s:", NAME, pat_label(pat), count, st.name);
        for (unsigned j = 0; j < nm; j++)
            fprintf(stderr, " via %d,%d %.0f %% (%u cycles)", m[j].in1, m[j].in2,
                    100.0 * (double)m[j].sent / (double)tot, m[j].lat);
        fputc('\n', stderr);
    }
    r->top_share = spread ? top / (double)spread : NAN;
}

static int one_run(const fcamp_t *k, unsigned i, fres_t *r, char *err, size_t errlen)
{
    const fopts_t *o = k->o;
    int pat, ftdrb;
    unsigned count;
    run_of(k, i, &pat, &count, &ftdrb);
    memset(r, 0, sizeof *r);
    unsigned n = o->w * o->h;
    char ctl[64][40];
    sci_faults_t sf;
    pick_faults(o, count, ctl, &sf);
    for (unsigned f = 0, at = 0; f < count; f++) {
        int m = snprintf(r->faults + at, sizeof r->faults - at, "%s%.14s", f ? "; " : "", ctl[f]);
        at += m > 0 ? (unsigned)m : 0;
    }
    int *comp = malloc(n * sizeof *comp);
    unsigned *fsrc = calloc(n, sizeof *fsrc); /* per flow: its source node */
    uint64_t *dl0 = calloc(n, sizeof *dl0), *dl1 = calloc(n, sizeof *dl1);
    double *la0 = calloc(n, sizeof *la0), *la1 = calloc(n, sizeof *la1);
    sci_sys_t *s = NULL;
    int rc = -1;
    if (!comp || !fsrc || !dl0 || !dl1 || !la0 || !la1) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    sci_check_components(o->w, o->h, &sf, comp);
    for (unsigned v = 0; v < n; v++)
        r->isolated += sf.xring[v / o->w] && sf.yring[v % o->w];

    sci_sys_cfg_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.w = o->w, cfg.h = o->h, cfg.p2s = 1, cfg.models = o->models, cfg.mode = SCI_SYS_DYNAMIC;
    cfg.par = o->par;
    cfg.seed = o->seed;
    cfg.quiet = 1;
    cfg.log = o->verbose ? stderr : NULL;
    cfg.threads = o->threads;
    cfg.ftdrb = ftdrb && o->no_spread ? SCI_FTDRB_NO_SPREAD : ftdrb;
    if (!(s = sci_sys_new(&cfg, err, errlen)))
        goto out;
    const sci_sys_params_t *p = &cfg.par;
    double every_us = o->sweep ? sweep_us[i % NSW] : every_of(o, pat);
    uint64_t every = (uint64_t)llround(every_us * p->clock_mhz);
    prng_t rng; /* the same flows, phases and fault times for both configurations */
    prng_seed(&rng, o->seed * 1000003u + (uint64_t)pat);
    for (unsigned v = 0; v < n; v++) {
        unsigned d = traffic_pattern_dst(pat, o->w, o->h, v, &rng);
        uint64_t phase = prng_below(&rng, (uint32_t)every);
        if (d == v)
            continue;
        if (comp[v] < 0 || comp[v] != comp[d]) {
            r->excluded++;
            continue;
        }
        r->beyond += !sci_check_reach2(o->w, o->h, &sf, v, d);
        char name[48];
        snprintf(name, sizeof name, "%u.%u>%u.%u", v % o->w, v / o->w, d % o->w, d / o->w);
        if (sci_sys_add_flow(s, name, v, d, 64, every, phase, err, errlen) < 0)
            goto out;
        fsrc[sci_sys_nflows(s) - 1u] = v;
    }
    r->flows = sci_sys_nflows(s);
    r->nsrc = n <= FTX_MAXN ? n : 0;
    uint64_t warm = (uint64_t)llround(o->warm_ms * 1000 * p->clock_mhz);
    uint64_t spread = (uint64_t)llround(o->spread_ms * 1000 * p->clock_mhz) + 1, last = warm;
    prng_t frng;
    prng_seed(&frng, o->seed ^ 0x5eedULL);
    for (unsigned f = 0; f < count; f++) {
        uint64_t at = warm + prng_below(&frng, (uint32_t)spread);
        last = at > last ? at : last;
        if (sci_sys_fault(s, at, ctl[f], err, errlen) < 0)
            goto out;
    }
    uint64_t learned = last + (o->sweep ? 0 : (uint64_t)llround(o->learn_ms * 1000 * p->clock_mhz));
    uint64_t ms = (uint64_t)llround(1000 * p->clock_mhz), horizon = learned + 2000 * ms;
    if (sci_sys_run(s, learned, err, errlen) < 0)
        goto out;
    while (sci_sys_busy(s)) { /* the drivers' passes (bookkeeping on P2S) end */
        if (sci_sys_now(s) >= horizon) {
            snprintf(err, errlen, "the drivers were still busy 2 s after the faults");
            goto out;
        }
        if (sci_sys_run(s, sci_sys_now(s) + ms / 10, err, errlen) < 0)
            goto out;
    }
    uint64_t g0 = flows_snap(s, dl0, la0);
    uint64_t t0 = sci_sys_now(s);
    sci_sys_ftdrb_mark(s); /* each pair's shares over its paths: what the window sends */
    uint64_t win = (uint64_t)llround((o->sweep ? SWEEP_MS : o->measure_ms) * 1000 * p->clock_mhz);
    if (sci_sys_run(s, t0 + win, err, errlen) < 0)
        goto out;
    r->offered = flows_snap(s, dl1, la1) - g0;
    double lsum = 0;
    for (unsigned f = 0; f < r->flows; f++) {
        r->msgs += dl1[f] - dl0[f];
        lsum += la1[f] - la0[f];
        unsigned v = fsrc[f];
        if (v < r->nsrc)
            r->src_msgs[v] = dl1[f] - dl0[f], r->src_lat[v] = (la1[f] - la0[f]) / p->clock_mhz;
        r->delivering += dl1[f] > dl0[f];
        if (o->verbose && dl1[f] == dl0[f]) {
            sci_flow_stats_t st;
            sci_sys_flow_stats(s, f, &st);
            fprintf(stderr, "%s: %s, %u cables, %s: flow %s delivered nothing in the window\n",
                    NAME, pat_label(pat), count, ftdrb ? "FT-DRB" : "P2S alone", st.name);
        }
    }
    r->lat_us = r->msgs ? lsum / (double)r->msgs / p->clock_mhz : NAN;
    r->bw_mbs = (double)r->msgs * 64 / ((double)win / p->clock_mhz);
    shares(k, s, pat, count, ftdrb, r, fsrc);
    /* the drain: what the hardware failover alone cannot route is given up and counted */
    sci_sys_stop_flows(s);
    for (unsigned f = 0; f < r->flows; f++)
        if (dl1[f] == dl0[f] && !ftdrb) {
            sci_sys_abandon_flow(s, f);
            r->abandoned++;
        }
    int settled = sci_sys_settle(s, sci_sys_now(s) + 200 * ms, err, errlen);
    if (settled < 0)
        goto out;
    if (!settled) {
        snprintf(err, errlen, "messages still outstanding 200 ms after the flows stopped");
        goto out;
    }
    sci_ftdrb_stats_t fd;
    sci_sys_ftdrb_stats(s, &fd);
    r->msp = fd.msp_sent, r->relayed = fd.relayed, r->relay_drops = fd.relay_drops;
    r->notes = fd.notes_sent;
    r->relay_busy = fd.relay_busy, r->relay_max = fd.relay_max, r->held = fd.held;
    r->mp_added = fd.mp_added, r->mp_dropped = fd.mp_dropped;
    for (unsigned f = 0; f < r->flows; f++) {
        sci_flow_stats_t st;
        sci_sys_flow_stats(s, f, &st);
        r->fails += st.fail_reports;
    }
    r->ok = 1;
    rc = 0;
out:
    sci_sys_free(s);
    free(comp), free(fsrc), free(dl0), free(dl1), free(la0), free(la1);
    return rc;
}

/* ---- the campaign ------------------------------------------------------------------------ */

static void progress(const fcamp_t *k, unsigned done, unsigned total)
{
    if (k->o->quiet)
        return;
    if (isatty(2))
        fprintf(stderr, "\r%s: %u/%u runs", NAME, done, total);
    else
        fprintf(stderr, "%s: %u/%u runs\n", NAME, done, total);
    if (done == total && isatty(2))
        fputc('\n', stderr);
}

static int f_run(void *ctx, unsigned i, campaign_w_t *w, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    fcamp_t *k = ctx;
    fres_t r;
    char why[600];
    if (!k->parallel)
        progress(k, i, k->nruns);
    if (one_run(k, i, &r, why, sizeof why) < 0) {
        campaign_w_str(w, "error", why);
        return 0;
    }
    campaign_w_dbl(w, "lat_us", isnan(r.lat_us) ? -1 : r.lat_us);
    campaign_w_dbl(w, "bw_mbs", r.bw_mbs);
    campaign_w_u64(w, "msgs", r.msgs);
    campaign_w_u64(w, "offered", r.offered);
    campaign_w_u64(w, "flows", r.flows);
    campaign_w_u64(w, "excluded", r.excluded);
    campaign_w_u64(w, "isolated", r.isolated);
    campaign_w_u64(w, "delivering", r.delivering);
    campaign_w_u64(w, "abandoned", r.abandoned);
    campaign_w_u64(w, "beyond", r.beyond);
    campaign_w_u64(w, "msp", r.msp);
    campaign_w_u64(w, "relayed", r.relayed);
    campaign_w_u64(w, "relay_drops", r.relay_drops);
    campaign_w_u64(w, "notes", r.notes);
    campaign_w_u64(w, "fails", r.fails);
    campaign_w_u64(w, "relay_busy", r.relay_busy);
    campaign_w_u64(w, "relay_max", r.relay_max);
    campaign_w_u64(w, "held", r.held);
    campaign_w_u64(w, "mp_added", r.mp_added);
    campaign_w_u64(w, "mp_dropped", r.mp_dropped);
    for (unsigned j = 0; j <= SCI_FTDRB_MPMAX; j++) {
        char key[16];
        snprintf(key, sizeof key, "paths%u", j);
        campaign_w_u64(w, key, r.paths[j]);
    }
    campaign_w_dbl(w, "top_share", isnan(r.top_share) ? -1 : r.top_share);
    campaign_w_str(w, "faults", r.faults[0] ? r.faults : "none");
    campaign_w_u64s(w, "src_msgs", r.src_msgs, r.nsrc);
    campaign_w_dbls(w, "src_lat", r.src_lat, r.nsrc);
    campaign_w_u64s(w, "src_direct", r.src_direct, r.nsrc);
    return 0;
}

static int f_take(void *ctx, unsigned i, const char *text, char *err, size_t errlen)
{
    fcamp_t *k = ctx;
    campaign_rec_t rec;
    if (campaign_rec_parse(&rec, text, err, errlen) < 0)
        return -1;
    fres_t *r = &k->res[i];
    memset(r, 0, sizeof *r);
    int rc = 0;
    if (campaign_rec_has(&rec, "error")) {
        int pat, fd;
        unsigned count;
        run_of(k, i, &pat, &count, &fd);
        fprintf(stderr, "ftsim experiment %s: %s, %u faults, %s: %s\n", NAME, pat_label(pat), count,
                fd ? "FT-DRB" : "P2S alone", campaign_rec_str(&rec, "error"));
        k->failed = 1;
    } else {
        double l = campaign_rec_dbl(&rec, "lat_us");
        r->lat_us = l < 0 ? NAN : l;
        r->bw_mbs = campaign_rec_dbl(&rec, "bw_mbs");
        r->msgs = campaign_rec_u64(&rec, "msgs");
        r->offered = campaign_rec_u64(&rec, "offered");
        r->flows = campaign_rec_u64(&rec, "flows");
        r->excluded = campaign_rec_u64(&rec, "excluded");
        r->isolated = campaign_rec_u64(&rec, "isolated");
        r->delivering = campaign_rec_u64(&rec, "delivering");
        r->abandoned = campaign_rec_u64(&rec, "abandoned");
        r->beyond = campaign_rec_u64(&rec, "beyond");
        r->msp = campaign_rec_u64(&rec, "msp");
        r->relayed = campaign_rec_u64(&rec, "relayed");
        r->relay_drops = campaign_rec_u64(&rec, "relay_drops");
        r->notes = campaign_rec_u64(&rec, "notes");
        r->fails = campaign_rec_u64(&rec, "fails");
        r->relay_busy = campaign_rec_u64(&rec, "relay_busy");
        r->relay_max = campaign_rec_u64(&rec, "relay_max");
        r->held = campaign_rec_u64(&rec, "held");
        r->mp_added = campaign_rec_u64(&rec, "mp_added");
        r->mp_dropped = campaign_rec_u64(&rec, "mp_dropped");
        for (unsigned j = 0; j <= SCI_FTDRB_MPMAX; j++) {
            char key[16];
            snprintf(key, sizeof key, "paths%u", j);
            r->paths[j] = campaign_rec_u64(&rec, key);
        }
        double ts = campaign_rec_dbl(&rec, "top_share");
        r->top_share = ts < 0 ? NAN : ts;
        snprintf(r->faults, sizeof r->faults, "%s", campaign_rec_str(&rec, "faults"));
        r->nsrc = campaign_rec_u64s(&rec, "src_msgs", r->src_msgs, FTX_MAXN);
        if (campaign_rec_dbls(&rec, "src_lat", r->src_lat, FTX_MAXN) != r->nsrc ||
            campaign_rec_u64s(&rec, "src_direct", r->src_direct, FTX_MAXN) != r->nsrc)
            r->nsrc = 0;
        if (rec.bad) {
            snprintf(err, errlen, "run %u: a record without '%s'", i, rec.bad);
            rc = -1;
        } else {
            r->ok = 1;
        }
    }
    campaign_rec_free(&rec);
    return rc;
}

static void f_progress(void *ctx, unsigned done, unsigned total) { progress(ctx, done, total); }

static void f_params(campaign_t *c, const fopts_t *o)
{
    campaign_param(c, "experiment", "%s", NAME);
    campaign_param(c, "torus", "%ux%u", o->w, o->h);
    campaign_param(c, "seed", "%llu", (unsigned long long)o->seed);
    campaign_param(c, "patterns", "%u", o->patterns);
    char cs[64] = "";
    for (unsigned f = 0; f < o->ncounts; f++)
        snprintf(cs + strlen(cs), sizeof cs - strlen(cs), "%s%u", f ? "," : "", o->counts[f]);
    campaign_param(c, "faults", "%s", cs);
    campaign_param(c, "every-us", "%.17g", o->every_us);
    campaign_param(c, "sweep", "%d", o->sweep);
    campaign_param(c, "no-spread", "%d", o->no_spread);
    campaign_param(c, "phases-ms", "warm %.17g spread %.17g learn %.17g measure %.17g",
                   o->warm_ms, o->spread_ms, o->learn_ms, o->measure_ms);
    campaign_param(c, "time-scale", "%.17g", o->par.time_scale);
    campaign_param(c, "model", "%s", o->models == LS_BOTH ? "both" : o->models == LS_RTL ? "rtl" : "csim");
    campaign_param(c, "json", "%d", o->json);
    campaign_param(c, "out", "%s", o->outdir);
}

/* ---- the report --------------------------------------------------------------------------- */

/* The performance of run i against its fault-free run (the same pattern and configuration):
 * the ratio in percent and the difference in us; NAN when either delivered nothing. */
static void perf(const fcamp_t *k, unsigned i, double *pct, double *diff)
{
    unsigned base = i - (i / 2 % k->o->ncounts) * 2; /* the first count of this pattern */
    const fres_t *r = &k->res[i], *z = &k->res[base];
    *pct = *diff = NAN;
    if (k->o->counts[0] != 0 || !r->ok || !z->ok || isnan(r->lat_us) || isnan(z->lat_us))
        return;
    *pct = 100.0 * z->lat_us / r->lat_us;
    *diff = r->lat_us - z->lat_us;
}

/* Over the pairs both configurations deliver in the window of run i (run i and run i ^ 1: the
 * same pattern and cables, without and with FT-DRB): how many (*common), and run i's performance
 * over them against its fault-free run over the same pairs (ftdrb_sci.md section 8, the grid);
 * NAN when there is none. */
static double perf_common(const fcamp_t *k, unsigned i, uint64_t *common)
{
    unsigned base = i - (i / 2 % k->o->ncounts) * 2;
    const fres_t *r = &k->res[i], *q = &k->res[i ^ 1u], *z = &k->res[base];
    double l0 = 0, lk = 0;
    uint64_t m0 = 0, mk = 0;
    *common = 0;
    if (k->o->counts[0] != 0 || !r->ok || !q->ok || !z->ok || !r->nsrc || q->nsrc != r->nsrc ||
        z->nsrc != r->nsrc)
        return NAN;
    for (unsigned v = 0; v < r->nsrc; v++)
        if (r->src_msgs[v] && q->src_msgs[v] && z->src_msgs[v]) {
            ++*common;
            l0 += z->src_lat[v], m0 += z->src_msgs[v];
            lk += r->src_lat[v], mk += r->src_msgs[v];
        }
    return m0 && mk ? 100.0 * (l0 / (double)m0) / (lk / (double)mk) : NAN;
}

/* A figure of the JSON report: 4 decimals, null when there is none (NaN). */
static void jnum(json_object *o, const char *key, double v)
{
    json_io_add(o, key, json_io_fixed(v, 4));
}

static int report(const fcamp_t *k)
{
    const fopts_t *o = k->o;
    char path[600];
    snprintf(path, sizeof path, "%s/%s.csv", o->outdir, NAME);
    FILE *csv = fopen(path, "w");
    if (!csv) {
        fprintf(stderr, "ftsim experiment %s: cannot write %s\n", NAME, path);
        return 1;
    }
    FILE *jf = NULL;
    if (o->json_file && !(jf = fopen(o->json_file, "w"))) {
        fprintf(stderr, "ftsim experiment %s: cannot write %s\n", NAME, o->json_file);
        fclose(csv);
        return 1;
    }
    char load[40];
    snprintf(load, sizeof load, o->every_us > 0 ? "every %g us" : "at half its saturation",
             o->every_us);
    fprintf(csv, "# %s: %ux%u P2S torus, each pattern %s, measured for %g ms from %g ms after "
                 "the last fault; Zarza et al. %.0f/%.0f/%.0f %% avg/worst/best\n",
            NAME, o->w, o->h, load, o->measure_ms, o->learn_ms, PAPER_AVG, PAPER_WORST, PAPER_BEST);
    fprintf(csv, "pattern,faults,config,every_us,latency_us,perf_pct,delta_us,flows,delivering,"
                 "excluded,isolated,abandoned,relayed,relay_drops,notes,relay_busy,relay_max,"
                 "pairs_1_path,pairs_2_paths,pairs_3_paths,pairs_4_paths,top_share,common_pairs,"
                 "perf_common_pct\n");
    if (!o->json) {
        printf("## %s: FT-DRB's Figure 3 (Zarza et al.) on a %ux%u P2S torus\n\n", NAME, o->w,
               o->h);
        printf("From every node a 64-byte message every U us to its pattern's destination (U: "
               "%s); K cables pulled\nat random times after %g ms; measured for %g ms once the "
               "drivers are idle (their timers / %g) and\n%g ms after the last fault. "
               "Performance: latency fault-free / latency with K faults (the FT-DRB paper's\n"
               "Figure 3), and the difference. Zarza et al.: %.0f %% average, %.0f %% worst, "
               "%.0f %% best.\n\n",
               o->every_us > 0 ? "--every-us" : "twice the interval that saturates the pattern, "
               "--sweep", o->warm_ms, o->measure_ms, o->par.time_scale, o->learn_ms, PAPER_AVG,
               PAPER_WORST, PAPER_BEST);
        printf("| pattern | U us | cables | isolated | excluded | P2S alone: lat us | perf | "
               "delivering | FT-DRB: lat us | +us | perf | delivering | relayed | busy | "
               "pairs on 1/2/3/4 paths | busiest share |\n");
        printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|\n");
    }
    char torus[24];
    snprintf(torus, sizeof torus, "%ux%u", o->w, o->h);
    json_object *doc = json_object_new_object(), *paper = json_object_new_object();
    json_object *runs = json_object_new_array(), *summary = json_object_new_array();
    json_io_add(doc, "experiment", json_io_str(NAME));
    json_io_add(doc, "torus", json_io_str(torus));
    json_io_add(doc, "seed", json_io_u64(o->seed));
    json_io_add(doc, "time_scale", json_io_g(o->par.time_scale));
    json_io_add(paper, "avg", json_io_fixed(PAPER_AVG, 0));
    json_io_add(paper, "worst", json_io_fixed(PAPER_WORST, 0));
    json_io_add(paper, "best", json_io_fixed(PAPER_BEST, 0));
    json_io_add(doc, "paper", paper);
    json_io_add(doc, "runs", runs);
    int bad = k->failed;
    char slow[600] = "";
    double sum[2][FTX_MAX_COUNTS] = {{0}}, worst[2][FTX_MAX_COUNTS], best[2][FTX_MAX_COUNTS];
    unsigned cnt[2][FTX_MAX_COUNTS] = {{0}};
    for (unsigned i = 0; i < k->nruns; i++) {
        int pat, fd;
        unsigned count, fi = i / 2 % o->ncounts;
        run_of(k, i, &pat, &count, &fd);
        const fres_t *r = &k->res[i];
        double pct, diff;
        perf(k, i, &pct, &diff);
        uint64_t common;
        double pc = perf_common(k, i, &common);
        if (fd && r->ok && r->beyond)
            bad = 1; /* a connected pair beyond two intermediates: cables alone never make one */
        if (fd && r->ok && r->delivering < r->flows) /* delivered by the drain, not in time */
            snprintf(slow + strlen(slow), sizeof slow - strlen(slow), "%s%s with %u cables "
                     "(%llu of %llu pairs)", *slow ? ", " : "", pat_label(pat), count,
                     (unsigned long long)r->delivering, (unsigned long long)r->flows);
        if (!isnan(pct) && pat != TP_UNIFORM) {
            if (!cnt[fd][fi] || pct < worst[fd][fi])
                worst[fd][fi] = pct;
            if (!cnt[fd][fi] || pct > best[fd][fi])
                best[fd][fi] = pct;
            sum[fd][fi] += pct, cnt[fd][fi]++;
        }
        fprintf(csv, "%s,%u,%s,%g,%.4f,%.3f,%.4f,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,"
                     "%llu,%llu,%llu,%llu,%.4f,%llu,%.3f\n",
                pat_label(pat), count, fd ? "ftdrb" : "p2s", every_of(o, pat), r->lat_us, pct, diff,
                (unsigned long long)r->flows, (unsigned long long)r->delivering,
                (unsigned long long)r->excluded, (unsigned long long)r->isolated,
                (unsigned long long)r->abandoned, (unsigned long long)r->relayed,
                (unsigned long long)r->relay_drops, (unsigned long long)r->notes,
                (unsigned long long)r->relay_busy, (unsigned long long)r->relay_max,
                (unsigned long long)r->paths[1], (unsigned long long)r->paths[2],
                (unsigned long long)r->paths[3], (unsigned long long)r->paths[4], r->top_share,
                (unsigned long long)common, pc);
        json_object *jr = json_object_new_object();
        json_io_add(jr, "pattern", json_io_str(pat_label(pat)));
        json_io_add(jr, "faults", json_io_u64(count));
        json_io_add(jr, "config", json_io_str(fd ? "ftdrb" : "p2s"));
        json_io_add(jr, "ok", json_io_bool(r->ok));
        json_io_add(jr, "every_us", json_io_g(every_of(o, pat)));
        jnum(jr, "latency_us", r->lat_us);
        jnum(jr, "perf_pct", pct);
        jnum(jr, "delta_us", diff);
        json_io_add(jr, "flows", json_io_u64(r->flows));
        json_io_add(jr, "delivering", json_io_u64(r->delivering));
        json_io_add(jr, "excluded", json_io_u64(r->excluded));
        json_io_add(jr, "isolated", json_io_u64(r->isolated));
        json_io_add(jr, "abandoned", json_io_u64(r->abandoned));
        json_io_add(jr, "beyond_two", json_io_u64(r->beyond));
        json_io_add(jr, "msp_sent", json_io_u64(r->msp));
        json_io_add(jr, "relayed", json_io_u64(r->relayed));
        json_io_add(jr, "relay_drops", json_io_u64(r->relay_drops));
        json_io_add(jr, "notes", json_io_u64(r->notes));
        json_io_add(jr, "fail_reports", json_io_u64(r->fails));
        json_io_add(jr, "relay_busy", json_io_u64(r->relay_busy));
        json_io_add(jr, "relay_max", json_io_u64(r->relay_max));
        json_io_add(jr, "held", json_io_u64(r->held));
        json_io_add(jr, "mp_added", json_io_u64(r->mp_added));
        json_io_add(jr, "mp_dropped", json_io_u64(r->mp_dropped));
        json_object *jp = json_object_new_array();
        for (unsigned j = 0; j <= SCI_FTDRB_MPMAX; j++)
            json_object_array_add(jp, json_io_u64(r->paths[j]));
        json_io_add(jr, "pairs_by_paths", jp);
        jnum(jr, "top_share", r->top_share);
        jnum(jr, "perf_common_pct", pc);
        json_io_add(jr, "common_pairs", json_io_u64(common));
        uint64_t direct = 0; /* of the pairs the failover alone delivers, those sent direct */
        for (unsigned v = 0; fd && r->ok && v < r->nsrc && k->res[i - 1].nsrc == r->nsrc; v++)
            direct += k->res[i - 1].src_msgs[v] && r->src_direct[v];
        json_io_add(jr, "direct_pairs", json_io_u64(direct));
        json_io_add(jr, "cables", json_io_str(r->faults));
        json_object_array_add(runs, jr);
        if (!o->json && fd) {
            const fres_t *b = &k->res[i - 1];
            double bp, bd;
            perf(k, i - 1, &bp, &bd);
            (void)bd;
            printf("| %s | %g | %u | %llu | %llu | %.2f | %.1f %% | %llu/%llu | %.2f | %+.2f | "
                   "%.1f %% | %llu/%llu | %llu | %llu | %llu/%llu/%llu/%llu | %.0f %% |\n",
                   pat_label(pat), every_of(o, pat), count, (unsigned long long)r->isolated,
                   (unsigned long long)r->excluded, b->lat_us, bp,
                   (unsigned long long)b->delivering, (unsigned long long)b->flows, r->lat_us,
                   diff, pct, (unsigned long long)r->delivering, (unsigned long long)r->flows,
                   (unsigned long long)r->relayed, (unsigned long long)r->relay_busy,
                   (unsigned long long)r->paths[1], (unsigned long long)r->paths[2],
                   (unsigned long long)r->paths[3], (unsigned long long)r->paths[4],
                   100 * r->top_share);
        }
    }
    if (!o->json) {
        printf("\nOver the five permutations (uniform left out, as in the FT-DRB paper):\n\n");
        printf("| cables | P2S alone avg | worst | best | FT-DRB avg | worst | best | Zarza et al. "
               "|\n|---:|---:|---:|---:|---:|---:|---:|---|\n");
    }
    json_io_add(doc, "summary", summary);
    for (unsigned fi = 0; fi < o->ncounts; fi++) {
        double a[2], w[2], b[2];
        for (int fd = 0; fd < 2; fd++) {
            a[fd] = cnt[fd][fi] ? sum[fd][fi] / cnt[fd][fi] : NAN;
            w[fd] = cnt[fd][fi] ? worst[fd][fi] : NAN;
            b[fd] = cnt[fd][fi] ? best[fd][fi] : NAN;
        }
        if (!o->json)
            printf("| %u | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.0f %% "
                   "avg, %.0f %% worst, %.0f %% best (6 and 60 link faults) |\n",
                   o->counts[fi], a[0], w[0], b[0], a[1], w[1], b[1], PAPER_AVG, PAPER_WORST,
                   PAPER_BEST);
        json_object *js = json_object_new_object();
        json_io_add(js, "faults", json_io_u64(o->counts[fi]));
        jnum(js, "p2s_avg", a[0]);
        jnum(js, "p2s_worst", w[0]);
        jnum(js, "p2s_best", b[0]);
        jnum(js, "ftdrb_avg", a[1]);
        jnum(js, "ftdrb_worst", w[1]);
        jnum(js, "ftdrb_best", b[1]);
        json_object_array_add(summary, js);
    }
    json_io_add(doc, "pass", json_io_bool(!bad));
    json_io_write(o->json ? stdout : NULL, doc);
    json_io_write(jf, doc);
    json_object_put(doc);
    if (!o->json)
        printf("\n%s: every message delivered once and acknowledged (with FT-DRB every flow; "
               "without, the flows the failover cannot route abandoned and counted)%s%s. Data: "
               "%s\n", bad ? "FAIL" : "PASS",
               *slow ? "; with FT-DRB some pairs delivered nothing within the window, only in "
                       "the drain: " : "", slow, path);
    fclose(csv);
    if (jf)
        fclose(jf);
    return bad;
}

/* --sweep: per pattern, what the fault-free torus accepts at each interval, and where it
 * saturates. */
static int sweep_report(const fcamp_t *k)
{
    const fopts_t *o = k->o;
    json_object *js = NULL, *pats = NULL;
    if (!o->json)
        printf("## %s --sweep: the fault-free %ux%u P2S torus, one 64-byte message every U us per "
               "node,\n%g ms after %g ms of warm-up. Saturated: accepted below %.0f %% of offered, "
               "or a flow starved.\n\n| pattern | U (us) | offered (msg/us) | accepted | accepted "
               "/ offered | starved flows | latency (us) |\n|---|---:|---:|---:|---:|---:|---:|\n",
               NAME, o->w, o->h, SWEEP_MS, o->warm_ms, 100 * SAT_FRAC);
    else {
        char torus[24];
        snprintf(torus, sizeof torus, "%ux%u", o->w, o->h);
        js = json_object_new_object();
        json_io_add(js, "experiment", json_io_str(NAME));
        json_io_add(js, "sweep", json_io_bool(1));
        json_io_add(js, "torus", json_io_str(torus));
        json_io_add(js, "patterns", pats = json_object_new_array());
    }
    int bad = k->failed;
    for (unsigned pi = 0; pi < k->npat; pi++) {
        double sat = NAN;
        json_object *jp = NULL, *points = NULL;
        if (js) {
            jp = json_object_new_object();
            json_io_add(jp, "pattern", json_io_str(pat_label(k->pats[pi])));
            json_io_add(jp, "points", points = json_object_new_array());
            json_object_array_add(pats, jp);
        }
        for (unsigned j = 0; j < NSW; j++) {
            const fres_t *r = &k->res[pi * NSW + j];
            /* offered: what the flows would send at the interval (a source whose window is
             * full is blocked in its write, so what it generated understates the load) */
            double us = SWEEP_MS * 1000, off = (double)r->flows / sweep_us[j], acc = r->msgs / us;
            int ok = r->ok && acc >= SAT_FRAC * off && r->delivering == r->flows;
            if (!ok)
                sat = NAN; /* saturated here: the load it takes is at a longer interval */
            else if (isnan(sat))
                sat = sweep_us[j];
            if (!js)
                printf("| %s | %g | %.2f | %.2f | %.3f | %llu | %.2f |\n", pat_label(k->pats[pi]),
                       sweep_us[j], off, acc, acc / off,
                       (unsigned long long)(r->flows - r->delivering), r->lat_us);
            else {
                json_object *pt = json_object_new_object();
                json_io_add(pt, "every_us", json_io_g(sweep_us[j]));
                jnum(pt, "offered_per_us", off);
                jnum(pt, "accepted_per_us", acc);
                json_io_add(pt, "starved", json_io_u64(r->flows - r->delivering));
                jnum(pt, "latency_us", r->lat_us);
                json_object_array_add(points, pt);
            }
        }
        if (!js)
            printf("| **%s** | takes all it is offered from every %g us on; the stated load: every "
                   "%g us%s | | | | | |\n", pat_label(k->pats[pi]), sat, 2 * sat,
                   o->w == 32 && o->h == 32 && 2 * sat != load_us[k->pats[pi]]
                       ? " (NOT the default the experiment uses: update load_us[])"
                       : "");
        else {
            json_io_add(jp, "saturation_every_us", json_io_g(sat));
            json_io_add(jp, "stated_every_us", json_io_g(2 * sat));
        }
    }
    if (js) {
        json_io_write(stdout, js);
        json_object_put(js);
    }
    return bad;
}

int experiment_ftdrb_run(const experiment_ftdrb_opts_t *o, campaign_t *c)
{
    fcamp_t k = {.o = o, .parallel = campaign_parallel(c)};
    for (unsigned p = 0; p < NPO; p++)
        if (o->patterns >> pat_order[p] & 1u)
            k.pats[k.npat++] = pat_order[p];
    k.nruns = o->sweep ? k.npat * (unsigned)NSW : k.npat * o->ncounts * 2;
    if (!(k.res = calloc(k.nruns, sizeof *k.res)))
        return 1;
    f_params(c, o);
    campaign_hooks_t h = {f_run, f_take, k.parallel && !o->quiet ? f_progress : NULL};
    char err[600];
    int rc = campaign_exec(c, k.nruns, &h, &k, err, sizeof err);
    if (rc < 0)
        fprintf(stderr, "ftsim experiment %s: %s\n", NAME, err);
    else if (!k.parallel && !campaign_merged(c))
        progress(&k, k.nruns, k.nruns);
    if (rc == 0 && campaign_reporting(c))
        rc = o->sweep ? sweep_report(&k) : report(&k);
    free(k.res);
    return rc ? 1 : 0;
}
