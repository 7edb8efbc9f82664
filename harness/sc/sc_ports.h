// sc_ports.h — the pins of each design family as SystemC sees them, and the one mapping
// between those pins and the harness's port arrays (dev.h: in[port], out[port]).
//
// A family lists its module's ports once (the X-macro PORTS: direction, type, name), with the
// types Verilator's --sc gives them (1 bit bool, up to 32 bits uint32_t, up to 64 uint64_t,
// wider sc_bv<N>). From that one list come the sc_signals a device binds a module to (Pins)
// and the ports of the C model's SC_MODULE (sc_csim.h), so the Verilated module and the C model
// module have the same pins and either binds to the same signals.
//
// The conversions are templates over anything with members of those names: `put` writes
// (sc_signal, sc_out), `get` reads (sc_signal, sc_in, sc_out). ins_put/outs_get are the
// device's side (the harness drives inputs, reads outputs); ins_get/outs_put the C model
// module's (it reads its input ports, drives its output ports).
#ifndef FTSIM_SC_PORTS_H
#define FTSIM_SC_PORTS_H

#include <cstring>
#include <systemc>
#include <type_traits>

extern "C" {
#include "rn1_dev.h"
#include "sci_dev.h"
#include "sci_lc.h"
#include "sci_node.h"
#include "sci_word.h"
}

namespace ftsim_sc
{

using sc_core::sc_in;
using sc_core::sc_out;
using sc_core::sc_signal;
using sc_dt::sc_bv;

// The register port every design has (rtl/rn1.md, sci_lc.md, sci_node.md).
#define FTSIM_SC_REG_PORTS(X)    \
    X(in, bool, reg_we_i)        \
    X(in, uint32_t, reg_waddr_i) \
    X(in, uint64_t, reg_wdata_i) \
    X(in, uint32_t, reg_wstrb_i) \
    X(in, uint32_t, reg_raddr_i) \
    X(out, uint64_t, reg_rdata_o)

// Bits [32 k +: 32] of a wide vector as words (sc_bv keeps 32-bit words).
template <int N> void bv_to_words(const sc_bv<N> &v, uint32_t *w)
{
    for (int k = 0; k < (N + 31) / 32; k++)
        w[k] = v.get_word(k);
}
template <int N> const sc_bv<N> &words_to_bv(const uint32_t *w, sc_bv<N> &v)
{
    for (int k = 0; k < (N + 31) / 32; k++)
        v.set_word(k, w[k]);
    return v;
}

// Where a family's wide words are packed before a write: an sc_bv holds its words on the heap,
// so each side keeps its own (Pins and the C model module have one each) instead of a
// temporary a cycle.
struct NoScratch {
};

// ---- RN1 (rtl/rn1.md): eight 9-bit words packed per direction ------------------------------
struct Rn1Fam {
#define FTSIM_SC_RN1_PORTS(X)  \
    X(in, bool, clk_i)         \
    X(in, bool, rst_ni)        \
    X(in, sc_bv<72>, fwd_i)    \
    X(out, sc_bv<72>, fwd_o)   \
    X(out, uint32_t, fwd_bc_o) \
    X(out, sc_bv<72>, bwd_o)   \
    X(in, sc_bv<72>, bwd_i)    \
    X(in, uint32_t, bwd_bc_i)  \
    FTSIM_SC_REG_PORTS(X)      \
    X(out, sc_bv<352>, dbg_o)
    static constexpr unsigned kWord = 9;

