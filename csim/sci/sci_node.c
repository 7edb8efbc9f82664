/*
 * sci_node.c - C reference model of an SCI node: PSB + B-link + LCs
 * (see sci_node.h; contract rtl/sci_node.md, LCs csim/sci/sci_lc.c as is).
 *
 * One sci_node_step, all from the current registers:
 *   1. B-link: the owner (the packet under way, or in a free cycle the first
 *      source in priority order LC 0, LC 1, reply buffer, host send FIFO
 *      whose head is valid and whose destination is ready), its symbol, and
 *      whether it moves (source valid and destination ready).
 *   2. the LCs' B-link inputs (bin_* of the destination LC, bout_ready of
 *      the source LC) from 1.
 *   3. the PSB's next state: host FIFO in, B-link owner, port-0 arrival
 *      (receive FIFO, STATUS_READ answer, STATUS_REPLY watch), reply buffer,
 *      remote-read timer, receive FIFO out, register write.  LC STATUS is
 *      sampled here, before any LC steps.
 *   4. every LC steps, then the PSB state is committed.
 * Two phases as in the LC (csim/sci/sci_lc.c): the PSB's registers are copied
 * aside (c below) and every part reads them while it writes the
 * next values into n->s (x below); its FIFOs' packets are written in
 * place, at the tail entry being filled, which no part of the same cycle
 * reads (heads are read while the FIFO holds a packet; the reply buffer
 * takes a new packet only in a slot free at the start of the cycle).
 *
 * Decisions where sci_node.md is silent or ambiguous (D<n>):
 * D1  Reset: a reset edge clears the PSB state and loads CTRL (node id 0,
 *     rsr_timeout 2000) and TADDR 0; BRT and ASEL are kept.  A reset edge
 *     with a register write anywhere in the node is a configuration cycle
 *     of the whole node (sci_node.md section 4): the addressed block
 *     performs the write, and every block keeps its CTRL and TADDR (the
 *     others see a write with no byte enables), so the harness can write
 *     the LCs' and the PSB's configuration in successive reset cycles.
 *     Nothing moves on the B-link, hin or hout at a reset edge.
 * D2  "STATUS_READ for this node" = every STATUS_READ that arrives for
 *     port 0, whatever its source (an LC, a looped-back host packet, ...);
 *     no node-id compare (port 0 is what makes it this node's).
 * D3  Header fields are read from the packet: type = symbol 1 [15:8] (mark
 *     ignored), tid = symbol 3, payload[0] = symbol 4; a field k of a packet
 *     of len <= k symbols is 0.  (So a PROBE without payload names LC
 *     "its CRC" and normally goes to discard, D4.)
 * D4  PROBE port = 1 + payload[0] when payload[0] <= 5, else 7.  A port
 *     1 + k with k >= NLC, ports 3..6 and port 7 discard.  PSB DBG [5:3]
 *     shows the port as routed (e.g. 2 on an NLC = 1 node), not 7.
 * D5  Routing of a PSB packet (address select, BRT, PROBE) is evaluated in
 *     the free cycle it is picked (its symbol 0 moves in that cycle) from the
 *     tables as they are in that cycle, and the port is then held for the
 *     packet (DBG [5:3]).  A table write at that edge counts from the next
 *     packet.  An LC packet's port is its bout_port in the cycle it is picked.
 * D6  P2S: the PSB index is (targetId bit 14 after the address select ?
 *     8192 : 0) | targetId[12:0] always (the PSB has no CTRL bit like the
 *     LC's [18]).  LC3: index targetId[7:0], no address select; ASEL writes
 *     are ignored and ASEL reads 0.
 * D7  Address select changes only the symbol 0 sent on the B-link (bit 14
 *     := ASEL[targetId[12:0]]); the stored packet and its CRC are unchanged.
 *     Host packets and STATUS_REPLYs get it; a timeout reply does not (it is
 *     "routed to port 0 directly": its targetId is the node id, bit 14 0).
 * D8  STATUS_REPLY: target = the read's sourceId symbol as received (16
 *     bits), source = CTRL node id in the cycle the read's last symbol moves,
 *     lc = the read's payload[0] (16 bits), status = LC lc's STATUS[15:0]
 *     from the registers of that cycle (0 if lc >= NLC).
 * D9  Remote-read timer: any host STATUS_READ (whatever its port) arms it at
 *     the edge its symbol 0 moves: timer := rsr_timeout, armed :=
 *     (rsr_timeout != 0) (so a read started with rsr_timeout 0 disarms an
 *     armed one), and tid, targetId[12:0], payload[0] are remembered.  The
 *     timer counts down at every later edge; it runs out at the edge it
 *     goes 1 -> 0, i.e. the edge ending cycle t0 + rsr_timeout (t0: the
 *     cycle symbol 0 moved); the timeout reply is in the reply buffer from
 *     t0 + rsr_timeout + 1.  A later CTRL write does not change an armed
 *     timer.  DBG [27:12] shows the cycles left (rsr_timeout in t0 + 1, 1 in
 *     t0 + rsr_timeout, 0 when disarmed or expired).
 * D10 Timeout reply: {node id (CTRL at the edge it enters the buffer),
 *     0x1200, the read's targetId as the host wrote it (16 bits), the read's
 *     tid, 0x8000 | lc, 0, CRC}.  Expired with the reply buffer full: STATUS[10] stays 1 and the
 *     timer 0 until it enters; a matching STATUS_REPLY or a new host read in
 *     the meantime cancels it (disarm / re-arm).
 * D11 Same-edge priorities: a host read arming beats the old read's run-out
 *     (the old read is forgotten); a matching STATUS_REPLY whose tid moves
 *     at the run-out edge disarms (no timeout reply).  The disarm happens at
 *     the edge the STATUS_REPLY's tid (symbol 3) moves on the B-link to port
 *     0, on tid alone, and only while armed (expired-waiting included).
 *     (Settled against the RTL in lockstep: sci_node.md section 2.)
 * D12 Reply buffer: "full" is judged on its count at the start of the
 *     cycle (a slot freed at an edge is reused from the next cycle); when a
 *     STATUS_READ's reply and a timeout reply want in at the same edge, the
 *     read's reply goes first (the read would be dropped, the timeout can
 *     wait).
 * D13 A packet counts in a FIFO (STATUS fields, hin_ready, readiness of
 *     port 0, reply buffer full) from the edge its last symbol is written to
 *     the edge its last symbol leaves.  hin_ready = send FIFO count < 8
 *     (which stays 1 through a packet being written).  Port 0 is ready when
 *     the receive FIFO holds < 8 packets, for a STATUS_READ too (it is
 *     written like any packet and dropped at its last symbol).
 * D14 STATUS.discarded counts every discarded packet (LC packets with
 *     bout_port 7 or a missing LC too), at the edge its symbol 0 moves,
 *     saturating at 0xFFFF.
 * D15 PSB DBG: while the B-link is free, [5:3] and [11:6] are 0; [11:6] is
 *     the number of symbols moved before the current cycle.
 * D16 The PSB checks no CRC (host packets, STATUS_READs, looped-back
 *     packets); everything goes on as received, symbol 0 with the bit 14 it
 *     had on the B-link.
 * D17 Register port: 0x00..0x1F LC 0 (low 5 bits), 0x20..0x3F LC 1 (NLC =
 *     2; else writes dropped, reads 0), 0x40..0x7F unmapped, 0x80..0xFF
 *     PSB (unmapped and read-only addresses: writes ignored, reads 0).
 *     CTRL and TADDR merge by byte strobes; BRT and ASEL need strobe bit 0.
 *     TADDR stores [13:0] on both variants; the BRT entry is TADDR[7:0] on
 *     LC3, TADDR[13:0] on P2S; ASEL is TADDR[12:0].
 * D18 A host packet longer than 37 symbols keeps its first 37 (the 37th is
 *     sent with last); a packet of any length >= 1 is carried.
 * D19 Ports of a missing LC (k >= NLC): link flag 0, sym 0, sd 0, irq 0.
 * D20 P2S hardware failover (sci_node.md section 6): only with P2S and two
 *     LCs (elsewhere CTRL[17:16], FOCOL, NTGT read 0, ignore writes, and
 *     STATUS[13:11] is 0); ydown_q resets to 1 and nothing is owed before
 *     LC 1 has been up once; a NOTIFY owed when fo_en clears is dropped;
 *     rule 1 applies to PROBEs (an address select), rule 2 does not; both
 *     LCs down: port 1 -> 2 and 2 -> 1, once; FOCOL and NTGT survive a
 *     configuration cycle like CTRL.
 * D21 Wiring: LC k's bin_valid/bin_sym/bin_last are the owning (or, in a
 *     free cycle, the picked) source's when the packet's port is 1 + k, else
 *     0; LC k's bout_ready is 1 when LC k owns or is picked and its
 *     destination is ready.  A free cycle with no eligible source drives
 *     nothing.  An LC may be its own destination (its BRT says 1 + k).
 * D22 PSB DBG describes the packet under way at the start of the cycle
 *     (registers): in the cycle a packet is picked (its symbol 0 moves) DBG
 *     still reads free; from the next cycle its owner, port and count; in
 *     the cycle after its last symbol free again, also when a back-to-back
 *     packet is picked in that cycle.
 */
