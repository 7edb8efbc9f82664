// vl_dev.h — every Verilated model of ftsim behind the one device interface (dev.h), through one
// template (after ZipCPU's TESTB<VA>: the generated class is the template parameter, the shim
// keeps only what differs between designs).
//
// Two layers:
//   DevOps<T>  the dev_ops_t table of any C++ device class T: one thunk per member, each calling
//              T's method of the same name. The optional members are there only when T has the
//              method (upset, trace_attach, phase, control); the others are required, and a
//              class that lacks one does not compile. The SystemC units (harness/sc) use it too.
//   VlDev<F>   a Verilated --cc model of ftsim's RTL as such a class: the clock (clk_i), reset
//              (rst_ni), register port (reg_*), waveforms and assertions are the same for every
//              design; F, the family's traits, says the rest:
//                using Model = Vxxx;                               the generated class
//                static void inputs(Model *, const uint64_t *in);  in[port] onto the input pins
//                static void outputs(Model *, uint64_t *out);      the output pins into out[port]
//              and optionally
//                static void debug(VlDev<F> &, uint64_t *w);       the design's debug words
//                                                                  (absent: none)
//                static void upset(Model *, const dev_upset_bit_t *);    flip the element's bit and
//                                                                  settle (absent: no upsets)
//              A synthesized netlist has no named registers and no settle function: its traits
//              give neither debug nor upset (or a debug that reads through the register port,
//              VlDev::reg_read), and everything else stays as it is.
//
// Contexts: a model is made in the VerilatedContext its creator hands in (nullptr: the process's
// one, vl_common.h), and its assertions are polled on that context, so that models run on
// threads of their own can each have one (Verilator evaluates one context on one thread at a
// time).
#ifndef FTSIM_VL_DEV_H
#define FTSIM_VL_DEV_H

#include <cstdint>
#include <cstdio>

#include "verilated_fst_c.h"
#include "vl_common.h"

extern "C" {
#include "dev.h"
#include "vl_trace.h"
}

namespace ftsim
{

template <class T> struct DevOps {
    static T *me(void *s) { return static_cast<T *>(s); }
    static constexpr bool kUpset = requires(T &t, const dev_upset_bit_t *s, char *e) {
        t.upset(s, e, size_t{});
    };
    static constexpr bool kShared = requires(T &t, void *tr) {
        t.trace_attach(tr);
        t.phase(0);
    };
    static constexpr bool kControl = requires(T &t, const char *c, char *e) { t.control(c, e, size_t{}); };

    static constexpr dev_ops_t table = {
        .destroy = [](void *s) { me(s)->close(); },
        .set_reset = [](void *s, bool a) { me(s)->set_reset(a); },
        .set_inputs = [](void *s, const uint64_t *in) { me(s)->set_inputs(in); },
        .get_outputs = [](void *s, uint64_t *out) { me(s)->get_outputs(out); },
        // A masked write as the register port takes it: byte strobes, the bytes' other bits from
        // the register's current value (dev_strobe_write).
        .reg_write =
            [](void *s, uint32_t addr, uint64_t data, uint64_t mask) {
                uint64_t wdata;
                uint8_t wstrb;
                dev_strobe_write(me(s)->reg_read(addr), data, mask, &wdata, &wstrb);
                me(s)->reg_port_write(addr, wdata, wstrb);
            },
        .reg_read = [](void *s, uint32_t addr) -> uint64_t { return me(s)->reg_read(addr); },
        .debug = [](void *s, uint64_t *w) { me(s)->debug(w); },
        .tick = [](void *s, uint64_t cycle) { me(s)->tick(cycle); },
        .trace_open = [](void *s, const char *path, char *err, size_t errlen) -> int {
            return me(s)->trace_open(path, err, errlen);
        },
        .trace_close = [](void *s, uint64_t cycle) { me(s)->trace_close(cycle); },
        .internal_error = [](void *s) -> int { return me(s)->internal_error(); },
        .control = [] {
            if constexpr (kControl)
                return +[](void *s, const char *c, char *e, size_t n) -> int {
                    return me(s)->control(c, e, n);
                };
            else
                return &dev_no_control;
        }(),
        .skip = nullptr,
        .trace_window = [](void *s, uint64_t from, uint64_t to) { me(s)->trace_window(from, to); },
        .upset = [] {
            if constexpr (kUpset)
                return +[](void *s, const dev_upset_bit_t *u, char *e, size_t n) -> int {
                    return me(s)->upset(u, e, n);
                };
            else
                return static_cast<int (*)(void *, const dev_upset_bit_t *, char *, size_t)>(nullptr);
        }(),
        .trace_attach = [] {
            if constexpr (kShared)
                return +[](void *s, void *tr) { me(s)->trace_attach(tr); };
            else
                return static_cast<void (*)(void *, void *)>(nullptr);
        }(),
        .phase = [] {
            if constexpr (kShared)
                return +[](void *s, int ph) { me(s)->phase(ph); };
            else
                return static_cast<void (*)(void *, int)>(nullptr);
        }(),
    };
};

// A waveform of one device's own (dev_ops_t.trace_open .. trace_close), for any device class
// whose clock is run by `step` (the phases of ftsim_vl_phase) and whose signals `attach` hooks
// to the writer.
struct VlWave {
    VerilatedFstC *tfp = nullptr;

