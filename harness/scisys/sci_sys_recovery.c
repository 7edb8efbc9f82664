/*
 * sci_sys_recovery.c — detection of and recovery from upsets in the drivers (harness/scisys/sci_sys.md
 * section 8): per node a watchdog over its blocks' status, a self-test of the paths its host's
 * flows use, optionally a scrub of its tables against the host's copy; and the recovery that
 * disables a node, resets it with configuration cycles, reloads its tables from the host's
 * copy, enables and probes it while its host holds its traffic. The protocol's own detectors
 * are counted here too.
 */
#include "sci_sys_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "upset_run.h"
#include "sci_word.h"

#define LCB(k) ((k) ? SCI_NODE_LC_STRIDE : 0u)
/* The watchdog samples its node WD_SAMPLES times a period: a block is hung when it holds work
 * and shows the same state at every sample of a period longer than its longest legal stall. */
#define WD_SAMPLES 8u
/* The self-test (sci_sys.md section 8, its clauses named in quotes below) learns each path's
 * round trip in its first ST_CALIB rounds under the traffic (the system is fault-free then: the
 * host keeps it as it keeps its tables). A reply later than that by more than ST_SLACK,
 * ST_LATE times in a row (1/ST_GAPS of a watchdog period apart, jittered),
 * fails the path: a packet taken at the wrong node and sent on by another ring is late every
 * time (one more take and insertion, about 50 cycles on 3x3), a read behind traffic now and
 * then. 16 reads 1/32 of a period apart take no longer than the 5 reads 1/8 apart that came
 * before, and a queue rarely delays 16 jittered reads in a row (tests/ft_load.py, the
 * saturation sweep of harness/scisys/upsets.md). */
#define ST_CALIB   8u
#define ST_LATE    16u
#define ST_GAPS    32u /* a late path's retests: 1/ST_GAPS of a watchdog period apart */
#define ST_SLACK(b) ((b) / 3u > 32u ? (b) / 3u : 32u)
#define ST_POLL    100u  /* a read waiting in its node: the host looks at its PSB every 1 us */
#define ST_REPLY   1000u /* the PSB's answer crossing the node to the host (clause "left") */

static void detected(sci_sys_t *s, unsigned det)
{
    sci_ft_stats_t *st = &s->ft.st;
    if (!st->first[det])
        st->first[det] = s->now;
    st->count[det]++;
}

void scisys_ft_protocol(sci_sys_t *s, unsigned i)
{
    (void)i;
    if (!s->cfg.ft)
        return;
    s->ft.st.prot_events++;
    detected(s, UPSET_DET_PROTOCOL);
}

/* ---- recovery ------------------------------------------------------------------------- */

/* Node i is asked to recover: the request reaches its driver at `at`. A node already
 * recovering is not asked again. */
static void rec_request(sci_sys_t *s, unsigned i, uint64_t at)
{
    ftn_t *f = &s->ft.n[i];
    if (!(s->cfg.ft & SCI_FT_RECOVER) || f->rec != REC_NONE || s->host[i].dead)
        return;
    f->rec = REC_REQUESTED;
    f->rec_at = at;
    if (!s->ft.st.rec_start) {
        s->ft.st.rec_start = s->now;
    }
    s->ft.st.recovering++;
}

/* The no-host-state ablation: what the hosts of node i kept of the protocol is lost with the
 * node: its flows' windows (the messages not yet acknowledged are never sent again; the
 * application goes on with new ones) and, as a destination, the number it expects next. */
static void lose_host_state(sci_sys_t *s, unsigned i)
{
    for (unsigned k = 0; k < s->nflow; k++) {
        flow_t *f = &s->flow[k];
        if (f->src == i && f->base < f->sent_hi) {
            s->ft.st.lost_state += f->sent_hi - f->base;
            f->base = f->next = f->sent_hi;
            f->rtx_at = f->rto_at = 0;
            scisys_host_wake(s, i);
        }
        if (f->dst == i)
            f->resync = true;
    }
}

/* The writes of one entry at index idx: both LCs' LRT and BRT, the PSB's BRT. */
static void rec_entry(sci_sys_t *s, unsigned i, uint64_t idx, const sci_entry_t *e)
{
    for (unsigned k = 0; k < 2; k++) {
        scisys_wq_push(s, i, LCB(k) + SCI_REG_TADDR, idx, 0x3FFF);
        scisys_wq_push(s, i, LCB(k) + SCI_REG_LRT, k ? e->ytake : e->xtake, 1);
        scisys_wq_push(s, i, LCB(k) + SCI_REG_BRT, k ? e->yport : e->xport, 7);
    }
    scisys_wq_push(s, i, SCI_PSB_TADDR, idx, 0x3FFF);
    scisys_wq_push(s, i, SCI_PSB_BRT, e->pport, 7);
}

