#!/usr/bin/env bash
# make vectors: regenerate every golden vector from its stimulus on the C model.
# Golden vectors record behaviour for regression; review the diff, never edit them by hand.
set -eu
cd "$(dirname "$0")/../.."
for dev in vectors/*/; do
  dev=${dev%/}
  [ -d "$dev/spec" ] || continue
  out=$dev/golden
  mkdir -p "$out"
  rm -f "$out"/*.vec
  for spec in "$dev"/spec/*.vec; do
    build/ftsim record "$spec" -o "$out/$(basename "$spec")" >/dev/null
  done
done
# Fuzz traffic, fixed seeds: a broad stimulus no hand-written vector has.
for seed in 11 12 13; do
  build/ftsim fuzz --device rn1 --seed $seed --cycles 1000 --model csim --quiet \
    --record "vectors/rn1/golden/fuzz-seed$seed.vec" >/dev/null
done
# A small network with faults injected early: the network's behaviour under faults.
build/ftsim fuzz --device rnpnet --endpoints 16 --faults 3 --seed 5 --cycles 600 --gap 30 \
  --model csim --quiet --record vectors/rnpnet/golden/fuzz-rnpnet16-seed5.vec >/dev/null
# SCI: one controller under random stimulus, and a ring of 4 with a cable pulled and put back
# while the hosts exchange messages.
for d in lc3 p2s; do
  build/ftsim fuzz --device $d --seed 5 --cycles 3000 --model csim --quiet \
    --record "vectors/$d/golden/fuzz-$d-seed5.vec" >/dev/null
done
build/ftsim fuzz --device ring --nodes 4 --lc3 --pull 1 --gap 60 --seed 5 --cycles 3000 --model csim \
  --quiet --record vectors/ring/golden/fuzz-ring4-seed5.vec >/dev/null
build/ftsim fuzz --device ring --nodes 3 --p2s --pull 2 --gap 60 --seed 6 --cycles 3000 --model csim \
  --quiet --record vectors/ring/golden/fuzz-p2sring3-seed6.vec >/dev/null
echo "golden vectors regenerated:"
git status --short -- vectors/*/golden | sed 's/^/  /'
git diff --stat -- vectors/*/golden | tail -1
