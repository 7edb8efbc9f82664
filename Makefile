# ftsim — the one entry point. `make help` lists the targets.
#
# Everything generated goes under build/. Every Verilated model is built with the same
# Verilator options so that one copy of the Verilator runtime serves them all.

SHELL       := /bin/bash
# Where things come from and go. The mutation suite (tests/mutants.py) builds a broken copy of
# one model by pointing these elsewhere; normally they are left alone.
BUILD       ?= build
RTL_DIR     ?= rtl
CSIM_DIR    ?= csim
VLBUILD     ?= $(BUILD)/vl
VLRUNTIME   ?= $(BUILD)/vl/runtime
VLSCI       ?= $(BUILD)/vl
# Optimisation of the Verilated C++ (the mutation suite compiles its broken copies with -O0:
# faster to build, and its short vectors do not need the speed).
VOPT        ?= -O2
VERILATOR   ?= verilator
VINC        := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)/include
JOBS        ?= 2

CC          ?= gcc
CXX         ?= g++
CFLAGS_C    := -std=c11 -Wall -Wextra -Werror -O2 -g -D_POSIX_C_SOURCE=200809L -Iharness -I$(CSIM_DIR)
CXXFLAGS_V  := -std=c++17 -O2 -g -Wall -Wno-unused-parameter -DVM_TRACE=1 -DVM_TRACE_FST=1 \
               -I$(VINC) -I$(VINC)/vltstd -Iharness
# The same options for every model (one runtime): FST tracing compiled in, assertions on.
VFLAGS      := --cc --trace-fst --assert -Wall -O3 --x-assign unique --x-initial unique $(VEXTRA)

RN1_RTL     := $(RTL_DIR)/rn1.v $(RTL_DIR)/rn1_fport.v
RN1_VLT     := $(RTL_DIR)/rn1.vlt

HARNESS_C   := harness/dev.c harness/vec.c harness/lockstep.c harness/play.c \
               harness/rnp_word.c harness/rn1_dev.c harness/fuzz_rn1.c harness/rnpnet.c harness/rnpni.c harness/fuzz_rnpnet.c harness/experiment_rnp.c harness/experiment_sci.c harness/sci_word.c harness/sci_dev.c harness/fuzz_scilc.c \
               harness/sci_node_dev.c harness/sci_fabric.c harness/sci_ring.c harness/sci_torus.c harness/fuzz_sciring.c harness/sci_route.c harness/sci_sys.c harness/sci_check.c harness/sci_run.c harness/plot.c \
               harness/ftsim.c
CSIM_C      := $(CSIM_DIR)/rn1.c $(CSIM_DIR)/sci_lc.c $(CSIM_DIR)/sci_node.c
HARNESS_CXX := harness/rn1_rtl.cpp harness/sci_rtl.cpp harness/sci_node_rtl.cpp harness/sci_obs_rtl.cpp harness/vl_common.cpp
SCI_RTL     := $(RTL_DIR)/sci_lc.v $(RTL_DIR)/sci_cfg_reg.v $(RTL_DIR)/sci_crc16.v
SCI_VLT     := $(RTL_DIR)/sci_lc.vlt
NODE_RTL    := $(SCI_RTL) $(RTL_DIR)/sci_psb.v $(RTL_DIR)/sci_node.v
NODE_VLT    := $(SCI_VLT) $(RTL_DIR)/sci_node.vlt
# A node (PSB, B-link, link controllers) per variant and LC count: lc3n1 p2sn1 lc3n2 p2sn2.
NODE_VARIANTS := lc3n1 p2sn1 lc3n2 p2sn2
NODE_LIBS   := $(foreach v,$(NODE_VARIANTS),$(VLSCI)/$(v)/V$(v)__ALL.a)

OBJ_C       := $(patsubst %.c,$(BUILD)/obj/%.o,$(HARNESS_C) $(CSIM_C))
OBJ_CXX     := $(patsubst %.cpp,$(BUILD)/obj/%.o,$(HARNESS_CXX))
VL_RUNTIME  := $(addprefix $(VLRUNTIME)/,verilated.o verilated_fst_c.o verilated_threads.o)
RN1_LIB     := $(VLBUILD)/rn1/Vrn1__ALL.a
SCI_LIBS    := $(VLSCI)/lc3/Vlc3__ALL.a $(VLSCI)/p2s/Vp2s__ALL.a $(NODE_LIBS)

FTSIM       := $(BUILD)/ftsim

.PHONY: all help deps build lint test demo wave vectors bench paper clean
.DEFAULT_GOAL := all

all: build

help:
	@echo "ftsim targets:"
	@echo "  make demo            install what is missing, build, play the showcase, fuzz, write an FST"
	@echo "  make test            install what is missing, build, run every suite; ends 'N passed, N failed'"
	@echo "  make                 build build/ftsim"
	@echo "  make lint            verilator --lint-only -Wall and iverilog -g2012 on the RTL"
	@echo "  make wave V=FILE.vec play a vector with an FST and open GTKWave on waves/rn1.gtkw"
	@echo "  make vectors         regenerate the golden vectors (review the diff; never hand-edit)"
	@echo "  make bench           simulated cycles/s: rtl, csim, lockstep, rtl+FST (not part of test)"
	@echo "  make paper           the measurements (ftsim experiment ...), tables and PNG plots"
	@echo "  make deps            install the Debian packages ftsim needs (as root)"
	@echo "  make clean           remove build/"

