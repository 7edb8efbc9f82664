// sc_dev.h — the SystemC modules of each single-device design as ftsim devices (dev.h), so the
// C harness's vector parser, player and lockstep comparator drive them unchanged.
//
// A device here is a unit: a module (the Verilated --sc RTL or the C model's SC_MODULE, the
// device's implementation) bound to a Pins module of sc_signals. set_inputs writes the input
// signals, get_outputs reads the output signals, a register write drives the write port for
// the next edge, a register read drives reg_raddr_i and lets the kernel settle (delta cycles,
// no time), and tick is one period of the unit's clock under the SystemC kernel: the clock
// falls, 5 ns later it rises, 5 ns later the call returns (dev.h's cycle of 10 ns).
//
// SystemC creates modules only before the kernel first runs (elaboration), so the first device
// of a design opened in a process creates the units of that design for the whole process: two
// RTL and two C model units (a lockstep pair, and the pair that plays each model alone after a
// divergence while the first is still open). Closing a device gives its unit back; opening one
// takes a free unit, gives its C model a fresh state, and the harness resets it through rst_ni
// as it resets any model. ftsim-sc play runs each vector file in a process of its own.
#ifndef FTSIM_SC_DEV_H
#define FTSIM_SC_DEV_H

#include "dev.h"

// The designs ftsim-sc can name: rn1, lc3, p2s and the four nodes, each creating SC units.
extern const dev_catalog_t sc_catalog;

// The SC design that stands for `d` (one of the fixed designs of the C harness), or NULL.
const dev_design_t *sc_design_for(const dev_design_t *d);

// The clock, reset and register port signals of a unit, for a platform that clocks the unit
// itself (sc_tlm.h binds a TLM target to them) instead of through dev_tick.
#include <systemc>
struct ScRegPins {
    sc_core::sc_signal<bool> &clk_i, &rst_ni, &reg_we_i;
    sc_core::sc_signal<uint32_t> &reg_waddr_i;
    sc_core::sc_signal<uint64_t> &reg_wdata_i;
    sc_core::sc_signal<uint32_t> &reg_wstrb_i, &reg_raddr_i;
    sc_core::sc_signal<uint64_t> &reg_rdata_o;
};
ScRegPins sc_dev_reg_pins(device_t *d);
// A C model unit's model (its dev_ops_t and state), for a debug access with no clock; false for
// an RTL unit.
bool sc_dev_csim_model(device_t *d, const dev_ops_t **ops, void **self);

#endif
