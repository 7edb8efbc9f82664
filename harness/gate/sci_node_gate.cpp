// sci_node_gate.cpp — an SCI node's synthesized netlist (lc3node, p2snode, lc3node2, p2snode2:
// build/synth/DEVICE.v), Verilated, behind the device interface: the one shim template
// (harness/core/vl_dev.h) with the node's pins (sci_node_pins.h) for its number of link
// controllers (GATE_NLC, the variant's NLC from rtl/files.txt). Built into a loadable model by
// harness/gate/gate.mk.
#include GATE_HEADER
#include GATE_SYMS
#include "gate_model.h"
#include "sci_node_pins.h"

FTSIM_GATE_MODEL(NodePins<GATE_MODEL, GATE_NLC>)
