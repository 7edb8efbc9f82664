// vl_common.h — the one Verilator runtime of an ftsim binary, shared by every Verilated model.
#ifndef FTSIM_VL_COMMON_H
#define FTSIM_VL_COMMON_H

#include "verilated.h"

// The shared context, created on first use: tracing enabled, assertions reported instead of
// aborting the process. One per process (vl_common.cpp says why).
VerilatedContext *ftsim_vl_context();

// Every Verilated model of a binary is made and ended through these two, so that the coverage
// build (make coverage, FTSIM_COVERAGE defined) can keep an ended model's coverage counters
// until they are written (vl_common.cpp, "Coverage"). Elsewhere they are new and delete.
void ftsim_vl_born();
void ftsim_vl_retire(void *model, void (*del)(void *));
// The context models made on this thread go into when their maker names none (vl_ctx.h,
// ftsim_vl_make_in); nullptr: the process's.
VerilatedContext *ftsim_vl_make_context();
// A model made in context ctx (nullptr: the one ftsim_vl_make_in chose, else the process's).
// The coverage build writes the counts of the process's context only: it makes every model
// there.
template <class V> V *ftsim_vl_new(VerilatedContext *ctx, const char *name)
{
    if (!ctx)
        ctx = ftsim_vl_make_context();
#ifdef FTSIM_COVERAGE
    ctx = nullptr;
#endif
    V *m = new V(ctx ? ctx : ftsim_vl_context(), name);
    ftsim_vl_born();
    return m;
}
template <class V> void ftsim_vl_release(V *model)
{
    ftsim_vl_retire(model, [](void *m) { delete static_cast<V *>(m); });
}
// Assertions and upsets, the same for every model. A model created starts its run with its
// context's error cleared and assertions on (ctx nullptr: the process's context). Once a model
// of the process took an upset (ftsim_vl_upset_taken), an assertion that fires is an observation of the upset, not a
// mismatch: ftsim_vl_internal_error() then says 2 and turns the assertions off for the rest of
// the run (one that fires every cycle would print every cycle); otherwise 1 for a fired
// assertion, 0 for none. It is dev_ops_t.internal_error of every Verilated model. The upset
// flag is the process's: an upset in one model may fire an assertion of another (a torus's
// neighbour), in whichever context that one runs.
void ftsim_vl_run_start(VerilatedContext *ctx = nullptr);
void ftsim_vl_upset_taken();
int ftsim_vl_internal_error(VerilatedContext *ctx = nullptr);

// An FST for one model: `attach` hooks the model to it before it opens. nullptr (message in
// err) if the file cannot be written.
#include <functional>
class VerilatedFstC;
VerilatedFstC *ftsim_vl_fst_for(const std::function<void(VerilatedFstC *)> &attach,
                                const char *path, char *err, size_t errlen);

// FST files written side by side into one at out: each input's hierarchy in turn (the handles
// one writer of all their models, in that order, would give), every value change in time order
// (vl_fst_merge.cpp), a block every `block` times. false, with a message in err, when a file
// cannot be read or written.
#include <string>
#include <vector>
bool ftsim_fst_merge(const std::vector<std::string> &in, const char *out, unsigned block,
                     std::string &err);

// A clock edge of a Verilated model of ftsim's RTL (clk_i, reg_we_i) in the phases of
// vl_trace.h, the same for every model (VlDev in vl_dev.h):
//   0  this cycle's inputs settled by an eval with the clock low (the eval the rising edge needs
//      anyway), then the clock shown high for the dump at 10 t ns;
//   1  the clock shown low for the dump at 10 t + 5 ns, with no eval;
//   2  the rising edge (after an eval with the clock low if phases 0 and 1 did not run), then
//      the register write strobe dropped.
// Every block of the RTL acts on the rising edge of clk_i only (rtl/rn1.md, sci_lc.md,
// sci_node.md), so the level of the clock drives no other signal and a traced cycle costs the
// two evals of an untraced one (not three). Verilator's tracer skips a model that has not been
// evaluated since the last dump (the __Vm_activity flag of its generated symbol table, which
// the shim includes), so phase 1 raises that flag for the clock's fall to be dumped.
template <class V> void ftsim_vl_phase(V *top, int phase)
{
    // an assertion reports to the calling thread's context: the model's, on whatever thread
    Verilated::threadContextp(top->contextp());
    switch (phase) {
    case 0:
        top->clk_i = 0;
        top->eval();
        top->clk_i = 1;
        break;
    case 1:
        top->clk_i = 0;
        top->rootp->vlSymsp->__Vm_activity = true;
        break;
    default:
        if (top->clk_i) {
            top->clk_i = 0;
            top->eval();
        }
        top->clk_i = 1;
        top->eval();
        top->reg_we_i = 0;
        break;
    }
}

// One FST for several Verilated models (a network's routers), each under its own scope.
extern "C" {
#include "vl_trace.h"
}

#endif
