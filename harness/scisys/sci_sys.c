/*
 * sci_sys.c — a running 2-D SCI torus: the torus device plus, in the harness, per node a host
 * traffic agent and the driver of sci_sys.md section 3 (or the static front end). The contract,
 * the driver's sequence and every decision are in harness/scisys/sci_sys.md; these files
 * follow it. This one is the system: its creation, the faults, and the cycle; the parts it
 * runs are in sci_sys_*.c (sci_sys_internal.h lists them).
 *
 * One cycle of the system (sys_cycle):
 *   1. faults due now are applied to every model (the torus's controls);
 *   2. the outputs are sampled (both models in lockstep, compared);
 *   3. each host takes a symbol from its PSB's receive FIFO (hout.ready is always 1) and, at a
 *      packet's end, hands it to its flow, its driver or the ledger;
 *   4. each driver reacts to its LCs' interrupts and its timers;
 *   5. each host offers the next symbol of the packet it is sending (driver packets, then
 *      ACKs, then DATA of its flows, round robin);
 *   6. at most one register write (the device's port takes one a cycle), round robin over the
 *      drivers whose next write is due;
 *   7. the clock edge. When nothing in the harness has anything to do before cycle T and the
 *      C model says an edge changes nothing (dev_ops_t.skip), the edges up to T are skipped:
 *      a driver's 200 ms timer with sparse traffic costs a few edges, not 20 million.
 * Steps 3 to 5 run node by node, and with cfg.threads on several threads, as does the C
 * model's edge (sci_sys_threads.c, sci_torus.c): the same run whatever the thread count.
 */
#include "sci_sys_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sci_word.h"

void scisys_fail_format(const sci_sys_t *s, char *buf, size_t len, const char *fmt, va_list ap)
{
    int k = snprintf(buf, len, "cycle %llu: ", (unsigned long long)s->now);
    vsnprintf(buf + k, len - (size_t)k, fmt, ap);
}

