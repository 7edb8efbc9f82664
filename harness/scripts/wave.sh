#!/usr/bin/env bash
# make wave V=FILE.vec: play a vector with an FST and open GTKWave on the committed layout.
set -u
cd "$(dirname "$0")/../.."
vec=$1
[ -f "$vec" ] || { echo "make wave: no such vector: $vec" >&2; exit 2; }
mkdir -p build/waves
fst=build/waves/$(basename "${vec%.vec}").fst
build/ftsim play "$vec" --wave "$fst"
rc=$?
[ $rc -eq 2 ] && exit 2
[ -s "$fst" ] || { echo "make wave: no waveform was written" >&2; exit 2; }
layout=waves/rn1.gtkw
if [ -n "${DISPLAY:-}" ] && command -v gtkwave >/dev/null; then
  echo "opening $fst in GTKWave ($layout)"
  gtkwave -a "$layout" "$fst" >/dev/null 2>&1 &
else
  echo "waveform: $fst"
  echo "no display here; on a machine with one:  gtkwave -a $layout $fst"
fi
exit $rc
