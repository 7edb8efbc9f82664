#!/usr/bin/env bash
# make sc-demo: the SystemC virtual platforms (harness/sc/README.md). A TLM host CPU configures
# a ring of SCI nodes (RTL, then the C model with a cable pulled), ring traffic checked against
# the C harness's ring; then the routers of a 16-endpoint RNP network as SC modules, the
# endpoints' messages checked against the C harness's network, into an FST.
#
# usage: sc_demo.sh   with FTSIM_SC (build/ftsim-sc) and BUILD (build) from the environment;
#                     each command is printed before it runs; exit 1 when one fails.
set -eu
cd "$(dirname "$0")/../.."
FTSIM_SC=${FTSIM_SC:-build/ftsim-sc}
BUILD=${BUILD:-build}
run() { echo "$*"; "$@"; }

run "$FTSIM_SC" platform --nodes 4 --model rtl
run "$FTSIM_SC" platform --nodes 8 --model csim --pull 5
run "$FTSIM_SC" rnpnet --model rtl --wave "$BUILD/sc-rnpnet16.fst"
