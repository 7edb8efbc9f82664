// rn1_gate.cpp — RN1's synthesized netlist (build/synth/rn1.v), Verilated, behind the device
// interface: the one shim template (harness/core/vl_dev.h) with RN1's pins (rn1_pins.h), the
// RTL shim's traits. No upsets: a netlist's flip-flops have lost their names. Built into a
// loadable model by harness/gate/gate.mk (GATE_MODEL, GATE_HEADER: the Verilated class).
#include GATE_HEADER
#include GATE_SYMS
#include "gate_model.h"
#include "rn1_pins.h"

FTSIM_GATE_MODEL(Rn1Pins<GATE_MODEL>)