/* Every table entry of node i from the host's copy (LC3: the driver's shadow, the tables it
 * loaded; P2S: the preloaded fault-free tables of both sets and the address select, for the
 * ids that exist), then the LCs enabled (a ring the driver knows broken stays disabled) and
 * their interrupts cleared. */
static void rec_reload(sci_sys_t *s, unsigned i)
{
    drv_t *d = &s->drv[i];
    const sci_torus_t *t = &s->ff.t;
    if (!s->cfg.p2s) {
        for (unsigned idx = 0; idx < 256u; idx++) {
            sci_entry_t e = {0, 0, 0, 0, 0};
            for (unsigned dst = 0; dst < s->n; dst++)
                if (sci_route_index(t, 0, dst) == idx)
                    e = d->shadow[dst];
            rec_entry(s, i, idx, &e);
        }
    } else {
        for (unsigned set = 0; set < s->ff.nsets; set++)
            for (unsigned dst = 0; dst < s->n; dst++) {
                rec_entry(s, i, sci_route_index(t, set, dst), sci_route_entry(&s->ff, i, set, dst));
                if (set == 0 && s->ff.asel) {
                    scisys_wq_push(s, i, SCI_PSB_TADDR, s->id[dst], 0x3FFF);
                    scisys_wq_push(s, i, SCI_PSB_ASEL, s->ff.asel[(size_t)i * s->n + dst], 1);
                }
            }
    }
    for (unsigned k = 0; k < 2; k++) {
        scisys_wq_push(s, i, LCB(k) + SCI_REG_STATUS_CLR, 8u, 0xFF);
        if (!d->broken[k])
            scisys_wq_push(s, i, LCB(k) + SCI_REG_CTRL, 1ull << SCI_CTRL_ENABLE_BIT,
                           1ull << SCI_CTRL_ENABLE_BIT);
    }
}

static void rec_step(sci_sys_t *s, unsigned i)
{
    ftn_t *f = &s->ft.n[i];
    drv_t *d = &s->drv[i];
    sci_ft_stats_t *st = &s->ft.st;
    bool first = st->recoveries == 0;
    switch (f->rec) {
    case REC_REQUESTED:
        if (s->now < f->rec_at)
            return;
        /* hold the host's traffic, disable both LCs */
        f->hold = true;
        scisys_drv_holds(s, i);
        for (unsigned k = 0; k < 2; k++)
            scisys_wq_push(s, i, LCB(k) + SCI_REG_CTRL, 0, 1ull << SCI_CTRL_ENABLE_BIT);
        if (first && !st->ph_req)
            st->ph_req = s->now;
        scisys_log(s, i, "recovery: traffic held, LCs disabled");
        f->rec = REC_DISABLE;
        return;
    case REC_DISABLE:
        if (d->wqn)
            return;
        if (first && !st->ph_disabled)
            st->ph_disabled = s->now;
        if (s->cfg.ft & SCI_FT_NO_HOST_STATE)
            lose_host_state(s, i);
        f->rec = REC_RESET;
        f->reset_done = false;
        f->rec_at = s->now + 1; /* applied at the start of the next cycle (scisys_ft_begin) */
        return;
    case REC_RESET:
        if (!f->reset_done || s->now < f->rec_at)
            return;
        if (first && !st->ph_reset)
            st->ph_reset = s->now;
        rec_reload(s, i);
        f->rec = REC_RELOAD;
        return;
    case REC_RELOAD:
        if (d->wqn)
            return;
        if (first && !st->ph_reloaded)
            st->ph_reloaded = s->now;
        for (unsigned k = 0; k < 2; k++)
            if (!d->broken[k]) {
                uint16_t pay[1] = {(uint16_t)k};
                scisys_host_post(s, i, s->id[i], SCI_T_PROBE, TK_PROBE, pay, 1, NULL);
            }
        f->rec = REC_PROBE;
        f->rec_at = s->now + s->ft.c_probe;
        return;
    case REC_PROBE:
        if (s->now < f->rec_at)
            return;
        f->rec = REC_NONE;
        f->hold = false;
        scisys_drv_holds(s, i); /* released: the flows go back to their oldest message */
        if (first)
            st->ph_released = s->now;
        st->recoveries++;
        st->rec_end = s->now;
        st->recovering--;
        /* the paths are tested again once the traffic the recovery held has gone: the hosts'
         * self-tests wait a watchdog period after the last recovery ends */
        f->st_next = s->now;
        f->st_wait = false;
        f->st_idx = f->st_ndst;
        s->ft.st_quiet = s->now + s->ft.c_hang;
        scisys_log(s, i, "recovery: tables reloaded, LCs enabled, probed: traffic released");
        return;
    default: return;
    }
}

