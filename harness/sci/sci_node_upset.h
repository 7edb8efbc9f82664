// sci_node_upset.h — an upset of a Verilated rtl/sci_node.v: the member of an LC (x: gen_lc[0],
// y: gen_lc[1]) or of the PSB that an element of the node's upset map names (rtl/sci_node.md
// section 8; sci_dev.h, sci_node_entry), its bit flipped. C++, for the shim of the C harness
// (sci_node_rtl.cpp) and the SystemC units (harness/sc), whose models have the same members under
// other root classes: templates over the generated root class. The caller then settles the
// model (rtl/rn1.md section 14 says why).
#ifndef FTSIM_SCI_NODE_UPSET_H
#define FTSIM_SCI_NODE_UPSET_H

extern "C" {
#include "dev.h"
#include "sci_dev.h"
#include "sci_node.h"
}
#include "sci_lc_upset.h"

namespace sci_node_flips
{
SCI_LC_FLIP(lc0_flip, sci_node__DOT__gen_lc__BRA__0__KET____DOT__u_lc__DOT__)
SCI_LC_FLIP(lc1_flip, sci_node__DOT__gen_lc__BRA__1__KET____DOT__u_lc__DOT__)

// The PSB's element e (csim/sci/sci_node.h enum sci_psb_elem) of a node with P2s and NLC: the
// member of rtl/sci_psb.v it names, bit b of entry i flipped. ASEL exists only with P2s, the
// failover registers only with P2s and two LCs (elsewhere no map lists them).
#define PSB(x) r->sci_node__DOT__u_psb__DOT__##x
template <bool P2S, unsigned NLC, class R> void psb_flip(R *r, unsigned e, unsigned i, unsigned b)
{
    switch (e) {
    case SCI_PE_NODE: sci_flip(PSB(cfg_q), b); break;
    case SCI_PE_TIMEOUT: sci_flip(PSB(cfg_q), 32 + b); break;
    case SCI_PE_TADDR: sci_flip(PSB(taddr_q), b); break;
    case SCI_PE_BRT: sci_flip(PSB(brt_mem)[i], b); break;
    case SCI_PE_DISC: sci_flip(PSB(disc_q), b); break;
    case SCI_PE_ARMED: sci_flip(PSB(rsr_arm_q), 0); break;
    case SCI_PE_TMR: sci_flip(PSB(rsr_tmr_q), b); break;
    case SCI_PE_RTID: sci_flip(PSB(rsr_tid_q), b); break;
    case SCI_PE_RTGT: sci_flip(PSB(rsr_tgt_q), b); break;
    case SCI_PE_RLC: sci_flip(PSB(rsr_lc_q), b); break;
    case SCI_PE_OWN: sci_flip(PSB(own_q), b); break;
    case SCI_PE_DPORT: sci_flip(PSB(dport_q), b); break;
    case SCI_PE_BCNT: sci_flip(PSB(bcnt_q), b); break;
    case SCI_PE_SFHEAD: sci_flip(PSB(sf_head_q), b); break;
    case SCI_PE_SFTAIL: sci_flip(PSB(sf_tail_q), b); break;
    case SCI_PE_SFCNT: sci_flip(PSB(sf_cnt_q), b); break;
    case SCI_PE_SFLEN: sci_flip(PSB(sf_len_q), i * 6 + b); break;
    case SCI_PE_SFFILL: sci_flip(PSB(sf_fill_q), 0); break;
    case SCI_PE_SFWIDX: sci_flip(PSB(sf_widx_q), b); break;
    case SCI_PE_SFMEM: sci_flip(PSB(sf_mem)[i], b); break;
    case SCI_PE_RFHEAD: sci_flip(PSB(rf_head_q), b); break;
    case SCI_PE_RFTAIL: sci_flip(PSB(rf_tail_q), b); break;
    case SCI_PE_RFCNT: sci_flip(PSB(rf_cnt_q), b); break;
    case SCI_PE_RFLEN: sci_flip(PSB(rf_len_q), i * 6 + b); break;
    case SCI_PE_RFMEM: sci_flip(PSB(rf_mem)[i], b); break;
    case SCI_PE_HOIDX: sci_flip(PSB(ho_idx_q), b); break;
    case SCI_PE_RBKIND: sci_flip(PSB(rb_q), i * 98 + 96 + b); break;
    case SCI_PE_RB: sci_flip(PSB(rb_q), (i / 6) * 98 + (5 - i % 6) * 16 + b); break;
    case SCI_PE_RBHEAD: sci_flip(PSB(rb_head_q), 0); break;
    case SCI_PE_RBTAIL: sci_flip(PSB(rb_tail_q), 0); break;
    case SCI_PE_RBCNT: sci_flip(PSB(rb_cnt_q), b); break;
    case SCI_PE_RXTYPE: sci_flip(PSB(rx_type_q), b); break;
    case SCI_PE_RXSRC: sci_flip(PSB(rx_src_q), b); break;
    case SCI_PE_RXTID: sci_flip(PSB(rx_tid_q), b); break;
    case SCI_PE_RXLC: sci_flip(PSB(rx_lc_q), b); break;
    default:
        if constexpr (P2S) {
            if (e == SCI_PE_ASEL)
                sci_flip(PSB(gen_asel__DOT__asel_mem)[i], 0);
        }
        if constexpr (P2S && NLC == 2) {
            switch (e) {
            case SCI_PE_FOEN: sci_flip(PSB(cfg_q), 16); break;
            case SCI_PE_XW: sci_flip(PSB(cfg_q), 17); break;
            case SCI_PE_FOVALID: sci_flip(PSB(focol_q), 0); break;
            case SCI_PE_FOCOL: sci_flip(PSB(focol_q), 8 + b); break;
            case SCI_PE_NTGT: sci_flip(PSB(ntgt_q), b); break;
            case SCI_PE_YDOWN: sci_flip(PSB(ydown_q), 0); break;
            case SCI_PE_YSEEN: sci_flip(PSB(yseen_q), 0); break;
            case SCI_PE_NTOWED: sci_flip(PSB(nt_owed_q), 0); break;
            default: break;
            }
        }
        break;
    }
}
#undef PSB


} // namespace sci_node_flips

// Upset s of a node with P2s and NLC LCs, flipped in root r.
template <bool P2S, unsigned NLC, class R> void sci_node_flip(R *r, const dev_upset_bit_t *s)
{
    unsigned k, elem;
    sci_node_entry(NLC, s->entry, &k, &elem);
    if (k == 0)
        sci_node_flips::lc0_flip(r, elem, s->index, s->bit);
    else if (k < NLC) {
        if constexpr (NLC == 2)
            sci_node_flips::lc1_flip(r, elem, s->index, s->bit);
    } else
        sci_node_flips::psb_flip<P2S, NLC>(r, elem, s->index, s->bit);
}

#endif
