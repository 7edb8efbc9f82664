/* vl_trace.h — one FST waveform shared by several Verilated models (C ABI). */
#ifndef FTSIM_VL_TRACE_H
#define FTSIM_VL_TRACE_H

#include <stddef.h>
#include <stdint.h>

void *ftsim_vl_trace_new(void); /* models attach before it opens */
int ftsim_vl_trace_open(void *tr, const char *path, char *err, size_t errlen);
/* Dump only cycles from..to (inclusive; to 0: to the end), on the real time axis
 * (cycle N at N x 10 ns): the dumps of other cycles are dropped, and a model skips the work a
 * dump needs when ftsim_vl_trace_on() says the cycle is outside. The dump at the start of
 * cycle to + 1 is kept, so that the window's last cycle shows whole. from UINT64_MAX: nothing
 * is dumped until the window is set again (a run that places its window once it starts). */
void ftsim_vl_trace_window(void *tr, uint64_t from, uint64_t to);
/* Whether cycle `cycle` has a dump in the window (UINT64_MAX, a reset edge at creation: no). */
int ftsim_vl_trace_on(const void *tr, uint64_t cycle);
void ftsim_vl_trace_dump(void *tr, uint64_t time_ns);
/* Closes the waveform; one in parts is merged into its path here (a part it cannot merge is
 * said on stderr). */
void ftsim_vl_trace_close(void *tr);
/* Part k of waveform tr (made on first use, before tr opens; parts 0, 1, ... in order): a
 * waveform of its own for models of another Verilator context (a trace holds the models of
 * one), which their owner dumps at the same times as tr, on the thread that runs them. tr's
 * window is theirs; ftsim_vl_trace_close(tr) closes them and writes one FST at tr's path: tr's
 * own models' scopes first, then part 0's, part 1's, ..., with the signals, handles and value
 * changes one waveform holding all of those models in that order would have (vl_fst_merge.cpp). */
void *ftsim_vl_trace_part(void *tr, unsigned k);
/* A model joins a shared waveform through its dev_ops_t.trace_attach and runs its clock edge in
 * the phases of dev_ops_t.phase (dev.h), which the owner interleaves with the dumps. */

#endif
