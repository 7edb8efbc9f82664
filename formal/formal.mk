# make formal (formal/README.md): SymbiYosys on the RTL with the pinned
# tools of build/venv-eda. Included by the Makefile.
.PHONY: formal
formal:
	@python3 formal/run.py