#include "sci_node.h"

#include <string.h>

/* ---- helpers ------------------------------------------------------------- */

static uint16_t sat16(uint16_t v) { return v == 0xFFFFu ? v : (uint16_t)(v + 1u); }

/* Field k of a packet (D3). */
static uint16_t field(const sci_node_pkt_t *p, unsigned k) { return k < p->len ? p->sym[k] : 0; }

static unsigned pkt_type(const sci_node_pkt_t *p) { return field(p, 1) >> 8; }

/* Address select (D6, D7). */
static uint16_t asel_apply(const sci_node_t *n, uint16_t t)
{
    if (n->variant != SCI_P2S)
        return t;
    t &= (uint16_t)~SCI_ADDR_SEL;
    return n->asel[t & SCI_ID_MASK] ? (uint16_t)(t | SCI_ADDR_SEL) : t;
}

static unsigned psb_index(const sci_node_t *n, uint16_t t)
{
    if (n->variant == SCI_LC3)
        return t & 0xFFu;
    return ((t & SCI_ADDR_SEL) ? 8192u : 0u) | (t & SCI_ID_MASK);
}

static unsigned taddr_index(const sci_node_t *n, uint16_t taddr)
{
    return n->variant == SCI_LC3 ? (taddr & 0xFFu) : (taddr & 0x3FFFu);
}

/* ---- P2S hardware failover (sci_node.md section 6) ------------------------ */

/* Failover acts (P2S, two LCs, CTRL.fo_en in the registers s). */
static bool fo_on(const sci_node_t *n, const sci_psb_state_t *s)
{
    return n->variant == SCI_P2S && n->nlc == 2u && s->fo_en;
}

static bool fo_active(const sci_node_t *n) { return fo_on(n, &n->s); }

/* LC k is down: its ring is not up, or it is disabled (STATUS[0] 0 or STATUS[2] 1). */
static bool lc_down(const sci_node_t *n, unsigned k) { return sci_lc_down(&n->lc[k]); }

static unsigned id_x(bool xw, uint16_t id) { return xw ? (id & 0x3Fu) : (id & 0xFu); }
static unsigned id_y(bool xw, uint16_t id) { return xw ? (id >> 6 & 0x3Fu) : (id >> 4 & 0xFu); }

/* How the PSB routes a packet it sends (not a direct one): symbol 0 as it goes on the B-link
 * (address select, forced select, redirect) and the port. */
static uint8_t psb_route(const sci_node_t *n, const uint16_t *p, unsigned len, uint16_t *sym0)
{
    const sci_psb_state_t *s = &n->s;
    uint16_t t = asel_apply(n, len > 0 ? p[0] : 0);
    uint16_t s1 = len > 1 ? p[1] : 0;
    bool fo = fo_active(n), probe = (s1 >> 8) == SCI_T_PROBE;
    unsigned ty = id_y(s->xw, t & SCI_ID_MASK), sy = id_y(s->xw, s->node_id);
    if (fo && s->focol_valid && id_x(s->xw, t & SCI_ID_MASK) == s->focol && ty != sy)
        t |= SCI_ADDR_SEL; /* rule 1: the notified neighbour goes Y-first */
    uint8_t port;
    if (probe) {
        uint16_t lc = len > 4 ? p[4] : 0;
        port = (uint8_t)(lc <= 5u ? 1u + lc : 7u); /* D4 */
    } else {
        port = n->brt[psb_index(n, t)];
        if (fo && port == 1u && lc_down(n, 0)) { /* rule 2 */
            port = 2u;
            t = ty != sy ? (uint16_t)(t | SCI_ADDR_SEL) : (uint16_t)(t & ~SCI_ADDR_SEL);
        } else if (fo && port == 2u && lc_down(n, 1)) {
            port = 1u;
            t &= (uint16_t)~SCI_ADDR_SEL;
        }
    }
    if (sym0)
        *sym0 = t;
    return port;
}

