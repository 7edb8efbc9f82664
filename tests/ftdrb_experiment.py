#!/usr/bin/env python3
"""`ftsim experiment ftdrb-sci` on a small P2S torus, checked against what the test computes
itself: the cables the run names, the nodes they isolate and the pattern pairs they exclude;
FT-DRB delivers every pair the faults leave connected, the hardware failover alone does not
(its unroutable flows abandoned and counted, never silently dropped); fault-free, FT-DRB sends
nothing through intermediates and costs nothing.

usage: tests/ftdrb_experiment.py   (from the repository's root; build/ftsim built)
"""
import json
import os
import re
import subprocess
import sys
import tempfile

FTSIM = os.environ.get("FTSIM", "build/ftsim")
W = H = 8
results = []


def check(ok, what, detail=""):
    results.append(bool(ok))
    print(("ok    " if ok else "FAIL  ") + what + ("" if ok else f"\n      {detail}"))


def bitrev(s, b):
    return int(format(s, f"0{b}b")[::-1], 2)


def main():
    out = tempfile.mkdtemp(prefix="ftdrb-exp-")
    cmd = [FTSIM, "experiment", "ftdrb-sci", "--torus", f"{W}x{H}", "--patterns", "bitrev,transpose",
           "--faults", "0,6", "--json", "--quiet", "--out", out]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    check(p.returncode == 0, "exit 0", f"exit {p.returncode}: {p.stderr[-400:]}")
    try:
        d = json.loads(p.stdout)
    except ValueError as e:
        check(False, "stdout is one JSON object", str(e))
        return 1
    check(d["pass"] is True, "the experiment passes")
    runs = {(r["pattern"], r["faults"], r["config"]): r for r in d["runs"]}
    check(len(runs) == 8, "8 runs: 2 patterns x (0, 6 cables) x (P2S alone, FT-DRB)", str(list(runs)))
    n = W * H
    for pat in ("bit-reversal", "transpose"):
        dst = [bitrev(s, 6) if pat == "bit-reversal" else (s % W) * W + s // W for s in range(n)]
        pairs = [(s, d) for s, d in enumerate(dst) if s != d]
        for cfg in ("p2s", "ftdrb"):
            z = runs[(pat, 0, cfg)]
            check(z["flows"] == len(pairs) and z["delivering"] == z["flows"] and z["excluded"] == 0
                  and z["perf_pct"] == 100.0, f"{pat}, {cfg}, fault-free: every pair delivers, 100 %",
                  str(z))
        z = runs[(pat, 0, "ftdrb")]
        check(z["msp_sent"] == 0 and z["relayed"] == 0 and z["notes"] == 0,
              f"{pat}, fault-free: FT-DRB sends nothing through intermediates", str(z))
        r = runs[(pat, 6, "ftdrb")]
        xdead = {int(m.group(2)) for m in re.finditer(r"cut x (\d+),(\d+)", r["cables"])}
        ydead = {int(m.group(1)) for m in re.finditer(r"cut y (\d+),(\d+)", r["cables"])}
        check(len(xdead) + len(ydead) == 6, f"{pat}: six cables of six different rings", r["cables"])
        iso = {y * W + x for x in ydead for y in xdead}
        cut = [(s, d) for s, d in pairs if s in iso or d in iso]
        for cfg in ("p2s", "ftdrb"):
            q = runs[(pat, 6, cfg)]
            check(q["isolated"] == len(iso) and q["excluded"] == len(cut)
                  and q["flows"] == len(pairs) - len(cut),
                  f"{pat}, {cfg}, 6 cables: {len(iso)} isolated nodes, {len(cut)} pairs excluded "
                  "(both rings of an end down), the rest have flows", str(q))
        check(r["delivering"] == r["flows"] and r["beyond_two"] == 0 and r["relayed"] > 0,
              f"{pat}, 6 cables: with FT-DRB every connected pair delivers, relayed by hosts", str(r))
        b = runs[(pat, 6, "p2s")]
        check(b["abandoned"] == b["flows"] - b["delivering"],
              f"{pat}, 6 cables, P2S alone: the pairs it cannot route are abandoned and counted "
              f"({b['abandoned']})", str(b))
    check(any(runs[(p, 6, "p2s")]["abandoned"] > 0 for p in ("bit-reversal", "transpose")),
          "the hardware failover alone leaves connected pairs undelivered with six cables pulled")
    with open(os.path.join(out, "ftdrb-sci.csv")) as f:
        rows = [l for l in f if not l.startswith("#")]
    check(len(rows) == 9, "ftdrb-sci.csv: a header and 8 rows", "".join(rows[:3]))
    print(f"{results.count(True)} passed, {results.count(False)} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
