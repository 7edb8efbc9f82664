/*
 * sci_lc.c - C reference model of an SCI link controller (see sci_lc.h).
 *
 * Datapath per cycle (one sci_lc_step), in the order evaluated below, all
 * reading the current registers (c) and writing the next ones (n):
 *   ring monitor   on the input register (sd, ring-down idles)
 *   output stage   next link output: insertion, its idle, bypass FIFO head,
 *                  a new insertion, or an idle (ring-down idle when
 *                  originating)
 *   decision stage the oldest symbol of the header delay line: scrub check,
 *                  echo match, LRT; then bypass / take / discard / consume
 *   timers, failing, B-link in and out, register write
 *
 * Decisions where sci_lc.md is silent or contradicts itself (D<n>):
 * D1  The scrub check needs command bit 7 (symbol 1) and the echo match
 *     needs sourceId and tid (symbols 2, 3), so "the first symbol decides"
 *     cannot hold with a 2-cycle bypass.  A header delay line of 3 stages
 *     (SCI_HDR_DELAY) sits between the input register and the decision
 *     stage: the decision is made when symbol 0 is at the decision stage
 *     and symbol 3 is in the input register.  Every symbol (idles included)
 *     passes the line, so the bypass latency is 2 + 3 = 5 cycles after the
 *     input register (6 pin to pin per hop); the ring-down bounds change
 *     accordingly (see "Bounds" below).
 * D2  The bypass FIFO holds bypassed packet symbols, the idle ending each
 *     bypassed packet and forwarded ring-down idles; other idles are not
 *     stored (else it would never be empty and nothing could be inserted).
 *     Output priority: an insertion in progress, then its trailing idle,
 *     then the FIFO head, then a new insertion when the FIFO is empty and
 *     the output register holds an idle.
 * D3  CRC check: the CRC runs over every symbol including the CRC symbol;
 *     0 means good (residue of CRC-16/CCITT-FALSE).  A packet of fewer than
 *     5 or more than 37 symbols counts as a CRC error.  Busy echoes are also
 *     sent only for packets with a good CRC.
 * D4  Echoes are never taken by the LRT: an echo that matches no active
 *     buffer is bypassed.  A packet whose (sourceId, tid) matches one of our
 *     active buffers is bypassed unless it is a PROBE ("never take a packet
 *     it inserted itself").  ECHO_ERROR frees the buffer without a report.
 * D5  Limits: a busy echo (timeout) with busy (retry) count already equal to
 *     busy_limit (retry_limit) fails everything; otherwise the count goes up
 *     and the packet is retransmitted.  So the limit is the number of
 *     retransmissions allowed.  echo_timeout = 0 disables the timeout; the
 *     timer counts steps after the one that put the CRC symbol on the link.
 * D6  Reset: CTRL to sci_lc.md section 4's reset values (node 0, enabled, busy 8, retry 4,
 *     timeout 200); a reset edge with a register write performs it and keeps the rest of
 *     CTRL (as RN1); tables 0,
 *     ring down.  Ring up needs 64 clean cycles; any ring-down idle
 *     received (own ones included, before they are stripped) restarts the
 *     count.  Originating: sd = 0 in the input register for 4 consecutive
 *     cycles; stops as soon as sd = 1.  The CableNotOk interrupt is set on
 *     ring up -> down; set wins over a same-cycle clear.
 * D7  While the ring is down or the LC disabled, nothing is inserted and
 *     every packet in the send queue and active buffers fails (reason 4 if
 *     disabled, else 3), including packets arriving later.  Disable also
 *     flushes the echo queue.  A disabled LC still scrubs.
 * D8  Echo queue of 8 headers; an echo that finds it full is dropped.
 * D9  FAIL_REPORTs wait in a 16-entry queue and go up the B-link before the
 *     receive queue.  Format: targetId = sourceId = node id, type 0x30,
 *     tid 0, payload reason, failed targetId, sourceId, tid; CRC.
 * D10 B-link symbols carry whole packets with their CRC; bin_last marks the
 *     CRC symbol.  More than 37 symbols: the rest are dropped.
 * D11 The LC exposes the BRT port of its B-link head (fail reports: 0).
 * D12 COUNTS fields saturate.  CTRL bit 18 on LC3 is stored but unused.
 *     DBG [30:24] also restarts on sd = 0 (it is the ring-up counter).
 * D13 rst_n = 0 at an edge clears all state (CTRL as D6); the LRT/BRT keep their
 *     contents (RAMs).
 * D14 A ring that is down still takes packets (only disable stops that);
 *     their echoes wait in the echo queue until the ring is up.
 * Bounds with these latencies (output register wired straight to the next
 * input pin): every LC of an N-node ring reports down within 6N cycles of
 * the pull and up within 6N + 61 cycles of the return.
 */
