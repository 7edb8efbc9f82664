/*
 * experiment_sci.c — `ftsim experiment ring-down-9 | node-down-4 | static-4 | p2s-ring-down-9 |
 * p2s-node-down-4`: the paper's experiments (sci_sys.md section 6) on the running torus of
 * harness/scisys/sci_sys.c, with the paper's timers, repeated with the fault at random times.
 *
 * One run (harness/scisys/sci_sys.md section 6 has the reasoning):
 *   A. the flows saturate (interval 0) for a warm-up and a measurement window: bandwidth and
 *      latency before;
 *   B. the flows drop to the probe rate (one message every --probe-us); the fault comes at a
 *      random time; the run goes on until every driver is idle again and a margin after:
 *      each flow's longest gap between deliveries around the fault is its downtime; bandwidth
 *      and latency over time go into 1 ms bins (the plots);
 *   C. the flows saturate again: bandwidth and latency after, with the fault still there;
 *   then the flows stop and everything must drain: every message delivered once, in order,
 *      and acknowledged (the ledger of sci_sys.c fails the run otherwise).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "experiment_sci.h"
#include "json_io.h"
#include "lockstep.h"
#include "prng.h"
#include "sci_sys.h"

typedef struct xflow {
    const char *name;
    unsigned sx, sy, dx, dy;
    int control;
} xflow_t;

typedef struct xdef {
    const char *name;
    unsigned w, h;
    int p2s;
    sci_sys_mode_t mode;
    const char *fault; /* the sci_torus control */
    const char *fault_text;
    const xflow_t *flows;
    unsigned nflows;
    /* the paper (sci_sys.md section 6); NAN: not given */
    double p_avg, p_worst, p_bw_before, p_bw_after, p_ratio, p_lat_delta;
    const char *p_note;
} xdef_t;

static const xflow_t tiger_flows[] = {
    {"tiger-1->tiger-8", 0, 0, 1, 2, 0},
    {"tiger-3->tiger-7", 2, 0, 0, 2, 0},
    {"tiger-1->tiger-3", 0, 0, 2, 0, 0},
    {"tiger-5->tiger-9", 1, 1, 2, 2, 1},
};
static const xflow_t linden_flows[] = {{"linden-1->linden-4", 0, 0, 1, 1, 0}};

static const xdef_t xdefs[] = {
    {"ring-down-9", 3, 3, 0, SCI_SYS_DYNAMIC, "cut x 0,0", "X-ring cable tiger-1 -> tiger-2 pulled",
     tiger_flows, 4, 401.15, 597.16, 620, 530, 0.85, 0.20, "one driver pass"},
    {"node-down-4", 2, 2, 0, SCI_SYS_DYNAMIC, "off 1,0", "linden-2 powered down", linden_flows, 1,
     770.87, 805.50, NAN, NAN, 1.0, 0.0, "the extra remote-probe pass"},
    {"static-4", 2, 2, 0, SCI_SYS_STATIC, "cut x 0,0", "X-ring cable linden-1 -> linden-2 pulled",
     linden_flows, 1, 4000, NAN, NAN, NAN, NAN, NAN, "~4 s, static reconfiguration"},
    {"p2s-ring-down-9", 3, 3, 1, SCI_SYS_DYNAMIC, "cut x 0,0",
     "X-ring cable tiger-1 -> tiger-2 pulled", tiger_flows, 4, 100, NAN, NAN, NAN, NAN, NAN,
     "~100 ms expected"},
    {"p2s-node-down-4", 2, 2, 1, SCI_SYS_DYNAMIC, "off 1,0", "linden-2 powered down", linden_flows,
     1, 100, NAN, NAN, NAN, NAN, NAN, "~100 ms expected"},
};

typedef experiment_sci_opts_t xopts_t; /* the short name this file uses */

/* One run's results: its campaign record (harness/core/campaign.h), from which the report
 * sums over runs in run order, so the sums are the same wherever the runs ran. */
