/* sci_report.c — a torus run and its report (sci_report.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "json_io.h"
#include "lockstep.h"
#include "sci_report.h"

static double since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

/* The faults the run applies (not those a shorter --run left out). */
static unsigned faults_applied(const sci_scn_t *o)
{
    unsigned n = 0;
    for (unsigned k = 0; k < o->nfaults; k++)
        n += !o->faults[k].left_out;
    return n;
}

int sci_report_open(const sci_scn_t *o, prng_t *rng, sci_report_t *t)
{
    sci_sys_cfg_t *cfg = &t->cfg;
    memset(cfg, 0, sizeof *cfg);
    cfg->w = o->w, cfg->h = o->h, cfg->p2s = o->p2s, cfg->models = o->models;
    cfg->mode = o->stat ? SCI_SYS_STATIC : SCI_SYS_DYNAMIC;
    cfg->par = o->par;
    cfg->par.time_scale = o->time_scale;
    cfg->seed = o->seed;
    cfg->wave = o->wave;
    cfg->wave_from = o->wave_from;
    cfg->wave_to = o->wave_to;
    cfg->bin_cycles = o->bin ? o->bin : o->run / 100 ? o->run / 100 : 1;
    cfg->log = o->log ? stderr : NULL;
    cfg->no_skip = o->no_skip;
    cfg->threads = o->threads;
    cfg->ftdrb = o->ftdrb;
    if (o->ft) {
        cfg->ft = SCI_FT_ON;
        if (o->no_selftest)
            cfg->ft &= ~(unsigned)SCI_FT_SELFTEST;
        if (o->no_watchdog)
            cfg->ft &= ~(unsigned)SCI_FT_WATCHDOG;
        if (o->no_recovery)
            cfg->ft &= ~(unsigned)SCI_FT_RECOVER;
        if (o->scrub)
            cfg->ft |= SCI_FT_SCRUB;
        if (o->no_host_state)
            cfg->ft |= SCI_FT_NO_HOST_STATE;
    }
    t->t0 = time(NULL);
    struct timespec ts0;
    clock_gettime(CLOCK_MONOTONIC, &ts0);
    t->s = sci_sys_new(cfg, t->err, sizeof t->err);
    if (!t->s) {
        fprintf(stderr, "ftsim torus: %s\n", t->err);
        return 2;
    }
    t->build_s = since(&ts0);
    t->base = sci_sys_now(t->s);
    int rc = 0;
    for (unsigned k = 0; k < o->nflows && rc == 0; k++) {
        const sci_scn_flow_t *f = &o->flows[k];
        double us = f->every_us > 0 ? f->every_us : o->rate_us;
        uint64_t every = (uint64_t)llround(us * 100.0);
        if (sci_sys_add_flow(t->s, f->name, f->sy * o->w + f->sx, f->dy * o->w + f->dx,
                             f->bytes ? f->bytes : o->bytes, every,
                             t->base + prng_below(rng, (uint32_t)(every ? every : 1)), t->err,
                             sizeof t->err) < 0)
            rc = 2;
    }
    for (unsigned k = 0; k < o->nfaults && rc == 0; k++)
        if (!o->faults[k].left_out && sci_sys_fault(t->s, t->base + o->faults[k].at,
                                                    o->faults[k].what, t->err, sizeof t->err) < 0)
            rc = 2;
    if (rc)
        fprintf(stderr, "ftsim torus: %s\n", t->err);
    return rc;
}

/* The report's figures at the end of the run: every flow's, and which drivers are not done. */
static int torus_snapshot(const sci_scn_t *o, sci_report_t *t)
{
    t->nsnap = sci_sys_nflows(t->s);
    t->snap = calloc(t->nsnap ? t->nsnap : 1, sizeof *t->snap);
    if (!t->snap) {
        snprintf(t->err, sizeof t->err, "out of memory");
        return -1;
    }
    for (unsigned k = 0; k < t->nsnap; k++)
        sci_sys_flow_stats(t->s, k, &t->snap[k]);
    size_t at = 0;
    for (unsigned i = 0; i < o->w * o->h; i++) {
        sci_drv_stats_t d;
        sci_sys_driver_stats(t->s, i, &d);
        if (d.state == SCI_DRV_IDLE || d.state == SCI_DRV_DEAD)
            continue;
        if (t->busy++ < 8 && at < sizeof t->busy_at)
            at += (size_t)snprintf(t->busy_at + at, sizeof t->busy_at - at, "%s(%u,%u)",
                                   at ? " " : "", i % o->w, i / o->w);
        else if (t->busy == 9 && at < sizeof t->busy_at)
            at += (size_t)snprintf(t->busy_at + at, sizeof t->busy_at - at, " ...");
    }
    if (!t->busy && sci_sys_busy(t->s)) { /* the static front end, or a driver's last write */
        t->busy = 1;
        snprintf(t->busy_at, sizeof t->busy_at, "%s", o->stat ? "the front end" : "a driver");
    }
    return 0;
}