static bool port_is_lc(const sci_node_t *n, unsigned port)
{
    return port >= 1u && port - 1u < n->nlc;
}

static bool port_is_discard(const sci_node_t *n, unsigned port)
{
    return port != 0 && !port_is_lc(n, port);
}

static bool dest_ready(const sci_node_t *n, unsigned port)
{
    if (port == 0)
        return n->s.rf_n < SCI_PSB_RECVQ;
    if (port_is_lc(n, port))
        return sci_lc_bin_ready(&n->lc[port - 1u]);
    return true; /* discard */
}

/* What a B-link source offers this cycle. */
typedef struct src_view {
    bool valid;
    uint16_t sym;
    bool last;
    uint8_t port; /* its routing: only used when it is picked */
} src_view_t;

/* A PSB packet as a source: its routing (and its symbol 0 as routed) matter only when it is
 * picked, at pos 0; a packet under way keeps the port it was picked with. */
static void psb_src(const sci_node_t *n, const sci_node_pkt_t *p, bool direct, unsigned pos,
                    src_view_t *o)
{
    o->valid = true;
    o->sym = pos < p->len ? p->sym[pos] : 0;
    if (pos == 0 && !direct)
        o->port = psb_route(n, p->sym, p->len, &o->sym);
    o->last = pos + 1u >= p->len;
}

static void source(const sci_node_t *n, unsigned own, unsigned pos, src_view_t *o)
{
    const sci_psb_state_t *s = &n->s;
    memset(o, 0, sizeof *o);
    switch (own) {
    case SCI_OWN_LC0:
    case SCI_OWN_LC1: {
        unsigned k = own - SCI_OWN_LC0;
        if (k >= n->nlc || !sci_lc_bout_valid(&n->lc[k]))
            return;
        o->valid = true;
        o->sym = sci_lc_bout_sym(&n->lc[k]);
        o->last = sci_lc_bout_last(&n->lc[k]);
        o->port = sci_lc_bout_port(&n->lc[k]);
        return;
    }
    case SCI_OWN_REPLY:
        if (s->rb_n)
            psb_src(n, &n->st.rb[s->rb_head], s->rb_tmo[s->rb_head], pos, o);
        return;
    case SCI_OWN_HOST:
        if (s->sf_n)
            psb_src(n, &n->st.sf[s->sf_head], false, pos, o);
        return;
    default: return;
    }
}

/* ---- registers ----------------------------------------------------------- */

static uint64_t psb_ctrl(const sci_psb_state_t *s)
{
    return (uint64_t)s->node_id | (uint64_t)s->fo_en << SCI_PSB_CTRL_FOEN_BIT |
           (uint64_t)s->xw << SCI_PSB_CTRL_XW_BIT |
           (uint64_t)s->rsr_timeout << SCI_PSB_CTRL_TIMEOUT_LSB;
}

static uint64_t psb_focol(const sci_psb_state_t *s)
{
    return (uint64_t)s->focol_valid | (uint64_t)(s->focol & 0x3Fu) << 8;
}

/* A PSB register write into x; taddr: TADDR in force for the tables.  Returns whether it
 * changed a register or a table entry. */
static bool psb_reg_write(sci_node_t *n, sci_psb_state_t *x, uint16_t taddr,
                          const sci_node_in_t *in)
{
    uint8_t *brt = &n->brt[taddr_index(n, taddr)], *asel = &n->asel[taddr & SCI_ID_MASK];
    uint8_t old_brt = *brt, old_asel = *asel;
    uint64_t old_ctrl = psb_ctrl(x), old_focol = psb_focol(x);
    uint16_t old_ntgt = x->ntgt, old_taddr = x->taddr;
    switch (in->reg_waddr) {
    case SCI_PSB_CTRL: {
        uint64_t v = sci_wstrb_merge(psb_ctrl(x), in->reg_wdata, in->reg_wstrb) & SCI_PSB_CTRL_MASK;
        x->node_id = (uint16_t)(v & SCI_ID_MASK);
        x->rsr_timeout = (uint16_t)(v >> SCI_PSB_CTRL_TIMEOUT_LSB);
        if (n->variant == SCI_P2S && n->nlc == 2u) { /* D20 */
            x->fo_en = v >> SCI_PSB_CTRL_FOEN_BIT & 1u;
            x->xw = v >> SCI_PSB_CTRL_XW_BIT & 1u;
        }
        break;
    }
    case SCI_PSB_FOCOL:
        if (n->variant == SCI_P2S && n->nlc == 2u) {
            uint64_t v = sci_wstrb_merge(psb_focol(x), in->reg_wdata, in->reg_wstrb);
            x->focol_valid = v & 1u;
            x->focol = (uint8_t)(v >> 8 & 0x3Fu);
        }
        break;
    case SCI_PSB_NTGT:
        if (n->variant == SCI_P2S && n->nlc == 2u)
            x->ntgt = (uint16_t)(sci_wstrb_merge(x->ntgt, in->reg_wdata, in->reg_wstrb) & SCI_ID_MASK);
        break;
    case SCI_PSB_TADDR:
        x->taddr = (uint16_t)(sci_wstrb_merge(taddr, in->reg_wdata, in->reg_wstrb) & 0x3FFFu);
        break;
    case SCI_PSB_BRT:
        if (in->reg_wstrb & 1u)
            *brt = (uint8_t)(in->reg_wdata & 7u);
        break;
    case SCI_PSB_ASEL:
        if ((in->reg_wstrb & 1u) && n->variant == SCI_P2S)
            *asel = (uint8_t)(in->reg_wdata & 1u);
        break;
    default: break;
    }
    return *brt != old_brt || *asel != old_asel || psb_ctrl(x) != old_ctrl ||
           psb_focol(x) != old_focol || x->ntgt != old_ntgt || x->taddr != old_taddr;
}

static void psb_reset(const sci_node_t *n, sci_psb_state_t *s)
{
    memset(s, 0, sizeof *s);
    s->rsr_timeout = SCI_PSB_RSR_TIMEOUT_RESET;
    s->ydown_q = n->variant == SCI_P2S && n->nlc == 2u; /* a ring is down after reset */
}

/* ---- reply buffer ------------------------------------------------------- */

/* A packet into the reply buffer: into a slot that was free at the start of the cycle (D12),
 * so not the head read in it. */
