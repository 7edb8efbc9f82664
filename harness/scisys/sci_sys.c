/*
 * sci_sys.c — a running 2-D SCI torus: the torus device plus, in the harness, per node a host
 * traffic agent and the driver of sci.md section 5 (or the static front end). The contract,
 * the driver's sequence and every decision are in harness/scisys/sci_sys.md; this file follows it.
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
 */
#include "sci_sys.h"

#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"
#include "prng.h"
#include "sci_dev.h"
#include "sci_lc.h"
#include "sci_node.h"
#include "sci_obs.h"
#include "sci_route.h"
#include "sci_torus.h"
#include "sci_word.h"
#include "vl_trace.h"

#define TXQ 64u          /* data packets waiting in a host */
#define PQ 64u           /* driver packets and ACKs waiting in a host (ahead of data) */
#define MAXW 64u         /* the largest window */
#define NTID 256u        /* tids remembered per host (low 8 bits) */
#define MAX_FAULTS 64u
#define GIVE_UP 4u       /* FAIL_REPORTs in a row before a source rests a flow (10 x rtx) */

enum { TK_NONE = 0, TK_DATA, TK_READ, TK_PROBE, TK_NOTIFY };

typedef struct pkt {
    uint16_t sym[SCI_MAX_PKT];
    uint8_t len;
} pkt_t;

typedef struct flow {
    char name[32];
    unsigned src, dst, npay, bytes;
    uint64_t interval, start, stop_at; /* stop_at: UINT64_MAX while generating */
    uint32_t gen_stop;                 /* messages generated in all, once stopped */
    uint32_t gen;                      /* messages generated so far (interval > 0) */
    uint64_t next_gen_at;              /* when the next one is due (interval > 0) */
    /* source: seq < base acked; base <= next <= sent_hi; messages generated so far: gen() */
    uint32_t base, next, sent_hi;
    uint64_t rtx_at;                   /* go back to base at this cycle (0: no timer) */
    unsigned fail_streak;              /* rounds the oldest message failed in a row */
    uint64_t quiet_until;              /* given up on the destination for now: no sends */
    uint64_t backoff;                  /* the last rest (doubles, 0 when an ACK comes) */
    bool probing;                      /* after a rest: one message at a time until an ACK */
    uint64_t rto_at;                   /* rtx_at as the timeout set it (not a FAIL_REPORT) */
    uint64_t tmo_rounds;               /* go-backs on a timeout: losses no FAIL_REPORT told of */
    bool abandoned;                    /* sends nothing more (sci_sys_abandon_flow) */
    uint64_t t_first[MAXW];            /* first send of seq, at seq % window */
    /* destination */
    uint32_t expect;
    /* measurements */
    uint64_t sent, delivered, acked, dups, retx, fails, bytes_dl;
    double lat_sum;
    uint64_t last_dl, gap_from, max_gap, max_gap_at;
    uint32_t *bin_msgs;                /* messages delivered per time bin (cfg.bin_cycles) */
    unsigned nbin_msgs;
} flow_t;

typedef struct host {
    pkt_t pq[PQ];
    unsigned pqh, pqn;
    pkt_t cur;
    unsigned pos;                      /* next symbol of cur; cur.len 0: none */
    uint16_t tid;
    struct { uint8_t kind; uint32_t flow, seq; } tidmap[NTID];
    uint16_t rx[SCI_MAX_PKT + 8];
    unsigned rxn;
    unsigned *flows, nflows, rr;       /* flows this host sources */
    uint8_t *held;                     /* per destination node: held by the driver */
    unsigned nheld;
    uint64_t acks_dropped;             /* ACKs dropped on a full queue (a blocked PSB FIFO) */
    bool dead;
} host_t;

typedef struct wr { uint32_t addr; uint64_t data, mask; } wr_t;

typedef struct drv {
    int state;                         /* sci_drv_state_t */
    uint64_t t_until;                  /* the running timer's end */
    uint8_t broken[2];                 /* own LC k disabled by this driver (0 X, 1 Y) */
    bool again;                        /* a new interrupt during the CableNotOk wait */
    bool remote_y;                     /* the upstream X neighbour's Y ring: broken */
    /* remote status read of the upstream X neighbour's Y-LC */
    uint64_t rr_send_at;               /* 0: none scheduled */
    uint16_t rr_tid;
    int rr_state;                      /* 0 none, 1 sent, 2 up, 3 broken */
    bool rr_in_pass;                   /* the read belongs to the running ReadyToGo */
    bool rerun;                        /* knowledge changed while in a pass: run ReadyToGo again */
    /* register writes */
    wr_t *wq;
    unsigned wqn, wqh, wqcap;
    uint64_t wnext;                    /* the next write may go at this cycle */
    sci_entry_t *shadow;               /* LC3: the tables loaded (set 0, per target) */
    uint64_t wd_next;
    sci_drv_stats_t st;
} drv_t;

typedef struct fault { uint64_t at; char what[32]; } fault_t;

struct sci_sys {
    sci_sys_cfg_t cfg;
    const dev_design_t *d; /* the torus's design: ours, released by sci_sys_free */
    lockstep_t ls;
    unsigned w, h, n;
    uint64_t now;
    uint64_t *in;
    host_t *host;
    drv_t *drv;
    flow_t *flow;
    unsigned nflow, capflow;
    fault_t fault[MAX_FAULTS];
    unsigned nfault;
    uint16_t *id;                      /* node ids */
    sci_tables_t ff;                   /* fault-free tables */
    uint64_t c_cnok, c_rtg, c_wd, c_rtx, c_compute, c_write;
    unsigned wr_rr, pending_writes;
    /* static front end */
    int fe_state;                      /* 0 watching, 1 drain, 2 loading node fe_node, 3 probe wait */
    uint64_t fe_until, fe_next_poll;
    unsigned fe_node;
    sci_faults_t fe_known;
    bool fe_halt;
    unsigned fe_done;                  /* reconfigurations the front end completed */
    /* time series */
    uint64_t *bin_bytes, *bin_latn;
    double *bin_lat;
    unsigned nbins, capbins;
    prng_t rng;
    uint64_t skip_tries, skip_hits, skipped; /* idle skipping: attempts, successes, cycles */
    unsigned skip_wait, skip_backoff;
    /* the waveform: the harness observer next to the RTL */
    sci_obs_t *obs;
    uint8_t *obs_wr;                   /* per node: a register write this cycle */
    uint16_t obs_dl;                   /* flows (the first 16) delivering this cycle */
    unsigned faults_applied;
    char err[400];
    bool failed;
};

/* ---- parameters ----------------------------------------------------------------------- */

void sci_sys_params_default(sci_sys_params_t *p)
{
    p->clock_mhz = 100.0;
    p->cablenotok_ms = 50.0;
    p->readytogo_ms = 200.0;
    p->watchdog_ms = 1000.0;
    p->host_rtx_ms = 10.0;
    p->compute_ms = 1.0;
    p->reg_write_us = 1.0;
    p->time_scale = 1.0;
    p->echo_timeout = 2000;
    p->busy_limit = 8;
    p->retry_limit = 4;
    p->rsr_timeout = 20000;
    p->fail_backoff = 1000;
    p->window = 8;
}

