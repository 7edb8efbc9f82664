// sc_dev.cpp — the SystemC units (sc_dev.h): a design's Verilated --sc module or its C model
// module, bound to a Pins module, as a dev_ops_t implementation; and the catalog of the SC
// designs ftsim-sc plays.
#include "sc_dev.h"

#include <cstring>
#include <memory>
#include <vector>

#include "Vsclc3.h"
#include "Vsclc3n1.h"
#include "Vsclc3n2.h"
#include "Vscp2s.h"
#include "Vscp2sn1.h"
#include "Vscp2sn2.h"
#include "Vscrn1.h"
#include "Vsclc3___024root.h"
#include "Vsclc3n1___024root.h"
#include "Vsclc3n2___024root.h"
#include "Vscp2s___024root.h"
#include "Vscp2sn1___024root.h"
#include "Vscp2sn2___024root.h"
#include "Vscrn1___024root.h"
#include "rn1_upset.h"
#include "sc_model.h"
#include "sci_lc_upset.h"
#include "sci_node_upset.h"
extern "C" {
#include "rnpnet.h"
}
#include "verilated_fst_c.h"
#include "vl_dev.h"

// The settle of each --sc model (rtl/rn1.md section 14: a member written between edges is
// followed by it; it writes the module's output ports too). Internal to Verilator's generated
// code and declared here, so that a Verilator without it fails the link, not an upset.
void Vscrn1___024root___eval_settle(Vscrn1___024root *vlSelf);
void Vsclc3___024root___eval_settle(Vsclc3___024root *vlSelf);
void Vscp2s___024root___eval_settle(Vscp2s___024root *vlSelf);
void Vsclc3n1___024root___eval_settle(Vsclc3n1___024root *vlSelf);
void Vscp2sn1___024root___eval_settle(Vscp2sn1___024root *vlSelf);
void Vsclc3n2___024root___eval_settle(Vsclc3n2___024root *vlSelf);
void Vscp2sn2___024root___eval_settle(Vscp2sn2___024root *vlSelf);

using namespace sc_core;

namespace ftsim_sc
{

// The kernel run until nothing is left to do at the current time (delta cycles only).
void settle()
{
    while (sc_pending_activity_at_current_time())
        sc_start(SC_ZERO_TIME);
}

const sc_time kHalf(DEV_NS_PER_CYCLE / 2.0, SC_NS), kPeriod(DEV_NS_PER_CYCLE, SC_NS);

SCI_LC_FLIP(sc_lc_flip, sci_lc__DOT__)

// An upset of a Verilated --sc module: the member the element names flipped (the same
// templates as the C harness's shims: rn1_upset.h, sci_lc_upset.h, sci_node_upset.h), then the
// model settled; the kernel then runs the delta cycles its output ports' writes start.
template <class V> void rtl_upset(V *m, const dev_upset_bit_t *s);
template <> void rtl_upset(Vscrn1 *m, const dev_upset_bit_t *s)
{
    rn1_flip(m->rootp, s->entry, s->bit);
    Vscrn1___024root___eval_settle(m->rootp);
}
template <> void rtl_upset(Vsclc3 *m, const dev_upset_bit_t *s)
{
    sc_lc_flip(m->rootp, s->entry, s->index, s->bit);
    Vsclc3___024root___eval_settle(m->rootp);
}
template <> void rtl_upset(Vscp2s *m, const dev_upset_bit_t *s)
{
    sc_lc_flip(m->rootp, s->entry, s->index, s->bit);
    Vscp2s___024root___eval_settle(m->rootp);
}
template <> void rtl_upset(Vsclc3n1 *m, const dev_upset_bit_t *s)
{
    sci_node_flip<false, 1>(m->rootp, s);
    Vsclc3n1___024root___eval_settle(m->rootp);
}
template <> void rtl_upset(Vscp2sn1 *m, const dev_upset_bit_t *s)
{
    sci_node_flip<true, 1>(m->rootp, s);
    Vscp2sn1___024root___eval_settle(m->rootp);
}
template <> void rtl_upset(Vsclc3n2 *m, const dev_upset_bit_t *s)
{
    sci_node_flip<false, 2>(m->rootp, s);
    Vsclc3n2___024root___eval_settle(m->rootp);
}
template <> void rtl_upset(Vscp2sn2 *m, const dev_upset_bit_t *s)
{
    sci_node_flip<true, 2>(m->rootp, s);
    Vscp2sn2___024root___eval_settle(m->rootp);
}

// A unit's clock rising half a period after it is told to go (the edge that ends the cycle):
// the fall is written with the cycle's inputs, so that the model evaluates them and the fall
// at once, and the rise comes from inside the kernel, so that a cycle is one sc_start. `go` is
// notified half a period ahead: the rise is the process's only activation in a cycle.
struct ClockGen : sc_module {
    SC_HAS_PROCESS(ClockGen);
    ClockGen(sc_module_name n, sc_signal<bool> &clk) : sc_module(n), clk_(clk)
    {
        SC_METHOD(run);
        sensitive << go;
        dont_initialize();
    }
    sc_event go;