static void rb_push(sci_node_t *n, sci_psb_state_t *x, const uint16_t *pkt, unsigned len, bool tmo)
{
    unsigned slot = (x->rb_head + x->rb_n) % SCI_PSB_REPLYQ;
    memcpy(n->st.rb[slot].sym, pkt, len * sizeof pkt[0]);
    n->st.rb[slot].len = (uint8_t)len;
    x->rb_tmo[slot] = tmo;
    x->rb_n++;
}

/* ---- step ---------------------------------------------------------------- */

static bool psb_we(const sci_node_in_t *in) { return in->reg_we && (in->reg_waddr & 0x80u); }

/* The LCs' inputs from the node's: links, register writes, failover rule 3 (the B-link inputs
 * come in step 2). */
static void lc_inputs(const sci_node_t *n, const sci_node_in_t *in, sci_lc_in_t *li)
{
    const sci_psb_state_t *c = &n->s;
    memset(li, 0, SCI_NODE_MAX_LC * sizeof li[0]);
    if (fo_active(n)) { /* rule 3: the X-LC lets its own column pass while the Y-LC is down */
        li[0].fo_byp = lc_down(n, 1);
        li[0].fo_xmask = c->xw ? 0x3Fu : 0x0Fu;
    }
    for (unsigned k = 0; k < n->nlc; k++) {
        li[k].rst_n = in->rst_n;
        li[k].link_flag = in->lin_flag[k];
        li[k].link_sym = in->lin_sym[k];
        li[k].link_sd = in->lin_sd[k];
        if (in->reg_we && (in->reg_waddr & 0xE0u) == SCI_NODE_LC_BASE(k)) {
            li[k].reg_we = true;
            li[k].reg_waddr = (uint8_t)(in->reg_waddr & 0x1Fu);
            li[k].reg_wdata = in->reg_wdata;
            li[k].reg_wstrb = in->reg_wstrb;
        } else if (in->reg_we && !in->rst_n) {
            li[k].reg_we = true; /* D1: a configuration cycle, no byte enables */
            li[k].reg_waddr = (uint8_t)(in->reg_waddr & 0x1Fu);
        }
    }
}

/* A reset edge (D1).  After one, every PSB register but the configuration it keeps holds its
 * reset value (n->fresh), so a configuration cycle from there is its write alone.  Returns
 * whether it changed anything in the node. */
static bool reset_edge(sci_node_t *n, const sci_node_in_t *in, const sci_lc_in_t *li)
{
    bool changed = false;
    for (unsigned k = 0; k < n->nlc; k++)
        if (sci_lc_step(&n->lc[k], &li[k]) && !sci_lc_settled(&n->lc[k]))
            changed = true;
    if (!n->fresh || !in->reg_we) {
        const sci_psb_state_t *old = &n->s;
        sci_psb_state_t x;
        psb_reset(n, &x);
        if (in->reg_we) {
            x.node_id = old->node_id;
            x.rsr_timeout = old->rsr_timeout;
            x.fo_en = old->fo_en;
            x.xw = old->xw;
            x.ntgt = old->ntgt;
            x.focol_valid = old->focol_valid;
            x.focol = old->focol;
            x.taddr = old->taddr;
        }
        if (!sci_same_words(&x, &n->s, sizeof x))
            changed = true;
        memcpy(&n->s, &x, sizeof x);
        n->fresh = true;
    }
    if (!n->store_clean) {
        memset(&n->st, 0, sizeof n->st);
        n->store_clean = true;
        changed = true;
    }
    if (psb_we(in) && psb_reg_write(n, &n->s, n->s.taddr, in))
        changed = true;
    return changed;
}

/* The B-link this cycle (step 1). */
typedef struct blink {
    unsigned own, port, pos; /* owner (SCI_OWN_FREE: none), its port, symbols moved */
    src_view_t sv;           /* what the owner offers */
    bool busy, dready, mv;   /* owned; its destination ready; a symbol moves */
} blink_t;

/* 1. The B-link owner (the packet under way, or in a free cycle the first eligible source),
 * its symbol, and whether it moves. */
static void blink_pick(const sci_node_t *n, blink_t *b)
{
    const sci_psb_state_t *c = &n->s;
    b->own = c->own;
    b->port = c->port;
    b->pos = c->moved;
    if (b->own == SCI_OWN_FREE) {
        memset(&b->sv, 0, sizeof b->sv);
        for (unsigned o = SCI_OWN_LC0; o <= SCI_OWN_HOST; o++) {
            source(n, o, 0, &b->sv);
            if (b->sv.valid && dest_ready(n, b->sv.port)) {
                b->own = o;
                b->port = b->sv.port;
                break;
            }
        }
        if (b->own == SCI_OWN_FREE)
            memset(&b->sv, 0, sizeof b->sv);
        b->pos = 0;
    } else {
        source(n, b->own, b->pos, &b->sv);
    }
    b->busy = b->own != SCI_OWN_FREE;
    b->dready = b->busy && dest_ready(n, b->port);
    b->mv = b->busy && b->sv.valid && b->dready;
}

/* 2. The LCs' B-link inputs (D21). */
static void blink_lc_inputs(const sci_node_t *n, const blink_t *b, sci_lc_in_t *li)
{
    for (unsigned k = 0; k < n->nlc; k++) {
        if (b->busy && b->port == k + 1u) {
            li[k].bin_valid = b->sv.valid;
            li[k].bin_sym = b->sv.valid ? b->sv.sym : 0;
            li[k].bin_last = b->sv.valid && b->sv.last;
        }
        li[k].bout_ready = b->own == SCI_OWN_LC0 + k && b->dready;
    }
}

/* What the parts of the PSB's next state (step 3) hand on to each other. */
typedef struct psb_ev {
    const sci_psb_state_t *c; /* the registers as they were */
    unsigned rb_cnt;          /* reply buffer count, from the start of the cycle (D12) */
    bool sf_push, sf_pop, rf_push, rf_pop, rb_pop;
    bool arm;                 /* a host STATUS_READ's symbol 0 moves (D9) */
    bool read_done;           /* a STATUS_READ for port 0 ended: rd */
    bool reply_match;         /* the armed read's STATUS_REPLY tid moves (D11) */
    bool stored;              /* a packet symbol was written in place */
    const sci_node_pkt_t *rd; /* in the receive FIFO's tail, which it does not join */
} psb_ev_t;