#include "sci_lc.h"

#include <string.h>

#define SCI_FLAG (1u << 16)

/* ---- CRC and packets ---------------------------------------------------- */

uint16_t sci_crc16_update(uint16_t crc, unsigned pos, uint16_t sym)
{
    if (pos == 0)
        sym &= (uint16_t)~SCI_ADDR_SEL;
    else if (pos == 1)
        sym &= (uint16_t)~SCI_MARK;
    crc ^= sym; /* a 16-bit word is its two bytes, high first */
    for (unsigned b = 0; b < 16u; b++)
        crc = (uint16_t)((crc & 0x8000u) ? ((unsigned)crc << 1) ^ 0x1021u : (unsigned)crc << 1);
    return crc;
}

uint16_t sci_crc16(const uint16_t *sym, unsigned n)
{
    uint16_t crc = 0xFFFFu;
    for (unsigned i = 0; i < n; i++)
        crc = sci_crc16_update(crc, i, sym[i]);
    return crc;
}

unsigned sci_packet_build(uint16_t *out, uint16_t target, uint8_t type,
                          uint16_t source, uint16_t tid,
                          const uint16_t *payload, unsigned npay)
{
    if (npay > SCI_MAX_PAYLOAD)
        return 0;
    out[0] = target;
    out[1] = (uint16_t)(type << 8);
    out[2] = source;
    out[3] = tid;
    for (unsigned i = 0; i < npay; i++)
        out[SCI_HDR_SYMS + i] = payload[i];
    unsigned n = SCI_HDR_SYMS + npay;
    out[n] = sci_crc16(out, n);
    return n + 1u;
}

unsigned sci_lc_table_index(const sci_lc_t *lc, uint16_t target_id)
{
    if (lc->variant == SCI_LC3)
        return target_id & 0xFFu;
    unsigned set = (lc->s.p2s_sel && (target_id & SCI_ADDR_SEL)) ? 8192u : 0u;
    return set | (target_id & SCI_ID_MASK);
}

/* ---- small helpers ---------------------------------------------------- */

static uint16_t sat16(uint16_t v) { return v == 0xFFFFu ? v : (uint16_t)(v + 1u); }

static void byp_push(sci_lc_state_t *n, uint32_t x)
{
    if (n->byp_n >= SCI_BYP_CAP)
        return; /* cannot happen: one insertion at a time, D2 */
    n->byp[(n->byp_head + n->byp_n) % SCI_BYP_CAP] = x;
    n->byp_n++;
}

static unsigned ab_in_use(const sci_lc_state_t *s)
{
    unsigned k = 0;
    for (unsigned i = 0; i < SCI_ACTIVE; i++)
        k += s->ab[i].state != SCI_AB_FREE;
    return k;
}

static int ab_match(const sci_lc_state_t *s, uint16_t src, uint16_t tid)
{
    for (unsigned i = 0; i < SCI_ACTIVE; i++)
        if (s->ab[i].state != SCI_AB_FREE && s->ab[i].pkt.sym[2] == src &&
            s->ab[i].pkt.sym[3] == tid)
            return (int)i;
    return -1;
}

