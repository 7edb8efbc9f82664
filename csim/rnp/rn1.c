/*
 * rn1.c - C reference model of the RN1 router (see rn1.h for the contract).
 *
 * One rn1_step is one rising edge, split as the RTL splits _d/_q: every
 * forward port is evaluated from the current registers and the inputs into a
 * next-state record (rn1_eval_t plus a fresh rn1_t), and the record is
 * committed at the end.  Ports interact only through the allocation of
 * backward ports, so they are evaluated in the rotating service order of
 * rn1.md section 5 and a port sees what the ports served before it took.
 *
 * Backward channel (rn1.md section 7): the bc
 * inputs are looked at only while backchan is 1 (choice bias, drop requests,
 * blocked collapse); the bc output registers (bc_q) are computed every cycle
 * and gated by backchan on the way out.
 */
#include "rn1.h"

#include <string.h>

/* What the ports of one cycle produce for the shared registers. */
typedef struct rn1_eval {
    uint8_t busy;            /* alloc during this cycle | outputs taken so far this cycle */
    uint8_t freed;           /* backward ports whose closing word is on a live input now */
    unsigned invalid;        /* live inputs carrying an invalid control word now */
    uint8_t bc;              /* bc inputs looked at now (choice bias, drop requests):
                       * in->bwd_bc with backchan 1, 0 with backchan 0 */
    uint8_t pulse;           /* forward ports whose bc is 1 next cycle: drop or collapse */
    uint16_t bwd[RN1_PORTS]; /* next b<j> output registers: the OR of the words of the ports
                              * that drive b<j> (one, but two after an upset: rn1.md 14) */
} rn1_eval_t;

/* States whose bq input's bc is a drop request in the cycle after: armed
 * during cycle u means the port was in one of them during u-1 (rn1.md), so
 * the first FORWARD cycle, when the routing word is still on its way
 * downstream and the bc input still carries the busy hint, is not armed. */
#define RN1_ARMING \
    ((1u << RN1_S_FORWARD) | (1u << RN1_S_STATUS) | (1u << RN1_S_REVERSE) | (1u << RN1_S_HOLD))

/* ---- pure helpers ------------------------------------------------------ */

uint16_t rn1_lfsr_step(uint16_t s)
{
    unsigned lsb = s & 1u;
    s >>= 1;
    if (lsb)
        s ^= 0xB400u;
    return s;
}

uint16_t rn1_seed_eff(uint16_t seed)
{
    /* An all-zero Galois LFSR never leaves zero, so zero means the default. */
    return seed ? seed : (uint16_t)RN1_SEED_DEFAULT;
}

bool rn1_is_invalid(uint16_t w)
{
    if (w & RN1_C)
        return false;
    w &= 0xFFu;
    return !(w == RN1_IDLE || w == RN1_TURN || w == RN1_HOLD || w == RN1_DROP);
}

uint16_t rn1_status_word(unsigned disp, unsigned count)
{
    return (uint16_t)(RN1_C | (disp & 3u) << 6 | (count & 63u));
}

uint16_t rn1_checksum_word(unsigned xsum) { return (uint16_t)(RN1_C | (xsum & 0xFFu)); }

uint32_t rn1_port_debug(const rn1_port_t *p)
{
    return (uint32_t)(p->state & 0xFu) | (uint32_t)(p->bq & 7u) << 4 |
           (uint32_t)(p->disp & 3u) << 8 | (uint32_t)(p->armed & 1u) << RN1_DBG_ARMED_BIT |
           (uint32_t)(p->count & 63u) << 16 | (uint32_t)p->xsum << 24;
}

uint64_t rn1_cfg_pack(const rn1_t *m)
{
    return (uint64_t)m->swallow << RN1_CFG_SWALLOW_LSB |
           (uint64_t)m->disable << RN1_CFG_DISABLE_LSB | (uint64_t)m->seed << RN1_CFG_SEED_LSB |
           (uint64_t)m->dual << RN1_CFG_MODE_BIT | (uint64_t)m->backchan << RN1_CFG_BACKCHAN_BIT;
}