/* Host send FIFO in (at its tail, in place). */
static void psb_host_in(sci_node_t *n, const sci_node_in_t *in, sci_psb_state_t *x, psb_ev_t *ev)
{
    const sci_psb_state_t *c = ev->c;
    if (!in->hin_valid || c->sf_n >= SCI_PSB_SENDQ)
        return;
    sci_node_pkt_t *p = &n->st.sf[(c->sf_head + c->sf_n) % SCI_PSB_SENDQ];
    ev->stored = true;
    if (c->sf_fill < SCI_MAX_PKT) {
        p->sym[c->sf_fill] = in->hin_sym;
        x->sf_fill = (uint8_t)(c->sf_fill + 1u);
    }
    if (in->hin_last) {
        p->len = x->sf_fill;
        x->sf_fill = 0;
        ev->sf_push = true;
    }
}

/* The B-link owner moves on; a host STATUS_READ arms the timer. */
static void psb_blink_move(const sci_node_t *n, const blink_t *b, sci_psb_state_t *x, psb_ev_t *ev)
{
    const sci_psb_state_t *c = ev->c;
    if (!b->mv)
        return;
    if (b->pos == 0 && port_is_discard(n, b->port))
        x->discarded = sat16(c->discarded);
    if (b->pos == 0 && b->own == SCI_OWN_HOST &&
        pkt_type(&n->st.sf[c->sf_head]) == SCI_T_STATUS_READ)
        ev->arm = true;
    if (b->sv.last) {
        x->own = SCI_OWN_FREE;
        x->port = 0;
        x->moved = 0;
        ev->sf_pop = b->own == SCI_OWN_HOST;
        ev->rb_pop = b->own == SCI_OWN_REPLY;
    } else {
        x->own = (uint8_t)b->own;
        x->port = (uint8_t)b->port;
        x->moved = (uint8_t)(b->pos >= 63u ? 63u : b->pos + 1u); /* stops at 63 (6 bits) */
    }
}

/* Arrival for port 0: the receive FIFO (at its tail, in place), a STATUS_READ to answer, the
 * STATUS_REPLY watch, failover rule 5. */
static void psb_arrive(sci_node_t *n, const sci_node_in_t *in, const blink_t *b, sci_psb_state_t *x,
                       psb_ev_t *ev)
{
    const sci_psb_state_t *c = ev->c;
    if (!b->mv || b->port != 0)
        return;
    uint16_t sym = b->sv.sym;
    unsigned slot = (c->rf_head + c->rf_n) % SCI_PSB_RECVQ;
    sci_node_pkt_t *p = &n->st.rf[slot];
    ev->stored = true;
    if (c->rf_fill < SCI_MAX_PKT) {
        p->sym[c->rf_fill] = sym;
        x->rf_fill = (uint8_t)(c->rf_fill + 1u);
    }
    /* D11: a STATUS_REPLY disarms the timer when its tid (symbol 3) moves. */
    if (c->rf_fill == 3 && (p->sym[1] >> 8) == SCI_T_STATUS_REPLY && c->rr_armed &&
        sym == c->rr_tid)
        ev->reply_match = true;
    /* Failover rule 5: a Y-ring NOTIFY sets the failed column as its payload[1] moves. */
    if (c->rf_fill == 5 && (p->sym[1] >> 8) == SCI_T_NOTIFY && sym == 0x0001u && fo_on(n, c) &&
        !(psb_we(in) && in->reg_waddr == SCI_PSB_FOCOL)) { /* a write wins */
        x->focol_valid = p->sym[4] & 1u;
        x->focol = (uint8_t)id_x(c->xw, p->sym[2] & SCI_ID_MASK);
    }
    if (b->sv.last) {
        p->len = x->rf_fill;
        x->rf_fill = 0;
        unsigned type = pkt_type(p);
        if (type == SCI_T_STATUS_READ) {
            ev->read_done = true;
            ev->rd = p;
        } else {
            ev->rf_push = true;
        }
    }
}

/* Receive FIFO out to the host. */
static void psb_host_out(const sci_node_t *n, const sci_node_in_t *in, sci_psb_state_t *x,
                         psb_ev_t *ev)
{
    const sci_psb_state_t *c = ev->c;
    if (!c->rf_n || !in->hout_ready)
        return;
    if (c->rf_pos + 1u >= n->st.rf[c->rf_head].len) {
        ev->rf_pop = true;
        x->rf_pos = 0;
    } else {
        x->rf_pos = (uint8_t)(c->rf_pos + 1u);
    }
}

/* FIFO bookkeeping. */
static void psb_fifos(const sci_psb_state_t *c, sci_psb_state_t *x, const psb_ev_t *ev)
{
    if (ev->sf_pop) {
        x->sf_head = (uint8_t)((c->sf_head + 1u) % SCI_PSB_SENDQ);
        x->sf_n--;
    }
    if (ev->sf_push)
        x->sf_n++;
    if (ev->rf_pop) {
        x->rf_head = (uint8_t)((c->rf_head + 1u) % SCI_PSB_RECVQ);
        x->rf_n--;
    }
    if (ev->rf_push)
        x->rf_n++;
    if (ev->rb_pop) {
        x->rb_head = (uint8_t)((c->rb_head + 1u) % SCI_PSB_REPLYQ);
        x->rb_n--;
    }
}

/* STATUS_READ answered (D8, D12). */
static void psb_answer_read(sci_node_t *n, sci_psb_state_t *x, psb_ev_t *ev)
{
    if (!ev->read_done || ev->rb_cnt >= SCI_PSB_REPLYQ)
        return;
    uint16_t pkt[SCI_MAX_PKT];
    uint16_t lc = field(ev->rd, 4);
    uint16_t st = lc < n->nlc ? (uint16_t)sci_lc_reg_read(&n->lc[lc], SCI_REG_STATUS) : 0;
    uint16_t pay[2] = {lc, st};
    unsigned len = sci_packet_build(pkt, field(ev->rd, 2), SCI_T_STATUS_REPLY, ev->c->node_id,
                                    field(ev->rd, 3), pay, 2);
    rb_push(n, x, pkt, len, false);
    ev->stored = true;
    ev->rb_cnt++;
}

