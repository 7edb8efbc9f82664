// sci_gate.cpp — an SCI link controller's synthesized netlist (LC3 or P2S: build/synth/lc3.v,
// p2s.v), Verilated, behind the device interface: the one shim template (harness/core/vl_dev.h)
// with the link controller's pins (sci_lc_pins.h), the RTL shim's traits. Built into a loadable
// model by harness/gate/gate.mk.
#include GATE_HEADER
#include GATE_SYMS
#include "gate_model.h"
#include "sci_lc_pins.h"

FTSIM_GATE_MODEL(LcPins<GATE_MODEL>)
