/*
 * sci_sys_host.c — the host agents of the running torus: per node the flows it sources
 * (go-back-N over a window, retransmission on timeout or FAIL_REPORT, rests when a
 * destination looks dead), the packets it sends (driver packets and ACKs ahead of data), and
 * the delivery ledger that checks every message arrives whole, once and in order.
 */
#include "sci_sys_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sci_word.h"

/* ---- flows -------------------------------------------------------------------------- */

/* Messages of flow f generated so far (a saturating flow always has one more). A paced
 * flow is an application that writes a message every `interval` cycles and blocks while a
 * window of messages is unacknowledged: it does not catch up on the time it was blocked (so a
 * driver's hold does not pile up a backlog that bursts out at its end). Each message generated
 * keeps the cycle its write was due (the one it blocked in, for a write that blocked): when
 * the application offered it, for the gap seen from the source (sci_sys.md section 2). */
uint32_t scisys_flow_gen(const sci_sys_t *s, flow_t *f)
{
    if (f->stop_at != UINT64_MAX)
        return f->gen_stop;
    if (s->now < f->start)
        return 0;
    if (f->interval == 0)
        return f->next + 1u;
    unsigned W = s->cfg.par.window;
    uint32_t cap = f->base + W;
    while (f->gen < cap && s->now >= f->next_gen_at) {
        f->t_offer[f->gen % W] = f->blocked_from ? f->blocked_from : f->next_gen_at;
        f->blocked_from = 0;
        f->gen++;
        f->next_gen_at += f->interval;
    }
    if (f->gen >= cap && f->next_gen_at <= s->now && !f->blocked_from)
        f->blocked_from = f->next_gen_at; /* the write due then blocks */
    if (f->gen >= cap && f->next_gen_at < s->now)
        f->next_gen_at = s->now; /* blocked: the next write goes when the window opens */
    return f->gen;
}

bool scisys_flow_blocked(const sci_sys_t *s, flow_t *f)
{
    scisys_flow_gen(s, f);
    return f->stop_at == UINT64_MAX && f->interval && f->blocked_from;
}

