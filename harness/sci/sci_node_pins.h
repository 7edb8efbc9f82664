// sci_node_pins.h — an SCI node's pins (rtl/sci_node.v, NLC link controllers; port numbering
// sci_node_port() of sci_dev.h) as the traits of the shim template (harness/core/vl_dev.h), for
// any Verilated model with its ports: the RTL (sci_node_rtl.cpp) and its synthesized netlist
// (harness/gate). Its debug words come from its debug outputs and its register port. C++.
#ifndef FTSIM_SCI_NODE_PINS_H
#define FTSIM_SCI_NODE_PINS_H

#include <cstdint>

extern "C" {
#include "sci_dev.h"
#include "sci_lc.h"
#include "sci_node.h"
#include "sci_word.h"
}

template <class V, unsigned NLC> struct NodePins {
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
    template <class D> static void debug(D &d, uint64_t *w)
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
};

#endif