void scisys_ft_begin(sci_sys_t *s)
{
    for (unsigned i = 0; i < s->n; i++) {
        ftn_t *f = &s->ft.n[i];
        if (f->rec != REC_RESET || s->now != f->rec_at || f->reset_done)
            continue;
        f->reset_done = true;
        char cmd[32], err[160];
        snprintf(cmd, sizeof cmd, "reset %u,%u", xn(s, i), yn(s, i));
        for (unsigned m = 0; m < s->ls.n; m++)
            if (dev_control(s->ls.m[m], cmd, err, sizeof err) < 0)
                scisys_fail(s, "recovery of (%u,%u): %s", xn(s, i), yn(s, i), err);
        /* the reset's five configuration cycles, then the reload */
        f->rec_at = s->now + 6;
        scisys_log(s, i, "recovery: reset with configuration cycles");
    }
}

/* ---- the self-test -------------------------------------------------------------------- */

/* The destinations host i's live flows use. */
static void st_round(sci_sys_t *s, unsigned i)
{
    ftn_t *f = &s->ft.n[i];
    f->st_ndst = 0;
    for (unsigned k = 0; k < s->nflow; k++) {
        const flow_t *fl = &s->flow[k];
        if (fl->src != i || fl->abandoned || s->host[fl->dst].dead || fl->dst == i)
            continue;
        bool dup = false;
        for (unsigned j = 0; j < f->st_ndst; j++)
            dup |= f->st_dst[j] == fl->dst;
        if (!dup)
            f->st_dst[f->st_ndst++] = fl->dst;
    }
    f->st_idx = 0;
}

static void st_send(sci_sys_t *s, unsigned i)
{
    ftn_t *f = &s->ft.n[i];
    uint16_t pay[1] = {0};
    scisys_host_post(s, i, s->id[f->st_dst[f->st_idx]], SCI_T_STATUS_READ, TK_READ, pay, 1,
                     &f->st_tid);
    f->st_wait = true;
    f->st_sent = s->now;
    f->st_left = false; /* its deadline runs once it has left the node (st_watch) */
    f->st_poll = s->now + ST_POLL;
    f->st_deadline = UINT64_MAX;
    s->ft.st.st_tests++;
    s->ft.st.st_symbols += 6u + 7u; /* the read and its reply */
    scisys_log(s, i, "self-test: read to (%u,%u)", xn(s, f->st_dst[f->st_idx]),
               yn(s, f->st_dst[f->st_idx]));
}

/* The nodes a packet from src to dst passes through, by the host's copy of the tables: every
 * node of every ring leg, the ones that bypass it included. */
static unsigned path_nodes(sci_sys_t *s, unsigned src, unsigned dst, uint8_t *on)
{
    sci_trace_t tr;
    sci_route_trace(&s->ff, src, dst, -1, &tr);
    unsigned n = 0;
    on[src] = on[dst] = 1;
    for (unsigned h = 0; h + 1 < tr.nhops; h += 2) {
        unsigned a = tr.hop[h].node, b = tr.hop[h + 1].node;
        bool ydim = tr.hop[h].q == SCI_Q_SEND_Y;
        unsigned x = xn(s, a), y = yn(s, a);
        for (unsigned step = 0; step < s->n && a != b; step++) {
            if (ydim)
                y = (y + 1) % s->h;
            else
                x = (x + 1) % s->w;
            a = sci_torus_index(s->w, x, y);
            on[a] = 1;
        }
        on[tr.hop[h].node] = 1;
    }
    for (unsigned k = 0; k < s->n; k++)
        n += on[k];
    return n;
}

