// sci_lc_upset.h — an upset of the Verilated rtl/sci_lc.v: the register or memory member an
// element of the LC's upset map (csim/sci/sci_lc.h, enum sci_lc_elem; rtl/sci_lc.md section 8)
// names, its bit flipped. C++, for the shims of the controller (sci_rtl.cpp) and of the node
// (sci_node_rtl.cpp), whose models hold the controller under other names: SCI_LC_FLIP defines
// a flip function for one member prefix (Verilator's flattened instance path), a template over
// the generated root class. The shim then settles the model (rtl/rn1.md section 14 says why).
#ifndef FTSIM_SCI_LC_UPSET_H
#define FTSIM_SCI_LC_UPSET_H

#include <cstddef>
#include <cstdint>

#include "verilated.h"

extern "C" {
#include "sci_lc.h"
}

template <class T> inline void sci_flip(T &x, unsigned b)
{
    x = static_cast<T>(x ^ (static_cast<uint64_t>(1) << b));
}
template <std::size_t N> inline void sci_flip(VlWide<N> &w, unsigned b)
{
    w[b / 32u] ^= 1u << (b % 32u);
}

// NAME(root, element, index, bit) for the controller whose members start with P.
#define SCI_LC_FLIP(NAME, P)                                                \
    template <class R> void NAME(R *r, unsigned e, unsigned i, unsigned b)  \
    {                                                                       \
        switch (e) {                                                        \
        case SCI_E_NODE: sci_flip(r->P##cfg_q, b); break;                   \
        case SCI_E_ENABLE: sci_flip(r->P##cfg_q, 16); break;                \
        case SCI_E_SCRUB: sci_flip(r->P##cfg_q, 17); break;                 \
        case SCI_E_BUSYLIM: sci_flip(r->P##cfg_q, 24 + b); break;           \
        case SCI_E_RETRYLIM: sci_flip(r->P##cfg_q, 32 + b); break;          \
        case SCI_E_TIMEOUT: sci_flip(r->P##cfg_q, 48 + b); break;           \
        case SCI_E_TADDR: sci_flip(r->P##taddr_q, b); break;                \
        case SCI_E_LRT: sci_flip(r->P##lrt_mem[i], 0); break;               \
        case SCI_E_BRT: sci_flip(r->P##brt_mem[i], b); break;               \
        case SCI_E_NCRC: sci_flip(r->P##cnt_crc_q, b); break;               \
        case SCI_E_NSCRUB: sci_flip(r->P##cnt_scrub_q, b); break;           \
        case SCI_E_NBUSY: sci_flip(r->P##cnt_busy_q, b); break;             \
        case SCI_E_NFAIL: sci_flip(r->P##cnt_fail_q, b); break;             \
        case SCI_E_IRQ: sci_flip(r->P##irq_q, 0); break;                    \
        case SCI_E_RINGUP: sci_flip(r->P##ring_up_q, 0); break;             \
        case SCI_E_CABLE: sci_flip(r->P##sd_in_q, 0); break;                \
        case SCI_E_PARSER: sci_flip(r->P##ps_q, b); break;                  \
        case SCI_E_PIPE:                                                    \
            if (i == 0)                                                     \
                sci_flip(r->P##p0_q, b);                                    \
            else if (i == 1)                                                \
                sci_flip(r->P##p1_q, b);                                    \
            else if (i == 2)                                                \
                sci_flip(r->P##p2_q, b);                                    \
            else                                                            \
                sci_flip(r->P##p3_q, b);                                    \
            break;                                                          \
        case SCI_E_PIDX: sci_flip(r->P##idx_q, b); break;                   \
        case SCI_E_PCRC: sci_flip(r->P##crc_q, b); break;                   \
        case SCI_E_PANS: sci_flip(r->P##pk_ans_q, b); break;                \
        case SCI_E_PSRC: sci_flip(r->P##pk_src_q, b); break;                \
        case SCI_E_PTID: sci_flip(r->P##pk_tid_q, b); break;                \
        case SCI_E_PTYPE: sci_flip(r->P##pk_type_q, b); break;              \
        case SCI_E_PSLOT: sci_flip(r->P##pk_slot_q, b); break;              \
        case SCI_E_PRESV: sci_flip(r->P##resv_q, 0); break;                 \
        case SCI_E_RXHEAD: sci_flip(r->P##rq_head_q, b); break;             \
        case SCI_E_RXTAIL: sci_flip(r->P##rq_tail_q, b); break;             \
        case SCI_E_RXCNT: sci_flip(r->P##rq_cnt_q, b); break;               \
        case SCI_E_RXLEN: sci_flip(r->P##rq_len_q, i * 6 + b); break;       \
        case SCI_E_RXMEM: sci_flip(r->P##rq_mem[i], b); break;              \
        case SCI_E_POOLST: sci_flip(r->P##sl_q, i * 42 + 40 + b); break;    \
        case SCI_E_POOLLEN: sci_flip(r->P##sl_q, i * 42 + 34 + b); break;   \
        case SCI_E_POOLBUSY: sci_flip(r->P##sl_q, i * 42 + 26 + b); break;  \
        case SCI_E_POOLRETRY: sci_flip(r->P##sl_q, i * 42 + 18 + b); break; \
        case SCI_E_POOLTMR: sci_flip(r->P##sl_q, i * 42 + 2 + b); break;    \
        case SCI_E_POOLRUN: sci_flip(r->P##sl_q, i * 42 + 1); break;        \
        case SCI_E_POOLRTX: sci_flip(r->P##sl_q, i * 42); break;            \
        case SCI_E_POOLTGT: sci_flip(r->P##sl_tgt_q, i * 16 + b); break;    \
        case SCI_E_POOLSRC: sci_flip(r->P##sl_src_q, i * 16 + b); break;    \
        case SCI_E_POOLTID: sci_flip(r->P##sl_tid_q, i * 16 + b); break;    \
        case SCI_E_POOLMEM: sci_flip(r->P##pm_mem[i], b); break;            \
        case SCI_E_SQ: sci_flip(r->P##sq_q, i * 4 + b); break;              \
        case SCI_E_SQHEAD: sci_flip(r->P##sq_head_q, b); break;             \
        case SCI_E_SQTAIL: sci_flip(r->P##sq_tail_q, b); break;             \
        case SCI_E_SQCNT: sci_flip(r->P##sq_cnt_q, b); break;               \
        case SCI_E_BIFILL: sci_flip(r->P##bi_fill_q, 0); break;             \
        case SCI_E_BISLOT: sci_flip(r->P##bi_slot_q, b); break;             \
        case SCI_E_BIIDX: sci_flip(r->P##bi_idx_q, b); break;               \
        case SCI_E_EQ: sci_flip(r->P##eq_q, i * 40 + b); break;             \
        case SCI_E_EQHEAD: sci_flip(r->P##eq_head_q, b); break;             \
        case SCI_E_EQTAIL: sci_flip(r->P##eq_tail_q, b); break;             \
        case SCI_E_EQCNT: sci_flip(r->P##eq_cnt_q, b); break;               \
        case SCI_E_BYPMEM: sci_flip(r->P##bf_mem[i], b); break;             \
        case SCI_E_BYPHEAD: sci_flip(r->P##bf_head_q, b); break;            \
        case SCI_E_BYPTAIL: sci_flip(r->P##bf_tail_q, b); break;            \
        case SCI_E_BYPCNT: sci_flip(r->P##bf_cnt_q, b); break;              \
        case SCI_E_LOUT: sci_flip(r->P##lout_q, b); break;                  \
        case SCI_E_IDLEDUE: sci_flip(r->P##need_idle_q, 0); break;          \
        case SCI_E_INSKIND: sci_flip(r->P##ins_kind_q, b); break;           \
        case SCI_E_INSIDX: sci_flip(r->P##ins_idx_q, b); break;             \
        case SCI_E_INSLEN: sci_flip(r->P##ins_len_q, b); break;             \
        case SCI_E_INSSLOT: sci_flip(r->P##ins_slot_q, b); break;           \
        case SCI_E_INSTYPE: sci_flip(r->P##ins_e_q, 16 + b); break;         \
        case SCI_E_INSTID: sci_flip(r->P##ins_e_q, b); break;               \
        case SCI_E_INSCRC: sci_flip(r->P##ocrc_q, b); break;                \
        case SCI_E_BOKIND: sci_flip(r->P##bo_kind_q, b); break;             \
        case SCI_E_BOIDX: sci_flip(r->P##bo_idx_q, b); break;               \
        case SCI_E_BOLEN: sci_flip(r->P##bo_len_q, b); break;               \
        case SCI_E_BOREP: sci_flip(r->P##fr_q, (7 - i) * 16 + b); break;    \
        case SCI_E_BOCRC: sci_flip(r->P##bcrc_q, b); break;                 \
        case SCI_E_BOPORT: sci_flip(r->P##bo_port_q, b); break;             \
        case SCI_E_FAIL: sci_flip(r->P##fail_q, 0); break;                  \
        case SCI_E_FAILRSN: sci_flip(r->P##fail_rsn_q, b); break;           \
        case SCI_E_SDLOW: sci_flip(r->P##sd0_q, b); break;                  \
        case SCI_E_SDHIGH: sci_flip(r->P##sd1_q, b); break;                 \
        case SCI_E_CLEAN: sci_flip(r->P##since_q, b); break;                \
        default: break;                                                     \
        }                                                                   \
    }

#endif
