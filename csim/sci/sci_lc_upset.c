/*
 * sci_lc_upset.c - the SCI link controller's upset map (rtl/sci_lc.md section 8): a flip of any
 * element of its state (sci_lc_upset) and which entries of an element hold a live value
 * (sci_lc_live).
 */
#include "sci_lc_state.h"

/* ---- upsets (rtl/sci_lc.md section 8) ----------------------------------- */

/* Bit b of an answer in the echo queue or being inserted: {type, target, tid}, 40 bits. */
static void echo_flip(sci_echo_t *x, unsigned b)
{
    if (b < 16u)
        x->tid ^= (uint16_t)(1u << b);
    else if (b < 32u)
        x->target ^= (uint16_t)(1u << (b - 16u));
    else
        x->type ^= (uint16_t)(1u << (b - 32u));
}

/* A slot's state as the RTL's code: 0 free, 1 filling, 2 queued, 3 active. */
static unsigned slot_code(const sci_lc_state_t *s, unsigned i)
{
    return (s->m_active >> i & 1u) ? 3u : (s->m_queued >> i & 1u) ? 2u : (s->m_fill >> i & 1u);
}

void sci_lc_upset(sci_lc_t *lc, unsigned e, unsigned i, unsigned b)
{
    sci_lc_state_t *s = &lc->s;
    sci_lc_store_t *st = &lc->ram->st;
    uint32_t m = 1u << (b & 31u);
    bool store = false;
    switch (e) {
    case SCI_E_NODE: s->node_id ^= (uint16_t)m; break;
    case SCI_E_ENABLE: s->enable = !s->enable; break;
    case SCI_E_SCRUB: s->scrub = !s->scrub; break;
    case SCI_E_BUSYLIM: s->busy_limit ^= (uint8_t)m; break;
    case SCI_E_RETRYLIM: s->retry_limit ^= (uint8_t)m; break;
    case SCI_E_TIMEOUT: s->echo_timeout ^= (uint16_t)m; break;
    case SCI_E_TADDR: s->taddr ^= (uint16_t)m; break;
    case SCI_E_LRT: lc->ram->lrt[i / 8u] ^= (uint8_t)(1u << i % 8u); break;
    case SCI_E_BRT: lc->ram->brt[i] ^= (uint8_t)m; break;
    case SCI_E_NCRC: s->n_crc ^= (uint16_t)m; break;
    case SCI_E_NSCRUB: s->n_scrub ^= (uint16_t)m; break;
    case SCI_E_NBUSY: s->n_busy ^= (uint16_t)m; break;
    case SCI_E_NFAIL: s->n_fail ^= (uint16_t)m; break;
    case SCI_E_IRQ: s->irq = !s->irq; break;
    case SCI_E_RINGUP: s->ring_up = !s->ring_up; break;
    case SCI_E_CABLE: s->sd_q = !s->sd_q; break;
    case SCI_E_PARSER: s->parse ^= (uint8_t)m; break;
    case SCI_E_PIPE: s->pipe[i] ^= m; break;
    case SCI_E_PIDX: s->idx ^= (uint8_t)m; break;
    case SCI_E_PCRC: s->crc ^= (uint16_t)m; break;
    case SCI_E_PANS: s->ans ^= (uint8_t)m; break;
    case SCI_E_PSRC: s->p_src ^= (uint16_t)m; break;
    case SCI_E_PTID: s->p_tid ^= (uint16_t)m; break;
    case SCI_E_PTYPE: s->p_type ^= (uint8_t)m; break;
    case SCI_E_PSLOT: s->p_slot ^= (uint8_t)m; break;
    case SCI_E_PRESV: s->resv = !s->resv; break;
    case SCI_E_RXHEAD: s->rx_head ^= (uint8_t)m; break;
    case SCI_E_RXTAIL: s->rx_tail ^= (uint8_t)m; break;
    case SCI_E_RXCNT: s->rx_n ^= (uint8_t)m; break;
    case SCI_E_RXLEN: st->rxq[i].len ^= (uint8_t)m, store = true; break;
    case SCI_E_RXMEM:
        st->rxq[i / SCI_RX_SYMS].sym[i % SCI_RX_SYMS] ^= (uint16_t)m, store = true;
        break;
    case SCI_E_POOLST: slot_state(s, (int)i, slot_code(s, i) ^ m); break;
    case SCI_E_POOLLEN: s->len[i] ^= (uint8_t)m; break;
    case SCI_E_POOLBUSY: s->busy[i] ^= (uint8_t)m; break;
    case SCI_E_POOLRETRY: s->retry[i] ^= (uint8_t)m; break;
    case SCI_E_POOLTMR: s->timer[i] ^= (uint16_t)m; break;
    case SCI_E_POOLRUN: s->m_timer ^= (uint16_t)(1u << i); break;
    case SCI_E_POOLRTX: s->m_rtx ^= (uint16_t)(1u << i); break;
    case SCI_E_POOLTGT: st->sl_tgt[i] ^= (uint16_t)m, store = true; break;
    case SCI_E_POOLSRC: st->sl_src[i] ^= (uint16_t)m, store = true; break;
    case SCI_E_POOLTID: st->sl_tid[i] ^= (uint16_t)m, store = true; break;
    case SCI_E_POOLMEM:
        st->slot[i / SCI_SLOT_SYMS][i % SCI_SLOT_SYMS] ^= (uint16_t)m, store = true;
        break;
    case SCI_E_SQ: s->sq[i] ^= (uint8_t)m; break;
    case SCI_E_SQHEAD: s->sq_head ^= (uint8_t)m; break;
    case SCI_E_SQTAIL: s->sq_tail ^= (uint8_t)m; break;
    case SCI_E_SQCNT: s->sq_n ^= (uint8_t)m; break;
    case SCI_E_BIFILL: s->bi_fill = !s->bi_fill; break;
    case SCI_E_BISLOT: s->bi_slot ^= (uint8_t)m; break;
    case SCI_E_BIIDX: s->bi_idx ^= (uint8_t)m; break;
    case SCI_E_EQ: echo_flip(&st->echoq[i], b), store = true; break;
    case SCI_E_EQHEAD: s->eq_head ^= (uint8_t)m; break;
    case SCI_E_EQTAIL: s->eq_tail ^= (uint8_t)m; break;
    case SCI_E_EQCNT: s->eq_n ^= (uint8_t)m; break;
    case SCI_E_BYPMEM: st->byp[i] ^= m, store = true; break;
    case SCI_E_BYPHEAD: s->byp_head ^= (uint8_t)m; break;
    case SCI_E_BYPTAIL: s->byp_tail ^= (uint8_t)m; break;
    case SCI_E_BYPCNT: s->byp_n ^= (uint8_t)m; break;
    case SCI_E_LOUT:
        if (b == 16u)
            s->out_flag = !s->out_flag;
        else
            s->out_sym ^= (uint16_t)m;
        break;
    case SCI_E_IDLEDUE: s->need_idle = !s->need_idle; break;
    case SCI_E_INSKIND: s->ins_kind ^= (uint8_t)m; break;
    case SCI_E_INSIDX: s->ins_idx ^= (uint8_t)m; break;
    case SCI_E_INSLEN: s->ins_len ^= (uint8_t)m; break;
    case SCI_E_INSSLOT: s->ins_slot ^= (uint8_t)m; break;
    case SCI_E_INSTYPE: s->ins_echo.type ^= (uint16_t)m; break;
    case SCI_E_INSTID: s->ins_echo.tid ^= (uint16_t)m; break;
    case SCI_E_INSCRC: s->ocrc ^= (uint16_t)m; break;
    case SCI_E_BOKIND: s->bo_kind ^= (uint8_t)m; break;
    case SCI_E_BOIDX: s->bo_idx ^= (uint8_t)m; break;
    case SCI_E_BOLEN: s->bo_len ^= (uint8_t)m; break;
    case SCI_E_BOREP: st->fr[i] ^= (uint16_t)m, store = true; break;
    case SCI_E_BOCRC: s->bcrc ^= (uint16_t)m; break;
    case SCI_E_BOPORT: s->bo_port ^= (uint8_t)m; break;
    case SCI_E_FAIL: s->fail = !s->fail; break;
    case SCI_E_FAILRSN: s->fail_reason ^= (uint8_t)m; break;
    case SCI_E_SDLOW: s->sd_low ^= (uint8_t)m; break;
    case SCI_E_SDHIGH: s->sd_high ^= (uint8_t)m; break;
    case SCI_E_CLEAN: s->clean ^= (uint8_t)m; break;
    default: return;
    }
    /* What the model knew of its last edges no longer holds. */
    lc->stable = false;
    lc->fresh = false;
    lc->effect = SCI_EDGE_CHANGED;
    if (store)
        lc->store_clean = false;
}