static void st_failed(sci_sys_t *s, unsigned i, const char *why)
{
    ftn_t *f = &s->ft.n[i];
    unsigned dst = f->st_dst[f->st_idx];
    f->st_wait = false;
    f->st_late = 0;
    if (s->ft.st.recovering) {
        /* a node is recovering (the hosts know it over their management network): a path
         * through it may fail meanwhile; the round ends and comes again next period */
        f->st_idx = f->st_ndst;
        return;
    }
    s->ft.st.st_fails++;
    detected(s, UPSET_DET_SELFTEST);
    scisys_log(s, i, "self-test: path to (%u,%u) %s: recovering the nodes on it", xn(s, dst),
               yn(s, dst), why);
    uint8_t *on = calloc(s->n, 1);
    if (!on) {
        scisys_fail(s, "out of memory");
        return;
    }
    path_nodes(s, i, dst, on);
    path_nodes(s, dst, i, on);
    for (unsigned k = 0; k < s->n; k++)
        if (on[k])
            rec_request(s, k, s->now + (k == i ? 0 : s->ft.c_mgmt));
    free(on);
    f->st_next = UINT64_MAX; /* the next round comes with the recovery's end */
}

/* Clause "base": the path's round trip is the third quartile (the ST_KEEP-th shortest) of its
 * ST_CALIB learning rounds, not the shortest: under a steady load the shortest is the one read
 * that found the rings clear, and most reads after it would be late by the traffic alone (a
 * loaded 4x4 path read 122 to 125 cycles five times and 204 to 369 three: the median, 125,
 * then saw 16 reads in a row late); at a light load the rounds agree and the quartile is the
 * shortest. `low` keeps the ST_KEEP shortest, ascending; the base is the longest of them. */
#define ST_KEEP (ST_CALIB * 3u / 4u)
static uint32_t st_learn(uint16_t *low, uint64_t rtt)
{
    uint16_t r = rtt > 0xFFFFu ? 0xFFFFu : (uint16_t)rtt;
    unsigned k = ST_KEEP;
    while (k > 0 && (low[k - 1] == 0 || low[k - 1] > r)) { /* insert r, dropping the longest */
        if (k < ST_KEEP)
            low[k] = low[k - 1];
        k--;
    }
    if (k < ST_KEEP)
        low[k] = r;
    for (k = ST_KEEP; k > 0; k--)
        if (low[k - 1])
            return low[k - 1];
    return r;
}

/* The pacing's generator of node i starts from the run's seed and the node, mixed (clause
 * "seeded"): a sweep's seeds put every host's reads at other moments, as they move its traffic.
 * The node's own start (a fixed odd multiple of its index) is moved by splitmix64's finaliser
 * of (seed - 1) times an odd number of the node: a different move per node and per seed, none
 * for seed 1, whose reads stay where they were. */
static uint32_t st_rng_start(uint64_t seed, unsigned i)
{
    uint64_t z = (seed - 1u) * (0xD1B54A32D192ED03ull * (2u * (uint64_t)i + 1u));
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return ((0x9E3779B9u * (i + 1u)) ^ (uint32_t)(z >> 32)) | 1u;
}

/* The pause before a path's next read (clause "paced"): p (1/32 of a watchdog period for a retest,
 * 1/8 for a learning round), from half to one and a half of it at a jittered phase, so that reads do not lock onto periodic traffic
 * (a read sent at the phase a source's data goes is behind it every time, a steady lateness
 * as a detour's). */
static uint64_t st_pace(sci_sys_t *s, unsigned i, uint64_t p)
{
    ftn_t *f = &s->ft.n[i];
    f->st_rng ^= f->st_rng << 13;
    f->st_rng ^= f->st_rng >> 17;
    f->st_rng ^= f->st_rng << 5;
    return p / 2u + (p ? f->st_rng % p : 0);
}

/* The read to the round's destination was late or lost: tested again after a paced pause (a
 * queue drains, a detour stays); ST_LATE in a row fail the path. */
static void st_late(sci_sys_t *s, unsigned i, const char *why)
{
    ftn_t *f = &s->ft.n[i];
    f->st_wait = false;
    if (++f->st_late >= ST_LATE)
        st_failed(s, i, why);
    else
        f->st_retest = s->now + st_pace(s, i, s->ft.c_hang / ST_GAPS);
}

/* Clause "starved": a node that inserts the read or its reply on a ring (the source, the
 * nodes where it turns, the target), asked by the host over the management network, saw an LC
 * of its own full at a watchdog sample while the read was out: it could send nothing there, as
 * the path's data could not; a saturated ring starves a node so, and a recovery cannot cure it. */
static bool path_starved(sci_sys_t *s, unsigned src, unsigned dst, uint64_t since)
{
    for (unsigned dir = 0; dir < 2; dir++) {
        sci_trace_t tr;
        sci_route_trace(&s->ff, dir ? dst : src, dir ? src : dst, -1, &tr);
        for (unsigned h = 0; h < tr.nhops; h += 2)
            if (s->ft.n[tr.hop[h].node].blocked_at >= since)
                return true;
    }
    return false;
}

