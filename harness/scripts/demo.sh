#!/usr/bin/env bash
# make demo: the showcase vectors in lockstep, a short fuzz, and a waveform to open.
set -u
cd "$(dirname "$0")/../.."
FTSIM=build/ftsim
show=vectors/rn1/spec/showcase.vec
echo "== ftsim demo: RN1 (MIT Transit RNP crossbar) and the SCI link controllers (LC3, P2S),"
echo "   Verilated RTL and C model in lockstep"
echo
echo "-- the designs"
$FTSIM info
echo
echo "-- spec vectors, every output and the debug state compared every cycle"
mapfile -t vecs < <(ls vectors/*/spec/*.vec)
$FTSIM play "${vecs[@]}" > build/demo-play.log; rc=$?
grep -c '^PASS' build/demo-play.log | xargs printf '   %s vectors passed'
grep -c '^FAIL' build/demo-play.log | xargs printf ', %s failed\n'
grep '^FAIL' build/demo-play.log | sed 's/^/   /'
echo
echo "-- fuzz: random connections on all 16 ports, lockstep + end-to-end scoreboard"
$FTSIM fuzz --device rn1 --seed 2026 --cycles 300000 --quiet || rc=1
echo
echo "-- an RNP network of 48 RN1s (64 endpoints), 6 random faults, backward channel on:"
echo "   sources diagnose each failed attempt from the STATUS/CHECKSUM pairs, retry, and the link"
echo "   fault table masks what they locate; every router RTL against every router C model"
$FTSIM fuzz --device rnpnet --endpoints 64 --faults 6 --backchan --seed 7 --cycles 40000 || rc=1
echo
echo "-- an SCI ring of 8 LC3 nodes: the hosts exchange messages (sequence numbers, acks,"
echo "   retransmission with new tids) while node 3's cable is pulled and put back; every LC must"
echo "   report its ring down and up within the documented bounds, and the ledger must be clean"
$FTSIM fuzz --device ring --nodes 8 --lc3 --pull 3 --seed 21 --cycles 150000 --quiet || rc=1
echo
echo "-- a 3x3 SCI torus, the paper's ring-down-9 (one run): the X-ring cable tiger-1 -> tiger-2"
echo "   is pulled; the drivers of row 0 run CableNotOk (50 ms) and ReadyToGo (200 ms) and the"
echo "   affected flows resume after one pass; the control flow tiger-5 -> tiger-9 never stops"
$FTSIM experiment ring-down-9 --runs 1 --out build/experiments || rc=1
/usr/bin/python3 harness/scripts/plot.py build/experiments/ring-down-9.csv || rc=1
echo
echo "-- the same torus in RTL with its drivers, a cable pulled at 100 us and put back at 600 us"
echo "   (timers / 1000), into one waveform with the harness's driver states and deliveries"
mkdir -p build/waves
$FTSIM torus --torus 3x3 --model rtl --scenario tests/scenarios/wave_3x3.scn --time-scale 1000 \
  --wave build/waves/sys3x3.fst > build/waves/sys3x3.log || rc=1
tail -2 build/waves/sys3x3.log
echo "   gtkwave -a waves/torus3x3_sys.gtkw build/waves/sys3x3.fst"
echo
fst=build/waves/showcase.fst
echo "-- the showcase (vectors/rn1/spec/showcase.vec): f1, f3, f6 want direction 2 in cycle 2;"
echo "   the rotating order serves f3 first (LFSR bit 3 = 1: odd b5), then f6 (b4), f1 is blocked;"
echo "   f3 turns, gets STATUS C2 / CHECKSUM B0 and a reply, the destination turns back (two"
echo "   HOLDs), f3 sends 3C and drops; f1 gets STATUS 02 / CHECKSUM 90 / DROP"
$FTSIM play "$show" --wave "$fst" --show || rc=1
echo
echo "Waveform written: $fst   (1 cycle = 10 ns; cycle N starts at N*10 ns)"
echo "Open it with the committed layout:"
echo "   gtkwave -a waves/rn1.gtkw $fst"
echo "or:  make wave V=$show"
exit $rc
