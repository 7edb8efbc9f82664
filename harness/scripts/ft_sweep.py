#!/usr/bin/env python3
"""The saturation sweep of FTGM's detectors (Zhou et al.; harness/scisys/sci_sys.md section 8):
upset-free tori with --ft from half of saturation to saturation, no false alarm allowed.

For each torus and pattern the saturation is measured first (seed 1, every node offering a
message every 0.5 us, far beyond what the rings carry: the MB/s delivered). Then at each load
(a fraction of that saturation, offered as one 64-byte message per flow every T), for each
seed, the same run with and without --ft (time scale 1000, the default self-test interval
0.5 ms scaled). Printed per point: the false alarms (failed self-test reads and watchdog
firings, summed over the seeds), the recoveries, the bad CRCs at hosts, and the median over
the seeds of the bandwidth --ft costs (positive: --ft delivered less).

usage: harness/scripts/ft_sweep.py [--tori 3x3,4x4,8x8] [--patterns uniform,complement]
           [--loads 0.5,0.75,1] [--seeds 5 | --seeds 1,2,5] [--run 2ms] [--jobs 2] [--json FILE]
  --seeds N      seeds 1 to N; a list (1,2,5) runs those seeds
Exit 1 when a point shows a false alarm, a recovery, a bad CRC at a host or a median cost of
2 % or more; 2 on a bad argument.
"""
import argparse
import concurrent.futures as cf
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FTSIM = os.environ.get("FTSIM", os.path.join(ROOT, "build", "ftsim"))
FLOWS = {"uniform": 2, "complement": 1}  # flows per node (sci_sys.md section 7)
BYTES = 64
COST_MAX = 2.0


def ftsim(torus, pattern, every, seed, run, ft):
    cmd = [FTSIM, "torus", "--torus", torus, "--traffic", pattern, "--every", every,
           "--run", run, "--time-scale", "1000", "--seed", str(seed), "--json"]
    if ft:
        cmd.append("--ft")
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError:
        raise SystemExit(f"ft_sweep: {' '.join(cmd)}: exit {p.returncode}: {p.stderr[-300:]}")


def every_for(torus, pattern, sat_mbs, load):
    """The message interval (ns, as --every takes it in cycles of 10 ns) for `load` of
    saturation: every node's flows together offer load * sat_mbs."""
    w, h = (int(v) for v in torus.split("x"))
    flows = FLOWS[pattern] * w * h
    t_us = flows * BYTES / (load * sat_mbs)  # bytes / (MB/s) = us
    return str(max(1, round(t_us * 100)))   # cycles at 100 MHz


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tori", default="3x3,4x4,8x8")
    ap.add_argument("--patterns", default="uniform,complement")
    ap.add_argument("--loads", default="0.5,0.75,1")
    ap.add_argument("--seeds", default="5", help="seeds 1 to N, or a list such as 1,2,5")
    ap.add_argument("--run", default="2ms")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", help="write every point's numbers here")
    a = ap.parse_args()
    try:
        loads = [float(v) for v in a.loads.split(",")]
    except ValueError:
        print(f"ft_sweep: --loads {a.loads}: want fractions such as 0.5,1", file=sys.stderr)
        return 2
    try:
        seeds = [int(v) for v in a.seeds.split(",")]
    except ValueError:
        print(f"ft_sweep: --seeds {a.seeds}: want a count such as 5 or a list such as 1,2,5",
              file=sys.stderr)
        return 2
    if len(seeds) == 1:
        seeds = list(range(1, seeds[0] + 1))
    pats = a.patterns.split(",")
    for p in pats:
        if p not in FLOWS:
            print(f"ft_sweep: --patterns: no pattern '{p}' (uniform, complement)", file=sys.stderr)
            return 2
    if not seeds or min(seeds) < 1 or a.jobs < 1 or any(not 0 < l <= 1 for l in loads):
        print("ft_sweep: seeds and --jobs at least 1, loads in (0, 1]", file=sys.stderr)
        return 2
    print(f"seeds {','.join(map(str, seeds))}, run {a.run}, time scale 1000, self-test every "
          "0.5 ms (scaled)", flush=True)
    rows, bad = [], 0
    print("| torus | pattern | load | every (cycles) | MB/s without | false alarms | recoveries "
          "| bad CRC at a host | median cost of --ft |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for torus in a.tori.split(","):
            for pat in pats:
                sat = ftsim(torus, pat, "50", 1, a.run, False)["mbs"]
                for load in loads:
                    ev = every_for(torus, pat, sat, load)
                    jobs = {(s, ft): ex.submit(ftsim, torus, pat, ev, s, a.run, ft)
                            for s in seeds for ft in (False, True)}
                    res = {k: f.result() for k, f in jobs.items()}
                    fts = [res[(s, True)]["ft"] for s in seeds]
                    alarms = sum(f["selftest_failed"] + f["watchdog_count"] for f in fts)
                    recs = sum(f["recoveries"] for f in fts)
                    crcs = sum(f["crc_at_host"] for f in fts)
                    costs = [100.0 * (res[(s, False)]["mbs"] - res[(s, True)]["mbs"])
                             / res[(s, False)]["mbs"] for s in seeds]
                    base = statistics.median(res[(s, False)]["mbs"] for s in seeds)
                    med = statistics.median(costs)
                    ok = alarms == 0 and recs == 0 and crcs == 0 and med < COST_MAX
                    bad += not ok
                    rows.append({"torus": torus, "pattern": pat, "load": load, "every": int(ev),
                                 "saturation_mbs": sat, "mbs": base, "false_alarms": alarms,
                                 "recoveries": recs, "crc_at_host": crcs, "costs": costs,
                                 "median_cost": med})
                    print(f"| {torus} | {pat} | {load:g} | {ev} | {base:.1f} | {alarms} | {recs} "
                          f"| {crcs} | {med:+.2f} %{'' if ok else ' FAIL'} |", flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    print(f"{len(rows) - bad} points passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
