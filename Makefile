# ftsim — the one entry point. `make help` lists the targets.
#
# Everything generated goes under build/. Every Verilated model is built with the same
# Verilator options so that one copy of the Verilator runtime serves them all. The harness
# sources are found by folder (harness/<folder>/*.c, *.cpp); each folder compiles with the
# include path its README allows, so a forbidden include is a build error, not a review note.

SHELL       := /bin/bash
# make test SAN=1: the harness and the C models built with AddressSanitizer and
# UndefinedBehaviorSanitizer (leak checking on) into a build folder of their own, build/san/
# (the Verilated models and Verilator's runtime stay uninstrumented).
ifdef SAN
BUILD       := build/san
SANFLAGS    := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
endif
# make coverage (COVERAGE=1): every Verilated model built with --coverage (line, toggle, user
# cover points) and the C models with gcov, into a build folder of their own, build/cov/, with
# their own ftsim; the harness writes the models' counts where FTSIM_COVERAGE_DIR says
# (harness/core/vl_common.cpp). The normal build is untouched.
ifdef COVERAGE
BUILD       := build/cov
# -fno-split: Verilator 5.006's block splitting moves a branch's coverage counter after later
# assignments to the variables its condition reads (measured on the link controller's slot_next: an
# echo that frees a buffer was counted on no branch); without it every counter stays in place.
VCOV        := --coverage -fno-split
CXXCOV      := -DFTSIM_COVERAGE=1
CSIMCOV     := --coverage -O0
LDCOV       := --coverage
endif
# Where things come from and go. The mutation suite (tests/mutants.py) builds a broken copy of
# one model by pointing these elsewhere; normally they are left alone.
BUILD       ?= build
RTL_DIR     ?= rtl
CSIM_DIR    ?= csim
VLBUILD     ?= $(BUILD)/vl
VLRUNTIME   ?= $(BUILD)/vl/runtime
# The variants (rtl/files.txt) built under $(BUILD)/vl even when VLBUILD points elsewhere: the
# mutation suite rebuilds those a mutant changes and reuses the tree's others.
VLREBUILD   ?=
# Optimisation of the Verilated C++ (the mutation suite compiles its broken copies with
# VOPT=-O0 VSLOW=-O0 VPAR=0: one translation unit a model, unoptimised, about three times
# faster to build than Verilator's split files; its short vectors do not need the speed).
VOPT        ?= -O2
VSLOW       ?= -O1
VPAR        ?=
VERILATOR   ?= verilator
VINC        := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)/include
JOBS        ?= 2

CC          ?= gcc
CXX         ?= g++
DEPFLAGS    := -MMD -MP
CFLAGS_C    := -std=c11 -Wall -Wextra -Werror -O2 -g -D_POSIX_C_SOURCE=200809L $(DEPFLAGS) $(SANFLAGS)
CXXFLAGS_V  := -std=c++20 -O2 -g -Wall -Wno-unused-parameter -DVM_TRACE=1 -DVM_TRACE_FST=1 \
               -I$(VINC) -I$(VINC)/vltstd $(DEPFLAGS) $(SANFLAGS) $(CXXCOV)
# The same options for every model (one runtime): FST tracing compiled in, assertions on.
VFLAGS      := --cc --trace-fst --assert -Wall -O3 --x-assign unique --x-initial unique $(VCOV) \
               $(VEXTRA)

# ---- the designs: rtl/files.txt describes each one (files, top module, variants, shims,
# vectors); harness/scripts/designs.py writes what the rules below are generated from into
# $(DESIGNS_MK): VL_VARIANTS, SC_VARIANTS, VL_DEVICES, VL_VECTOR_DIRS; per variant V,
# VL_TOP_V, VL_PARAMS_V (Verilator's -G) and VL_FILES_V (under VL_SRCDIR_V: $(RTL_DIR), or the
# folder the entry names, as for the harness's observer); per shim S (harness/S.cpp),
# VL_SHIM_VARIANTS_S. No design is named in this Makefile.
RTL_LIST    := $(RTL_DIR)/files.txt
DESIGNS_MK  := $(BUILD)/gen/designs.mk
$(DESIGNS_MK): $(RTL_LIST) harness/scripts/designs.py
	@mkdir -p $(dir $@)
	@python3 harness/scripts/designs.py --rtl $(RTL_DIR) --make > $@.tmp && mv $@.tmp $@
