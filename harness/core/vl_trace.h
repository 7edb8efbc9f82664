/* vl_trace.h — one FST waveform shared by several Verilated models (C ABI). */
#ifndef FTSIM_VL_TRACE_H
#define FTSIM_VL_TRACE_H

#include <stddef.h>
#include <stdint.h>

void *ftsim_vl_trace_new(void); /* models attach before it opens */
int ftsim_vl_trace_open(void *tr, const char *path, char *err, size_t errlen);
void ftsim_vl_trace_dump(void *tr, uint64_t time_ns);
void ftsim_vl_trace_close(void *tr);

/* RN1's RTL (harness/rnp/rn1_rtl.cpp) as a part of a traced network: attach it to a shared trace,
 * and run its clock edge in phases the network interleaves with the dumps: 0 settle the
 * inputs (clock high), 1 clock low, 2 clock high (the edge). */
void rn1_rtl_trace_attach(void *self, void *tr);
void rn1_rtl_phase(void *self, int phase);

#endif
