/*
 * sci_sys_threads.c — the per-node phases of the running torus's cycle (sci_sys.c, steps 3 to 5),
 * shared out over the threads of the system's pool (cfg.threads; without one, on the calling
 * thread, through the same code).
 *
 * What a node's host and driver do in a cycle touches that node's host, driver and device
 * registers and the flows it sources (the destination's half of a flow, the delivery ledger,
 * is written only by the destination, and reads nothing the source writes in the same phase).
 * So the nodes of a phase run in any order on any thread. What reaches beyond the node goes
 * through this file while a phase runs (s->par): the first failure, the log lines, the time
 * series and the waveform's delivery marks, the count of queued register writes. Each thread
 * collects them tagged with the position the work has in the one-thread order (phase * n +
 * node), and after the phase they are merged in that order: the run is the same, to the byte,
 * whatever the thread count and whichever thread ran which node.
 */
#include "sci_sys_internal.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sci_word.h"

typedef struct par_line { /* a log line */
    unsigned key, seq;
    char *text;
} par_line_t;

typedef struct par_dl { /* a delivery, for the time series and the waveform */
    unsigned key, seq, flow;
    double lat;
} par_dl_t;

/* A growing array of one kind of item, keyed (key, seq) as the structs above begin. */
typedef struct par_vec {
    void *a;
    unsigned n, cap;
} par_vec_t;

enum { V_LINE, V_DL, NV };
static const size_t vsize[NV] = {sizeof(par_line_t), sizeof(par_dl_t)};

/* One thread's collection; a cache line apart from the next thread's. */
struct scisys_tctx {
    _Alignas(64) unsigned key; /* the work under way: phase * n + node */
    unsigned seq;              /* items collected since the last merge */
    unsigned fail_key;         /* of the failure kept (UINT32_MAX: none) */
    char err[sizeof((sci_sys_t *)0)->err];
    par_vec_t v[NV];
    unsigned pending; /* register writes queued */
};

enum { PH_RX, PH_DRV, PH_TX };

int scisys_par_open(sci_sys_t *s, char *err, size_t errlen)
{
    s->ntctx = tpool_threads(s->hpool);
    s->tctx = aligned_alloc(_Alignof(scisys_tctx_t), s->ntctx * sizeof *s->tctx);
    if (!s->tctx) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memset(s->tctx, 0, s->ntctx * sizeof *s->tctx);
    for (unsigned k = 0; k < s->ntctx; k++)
        s->tctx[k].fail_key = UINT32_MAX;
    /* FTSIM_SYS_TWO_LOOPS: steps 3 to 5 in two loops always, the reference for the one loop
     * (tests/torus_stepping.py) */
    s->joined = s->cfg.mode == SCI_SYS_DYNAMIC && !s->cfg.ft && !getenv("FTSIM_SYS_TWO_LOOPS");
    s->idle_ok = s->joined && !s->cfg.ftdrb && !(s->cfg.p2s && s->cfg.log);
    return 0;
}

void scisys_par_free(sci_sys_t *s)
{
    for (unsigned k = 0; s->tctx && k < s->ntctx; k++) {
        par_line_t *l = s->tctx[k].v[V_LINE].a;
        for (unsigned j = 0; j < s->tctx[k].v[V_LINE].n; j++)
            free(l[j].text);
        for (unsigned v = 0; v < NV; v++)
            free(s->tctx[k].v[v].a);
    }
    free(s->tctx);
}

static scisys_tctx_t *ctx(sci_sys_t *s) { return &s->tctx[tpool_self(s->hpool)]; }

/* ---- what reaches beyond a node, collected ------------------------------------------------ */

static void keep_failure(scisys_tctx_t *c, const char *text)
{
    if (c->key < c->fail_key) {
        c->fail_key = c->key;
        snprintf(c->err, sizeof c->err, "%s", text);
    }
}

/* Room for one more item in v; NULL when memory ran out. */
static void *vec_add(par_vec_t *v, size_t size)
{
    if (v->n == v->cap) {
        unsigned cap = v->cap ? 2 * v->cap : 64;
        void *a = realloc(v->a, cap * size);
        if (!a)
            return NULL;
        v->a = a;
        v->cap = cap;
    }
    return (char *)v->a + v->n++ * size;
}

void scisys_par_fail(sci_sys_t *s, const char *fmt, va_list ap)
{
    scisys_tctx_t *c = ctx(s);
    if (c->key >= c->fail_key)
        return; /* the one-thread order would keep the one already here */
    char text[sizeof s->err];
    scisys_fail_format(s, text, sizeof text, fmt, ap);
    keep_failure(c, text);
}

