/*
 * sci_check.c — `ftsim faultcheck`: every single fault (each X ring, each Y ring, each node) on
 * a running W x H torus (harness/scisys/sci_sys.c: the device, the host agents, the drivers or the
 * P2S hardware failover), with the timers scaled down, and for each the checks of the torus
 * issue (harness/scisys/sci_sys.md section 5):
 *   1. after reconfiguration every ordered pair of live nodes delivers (all-pairs flows);
 *   2. once reconfiguration is done no packet is scrubbed, no message needs a retransmission
 *      or gets a FAIL_REPORT, and at the end every message of a live pair is delivered once,
 *      in order, and acknowledged (the ledger of sci_sys_host.c checks order and content);
 *   3. the tables read back from the hardware (plus, on P2S, the failover state it shows)
 *      differ from the fault-free ones at exactly the nodes sci_route.md s.2 names; flows whose
 *      fault-free route uses no failed ring see no gap longer than their fault-free jitter;
 *   4. the queue dependency graph of those tables is acyclic, except where harness/sci/sci_route.md
 *      section 5 proves a cycle is there (an X ring with 3 or more rows; a dead node with 3 or
 *      more rows and columns): those are reported as the known contradiction of the reference
 *      algorithm, with the cycle printed; and the checker is shown to catch a deliberately bad
 *      table (every source flipping to Y-first for a failed column).
 * Double faults: --double runs every pair of single faults and reports which survive.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"
#include "prng.h"
#include "sci_check.h"
#include "sci_route.h"
#include "sci_sys.h"

typedef struct fspec {
    int kind;
    unsigned a, b;
} fspec_t; /* 0 xring a, 1 yring a, 2 node a,b */

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
    double worst_ratio; /* unaffected flows: max gap after / allowed */
    uint64_t worst_gap, worst_ff;
    int cyclic, cycle_known;
    uint64_t scrub_known; /* scrubbed after reconfiguration: driver reads of a dead node */
    char cycle[600];
} cres_t;

static int known_cycle(const copts_t *o, const fspec_t *f)
{
    return (f->kind == 0 && o->h >= 3) || (f->kind == 2 && o->w >= 3 && o->h >= 3);
}

/* One case under way: the system with its all-pairs flows, and what was measured of every
 * flow in the phases before the one running. */
typedef struct ccase {
    const copts_t *o;
    const fspec_t *faults;
    unsigned nf;
    sci_faults_t sf; /* the faults, as sci_route sees them */
    sci_sys_cfg_t cfg;
    sci_sys_t *s;
    unsigned n, nfl;
    uint64_t P;
    uint64_t *ff;        /* per flow: the fault-free longest gap */
    uint64_t *gap;       /* the longest gap to the end of reconfiguration */
    uint64_t *dl0, *rx0; /* delivered and timeout rounds once reconfiguration is done */
    uint64_t tmo0;       /* drivers' status reads timed out by the end of reconfiguration */
    uint64_t scrub0;     /* packets scrubbed once reconfiguration is done */
    char err[600];       /* why the case could not run */
} ccase_t;

