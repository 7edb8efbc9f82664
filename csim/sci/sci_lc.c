/*
 * sci_lc.c - C reference model of an SCI link controller (see sci_lc.h): the datapath and its
 * step, the registers.  The upset map is sci_lc_upset.c, the CRC and packets sci_packet.c, what
 * they share sci_lc_state.h.
 *
 * Datapath per cycle (one sci_lc_step), in the order evaluated below, all
 * reading the current registers (c) and writing the next ones (n):
 *   parser         input pipe stage 3: decision at symbol 0 (scrub check,
 *                  echo match, LRT), take into the receive queue, CRC check,
 *                  answers and echoes when the CRC symbol is in stage 3
 *   ring monitor   sd at the input pin, ring-down idles in stage 3
 *   output stage   the idle after a packet, the insertion under way (or a
 *                  new one), the bypass FIFO head, the symbol bypassed from
 *                  stage 3, or an idle (ring-down idle when originating or
 *                  forwarding)
 *   echo queue, limits, B-link out (receive queue, FAIL_REPORTs), B-link in
 *   (into the pool), pool slots (echo timers, retransmissions), input pipe
 *   shift, register write
 * Two phases: the registers (sci_lc_state_t) are copied aside (c below)
 * and every stage reads them while it writes the next values into lc->s
 * (n below); the packet storage is written in place where a symbol is
 * stored (a receive-queue tail, the slot filling from the B-link, the
 * bypass FIFO's and the echo queue's tails, the FAIL_REPORT starting), and
 * no stage of the same cycle reads those entries (the heads it reads are
 * other entries while the queue holds a packet).  The per-slot loops of the
 * pool run over bit masks, so a step costs what moves in it.  Whether an
 * edge changed anything is found out only where it pays: a controller at
 * rest is known to stay so (at_rest), and the copy is compared with the
 * result only when the inputs repeat, so that the next edge may be skipped.
 *
 * Decisions (D<n>) where sci_lc.md section 3 is silent, as settled against
 * rtl/sci_lc.v in lockstep (sci_lc.md sections 6, 7):
 * D1  A four-stage input pipe: a symbol on the pins in cycle t is in stage k
 *     in t+1+k.  A packet is decided when its symbol 0 is in stage 3 (the
 *     command, sourceId and tid are then in stages 2..0, as raw words).  A
 *     bypassed symbol goes from stage 3 to the output register: on the link
 *     output in t+5 when the output is free.
 * D2  The bypass FIFO (64 words of storage, at most 40 used) holds bypassed
 *     symbols that cannot go out at once, each marked "last of its packet";
 *     idles are never stored.  Output priority: the idle after every packet
 *     sent (inserted or bypassed), the insertion under way, the FIFO head,
 *     the symbol leaving stage 3, an idle.  A new insertion starts only when
 *     nothing of that is due, no symbol is bypassed this cycle, the last
 *     symbol sent was an idle, the LC is enabled and its ring up.  An idle
 *     carries 0x8000 | node id while originating, else the ring-down idle of
 *     another node that is in stage 3 in that cycle (one met while the
 *     output is busy is not forwarded).
 * D3  A packet ends when its CRC symbol is in stage 3 (stage 2 holds flag
 *     0); it is good when the running CRC of the symbols before it equals it
 *     and it has 5..37 symbols.  CRC errors are counted for taken packets,
 *     echoes for us and packets discarded for a full receive queue.  A good
 *     taken packet is answered ECHO_ACCEPT (any type but an echo), one with
 *     BRT entry 7 ECHO_ERROR (its slot released), one that found the receive
 *     queue full ECHO_BUSY; busy echoes are counted when queued.
 * D4  Echoes are never taken by the LRT: an echo that matches no active
 *     buffer (lowest slot whose sourceId, bit 14 ignored, and tid match) is
 *     bypassed.  A packet whose sourceId and tid match an active buffer is
 *     our own and is bypassed unless it is a PROBE.  ECHO_ERROR frees the
 *     buffer without a report.  An echo acts only if its buffer is still
 *     active when the echo's CRC is in stage 3.
 * D5  A limit L allows L retransmissions: the next busy echo (timeout) with
 *     the count at L starts a failure pass.  The echo timer is loaded with
 *     echo_timeout in the cycle the packet's last symbol is on the output
 *     and counts down; at 0 a retransmission is due, on the output at
 *     last + echo_timeout + 2 at the earliest.  A busy echo stops the timer.
 *     echo_timeout = 0: no timeout.
 * D6  Reset: CTRL to section 4's values (node 0, enabled, busy 8, retry 4,
 *     timeout 200), tables kept, ring down.  Signal detect is counted at the
 *     pin: 4 cycles of sd = 0 -> originating (while sd stays 0) and ring
 *     down; ring up after 64 cycles of sd = 1 with no ring-down idle in
 *     stage 3 (own ones restart the count; only another node's set ring
 *     down).  The CableNotOk interrupt is set on ring up -> down; a set wins
 *     over a same-cycle clear.
 * D7  While the ring is down or the LC disabled nothing is inserted and the
 *     send queue and active buffers fail continuously (reason 4 if disabled,
 *     else 3); disabled also flushes the echo queue.  A disabled LC still
 *     scrubs, bypasses and consumes echoes.
 * D8  Echo queue of 8 answers; one that finds it full is dropped.
 * D9  No FAIL_REPORT queue: one is built when its symbol 0 moves on the
 *     B-link, for the lowest active buffer not being inserted, else the send
 *     queue's head, whose buffer is freed then.  FAIL_REPORTs go before the
 *     receive queue, one packet at a time.  Format: targetId = sourceId =
 *     node id, type 0x30, tid 0, payload reason, failed targetId, sourceId,
 *     tid; CRC.  A limit's failure pass lasts until every pool slot is free.
 * D10 The B-link carries whole packets with their CRC (not checked); last
 *     marks the CRC symbol.  bin_ready: 1 for the rest of a packet already
 *     started; between packets, a pool slot free, the send queue below 8
 *     and no limit failure pass.  A slot keeps up to 63 symbols.
 * D11 bout_port: the BRT entry of the receive-queue head's targetId, looked
 *     up while it waits and latched when its symbol 0 moves; 0 for a
 *     FAIL_REPORT.
 * D12 COUNTS fields saturate.  CTRL has no bit 18.  DBG [30:24] is the
 *     ring-up clean counter; DBG and STATUS count a receive-queue slot
 *     reserved by a packet being taken; DBG [3:0] is the state applied to
 *     the symbol that left stage 3 last.
 * D13 rst_n = 0 at an edge clears all state (CTRL as D6; the LRT/BRT keep
 *     their contents).  A reset edge with a register write performs it and
 *     keeps CTRL and TADDR, as RN1.
 * D14 A ring that is down still takes packets (only disable stops that);
 *     their echoes wait in the echo queue until the ring is up.
 * D15 The send queue (8) and the active buffers (4) share a pool of 12
 *     packet buffers: a B-link packet takes the lowest free slot with its
 *     symbol 0 (not one still being inserted); retransmissions and failure
 *     reports go by lowest slot.
 * Bounds (output register wired to the next input pin): every LC of an
 * N-node ring reports down within 5N cycles of the pull and up within
 * 66 + 5N cycles of the return.
 */