static void echo_queue(sci_lc_state_t *n, uint8_t type, const uint16_t *hdr)
{
    if (n->eq_n >= SCI_ECHOQ)
        return; /* D8 */
    uint16_t *e = n->echoq[(n->eq_head + n->eq_n) % SCI_ECHOQ];
    e[0] = hdr[2];
    e[1] = (uint16_t)(type << 8);
    e[2] = n->node_id;
    e[3] = hdr[3];
    n->eq_n++;
    if (type == SCI_T_ECHO_BUSY)
        n->n_busy = sat16(n->n_busy);
}

/* Report one failed packet; false if the fail queue is full. */
static bool fail_one(sci_lc_state_t *n, const sci_pkt_t *p, unsigned reason)
{
    if (n->fq_n >= SCI_FAILQ)
        return false;
    uint16_t pay[4] = { (uint16_t)reason, p->sym[0], p->sym[2], p->sym[3] };
    uint16_t tmp[SCI_MAX_PKT];
    sci_packet_build(tmp, n->node_id, SCI_T_FAIL_REPORT, n->node_id, 0, pay, 4);
    memcpy(n->failq[(n->fq_head + n->fq_n) % SCI_FAILQ], tmp,
           sizeof n->failq[0]);
    n->fq_n++;
    n->n_fail = sat16(n->n_fail);
    return true;
}

/* ---- ring monitor ----------------------------------------------------- */

static void monitor(const sci_lc_state_t *c, sci_lc_state_t *n)
{
    bool rdi = !(c->in_q & SCI_FLAG) && (c->in_q & SCI_RDI_BIT);
    n->sd_low = c->sd_q ? 0 : (uint8_t)(c->sd_low < 255u ? c->sd_low + 1u : 255u);
    n->orig = n->sd_low >= SCI_RDOWN_CYCLES;
    n->clean = (!c->sd_q || rdi) ? 0 : (uint8_t)(c->clean < 127u ? c->clean + 1u : 127u);
    if (n->orig || rdi)
        n->ring_up = false;
    else if (n->clean >= SCI_RUP_CYCLES)
        n->ring_up = true;
    if (c->ring_up && !n->ring_up)
        n->irq = true;
}

/* ---- output stage ----------------------------------------------------- */

static void out_idle(sci_lc_state_t *n, uint16_t sym)
{
    n->out_flag = false;
    /* D6: an originator puts its id on every plain idle it sends. */
    n->out_sym = (sym == 0 && n->orig) ? (uint16_t)(SCI_RDI_BIT | n->node_id) : sym;
}

/* Pick and copy the next packet to insert into n->ins; false if none. */
static bool ins_start(const sci_lc_t *lc, sci_lc_state_t *n)
{
    const sci_lc_state_t *c = &lc->s;
    if (!c->enable || !c->ring_up || c->fail_reason)
        return false;
    if (n->eq_n) {
        const uint16_t *e = n->echoq[n->eq_head];
        n->ins.len = (uint8_t)sci_packet_build(n->ins.sym, e[0], (uint8_t)(e[1] >> 8),
                                               e[2], e[3], NULL, 0);
        n->ins_ab = -1;
        n->eq_head = (uint8_t)((n->eq_head + 1u) % SCI_ECHOQ);
        n->eq_n--;
        return true;
    }
    int fr = -1;
    for (unsigned i = 0; i < SCI_ACTIVE; i++) {
        if (n->ab[i].state == SCI_AB_RETX) {
            n->ab[i].state = SCI_AB_SENDING;
            n->ins = n->ab[i].pkt;
            n->ins_ab = (int8_t)i;
            return true;
        }
        if (fr < 0 && n->ab[i].state == SCI_AB_FREE)
            fr = (int)i;
    }
    if (fr < 0 || n->sq_n == 0)
        return false;
    sci_ab_t *a = &n->ab[fr];
    a->pkt = n->sq[n->sq_head];
    a->state = SCI_AB_SENDING;
    a->timer = 0;
    a->busy = 0;
    a->retry = 0;
    n->sq_head = (uint8_t)((n->sq_head + 1u) % SCI_SENDQ);
    n->sq_n--;
    n->ins = a->pkt;
    n->ins_ab = (int8_t)fr;
    return true;
}

