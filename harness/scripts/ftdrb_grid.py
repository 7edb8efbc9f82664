#!/usr/bin/env python3
"""FT-DRB against the P2S hardware failover alone over a grid (harness/scisys/ftdrb_sci.md,
section 8): P2S tori 8x8 and 16x16, the six patterns, 2 and 6 cables, loads of 1/2 and 4/5 of
each pattern's saturation on that torus (measured first by `ftsim experiment ftdrb-sci
--sweep`), seeds 1 to 3. Each point is one `ftsim experiment ftdrb-sci` run per pattern
(fault-free, 2 and 6 cables, each without and with FT-DRB); per point the performance (latency
fault-free / with the cables, in percent) averaged over the patterns, the failover's beside
FT-DRB's, and the points where FT-DRB's average is below the failover's. The failover's figure
is over the pairs it still delivers (those it cannot route are abandoned and counted); FT-DRB's
over every connected pair.

usage: harness/scripts/ftdrb_grid.py [--tori 8x8,16x16] [--patterns P,P,..] [--seeds 1,2,3]
                                     [--loads 0.5,0.8] [--jobs J] [--out FILE.json]
A smaller grid is a corner of the full one (the defaults). Progress on stderr; the table on
stdout; exit 1 when a run fails (a lost message, a connected pair that does not deliver).
"""
import argparse
import json
import os
import subprocess
import sys

FTSIM = os.environ.get("FTSIM", "build/ftsim")
PATTERNS = "bitrev,shuffle,butterfly,transpose,complement,uniform"
LABEL = {"bitrev": "bit-reversal", "shuffle": "perfect-shuffle", "butterfly": "butterfly",
         "transpose": "transpose", "complement": "complement", "uniform": "uniform"}


def ftsim(args):
    p = subprocess.run([FTSIM, "experiment", "ftdrb-sci", "--json", "--quiet", *args],
                       capture_output=True, text=True)
    if p.returncode not in (0, 1) or not p.stdout.strip():
        sys.exit(f"ftdrb_grid: {' '.join(args)}: exit {p.returncode}: {p.stderr[-400:]}")
    return p.returncode, json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tori", default="8x8,16x16")
    ap.add_argument("--patterns", default=PATTERNS)
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--loads", default="0.5,0.8", help="fractions of the saturation load")
    ap.add_argument("--jobs", default="2")
    ap.add_argument("--out", help="the points as JSON")
    a = ap.parse_args()
    pats = a.patterns.split(",")
    bad = 0
    points = []
    print("| torus | load | seed | cables | failover avg | FT-DRB avg | FT-DRB worse | "
          "pairs on 2+ paths | relay drops |\n|---|---:|---:|---:|---:|---:|---|---:|---:|")
    for torus in a.tori.split(","):
        _, sw = ftsim(["--torus", torus, "--sweep", "--patterns", ",".join(pats), "--jobs", a.jobs])
        sat = {p["pattern"]: p["saturation_every_us"] for p in sw["patterns"]}
        for load in (float(x) for x in a.loads.split(",")):
            for seed in a.seeds.split(","):
                per = {2: [[], [], 0, 0], 6: [[], [], 0, 0]}
                for p in pats:
                    s = sat.get(LABEL[p])
                    if not s or s != s:
                        print(f"ftdrb_grid: {torus} {p}: no saturation found by the sweep; left "
                              "out", file=sys.stderr)
                        continue
                    print(f"ftdrb_grid: {torus}, {p}, load {load:g}, seed {seed}", file=sys.stderr)
                    rc, d = ftsim(["--torus", torus, "--patterns", p, "--faults", "0,2,6",
                                   "--every-us", f"{s / load:g}", "--seed", seed, "--jobs", a.jobs])
                    bad |= rc != 0
                    for r in d["runs"]:
                        if r["faults"] in per and r["perf_pct"] is not None:
                            per[r["faults"]][r["config"] == "ftdrb"].append(r["perf_pct"])
                            if r["config"] == "ftdrb":
                                per[r["faults"]][2] += sum(r["pairs_by_paths"][2:])
                                per[r["faults"]][3] += r["relay_drops"]
                for k, (f, t, spread, drops) in per.items():
                    if not f or not t:
                        continue
                    fa, ta = sum(f) / len(f), sum(t) / len(t)
                    worse = ta < fa
                    points.append({"torus": torus, "load": load, "seed": int(seed), "cables": k,
                                   "failover_avg": fa, "ftdrb_avg": ta, "spread_pairs": spread,
                                   "relay_drops": drops})
                    print(f"| {torus} | {load:g} | {seed} | {k} | {fa:.1f} % | {ta:.1f} % | "
                          f"{'**yes**' if worse else 'no'} | {spread} | {drops} |", flush=True)
    worse = [p for p in points if p["ftdrb_avg"] < p["failover_avg"]]
    print(f"\n{len(points)} points; FT-DRB's average below the failover's at {len(worse)}"
          + ("" if not bad else "; a run FAILED (see above)"))
    if a.out:
        with open(a.out, "w") as fh:
            json.dump(points, fh, indent=1)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
