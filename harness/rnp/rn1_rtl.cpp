// rn1_rtl.cpp — the Verilated rtl/rn1.v behind the C device interface (dev.h): RN1's pins and
// upsets as the traits of the one shim template (harness/core/vl_dev.h), which has the timing.
#include <cstdio>

#include "Vrn1.h"
#include "Vrn1__Syms.h"
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

constexpr unsigned kWordBits = 9;

void put_word(VlWide<3> &bus, unsigned idx, uint64_t w)
{
    for (unsigned b = 0; b < kWordBits; b++) {
        unsigned bit = idx * kWordBits + b;
        uint32_t m = 1u << (bit % 32);
        if ((w >> b) & 1u)
            bus[bit / 32] |= m;
        else
            bus[bit / 32] &= ~m;
    }
}

uint64_t get_word(const VlWide<3> &bus, unsigned idx)
{
    uint64_t w = 0;
    for (unsigned b = 0; b < kWordBits; b++) {
        unsigned bit = idx * kWordBits + b;
        w |= static_cast<uint64_t>((bus[bit / 32] >> (bit % 32)) & 1u) << b;
    }
    return w;
}

struct Rn1 {
    using Model = Vrn1;
    static void inputs(Vrn1 *t, const uint64_t *in)
    {
        uint8_t bc = 0;
        for (unsigned i = 0; i < 8; i++) {
            put_word(t->fwd_i, i, in[RN1_P_FIN(i)]);
            put_word(t->bwd_i, i, in[RN1_P_BIN(i)]);
            bc |= static_cast<uint8_t>((in[RN1_P_BBC(i)] & 1u) << i);
        }
        t->bwd_bc_i = bc;
    }
    static void outputs(Vrn1 *t, uint64_t *out)
    {
        for (unsigned i = 0; i < 8; i++) {
            out[RN1_P_FOUT(i)] = get_word(t->fwd_o, i);
            out[RN1_P_BOUT(i)] = get_word(t->bwd_o, i);
            out[RN1_P_FBC(i)] = (t->fwd_bc_o >> i) & 1u;
        }
    }
    static void debug(ftsim::VlDev<Rn1> &d, uint64_t *w)
    {
        for (unsigned k = 0; k < RN1_NDEBUG; k++)
            w[k] = d.top->dbg_o[k];
    }
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
