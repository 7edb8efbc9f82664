#!/usr/bin/env bash
# make paper: every measurement of the papers' experiments, with its tables and plots (not
# part of make test: the 4x4 triple faults alone take about 40 minutes). The experiments and
# their options are listed here, not in the Makefile: `ftsim experiment --help` describes each.
#
# usage: paper.sh   with FTSIM (build/ftsim), BUILD (build), JOBS (2) and RUNS (10) from the
#                   environment; tables go to $BUILD/experiments/*.md and *.json, plots and
#                   their data to harness/results/*.png, *.csv. Exit 1 when a step fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
FTSIM=${FTSIM:-build/ftsim}
BUILD=${BUILD:-build}
JOBS=${JOBS:-2}
RUNS=${RUNS:-10}
out=$BUILD/experiments
mkdir -p "$out"

# The RNP network measurements (RNP, DeHon et al.), their CSV beside the tables.
rnp=(rnp-load rnp-patterns rnp-policy)
# The SCI torus experiments (the SCI paper, Stensland et al.: its timers, RUNS runs each with
# the fault at random times), their CSV under harness/results.
sci=(ring-down-9 node-down-4 static-4 p2s-ring-down-9 p2s-node-down-4)
csv=()

for e in "${rnp[@]}"; do
    "$FTSIM" experiment "$e" --out "$out" | tee "$out/$e.md"
    echo
    csv+=("$out/$e.csv")
done
# FT-DRB (Zarza et al.)'s Figure 3 on rnpnet1024 (harness/rnp/ftdrb_rnp.md): 168 runs, on
# JOBS processes.
"$FTSIM" experiment ftdrb-rnp --jobs "$JOBS" --out "$out" | tee "$out/ftdrb-rnp.md"
echo
csv+=("$out/ftdrb-rnp.csv")
for e in "${sci[@]}"; do
    "$FTSIM" experiment "$e" --runs "$RUNS" --out harness/results --json-file "$out/$e.json" \
        | tee "$out/$e.md"
    echo
    csv+=("harness/results/$e.csv")
done
# FT-DRB's Figure 3 on a 32x32 P2S torus: the sweep, then the run whose CSV is plotted.
"$FTSIM" experiment ftdrb-sci --sweep --jobs 2 | tee "$out/ftdrb-sci-sweep.md"
"$FTSIM" experiment ftdrb-sci --jobs 2 --out harness/results --json-file "$out/ftdrb-sci.json" \
    | tee "$out/ftdrb-sci.md"
csv+=(harness/results/ftdrb-sci.csv)

/usr/bin/python3 harness/scripts/plot.py --out harness/results "${csv[@]}"
/usr/bin/python3 tests/paper_check.py --from "$out"
/usr/bin/python3 harness/scripts/upset_paper.py --out "$out"
# FT-DRB on the SCI torus beyond make ftdrb: every triple fault of the 4x4 torus at a quarter
# of the all-pairs load, its multi-fault cases only (harness/scisys/ftdrb_sci.md).
"$FTSIM" faultcheck --ftdrb --jobs 2 --torus 4x4 --faults 3 --period 16000 --multi-only \
    | tee "$out/ftdrb-4x4-triple.txt" | tail -n 6
# FTGM's detectors under load (harness/scisys/upsets.md): upset-free 3x3, 4x4 and 8x8 tori,
# uniform and complement, half of saturation to saturation, --ft on, five seeds a point: false
# alarms, recoveries and the median bandwidth cost of --ft.
/usr/bin/python3 harness/scripts/ft_sweep.py --jobs "$JOBS" --json "$out/ft-sweep.json" \
    | tee "$out/ft-sweep.md"
# FT-DRB against the P2S failover alone (harness/scisys/ftdrb_sci.md, section 8): 8x8 and
# 16x16, the six patterns, 2 and 6 cables, 1/2 and 4/5 of each pattern's saturation, seeds 1-3.
/usr/bin/python3 harness/scripts/ftdrb_grid.py --jobs "$JOBS" --out "$out/ftdrb-grid.json" \
    | tee "$out/ftdrb-grid.md"
echo "tables: $out/*.md, *.json   plots: harness/results/*.png (data: *.csv)"