static void ins_next(sci_lc_state_t *n, unsigned pos)
{
    n->out_flag = true;
    n->out_sym = n->ins.sym[pos];
    n->ins_pos = (uint8_t)(pos + 1u);
    if (n->ins_pos < n->ins.len)
        return;
    n->ins_pos = 0;
    n->need_idle = true;
    if (n->ins_ab >= 0 && n->ab[n->ins_ab].state == SCI_AB_SENDING) {
        n->ab[n->ins_ab].state = SCI_AB_WAITING;
        n->ab[n->ins_ab].timer = 0;
    }
}

static void output_stage(const sci_lc_t *lc, sci_lc_state_t *n)
{
    const sci_lc_state_t *c = &lc->s;
    if (c->ins_pos) {
        ins_next(n, c->ins_pos);
    } else if (c->need_idle) {
        n->need_idle = false;
        out_idle(n, 0);
    } else if (c->byp_n) {
        uint32_t x = c->byp[c->byp_head];
        n->byp_head = (uint8_t)((c->byp_head + 1u) % SCI_BYP_CAP);
        n->byp_n--;
        if (x & SCI_FLAG) {
            n->out_flag = true;
            n->out_sym = (uint16_t)x;
        } else {
            out_idle(n, (uint16_t)x);
        }
    } else if (!c->out_flag && ins_start(lc, n)) {
        ins_next(n, 0);
    } else {
        out_idle(n, 0);
    }
}

/* ---- decision stage --------------------------------------------------- */

/* Header field k (0..3) as seen when symbol 0 is at the decision stage. */
static uint16_t hdr_field(const sci_lc_state_t *c, unsigned k)
{
    uint32_t x = k == SCI_HDR_DELAY ? c->in_q : c->dl[SCI_HDR_DELAY - 1u - k];
    return (x & SCI_FLAG) ? (uint16_t)x : 0;
}

static void decide(const sci_lc_t *lc, sci_lc_state_t *n)
{
    const sci_lc_state_t *c = &lc->s;
    uint16_t s0 = hdr_field(c, 0), s1 = hdr_field(c, 1);
    uint16_t s2 = hdr_field(c, 2), s3 = hdr_field(c, 3);
    unsigned type = s1 >> 8;
    n->plen = 0;
    n->crc = 0xFFFFu;
    n->p_scrubbed = false;
    if (c->scrub && (s1 & SCI_MARK)) {
        n->parse = SCI_P_DISCARD;
        n->p_scrubbed = true;
        n->n_scrub = sat16(n->n_scrub);
        return;
    }
    if (type >= SCI_T_ECHO_ACCEPT && type <= SCI_T_ECHO_ERROR) {
        int i = ab_match(c, s0, s3);
        n->parse = i >= 0 ? SCI_P_ECHO : SCI_P_BYPASS;
        n->echo_ab = (uint8_t)(i >= 0 ? i : 0);
        return;
    }
    if ((ab_match(c, s2, s3) >= 0 && type != SCI_T_PROBE) || !c->enable ||
        !lc->lrt[sci_lc_table_index(lc, s0)]) {
        n->parse = SCI_P_BYPASS;
        return;
    }
    if (c->rx_n < SCI_RXQ) {
        n->parse = SCI_P_TAKE;
        n->rx_slot = (uint8_t)((c->rx_head + c->rx_n) % SCI_RXQ);
    } else {
        n->parse = SCI_P_DISCARD;
    }
}

