// sc_model.h — every single-device design as SystemC modules with one set of pins:
//
//   Vsc<design>       the RTL, Verilated with --sc: Verilator's own SC_MODULE (build/vl-sc/)
//   CsimModule<Fam>   the C reference model in an SC_MODULE with the same ports and clocking:
//                     on each rising edge of clk_i it samples its inputs (and rst_ni and the
//                     register write port), runs the model's cycle and drives its outputs;
//                     reg_rdata_o follows reg_raddr_i combinationally, as in the RTL
//   Pins<Fam>         a module of sc_signals, one per port, that either binds to
//
// Either module drops into a SystemC design by binding its ports to signals of the types
// sc_ports.h lists (Pins<Fam>::bind does it for one module).
#ifndef FTSIM_SC_MODEL_H
#define FTSIM_SC_MODEL_H

#include <cstdio>
#include <string>

#include "sc_ports.h"

namespace ftsim_sc
{

#define FTSIM_SC_SIG(d, t, n)  sc_signal<t> n{#n};
#define FTSIM_SC_PORT(d, t, n) sc_##d<t> n{#n};
#define FTSIM_SC_BIND(d, t, n) m.n(n);

template <class Fam> struct Pins;
template <class Fam> struct CsimPorts;

// The pins and the C model module's ports of one family, from its one port list.
#define FTSIM_SC_FAMILY(TEMPLATE, FAM, LIST)                                     \
    TEMPLATE struct Pins<FAM> : sc_core::sc_module {                             \
        using Fam = FAM;                                                         \
        LIST(FTSIM_SC_SIG)                                                       \
        typename Fam::Scratch scratch;                                           \
        explicit Pins(sc_core::sc_module_name n) : sc_core::sc_module(n) {}      \
        template <class M> void bind(M &m) { LIST(FTSIM_SC_BIND) }               \
    };                                                                           \
    TEMPLATE struct CsimPorts<FAM> : sc_core::sc_module {                        \
        using Fam = FAM;                                                         \
        LIST(FTSIM_SC_PORT)                                                      \
        typename Fam::Scratch scratch;                                           \
        explicit CsimPorts(sc_core::sc_module_name n) : sc_core::sc_module(n) {} \
    };

FTSIM_SC_FAMILY(template <>, Rn1Fam, FTSIM_SC_RN1_PORTS)
FTSIM_SC_FAMILY(template <>, LcFam, FTSIM_SC_LC_PORTS)
FTSIM_SC_FAMILY(template <unsigned NLC>, NodeFam<NLC>, FTSIM_SC_NODE_PORTS)

// The byte strobes of a register write as the bit mask the harness's models take.
inline uint64_t strobe_mask(uint32_t wstrb)
{
    uint64_t m = 0;
    for (unsigned b = 0; b < 8; b++)
        if ((wstrb >> b) & 1u)
            m |= 0xFFull << (8 * b);
    return m;
}

// The C reference model of a design (`design`, a fixed design of dev.h) as an SC_MODULE.
template <class Fam> struct CsimModule : CsimPorts<Fam> {
    SC_HAS_PROCESS(CsimModule);
    CsimModule(sc_core::sc_module_name n, const dev_design_t *design)
        : CsimPorts<Fam>(n), design_(design)
    {
        renew();
        // One process drives the outputs and the read port (a signal has one driver): the
        // edge, and the read port on its own when only reg_raddr_i changed.
        SC_METHOD(run);
        this->sensitive << this->clk_i.pos() << this->reg_raddr_i << upset_ev_;
    }
    ~CsimModule() override
    {
        if (self_)
            ops_->destroy(self_);
    }
    // A fresh model, as after power-up (the harness then resets it through rst_ni).
    void renew()
    {
        if (self_)
            ops_->destroy(self_);
        char err[DEV_ERR_LEN] = "";
        self_ = design_->create(design_, DEV_IMPL_CSIM, nullptr, &ops_, err, sizeof err);
        if (!self_)
            SC_REPORT_FATAL("ftsim", err);
        cycle_ = 0;
    }
    const dev_ops_t *ops() const { return ops_; }
    void *model() const { return self_; }
    // An upset (dev_ops_t.upset) of the model, between edges: the flip, then the process
    // drives the outputs and the read port from the flipped state in the next delta cycle
    // (the caller runs it), as the RTL module's do. -1 with a message if the model takes none.
    int upset(const dev_upset_bit_t *s, char *err, size_t errlen)
    {
        if (!ops_->upset) {
            snprintf(err, errlen, "%s takes no upset", design_->name);
            return -1;
        }
        if (ops_->upset(self_, s, err, errlen) < 0)
            return -1;
        upset_ = true;
        upset_ev_.notify(sc_core::SC_ZERO_TIME);
        return 0;
    }

  private:
    void run()
    {
        if (this->clk_i.posedge())
            edge();
        else if (upset_)
            outputs();
        else
            read();
    }
    // One clock edge: the inputs, reset and register write sampled now, the model's cycle,
    // then its outputs (registered) and the register read port.
    void edge()
    {
        uint64_t *in = in_;
        Fam::ins_get(*this, in);
        ops_->set_reset(self_, !this->rst_ni.read());
        ops_->set_inputs(self_, in);
        if (this->reg_we_i.read())
            ops_->reg_write(self_, this->reg_waddr_i.read(), this->reg_wdata_i.read(),
                            strobe_mask(this->reg_wstrb_i.read()));
        ops_->tick(self_, cycle_++);
        outputs();
    }
    // The registered outputs, the model's registers and the read port from its state.
    void outputs()
    {
        uint64_t *out = out_;
        upset_ = false;
        ops_->get_outputs(self_, out);
        Fam::outs_put(*this, out);
        Fam::model_regs(*this, ops_, self_);
        read(); // the read port sees the new state, with the outputs
    }
    void read() { this->reg_rdata_o.write(ops_->reg_read(self_, this->reg_raddr_i.read())); }

    const dev_design_t *design_;
    const dev_ops_t *ops_ = nullptr;
    void *self_ = nullptr;
    uint64_t cycle_ = 0;
    uint64_t in_[64] = {0}, out_[64] = {0}; // the port arrays, not renewed a cycle
    sc_core::sc_event upset_ev_;
    bool upset_ = false; // an upset since the last edge: the outputs to drive again
};

} // namespace ftsim_sc

#endif
