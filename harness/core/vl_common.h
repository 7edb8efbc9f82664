// vl_common.h — the one Verilator runtime of an ftsim binary, shared by every Verilated model.
#ifndef FTSIM_VL_COMMON_H
#define FTSIM_VL_COMMON_H

#include "verilated.h"

// The shared context, created on first use: tracing enabled, assertions reported instead of
// aborting the process. One per process (vl_common.cpp says why).
VerilatedContext *ftsim_vl_context();

// An FST for one model: `attach` hooks the model to it before it opens. nullptr (message in
// err) if the file cannot be written.
#include <functional>
class VerilatedFstC;
VerilatedFstC *ftsim_vl_fst_for(const std::function<void(VerilatedFstC *)> &attach,
                                const char *path, char *err, size_t errlen);

// One FST for several Verilated models (a network's routers), each under its own scope.
extern "C" {
#include "vl_trace.h"
}

#endif
