// rn1_rtl.cpp — the Verilated rtl/rn1.v behind the C device interface (dev.h): RN1's pins
// (rn1_pins.h, shared with its netlist's model) and upsets as the traits of the one shim
// template (harness/core/vl_dev.h), which has the timing.
#include <cstdio>

#include "Vrn1.h"
#include "Vrn1__Syms.h"
#include "rn1_pins.h"
#include "rn1_upset.h"
#include "vl_dev.h"

extern "C" {
#include "rn1_dev.h"
}

// The settle of the generated model: every combinational signal recomputed from the registers,
// as at the start of a simulation. Verilator computes some next-state values right after a
// clock edge and does not recompute them when a register member is written between edges, so
// an upset written into a member must be followed by a settle (rtl/rn1.md section 14). It is
// internal to the generated code and declared here: a Verilator that no longer generates it
// fails the link of this shim, a build-time check rather than a silently lost upset.
void Vrn1___024root___eval_settle(Vrn1___024root *vlSelf);

namespace
{

struct Rn1 : Rn1Pins<Vrn1> {
    // The register of rtl/rn1.v that upset s names (rtl/rn1.md section 14; rn1_upset.h), its
    // bit flipped, then the model settled so that every signal computed from it follows.
    static void upset(Vrn1 *t, const dev_upset_bit_t *s)
    {
        rn1_flip(t->rootp, s->entry, s->bit);
        Vrn1___024root___eval_settle(t->rootp);
    }
};

} // namespace

extern "C" void *rn1_rtl_create(const char *instance, const dev_ops_t **opsp, char *err,
                                size_t errlen)
{
    (void)err, (void)errlen;
    return ftsim::VlDev<Rn1>::create(nullptr, instance, opsp);
}
