/*
 * sci_sys_static.c — the static front end (sci_sys.md section 3, the baseline): one central
 * program that polls every ring, and on a change halts all traffic, recomputes every table
 * and reloads every node in turn, then resumes.
 */
#include "sci_sys_internal.h"

#include <stdio.h>
#include <string.h>

#include "prng.h"

static void fe_hold_all(sci_sys_t *s, bool on)
{
    s->fe.halt = on;
    for (unsigned i = 0; i < s->n; i++) {
        host_t *h = &s->host[i];
        scisys_host_wake(s, i);
        memset(h->held, on, s->n);
        h->nheld = on ? s->n : 0;
        if (!on)
            for (unsigned j = 0; j < h->nflows; j++) {
                flow_t *f = &s->flow[h->flows[j]];
                if (f->base < f->sent_hi && f->rtx_at)
                    f->rtx_at = s->now;
            }
    }
}

/* Every LC's ring status, as the front end polls it: the rings that are down. */
static bool fe_poll(sci_sys_t *s, sci_faults_t *f)
{
    memset(f, 0, sizeof *f);
    bool any = false;
    for (unsigned i = 0; i < s->n; i++)
        for (unsigned k = 0; k < 2; k++)
            if (!(reg_read(s, i, (k ? SCI_NODE_LC_STRIDE : 0) + SCI_REG_STATUS) & 1u)) {
                if (k == 0)
                    f->xring[yn(s, i)] = 1;
                else
                    f->yring[xn(s, i)] = 1;
                any = true;
            }
    return any;
}

/* A full load of node i's tables: every entry of every table, computed from all faults. */
static void fe_load_node(sci_sys_t *s, unsigned i)
{
    sci_tables_t tb;
    char err[160];
    sci_torus_t t = s->ff.t;
    if (sci_route_tables(&t, &s->fe.known, &tb, err, sizeof err) < 0) {
        scisys_fail(s, "front end: %s", err);
        return;
    }
    unsigned entries = s->cfg.p2s ? 2u * 8192u : 256u;
    for (unsigned idx = 0; idx < entries; idx++) {
        unsigned set = s->cfg.p2s ? idx / 8192u : 0, id = s->cfg.p2s ? idx % 8192u : idx;
        unsigned dst = node_of_id(s, (uint16_t)id);
        sci_entry_t e = {0, 0, 0, 0, 0};
        if (dst != UINT32_MAX)
            e = *sci_route_entry(&tb, i, set, dst);
        uint64_t ix = s->cfg.p2s ? (uint64_t)(set << 13 | id) : idx;
        scisys_wq_push(s, i, SCI_REG_TADDR, ix, 0x3FFF);
        scisys_wq_push(s, i, SCI_REG_LRT, e.xtake, 1);
        scisys_wq_push(s, i, SCI_REG_BRT, e.xport, 7);
        scisys_wq_push(s, i, SCI_NODE_LC_STRIDE + SCI_REG_TADDR, ix, 0x3FFF);
        scisys_wq_push(s, i, SCI_NODE_LC_STRIDE + SCI_REG_LRT, e.ytake, 1);
        scisys_wq_push(s, i, SCI_NODE_LC_STRIDE + SCI_REG_BRT, e.yport, 7);
        scisys_wq_push(s, i, SCI_PSB_TADDR, ix, 0x3FFF);
        scisys_wq_push(s, i, SCI_PSB_BRT, e.pport, 7);
        s->drv[i].st.table_writes += 8;
        if (dst != UINT32_MAX)
            s->drv[i].shadow[dst] = e;
    }
    sci_route_free(&tb);
}

void scisys_fe_cycle(sci_sys_t *s)
{
    switch (s->fe.state) {
    case 0:
        if (s->now >= s->fe.next_poll) {
            s->fe.next_poll += s->c_wd;
            sci_faults_t f;
            fe_poll(s, &f);
            if (memcmp(f.xring, s->fe.known.xring, sizeof f.xring) ||
                memcmp(f.yring, s->fe.known.yring, sizeof f.yring)) {
                s->fe.known = f;
                scisys_log(s, UINT32_MAX, "front end: a ring changed: halt everything");
                fe_hold_all(s, true);
                s->fe.state = 1;
                s->fe.until = s->now + s->c_cnok;
            }
        }
        break;
    case 1: /* drain */
        if (s->now >= s->fe.until) {
            s->fe.node = 0;
            s->fe.state = 2;
            s->fe.until = s->now + s->c_compute;
            for (unsigned i = 0; i < s->n; i++)
                s->drv[i].state = SCI_DRV_HALT;
        }
        break;
    case 2: /* compute (until), then load node `node` (until = UINT64_MAX) */
        if (s->fe.until != UINT64_MAX) {
            if (s->now >= s->fe.until) {
                scisys_log(s, s->fe.node, "front end: full table load");
                fe_load_node(s, s->fe.node);
                s->fe.until = UINT64_MAX;
            }
        } else if (s->drv[s->fe.node].wqn == 0) {
            s->fe.state = 3; /* re-initialise and probe the node's rings */
            s->fe.until = s->now + s->c_rtg;
        }
        break;
    case 3:
        if (s->now >= s->fe.until) {
            s->drv[s->fe.node].state = SCI_DRV_IDLE;
            if (++s->fe.node < s->n) {
                s->fe.state = 2;
                s->fe.until = s->now + s->c_compute;
            } else {
                scisys_log(s, UINT32_MAX, "front end: resume");
                fe_hold_all(s, false);
                s->fe.state = 0;
                s->fe.done++;
            }
        }
        break;
    }
}

/* The first poll at a random phase within the watchdog period (cfg.seed). */
void scisys_fe_init(sci_sys_t *s)
{
    prng_t rng;
    prng_seed(&rng, s->cfg.seed);
    s->fe.next_poll = s->now + s->c_wd / 2 + prng_below(&rng, (uint32_t)s->c_wd);
}

uint64_t scisys_fe_next(const sci_sys_t *s)
{
    if (s->fe.state == 0)
        return s->fe.next_poll;
    if (s->fe.until != UINT64_MAX)
        return s->fe.until;
    return s->drv[s->fe.node].wqn ? UINT64_MAX : s->now;
}

bool scisys_fe_busy(const sci_sys_t *s) { return s->fe.state != 0; }

unsigned sci_sys_static_done(const sci_sys_t *s) { return s->fe.done; }
