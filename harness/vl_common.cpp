// vl_common.cpp — the one VerilatedContext of an ftsim binary.
#include "vl_common.h"

VerilatedContext *ftsim_vl_context()
{
    static VerilatedContext *ctx = nullptr;
    if (!ctx) {
        ctx = new VerilatedContext;
        ctx->traceEverOn(true);
        // A failing assertion must become a reported mismatch with a FAIL line, not an abort
        // that leaves the waveform unclosed: the player polls gotError() after each edge.
        ctx->fatalOnError(false);
    }
    return ctx;
}