static void rn1_cfg_unpack(rn1_t *m, uint64_t v)
{
    m->swallow = (uint8_t)(v >> RN1_CFG_SWALLOW_LSB);
    m->disable = (uint8_t)(v >> RN1_CFG_DISABLE_LSB);
    m->seed = (uint16_t)(v >> RN1_CFG_SEED_LSB);
    m->dual = (v >> RN1_CFG_MODE_BIT) & 1u;
    m->backchan = (v >> RN1_CFG_BACKCHAN_BIT) & 1u;
}

static void rn1_cfg_defaults(rn1_t *m)
{
    m->swallow = 0;
    m->disable = 0;
    m->seed = RN1_SEED_DEFAULT;
    m->dual = false;
    m->backchan = false;
}

rn1_choice_t rn1_choose_bc(bool dual, uint8_t disable, uint8_t busy, unsigned p, unsigned dir,
                           uint16_t lfsr, uint8_t bias)
{
    rn1_choice_t ch = {false, 0, RN1_DISP_BLOCKED};
    unsigned taken = (unsigned)(disable | busy);
    dir &= 3u;
    p &= 7u;
    if (dual) {
        /* f0..f3 reach b0..b3, f4..f7 reach b4..b7: one output per direction. */
        unsigned j = (p & 4u) | dir;
        if (!(taken >> j & 1u)) {
            ch.routed = true;
            ch.bq = (uint8_t)j;
            ch.disp = RN1_DISP_FIRST;
        } else if (disable >> j & 1u) {
            ch.disp = RN1_DISP_DISABLED;
        }
        return ch;
    }
    unsigned even = 2u * dir;
    unsigned pair = taken >> even & 3u; /* bit 0: even busy, bit 1: odd busy */
    unsigned j;
    if (pair == 3u) {
        if ((disable >> even & 3u) == 3u)
            ch.disp = RN1_DISP_DISABLED;
        return ch;
    }
    if (pair == 0u) {
        /* Both free. A lone bc=1 says that output's downstream router is
         * busy: take the other (bias 01 -> odd, 10 -> even). Otherwise
         * lfsr bit p, 1 = odd. (dual mode has no second output to bias to.) */
        unsigned hint = bias >> even & 3u;
        if (hint == 1u || hint == 2u)
            j = even + (hint & 1u);
        else
            j = even + (lfsr >> p & 1u);
    } else
        j = pair == 1u ? even + 1u : even;
    ch.routed = true;
    ch.bq = (uint8_t)j;
    ch.disp = (uint8_t)(RN1_DISP_FIRST | (j & 1u));
    return ch;
}

/* ---- per-port evaluation ----------------------------------------------- */

static void rn1_count(rn1_port_t *np, uint16_t w)
{
    np->count = (uint8_t)((np->count + 1u) & 63u);
    np->xsum ^= (uint8_t)w;
}

/* A routing word w on the live input of port p in this cycle: decide. */
static void rn1_route(const rn1_t *m, unsigned p, uint16_t w, rn1_eval_t *ev, rn1_port_t *np)
{
    rn1_choice_t ch =
        rn1_choose_bc(m->dual, m->disable, ev->busy, p, (w >> 6) & 3u, m->lfsr, ev->bc);
    np->bq = ch.bq;
    np->disp = ch.disp;
    if (ch.routed) {
        ev->busy |= (uint8_t)(1u << ch.bq);
        ev->bwd[ch.bq] |= w; /* the routing word leaves in the next cycle */
        np->state = RN1_S_FORWARD;
    } else if (m->backchan) {
        /* Blocked collapses from the head: drop upstream at once instead
         * of waiting for the source's TURN. */
        ev->pulse |= (uint8_t)(1u << p);
        np->state = RN1_S_DISCARD;
    } else {
        np->state = RN1_S_BLOCKED;
    }
}

/* IDLE: a c=1 word opens a connection; c=0 words keep the port IDLE. */
static void rn1_eval_idle(const rn1_t *m, unsigned p, uint16_t w, rn1_eval_t *ev, rn1_port_t *np)
{
    if (!(w & RN1_C))
        return;
    np->count = 0;
    np->xsum = 0;
    rn1_count(np, w);
    if (m->swallow >> p & 1u)
        np->state = RN1_S_SWALLOW; /* bq and disp wait for the decision */
    else
        rn1_route(m, p, w, ev, np);
}

