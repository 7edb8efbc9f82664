# make synth: the designs as gate netlists (synth/README.md). Included by the Makefile.
# synth/synth.py reads rtl/files.txt and keeps a netlist newer than everything it is made from.
SYNTH_DIR   := $(BUILD)/synth

.PHONY: synth
synth: eda-venv
	@nice -n 10 python3 synth/synth.py --out $(SYNTH_DIR) --jobs $(JOBS) $(if $(D),$(subst $(comma), ,$(D)))
comma := ,