/* The torus with a flow for every ordered pair, each at a random phase of the period. */
static int case_setup(ccase_t *c)
{
    const copts_t *o = c->o;
    memset(&c->cfg, 0, sizeof c->cfg);
    c->cfg.w = o->w;
    c->cfg.h = o->h;
    c->cfg.p2s = o->p2s;
    c->cfg.models = o->models;
    sci_sys_params_default(&c->cfg.par);
    c->cfg.par.time_scale = o->scale;
    c->cfg.seed = o->seed;
    c->cfg.log = o->verbose > 1 ? stderr : NULL;
    c->cfg.threads = o->threads;
    c->s = sci_sys_new(&c->cfg, c->err, sizeof c->err);
    if (!c->s)
        return -1;
    c->n = o->w * o->h;
    memset(&c->sf, 0, sizeof c->sf);
    for (unsigned k = 0; k < c->nf; k++)
        fapply(&c->faults[k], o->w, &c->sf);
    prng_t rng;
    prng_seed(&rng, o->seed ^ 0xc0ffeeULL);
    c->P = o->period;
    for (unsigned a = 0; a < c->n; a++)
        for (unsigned b = 0; b < c->n; b++) {
            if (a == b)
                continue;
            char nm[48];
            snprintf(nm, sizeof nm, "%u,%u->%u,%u", a % o->w, a / o->w, b % o->w, b / o->w);
            if (sci_sys_add_flow(c->s, nm, a, b, 64, c->P,
                                 sci_sys_now(c->s) + prng_below(&rng, (uint32_t)c->P), c->err,
                                 sizeof c->err) < 0)
                return -1;
        }
    c->nfl = sci_sys_nflows(c->s);
    c->ff = calloc(c->nfl, sizeof *c->ff);
    c->gap = calloc(c->nfl, sizeof *c->gap);
    c->dl0 = calloc(c->nfl, sizeof *c->dl0);
    c->rx0 = calloc(c->nfl, sizeof *c->rx0);
    if (!c->ff || !c->gap || !c->dl0 || !c->rx0) {
        snprintf(c->err, sizeof c->err, "out of memory");
        return -1;
    }
    return 0;
}

static void case_free(ccase_t *c)
{
    free(c->ff), free(c->gap), free(c->dl0), free(c->rx0);
    sci_sys_free(c->s);
}

static uint64_t read_timeouts(const ccase_t *c)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < c->n; i++) {
        sci_drv_stats_t d;
        sci_sys_driver_stats(c->s, i, &d);
        n += d.read_timeouts;
    }
    return n;
}

/* Fault-free: warm up, then the jitter of every flow. */
static int case_fault_free(ccase_t *c)
{
    sci_sys_t *s = c->s;
    if (sci_sys_run(s, sci_sys_now(s) + 3 * c->P, c->err, sizeof c->err) < 0)
        return -1;
    sci_sys_reset_gaps(s);
    if (sci_sys_run(s, sci_sys_now(s) + 6 * c->P, c->err, sizeof c->err) < 0)
        return -1;
    for (unsigned k = 0; k < c->nfl; k++) {
        sci_flow_stats_t st;
        sci_sys_flow_stats(s, k, &st);
        c->ff[k] = st.max_gap;
    }
    sci_sys_reset_gaps(s);
    return 0;
}

/* The faults, and reconfiguration until every driver is idle again; then what the LCs still
 * hold for a dead node drains. */
static int case_reconfigure(ccase_t *c)
{
    sci_sys_t *s = c->s;
    uint64_t P = c->P, tf = sci_sys_now(s) + 1;
    for (unsigned k = 0; k < c->nf; k++) {
        char ctl[40];
        fcontrol(&c->faults[k], ctl, sizeof ctl);
        if (sci_sys_fault(s, tf, ctl, c->err, sizeof c->err) < 0)
            return -1;
    }
    /* past the ring-down bound (sci_lc.md section 3) before asking whether the drivers rest */
    if (sci_sys_run(s, tf + 2000, c->err, sizeof c->err) < 0)
        return -1;
    uint64_t limit = tf + 400 * P;
    while (sci_sys_busy(s) && sci_sys_now(s) < limit)
        if (sci_sys_run(s, sci_sys_now(s) + P / 4, c->err, sizeof c->err) < 0)
            return -1;
    if (sci_sys_busy(s)) {
        snprintf(c->err, sizeof c->err, "the drivers were still busy %llu cycles after the fault",
                 (unsigned long long)(limit - tf));
        return -1;
    }
    /* gaps of the flows the fault does not touch, to the end of reconfiguration; then what
     * the drivers held goes, and reconfiguration is done */
    sci_sys_close_gaps(s);
    for (unsigned k = 0; k < c->nfl; k++) {
        sci_flow_stats_t st;
        sci_sys_flow_stats(s, k, &st);
        c->gap[k] = st.max_gap;
    }
    /* status reads that time out from here on (any read whose scrubs could fall in the
     * window below was sent after this: the window starts more than a remote-read timeout
     * later) */
    c->tmo0 = read_timeouts(c);
    /* traffic to a dead node has done its part (load during the fault): it stops */
    for (unsigned k = 0; k < c->nfl; k++) {
        sci_flow_stats_t st;
        sci_sys_flow_stats(s, k, &st);
        if (c->sf.dead[st.dst])
            sci_sys_abandon_flow(s, k);
    }
    /* the LCs may still retry what they hold for it: (retry limit + 1) echo timeouts for each
     * of the 12 buffers of an LC, 4 at a time */
    uint64_t drain = 3u * (c->cfg.par.retry_limit + 1u) * c->cfg.par.echo_timeout;
    if (sci_sys_run(s, sci_sys_now(s) + 2 * P + drain, c->err, sizeof c->err) < 0)
        return -1;
    c->scrub0 = sci_sys_scrubbed(s);
    return 0;
}

