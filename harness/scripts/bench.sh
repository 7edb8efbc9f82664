#!/usr/bin/env bash
# make bench: simulated cycles per second, measured side by side in this one run.
set -eu
cd "$(dirname "$0")/../.."
cycles=${CYCLES:-1000000}
echo "machine: $(nproc) cores, $(awk '/model name/{$1=$2=$3="";print;exit}' /proc/cpuinfo | sed 's/^ *//'), $(date -u +%Y-%m-%d)"
build/ftsim bench --cycles "$cycles" --repeat "${REPEAT:-3}" | sed -n '/^RN1, /,$p'
echo
n=${ICARUS_CYCLES:-20000}
mkdir -p build/icarus
v=$(build/ftsim stim --cycles "$n" --seed 1 -o build/icarus/bench.hex --time-rtl | awk '/^verilator/{print $3}')
iverilog -g2012 -Irtl -o build/icarus/tb_rn1_replay.vvp tests/icarus/tb_rn1_replay.sv rtl/rn1.v rtl/rn1_fport.v
t0=$(date +%s.%N)
vvp -n build/icarus/tb_rn1_replay.vvp +stim=build/icarus/bench.hex +cycles="$n" > /dev/null
t1=$(date +%s.%N)
i=$(awk -v n="$n" -v a="$t0" -v b="$t1" 'BEGIN{printf "%.0f", n / (b - a)}')
echo "Verilator vs Icarus, the same $n-cycle fuzz stimulus replayed on the RTL (no tracing):"
echo
echo "| simulator | cycles/s | ratio |"
echo "|---|---:|---:|"
echo "| Verilator 5.006 (-O3, OPT_FAST=-O2) | $v | $(awk -v a="$v" -v b="$i" 'BEGIN{printf "%.0fx", a / b}') |"
echo "| Icarus 11 (vvp) | $i | 1x |"
echo
# A ring of 8 SCI nodes under saturating traffic: every flow (56) always has a message in
# flight (ftsim fuzz --device ring --gap 1, no cable pulls); the same seed for each model.
rc=${RING_CYCLES:-300000}
declare -A best
for round in $(seq "${REPEAT:-3}"); do
  for m in rtl csim both; do
    c=$(build/ftsim fuzz --device ring --nodes 8 --lc3 --no-cuts --gap 1 --seed 1 --cycles "$rc" \
          --model "$m" --quiet | sed -n 's/.*(\([0-9]*\) cycles\/s).*/\1/p')
    [ -n "$c" ] || { echo "bench: ring run failed ($m)" >&2; exit 1; }
    if [ -z "${best[$m]:-}" ] || [ "$c" -gt "${best[$m]}" ]; then best[$m]=$c; fi
  done
done
util=$(build/ftsim fuzz --device ring --nodes 8 --lc3 --no-cuts --gap 1 --seed 1 --cycles "$rc" \
         --model csim --quiet | sed -n 's/.*links busy \([0-9.]*%\).*/\1/p')
echo "SCI ring of 8 LC3 nodes, saturating host traffic (links busy $util), $rc cycles, best of ${REPEAT:-3}:"
echo
echo "| run | cycles/s | vs rtl |"
echo "|---|---:|---:|"
for m in rtl csim both; do
  name=$m; [ "$m" = both ] && name="lockstep (rtl+csim)"
  echo "| $name | ${best[$m]} | $(awk -v a="${best[$m]}" -v b="${best[rtl]}" 'BEGIN{printf "%.2fx", a / b}') |"
done
echo
# The running 3x3 torus (ftsim torus): the paper's flows and a complement pattern, a cable
# pulled and put back, the drivers at time scale 100; the same scenario for each model, and
# with and without idle skipping (the C model skips edges that change no state; the RTL
# cannot). Speed is the simulated run's cycles over its wall time, printed by ftsim torus.
declare -A tb
for m in rtl csim csim-noskip both; do
  tb[$m]=0
  for r in $(seq "${REPEAT:-3}"); do
    model=${m%-noskip}; extra=""; [ "$m" = csim-noskip ] && extra="--no-skip"
    c=$(build/ftsim torus --torus 3x3 --model "$model" $extra --scenario tests/scenarios/pull_restore_3x3.scn \
        --time-scale 100 --run 3ms | sed -n 's/.* = \([0-9]*\) simulated cycles\/s.*/\1/p')
    [ -n "$c" ] || { echo "bench: torus run failed ($m)" >&2; exit 1; }
    [ "$c" -gt "${tb[$m]}" ] && tb[$m]=$c
  done
done
echo "SCI 3x3 torus running (ftsim torus, tests/scenarios/pull_restore_3x3.scn, 3 ms), best of ${REPEAT:-3}:"
echo
echo "| run | cycles/s | vs rtl |"
echo "|---|---:|---:|"
for m in rtl csim-noskip csim both; do
  name=$m; [ "$m" = both ] && name="lockstep"; [ "$m" = csim-noskip ] && name="csim, every edge (--no-skip)"
  [ "$m" = csim ] && name="csim, idle edges skipped"
  echo "| $name | ${tb[$m]} | $(awk -v a="${tb[$m]}" -v b="${tb[rtl]}" 'BEGIN{printf "%.2fx", a / b}') |"
done
