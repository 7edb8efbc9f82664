// sci_rtl.cpp — the Verilated rtl/sci_lc.v (LC3: Vlc3, P2S: Vp2s, the same module with
// P2s = 0 / 1) behind the C device interface: its pins, debug words and upsets as the traits of
// the one shim template (harness/core/vl_dev.h), which has the timing of dev.h.
#include <cstdio>

#include "Vlc3.h"
#include "Vlc3__Syms.h"
#include "Vp2s.h"
#include "Vp2s__Syms.h"
#include "vl_dev.h"

extern "C" {
#include "sci_dev.h"
#include "sci_lc.h"
#include "sci_word.h"
}
#include "sci_lc_upset.h"

// The settle of each generated model (rtl/rn1.md section 14, rtl/sci_lc.md section 8): internal
// to Verilator's generated code and declared here, so that a Verilator without it fails the
// link of this shim rather than lose upsets.
void Vlc3___024root___eval_settle(Vlc3___024root *vlSelf);
void Vp2s___024root___eval_settle(Vp2s___024root *vlSelf);
inline void settle(Vlc3___024root *r) { Vlc3___024root___eval_settle(r); }
inline void settle(Vp2s___024root *r) { Vp2s___024root___eval_settle(r); }

namespace
{
SCI_LC_FLIP(lc_flip, sci_lc__DOT__)

template <class V> struct Lc {
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
    static void debug(ftsim::VlDev<Lc> &d, uint64_t *w)
    {
        for (unsigned k = 0; k < SCI_NDEBUG; k++)
            w[k] = sci_debug_addr(k) == SCI_REG_DBG ? d.top->dbg_o : d.reg_read(sci_debug_addr(k));
    }
    // The member of the element flipped, then the model settled (sci_lc_upset.h).
    static void upset(V *t, const dev_upset_bit_t *s)
    {
        lc_flip(t->rootp, s->entry, s->index, s->bit);
        settle(t->rootp);
    }
};

} // namespace

extern "C" void *sci_rtl_create(int p2s, const char *instance, const dev_ops_t **opsp, char *err,
                                size_t errlen)
{
    (void)err, (void)errlen;
    return p2s ? ftsim::VlDev<Lc<Vp2s>>::create(nullptr, instance, opsp)
               : ftsim::VlDev<Lc<Vlc3>>::create(nullptr, instance, opsp);
}