/* Check 3, second half: flows whose fault-free route uses no failed ring see no gap longer
 * than their fault-free jitter. Notes every flow's deliveries for check 1. */
static void check_gaps(ccase_t *c, cres_t *r)
{
    const copts_t *o = c->o;
    uint64_t P = c->P;
    for (unsigned k = 0; k < c->nfl; k++) {
        sci_flow_stats_t st;
        sci_sys_flow_stats(c->s, k, &st);
        c->dl0[k] = st.delivered;
        c->rx0[k] = st.tmo_rounds;
        if (route_hit(o->w, o->h, &c->sf, st.src, st.dst)) {
            r->affected++;
            continue;
        }
        /* an interruption, not a delay: the fault-free longest gap plus 3/4 of a period of
         * latency variation (detoured and released traffic shares the links); a flow held
         * through a driver pass (CableNotOk + ReadyToGo, >= 5000 cycles at the default
         * scale) is above it */
        uint64_t ff = c->ff[k], gap = c->gap[k];
        uint64_t allowed = (ff > P ? ff : P) + 3 * P / 4;
        double ratio = (double)gap / (double)allowed;
        if (ratio > r->worst_ratio) {
            r->worst_ratio = ratio;
            r->worst_gap = gap;
            r->worst_ff = ff;
        }
        if (gap > allowed && r->ok) {
            r->ok = 0;
            snprintf(r->why, sizeof r->why,
                     "unaffected flow %s: gap of %llu cycles around the "
                     "fault, fault-free %llu (allowed %llu)",
                     st.name, (unsigned long long)gap, (unsigned long long)ff,
                     (unsigned long long)allowed);
        }
    }
}

/* Checks 1 and 2 after reconfiguration: every live pair delivers, and no source learns of a
 * loss only by its timeout. */
static int check_pairs(ccase_t *c, cres_t *r)
{
    sci_sys_t *s = c->s;
    if (sci_sys_run(s, sci_sys_now(s) + 5 * c->P, c->err, sizeof c->err) < 0)
        return -1;
    for (unsigned k = 0; k < c->nfl; k++) {
        sci_flow_stats_t st;
        sci_sys_flow_stats(s, k, &st);
        if (c->sf.dead[st.src] || c->sf.dead[st.dst])
            continue;
        r->pairs++;
        if (st.delivered > c->dl0[k])
            r->pairs_ok++;
        else if (r->ok) {
            r->ok = 0;
            snprintf(r->why, sizeof r->why, "after reconfiguration flow %s delivered nothing",
                     st.name);
        }
        if (st.tmo_rounds > c->rx0[k] && r->ok) {
            r->ok = 0;
            snprintf(r->why, sizeof r->why,
                     "after reconfiguration flow %s lost packets its "
                     "source learnt of only by its timeout (%llu rounds)",
                     st.name, (unsigned long long)(st.tmo_rounds - c->rx0[k]));
        }
    }
    return 0;
}