include $(DESIGNS_MK)
vl_files     = $(addprefix $(VL_SRCDIR_$(1))/,$(VL_FILES_$(1)))
# A variant's folder and library: $(VLBUILD)/V, or $(BUILD)/vl/V when VLREBUILD names it.
vl_dir       = $(if $(filter $(1),$(VLREBUILD)),$(BUILD)/vl,$(VLBUILD))/$(1)
vl_lib       = $(call vl_dir,$(1))/V$(1)__ALL.a
# The RTL's include files (`include "ft_assert.svh"): both simulators search $(RTL_DIR), so a
# mutated copy of rtl/ includes its own.
RTL_INC     := -I$(RTL_DIR)
RTL_HDRS    := $(wildcard $(RTL_DIR)/*.svh)

# ---- the harness, by folder (what each may include: harness/<folder>/README.md) ------------
# core knows no design; a design family is a folder of csim/ (its C models) with its harness
# folder of the same name, and sees core and its own C models only; scisys is the running SCI
# torus, on its family; cmd is the command layer and sees everything.
FAMILIES    := $(patsubst $(CSIM_DIR)/%/,%,$(wildcard $(CSIM_DIR)/*/))
HARNESS_DIRS := core $(FAMILIES) scisys cmd
INC_core    := -Iharness/core
$(foreach f,$(FAMILIES),$(eval INC_$(f) := $(INC_core) -Iharness/$(f) -I$(CSIM_DIR)/$(f)))
INC_FAMILIES := $(foreach f,$(FAMILIES),-Iharness/$(f) -I$(CSIM_DIR)/$(f))
INC_scisys  := $(INC_sci) -Iharness/scisys
INC_cmd     := $(INC_core) $(INC_FAMILIES) -Iharness/scisys -Iharness/cmd -I$(BUILD)/gen
# The Verilated models a folder's shims include (the folder of each shim the manifest names).
$(foreach s,$(VL_SHIMS),$(eval VLINC_$(firstword $(subst /, ,$(s))) += \
  $(foreach v,$(VL_SHIM_VARIANTS_$(s)),-I$(call vl_dir,$(v)))))

HARNESS_C   := $(foreach d,$(HARNESS_DIRS),$(wildcard harness/$(d)/*.c))
HARNESS_CXX := $(foreach d,$(HARNESS_DIRS),$(wildcard harness/$(d)/*.cpp))
CSIM_C      := $(wildcard $(CSIM_DIR)/*/*.c)

OBJ_HC      := $(patsubst %.c,$(BUILD)/obj/%.o,$(HARNESS_C))
OBJ_CSIM    := $(patsubst %.c,$(BUILD)/obj/%.o,$(CSIM_C))
OBJ_CXX     := $(patsubst %.cpp,$(BUILD)/obj/%.o,$(HARNESS_CXX))
VL_RUNTIME  := $(addprefix $(VLRUNTIME)/,verilated.o verilated_fst_c.o verilated_threads.o \
               $(if $(COVERAGE),verilated_cov.o))
VL_LIBS     := $(foreach v,$(VL_VARIANTS),$(call vl_lib,$(v)))

# The harness's C objects without main, and the C models, as archives: the unit tests link
# against them and take only the objects they use (a command too: cmd_route).
LIB_HARNESS := $(BUILD)/lib/libftsim.a
LIB_CSIM    := $(BUILD)/lib/libcsim.a

# Unit tests: tests/<area>/test_*.c, one binary each under $(BUILD)/tests/<area>/.
UNIT_SRC    := $(wildcard tests/csim/test_*.c tests/harness/test_*.c)
UNIT_BIN    := $(patsubst %.c,$(BUILD)/%,$(UNIT_SRC))

FTSIM       := $(BUILD)/ftsim
# JSON is written and read with Debian's json-c (harness/core/json_io.h).
JSONC_LIBS  := $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)

.PHONY: all help deps build units lint test demo wave vectors bench paper ftdrb clean fuzz-parser \
        cocotb-venv eda-venv cocotb-verilator mutants sc-deps sc-build sc-demo coverage
.DEFAULT_GOAL := all

all: build