deps:
	@bash harness/scripts/deps.sh

build: $(FTSIM)

# ---- Verilated RTL -----------------------------------------------------------------------
$(RN1_LIB): $(RN1_RTL) $(RN1_VLT) Makefile
	@mkdir -p $(VLBUILD)/rn1
	$(VERILATOR) $(VFLAGS) --Mdir $(VLBUILD)/rn1 --top-module rn1 --prefix Vrn1 $(RN1_VLT) $(RN1_RTL)
	$(MAKE) -s -C $(VLBUILD)/rn1 -f Vrn1.mk OPT_FAST=$(VOPT) OPT_SLOW=-O1 Vrn1__ALL.a

# The SCI link controller, once per variant (parameter P2s), under its own prefix.
$(VLSCI)/lc3/Vlc3__ALL.a: $(SCI_RTL) $(SCI_VLT) Makefile
	@mkdir -p $(VLSCI)/lc3
	$(VERILATOR) $(VFLAGS) --Mdir $(VLSCI)/lc3 --top-module sci_lc --prefix Vlc3 -GP2s=0 $(SCI_VLT) $(SCI_RTL)
	$(MAKE) -s -C $(VLSCI)/lc3 -f Vlc3.mk OPT_FAST=$(VOPT) OPT_SLOW=-O1 Vlc3__ALL.a

$(VLSCI)/p2s/Vp2s__ALL.a: $(SCI_RTL) $(SCI_VLT) Makefile
	@mkdir -p $(VLSCI)/p2s
	$(VERILATOR) $(VFLAGS) --Mdir $(VLSCI)/p2s --top-module sci_lc --prefix Vp2s -GP2s=1 $(SCI_VLT) $(SCI_RTL)
	$(MAKE) -s -C $(VLSCI)/p2s -f Vp2s.mk OPT_FAST=$(VOPT) OPT_SLOW=-O1 Vp2s__ALL.a

# The node, once per variant: $(1) the prefix, $(2) P2s, $(3) NLC.
define NODE_RULE
$(VLSCI)/$(1)/V$(1)__ALL.a: $(NODE_RTL) $(NODE_VLT) Makefile
	@mkdir -p $(VLSCI)/$(1)
	$(VERILATOR) $(VFLAGS) --Mdir $(VLSCI)/$(1) --top-module sci_node --prefix V$(1) -GP2s=$(2) -GNLC=$(3) $(NODE_VLT) $(NODE_RTL)
	$(MAKE) -s -C $(VLSCI)/$(1) -f V$(1).mk OPT_FAST=$(VOPT) OPT_SLOW=-O1 V$(1)__ALL.a
endef
$(eval $(call NODE_RULE,lc3n1,0,1))
$(eval $(call NODE_RULE,p2sn1,1,1))
$(eval $(call NODE_RULE,lc3n2,0,2))
$(eval $(call NODE_RULE,p2sn2,1,2))

# The harness observer (not a design): the harness's state in the torus waveform.
OBS_LIB     := $(VLSCI)/obs/Vsci_obs__ALL.a
$(OBS_LIB): harness/obs/sci_obs.v harness/obs/sci_obs.vlt Makefile
	@mkdir -p $(VLSCI)/obs
	$(VERILATOR) $(VFLAGS) --Mdir $(VLSCI)/obs --top-module sci_obs --prefix Vsci_obs harness/obs/sci_obs.vlt harness/obs/sci_obs.v
	$(MAKE) -s -C $(VLSCI)/obs -f Vsci_obs.mk OPT_FAST=$(VOPT) OPT_SLOW=-O1 Vsci_obs__ALL.a

$(VLRUNTIME)/%.o: $(VINC)/%.cpp Makefile
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_V) -c $< -o $@

