// vl_common.cpp — the one VerilatedContext of an ftsim binary.
//
// The context is the harness's only process-wide object, on purpose: Verilator 5 wants one
// context per process, shared by every model, so that one runtime, one simulation time and
// one assertion handler serve all the models of a run (a torus's nodes and the observer in
// one trace). It is created on first use and lives until the process ends.
#include "vl_common.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "verilated_fst_c.h"

VerilatedContext *ftsim_vl_context()
{
    static VerilatedContext *ctx = nullptr; // the one process-wide object (see the top)
    if (!ctx) {
        ctx = new VerilatedContext;
        ctx->traceEverOn(true);
        // A failing assertion must become a reported mismatch with a FAIL line, not an abort
        // that leaves the waveform unclosed: the player polls gotError() after each edge.
        ctx->fatalOnError(false);
    }
    return ctx;
}

extern "C" void *ftsim_vl_trace_new(void)
{
    ftsim_vl_context();
    return new VerilatedFstC;
}

extern "C" int ftsim_vl_trace_open(void *tr, const char *path, char *err, size_t errlen)
{
    FILE *probe = fopen(path, "wb");
    if (!probe) {
        snprintf(err, errlen, "%s: cannot write the waveform (%s)", path, strerror(errno));
        return -1;
    }
    fclose(probe);
    VerilatedFstC *t = static_cast<VerilatedFstC *>(tr);
    t->set_time_unit("1ns");
    t->set_time_resolution("1ns");
    t->open(path);
    return 0;
}

extern "C" void ftsim_vl_trace_dump(void *tr, uint64_t time_ns)
{
    static_cast<VerilatedFstC *>(tr)->dump(time_ns);
}

extern "C" void ftsim_vl_trace_close(void *tr)
{
    VerilatedFstC *t = static_cast<VerilatedFstC *>(tr);
    t->close();
    delete t;
}

VerilatedFstC *ftsim_vl_fst_for(const std::function<void(VerilatedFstC *)> &attach,
                                const char *path, char *err, size_t errlen)
{
    void *t = ftsim_vl_trace_new();
    attach(static_cast<VerilatedFstC *>(t));
    if (ftsim_vl_trace_open(t, path, err, errlen) < 0) {
        delete static_cast<VerilatedFstC *>(t);
        return nullptr;
    }
    return static_cast<VerilatedFstC *>(t);
}
