// sci_node_rtl.cpp — the Verilated rtl/sci_node.v behind the C device interface: its pins, debug
// words and upsets as the traits of the one shim template (harness/core/vl_dev.h), which has
// the timing of dev.h. Four builds of the one module: LC3 or P2S (P2s = 0/1), one or two link
// controllers (NLC = 1/2): Vlc3n1, Vp2sn1, Vlc3n2, Vp2sn2. Port numbering is sci_node_dev's
// (sci_dev.h: sci_node_port()).
#include <cstdio>

#include "Vlc3n1.h"
#include "Vlc3n1__Syms.h"
#include "Vlc3n2.h"
#include "Vlc3n2__Syms.h"
#include "Vp2sn1.h"
#include "Vp2sn1__Syms.h"
#include "Vp2sn2.h"
#include "Vp2sn2__Syms.h"
#include "vl_dev.h"

extern "C" {
#include "sci_dev.h"
#include "sci_lc.h"
#include "sci_node.h"
#include "sci_word.h"
}
#include "sci_node_upset.h"

// The settle of each generated model (rtl/sci_node.md section 8): internal to Verilator's
// generated code and declared here, so that a Verilator without it fails the link of this
// shim rather than lose upsets.
void Vlc3n1___024root___eval_settle(Vlc3n1___024root *vlSelf);
void Vlc3n2___024root___eval_settle(Vlc3n2___024root *vlSelf);
void Vp2sn1___024root___eval_settle(Vp2sn1___024root *vlSelf);
void Vp2sn2___024root___eval_settle(Vp2sn2___024root *vlSelf);
inline void settle(Vlc3n1___024root *r) { Vlc3n1___024root___eval_settle(r); }
inline void settle(Vlc3n2___024root *r) { Vlc3n2___024root___eval_settle(r); }
inline void settle(Vp2sn1___024root *r) { Vp2sn1___024root___eval_settle(r); }
inline void settle(Vp2sn2___024root *r) { Vp2sn2___024root___eval_settle(r); }

namespace
{

template <class V, bool P2S, unsigned NLC> struct Node {
    using Model = V;
    static void inputs(V *t, const uint64_t *in)
    {
        uint64_t lin = 0, sd = 0;
        for (unsigned k = 0; k < NLC; k++) {
            lin |= (in[sci_node_port(NLC, SCI_NP_LIN, k)] & 0x1FFFFu) << (17 * k);
            sd |= (in[sci_node_port(NLC, SCI_NP_LIN_SD, k)] & 1u) << k;
        }
        t->lin_i = lin;
        t->lin_sd_i = sd;
        uint64_t h = in[sci_node_port(NLC, SCI_NP_HIN, 0)];
        t->hin_i = static_cast<uint32_t>(h & 0x1FFFF);
        t->hin_last_i = (h & SCI_LAST) != 0;
        t->hout_ready_i = in[sci_node_port(NLC, SCI_NP_HOUT_READY, 0)] & 1u;
    }
    static void outputs(V *t, uint64_t *out)
    {
        uint64_t lout = t->lout_o, sd = t->lout_sd_o, irq = t->irq_o;
        for (unsigned k = 0; k < NLC; k++) {
            out[sci_node_port(NLC, SCI_NP_LOUT, k)] = (lout >> (17 * k)) & 0x1FFFFu;
            out[sci_node_port(NLC, SCI_NP_LOUT_SD, k)] = (sd >> k) & 1u;
            out[sci_node_port(NLC, SCI_NP_IRQ, k)] = (irq >> k) & 1u;
        }
        out[sci_node_port(NLC, SCI_NP_HIN_READY, 0)] = t->hin_ready_o;
        uint32_t h = t->hout_o;
        out[sci_node_port(NLC, SCI_NP_HOUT, 0)] =
            (h & SCI_FLAG) ? (h | (t->hout_last_o ? SCI_LAST : 0u)) : 0;
    }
    static uint64_t lc_dbg(const V *t, unsigned k)
    {
        if constexpr (NLC == 1)
            return t->lc_dbg_o;
        else
            return static_cast<uint64_t>(t->lc_dbg_o[2 * k]) |
                   static_cast<uint64_t>(t->lc_dbg_o[2 * k + 1]) << 32;
    }
    // The debug words of sci_node_debug_addr(): the DBG registers from the node's debug outputs
    // (rtl/sci_node.md: lc_dbg_o, psb_dbg_o are those registers), the others read through the
    // register port. A register-port read is a whole eval of the model, and lockstep reads the
    // debug words of every node every cycle: three of eight without one.
    static void debug(ftsim::VlDev<Node> &d, uint64_t *w)
    {
        for (unsigned k = 0; k < sci_node_ndebug(NLC); k++) {
            uint32_t a = sci_node_debug_addr(NLC, k);
            if (a == SCI_PSB_DBG)
                w[k] = d.top->psb_dbg_o;
            else if ((a & 0x1Fu) == SCI_REG_DBG && a < SCI_PSB_DBG)
                w[k] = lc_dbg(d.top, a / SCI_NODE_LC_STRIDE);
            else
                w[k] = d.reg_read(a);
        }
    }
    // The member of the element flipped (an LC's or the PSB's; sci_node_upset.h), then the
    // model settled.
    static void upset(V *t, const dev_upset_bit_t *s)
    {
        sci_node_flip<P2S, NLC>(t->rootp, s);
        settle(t->rootp);
    }
};

} // namespace

extern "C" void *sci_node_rtl_create(int p2s, unsigned nlc, const char *instance,
                                     const dev_ops_t **opsp)
{
    using ftsim::VlDev;
    if (nlc == 2)
        return p2s ? VlDev<Node<Vp2sn2, true, 2>>::create(nullptr, instance, opsp)
                   : VlDev<Node<Vlc3n2, false, 2>>::create(nullptr, instance, opsp);
    return p2s ? VlDev<Node<Vp2sn1, true, 1>>::create(nullptr, instance, opsp)
               : VlDev<Node<Vlc3n1, false, 1>>::create(nullptr, instance, opsp);
}
