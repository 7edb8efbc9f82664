// sci_obs_rtl.cpp — thin shim: the Verilated harness observer (harness/scisys/obs/sci_obs.v), whose
// only job is to put the harness's driver states, holds, table writes and deliveries into the
// torus FST next to the RTL (C ABI in sci_obs.h).
#include "Vsci_obs.h"
#include "verilated_fst_c.h"
#include "vl_common.h"

extern "C" {
#include "sci_obs.h"
}

struct sci_obs {
    Vsci_obs *top;
};

extern "C" sci_obs_t *sci_obs_new(void)
{
    sci_obs_t *o = new sci_obs;
    o->top = ftsim_vl_new<Vsci_obs>(nullptr, "harness");
    o->top->eval();
    return o;
}

extern "C" void sci_obs_free(sci_obs_t *o)
{
    if (!o)
        return;
    o->top->final();
    ftsim_vl_release(o->top);
    delete o;
}

extern "C" void sci_obs_attach(sci_obs_t *o, void *trace)
{
    o->top->trace(static_cast<VerilatedFstC *>(trace), 99);
}

extern "C" void sci_obs_set(sci_obs_t *o, const uint8_t *drv_state, const uint8_t *held,
                            const uint8_t *tbl_wr, unsigned n, uint16_t deliver, unsigned faults)
{
    uint64_t d = 0;
    uint16_t h = 0, w = 0;
    for (unsigned i = 0; i < n && i < SCI_OBS_NODES; i++) {
        d |= (uint64_t)(drv_state[i] & 15u) << (4 * i);
        h |= (uint16_t)((held[i] & 1u) << i);
        w |= (uint16_t)((tbl_wr[i] & 1u) << i);
    }
    o->top->drv_state_i = d;
    o->top->held_i = h;
    o->top->tbl_wr_i = w;
    o->top->deliver_i = deliver;
    o->top->faults_i = (uint8_t)(faults > 255 ? 255 : faults);
    o->top->eval();
}