help:
	@echo "ftsim targets:"
	@echo "  make demo            install what is missing, build, play the showcase, fuzz, write an FST"
	@echo "  make test            install what is missing, build, run every suite but the mutants; ends 'N passed, N failed'"
	@echo "  make mutants         every mutant of tests/mutants.py built and caught (the suite mutants)"
	@echo "  make test SUITE=a,b  only those suites (python3 tests/run.py --help lists them)"
	@echo "  make test VEC=GLOB   only the vector tests whose file matches GLOB, e.g. VEC='cut_*'"
	@echo "  make                 build build/ftsim"
	@echo "  make lint            verilator --lint-only -Wall and iverilog -g2012 on the RTL"
	@echo "  make wave V=FILE.vec play a vector with an FST and open GTKWave with its device's layout"
	@echo "  make vectors         re-record the golden vectors into a scratch folder; replace them only"
	@echo "                       if every recording succeeded; list what changed (review the diff)"
	@echo "  make vectors MODEL=rtl  record from the RTL instead of the C model"
	@echo "  make vectors V=FILE  re-record one golden vector (a spec vector's or a fuzz golden)"
	@echo "  make bench           simulated cycles/s: rtl, csim, lockstep, rtl+FST (not part of test)"
	@echo "  make bench ONLY=cocotb  only the C harness against cocotb (Icarus, Verilator)"
	@echo "  make bench ONLY=torus   only the running torus and its size sweeps, C and RTL (BASE= too)"
	@echo "  make bench ONLY=devices only the single devices, the ring and rnpnet64 (BASE= too)"
	@echo "  make bench BASE=REV  the same bench on revision REV (built under build/base/) and on"
	@echo "                       this tree, side by side in one run, with the ratios"
	@echo "  make paper           the measurements (ftsim experiment ...; the upset campaigns,"
	@echo "                       ftsim upset; FT-DRB (Zarza et al.) on RNP and on the 32x32 torus;"
	@echo "                       the 4x4 triple faults with FT-DRB, about 40 min alone), tables and plots"
	@echo "  make ftdrb           FT-DRB (Zarza et al.): every double fault on 3x3 and 4x4 (LC3),"
	@echo "                       every triple on 3x3, without and with it (about 12 minutes on two"
	@echo "                       cores; CI runs it); make paper adds the 4x4 triples"
	@echo "  make cocotb-verilator  the cocotb test bench on Verilator (spec vectors, native tests);"
	@echo "                       make test runs it on Icarus (suite cocotb); .ci/run runs both"
	@echo "  make fuzz-parser SECONDS=N [EXECS=M]  the vector parser under libFuzzer with ASan/UBSan for N s (or M inputs)"
	@echo "  make sc-build        build build/ftsim-sc, the SystemC harness (harness/sc/README.md)"
	@echo "  make sc-demo         the SystemC virtual platforms: TLM CPU, a ring of SC nodes, a pulled cable;"
	@echo "                       RN1 in a 16-endpoint RNP network of SC modules"
	@echo "  make coverage        RTL (line, toggle, cover points) and C model (gcov) coverage of the"
	@echo "                       vectors and fixed-seed fuzz: a table per module, HTML in build/coverage/"
	@echo "  make deps            install the Debian packages ftsim needs (as root)"
	@echo "  make gate            make synth, then each netlist (build/synth/NAME.v) Verilated as a model"
	@echo "                       of ftsim play --model gate and gate-both, build/gate/NAME.so"
	@echo "  make gate-test       the gate suite: every vector on every netlist, in lockstep and under Icarus"
	@echo "  make eda-venv        the pinned Yosys, nextpnr-ecp5 and yices (synth/requirements.txt) in build/venv-eda"
	@echo "  make cluster-check   campaigns as Slurm job arrays on a one-node Slurm of this machine, and"
	@echo "                       with GNU parallel, merged to one process's bytes (as root; harness/cluster/)"
	@echo "  make synth [D=a,b]   every design (or those devices) to a gate netlist, build/synth/NAME.v, and"
	@echo "                       build/synth/report.json (cells, flops, memory bits, transistors, depth; synth/README.md)"
	@echo "  make equiv [D=a,b]   each netlist file in build/synth proven equivalent to its RTL (Yosys, ABC cec)"
	@echo "  make equiv-mutants [D=a,b]  a gate feeding a flop changed, five seeds: each fails make equiv (default rn1)"
	@echo "  make fpga [D=a,b]    rn1, lc3, lc3node (or those) placed and routed on an ECP5: LUTs, FFs, RAM, Fmax"
	@echo "  make unwritten       the vectors that read a memory entry nothing wrote (memories X at start, Icarus)"
	@echo "  make formal          SymbiYosys: prove every FT_ASSERT, reach every FT_COVER (formal/README.md)"
	@echo "  make formal-mutants  every RTL mutant through the proofs: which formal kills, a table (formal/README.md)"
	@echo "  make clean           remove build/"

deps:
	@bash harness/scripts/deps.sh

build: $(FTSIM)