/* Check 2 at the end: the flows stop and every message of a live pair is acknowledged, and
 * nothing was scrubbed after reconfiguration but what the drivers know of. */
static int check_drain(ccase_t *c, cres_t *r)
{
    sci_sys_t *s = c->s;
    sci_sys_stop_flows(s);
    int settled = sci_sys_settle(s, sci_sys_now(s) + 200 * c->P, c->err, sizeof c->err);
    if (settled < 0)
        return -1;
    if (!settled && r->ok) {
        r->ok = 0;
        snprintf(r->why, sizeof r->why, "messages of live pairs never acknowledged (lost)");
    }
    /* a driver's status read of a dead node (its watchdog re-checking a remote fault) is
     * scrubbed, once per LC attempt, and its driver knows: the read times out (counted once
     * every driver is idle, so each read sent has its answer) */
    uint64_t scrub1 = sci_sys_scrubbed(s), tmo1 = read_timeouts(c);
    uint64_t scrub_known = (tmo1 - c->tmo0) * (c->cfg.par.retry_limit + 1u);
    r->scrub_known = scrub1 - c->scrub0;
    if (scrub1 - c->scrub0 > scrub_known && r->ok) {
        r->ok = 0;
        snprintf(r->why, sizeof r->why,
                 "after reconfiguration %llu packets were scrubbed (%llu "
                 "of them a driver's timed-out status reads of a dead node)",
                 (unsigned long long)(scrub1 - c->scrub0), (unsigned long long)scrub_known);
    }
    return 0;
}

/* Check 3, first half: the tables read back change at exactly the nodes sci_route.md section 2
 * names. */
static void check_changed(ccase_t *c, const sci_torus_t *t, const sci_tables_t *ref,
                          const sci_tables_t *tb, cres_t *r)
{
    const copts_t *o = c->o;
    uint8_t *ch = calloc(c->n, 1), *ex = calloc(c->n, 1);
    if (ch && ex) {
        sci_route_diff(ref, tb, ch);
        r->expected = sci_route_expected_changes(t, &c->sf, ex);
        for (unsigned i = 0; i < c->n; i++) {
            ch[i] = ch[i] && !c->sf.dead[i]; /* a dead node's tables are not read */
            r->changed += ch[i];
        }
        for (unsigned i = 0; i < c->n && r->ok; i++)
            if (ch[i] != ex[i]) {
                r->ok = 0;
                snprintf(r->why, sizeof r->why,
                         "node (%u,%u) %s its tables, sci_route.md section 2 "
                         "says it %s",
                         i % o->w, i / o->w, ch[i] ? "changed" : "kept",
                         ex[i] ? "changes" : "keeps");
            }
    }
    free(ch), free(ex);
}

/* Check 4: the tables in force reach every pair, and their queue dependency graph is acyclic
 * except where sci_route.md section 5 proves a cycle. */
static void check_cycles(ccase_t *c, sci_tables_t *tb, cres_t *r)
{
    memcpy(tb->f.dead, c->sf.dead, sizeof c->sf.dead);
    sci_check_t ck;
    sci_route_check(tb, -1, &ck);
    if (ck.reached < ck.pairs && r->ok) {
        r->ok = 0;
        snprintf(r->why, sizeof r->why, "the tables read back do not reach every pair (%u of %u)",
                 ck.reached, ck.pairs);
    }
    r->cyclic = ck.cyclic;
    r->cycle_known = c->nf == 1 && known_cycle(c->o, &c->faults[0]);
    if (ck.cyclic) {
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        if (m) {
            sci_route_print_cycle(tb, &ck, m);
            fclose(m);
            snprintf(r->cycle, sizeof r->cycle, "%s", buf ? buf : "");
            free(buf);
        }
        if (!r->cycle_known && r->ok && c->nf == 1) {
            r->ok = 0;
            snprintf(r->why, sizeof r->why, "the queue dependency graph has a cycle");
        }
    } else if (r->cycle_known && r->ok) {
        r->ok = 0;
        snprintf(r->why, sizeof r->why, "no cycle where sci_route.md section 5 proves one");
    }
}