    // Eight 9-bit words at bits [9 i +: 9] (sc_bv keeps 32-bit words), as two 64-bit halves:
    // bits 0..63 (words 0 to 6 and word 7's bit 0) and bits 64..71. Constant shifts of 64-bit
    // integers: a 128-bit shift by a variable count branches, and this runs every cycle.
    struct Packed {
        uint64_t lo, hi;
        bool operator==(const Packed &o) const { return lo == o.lo && hi == o.hi; }
    };
    // The last words written to each wide signal, so that an unchanged word is not repacked
    // into an sc_bv and written again (most cycles change few of them).
    struct Scratch {
        sc_bv<72> w;
        sc_bv<352> dbg;
        Packed last[2] = {};
        bool valid[2] = {};
        uint32_t last_dbg[RN1_NDEBUG] = {};
        bool dbg_valid = false;
    };
    static Packed pack(const uint64_t *src)
    {
        uint64_t lo = 0;
        for (unsigned i = 0; i < 7; i++)
            lo |= (src[i] & 0x1FFu) << (kWord * i);
        lo |= (src[7] & 1u) << 63;
        return {lo, (src[7] & 0x1FFu) >> 1};
    }
    // Writes the eight words at src[first..] to `sig` (slot k of the scratch) if they changed.
    template <class Sig>
    static void put_words(Sig &sig, Scratch &sc, unsigned k, const uint64_t *src, unsigned first)
    {
        Packed v = pack(src + first);
        if (sc.valid[k] && sc.last[k] == v)
            return;
        sc.valid[k] = true;
        sc.last[k] = v;
        sc.w.set_word(0, static_cast<uint32_t>(v.lo));
        sc.w.set_word(1, static_cast<uint32_t>(v.lo >> 32));
        sc.w.set_word(2, static_cast<uint32_t>(v.hi));
        sig.write(sc.w);
    }
    static void unpack(const sc_bv<72> &b, uint64_t *dst, unsigned first)
    {
        uint64_t lo = b.get_word(0) | static_cast<uint64_t>(b.get_word(1)) << 32;
        uint64_t hi = b.get_word(2);
        dst += first;
        for (unsigned i = 0; i < 7; i++)
            dst[i] = (lo >> (kWord * i)) & 0x1FFu;
        dst[7] = ((lo >> 63) | (hi << 1)) & 0x1FFu;
    }
    template <class S> static void ins_put(S &s, const uint64_t *in)
    {
        uint32_t bc = 0;
        for (unsigned i = 0; i < 8; i++)
            bc |= static_cast<uint32_t>(in[RN1_P_BBC(i)] & 1u) << i;
        put_words(s.fwd_i, s.scratch, 0, in, RN1_P_FIN(0));
        put_words(s.bwd_i, s.scratch, 1, in, RN1_P_BIN(0));
        s.bwd_bc_i.write(bc);
    }
    template <class S> static void ins_get(const S &s, uint64_t *in)
    {
        unpack(s.fwd_i.read(), in, RN1_P_FIN(0));
        unpack(s.bwd_i.read(), in, RN1_P_BIN(0));
        uint32_t bc = s.bwd_bc_i.read();
        for (unsigned i = 0; i < 8; i++)
            in[RN1_P_BBC(i)] = (bc >> i) & 1u;
    }
    template <class S> static void outs_put(S &s, const uint64_t *out)
    {
        uint32_t bc = 0;
        for (unsigned i = 0; i < 8; i++)
            bc |= static_cast<uint32_t>(out[RN1_P_FBC(i)] & 1u) << i;
        put_words(s.fwd_o, s.scratch, 0, out, RN1_P_FOUT(0));
        put_words(s.bwd_o, s.scratch, 1, out, RN1_P_BOUT(0));
        s.fwd_bc_o.write(bc);
    }
    template <class S> static void outs_get(const S &s, uint64_t *out)
    {
        unpack(s.fwd_o.read(), out, RN1_P_FOUT(0));
        unpack(s.bwd_o.read(), out, RN1_P_BOUT(0));
        uint32_t bc = s.fwd_bc_o.read();
        for (unsigned i = 0; i < 8; i++)
            out[RN1_P_FBC(i)] = (bc >> i) & 1u;
    }
    // The debug words are the dbg_o output (32 bits each), in both models.
    template <class S> static void dbg_put(S &s, const uint64_t *w)
    {
        uint32_t x[RN1_NDEBUG];
        for (unsigned k = 0; k < RN1_NDEBUG; k++)
            x[k] = static_cast<uint32_t>(w[k]);
        if (s.scratch.dbg_valid && !memcmp(x, s.scratch.last_dbg, sizeof x))
            return;
        s.scratch.dbg_valid = true;
        memcpy(s.scratch.last_dbg, x, sizeof x);
        s.dbg_o.write(words_to_bv<352>(x, s.scratch.dbg));
    }
    template <class S> static void model_regs(S &s, const dev_ops_t *ops, void *self)
    {
        uint64_t w[RN1_NDEBUG];
        ops->debug(self, w);
        dbg_put(s, w);
    }
    template <class U> static void debug(U &u, uint64_t *w)
    {
        uint32_t x[RN1_NDEBUG];
        bv_to_words(u.pins.dbg_o.read(), x);
        for (unsigned k = 0; k < RN1_NDEBUG; k++)
            w[k] = x[k];
    }
};

// ---- the SCI link controller (rtl/sci_lc.md) -----------------------------------------------
struct LcFam {
    using Scratch = NoScratch;
#define FTSIM_SC_LC_PORTS(X)      \
    X(in, bool, clk_i)            \
    X(in, bool, rst_ni)           \
    X(in, uint32_t, lin_i)        \
    X(in, bool, lin_sd_i)         \
    X(out, uint32_t, lout_o)      \
    X(out, bool, lout_sd_o)       \
    X(in, uint32_t, bin_i)        \
    X(in, bool, bin_last_i)       \
    X(out, bool, bin_ready_o)     \
    X(out, uint32_t, bout_o)      \
    X(out, bool, bout_valid_o)    \
    X(out, bool, bout_last_o)     \
    X(in, bool, bout_ready_i)     \
    X(out, uint32_t, bout_port_o) \
    X(in, bool, fo_byp_i)         \
    X(in, uint32_t, fo_xmask_i)   \
    FTSIM_SC_REG_PORTS(X)         \
    X(out, bool, irq_o)           \
    X(out, uint32_t, status_o)    \
    X(out, uint64_t, dbg_o)

