/* sci_fabric.c — see sci_fabric.h. */
#include "sci_fabric.h"

#include <stdbool.h>
#include <stdio.h>

#include "sci_dev.h"
#include "vl_trace.h"

void sci_fabric_tick(device_t *const *node, unsigned n, void *trace, uint64_t cycle)
{
    if (!trace || !ftsim_vl_trace_on(trace, cycle)) { /* outside the window: as untraced */
        for (unsigned i = 0; i < n; i++)
            node[i]->ops->tick(node[i]->self, cycle);
        return;
    }
    /* dev.h: cycle t at 10 t ns with the clock high, 10 t + 5 ns low, the edge at 10 t + 10 */
    for (int ph = 0; ph < 3; ph++) {
        for (unsigned i = 0; i < n; i++)
            node[i]->ops->phase(node[i]->self, ph);
        if (ph < 2)
            ftsim_vl_trace_dump(trace, cycle * DEV_NS_PER_CYCLE + (ph ? DEV_NS_PER_CYCLE / 2 : 0));
    }
}

void *sci_fabric_part_trace(void *trace, unsigned p, bool own)
{
    return !own ? ftsim_vl_trace_part(trace, p) : p ? ftsim_vl_trace_part(trace, p - 1) : trace;
}

void sci_fabric_trace_attach(device_t *const *node, unsigned n, const unsigned *part_lo,
                             unsigned nparts, bool own, void *trace)
{
    for (unsigned p = 0, i = 0; i < n; i++) {
        while (nparts && i >= part_lo[p + 1])
            p++;
        void *tr = nparts ? sci_fabric_part_trace(trace, p, own) : trace;
        node[i]->ops->trace_attach(node[i]->self, tr);
    }
}

int sci_fabric_trace_open(device_t *const *node, unsigned n, const unsigned *part_lo,
                          unsigned nparts, dev_impl_t impl, void **trace, const char *path,
                          char *err, size_t errlen)
{
    if (impl != DEV_IMPL_RTL) {
        snprintf(err, errlen, "%s: the C model writes no waveform; use --model rtl or both", path);
        return -1;
    }
    if (*trace) {
        snprintf(err, errlen, "%s: a waveform is already open", path);
        return -1;
    }
    void *tr = ftsim_vl_trace_new();
    sci_fabric_trace_attach(node, n, part_lo, nparts, true, tr);
    if (ftsim_vl_trace_open(tr, path, err, errlen) < 0)
        return -1; /* the unopened trace is dropped with the process; the models still run */
    *trace = tr;
    return 0;
}

/* The dump that shows cycle `cycle` of n nodes in trace, then the clock low again (so that the
 * next edge is one). */
static void last_dump(device_t *const *node, unsigned n, void *trace, uint64_t cycle)
{
    for (unsigned i = 0; i < n; i++)
        node[i]->ops->phase(node[i]->self, 0);
    ftsim_vl_trace_dump(trace, cycle * DEV_NS_PER_CYCLE);
    for (unsigned i = 0; i < n; i++)
        node[i]->ops->phase(node[i]->self, 1);
}

void sci_fabric_trace_close(device_t *const *node, unsigned n, const unsigned *part_lo,
                            unsigned nparts, bool own, void **trace, uint64_t cycle)
{
    if (!*trace)
        return;
    if (ftsim_vl_trace_on(*trace, cycle)) {
        for (unsigned p = 0; p < nparts; p++)
            last_dump(node + part_lo[p], part_lo[p + 1] - part_lo[p],
                      sci_fabric_part_trace(*trace, p, own), cycle);
        if (!nparts || !own) /* in parts: the owner's models in the trace itself */
            last_dump(node, nparts ? 0 : n, *trace, cycle);
    }
    ftsim_vl_trace_close(*trace);
    *trace = NULL;
}

int sci_fabric_internal_error(device_t *const *node, unsigned n)
{
    int worst = 0; /* 1, a mismatch, over 2, an assertion after an upset (dev.h) */
    for (unsigned i = 0; i < n && worst != 1; i++) {
        int e = node[i]->ops->internal_error(node[i]->self);
        if (e && (worst == 0 || e == 1))
            worst = e;
    }
    return worst;
}