void scisys_par_log(sci_sys_t *s, unsigned node, const char *fmt, va_list ap)
{
    scisys_tctx_t *c = ctx(s);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
        scisys_log_to(s, f, node, fmt, ap);
        fclose(f);
    }
    par_line_t *l = text ? vec_add(&c->v[V_LINE], sizeof *l) : NULL;
    if (!l) {
        free(text);
        keep_failure(c, "out of memory (log)");
        return;
    }
    *l = (par_line_t){c->key, c->seq++, text};
}

void scisys_par_delivery(sci_sys_t *s, unsigned flow, double lat)
{
    scisys_tctx_t *c = ctx(s);
    par_dl_t *d = vec_add(&c->v[V_DL], sizeof *d);
    if (!d) {
        keep_failure(c, "out of memory (time series)");
        return;
    }
    *d = (par_dl_t){c->key, c->seq++, flow, lat};
}

void scisys_par_pending(sci_sys_t *s) { ctx(s)->pending++; }

/* ---- the merge, in the one-thread order ------------------------------------------------ */

/* Both kinds of item begin with their key and sequence number. */
static int item_cmp(const void *a, const void *b)
{
    const unsigned *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* Every thread's items of kind v appended to thread 0's and sorted there (one thread did all
 * of a node's work in a phase, so key and sequence number order them as one thread would).
 * Returns 0, or -1 when memory ran out. */
static int gather(sci_sys_t *s, unsigned v)
{
    size_t size = vsize[v];
    par_vec_t *to = &s->tctx[0].v[v];
    unsigned tot = 0;
    for (unsigned k = 0; k < s->ntctx; k++)
        tot += s->tctx[k].v[v].n;
    if (tot > to->cap) {
        void *a = realloc(to->a, tot * size);
        if (!a)
            return -1;
        to->a = a;
        to->cap = tot;
    }
    for (unsigned k = 1; k < s->ntctx; k++) {
        par_vec_t *from = &s->tctx[k].v[v];
        if (!from->n)
            continue; /* a thread that collected nothing yet has no array (memcpy from NULL) */
        memcpy((char *)to->a + to->n * size, from->a, from->n * size);
        to->n += from->n;
        from->n = 0;
    }
    bool sorted = true; /* usually: each thread did its own share, in order */
    for (unsigned j = 1; j < to->n && sorted; j++)
        sorted = item_cmp((char *)to->a + (j - 1) * size, (char *)to->a + j * size) < 0;
    if (!sorted)
        qsort(to->a, to->n, size, item_cmp);
    return 0;
}

/* After a phase: the failure the one-thread order would have kept first (unless one was
 * kept before the phase), the log lines and the deliveries in that order, the register
 * writes queued. */
static void merge(sci_sys_t *s)
{
    unsigned fk = UINT32_MAX, fk_at = 0, items[NV] = {0};
    for (unsigned k = 0; k < s->ntctx; k++) {
        scisys_tctx_t *c = &s->tctx[k];
        if (c->fail_key < fk)
            fk = c->fail_key, fk_at = k;
        c->fail_key = UINT32_MAX;
        for (unsigned v = 0; v < NV; v++)
            items[v] += c->v[v].n;
        s->pending_writes += c->pending;
        c->pending = 0;
        c->seq = 0;
    }
    s->par = false;
    if (fk != UINT32_MAX && !s->failed) {
        snprintf(s->err, sizeof s->err, "%s", s->tctx[fk_at].err);
        s->failed = true;
    }
    bool ok[NV] = {true, true};
    for (unsigned v = 0; v < NV; v++)
        if (items[v] && gather(s, v) < 0) {
            scisys_fail(s, "out of memory (threads)");
            ok[v] = false;
        }
    /* thread 0 now holds every item, in order (unless the gather failed: then drop them) */
    for (unsigned k = 0; k < s->ntctx; k++) {
        par_vec_t *v = &s->tctx[k].v[V_LINE];
        par_line_t *l = v->a;
        for (unsigned j = 0; j < v->n; j++) {
            if (ok[V_LINE])
                fputs(l[j].text, s->cfg.log);
            free(l[j].text);
        }
        v->n = 0;
    }
    for (unsigned k = 0; k < s->ntctx; k++) {
        par_vec_t *v = &s->tctx[k].v[V_DL];
        par_dl_t *d = v->a;
        for (unsigned j = 0; j < v->n && ok[V_DL]; j++)
            scisys_stats_series(s, d[j].flow, d[j].lat);
        v->n = 0;
    }
}

/* ---- the phases -------------------------------------------------------------------------- */

/* How far ahead a loop over the nodes fetches a host's and a driver's first line (what every
 * cycle looks at: host_t, drv_t). The hosts are some 8 kB apart, a page or two: the hardware's
 * prefetcher does not follow that stride, and a 32 x 32 torus's hosts are 8 MB. */
#define PREFETCH_AHEAD 4u

static inline void prefetch_node(const sci_sys_t *s, unsigned i)
{
    __builtin_prefetch(&s->host[i], 1);
    __builtin_prefetch(&s->drv[i], 0);
}

/* Steps 3 and 4 at node i: its host takes its symbol, its driver its turn (`drv`: the
 * dynamic drivers; the static front end comes between otherwise). */
static inline void rx_node(sci_sys_t *s, scisys_tctx_t *c, unsigned i, bool drv, bool p2s)
{
    c->key = PH_RX * s->n + i;
    if (p2s)
        scisys_fo_watch(s, i);                  /* the hardware failover, for the log */
    if (out_port(s, i, SCI_TP_HOUT) & SCI_FLAG) /* else the host has nothing to take */
        scisys_host_rx(s, i);
    if (drv && !drv_quiet(s, i)) {
        c->key = PH_DRV * s->n + i;
        scisys_drv_cycle(s, i);
    }
}

static void rx_nodes(void *arg, unsigned lo, unsigned hi)
{
    sci_sys_t *s = arg;
    scisys_tctx_t *c = ctx(s);
    bool drv = s->cfg.mode == SCI_SYS_DYNAMIC; /* else the front end comes between */
    bool p2s = s->cfg.p2s && s->cfg.log;       /* the failover is watched for the log alone */
    for (unsigned i = lo; i < hi; i++)
        rx_node(s, c, i, drv, p2s);
}

static void drv_nodes(void *arg, unsigned lo, unsigned hi)
{
    sci_sys_t *s = arg;
    scisys_tctx_t *c = ctx(s);
    for (unsigned i = lo; i < hi; i++) {
        if (drv_quiet(s, i))
            continue;
        c->key = PH_DRV * s->n + i;
        scisys_drv_cycle(s, i);
    }
}

void scisys_par_hosts(sci_sys_t *s)
{
    s->par = true;
    tpool_for(s->hpool, s->n, rx_nodes, s);
    merge(s);
    if (s->cfg.mode == SCI_SYS_STATIC) {
        scisys_fe_cycle(s);
        s->par = true;
        tpool_for(s->hpool, s->n, drv_nodes, s);
        merge(s);
    }
}

/* Nothing under way at node i: no symbol to send or take, no interrupt its driver has not
 * seen. */
static bool node_quiet(const sci_sys_t *s, unsigned i)
{
    const host_t *h = &s->host[i];
    if (h->cur.len || h->pqn || h->rxn || (out_port(s, i, SCI_TP_HOUT) & SCI_FLAG))
        return false;
    if (s->fd && scisys_ftdrb_pending(s, i))
        return false;
    const drv_t *d = &s->drv[i];
    return !(d->state != SCI_DRV_DEAD && s->cfg.mode == SCI_SYS_DYNAMIC &&
             (((out_port(s, i, SCI_TP_IRQ_X) & 1u) && !d->broken[0]) ||
              ((out_port(s, i, SCI_TP_IRQ_Y) & 1u) && !d->broken[1])));
}

/* Step 5 at node i: its host offers its symbol. Returns whether the node was quiet. */
static inline bool tx_node(sci_sys_t *s, scisys_tctx_t *c, unsigned i)
{
    c->key = PH_TX * s->n + i;
    bool quiet = node_quiet(s, i);
    bool ready = out_port(s, i, SCI_TP_HIN_READY) & 1u;
    s->in[tport(i, SCI_TP_HIN)] = scisys_host_tx(s, i, ready);
    return quiet && !s->host[i].cur.len;
}

static void tx_nodes(void *arg, unsigned lo, unsigned hi)
{
    sci_sys_t *s = arg;
    scisys_tctx_t *c = ctx(s);
    bool quiet = true;
    for (unsigned i = lo; i < hi; i++)
        quiet &= tx_node(s, c, i);
    if (!quiet)
        atomic_store_explicit(&s->busy, true, memory_order_relaxed);
}

/* One loop over the nodes on the pool, its collected output merged in the one-thread order:
 * true when no node had anything to send (the busy flag the loop's function raises). */
static bool par_sends(sci_sys_t *s, tpool_fn_t fn)
{
    atomic_store_explicit(&s->busy, false, memory_order_relaxed);
    s->par = true;
    tpool_for(s->hpool, s->n, fn, s);
    merge(s);
    return !atomic_load_explicit(&s->busy, memory_order_relaxed);
}

bool scisys_par_tx(sci_sys_t *s) { return par_sends(s, tx_nodes); }

/* ---- steps 3 to 5 in one loop ---------------------------------------------------------------
 * With the dynamic drivers and without detection and recovery (nothing runs between the
 * steps: no front end, no scisys_ft_cycle), each node does steps 3, 4 and 5 in one item, one
 * barrier instead of two, and the result is the one of the two loops, because step 5 at node
 * i reads nothing that steps 3 and 4 at another node j write, and steps 3 and 4 at j read
 * nothing step 5 at i writes:
 * - step 5 at i reads and writes host i, driver i, node i's FT-DRB state and the source half
 *   of the flows i sources (sci_sys_host.c: next_data, build_data, scisys_flow_gen);
 * - steps 3 and 4 at j write host j, driver j, node j's FT-DRB state, the source half of j's
 *   flows (an ACK, a FAIL_REPORT, a hold) and the destination half of the flows to j (the
 *   ledger: expect, held, the counts, the gaps);
 * - the ledger at j reads two fields of the source half of a flow from i: t_offer of the
 *   message it delivers, seq, and sent_hi. Step 5 writes t_offer only for messages it
 *   generates, gen with seq < gen < base + window <= seq + window (base <= seq: nothing
 *   delivered now is acknowledged yet), never seq's slot. sent_hi only grows, and a DATA that
 *   passed its CRC carries a seq already sent, below either value; it is read and written
 *   atomically (sci_sys_host.c), so the one-thread order and every interleaving agree.
 * What reaches beyond a node is collected, keyed with the steps' own positions (PH_RX,
 * PH_DRV, PH_TX), and merged after the loop in the one-thread order of the two loops.
 * One difference from the two loops: a run that fails in step 3 or 4 did not run step 5 in
 * that cycle; now it does, on every node, whatever the thread count. The failure reported is
 * the same; a failing run's counts of sent messages may include the failing cycle's. */
/* The first cycle at which steps 3 to 5 may do something at node i, which has just had them
 * and was quiet, as long as its outputs show no symbol for its host and no interrupt (0: the
 * next). Until then: its host has no symbol to take (HOUT flag 0) or to send (no packet under
 * way or queued, no data before data_wake: host_t), its driver is dead, or idle with no
 * remote read due (rr_send_at), no watchdog tick (wd_next) and no interrupt (drv_quiet), and
 * its input word stays 0. What changes these between the node's own steps (a fault, a flow
 * added, stopped or repaced) calls scisys_host_wake, which clears idle_until. Without FT-DRB
 * (its relays and notes) and without the failover log (scisys_fo_watch every cycle). */
static uint64_t node_idle_until(const sci_sys_t *s, unsigned i)
{
    const host_t *h = &s->host[i];
    const drv_t *d = &s->drv[i];
    uint64_t t = UINT64_MAX;
    if (!h->dead) {
        if (h->cur.len || h->pqn || h->rxn)
            return 0;
        t = h->data_wake;
    }
    if (d->state != SCI_DRV_DEAD) {
        if (d->state != SCI_DRV_IDLE)
            return 0;
        t = d->wd_next < t ? d->wd_next : t;
        t = d->rr_send_at && d->rr_send_at < t ? d->rr_send_at : t;
    }
    return t;
}

static void cycle_nodes(void *arg, unsigned lo, unsigned hi)
{
    sci_sys_t *s = arg;
    scisys_tctx_t *c = ctx(s);
    bool p2s = s->cfg.p2s && s->cfg.log;
    bool quiet = true;
    const uint64_t *out = s->ls.out[0];
    for (unsigned i = lo; i < hi; i++) {
        if (s->idle_ok && s->now < s->idle_until[i] &&
            !((out[tport(i, SCI_TP_HOUT)] & SCI_FLAG) | (out[tport(i, SCI_TP_IRQ_X)] & 1u) |
              (out[tport(i, SCI_TP_IRQ_Y)] & 1u)))
            continue; /* nothing to do, as the steps below would find (node_idle_until) */
        if (i + PREFETCH_AHEAD < hi)
            prefetch_node(s, i + PREFETCH_AHEAD);
        rx_node(s, c, i, true, p2s);
        bool q = tx_node(s, c, i);
        quiet &= q;
        if (s->idle_ok)
            s->idle_until[i] = q ? node_idle_until(s, i) : 0;
    }
    if (!quiet)
        atomic_store_explicit(&s->busy, true, memory_order_relaxed);
}

bool scisys_par_joined(const sci_sys_t *s) { return s->joined; }

bool scisys_par_cycle(sci_sys_t *s) { return par_sends(s, cycle_nodes); }