/* Remote-read timer (D9..D11). */
static void psb_rr_timer(sci_node_t *n, sci_psb_state_t *x, psb_ev_t *ev)
{
    const sci_psb_state_t *c = ev->c;
    if (ev->arm) {
        const sci_node_pkt_t *h = &n->st.sf[c->sf_head];
        x->rr_armed = c->rsr_timeout != 0;
        x->rr_timer = c->rsr_timeout;
        x->rr_tid = field(h, 3);
        x->rr_target = field(h, 0);       /* as the host wrote it (sci_node.md section 2) */
        x->rr_lc = field(h, 4) & 0x7FFFu; /* its bit 15 is 1 in the reply anyway */
    } else if (c->rr_armed && ev->reply_match) {
        x->rr_armed = false;
        x->rr_timer = 0;
    } else if (c->rr_armed) {
        if (c->rr_timer > 1u) {
            x->rr_timer = (uint16_t)(c->rr_timer - 1u);
        } else {
            x->rr_timer = 0;
            if (ev->rb_cnt < SCI_PSB_REPLYQ) {
                uint16_t pkt[SCI_MAX_PKT];
                uint16_t pay[2] = {(uint16_t)(0x8000u | c->rr_lc), 0};
                unsigned len = sci_packet_build(pkt, c->node_id, SCI_T_STATUS_REPLY, c->rr_target,
                                                c->rr_tid, pay, 2);
                rb_push(n, x, pkt, len, true);
                ev->stored = true;
                ev->rb_cnt++; /* a NOTIFY in the same cycle finds the slot taken */
                x->rr_armed = false;
            }
        }
    }
}

/* Failover rule 4: a NOTIFY on a change of the Y ring, after the replies above. */
static void psb_fo_notify(sci_node_t *n, sci_psb_state_t *x, psb_ev_t *ev)
{
    const sci_psb_state_t *c = ev->c;
    if (n->variant != SCI_P2S || n->nlc != 2u)
        return;
    bool ydown = lc_down(n, 1);
    bool changed = c->yup_seen && ydown != c->ydown_q;
    x->ydown_q = ydown;
    x->yup_seen = c->yup_seen || !ydown;
    x->nt_owed = fo_on(n, c) && (c->nt_owed || changed);
    if (x->nt_owed && ev->rb_cnt < SCI_PSB_REPLYQ) {
        uint16_t pkt[SCI_MAX_PKT];
        /* the Y ring's state at the latest change: ydown now (sci_psb.v keeps no copy) */
        uint16_t pay[2] = {x->ydown_q, 0x0001u};
        unsigned len = sci_packet_build(pkt, c->ntgt, SCI_T_NOTIFY, c->node_id, 0, pay, 2);
        rb_push(n, x, pkt, len, false);
        ev->stored = true;
        ev->rb_cnt++;
        x->nt_owed = false;
    }
}

/* 3. The PSB's next state x (its registers), all from the registers as they were (c: LC
 * STATUS before any LC steps) and the B-link of this cycle.  Returns whether it wrote a packet
 * symbol or a register through the port. */
static bool psb_next(sci_node_t *n, const sci_node_in_t *in, const blink_t *b,
                     const sci_psb_state_t *c, sci_psb_state_t *x)
{
    psb_ev_t ev;
    memset(&ev, 0, sizeof ev);
    ev.c = c;
    ev.rb_cnt = c->rb_n;
    psb_host_in(n, in, x, &ev);
    psb_blink_move(n, b, x, &ev);
    psb_arrive(n, in, b, x, &ev);
    psb_host_out(n, in, x, &ev);
    psb_fifos(c, x, &ev);
    psb_answer_read(n, x, &ev);
    psb_rr_timer(n, x, &ev);
    psb_fo_notify(n, x, &ev);
    if (ev.stored)
        n->store_clean = false;
    /* Register write (tables after every lookup above). */
    bool regs = psb_we(in) && psb_reg_write(n, x, c->taddr, in);
    return ev.stored || regs;
}

/* One edge of the running node: steps 1 to 4, the PSB's registers copied aside into c.
 * Returns whether it certainly changed something (a packet symbol or a register written, the
 * remote-read timer counting, an LC not known to be settled); else compare c. */
/* Steps 1 to 3 have nothing to do but watch the Y ring (failover rule 4): the B-link free with
 * no source offering a packet (so the LCs' B-link inputs are idle: blink_pick would pick
 * nothing), no host symbol coming in, nothing for the host, no remote read armed, no register
 * write for the PSB.  The common case of a node whose LCs only carry the ring's traffic. */
static bool psb_idle(const sci_node_t *n, const sci_node_in_t *in)
{
    const sci_psb_state_t *s = &n->s;
    if (s->own != SCI_OWN_FREE || s->sf_n || s->rb_n || s->rf_n || s->rr_armed || in->hin_valid ||
        psb_we(in))
        return false;
    for (unsigned k = 0; k < n->nlc; k++)
        if (sci_lc_bout_valid(&n->lc[k]))
            return false;
    return true;
}

static bool run_edge(sci_node_t *n, const sci_node_in_t *in, sci_lc_in_t *li, sci_psb_state_t *c)
{
    bool changed;
    memcpy(c, &n->s, sizeof *c);
    if (psb_idle(n, in)) {
        psb_ev_t ev = {.c = c, .rb_cnt = c->rb_n};
        psb_fo_notify(n, &n->s, &ev);
        changed = ev.stored;
        if (ev.stored)
            n->store_clean = false;
    } else {
        blink_t b;
        blink_pick(n, &b);
        blink_lc_inputs(n, &b, li);
        changed = psb_next(n, in, &b, c, &n->s) || c->rr_armed;
    }
    n->fresh = false;
    /* 4. LCs. */
    for (unsigned k = 0; k < n->nlc; k++)
        if (sci_lc_step(&n->lc[k], &li[k]) && !sci_lc_settled(&n->lc[k]))
            changed = true;
    return changed;
}

/* The inputs of two edges are the same (a register write never is). */
static bool same_inputs(const sci_node_in_t *a, const sci_node_in_t *b)
{
    if (a->reg_we || b->reg_we)
        return false;
    for (unsigned k = 0; k < SCI_NODE_MAX_LC; k++)
        if (a->lin_flag[k] != b->lin_flag[k] || a->lin_sym[k] != b->lin_sym[k] ||
            a->lin_sd[k] != b->lin_sd[k])
            return false;
    return a->rst_n == b->rst_n && a->hin_valid == b->hin_valid && a->hin_sym == b->hin_sym &&
           a->hin_last == b->hin_last && a->hout_ready == b->hout_ready;
}

void sci_node_table_load(sci_node_t *n, uint8_t reg, uint16_t taddr, uint64_t value)
{
    if (reg < 0x40u) {
        if ((unsigned)(reg >> 5) < n->nlc)
            sci_lc_table_load(&n->lc[reg >> 5], taddr, (uint8_t)(reg & 0x1Fu), value);
    } else if (reg == SCI_PSB_BRT || reg == SCI_PSB_ASEL) {
        sci_node_in_t in = {.reg_we = true, .reg_waddr = reg, .reg_wdata = value, .reg_wstrb = 1};
        sci_psb_state_t x = n->s;
        psb_reg_write(n, &x, (uint16_t)(taddr & 0x3FFFu), &in);
    }
    n->effect = SCI_EDGE_CHANGED; /* the memo of the last edge no longer holds */
    n->stable = false;
}

