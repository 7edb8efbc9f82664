// gate_model.h — what every loadable gate-level model exports (harness/core/gate.h): its
// create function, its design, its netlist and that netlist's hash, and the interface it was
// built against. FTSIM_GATE_MODEL(Traits) defines them for the family's pins Traits (the same
// traits as its RTL's shim, without upsets); gate.mk passes the rest as macros.
#ifndef FTSIM_GATE_MODEL_H
#define FTSIM_GATE_MODEL_H

#include "vl_dev.h"

extern "C" {
#include "dev.h"
#include "gate.h"
}

#define FTSIM_GATE_MODEL(...)                                                                 \
    extern "C" {                                                                              \
    extern const char ftsim_gate_design[] = GATE_DESIGN;                                      \
    extern const char ftsim_gate_netlist[] = GATE_NETLIST;                                    \
    extern const char ftsim_gate_sha256[] = GATE_SHA256;                                      \
    extern const unsigned ftsim_gate_abi = GATE_ABI;                                          \
    void *ftsim_gate_create(const char *instance, const dev_ops_t **opsp, char *err,          \
                            size_t errlen)                                                    \
    {                                                                                         \
        (void)err, (void)errlen;                                                              \
        return ftsim::VlDev<__VA_ARGS__>::create(nullptr, instance, opsp);                     \
    }                                                                                         \
    }

#endif