# ---- Verilated RTL -----------------------------------------------------------------------
# $(1) the library, $(2) the Mdir, $(3) the top module, $(4) the prefix, $(5) parameters,
# $(6) the files (.vlt and .v). A model is remade when its files change or its commands do
# ($(2)/cmd, rewritten only when they differ), not on every edit of this Makefile.
define VL_RULE
$(1): $(6) $(RTL_HDRS) $(2)/cmd
	$(VERILATOR) $(VFLAGS) $(RTL_INC) --Mdir $(2) --top-module $(3) --prefix $(4) $(5) $(6)
	+$(MAKE) -s -C $(2) -f $(4).mk OPT_FAST=$(VOPT) OPT_SLOW=$(VSLOW) \
	  $(if $(VPAR),VM_PARALLEL_BUILDS=$(VPAR)) $(4)__ALL.a
	@touch $(1)  # made now even when Verilator's output did not change (an include file did)
$(2)/cmd: FORCE
	@mkdir -p $(2)
	@echo '$(VERILATOR) $(VFLAGS) $(RTL_INC) --top-module $(3) --prefix $(4) $(5) $(6) $(VOPT) $(VSLOW) $(VPAR)' \
	  | cmp -s - $(2)/cmd || echo '$(VERILATOR) $(VFLAGS) $(RTL_INC) --top-module $(3) --prefix $(4) $(5) $(6) $(VOPT) $(VSLOW) $(VPAR)' > $(2)/cmd
endef
FORCE:
# Each variant of each entry of rtl/files.txt (the designs, and the harness's observer),
# under its own prefix.
$(foreach v,$(VL_VARIANTS),$(eval $(call VL_RULE,$(call vl_lib,$(v)),$(call vl_dir,$(v)),$(VL_TOP_$(v)),V$(v),$(VL_PARAMS_$(v)),$(call vl_files,$(v)))))

# Verilator's own runtime, never sanitized (like the Verilated models: not this project's code;
# its FST writer stores through misaligned pointers, which UBSan would report).
$(VLRUNTIME)/%.o: $(VINC)/%.cpp Makefile
	@mkdir -p $(dir $@)
	$(CXX) $(filter-out $(SANFLAGS),$(CXXFLAGS_V)) -c $< -o $@

# ---- harness and C models ------------------------------------------------------------------
# A C model sees its own family's folder only (csim/rnp, csim/sci).
$(BUILD)/obj/$(CSIM_DIR)/%.o: $(CSIM_DIR)/%.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_C) $(CSIMCOV) -I$(<D) -c $< -o $@

define HARNESS_RULES
$(BUILD)/obj/harness/$(1)/%.o: harness/$(1)/%.c Makefile
	@mkdir -p $$(dir $$@)
	$$(CC) $$(CFLAGS_C) $$(INC_$(1)) -c $$< -o $$@
$(BUILD)/obj/harness/$(1)/%.o: harness/$(1)/%.cpp Makefile
	@mkdir -p $$(dir $$@)
	$$(CXX) $$(CXXFLAGS_V) $$(INC_$(1)) $$(VLINC_$(1)) -c $$< -o $$@
endef
$(foreach d,$(HARNESS_DIRS),$(eval $(call HARNESS_RULES,$(d))))

# Each shim is built after the Verilated models it wraps (their headers are generated), and
# again when one of them is remade: a mutated model rebuilds only its own shim.
$(foreach s,$(VL_SHIMS),$(eval $(BUILD)/obj/harness/$(s).o: \
  $(foreach v,$(VL_SHIM_VARIANTS_$(s)),$(call vl_lib,$(v)))))

$(LIB_HARNESS): $(filter-out $(BUILD)/obj/harness/cmd/main.o,$(OBJ_HC))
	@mkdir -p $(dir $@)
	@rm -f $@
	ar rcs $@ $^
$(LIB_CSIM): $(OBJ_CSIM)
	@mkdir -p $(dir $@)
	@rm -f $@
	ar rcs $@ $^

# -rdynamic: the gate-level models (harness/gate/gate.mk) load into it and use its symbols.
$(FTSIM): $(OBJ_HC) $(OBJ_CSIM) $(OBJ_CXX) $(VL_LIBS) $(VL_RUNTIME)
	$(CXX) $(SANFLAGS) $(LDCOV) -rdynamic -o $@ $(OBJ_HC) $(OBJ_CSIM) $(OBJ_CXX) $(VL_LIBS) \
	  $(VL_RUNTIME) $(JSONC_LIBS) -lz -lm -pthread -latomic

# A unit test sees every harness folder and the C models; it links only what it uses.
$(BUILD)/tests/%: tests/%.c $(LIB_HARNESS) $(LIB_CSIM) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_C) $(LDCOV) -pedantic $(INC_cmd) $< $(LIB_HARNESS) $(LIB_CSIM) $(JSONC_LIBS) -lm -pthread -o $@

units: $(UNIT_BIN)

