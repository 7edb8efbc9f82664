#!/usr/bin/env python3
"""FT-DRB against the P2S hardware failover alone over a grid (harness/scisys/ftdrb_sci.md,
section 8, "never worse"): P2S tori 8x8 and 16x16, the six patterns, 2 and 6 cables, loads of
1/2 and 4/5 of each pattern's saturation on that torus (measured first by `ftsim experiment
ftdrb-sci --sweep`), seeds 1 to 3. Each point is one `ftsim experiment ftdrb-sci` run per
pattern (fault-free, 2 and 6 cables, each without and with FT-DRB).

Per point, averaged over the patterns: the performance (latency fault-free / with the cables,
percent) of each over the pairs BOTH deliver in the measured window (the same pairs, each
against its fault-free run over those pairs), and the pairs each delivers. FT-DRB is never
worse at a point when its average over the common pairs is at least the failover's less the
noise margin (--margin, percentage points; ftdrb_sci.md states how it was measured across
seeds) and it delivers at least as many pairs. The averages over every pair each delivers
are printed beside, for reference (they compare different sets of pairs).

usage: harness/scripts/ftdrb_grid.py [--tori 8x8,16x16] [--patterns P,P,..] [--seeds 1,2,3]
                                     [--loads 0.5,0.8] [--margin M] [--jobs J] [--threads N]
                                     [--sweeps FILE.json] [--out FILE.json]
A smaller grid is a corner of the full one (the defaults). --sweeps keeps each torus's
saturation intervals (read when present, else measured and written). Progress on stderr; the
table on stdout; exit 1 when a run fails (a lost message, a connected pair that does not
deliver) or FT-DRB is worse at a point, 2 on bad arguments.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys

FTSIM = os.environ.get("FTSIM", "build/ftsim")
PATTERNS = "bitrev,shuffle,butterfly,transpose,complement,uniform"
LABEL = {"bitrev": "bit-reversal", "shuffle": "perfect-shuffle", "butterfly": "butterfly",
         "transpose": "transpose", "complement": "complement", "uniform": "uniform"}
MARGIN = 1.0  # percentage points (ftdrb_sci.md section 8, "never worse": how it was measured)


def csv_of(kind, check):
    def parse(text):
        items = text.split(",")
        if not text or not all(check(x) for x in items):
            raise argparse.ArgumentTypeError(f"{text!r}: {kind} separated by commas")
        return items
    return parse


def is_torus(x):
    return re.fullmatch(r"([1-9]\d*)x([1-9]\d*)", x) is not None


def is_load(x):
    try:
        return 0 < float(x) <= 1
    except ValueError:
        return False


def ftsim(args):
    p = subprocess.run([FTSIM, "experiment", "ftdrb-sci", "--json", "--quiet", *args],
                       capture_output=True, text=True)
    if p.returncode not in (0, 1) or not p.stdout.strip():
        sys.exit(f"ftdrb_grid: {' '.join(args)}: exit {p.returncode}: {p.stderr[-400:]}")
    return p.returncode, json.loads(p.stdout)


def saturation(torus, pats, a):
    """Per pattern label, the interval (us) from which the fault-free torus takes all it is
    offered: from --sweeps when it has this torus and these patterns, else measured."""
    known = {}
    if a.sweeps and os.path.exists(a.sweeps):
        with open(a.sweeps) as fh:
            known = json.load(fh)
    have = known.get(torus, {})
    if all(LABEL[p] in have for p in pats):
        return have
    print(f"ftdrb_grid: {torus}: --sweep", file=sys.stderr, flush=True)
    _, sw = ftsim(["--torus", torus, "--sweep", "--patterns", ",".join(pats), "--jobs", a.jobs,
                   "--threads", a.threads])
    have.update({p["pattern"]: p["saturation_every_us"] for p in sw["patterns"]})
    if a.sweeps:
        known[torus] = have
        with open(a.sweeps, "w") as fh:
            json.dump(known, fh, indent=1)
    return have


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def pooled_sd(points):
    """The standard deviation across seeds of (FT-DRB - failover) over the common pairs, pooled
    over the (torus, load, cables) groups that have two seeds or more."""
    groups = {}
    for p in points:
        if not math.isnan(p["difference"]):
            groups.setdefault((p["torus"], p["load"], p["cables"]), []).append(p["difference"])
    ss = dof = 0
    for d in groups.values():
        if len(d) > 1:
            m = mean(d)
            ss += sum((x - m) ** 2 for x in d)
            dof += len(d) - 1
    return math.sqrt(ss / dof) if dof else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tori", default="8x8,16x16", type=csv_of("tori WxH", is_torus))
    ap.add_argument("--patterns", default=PATTERNS,
                    type=csv_of("patterns of " + PATTERNS, lambda x: x in LABEL))
    ap.add_argument("--seeds", default="1,2,3", type=csv_of("seeds", str.isdigit))
    ap.add_argument("--loads", default="0.5,0.8", type=csv_of("fractions in (0, 1]", is_load),
                    help="fractions of the saturation load")
    ap.add_argument("--margin", default=MARGIN, type=float,
                    help=f"the noise margin, percentage points (default {MARGIN:g})")
    ap.add_argument("--jobs", default="2", type=csv_of("a count", str.isdigit))
    ap.add_argument("--threads", default="1", type=csv_of("a count", str.isdigit))
    ap.add_argument("--sweeps", help="each torus's saturation intervals, kept (JSON)")
    ap.add_argument("--out", help="the points as JSON (written after each point)")
    a = ap.parse_args()
    a.jobs, a.threads = a.jobs[0], a.threads[0]
    pats, bad, points = a.patterns, 0, []
    print(f"FT-DRB against the failover alone, margin {a.margin:g} points\n\n"
          "| torus | load | seed | cables | pairs delivering: failover / FT-DRB | common pairs | "
          "over them: failover avg | FT-DRB avg | FT-DRB - failover | never worse | over all "
          "each delivers: failover / FT-DRB | pairs on 2+ paths | relay drops |\n"
          "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|", flush=True)
    for torus in a.tori:
        sat = saturation(torus, pats, a)
        for load in (float(x) for x in a.loads):
            for seed in a.seeds:
                per = {k: {"f": [], "t": [], "fa": [], "ta": [], "fp": 0, "tp": 0, "cp": 0,
                           "spread": 0, "drops": 0} for k in (2, 6)}
                for p in pats:
                    s = sat.get(LABEL[p])
                    if not s or s != s:
                        print(f"ftdrb_grid: {torus} {p}: no saturation found by the sweep; left "
                              "out", file=sys.stderr)
                        continue
                    print(f"ftdrb_grid: {torus}, {p}, load {load:g}, seed {seed}", file=sys.stderr,
                          flush=True)
                    rc, d = ftsim(["--torus", torus, "--patterns", p, "--faults", "0,2,6",
                                   "--every-us", f"{s / load:g}", "--seed", seed, "--jobs", a.jobs,
                                   "--threads", a.threads])
                    if rc:
                        print(f"ftdrb_grid: {torus} {p} load {load:g} seed {seed}: the run FAILED",
                              file=sys.stderr)
                    bad |= rc != 0
                    for r in d["runs"]:
                        q = per.get(r["faults"])
                        if q is None:
                            continue
                        fd = r["config"] == "ftdrb"
                        if r["perf_common_pct"] is not None:
                            q["t" if fd else "f"].append(r["perf_common_pct"])
                        if r["perf_pct"] is not None:
                            q["ta" if fd else "fa"].append(r["perf_pct"])
                        q["tp" if fd else "fp"] += r["delivering"]
                        if fd:
                            q["cp"] += r["common_pairs"]
                            q["spread"] += sum(r["pairs_by_paths"][2:])
                            q["drops"] += r["relay_drops"]
                for k, q in per.items():
                    if not q["f"] or not q["t"]:
                        continue
                    fa, ta = mean(q["f"]), mean(q["t"])
                    ok = ta >= fa - a.margin and q["tp"] >= q["fp"]
                    points.append({"torus": torus, "load": load, "seed": int(seed), "cables": k,
                                   "failover_pairs": q["fp"], "ftdrb_pairs": q["tp"],
                                   "common_pairs": q["cp"], "failover_avg": fa, "ftdrb_avg": ta,
                                   "difference": ta - fa, "never_worse": ok,
                                   "failover_avg_all": mean(q["fa"]), "ftdrb_avg_all": mean(q["ta"]),
                                   "spread_pairs": q["spread"], "relay_drops": q["drops"]})
                    print(f"| {torus} | {load:g} | {seed} | {k} | {q['fp']} / {q['tp']} | {q['cp']} "
                          f"| {fa:.1f} % | {ta:.1f} % | {ta - fa:+.1f} | "
                          f"{'yes' if ok else '**NO**'} | {mean(q['fa']):.1f} % / "
                          f"{mean(q['ta']):.1f} % | {q['spread']} | {q['drops']} |", flush=True)
                    if a.out:
                        with open(a.out, "w") as fh:
                            json.dump({"margin": a.margin, "points": points}, fh, indent=1)
    worse = [p for p in points if not p["never_worse"]]
    sd = pooled_sd(points)
    diffs = [p["difference"] for p in points]
    print(f"\n{len(points)} points; FT-DRB worse (below the failover's common-pair average less "
          f"{a.margin:g} points, or fewer pairs) at {len(worse)}; FT-DRB - failover: mean "
          f"{mean(diffs):+.2f}, pooled standard deviation across seeds {sd:.2f} points"
          + ("" if not bad else "; a run FAILED (see above)"))
    if a.out:
        with open(a.out, "w") as fh:
            json.dump({"margin": a.margin, "pooled_sd": None if sd != sd else sd,
                       "points": points}, fh, indent=1)
    return 1 if bad or worse else 0


if __name__ == "__main__":
    sys.exit(main())
