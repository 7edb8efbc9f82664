/*
 * sci_sys_driver.c — the driver of the SCI paper (harness/scisys/sci_sys.md section 3), one
 * per node: CableNotOk, ReadyToGo (table computation and load, ring probes, the LC3 remote
 * read of the upstream neighbour's Y ring), the watchdog, NOTIFY; and the device's register
 * port, which the drivers (and the static front end) share.
 */
#include "sci_sys_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sci_word.h"

/* The faults this driver knows, as sci_route sees faults. */
static void drv_known(const sci_sys_t *s, unsigned i, sci_faults_t *f)
{
    const drv_t *d = &s->drv[i];
    memset(f, 0, sizeof *f);
    if (d->broken[0])
        f->xring[yn(s, i)] = 1;
    if (d->broken[1])
        f->yring[xn(s, i)] = 1;
    if (d->remote_y)
        f->yring[(xn(s, i) + s->w - 1) % s->w] = 1;
}

/* Hold the messages whose fault-free route uses a ring this driver knows is broken. */
static void drv_update_holds(sci_sys_t *s, unsigned i)
{
    host_t *h = &s->host[i];
    drv_t *d = &s->drv[i];
    bool pass = d->state != SCI_DRV_IDLE && !s->cfg.p2s;
    unsigned x = xn(s, i), y = yn(s, i), xu = (x + s->w - 1) % s->w;
    scisys_host_wake(s, i);
    h->nheld = 0;
    for (unsigned t = 0; t < s->n; t++) {
        unsigned tx = xn(s, t), ty = yn(s, t);
        bool use = (d->broken[0] && tx != x) || (d->broken[1] && tx == x && ty != y) ||
                   (d->remote_y && tx == xu && ty != y);
        h->held[t] = (pass && use && t != i) || scisys_ft_holds(s, i);
        h->nheld += h->held[t];
    }
    if (h->nheld == 0) /* released: what was held goes now (go back to the oldest) */
        for (unsigned j = 0; j < h->nflows; j++) {
            flow_t *f = &s->flow[h->flows[j]];
            if (f->base < f->sent_hi && f->rtx_at)
                f->rtx_at = s->now;
            f->quiet_until = 0; /* new routes: a rested flow tries again (one message) */
            f->fail_streak = 0;
        }
}

void scisys_drv_holds(sci_sys_t *s, unsigned i) { drv_update_holds(s, i); }

static void drv_state(sci_sys_t *s, unsigned i, int st, uint64_t until)
{
    s->drv[i].state = st;
    s->drv[i].t_until = until;
    drv_update_holds(s, i);
}

static void drv_notify(sci_sys_t *s, unsigned i, bool down)
{
    unsigned nb = sci_torus_index(s->w, (xn(s, i) + 1) % s->w, yn(s, i));
    uint16_t pay[2] = {down, 1};
    scisys_host_post(s, i, s->id[nb], SCI_T_NOTIFY, TK_NOTIFY, pay, 2, NULL);
    s->drv[i].st.notifies_sent++;
}

static void drv_send_read(sci_sys_t *s, unsigned i, bool in_pass)
{
    drv_t *d = &s->drv[i];
    unsigned up = sci_torus_index(s->w, (xn(s, i) + s->w - 1) % s->w, yn(s, i));
    uint16_t pay[1] = {1};
    scisys_host_post(s, i, s->id[up], SCI_T_STATUS_READ, TK_READ, pay, 1, &d->rr_tid);
    d->rr_state = 1;
    d->rr_in_pass = in_pass;
}

/* CableNotOk: check every LC, disable a faulty one and store its status, clear the
 * interrupts, wait. */
