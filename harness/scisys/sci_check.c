/*
 * sci_check.c — `ftsim faultcheck`: every single fault (each X ring, each Y ring, each node) on
 * a running W x H torus (harness/scisys/sci_sys.c: the device, the host agents, the drivers or the
 * P2S hardware failover), with the timers scaled down, and for each the checks of the torus
 * issue (harness/scisys/sci_sys.md section 5):
 *   1. after reconfiguration every ordered pair of live nodes delivers (all-pairs flows);
 *   2. once reconfiguration is done no packet is scrubbed, no message needs a retransmission
 *      or gets a FAIL_REPORT, and at the end every message of a live pair is delivered once,
 *      in order, and acknowledged (the ledger of sci_sys.c checks order and content);
 *   3. the tables read back from the hardware (plus, on P2S, the failover state it shows)
 *      differ from the fault-free ones at exactly the nodes sci.md section 3 names; flows whose
 *      fault-free route uses no failed ring see no gap longer than their fault-free jitter;
 *   4. the queue dependency graph of those tables is acyclic, except where harness/sci/sci_route.md
 *      section 5 proves a cycle is there (an X ring with 3 or more rows; a dead node with 3 or
 *      more rows and columns): those are reported as the known contradiction of sci.md, with the
 *      cycle printed; and the checker is shown to catch a deliberately bad table (every source
 *      flipping to Y-first for a failed column).
 * Double faults: --double runs every pair of single faults and reports which survive.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lockstep.h"
#include "prng.h"
#include "sci_check.h"
#include "sci_route.h"
#include "sci_sys.h"

typedef struct fspec { int kind; unsigned a, b; } fspec_t; /* 0 xring a, 1 yring a, 2 node a,b */

typedef sci_check_opts_t copts_t; /* the short name this file uses */

static void fname(const fspec_t *f, char *b, size_t n)
{
    if (f->kind == 0)
        snprintf(b, n, "xring:%u", f->a);
    else if (f->kind == 1)
        snprintf(b, n, "yring:%u", f->a);
    else
        snprintf(b, n, "node:%u,%u", f->a, f->b);
}

/* The device controls that make fault f: the cable of one LC of the ring (a ring is down as a
 * whole once one of its cables is out), or the node's power. */
static void fcontrol(const fspec_t *f, char *b, size_t n)
{
    if (f->kind == 0)
        snprintf(b, n, "cut x 0,%u", f->a);
    else if (f->kind == 1)
        snprintf(b, n, "cut y %u,0", f->a);
    else
        snprintf(b, n, "off %u,%u", f->a, f->b);
}

static void fapply(const fspec_t *f, unsigned w, sci_faults_t *sf)
{
    if (f->kind == 0)
        sf->xring[f->a] = 1;
    else if (f->kind == 1)
        sf->yring[f->a] = 1;
    else
        sf->dead[f->b * w + f->a] = 1;
}

/* Does the fault-free (X-first) route from s to d use a ring that is down, or a dead node? */
static int route_hit(unsigned w, unsigned h, const sci_faults_t *f, unsigned s, unsigned d)
{
    unsigned sx = s % w, sy = s / w, dx = d % w, dy = d / w;
    (void)h;
    if (f->dead[s] || f->dead[d])
        return 1;
    for (unsigned x = 0; x < w; x++) /* a dead node takes its rings down */
        for (unsigned y = 0; y < h; y++)
            if (f->dead[y * w + x] && ((sx != dx && y == sy) || (dy != sy && x == dx)))
                return 1;
    return (sx != dx && f->xring[sy]) || (sy != dy && f->yring[dx]);
}

typedef struct cres {
    int ok;
    char why[700];
    unsigned pairs, pairs_ok, changed, expected, affected;
    double worst_ratio;        /* unaffected flows: max gap after / allowed */
    uint64_t worst_gap, worst_ff;
    int cyclic, cycle_known;
    uint64_t scrub_known;      /* scrubbed after reconfiguration: driver reads of a dead node */
    char cycle[600];
} cres_t;

static int known_cycle(const copts_t *o, const fspec_t *f)
{
    return (f->kind == 0 && o->h >= 3) || (f->kind == 2 && o->w >= 3 && o->h >= 3);
}

