# make synth, equiv, fpga, equiv-mutants: the designs as gate netlists, proven equal to the RTL,
# timed on an FPGA (synth/README.md). Included by the Makefile. The scripts read rtl/files.txt.
SYNTH_DIR   := $(BUILD)/synth
comma       := ,
SYNTH_SEL    = $(if $(D),$(subst $(comma), ,$(D)))
FPGA_DEVS   ?= rn1 lc3 lc3node

.PHONY: synth equiv fpga equiv-mutants
# make synth keeps a netlist newer than everything it is made from; then the results table.
synth: eda-venv
	@nice -n 10 python3 synth/synth.py --out $(SYNTH_DIR) --jobs $(JOBS) $(SYNTH_SEL)
	@python3 synth/report.py --dir $(SYNTH_DIR) --markdown $(SYNTH_SEL)
# RN1's parallel allocator against the serial one of its contract; then the netlist files as
# they are, never synthesized again (ABC's cec: Debian's berkeley-abc).
equiv: eda-venv
	@bash harness/scripts/deps.sh eda
	@$(if $(or $(filter rn1,$(SYNTH_SEL)),$(if $(SYNTH_SEL),,all)),nice -n 10 python3 synth/alloc_equiv.py,:)
	@nice -n 10 python3 synth/equiv.py --dir $(SYNTH_DIR) --jobs $(JOBS) $(SYNTH_SEL)
fpga: eda-venv
	@nice -n 10 python3 synth/fpga.py --dir $(SYNTH_DIR) --jobs $(JOBS) $(or $(SYNTH_SEL),$(FPGA_DEVS))
	@python3 synth/report.py --dir $(SYNTH_DIR) --markdown $(or $(SYNTH_SEL),$(FPGA_DEVS))
# One gate feeding a flip-flop changed, for five seeds: each copy must fail equivalence.
equiv-mutants: eda-venv
	@bash harness/scripts/deps.sh eda
	@for d in $(or $(SYNTH_SEL),rn1); do \
	  nice -n 10 python3 synth/equiv_mutants.py --dir $(SYNTH_DIR) $$d || exit 1; done
# The vectors that read a memory entry nothing wrote (memories X at start, under Icarus).
.PHONY: unwritten
unwritten: build
	@nice -n 10 python3 synth/unwritten.py $(SYNTH_SEL)