static void drv_cnok(sci_sys_t *s, unsigned i)
{
    drv_t *d = &s->drv[i];
    d->st.cnok_passes++;
    scisys_ft_protocol(s, i);
    for (unsigned k = 0; k < 2; k++) {
        unsigned base = k ? SCI_NODE_LC_STRIDE : 0;
        uint64_t st = reg_read(s, i, base + SCI_REG_STATUS);
        if (st & 8u)
            scisys_wq_push(s, i, base + SCI_REG_STATUS_CLR, 8u, 0xFF);
        if (!(st & 1u) && !d->broken[k]) {
            d->broken[k] = 1;
            scisys_wq_push(s, i, base + SCI_REG_CTRL, 0, 1ull << SCI_CTRL_ENABLE_BIT);
            scisys_log(s, i, "CableNotOk: %s-LC down, disabled", k ? "Y" : "X");
            if (k == 1 && !s->cfg.p2s)
                drv_notify(s, i, true);
        }
    }
    d->again = false;
    drv_state(s, i, SCI_DRV_CNOK, s->now + s->c_cnok);
}

/* ReadyToGo: compute the tables (LC3), load what changed, probe, wait. */
static void drv_rtg_start(sci_sys_t *s, unsigned i)
{
    drv_t *d = &s->drv[i];
    d->st.rtg_passes++;
    d->rerun = false;
    scisys_log(s, i, "ReadyToGo (X %s, Y %s, upstream Y %s)", d->broken[0] ? "broken" : "ok",
               d->broken[1] ? "broken" : "ok", d->remote_y ? "broken" : "ok");
    if (s->cfg.p2s)
        drv_state(s, i, SCI_DRV_LOAD, 0); /* nothing to compute: the hardware routes */
    else
        drv_state(s, i, SCI_DRV_COMPUTE, s->now + s->c_compute);
}

static void drv_load(sci_sys_t *s, unsigned i)
{
    drv_t *d = &s->drv[i];
    sci_faults_t f;
    sci_tables_t tb;
    sci_torus_t t = s->ff.t;
    char err[160];
    drv_known(s, i, &f);
    if (sci_route_tables(&t, &f, &tb, err, sizeof err) < 0) {
        scisys_fail(s, "driver (%u,%u): %s", xn(s, i), yn(s, i), err);
        return;
    }
    for (unsigned dst = 0; dst < s->n; dst++) {
        const sci_entry_t *e = sci_route_entry(&tb, i, 0, dst);
        sci_entry_t *o = &d->shadow[dst];
        uint64_t idx = sci_route_index(&t, 0, dst);
        if (e->xtake != o->xtake || e->xport != o->xport) {
            scisys_wq_push(s, i, SCI_REG_TADDR, idx, 0x3FFF);
            scisys_wq_push(s, i, SCI_REG_LRT, e->xtake, 1);
            scisys_wq_push(s, i, SCI_REG_BRT, e->xport, 7);
            d->st.table_writes += 3;
        }
        if (e->ytake != o->ytake || e->yport != o->yport) {
            scisys_wq_push(s, i, SCI_NODE_LC_STRIDE + SCI_REG_TADDR, idx, 0x3FFF);
            scisys_wq_push(s, i, SCI_NODE_LC_STRIDE + SCI_REG_LRT, e->ytake, 1);
            scisys_wq_push(s, i, SCI_NODE_LC_STRIDE + SCI_REG_BRT, e->yport, 7);
            d->st.table_writes += 3;
        }
        if (e->pport != o->pport) {
            scisys_wq_push(s, i, SCI_PSB_TADDR, idx, 0x3FFF);
            scisys_wq_push(s, i, SCI_PSB_BRT, e->pport, 7);
            d->st.table_writes += 2;
        }
        *o = *e;
    }
    sci_route_free(&tb);
    drv_state(s, i, SCI_DRV_LOAD, 0);
}

/* The loads are written: probe each enabled ring, start the probe timer; LC3 reads the
 * upstream X neighbour's Y-ring status half-way through it, when the neighbours running the
 * same pass have loaded their tables too. */
static void drv_probe(sci_sys_t *s, unsigned i)
{
    drv_t *d = &s->drv[i];
    for (unsigned k = 0; k < 2; k++)
        if (!d->broken[k]) {
            uint16_t pay[1] = {(uint16_t)k};
            scisys_host_post(s, i, s->id[i], SCI_T_PROBE, TK_PROBE, pay, 1, NULL);
        }
    d->rr_state = 0;
    d->rr_send_at = s->cfg.p2s ? 0 : s->now + s->c_rtg / 2;
    drv_state(s, i, SCI_DRV_PROBE, s->now + s->c_rtg);
}