    template <class Attach>
    int open(Attach attach, const char *path, char *err, size_t errlen)
    {
        if (tfp) {
            snprintf(err, errlen, "%s: a waveform is already open", path);
            return -1;
        }
        tfp = ftsim_vl_fst_for(attach, path, err, errlen);
        return tfp ? 0 : -1;
    }
    bool on(uint64_t cycle) const { return tfp && ftsim_vl_trace_on(tfp, cycle); }
    void dump(uint64_t cycle, bool half)
    {
        ftsim_vl_trace_dump(tfp, cycle * DEV_NS_PER_CYCLE + (half ? DEV_NS_PER_CYCLE / 2 : 0));
    }
    void window(uint64_t from, uint64_t to)
    {
        if (tfp)
            ftsim_vl_trace_window(tfp, from, to);
    }
    void close()
    {
        if (tfp)
            ftsim_vl_trace_close(tfp);
        tfp = nullptr;
    }
};

template <class F> class VlDev
{
  public:
    using Model = typename F::Model;
    Model *top;

    // The scope in waveforms: TOP for a device on its own (the committed layouts, waves/*.gtkw,
    // name TOP.<module>), the instance's name in a network or a torus.
    static void *create(VerilatedContext *ctx, const char *instance, const dev_ops_t **ops)
    {
        *ops = &DevOps<VlDev>::table;
        return new VlDev(ctx, instance && *instance ? instance : "TOP");
    }

    void close() { delete this; }
    void set_reset(bool asserted) { top->rst_ni = asserted ? 0 : 1; }
    void set_inputs(const uint64_t *in) { F::inputs(top, in); }
    void get_outputs(uint64_t *out) { F::outputs(top, out); }
    uint64_t reg_read(uint32_t addr)
    {
        if (addr > 0xFF)
            return 0;
        top->reg_raddr_i = static_cast<uint8_t>(addr);
        Verilated::threadContextp(top->contextp());
        top->eval();
        return top->reg_rdata_o;
    }
    // Driven for the next rising edge; phase 2 drops the strobe after it.
    void reg_port_write(uint32_t addr, uint64_t wdata, uint8_t wstrb)
    {
        top->reg_we_i = 1;
        top->reg_waddr_i = static_cast<uint8_t>(addr);
        top->reg_wdata_i = wdata;
        top->reg_wstrb_i = wstrb;
    }
    void debug(uint64_t *w)
    {
        if constexpr (requires { F::debug(*this, w); })
            F::debug(*this, w);
    }
    // Untraced, or outside the waveform's window: the edge alone (its eval with the clock low
    // settles the inputs). Traced: the cycle dumped with the clock high, then low, then the edge.
    void tick(uint64_t cycle)
    {
        if (wave_.on(cycle))
            for (int ph = 0; ph < 2; ph++) {
                phase(ph);
                wave_.dump(cycle, ph);
            }
        phase(2);
    }
    int trace_open(const char *path, char *err, size_t errlen)
    {
        return wave_.open([this](VerilatedFstC *t) { trace_attach(t); }, path, err, errlen);
    }
    // The last cycle shows too; then the clock is low again, so that the next phase 2 is an edge.
    void trace_close(uint64_t cycle)
    {
        if (wave_.on(cycle)) {
            phase(0);
            wave_.dump(cycle, false);
            phase(1);
        }
        wave_.close();
    }
    void trace_window(uint64_t from, uint64_t to) { wave_.window(from, to); }
    int internal_error() { return ftsim_vl_internal_error(top->contextp()); }
    int upset(const dev_upset_bit_t *s, char *err, size_t errlen)
        requires requires(Model *m, const dev_upset_bit_t *u) { F::upset(m, u); }
    {
        (void)err, (void)errlen;
        F::upset(top, s);
        ftsim_vl_upset_taken();
        return 0;
    }
    // A part of a network's shared waveform (vl_trace.h): attached before it opens, its clock
    // run by the network in phases interleaved with the dumps (ftsim_vl_phase).
    void trace_attach(void *tr) { top->trace(static_cast<VerilatedFstC *>(tr), 99); }
    void phase(int ph) { ftsim_vl_phase(top, ph); }

  private:
    VlWave wave_;

    VlDev(VerilatedContext *ctx, const char *name) : top(ftsim_vl_new<Model>(ctx, name))
    {
        ftsim_vl_run_start(top->contextp());
        top->clk_i = 1;
        top->rst_ni = 0;
        top->reg_we_i = 0;
        Verilated::threadContextp(top->contextp());
        top->eval();
    }
    ~VlDev()
    {
        wave_.close();
        top->final();
        ftsim_vl_release(top);
    }
};

} // namespace ftsim

#endif