int sci_report_run(const sci_scn_t *o, sci_report_t *t)
{
    if (!o->json) {
        printf("torus %ux%u %s%s, %s, %u flows, %u faults, run %.3f ms (seed %llu, time scale "
               "%g)\n",
               o->w, o->h, o->p2s ? "P2S" : "LC3", o->stat ? " (static reconfiguration)" : "",
               o->models == LS_BOTH  ? "rtl+csim lockstep"
               : o->models == LS_RTL ? "rtl"
                                     : "csim",
               o->nflows, faults_applied(o), (double)o->run / 1e5, (unsigned long long)o->seed,
               o->time_scale);
        for (unsigned k = 0; k < o->nfaults; k++)
            printf("  fault at %.3f ms: %s%s\n", (double)o->faults[k].at / 1e5, o->faults[k].what,
                   o->faults[k].left_out ? " (the scenario's, after --run: left out)" : "");
        fflush(stdout);
    }
    struct timespec ts0;
    clock_gettime(CLOCK_MONOTONIC, &ts0);
    int rc = 0;
    uint64_t end = t->base + o->run, step = o->run / 20 ? o->run / 20 : 1;
    int quiet = !isatty(2) || o->log;
    for (uint64_t now = t->base; now < end && rc == 0;) {
        now = now + step < end ? now + step : end;
        if (sci_sys_run(t->s, now, t->err, sizeof t->err) < 0)
            rc = 1;
        if (!quiet) {
            fprintf(stderr, "\rrunning: %3.0f%%", 100.0 * (double)(now - t->base) / (double)o->run);
            fflush(stderr);
        }
    }
    t->run_cycles = sci_sys_now(t->s) - t->base;
    t->run_s = since(&ts0);
    if (!quiet)
        fprintf(stderr, "\r%20s\r", "");
    sci_sys_close_gaps(t->s);
    if (torus_snapshot(o, t) < 0)
        return 1;
    if (rc == 0) {
        sci_sys_note(t->s, "end of the run: the flows stop, what they have outstanding drains");
        uint64_t t0 = sci_sys_now(t->s), before = 0, after = 0;
        for (unsigned k = 0; k < t->nsnap; k++)
            before += t->snap[k].delivered;
        sci_sys_stop_flows(t->s);
        uint64_t drain = sci_sys_ms(&t->cfg.par, 3000.0) + 2000000u;
        t->settled = sci_sys_settle(t->s, sci_sys_now(t->s) + drain, t->err, sizeof t->err);
        if (t->settled < 0)
            rc = 1;
        t->drain_cycles = sci_sys_now(t->s) - t0;
        for (unsigned k = 0; k < t->nsnap; k++) {
            sci_flow_stats_t st;
            sci_sys_flow_stats(t->s, k, &st);
            after += st.delivered;
        }
        t->drained = after - before;
    }
    return rc;
}