static void drv_probe_done(sci_sys_t *s, unsigned i)
{
    drv_t *d = &s->drv[i];
    if (!s->cfg.p2s && d->rr_state >= 1) {
        bool broken = d->rr_state != 2; /* no answer by now counts as broken */
        if (broken != d->remote_y) {
            d->remote_y = broken;
            d->st.extra_passes++;
            scisys_log(s, i, "remote probe: upstream Y ring %s: another pass",
                       broken ? "broken" : "back");
            drv_rtg_start(s, i);
            return;
        }
    }
    if (d->rerun) {
        d->st.extra_passes++;
        drv_rtg_start(s, i);
        return;
    }
    d->rr_state = 0;
    scisys_log(s, i, "resume");
    drv_state(s, i, SCI_DRV_IDLE, 0);
}

/* Every watchdog period: a disabled LC whose ring is back is enabled again, and so the
 * fault-free tables return; LC3 re-reads a remote fault it knows. */
static void drv_watchdog(sci_sys_t *s, unsigned i)
{
    drv_t *d = &s->drv[i];
    bool changed = false;
    for (unsigned k = 0; k < 2; k++) {
        unsigned base = k ? SCI_NODE_LC_STRIDE : 0;
        if (!d->broken[k])
            continue;
        uint64_t st = reg_read(s, i, base + SCI_REG_STATUS);
        if (st & 1u) {
            d->broken[k] = 0;
            scisys_wq_push(s, i, base + SCI_REG_CTRL, 1ull << SCI_CTRL_ENABLE_BIT,
                           1ull << SCI_CTRL_ENABLE_BIT);
            if (st & 8u)
                scisys_wq_push(s, i, base + SCI_REG_STATUS_CLR, 8u, 0xFF);
            scisys_log(s, i, "watchdog: %s ring back, LC enabled", k ? "Y" : "X");
            if (k == 1 && !s->cfg.p2s)
                drv_notify(s, i, false);
            changed = true;
        }
    }
    if (changed) {
        d->st.watchdog_restores++;
        drv_rtg_start(s, i);
    } else if (d->remote_y && !s->cfg.p2s && d->rr_state != 1) {
        drv_send_read(s, i, false);
    }
}

void scisys_drv_cycle(sci_sys_t *s, unsigned i)
{
    drv_t *d = &s->drv[i];
    if (d->state == SCI_DRV_DEAD)
        return;
    if (s->cfg.mode == SCI_SYS_DYNAMIC) {
        bool irq[2] = {out_port(s, i, SCI_TP_IRQ_X) & 1u, out_port(s, i, SCI_TP_IRQ_Y) & 1u};
        bool fresh = (irq[0] && !d->broken[0]) || (irq[1] && !d->broken[1]);
        if (fresh && d->wqn == 0) { /* the clearing writes of the last pass have gone */
            if (d->state == SCI_DRV_CNOK) {
                d->again = true;
                for (unsigned k = 0; k < 2; k++)
                    if (irq[k])
                        scisys_wq_push(s, i, (k ? SCI_NODE_LC_STRIDE : 0) + SCI_REG_STATUS_CLR, 8u,
                                       0xFF);
            } else {
                drv_cnok(s, i);
            }
        }
    }
    if (d->rr_send_at && s->now >= d->rr_send_at) {
        d->rr_send_at = 0;
        drv_send_read(s, i, true);
    }
    switch (d->state) {
    case SCI_DRV_CNOK:
        if (s->now >= d->t_until) {
            if (d->again)
                drv_cnok(s, i);
            else
                drv_rtg_start(s, i);
        }
        break;
    case SCI_DRV_COMPUTE:
        if (s->now >= d->t_until)
            drv_load(s, i);
        break;
    case SCI_DRV_LOAD:
        if (d->wqn == 0)
            drv_probe(s, i);
        break;
    case SCI_DRV_PROBE:
        if (s->now >= d->t_until)
            drv_probe_done(s, i);
        break;
    default: break;
    }
    if (s->cfg.mode == SCI_SYS_DYNAMIC && s->now >= d->wd_next) {
        d->wd_next += s->c_wd;
        if (d->state == SCI_DRV_IDLE)
            drv_watchdog(s, i);
    }
}