static bool echo_type(unsigned t)
{
    return t == SCI_T_DATA || t == SCI_T_ACK || t == SCI_T_PROBE ||
           t == SCI_T_STATUS_READ || t == SCI_T_STATUS_REPLY || t == SCI_T_NOTIFY;
}

/* A consumed echo with a good CRC acts on its active buffer. */
static void echo_act(sci_lc_state_t *n, unsigned type)
{
    sci_ab_t *a = &n->ab[n->echo_ab];
    if (a->state == SCI_AB_FREE)
        return;
    if (type != SCI_T_ECHO_BUSY) { /* accept, or error (D4) */
        a->state = SCI_AB_FREE;
        return;
    }
    if (a->busy >= n->busy_limit) {
        n->fail_reason = SCI_FAIL_BUSY;
        return;
    }
    a->busy++;
    if (a->state == SCI_AB_WAITING)
        a->state = SCI_AB_RETX;
}

static void packet_end(const sci_lc_state_t *c, sci_lc_state_t *n)
{
    bool good = c->crc == 0 && c->plen >= SCI_MIN_PKT && c->plen <= SCI_MAX_PKT;
    unsigned type = c->phdr[1] >> 8;
    switch (c->parse) {
    case SCI_P_TAKE:
        if (good) {
            n->rxq[c->rx_slot].len = c->plen;
            n->rx_n++;
            if (echo_type(type))
                echo_queue(n, SCI_T_ECHO_ACCEPT, c->phdr);
        }
        break;
    case SCI_P_DISCARD:
        if (c->p_scrubbed)
            return;
        if (good)
            echo_queue(n, SCI_T_ECHO_BUSY, c->phdr);
        break;
    case SCI_P_ECHO:
        if (good)
            echo_act(n, type);
        break;
    default:
        return;
    }
    if (!good)
        n->n_crc = sat16(n->n_crc);
}

static void decision_stage(const sci_lc_t *lc, sci_lc_state_t *n)
{
    const sci_lc_state_t *c = &lc->s;
    uint32_t x = c->dl[SCI_HDR_DELAY - 1u];
    uint16_t sym = (uint16_t)x;
    if (!(x & SCI_FLAG)) {
        bool fwd = (sym & SCI_RDI_BIT) && (sym & SCI_ID_MASK) != c->node_id;
        if (c->parse == SCI_P_BYPASS)
            byp_push(n, fwd ? x : 0u); /* the idle that ends it */
        else if (fwd)
            byp_push(n, x);
        if (c->parse != SCI_P_IDLE)
            packet_end(c, n);
        n->parse = SCI_P_IDLE;
        n->plen = 0;
        n->crc = 0xFFFFu;
        return;
    }
    if (c->parse == SCI_P_IDLE)
        decide(lc, n);
    unsigned pos = n->plen;
    n->crc = sci_crc16_update(n->crc, pos, sym);
    if (n->plen < 255u)
        n->plen++;
    if (pos < SCI_HDR_SYMS)
        n->phdr[pos] = sym;
    if (n->parse == SCI_P_BYPASS) {
        if (pos == 1 && c->scrub)
            sym |= SCI_MARK;
        byp_push(n, SCI_FLAG | sym);
    } else if (n->parse == SCI_P_TAKE && pos < SCI_MAX_PKT) {
        n->rxq[n->rx_slot].sym[pos] = pos == 1 ? (uint16_t)(sym & ~SCI_MARK) : sym;
    }
}

/* ---- timers, failing, B-link ------------------------------------------ */

static void timers(sci_lc_state_t *n)
{
    for (unsigned i = 0; i < SCI_ACTIVE; i++) {
        sci_ab_t *a = &n->ab[i];
        if (a->state != SCI_AB_WAITING || n->echo_timeout == 0)
            continue;
        if (a->timer < 0xFFFFu)
            a->timer++;
        if (a->timer < n->echo_timeout)
            continue;
        if (a->retry >= n->retry_limit) {
            n->fail_reason = SCI_FAIL_TIMEOUT;
        } else {
            a->retry++;
            a->state = SCI_AB_RETX;
        }
    }
}