/* Checks 3 and 4 on the tables in force, read back from the hardware. */
static int check_tables(ccase_t *c, cres_t *r)
{
    const copts_t *o = c->o;
    sci_tables_t tb, ref;
    if (sci_sys_read_tables(c->s, &tb, c->err, sizeof c->err) < 0)
        return -1;
    sci_torus_t t = {o->w, o->h, o->p2s ? SCI_VAR_P2S : SCI_VAR_LC3, SCI_POLICY_SPEC};
    if (sci_route_tables(&t, NULL, &ref, c->err, sizeof c->err) < 0) {
        sci_route_free(&tb);
        return -1;
    }
    check_changed(c, &t, &ref, &tb, r);
    check_cycles(c, &tb, r);
    sci_route_free(&tb);
    sci_route_free(&ref);
    return 0;
}

static int one_case(const copts_t *o, const fspec_t *faults, unsigned nf, cres_t *r)
{
    memset(r, 0, sizeof *r);
    r->ok = 1;
    ccase_t c = {.o = o, .faults = faults, .nf = nf};
    int rc = -1;
    if (case_setup(&c) == 0 && case_fault_free(&c) == 0 && case_reconfigure(&c) == 0) {
        check_gaps(&c, r);
        if (check_pairs(&c, r) == 0 && check_drain(&c, r) == 0 && check_tables(&c, r) == 0)
            rc = 0;
    }
    if (rc < 0)
        snprintf(r->why, sizeof r->why, "%s", c.err);
    case_free(&c);
    return rc;
}

/* The checker catching a bad table: the tables of a Y-ring fault, with every source flipped to
 * Y-first for the failed column (harness/sci/README.md section 4's warning). */
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

/* The campaign: the single faults in order, then (--double) every pair of them; what the
 * report has counted so far. */
typedef struct ccamp {
    copts_t o;
    fspec_t all[3 * 32 + 32 * 32];
    unsigned nall, npairs;
    unsigned pass, fail, known, surv;
    int bad; /* the checker missed the deliberately bad tables */
} ccamp_t;

/* Case i's faults (one, or a pair) into f; how many. */
static unsigned case_faults(const ccamp_t *k, unsigned i, fspec_t f[2])
{
    if (i < k->nall) {
        f[0] = k->all[i];
        return 1;
    }
    unsigned j = i - k->nall, a = 0;
    while (j >= k->nall - 1 - a)
        j -= k->nall - 1 - a++;
    f[0] = k->all[a];
    f[1] = k->all[a + 1 + j];
    return 2;
}

/* A campaign run: case i, its result as a record. */
static int case_run(void *ctx, unsigned i, campaign_w_t *w, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    const ccamp_t *k = ctx;
    fspec_t f[2];
    unsigned nf = case_faults(k, i, f);
    cres_t r;
    int rc = one_case(&k->o, f, nf, &r);
    char nm[72], nb[32];
    fname(&f[0], nm, sizeof nm);
    if (nf == 2) {
        fname(&f[1], nb, sizeof nb);
        strcat(strcat(nm, " + "), nb);
    }
    campaign_w_str(w, "case", nm);
    campaign_w_u64(w, "ran", rc == 0);
    campaign_w_u64(w, "ok", (uint64_t)r.ok);
    campaign_w_str(w, "why", r.why);
    campaign_w_u64(w, "pairs", r.pairs);
    campaign_w_u64(w, "pairs_ok", r.pairs_ok);
    campaign_w_u64(w, "changed", r.changed);
    campaign_w_u64(w, "expected", r.expected);
    campaign_w_u64(w, "affected", r.affected);
    campaign_w_u64(w, "worst_gap", r.worst_gap);
    campaign_w_u64(w, "worst_ff", r.worst_ff);
    campaign_w_u64(w, "scrub_known", r.scrub_known);
    campaign_w_u64(w, "cyclic", (uint64_t)r.cyclic);
    campaign_w_u64(w, "cycle_known", (uint64_t)r.cycle_known);
    campaign_w_str(w, "cycle", r.cycle);
    return 0;
}

