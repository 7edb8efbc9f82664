# make formal (formal/README.md): SymbiYosys on the RTL with the pinned
# tools of build/venv-eda. Included by the Makefile.
.PHONY: formal formal-mutants
formal:
	@bash harness/scripts/deps.sh eda
	@python3 formal/run.py
# Every RTL mutant of tests/mutants.py through the prove tasks (outside CI): formal/mutants.py.
formal-mutants: eda-venv
	@python3 formal/mutants.py