-include $(wildcard $(BUILD)/obj/harness/*/*.d $(BUILD)/obj/$(CSIM_DIR)/*/*.d $(BUILD)/tests/*/*.d)

# The revision ftsim reports (ftsim --version) and writes into a campaign's shard files, so
# that only shards of one build are merged: `git describe` of this checkout (not of a checkout
# around it, as for an exported copy under build/), or FTSIM_REV=... from outside. The header
# is rewritten only when the revision changes, so only what includes it is rebuilt.
FTSIM_REV   ?= $(shell [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$(CURDIR)" ] && \
                 git describe --always --dirty 2>/dev/null || echo unknown)
REV_H       := $(BUILD)/gen/ftsim_rev.h
REV_LINE    := \#define FTSIM_REVISION "$(FTSIM_REV)"
ifneq ($(shell cat $(REV_H) 2>/dev/null),$(REV_LINE))
$(shell mkdir -p $(BUILD)/gen && echo '$(REV_LINE)' > $(REV_H))
endif

# ---- the gate-level models of the synthesized netlists: make gate (harness/gate/README.md)
include harness/gate/gate.mk

# ---- the SystemC harness: build/ftsim-sc (harness/sc/README.md) ---------------------------
# The same designs Verilated with --sc (each model is an SC_MODULE with sc_in/sc_out ports)
# under prefixes of their own (Vsc*), next to the --cc models the C harness uses, with a
# Verilator runtime compiled for SystemC (VM_SC=1) that serves both kinds in ftsim-sc. The
# harness's objects, the C models and the --cc models are the C harness's own: the SystemC
# build adds harness/sc and the --sc models, and reuses every other object.
SC_BUILD    := $(BUILD)/sc
VLSC        := $(BUILD)/vl-sc
# Debian's SystemC 2.3.4 is built as C++17, and its headers name the standard in a symbol the
# library must define: C++20 code (the shims' designated initialisers) says C++17 to them.
SC_CFLAGS   := $(shell pkg-config --cflags systemc 2>/dev/null) -DSC_CPLUSPLUS=201703L
SC_LIBS     := $(shell pkg-config --libs systemc 2>/dev/null || echo -lsystemc)
SC_VFLAGS   := $(patsubst --cc,--sc,$(VFLAGS))
SC_LIBS_VL  := $(foreach m,$(SC_VARIANTS),$(VLSC)/$(m)/Vsc$(m)__ALL.a)
SC_RUNTIME  := $(addprefix $(SC_BUILD)/runtime/,verilated.o verilated_fst_c.o verilated_threads.o)
INC_sc      := $(INC_core) $(INC_FAMILIES) -Iharness/cmd -Iharness/sc \
               $(foreach m,$(SC_VARIANTS),-I$(VLSC)/$(m)) $(SC_CFLAGS)
SC_SRC      := $(wildcard harness/sc/*.cpp)
SC_OBJ      := $(patsubst %.cpp,$(SC_BUILD)/obj/%.o,$(SC_SRC))
FTSIM_SC    := $(BUILD)/ftsim-sc

define VLSC_RULE
$(1): $(6) $(RTL_HDRS) $(2)/cmd
	$(VERILATOR) $(SC_VFLAGS) $(RTL_INC) --Mdir $(2) --top-module $(3) --prefix $(4) $(5) $(6)
	+$(MAKE) -s -C $(2) -f $(4).mk OPT_FAST=$(VOPT) OPT_SLOW=-O1 SYSTEMC_INCLUDE=/usr/include \
	  SYSTEMC_LIBDIR=/usr/lib/$(shell gcc -print-multiarch) $(4)__ALL.a
$(2)/cmd: FORCE
	@mkdir -p $(2)
	@echo '$(VERILATOR) $(SC_VFLAGS) $(RTL_INC) --top-module $(3) --prefix $(4) $(5) $(6) $(VOPT)' \
	  | cmp -s - $(2)/cmd || echo '$(VERILATOR) $(SC_VFLAGS) $(RTL_INC) --top-module $(3) --prefix $(4) $(5) $(6) $(VOPT)' > $(2)/cmd
endef
# Each variant of the designs rtl/files.txt marks `systemc yes`.
$(foreach v,$(SC_VARIANTS),$(eval $(call VLSC_RULE,$(VLSC)/$(v)/Vsc$(v)__ALL.a,$(VLSC)/$(v),$(VL_TOP_$(v)),Vsc$(v),$(VL_PARAMS_$(v)),$(call vl_files,$(v)))))

# Verilator's runtime for SystemC (its time comes from the SystemC kernel).
$(SC_BUILD)/runtime/%.o: $(VINC)/%.cpp Makefile
	@mkdir -p $(dir $@)
	$(CXX) $(filter-out $(SANFLAGS),$(CXXFLAGS_V)) -DVM_SC=1 $(SC_CFLAGS) -c $< -o $@

$(SC_BUILD)/obj/harness/sc/%.o: harness/sc/%.cpp Makefile | $(SC_LIBS_VL)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_V) -Werror -DVM_SC=1 $(INC_sc) -c $< -o $@

$(FTSIM_SC): $(SC_OBJ) $(filter-out $(BUILD)/obj/harness/cmd/main.o,$(OBJ_HC)) $(OBJ_CSIM) \
             $(OBJ_CXX) $(VL_LIBS) $(SC_LIBS_VL) $(SC_RUNTIME)
	$(CXX) $(SANFLAGS) -o $@ $(SC_OBJ) $(filter-out $(BUILD)/obj/harness/cmd/main.o,$(OBJ_HC)) \
	  $(OBJ_CSIM) $(OBJ_CXX) $(SC_LIBS_VL) $(VL_LIBS) $(SC_RUNTIME) \
	  $(SC_LIBS) $(JSONC_LIBS) -lz -lm -pthread -latomic

sc-deps:
	@bash harness/scripts/deps.sh systemc
sc-build: sc-deps
	+@$(MAKE) -s -j$(JOBS) $(FTSIM_SC)

# The virtual platform examples (harness/scripts/sc_demo.sh, harness/sc/README.md).
sc-demo: sc-build
	@FTSIM_SC=$(FTSIM_SC) BUILD=$(BUILD) bash harness/scripts/sc_demo.sh

-include $(wildcard $(SC_BUILD)/obj/harness/sc/*.d)

# ---- the parser under libFuzzer: make fuzz-parser SECONDS=N ----------------------------------
# The harness's C code and the C models rebuilt with clang, coverage-guided and sanitized
# (ASan, UBSan, leaks); the C++ shims and the Verilated models come from the normal build.
FUZZ_DIR    := $(BUILD)/fuzz-parser
FUZZ_CC     := clang-14
FUZZ_FLAGS  := -std=c11 -g -O1 -D_POSIX_C_SOURCE=200809L -fsanitize=fuzzer-no-link,address,undefined \
               -fno-sanitize-recover=undefined $(DEPFLAGS)
FUZZ_OBJ    := $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(filter-out harness/cmd/main.c,$(HARNESS_C)) \
               $(CSIM_C))
SECONDS     ?= 60
EXECS       ?= -1
$(FUZZ_DIR)/obj/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(INC_cmd) -c $< -o $@
$(FUZZ_DIR)/fuzz_vec: tests/fuzz/fuzz_vec.c $(FUZZ_OBJ) $(OBJ_CXX) $(VL_LIBS) \
                      $(VL_RUNTIME)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(INC_cmd) -c $< -o $(FUZZ_DIR)/fuzz_vec.o
	clang++-14 -fsanitize=fuzzer,address,undefined -o $@ $(FUZZ_DIR)/fuzz_vec.o $(FUZZ_OBJ) \
	  $(OBJ_CXX) $(VL_LIBS) $(VL_RUNTIME) $(JSONC_LIBS) -lz -lm -pthread -latomic
# The same target again with the parser's files (vec.c, each family's words) under source coverage,
# run once over the final corpus: the parser's line coverage under the fuzz.
FUZZ_COVSRC := harness/core/vec.c $(wildcard harness/*/*_word.c)
FUZZ_COVOBJ := $(patsubst %.c,$(FUZZ_DIR)/cov/%.o,$(FUZZ_COVSRC))
$(FUZZ_DIR)/cov/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fprofile-instr-generate -fcoverage-mapping $(INC_cmd) -c $< -o $@
$(FUZZ_DIR)/fuzz_vec_cov: $(FUZZ_DIR)/fuzz_vec $(FUZZ_COVOBJ)
	clang++-14 -fsanitize=fuzzer,address,undefined -fprofile-instr-generate -o $@ \
	  $(FUZZ_DIR)/fuzz_vec.o $(filter-out $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(FUZZ_COVSRC)),$(FUZZ_OBJ)) \
	  $(FUZZ_COVOBJ) $(OBJ_CXX) $(VL_LIBS) $(VL_RUNTIME) $(JSONC_LIBS) -lz -lm -pthread -latomic