void scisys_fail(sci_sys_t *s, const char *fmt, ...)
{
    if (s->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    if (s->par)
        scisys_par_fail(s, fmt, ap);
    else {
        scisys_fail_format(s, s->err, sizeof s->err, fmt, ap);
        s->failed = true;
    }
    va_end(ap);
}

void scisys_log_to(const sci_sys_t *s, FILE *f, unsigned node, const char *fmt, va_list ap)
{
    double ms = (double)s->now / (s->cfg.par.clock_mhz * 1000.0);
    if (node == UINT32_MAX)
        fprintf(f, "%12llu %10.3f ms  system: ", (unsigned long long)s->now, ms);
    else
        fprintf(f, "%12llu %10.3f ms  (%u,%u): ", (unsigned long long)s->now, ms, node % s->w,
                node / s->w);
    vfprintf(f, fmt, ap);
    fputc('\n', f);
}

void scisys_log(sci_sys_t *s, unsigned node, const char *fmt, ...)
{
    if (!s->cfg.log)
        return;
    va_list ap;
    va_start(ap, fmt);
    if (s->par)
        scisys_par_log(s, node, fmt, ap);
    else
        scisys_log_to(s, s->cfg.log, node, fmt, ap);
    va_end(ap);
}

/* ---- faults ------------------------------------------------------------------------ */

int sci_sys_fault(sci_sys_t *s, uint64_t at, const char *what, char *err, size_t errlen)
{
    if (s->nfault == MAX_FAULTS) {
        snprintf(err, errlen, "more than %u faults", MAX_FAULTS);
        return -1;
    }
    if (at < s->now) {
        snprintf(err, errlen, "fault '%s' at cycle %llu is in the past (now %llu)", what,
                 (unsigned long long)at, (unsigned long long)s->now);
        return -1;
    }
    if (!strncmp(what, "seu ", 4)) { /* an upset: `seu NAME[I] bitB` */
        char tgt[48], bit[16], more[8];
        dev_upset_bit_t u;
        if (sscanf(what + 4, "%47s %15s %7s", tgt, bit, more) != 2) {
            snprintf(err, errlen, "'%s': want 'seu NAME bitB' or 'seu NAME[I] bitB'", what);
            return -1;
        }
        if (dev_upset_find(s->d, tgt, bit, &u, err, errlen) < 0)
            return -1;
    } else if (!s->d->check_control || s->d->check_control(s->d, what, err, errlen) < 0) {
        if (!s->d->check_control)
            snprintf(err, errlen, "no faults on this device");
        return -1;
    }
    if (strlen(what) >= sizeof s->fault[0].what) {
        snprintf(err, errlen, "fault '%s': too long", what);
        return -1;
    }
    s->fault[s->nfault].at = at;
    snprintf(s->fault[s->nfault].what, sizeof s->fault[0].what, "%s", what);
    s->nfault++;
    return 0;
}

static void apply_faults(sci_sys_t *s)
{
    for (unsigned k = 0; k < s->nfault; k++) {
        if (s->fault[k].at != s->now)
            continue;
        const char *w = s->fault[k].what;
        char err[160];
        if (!strncmp(w, "seu ", 4)) {
            char tgt[48], bit[16];
            dev_upset_bit_t u;
            if (sscanf(w + 4, "%47s %15s", tgt, bit) != 2 ||
                dev_upset_find(s->d, tgt, bit, &u, err, sizeof err) < 0 ||
                ls_upset(&s->ls, &u, err, sizeof err) < 0)
                scisys_fail(s, "upset '%s': %s", w, err);
            scisys_log(s, UINT32_MAX, "upset: %s", w + 4);
            s->faults_applied++;
            continue;
        }
        for (unsigned m = 0; m < s->ls.n; m++)
            if (dev_control(s->ls.m[m], w, err, sizeof err) < 0)
                scisys_fail(s, "fault '%s': %s", w, err);
        scisys_log(s, UINT32_MAX, "fault: %s", w);
        s->faults_applied++;
        unsigned x, y;
        if (sscanf(w, "off %u,%u", &x, &y) == 2 && x < s->w && y < s->h) {
            unsigned i = sci_torus_index(s->w, x, y);
            scisys_host_wake(s, i);
            s->host[i].dead = true;
            s->host[i].cur.len = 0;
            s->host[i].pqn = 0;
            s->host[i].rxn = 0;
            if (s->fd)
                scisys_ftdrb_dead(s, i);
            s->drv[i].state = SCI_DRV_DEAD;
            s->pending_writes -= s->drv[i].wqn;
            s->drv[i].wqn = 0;
            memset(s->host[i].held, 0, s->n);
            s->host[i].nheld = 0;
        }
        if (sscanf(w, "on %u,%u", &x, &y) == 2 && x < s->w && y < s->h) {
            unsigned i = sci_torus_index(s->w, x, y);
            drv_t *d = &s->drv[i];
            scisys_host_wake(s, i);
            if (d->state == SCI_DRV_DEAD) { /* the driver boots with the node: all fresh */
                s->host[i].dead = false;
                d->state = SCI_DRV_IDLE;
                d->broken[0] = d->broken[1] = 0;
                d->remote_y = false;
                d->rr_state = 0;
                d->rr_send_at = 0;
            }
        }
    }
}

/* ---- the cycle ------------------------------------------------------------------------ */

/* The earliest cycle at which the harness has something to do, from a quiet state. */
static uint64_t next_event(sci_sys_t *s, uint64_t until)
{
    uint64_t t = until;
#define AT(v)                      \
    do {                           \
        uint64_t v_ = (v);         \
        if (v_ > s->now && v_ < t) \
            t = v_;                \
        else if (v_ <= s->now)     \
            return s->now;         \
    } while (0)
    for (unsigned k = 0; k < s->nfault; k++)
        if (s->fault[k].at >= s->now)
            AT(s->fault[k].at);
    for (unsigned i = 0; i < s->n; i++) {
        const drv_t *d = &s->drv[i];
        if (d->state == SCI_DRV_DEAD)
            continue;
        if (d->t_until && d->state != SCI_DRV_IDLE && d->state != SCI_DRV_LOAD)
            AT(d->t_until);
        if (d->wqn)
            AT(d->wnext > s->now ? d->wnext : s->now);
        else if (d->state == SCI_DRV_LOAD)
            return s->now;
        if (d->rr_send_at)
            AT(d->rr_send_at);
        if (s->cfg.mode == SCI_SYS_DYNAMIC)
            AT(d->wd_next);
    }
    if (s->cfg.mode == SCI_SYS_STATIC)
        AT(scisys_fe_next(s));
    if (s->cfg.ft)
        AT(scisys_ft_next(s));
    unsigned W = s->cfg.par.window;
    for (unsigned k = 0; k < s->nflow; k++) {
        flow_t *f = &s->flow[k];
        if (s->host[f->src].held[f->dst] || s->host[f->src].dead || f->abandoned)
            continue;
        if (s->now < f->quiet_until) {
            AT(f->quiet_until);
            continue;
        }
        if (f->rtx_at && f->base < f->sent_hi)
            AT(f->rtx_at);
        if (f->next < f->base + (f->probing ? 1u : W)) {
            if (f->interval == 0) {
                if (f->stop_at == UINT64_MAX && s->now >= f->start)
                    return s->now;
                if (s->now < f->start)
                    AT(f->start);
            } else if (f->stop_at == UINT64_MAX) {
                if (f->next < scisys_flow_gen(s, f))
                    return s->now;
                if (s->now < f->start)
                    AT(f->start);
                else if (f->gen < f->base + W)
                    AT(f->next_gen_at);
            }
        }
    }
#undef AT
    return t;
}

static int sys_cycle(sci_sys_t *s, uint64_t until)
{
    char msg[600];
    apply_faults(s);
    if (s->cfg.ft)
        scisys_ft_begin(s);
    ls_sample(&s->ls);
    if (s->ls.n == 2 && ls_diverged(&s->ls, msg, sizeof msg)) {
        scisys_fail(s, "rtl and csim diverged: %s", msg);
        return -1;
    }
    bool quiet;
    if (scisys_par_joined(s)) { /* steps 3 to 5 in one loop (sci_sys_threads.c) */
        quiet = scisys_par_cycle(s);
        if (s->failed)
            return -1;
    } else {
        scisys_par_hosts(s); /* steps 3 and 4, node by node (sci_sys_threads.c) */
        if (s->failed)
            return -1;
        if (s->cfg.ft)
            scisys_ft_cycle(s);
        quiet = scisys_par_tx(s); /* step 5 */
    }
    scisys_drv_write(s);
    ls_set_inputs(&s->ls, s->in);
    scisys_obs_cycle(s);
    uint64_t k = 1;
    if (s->cfg.no_skip)
        quiet = false;
    if (quiet && s->skip_wait) /* the fabric was busy a moment ago: don't ask every cycle */
        s->skip_wait--, quiet = false;
    if (quiet) {
        uint64_t t = next_event(s, until);
        quiet = t > s->now + 1;
        if (quiet) {
            k = ls_skip(&s->ls, t - s->now, msg, sizeof msg);
            s->skip_tries++;
            s->skip_hits += k > 1;
            s->skipped += k > 1 ? k : 0;
            /* a packet in flight: ask again after a while (the wait doubles up to 64) */
            s->skip_backoff = k > 1             ? 0
                              : s->skip_backoff ? (s->skip_backoff < 64 ? 2 * s->skip_backoff : 64)
                                                : 4;
            s->skip_wait = s->skip_backoff;
        } else
            k = ls_tick(&s->ls, msg, sizeof msg) ? 0 : 1;
    } else {
        k = ls_tick(&s->ls, msg, sizeof msg) ? 0 : 1;
    }
    if (k == 0) {
        scisys_fail(s, "%s", msg);
        return -1;
    }
    s->now += k;
    return s->failed ? -1 : 0;
}

int sci_sys_run(sci_sys_t *s, uint64_t until, char *err, size_t errlen)
{
    while (s->now < until && !s->failed)
        sys_cycle(s, until);
    if (s->failed) {
        snprintf(err, errlen, "%s", s->err);
        return -1;
    }
    return 0;
}

int sci_sys_busy(const sci_sys_t *s)
{
    if (s->cfg.mode == SCI_SYS_STATIC && scisys_fe_busy(s))
        return 1;
    for (unsigned i = 0; i < s->n; i++) {
        const drv_t *d = &s->drv[i];
        if (d->state != SCI_DRV_IDLE && d->state != SCI_DRV_DEAD)
            return 1;
        if (d->wqn || d->rr_state == 1 || d->rr_send_at)
            return 1;
        if (s->ft.n && s->ft.n[i].rec != REC_NONE)
            return 1;
    }
    return 0;
}

int sci_sys_settle(sci_sys_t *s, uint64_t limit, char *err, size_t errlen)
{
    while (s->now < limit) {
        bool done = !sci_sys_busy(s);
        for (unsigned k = 0; done && k < s->nflow; k++) {
            flow_t *f = &s->flow[k];
            if (s->host[f->src].dead || s->host[f->dst].dead || f->abandoned)
                continue;
            if (f->base < (f->stop_at != UINT64_MAX ? scisys_flow_gen(s, f) : f->sent_hi))
                done = false;
        }
        if (done)
            return 1;
        if (sys_cycle(s, limit) < 0) {
            snprintf(err, errlen, "%s", s->err);
            return -1;
        }
    }
    return 0;
}

uint64_t sci_sys_now(const sci_sys_t *s) { return s->now; }

void sci_sys_note(sci_sys_t *s, const char *text) { scisys_log(s, UINT32_MAX, "%s", text); }

void *sci_sys_lockstep(sci_sys_t *s) { return &s->ls; }

/* ---- set-up -------------------------------------------------------------------------- */

/* Merge node i's register `name` (nI.J.BASE) = v into the writes. The torus lists every
 * node's registers in the same order, node after node (harness/sci/sci_torus.c), so the index
 * is node 0's (r0) plus i strides: one name compare instead of a search through every
 * node's registers (a 32 x 32 torus has some 40 000); a name that does not match is searched. */
static int set_cfg(const sci_sys_t *s, dev_write_t *w, unsigned n, unsigned max, unsigned i, int r0,
                   const char *name, uint64_t v)
{
    const dev_design_t *d = s->d;
    unsigned stride = d->nregs / s->n;
    int r = r0 < 0 ? -1 : r0 + (int)(i * stride);
    if (r < 0 || (unsigned)r >= d->nregs || strcasecmp(d->regs[r].name, name) != 0)
        r = dev_reg_index(d, name);
    if (r < 0)
        return (int)n;
    return (int)dev_write_merge(w, n, max, &d->regs[r], v);
}

/* The timers in cycles (cfg.par), never below the hardware: a pass outlasts the ring-down
 * and ring-up bounds (sci_lc.md). */
static void sys_timers(sci_sys_t *s)
{
    const sci_sys_params_t *p = &s->cfg.par;
    s->c_cnok = sci_sys_ms(p, p->cablenotok_ms);
    s->c_rtg = sci_sys_ms(p, p->readytogo_ms);
    s->c_wd = sci_sys_ms(p, p->watchdog_ms);
    s->c_rtx = sci_sys_ms(p, p->host_rtx_ms);
    s->c_compute = sci_sys_ms(p, p->compute_ms);
    s->c_write = sci_sys_ms(p, p->reg_write_us / 1000.0);
    unsigned N = s->w > s->h ? s->w : s->h;
    uint64_t hw = 2u * (5u + 43u * (N - 1u) + 66u + 5u * N);
    if (s->c_cnok < hw)
        s->c_cnok = hw;
    if (s->c_rtg < 2 * hw)
        s->c_rtg = 2 * hw;
    if (s->c_rtx < 4u * p->echo_timeout)
        s->c_rtx = 4u * p->echo_timeout;
}

/* The hosts and drivers at boot. */
static int sys_alloc(sci_sys_t *s, char *err, size_t errlen)
{
    s->host = calloc(s->n, sizeof *s->host);
    s->drv = calloc(s->n, sizeof *s->drv);
    s->id = calloc(s->n, sizeof *s->id);
    s->idle_until = calloc(s->n, sizeof *s->idle_until);
    s->in = calloc(s->d ? s->d->nports : 1, sizeof *s->in);
    if (!s->d || !s->host || !s->drv || !s->id || !s->in || !s->idle_until) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (unsigned i = 0; i < s->n; i++) {
        s->id[i] = sci_torus_node_id(s->d, xn(s, i), yn(s, i));
        s->host[i].held = calloc(s->n, 1);
        if (!s->host[i].held) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        /* the drivers start together at boot, in node order a register write apart: their
         * watchdogs tick together, so the nodes of a ring restore it in the same tick */
        s->drv[i].wd_next = s->c_wd + (uint64_t)i * s->c_write;
        s->host[i].tid = (uint16_t)(i * 4099u);
    }
    return 0;
}

/* The fault-free tables, and what the drivers that load tables (LC3, the static front end)
 * know is loaded: those. */
static int sys_tables(sci_sys_t *s, char *err, size_t errlen)
{
    const sci_sys_cfg_t *cfg = &s->cfg;
    if (sci_route_tables(
            &(sci_torus_t){s->w, s->h, cfg->p2s ? SCI_VAR_P2S : SCI_VAR_LC3, SCI_POLICY_SPEC}, NULL,
            &s->ff, err, errlen) < 0)
        return -1;
    if (!cfg->p2s || cfg->mode == SCI_SYS_STATIC)
        for (unsigned i = 0; i < s->n; i++) {
            s->drv[i].shadow = calloc(s->n, sizeof *s->drv[i].shadow);
            if (!s->drv[i].shadow) {
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            for (unsigned t = 0; t < s->n; t++)
                s->drv[i].shadow[t] = *sci_route_entry(&s->ff, i, 0, t);
        }
    return 0;
}

/* Reset with the configuration: the torus defaults, with the parameters' LC and PSB values;
 * then the host inputs (hout.ready always 1). */
static int sys_configure(sci_sys_t *s, char *err, size_t errlen)
{
    const sci_sys_params_t *p = &s->cfg.par;
    unsigned maxw = 4u * s->n + 8u;
    dev_write_t *w = calloc(maxw, sizeof *w);
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    unsigned nw = dev_config_defaults(s->d, w, maxw);
    static const char *const base[7] = {"x.echo_timeout", "x.busy_limit", "x.retry_limit",
                                        "y.echo_timeout", "y.busy_limit", "y.retry_limit",
                                        "rsr_timeout"};
    const uint64_t v[7] = {p->echo_timeout,
                           p->busy_limit,
                           p->retry_limit,
                           p->echo_timeout,
                           p->busy_limit,
                           p->retry_limit,
                           p->rsr_timeout > 0xFFFF ? 0xFFFF : p->rsr_timeout};
    int r0[7];
    for (unsigned k = 0; k < 7; k++) {
        char nm[48];
        snprintf(nm, sizeof nm, "n0.0.%s", base[k]);
        r0[k] = dev_reg_index(s->d, nm);
    }
    for (unsigned i = 0; i < s->n; i++)
        for (unsigned k = 0; k < 7; k++) {
            char nm[48];
            snprintf(nm, sizeof nm, "n%u.%u.%s", xn(s, i), yn(s, i), base[k]);
            nw = (unsigned)set_cfg(s, w, nw, maxw, i, r0[k], nm, v[k]);
        }
    ls_reset(&s->ls, w, nw);
    free(w);
    for (unsigned i = 0; i < s->d->nports; i++)
        if (s->d->ports[i].dir == DEV_IN)
            s->in[i] = 0;
    for (unsigned i = 0; i < s->n; i++)
        s->in[tport(i, SCI_TP_HOUT_READY)] = 1;
    return 0;
}

/* With cfg.threads > 1, the C model's nodes step on a pool of that many threads, and so do
 * the RTL's (in as many parts, each in a Verilator context of its own: sci_sys_new asks the
 * design for them; a waveform is written in as many parts and merged); the hosts and drivers
 * too when they read the C model's registers (an RTL's register read evaluates a model: they
 * stay on the calling thread). */
static int sys_threads(sci_sys_t *s, char *err, size_t errlen)
{
    if (s->cfg.threads > 1) {
        if (!(s->pool = tpool_new(s->cfg.threads, err, errlen)))
            return -1;
        for (unsigned k = 0; k < s->ls.n; k++)
            if (sci_torus_set_pool(s->ls.m[k], s->pool, err, errlen) < 0)
                return -1;
        if (s->ls.m[0]->impl == DEV_IMPL_CSIM)
            s->hpool = s->pool;
    }
    return scisys_par_open(s, err, errlen);
}

/* The rings come up after reset: let them, before any traffic. */
static int sys_boot(sci_sys_t *s, char *err, size_t errlen)
{
    unsigned N = s->w > s->h ? s->w : s->h;
    uint64_t boot = 200u + 10u * N;
    for (uint64_t c = 0; c < boot; c++) {
        ls_set_inputs(&s->ls, s->in);
        char msg[300];
        if (ls_tick(&s->ls, msg, sizeof msg)) {
            snprintf(err, errlen, "%s", msg);
            return -1;
        }
        s->now++;
    }
    for (unsigned i = 0; i < s->n; i++)
        for (unsigned k = 0; k < 2; k++)
            if (!(reg_read(s, i, (k ? SCI_NODE_LC_STRIDE : 0) + SCI_REG_STATUS) & 1u)) {
                snprintf(err, errlen, "(%u,%u): %s ring not up after boot", xn(s, i), yn(s, i),
                         k ? "Y" : "X");
                return -1;
            }
    return 0;
}

sci_sys_t *sci_sys_new(const sci_sys_cfg_t *cfg, char *err, size_t errlen)
{
    unsigned max = cfg->p2s ? SCI_TORUS_MAX_P2S : SCI_TORUS_MAX_LC3;
    if (cfg->w < 2 || cfg->h < 2 || cfg->w > max || cfg->h > max) {
        snprintf(err, errlen, "torus %ux%u: %s tori are 2x2 to %ux%u", cfg->w, cfg->h,
                 cfg->p2s ? "P2S" : "LC3", max, max);
        return NULL;
    }
    if (cfg->par.window < 1 || cfg->par.window > MAXW) {
        snprintf(err, errlen, "window %u: 1 to %u", cfg->par.window, MAXW);
        return NULL;
    }
    sci_sys_t *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->cfg = *cfg;
    s->w = cfg->w;
    s->h = cfg->h;
    s->n = cfg->w * cfg->h;
    s->d = sci_torus_design(cfg->p2s, cfg->w, cfg->h);
    sys_timers(s);
    if (cfg->ft && cfg->threads > 1) {
        snprintf(err, errlen, "detection and recovery run on one thread (--threads 1)");
        sci_sys_free(s);
        return NULL;
    }
    if (cfg->threads > 1) /* the RTL's nodes in parts (sys_threads), a waveform in as many */
        sci_torus_set_rtl_parts(s->d, cfg->threads);
    if (sys_alloc(s, err, errlen) < 0 || sys_tables(s, err, errlen) < 0 ||
        ls_open(&s->ls, s->d, cfg->models, err, errlen) < 0 || sys_threads(s, err, errlen) < 0 ||
        (cfg->wave && scisys_obs_open(s, err, errlen) < 0) || sys_configure(s, err, errlen) < 0 ||
        sys_boot(s, err, errlen) < 0 || (cfg->ft && scisys_ft_open(s, err, errlen) < 0) ||
        (cfg->ftdrb && scisys_ftdrb_open(s, err, errlen) < 0)) {
        sci_sys_free(s);
        return NULL;
    }
    scisys_obs_window(s); /* the run's times count from here */
    scisys_fe_init(s);
    return s;
}

void sci_sys_free(sci_sys_t *s)
{
    if (!s)
        return;
    if (getenv("FTSIM_SKIP_STATS"))
        fprintf(stderr, "sci_sys: %llu cycles, %llu skip attempts, %llu skipped %llu cycles\n",
                (unsigned long long)s->now, (unsigned long long)s->skip_tries,
                (unsigned long long)s->skip_hits, (unsigned long long)s->skipped);
    if (s->ls.n) {
        if (s->cfg.wave)
            dev_trace_close(s->ls.m[0]);
        ls_close(&s->ls);
    }
    scisys_obs_free(s);
    scisys_ft_free(s);
    scisys_ftdrb_free(s);
    scisys_par_free(s);
    tpool_free(s->pool);
    for (unsigned i = 0; s->host && i < s->n; i++) {
        free(s->host[i].held);
        free(s->host[i].flows);
    }
    for (unsigned i = 0; s->drv && i < s->n; i++) {
        free(s->drv[i].wq);
        free(s->drv[i].shadow);
    }
    sci_route_free(&s->ff);
    for (unsigned k = 0; s->flow && k < s->nflow; k++)
        free(s->flow[k].bin_msgs);
    free(s->host), free(s->drv), free(s->id), free(s->in), free(s->flow), free(s->idle_until);
    free(s->bin_bytes), free(s->bin_lat), free(s->bin_latn);
    dev_design_release(s->d);
    free(s);
}
