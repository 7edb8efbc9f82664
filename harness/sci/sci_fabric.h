/* sci_fabric.h — what a fabric of SCI node models (a ring, a torus) does the same way whatever
 * its wiring: one clock edge for every node, one FST for every node's RTL, internal errors. */
#ifndef FTSIM_SCI_FABRIC_H
#define FTSIM_SCI_FABRIC_H

#include <stdbool.h>

#include "dev.h"

/* The clock edge that ends `cycle` for n node models whose inputs are set. With a shared trace
 * (RTL), every node's edge runs in three phases so the one waveform sees them together. */
void sci_fabric_tick(device_t *const *node, unsigned n, void *trace, uint64_t cycle);
/* Open one FST for every node (RTL only): *trace is set on success. In parts (nparts > 1: nodes
 * part_lo[p] .. part_lo[p + 1] - 1 in Verilator context p), each part's nodes go into their
 * part of the waveform (sci_fabric_part_trace with own), which its owner dumps (sci_fabric_tick
 * on the part's nodes); nparts 0: one trace. */
int sci_fabric_trace_open(device_t *const *node, unsigned n, const unsigned *part_lo,
                          unsigned nparts, dev_impl_t impl, void **trace, const char *path,
                          char *err, size_t errlen);
/* The waveform part p's nodes go into (vl_trace.h, ftsim_vl_trace_part): in a waveform of the
 * fabric's own (own), part 0 is the waveform itself and part p > 0 its part p - 1; in one
 * shared with the caller's models (which hold the waveform itself), part p is its part p. */
void *sci_fabric_part_trace(void *trace, unsigned p, bool own);
/* The nodes into trace (in parts as above), before it opens. */
void sci_fabric_trace_attach(device_t *const *node, unsigned n, const unsigned *part_lo,
                             unsigned nparts, bool own, void *trace);
/* The last cycle shown (in every part, and the caller's models in a shared one) and the trace
 * closed. */
void sci_fabric_trace_close(device_t *const *node, unsigned n, const unsigned *part_lo,
                            unsigned nparts, bool own, void **trace, uint64_t cycle);
/* Non-zero once any node model flagged an internal error (an RTL assertion). */
int sci_fabric_internal_error(device_t *const *node, unsigned n);

#endif