/* TURN in BLOCKED or SWALLOW: STATUS, CHECKSUM, DROP back to the source. */
static void rn1_turn_blocked(rn1_port_t *np, uint16_t *nout)
{
    *nout = rn1_status_word(np->disp, np->count);
    np->state = RN1_S_STATUS;
}

/* SWALLOW and BLOCKED share everything but what a c=1 word does. */
static void rn1_eval_waiting(const rn1_t *m, unsigned p, uint16_t w, rn1_eval_t *ev, rn1_port_t *np,
                             uint16_t *nout)
{
    if (w & RN1_C) {
        rn1_count(np, w);
        if (np->state == RN1_S_SWALLOW)
            rn1_route(m, p, w, ev, np);
        return;
    }
    if (w == RN1_HOLD)
        return;
    if (w == RN1_TURN) {
        if (np->state == RN1_S_SWALLOW) {
            /* No routing word yet: the connection counts as blocked (00);
             * bq follows rn1.md decision 4 as for a blocked decision. */
            np->bq = 0;
            np->disp = RN1_DISP_BLOCKED;
        }
        rn1_turn_blocked(np, nout);
        return;
    }
    np->state = RN1_S_IDLE; /* DROP, IDLE or an invalid word */
}

/* FORWARD: in is live and goes to bq; the bq input is ignored. */
static void rn1_eval_forward(uint16_t w, rn1_eval_t *ev, rn1_port_t *np, uint16_t *nout)
{
    if (w & RN1_C) {
        rn1_count(np, w);
        ev->bwd[np->bq] |= w;
    } else if (w == RN1_HOLD) {
        ev->bwd[np->bq] |= w;
    } else if (w == RN1_TURN) {
        ev->bwd[np->bq] |= w;
        *nout = rn1_status_word(np->disp, np->count);
        np->state = RN1_S_STATUS;
    } else {
        /* IDLE passes on as IDLE; DROP and invalid words leave as DROP. */
        ev->bwd[np->bq] |= w == RN1_IDLE ? RN1_IDLE : RN1_DROP;
        ev->freed |= (uint8_t)(1u << np->bq);
        np->state = RN1_S_IDLE;
    }
}

/* REVERSE: the bq input is live and goes to out; in is ignored. */
static void rn1_eval_reverse(uint16_t w, rn1_eval_t *ev, rn1_port_t *np, uint16_t *nout)
{
    if ((w & RN1_C) || w == RN1_HOLD) {
        *nout = w;
    } else if (w == RN1_TURN) {
        *nout = w;
        ev->bwd[np->bq] |= RN1_HOLD;
        np->state = RN1_S_HOLD;
    } else {
        *nout = w == RN1_IDLE ? RN1_IDLE : RN1_DROP;
        ev->freed |= (uint8_t)(1u << np->bq);
        np->state = RN1_S_IDLE;
    }
}

/* DISCARD: in is live; everything is discarded (nothing counted) until
 * the source closes the connection or turns it. */
static void rn1_eval_discard(uint16_t w, rn1_port_t *np, uint16_t *nout)
{
    if ((w & RN1_C) || w == RN1_HOLD)
        return;
    if (w == RN1_TURN) {
        /* The connection is gone downstream: answer the TURN with DROP. */
        np->state = RN1_S_DROP;
        *nout = RN1_DROP;
        return;
    }
    np->state = RN1_S_IDLE; /* DROP, IDLE or an invalid word */
}

/* A drop request on the bc input of bq (armed port, backchan 1): bq is freed
 * now and carries IDLE next cycle (ev->bwd[bq] is left IDLE), the drop goes
 * one hop upstream on our bc, and whatever the live input carries is
 * ignored.  A turned connection (STATUS, REVERSE) tells the source with
 * DROP; an unturned one (FORWARD, HOLD) discards until the source closes. */
