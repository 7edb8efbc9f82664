// rn1_rtl.cpp — thin shim: the Verilated rtl/rn1.v behind the C device interface (dev.h).
// Timing per dev.h: a cycle's inputs are applied with the clock high after the edge that
// started it, dumped at 10 t ns (clock high) and 10 t + 5 ns (clock low), and the next
// rising edge commits them.
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "Vrn1.h"
#include "Vrn1__Syms.h"
#include "rn1_upset.h"
#include "verilated_fst_c.h"
#include "vl_common.h"
#include "vl_trace.h"

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

struct Rn1Rtl {
    Vrn1 *top;
    VerilatedFstC *tfp;
};

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

Rn1Rtl *me(void *self) { return static_cast<Rn1Rtl *>(self); }

void destroy(void *self)
{
    Rn1Rtl *s = me(self);
    if (s->tfp)
        ftsim_vl_trace_close(s->tfp);
    s->top->final();
    ftsim_vl_release(s->top);
    delete s;
}

void set_reset(void *self, bool asserted) { me(self)->top->rst_ni = asserted ? 0 : 1; }

void set_inputs(void *self, const uint64_t *in)
{
    Vrn1 *t = me(self)->top;
    uint8_t bc = 0;
    for (unsigned i = 0; i < 8; i++) {
        put_word(t->fwd_i, i, in[RN1_P_FIN(i)]);
        put_word(t->bwd_i, i, in[RN1_P_BIN(i)]);
        bc |= static_cast<uint8_t>((in[RN1_P_BBC(i)] & 1u) << i);
    }
    t->bwd_bc_i = bc;
}

void get_outputs(void *self, uint64_t *out)
{
    Vrn1 *t = me(self)->top;
    for (unsigned i = 0; i < 8; i++) {
        out[RN1_P_FOUT(i)] = get_word(t->fwd_o, i);
        out[RN1_P_BOUT(i)] = get_word(t->bwd_o, i);
        out[RN1_P_FBC(i)] = (t->fwd_bc_o >> i) & 1u;
    }
}

uint64_t reg_read(void *self, uint32_t addr)
{
    Vrn1 *t = me(self)->top;
    if (addr > 0xFF)
        return 0;
    t->reg_raddr_i = static_cast<uint8_t>(addr);
    t->eval();
    return t->reg_rdata_o;
}

void reg_write(void *self, uint32_t addr, uint64_t data, uint64_t mask)
{
    Vrn1 *t = me(self)->top;
    uint64_t wdata;
    uint8_t wstrb;
    dev_strobe_write(reg_read(self, addr), data, mask, &wdata, &wstrb);
    t->reg_we_i = 1;
    t->reg_waddr_i = static_cast<uint8_t>(addr);
    t->reg_wdata_i = wdata;
    t->reg_wstrb_i = wstrb;
}

void debug(void *self, uint64_t *words)
{
    Vrn1 *t = me(self)->top;
    for (unsigned k = 0; k < RN1_NDEBUG; k++)
        words[k] = t->dbg_o[k];
}

void tick(void *self, uint64_t cycle)
{
    Rn1Rtl *s = me(self);
    if (!s->tfp || !ftsim_vl_trace_on(s->tfp, cycle)) {
        rn1_rtl_phase(self, 2); // no dump: the edge alone (its eval with the clock low settles)
        return;
    }
    for (int ph = 0; ph < 2; ph++) {
        rn1_rtl_phase(self, ph);
        ftsim_vl_trace_dump(s->tfp, cycle * DEV_NS_PER_CYCLE + (ph ? DEV_NS_PER_CYCLE / 2 : 0));
    }
    rn1_rtl_phase(self, 2);
}

int trace_open(void *self, const char *path, char *err, size_t errlen)
{
    Rn1Rtl *s = me(self);
    if (s->tfp) {
        snprintf(err, errlen, "%s: a waveform is already open", path);
        return -1;
    }
    s->tfp = ftsim_vl_fst_for([s](VerilatedFstC *t) { s->top->trace(t, 99); }, path, err, errlen);
    return s->tfp ? 0 : -1;
}

void trace_close(void *self, uint64_t cycle)
{
    Rn1Rtl *s = me(self);
    if (!s->tfp)
        return;
    if (ftsim_vl_trace_on(s->tfp, cycle)) {
        rn1_rtl_phase(self, 0);
        ftsim_vl_trace_dump(s->tfp, cycle * DEV_NS_PER_CYCLE); // the last cycle shows too
        rn1_rtl_phase(self, 1); // the clock low again, so that the next edge is one
    }
    ftsim_vl_trace_close(s->tfp);
    s->tfp = nullptr;
}

extern "C" void rn1_rtl_trace_attach(void *self, void *tr)
{
    me(self)->top->trace(static_cast<VerilatedFstC *>(tr), 99);
}

extern "C" void rn1_rtl_phase(void *self, int phase) { ftsim_vl_phase(me(self)->top, phase); }

int internal_error(void *self)
{
    (void)self;
    return ftsim_vl_internal_error();
}

// The register of rtl/rn1.v that upset s names (rtl/rn1.md section 14; rn1_upset.h), its bit
// flipped, then the model settled so that every signal computed from it follows.
int upset(void *self, const dev_seu_t *s, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    Vrn1___024root *r = me(self)->top->rootp;
    rn1_flip(r, s->entry, s->bit);
    Vrn1___024root___eval_settle(r);
    ftsim_vl_upset_taken();
    return 0;
}

void trace_window(void *self, uint64_t from, uint64_t to)
{
    Rn1Rtl *s = me(self);
    if (s->tfp)
        ftsim_vl_trace_window(s->tfp, from, to);
}

const dev_ops_t ops = {destroy,        set_reset,      set_inputs, get_outputs,  reg_write,
                       reg_read,       debug,          tick,       trace_open,   trace_close,
                       internal_error, dev_no_control, nullptr,    trace_window, upset};

} // namespace

extern "C" void *rn1_rtl_create(const char *instance, const dev_ops_t **opsp, char *err,
                                size_t errlen)
{
    (void)err;
    (void)errlen;
    ftsim_vl_run_start();
    Rn1Rtl *s = new Rn1Rtl;
    // The scope in waveforms: TOP for a router on its own (waves/rn1.gtkw), rN in a network.
    s->top = ftsim_vl_new<Vrn1>(instance && *instance ? instance : "TOP");
    s->tfp = nullptr;
    s->top->clk_i = 1;
    s->top->rst_ni = 0;
    s->top->reg_we_i = 0;
    s->top->eval();
    *opsp = &ops;
    return s;
}