/* ---- live entries (sci_lc_live) --------------------------------------------------------- */

typedef struct live {
    uint32_t *idx;
    unsigned max, n;
} live_t;

static void live_add(live_t *l, uint32_t i)
{
    if (l->n < l->max)
        l->idx[l->n] = i;
    l->n++;
}

/* The entries of a ring-buffer queue from head, n of them, of size `size`. */
static void live_queue(live_t *l, unsigned head, unsigned n, unsigned size)
{
    for (unsigned k = 0; k < n && k < size; k++)
        live_add(l, (head + k) % size);
}

/* The slots of a mask. */
static void live_slots(live_t *l, unsigned m)
{
    for (; m; m &= m - 1u)
        live_add(l, (uint32_t)lowest(m));
}

int sci_lc_live(const sci_lc_t *lc, unsigned e, unsigned b, uint32_t *idx, unsigned max)
{
    const sci_lc_state_t *s = &lc->s;
    const sci_lc_store_t *st = &lc->ram->st;
    live_t l = {.idx = idx, .max = max};
    bool in_pkt = (s->pipe[3] & SCI_FLAG) && s->idx != 0;
    unsigned head_sent = s->bo_kind == SCI_BO_RXQ ? s->bo_idx : 0u;
    switch (e) {
    case SCI_E_PIPE: /* a symbol, or the flag and ring-down bits of an idle */
        for (unsigned k = 0; k < SCI_PIPE; k++)
            if ((s->pipe[k] & SCI_FLAG) || b >= 15u || (s->pipe[k] & SCI_RDI_BIT))
                live_add(&l, k);
        break;
    case SCI_E_PIDX:
    case SCI_E_PCRC:
        if (in_pkt)
            live_add(&l, 0);
        break;
    case SCI_E_INSIDX:
    case SCI_E_INSLEN:
    case SCI_E_INSSLOT:
        if (s->ins_kind != SCI_INS_NONE)
            live_add(&l, 0);
        break;
    case SCI_E_BOLEN:
    case SCI_E_BOPORT:
        if (s->bo_kind != SCI_BO_NONE)
            live_add(&l, 0);
        break;
    case SCI_E_PANS:
        if (in_pkt && (s->parse == SCI_P_TAKE || s->parse == SCI_P_DISCARD))
            live_add(&l, 0);
        break;
    case SCI_E_PSRC:
    case SCI_E_PTID:
        if (in_pkt && (s->parse == SCI_P_TAKE || s->parse == SCI_P_DISCARD) && s->ans != ANS_NONE)
            live_add(&l, 0);
        break;
    case SCI_E_PTYPE: /* an echo's type decides one thing: busy or not (ACCEPT, ERROR free) */
        if (in_pkt && s->parse == SCI_P_ECHO &&
            (s->p_type == SCI_T_ECHO_BUSY || (s->p_type ^ 1u << b) == SCI_T_ECHO_BUSY))
            live_add(&l, 0);
        break;
    case SCI_E_PSLOT:
        if (in_pkt && s->parse == SCI_P_ECHO)
            live_add(&l, 0);
        break;
    case SCI_E_RXLEN: /* read when a packet starts on the B-link: not the head once it has */
        for (unsigned k = s->bo_kind == SCI_BO_RXQ ? 1u : 0u; k < s->rx_n && k < SCI_RXQ; k++)
            live_add(&l, (s->rx_head + k) % SCI_RXQ);
        break;
    case SCI_E_RXMEM:
        for (unsigned k = 0; k < s->rx_n && k < SCI_RXQ; k++) {
            unsigned q = (s->rx_head + k) % SCI_RXQ;
            for (unsigned i = k ? 0u : head_sent; i < st->rxq[q].len; i++)
                live_add(&l, q * SCI_RX_SYMS + i);
        }
        if (s->parse == SCI_P_TAKE) /* the packet being taken, the symbols stored so far */
            for (unsigned i = 0; i < s->idx; i++)
                live_add(&l, s->rx_tail * SCI_RX_SYMS + i);
        break;
    case SCI_E_POOLLEN: live_slots(&l, s->m_queued | s->m_active); break;
    case SCI_E_POOLRETRY: /* read when the echo timer runs out (soon), against the limit */
        for (unsigned m = s->m_active & s->m_timer; m; m &= m - 1u) {
            unsigned i = (unsigned)lowest(m), r = s->retry[i];
            if (s->timer[i] < 150u && ((r ^ 1u << b) >= s->retry_limit) != (r >= s->retry_limit))
                live_add(&l, i);
        }
        break;
    case SCI_E_EQTAIL: /* read when an answer is queued, at the end of the packet in stage 3 */
        if (in_pkt && (s->parse == SCI_P_TAKE || s->parse == SCI_P_DISCARD) && s->ans != ANS_NONE)
            live_add(&l, 0);
        break;
    case SCI_E_IDLEDUE: /* the idle it forces (or not) delays (or lets through) what is due */
        if ((s->pipe[3] & SCI_FLAG) || s->byp_n || s->ins_kind != SCI_INS_NONE || s->eq_n ||
            s->sq_n || (s->m_active & s->m_rtx))
            live_add(&l, 0);
        break;
    case SCI_E_POOLBUSY: /* read at a busy echo: likeliest where one came before */
        for (unsigned m = s->m_active; m; m &= m - 1u)
            if (s->busy[lowest(m)])
                live_add(&l, (uint32_t)lowest(m));
        break;
    case SCI_E_POOLTGT:
    case SCI_E_POOLSRC:
    case SCI_E_POOLTID: live_slots(&l, s->m_active | s->m_queued); break;
    case SCI_E_POOLTMR: live_slots(&l, s->m_active & s->m_timer); break;
    case SCI_E_POOLRUN:
    case SCI_E_POOLRTX: live_slots(&l, s->m_active); break; /* an active buffer's */
    case SCI_E_SQTAIL:                                      /* read when a B-link packet ends */
    case SCI_E_BIFILL:
        if (s->bi_fill)
            live_add(&l, 0);
        break;
    case SCI_E_SQHEAD:
        if (s->sq_n)
            live_add(&l, 0);
        break;
    case SCI_E_RXHEAD:
        if (s->rx_n)
            live_add(&l, 0);
        break;
    case SCI_E_RXTAIL: /* read by a packet being taken */
        if (s->parse == SCI_P_TAKE || ((s->pipe[3] & SCI_FLAG) && s->idx == 0))
            live_add(&l, 0);
        break;
    case SCI_E_EQHEAD:
        if (s->eq_n)
            live_add(&l, 0);
        break;
    case SCI_E_BYPHEAD:
        if (s->byp_n)
            live_add(&l, 0);
        break;
    case SCI_E_BYPTAIL: /* read when a bypassed symbol must wait */
        if ((s->pipe[3] & SCI_FLAG) && s->idx != 0 && s->parse == SCI_P_BYPASS &&
            (s->byp_n || s->ins_kind != SCI_INS_NONE || s->need_idle))
            live_add(&l, 0);
        break;
    case SCI_E_POOLMEM:
        for (unsigned m = s->m_queued | s->m_active | s->m_fill; m; m &= m - 1u) {
            unsigned i = (unsigned)lowest(m);
            unsigned n = (s->m_fill >> i & 1u) ? s->bi_idx : s->len[i];
            for (unsigned k = 0; k < n; k++)
                live_add(&l, i * SCI_SLOT_SYMS + k);
        }
        break;
    case SCI_E_SQ: live_queue(&l, s->sq_head, s->sq_n, SCI_SENDQ); break;
    case SCI_E_BIIDX:
    case SCI_E_BISLOT:
        if (s->bi_fill)
            live_add(&l, 0);
        break;
    case SCI_E_EQ: live_queue(&l, s->eq_head, s->eq_n, SCI_ECHOQ); break;
    case SCI_E_BYPMEM: live_queue(&l, s->byp_head, s->byp_n, SCI_BYP_MEM); break;
    case SCI_E_INSTYPE: /* the command, symbol 1 */
        if (s->ins_kind == SCI_INS_ECHO && s->ins_idx <= 1u)
            live_add(&l, 0);
        break;
    case SCI_E_INSTID: /* symbol 3 */
        if (s->ins_kind == SCI_INS_ECHO && s->ins_idx <= 3u)
            live_add(&l, 0);
        break;
    case SCI_E_INSCRC: /* the running CRC, to symbol 4 */
        if (s->ins_kind == SCI_INS_ECHO && s->ins_idx <= 4u)
            live_add(&l, 0);
        break;
    case SCI_E_BOIDX:
        if (s->bo_kind != SCI_BO_NONE)
            live_add(&l, 0);
        break;
    case SCI_E_BOREP:
        if (s->bo_kind == SCI_BO_FAIL)
            for (unsigned i = s->bo_idx; i < SCI_FAIL_HDR; i++)
                live_add(&l, i);
        break;
    case SCI_E_BOCRC:
        if (s->bo_kind == SCI_BO_FAIL)
            live_add(&l, 0);
        break;
    case SCI_E_FAILRSN:
        if (s->fail)
            live_add(&l, 0);
        break;
    case SCI_E_FAIL: /* a pass fails the buffers in use; ending one leaves them */
        if (s->fail || used(s))
            live_add(&l, 0);
        break;
    case SCI_E_POOLST: /* the codes whose change shows: active (STATUS), queued (its buffer
                        * taken by another packet), filling (to active) */
        live_slots(&l, b == 0 ? (unsigned)(s->m_queued | s->m_active) : used(s));
        break;
    case SCI_E_SDLOW:
        if (s->sd_low || !s->sd_q)
            live_add(&l, 0);
        break;
    case SCI_E_SDHIGH: /* it decides ring up where it is not ahead of the clean count; a flip
                        * up is then masked by that count, a flip down delays ring up */
        if (!s->ring_up && s->sd_q && s->sd_high <= s->clean && s->sd_high <= SCI_RUP_CYCLES &&
            (s->sd_high >> b & 1u))
            live_add(&l, 0);
        break;
    default: return -1;
    }
    return (int)l.n;
}