/* The read got no answer (the PSB's timeout reply, or none by the deadline). While the path's
 * own data was acknowledged meanwhile the path works and the read was lost to the load (a
 * destination's reply buffer full, a busy target's retry limit): a late read (clause "lost").
 * Otherwise the path failed. */
static void st_lost(sci_sys_t *s, unsigned i, const char *why)
{
    ftn_t *f = &s->ft.n[i];
    unsigned dst = f->st_dst[f->st_idx];
    bool moving = f->st_dmax[dst] != 0; /* an ACK since the last verdict, not a DATA waiting */
    bool starved = path_starved(s, i, dst, f->st_sent);
    f->st_dmax[dst] = 0; /* a verdict: the data's measure starts again */
    if (starved)
        st_late(s, i, "lost every time, its target unable to send");
    else if (moving)
        st_late(s, i, "lost every time, while its data got through");
    else
        st_failed(s, i, why);
}

/* A read its LC gave up with no echo (reason 2: nothing took it), for its ring down (3) or
 * itself disabled (4) will get no reply: it is lost now, not when the PSB's timer runs out
 * (rtl/sci_lc.md section 2); clause "lost" judges it. Out of busy retries (1) is a busy target:
 * its next retry may be answered, and the PSB's timer decides. */
void scisys_ft_fail_report(sci_sys_t *s, unsigned i, uint16_t tid, unsigned reason)
{
    if (!s->ft.n || !s->ft.n[i].st_wait || s->ft.n[i].st_tid != tid || reason < 2u)
        return;
    st_lost(s, i, "given up by its LC (no echo, ring down or LC disabled)");
}

void scisys_ft_acked(sci_sys_t *s, unsigned i, unsigned dst, uint64_t rtt)
{
    ftn_t *f = &s->ft.n[i];
    uint32_t r = rtt > UINT32_MAX ? UINT32_MAX : (uint32_t)rtt;
    if (r > f->st_dmax[dst])
        f->st_dmax[dst] = r;
}

int scisys_ft_reply(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned len)
{
    if (!s->ft.n)
        return 0;
    ftn_t *f = &s->ft.n[i];
    if (!f->st_wait || len < 7 || p[3] != f->st_tid)
        return 0;
    unsigned dst = f->st_dst[f->st_idx];
    if (p[4] & 0x8000u)
        st_lost(s, i, "timed out");
    else if ((p[2] & SCI_ID_MASK) != s->id[dst])
        st_failed(s, i, "answered by another node");
    else {
        uint64_t rtt = s->now - f->st_sent;
        uint32_t *base = &f->st_base[dst];
        f->st_wait = false;
        if (f->st_calib || !*base) { /* the first rounds: the path's latency, fault-free */
            *base = st_learn(&f->st_low[(size_t)dst * ST_KEEP], rtt);
            f->st_idx++;
        } else if (rtt > *base + ST_SLACK(*base)) {
            /* late ST_LATE times in a row is a failure (a detour is late every time, a queue
             * behind traffic now and then) */
            st_late(s, i, "answered late every time (a detour)");
        } else {
            f->st_late = 0;
            f->st_idx++;
        }
        f->st_dmax[dst] = 0; /* a verdict: the data's measure starts again */
    }
    return 1;
}

/* Clause "left": the read's clock starts when it leaves its own node. Until then it waits
 * behind the data its host handed the PSB before it (an LC that can take none holds them all),
 * which no deadline of the path's may count: a node that holds it for good is the watchdog's
 * (its PSB or the LC it waits for is hung). The host looks at its PSB every ST_POLL cycles
 * (one register read each, STATUS and DBG, rtl/sci_node.md section 4): the remote-read timer
 * armed for its read (STATUS[10], the host's read handed over) dates the start exactly, the
 * timer counting down from rsr_timeout in the cycle after; or the send FIFO holds no more
 * packets than the host handed after the read (it has gone, within the last look). From the
 * start the PSB answers within rsr_timeout, its STATUS_REPLY or its timeout reply, and the
 * host allows ST_REPLY more for that answer to cross its node. */
