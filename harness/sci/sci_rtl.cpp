// sci_rtl.cpp — the Verilated rtl/sci_lc.v (LC3: Vlc3, P2S: Vp2s, the same module with
// P2s = 0 / 1) behind the C device interface: its pins and debug words (sci_lc_pins.h, shared
// with its netlist's model) and upsets as the traits of the one shim template
// (harness/core/vl_dev.h), which has the timing of dev.h.
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
#include "sci_lc_pins.h"
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

template <class V> struct Lc : LcPins<V> {
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