#define XMAXF 4
typedef struct xrun {
    double bw_before, bw_after, lat_before, lat_after; /* MB/s, us */
    double settle_ms;
    double gap[XMAXF];            /* each flow's longest gap around the fault (ms) */
    uint64_t passes, extra, cnok; /* driver passes, summed over the nodes */
    /* the time series of B in 1 ms bins from the fault - pre */
    unsigned nts, pre;
    uint64_t *ts_bytes, *ts_n;
    double *ts_lat;
} xrun_t;

typedef struct xres {
    double down_sum, down_worst;
    unsigned down_n;
    double ctl_gap;               /* the control flow's longest gap, worst over runs (ms) */
    double bw_before, bw_after;   /* MB/s, mean over runs */
    double lat_before, lat_after; /* us, mean over runs */
    double passes, extra, cnok;   /* driver passes per run (sum over nodes), mean */
    double settle_ms;             /* fault to every driver idle, mean */
    /* time series around the fault, summed over runs: 1 ms bins from -pre to +post */
    double *ts_bw, *ts_lat;
    uint64_t *ts_latn;
    unsigned nts;
    int pre_bins;
    int bar; /* the progress bar's fill last drawn, -1 none yet */
} xres_t;

static double cyc_ms(const sci_sys_params_t *p, uint64_t c)
{
    return (double)c / (p->clock_mhz * 1000.0);
}

static void progress(const xopts_t *o, int *last, const char *name, unsigned run, unsigned runs,
                     double frac)
{
    if (o->quiet)
        return;
    if (!isatty(2)) { /* a log, not a terminal: one plain line per run, no redrawn bar */
        if (frac == 0 && *last != -2 - (int)run) {
            *last = -2 - (int)run;
            fprintf(stderr, "%s: run %u of %u\n", name, run + 1 < runs ? run + 1 : runs, runs);
        }
        return;
    }
    int width = 30, fill = (int)((run + frac) / runs * width + 0.5);
    if (fill == *last && frac > 0)
        return;
    *last = fill;
    fprintf(stderr, "\r%-16s [%.*s%*s] run %u/%u", name, fill, "##############################",
            width - fill, "", run + 1 < runs ? run + 1 : runs, runs);
    fflush(stderr);
}

/* Payload MB/s and mean latency (us) of every flow over the window since `t0`, from deltas of
 * the flow statistics. */
typedef struct snap {
    uint64_t bytes, n;
    double lat;
} snap_t;

static void snap_take(sci_sys_t *s, snap_t *sn)
{
    memset(sn, 0, sizeof *sn);
    for (unsigned k = 0; k < sci_sys_nflows(s); k++) {
        sci_flow_stats_t st;
        sci_sys_flow_stats(s, k, &st);
        sn->bytes += st.bytes;
        sn->n += st.delivered;
        sn->lat += st.lat_sum;
    }
}

/* A measurement window of saturated flows (after a quarter window to settle): the bandwidth
 * (MB/s) and the mean latency (us) of what it delivered, added to *bw and *lat. */
static int saturated(sci_sys_t *s, const sci_sys_params_t *p, uint64_t win, double *bw, double *lat,
                     char *err, size_t errlen)
{
    snap_t a, b;
    if (sci_sys_run(s, sci_sys_now(s) + win / 4, err, errlen) < 0)
        return -1;
    snap_take(s, &a);
    uint64_t t0 = sci_sys_now(s);
    if (sci_sys_run(s, t0 + win, err, errlen) < 0)
        return -1;
    snap_take(s, &b);
    double secs = cyc_ms(p, sci_sys_now(s) - t0) / 1000.0;
    *bw += (double)(b.bytes - a.bytes) / secs / 1e6;
    *lat += b.n > a.n ? (b.lat - a.lat) / (double)(b.n - a.n) / p->clock_mhz : 0;
    return 0;
}