static int one_case(const copts_t *o, const fspec_t *faults, unsigned nf, cres_t *r)
{
    memset(r, 0, sizeof *r);
    r->ok = 1;
    char err[600];
    sci_sys_cfg_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.w = o->w;
    cfg.h = o->h;
    cfg.p2s = o->p2s;
    cfg.models = o->models;
    sci_sys_params_default(&cfg.par);
    cfg.par.time_scale = o->scale;
    cfg.seed = o->seed;
    cfg.log = o->verbose > 1 ? stderr : NULL;
    sci_sys_t *s = sci_sys_new(&cfg, err, sizeof err);
    if (!s) {
        snprintf(r->why, sizeof r->why, "%s", err);
        return -1;
    }
    unsigned n = o->w * o->h;
    sci_faults_t sf;
    memset(&sf, 0, sizeof sf);
    for (unsigned k = 0; k < nf; k++)
        fapply(&faults[k], o->w, &sf);
    prng_t rng;
    prng_seed(&rng, o->seed ^ 0xc0ffeeULL);
    uint64_t P = o->period;
    int rc = -1;
    for (unsigned a = 0; a < n; a++)
        for (unsigned b = 0; b < n; b++) {
            if (a == b)
                continue;
            char nm[48];
            snprintf(nm, sizeof nm, "%u,%u->%u,%u", a % o->w, a / o->w, b % o->w, b / o->w);
            if (sci_sys_add_flow(s, nm, a, b, 64, P, sci_sys_now(s) + prng_below(&rng, (uint32_t)P),
                                 err, sizeof err) < 0)
                goto fail;
        }
    unsigned nfl = sci_sys_nflows(s);
    uint64_t *ff = calloc(nfl, sizeof *ff), *dl0 = calloc(nfl, sizeof *dl0),
             *rx0 = calloc(nfl, sizeof *rx0);
    if (!ff || !dl0 || !rx0) {
        free(ff), free(dl0), free(rx0);
        snprintf(err, sizeof err, "out of memory");
        goto fail;
    }
    /* fault-free: warm up, then the jitter of every flow */
    if (sci_sys_run(s, sci_sys_now(s) + 3 * P, err, sizeof err) < 0)
        goto fail2;
    sci_sys_reset_gaps(s);
    if (sci_sys_run(s, sci_sys_now(s) + 6 * P, err, sizeof err) < 0)
        goto fail2;
    for (unsigned k = 0; k < nfl; k++) {
        sci_flow_stats_t st;
        sci_sys_flow_stats(s, k, &st);
        ff[k] = st.max_gap;
    }
    sci_sys_reset_gaps(s);
    uint64_t tf = sci_sys_now(s) + 1;
    for (unsigned k = 0; k < nf; k++) {
        char ctl[40];
        fcontrol(&faults[k], ctl, sizeof ctl);
        if (sci_sys_fault(s, tf, ctl, err, sizeof err) < 0)
            goto fail2;
    }
    /* past the ring-down bound (sci_lc.md section 3) before asking whether the drivers rest */
    if (sci_sys_run(s, tf + 2000, err, sizeof err) < 0)
        goto fail2;
    /* reconfiguration: until every driver is idle again */
    uint64_t limit = tf + 400 * P;
    while (sci_sys_busy(s) && sci_sys_now(s) < limit)
        if (sci_sys_run(s, sci_sys_now(s) + P / 4, err, sizeof err) < 0)
            goto fail2;
    if (sci_sys_busy(s)) {
        snprintf(err, sizeof err, "the drivers were still busy %llu cycles after the fault",
                 (unsigned long long)(limit - tf));
        goto fail2;
    }
    /* gaps of the flows the fault does not touch, to the end of reconfiguration; then what
     * the drivers held goes, and reconfiguration is done */
    sci_sys_close_gaps(s);
    uint64_t *gap = calloc(nfl, sizeof *gap);
    if (!gap) {
        snprintf(err, sizeof err, "out of memory");
        goto fail2;
    }
    for (unsigned k = 0; k < nfl; k++) {
        sci_flow_stats_t st;
        sci_sys_flow_stats(s, k, &st);
        gap[k] = st.max_gap;
    }
    /* status reads that time out from here on (any read whose scrubs could fall in the
     * window below was sent after this: the window starts more than a remote-read timeout
     * later) */
    uint64_t tmo0 = 0;
    for (unsigned i = 0; i < n; i++) {
        sci_drv_stats_t d;
        sci_sys_driver_stats(s, i, &d);
        tmo0 += d.read_timeouts;
    }
    /* traffic to a dead node has done its part (load during the fault): it stops */
    for (unsigned k = 0; k < nfl; k++) {
        sci_flow_stats_t st;
        sci_sys_flow_stats(s, k, &st);
        if (sf.dead[st.dst])
            sci_sys_abandon_flow(s, k);
    }
    /* the LCs may still retry what they hold for it: (retry limit + 1) echo timeouts for each
     * of the 12 buffers of an LC, 4 at a time */
    uint64_t drain = 3u * (cfg.par.retry_limit + 1u) * cfg.par.echo_timeout;
    if (sci_sys_run(s, sci_sys_now(s) + 2 * P + drain, err, sizeof err) < 0) {
        free(gap);
        goto fail2;
    }
    uint64_t scrub0 = sci_sys_scrubbed(s), tmo1 = 0;
    for (unsigned k = 0; k < nfl; k++) {
        sci_flow_stats_t st;
        sci_sys_flow_stats(s, k, &st);
        dl0[k] = st.delivered;
        rx0[k] = st.tmo_rounds;
        if (route_hit(o->w, o->h, &sf, st.src, st.dst)) {
            r->affected++;
            continue;
        }
        /* an interruption, not a delay: the fault-free longest gap plus 3/4 of a period of
         * latency variation (detoured and released traffic shares the links); a flow held
         * through a driver pass (CableNotOk + ReadyToGo, >= 5000 cycles at the default
         * scale) is above it */
        uint64_t allowed = (ff[k] > P ? ff[k] : P) + 3 * P / 4;
        double ratio = (double)gap[k] / (double)allowed;
        if (ratio > r->worst_ratio) {
            r->worst_ratio = ratio;
            r->worst_gap = gap[k];
            r->worst_ff = ff[k];
        }
        if (gap[k] > allowed && r->ok) {
            r->ok = 0;
            snprintf(r->why, sizeof r->why, "unaffected flow %s: gap of %llu cycles around the "
                     "fault, fault-free %llu (allowed %llu)", st.name,
                     (unsigned long long)gap[k], (unsigned long long)ff[k],
                     (unsigned long long)allowed);
        }
    }
    free(gap);
    /* after reconfiguration: all pairs, no scrub, no retransmission */
    if (sci_sys_run(s, sci_sys_now(s) + 5 * P, err, sizeof err) < 0)
        goto fail2;

    for (unsigned k = 0; k < nfl; k++) {
        sci_flow_stats_t st;
        sci_sys_flow_stats(s, k, &st);
        if (sf.dead[st.src] || sf.dead[st.dst])
            continue;
        r->pairs++;
        if (st.delivered > dl0[k])
            r->pairs_ok++;
        else if (r->ok) {
            r->ok = 0;
            snprintf(r->why, sizeof r->why, "after reconfiguration flow %s delivered nothing",
                     st.name);
        }
        if (st.tmo_rounds > rx0[k] && r->ok) {
            r->ok = 0;
            snprintf(r->why, sizeof r->why, "after reconfiguration flow %s lost packets its "
                     "source learnt of only by its timeout (%llu rounds)", st.name,
                     (unsigned long long)(st.tmo_rounds - rx0[k]));
        }
    }
    sci_sys_stop_flows(s);
    int settled = sci_sys_settle(s, sci_sys_now(s) + 200 * P, err, sizeof err);
    if (settled < 0)
        goto fail2;
    if (!settled && r->ok) {
        r->ok = 0;
        snprintf(r->why, sizeof r->why, "messages of live pairs never acknowledged (lost)");
    }
    /* a driver's status read of a dead node (its watchdog re-checking a remote fault) is
     * scrubbed, once per LC attempt, and its driver knows: the read times out (counted once
     * every driver is idle, so each read sent has its answer) */
    uint64_t scrub1 = sci_sys_scrubbed(s);
    for (unsigned i = 0; i < n; i++) {
        sci_drv_stats_t d;
        sci_sys_driver_stats(s, i, &d);
        tmo1 += d.read_timeouts;
    }
    uint64_t scrub_known = (tmo1 - tmo0) * (cfg.par.retry_limit + 1u);
    r->scrub_known = scrub1 - scrub0;
    if (scrub1 - scrub0 > scrub_known && r->ok) {
        r->ok = 0;
        snprintf(r->why, sizeof r->why, "after reconfiguration %llu packets were scrubbed (%llu "
                 "of them a driver's timed-out status reads of a dead node)",
                 (unsigned long long)(scrub1 - scrub0), (unsigned long long)scrub_known);
    }
    /* the tables in force */
    sci_tables_t tb, ref;
    if (sci_sys_read_tables(s, &tb, err, sizeof err) < 0)
        goto fail2;
    sci_torus_t t = {o->w, o->h, o->p2s ? SCI_VAR_P2S : SCI_VAR_LC3, SCI_POLICY_SPEC};
    if (sci_route_tables(&t, NULL, &ref, err, sizeof err) < 0) {
        sci_route_free(&tb);
        goto fail2;
    }
    uint8_t *ch = calloc(n, 1), *ex = calloc(n, 1);
    if (ch && ex) {
        sci_route_diff(&ref, &tb, ch);
        r->expected = sci_route_expected_changes(&t, &sf, ex);
        for (unsigned i = 0; i < n; i++) {
            ch[i] = ch[i] && !sf.dead[i]; /* a dead node's tables are not read */
            r->changed += ch[i];
        }
        for (unsigned i = 0; i < n && r->ok; i++)
            if (ch[i] != ex[i]) {
                r->ok = 0;
                snprintf(r->why, sizeof r->why, "node (%u,%u) %s its tables, sci.md section 3 "
                         "says it %s", i % o->w, i / o->w, ch[i] ? "changed" : "kept",
                         ex[i] ? "changes" : "keeps");
            }
    }
    free(ch), free(ex);
    memcpy(tb.f.dead, sf.dead, sizeof sf.dead);
    sci_check_t c;
    sci_route_check(&tb, -1, &c);
    if (c.reached < c.pairs && r->ok) {
        r->ok = 0;
        snprintf(r->why, sizeof r->why, "the tables read back do not reach every pair (%u of %u)",
                 c.reached, c.pairs);
    }
    r->cyclic = c.cyclic;
    r->cycle_known = nf == 1 && known_cycle(o, &faults[0]);
    if (c.cyclic) {
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        if (m) {
            sci_route_print_cycle(&tb, &c, m);
            fclose(m);
            snprintf(r->cycle, sizeof r->cycle, "%s", buf ? buf : "");
            free(buf);
        }
        if (!r->cycle_known && r->ok && nf == 1) {
            r->ok = 0;
            snprintf(r->why, sizeof r->why, "the queue dependency graph has a cycle");
        }
    } else if (r->cycle_known && r->ok) {
        r->ok = 0;
        snprintf(r->why, sizeof r->why, "no cycle where sci_route.md section 5 proves one");
    }
    sci_route_free(&tb);
    sci_route_free(&ref);
    rc = 0;
fail2:
    free(ff), free(dl0), free(rx0);
fail:
    if (rc < 0)
        snprintf(r->why, sizeof r->why, "%s", err);
    sci_sys_free(s);
    return rc;
}

