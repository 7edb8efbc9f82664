# gate.mk — make gate: each synthesized netlist (make synth: $(GATE_NETLISTS)/DEVICE.v, the RTL's
# top module and ports) Verilated and built with its family's pins (harness/gate/*_gate.cpp, the
# traits the RTL's shim uses) into a model build/ftsim loads for `play --model gate`:
# $(GATE_DIR)/DEVICE.so (harness/core/gate.h). Only the devices whose netlist exists are built,
# so make build never needs Yosys. Included by the Makefile; names no design (rtl/files.txt).
GATE_NETLISTS ?= $(BUILD)/synth
GATE_DIR    ?= $(BUILD)/gate
# The same Verilator options as the RTL's (one runtime: the binary's), without -Wall's lint of
# generated code (unused and undriven bits of Yosys's own wires); UNOPTFLAT waived: a netlist's
# multi-bit wires carry bits of unrelated logic, which Verilator reports as loops that are none.
GATE_VFLAGS := $(filter-out -Wall,$(VFLAGS)) -Wno-UNOPTFLAT
# variant=device for every variant that is a device (designs.py --list).
GATE_VARDEV := $(shell python3 harness/scripts/designs.py --rtl $(RTL_DIR) --list 2>/dev/null | \
                 awk '$$3 != "-" {print $$2 "=" $$3}')
gate_dev     = $(patsubst $(1)=%,%,$(filter $(1)=%,$(GATE_VARDEV)))
# The gate shim of a variant: its RTL shim's name with _gate for _rtl (rnp/rn1_rtl: rn1_gate.cpp).
gate_shim    = $(foreach s,$(VL_SHIMS),$(if $(filter $(1),$(VL_SHIM_VARIANTS_$(s))),$(s)))
gate_src     = harness/gate/$(subst _rtl,_gate,$(notdir $(call gate_shim,$(1)))).cpp
GATE_VARIANTS := $(foreach p,$(GATE_VARDEV),$(firstword $(subst =, ,$(p))))
# The devices whose netlist is there now.
GATE_HAVE   := $(foreach v,$(GATE_VARIANTS),$(if $(wildcard $(GATE_NETLISTS)/$(call gate_dev,$(v)).v),$(v)))
GATE_SOS    := $(foreach v,$(GATE_HAVE),$(GATE_DIR)/$(call gate_dev,$(v)).so)

# $(1) variant, $(2) device, $(3) netlist, $(4) Mdir
define GATE_RULE
$(4)/Vgate_$(2)__ALL.a: $(3)
	@mkdir -p $(4)
	$(VERILATOR) $(GATE_VFLAGS) --Mdir $(4) --top-module $(VL_TOP_$(1)) --prefix Vgate_$(2) $(3)
	+$(MAKE) -s -C $(4) -f Vgate_$(2).mk OPT_FAST=$(VOPT) OPT_SLOW=$(VSLOW) OPT=-fPIC \
	  $(if $(VPAR),VM_PARALLEL_BUILDS=$(VPAR)) Vgate_$(2)__ALL.a
	@touch $$@
$(GATE_DIR)/obj/$(2).o: $(call gate_src,$(1)) $(4)/Vgate_$(2)__ALL.a $(3) Makefile harness/gate/gate.mk
	@mkdir -p $$(dir $$@)
	$(CXX) $(filter-out $(SANFLAGS),$(CXXFLAGS_V)) -fPIC $(INC_cmd) -I$(4) \
	  -DGATE_MODEL=Vgate_$(2) '-DGATE_HEADER="Vgate_$(2).h"' '-DGATE_SYMS="Vgate_$(2)__Syms.h"' '-DGATE_DESIGN="$(2)"' \
	  '-DGATE_NETLIST="$(abspath $(3))"' "-DGATE_SHA256=\"$$$$(sha256sum $(3) | cut -c1-64)\"" \
	  $(patsubst -G%,-DGATE_%,$(VL_PARAMS_$(1))) -c $$< -o $$@
$(GATE_DIR)/$(2).so: $(GATE_DIR)/obj/$(2).o $(4)/Vgate_$(2)__ALL.a
	$(CXX) -shared -o $$@ $$^
endef
$(foreach v,$(GATE_HAVE),$(eval $(call GATE_RULE,$(v),$(call gate_dev,$(v)),$(GATE_NETLISTS)/$(call gate_dev,$(v)).v,$(GATE_DIR)/vl/$(call gate_dev,$(v)))))

-include $(wildcard $(GATE_DIR)/obj/*.d)

# make gate: make synth (which keeps a netlist newer than its sources), then the models of the
# netlists there, in a make of their own that sees them.
.PHONY: gate gate-models
gate: synth
	+@$(MAKE) -s gate-models
gate-models:
	@test -n "$(GATE_SOS)" || { echo "make gate: no netlist in $(GATE_NETLISTS)/ (make synth writes them)" >&2; exit 2; }
	+@$(MAKE) -s -j$(JOBS) build $(GATE_SOS)
	@echo "gate-level models: $(GATE_SOS)"

# make gate-test: the gate suites of tests/run.py (tests/README.md; gate-icarus is too long for
# make test, which runs gate when a model is built).
.PHONY: gate-test
gate-test: gate
	@FTSIM=$(FTSIM) python3 tests/run.py --jobs $(JOBS) --suite gate,gate-icarus