int sci_sys_param_set(sci_sys_params_t *p, const char *nv, char *err, size_t errlen)
{
    static const struct { const char *name; size_t off; int whole; double lo, hi; } tab[] = {
        {"cablenotok_ms", offsetof(sci_sys_params_t, cablenotok_ms), 0, 0.001, 1e5},
        {"readytogo_ms", offsetof(sci_sys_params_t, readytogo_ms), 0, 0.001, 1e5},
        {"watchdog_ms", offsetof(sci_sys_params_t, watchdog_ms), 0, 0.001, 1e6},
        {"host_rtx_ms", offsetof(sci_sys_params_t, host_rtx_ms), 0, 0.001, 1e5},
        {"compute_ms", offsetof(sci_sys_params_t, compute_ms), 0, 0.0, 1e5},
        {"reg_write_us", offsetof(sci_sys_params_t, reg_write_us), 0, 0.01, 1e5},
        {"clock_mhz", offsetof(sci_sys_params_t, clock_mhz), 0, 1, 10000},
        {"echo_timeout", offsetof(sci_sys_params_t, echo_timeout), 1, 1, 65535},
        {"busy_limit", offsetof(sci_sys_params_t, busy_limit), 1, 0, 255},
        {"retry_limit", offsetof(sci_sys_params_t, retry_limit), 1, 0, 255},
        {"rsr_timeout", offsetof(sci_sys_params_t, rsr_timeout), 1, 1, 65535},
        {"fail_backoff", offsetof(sci_sys_params_t, fail_backoff), 1, 1, 1e7},
        {"window", offsetof(sci_sys_params_t, window), 1, 1, MAXW},
    };
    const char *eq = strchr(nv, '=');
    for (unsigned k = 0; eq && k < sizeof tab / sizeof tab[0]; k++) {
        if (strlen(tab[k].name) != (size_t)(eq - nv) || strncmp(nv, tab[k].name, (size_t)(eq - nv)))
            continue;
        char *e;
        double v = strtod(eq + 1, &e);
        if (e == eq + 1 || *e || !(v >= tab[k].lo && v <= tab[k].hi) ||
            (tab[k].whole && v != floor(v))) {
            snprintf(err, errlen, "%s: %s %g to %g", nv, tab[k].whole ? "whole number" : "number",
                     tab[k].lo, tab[k].hi);
            return -1;
        }
        if (tab[k].whole)
            *(unsigned *)((char *)p + tab[k].off) = (unsigned)v;
        else
            *(double *)((char *)p + tab[k].off) = v;
        return 0;
    }
    snprintf(err, errlen, "%s: NAME=VALUE, NAME one of cablenotok_ms readytogo_ms watchdog_ms "
             "host_rtx_ms compute_ms reg_write_us clock_mhz echo_timeout busy_limit retry_limit "
             "rsr_timeout fail_backoff window", nv);
    return -1;
}

uint64_t sci_sys_ms(const sci_sys_params_t *p, double ms)
{
    double c = ms * p->clock_mhz * 1000.0 / (p->time_scale > 0 ? p->time_scale : 1.0);
    return c < 1.0 ? 1u : (uint64_t)llround(c);
}

