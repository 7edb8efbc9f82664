// sci_node_rtl.cpp — thin shim: the Verilated rtl/sci_node.v behind the C device interface,
// with the timing of dev.h (as sci_rtl.cpp). Four builds of the one module: LC3 or P2S
// (P2s = 0/1), one or two link controllers (NLC = 1/2): Vlc3n1, Vp2sn1, Vlc3n2, Vp2sn2.
// Port numbering is sci_node_dev's (sci_dev.h: sci_node_port()).
#include <cstdio>
#include <cstring>

#include "Vlc3n1.h"
#include "Vlc3n1__Syms.h"
#include "Vlc3n2.h"
#include "Vlc3n2__Syms.h"
#include "Vp2sn1.h"
#include "Vp2sn1__Syms.h"
#include "Vp2sn2.h"
#include "Vp2sn2__Syms.h"
#include "verilated_fst_c.h"
#include "vl_common.h"
#include "vl_trace.h"

extern "C" {
#include "sci_dev.h"
#include "sci_lc.h"
#include "sci_node.h"
#include "sci_word.h"
}
#include <type_traits>

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

struct NodeBase {
    virtual ~NodeBase() {}
    VerilatedFstC *tfp = nullptr;
    virtual void set_reset(bool a) = 0;
    virtual void set_inputs(const uint64_t *in) = 0;
    virtual void get_outputs(uint64_t *out) = 0;
    virtual uint64_t reg_read(uint32_t addr) = 0;
    virtual void debug(uint64_t *w) = 0;
    virtual void reg_write(uint64_t data, uint8_t strb, uint32_t addr) = 0;
    virtual void phase(int ph) = 0;
    virtual void trace(VerilatedFstC *t) = 0;
    virtual unsigned nlc() const = 0;
    virtual void upset(const dev_seu_t *s) = 0;
};

template <class V, unsigned NLC> struct Node : NodeBase {
    V *top;
    explicit Node(const char *name) : top(ftsim_vl_new<V>(name))
    {
        top->clk_i = 1;
        top->rst_ni = 0;
        top->reg_we_i = 0;
        top->eval();
    }
    ~Node() override
    {
        if (tfp)
            ftsim_vl_trace_close(tfp);
        top->final();
        ftsim_vl_release(top);
    }
    void set_reset(bool a) override { top->rst_ni = a ? 0 : 1; }
    void set_inputs(const uint64_t *in) override
    {
        uint64_t lin = 0, sd = 0;
        for (unsigned k = 0; k < NLC; k++) {
            lin |= (in[sci_node_port(NLC, SCI_NP_LIN, k)] & 0x1FFFFu) << (17 * k);
            sd |= (in[sci_node_port(NLC, SCI_NP_LIN_SD, k)] & 1u) << k;
        }
        top->lin_i = lin;
        top->lin_sd_i = sd;
        uint64_t h = in[sci_node_port(NLC, SCI_NP_HIN, 0)];
        top->hin_i = static_cast<uint32_t>(h & 0x1FFFF);
        top->hin_last_i = (h & SCI_LAST) != 0;
        top->hout_ready_i = in[sci_node_port(NLC, SCI_NP_HOUT_READY, 0)] & 1u;
    }
    void get_outputs(uint64_t *out) override
    {
        uint64_t lout = top->lout_o, sd = top->lout_sd_o, irq = top->irq_o;
        for (unsigned k = 0; k < NLC; k++) {
            out[sci_node_port(NLC, SCI_NP_LOUT, k)] = (lout >> (17 * k)) & 0x1FFFFu;
            out[sci_node_port(NLC, SCI_NP_LOUT_SD, k)] = (sd >> k) & 1u;
            out[sci_node_port(NLC, SCI_NP_IRQ, k)] = (irq >> k) & 1u;
        }
        out[sci_node_port(NLC, SCI_NP_HIN_READY, 0)] = top->hin_ready_o;
        uint32_t h = top->hout_o;
        out[sci_node_port(NLC, SCI_NP_HOUT, 0)] =
            (h & SCI_FLAG) ? (h | (top->hout_last_o ? SCI_LAST : 0u)) : 0;
    }
    uint64_t reg_read(uint32_t addr) override
    {
        if (addr > 0xFF)
            return 0;
        top->reg_raddr_i = static_cast<uint8_t>(addr);
        top->eval();
        return top->reg_rdata_o;
    }
    // The debug words of sci_node_debug_addr(): the DBG registers from the node's debug outputs
    // (rtl/sci_node.md: lc_dbg_o, psb_dbg_o are those registers), the others read through the
    // register port. A register-port read is a whole eval of the model, and lockstep reads the
    // debug words of every node every cycle: three of eight without one.
    void debug(uint64_t *w) override
    {
        for (unsigned k = 0; k < sci_node_ndebug(NLC); k++) {
            uint32_t a = sci_node_debug_addr(NLC, k);
            if (a == SCI_PSB_DBG)
                w[k] = top->psb_dbg_o;
            else if ((a & 0x1Fu) == SCI_REG_DBG && a < SCI_PSB_DBG)
                w[k] = lc_dbg(a / SCI_NODE_LC_STRIDE);
            else
                w[k] = reg_read(a);
        }
    }
    uint64_t lc_dbg(unsigned k) const
    {
        if constexpr (NLC == 1)
            return top->lc_dbg_o;
        else
            return static_cast<uint64_t>(top->lc_dbg_o[2 * k]) |
                   static_cast<uint64_t>(top->lc_dbg_o[2 * k + 1]) << 32;
    }
    void reg_write(uint64_t data, uint8_t strb, uint32_t addr) override
    {
        top->reg_we_i = 1;
        top->reg_waddr_i = static_cast<uint8_t>(addr);
        top->reg_wdata_i = data;
        top->reg_wstrb_i = strb;
    }
    void phase(int ph) override { ftsim_vl_phase(top, ph); }
    void trace(VerilatedFstC *t) override { top->trace(t, 99); }
    unsigned nlc() const override { return NLC; }
    // The member of the element flipped (an LC's or the PSB's; sci_node_upset.h), then the
    // model settled.
    void upset(const dev_seu_t *s) override
    {
        constexpr bool p2s = std::is_same<V, Vp2sn1>::value || std::is_same<V, Vp2sn2>::value;
        sci_node_flip<p2s, NLC>(top->rootp, s);
        settle(top->rootp);
        ftsim_vl_upset_taken();
    }
};