/* One run into r; bar: the progress bar's state, or NULL for none. */
static int one_run(const xdef_t *x, const xopts_t *o, unsigned run, int *bar, xrun_t *r, char *err,
                   size_t errlen)
{
    sci_sys_cfg_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.w = x->w;
    cfg.h = x->h;
    cfg.p2s = x->p2s;
    cfg.models = o->models;
    cfg.mode = x->mode;
    cfg.par = o->par;
    cfg.seed = o->seed * 1000003u + run;
    const sci_sys_params_t *p = &cfg.par;
    uint64_t ms = sci_sys_ms(p, 1.0);
    cfg.bin_cycles = ms;
    cfg.log = o->verbose ? stderr : NULL;
    cfg.threads = o->threads;
    sci_sys_t *s = sci_sys_new(&cfg, err, errlen);
    if (!s)
        return -1;
    prng_t rng;
    prng_seed(&rng, cfg.seed ^ 0x5eedULL);
    int rc = -1;
    unsigned nf = x->nflows;
    for (unsigned k = 0; k < nf; k++) {
        const xflow_t *f = &x->flows[k];
        if (sci_sys_add_flow(s, f->name, f->sy * x->w + f->sx, f->dy * x->w + f->dx, 64, 0, 0, err,
                             errlen) < 0)
            goto out;
    }
    /* A: saturated, before */
    uint64_t win = sci_sys_ms(p, o->window_ms);
    if (saturated(s, p, win, &r->bw_before, &r->lat_before, err, errlen) < 0)
        goto out;
    /* B: probe rate, the fault at a random time */
    uint64_t probe = (uint64_t)llround(o->probe_us * p->clock_mhz);
    for (unsigned k = 0; k < nf; k++)
        sci_sys_set_interval(s, k, probe);
    if (sci_sys_settle(s, sci_sys_now(s) + 50 * ms, err, errlen) < 0)
        goto out;
    uint64_t tf = sci_sys_now(s) + 20 * ms + prng_below(&rng, (uint32_t)(20 * ms));
    int pre = 20;
    if (sci_sys_fault(s, tf, x->fault, err, errlen) < 0)
        goto out;
    uint64_t t_gap = tf - 10 * ms;
    if (sci_sys_run(s, t_gap, err, errlen) < 0)
        goto out;
    sci_sys_reset_gaps(s);
    uint64_t horizon = tf + sci_sys_ms(p, x->mode == SCI_SYS_STATIC ? 8000.0 : 2500.0);
    if (sci_sys_run(s, tf + 1, err, errlen) < 0)
        goto out;
    /* until every driver is idle (the pass, and an extra one, are over) */
    while (sci_sys_busy(s) || sci_sys_now(s) < tf + 2 * ms ||
           (x->mode == SCI_SYS_STATIC && sci_sys_static_done(s) == 0)) {
        if (sci_sys_now(s) >= horizon) {
            snprintf(err, errlen, "the drivers were still busy %.0f ms after the fault",
                     cyc_ms(p, horizon - tf));
            goto out;
        }
        if (sci_sys_run(s, sci_sys_now(s) + ms, err, errlen) < 0)
            goto out;
        if (bar)
            progress(o, bar, x->name, run, o->runs,
                     0.2 + 0.6 * (double)(sci_sys_now(s) - tf) / (double)(horizon - tf));
    }
    uint64_t tsettle = sci_sys_now(s);
    r->settle_ms += cyc_ms(p, tsettle - tf);
    if (sci_sys_run(s, tsettle + sci_sys_ms(p, o->margin_ms), err, errlen) < 0)
        goto out;
    sci_sys_close_gaps(s);
    for (unsigned k = 0; k < nf; k++) {
        sci_flow_stats_t st;
        sci_sys_flow_stats(s, k, &st);
        double g = cyc_ms(p, st.max_gap);
        if (o->verbose)
            fprintf(stderr,
                    "\n  run %u: %-20s longest gap %8.2f ms (ends at %.2f ms after the "
                    "fault), %llu delivered, %llu retransmitted, %llu FAIL_REPORTs",
                    run + 1, st.name, g, st.max_gap_at > tf ? cyc_ms(p, st.max_gap_at - tf) : 0.0,
                    (unsigned long long)st.delivered, (unsigned long long)st.retx,
                    (unsigned long long)st.fail_reports);
        r->gap[k] = g;
    }
    /* the time series of B, aligned at the fault */
    const uint64_t *bb, *ln;
    const double *ls;
    unsigned nb = sci_sys_bins(s, &bb, &ls, &ln);
    unsigned fb = (unsigned)(tf / ms);
    unsigned need = (unsigned)pre + (nb > fb ? nb - fb : 0);
    r->ts_bytes = calloc(need, sizeof *r->ts_bytes);
    r->ts_n = calloc(need, sizeof *r->ts_n);
    r->ts_lat = calloc(need, sizeof *r->ts_lat);
    if (!r->ts_bytes || !r->ts_n || !r->ts_lat) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    r->nts = need;
    r->pre = (unsigned)pre;
    for (int i = -pre; fb + (unsigned)(i + pre) < nb + (unsigned)pre && (int)fb + i < (int)nb;
         i++) {
        if ((int)fb + i < 0)
            continue;
        unsigned src = (unsigned)((int)fb + i), dst = (unsigned)(i + pre);
        r->ts_bytes[dst] = bb[src];
        r->ts_lat[dst] = ls[src];
        r->ts_n[dst] = ln[src];
    }
    /* C: saturated again, the fault still there */
    for (unsigned k = 0; k < nf; k++)
        sci_sys_set_interval(s, k, 0);
    if (saturated(s, p, win, &r->bw_after, &r->lat_after, err, errlen) < 0)
        goto out;
    /* drain: every message of a live pair delivered and acknowledged */
    sci_sys_stop_flows(s);
    int settled = sci_sys_settle(s, sci_sys_now(s) + sci_sys_ms(p, 500.0), err, errlen);
    if (settled < 0)
        goto out;
    if (settled == 0) {
        snprintf(err, errlen, "messages still outstanding 500 ms after the flows stopped");
        goto out;
    }
    for (unsigned i = 0; i < x->w * x->h; i++) {
        sci_drv_stats_t d;
        sci_sys_driver_stats(s, i, &d);
        r->passes += d.rtg_passes;
        r->extra += d.extra_passes;
        r->cnok += d.cnok_passes;
    }
    rc = 0;
out:
    sci_sys_free(s);
    return rc;
}

