// rn1_pins.h — RN1's pins as the traits of the shim template (harness/core/vl_dev.h), for any
// Verilated model with rtl/rn1.v's ports: the RTL (rn1_rtl.cpp) and its synthesized netlist
// (harness/gate). The debug words are RN1's debug outputs (dbg_o), ports of both. C++.
#ifndef FTSIM_RN1_PINS_H
#define FTSIM_RN1_PINS_H

#include <cstdint>

#include "verilated.h"

extern "C" {
#include "rn1_dev.h"
}

namespace rn1_pins
{

constexpr unsigned kWordBits = 9;

inline void put_word(VlWide<3> &bus, unsigned idx, uint64_t w)
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

inline uint64_t get_word(const VlWide<3> &bus, unsigned idx)
{
    uint64_t w = 0;
    for (unsigned b = 0; b < kWordBits; b++) {
        unsigned bit = idx * kWordBits + b;
        w |= static_cast<uint64_t>((bus[bit / 32] >> (bit % 32)) & 1u) << b;
    }
    return w;
}

} // namespace rn1_pins

// The traits of a model V with RN1's ports (vl_dev.h): inputs, outputs, debug words.
template <class V> struct Rn1Pins {
    using Model = V;
    static void inputs(V *t, const uint64_t *in)
    {
        uint8_t bc = 0;
        for (unsigned i = 0; i < 8; i++) {
            rn1_pins::put_word(t->fwd_i, i, in[RN1_P_FIN(i)]);
            rn1_pins::put_word(t->bwd_i, i, in[RN1_P_BIN(i)]);
            bc |= static_cast<uint8_t>((in[RN1_P_BBC(i)] & 1u) << i);
        }
        t->bwd_bc_i = bc;
    }
    static void outputs(V *t, uint64_t *out)
    {
        for (unsigned i = 0; i < 8; i++) {
            out[RN1_P_FOUT(i)] = rn1_pins::get_word(t->fwd_o, i);
            out[RN1_P_BOUT(i)] = rn1_pins::get_word(t->bwd_o, i);
            out[RN1_P_FBC(i)] = (t->fwd_bc_o >> i) & 1u;
        }
    }
    template <class D> static void debug(D &d, uint64_t *w)
    {
        for (unsigned k = 0; k < RN1_NDEBUG; k++)
            w[k] = d.top->dbg_o[k];
    }
};

#endif