NodeBase *me(void *self) { return static_cast<NodeBase *>(self); }

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

void debug(void *self, uint64_t *w) { me(self)->debug(w); }

void tick(void *self, uint64_t cycle)
{
    NodeBase *s = me(self);
    if (!s->tfp || !ftsim_vl_trace_on(s->tfp, cycle)) {
        s->phase(2); // no dump: the edge alone (its eval with the clock low settles)
        return;
    }
    for (int ph = 0; ph < 2; ph++) {
        s->phase(ph);
        ftsim_vl_trace_dump(s->tfp, cycle * DEV_NS_PER_CYCLE + (ph ? DEV_NS_PER_CYCLE / 2 : 0));
    }
    s->phase(2);
}

int trace_open(void *self, const char *path, char *err, size_t errlen)
{
    NodeBase *s = me(self);
    if (s->tfp) {
        snprintf(err, errlen, "%s: a waveform is already open", path);
        return -1;
    }
    s->tfp = ftsim_vl_fst_for([s](VerilatedFstC *t) { s->trace(t); }, path, err, errlen);
    return s->tfp ? 0 : -1;
}

void trace_close(void *self, uint64_t cycle)
{
    NodeBase *s = me(self);
    if (!s->tfp)
        return;
    if (ftsim_vl_trace_on(s->tfp, cycle)) {
        s->phase(0);
        ftsim_vl_trace_dump(s->tfp, cycle * DEV_NS_PER_CYCLE);
        s->phase(1); // the clock low again, so that the next edge is one
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
    NodeBase *s = me(self);
    if (s->tfp)
        ftsim_vl_trace_window(s->tfp, from, to);
}

int upset(void *self, const dev_seu_t *s, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    me(self)->upset(s);
    return 0;
}

} // namespace

extern "C" const dev_ops_t sci_node_rtl_ops = {
    destroy,    set_reset,   set_inputs,     get_outputs,    reg_write, reg_read,     debug, tick,
    trace_open, trace_close, internal_error, dev_no_control, nullptr,   trace_window, upset};

extern "C" void *sci_node_rtl_new(int p2s, unsigned nlc, const char *instance)
{
    const char *name = instance && *instance ? instance : "TOP";
    ftsim_vl_run_start();
    if (nlc == 2)
        return p2s ? static_cast<NodeBase *>(new Node<Vp2sn2, 2>(name))
                   : static_cast<NodeBase *>(new Node<Vlc3n2, 2>(name));
    return p2s ? static_cast<NodeBase *>(new Node<Vp2sn1, 1>(name))
               : static_cast<NodeBase *>(new Node<Vlc3n1, 1>(name));
}

extern "C" void sci_node_rtl_trace_attach(void *self, void *tr)
{
    me(self)->trace(static_cast<VerilatedFstC *>(tr));
}

extern "C" void sci_node_rtl_phase(void *self, int phase) { me(self)->phase(phase); }