static void rn1_backward_drop(unsigned p, rn1_eval_t *ev, rn1_port_t *np, uint16_t *nout)
{
    ev->freed |= (uint8_t)(1u << np->bq);
    ev->pulse |= (uint8_t)(1u << p);
    if (np->state == RN1_S_STATUS || np->state == RN1_S_REVERSE) {
        *nout = RN1_DROP;
        np->state = RN1_S_IDLE;
    } else {
        np->state = RN1_S_DISCARD;
    }
}

/* Port p for one cycle: next state in *np, next f<p> output in *nout. */
static void rn1_eval_port(const rn1_t *m, unsigned p, const rn1_in_t *in, rn1_eval_t *ev,
                          rn1_port_t *np, uint16_t *nout)
{
    const rn1_port_t *cp = &m->port[p];
    uint16_t w = in->fwd[p] & RN1_WORD_MASK;
    *np = *cp;
    *nout = RN1_IDLE;
    np->armed = (uint8_t)(RN1_ARMING >> cp->state & 1u);
    /* armed is also 1 in states that hold no bq (IDLE after a close,
     * CHECKSUM of a blocked connection, DISCARD): only the arming states
     * themselves take a drop request. */
    if ((ev->bc >> cp->bq & 1u) && cp->armed && (RN1_ARMING >> cp->state & 1u)) {
        rn1_backward_drop(p, ev, np, nout);
        return;
    }
    switch (cp->state) {
    case RN1_S_IDLE: /* in live */
        ev->invalid += rn1_is_invalid(w);
        rn1_eval_idle(m, p, w, ev, np);
        break;
    case RN1_S_SWALLOW: /* in live, waiting for the routing word */
    case RN1_S_BLOCKED: /* in live, c=1 words counted and discarded */
        ev->invalid += rn1_is_invalid(w);
        rn1_eval_waiting(m, p, w, ev, np, nout);
        break;
    case RN1_S_FORWARD: /* in live, to bq */
        ev->invalid += rn1_is_invalid(w);
        rn1_eval_forward(w, ev, np, nout);
        break;
    case RN1_S_STATUS: /* STATUS on out now, CHECKSUM next; inputs ignored */
        *nout = rn1_checksum_word(cp->xsum);
        /* disp 1x: routed, so the bq input goes live; 0x: blocked path. */
        np->state = (cp->disp & 2u) ? RN1_S_REVERSE : RN1_S_CHECKSUM;
        break;
    case RN1_S_CHECKSUM: /* blocked only: CHECKSUM on out now, DROP next */
        *nout = RN1_DROP;
        np->state = RN1_S_DROP;
        break;
    case RN1_S_REVERSE: /* bq input live, to out */
        w = in->bwd[cp->bq] & RN1_WORD_MASK;
        ev->invalid += rn1_is_invalid(w);
        rn1_eval_reverse(w, ev, np, nout);
        break;
    case RN1_S_HOLD: /* HOLD on bq now and again next; inputs ignored */
        ev->bwd[cp->bq] |= RN1_HOLD;
        np->state = RN1_S_FORWARD;
        break;
    case RN1_S_DISCARD: /* in live, discarded */
        ev->invalid += rn1_is_invalid(w);
        rn1_eval_discard(w, np, nout);
        break;
    case RN1_S_DROP: /* DROP on out now (blocked or DISCARD TURN); IDLE next */
    default: /* unreachable: recover to IDLE */ np->state = RN1_S_IDLE; break;
    }
}

/* ---- clock edge -------------------------------------------------------- */

/* Fewer than two bits set. */
static bool rn1_few(unsigned x) { return (x & (x - 1u)) == 0; }

/* fwd_bc_q for the next cycle (rn1.md "Busy hint"): a port IDLE next cycle
 * raises the hint when fewer than two backward ports of the router (of its
 * half in dual mode) are free after this cycle's grants and frees, under the
 * disable and mode in force this cycle; the one-cycle drop and collapse
 * pulses add to it.  Computed whatever backchan is; rn1_fwd_bc_out gates. */