/* A figure of the JSON report: 3 decimals, null when there is none (NaN). */
static void jnum(json_object *o, const char *k, double v)
{
    json_io_add(o, k, json_io_fixed(v, 3));
}

/* The mean time series around the fault, for harness/scripts/plot.py to draw (the bandwidth and
 * latency plots). The `#` lines carry what the titles, axes and markers need, so the file alone
 * makes the pictures; a bin without deliveries has no latency (an empty field). */
static int write_series(const xdef_t *x, const xopts_t *o, const xres_t *r, char *err,
                        size_t errlen)
{
    if (!r->nts)
        return 0;
    char path[512];
    snprintf(path, sizeof path, "%s/%s.csv", o->outdir, x->name);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write %s", path);
        return -1;
    }
    fprintf(f, "# experiment: %s\n# fault: %s\n# runs: %u\n# probe_us: %g\n", x->name,
            x->fault_text, o->runs, o->probe_us);
    fprintf(f, "# fault_ms: 0\n# drivers_idle_ms: %.3f\n", r->settle_ms / o->runs);
    fprintf(f, "time_ms,bandwidth_mbs,latency_us\n");
    for (unsigned i = 0; i < r->nts; i++) {
        fprintf(f, "%d,%.6f,", (int)i - r->pre_bins, r->ts_bw[i] / o->runs);
        if (r->ts_latn[i])
            fprintf(f, "%.4f", r->ts_lat[i] / (double)r->ts_latn[i] / o->par.clock_mhz);
        fputc('\n', f);
    }
    if (fclose(f) != 0) {
        snprintf(err, errlen, "cannot write %s", path);
        return -1;
    }
    return 0;
}

