/* vl_ctx.h — Verilator contexts of their own, for models evaluated on several threads (C ABI).
 * Verilator evaluates one context on one thread at a time; models in different contexts run on
 * threads side by side. A model's edge and register reads tell the runtime their context
 * (vl_common.h, ftsim_vl_phase), so an assertion lands in its model's context on any thread.
 * A Verilated waveform holds the models of one context only: a waveform of several is written
 * in parts, one a context, and merged (vl_trace.h, ftsim_vl_trace_part). */
#ifndef FTSIM_VL_CTX_H
#define FTSIM_VL_CTX_H

/* A new context, set up as the process's (tracing on, assertions reported, not fatal). */
void *ftsim_vl_ctx_new(void);
/* Deletes a context; after every model made in it. */
void ftsim_vl_ctx_free(void *ctx);
/* The models the calling thread makes from now on, whose maker names no context, go into ctx
 * (NULL: the process's, as before). */
void ftsim_vl_make_in(void *ctx);

#endif