#include <string.h>

#include "sci_lc_state.h"

/* ---- small helpers ---------------------------------------------------- */

unsigned sci_lc_table_index(const sci_lc_t *lc, uint16_t target_id)
{
    if (lc->variant == SCI_LC3)
        return target_id & 0xFFu;
    /* P2S: the set is targetId bit 14 (sci_lc.md section 4). */
    unsigned set = (target_id & SCI_ADDR_SEL) ? 8192u : 0u;
    return set | (target_id & SCI_ID_MASK);
}

#define SCI_CTRL_WMASK 0xFFFF00FFFF031FFFull /* the writable CTRL bits (section 4) */
#define POOL_ALL       ((1u << SCI_POOL) - 1u)

static uint16_t sat16(uint16_t v) { return v == 0xFFFFu ? v : (uint16_t)(v + 1u); }
/* The 6-bit symbol counters stop at 62; 63 (only after an upset) wraps to 0, as in the RTL. */
static uint8_t sat_idx(uint8_t v) { return v == SCI_IDX_SAT ? v : (uint8_t)((v + 1u) & 63u); }
static bool is_echo_type(unsigned t) { return t >= SCI_T_ECHO_ACCEPT && t <= SCI_T_ECHO_ERROR; }

/* The number of slots in a pool mask (12 bits: three nibbles, counted by a table). */
static unsigned nslots(unsigned m)
{
    static const uint8_t n4[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    return (unsigned)n4[m & 0xFu] + n4[m >> 4 & 0xFu] + n4[m >> 8 & 0xFu];
}

/* The LRT's take bit of table entry ti. */
static bool lrt_take(const sci_lc_t *lc, unsigned ti)
{
    return lc->ram->lrt[ti / 8u] >> ti % 8u & 1u;
}

static unsigned ab_in_use(const sci_lc_state_t *s) { return nslots(s->m_active); }

/* The pool slot being inserted on the link, or -1. */
static int ins_slot(const sci_lc_state_t *s)
{
    return s->ins_kind == SCI_INS_SLOT ? s->ins_slot : -1;
}

/* Lowest active buffer whose packet has this sourceId (bit 14 ignored) and tid; -1 if none.
 * An echo matches with its targetId, a packet of ours coming back with its sourceId. */
static int ab_match(const sci_lc_t *lc, const sci_lc_state_t *c, uint16_t src, uint16_t tid)
{
    const sci_lc_store_t *st = &lc->ram->st;
    for (unsigned m = c->m_active; m; m &= m - 1u) {
        int i = lowest(m);
        if (((st->sl_src[i] ^ src) & ~SCI_ADDR_SEL) == 0 && st->sl_tid[i] == tid)
            return i;
    }
    return -1;
}

/* A slot free for a new B-link packet: the lowest free one that is not still being inserted
 * (an echo can free a buffer during its retransmission); -1 if none. */
static int free_slot(const sci_lc_state_t *s)
{
    return lowest(~used(s) & POOL_ALL & ~bit(ins_slot(s)));
}

/* The receive-queue count in STATUS and DBG: with a slot reserved by a packet being taken. */
static uint64_t rxq_shown(const sci_lc_state_t *s)
{
    return (uint64_t)((s->rx_n + s->resv) & 0xFu);
}

/* Everything that happens in one cycle, as seen by the stages that react to it. */
typedef struct events {
    uint16_t byp_sym;          /* parser: the symbol to bypass */
    uint16_t ans_src, ans_tid; /* parser: the answer owed */
    /* Pool slots, -1 for none: whose insertion starts, whose last symbol goes out (output);
     * which starts and ends filling from the B-link, which is reported failed (its
     * FAIL_REPORT starts). */
    int8_t ins_start_slot, ins_end_slot, fill_start_slot, fill_end_slot, failed_slot;
    /* parser (stage 3) */
    bool byp_v, byp_last; /* a symbol to bypass this cycle, the last of its packet */
    bool echo;            /* a good echo ends: act on slot `echo_slot` */
    uint8_t echo_slot, echo_type;
    bool answer; /* a taken or discarded packet with a good CRC ends */
    uint8_t ans_type;
    bool rdi_other; /* a ring-down idle of another node is in stage 3 */
    /* The receive queue's head, its targetId and length, as they are at the start of the
     * cycle: the parser may write the tail entry before the B-link reads the head, and they
     * are one entry when an upset count has the tail catch up with the head. */
    uint16_t head_sym0;
    uint8_t head_len;
    bool echo_popped; /* output */
    uint8_t fill_len; /* B-link */
    bool stored;      /* the packet storage was written */
} events_t;

/* ---- input pipe, stage 3: the parser ------------------------------------ */

/* Decide what to do with the packet whose symbol 0 is in stage 3 (stages 2..0 hold the
 * command, sourceId and tid; their raw words, flag or not).  Sets n->parse, n->ans. */
static void decide(const sci_lc_t *lc, const sci_lc_state_t *c, sci_lc_state_t *n,
                   const sci_lc_in_t *in)
{
    uint16_t target = (uint16_t)c->pipe[3], cmd = (uint16_t)c->pipe[2];
    uint16_t src = (uint16_t)c->pipe[1], tid = (uint16_t)c->pipe[0];
    unsigned type = cmd >> 8, ti = sci_lc_table_index(lc, target);
    bool echo = is_echo_type(type);
    int em = ab_match(lc, c, target, tid); /* an echo for one of our active buffers */
    bool own = ab_match(lc, c, src, tid) >= 0 && type != SCI_T_PROBE; /* our own packet, back */
    /* the table (a RAM, out of the per-cycle path) is read only for a packet it may take */
    bool take = c->enable && !echo && !own && lrt_take(lc, ti);
    if (take && lc->variant == SCI_P2S && in->fo_byp &&
        (((target ^ c->node_id) & in->fo_xmask & SCI_ID_MASK) == 0) &&
        (target & SCI_ID_MASK) != c->node_id)
        take = false; /* own-column bypass while the Y-LC is down */
    bool rx_free = c->rx_n < SCI_RXQ;

    n->p_src = src;
    n->p_tid = tid;
    n->p_type = (uint8_t)type;
    n->p_slot = (uint8_t)(em >= 0 ? em : 0);
    n->ans = ANS_NONE;
    if (c->scrub && (cmd & SCI_MARK)) { /* scrubber: marked before, remove it */
        n->parse = SCI_P_DISCARD;
        n->n_scrub = sat16(n->n_scrub);
    } else if (echo) {
        n->parse = em >= 0 ? SCI_P_ECHO : SCI_P_BYPASS;
    } else if (!take) {
        n->parse = SCI_P_BYPASS;
    } else if (!rx_free) {
        n->parse = SCI_P_DISCARD; /* receive queue full: answered busy */
        n->ans = ANS_BUSY;
    } else {
        n->parse = SCI_P_TAKE; /* BRT discard (7): taken, answered error */
        n->ans = lc->ram->brt[ti] == 7u ? ANS_ERROR : ANS_ACCEPT;
    }
}

/* Stage 3: decision at symbol 0, CRC check, take into the receive queue, answers and echoes
 * at the CRC symbol, the symbol to bypass. */
static void parser(sci_lc_t *lc, const sci_lc_state_t *c, sci_lc_state_t *n, events_t *e,
                   const sci_lc_in_t *in)
{
    uint32_t w = c->pipe[3];
    bool flag = (w & SCI_FLAG) != 0, more = (c->pipe[2] & SCI_FLAG) != 0;
    uint16_t sym = (uint16_t)w;

    e->rdi_other = !flag && (sym & SCI_RDI_BIT) && (sym & SCI_ID_MASK) != c->node_id;
    if (!flag) { /* an idle: between packets */
        n->parse = SCI_P_IDLE;
        n->idx = 0;
        n->crc = 0xFFFFu;
        n->resv = false;
        return;
    }
    if (c->idx == 0)
        decide(lc, c, n, in);
    unsigned st = n->parse;
    n->idx = sat_idx(c->idx);
    n->crc = crc_update(c->crc, c->idx, sym);
    n->resv = st == SCI_P_TAKE && more;

    if (st == SCI_P_BYPASS) {
        e->byp_v = true;
        e->byp_last = !more;
        e->byp_sym = (c->scrub && c->idx == 1) ? (uint16_t)(sym | SCI_MARK) : sym;
    }
    /* the tail of the receive queue: never its head while the queue holds a packet */
    sci_pkt_t *rx = &lc->ram->st.rxq[c->rx_tail];
    if (st == SCI_P_TAKE) { /* every symbol is stored (idx < 64); the mark is cleared */
        rx->sym[c->idx] = c->idx == 1 ? (uint16_t)(sym & ~SCI_MARK) : sym;
        e->stored = true;
    }
    if (more)
        return;

    /* The CRC symbol: a good packet has 5..37 symbols and its CRC equals the running one. */
    bool good = c->crc == sym && c->idx >= SCI_MIN_PKT - 1u && c->idx <= SCI_MAX_PKT - 1u;
    bool checked =
        st == SCI_P_TAKE || st == SCI_P_ECHO || (st == SCI_P_DISCARD && n->ans == ANS_BUSY);
    if (checked && !good)
        n->n_crc = sat16(n->n_crc);
    if (!good)
        return;
    if (st == SCI_P_TAKE && n->ans == ANS_ACCEPT) {
        rx->len = (uint8_t)((c->idx + 1u) & 63u);
        e->stored = true;
        n->rx_tail = (uint8_t)((c->rx_tail + 1u) % SCI_RXQ);
        n->rx_n = (uint8_t)((n->rx_n + 1u) & 15u); /* a 4-bit count, as the RTL's */
    }
    if (st == SCI_P_ECHO) {
        e->echo = true;
        e->echo_slot = n->p_slot;
        e->echo_type = n->p_type;
    }
    if ((st == SCI_P_TAKE || st == SCI_P_DISCARD) && n->ans != ANS_NONE) {
        e->answer = true;
        e->ans_type = n->ans == ANS_ACCEPT ? SCI_T_ECHO_ACCEPT
                      : n->ans == ANS_BUSY ? SCI_T_ECHO_BUSY
                                           : SCI_T_ECHO_ERROR;
        e->ans_src = n->p_src;
        e->ans_tid = n->p_tid;
    }
}

/* ---- ring monitor ------------------------------------------------------- */

/* Signal detect is counted at the input pin, ring-down idles in stage 3 (sci_lc.md
 * section 3).  Origination starts after 4 cycles of sd = 0 and lasts while sd is 0. */
static bool originating(const sci_lc_state_t *s) { return s->sd_low == SCI_RDOWN_CYCLES; }

static void ring_monitor(const sci_lc_state_t *c, sci_lc_state_t *n, const sci_lc_in_t *in,
                         const events_t *e)
{
    bool rdi = !(c->pipe[3] & SCI_FLAG) && (c->pipe[3] & SCI_RDI_BIT);
    n->sd_q = in->link_sd;
    /* a 3-bit count that stops at 4; 5..7 (only after an upset) count on and wrap */
    n->sd_low = in->link_sd                     ? 0
                : c->sd_low == SCI_RDOWN_CYCLES ? c->sd_low
                                                : (uint8_t)((c->sd_low + 1u) & 7u);
    n->sd_high = !in->link_sd ? 0 : (uint8_t)(c->sd_high < 127u ? c->sd_high + 1u : 127u);
    n->clean = (rdi || !in->link_sd) ? 0 : (uint8_t)(c->clean < 127u ? c->clean + 1u : 127u);
    if (originating(c) || e->rdi_other)
        n->ring_up = false;
    else if (c->sd_high >= SCI_RUP_CYCLES && c->clean >= SCI_RUP_CYCLES)
        n->ring_up = true;
    /* CableNotOk: set on ring up -> down, wins over a clear in the same cycle. */
    bool clear = in->reg_we && in->reg_waddr == SCI_REG_STATUS_CLR && (in->reg_wstrb & 1u) &&
                 (in->reg_wdata & 8u);
    if (c->ring_up && !n->ring_up)
        n->irq = true;
    else if (clear)
        n->irq = false;
}

/* ---- output stage ------------------------------------------------------- */

/* Symbol i of the echo being inserted; its sourceId is this node's id as it is now. */
static uint16_t echo_sym(const sci_lc_state_t *c, const sci_echo_t *x, unsigned i, uint16_t crc)
{
    switch (i) {
    case 0: return x->target;
    case 1: return (uint16_t)(x->type << 8);
    case 2: return c->node_id;
    case 3: return x->tid;
    default: return crc;
    }
}

/* A new insertion starts only when the output is otherwise idle: no idle due, nothing being
 * inserted, the bypass FIFO empty, nothing bypassed this cycle, the last symbol sent an idle,
 * the LC enabled and its ring up.  Echoes first, then a retransmission (lowest slot), then the
 * send queue's head (with an active buffer free); none of the latter two during a limit's
 * failure pass.  Returns whether one started. */
static bool start_insertion(const sci_lc_t *lc, const sci_lc_state_t *c, sci_lc_state_t *n,
                            events_t *e)
{
    if (c->need_idle || c->ins_kind != SCI_INS_NONE || c->byp_n || e->byp_v || c->out_flag ||
        !c->enable || !c->ring_up)
        return false;
    if (c->eq_n) {
        n->ins_kind = SCI_INS_ECHO;
        n->ins_echo = lc->ram->st.echoq[c->eq_head];
        n->ins_len = SCI_MIN_PKT;
        n->eq_head = (uint8_t)((c->eq_head + 1u) % SCI_ECHOQ);
        e->echo_popped = true;
        return true;
    }
    if (c->fail)
        return false;
    int slot = lowest(c->m_active & c->m_rtx);
    if (slot < 0 && c->sq_n && ab_in_use(c) < SCI_ACTIVE) {
        slot = c->sq[c->sq_head];
        n->sq_head = (uint8_t)((c->sq_head + 1u) % SCI_SENDQ);
        n->sq_n = (uint8_t)((n->sq_n - 1u) & 15u);
    }
    if (slot < 0)
        return false;
    n->ins_kind = SCI_INS_SLOT;
    n->ins_slot = (uint8_t)slot;
    n->ins_len = slot < (int)SCI_POOL ? c->len[slot] : 0u; /* 12..15 name no buffer: 0 */
    e->ins_start_slot = slot;
    return true;
}

/* The next symbol of the insertion under way (or just started). */
static void insert_next(const sci_lc_t *lc, const sci_lc_state_t *c, sci_lc_state_t *n, events_t *e)
{
    unsigned i = c->ins_kind == SCI_INS_NONE ? 0u : c->ins_idx;
    uint16_t sym;
    if (n->ins_kind == SCI_INS_ECHO) {
        sym = echo_sym(c, &n->ins_echo, i, c->ocrc);
        n->ocrc = crc_update(i == 0 ? 0xFFFFu : c->ocrc, i, sym);
        n->ins_echo.target = 0; /* sent with symbol 0 and kept no further, as in the RTL */
    } else {
        sym = lc->ram->st.slot[n->ins_slot][i];
    }
    n->ins_idx = (uint8_t)((i + 1u) & 63u);
    n->out_flag = true;
    n->out_sym = sym;
    /* every packet is followed by an idle; the counts are 6 bits, as the RTL's */
    n->need_idle = ((i + 1u) & 63u) == (n->ins_len & 63u);
    if (n->need_idle) {
        if (n->ins_kind == SCI_INS_SLOT)
            e->ins_end_slot = n->ins_slot;
        n->ins_kind = SCI_INS_NONE;
    }
}

/* The link output register.  In priority order: the idle after a packet; the insertion under
 * way (or starting); the bypass FIFO's head; the symbol leaving stage 3 to bypass (so t+5 pin
 * to pin); else an idle.  A bypassed symbol that cannot go out now waits in the FIFO (at its
 * tail: the FIFO holds at most 40 of its 64 words, so never at the head read now).  Idles
 * carry this node's id while it originates ring-down, or forward the ring-down idle of another
 * node that is in stage 3 now (one met while the output is busy is not forwarded). */
static void output_stage(sci_lc_t *lc, const sci_lc_state_t *c, sci_lc_state_t *n, events_t *e)
{
    bool direct = false, idle = false;
    bool inserting = start_insertion(lc, c, n, e) || c->ins_kind != SCI_INS_NONE;
    if (c->need_idle) {
        idle = true;
    } else if (inserting) {
        insert_next(lc, c, n, e);
    } else if (c->byp_n) {
        uint32_t x = lc->ram->st.byp[c->byp_head];
        n->byp_head = (uint8_t)((c->byp_head + 1u) % SCI_BYP_MEM);
        n->byp_n = (uint8_t)((n->byp_n - 1u) & 127u); /* a 7-bit count, as the RTL's */
        n->out_flag = true;
        n->out_sym = (uint16_t)x;
        n->need_idle = (x & SCI_FLAG) != 0;
    } else if (e->byp_v) {
        direct = true;
        n->out_flag = true;
        n->out_sym = e->byp_sym;
        n->need_idle = e->byp_last;
    } else {
        idle = true;
    }
    if (idle) {
        n->need_idle = false;
        n->out_flag = false;
        n->out_sym = originating(c) ? (uint16_t)(SCI_RDI_BIT | c->node_id)
                     : e->rdi_other ? (uint16_t)c->pipe[3]
                                    : 0u;
    }
    if (e->byp_v && !direct) {
        lc->ram->st.byp[c->byp_tail] = (e->byp_last ? SCI_FLAG : 0u) | e->byp_sym;
        e->stored = true;
        n->byp_tail = (uint8_t)((c->byp_tail + 1u) % SCI_BYP_MEM);
        n->byp_n = (uint8_t)((n->byp_n + 1u) & 127u);
    }
}

/* ---- echo queue --------------------------------------------------------- */

/* An answer owed goes into the echo queue (8; one that finds it full is dropped); busy
 * echoes are counted when queued.  Disabled: the queue is flushed and takes nothing. */
static void echo_queue(sci_lc_t *lc, const sci_lc_state_t *c, sci_lc_state_t *n, events_t *e)
{
    if (!c->enable) {
        n->eq_head = 0;
        n->eq_tail = 0;
        n->eq_n = 0;
        return;
    }
    if (e->echo_popped)
        n->eq_n = (uint8_t)((n->eq_n - 1u) & 15u); /* a 4-bit count, as the RTL's */
    if (!e->answer || c->eq_n == SCI_ECHOQ)        /* full: exactly 8 (the RTL's test) */
        return;
    lc->ram->st.echoq[c->eq_tail] =
        (sci_echo_t){.type = e->ans_type, .target = e->ans_src, .tid = e->ans_tid};
    e->stored = true;
    n->eq_tail = (uint8_t)((c->eq_tail + 1u) % SCI_ECHOQ);
    n->eq_n = (uint8_t)((n->eq_n + 1u) & 15u);
    if (e->ans_type == SCI_T_ECHO_BUSY)
        n->n_busy = sat16(n->n_busy);
}

/* ---- failures and the B-link output ------------------------------------- */

/* A limit reached this cycle starts a failure pass (reason 1 busy before 2 timeout) that
 * lasts until every pool slot is free; bin_ready is 0 between packets meanwhile. */
static void limits(const sci_lc_state_t *c, sci_lc_state_t *n, const events_t *e)
{
    bool busy = false, retry = false;
    for (unsigned m = c->m_active & c->m_timer; m; m &= m - 1u) {
        int i = lowest(m); /* its echo timer expires with the retries used up */
        if (c->timer[i] == 0 && c->retry[i] >= c->retry_limit)
            retry = true;
    }
    if (e->echo && e->echo_type == SCI_T_ECHO_BUSY && (c->m_active & bit(e->echo_slot)) &&
        c->busy[e->echo_slot] >= c->busy_limit)
        busy = true; /* a busy echo with the busy retries used up */
    unsigned trig = busy ? SCI_FAIL_BUSY : retry ? SCI_FAIL_TIMEOUT : 0u;
    if (c->fail) {
        n->fail = used(c) != 0;
    } else {
        n->fail = trig != 0;
        n->fail_reason = (uint8_t)trig;
    }
}

static bool failing(const sci_lc_state_t *s) { return s->fail || !s->enable || !s->ring_up; }

static unsigned fail_reason(const sci_lc_state_t *s)
{
    return !s->enable ? SCI_FAIL_DISABLED : !s->ring_up ? SCI_FAIL_RINGDOWN : s->fail_reason;
}

/* The active buffer to report failed next: the lowest one not being inserted; -1 if none. */
static int fail_ab(const sci_lc_state_t *s) { return lowest(s->m_active & ~bit(ins_slot(s))); }

/* The slot whose FAIL_REPORT would start now: an active buffer, else the send queue's head;
 * -1 when not failing or nothing is left. */
static int fail_next(const sci_lc_state_t *s)
{
    if (!failing(s))
        return -1;
    int a = fail_ab(s);
    return a >= 0 ? a : s->sq_n ? s->sq[s->sq_head] : -1;
}

/* What the B-link output offers: the packet under way, else a FAIL_REPORT (built when its
 * symbol 0 moves), else the receive queue's head.  One packet at a time. */
static unsigned bout_kind(const sci_lc_state_t *s)
{
    if (s->bo_kind != SCI_BO_NONE)
        return s->bo_kind;
    return fail_next(s) >= 0 ? SCI_BO_FAIL : s->rx_n ? SCI_BO_RXQ : SCI_BO_NONE;
}

static unsigned bout_len(const sci_lc_t *lc, const sci_lc_state_t *s, unsigned kind)
{
    if (s->bo_kind != SCI_BO_NONE)
        return s->bo_len;
    return kind == SCI_BO_FAIL ? SCI_FAIL_PKT : lc->ram->st.rxq[s->rx_head].len;
}

/* The length of what starts on the B-link this cycle (blink_out: from the head as it was). */
static unsigned start_len(const sci_lc_state_t *s, unsigned kind, const events_t *e)
{
    if (s->bo_kind != SCI_BO_NONE)
        return s->bo_len;
    return kind == SCI_BO_FAIL ? SCI_FAIL_PKT : e->head_len;
}

static unsigned brt_of(const sci_lc_t *lc, uint16_t target)
{
    return lc->ram->brt[sci_lc_table_index(lc, target)];
}

/* Symbol i of what the B-link output sends: a FAIL_REPORT's header, then its running CRC (a
 * packet made longer by an upset of its length repeats it); else the receive queue's head
 * (the code 3, which no packet uses, reads it too, as in the RTL). */
static uint16_t bout_word(const sci_lc_t *lc, const sci_lc_state_t *s, unsigned kind, unsigned i)
{
    if (kind == SCI_BO_FAIL)
        return i < SCI_FAIL_HDR ? lc->ram->st.fr[i] : s->bcrc;
    return lc->ram->st.rxq[s->rx_head].sym[i & 63u];
}

/* A slot's copied targetId, sourceId or tid (st.sl_*): a slot number beyond the pool (12..15,
 * only after an upset) names no buffer and reads 0, as in the RTL. */
static uint16_t slot_copy(const uint16_t *w, int slot)
{
    return slot >= 0 && slot < (int)SCI_POOL ? w[slot] : 0u;
}

static void blink_out(sci_lc_t *lc, const sci_lc_state_t *c, sci_lc_state_t *n,
                      const sci_lc_in_t *in, events_t *e)
{
    unsigned kind = bout_kind(c);
    if (kind == SCI_BO_NONE || !in->bout_ready)
        return;
    unsigned len = start_len(c, kind, e), i = c->bo_kind != SCI_BO_NONE ? c->bo_idx : 0u;
    if (c->bo_kind == SCI_BO_NONE) { /* symbol 0 moves: the packet starts */
        n->bo_kind = (uint8_t)kind;
        n->bo_len = (uint8_t)len;
        n->bo_port = kind == SCI_BO_FAIL ? 0u : (uint8_t)brt_of(lc, e->head_sym0);
        if (kind == SCI_BO_FAIL) {
            /* FAIL_REPORT of the failed packet, whose buffer is freed now (D9); its CRC runs
             * as its symbols go out (bcrc). */
            int ab = fail_ab(c), fs = fail_next(c);
            sci_lc_store_t *st = &lc->ram->st;
            uint16_t hdr[SCI_FAIL_HDR] = {c->node_id,
                                          (uint16_t)(SCI_T_FAIL_REPORT << 8),
                                          c->node_id,
                                          0,
                                          (uint16_t)fail_reason(c),
                                          slot_copy(st->sl_tgt, fs),
                                          slot_copy(st->sl_src, fs),
                                          slot_copy(st->sl_tid, fs)};
            memcpy(st->fr, hdr, sizeof hdr);
            e->stored = true;
            e->failed_slot = fs;
            if (ab < 0) { /* it was the send queue's head */
                n->sq_head = (uint8_t)((c->sq_head + 1u) % SCI_SENDQ);
                n->sq_n = (uint8_t)((n->sq_n - 1u) & 15u);
            }
            n->n_fail = sat16(n->n_fail);
        }
    }
    if (kind == SCI_BO_FAIL)
        n->bcrc = crc_update(i == 0 ? 0xFFFFu : c->bcrc, i, bout_word(lc, c, kind, i));
    /* 6-bit index and length, as the RTL's: the last symbol is the one at len - 1 mod 64 */
    n->bo_idx = (uint8_t)((i + 1u) & 63u);
    if (((i + 1u) & 63u) != (len & 63u))
        return;
    n->bo_kind = SCI_BO_NONE;
    if (kind == SCI_BO_RXQ) {
        n->rx_head = (uint8_t)((c->rx_head + 1u) % SCI_RXQ);
        n->rx_n = (uint8_t)((n->rx_n - 1u) & 15u);
    }
}

/* ---- B-link input into the pool ----------------------------------------- */

/* Ready for the rest of a packet already started; between packets when a pool slot is free,
 * the send queue holds fewer than 8 packets and no limit failure pass runs (D10). */
static bool bin_ready(const sci_lc_state_t *s)
{
    /* the send queue and the slots filling, a 4-bit sum as in the RTL (a slot fills only
     * while bi_fill, but an upset can leave one filling) */
    return s->bi_fill ||
           (!s->fail && free_slot(s) >= 0 && ((s->sq_n + nslots(s->m_fill)) & 15u) < SCI_SENDQ);
}

/* A B-link packet claims the lowest free slot with its symbol 0 and joins the send queue with
 * its last symbol.  The slot it fills is free or filling: no other stage reads it. */
static void blink_in(sci_lc_t *lc, const sci_lc_state_t *c, sci_lc_state_t *n,
                     const sci_lc_in_t *in, events_t *e)
{
    if (!in->bin_valid || !bin_ready(c))
        return;
    int slot = c->bi_fill ? c->bi_slot : free_slot(c);
    unsigned i = c->bi_fill ? c->bi_idx : 0u;
    if (!c->bi_fill)
        e->fill_start_slot = slot;
    sci_lc_store_t *st = &lc->ram->st;
    st->slot[slot][i] = in->bin_sym;
    if (slot < (int)SCI_POOL && i == 0)
        st->sl_tgt[slot] = in->bin_sym;
    else if (slot < (int)SCI_POOL && i == 2)
        st->sl_src[slot] = in->bin_sym;
    else if (slot < (int)SCI_POOL && i == 3)
        st->sl_tid[slot] = in->bin_sym;
    e->stored = true;
    n->bi_slot = (uint8_t)slot;
    n->bi_idx = sat_idx((uint8_t)i);
    n->bi_fill = !in->bin_last;
    if (!in->bin_last)
        return;
    e->fill_end_slot = slot;
    e->fill_len = (uint8_t)((i + 1u) & 63u);
    n->sq[c->sq_tail] = (uint8_t)slot;
    n->sq_tail = (uint8_t)((c->sq_tail + 1u) % SCI_SENDQ);
    n->sq_n = (uint8_t)((n->sq_n + 1u) & 15u);
}

/* ---- pool slots: states, echo timers, retransmissions ------------------- */

/* A freed buffer keeps no timer and no retransmission (rtl/sci_lc.md section 8). */
static void slot_free(sci_lc_state_t *n, int i)
{
    unsigned b = ~bit(i);
    slot_state(n, i, 0);
    n->m_timer &= b;
    n->m_rtx &= b;
}

static bool in_pool(int slot) { return slot >= 0 && slot < (int)SCI_POOL; }

/* The pool's next state from this cycle's events, per slot in this order: filling from the
 * B-link, insertion start (it becomes an active buffer), the echo timer (loaded with
 * echo_timeout when its last symbol goes out, then counting down; at 0 a retransmission is
 * due if retries are left, D5), an echo (accept or error frees it; busy stops the timer and
 * makes a retransmission due if busy retries are left), a FAIL_REPORT (frees it).  Only the
 * slots an event names and the running timers are visited.  A freed slot keeps no timer and
 * no retransmission: nothing reads them before the slot is filled again, which clears them. */
static void pool_update(const sci_lc_state_t *c, sci_lc_state_t *n, const events_t *e)
{
    /* Only slots 0..11 exist: a slot number of 12..15 (an upset one) changes no buffer. */
    if (in_pool(e->fill_start_slot)) {
        int i = e->fill_start_slot;
        slot_state(n, i, 1);
        n->len[i] = 0;
        n->busy[i] = n->retry[i] = 0;
        n->timer[i] = 0;
        n->m_timer &= ~bit(i);
        n->m_rtx &= ~bit(i);
    }
    if (in_pool(e->fill_end_slot)) {
        int i = e->fill_end_slot;
        slot_state(n, i, 2);
        n->len[i] = e->fill_len;
    }
    if (in_pool(e->ins_start_slot)) {
        unsigned b = bit(e->ins_start_slot);
        slot_state(n, e->ins_start_slot, 3);
        n->m_rtx &= ~b;
        n->m_timer &= ~b;
    }
    int end = e->ins_end_slot;
    bool load = end >= 0 && (n->m_active & bit(end));
    for (unsigned m = n->m_timer & ~(load ? bit(end) : 0u); m; m &= m - 1u) {
        int i = lowest(m);
        if (n->timer[i] == 0) {
            n->m_timer &= ~bit(i);
            if (n->retry[i] < c->retry_limit) {
                n->retry[i]++;
                n->m_rtx |= bit(i);
            }
        } else {
            n->timer[i]--;
        }
    }
    if (load) {
        n->timer[end] = c->echo_timeout;
        n->m_timer = c->echo_timeout != 0 ? n->m_timer | bit(end) : n->m_timer & ~bit(end);
    }
    if (e->echo && (n->m_active & bit(e->echo_slot))) {
        int i = e->echo_slot;
        if (e->echo_type == SCI_T_ECHO_BUSY) {
            n->m_timer &= ~bit(i);
            if (n->busy[i] < c->busy_limit) {
                n->busy[i]++;
                n->m_rtx |= bit(i);
            }
        } else {
            slot_free(n, i);
        }
    }
    if (in_pool(e->failed_slot))
        slot_free(n, e->failed_slot);
}

/* ---- registers -------------------------------------------------------- */

static uint64_t ctrl_pack(const sci_lc_state_t *s)
{
    return (uint64_t)s->node_id | (uint64_t)s->enable << SCI_CTRL_ENABLE_BIT |
           (uint64_t)s->scrub << SCI_CTRL_SCRUB_BIT |
           (uint64_t)s->busy_limit << SCI_CTRL_BUSYLIM_LSB |
           (uint64_t)s->retry_limit << SCI_CTRL_RETRYLIM_LSB |
           (uint64_t)s->echo_timeout << SCI_CTRL_TIMEOUT_LSB;
}

static unsigned taddr_index(const sci_lc_t *lc, uint16_t taddr)
{
    return lc->variant == SCI_LC3 ? (taddr & 0xFFu) : (taddr & 0x3FFFu);
}

/* A register write at this edge (STATUS_CLR is the ring monitor's), from the registers c into
 * n (which may be c: every field is read before it is written).  Returns whether it changed
 * CTRL, TADDR or a table entry. */
static bool reg_write(sci_lc_t *lc, const sci_lc_state_t *c, sci_lc_state_t *n,
                      const sci_lc_in_t *in)
{
    if (!in->reg_we)
        return false;
    unsigned ti = taddr_index(lc, c->taddr);
    uint8_t *l = &lc->ram->lrt[ti / 8u], *b = &lc->ram->brt[ti], old_l = *l, old_b = *b;
    uint64_t ctrl = ctrl_pack(c);
    uint16_t taddr = c->taddr;
    switch (in->reg_waddr) {
    case SCI_REG_CTRL: {
        uint64_t v = sci_wstrb_merge(ctrl, in->reg_wdata, in->reg_wstrb) & SCI_CTRL_WMASK;
        n->node_id = (uint16_t)(v & SCI_ID_MASK);
        n->enable = v >> SCI_CTRL_ENABLE_BIT & 1u;
        n->scrub = v >> SCI_CTRL_SCRUB_BIT & 1u;
        n->busy_limit = (uint8_t)(v >> SCI_CTRL_BUSYLIM_LSB);
        n->retry_limit = (uint8_t)(v >> SCI_CTRL_RETRYLIM_LSB);
        n->echo_timeout = (uint16_t)(v >> SCI_CTRL_TIMEOUT_LSB);
        return v != ctrl;
    }
    case SCI_REG_TADDR:
        n->taddr = (uint16_t)(sci_wstrb_merge(taddr, in->reg_wdata, in->reg_wstrb) & 0x3FFFu);
        return n->taddr != taddr;
    case SCI_REG_LRT:
        if (in->reg_wstrb & 1u)
            *l = (uint8_t)((old_l & ~(1u << ti % 8u)) | (in->reg_wdata & 1u) << ti % 8u);
        break;
    case SCI_REG_BRT:
        if (in->reg_wstrb & 1u)
            *b = (uint8_t)(in->reg_wdata & 7u);
        break;
    default: break;
    }
    return *l != old_l || *b != old_b;
}

/* ---- step, init, outputs ---------------------------------------------- */

/* Reset: every register cleared, CTRL to its reset values (sci_lc.md section 4). */
static void reset_state(sci_lc_state_t *s)
{
    memset(s, 0, sizeof *s);
    s->crc = 0xFFFFu;
    s->ocrc = 0xFFFFu;
    s->bcrc = 0xFFFFu;
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
    to->busy_limit = from->busy_limit;
    to->retry_limit = from->retry_limit;
    to->echo_timeout = from->echo_timeout;
    to->taddr = from->taddr;
}

bool sci_same_words(const void *a, const void *b, unsigned n)
{
    const unsigned char *x = a, *y = b;
    uint64_t d = 0;
    for (unsigned i = 0; i < n; i += 8u) {
        uint64_t u, v;
        memcpy(&u, x + i, 8);
        memcpy(&v, y + i, 8);
        d |= u ^ v;
    }
    return d == 0;
}

/* A reset edge loads the reset values (and clears the packet storage); one that writes a
 * register performs the write and keeps CTRL and TADDR as they are, so configuration written
 * during reset survives it (D13).  After a reset edge every register but CTRL and TADDR
 * holds its reset value (lc->fresh), so a reset edge with a write from there is the write
 * alone: a table loaded in reset cycles costs one entry a cycle.  Returns whether it changed
 * anything. */
static bool reset_edge(sci_lc_t *lc, const sci_lc_in_t *in)
{
    bool changed = false;
    if (!lc->fresh || !in->reg_we) {
        sci_lc_state_t n;
        reset_state(&n);
        if (in->reg_we)
            keep_ctrl(&n, &lc->s);
        changed = !sci_same_words(&n, &lc->s, sizeof n);
        memcpy(&lc->s, &n, sizeof n);
        lc->fresh = true;
    }
    if (!lc->store_clean) {
        memset(&lc->ram->st, 0, sizeof lc->ram->st);
        lc->store_clean = true;
        changed = true;
    }
    if (reg_write(lc, &lc->s, &lc->s, in))
        changed = true;
    return changed;
}

/* The inputs of two edges are the same (a register write never is). */
static bool same_inputs(const sci_lc_in_t *a, const sci_lc_in_t *b)
{
    return !a->reg_we && !b->reg_we && a->rst_n == b->rst_n && a->link_flag == b->link_flag &&
           a->link_sym == b->link_sym && a->link_sd == b->link_sd && a->bin_valid == b->bin_valid &&
           a->bin_sym == b->bin_sym && a->bin_last == b->bin_last &&
           a->bout_ready == b->bout_ready && a->fo_byp == b->fo_byp && a->fo_xmask == b->fo_xmask;
}

void sci_lc_init(sci_lc_t *lc, sci_lc_ram_t *ram, sci_variant_t v)
{
    memset(lc, 0, sizeof *lc);
    memset(ram, 0, sizeof *ram);
    lc->ram = ram;
    lc->variant = v;
    reset_state(&lc->s);
    lc->fresh = true;
    lc->store_clean = true;
}

/* A hint without effect on the model: the LRT entry of the packet whose symbol 0 reaches stage
 * 3 at the next edge is read then; fetch it meanwhile. */
static void prefetch_entry(const sci_lc_t *lc, uint16_t target)
{
#if defined(__GNUC__)
    __builtin_prefetch(&lc->ram->lrt[sci_lc_table_index(lc, target) / 8u]);
#else
    (void)lc;
    (void)target;
#endif
}

/* One edge of the running controller: the registers are copied aside (c) and every stage reads
 * them and writes the next ones (n, the registers themselves) and the packet storage in
 * place.  Returns whether it certainly changed something: wrote the packet storage or a
 * register through the port, or counted an echo timer (which moves every cycle it runs). */
static bool run_edge(sci_lc_t *lc, const sci_lc_state_t *c, const sci_lc_in_t *in)
{
    sci_lc_state_t *n = &lc->s;
    events_t e = {.ins_start_slot = -1,
                  .ins_end_slot = -1,
                  .fill_start_slot = -1,
                  .fill_end_slot = -1,
                  .failed_slot = -1,
                  .head_sym0 = lc->ram->st.rxq[c->rx_head].sym[0],
                  .head_len = lc->ram->st.rxq[c->rx_head].len};
    parser(lc, c, n, &e, in);
    ring_monitor(c, n, in, &e);
    output_stage(lc, c, n, &e);
    echo_queue(lc, c, n, &e);
    limits(c, n, &e);
    blink_out(lc, c, n, in, &e);
    blink_in(lc, c, n, in, &e);
    pool_update(c, n, &e);
    for (unsigned k = SCI_PIPE - 1u; k > 0; k--)
        n->pipe[k] = c->pipe[k - 1u];
    n->pipe[0] = (in->link_flag ? SCI_FLAG : 0u) | in->link_sym;
    if ((n->pipe[3] & SCI_FLAG) && n->idx == 0)
        prefetch_entry(lc, (uint16_t)n->pipe[3]);
    bool regs = reg_write(lc, c, n, in);
    if (e.stored)
        lc->store_clean = false;
    lc->fresh = false;
    return e.stored || regs || c->m_timer;
}

/* The controller at rest: plain idles in every pipe stage and at the pin, signal detect 1, its
 * ring up and its clean counts saturated, nothing queued, inserted, filling, timing or
 * failing, nothing for the B-link, no register write.  An edge then changes nothing: an idle
 * in stage 3 leaves the parser idle, the ring monitor keeps its counts and ring up, the output
 * sends a plain idle, and the queues, limits, B-link and pool have nothing to do. */
static bool at_rest(const sci_lc_state_t *s, const sci_lc_in_t *in)
{
    /* the likeliest to fail first: something on the link */
    return !(s->pipe[0] | s->pipe[1] | s->pipe[2] | s->pipe[3] | in->link_sym) && !in->link_flag &&
           in->rst_n && !in->reg_we && in->link_sd && !in->bin_valid && s->parse == SCI_P_IDLE &&
           s->idx == 0 && s->crc == 0xFFFFu && !s->resv && s->sd_q && s->sd_low == 0 &&
           s->sd_high == 127u && s->clean == 127u && s->ring_up && !s->out_flag && !s->out_sym &&
           !s->need_idle && s->ins_kind == SCI_INS_NONE && !s->byp_n && !s->eq_n &&
           (s->enable || (!s->eq_head && !s->eq_tail)) && !used(s) && !s->m_timer && !s->m_rtx &&
           !s->sq_n && !s->fail && !s->fail_reason && !s->rx_n && s->bo_kind == SCI_BO_NONE &&
           !s->bi_fill;
}

/* A controller in transit: it only passes its ring's traffic on.  Nothing of its own is
 * queued, inserted, filling, timing, failing or answered, it is enabled, its ring up with
 * signal detect and its clean counts saturated, no register write, nothing from the B-link;
 * and stage 3 holds a plain idle, or a symbol after symbol 0 of a packet it bypasses (the
 * decision at symbol 0 is run_edge's), and no idle after a packet is due when it does. */
static bool in_transit(const sci_lc_state_t *s, const sci_lc_in_t *in)
{
    uint32_t w = s->pipe[3];
    if (!in->rst_n || in->reg_we || in->bin_valid || !in->link_sd || !s->enable || !s->ring_up ||
        s->fail || s->fail_reason || !s->sd_q || s->sd_low || s->sd_high != 127u ||
        s->clean != 127u || s->rx_n || s->sq_n || s->eq_n || s->byp_n || used(s) || s->m_timer ||
        s->m_rtx || s->bi_fill || s->bo_kind != SCI_BO_NONE || s->ins_kind != SCI_INS_NONE ||
        s->resv)
        return false;
    if (w & SCI_FLAG)
        return s->idx != 0 && s->parse == SCI_P_BYPASS && !s->need_idle;
    return !(w & SCI_RDI_BIT);
}

/* run_edge in transit (in_transit), where it only moves the pipe, the parser (its index and
 * running CRC, idle between packets) and the output (the symbol bypassed straight on, or an
 * idle): every other stage has nothing to do (the ring monitor keeps its saturated counts and
 * ring up; no insertion can start, as nothing is queued; no answer, limit, failure, B-link
 * packet or pool event).  The registers are updated in place, each read before it is
 * written.  Returns whether they changed. */
static bool transit_edge(sci_lc_t *lc, const sci_lc_in_t *in)
{
    sci_lc_state_t *s = &lc->s;
    uint32_t w = s->pipe[3], p0 = (in->link_flag ? SCI_FLAG : 0u) | in->link_sym;
    bool changed =
        p0 != s->pipe[0] || s->pipe[0] != s->pipe[1] || s->pipe[1] != s->pipe[2] || s->pipe[2] != w;
    bool out_flag = false, need_idle = false;
    uint16_t out_sym = 0;
    if (w & SCI_FLAG) { /* bypassed: from stage 3 straight to the output (t+5 pin to pin) */
        uint16_t sym = (uint16_t)w;
        out_flag = true;
        out_sym = (s->scrub && s->idx == 1) ? (uint16_t)(sym | SCI_MARK) : sym;
        need_idle = !(s->pipe[2] & SCI_FLAG); /* its last symbol: an idle follows */
        s->crc = crc_update(s->crc, s->idx, sym);
        s->idx = sat_idx(s->idx);
        changed = true;
    } else { /* an idle: between packets */
        changed |= s->parse != SCI_P_IDLE || s->idx != 0 || s->crc != 0xFFFFu;
        s->parse = SCI_P_IDLE;
        s->idx = 0;
        s->crc = 0xFFFFu;
    }
    changed |= s->out_flag != out_flag || s->out_sym != out_sym || s->need_idle != need_idle;
    s->out_flag = out_flag;
    s->out_sym = out_sym;
    s->need_idle = need_idle;
    s->pipe[3] = s->pipe[2];
    s->pipe[2] = s->pipe[1];
    s->pipe[1] = s->pipe[0];
    s->pipe[0] = p0;
    if ((s->pipe[3] & SCI_FLAG) && s->idx == 0)
        prefetch_entry(lc, (uint16_t)s->pipe[3]);
    lc->fresh = false;
    return changed;
}

void sci_lc_table_load(sci_lc_t *lc, uint16_t taddr, uint8_t reg, uint64_t value)
{
    sci_lc_in_t in = {.reg_we = true, .reg_waddr = reg, .reg_wdata = value, .reg_wstrb = 1};
    sci_lc_state_t s = lc->s;
    s.taddr = (uint16_t)(taddr & 0x3FFFu);
    if (reg == SCI_REG_LRT || reg == SCI_REG_BRT)
        reg_write(lc, &s, &s, &in);
    lc->effect = SCI_EDGE_CHANGED; /* the memo of the last edge no longer holds */
    lc->stable = false;
}

bool sci_lc_settled(const sci_lc_t *lc) { return lc->effect == SCI_EDGE_SAME; }

bool sci_lc_step(sci_lc_t *lc, const sci_lc_in_t *in)
{
    /* At rest, or the inputs of the last edge, which changed nothing: nor does this one. */
    if (at_rest(&lc->s, in) || (lc->stable && same_inputs(&lc->last_in, in))) {
        lc->effect = SCI_EDGE_SAME;
        return false;
    }
    /* A configuration cycle with no byte enabled from the reset state keeps it. */
    if (!in->rst_n && in->reg_we && !in->reg_wstrb && lc->fresh && lc->store_clean) {
        lc->effect = SCI_EDGE_SAME;
        return false;
    }
    if (!in->rst_n) {
        lc->effect = reset_edge(lc, in) ? SCI_EDGE_CHANGED : SCI_EDGE_SAME;
    } else if (in_transit(&lc->s, in)) {
        lc->effect = transit_edge(lc, in) ? SCI_EDGE_CHANGED : SCI_EDGE_SAME;
    } else {
        /* Whether a running edge changed anything is worth a comparison only when the next
         * one may be the same edge again: with the inputs of the last one. */
        bool again = same_inputs(&lc->last_in, in);
        sci_lc_state_t c;
        memcpy(&c, &lc->s, sizeof c);
        bool certain = run_edge(lc, &c, in);
        lc->effect = !certain && again && sci_same_words(&c, &lc->s, sizeof c) ? SCI_EDGE_SAME
                                                                               : SCI_EDGE_CHANGED;
    }
    lc->stable = lc->effect == SCI_EDGE_SAME;
    lc->last_in = *in;
    return true;
}

bool sci_lc_bin_ready(const sci_lc_t *lc) { return bin_ready(&lc->s); }
bool sci_lc_bout_valid(const sci_lc_t *lc) { return bout_kind(&lc->s) != SCI_BO_NONE; }

uint16_t sci_lc_bout_sym(const sci_lc_t *lc)
{
    const sci_lc_state_t *s = &lc->s;
    unsigned i = s->bo_kind != SCI_BO_NONE ? s->bo_idx : 0u, kind = bout_kind(s);
    if (kind == SCI_BO_NONE)
        return 0;
    if (kind == SCI_BO_FAIL && s->bo_kind == SCI_BO_NONE)
        return s->node_id; /* a FAIL_REPORT about to start: its targetId, the node */
    return bout_word(lc, s, kind, i);
}

bool sci_lc_bout_last(const sci_lc_t *lc)
{
    const sci_lc_state_t *s = &lc->s;
    unsigned kind = bout_kind(s);
    if (kind == SCI_BO_NONE)
        return false;
    unsigned i = s->bo_kind != SCI_BO_NONE ? s->bo_idx : 0u;
    return ((i + 1u) & 63u) == (bout_len(lc, s, kind) & 63u);
}

/* The BRT port of the B-link head packet's target: looked up while it waits, latched when its
 * symbol 0 moves; 0 for a FAIL_REPORT (D11). */
uint8_t sci_lc_bout_port(const sci_lc_t *lc)
{
    const sci_lc_state_t *s = &lc->s;
    if (s->bo_kind != SCI_BO_NONE)
        return s->bo_port;
    if (bout_kind(s) != SCI_BO_RXQ)
        return 0;
    return (uint8_t)brt_of(lc, lc->ram->st.rxq[s->rx_head].sym[0]);
}

uint64_t sci_lc_debug(const sci_lc_t *lc)
{
    const sci_lc_state_t *s = &lc->s;
    return (uint64_t)(s->parse & 0xFu) | (uint64_t)(s->byp_n & 0x3Fu) << 4 | rxq_shown(s) << 10 |
           (uint64_t)(s->sq_n & 0xFu) << 14 | (uint64_t)ab_in_use(s) << 18 |
           (uint64_t)s->ring_up << 22 | (uint64_t)originating(s) << 23 |
           (uint64_t)(s->clean & 0x7Fu) << 24 | (uint64_t)s->crc << 32;
}

uint64_t sci_lc_reg_read(const sci_lc_t *lc, uint8_t addr)
{
    const sci_lc_state_t *s = &lc->s;
    switch (addr) {
    case SCI_REG_CTRL: return ctrl_pack(s);
    case SCI_REG_STATUS:
        return (uint64_t)s->ring_up | (uint64_t)s->sd_q << 1 | (uint64_t)!s->enable << 2 |
               (uint64_t)s->irq << 3 | (uint64_t)ab_in_use(s) << 4 |
               (uint64_t)(s->sq_n & 0xFu) << 8 | rxq_shown(s) << 12;
    case SCI_REG_COUNTS:
        return (uint64_t)s->n_crc | (uint64_t)s->n_scrub << 16 | (uint64_t)s->n_busy << 32 |
               (uint64_t)s->n_fail << 48;
    case SCI_REG_TADDR: return s->taddr;
    case SCI_REG_LRT: return lrt_take(lc, taddr_index(lc, s->taddr));
    case SCI_REG_BRT: return lc->ram->brt[taddr_index(lc, s->taddr)];
    case SCI_REG_DBG: return sci_lc_debug(lc);
    default: return 0;
    }
}
