// sci_rtl.cpp — thin shim: the Verilated rtl/sci_lc.v (LC3: Vlc3, P2S: Vp2s, the same module
// with P2s = 0 / 1) behind the C device interface, with the timing of dev.h (as rn1_rtl.cpp).
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "Vlc3.h"
#include "Vlc3__Syms.h"
#include "Vp2s.h"
#include "Vp2s__Syms.h"
#include "verilated_fst_c.h"
#include "vl_common.h"
#include "vl_trace.h"

extern "C" {
#include "sci_dev.h"
#include "sci_lc.h"
#include "sci_word.h"
}
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

struct SciRtlBase {
    virtual ~SciRtlBase() {}
    VerilatedFstC *tfp = nullptr;
    virtual void set_reset(bool a) = 0;
    virtual void set_inputs(const uint64_t *in) = 0;
    virtual void get_outputs(uint64_t *out) = 0;
    virtual uint64_t reg_read(uint32_t addr) = 0;
    virtual uint64_t dbg() const = 0;
    virtual void reg_write(uint64_t data, uint8_t strb, uint32_t addr) = 0;
    virtual void tick(uint64_t cycle) = 0;
    virtual void trace(VerilatedFstC *t) = 0;
    virtual void eval() = 0;
    virtual void upset(const dev_seu_t *s) = 0;
};

template <class V> struct SciRtl : SciRtlBase {
    V *top;
    explicit SciRtl(const char *name) : top(ftsim_vl_new<V>(name))
    {
        top->clk_i = 1;
        top->rst_ni = 0;
        top->reg_we_i = 0;
        top->eval();
    }
    ~SciRtl() override
    {
        if (tfp)
            ftsim_vl_trace_close(tfp);
        top->final();
        ftsim_vl_release(top);
    }
    void set_reset(bool a) override { top->rst_ni = a ? 0 : 1; }
    void set_inputs(const uint64_t *in) override
    {
        top->lin_i = static_cast<uint32_t>(in[SCI_P_LIN] & 0x1FFFF);
        top->lin_sd_i = in[SCI_P_LIN_SD] & 1u;
        top->bin_i = static_cast<uint32_t>(in[SCI_P_BIN] & 0x1FFFF);
        top->bin_last_i = (in[SCI_P_BIN] & SCI_LAST) != 0;
        top->bout_ready_i = in[SCI_P_BOUT_READY] & 1u;
    }
    void get_outputs(uint64_t *out) override
    {
        out[SCI_P_LOUT] = top->lout_o;
        out[SCI_P_LOUT_SD] = top->lout_sd_o;
        out[SCI_P_BIN_READY] = top->bin_ready_o;
        out[SCI_P_BOUT] =
            top->bout_valid_o ? (top->bout_o | SCI_FLAG | (top->bout_last_o ? SCI_LAST : 0u)) : 0;
        out[SCI_P_BOUT_PORT] = top->bout_valid_o ? top->bout_port_o : 0;
        out[SCI_P_IRQ] = top->irq_o;
    }
    uint64_t reg_read(uint32_t addr) override
    {
        if (addr > 0xFF)
            return 0;
        top->reg_raddr_i = static_cast<uint8_t>(addr);
        top->eval();
        return top->reg_rdata_o;
    }
    uint64_t dbg() const override { return top->dbg_o; }
    void reg_write(uint64_t data, uint8_t strb, uint32_t addr) override
    {
        top->reg_we_i = 1;
        top->reg_waddr_i = static_cast<uint8_t>(addr);
        top->reg_wdata_i = data;
        top->reg_wstrb_i = strb;
    }
    void tick(uint64_t cycle) override
    {
        if (tfp && ftsim_vl_trace_on(tfp, cycle))
            for (int ph = 0; ph < 2; ph++) {
                ftsim_vl_phase(top, ph);
                ftsim_vl_trace_dump(tfp,
                                    cycle * DEV_NS_PER_CYCLE + (ph ? DEV_NS_PER_CYCLE / 2 : 0));
            }
        ftsim_vl_phase(top, 2);
    }
    void trace(VerilatedFstC *t) override { top->trace(t, 99); }
    void eval() override { top->eval(); }
    // The member of the element flipped, then the model settled (sci_lc_upset.h).
    void upset(const dev_seu_t *s) override
    {
        lc_flip(top->rootp, s->entry, s->index, s->bit);
        settle(top->rootp);
        ftsim_vl_upset_taken();
    }
};