static void sys_fail(sci_sys_t *s, const char *fmt, ...)
{
    if (s->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = snprintf(s->err, sizeof s->err, "cycle %llu: ", (unsigned long long)s->now);
    vsnprintf(s->err + k, sizeof s->err - (size_t)k, fmt, ap);
    va_end(ap);
    s->failed = true;
}

static void sys_log(sci_sys_t *s, unsigned node, const char *fmt, ...)
{
    if (!s->cfg.log)
        return;
    va_list ap;
    va_start(ap, fmt);
    double ms = (double)s->now / (s->cfg.par.clock_mhz * 1000.0);
    if (node == UINT32_MAX)
        fprintf(s->cfg.log, "%12llu %10.3f ms  system: ", (unsigned long long)s->now, ms);
    else
        fprintf(s->cfg.log, "%12llu %10.3f ms  (%u,%u): ", (unsigned long long)s->now, ms,
                node % s->w, node / s->w);
    vfprintf(s->cfg.log, fmt, ap);
    fputc('\n', s->cfg.log);
    va_end(ap);
}

/* ---- device access ------------------------------------------------------------------- */

static uint64_t reg_read(sci_sys_t *s, unsigned node, unsigned a)
{
    return dev_reg_read(s->ls.m[0], ((uint32_t)node << 8) | a);
}

static uint64_t out_port(const sci_sys_t *s, unsigned node, unsigned kind)
{
    return s->ls.out[0][sci_torus_port(s->d, node % s->w, node / s->w, kind)];
}

static unsigned node_of_id(const sci_sys_t *s, uint16_t id)
{
    for (unsigned i = 0; i < s->n; i++)
        if (s->id[i] == (id & SCI_ID_MASK))
            return i;
    return UINT32_MAX;
}

static unsigned xn(const sci_sys_t *s, unsigned i) { return i % s->w; }
static unsigned yn(const sci_sys_t *s, unsigned i) { return i / s->w; }

/* ---- host transmit ------------------------------------------------------------------- */

static uint16_t new_tid(host_t *h, uint8_t kind, uint32_t flow, uint32_t seq)
{
    uint16_t t = ++h->tid;
    h->tidmap[t % NTID].kind = kind;
    h->tidmap[t % NTID].flow = flow;
    h->tidmap[t % NTID].seq = seq;
    return t;
}

/* A driver packet or an ACK, ahead of data. */
static void host_post(sci_sys_t *s, unsigned i, uint16_t target, uint8_t type, uint8_t kind,
                      const uint16_t *pay, unsigned npay, uint16_t *tid_out)
{
    host_t *h = &s->host[i];
    if (h->pqn == PQ) {
        if (type == SCI_T_ACK) { /* cumulative: the next one, or a retransmission, makes up */
            h->acks_dropped++;
            return;
        }
        sys_fail(s, "host (%u,%u): its priority queue overflowed", xn(s, i), yn(s, i));
        return;
    }
    pkt_t *p = &h->pq[(h->pqh + h->pqn++) % PQ];
    uint16_t tid = new_tid(h, kind, 0, 0);
    p->len = (uint8_t)sci_packet_build(p->sym, target, type, s->id[i], tid, pay, npay);
    if (tid_out)
        *tid_out = tid;
}

/* Messages of flow f generated so far (a saturating flow always has one more). A paced
 * flow is an application that writes a message every `interval` cycles and blocks while a
 * window of messages is unacknowledged: it does not catch up on the time it was blocked (so a
 * driver's hold does not pile up a backlog that bursts out at its end). */
static uint32_t flow_gen(const sci_sys_t *s, flow_t *f)
{
    if (f->stop_at != UINT64_MAX)
        return f->gen_stop;
    if (s->now < f->start)
        return 0;
    if (f->interval == 0)
        return f->next + 1u;
    uint32_t cap = f->base + s->cfg.par.window;
    while (f->gen < cap && s->now >= f->next_gen_at) {
        f->gen++;
        f->next_gen_at += f->interval;
    }
    if (f->gen >= cap && f->next_gen_at < s->now)
        f->next_gen_at = s->now; /* blocked: the next write goes when the window opens */
    return f->gen;
}

/* The DATA packet of seq of flow k. */
static void build_data(sci_sys_t *s, unsigned k, uint32_t seq, pkt_t *p)
{
    flow_t *f = &s->flow[k];
    host_t *h = &s->host[f->src];
    uint16_t pay[SCI_MAX_PAYLOAD];
    uint64_t t0 = f->t_first[seq % s->cfg.par.window];
    pay[0] = (uint16_t)k;
    pay[1] = (uint16_t)seq;
    pay[2] = (uint16_t)(seq >> 16);
    for (unsigned j = 0; j < 4; j++)
        pay[3 + j] = (uint16_t)(t0 >> (16 * j));
    for (unsigned j = 7; j < f->npay; j++)
        pay[j] = (uint16_t)(k * 31u + seq * 7u + j);
    uint16_t tid = new_tid(h, TK_DATA, k, seq);
    p->len = (uint8_t)sci_packet_build(p->sym, s->id[f->dst], SCI_T_DATA, s->id[f->src], tid, pay,
                                       f->npay);
}

/* The destination looks unreachable (a dead node): rest the flow (doubling rests, up to 16
 * retransmission timeouts) and then try one message at a time, instead of filling LCs with
 * packets that are retried to no end. An ACK ends it. */
static void flow_rest(sci_sys_t *s, flow_t *f)
{
    f->fail_streak = 0;
    f->backoff = f->backoff ? (f->backoff * 2 < 16u * s->c_rtx ? f->backoff * 2 : 16u * s->c_rtx)
                            : 2u * s->c_rtx;
    f->quiet_until = s->now + f->backoff;
    f->rtx_at = f->quiet_until;
    f->probing = true;
}

/* The next data packet of host i, round robin over its flows; false if none may go. */
static bool next_data(sci_sys_t *s, unsigned i, pkt_t *p)
{
    host_t *h = &s->host[i];
    unsigned W = s->cfg.par.window;
    for (unsigned j = 0; j < h->nflows; j++) {
        unsigned k = h->flows[(h->rr + j) % h->nflows];
        flow_t *f = &s->flow[k];
        if (h->held[f->dst] || s->now < f->quiet_until || f->abandoned)
            continue;
        if (f->rtx_at && s->now >= f->rtx_at && f->base < f->sent_hi) {
            if (f->quiet_until == 0 && f->rtx_at == f->rto_at && ++f->fail_streak >= GIVE_UP) {
                flow_rest(s, f); /* no ACK for GIVE_UP timeouts in a row */
                continue;
            }
            if (f->rtx_at == f->rto_at)
                f->tmo_rounds++;
            f->quiet_until = 0;
            f->retx += f->sent_hi - f->base; /* go back to the oldest unacknowledged */
            f->next = f->base;
            f->rtx_at = f->rto_at = s->now + s->c_rtx;
        }
        if (f->next >= f->base + (f->probing ? 1u : W) || f->next >= flow_gen(s, f))
            continue;
        uint32_t seq = f->next++;
        if (seq == f->sent_hi) {
            f->t_first[seq % W] = s->now;
            f->sent_hi++;
        }
        if (!f->rtx_at)
            f->rtx_at = f->rto_at = s->now + s->c_rtx;
        f->sent++;
        build_data(s, k, seq, p);
        h->rr = (h->rr + j + 1) % h->nflows;
        return true;
    }
    return false;
}

/* Host i's input word this cycle. */
static uint64_t host_tx(sci_sys_t *s, unsigned i, bool ready)
{
    host_t *h = &s->host[i];
    if (h->dead)
        return 0;
    if (h->cur.len == 0) {
        if (h->pqn) {
            h->cur = h->pq[h->pqh];
            h->pqh = (h->pqh + 1) % PQ;
            h->pqn--;
        } else if (!next_data(s, i, &h->cur)) {
            return 0;
        }
        h->pos = 0;
    }
    uint64_t w = SCI_FLAG | h->cur.sym[h->pos];
    if (h->pos + 1u == h->cur.len)
        w |= SCI_LAST;
    if (ready && ++h->pos == h->cur.len)
        h->cur.len = 0;
    return w;
}

/* ---- host receive -------------------------------------------------------------------- */

static void gap_note(sci_sys_t *s, flow_t *f)
{
    uint64_t from = f->last_dl > f->gap_from ? f->last_dl : f->gap_from;
    if (s->now - from > f->max_gap) {
        f->max_gap = s->now - from;
        f->max_gap_at = s->now;
    }
    f->last_dl = s->now;
}

static void bin_add(sci_sys_t *s, uint64_t bytes, double lat)
{
    if (!s->cfg.bin_cycles)
        return;
    uint64_t b = s->now / s->cfg.bin_cycles;
    if (b >= s->capbins) {
        unsigned cap = s->capbins ? s->capbins : 256;
        while (cap <= b)
            cap *= 2;
        uint64_t *nb = realloc(s->bin_bytes, cap * sizeof *nb);
        uint64_t *nn = realloc(s->bin_latn, cap * sizeof *nn);
        double *nl = realloc(s->bin_lat, cap * sizeof *nl);
        if (!nb || !nn || !nl) {
            free(nb == s->bin_bytes ? NULL : nb);
            sys_fail(s, "out of memory (time series)");
            return;
        }
        memset(nb + s->capbins, 0, (cap - s->capbins) * sizeof *nb);
        memset(nn + s->capbins, 0, (cap - s->capbins) * sizeof *nn);
        memset(nl + s->capbins, 0, (cap - s->capbins) * sizeof *nl);
        s->bin_bytes = nb, s->bin_latn = nn, s->bin_lat = nl;
        s->capbins = cap;
    }
    if (b + 1 > s->nbins)
        s->nbins = (unsigned)b + 1;
    s->bin_bytes[b] += bytes;
    s->bin_lat[b] += lat;
    s->bin_latn[b]++;
}

static void got_data(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned len)
{
    unsigned k = p[4];
    if (len < 12 || k >= s->nflow || s->flow[k].dst != i || s->id[s->flow[k].src] != p[2]) {
        sys_fail(s, "host (%u,%u): a DATA packet no flow sent (flow %u, from 0x%x)", xn(s, i),
                 yn(s, i), k, p[2]);
        return;
    }
    flow_t *f = &s->flow[k];
    uint32_t seq = p[5] | (uint32_t)p[6] << 16;
    if (len != f->npay + 5u) {
        sys_fail(s, "flow %s: message %u arrived with %u symbols, sent %u", f->name, seq, len,
                 f->npay + 5u);
        return;
    }
    for (unsigned j = 7; j < f->npay; j++)
        if (p[4 + j] != (uint16_t)(k * 31u + seq * 7u + j)) {
            sys_fail(s, "flow %s: message %u arrived corrupted (payload symbol %u)", f->name, seq, j);
            return;
        }
    if (seq == f->expect) {
        uint64_t t0 = 0;
        for (unsigned j = 0; j < 4; j++)
            t0 |= (uint64_t)p[7 + j] << (16 * j);
        f->expect++;
        f->delivered++;
        f->bytes_dl += f->bytes;
        double lat = (double)(s->now - t0);
        f->lat_sum += lat;
        gap_note(s, f);
        bin_add(s, f->bytes, lat);
        if (k < 16)
            s->obs_dl |= (uint16_t)(1u << k);
        if (s->cfg.bin_cycles) { /* this flow's deliveries over time */
            unsigned b = (unsigned)(s->now / s->cfg.bin_cycles);
            if (b >= f->nbin_msgs) {
                unsigned cap = f->nbin_msgs ? f->nbin_msgs : 64;
                while (cap <= b)
                    cap *= 2;
                uint32_t *nb = realloc(f->bin_msgs, cap * sizeof *nb);
                if (!nb) {
                    sys_fail(s, "out of memory (time series)");
                    return;
                }
                memset(nb + f->nbin_msgs, 0, (cap - f->nbin_msgs) * sizeof *nb);
                f->bin_msgs = nb;
                f->nbin_msgs = cap;
            }
            f->bin_msgs[b]++;
        }
    } else if (seq < f->expect) {
        f->dups++;
    } else if (seq >= f->sent_hi) {
        sys_fail(s, "flow %s: message %u delivered before it was sent", f->name, seq);
        return;
    }
    uint16_t ack[3] = {(uint16_t)k, (uint16_t)f->expect, (uint16_t)(f->expect >> 16)};
    host_post(s, i, p[2], SCI_T_ACK, TK_NONE, ack, 3, NULL);
}

static void got_ack(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned len)
{
    unsigned k = p[4];
    if (len < 8 || k >= s->nflow || s->flow[k].src != i) {
        sys_fail(s, "host (%u,%u): an ACK for no flow of it (flow %u)", xn(s, i), yn(s, i), k);
        return;
    }
    flow_t *f = &s->flow[k];
    uint32_t cum = p[5] | (uint32_t)p[6] << 16;
    if (cum > f->sent_hi) {
        sys_fail(s, "flow %s: ACK of %u, only %u sent", f->name, cum, f->sent_hi);
        return;
    }
    if (cum > f->base) {
        f->fail_streak = 0;
        f->backoff = 0;
        f->probing = false;
        f->acked += cum - f->base;
        f->base = cum;
        if (f->next < f->base)
            f->next = f->base;
        f->rtx_at = f->rto_at = f->base < f->sent_hi ? s->now + s->c_rtx : 0;
    }
}

static void got_fail(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned len)
{
    host_t *h = &s->host[i];
    if (len < 9)
        return;
    uint16_t tid = p[7];
    if ((p[6] & SCI_ID_MASK) != s->id[i])
        return; /* another node's packet that failed in one of our LCs: its source times out */
    if (h->tidmap[tid % NTID].kind != TK_DATA)
        return; /* a driver packet or an ACK: the driver's timers cover those */
    flow_t *f = &s->flow[h->tidmap[tid % NTID].flow];
    f->fails++;
    sys_log(s, i, "FAIL_REPORT reason %u for flow %s message %u", p[4], f->name,
            h->tidmap[tid % NTID].seq);
    if (h->tidmap[tid % NTID].seq == f->base && ++f->fail_streak >= GIVE_UP) {
        /* the oldest message failed GIVE_UP rounds in a row: the destination looks unreachable
         * (a dead node); rest the flow instead of blocking the PSB FIFO with packets the LC
         * retries to no end */
        flow_rest(s, f);
        return;
    }
    if (h->tidmap[tid % NTID].seq >= f->base) {
        uint64_t t = s->now + s->cfg.par.fail_backoff;
        if (!f->rtx_at || t < f->rtx_at)
            f->rtx_at = t;
    }
}

static void drv_rtg_start(sci_sys_t *s, unsigned i);
static void drv_update_holds(sci_sys_t *s, unsigned i);
static void drv_send_read(sci_sys_t *s, unsigned i, bool in_pass);

static void got_reply(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned len)
{
    drv_t *d = &s->drv[i];
    if (len < 7 || d->rr_state != 1 || p[3] != d->rr_tid)
        return;
    bool broken = (p[4] & 0x8000u) || !(p[5] & 1u) || (p[5] & 4u);
    d->rr_state = broken ? 3 : 2;
    d->st.remote_reads++;
    if (broken)
        d->st.remote_broken++;
    if (p[4] & 0x8000u)
        d->st.read_timeouts++;
    sys_log(s, i, "remote read of (%u,%u)'s Y ring: %s", (xn(s, i) + s->w - 1) % s->w, yn(s, i),
            (p[4] & 0x8000u) ? "timed out (broken)" : broken ? "broken" : "up");
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

static void got_notify(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned len)
{
    drv_t *d = &s->drv[i];
    if (len < 7 || p[5] != 1u)
        return;
    d->st.notifies_got++;
    sys_log(s, i, "NOTIFY from (%u,%u): Y ring %s", xn(s, node_of_id(s, p[2])),
            yn(s, node_of_id(s, p[2])), p[4] ? "down" : "up");
    if (s->cfg.p2s) {
        d->remote_y = p[4] != 0; /* bookkeeping: the hardware already acted (FOCOL) */
        return;
    }
    drv_send_read(s, i, false); /* LC3: confirm with a remote status read */
}

static void host_packet(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned len)
{
    if (len < 5) {
        sys_fail(s, "host (%u,%u): a packet of %u symbols", xn(s, i), yn(s, i), len);
        return;
    }
    if (sci_crc16(p, len - 1u) != p[len - 1u]) {
        sys_fail(s, "host (%u,%u): a packet with a bad CRC reached the host", xn(s, i), yn(s, i));
        return;
    }
    switch (p[1] >> 8) {
    case SCI_T_DATA: got_data(s, i, p, len); break;
    case SCI_T_ACK: got_ack(s, i, p, len); break;
    case SCI_T_FAIL_REPORT: got_fail(s, i, p, len); break;
    case SCI_T_STATUS_REPLY: got_reply(s, i, p, len); break;
    case SCI_T_NOTIFY: got_notify(s, i, p, len); break;
    case SCI_T_PROBE: break; /* a ring probe back: the ring carries packets */
    default:
        sys_fail(s, "host (%u,%u): a packet of type 0x%02x", xn(s, i), yn(s, i), p[1] >> 8);
    }
}

static void host_rx(sci_sys_t *s, unsigned i)
{
    host_t *h = &s->host[i];
    uint64_t w = out_port(s, i, SCI_TP_HOUT);
    if (!(w & SCI_FLAG))
        return;
    if (h->rxn < SCI_MAX_PKT + 8)
        h->rx[h->rxn++] = (uint16_t)w;
    if (w & SCI_LAST) {
        unsigned len = h->rxn;
        h->rxn = 0;
        if (!h->dead)
            host_packet(s, i, h->rx, len);
    }
}

/* ---- the driver (sci.md section 5; harness/scisys/sci_sys.md section 3) ------------------------ */

static void wq_push(sci_sys_t *s, unsigned i, unsigned a, uint64_t data, uint64_t mask)
{
    drv_t *d = &s->drv[i];
    if (d->wqn == d->wqcap) {
        unsigned cap = d->wqcap ? 2 * d->wqcap : 64;
        wr_t *q = malloc(cap * sizeof *q);
        if (!q) {
            sys_fail(s, "out of memory (driver writes)");
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
    s->pending_writes++;
    if (d->wqn == 1 && d->wnext < s->now)
        d->wnext = s->now;
}

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
    h->nheld = 0;
    for (unsigned t = 0; t < s->n; t++) {
        unsigned tx = xn(s, t), ty = yn(s, t);
        bool use = (d->broken[0] && tx != x) || (d->broken[1] && tx == x && ty != y) ||
                   (d->remote_y && tx == xu && ty != y);
        h->held[t] = pass && use && t != i;
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
    host_post(s, i, s->id[nb], SCI_T_NOTIFY, TK_NOTIFY, pay, 2, NULL);
    s->drv[i].st.notifies_sent++;
}

static void drv_send_read(sci_sys_t *s, unsigned i, bool in_pass)
{
    drv_t *d = &s->drv[i];
    unsigned up = sci_torus_index(s->w, (xn(s, i) + s->w - 1) % s->w, yn(s, i));
    uint16_t pay[1] = {1};
    host_post(s, i, s->id[up], SCI_T_STATUS_READ, TK_READ, pay, 1, &d->rr_tid);
    d->rr_state = 1;
    d->rr_in_pass = in_pass;
}

/* CableNotOk: check every LC, disable a faulty one and store its status, clear the
 * interrupts, wait. */
static void drv_cnok(sci_sys_t *s, unsigned i)
{
    drv_t *d = &s->drv[i];
    d->st.cnok_passes++;
    for (unsigned k = 0; k < 2; k++) {
        unsigned base = k ? SCI_NODE_LC_STRIDE : 0;
        uint64_t st = reg_read(s, i, base + SCI_REG_STATUS);
        if (st & 8u)
            wq_push(s, i, base + SCI_REG_STATUS_CLR, 8u, 0xFF);
        if (!(st & 1u) && !d->broken[k]) {
            d->broken[k] = 1;
            wq_push(s, i, base + SCI_REG_CTRL, 0, 1ull << SCI_CTRL_ENABLE_BIT);
            sys_log(s, i, "CableNotOk: %s-LC down, disabled", k ? "Y" : "X");
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
    sys_log(s, i, "ReadyToGo (X %s, Y %s, upstream Y %s)", d->broken[0] ? "broken" : "ok",
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
        sys_fail(s, "driver (%u,%u): %s", xn(s, i), yn(s, i), err);
        return;
    }
    for (unsigned dst = 0; dst < s->n; dst++) {
        const sci_entry_t *e = sci_route_entry(&tb, i, 0, dst);
        sci_entry_t *o = &d->shadow[dst];
        uint64_t idx = sci_route_index(&t, 0, dst);
        if (e->xtake != o->xtake || e->xport != o->xport) {
            wq_push(s, i, SCI_REG_TADDR, idx, 0x3FFF);
            wq_push(s, i, SCI_REG_LRT, e->xtake, 1);
            wq_push(s, i, SCI_REG_BRT, e->xport, 7);
            d->st.table_writes += 3;
        }
        if (e->ytake != o->ytake || e->yport != o->yport) {
            wq_push(s, i, SCI_NODE_LC_STRIDE + SCI_REG_TADDR, idx, 0x3FFF);
            wq_push(s, i, SCI_NODE_LC_STRIDE + SCI_REG_LRT, e->ytake, 1);
            wq_push(s, i, SCI_NODE_LC_STRIDE + SCI_REG_BRT, e->yport, 7);
            d->st.table_writes += 3;
        }
        if (e->pport != o->pport) {
            wq_push(s, i, SCI_PSB_TADDR, idx, 0x3FFF);
            wq_push(s, i, SCI_PSB_BRT, e->pport, 7);
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
            host_post(s, i, s->id[i], SCI_T_PROBE, TK_PROBE, pay, 1, NULL);
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
            sys_log(s, i, "remote probe: upstream Y ring %s: another pass",
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
    sys_log(s, i, "resume");
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
            wq_push(s, i, base + SCI_REG_CTRL, 1ull << SCI_CTRL_ENABLE_BIT,
                    1ull << SCI_CTRL_ENABLE_BIT);
            if (st & 8u)
                wq_push(s, i, base + SCI_REG_STATUS_CLR, 8u, 0xFF);
            sys_log(s, i, "watchdog: %s ring back, LC enabled", k ? "Y" : "X");
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

static void drv_cycle(sci_sys_t *s, unsigned i)
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
                        wq_push(s, i, (k ? SCI_NODE_LC_STRIDE : 0) + SCI_REG_STATUS_CLR, 8u, 0xFF);
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
    default:
        break;
    }
    if (s->cfg.mode == SCI_SYS_DYNAMIC && s->now >= d->wd_next) {
        d->wd_next += s->c_wd;
        if (d->state == SCI_DRV_IDLE)
            drv_watchdog(s, i);
    }
}

/* ---- the static front end (sci.md section 5, the baseline) ------------------------------ */

static void fe_hold_all(sci_sys_t *s, bool on)
{
    s->fe_halt = on;
    for (unsigned i = 0; i < s->n; i++) {
        host_t *h = &s->host[i];
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
    if (sci_route_tables(&t, &s->fe_known, &tb, err, sizeof err) < 0) {
        sys_fail(s, "front end: %s", err);
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
        wq_push(s, i, SCI_REG_TADDR, ix, 0x3FFF);
        wq_push(s, i, SCI_REG_LRT, e.xtake, 1);
        wq_push(s, i, SCI_REG_BRT, e.xport, 7);
        wq_push(s, i, SCI_NODE_LC_STRIDE + SCI_REG_TADDR, ix, 0x3FFF);
        wq_push(s, i, SCI_NODE_LC_STRIDE + SCI_REG_LRT, e.ytake, 1);
        wq_push(s, i, SCI_NODE_LC_STRIDE + SCI_REG_BRT, e.yport, 7);
        wq_push(s, i, SCI_PSB_TADDR, ix, 0x3FFF);
        wq_push(s, i, SCI_PSB_BRT, e.pport, 7);
        s->drv[i].st.table_writes += 8;
        if (dst != UINT32_MAX)
            s->drv[i].shadow[dst] = e;
    }
    sci_route_free(&tb);
}

static void fe_cycle(sci_sys_t *s)
{
    switch (s->fe_state) {
    case 0:
        if (s->now >= s->fe_next_poll) {
            s->fe_next_poll += s->c_wd;
            sci_faults_t f;
            fe_poll(s, &f);
            if (memcmp(f.xring, s->fe_known.xring, sizeof f.xring) ||
                memcmp(f.yring, s->fe_known.yring, sizeof f.yring)) {
                s->fe_known = f;
                sys_log(s, UINT32_MAX, "front end: a ring changed: halt everything");
                fe_hold_all(s, true);
                s->fe_state = 1;
                s->fe_until = s->now + s->c_cnok;
            }
        }
        break;
    case 1: /* drain */
        if (s->now >= s->fe_until) {
            s->fe_node = 0;
            s->fe_state = 2;
            s->fe_until = s->now + s->c_compute;
            for (unsigned i = 0; i < s->n; i++)
                s->drv[i].state = SCI_DRV_HALT;
        }
        break;
    case 2: /* compute (fe_until), then load node fe_node (fe_until = UINT64_MAX) */
        if (s->fe_until != UINT64_MAX) {
            if (s->now >= s->fe_until) {
                sys_log(s, s->fe_node, "front end: full table load");
                fe_load_node(s, s->fe_node);
                s->fe_until = UINT64_MAX;
            }
        } else if (s->drv[s->fe_node].wqn == 0) {
            s->fe_state = 3; /* re-initialise and probe the node's rings */
            s->fe_until = s->now + s->c_rtg;
        }
        break;
    case 3:
        if (s->now >= s->fe_until) {
            s->drv[s->fe_node].state = SCI_DRV_IDLE;
            if (++s->fe_node < s->n) {
                s->fe_state = 2;
                s->fe_until = s->now + s->c_compute;
            } else {
                sys_log(s, UINT32_MAX, "front end: resume");
                fe_hold_all(s, false);
                s->fe_state = 0;
                s->fe_done++;
            }
        }
        break;
    }
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
    if (!s->d->check_control || s->d->check_control(s->d, what, err, errlen) < 0) {
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
        for (unsigned m = 0; m < s->ls.n; m++)
            if (dev_control(s->ls.m[m], w, err, sizeof err) < 0)
                sys_fail(s, "fault '%s': %s", w, err);
        sys_log(s, UINT32_MAX, "fault: %s", w);
        s->faults_applied++;
        unsigned x, y;
        if (sscanf(w, "off %u,%u", &x, &y) == 2 && x < s->w && y < s->h) {
            unsigned i = sci_torus_index(s->w, x, y);
            s->host[i].dead = true;
            s->host[i].cur.len = 0;
            s->host[i].pqn = 0;
            s->host[i].rxn = 0;
            s->drv[i].state = SCI_DRV_DEAD;
            s->pending_writes -= s->drv[i].wqn;
            s->drv[i].wqn = 0;
            memset(s->host[i].held, 0, s->n);
            s->host[i].nheld = 0;
        }
        if (sscanf(w, "on %u,%u", &x, &y) == 2 && x < s->w && y < s->h) {
            unsigned i = sci_torus_index(s->w, x, y);
            drv_t *d = &s->drv[i];
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

/* At most one register write a cycle for the whole device: the next driver, round robin,
 * whose next write is due (one every reg_write_us). */
static void do_write(sci_sys_t *s)
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
        if (s->obs_wr)
            s->obs_wr[i] = 1;
        d->wqh = (d->wqh + 1) % d->wqcap;
        d->wqn--;
        s->pending_writes--;
        d->wnext = s->now + s->c_write;
        s->wr_rr = (i + 1) % s->n;
        return;
    }
}

/* The earliest cycle at which the harness has something to do, from a quiet state. */
static uint64_t next_event(sci_sys_t *s, uint64_t until)
{
    uint64_t t = until;
#define AT(v) do { uint64_t v_ = (v); if (v_ > s->now && v_ < t) t = v_; else if (v_ <= s->now) return s->now; } while (0)
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
    if (s->cfg.mode == SCI_SYS_STATIC) {
        if (s->fe_state == 0)
            AT(s->fe_next_poll);
        else if (s->fe_until != UINT64_MAX)
            AT(s->fe_until);
        else if (!s->drv[s->fe_node].wqn)
            return s->now;
    }
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
                if (f->next < flow_gen(s, f))
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

static bool hosts_quiet(const sci_sys_t *s)
{
    for (unsigned i = 0; i < s->n; i++) {
        const host_t *h = &s->host[i];
        if (h->cur.len || h->pqn || h->rxn || (out_port(s, i, SCI_TP_HOUT) & SCI_FLAG))
            return false;
        const drv_t *d = &s->drv[i];
        if (d->state != SCI_DRV_DEAD && s->cfg.mode == SCI_SYS_DYNAMIC &&
            (((out_port(s, i, SCI_TP_IRQ_X) & 1u) && !d->broken[0]) ||
             ((out_port(s, i, SCI_TP_IRQ_Y) & 1u) && !d->broken[1])))
            return false;
    }
    return true;
}

static int sys_cycle(sci_sys_t *s, uint64_t until)
{
    char msg[600];
    apply_faults(s);
    ls_sample(&s->ls);
    if (s->ls.n == 2 && ls_diverged(&s->ls, msg, sizeof msg)) {
        sys_fail(s, "rtl and csim diverged: %s", msg);
        return -1;
    }
    for (unsigned i = 0; i < s->n; i++)
        host_rx(s, i);
    if (s->cfg.mode == SCI_SYS_STATIC)
        fe_cycle(s);
    for (unsigned i = 0; i < s->n; i++)
        drv_cycle(s, i);
    if (s->failed)
        return -1;
    bool quiet = hosts_quiet(s);
    for (unsigned i = 0; i < s->n; i++) {
        bool ready = out_port(s, i, SCI_TP_HIN_READY) & 1u;
        s->in[sci_torus_port(s->d, xn(s, i), yn(s, i), SCI_TP_HIN)] = host_tx(s, i, ready);
        if (s->host[i].cur.len)
            quiet = false;
    }
    do_write(s);
    ls_set_inputs(&s->ls, s->in);
    if (s->obs) { /* the harness's state of this cycle, into the waveform with the RTL's */
        uint8_t st[SCI_OBS_NODES], held[SCI_OBS_NODES];
        for (unsigned i = 0; i < s->n && i < SCI_OBS_NODES; i++) {
            st[i] = (uint8_t)s->drv[i].state;
            held[i] = s->host[i].nheld != 0;
        }
        sci_obs_set(s->obs, st, held, s->obs_wr, s->n, s->obs_dl, s->faults_applied);
        memset(s->obs_wr, 0, s->n);
        s->obs_dl = 0;
    }
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
            s->skip_backoff = k > 1 ? 0 : s->skip_backoff ? (s->skip_backoff < 64 ? 2 * s->skip_backoff : 64) : 4;
            s->skip_wait = s->skip_backoff;
        }
        else
            k = ls_tick(&s->ls, msg, sizeof msg) ? 0 : 1;
    } else {
        k = ls_tick(&s->ls, msg, sizeof msg) ? 0 : 1;
    }
    if (k == 0) {
        sys_fail(s, "%s", msg);
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
    if (s->cfg.mode == SCI_SYS_STATIC && s->fe_state != 0)
        return 1;
    for (unsigned i = 0; i < s->n; i++) {
        const drv_t *d = &s->drv[i];
        if (d->state != SCI_DRV_IDLE && d->state != SCI_DRV_DEAD)
            return 1;
        if (d->wqn || d->rr_state == 1 || d->rr_send_at)
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
            if (f->base < (f->stop_at != UINT64_MAX ? flow_gen(s, f) : f->sent_hi))
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

unsigned sci_sys_static_done(const sci_sys_t *s) { return s->fe_done; }

/* ---- set-up -------------------------------------------------------------------------- */

static int set_cfg(const dev_design_t *d, dev_write_t *w, unsigned n, unsigned max,
                   const char *name, uint64_t v)
{
    int r = dev_reg_index(d, name);
    if (r < 0)
        return (int)n;
    return (int)dev_write_merge(w, n, max, &d->regs[r], v);
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
    prng_seed(&s->rng, cfg->seed);
    const sci_sys_params_t *p = &cfg->par;
    s->c_cnok = sci_sys_ms(p, p->cablenotok_ms);
    s->c_rtg = sci_sys_ms(p, p->readytogo_ms);
    s->c_wd = sci_sys_ms(p, p->watchdog_ms);
    s->c_rtx = sci_sys_ms(p, p->host_rtx_ms);
    s->c_compute = sci_sys_ms(p, p->compute_ms);
    s->c_write = sci_sys_ms(p, p->reg_write_us / 1000.0);
    /* never below the hardware: a pass outlasts the ring-down and ring-up bounds (sci_lc.md) */
    unsigned N = s->w > s->h ? s->w : s->h;
    uint64_t hw = 2u * (5u + 43u * (N - 1u) + 66u + 5u * N);
    if (s->c_cnok < hw)
        s->c_cnok = hw;
    if (s->c_rtg < 2 * hw)
        s->c_rtg = 2 * hw;
    if (s->c_rtx < 4u * p->echo_timeout)
        s->c_rtx = 4u * p->echo_timeout;
    s->host = calloc(s->n, sizeof *s->host);
    s->drv = calloc(s->n, sizeof *s->drv);
    s->id = calloc(s->n, sizeof *s->id);
    s->in = calloc(s->d ? s->d->nports : 1, sizeof *s->in);
    if (!s->d || !s->host || !s->drv || !s->id || !s->in) {
        snprintf(err, errlen, "out of memory");
        sci_sys_free(s);
        return NULL;
    }
    for (unsigned i = 0; i < s->n; i++) {
        s->id[i] = sci_torus_node_id(s->d, xn(s, i), yn(s, i));
        s->host[i].held = calloc(s->n, 1);
        if (!s->host[i].held) {
            snprintf(err, errlen, "out of memory");
            sci_sys_free(s);
            return NULL;
        }
        /* the drivers start together at boot, in node order a register write apart: their
         * watchdogs tick together, so the nodes of a ring restore it in the same tick */
        s->drv[i].wd_next = s->c_wd + (uint64_t)i * s->c_write;
        s->host[i].tid = (uint16_t)(i * 4099u);
    }
    if (sci_route_tables(&(sci_torus_t){s->w, s->h, cfg->p2s ? SCI_VAR_P2S : SCI_VAR_LC3,
                                        SCI_POLICY_SPEC},
                         NULL, &s->ff, err, errlen) < 0) {
        sci_sys_free(s);
        return NULL;
    }
    if (!cfg->p2s || cfg->mode == SCI_SYS_STATIC)
        for (unsigned i = 0; i < s->n; i++) {
            s->drv[i].shadow = calloc(s->n, sizeof *s->drv[i].shadow);
            if (!s->drv[i].shadow) {
                snprintf(err, errlen, "out of memory");
                sci_sys_free(s);
                return NULL;
            }
            for (unsigned t = 0; t < s->n; t++)
                s->drv[i].shadow[t] = *sci_route_entry(&s->ff, i, 0, t);
        }
    if (ls_open(&s->ls, s->d, cfg->models, err, errlen) < 0) {
        sci_sys_free(s);
        return NULL;
    }
    if (cfg->wave) {
        if (!(cfg->models & LS_RTL)) {
            snprintf(err, errlen, "a waveform needs the RTL (--model rtl or both)");
            sci_sys_free(s);
            return NULL;
        }
        /* one FST: the torus RTL and the harness observer (driver states, holds, table
         * writes, deliveries) */
        void *tr = ftsim_vl_trace_new();
        s->obs = sci_obs_new();
        s->obs_wr = calloc(s->n, 1);
        if (!s->obs_wr) {
            snprintf(err, errlen, "out of memory");
            sci_sys_free(s);
            return NULL;
        }
        sci_obs_attach(s->obs, tr);
        if (sci_torus_trace_share(s->ls.m[0], tr, err, errlen) < 0 ||
            ftsim_vl_trace_open(tr, cfg->wave, err, errlen) < 0) {
            sci_sys_free(s);
            return NULL;
        }
    }
    /* configuration: the torus defaults, with the parameters' LC and PSB values */
    unsigned maxw = 4u * s->n + 8u;
    dev_write_t *w = calloc(maxw, sizeof *w);
    if (!w) {
        snprintf(err, errlen, "out of memory");
        sci_sys_free(s);
        return NULL;
    }
    unsigned nw = dev_config_defaults(s->d, w, maxw);
    for (unsigned i = 0; i < s->n; i++) {
        char nm[48];
        const char *lc[2] = {"x", "y"};
        for (unsigned k = 0; k < 2; k++) {
            snprintf(nm, sizeof nm, "n%u.%u.%s.echo_timeout", xn(s, i), yn(s, i), lc[k]);
            nw = (unsigned)set_cfg(s->d, w, nw, maxw, nm, p->echo_timeout);
            snprintf(nm, sizeof nm, "n%u.%u.%s.busy_limit", xn(s, i), yn(s, i), lc[k]);
            nw = (unsigned)set_cfg(s->d, w, nw, maxw, nm, p->busy_limit);
            snprintf(nm, sizeof nm, "n%u.%u.%s.retry_limit", xn(s, i), yn(s, i), lc[k]);
            nw = (unsigned)set_cfg(s->d, w, nw, maxw, nm, p->retry_limit);
        }
        snprintf(nm, sizeof nm, "n%u.%u.rsr_timeout", xn(s, i), yn(s, i));
        nw = (unsigned)set_cfg(s->d, w, nw, maxw, nm, p->rsr_timeout > 0xFFFF ? 0xFFFF : p->rsr_timeout);
    }
    ls_reset(&s->ls, w, nw);
    free(w);
    for (unsigned i = 0; i < s->d->nports; i++)
        if (s->d->ports[i].dir == DEV_IN)
            s->in[i] = 0;
    for (unsigned i = 0; i < s->n; i++)
        s->in[sci_torus_port(s->d, xn(s, i), yn(s, i), SCI_TP_HOUT_READY)] = 1;
    /* the rings come up after reset: let them, before any traffic */
    uint64_t boot = 200u + 10u * N;
    for (uint64_t c = 0; c < boot; c++) {
        ls_set_inputs(&s->ls, s->in);
        char msg[300];
        if (ls_tick(&s->ls, msg, sizeof msg)) {
            snprintf(err, errlen, "%s", msg);
            sci_sys_free(s);
            return NULL;
        }
        s->now++;
    }
    for (unsigned i = 0; i < s->n; i++)
        for (unsigned k = 0; k < 2; k++)
            if (!(reg_read(s, i, (k ? SCI_NODE_LC_STRIDE : 0) + SCI_REG_STATUS) & 1u)) {
                snprintf(err, errlen, "(%u,%u): %s ring not up after boot", xn(s, i), yn(s, i),
                         k ? "Y" : "X");
                sci_sys_free(s);
                return NULL;
            }
    s->fe_next_poll = s->now + s->c_wd / 2 + prng_below(&s->rng, (uint32_t)s->c_wd);
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
    sci_obs_free(s->obs);
    free(s->obs_wr);
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
    free(s->host), free(s->drv), free(s->id), free(s->in), free(s->flow);
    free(s->bin_bytes), free(s->bin_lat), free(s->bin_latn);
    dev_design_release(s->d);
    free(s);
}

int sci_sys_add_flow(sci_sys_t *s, const char *name, unsigned src, unsigned dst, unsigned bytes,
                     uint64_t interval, uint64_t start, char *err, size_t errlen)
{
    if (src >= s->n || dst >= s->n || src == dst) {
        snprintf(err, errlen, "flow %s: nodes %u -> %u: need two different nodes of %u", name,
                 src, dst, s->n);
        return -1;
    }
    if (bytes < 16 || bytes > 64) {
        snprintf(err, errlen, "flow %s: %u bytes: a message carries 16 to 64", name, bytes);
        return -1;
    }
    if (s->nflow == 0xFFFF) {
        snprintf(err, errlen, "too many flows");
        return -1;
    }
    if (s->nflow == s->capflow) {
        unsigned cap = s->capflow ? 2 * s->capflow : 16;
        flow_t *nf = realloc(s->flow, cap * sizeof *nf);
        if (!nf) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        s->flow = nf;
        s->capflow = cap;
    }
    host_t *h = &s->host[src];
    unsigned *hf = realloc(h->flows, (h->nflows + 1) * sizeof *hf);
    if (!hf) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    h->flows = hf;
    h->flows[h->nflows++] = s->nflow;
    flow_t *f = &s->flow[s->nflow];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    f->src = src;
    f->dst = dst;
    f->bytes = bytes;
    f->npay = bytes / 2;
    f->interval = interval;
    f->start = start > s->now ? start : s->now;
    f->next_gen_at = f->start;
    f->stop_at = UINT64_MAX;
    f->gap_from = f->start;
    return (int)s->nflow++;
}

void sci_sys_stop_flows(sci_sys_t *s)
{
    for (unsigned k = 0; k < s->nflow; k++)
        if (s->flow[k].stop_at == UINT64_MAX) {
            flow_t *f = &s->flow[k];
            /* a saturating flow has generated what it handed out */
            f->gen_stop = f->interval == 0 ? f->sent_hi : flow_gen(s, f);
            f->stop_at = s->now;
        }
}

void sci_sys_abandon_flow(sci_sys_t *s, unsigned k)
{
    s->flow[k].abandoned = true;
}

void sci_sys_set_interval(sci_sys_t *s, unsigned k, uint64_t interval)
{
    flow_t *f = &s->flow[k];
    if (f->stop_at != UINT64_MAX)
        return;
    /* keep what was generated (a saturating flow: what it handed out); the next one comes
     * one interval from now */
    f->gen = f->interval == 0 ? (s->now >= f->start ? f->sent_hi : 0) : flow_gen(s, f);
    f->interval = interval;
    f->next_gen_at = s->now + interval;
}

unsigned sci_sys_nflows(const sci_sys_t *s) { return s->nflow; }

void sci_sys_flow_stats(const sci_sys_t *s, unsigned k, sci_flow_stats_t *st)
{
    flow_t *f = (flow_t *)&s->flow[k]; /* brings its generator up to now */
    memset(st, 0, sizeof *st);
    snprintf(st->name, sizeof st->name, "%s", f->name);
    st->src = f->src;
    st->dst = f->dst;
    st->generated = flow_gen((sci_sys_t *)s, f);
    st->sent = f->sent;
    st->delivered = f->delivered;
    st->acked = f->acked;
    st->dups = f->dups;
    st->retx = f->retx;
    st->tmo_rounds = f->tmo_rounds;
    st->fail_reports = f->fails;
    st->bytes = f->bytes_dl;
    st->lat_sum = f->lat_sum;
    st->last_delivery = f->last_dl;
    st->max_gap = f->max_gap;
    st->max_gap_at = f->max_gap_at;
    st->outstanding = st->generated > f->base ? st->generated - f->base : 0;
}

void sci_sys_reset_gaps(sci_sys_t *s)
{
    for (unsigned k = 0; k < s->nflow; k++) {
        s->flow[k].gap_from = s->now;
        s->flow[k].max_gap = 0;
        s->flow[k].max_gap_at = 0;
    }
}

void sci_sys_close_gaps(sci_sys_t *s)
{
    for (unsigned k = 0; k < s->nflow; k++) {
        flow_t *f = &s->flow[k];
        if (flow_gen(s, f) > f->expect) {
            uint64_t from = f->last_dl > f->gap_from ? f->last_dl : f->gap_from;
            if (s->now - from > f->max_gap) {
                f->max_gap = s->now - from;
                f->max_gap_at = s->now;
            }
        }
    }
}

void sci_sys_driver_stats(const sci_sys_t *s, unsigned node, sci_drv_stats_t *st)
{
    *st = s->drv[node].st;
    st->state = s->drv[node].state;
}

unsigned sci_sys_bins(const sci_sys_t *s, const uint64_t **bytes, const double **lat_sum,
                      const uint64_t **lat_n)
{
    *bytes = s->bin_bytes;
    *lat_sum = s->bin_lat;
    *lat_n = s->bin_latn;
    return s->nbins;
}

uint32_t sci_sys_flow_bin(const sci_sys_t *s, unsigned flow, unsigned bin)
{
    const flow_t *f = &s->flow[flow];
    return bin < f->nbin_msgs ? f->bin_msgs[bin] : 0;
}

uint64_t sci_sys_scrubbed(sci_sys_t *s)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < s->n; i++)
        for (unsigned k = 0; k < 2; k++)
            n += reg_read(s, i, (k ? SCI_NODE_LC_STRIDE : 0) + SCI_REG_COUNTS) >> 16 & 0xFFFFu;
    return n;
}

void *sci_sys_lockstep(sci_sys_t *s) { return &s->ls; }

/* ---- reading the tables back ------------------------------------------------------------ */

/* One register cycle: a write, then an edge with the inputs as they are. */
static int reg_cycle(sci_sys_t *s, unsigned i, unsigned a, uint64_t v, uint64_t mask)
{
    char msg[300];
    dev_write_t w = {((uint32_t)i << 8) | a, v, mask};
    ls_sample(&s->ls);
    ls_reg_write(&s->ls, &w);
    ls_set_inputs(&s->ls, s->in);
    if (ls_tick(&s->ls, msg, sizeof msg)) {
        sys_fail(s, "%s", msg);
        return -1;
    }
    s->now++;
    return 0;
}

int sci_sys_read_tables(sci_sys_t *s, void *tbv, char *err, size_t errlen)
{
    sci_tables_t *tb = tbv;
    if (sci_route_tables(&s->ff.t, NULL, tb, err, errlen) < 0) /* a dead node's: fault-free */
        return -1;
    for (unsigned i = 0; i < s->n; i++)
        tb->f.dead[i] = s->host[i].dead;
    /* quiet inputs while the port is used */
    for (unsigned i = 0; i < s->n; i++)
        s->in[sci_torus_port(s->d, xn(s, i), yn(s, i), SCI_TP_HIN)] = 0;
    for (unsigned i = 0; i < s->n; i++) {
        if (s->host[i].dead)
            continue;
        for (unsigned set = 0; set < tb->nsets; set++)
            for (unsigned d = 0; d < s->n; d++) {
                uint64_t idx = sci_route_index(&tb->t, set, d);
                if (reg_cycle(s, i, SCI_REG_TADDR, idx, 0x3FFF) < 0 ||
                    reg_cycle(s, i, SCI_NODE_LC_STRIDE + SCI_REG_TADDR, idx, 0x3FFF) < 0 ||
                    reg_cycle(s, i, SCI_PSB_TADDR, idx, 0x3FFF) < 0) {
                    snprintf(err, errlen, "%s", s->err);
                    return -1;
                }
                sci_entry_t *e = (sci_entry_t *)sci_route_entry(tb, i, set, d);
                e->xtake = (uint8_t)(reg_read(s, i, SCI_REG_LRT) & 1u);
                e->xport = (uint8_t)(reg_read(s, i, SCI_REG_BRT) & 7u);
                e->ytake = (uint8_t)(reg_read(s, i, SCI_NODE_LC_STRIDE + SCI_REG_LRT) & 1u);
                e->yport = (uint8_t)(reg_read(s, i, SCI_NODE_LC_STRIDE + SCI_REG_BRT) & 7u);
                e->pport = (uint8_t)(reg_read(s, i, SCI_PSB_BRT) & 7u);
                if (set == 0 && tb->asel) {
                    if (reg_cycle(s, i, SCI_PSB_TADDR, s->id[d], 0x3FFF) < 0) {
                        snprintf(err, errlen, "%s", s->err);
                        return -1;
                    }
                    tb->asel[(size_t)i * s->n + d] = (uint8_t)(reg_read(s, i, SCI_PSB_ASEL) & 1u);
                }
            }
    }
    if (s->cfg.p2s) /* the failover the hardware shows now */
        for (unsigned i = 0; i < s->n; i++) {
            if (s->host[i].dead)
                continue;
            uint64_t sx = reg_read(s, i, SCI_REG_STATUS), sy = reg_read(s, i, SCI_NODE_LC_STRIDE + SCI_REG_STATUS);
            uint64_t fc = reg_read(s, i, SCI_PSB_FOCOL);
            sci_route_p2s_failover(tb, i, !(sx & 1u) || (sx & 4u), !(sy & 1u) || (sy & 4u),
                                   (int)(fc & 1u), (unsigned)(fc >> 8 & 0x3Fu));
        }
    /* the rings as they are, for the tracer */
    for (unsigned i = 0; i < s->n; i++) {
        if (s->host[i].dead)
            continue;
        if (!(reg_read(s, i, SCI_REG_STATUS) & 1u))
            tb->f.xring[yn(s, i)] = 1;
        if (!(reg_read(s, i, SCI_NODE_LC_STRIDE + SCI_REG_STATUS) & 1u))
            tb->f.yring[xn(s, i)] = 1;
    }
    return 0;
}