/* --series: every flow's deliveries and MB/s per bin, as CSV. 0, or 2. */
static int torus_series(const sci_scn_t *o, const sci_report_t *t)
{
    unsigned nf = sci_sys_nflows(t->s);
    FILE *cf = fopen(o->series, "w");
    if (!cf) {
        fprintf(stderr, "ftsim torus: --series %s: cannot write\n", o->series);
        return 2;
    }
    fprintf(cf, "time_ms");
    for (unsigned k = 0; k < nf; k++) {
        sci_flow_stats_t st;
        sci_sys_flow_stats(t->s, k, &st);
        fprintf(cf, ",%s_msgs,%s_mbs", st.name, st.name);
    }
    fputc('\n', cf);
    unsigned b0 = (unsigned)(t->base / o->bin), b1 = (unsigned)((t->base + o->run) / o->bin);
    for (unsigned b = b0; b < b1; b++) {
        fprintf(cf, "%.4f", ((double)b * (double)o->bin - (double)t->base) / 1e5);
        for (unsigned k = 0; k < nf; k++) {
            uint32_t m = sci_sys_flow_bin(t->s, k, b);
            unsigned by = o->flows[k].bytes ? o->flows[k].bytes : o->bytes;
            fprintf(cf, ",%u,%.4f", m, (double)m * by / ((double)o->bin / 1e8) / 1e6);
        }
        fputc('\n', cf);
    }
    fclose(cf);
    if (!o->json)
        printf("per-flow time series (%.3f ms bins): %s\n", (double)o->bin / 1e5, o->series);
    return 0;
}

typedef struct ttotal {
    uint64_t delivered, bytes, outstanding;
    double lat;
} ttotal_t;

static const char *model_name(unsigned models)
{
    return models == LS_BOTH ? "rtl+csim lockstep" : models == LS_RTL ? "rtl" : "csim";
}

/* Per flow, as at the end of the run: offered, sent, delivered, held, retransmissions,
 * FAIL_REPORTs, the longest gap seen from the source, latency, MB/s (a table, or the flows of
 * the JSON object doc). */
static void torus_flows(const sci_scn_t *o, const sci_report_t *t, ttotal_t *tot, json_object *doc)
{
    unsigned nf = t->nsnap;
    json_object *flows = NULL;
    if (!o->json)
        printf("%-22s %8s %8s %9s %6s %8s %6s %9s %8s %8s\n", "flow", "offered", "sent",
               "delivered", "held", "retrans", "fails", "gap ms", "lat us", "MB/s");
    else {
        char torus[24];
        snprintf(torus, sizeof torus, "%ux%u", o->w, o->h);
        json_io_add(doc, "torus", json_io_str(torus));
        json_io_add(doc, "p2s", json_io_i64(o->p2s));
        json_io_add(doc, "static", json_io_i64(o->stat));
        json_io_add(doc, "model", json_io_str(model_name(o->models)));
        json_io_add(doc, "seed", json_io_u64(o->seed));
        json_io_add(doc, "time_scale", json_io_g(o->time_scale));
        json_io_add(doc, "run_ms", json_io_fixed((double)o->run / 1e5, 3));
        for (int out = 0; out < 2; out++) {
            json_object *a = json_object_new_array();
            for (unsigned k = 0; k < o->nfaults; k++) {
                if (o->faults[k].left_out != out)
                    continue;
                json_object *f = json_object_new_object();
                json_io_add(f, "at_ms", json_io_fixed((double)o->faults[k].at / 1e5, 3));
                json_io_add(f, "what", json_io_str(o->faults[k].what));
                json_object_array_add(a, f);
            }
            json_io_add(doc, out ? "faults_left_out" : "faults", a);
        }
        json_io_add(doc, "flows", flows = json_object_new_array());
    }
    for (unsigned k = 0; k < nf; k++) {
        const sci_flow_stats_t *st = &t->snap[k];
        tot->delivered += st->delivered;
        tot->bytes += st->bytes;
        tot->lat += st->lat_sum;
        double mbs = t->run_cycles ? (double)st->bytes / ((double)t->run_cycles / 1e8) / 1e6 : 0;
        double lus = st->delivered ? st->lat_sum / (double)st->delivered / 100.0 : 0;
        double gap = (double)st->wait_max / 1e5;
        if (o->json) {
            char src[24], dst[24];
            snprintf(src, sizeof src, "%u,%u", st->src % o->w, st->src / o->w);
            snprintf(dst, sizeof dst, "%u,%u", st->dst % o->w, st->dst / o->w);
            json_object *f = json_object_new_object();
            json_io_add(f, "name", json_io_str(st->name));
            json_io_add(f, "src", json_io_str(src));
            json_io_add(f, "dst", json_io_str(dst));
            json_io_add(f, "offered", json_io_u64(st->offered));
            json_io_add(f, "sent", json_io_u64(st->first_sent));
            json_io_add(f, "delivered", json_io_u64(st->delivered));
            json_io_add(f, "held", json_io_u64(st->held));
            json_io_add(f, "acked", json_io_u64(st->acked));
            json_io_add(f, "retransmitted", json_io_u64(st->retx));
            json_io_add(f, "fail_reports", json_io_u64(st->fail_reports));
            json_io_add(f, "max_gap_ms", json_io_fixed(gap, 4));
            json_io_add(
                f, "max_gap_end_ms",
                json_io_fixed(st->wait_max ? (double)(st->wait_max_at - t->base) / 1e5 : 0.0, 4));
            json_io_add(f, "latency_us", json_io_fixed(lus, 3));
            json_io_add(f, "mbs", json_io_fixed(mbs, 3));
            json_object_array_add(flows, f);
        } else if (nf <= 64 || k < 16)
            printf("%-22s %8llu %8llu %9llu %6llu %8llu %6llu %9.3f %8.2f %8.3f\n", st->name,
                   (unsigned long long)st->offered, (unsigned long long)st->first_sent,
                   (unsigned long long)st->delivered, (unsigned long long)st->held,
                   (unsigned long long)st->retx, (unsigned long long)st->fail_reports, gap, lus,
                   mbs);
        else if (k == 16)
            printf("  ... %u more flows (--json lists them all)\n", nf - 16);
    }
}

