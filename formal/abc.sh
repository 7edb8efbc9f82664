#!/bin/sh
# formal/abc.sh -- Debian's berkeley-abc for SymbiYosys's `abc pdr` engine (formal/run.py sets
# ABC to this file). sby passes `pdr -v -l`; Debian's ABC (2022) has no -l (one line per proved
# output, which sby reads only with --keep-going) and would refuse the command, so it is dropped;
# "Property proved." is still what sby reads as PASS. Every other argument is passed unchanged.
case "$1" in -h|--help) echo "usage: formal/abc.sh ABC-ARGS... (berkeley-abc without pdr's -l)"; exit 0;; esac
n=$#
while [ "$n" -gt 0 ]; do
  a=$1; shift; n=$((n - 1))
  set -- "$@" "$(printf '%s' "$a" | sed 's/pdr -v -l/pdr -v/')"
done
exec berkeley-abc "$@"