static void failing(const sci_lc_state_t *c, sci_lc_state_t *n)
{
    unsigned reason = !c->enable ? SCI_FAIL_DISABLED
                    : !c->ring_up ? SCI_FAIL_RINGDOWN : n->fail_reason;
    if (!c->enable)
        n->eq_n = 0;
    if (!reason)
        return;
    for (unsigned i = 0; i < SCI_ACTIVE; i++)
        if (n->ab[i].state != SCI_AB_FREE && fail_one(n, &n->ab[i].pkt, reason))
            n->ab[i].state = SCI_AB_FREE;
    while (n->sq_n && fail_one(n, &n->sq[n->sq_head], reason)) {
        n->sq_head = (uint8_t)((n->sq_head + 1u) % SCI_SENDQ);
        n->sq_n--;
    }
    if (n->sq_n == 0 && ab_in_use(n) == 0)
        n->fail_reason = 0;
}

static void blink_in(const sci_lc_state_t *c, sci_lc_state_t *n, const sci_lc_in_t *in)
{
    if (!in->bin_valid || c->sq_n >= SCI_SENDQ)
        return;
    sci_pkt_t *p = &n->sq[(n->sq_head + n->sq_n) % SCI_SENDQ];
    if (n->sq_fill < SCI_MAX_PKT)
        p->sym[n->sq_fill++] = in->bin_sym;
    if (in->bin_last) {
        p->len = n->sq_fill;
        n->sq_fill = 0;
        n->sq_n++;
    }
}

static unsigned bout_src(const sci_lc_state_t *s)
{
    if (s->bout_pos)
        return s->bout_src;
    return s->fq_n ? 1u : s->rx_n ? 2u : 0u;
}

static void blink_out(const sci_lc_state_t *c, sci_lc_state_t *n, const sci_lc_in_t *in)
{
    unsigned src = bout_src(c);
    if (!src || !in->bout_ready)
        return;
    unsigned len = src == 1u ? SCI_FAIL_PKT : c->rxq[c->rx_head].len;
    n->bout_src = (uint8_t)src;
    n->bout_pos = (uint8_t)(c->bout_pos + 1u);
    if (n->bout_pos < len)
        return;
    n->bout_pos = 0;
    if (src == 1u) {
        n->fq_head = (uint8_t)((n->fq_head + 1u) % SCI_FAILQ);
        n->fq_n--;
    } else {
        n->rx_head = (uint8_t)((n->rx_head + 1u) % SCI_RXQ);
        n->rx_n--;
    }
}

/* ---- registers -------------------------------------------------------- */

static uint64_t ctrl_pack(const sci_lc_state_t *s)
{
    return (uint64_t)s->node_id | (uint64_t)s->enable << SCI_CTRL_ENABLE_BIT |
           (uint64_t)s->scrub << SCI_CTRL_SCRUB_BIT |
           (uint64_t)s->p2s_sel << SCI_CTRL_P2SSEL_BIT |
           (uint64_t)s->busy_limit << SCI_CTRL_BUSYLIM_LSB |
           (uint64_t)s->retry_limit << SCI_CTRL_RETRYLIM_LSB |
           (uint64_t)s->echo_timeout << SCI_CTRL_TIMEOUT_LSB;
}

static uint64_t merge(uint64_t old, uint64_t wdata, uint8_t wstrb)
{
    uint64_t mask = 0;
    for (unsigned k = 0; k < 8u; k++)
        if (wstrb >> k & 1u)
            mask |= (uint64_t)0xFFu << (8u * k);
    return (old & ~mask) | (wdata & mask);
}

static unsigned taddr_index(const sci_lc_t *lc, uint16_t taddr)
{
    return lc->variant == SCI_LC3 ? (taddr & 0xFFu) : (taddr & 0x3FFFu);
}