static void st_watch(sci_sys_t *s, unsigned i)
{
    ftn_t *f = &s->ft.n[i];
    const host_t *h = &s->host[i];
    f->st_poll = s->now + ST_POLL;
    if (h->read_tid != f->st_tid || h->read_n == 0)
        return; /* still in the host's own queue */
    uint64_t st = reg_read(s, i, SCI_PSB_STATUS);
    uint64_t left = (reg_read(s, i, SCI_PSB_DBG) >> 12) & 0xFFFFu;
    uint64_t rsr = s->cfg.par.rsr_timeout, t0;
    if ((st >> 10 & 1u) && left && left <= rsr)
        t0 = s->now - 1u - (rsr - left); /* armed by this read: its symbol 0 moved then */
    else if ((st & 0xFu) <= h->handed - h->read_n)
        t0 = s->now; /* gone from the send FIFO since the last look */
    else
        return;
    f->st_left = true;
    f->st_deadline = t0 + rsr + ST_REPLY;
}

static void st_cycle(sci_sys_t *s, unsigned i)
{
    ftn_t *f = &s->ft.n[i];
    if (f->st_wait) {
        if (!f->st_left && s->now >= f->st_poll)
            st_watch(s, i);
        if (s->now >= f->st_deadline)
            st_lost(s, i, "got no reply");
        return;
    }
    if (f->st_idx < f->st_ndst) { /* the round goes on */
        if (s->now >= f->st_retest && s->now >= s->ft.st_quiet && s->drv[i].rr_state != 1 &&
            !s->drv[i].rr_send_at)
            st_send(s, i);
        return;
    }
    if (s->now < f->st_next || s->now < s->ft.st_quiet)
        return;
    if (f->st_calib && f->st_rounds >= ST_CALIB)
        f->st_calib = false;
    f->st_rounds++;
    f->st_late = 0;
    /* the learning rounds come every 1/8 watchdog period, under the traffic; then one every
     * selftest_ms */
    f->st_next = s->now + (f->st_calib ? st_pace(s, i, s->ft.c_hang / WD_SAMPLES) : s->ft.c_st);
    st_round(s, i);
}

/* ---- the watchdog --------------------------------------------------------------------- */

static void wd_tick(sci_sys_t *s, unsigned i)
{
    ftn_t *f = &s->ft.n[i];
    drv_t *d = &s->drv[i];
    uint32_t crc = 0;
    bool hung = false;
    bool full[2] = {false, false}; /* clause "blocked": an LC that can take no packet */
    for (unsigned k = 0; k < 3; k++) {
        uint64_t sig;
        bool work;
        if (k < 2) {
            uint64_t st = reg_read(s, i, LCB(k) + SCI_REG_STATUS);
            uint64_t dbg = reg_read(s, i, LCB(k) + SCI_REG_DBG);
            crc += (uint32_t)(reg_read(s, i, LCB(k) + SCI_REG_COUNTS) & 0xFFFFu);
            /* work: buffers, queues, a packet being parsed; a disabled LC or one whose ring is
             * down fails what it holds by itself (the protocol reports it) */
            work = ((st >> 4) & 0xFFFu) || (dbg & 0xFu);
            if (d->broken[k] || (st & 4u) || !(st & 1u))
                work = false;
            /* a packet buffer of the pool of 12 free and fewer than 8 in the send queue */
            full[k] = ((st >> 8) & 0xFu) >= 8u || ((st >> 4) & 0xFu) + ((st >> 8) & 0xFu) >= 12u;
            if (full[k])
                f->blocked_at = s->now; /* clause "starved" of the self-test */
            sig = (st & 0xFFF0u) ^ (dbg * 0x9E3779B97F4A7C15ull);
        } else {
            uint64_t st = reg_read(s, i, SCI_PSB_STATUS);
            uint64_t dbg = reg_read(s, i, SCI_PSB_DBG);
            /* packets waiting in its FIFOs with the B-link free wait for an LC that can take
             * none (a ring that lets it insert nothing for a while): the LC's own check is
             * the one that can see a hang there */
            work = (dbg & 7u) || ((st & 0x3FFu) && !full[0] && !full[1]);
            sig = (st & 0xFFFFu) ^ ((dbg & 0xFFFu) * 0x9E3779B97F4A7C15ull);
        }
        /* the same state, holding work, at every sample of a whole period: hung */
        if (work && sig == f->sig[k]) {
            if (++f->still[k] >= WD_SAMPLES)
                hung = true;
        } else
            f->still[k] = 0;
        f->sig[k] = sig;
    }
    if (crc != f->crc_seen) { /* the LCs' CRC error counts rose: the protocol saw something */
        if (crc > f->crc_seen) {
            s->ft.st.prot_events++;
            detected(s, UPSET_DET_PROTOCOL);
        }
        f->crc_seen = crc;
    }
    if (hung && f->rec == REC_NONE) {
        detected(s, UPSET_DET_WATCHDOG);
        scisys_log(s, i, "watchdog: a block holds work and made no progress in %llu cycles",
                   (unsigned long long)s->ft.c_hang);
        memset(f->still, 0, sizeof f->still);
        rec_request(s, i, s->now);
    }
}

