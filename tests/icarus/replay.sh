#!/usr/bin/env bash
# Replay a fuzz stimulus on the RTL under Icarus and compare its output signature with the C
# model's (ftsim stim): the two simulators' view of the RTL must agree with the reference.
# usage: tests/icarus/replay.sh CYCLES SEED   (prints both signatures and Icarus cycles/s)
set -eu
cd "$(dirname "$0")/../.."
n=${1:?cycles}; seed=${2:?seed}
dir=build/icarus
mkdir -p "$dir"
want=$("${FTSIM:-build/ftsim}" stim --cycles "$n" --seed "$seed" -o "$dir/stim-$seed.hex" | awk '/^SIG/{print $2}')
rtl=$(sed -n 's/^rn1:[[:space:]]*//p' rtl/files.txt | tr ' ' '\n' | grep '\.v$' | sed 's|^|rtl/|')   # rtl/files.txt
iverilog -g2012 -Wall -Irtl -o "$dir/tb_rn1_replay-$seed.vvp" tests/icarus/tb_rn1_replay.sv $rtl
t0=$(date +%s.%N)
got=$(timeout 600 vvp -n "$dir/tb_rn1_replay-$seed.vvp" +stim="$dir/stim-$seed.hex" +cycles="$n" | awk '/^SIG/{print $2}')
t1=$(date +%s.%N)
cps=$(awk -v n="$n" -v a="$t0" -v b="$t1" 'BEGIN{printf "%.0f", n / (b - a)}')
echo "csim   signature $want"
echo "icarus signature ${got:-none} ($n cycles, $cps cycles/s)"
if [ -n "$got" ] && [ "$got" = "$want" ]; then
  echo "PASS icarus replay, seed $seed"
else
  echo "FAIL icarus replay, seed $seed: the RTL under Icarus differs from the C model"
  exit 1
fi
