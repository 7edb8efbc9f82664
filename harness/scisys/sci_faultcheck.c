/*
 * sci_faultcheck.c — `ftsim faultcheck`: every single fault (each X ring, each Y ring, each node) on
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
 * Double faults: --double runs every pair of single faults and reports which survive;
 * --faults K every K of them. With --ftdrb each such case runs again with FT-DRB (Zarza et al.) in
 * the hosts (harness/scisys/ftdrb_sci.md section 7), and the ordered pairs of live nodes are
 * counted against a breadth-first search of the live rings made here, not by the routing code:
 * connected, reachable through at most two intermediates, delivering without and with FT-DRB.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lockstep.h"
#include "prng.h"
#include "sci_faultcheck.h"
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

/* The live rings of fault set f: a ring is live when its cable is in and none of its nodes is
 * dead (a ring is a cycle through each of its nodes). */
static void live_rings(unsigned w, unsigned h, const sci_faults_t *f, uint8_t *xl, uint8_t *yl)
{
    for (unsigned r = 0; r < h; r++)
        xl[r] = !f->xring[r];
    for (unsigned c = 0; c < w; c++)
        yl[c] = !f->yring[c];
    for (unsigned i = 0; i < w * h; i++)
        if (f->dead[i])
            xl[i / w] = 0, yl[i % w] = 0;
}

/* A segment a -> b, X first: the X ring of a's row (columns differ), then the Y ring of b's
 * column (rows differ), both live. */
static int seg_live(unsigned w, const uint8_t *xl, const uint8_t *yl, unsigned a, unsigned b)
{
    return (a % w == b % w || xl[a / w]) && (a / w == b / w || yl[b % w]);
}

unsigned sci_check_components(unsigned w, unsigned h, const sci_faults_t *f, int *comp)
{
    unsigned n = w * h, nc = 0;
    uint8_t xl[SCI_ROUTE_MAX_P2S], yl[SCI_ROUTE_MAX_P2S];
    live_rings(w, h, f, xl, yl);
    unsigned *queue = malloc(n * sizeof *queue);
    for (unsigned i = 0; i < n; i++)
        comp[i] = f->dead[i] ? -1 : -2;
    for (unsigned s = 0; queue && s < n; s++) {
        if (comp[s] != -2)
            continue;
        unsigned qh = 0, qn = 0;
        queue[qn++] = s;
        comp[s] = (int)nc;
        while (qh < qn) { /* breadth first: u's live rings bring in all their members */
            unsigned u = queue[qh++], ux = u % w, uy = u / w;
            for (unsigned k = 0; k < w + h; k++) {
                unsigned v = k < w ? uy * w + k : (k - w) * w + ux;
                if ((k < w ? xl[uy] : yl[ux]) && comp[v] == -2)
                    comp[v] = (int)nc, queue[qn++] = v;
            }
        }
        nc++;
    }
    free(queue);
    return nc;
}

int sci_check_reach2(unsigned w, unsigned h, const sci_faults_t *f, unsigned s, unsigned d)
{
    unsigned n = w * h;
    uint8_t xl[SCI_ROUTE_MAX_P2S], yl[SCI_ROUTE_MAX_P2S];
    live_rings(w, h, f, xl, yl);
    if (f->dead[s] || f->dead[d])
        return 0;
    int ok = seg_live(w, xl, yl, s, d);
    for (unsigned a = 0; a < n && !ok; a++) {
        if (a == s || a == d || f->dead[a] || !seg_live(w, xl, yl, s, a))
            continue;
        ok = seg_live(w, xl, yl, a, d);
        for (unsigned b = 0; b < n && !ok; b++)
            ok = b != s && b != d && b != a && !f->dead[b] && seg_live(w, xl, yl, a, b) &&
                 seg_live(w, xl, yl, b, d);
    }
    return ok;
}

/* Per ordered pair (s * n + d) of live nodes: bit 0 connected in the graph of live rings
 * (sci_check_components: a live ring joins all its members, in both directions, being a
 * cycle), bit 1 reachable through at most two intermediates by live X-first segments. */