bool sci_node_settled(const sci_node_t *n) { return n->effect == SCI_EDGE_SAME; }

bool sci_node_step(sci_node_t *n, const sci_node_in_t *in)
{
    /* The inputs of the last edge, which changed nothing: nor does this one. */
    if (n->stable && same_inputs(&n->last_in, in)) {
        n->effect = SCI_EDGE_SAME;
        return false;
    }
    sci_lc_in_t li[SCI_NODE_MAX_LC];
    lc_inputs(n, in, li);
    if (!in->rst_n) {
        n->effect = reset_edge(n, in, li) ? SCI_EDGE_CHANGED : SCI_EDGE_SAME;
    } else {
        /* Compared, as in the LC, only when the next edge may be this one again. */
        bool again = same_inputs(&n->last_in, in);
        sci_psb_state_t c;
        bool certain = run_edge(n, in, li, &c);
        n->effect = !certain && again && sci_same_words(&c, &n->s, sizeof c) ? SCI_EDGE_SAME
                                                                             : SCI_EDGE_CHANGED;
    }
    n->stable = n->effect == SCI_EDGE_SAME;
    n->last_in = *in;
    return true;
}

/* ---- init, outputs, registers -------------------------------------------- */

void sci_node_init(sci_node_t *n, sci_variant_t v, unsigned nlc)
{
    memset(n, 0, sizeof *n);
    n->variant = v;
    n->nlc = nlc >= 2u ? 2u : 1u;
    for (unsigned k = 0; k < SCI_NODE_MAX_LC; k++)
        sci_lc_init(&n->lc[k], &n->lc_ram[k], v);
    psb_reset(n, &n->s);
    n->fresh = true;
    n->store_clean = true;
}

static uint64_t psb_status(const sci_psb_state_t *s)
{
    return (uint64_t)(s->sf_n & 0xFu) | (uint64_t)(s->rf_n & 0xFu) << 4 |
           (uint64_t)(s->rb_n & 0x3u) << 8 | (uint64_t)s->rr_armed << 10 |
           (uint64_t)s->nt_owed << 11 | (uint64_t)s->ydown_q << 12 | (uint64_t)s->yup_seen << 13 |
           (uint64_t)s->discarded << 16;
}

static uint64_t psb_dbg(const sci_psb_state_t *s)
{
    return (uint64_t)(s->own & 7u) | (uint64_t)(s->port & 7u) << 3 |
           (uint64_t)(s->moved & 0x3Fu) << 6 | (uint64_t)s->rr_timer << 12;
}

uint64_t sci_node_reg_read(const sci_node_t *n, uint8_t addr)
{
    const sci_psb_state_t *s = &n->s;
    if (addr < 0x40u) {
        unsigned k = addr >> 5;
        return k < n->nlc ? sci_lc_reg_read(&n->lc[k], (uint8_t)(addr & 0x1Fu)) : 0;
    }
    switch (addr) {
    case SCI_PSB_CTRL: return psb_ctrl(s);
    case SCI_PSB_STATUS: return psb_status(s);
    case SCI_PSB_TADDR: return s->taddr;
    case SCI_PSB_BRT: return n->brt[taddr_index(n, s->taddr)];
    case SCI_PSB_ASEL: return n->variant == SCI_P2S ? n->asel[s->taddr & SCI_ID_MASK] : 0;
    case SCI_PSB_DBG: return psb_dbg(s);
    case SCI_PSB_FOCOL: return n->variant == SCI_P2S && n->nlc == 2u ? psb_focol(s) : 0;
    case SCI_PSB_NTGT: return n->variant == SCI_P2S && n->nlc == 2u ? s->ntgt : 0;
    default: return 0;
    }
}

unsigned sci_node_debug(const sci_node_t *n, uint64_t *w)
{
    unsigned i = 0;
    for (unsigned k = 0; k < n->nlc; k++) {
        w[i++] = sci_lc_reg_read(&n->lc[k], SCI_REG_STATUS);
        w[i++] = sci_lc_reg_read(&n->lc[k], SCI_REG_COUNTS);
        w[i++] = sci_lc_reg_read(&n->lc[k], SCI_REG_DBG);
    }
    w[i++] = psb_status(&n->s);
    w[i++] = psb_dbg(&n->s);
    return i;
}

/* ---- upsets (rtl/sci_node.md section 8) ----------------------------------------------- */

int sci_node_upset(sci_node_t *n, unsigned k, unsigned e, unsigned i, unsigned b)
{
    sci_psb_state_t *s = &n->s;
    uint32_t m = 1u << (b & 31u);
    if (k < n->nlc) {
        sci_lc_upset(&n->lc[k], e, i, b);
    } else {
        switch (e) {
        case SCI_PE_NODE: s->node_id ^= (uint16_t)m; break;
        case SCI_PE_TIMEOUT: s->rsr_timeout ^= (uint16_t)m; break;
        case SCI_PE_TADDR: s->taddr ^= (uint16_t)m; break;
        case SCI_PE_BRT: n->brt[i] ^= (uint8_t)m; break;
        case SCI_PE_DISC: s->discarded ^= (uint16_t)m; break;
        case SCI_PE_ARMED: s->rr_armed = !s->rr_armed; break;
        case SCI_PE_TMR: s->rr_timer ^= (uint16_t)m; break;
        case SCI_PE_RTID: s->rr_tid ^= (uint16_t)m; break;
        case SCI_PE_RTGT: s->rr_target ^= (uint16_t)m; break;
        case SCI_PE_RLC: s->rr_lc ^= (uint16_t)m; break;
        case SCI_PE_ASEL: n->asel[i] ^= 1u; break;
        case SCI_PE_FOEN: s->fo_en = !s->fo_en; break;
        case SCI_PE_XW: s->xw = !s->xw; break;
        case SCI_PE_FOVALID: s->focol_valid = !s->focol_valid; break;
        case SCI_PE_FOCOL: s->focol ^= (uint8_t)m; break;
        case SCI_PE_NTGT: s->ntgt ^= (uint16_t)m; break;
        case SCI_PE_YDOWN: s->ydown_q = !s->ydown_q; break;
        case SCI_PE_YSEEN: s->yup_seen = !s->yup_seen; break;
        case SCI_PE_NTOWED: s->nt_owed = !s->nt_owed; break;
        default: return -1; /* kept otherwise here: RTL-only */
        }
    }
    /* What the model knew of its last edges no longer holds. */
    n->stable = false;
    n->fresh = false;
    n->effect = SCI_EDGE_CHANGED;
    return 0;
}