static const xdef_t *find(const char *name)
{
    for (unsigned k = 0; k < sizeof xdefs / sizeof xdefs[0]; k++)
        if (!strcmp(name, xdefs[k].name))
            return &xdefs[k];
    return NULL;
}

int experiment_sci_known(const char *name) { return find(name) != NULL; }

void experiment_sci_defaults(experiment_sci_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->runs = 5;
    o->seed = 1;
    o->models = LS_CSIM;
    o->outdir = "build/experiments";
    o->probe_us = 500;
    o->window_ms = 0.5;
    o->margin_ms = 50;
    sci_sys_params_default(&o->par);
}

static void xrun_free(xrun_t *r) { free(r->ts_bytes), free(r->ts_n), free(r->ts_lat); }

/* The campaign of an experiment: its runs, and the report's sums so far. */
typedef struct xcamp {
    const xdef_t *x;
    xopts_t o;
    xres_t r;
    int parallel; /* the runs in worker processes: the progress bar is drawn here */
} xcamp_t;

/* A campaign run: run i of the experiment, as a record. */
static int x_run(void *ctx, unsigned i, campaign_w_t *w, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    xcamp_t *k = ctx;
    const xopts_t *o = &k->o;
    xrun_t r;
    memset(&r, 0, sizeof r);
    char why[600];
    int *bar = o->quiet || k->parallel ? NULL : &k->r.bar;
    if (bar)
        progress(o, bar, k->x->name, i, o->runs, 0);
    campaign_w_u64(w, "run", i + 1);
    campaign_w_u64(w, "seed", o->seed * 1000003u + i);
    if (one_run(k->x, o, i, bar, &r, why, sizeof why) < 0) {
        campaign_w_str(w, "error", why);
        xrun_free(&r);
        return 0;
    }
    campaign_w_dbl(w, "bw_before", r.bw_before);
    campaign_w_dbl(w, "lat_before", r.lat_before);
    campaign_w_dbl(w, "bw_after", r.bw_after);
    campaign_w_dbl(w, "lat_after", r.lat_after);
    campaign_w_dbl(w, "settle_ms", r.settle_ms);
    campaign_w_dbls(w, "gap_ms", r.gap, k->x->nflows);
    campaign_w_u64(w, "passes", r.passes);
    campaign_w_u64(w, "extra", r.extra);
    campaign_w_u64(w, "cnok", r.cnok);
    campaign_w_u64(w, "pre", r.pre);
    campaign_w_u64s(w, "ts_bytes", r.ts_bytes, r.nts);
    campaign_w_dbls(w, "ts_lat", r.ts_lat, r.nts);
    campaign_w_u64s(w, "ts_n", r.ts_n, r.nts);
    xrun_free(&r);
    return 0;
}

/* A record back into a run's results (r's arrays allocated). */
static int x_read(campaign_rec_t *rec, unsigned nf, xrun_t *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->bw_before = campaign_rec_dbl(rec, "bw_before");
    r->lat_before = campaign_rec_dbl(rec, "lat_before");
    r->bw_after = campaign_rec_dbl(rec, "bw_after");
    r->lat_after = campaign_rec_dbl(rec, "lat_after");
    r->settle_ms = campaign_rec_dbl(rec, "settle_ms");
    if (campaign_rec_dbls(rec, "gap_ms", r->gap, XMAXF) != nf && !rec->bad)
        rec->bad = "gap_ms";
    r->passes = campaign_rec_u64(rec, "passes");
    r->extra = campaign_rec_u64(rec, "extra");
    r->cnok = campaign_rec_u64(rec, "cnok");
    r->pre = (unsigned)campaign_rec_u64(rec, "pre");
    r->nts = campaign_rec_u64s(rec, "ts_bytes", NULL, 0);
    r->ts_bytes = calloc(r->nts + 1, sizeof *r->ts_bytes);
    r->ts_n = calloc(r->nts + 1, sizeof *r->ts_n);
    r->ts_lat = calloc(r->nts + 1, sizeof *r->ts_lat);
    if (!r->ts_bytes || !r->ts_n || !r->ts_lat) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    campaign_rec_u64s(rec, "ts_bytes", r->ts_bytes, r->nts);
    if (campaign_rec_u64s(rec, "ts_n", r->ts_n, r->nts) != r->nts ||
        campaign_rec_dbls(rec, "ts_lat", r->ts_lat, r->nts) != r->nts)
        rec->bad = rec->bad ? rec->bad : "ts_n";
    if (rec->bad) {
        snprintf(err, errlen, "a record without '%s'", rec->bad);
        return -1;
    }
    return 0;
}