  private:
    void run() { clk_.write(true); }
    sc_signal<bool> &clk_;
};

// A unit as a device: its dev_ops_t is the one shim template's table (harness/core/vl_dev.h,
// ftsim::DevOps), over these methods.
struct UnitBase {
    virtual ~UnitBase() {}
    virtual void set_reset(bool a) = 0;
    virtual void set_inputs(const uint64_t *in) = 0;
    virtual void get_outputs(uint64_t *out) = 0;
    virtual void reg_port_write(uint32_t addr, uint64_t data, uint8_t strb) = 0;
    virtual uint64_t reg_read(uint32_t addr) = 0;
    virtual void debug(uint64_t *w) = 0;
    virtual ClockGen &clock() = 0;
    virtual void clock_low() = 0;
    virtual void we_off() = 0;
    virtual void trace(VerilatedFstC *t) = 0; // RTL only
    virtual void renew() {}                   // C model only: a fresh model
    virtual ScRegPins reg_pins() = 0;
    virtual bool csim_model(const dev_ops_t **ops, void **self) = 0;
    virtual int upset(const dev_upset_bit_t *s, char *err, size_t errlen) = 0;
    dev_impl_t impl = DEV_IMPL_RTL;
    bool busy = false;
    ftsim::VlWave wave;

    void close()
    {
        wave.close();
        busy = false; // back to the pool: SystemC modules live as long as the kernel
    }
    // One period of the unit's clock, one sc_start: the clock falls, the rising edge 5 ns later
    // ends the cycle, the period's last 5 ns pass; then the write strobe drops. Traced, the
    // cycle's inputs settle with the clock high first (dumped at 10 t ns), then with the clock
    // low (dumped at 10 t + 5 ns).
    void tick(uint64_t cycle)
    {
        if (wave.on(cycle)) {
            settle();
            wave.dump(cycle, false);
            clock_low();
            settle();
            wave.dump(cycle, true);
        } else
            clock_low();
        clock().go.notify(kHalf);
        sc_start(kPeriod);
        we_off();
    }
    int trace_open(const char *path, char *err, size_t errlen)
    {
        if (impl != DEV_IMPL_RTL)
            return dev_csim_trace_open(this, path, err, errlen);
        if (!wave.tfp)
            settle(); // elaboration done: Verilator traces an SC model only after it
        return wave.open([this](VerilatedFstC *t) { trace(t); }, path, err, errlen);
    }
    void trace_close(uint64_t cycle)
    {
        if (!wave.tfp)
            return;
        if (wave.on(cycle)) {
            settle();
            wave.dump(cycle, false); // the last cycle shows too
        }
        wave.close();
    }
    void trace_window(uint64_t from, uint64_t to) { wave.window(from, to); }
    // An assertion of the RTL (1), or one after an upset (2: an observation, vl_common.h).
    int internal_error() { return ftsim_vl_internal_error(); }
};

template <class Fam, class M> struct Unit : UnitBase {
    Pins<Fam> pins;
    M *mod;
    ClockGen gen;
    Unit(const std::string &name, M *m)
        : pins((name + "_pins").c_str()), mod(m), gen((name + "_clock").c_str(), pins.clk_i)
    {
        pins.bind(*m);
    }
    void set_reset(bool a) override { pins.rst_ni.write(!a); }
    void set_inputs(const uint64_t *in) override { Fam::ins_put(pins, in); }
    void get_outputs(uint64_t *out) override { Fam::outs_get(pins, out); }
    void reg_port_write(uint32_t addr, uint64_t data, uint8_t strb) override
    {
        pins.reg_we_i.write(true);
        pins.reg_waddr_i.write(addr);
        pins.reg_wdata_i.write(data);
        pins.reg_wstrb_i.write(strb);
    }
    uint64_t reg_read(uint32_t addr) override
    {
        if (addr > 0xFF)
            return 0;
        pins.reg_raddr_i.write(addr);
        settle();
        return pins.reg_rdata_o.read();
    }
    void debug(uint64_t *w) override { Fam::debug(*this, w); }
    ClockGen &clock() override { return gen; }
    void clock_low() override { pins.clk_i.write(false); }
    void we_off() override
    {
        if (pins.reg_we_i.read()) // most cycles write no register: no signal write then
            pins.reg_we_i.write(false);
    }
    void trace(VerilatedFstC *t) override
    {
        if constexpr (!std::is_base_of_v<CsimPorts<Fam>, M>)
            mod->trace(t, 99);
    }
    void renew() override
    {
        if constexpr (std::is_base_of_v<CsimPorts<Fam>, M>)
            mod->renew();
    }
    ScRegPins reg_pins() override
    {
        return {pins.clk_i,       pins.rst_ni,      pins.reg_we_i,    pins.reg_waddr_i,
                pins.reg_wdata_i, pins.reg_wstrb_i, pins.reg_raddr_i, pins.reg_rdata_o};
    }
    bool csim_model(const dev_ops_t **ops, void **self) override
    {
        if constexpr (std::is_base_of_v<CsimPorts<Fam>, M>) {
            *ops = mod->ops();
            *self = mod->model();
            return true;
        }
        return false;
    }
    // The flip in whichever model the unit holds, then the kernel settled at the current
    // time: the outputs and the read port show it before the cycle's inputs are applied.
    int upset(const dev_upset_bit_t *s, char *err, size_t errlen) override
    {
        if constexpr (std::is_base_of_v<CsimPorts<Fam>, M>) {
            if (mod->upset(s, err, errlen) < 0)
                return -1;
        } else {
            rtl_upset(mod, s);
            ftsim_vl_upset_taken();
        }
        settle();
        return 0;
    }
};

UnitBase *me(void *self) { return static_cast<UnitBase *>(self); }

constexpr const dev_ops_t &unit_ops = ftsim::DevOps<UnitBase>::table;

// ---- the units of each design, created once per process (sc_dev.h says why) ------------------

struct Pool {
    const dev_design_t *design;
    std::vector<std::unique_ptr<UnitBase>> units;
};

// One more RTL unit and one more C model unit of a design. The first RTL unit is named TOP, so
// that its waveform has the scopes of the C harness's (TOP.<module>...), which the committed
// layouts name.
template <class Fam, class V> void add_units(Pool &p, const dev_design_t *orig)
{
    size_t k = p.units.size() / 2;
    std::string rn = k ? "rtl_" + std::to_string(k) : "TOP", cn = "csim_" + std::to_string(k);
    auto *r = new Unit<Fam, V>(rn, new V(rn.c_str()));
    r->impl = DEV_IMPL_RTL;
    p.units.emplace_back(r);
    auto *c = new Unit<Fam, CsimModule<Fam>>(cn, new CsimModule<Fam>(cn.c_str(), orig));
    c->impl = DEV_IMPL_CSIM;
    p.units.emplace_back(c);
}

bool kernel_started()
{
    return sc_is_running() || sc_time_stamp() > SC_ZERO_TIME || sc_delta_count() > 0;
}

// The SC designs: the C harness's fixed designs with `create` making SC units.
void *sc_create(const dev_design_t *d, dev_impl_t impl, const char *instance, const dev_ops_t **ops,
                char *err, size_t errlen);

dev_design_t sc_copy(const dev_design_t &o)
{
    dev_design_t d = o;
    d.create = sc_create;
    return d;
}

const dev_design_t sc_rn1 = sc_copy(rn1_design), sc_lc3 = sc_copy(lc3_design),
                   sc_p2s = sc_copy(p2s_design), sc_lc3node = sc_copy(lc3node_design),
                   sc_p2snode = sc_copy(p2snode_design), sc_lc3node2 = sc_copy(lc3node2_design),
                   sc_p2snode2 = sc_copy(p2snode2_design);

struct Pair {
    const dev_design_t *sc, *orig;
    void (*add)(Pool &, const dev_design_t *);
};
const Pair pairs[] = {
    {&sc_rn1, &rn1_design, add_units<Rn1Fam, Vscrn1>},
    {&sc_lc3, &lc3_design, add_units<LcFam, Vsclc3>},
    {&sc_p2s, &p2s_design, add_units<LcFam, Vscp2s>},
    {&sc_lc3node, &lc3node_design, add_units<NodeFam<1>, Vsclc3n1>},
    {&sc_p2snode, &p2snode_design, add_units<NodeFam<1>, Vscp2sn1>},
    {&sc_lc3node2, &lc3node2_design, add_units<NodeFam<2>, Vsclc3n2>},
    {&sc_p2snode2, &p2snode2_design, add_units<NodeFam<2>, Vscp2sn2>},
};

void *sc_create(const dev_design_t *d, dev_impl_t impl, const char *instance, const dev_ops_t **ops,
                char *err, size_t errlen)
{
    (void)instance;
    // The process's units by design: SystemC's module hierarchy is process-wide, and so is this.
    static std::vector<Pool> pools;
    const Pair *pr = nullptr;
    for (const Pair &p : pairs)
        if (p.sc == d)
            pr = &p;
    if (!pr) {
        snprintf(err, errlen, "%s: not a design of the SystemC harness", d->name);
        return nullptr;
    }
    Pool *pool = nullptr;
    for (Pool &p : pools)
        if (p.design == d)
            pool = &p;
    if (!pool) {
        if (kernel_started()) {
            snprintf(err, errlen,
                     "%s: the SystemC kernel has started; its modules are made before (one "
                     "design a process)",
                     d->name);
            return nullptr;
        }
        Verilated::threadContextp(ftsim_vl_context()); // the Verilated modules' one context
        pools.push_back(Pool{d, {}});
        pool = &pools.back();
        pr->add(*pool, pr->orig);
        pr->add(*pool, pr->orig);
    }
    for (;;) {
        for (auto &u : pool->units)
            if (u->impl == impl && !u->busy) {
                u->busy = true;
                u->renew();
                *ops = &unit_ops;
                return u.get();
            }
        if (kernel_started())
            break;
        pr->add(*pool, pr->orig); // a network's routers: as many as it opens before the kernel runs
    }
    snprintf(err, errlen,
             "%s: no free %s unit (the SystemC kernel has started: units are made before)", d->name,
             dev_impl_name(impl));
    return nullptr;
}

// RNP networks of SystemC RN1 units (the C harness's composition, sci_ring-style wires).
const dev_design_t *sc_rnpnet_find(const char *name)
{
    return rnpnet_find_design_on(name, &sc_rn1);
}
const dev_lookup_t sc_lookups[] = {sc_rnpnet_find, nullptr};

const dev_design_t *const sc_fixed[] = {&sc_rn1,     &sc_lc3,      &sc_p2s,      &sc_lc3node,
                                        &sc_p2snode, &sc_lc3node2, &sc_p2snode2, nullptr};

} // namespace ftsim_sc

const dev_catalog_t sc_catalog = {
    ftsim_sc::sc_fixed,
    ftsim_sc::sc_lookups,
    "ftsim-sc plays the single-device designs (rn1, lc3, p2s, lc3node, p2snode, lc3node2, "
    "p2snode2) and RNP networks of SystemC RN1s, rnpnetN[xE][wS] (rings and tori: build/ftsim)",
};

const dev_design_t *sc_design_for(const dev_design_t *d)
{
    for (const ftsim_sc::Pair &p : ftsim_sc::pairs)
        if (p.orig == d || p.sc == d)
            return p.sc;
    return nullptr;
}

ScRegPins sc_dev_reg_pins(device_t *d) { return ftsim_sc::me(d->self)->reg_pins(); }

bool sc_dev_csim_model(device_t *d, const dev_ops_t **ops, void **self)
{
    return ftsim_sc::me(d->self)->csim_model(ops, self);
}