int sci_node_live(const sci_node_t *n, unsigned k, unsigned e, unsigned b, uint32_t *idx,
                  unsigned max)
{
    if (k < n->nlc)
        return sci_lc_live(&n->lc[k], e, b, idx, max);
    const sci_psb_state_t *s = &n->s;
    unsigned cnt = 0;
#define LIVE(x)             \
    do {                    \
        if (cnt < max)      \
            idx[cnt] = (x); \
        cnt++;              \
    } while (0)
    switch (e) {
    case SCI_PE_TMR:
    case SCI_PE_RTID:
    case SCI_PE_RTGT:
    case SCI_PE_RLC:
        if (s->rr_armed)
            LIVE(0);
        break;
    case SCI_PE_TIMEOUT: /* read when a host read starts */
        if (s->sf_n)
            LIVE(0);
        break;
    case SCI_PE_OWN:
    case SCI_PE_DPORT:
    case SCI_PE_BCNT:
        if (s->own != SCI_OWN_FREE)
            LIVE(0);
        break;
    case SCI_PE_SFTAIL:
    case SCI_PE_SFWIDX:
        if (s->sf_fill)
            LIVE(0);
        break;
    case SCI_PE_SFLEN:
        for (unsigned q = 0; q < s->sf_n && q < SCI_PSB_SENDQ; q++)
            LIVE((s->sf_head + q) % SCI_PSB_SENDQ);
        break;
    case SCI_PE_SFMEM:
        for (unsigned q = 0; q < s->sf_n && q < SCI_PSB_SENDQ; q++) {
            unsigned f = (s->sf_head + q) % SCI_PSB_SENDQ;
            for (unsigned j = q == 0 && s->own == SCI_OWN_HOST ? s->moved : 0u; j < n->st.sf[f].len;
                 j++)
                if (j || b != 14u || n->variant != SCI_P2S) /* bit 14: the address select's */
                    LIVE(f * 64u + j);
        }
        break;
    case SCI_PE_RFTAIL: /* read while a packet arrives for port 0 */
        if (s->own != SCI_OWN_FREE && s->port == 0)
            LIVE(0);
        break;
    case SCI_PE_RXTYPE: /* decides one thing after symbol 1: a STATUS_READ or not */
        if (s->own != SCI_OWN_FREE && s->port == 0 && s->moved > 1u && s->rf_fill > 1u) {
            unsigned t = n->st.rf[(s->rf_head + s->rf_n) % SCI_PSB_RECVQ].sym[1] >> 8;
            if (t == SCI_T_STATUS_READ || (t ^ 1u << b) == SCI_T_STATUS_READ ||
                t == SCI_T_STATUS_REPLY || (t ^ 1u << b) == SCI_T_STATUS_REPLY)
                LIVE(0);
        }
        break;
    case SCI_PE_RXSRC: /* a STATUS_READ's fields, for its reply */
        if (b == 14u && n->variant == SCI_P2S)
            return -2; /* the reply's targetId bit 14 is the address select's (D7) */
        /* fall through */
    case SCI_PE_RXTID:
    case SCI_PE_RXLC:
        if (s->own != SCI_OWN_FREE && s->port == 0 && s->rf_fill > 1u &&
            (n->st.rf[(s->rf_head + s->rf_n) % SCI_PSB_RECVQ].sym[1] >> 8) == SCI_T_STATUS_READ &&
            s->moved > (e == SCI_PE_RXSRC   ? 2u
                        : e == SCI_PE_RXTID ? 3u
                                            : 4u))
            LIVE(0);
        break;
    case SCI_PE_SFFILL: /* hin_ready is fill or room: it matters with the FIFO full */
        if (s->sf_n >= SCI_PSB_SENDQ)
            LIVE(0);
        break;
    case SCI_PE_RFLEN:
        for (unsigned q = 0; q < s->rf_n && q < SCI_PSB_RECVQ; q++)
            LIVE((s->rf_head + q) % SCI_PSB_RECVQ);
        break;
    case SCI_PE_RFMEM:
        for (unsigned q = 0; q < s->rf_n && q < SCI_PSB_RECVQ; q++) {
            unsigned f = (s->rf_head + q) % SCI_PSB_RECVQ;
            for (unsigned j = q == 0 ? s->rf_pos : 0u; j < n->st.rf[f].len; j++)
                LIVE(f * 64u + j);
        }
        break;
    case SCI_PE_HOIDX:
    case SCI_PE_RFHEAD:
        if (s->rf_n)
            LIVE(0);
        break;
    case SCI_PE_RBKIND: /* bit 1 (notify) is the command, symbol 1; bit 0 (direct) shows where
                         * routing the record would send it elsewhere than as it is to port 0,
                         * until symbol 0 has moved (port and target are then latched) */
        for (unsigned q = 0; q < s->rb_n && q < SCI_PSB_REPLYQ; q++) {
            unsigned r = (s->rb_head + q) % SCI_PSB_REPLYQ;
            const sci_node_pkt_t *p = &n->st.rb[r];
            unsigned moved = q == 0 && s->own == SCI_OWN_REPLY ? s->moved : 0u;
            uint16_t sym0 = 0;
            unsigned port = psb_route(n, p->sym, p->len, &sym0);
            if (b == 1u ? moved < 2u : moved == 0u && (port != 0 || sym0 != field(p, 0)))
                LIVE(r);
        }
        break;
    case SCI_PE_RB: /* the words of the records queued (6 a record: symbols 0, 2..6) not yet
                     * moved */
        for (unsigned q = 0; q < s->rb_n && q < SCI_PSB_REPLYQ; q++) {
            unsigned r = (s->rb_head + q) % SCI_PSB_REPLYQ;
            unsigned moved = q == 0 && s->own == SCI_OWN_REPLY ? s->moved : 0u;
            for (unsigned w = 0; w < 6u; w++)
                if ((w ? w + 1u : 0u) >= moved &&
                    (w || b != 14u || n->variant != SCI_P2S || s->rb_tmo[r])) /* bit 14 routed */
                    LIVE(r * 6u + w);
        }
        break;
    case SCI_PE_RBHEAD:
    case SCI_PE_SFHEAD:
        if (e == SCI_PE_RBHEAD ? s->rb_n != 0 : s->sf_n != 0)
            LIVE(0);
        break;
    default: return -1;
    }
#undef LIVE
    (void)b;
    return (int)cnt;
}
