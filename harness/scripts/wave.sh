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
# The layout follows the vector's device: rn1's own, or a network's path layout.
device=$(grep -m1 -iE '^[[:space:]]*device[[:space:]]' "$vec" | awk '{print tolower($2)}')
n=${device//[!0-9]/}
case "$device" in
  rn1) layout=waves/rn1.gtkw ;;
  lc3|p2s) layout=waves/lc3.gtkw ;;
  lc3node|p2snode) layout=waves/lc3node.gtkw ;;
  lc3node2|p2snode2) layout=waves/lc3node2.gtkw ;;
  torus*|p2storus*)
       dims=${device#*torus}; w=${dims%x*}; h=${dims#*x}
       layout=waves/torus${w}x${h}.gtkw
       if [ ! -f "$layout" ]; then
         layout=build/waves/torus${w}x${h}.gtkw
         python3 harness/scripts/sci_gtkw.py torus "$w" "$h" "$layout"
       fi ;;
  ring*|p2sring*)
       layout=waves/ring$n.gtkw
       if [ ! -f "$layout" ]; then
         layout=build/waves/ring$n.gtkw
         python3 harness/scripts/sci_gtkw.py ring "$n" "$layout"
       fi ;;
  *)   layout=waves/${device}_path.gtkw
       if [ ! -f "$layout" ]; then
         echo "no committed layout for $device; write one for your path with:"
         echo "  harness/scripts/path_gtkw.py build/waves/$device.gtkw rR:fI:bJ ...   (ftsim net --links)"
         layout=build/waves/$device.gtkw
       fi ;;
esac
if [ -n "${DISPLAY:-}" ] && command -v gtkwave >/dev/null; then
  echo "opening $fst in GTKWave ($layout)"
  gtkwave -a "$layout" "$fst" >/dev/null 2>&1 &
else
  echo "waveform: $fst"
  echo "no display here; on a machine with one:  gtkwave -a $layout $fst"
fi
exit $rc