/* Run r into the sums over runs: the same additions in the same order as the runs came. */
static int x_add(const xdef_t *x, xres_t *a, const xrun_t *r)
{
    a->bw_before += r->bw_before;
    a->lat_before += r->lat_before;
    a->settle_ms += r->settle_ms;
    for (unsigned k = 0; k < x->nflows; k++) {
        double g = r->gap[k];
        if (x->flows[k].control) {
            if (g > a->ctl_gap)
                a->ctl_gap = g;
        } else {
            a->down_sum += g;
            a->down_n++;
            if (g > a->down_worst)
                a->down_worst = g;
        }
    }
    if (r->nts > a->nts) {
        double *nbw = realloc(a->ts_bw, r->nts * sizeof *nbw), *nl = NULL;
        uint64_t *nn = NULL;
        if (nbw) {
            a->ts_bw = nbw;
            nl = realloc(a->ts_lat, r->nts * sizeof *nl);
        }
        if (nl) {
            a->ts_lat = nl;
            nn = realloc(a->ts_latn, r->nts * sizeof *nn);
        }
        if (!nbw || !nl || !nn)
            return -1;
        a->ts_latn = nn;
        for (unsigned i = a->nts; i < r->nts; i++)
            a->ts_bw[i] = a->ts_lat[i] = 0, a->ts_latn[i] = 0;
        a->nts = r->nts;
    }
    a->pre_bins = (int)r->pre;
    for (unsigned i = 0; i < r->nts; i++) {
        a->ts_bw[i] += (double)r->ts_bytes[i] / 1e-3 / 1e6;
        a->ts_lat[i] += r->ts_lat[i];
        a->ts_latn[i] += r->ts_n[i];
    }
    a->bw_after += r->bw_after;
    a->lat_after += r->lat_after;
    a->passes += (double)r->passes;
    a->extra += (double)r->extra;
    a->cnok += (double)r->cnok;
    return 0;
}

/* A campaign record, in run order, into the sums; a failed run ends the experiment. */
static int x_take(void *ctx, unsigned i, const char *text, char *err, size_t errlen)
{
    xcamp_t *k = ctx;
    campaign_rec_t rec;
    if (campaign_rec_parse(&rec, text, err, errlen) < 0)
        return -1;
    int rc = 0;
    if (campaign_rec_has(&rec, "error")) {
        if (!k->o.quiet && isatty(2))
            fputc('\n', stderr);
        fprintf(stderr, "ftsim experiment %s: run %u (seed %llu): %s\n", k->x->name, i + 1,
                (unsigned long long)campaign_rec_u64(&rec, "seed"),
                campaign_rec_str(&rec, "error"));
        rc = 1;
    } else {
        xrun_t r;
        rc = x_read(&rec, k->x->nflows, &r, err, errlen);
        if (rc == 0 && x_add(k->x, &k->r, &r) < 0) {
            snprintf(err, errlen, "out of memory");
            rc = -1;
        }
        xrun_free(&r);
    }
    campaign_rec_free(&rec);
    return rc;
}

static void x_progress(void *ctx, unsigned done, unsigned total)
{
    xcamp_t *k = ctx;
    progress(&k->o, &k->r.bar, k->x->name, done, total, 0);
}