static uint8_t rn1_bc_next(const rn1_t *m, const rn1_t *n, uint8_t pulse)
{
    unsigned free = ~(unsigned)(n->alloc | m->disable) & 0xFFu;
    unsigned few, idle = 0;
    if (m->dual)
        few = (rn1_few(free & 0x0Fu) ? 0x0Fu : 0u) | (rn1_few(free & 0xF0u) ? 0xF0u : 0u);
    else
        few = rn1_few(free) ? 0xFFu : 0u;
    for (unsigned p = 0; p < RN1_PORTS; p++)
        idle |= (unsigned)(n->port[p].state == RN1_S_IDLE) << p;
    return (uint8_t)((few & idle) | pulse);
}

/* Merge the strobed bytes of a CFG write into the configuration. */
static void rn1_cfg_write(rn1_t *m, uint64_t wdata, uint8_t wstrb)
{
    uint64_t mask = 0;
    for (unsigned k = 0; k < 8u; k++)
        if (wstrb >> k & 1u)
            mask |= (uint64_t)0xFFu << (8u * k);
    uint64_t v = (rn1_cfg_pack(m) & ~mask) | (wdata & mask);
    rn1_cfg_unpack(m, v & RN1_CFG_MASK);
}

static bool rn1_writes_cfg(const rn1_in_t *in)
{
    return in->reg_we && in->reg_waddr == RN1_REG_CFG;
}

/* A reset edge: datapath cleared; configuration written or defaulted. */
static void rn1_reset_edge(rn1_t *m, const rn1_in_t *in)
{
    rn1_t n;
    memset(&n, 0, sizeof n);
    if (in->reg_we) {
        /* A write at a reset edge keeps every unwritten configuration bit,
         * so configuration written during reset survives into cycle 0. */
        n.swallow = m->swallow;
        n.disable = m->disable;
        n.seed = m->seed;
        n.dual = m->dual;
        n.backchan = m->backchan;
        if (rn1_writes_cfg(in))
            rn1_cfg_write(&n, in->reg_wdata, in->reg_wstrb);
    } else {
        rn1_cfg_defaults(&n);
    }
    n.lfsr = rn1_seed_eff(n.seed);
    *m = n;
}

void rn1_init(rn1_t *m)
{
    rn1_in_t in;
    memset(&in, 0, sizeof in);
    memset(m, 0, sizeof *m);
    rn1_reset_edge(m, &in);
}

void rn1_step(rn1_t *m, const rn1_in_t *in)
{
    if (!in->rst_n) {
        rn1_reset_edge(m, in);
        return;
    }
    rn1_t n = *m; /* configuration carries over unless written */
    rn1_eval_t ev;
    memset(&ev, 0, sizeof ev);
    ev.busy = m->alloc;
    if (m->backchan) /* bc inputs are looked at only while backchan is 1 */
        ev.bc = in->bwd_bc;
    /* Rotating service order: port (t mod 8) decides first. */
    for (unsigned k = 0; k < RN1_PORTS; k++) {
        unsigned p = (m->rot + k) & 7u;
        rn1_eval_port(m, p, in, &ev, &n.port[p], &n.fwd_out[p]);
    }
    memcpy(n.bwd_out, ev.bwd, sizeof n.bwd_out);
    /* A port freed this cycle was still busy for this cycle's decisions.
     * A port granted this cycle stays allocated even if another connection
     * frees it in the same cycle (only after an upset can one: rn1.md 14). */
    n.alloc = (uint8_t)((m->alloc & ~ev.freed) | (ev.busy & ~m->alloc));
    unsigned e = m->errors + ev.invalid;
    n.errors = (uint16_t)(e > 0xFFFFu ? 0xFFFFu : e);
    n.rot = (uint8_t)((m->rot + 1u) & 7u);
    n.lfsr = rn1_lfsr_step(m->lfsr);
    n.bc_q = rn1_bc_next(m, &n, ev.pulse); /* before n's config is written */
    if (rn1_writes_cfg(in)) {
        rn1_cfg_write(&n, in->reg_wdata, in->reg_wstrb);
        if (in->reg_wstrb & 0x0Cu) /* a seed byte written: reload */
            n.lfsr = rn1_seed_eff(n.seed);
    }
    *m = n;
}