/* ---- the scrub (an ablation's detector) ------------------------------------------------ */

/* One entry a step: its three index registers written, then (the writes gone) its five
 * fields read and compared with the host's copy; a difference is a detection. */
static void sc_cycle(sci_sys_t *s, unsigned i)
{
    ftn_t *f = &s->ft.n[i];
    drv_t *d = &s->drv[i];
    const sci_torus_t *t = &s->ff.t;
    if (f->sc_wait) {
        if (d->wqn)
            return;
        f->sc_wait = false;
        unsigned dst = f->sc_idx % s->n, set = f->sc_idx / s->n;
        sci_entry_t e = s->cfg.p2s ? *sci_route_entry(&s->ff, i, set, dst) : d->shadow[dst];
        bool bad = (reg_read(s, i, SCI_REG_LRT) & 1u) != e.xtake ||
                   (reg_read(s, i, SCI_REG_BRT) & 7u) != e.xport ||
                   (reg_read(s, i, LCB(1) + SCI_REG_LRT) & 1u) != e.ytake ||
                   (reg_read(s, i, LCB(1) + SCI_REG_BRT) & 7u) != e.yport ||
                   (reg_read(s, i, SCI_PSB_BRT) & 7u) != e.pport;
        f->sc_idx++;
        if (bad && f->rec == REC_NONE) {
            detected(s, UPSET_DET_SCRUB);
            scisys_log(s, i, "scrub: the entry for (%u,%u) differs from the host's copy",
                       xn(s, dst), yn(s, dst));
            rec_request(s, i, s->now);
        }
        return;
    }
    if (f->sc_idx >= s->n * s->ff.nsets) {
        if (s->now < f->sc_next)
            return;
        f->sc_next = s->now + s->ft.c_scrub;
        f->sc_idx = 0;
    }
    if (d->wqn || f->rec != REC_NONE)
        return;
    unsigned dst = f->sc_idx % s->n, set = f->sc_idx / s->n;
    uint64_t idx = sci_route_index(t, set, dst);
    scisys_wq_push(s, i, SCI_REG_TADDR, idx, 0x3FFF);
    scisys_wq_push(s, i, LCB(1) + SCI_REG_TADDR, idx, 0x3FFF);
    scisys_wq_push(s, i, SCI_PSB_TADDR, idx, 0x3FFF);
    f->sc_wait = true;
}

/* ---- the cycle ------------------------------------------------------------------------ */

void scisys_ft_cycle(sci_sys_t *s)
{
    unsigned ft = s->cfg.ft;
    for (unsigned i = 0; i < s->n; i++) {
        ftn_t *f = &s->ft.n[i];
        if (s->host[i].dead)
            continue;
        if (f->rec != REC_NONE) {
            rec_step(s, i);
            continue;
        }
        if ((ft & SCI_FT_WATCHDOG) && s->now >= f->wd_next) {
            f->wd_next = s->now + s->ft.c_hang / WD_SAMPLES;
            wd_tick(s, i);
        }
        if ((ft & SCI_FT_SELFTEST) && s->drv[i].state == SCI_DRV_IDLE && f->rec == REC_NONE)
            st_cycle(s, i);
        if ((ft & SCI_FT_SCRUB) && s->drv[i].state == SCI_DRV_IDLE && f->rec == REC_NONE)
            sc_cycle(s, i);
    }
    if (!s->cfg.out_digest)
        return;
    /* every output of the cycle (sampled at its start), into the running digest */
    uint64_t h = s->ft.out_digest;
    const uint64_t *o = s->ls.out[0];
    for (unsigned p = 0; p < s->d->nports; p++)
        h = (h ^ o[p]) * 0x100000001B3ull;
    s->ft.out_digest = h;
}

uint64_t scisys_ft_next(const sci_sys_t *s)
{
    uint64_t t = UINT64_MAX;
    for (unsigned i = 0; i < s->n; i++) {
        const ftn_t *f = &s->ft.n[i];
        if (s->host[i].dead)
            continue;
        if (f->rec != REC_NONE || f->st_wait || f->sc_wait)
            return s->now;
        if (f->st_idx < f->st_ndst) {
            uint64_t a = f->st_retest > s->ft.st_quiet ? f->st_retest : s->ft.st_quiet;
            if (a <= s->now)
                return s->now;
            if (a < t)
                t = a;
        }
        if ((s->cfg.ft & SCI_FT_WATCHDOG) && f->wd_next < t)
            t = f->wd_next;
        if ((s->cfg.ft & SCI_FT_SELFTEST) && f->st_next < t)
            t = f->st_next > s->ft.st_quiet ? f->st_next : s->ft.st_quiet;
        if ((s->cfg.ft & SCI_FT_SCRUB) && f->sc_next < t)
            t = f->sc_next;
    }
    return t;
}