/* The warning that the run ended before the drivers were done: into buf ("" when they were). */
static void busy_warning(const sci_scn_t *o, const sci_report_t *t, char *buf, size_t len)
{
    *buf = 0;
    if (!t->busy)
        return;
    snprintf(buf, len,
             "the run ended at %.3f ms with %u %s still reconfiguring (%s): the figures are from "
             "before the recovery; a longer --run shows it",
             (double)o->run / 1e5, t->busy,
             o->stat        ? "front end"
             : t->busy == 1 ? "driver"
                            : "drivers",
             t->busy_at);
}

/* The report: flows, series, totals with the drivers' passes, the warning, the drain, the
 * speed, the verdict. Returns the exit status. */
int sci_report_print(const sci_scn_t *o, const sci_report_t *t, int rc)
{
    ttotal_t tot = {0};
    json_object *doc = o->json ? json_object_new_object() : NULL;
    torus_flows(o, t, &tot, doc);
    int series_rc = o->series ? torus_series(o, t) : 0;
    unsigned passes = 0, extra = 0, restores = 0;
    for (unsigned i = 0; i < o->w * o->h; i++) {
        sci_drv_stats_t d;
        sci_sys_driver_stats(t->s, i, &d);
        passes += d.rtg_passes, extra += d.extra_passes, restores += d.watchdog_restores;
    }
    uint64_t gen = 0, dl = 0;
    for (unsigned k = 0; k < t->nsnap; k++) { /* what the drain left: the verdict's */
        sci_flow_stats_t st;
        sci_sys_flow_stats(t->s, k, &st);
        tot.outstanding += st.outstanding;
        gen += st.generated, dl += st.delivered;
    }
    sci_ft_stats_t ft;
    sci_sys_ft_stats(t->s, &ft);
    /* with detection and recovery: every message generated delivered once (the no-host-state
     * ablation loses and duplicates some: counted here) */
    uint64_t lost =
        o->ft && t->settled == 1 && gen + ft.dup_delivered > dl ? gen + ft.dup_delivered - dl : 0;
    double cps = t->run_s > 0 ? (double)t->run_cycles / t->run_s : 0;
    char thr[24] = "", warn[400], why[700] = "";
    if (o->threads > 1)
        snprintf(thr, sizeof thr, ", %u threads", o->threads);
    double mbs = t->run_cycles ? (double)tot.bytes / ((double)t->run_cycles / 1e8) / 1e6 : 0;
    double lat = tot.delivered ? tot.lat / (double)tot.delivered / 100.0 : 0;
    double stop_ms = (double)o->run / 1e5, drain_ms = (double)t->drain_cycles / 1e5;
    busy_warning(o, t, warn, sizeof warn);
    if (rc)
        snprintf(why, sizeof why, "%s", t->err);
    else if (t->settled != 1) {
        snprintf(why, sizeof why,
                 "%llu messages of live pairs still unacknowledged %.3f ms after the flows stopped",
                 (unsigned long long)tot.outstanding, drain_ms);
        rc = 1;
    } else if (o->ft && (lost || ft.dup_delivered)) {
        snprintf(why, sizeof why,
                 "%llu messages lost and %llu delivered twice across the recovery (the hosts "
                 "kept no protocol state)",
                 (unsigned long long)lost, (unsigned long long)ft.dup_delivered);
        rc = 1;
    } else if (series_rc) {
        snprintf(why, sizeof why, "--series %s: cannot write", o->series);
        rc = series_rc;
    }
    if (o->json) {
        json_io_add(doc, "delivered", json_io_u64(tot.delivered));
        json_io_add(doc, "mbs", json_io_fixed(mbs, 3));
        json_io_add(doc, "latency_us", json_io_fixed(lat, 3));
        json_io_add(doc, "readytogo_passes", json_io_u64(passes));
        json_io_add(doc, "extra_passes", json_io_u64(extra));
        json_io_add(doc, "watchdog_restores", json_io_u64(restores));
        json_io_add(doc, "busy_at_end", json_io_u64(t->busy));
        json_object *warnings = json_object_new_array();
        if (*warn)
            json_object_array_add(warnings, json_io_str(warn));
        json_io_add(doc, "warnings", warnings);
        if (o->ft) {
            static const char *const dn[5] = {"", "watchdog", "selftest", "protocol", "scrub"};
            json_object *jf = json_object_new_object(), *phases = json_object_new_object();
            for (unsigned k = 1; k < 5; k++) {
                char key[40];
                snprintf(key, sizeof key, "%s_first_ms", dn[k]);
                json_io_add(
                    jf, key,
                    json_io_fixed(ft.first[k] ? (double)(ft.first[k] - t->base) / 1e5 : -1.0, 4));
                snprintf(key, sizeof key, "%s_count", dn[k]);
                json_io_add(jf, key, json_io_u64(ft.count[k]));
            }
            /* the first recovery's phases (FTGM (Zhou et al.), Figure 10), ms from the run's
             * start */
            const uint64_t ph[5] = {ft.ph_req, ft.ph_disabled, ft.ph_reset, ft.ph_reloaded,
                                    ft.ph_released};
            static const char *const pn[5] = {"requested", "disabled", "reset", "reloaded",
                                              "released"};
            for (unsigned k = 0; k < 5; k++)
                json_io_add(phases, pn[k],
                            json_io_fixed(ph[k] ? (double)(ph[k] - t->base) / 1e5 : -1.0, 4));
            json_io_add(jf, "phases_ms", phases);
            json_io_add(jf, "selftest_symbols", json_io_u64(ft.st_symbols));
            json_io_add(jf, "recoveries", json_io_u64(ft.recoveries));
            json_io_add(jf, "recovery_ms",
                        json_io_fixed(ft.rec_end > ft.rec_start
                                          ? (double)(ft.rec_end - ft.rec_start) / 1e5
                                          : 0.0,
                                      4));
            json_io_add(jf, "misrouted", json_io_u64(ft.misrouted));
            json_io_add(jf, "corrupted", json_io_u64(ft.corrupted));
            json_io_add(jf, "crc_at_host", json_io_u64(ft.crc_host));
            json_io_add(jf, "selftest_reads", json_io_u64(ft.st_tests));
            json_io_add(jf, "selftest_failed", json_io_u64(ft.st_fails));
            json_io_add(jf, "lost", json_io_u64(lost));
            json_io_add(jf, "delivered_twice", json_io_u64(ft.dup_delivered));
            json_io_add(jf, "unacknowledged", json_io_u64(tot.outstanding));
            json_io_add(doc, "ft", jf);
        }
        json_io_add(doc, "drain_ms", json_io_fixed(drain_ms, 3));
        json_io_add(doc, "drain_delivered", json_io_u64(t->drained));
        json_io_add(doc, "cycles", json_io_u64(t->run_cycles));
        json_io_add(doc, "cycles_per_s", json_io_fixed(cps, 0));
        json_io_add(doc, "build_s", json_io_fixed(t->build_s, 2));
        json_io_add(doc, "pass", json_io_bool(rc == 0));
        if (*why)
            json_io_add(doc, "error", json_io_str(why));
        json_io_write(stdout, doc);
        json_object_put(doc);
        if (*warn)
            fprintf(stderr, "ftsim torus: warning: %s\n", warn);
        if (*why)
            fprintf(stderr, "FAIL torus: %s\n", why);
        return rc;
    }
    printf("total: %llu messages delivered, %.1f MB/s, mean latency %.2f us; driver passes %u "
           "(extra %u, watchdog restores %u)\n",
           (unsigned long long)tot.delivered, mbs, lat, passes, extra, restores);
    if (*warn)
        printf("warning: %s\n", warn);
    if (o->ft) {
        static const char *const dn[5] = {"", "watchdog", "self-test", "protocol", "scrub"};
        printf("detection:");
        for (unsigned k = 1; k < 5; k++)
            if (ft.first[k])
                printf(" %s first at %.4f ms (%llu);", dn[k], (double)(ft.first[k] - t->base) / 1e5,
                       (unsigned long long)ft.count[k]);
        printf(" self-test %llu reads, %llu failed\n", (unsigned long long)ft.st_tests,
               (unsigned long long)ft.st_fails);
        printf("recovery: %llu nodes recovered", (unsigned long long)ft.recoveries);
        if (ft.recoveries)
            printf(", from the first request to the last release %.4f ms",
                   (double)(ft.rec_end - ft.rec_start) / 1e5);
        printf("; packets an upset sent astray %llu, corrupted %llu, bad CRC at a host %llu; "
               "messages lost %llu, delivered twice %llu\n",
               (unsigned long long)ft.misrouted, (unsigned long long)ft.corrupted,
               (unsigned long long)ft.crc_host, (unsigned long long)lost,
               (unsigned long long)ft.dup_delivered);
    }
    if (o->ftdrb) {
        sci_ftdrb_stats_t fd;
        sci_sys_ftdrb_stats(t->s, &fd);
        printf("FT-DRB: %llu notifications sent (%llu received), %llu messages sent through "
               "intermediates, %llu relayed, %llu relay drops, %llu trials, %llu selections "
               "with no usable path; fault tables: %llu entries (%llu permanent)\n",
               (unsigned long long)fd.notes_sent, (unsigned long long)fd.notes_got,
               (unsigned long long)fd.msp_sent, (unsigned long long)fd.relayed,
               (unsigned long long)fd.relay_drops, (unsigned long long)fd.trials,
               (unsigned long long)fd.no_path, (unsigned long long)fd.entries,
               (unsigned long long)fd.permanent);
        printf("FT-DRB metapaths: %llu members added, %llu dropped; %llu messages held for "
               "order; relays: %llu refused busy (%llu busy answers received), at most %llu "
               "packets in a relay buffer, %llu ACKs and NOTEs superseded there\n",
               (unsigned long long)fd.mp_added, (unsigned long long)fd.mp_dropped,
               (unsigned long long)fd.held, (unsigned long long)fd.relay_busy,
               (unsigned long long)fd.busy_got, (unsigned long long)fd.relay_max,
               (unsigned long long)fd.superseded);
    }
    if (t->settled == 1)
        printf("drain: the flows stopped at %.3f ms; %llu more messages delivered, and at %.3f ms "
               "the drivers were idle and every message of a live pair acknowledged\n",
               stop_ms, (unsigned long long)t->drained, stop_ms + drain_ms);
    printf("speed: %llu cycles in %.2f s = %.0f simulated cycles/s (%s%s; building the torus took "
           "%.2f s; wall %lld s)\n",
           (unsigned long long)t->run_cycles, t->run_s, cps,
           o->models == LS_BOTH  ? "lockstep"
           : o->models == LS_RTL ? "rtl"
                                 : "csim",
           thr, t->build_s, (long long)(time(NULL) - t->t0));
    if (*why)
        printf("FAIL torus: %s\n", why);
    else
        printf("PASS torus: every message of a live pair delivered once, in order, and "
               "acknowledged\n");
    return rc;
}

void sci_report_free(sci_report_t *t)
{
    if (t->s)
        sci_sys_free(t->s);
    free(t->snap);
    t->s = NULL, t->snap = NULL;
}