/* ---- P2S hardware failover, as the host sees it (for the log) ------------------------------ */

/* The node of the id in node i's PSB NTGT, as "(x,y)". */
static void ntgt_name(sci_sys_t *s, unsigned i, char *buf, size_t len)
{
    uint16_t id = (uint16_t)(reg_read(s, i, SCI_PSB_NTGT) & SCI_ID_MASK);
    unsigned t = node_of_id(s, id);
    if (t == UINT32_MAX)
        snprintf(buf, len, "id 0x%x", id);
    else
        snprintf(buf, len, "(%u,%u)", xn(s, t), yn(s, t));
}

/* LC k of node i went down (its interrupt rose); unless its driver had disabled it already
 * (then the PSB was redirecting since), the PSB redirects from this cycle on. */
void scisys_fo_down(sci_sys_t *s, unsigned i, unsigned rose)
{
    if (!s->cfg.log)
        return;
    const drv_t *d = &s->drv[i];
    if ((rose & 1u) && !d->broken[0])
        scisys_log(s, i,
                   "P2S failover: X-LC down: the PSB redirects packets for the X-LC to the Y-LC "
                   "(bit 14 iff ty != sy)");
    if ((rose & 2u) && !d->broken[1]) {
        char to[32], owed[64] = "";
        ntgt_name(s, i, to, sizeof to);
        if (reg_read(s, i, SCI_PSB_STATUS) >> 13 & 1u) /* yup_seen: the ring was up once */
            snprintf(owed, sizeof owed, "; NOTIFY (Y down) owed to %s", to);
        scisys_log(s, i,
                   "P2S failover: Y-LC down: the PSB redirects packets for the Y-LC to the X-LC "
                   "(X-first), the X-LC lets column %u bypass%s",
                   xn(s, i), owed);
    }
}

/* A register write reached node i: enabling an LC again (its ring is up: the watchdog looked)
 * ends the redirect. */
static void fo_write(sci_sys_t *s, unsigned i, const wr_t *w)
{
    unsigned a = w->addr & 0xFFu, en = 1u << SCI_CTRL_ENABLE_BIT;
    int k = a == SCI_REG_CTRL ? 0 : a == SCI_NODE_LC_STRIDE + SCI_REG_CTRL ? 1 : -1;
    if (k < 0 || !(w->mask & en) || !(w->data & en) || !s->cfg.log)
        return;
    if (k == 0) {
        scisys_log(s, i, "P2S failover: X-LC enabled, its ring up: the redirect ends");
        return;
    }
    char to[32], owed[64] = "";
    ntgt_name(s, i, to, sizeof to);
    if (reg_read(s, i, SCI_PSB_STATUS) >> 13 & 1u)
        snprintf(owed, sizeof owed, "; NOTIFY (Y up) owed to %s", to);
    scisys_log(s, i, "P2S failover: Y-LC enabled, its ring up: the redirect and the bypass end%s",
               owed);
}

/* ---- packets for the driver ------------------------------------------------------------ */

/* The answer to the remote status read of the upstream X neighbour's Y-LC. */
void scisys_drv_got_reply(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned len)
{
    drv_t *d = &s->drv[i];
    if (scisys_ft_reply(s, i, p, len))
        return;
    if (len < 7 || d->rr_state != 1 || p[3] != d->rr_tid)
        return;
    bool broken = (p[4] & 0x8000u) || !(p[5] & 1u) || (p[5] & 4u);
    d->rr_state = broken ? 3 : 2;
    d->st.remote_reads++;
    if (broken)
        d->st.remote_broken++;
    if (p[4] & 0x8000u)
        d->st.read_timeouts++;
    scisys_log(s, i, "remote read of (%u,%u)'s Y ring: %s", (xn(s, i) + s->w - 1) % s->w, yn(s, i),
               (p[4] & 0x8000u) ? "timed out (broken)"
               : broken         ? "broken"
                                : "up");
    if (d->rr_in_pass)
        return; /* judged when the pass's probe timer ends */
    if (broken != d->remote_y) {
        d->remote_y = broken;
        if (d->state == SCI_DRV_IDLE)
            drv_rtg_start(s, i);
        else
            d->rerun = true;
    }
}