/* The parameters that make the results, for a shard's header. */
static void x_params(campaign_t *c, const xdef_t *x, const xopts_t *o)
{
    const sci_sys_params_t *p = &o->par;
    campaign_param(c, "experiment", "%s", x->name);
    campaign_param(c, "runs", "%u", o->runs);
    campaign_param(c, "seed", "%llu", (unsigned long long)o->seed);
    campaign_param(c, "model", "%s",
                   o->models == LS_BOTH  ? "both"
                   : o->models == LS_RTL ? "rtl"
                                         : "csim");
    campaign_param(c, "json", "%d", o->json);
    campaign_param(c, "out", "%s", o->outdir);
    campaign_param(c, "json-file", "%s", o->json_file ? o->json_file : "(none)");
    campaign_param(c, "probe-us", "%.17g", o->probe_us);
    campaign_param(c, "window-ms", "%.17g", o->window_ms);
    campaign_param(c, "margin-ms", "%.17g", o->margin_ms);
    campaign_param(c, "timers-ms",
                   "cablenotok %.17g readytogo %.17g watchdog %.17g host-rtx "
                   "%.17g compute %.17g",
                   p->cablenotok_ms, p->readytogo_ms, p->watchdog_ms, p->host_rtx_ms,
                   p->compute_ms);
    campaign_param(c, "reg-write-us", "%.17g", p->reg_write_us);
    campaign_param(c, "clock-mhz", "%.17g", p->clock_mhz);
    campaign_param(c, "time-scale", "%.17g", p->time_scale);
    campaign_param(c, "lc", "echo-timeout %u busy-limit %u retry-limit %u rsr-timeout %u",
                   p->echo_timeout, p->busy_limit, p->retry_limit, p->rsr_timeout);
    campaign_param(c, "host", "fail-backoff %u window %u", p->fail_backoff, p->window);
}

