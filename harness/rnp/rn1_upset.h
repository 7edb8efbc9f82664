// rn1_upset.h — an upset of a Verilated rtl/rn1.v: the register member an element of RN1's
// upset map (csim/rnp/rn1.h, RN1_UPSET_*; rtl/rn1.md section 14) names, its bit flipped. C++, for the
// shim of the C harness (rn1_rtl.cpp) and the SystemC units (harness/sc), whose models have the
// same members under other root classes: a template over the generated root class. The caller
// then settles the model (rtl/rn1.md section 14 says why).
#ifndef FTSIM_RN1_UPSET_H
#define FTSIM_RN1_UPSET_H

#include <cstdint>

#include "verilated.h"

extern "C" {
#include "rn1.h"
}

// The state of forward port p named by RN1_UPSET_P_*: the rn1_fport instance's registers.
#define RN1_FP(P, F) r->rn1__DOT__gen_fport__BRA__##P##__KET____DOT__u_fport__DOT__##F##_q
#define RN1_FP_CASE(P)                                 \
    case P:                                            \
        switch (k) {                                   \
        case RN1_UPSET_P_STATE: return RN1_FP(P, state); \
        case RN1_UPSET_P_BQ: return RN1_FP(P, bq);       \
        case RN1_UPSET_P_DISP: return RN1_FP(P, disp);   \
        case RN1_UPSET_P_ARMED: return RN1_FP(P, armed); \
        case RN1_UPSET_P_COUNT: return RN1_FP(P, count); \
        default: return RN1_FP(P, xor);                \
        }
template <class R> CData &rn1_port_reg(R *r, unsigned p, unsigned k)
{
    switch (p) {
        RN1_FP_CASE(0)
        RN1_FP_CASE(1)
        RN1_FP_CASE(2)
        RN1_FP_CASE(3)
        RN1_FP_CASE(4)
        RN1_FP_CASE(5)
        RN1_FP_CASE(6)
    default: RN1_FP_CASE(7)
    }
}
#undef RN1_FP_CASE
#undef RN1_FP

inline void rn1_flip_wide(VlWide<3> &w, unsigned bit) { w[bit / 32] ^= 1u << (bit % 32); }

// Bit b of element e (an RN1_UPSET_* entry of the map) flipped in root r.
template <class R> void rn1_flip(R *r, unsigned e, unsigned b)
{
    constexpr unsigned kWordBits = 9;
    switch (e) {
    case RN1_UPSET_SWALLOW: r->rn1__DOT__cfg_q ^= 1ull << b; break;
    case RN1_UPSET_DISABLE: r->rn1__DOT__cfg_q ^= 1ull << (8 + b); break;
    case RN1_UPSET_SEED: r->rn1__DOT__cfg_q ^= 1ull << (16 + b); break;
    case RN1_UPSET_MODE: r->rn1__DOT__cfg_q ^= 1ull << 32; break;
    case RN1_UPSET_BACKCHAN: r->rn1__DOT__cfg_q ^= 1ull << 40; break;
    case RN1_UPSET_ERRORS: r->rn1__DOT__errors_q ^= static_cast<SData>(1u << b); break;
    case RN1_UPSET_ALLOC: r->rn1__DOT__alloc_q ^= static_cast<CData>(1u << b); break;
    case RN1_UPSET_LFSR: r->rn1__DOT__lfsr_q ^= static_cast<SData>(1u << b); break;
    case RN1_UPSET_ROT: r->rn1__DOT__rot_q ^= static_cast<CData>(1u << b); break;
    default:
        if (e >= RN1_UPSET_BOUT0) {
            rn1_flip_wide(r->rn1__DOT__bwd_q, (e - RN1_UPSET_BOUT0) * kWordBits + b);
            break;
        }
        unsigned p = (e - RN1_UPSET_PORT0) / RN1_UPSET_NPORT, k = (e - RN1_UPSET_PORT0) % RN1_UPSET_NPORT;
        if (k == RN1_UPSET_P_OUT)
            rn1_flip_wide(r->rn1__DOT__fwd_q, p * kWordBits + b);
        else if (k == RN1_UPSET_P_BC)
            r->rn1__DOT__fwd_bc_q ^= static_cast<CData>(1u << p);
        else
            rn1_port_reg(r, p, k) ^= static_cast<CData>(1u << b);
        break;
    }
}

#endif