SciRtlBase *me(void *self) { return static_cast<SciRtlBase *>(self); }

void destroy(void *self) { delete me(self); }
void set_reset(void *self, bool a) { me(self)->set_reset(a); }
void set_inputs(void *self, const uint64_t *in) { me(self)->set_inputs(in); }
void get_outputs(void *self, uint64_t *out) { me(self)->get_outputs(out); }
uint64_t reg_read(void *self, uint32_t addr) { return me(self)->reg_read(addr); }

void reg_write(void *self, uint32_t addr, uint64_t data, uint64_t mask)
{
    uint64_t wdata;
    uint8_t wstrb;
    dev_strobe_write(me(self)->reg_read(addr), data, mask, &wdata, &wstrb);
    me(self)->reg_write(wdata, wstrb, addr);
}

// The debug words: DBG from the dbg_o output (the register itself, rtl/sci_lc.md), the others
// through the register port (a read is a whole eval of the model).
void debug(void *self, uint64_t *w)
{
    for (unsigned k = 0; k < SCI_NDEBUG; k++)
        w[k] = sci_debug_addr(k) == SCI_REG_DBG ? me(self)->dbg()
                                                : me(self)->reg_read(sci_debug_addr(k));
}

void tick(void *self, uint64_t cycle) { me(self)->tick(cycle); }

int trace_open(void *self, const char *path, char *err, size_t errlen)
{
    SciRtlBase *s = me(self);
    if (s->tfp) {
        snprintf(err, errlen, "%s: a waveform is already open", path);
        return -1;
    }
    s->tfp = ftsim_vl_fst_for([s](VerilatedFstC *t) { s->trace(t); }, path, err, errlen);
    return s->tfp ? 0 : -1;
}

void trace_close(void *self, uint64_t cycle)
{
    SciRtlBase *s = me(self);
    if (!s->tfp)
        return;
    if (ftsim_vl_trace_on(s->tfp, cycle)) {
        s->eval();
        ftsim_vl_trace_dump(s->tfp, cycle * DEV_NS_PER_CYCLE);
    }
    ftsim_vl_trace_close(s->tfp);
    s->tfp = nullptr;
}

int internal_error(void *self)
{
    (void)self;
    return ftsim_vl_internal_error();
}

void trace_window(void *self, uint64_t from, uint64_t to)
{
    SciRtlBase *s = me(self);
    if (s->tfp)
        ftsim_vl_trace_window(s->tfp, from, to);
}

int upset(void *self, const dev_seu_t *s, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    me(self)->upset(s);
    return 0;
}

const dev_ops_t ops = {destroy,        set_reset,      set_inputs, get_outputs,  reg_write,
                       reg_read,       debug,          tick,       trace_open,   trace_close,
                       internal_error, dev_no_control, nullptr,    trace_window, upset};

} // namespace

extern "C" void *sci_rtl_create(int p2s, const char *instance, const dev_ops_t **opsp, char *err,
                                size_t errlen)
{
    (void)err;
    (void)errlen;
    const char *name = instance && *instance ? instance : "TOP";
    ftsim_vl_run_start();
    SciRtlBase *s = p2s ? static_cast<SciRtlBase *>(new SciRtl<Vp2s>(name))
                        : static_cast<SciRtlBase *>(new SciRtl<Vlc3>(name));
    *opsp = &ops;
    return s;
}