/* A record back into a case's result; *ran: whether the case ran to its checks. */
static int case_read(const char *text, unsigned i, cres_t *r, int *ran, char *err, size_t errlen)
{
    campaign_rec_t rec;
    if (campaign_rec_parse(&rec, text, err, errlen) < 0)
        return -1;
    memset(r, 0, sizeof *r);
    *ran = (int)campaign_rec_u64(&rec, "ran");
    r->ok = (int)campaign_rec_u64(&rec, "ok");
    snprintf(r->why, sizeof r->why, "%s", campaign_rec_str(&rec, "why"));
    r->pairs = (unsigned)campaign_rec_u64(&rec, "pairs");
    r->pairs_ok = (unsigned)campaign_rec_u64(&rec, "pairs_ok");
    r->changed = (unsigned)campaign_rec_u64(&rec, "changed");
    r->expected = (unsigned)campaign_rec_u64(&rec, "expected");
    r->affected = (unsigned)campaign_rec_u64(&rec, "affected");
    r->worst_gap = campaign_rec_u64(&rec, "worst_gap");
    r->worst_ff = campaign_rec_u64(&rec, "worst_ff");
    r->scrub_known = campaign_rec_u64(&rec, "scrub_known");
    r->cyclic = (int)campaign_rec_u64(&rec, "cyclic");
    r->cycle_known = (int)campaign_rec_u64(&rec, "cycle_known");
    snprintf(r->cycle, sizeof r->cycle, "%s", campaign_rec_str(&rec, "cycle"));
    int rc = 0;
    if (rec.bad) {
        snprintf(err, errlen, "case %u: a record without '%s'", i, rec.bad);
        rc = -1;
    }
    campaign_rec_free(&rec);
    return rc;
}

/* A single fault's line (and its reason, its cycle). */
static void print_single(ccamp_t *k, unsigned i, int ran, const cres_t *r)
{
    char nm[32];
    fname(&k->all[i], nm, sizeof nm);
    int ok = ran && r->ok;
    printf("%-12s %s", nm, ok ? "ok  " : "FAIL");
    if (ran)
        printf("  pairs %u/%u, changed %u nodes (named %u), affected flows %u, unaffected "
               "worst gap %llu (fault-free %llu), scrubbed %llu, graph %s",
               r->pairs_ok, r->pairs, r->changed, r->expected, r->affected,
               (unsigned long long)r->worst_gap, (unsigned long long)r->worst_ff,
               (unsigned long long)r->scrub_known,
               r->cyclic ? (r->cycle_known ? "cyclic (known: sci_route.md s.5)" : "CYCLIC")
                         : "acyclic");
    if (!ok)
        printf("\n    %s", r->why);
    printf("\n");
    if (r->cyclic && (k->o.verbose || !ok))
        printf("    cycle: %s", r->cycle);
    k->known += r->cyclic && r->cycle_known;
    if (ok)
        k->pass++;
    else
        k->fail++;
    fflush(stdout);
}

/* A campaign record, in order, into the report: the single faults' lines, then the bad-table
 * demonstration, then the double faults. */