/* ---- set-up ----------------------------------------------------------------------------- */

int scisys_ft_open(sci_sys_t *s, char *err, size_t errlen)
{
    const sci_sys_params_t *p = &s->cfg.par;
    scisys_ft_t *ft = &s->ft;
    ft->n = calloc(s->n, sizeof *ft->n);
    if (!ft->n) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    ft->c_st = sci_sys_ms(p, p->selftest_ms);
    ft->c_scrub = sci_sys_ms(p, p->scrub_ms);
    ft->c_mgmt = p->mgmt_us > 0 ? sci_sys_ms(p, p->mgmt_us / 1000.0) : 0;
    /* The longest legal stall (sci_sys.md section 8): an LC may hold a packet through every
     * retry its limits allow with nothing else changing: (retry_limit + 1) echo timeouts, each
     * with the packet's insertion (37 symbols and an idle), and (busy_limit + 1) busy round
     * trips of its longest ring (5 cycles a hop, a packet's 38 at every hop under load). */
    unsigned N = s->w > s->h ? s->w : s->h;
    uint64_t stall = (uint64_t)(p->retry_limit + 1u) * (p->echo_timeout + 2u + 38u) +
                     (uint64_t)(p->busy_limit + 1u) * (38u + 43u * N);
    ft->c_hang = p->hang_cycles ? p->hang_cycles : stall + stall / 8u;
    /* a recovered node's rings are up again within 66 + 5 N cycles of its reset (the LC's
     * ring-up bound); its probes go round in a loaded ring's round trip */
    ft->c_probe = 2u * (66u + 5u * N) + 2u * 43u * N;
    for (unsigned i = 0; i < s->n; i++) {
        ftn_t *f = &ft->n[i];
        f->st_dst = calloc(s->n, sizeof *f->st_dst);
        f->st_base = calloc(s->n, sizeof *f->st_base);
        f->st_low = calloc((size_t)s->n * ST_KEEP, sizeof *f->st_low);
        f->st_dmax = calloc(s->n, sizeof *f->st_dmax);
        f->st_calib = true;
        f->st_rng = st_rng_start(s->cfg.seed, i);
        if (!f->st_dst || !f->st_base || !f->st_low || !f->st_dmax) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        /* the nodes' timers start spread over one period */
        f->st_next = s->now + 2000u + ft->c_hang / WD_SAMPLES * (i + 1u) / s->n;
        f->wd_next = s->now + ft->c_hang * (i + 1u) / s->n;
        f->sc_next = s->now + ft->c_scrub * (i + 1u) / s->n;
        f->sc_idx = UINT32_MAX; /* no scrub pass under way */
    }
    for (unsigned i = 0; i < s->n; i++) /* the CRC counts as they are */
        ft->n[i].crc_seen = (uint32_t)((reg_read(s, i, SCI_REG_COUNTS) & 0xFFFFu) +
                                       (reg_read(s, i, LCB(1) + SCI_REG_COUNTS) & 0xFFFFu));
    return 0;
}

void scisys_ft_free(sci_sys_t *s)
{
    for (unsigned i = 0; s->ft.n && i < s->n; i++)
        free(s->ft.n[i].st_dst), free(s->ft.n[i].st_base),
            free(s->ft.n[i].st_low),
            free(s->ft.n[i].st_dmax);
    free(s->ft.n);
    s->ft.n = NULL;
}

void sci_sys_ft_stats(const sci_sys_t *s, sci_ft_stats_t *st) { *st = s->ft.st; }

uint64_t sci_sys_out_digest(const sci_sys_t *s) { return s->ft.out_digest; }

uint64_t sci_sys_state_digest(sci_sys_t *s)
{
    unsigned nd = s->d->ndebug;
    uint64_t *w = calloc(nd ? nd : 1, sizeof *w);
    if (!w)
        return 0;
    dev_debug(s->ls.m[0], w);
    uint64_t h = 0xCBF29CE484222325ull;
    for (unsigned k = 0; k < nd; k++)
        h = (h ^ w[k]) * 0x100000001B3ull;
    free(w);
    return h;
}
