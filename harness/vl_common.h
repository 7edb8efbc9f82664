// vl_common.h — the one Verilator runtime of an ftsim binary, shared by every Verilated model.
#ifndef FTSIM_VL_COMMON_H
#define FTSIM_VL_COMMON_H

#include "verilated.h"

// The shared context: tracing enabled, assertions reported instead of aborting the process.
VerilatedContext *ftsim_vl_context();

// One FST for several Verilated models (a network's routers), each under its own scope.
extern "C" {
#include "vl_trace.h"
}

#endif