static void reg_write(sci_lc_t *lc, sci_lc_state_t *n, const sci_lc_in_t *in)
{
    if (!in->reg_we)
        return;
    unsigned ti = taddr_index(lc, lc->s.taddr);
    switch (in->reg_waddr) {
    case SCI_REG_CTRL: {
        uint64_t v = merge(ctrl_pack(n), in->reg_wdata, in->reg_wstrb) & SCI_CTRL_MASK;
        n->node_id = (uint16_t)(v & SCI_ID_MASK);
        n->enable = v >> SCI_CTRL_ENABLE_BIT & 1u;
        n->scrub = v >> SCI_CTRL_SCRUB_BIT & 1u;
        n->p2s_sel = v >> SCI_CTRL_P2SSEL_BIT & 1u;
        n->busy_limit = (uint8_t)(v >> SCI_CTRL_BUSYLIM_LSB);
        n->retry_limit = (uint8_t)(v >> SCI_CTRL_RETRYLIM_LSB);
        n->echo_timeout = (uint16_t)(v >> SCI_CTRL_TIMEOUT_LSB);
        break;
    }
    case SCI_REG_STATUS_CLR:
        /* Set wins: clear only what was pending before this cycle (D6). */
        if ((in->reg_wstrb & 1u) && (in->reg_wdata & 8u) && !(lc->s.ring_up && !n->ring_up))
            n->irq = false;
        break;
    case SCI_REG_TADDR:
        n->taddr = (uint16_t)(merge(lc->s.taddr, in->reg_wdata, in->reg_wstrb) & 0x3FFFu);
        break;
    case SCI_REG_LRT:
        if (in->reg_wstrb & 1u)
            lc->lrt[ti] = in->reg_wdata & 1u;
        break;
    case SCI_REG_BRT:
        if (in->reg_wstrb & 1u)
            lc->brt[ti] = in->reg_wdata & 7u;
        break;
    default:
        break;
    }
}

/* ---- step, init, outputs ---------------------------------------------- */

/* Reset: every state cleared, CTRL to its reset values (sci_lc.md section 4). */
static void reset_state(sci_lc_state_t *s)
{
    memset(s, 0, sizeof *s);
    s->crc = 0xFFFFu;
    s->ins_ab = -1;
    s->enable = 1;
    s->busy_limit = 8;
    s->retry_limit = 4;
    s->echo_timeout = 200;
}

/* CTRL's fields, kept across a reset edge that writes a register (as RN1, rtl/rn1.md). */
static void keep_ctrl(sci_lc_state_t *to, const sci_lc_state_t *from)
{
    to->node_id = from->node_id;
    to->enable = from->enable;
    to->scrub = from->scrub;
    to->p2s_sel = from->p2s_sel;
    to->busy_limit = from->busy_limit;
    to->retry_limit = from->retry_limit;
    to->echo_timeout = from->echo_timeout;
}

void sci_lc_init(sci_lc_t *lc, sci_variant_t v)
{
    memset(lc, 0, sizeof *lc);
    lc->variant = v;
    reset_state(&lc->s);
}

void sci_lc_step(sci_lc_t *lc, const sci_lc_in_t *in)
{
    const sci_lc_state_t *c = &lc->s;
    if (!in->rst_n) {
        /* A reset edge loads the reset values; one that writes a register performs the write
         * and keeps the rest of CTRL, so configuration written during reset survives it. */
        sci_lc_state_t old = lc->s;
        reset_state(&lc->s);
        if (in->reg_we) {
            keep_ctrl(&lc->s, &old);
            lc->s.taddr = old.taddr;
            reg_write(lc, &lc->s, in);
        }
        return;
    }
    sci_lc_state_t n = *c;
    monitor(c, &n);
    output_stage(lc, &n);
    decision_stage(lc, &n);
    for (unsigned k = SCI_HDR_DELAY - 1u; k > 0; k--)
        n.dl[k] = c->dl[k - 1u];
    n.dl[0] = c->in_q;
    n.in_q = in->link_flag ? (SCI_FLAG | in->link_sym) : in->link_sym;
    n.sd_q = in->link_sd;
    timers(&n);
    failing(c, &n);
    blink_in(c, &n, in);
    blink_out(c, &n, in);
    reg_write(lc, &n, in);
    lc->s = n;
}