/* The table (or JSON), the time series and the JSON file, from the sums over the runs. */
static int x_report(const xdef_t *x, const xopts_t *opts, const xres_t *res)
{
    const xopts_t o = *opts;
    const xres_t r = *res;
    char err[600];
    double n = o.runs;
    double avg = r.down_n ? r.down_sum / r.down_n : NAN;
    double bwb = r.bw_before / n, bwa = r.bw_after / n;
    double lb = r.lat_before / n, la = r.lat_after / n;
    int rc = 0;
    if (write_series(x, &o, &r, err, sizeof err) < 0) {
        fprintf(stderr, "ftsim experiment %s: time series: %s\n", x->name, err);
        rc = 1;
    }
    FILE *jf = NULL;
    if (o.json_file && !(jf = fopen(o.json_file, "w"))) {
        fprintf(stderr, "ftsim experiment %s: cannot write %s\n", x->name, o.json_file);
        rc = 1;
    }
    json_object *doc = json_object_new_object(), *paper = json_object_new_object();
    json_io_add(doc, "experiment", json_io_str(x->name));
    json_io_add(doc, "fault", json_io_str(x->fault_text));
    json_io_add(doc, "runs", json_io_u64(o.runs));
    json_io_add(doc, "seed", json_io_u64(o.seed));
    jnum(doc, "downtime_avg_ms", avg);
    jnum(doc, "downtime_worst_ms", r.down_worst);
    jnum(doc, "bandwidth_before_mbs", bwb);
    jnum(doc, "bandwidth_after_mbs", bwa);
    jnum(doc, "bandwidth_ratio", bwa / bwb);
    jnum(doc, "latency_before_us", lb);
    jnum(doc, "latency_after_us", la);
    jnum(doc, "latency_delta_us", la - lb);
    if (!strcmp(x->name + (x->p2s ? 4 : 0), "ring-down-9"))
        jnum(doc, "control_max_gap_ms", r.ctl_gap);
    jnum(doc, "readytogo_passes_per_run", r.passes / n);
    jnum(doc, "extra_passes_per_run", r.extra / n);
    jnum(doc, "settle_ms", r.settle_ms / n);
    jnum(paper, "downtime_avg_ms", x->p_avg);
    jnum(paper, "downtime_worst_ms", x->p_worst);
    jnum(paper, "bandwidth_before_mbs", x->p_bw_before);
    jnum(paper, "bandwidth_after_mbs", x->p_bw_after);
    jnum(paper, "bandwidth_ratio", x->p_ratio);
    jnum(paper, "latency_delta_us", x->p_lat_delta);
    json_io_add(doc, "paper", paper);
    json_io_write(o.json ? stdout : NULL, doc);
    json_io_write(jf, doc);
    json_object_put(doc);
    if (jf)
        fclose(jf);
    if (!o.json) {
        printf("## %s: %s (%u runs, seed %llu, %s)\n\n", x->name, x->fault_text, o.runs,
               (unsigned long long)o.seed, x->p2s ? "P2S" : "LC3");
        printf("| measure | model | paper |\n|---|---|---|\n");
#define ROW(label, v, pv, fmt)                 \
    do {                                       \
        printf("| %s | " fmt " | ", label, v); \
        if (isnan(pv))                         \
            printf("- |\n");                   \
        else                                   \
            printf(fmt " |\n", pv);            \
    } while (0)
        ROW("downtime avg (ms)", avg, x->p_avg, "%.2f");
        ROW("downtime worst (ms)", r.down_worst, x->p_worst, "%.2f");
        ROW("bandwidth before (MB/s, saturated)", bwb, x->p_bw_before, "%.1f");
        ROW("bandwidth after (MB/s, saturated)", bwa, x->p_bw_after, "%.1f");
        ROW("bandwidth after / before", bwa / bwb, x->p_ratio, "%.3f");
        ROW("latency before (us)", lb, NAN, "%.2f");
        ROW("latency after (us)", la, NAN, "%.2f");
        ROW("latency after - before (us)", la - lb, x->p_lat_delta, "%+.2f");
        if (!strcmp(x->name + (x->p2s ? 4 : 0), "ring-down-9"))
            ROW("control flow tiger-5->9, longest gap (ms)", r.ctl_gap, NAN, "%.2f");
        ROW("driver ReadyToGo passes per run (all nodes)", r.passes / n, NAN, "%.1f");
        ROW("of them extra passes (remote probe)", r.extra / n, NAN, "%.1f");
        ROW("fault to every driver idle (ms)", r.settle_ms / n, NAN, "%.1f");
        printf("\nPaper: %s. Time series: %s/%s.csv (plots: harness/scripts/plot.py draws "
               "%s-bandwidth.png, -latency.png)\n",
               x->p_note, o.outdir, x->name, x->name);
    }
    return rc;
}

int experiment_sci_run(const char *name, const experiment_sci_opts_t *opts, campaign_t *c)
{
    const xdef_t *x = find(name);
    if (!x)
        return 1;
    xcamp_t *k = calloc(1, sizeof *k);
    if (!k)
        return 1;
    k->x = x;
    k->o = *opts;
    k->r.bar = -1;
    k->parallel = campaign_parallel(c);
    const xopts_t o = *opts;
    x_params(c, x, &o);
    campaign_hooks_t h = {x_run, x_take, k->parallel && !o.quiet ? x_progress : NULL};
    char err[600];
    int rc = campaign_exec(c, o.runs, &h, k, err, sizeof err);
    if (rc < 0) {
        if (!o.quiet && isatty(2))
            fputc('\n', stderr);
        fprintf(stderr, "ftsim experiment %s: %s\n", x->name, err);
    }
    if (rc == 0 && !o.quiet && !campaign_merged(c) && isatty(2))
        fprintf(stderr, "\r%-16s done: %u runs in %lld s%30s\n", x->name, campaign_ran(c),
                campaign_seconds(c), "");
    else if (rc == 0 && !o.quiet && !campaign_merged(c))
        fprintf(stderr, "%s: done, %u runs in %lld s\n", x->name, campaign_ran(c),
                campaign_seconds(c));
    if (rc == 0 && campaign_reporting(c))
        rc = x_report(x, &o, &k->r);
    free(k->r.ts_bw), free(k->r.ts_lat), free(k->r.ts_latn);
    free(k);
    return rc ? 1 : 0;
}