/* The checker catching a bad table: the tables of a Y-ring fault, with every source flipped to
 * Y-first for the failed column (sci.md section 4's warning). */
static int bad_flip_demo(const copts_t *o)
{
    sci_torus_t t = {o->w, o->h, o->p2s ? SCI_VAR_P2S : SCI_VAR_LC3, SCI_POLICY_SPEC};
    sci_faults_t f;
    memset(&f, 0, sizeof f);
    f.yring[0] = 1;
    f.bad_flip = 1;
    sci_tables_t tb;
    char err[200];
    if (sci_route_tables(&t, &f, &tb, err, sizeof err) < 0)
        return -1;
    sci_check_t c;
    sci_route_check(&tb, -1, &c);
    int want = o->w >= 3;
    printf("deliberately bad tables (yring:0, every source Y-first for column 0): %s%s\n",
           c.cyclic ? "the checker finds a cycle:" : "acyclic",
           want ? "" : " (as sci_route.md section 5 says: cycles need 3 columns)");
    if (c.cyclic)
        sci_route_print_cycle(&tb, &c, stdout);
    sci_route_free(&tb);
    return c.cyclic == want ? 0 : 1;
}

static int parse_fault(const char *s, unsigned w, unsigned h, fspec_t *f)
{
    unsigned a, b;
    char c;
    if (sscanf(s, "xring:%u%c", &a, &c) == 1 && a < h)
        return f->kind = 0, f->a = a, 0;
    if (sscanf(s, "yring:%u%c", &a, &c) == 1 && a < w)
        return f->kind = 1, f->a = a, 0;
    if (sscanf(s, "node:%u,%u%c", &a, &b, &c) == 2 && a < w && b < h)
        return f->kind = 2, f->a = a, f->b = b, 0;
    return -1;
}