bool sci_lc_link_flag(const sci_lc_t *lc) { return lc->s.out_flag; }
uint16_t sci_lc_link_sym(const sci_lc_t *lc) { return lc->s.out_sym; }
bool sci_lc_link_sd(const sci_lc_t *lc) { (void)lc; return true; }
bool sci_lc_bin_ready(const sci_lc_t *lc) { return lc->s.sq_n < SCI_SENDQ; }
bool sci_lc_bout_valid(const sci_lc_t *lc) { return bout_src(&lc->s) != 0; }
bool sci_lc_irq(const sci_lc_t *lc) { return lc->s.irq; }

uint16_t sci_lc_bout_sym(const sci_lc_t *lc)
{
    const sci_lc_state_t *s = &lc->s;
    switch (bout_src(s)) {
    case 1: return s->failq[s->fq_head][s->bout_pos];
    case 2: return s->rxq[s->rx_head].sym[s->bout_pos];
    default: return 0;
    }
}

bool sci_lc_bout_last(const sci_lc_t *lc)
{
    const sci_lc_state_t *s = &lc->s;
    switch (bout_src(s)) {
    case 1: return s->bout_pos + 1u == SCI_FAIL_PKT;
    case 2: return s->bout_pos + 1u == s->rxq[s->rx_head].len;
    default: return false;
    }
}

uint8_t sci_lc_bout_port(const sci_lc_t *lc)
{
    const sci_lc_state_t *s = &lc->s;
    if (bout_src(s) != 2u)
        return 0;
    return lc->brt[sci_lc_table_index(lc, s->rxq[s->rx_head].sym[0])];
}

uint64_t sci_lc_debug(const sci_lc_t *lc)
{
    const sci_lc_state_t *s = &lc->s;
    return (uint64_t)(s->parse & 0xFu) | (uint64_t)(s->byp_n & 0x3Fu) << 4 |
           (uint64_t)(s->rx_n & 0xFu) << 10 | (uint64_t)(s->sq_n & 0xFu) << 14 |
           (uint64_t)ab_in_use(s) << 18 | (uint64_t)s->ring_up << 22 |
           (uint64_t)s->orig << 23 | (uint64_t)(s->clean & 0x7Fu) << 24 |
           (uint64_t)s->crc << 32;
}

uint64_t sci_lc_reg_read(const sci_lc_t *lc, uint8_t addr)
{
    const sci_lc_state_t *s = &lc->s;
    unsigned ti = taddr_index(lc, s->taddr);
    switch (addr) {
    case SCI_REG_CTRL:
        return ctrl_pack(s);
    case SCI_REG_STATUS:
        return (uint64_t)s->ring_up | (uint64_t)s->sd_q << 1 |
               (uint64_t)!s->enable << 2 | (uint64_t)s->irq << 3 |
               (uint64_t)ab_in_use(s) << 4 | (uint64_t)(s->sq_n & 0xFu) << 8 |
               (uint64_t)(s->rx_n & 0xFu) << 12;
    case SCI_REG_COUNTS:
        return (uint64_t)s->n_crc | (uint64_t)s->n_scrub << 16 |
               (uint64_t)s->n_busy << 32 | (uint64_t)s->n_fail << 48;
    case SCI_REG_TADDR:
        return s->taddr;
    case SCI_REG_LRT:
        return lc->lrt[ti];
    case SCI_REG_BRT:
        return lc->brt[ti];
    case SCI_REG_DBG:
        return sci_lc_debug(lc);
    default:
        return 0;
    }
}
