// sci_lc_pins.h — the SCI link controller's pins (rtl/sci_lc.v) as the traits of the shim
// template (harness/core/vl_dev.h), for any Verilated model with its ports: the RTL (sci_rtl.cpp)
// and its synthesized netlist (harness/gate). Its debug words come from its dbg_o output and its
// register port, which both have. C++.
#ifndef FTSIM_SCI_LC_PINS_H
#define FTSIM_SCI_LC_PINS_H

#include <cstdint>

extern "C" {
#include "sci_dev.h"
#include "sci_lc.h"
#include "sci_word.h"
}

template <class V> struct LcPins {
    using Model = V;
    static void inputs(V *t, const uint64_t *in)
    {
        t->lin_i = static_cast<uint32_t>(in[SCI_P_LIN] & 0x1FFFF);
        t->lin_sd_i = in[SCI_P_LIN_SD] & 1u;
        t->bin_i = static_cast<uint32_t>(in[SCI_P_BIN] & 0x1FFFF);
        t->bin_last_i = (in[SCI_P_BIN] & SCI_LAST) != 0;
        t->bout_ready_i = in[SCI_P_BOUT_READY] & 1u;
    }
    static void outputs(V *t, uint64_t *out)
    {
        out[SCI_P_LOUT] = t->lout_o;
        out[SCI_P_LOUT_SD] = t->lout_sd_o;
        out[SCI_P_BIN_READY] = t->bin_ready_o;
        out[SCI_P_BOUT] =
            t->bout_valid_o ? (t->bout_o | SCI_FLAG | (t->bout_last_o ? SCI_LAST : 0u)) : 0;
        out[SCI_P_BOUT_PORT] = t->bout_valid_o ? t->bout_port_o : 0;
        out[SCI_P_IRQ] = t->irq_o;
    }
    // The debug words: DBG from the dbg_o output (the register itself, rtl/sci_lc.md), the
    // others through the register port (a read is a whole eval of the model).
    template <class D> static void debug(D &d, uint64_t *w)
    {
        for (unsigned k = 0; k < SCI_NDEBUG; k++)
            w[k] = sci_debug_addr(k) == SCI_REG_DBG ? d.top->dbg_o : d.reg_read(sci_debug_addr(k));
    }
};

#endif