/* ---- outputs ----------------------------------------------------------- */

uint16_t rn1_fwd_out(const rn1_t *m, unsigned i) { return i < RN1_PORTS ? m->fwd_out[i] : 0; }

uint16_t rn1_bwd_out(const rn1_t *m, unsigned j) { return j < RN1_PORTS ? m->bwd_out[j] : 0; }

uint8_t rn1_fwd_bc_out(const rn1_t *m)
{
    /* fwd_bc_o = fwd_bc_q & {8{backchan}}, backchan of the current cycle. */
    return m->backchan ? m->bc_q : 0;
}

uint64_t rn1_reg_read(const rn1_t *m, uint8_t addr)
{
    switch (addr) {
    case RN1_REG_CFG: return rn1_cfg_pack(m);
    case RN1_REG_ERRORS: return m->errors;
    case RN1_REG_ALLOC: return m->alloc;
    case RN1_REG_LFSR: return m->lfsr;
    case RN1_REG_ID: return RN1_ID_VALUE;
    default:
        if (addr >= RN1_REG_PORT0 && addr < RN1_REG_PORT0 + RN1_PORTS)
            return rn1_port_debug(&m->port[addr - RN1_REG_PORT0]);
        return 0;
    }
}

void rn1_debug(const rn1_t *m, uint32_t dbg[RN1_DBG_WORDS])
{
    dbg[0] = m->errors;
    dbg[1] = m->alloc;
    dbg[2] = m->lfsr;
    for (unsigned p = 0; p < RN1_PORTS; p++)
        dbg[3 + p] = rn1_port_debug(&m->port[p]);
}

/* ---- upsets (rtl/rn1.md section 14) ------------------------------------------------------ */

int rn1_upset(rn1_t *m, unsigned e, unsigned b)
{
    if (e >= RN1_UPSET_N || b >= 16u)
        return -1;
    switch (e) {
    case RN1_UPSET_SWALLOW: m->swallow ^= (uint8_t)(1u << b); return 0;
    case RN1_UPSET_DISABLE: m->disable ^= (uint8_t)(1u << b); return 0;
    case RN1_UPSET_SEED: m->seed ^= (uint16_t)(1u << b); return 0;
    case RN1_UPSET_MODE: m->dual = !m->dual; return 0;
    case RN1_UPSET_BACKCHAN: m->backchan = !m->backchan; return 0;
    case RN1_UPSET_ERRORS: m->errors ^= (uint16_t)(1u << b); return 0;
    case RN1_UPSET_ALLOC: m->alloc ^= (uint8_t)(1u << b); return 0;
    case RN1_UPSET_LFSR: m->lfsr ^= (uint16_t)(1u << b); return 0;
    case RN1_UPSET_ROT: m->rot ^= (uint8_t)(1u << b); return 0;
    default: break;
    }
    if (e >= RN1_UPSET_BOUT0) {
        m->bwd_out[e - RN1_UPSET_BOUT0] ^= (uint16_t)(1u << b);
        return 0;
    }
    unsigned p = (e - RN1_UPSET_PORT0) / RN1_UPSET_NPORT;
    rn1_port_t *q = &m->port[p];
    switch ((e - RN1_UPSET_PORT0) % RN1_UPSET_NPORT) {
    case RN1_UPSET_P_STATE: q->state ^= (uint8_t)(1u << b); break;
    case RN1_UPSET_P_BQ: q->bq ^= (uint8_t)(1u << b); break;
    case RN1_UPSET_P_DISP: q->disp ^= (uint8_t)(1u << b); break;
    case RN1_UPSET_P_ARMED: q->armed ^= 1u; break;
    case RN1_UPSET_P_COUNT: q->count ^= (uint8_t)(1u << b); break;
    case RN1_UPSET_P_XOR: q->xsum ^= (uint8_t)(1u << b); break;
    case RN1_UPSET_P_OUT: m->fwd_out[p] ^= (uint16_t)(1u << b); break;
    default: m->bc_q ^= (uint8_t)(1u << p); break;
    }
    return 0;
}
