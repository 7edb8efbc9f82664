#!/usr/bin/env bash
# make wave V=FILE.vec: play a vector with an FST and open GTKWave with its device's layout
# (the one table: harness/scripts/layouts.py). The FST goes to build/waves/ + the vector's path.
set -u
cd "$(dirname "$0")/../.."
vec=$1
[ -f "$vec" ] || { echo "make wave: no such vector: $vec" >&2; exit 2; }
fst=$(python3 harness/scripts/layouts.py --fst "$vec")
mkdir -p "$(dirname "$fst")"
build/ftsim play "$vec" --wave "$fst"
rc=$?
[ $rc -eq 2 ] && exit 2
[ -s "$fst" ] || { echo "make wave: no waveform was written" >&2; exit 2; }
device=$(python3 -c 'import sys; sys.path.insert(0, "harness/scripts"); import layouts; print(layouts.device_of(sys.argv[1]) or "")' "$vec")
if ! layout=$(python3 harness/scripts/layouts.py "$device"); then
  echo "waveform: $fst (open it in GTKWave and add the signals you need)"
  exit $rc
fi
if [ -n "${DISPLAY:-}" ] && command -v gtkwave >/dev/null; then
  echo "opening $fst in GTKWave ($layout)"
  gtkwave -a "$layout" "$fst" >/dev/null 2>&1 &
else
  echo "waveform: $fst"
  echo "no display here; on a machine with one:  gtkwave -a $layout $fst"
fi
exit $rc