# ---- harness and C model -------------------------------------------------------------------
$(BUILD)/obj/%.o: %.c $(wildcard harness/*.h $(CSIM_DIR)/*.h) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_C) -c $< -o $@

# Each shim is rebuilt with the Verilated models it wraps (a mutated model rebuilds only its own).
$(BUILD)/obj/harness/rn1_rtl.o: $(RN1_LIB)
$(BUILD)/obj/harness/sci_rtl.o: $(VLSCI)/lc3/Vlc3__ALL.a $(VLSCI)/p2s/Vp2s__ALL.a
$(BUILD)/obj/harness/sci_node_rtl.o: $(NODE_LIBS)
$(BUILD)/obj/harness/sci_obs_rtl.o: $(OBS_LIB)
$(BUILD)/obj/harness/vl_common.o: $(RN1_LIB)
$(BUILD)/obj/harness/%.o: harness/%.cpp $(wildcard harness/*.h) Makefile
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_V) -I$(VLBUILD)/rn1 -I$(VLSCI)/lc3 -I$(VLSCI)/p2s -I$(VLSCI)/obs $(foreach v,$(NODE_VARIANTS),-I$(VLSCI)/$(v)) -c $< -o $@

$(FTSIM): $(OBJ_C) $(OBJ_CXX) $(RN1_LIB) $(SCI_LIBS) $(OBS_LIB) $(VL_RUNTIME)
	$(CXX) -o $@ $(OBJ_C) $(OBJ_CXX) $(RN1_LIB) $(SCI_LIBS) $(OBS_LIB) $(VL_RUNTIME) -lz -lm -pthread -latomic

$(BUILD)/test_rn1: tests/csim/test_rn1.c $(CSIM_C) $(CSIM_DIR)/rn1.h Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_C) -pedantic $< $(CSIM_C) -o $@

# ---- checks --------------------------------------------------------------------------------
lint:
	$(VERILATOR) --lint-only -Wall --top-module rn1 $(RN1_VLT) $(RN1_RTL)
	$(VERILATOR) --lint-only -Wall --top-module sci_lc $(RTL_DIR)/sci_lc.vlt $(SCI_RTL)
	$(VERILATOR) --lint-only -Wall --top-module sci_lc -GP2s=1 $(RTL_DIR)/sci_lc.vlt $(SCI_RTL)
	for p in 0 1; do for n in 1 2; do \
	  $(VERILATOR) --lint-only -Wall --top-module sci_node -GP2s=$$p -GNLC=$$n $(NODE_VLT) $(NODE_RTL) || exit 1; done; done
	@mkdir -p $(BUILD)
	iverilog -g2012 -Wall -o $(BUILD)/iverilog-rn1.vvp $(RN1_RTL)
	for p in 0 1; do for n in 1 2; do \
	  iverilog -g2012 -Wall -Psci_node.P2s=$$p -Psci_node.NLC=$$n -s sci_node -o $(BUILD)/iverilog-sci-node.vvp $(NODE_RTL) || exit 1; done; done
	@echo "lint: clean"

$(BUILD)/test_sci_lc: tests/csim/test_sci_lc.c $(CSIM_DIR)/sci_lc.c $(CSIM_DIR)/sci_lc.h Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_C) -pedantic $< $(CSIM_DIR)/sci_lc.c -o $@

$(BUILD)/test_sci_node: tests/csim/test_sci_node.c $(CSIM_DIR)/sci_node.c $(CSIM_DIR)/sci_lc.c $(CSIM_DIR)/sci_node.h $(CSIM_DIR)/sci_lc.h Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_C) -pedantic $< $(CSIM_DIR)/sci_node.c $(CSIM_DIR)/sci_lc.c -o $@

$(BUILD)/test_sci_route: tests/harness/test_sci_route.c harness/sci_route.c harness/sci_route.h Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_C) -pedantic $< harness/sci_route.c -o $@

$(BUILD)/test_sci_word: tests/harness/test_sci_word.c harness/sci_word.c harness/sci_word.h Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_C) $< harness/sci_word.c -o $@

test: deps
	@$(MAKE) -s -j$(JOBS) build $(BUILD)/test_rn1 $(BUILD)/test_sci_word $(BUILD)/test_sci_lc $(BUILD)/test_sci_node $(BUILD)/test_sci_route
	@python3 tests/run.py --jobs $(JOBS)

demo: deps
	@$(MAKE) -s build
	@bash harness/scripts/demo.sh

wave: build
	@test -n "$(V)" || { echo "usage: make wave V=vectors/rn1/spec/FILE.vec"; exit 2; }
	@bash harness/scripts/wave.sh "$(V)"

vectors: build
	@bash harness/scripts/vectors.sh

bench: deps
	@$(MAKE) -s build
	@bash harness/scripts/bench.sh

EXPERIMENTS := rnp-load rnp-patterns rnp-policy
# The SCI torus experiments (sci.md section 6): the paper's timers, RUNS runs each with the
# fault at random times; each writes its two PNG plots itself.
SCI_EXPERIMENTS := ring-down-9 node-down-4 static-4 p2s-ring-down-9 p2s-node-down-4
RUNS ?= 10
paper: deps
	@$(MAKE) -s build
	@mkdir -p $(BUILD)/experiments
	@for e in $(EXPERIMENTS); do $(FTSIM) experiment $$e --out $(BUILD)/experiments \
	  | tee $(BUILD)/experiments/$$e.md || exit 1; echo; done
	@/usr/bin/python3 harness/scripts/plot_rnp.py $(BUILD)/experiments harness/results
	@for e in $(SCI_EXPERIMENTS); do $(FTSIM) experiment $$e --runs $(RUNS) --out harness/results \
	  --json-file $(BUILD)/experiments/$$e.json | tee $(BUILD)/experiments/$$e.md || exit 1; echo; done
	@/usr/bin/python3 tests/paper_check.py --from $(BUILD)/experiments
	@echo "tables: $(BUILD)/experiments/*.md, *.json   plots: harness/results/*.png"

clean:
	rm -rf $(BUILD)