/* A neighbour's NOTIFY: its Y ring changed. */
void scisys_drv_got_notify(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned len)
{
    drv_t *d = &s->drv[i];
    if (len < 7 || p[5] != 1u)
        return;
    d->st.notifies_got++;
    scisys_log(s, i, "NOTIFY from (%u,%u): Y ring %s", xn(s, node_of_id(s, p[2])),
               yn(s, node_of_id(s, p[2])), p[4] ? "down" : "up");
    if (s->cfg.p2s) {
        d->remote_y = p[4] != 0; /* bookkeeping: the hardware already acted (FOCOL) */
        uint64_t fc = s->cfg.log ? reg_read(s, i, SCI_PSB_FOCOL) : 0;
        if (s->cfg.log && (fc & 1u))
            scisys_log(s, i,
                       "P2S failover: forced select: packets for column %u outside row %u take "
                       "address select 1 (Y-first) (FOCOL)",
                       (unsigned)(fc >> 8 & 0x3Fu), yn(s, i));
        else if (s->cfg.log)
            scisys_log(s, i, "P2S failover: forced select off (FOCOL clear)");
        return;
    }
    drv_send_read(s, i, false); /* LC3: confirm with a remote status read */
}

/* ---- the register port ------------------------------------------------------------------ */

void scisys_wq_push(sci_sys_t *s, unsigned i, unsigned a, uint64_t data, uint64_t mask)
{
    drv_t *d = &s->drv[i];
    if (d->wqn == d->wqcap) {
        unsigned cap = d->wqcap ? 2 * d->wqcap : 64;
        wr_t *q = malloc(cap * sizeof *q);
        if (!q) {
            scisys_fail(s, "out of memory (driver writes)");
            return;
        }
        for (unsigned k = 0; k < d->wqn; k++)
            q[k] = d->wq[(d->wqh + k) % d->wqcap];
        free(d->wq);
        d->wq = q;
        d->wqh = 0;
        d->wqcap = cap;
    }
    wr_t *w = &d->wq[(d->wqh + d->wqn++) % d->wqcap];
    w->addr = ((uint32_t)i << 8) | a;
    w->data = data;
    w->mask = mask;
    if (s->par)
        scisys_par_pending(s); /* a count every driver shares: after the phase */
    else
        s->pending_writes++;
    if (d->wqn == 1 && d->wnext < s->now)
        d->wnext = s->now;
}

/* At most one register write a cycle for the whole device: the next driver, round robin,
 * whose next write is due (one every reg_write_us). */
void scisys_drv_write(sci_sys_t *s)
{
    if (!s->pending_writes)
        return;
    for (unsigned j = 0; j < s->n; j++) {
        unsigned i = (s->wr_rr + j) % s->n;
        drv_t *d = &s->drv[i];
        if (!d->wqn || s->now < d->wnext)
            continue;
        wr_t *w = &d->wq[d->wqh];
        dev_write_t dw = {w->addr, w->data, w->mask};
        ls_reg_write(&s->ls, &dw);
        scisys_obs_write(s, i);
        if (s->cfg.p2s)
            fo_write(s, i, w);
        d->wqh = (d->wqh + 1) % d->wqcap;
        d->wqn--;
        s->pending_writes--;
        d->wnext = s->now + s->c_write;
        s->wr_rr = (i + 1) % s->n;
        return;
    }
}

void sci_sys_driver_stats(const sci_sys_t *s, unsigned node, sci_drv_stats_t *st)
{
    *st = s->drv[node].st;
    st->state = s->drv[node].state;
}