    template <class S> static void ins_put(S &s, const uint64_t *in)
    {
        s.lin_i.write(static_cast<uint32_t>(in[SCI_P_LIN] & 0x1FFFF));
        s.lin_sd_i.write(in[SCI_P_LIN_SD] & 1u);
        s.bin_i.write(static_cast<uint32_t>(in[SCI_P_BIN] & 0x1FFFF));
        s.bin_last_i.write((in[SCI_P_BIN] & SCI_LAST) != 0);
        s.bout_ready_i.write(in[SCI_P_BOUT_READY] & 1u);
    }
    template <class S> static void ins_get(const S &s, uint64_t *in)
    {
        in[SCI_P_LIN] = s.lin_i.read();
        in[SCI_P_LIN_SD] = s.lin_sd_i.read();
        in[SCI_P_BIN] = s.bin_i.read() | (s.bin_last_i.read() ? SCI_LAST : 0u);
        in[SCI_P_BOUT_READY] = s.bout_ready_i.read();
    }
    template <class S> static void outs_put(S &s, const uint64_t *out)
    {
        bool valid = (out[SCI_P_BOUT] & SCI_FLAG) != 0;
        s.lout_o.write(static_cast<uint32_t>(out[SCI_P_LOUT]));
        s.lout_sd_o.write(out[SCI_P_LOUT_SD] & 1u);
        s.bin_ready_o.write(out[SCI_P_BIN_READY] & 1u);
        s.bout_o.write(static_cast<uint32_t>(out[SCI_P_BOUT] & 0x1FFFF));
        s.bout_valid_o.write(valid);
        s.bout_last_o.write((out[SCI_P_BOUT] & SCI_LAST) != 0);
        s.bout_port_o.write(static_cast<uint32_t>(out[SCI_P_BOUT_PORT]));
        s.irq_o.write(out[SCI_P_IRQ] & 1u);
    }
    template <class S> static void outs_get(const S &s, uint64_t *out)
    {
        bool valid = s.bout_valid_o.read();
        out[SCI_P_LOUT] = s.lout_o.read();
        out[SCI_P_LOUT_SD] = s.lout_sd_o.read();
        out[SCI_P_BIN_READY] = s.bin_ready_o.read();
        out[SCI_P_BOUT] =
            valid ? (s.bout_o.read() | SCI_FLAG | (s.bout_last_o.read() ? SCI_LAST : 0u)) : 0;
        out[SCI_P_BOUT_PORT] = valid ? s.bout_port_o.read() : 0;
        out[SCI_P_IRQ] = s.irq_o.read();
    }
    // The C model module's register outputs: STATUS[15:0] and DBG (rtl/sci_lc.md).
    template <class S> static void model_regs(S &s, const dev_ops_t *ops, void *self)
    {
        regs_put(s, [ops, self](uint32_t a) { return ops->reg_read(self, a); });
    }
    template <class S, class R> static void regs_put(S &s, R read)
    {
        s.status_o.write(static_cast<uint32_t>(read(SCI_REG_STATUS) & 0xFFFFu));
        s.dbg_o.write(read(SCI_REG_DBG));
    }
    // DBG from dbg_o, the others through the register port.
    template <class U> static void debug(U &u, uint64_t *w)
    {
        for (unsigned k = 0; k < SCI_NDEBUG; k++)
            w[k] = sci_debug_addr(k) == SCI_REG_DBG ? u.pins.dbg_o.read()
                                                    : u.reg_read(sci_debug_addr(k));
    }
};

// ---- the SCI node (rtl/sci_node.md), one or two LCs -----------------------------------------
template <unsigned NLC> struct NodeFam {
    using LinT = std::conditional_t<NLC == 1, uint32_t, uint64_t>;
    using BitsT = std::conditional_t<NLC == 1, bool, uint32_t>;
    using DbgT = std::conditional_t<NLC == 1, uint64_t, sc_bv<128>>;
    struct Scratch {
        DbgT dbg;
    };
#define FTSIM_SC_NODE_PORTS(X)             \
    X(in, bool, clk_i)                     \
    X(in, bool, rst_ni)                    \
    X(in, typename Fam::LinT, lin_i)       \
    X(in, typename Fam::BitsT, lin_sd_i)   \
    X(out, typename Fam::LinT, lout_o)     \
    X(out, typename Fam::BitsT, lout_sd_o) \
    X(in, uint32_t, hin_i)                 \
    X(in, bool, hin_last_i)                \
    X(out, bool, hin_ready_o)              \
    X(out, uint32_t, hout_o)               \
    X(out, bool, hout_last_o)              \
    X(in, bool, hout_ready_i)              \
    FTSIM_SC_REG_PORTS(X)                  \
    X(out, typename Fam::BitsT, irq_o)     \
    X(out, typename Fam::DbgT, lc_dbg_o)   \
    X(out, uint64_t, psb_dbg_o)

    static unsigned port(unsigned kind, unsigned k) { return sci_node_port(NLC, kind, k); }

    template <class S> static void ins_put(S &s, const uint64_t *in)
    {
        uint64_t lin = 0, sd = 0;
        for (unsigned k = 0; k < NLC; k++) {
            lin |= (in[port(SCI_NP_LIN, k)] & 0x1FFFFu) << (17 * k);
            sd |= (in[port(SCI_NP_LIN_SD, k)] & 1u) << k;
        }
        s.lin_i.write(static_cast<LinT>(lin));
        s.lin_sd_i.write(static_cast<BitsT>(sd));
        uint64_t h = in[port(SCI_NP_HIN, 0)];
        s.hin_i.write(static_cast<uint32_t>(h & 0x1FFFF));
        s.hin_last_i.write((h & SCI_LAST) != 0);
        s.hout_ready_i.write(in[port(SCI_NP_HOUT_READY, 0)] & 1u);
    }
    template <class S> static void ins_get(const S &s, uint64_t *in)
    {
        uint64_t lin = s.lin_i.read(), sd = s.lin_sd_i.read();
        for (unsigned k = 0; k < NLC; k++) {
            in[port(SCI_NP_LIN, k)] = (lin >> (17 * k)) & 0x1FFFFu;
            in[port(SCI_NP_LIN_SD, k)] = (sd >> k) & 1u;
        }
        in[port(SCI_NP_HIN, 0)] = s.hin_i.read() | (s.hin_last_i.read() ? SCI_LAST : 0u);
        in[port(SCI_NP_HOUT_READY, 0)] = s.hout_ready_i.read();
    }
    template <class S> static void outs_put(S &s, const uint64_t *out)
    {
        uint64_t lout = 0, sd = 0, irq = 0;
        for (unsigned k = 0; k < NLC; k++) {
            lout |= (out[port(SCI_NP_LOUT, k)] & 0x1FFFFu) << (17 * k);
            sd |= (out[port(SCI_NP_LOUT_SD, k)] & 1u) << k;
            irq |= (out[port(SCI_NP_IRQ, k)] & 1u) << k;
        }
        s.lout_o.write(static_cast<LinT>(lout));
        s.lout_sd_o.write(static_cast<BitsT>(sd));
        s.irq_o.write(static_cast<BitsT>(irq));
        s.hin_ready_o.write(out[port(SCI_NP_HIN_READY, 0)] & 1u);
        uint64_t h = out[port(SCI_NP_HOUT, 0)];
        s.hout_o.write(static_cast<uint32_t>(h & 0x1FFFF));
        s.hout_last_o.write((h & SCI_LAST) != 0);
    }
    template <class S> static void outs_get(const S &s, uint64_t *out)
    {
        uint64_t lout = s.lout_o.read(), sd = s.lout_sd_o.read(), irq = s.irq_o.read();
        for (unsigned k = 0; k < NLC; k++) {
            out[port(SCI_NP_LOUT, k)] = (lout >> (17 * k)) & 0x1FFFFu;
            out[port(SCI_NP_LOUT_SD, k)] = (sd >> k) & 1u;
            out[port(SCI_NP_IRQ, k)] = (irq >> k) & 1u;
        }
        out[port(SCI_NP_HIN_READY, 0)] = s.hin_ready_o.read();
        uint32_t h = s.hout_o.read();
        out[port(SCI_NP_HOUT, 0)] =
            (h & SCI_FLAG) ? (h | (s.hout_last_o.read() ? SCI_LAST : 0u)) : 0;
    }
    static uint64_t lc_dbg(const DbgT &d, unsigned k)
    {
        if constexpr (NLC == 1)
            return d;
        else {
            uint32_t w[4];
            bv_to_words(d, w);
            return static_cast<uint64_t>(w[2 * k]) | static_cast<uint64_t>(w[2 * k + 1]) << 32;
        }
    }
    // The C model module's debug outputs: each LC's DBG and the PSB's DBG registers.
    template <class S> static void model_regs(S &s, const dev_ops_t *ops, void *self)
    {
        regs_put(s, [ops, self](uint32_t a) { return ops->reg_read(self, a); });
    }
    template <class S, class R> static void regs_put(S &s, R read)
    {
        if constexpr (NLC == 1)
            s.lc_dbg_o.write(read(SCI_REG_DBG));
        else {
            uint32_t w[4];
            for (unsigned k = 0; k < NLC; k++) {
                uint64_t d = read(SCI_NODE_LC_STRIDE * k + SCI_REG_DBG);
                w[2 * k] = static_cast<uint32_t>(d);
                w[2 * k + 1] = static_cast<uint32_t>(d >> 32);
            }
            s.lc_dbg_o.write(words_to_bv<128>(w, s.scratch.dbg));
        }
        s.psb_dbg_o.write(read(SCI_PSB_DBG));
    }
    template <class U> static void debug(U &u, uint64_t *w)
    {
        for (unsigned k = 0; k < sci_node_ndebug(NLC); k++) {
            uint32_t a = sci_node_debug_addr(NLC, k);
            if (a == SCI_PSB_DBG)
                w[k] = u.pins.psb_dbg_o.read();
            else if ((a & 0x1Fu) == SCI_REG_DBG && a < SCI_PSB_DBG)
                w[k] = lc_dbg(u.pins.lc_dbg_o.read(), a / SCI_NODE_LC_STRIDE);
            else
                w[k] = u.reg_read(a);
        }
    }
};

} // namespace ftsim_sc

#endif
