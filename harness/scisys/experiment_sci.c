/*
 * experiment_sci.c — `ftsim experiment ring-down-9 | node-down-4 | static-4 | p2s-ring-down-9 |
 * p2s-node-down-4`: the paper's experiments (sci.md section 6) on the running torus of
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
#include <sys/stat.h>
#include <time.h>

#include "experiment_sci.h"
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
    /* the paper (sci.md section 6); NAN: not given */
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

static int one_run(const xdef_t *x, const xopts_t *o, unsigned run, xres_t *r, char *err,
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
        progress(o, &r->bar, x->name, run, o->runs,
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
        if (x->flows[k].control) {
            if (g > r->ctl_gap)
                r->ctl_gap = g;
        } else {
            r->down_sum += g;
            r->down_n++;
            if (g > r->down_worst)
                r->down_worst = g;
        }
    }
    /* the time series of B, aligned at the fault */
    const uint64_t *bb, *ln;
    const double *ls;
    unsigned nb = sci_sys_bins(s, &bb, &ls, &ln);
    unsigned fb = (unsigned)(tf / ms);
    unsigned need = (unsigned)pre + (nb > fb ? nb - fb : 0);
    if (need > r->nts) {
        double *nbw = realloc(r->ts_bw, need * sizeof *nbw), *nl = NULL;
        uint64_t *nn = NULL;
        if (nbw) {
            r->ts_bw = nbw;
            nl = realloc(r->ts_lat, need * sizeof *nl);
        }
        if (nl) {
            r->ts_lat = nl;
            nn = realloc(r->ts_latn, need * sizeof *nn);
        }
        if (!nbw || !nl || !nn) {
            snprintf(err, errlen, "out of memory");
            goto out;
        }
        r->ts_latn = nn;
        for (unsigned i = r->nts; i < need; i++)
            r->ts_bw[i] = r->ts_lat[i] = 0, r->ts_latn[i] = 0;
        r->nts = need;
    }
    r->pre_bins = pre;
    for (int i = -pre; fb + (unsigned)(i + pre) < nb + (unsigned)pre && (int)fb + i < (int)nb;
         i++) {
        if ((int)fb + i < 0)
            continue;
        unsigned src = (unsigned)((int)fb + i), dst = (unsigned)(i + pre);
        r->ts_bw[dst] += (double)bb[src] / 1e-3 / 1e6;
        r->ts_lat[dst] += ls[src];
        r->ts_latn[dst] += ln[src];
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

static void jnum(FILE *f, const char *k, double v, int comma)
{
    if (isnan(v))
        fprintf(f, "\"%s\": null%s", k, comma ? ", " : "");
    else
        fprintf(f, "\"%s\": %.3f%s", k, v, comma ? ", " : "");
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

int experiment_sci_run(const char *name, const experiment_sci_opts_t *opts)
{
    const xdef_t *x = find(name);
    if (!x)
        return 1;
    const xopts_t o = *opts;
    xres_t r;
    memset(&r, 0, sizeof r);
    r.bar = -1;
    char err[600];
    time_t t_start = time(NULL);
    for (unsigned run = 0; run < o.runs; run++) {
        progress(&o, &r.bar, x->name, run, o.runs, 0);
        if (one_run(x, &o, run, &r, err, sizeof err) < 0) {
            if (!o.quiet)
                fputc('\n', stderr);
            fprintf(stderr, "ftsim experiment %s: run %u (seed %llu): %s\n", x->name, run + 1,
                    (unsigned long long)(o.seed * 1000003u + run), err);
            free(r.ts_bw), free(r.ts_lat), free(r.ts_latn);
            return 1;
        }
    }
    if (!o.quiet)
        fprintf(stderr, "\r%-16s done: %u runs in %lld s%30s\n", x->name, o.runs,
                (long long)(time(NULL) - t_start), "");
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
    for (int pass = 0; pass < 2; pass++) {
        FILE *f = pass == 0 ? (o.json ? stdout : NULL) : jf;
        if (!f)
            continue;
        fprintf(f, "{\"experiment\": \"%s\", \"fault\": \"%s\", \"runs\": %u, \"seed\": %llu, ",
                x->name, x->fault_text, o.runs, (unsigned long long)o.seed);
        jnum(f, "downtime_avg_ms", avg, 1);
        jnum(f, "downtime_worst_ms", r.down_worst, 1);
        jnum(f, "bandwidth_before_mbs", bwb, 1);
        jnum(f, "bandwidth_after_mbs", bwa, 1);
        jnum(f, "bandwidth_ratio", bwa / bwb, 1);
        jnum(f, "latency_before_us", lb, 1);
        jnum(f, "latency_after_us", la, 1);
        jnum(f, "latency_delta_us", la - lb, 1);
        if (!strcmp(x->name + (x->p2s ? 4 : 0), "ring-down-9"))
            jnum(f, "control_max_gap_ms", r.ctl_gap, 1);
        jnum(f, "readytogo_passes_per_run", r.passes / n, 1);
        jnum(f, "extra_passes_per_run", r.extra / n, 1);
        jnum(f, "settle_ms", r.settle_ms / n, 1);
        fprintf(f, "\"paper\": {");
        jnum(f, "downtime_avg_ms", x->p_avg, 1);
        jnum(f, "downtime_worst_ms", x->p_worst, 1);
        jnum(f, "bandwidth_before_mbs", x->p_bw_before, 1);
        jnum(f, "bandwidth_after_mbs", x->p_bw_after, 1);
        jnum(f, "bandwidth_ratio", x->p_ratio, 1);
        jnum(f, "latency_delta_us", x->p_lat_delta, 0);
        fprintf(f, "}}\n");
    }
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
    free(r.ts_bw), free(r.ts_lat), free(r.ts_latn);
    return rc;
}