static int case_take(void *ctx, unsigned i, const char *text, char *err, size_t errlen)
{
    ccamp_t *k = ctx;
    cres_t r;
    int ran;
    if (case_read(text, i, &r, &ran, err, errlen) < 0)
        return -1;
    if (i < k->nall) {
        print_single(k, i, ran, &r);
    } else {
        fspec_t f[2];
        char na[32], nb[32];
        case_faults(k, i, f);
        fname(&f[0], na, sizeof na);
        fname(&f[1], nb, sizeof nb);
        int ok = ran && r.pairs_ok == r.pairs && r.ok;
        k->surv += ok;
        if (k->o.verbose)
            printf("  %s + %s: %s%s%s\n", na, nb, ok ? "survives" : "does not survive",
                   ok ? "" : ": ", ok ? "" : r.why);
    }
    if (i + 1 == k->nall) {
        k->bad = bad_flip_demo(&k->o);
        if (k->npairs)
            printf("double faults (reported, not failed; the paper guarantees one):\n");
    }
    return 0;
}

/* The parameters that make the results, for a shard's header. */
static void check_params(campaign_t *c, const copts_t *o)
{
    campaign_param(c, "torus", "%ux%u", o->w, o->h);
    campaign_param(c, "variant", "%s", o->p2s ? "P2S" : "LC3");
    campaign_param(c, "model", "%s",
                   o->models == LS_BOTH  ? "both"
                   : o->models == LS_RTL ? "rtl"
                                         : "csim");
    campaign_param(c, "fault", "%s", o->fault ? o->fault : "every single fault");
    campaign_param(c, "double", "%d", o->double_faults && !o->fault);
    campaign_param(c, "time-scale", "%.17g", o->scale);
    campaign_param(c, "period", "%llu", (unsigned long long)o->period);
    campaign_param(c, "seed", "%llu", (unsigned long long)o->seed);
    campaign_param(c, "verbose", "%d", o->verbose);
}

int sci_check_run(const sci_check_opts_t *opts, campaign_t *c, char *err, size_t errlen)
{
    ccamp_t *k = calloc(1, sizeof *k);
    if (!k) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    k->o = *opts;
    const copts_t o = *opts;
    if (o.fault) {
        if (parse_fault(o.fault, o.w, o.h, &k->all[0]) < 0) {
            snprintf(err, errlen, "--fault %s: xring:R (R < %u), yring:C (C < %u) or node:X,Y",
                     o.fault, o.h, o.w);
            free(k);
            return -1;
        }
        k->nall = 1;
    } else {
        for (unsigned r = 0; r < o.h; r++)
            k->all[k->nall++] = (fspec_t){0, r, 0};
        for (unsigned c = 0; c < o.w; c++)
            k->all[k->nall++] = (fspec_t){1, c, 0};
        for (unsigned y = 0; y < o.h; y++)
            for (unsigned x = 0; x < o.w; x++)
                k->all[k->nall++] = (fspec_t){2, x, y};
    }
    if (o.double_faults && !o.fault)
        k->npairs = k->nall * (k->nall - 1) / 2;
    check_params(c, &o);
    if (campaign_reporting(c))
        printf("faultcheck %ux%u %s, %s, time scale %g, all-pairs traffic every %llu cycles, "
               "seed %llu\n",
               o.w, o.h, o.p2s ? "P2S" : "LC3",
               o.models == LS_BOTH  ? "rtl+csim lockstep"
               : o.models == LS_RTL ? "rtl"
                                    : "csim",
               o.scale, (unsigned long long)o.period, (unsigned long long)o.seed);
    campaign_hooks_t h = {case_run, case_take, NULL};
    int rc = campaign_exec(c, k->nall + k->npairs, &h, k, err, errlen);
    if (rc == 0 && campaign_reporting(c)) {
        if (k->npairs)
            printf("double faults: %u of %u survive (every live pair delivers, nothing lost)\n",
                   k->surv, k->npairs);
        printf("%u faults: %u passed, %u failed (%u with the known unavoidable cycle); %lld s\n",
               k->nall, k->pass, k->fail, k->known, campaign_seconds(c));
        rc = k->fail || k->bad ? 1 : 0;
    }
    free(k);
    return rc < 0 ? -1 : rc;
}