fuzz-parser:
	@bash harness/scripts/deps.sh fuzz
	+@$(MAKE) -s -j$(JOBS) $(FUZZ_DIR)/fuzz_vec $(FUZZ_DIR)/fuzz_vec_cov
	@bash harness/scripts/fuzz_parser.sh $(FUZZ_DIR) $(SECONDS) $(EXECS)

-include $(wildcard $(FUZZ_DIR)/obj/*/*/*.d $(FUZZ_DIR)/obj/*/*.d)

# ---- coverage: make coverage ---------------------------------------------------------------
# The models rebuilt for coverage into build/cov/ (COVERAGE=1 above), the regression played on
# them, the counts merged and reported (harness/scripts/coverage.py; README.md, "Coverage").
# COV_ARGS passes options to the script (e.g. --report-only).
coverage:
	@bash harness/scripts/deps.sh coverage
	+@$(MAKE) -s -j$(JOBS) COVERAGE=1 build units
	@python3 harness/scripts/coverage.py --jobs $(JOBS) $(COV_ARGS)

# ---- checks --------------------------------------------------------------------------------
# Every variant of every design through verilator --lint-only -Wall and iverilog -g2012 -Wall,
# each silent (harness/scripts/lint.py: the checks the lint suite of tests/run.py runs too).
lint:
	@python3 harness/scripts/lint.py --rtl $(RTL_DIR) --build $(BUILD)

# ---- the cocotb test bench (tests/cocotb/): a venv of Debian's python3 under build/ with the
# pinned packages (PEP 668: no pip into the system interpreter), made again when the pins change;
# one venv for every build folder (make test SAN=1 uses it too).
VENV        := build/venv
COCOTB_REQ  := tests/cocotb/requirements.txt
$(VENV)/ok: $(COCOTB_REQ)
	@rm -rf $(VENV)
	/usr/bin/python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r $(COCOTB_REQ)
	@touch $@
cocotb-venv: $(VENV)/ok

# ---- the synthesis, formal and place-and-route tools (synth/requirements.txt): one venv of pinned
# PyPI builds for make synth, make equiv and make formal, made again when the pins change.
VENV_EDA    := build/venv-eda
EDA_REQ     := synth/requirements.txt
$(VENV_EDA)/ok: $(EDA_REQ)
	@rm -rf $(VENV_EDA)
	/usr/bin/python3 -m venv $(VENV_EDA)
	$(VENV_EDA)/bin/pip install -q --disable-pip-version-check -r $(EDA_REQ)
	@touch $@
eda-venv: deps $(VENV_EDA)/ok
# make formal (formal/formal.mk, formal/README.md): the proofs of the RTL with those tools.
formal: eda-venv
include formal/formal.mk

# Synthesis, equivalence and FPGA timing: synth/README.md.
include synth/synth.mk

# The cocotb bench on Verilator: every model built by cocotb's runner (about 30 s each), too
# slow for make test's budget, so a target of its own (.ci/run calls it after make test).
# The spec vectors, and the other vectors with upsets (golden, tests/upset: a flip through the
# simulator's VPI, tests/cocotb/ftsim_cocotb/upset.py); then every element of every upset map
# flipped on a stimulus, against the Verilated model's record of it (tests/upset/sites.py).
COCOTB_VECS := $(wildcard $(VL_VECTOR_DIRS:%=vectors/%/spec/*.vec)) \
               $(shell grep -l -E '^[[:space:]]*@[^[:space:]]+[[:space:]]+seu([[:space:]]|$$)' \
               $(VL_VECTOR_DIRS:%=vectors/%/golden/*.vec) tests/upset/*.vec)
cocotb-verilator: deps
	+@$(MAKE) -s build cocotb-venv
	@FTSIM=$(FTSIM) $(VENV)/bin/python tests/cocotb/run.py replay --sim verilator $(COCOTB_VECS) \
	  > $(BUILD)/cocotb-verilator.log 2>&1 || { tail -40 $(BUILD)/cocotb-verilator.log; exit 1; }
	@grep -E '^(FAIL|[0-9]+ passed)' $(BUILD)/cocotb-verilator.log
	@FTSIM=$(FTSIM) python3 tests/upset/sites.py --all $(BUILD)/cocotb/sites >/dev/null && \
	  FTSIM=$(FTSIM) $(VENV)/bin/python tests/cocotb/run.py replay --sim verilator \
	  $(patsubst %,$(BUILD)/cocotb/sites/%.vec,$(VL_DEVICES)) \
	  > $(BUILD)/cocotb-verilator-sites.log 2>&1 || { tail -40 $(BUILD)/cocotb-verilator-sites.log; exit 1; }
	@echo "every upset map's elements flipped (tests/upset/sites.py):" && \
	  grep -E '^(FAIL|[0-9]+ passed)' $(BUILD)/cocotb-verilator-sites.log
	@FTSIM=$(FTSIM) $(VENV)/bin/python tests/cocotb/run.py native --sim verilator \
	  > $(BUILD)/cocotb-verilator-native.log 2>&1 || { tail -40 $(BUILD)/cocotb-verilator-native.log; exit 1; }
	@grep -E '^(PASS|FAIL|[0-9]+ passed)' $(BUILD)/cocotb-verilator-native.log

# make test SUITE=name[,name] runs only those suites; VEC=GLOB only the vectors matching GLOB
# (tests/run.py --help lists the suites). Every suite but the mutants, a broken build each (about
# 8 minutes on two cores), which are make mutants: make test's test phase stays within 5 minutes.
test: deps sc-deps
	+@$(MAKE) -s -j$(JOBS) build units cocotb-venv $(FTSIM_SC)
	@FTSIM=$(FTSIM) FTSIM_SC=$(FTSIM_SC) UNITS=$(BUILD)/tests python3 tests/run.py --jobs $(JOBS) \
	  $(if $(SUITE),--suite $(SUITE),--skip mutants) \
	  $(if $(VEC),--vec '$(VEC)') $(if $(SAN),--junit $(BUILD)/junit.xml)

# Every mutant of tests/mutants.py built and caught (.ci/run calls it after make test).
mutants: deps
	+@$(MAKE) -s -j$(JOBS) build units
	@FTSIM=$(FTSIM) UNITS=$(BUILD)/tests python3 tests/run.py --jobs $(JOBS) --suite mutants

demo: deps
	+@$(MAKE) -s build
	@bash harness/scripts/demo.sh

wave: build
	@test -n "$(V)" || { echo "usage: make wave V=FILE.vec (a vector under vectors/)"; exit 2; }
	@bash harness/scripts/wave.sh "$(V)"

vectors: build
	@python3 harness/scripts/vectors.py $(if $(MODEL),--model $(MODEL)) $(if $(V),--only $(V))

# make bench: this tree; make bench BASE=REV: REV built in a scratch folder and both benched
# side by side in one run.
bench: deps sc-deps
	+@$(MAKE) -s -j$(JOBS) build cocotb-venv $(FTSIM_SC)
ifdef BASE
	@bash harness/scripts/build_rev.sh "$(BASE)" $(BUILD)/base
	@python3 harness/scripts/bench.py --base "$$(cat $(BUILD)/base/ftsim.path)" --base-label "$(BASE)" \
	  $(if $(filter torus,$(ONLY)),--only-torus) $(if $(filter devices,$(ONLY)),--only-devices)
else
	@python3 harness/scripts/bench.py $(if $(filter cocotb,$(ONLY)),--only-cocotb) \
	  $(if $(filter torus,$(ONLY)),--only-torus) $(if $(filter devices,$(ONLY)),--only-devices)
endif

# The measurements, their tables and plots: the experiments and their options are listed in
# harness/scripts/paper.sh. RUNS runs of each SCI torus experiment.
RUNS ?= 10
paper: deps
	+@$(MAKE) -s build
	@FTSIM=$(FTSIM) BUILD=$(BUILD) JOBS=$(JOBS) RUNS=$(RUNS) bash harness/scripts/paper.sh

# FT-DRB (Zarza et al.) on the SCI torus (harness/scisys/ftdrb_sci.md): the pairs each fault set leaves
# connected, reachable through two intermediates and delivering, without and with it; exit 1
# when a reachable pair does not deliver with FT-DRB (CI runs it). The 4x4 torus at a quarter of
# the all-pairs load (harness/scisys/README.md, "Several faults": relaying costs host bandwidth),
# its multi-fault cases only (the single faults' checks are calibrated at the default period).
# Each report lands in build/experiments/ftdrb-*.txt.
FTDRB_CHECK = @set -o pipefail; $(FTSIM) faultcheck --ftdrb --jobs 2
ftdrb: deps
	+@$(MAKE) -s build
	@mkdir -p $(BUILD)/experiments
	$(FTDRB_CHECK) --torus 3x3 --double | tee $(BUILD)/experiments/ftdrb-3x3-double.txt | tail -n 6
	$(FTDRB_CHECK) --torus 3x3 --faults 3 | tee $(BUILD)/experiments/ftdrb-3x3-triple.txt | tail -n 6
	$(FTDRB_CHECK) --torus 4x4 --double --period 16000 --multi-only | tee $(BUILD)/experiments/ftdrb-4x4-double.txt | tail -n 6

clean:
	rm -rf $(BUILD)

include harness/cluster/cluster.mk
