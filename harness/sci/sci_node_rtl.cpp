// sci_node_rtl.cpp — the Verilated rtl/sci_node.v behind the C device interface: its pins and
// debug words (sci_node_pins.h, shared with its netlist's model) and upsets as the traits of the
// one shim template (harness/core/vl_dev.h), which has the timing of dev.h. Four builds of the
// one module: LC3 or P2S (P2s = 0/1), one or two link controllers (NLC = 1/2): Vlc3n1, Vp2sn1,
// Vlc3n2, Vp2sn2. Port numbering is sci_node_dev's (sci_dev.h: sci_node_port()).
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
#include "sci_node_pins.h"
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

template <class V, bool P2S, unsigned NLC> struct Node : NodePins<V, NLC> {
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