void sci_check_defaults(sci_check_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->models = LS_CSIM;
    o->scale = 5000;
    o->seed = 1;
    o->period = 4000;
}

int sci_check_run(const sci_check_opts_t *opts, char *err, size_t errlen)
{
    const copts_t o = *opts;
    fspec_t all[3 * 32 + 32 * 32];
    unsigned nall = 0;
    if (o.fault) {
        if (parse_fault(o.fault, o.w, o.h, &all[0]) < 0) {
            snprintf(err, errlen, "--fault %s: xring:R (R < %u), yring:C (C < %u) or node:X,Y",
                     o.fault, o.h, o.w);
            return -1;
        }
        nall = 1;
    } else {
        for (unsigned r = 0; r < o.h; r++)
            all[nall++] = (fspec_t){0, r, 0};
        for (unsigned c = 0; c < o.w; c++)
            all[nall++] = (fspec_t){1, c, 0};
        for (unsigned y = 0; y < o.h; y++)
            for (unsigned x = 0; x < o.w; x++)
                all[nall++] = (fspec_t){2, x, y};
    }
    printf("faultcheck %ux%u %s, %s, time scale %g, all-pairs traffic every %llu cycles, seed %llu\n",
           o.w, o.h, o.p2s ? "P2S" : "LC3", o.models == LS_BOTH ? "rtl+csim lockstep"
                                              : o.models == LS_RTL ? "rtl" : "csim",
           o.scale, (unsigned long long)o.period, (unsigned long long)o.seed);
    unsigned pass = 0, fail = 0, known = 0;
    time_t t0 = time(NULL);
    for (unsigned k = 0; k < nall; k++) {
        cres_t r;
        char nm[32];
        fname(&all[k], nm, sizeof nm);
        int rc = one_case(&o, &all[k], 1, &r);
        int ok = rc == 0 && r.ok;
        printf("%-12s %s", nm, ok ? "ok  " : "FAIL");
        if (rc == 0)
            printf("  pairs %u/%u, changed %u nodes (named %u), affected flows %u, unaffected "
                   "worst gap %llu (fault-free %llu), scrubbed %llu, graph %s",
                   r.pairs_ok, r.pairs, r.changed, r.expected, r.affected,
                   (unsigned long long)r.worst_gap, (unsigned long long)r.worst_ff,
                   (unsigned long long)r.scrub_known, r.cyclic ? (r.cycle_known ? "cyclic (known: sci_route.md s.5)" : "CYCLIC")
                            : "acyclic");
        if (!ok)
            printf("\n    %s", r.why);
        printf("\n");
        if (r.cyclic && (o.verbose || !ok))
            printf("    cycle: %s", r.cycle);
        known += r.cyclic && r.cycle_known;
        if (ok)
            pass++;
        else
            fail++;
        fflush(stdout);
    }
    int bad = bad_flip_demo(&o);
    if (o.double_faults && !o.fault) {
        unsigned tot = 0, surv = 0;
        printf("double faults (reported, not failed; the paper guarantees one):\n");
        for (unsigned a = 0; a < nall; a++)
            for (unsigned b = a + 1; b < nall; b++) {
                fspec_t two[2] = {all[a], all[b]};
                cres_t r;
                char na[32], nb[32];
                fname(&two[0], na, sizeof na);
                fname(&two[1], nb, sizeof nb);
                int rc = one_case(&o, two, 2, &r);
                tot++;
                int ok = rc == 0 && r.pairs_ok == r.pairs && r.ok;
                surv += ok;
                if (o.verbose)
                    printf("  %s + %s: %s%s%s\n", na, nb, ok ? "survives" : "does not survive",
                           ok ? "" : ": ", ok ? "" : r.why);
            }
        printf("double faults: %u of %u survive (every live pair delivers, nothing lost)\n", surv,
               tot);
    }
    printf("%u faults: %u passed, %u failed (%u with the known unavoidable cycle); %lld s\n", nall,
           pass, fail, known, (long long)(time(NULL) - t0));
    return fail || bad ? 1 : 0;
}
