/*
 * gate.h — the gate-level models: each design's synthesized netlist (build/synth/NAME.v, make
 * synth) Verilated behind the same shim template as its RTL and built into a model that the
 * binary loads when asked for it (make gate: build/gate/NAME.so beside build/ftsim). So `make
 * build` needs no synthesis, and `ftsim play --model gate` finds the netlist's model at run time.
 *
 * A loadable model (harness/gate/README.md) exports, with C linkage:
 *   ftsim_gate_create    void *(const char *instance, const dev_ops_t **ops, char *err,
 *                        size_t errlen): a model, as a design's create hook makes one
 *   ftsim_gate_design    const char[]: the design it is (dev_design_t.name)
 *   ftsim_gate_netlist   const char[]: the netlist it was built from (an absolute path)
 *   ftsim_gate_sha256    const char[]: that netlist's SHA-256, when it was built
 *   ftsim_gate_abi       const unsigned: GATE_ABI of the headers it was built with
 * and resolves the harness's and Verilator's symbols against the binary (linked -rdynamic).
 * It is found in the folder FTSIM_GATE_DIR names, else in gate/ beside the binary.
 */
#ifndef FTSIM_GATE_H
#define FTSIM_GATE_H

#include <stddef.h>

#include "dev.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Changes whenever the interface a loadable model is built against does. */
#define GATE_ABI ((unsigned)(sizeof(dev_ops_t) * 1000u + sizeof(dev_upset_bit_t)))

typedef struct gate_info {
    char so[1024];      /* the loadable model's path */
    char netlist[1024]; /* the netlist it was built from */
    char sha256[65];    /* that netlist's hash when the model was built */
    int stale;          /* 1: the netlist has changed since (its file is newer than the model) */
} gate_info_t;

/* Which gate-level model design d would use: 0 and *gi, or -1 with a message (none built, or
 * one that cannot be loaded) that says how to build one. */
int gate_info(const dev_design_t *d, gate_info_t *gi, char *err, size_t errlen);

/* A gate-level model of d (dev_open with DEV_IMPL_GATE), or NULL with a message. */
void *gate_create(const dev_design_t *d, const char *instance, const dev_ops_t **ops, char *err,
                  size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
