/* sci_fabric.h — what a fabric of SCI node models (a ring, a torus) does the same way whatever
 * its wiring: one clock edge for every node, one FST for every node's RTL, internal errors. */
#ifndef FTSIM_SCI_FABRIC_H
#define FTSIM_SCI_FABRIC_H

#include "dev.h"

/* The clock edge that ends `cycle` for n node models whose inputs are set. With a shared trace
 * (RTL), every node's edge runs in three phases so the one waveform sees them together. */
void sci_fabric_tick(device_t *const *node, unsigned n, void *trace, uint64_t cycle);
/* Open one FST for every node (RTL only): *trace is set on success. */
int sci_fabric_trace_open(device_t *const *node, unsigned n, dev_impl_t impl, void **trace,
                          const char *path, char *err, size_t errlen);
void sci_fabric_trace_close(device_t *const *node, unsigned n, void **trace, uint64_t cycle);
/* Non-zero once any node model flagged an internal error (an RTL assertion). */
int sci_fabric_internal_error(device_t *const *node, unsigned n);

#endif