static void pair_reach(unsigned w, unsigned h, const sci_faults_t *f, uint8_t *reach)
{
    unsigned n = w * h;
    int *comp = malloc(n * sizeof *comp);
    memset(reach, 0, (size_t)n * n);
    if (!comp)
        return;
    sci_check_components(w, h, f, comp);
    for (unsigned s = 0; s < n; s++)
        for (unsigned d = 0; d < n; d++) {
            if (s == d || f->dead[s] || f->dead[d])
                continue;
            reach[s * n + d] = (uint8_t)((comp[s] == comp[d]) | sci_check_reach2(w, h, f, s, d) << 1);
        }
    free(comp);
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
    /* ordered pairs of live nodes: connected (BFS), reachable through <= 2 intermediates,
     * and of those delivering after reconfiguration; connected, not so reachable, delivering */
    unsigned live, conn, reach2, dl2, dl_extra;
    uint64_t relay_drops, msp, notes, tmo; /* FT-DRB's counts; timeout rounds after reconf. */
    int settled;                           /* every message of a reachable pair acknowledged */
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
    int ftdrb;       /* FT-DRB in the hosts (ftdrb_sci.md) */
    uint8_t *reach;  /* per ordered pair: pair_reach's bits (ftdrb runs) */
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
    c->cfg.ftdrb = c->ftdrb;
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
    free(c->ff), free(c->gap), free(c->dl0), free(c->rx0), free(c->reach);
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

/* FT-DRB: the sources learn the faults from the notifications of the traffic itself (one
 * path after another fails and is passed over): LEARN_PERIODS more of traffic before the
 * pairs are counted (ftdrb_sci.md section 7). */
#define LEARN_PERIODS 60u
static int case_learn(ccase_t *c)
{
    return sci_sys_run(c->s, sci_sys_now(c->s) + LEARN_PERIODS * c->P, c->err, sizeof c->err);
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

/* The pairs against the independent search (pair_reach), once check_pairs has run; with
 * FT-DRB, the flows of pairs no path of <= 2 intermediates reaches stop before the drain, as
 * flows to a dead node do. */
static int tally_pairs(ccase_t *c, cres_t *r)
{
    unsigned n = c->n;
    c->reach = malloc((size_t)n * n);
    if (!c->reach) {
        snprintf(c->err, sizeof c->err, "out of memory");
        return -1;
    }
    pair_reach(c->o->w, c->o->h, &c->sf, c->reach);
    if (c->ftdrb) { /* FT-DRB's verdict is about the pairs (ftdrb_sci.md section 7): the reasons
                       from here on are its */
        r->ok = 1;
        r->why[0] = 0;
    }
    for (unsigned k = 0; k < c->nfl; k++) {
        sci_flow_stats_t st;
        sci_sys_flow_stats(c->s, k, &st);
        if (c->sf.dead[st.src] || c->sf.dead[st.dst])
            continue;
        uint8_t b = c->reach[st.src * n + st.dst];
        int dl = st.delivered > c->dl0[k];
        r->live++;
        r->conn += b & 1;
        r->reach2 += b >> 1 & 1;
        r->dl2 += (b & 2) && dl;
        r->dl_extra += !(b & 2) && dl;
        if ((b & 2) && !dl && c->ftdrb && r->ok) {
            r->ok = 0;
            snprintf(r->why, sizeof r->why, "flow %s (reachable) delivered nothing", st.name);
        }
        r->tmo += st.tmo_rounds - c->rx0[k];
        if (c->ftdrb && !(b & 2))
            sci_sys_abandon_flow(c->s, k);
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
    r->settled = settled;
    if (!settled && r->ok) {
        r->ok = 0;
        snprintf(r->why, sizeof r->why, "messages of live pairs never acknowledged (lost)");
        for (unsigned k = 0; k < c->nfl; k++) {
            sci_flow_stats_t st;
            sci_sys_flow_stats(s, k, &st);
            if (st.outstanding && !c->sf.dead[st.src] && !c->sf.dead[st.dst] &&
                (!c->reach || (c->reach[st.src * c->n + st.dst] & 2))) {
                snprintf(r->why, sizeof r->why,
                         "messages of live pairs never acknowledged (lost): flow %s, %llu "
                         "outstanding, %llu delivered, %llu acknowledged",
                         st.name, (unsigned long long)st.outstanding,
                         (unsigned long long)st.delivered, (unsigned long long)st.acked);
                break;
            }
        }
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

static int one_case(const copts_t *o, const fspec_t *faults, unsigned nf, int ftdrb, cres_t *r)
{
    memset(r, 0, sizeof *r);
    r->ok = 1;
    ccase_t c = {.o = o, .faults = faults, .nf = nf, .ftdrb = ftdrb};
    int rc = -1;
    if (case_setup(&c) == 0 && case_fault_free(&c) == 0 && case_reconfigure(&c) == 0 &&
        (!ftdrb || case_learn(&c) == 0)) {
        check_gaps(&c, r);
        if (check_pairs(&c, r) == 0 && tally_pairs(&c, r) == 0 && check_drain(&c, r) == 0 &&
            check_tables(&c, r) == 0)
            rc = 0;
        if (ftdrb) {
            sci_ftdrb_stats_t fd;
            sci_sys_ftdrb_stats(c.s, &fd);
            r->relay_drops = fd.relay_drops;
            r->msp = fd.msp_sent;
            r->notes = fd.notes_sent;
        }
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

/* The campaign: the single faults in order, then (--double, --faults K) every K of them; what
 * the report has counted so far. */
#define MAX_MULTI 4u
typedef struct ccamp {
    copts_t o;
    fspec_t all[3 * 32 + 32 * 32];
    unsigned nall, npairs, kf; /* npairs cases of kf faults each, their indices in sub */
    unsigned first;            /* the first case run: nall with --multi-only (no single one) */
    unsigned *sub;
    unsigned pass, fail, known, surv;
    /* the multi-fault cases, summed: base (without FT-DRB) and fd (with) */
    unsigned fd_surv;
    uint64_t live, conn, reach2, dl2[2], extra[2], drops, msp;
    int bad; /* the checker missed the deliberately bad tables */
    campaign_t *c;
    int shown; /* the progress last shown: the 5 % step (not on a terminal), -1 none */
} ccamp_t;

/* Progress on stderr while the cases run (4x4 triple faults take most of an hour): on a
 * terminal one line redrawn per case; otherwise a plain line at each 5 % and at the end. With
 * --jobs, done and total count this process's share. */
static void show_progress(ccamp_t *k, unsigned done, unsigned total)
{
    if (k->o.quiet || !total)
        return;
    if (isatty(2)) {
        fprintf(stderr, "\rfaultcheck: %u/%u cases", done, total);
        if (done == total)
            fputc('\n', stderr);
        return;
    }
    int step = (int)(20ull * done / total);
    if (step == k->shown)
        return;
    k->shown = step;
    fprintf(stderr, "faultcheck: %u/%u cases\n", done, total);
}

static void case_progress(void *ctx, unsigned done, unsigned total) { show_progress(ctx, done, total); }

/* Case i's faults (one, or kf) into f; how many. */
static unsigned case_faults(const ccamp_t *k, unsigned i, fspec_t f[MAX_MULTI])
{
    if (i < k->nall) {
        f[0] = k->all[i];
        return 1;
    }
    for (unsigned j = 0; j < k->kf; j++)
        f[j] = k->all[k->sub[(size_t)(i - k->nall) * k->kf + j]];
    return k->kf;
}

/* Every kf-subset of the nall faults, in lexicographic order, into k->sub. */
static int make_subsets(ccamp_t *k, char *err, size_t errlen)
{
    unsigned n = k->nall, K = k->kf, c[MAX_MULTI];
    double cnt = 1;
    for (unsigned j = 0; j < K; j++)
        cnt = cnt * (n - j) / (j + 1);
    if (cnt > 2e6) {
        snprintf(err, errlen, "--faults %u on this torus: %.0f cases, too many", K, cnt);
        return -1;
    }
    k->npairs = (unsigned)(cnt + 0.5);
    k->sub = malloc((size_t)k->npairs * K * sizeof *k->sub + 1);
    if (!k->sub) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (unsigned j = 0; j < K; j++)
        c[j] = j;
    for (unsigned m = 0; m < k->npairs; m++) {
        memcpy(&k->sub[(size_t)m * K], c, K * sizeof *c);
        int j = (int)K - 1;
        while (j >= 0 && c[j] == n - K + (unsigned)j)
            j--;
        if (j < 0)
            break;
        c[j]++;
        for (unsigned l = (unsigned)j + 1; l < K; l++)
            c[l] = c[l - 1] + 1;
    }
    return 0;
}

/* A result into the record, its keys prefixed (the FT-DRB run's with "fd_"). */
static void write_res(campaign_w_t *w, const char *pre, int ran, const cres_t *r)
{
    char key[40];
#define WU(name, v) (snprintf(key, sizeof key, "%s%s", pre, name), campaign_w_u64(w, key, (v)))
#define WS(name, v) (snprintf(key, sizeof key, "%s%s", pre, name), campaign_w_str(w, key, (v)))
    WU("ran", (uint64_t)ran);
    WU("ok", (uint64_t)r->ok);
    WS("why", r->why);
    if (*pre) /* the FT-DRB run: only the pairs' figures (a record holds 48 keys) */
        goto pairs;
    WU("pairs", r->pairs);
    WU("pairs_ok", r->pairs_ok);
    WU("changed", r->changed);
    WU("expected", r->expected);
    WU("affected", r->affected);
    WU("worst_gap", r->worst_gap);
    WU("worst_ff", r->worst_ff);
    WU("scrub_known", r->scrub_known);
    WU("cyclic", (uint64_t)r->cyclic);
    WU("cycle_known", (uint64_t)r->cycle_known);
    WS("cycle", r->cycle);
pairs:
    WU("live", r->live);
    WU("conn", r->conn);
    WU("reach2", r->reach2);
    WU("dl2", r->dl2);
    WU("dl_extra", r->dl_extra);
    WU("relay_drops", r->relay_drops);
    WU("msp", r->msp);
    WU("notes", r->notes);
    WU("tmo", r->tmo);
    WU("settled", (uint64_t)r->settled);
#undef WU
#undef WS
}

/* A campaign run: case i, its result as a record (a multi-fault case with --ftdrb: both runs). */

static int case_run(void *ctx, unsigned i, campaign_w_t *w, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    const ccamp_t *k = ctx;
    i += k->first;
    fspec_t f[MAX_MULTI];
    unsigned nf = case_faults(k, i, f);
    cres_t r;
    int rc = one_case(&k->o, f, nf, 0, &r);
    char nm[200], nb[32];
    fname(&f[0], nm, sizeof nm);
    for (unsigned j = 1; j < nf; j++) {
        fname(&f[j], nb, sizeof nb);
        strcat(strcat(nm, " + "), nb);
    }
    campaign_w_str(w, "case", nm);
    write_res(w, "", rc == 0, &r);
    if (nf > 1 && k->o.ftdrb) {
        rc = one_case(&k->o, f, nf, 1, &r);
        write_res(w, "fd_", rc == 0, &r);
    }
    return 0;
}

/* A record's result (keys prefixed `pre`) back into r; *ran: whether it ran to its checks. */
static void read_res(campaign_rec_t *rec, const char *pre, cres_t *r, int *ran)
{
    char key[40];
#define RU(name) (snprintf(key, sizeof key, "%s%s", pre, name), campaign_rec_u64(rec, key))
#define RS(name) (snprintf(key, sizeof key, "%s%s", pre, name), campaign_rec_str(rec, key))
    memset(r, 0, sizeof *r);
    *ran = (int)RU("ran");
    r->ok = (int)RU("ok");
    snprintf(r->why, sizeof r->why, "%s", RS("why"));
    if (*pre)
        goto pairs;
    r->pairs = (unsigned)RU("pairs");
    r->pairs_ok = (unsigned)RU("pairs_ok");
    r->changed = (unsigned)RU("changed");
    r->expected = (unsigned)RU("expected");
    r->affected = (unsigned)RU("affected");
    r->worst_gap = RU("worst_gap");
    r->worst_ff = RU("worst_ff");
    r->scrub_known = RU("scrub_known");
    r->cyclic = (int)RU("cyclic");
    r->cycle_known = (int)RU("cycle_known");
    snprintf(r->cycle, sizeof r->cycle, "%s", RS("cycle"));
pairs:
    r->live = (unsigned)RU("live");
    r->conn = (unsigned)RU("conn");
    r->reach2 = (unsigned)RU("reach2");
    r->dl2 = (unsigned)RU("dl2");
    r->dl_extra = (unsigned)RU("dl_extra");
    r->relay_drops = RU("relay_drops");
    r->msp = RU("msp");
    r->notes = RU("notes");
    r->tmo = RU("tmo");
    r->settled = (int)RU("settled");
#undef RU
#undef RS
}

/* A record back into a case's result (and, when it has one, the FT-DRB run's into *fd). */
static int case_read(const char *text, unsigned i, cres_t *r, int *ran, cres_t *fd, int *fd_ran,
                     char *err, size_t errlen)
{
    campaign_rec_t rec;
    if (campaign_rec_parse(&rec, text, err, errlen) < 0)
        return -1;
    read_res(&rec, "", r, ran);
    if (fd)
        read_res(&rec, "fd_", fd, fd_ran);
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
    cres_t r, fd;
    if (!campaign_parallel(k->c) && !campaign_merged(k->c))
        show_progress(k, i + 1, k->nall + k->npairs - k->first);
    i += k->first;
    if (i == k->first && k->first)
        printf("%s faults (the single ones not run: --multi-only):\n",
               k->kf == 2 ? "double" : k->kf == 3 ? "triple" : "multiple");
    int ran, fd_ran = 0, multi = i >= k->nall, withfd = multi && k->o.ftdrb;
    if (case_read(text, i, &r, &ran, withfd ? &fd : NULL, &fd_ran, err, errlen) < 0)
        return -1;
    if (!multi) {
        print_single(k, i, ran, &r);
    } else {
        fspec_t f[MAX_MULTI];
        char nm[200], nb[32];
        unsigned nf = case_faults(k, i, f);
        fname(&f[0], nm, sizeof nm);
        for (unsigned j = 1; j < nf; j++) {
            fname(&f[j], nb, sizeof nb);
            strcat(strcat(nm, " + "), nb);
        }
        int ok = ran && r.pairs_ok == r.pairs && r.ok;
        k->surv += ok;
        if (withfd && !r.live) /* the run without stopped before the pairs were counted */
            r.live = fd.live, r.conn = fd.conn, r.reach2 = fd.reach2;
        k->live += r.live, k->conn += r.conn, k->reach2 += r.reach2;
        k->dl2[0] += r.dl2, k->extra[0] += r.dl_extra;
        if (k->o.verbose && !withfd)
            printf("  %s: %s%s%s\n", nm, ok ? "survives" : "does not survive", ok ? "" : ": ",
                   ok ? "" : r.why);
        if (withfd) {
            /* FT-DRB's verdict (ftdrb_sci.md section 7): every pair reachable through <= 2
             * intermediates delivers and every message of those pairs is acknowledged, with
             * the ledger's checks of order and content (ran); relay drops are counted */
            int fok = fd_ran && fd.dl2 == fd.reach2 && fd.settled;
            k->fd_surv += fok;
            k->dl2[1] += fd.dl2, k->extra[1] += fd.dl_extra;
            k->drops += fd.relay_drops, k->msp += fd.msp;
            if (k->o.verbose || !fok) {
                printf("  %s: live pairs %u, connected %u, reachable (<= 2 intermediates) %u; "
                       "delivering without FT-DRB %u, with %u%s",
                       nm, r.live, r.conn, r.reach2, r.dl2, fd.dl2, fok ? "" : "  FAIL");
                if (fd.dl_extra || r.dl_extra)
                    printf(" (connected only beyond 2 intermediates, delivering anyway: %u, %u)",
                           r.dl_extra, fd.dl_extra);
                printf("; %llu messages through intermediates, %llu notifications, %llu timeout "
                       "rounds, %llu relay drops",
                       (unsigned long long)fd.msp, (unsigned long long)fd.notes,
                       (unsigned long long)fd.tmo, (unsigned long long)fd.relay_drops);
                if (!ran)
                    printf(" (the run without FT-DRB stopped: %s)", r.why);
                if (!fok)
                    printf("\n    %s", fd.why);
                printf("\n");
            }
        }
    }
    if (i + 1 == k->nall) {
        k->bad = bad_flip_demo(&k->o);
        if (k->npairs)
            printf("%s faults (reported, not failed; the paper guarantees one):\n",
                   k->kf == 2 ? "double" : k->kf == 3 ? "triple" : "multiple");
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
    campaign_param(c, "faults", "%u", o->fault ? 1u : o->nfaults);
    campaign_param(c, "ftdrb", "%d", o->ftdrb);
    campaign_param(c, "multi-only", "%d", o->multi_only);
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
    if (o.fault) { /* one fault, or A+B[+C..]: each alone, then together */
        char buf[200], *save = NULL;
        snprintf(buf, sizeof buf, "%s", o.fault);
        for (char *tok = strtok_r(buf, "+", &save); tok; tok = strtok_r(NULL, "+", &save))
            if (k->nall == MAX_MULTI || parse_fault(tok, o.w, o.h, &k->all[k->nall++]) < 0) {
                snprintf(err, errlen,
                         "--fault %s: xring:R (R < %u), yring:C (C < %u) or node:X,Y, or up to %u "
                         "of them joined by +",
                         o.fault, o.h, o.w, MAX_MULTI);
                free(k);
                return -1;
            }
        if (k->nall > 1)
            k->kf = k->nall;
    } else {
        for (unsigned r = 0; r < o.h; r++)
            k->all[k->nall++] = (fspec_t){0, r, 0};
        for (unsigned c = 0; c < o.w; c++)
            k->all[k->nall++] = (fspec_t){1, c, 0};
        for (unsigned y = 0; y < o.h; y++)
            for (unsigned x = 0; x < o.w; x++)
                k->all[k->nall++] = (fspec_t){2, x, y};
    }
    if (!o.fault)
        k->kf = o.nfaults ? o.nfaults : o.double_faults ? 2 : 0;
    if (k->kf > MAX_MULTI || k->kf == 1 || (k->kf && k->kf > k->nall)) {
        snprintf(err, errlen, "--faults %u: 2 to %u (and at most the %u single faults)", k->kf,
                 MAX_MULTI, k->nall);
        free(k);
        return -1;
    }
    if (k->kf && make_subsets(k, err, errlen) < 0) {
        free(k->sub);
        free(k);
        return -1;
    }
    check_params(c, &o);
    if (campaign_reporting(c))
        printf("faultcheck %ux%u %s, %s, time scale %g, all-pairs traffic every %llu cycles, "
               "seed %llu\n",
               o.w, o.h, o.p2s ? "P2S" : "LC3",
               o.models == LS_BOTH  ? "rtl+csim lockstep"
               : o.models == LS_RTL ? "rtl"
                                    : "csim",
               o.scale, (unsigned long long)o.period, (unsigned long long)o.seed);
    k->c = c;
    k->shown = -1;
    campaign_hooks_t h = {case_run, case_take, case_progress};
    k->first = o.multi_only && k->npairs ? k->nall : 0;
    int rc = campaign_exec(c, k->nall + k->npairs - k->first, &h, k, err, errlen);
    if (rc == 0 && campaign_reporting(c)) {
        if (k->npairs && k->kf == 2)
            printf("double faults: %u of %u survive (every live pair delivers, nothing lost)\n",
                   k->surv, k->npairs);
        else if (k->npairs)
            printf("%u faults at a time: %u of %u cases survive (every live pair delivers, nothing "
                   "lost)\n",
                   k->kf, k->surv, k->npairs);
        if (k->npairs) {
            printf("ordered pairs of live nodes over the %u cases: %llu; connected (search of the "
                   "live rings) %llu; reachable through <= 2 intermediates %llu (connected, not so "
                   "reachable: %llu)\n",
                   k->npairs, (unsigned long long)k->live, (unsigned long long)k->conn,
                   (unsigned long long)k->reach2, (unsigned long long)(k->conn - k->reach2));
            printf("without FT-DRB: %llu of the %llu reachable pairs deliver\n",
                   (unsigned long long)k->dl2[0], (unsigned long long)k->reach2);
        }
        if (k->npairs && o.ftdrb) {
            printf("with FT-DRB:    %llu of the %llu reachable pairs deliver; %u of %u cases "
                   "survive (every reachable pair delivers, all its messages acknowledged); %llu messages went through intermediates, %llu relay drops\n",
                   (unsigned long long)k->dl2[1], (unsigned long long)k->reach2, k->fd_surv,
                   k->npairs, (unsigned long long)k->msp, (unsigned long long)k->drops);
            printf("connected pairs beyond 2 intermediates that delivered anyway (not counted as "
                   "delivered): without FT-DRB %llu, with %llu\n",
                   (unsigned long long)k->extra[0], (unsigned long long)k->extra[1]);
        }
        if (k->first)
            printf("single faults not run (--multi-only); %lld s\n", campaign_seconds(c));
        else
            printf("%u faults: %u passed, %u failed (%u with the known unavoidable cycle); %lld "
                   "s\n", k->nall, k->pass, k->fail, k->known, campaign_seconds(c));
        rc = k->fail || k->bad || (o.ftdrb && k->fd_surv < k->npairs) ? 1 : 0;
    }
    free(k->sub);
    free(k);
    return rc < 0 ? -1 : rc;
}