int sci_sys_add_flow(sci_sys_t *s, const char *name, unsigned src, unsigned dst, unsigned bytes,
                     uint64_t interval, uint64_t start, char *err, size_t errlen)
{
    if (src >= s->n || dst >= s->n || src == dst) {
        snprintf(err, errlen, "flow %s: nodes %u -> %u: need two different nodes of %u", name, src,
                 dst, s->n);
        return -1;
    }
    if (bytes < 16 || bytes > 64) {
        snprintf(err, errlen, "flow %s: %u bytes: a message carries 16 to 64", name, bytes);
        return -1;
    }
    if (s->nflow == (s->fd ? 4096u : 0xFFFFu)) { /* FT-DRB's ACK: 12 bits (ftdrb_sci.md s.5) */
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
    scisys_host_wake(s, src);
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
    if (s->fd && scisys_ftdrb_flow_added(s) < 0) { /* its metapath (ftdrb_sci.md section 4) */
        h->nflows--;
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return (int)s->nflow++;
}

void sci_sys_stop_flows(sci_sys_t *s)
{
    for (unsigned k = 0; k < s->nflow; k++)
        if (s->flow[k].stop_at == UINT64_MAX) {
            flow_t *f = &s->flow[k];
            /* a saturating flow has generated what it handed out */
            f->gen_stop = f->interval == 0 ? f->sent_hi : scisys_flow_gen(s, f);
            f->stop_at = s->now;
            scisys_host_wake(s, f->src);
        }
}

void sci_sys_abandon_flow(sci_sys_t *s, unsigned k)
{
    s->flow[k].abandoned = true;
    scisys_host_wake(s, s->flow[k].src);
}

void sci_sys_set_interval(sci_sys_t *s, unsigned k, uint64_t interval)
{
    flow_t *f = &s->flow[k];
    if (f->stop_at != UINT64_MAX)
        return;
    /* keep what was generated (a saturating flow: what it handed out); the next one comes
     * one interval from now */
    f->gen = f->interval == 0 ? (s->now >= f->start ? f->sent_hi : 0) : scisys_flow_gen(s, f);
    f->interval = interval;
    f->next_gen_at = s->now + interval;
    f->blocked_from = 0;
    scisys_host_wake(s, f->src);
}

/* ---- host transmit ------------------------------------------------------------------- */

static uint16_t new_tid(host_t *h, uint8_t kind, uint32_t flow, uint32_t seq)
{
    uint16_t t = ++h->tid;
    h->tidmap[t % NTID].kind = kind;
    h->tidmap[t % NTID].flow = flow;
    h->tidmap[t % NTID].seq = seq;
    return t;
}

uint16_t scisys_host_new_tid(sci_sys_t *s, unsigned i)
{
    return new_tid(&s->host[i], TK_NONE, 0, 0);
}

/* A driver packet or an ACK, ahead of data. */
void scisys_host_post(sci_sys_t *s, unsigned i, uint16_t target, uint8_t type, uint8_t kind,
                      const uint16_t *pay, unsigned npay, uint16_t *tid_out)
{
    host_t *h = &s->host[i];
    if (h->pqn == PQ) {
        if (type == SCI_T_ACK) { /* cumulative: the next one, or a retransmission, makes up */
            h->acks_dropped++;
            return;
        }
        scisys_fail(s, "host (%u,%u): its priority queue overflowed", xn(s, i), yn(s, i));
        return;
    }
    pkt_t *p = &h->pq[(h->pqh + h->pqn++) % PQ];
    uint16_t tid = new_tid(h, kind, 0, 0);
    p->len = (uint8_t)sci_packet_build(p->sym, target, type, s->id[i], tid, pay, npay);
    if (tid_out)
        *tid_out = tid;
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
    if (s->fd)
        scisys_ftdrb_data(s, k, p); /* its path (ftdrb_sci.md section 4) */
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

/* The first cycle after now at which flow f (not held, not abandoned), left alone, may have a
 * DATA packet to send: its rest ends, its retransmission timer runs out, it starts, or it
 * generates its next message (UINT64_MAX: only an ACK or another event can give it one). */
static uint64_t flow_wake(const sci_sys_t *s, const flow_t *f)
{
    uint64_t t = UINT64_MAX;
    const uint64_t at[4] = {f->quiet_until, f->rtx_at, f->start,
                            f->interval && f->stop_at == UINT64_MAX ? f->next_gen_at : 0};
    for (unsigned k = 0; k < 4; k++)
        if (at[k] > s->now && at[k] < t)
            t = at[k];
    return t;
}

/* Whether flow f (not held, not abandoned) may send a message now: not resting, and, after a
 * retransmission timer that ran out sent it back to its oldest unacknowledged message (or
 * rested it), a message generated and room in the window. */
static bool flow_may_send(sci_sys_t *s, flow_t *f)
{
    unsigned W = s->cfg.par.window;
    if (s->now < f->quiet_until)
        return false;
    if (f->rtx_at && s->now >= f->rtx_at && f->base < f->sent_hi) {
        if (f->quiet_until == 0 && f->rtx_at == f->rto_at && ++f->fail_streak >= GIVE_UP) {
            flow_rest(s, f); /* no ACK for GIVE_UP timeouts in a row */
            return false;
        }
        if (f->rtx_at == f->rto_at)
            f->tmo_rounds++;
        f->quiet_until = 0;
        f->next = f->base; /* go back to the oldest unacknowledged */
        f->rtx_at = f->rto_at = s->now + s->c_rtx;
    }
    return f->next < f->base + (f->probing ? 1u : W) && f->next < scisys_flow_gen(s, f);
}

/* The next data packet of host i, round robin over its flows; false if none may go (then
 * h->data_wake is when one may). */
static bool next_data(sci_sys_t *s, unsigned i, pkt_t *p)
{
    host_t *h = &s->host[i];
    unsigned W = s->cfg.par.window;
    uint64_t wake = UINT64_MAX;
    for (unsigned j = 0; j < h->nflows; j++) {
        unsigned k = h->flows[(h->rr + j) % h->nflows];
        flow_t *f = &s->flow[k];
        if (h->held[f->dst] || f->abandoned)
            continue; /* until a release (an event) */
        if (!flow_may_send(s, f)) {
            uint64_t fw = flow_wake(s, f);
            if (fw < wake)
                wake = fw;
            continue;
        }
        uint32_t seq = f->next++;
        if (seq == f->sent_hi) {
            f->t_first[seq % W] = s->now;
            if (f->interval == 0)
                f->t_offer[seq % W] = 0; /* a saturating flow always has one offered */
            /* read by the destination's ledger in the same loop (sci_sys_threads.c) */
            __atomic_store_n(&f->sent_hi, f->sent_hi + 1u, __ATOMIC_RELAXED);
        }
        if (!f->rtx_at)
            f->rtx_at = f->rto_at = s->now + s->c_rtx;
        f->sent++;
        build_data(s, k, seq, p);
        h->rr = (h->rr + j + 1) % h->nflows;
        return true;
    }
    h->data_wake = wake;
    return false;
}

/* Host i's input word this cycle. */
uint64_t scisys_host_tx(sci_sys_t *s, unsigned i, bool ready)
{
    host_t *h = &s->host[i];
    if (h->dead)
        return 0;
    if (h->cur.len == 0) {
        if (h->pqn) {
            h->cur = h->pq[h->pqh];
            h->pqh = (h->pqh + 1) % PQ;
            h->pqn--;
        } else if (s->fd && scisys_ftdrb_tx(s, i, &h->cur)) {
            /* a relayed packet (ftdrb_sci.md section 5), before our own data */
        } else if (s->now < h->data_wake || !next_data(s, i, &h->cur)) {
            return 0; /* no data before data_wake */
        }
        h->pos = 0;
    }
    uint64_t w = SCI_FLAG | h->cur.sym[h->pos];
    if (h->pos + 1u == h->cur.len)
        w |= SCI_LAST;
    if (ready && ++h->pos == h->cur.len) {
        h->cur.len = 0;
        h->handed++;
        if (h->cur.sym[1] >> 8 == SCI_T_STATUS_READ) {
            h->read_n = h->handed;
            h->read_tid = h->cur.sym[3];
        }
    }
    return w;
}

/* ---- host receive -------------------------------------------------------------------- */

static void got_data(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned len)
{
    unsigned k = p[4];
    bool tol = s->cfg.ft & SCI_FT_TOLERANT;
    if (len < 12 || k >= s->nflow || s->flow[k].dst != i || s->id[s->flow[k].src] != p[2]) {
        if (tol) { /* an upset took it to the wrong host: it is lost, its source retries */
            s->ft.st.misrouted++;
            return;
        }
        scisys_fail(s, "host (%u,%u): a DATA packet no flow sent (flow %u, from 0x%x)", xn(s, i),
                    yn(s, i), k, p[2]);
        return;
    }
    flow_t *f = &s->flow[k];
    uint32_t seq = p[5] | (uint32_t)p[6] << 16;
    if (len != f->npay + 5u) {
        if (tol) {
            s->ft.st.corrupted++;
            return;
        }
        scisys_fail(s, "flow %s: message %u arrived with %u symbols, sent %u", f->name, seq, len,
                    f->npay + 5u);
        return;
    }
    for (unsigned j = 7; j < f->npay; j++)
        if (p[4 + j] != (uint16_t)(k * 31u + seq * 7u + j)) {
            if (tol) {
                s->ft.st.corrupted++;
                return;
            }
            scisys_fail(s, "flow %s: message %u arrived corrupted (payload symbol %u)", f->name,
                        seq, j);
            return;
        }
    /* the source half, written by the source in the same loop (sci_sys_threads.c) */
    uint32_t sent_hi = __atomic_load_n(&f->sent_hi, __ATOMIC_RELAXED);
    if (f->resync && seq < sent_hi) {
        /* the no-host-state ablation: this receiver lost its expected number in a recovery and
         * takes what comes as the next in order, a message it had delivered included */
        f->resync = false;
        if (seq < f->expect)
            s->ft.st.dup_delivered++, f->dup_dl++;
        f->expect = seq;
    }
    if (seq == f->expect) {
        uint64_t t0 = 0;
        for (unsigned j = 0; j < 4; j++)
            t0 |= (uint64_t)p[7 + j] << (16 * j);
        f->expect++;
        if (scisys_stats_delivery(s, k, (double)(s->now - t0)) < 0)
            return;
    } else if (seq < f->expect) {
        f->dups++;
    } else if (seq >= sent_hi) {
        if (tol) {
            s->ft.st.corrupted++;
            return;
        }
        scisys_fail(s, "flow %s: message %u delivered before it was sent", f->name, seq);
        return;
    } else if (s->fd) {
        /* FT-DRB: a message that came ahead of its predecessors by another path of the
         * metapath is held, not dropped, and delivered in order (ftdrb_sci.md section 5);
         * seq - expect < sent_hi - base <= window, so one slot per seq % window */
        unsigned w = s->cfg.par.window, at = seq % w;
        if (!(f->held >> at & 1u)) {
            uint64_t t0 = 0;
            for (unsigned j = 0; j < 4; j++)
                t0 |= (uint64_t)p[7 + j] << (16 * j);
            f->held |= 1ull << at;
            f->held_t0[at] = t0;
            scisys_ftdrb_held(s, i);
        }
    }
    /* FT-DRB: what was held behind this one, now in order */
    while (f->held && (f->held >> (f->expect % s->cfg.par.window) & 1u)) {
        unsigned at = f->expect % s->cfg.par.window;
        f->held &= ~(1ull << at);
        f->expect++;
        if (scisys_stats_delivery(s, k, (double)(s->now - f->held_t0[at])) < 0)
            return;
    }
    if (s->fd) { /* the latency ACK, by the destination's own path (ftdrb_sci.md section 5) */
        scisys_ftdrb_ack(s, i, p, k, f->expect);
        return;
    }
    uint16_t ack[3] = {(uint16_t)k, (uint16_t)f->expect, (uint16_t)(f->expect >> 16)};
    scisys_host_post(s, i, p[2], SCI_T_ACK, TK_NONE, ack, 3, NULL);
}

static void got_ack(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned len)
{
    unsigned k = s->fd ? scisys_ftdrb_ack_flow(p) : p[4];
    if (len < 8 || k >= s->nflow || s->flow[k].src != i) {
        if (s->cfg.ft & SCI_FT_TOLERANT) {
            s->ft.st.misrouted++;
            return;
        }
        scisys_fail(s, "host (%u,%u): an ACK for no flow of it (flow %u)", xn(s, i), yn(s, i), k);
        return;
    }
    flow_t *f = &s->flow[k];
    uint32_t cum = p[5] | (uint32_t)p[6] << 16;
    if (cum > f->sent_hi) {
        if (s->cfg.ft & SCI_FT_TOLERANT) {
            s->ft.st.corrupted++;
            return;
        }
        scisys_fail(s, "flow %s: ACK of %u, only %u sent", f->name, cum, f->sent_hi);
        return;
    }
    if (s->fd)
        scisys_ftdrb_acked(s, i, k, p, len);
    if (cum > f->base) {
        if (s->ft.n) /* the path's data moves: the self-test's measure (sci_sys.md section 8) */
            scisys_ft_acked(s, i, f->dst, s->now - f->t_first[(cum - 1u) % s->cfg.par.window]);
        scisys_host_wake(s, i);
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
    if (len < 9)
        return;
    scisys_ft_protocol(s, i);
    if ((p[6] & SCI_ID_MASK) == s->id[i])
        scisys_ft_fail_report(s, i, p[7], p[4]); /* a self-test read's answer (sci_sys.md 8) */
    if (s->fd && scisys_ftdrb_fail(s, i, p, len))
        return; /* FT-DRB: a notification to the packet's source, or taken here (ftdrb_sci.md s.2) */
    if ((p[6] & SCI_ID_MASK) != s->id[i])
        return; /* another node's packet that failed in one of our LCs: its source times out */
    scisys_host_fail_tid(s, i, p[7], p[4], true, false);
}

/* Our packet `tid` failed (reason): a DATA goes back after the back-off; `streak`: the round
 * counts towards resting the flow; `probe`: the flow sends one message at a time until an ACK
 * (FT-DRB: a flow searching for a path keeps one packet in the fabric, not its window). */
void scisys_host_fail_tid(sci_sys_t *s, unsigned i, uint16_t tid, unsigned reason, bool streak,
                          bool probe)
{
    host_t *h = &s->host[i];
    if (h->tidmap[tid % NTID].kind != TK_DATA)
        return; /* a driver packet or an ACK: the driver's timers cover those */
    flow_t *f = &s->flow[h->tidmap[tid % NTID].flow];
    scisys_host_wake(s, i);
    f->fails++;
    if (probe)
        f->probing = true;
    scisys_log(s, i, "FAIL_REPORT reason %u for flow %s message %u", reason, f->name,
               h->tidmap[tid % NTID].seq);
    if (h->tidmap[tid % NTID].seq == f->base && streak && ++f->fail_streak >= GIVE_UP) {
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

void scisys_host_packet(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned len)
{
    if (len < 5) {
        if (s->cfg.ft & SCI_FT_TOLERANT) {
            s->ft.st.crc_host++;
            scisys_ft_protocol(s, i);
            return;
        }
        scisys_fail(s, "host (%u,%u): a packet of %u symbols", xn(s, i), yn(s, i), len);
        return;
    }
    if (sci_crc16(p, len - 1u) != p[len - 1u]) {
        if (s->cfg.ft & SCI_FT_TOLERANT) {
            s->ft.st.crc_host++;
            scisys_ft_protocol(s, i);
            return;
        }
        scisys_fail(s, "host (%u,%u): a packet with a bad CRC reached the host", xn(s, i),
                    yn(s, i));
        return;
    }
    switch (p[1] >> 8) {
    case SCI_T_DATA: got_data(s, i, p, len); break;
    case SCI_T_ACK: got_ack(s, i, p, len); break;
    case SCI_T_FAIL_REPORT: got_fail(s, i, p, len); break;
    case SCI_T_STATUS_REPLY: scisys_drv_got_reply(s, i, p, len); break;
    case SCI_T_NOTIFY: scisys_drv_got_notify(s, i, p, len); break;
    case SCI_T_PROBE: break; /* a ring probe back: the ring carries packets */
    default:
        if (s->fd && scisys_ftdrb_rx(s, i, p, len))
            break; /* a RELAY or a NOTE (ftdrb_sci.md) */
        if (s->cfg.ft & SCI_FT_TOLERANT)
            s->ft.st.misrouted++;
        else
            scisys_fail(s, "host (%u,%u): a packet of type 0x%02x", xn(s, i), yn(s, i), p[1] >> 8);
    }
}

void scisys_host_rx(sci_sys_t *s, unsigned i)
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
            scisys_host_packet(s, i, h->rx, len);
    }
}
