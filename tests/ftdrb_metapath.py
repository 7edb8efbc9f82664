#!/usr/bin/env python3
"""FT-DRB's metapath and relays that push back on the SCI torus (harness/scisys/ftdrb_sci.md,
sections 4a and 6), each clause checked from what `ftsim` reports:

  spread    M2, M4: `ftsim experiment ftdrb-sci` on 8x8, complement, six cables: members join
            metapaths as latency grows, pairs send on two or more paths of their metapath in
            the measured window, every pair delivers,
            every message once, in order, acknowledged (the experiment passes); fault-free,
            every pair sends on one path (FT-DRB adds nothing)
  ablation  --no-spread: the same run with every pair on one path
  latency   M2: over the pairs that sent on two or more paths, the path of least latency
            carries a larger share than every slower path in at least two thirds of those whose
            least and greatest latencies differ by a quarter or more
  order     M6: messages that overtook their predecessors on another path were held and
            delivered in order (the held count is positive and the ledger passes)
  pushback  R1-R4: `ftsim faultcheck` on 4x4 LC3 with the X rings of rows 0 and 1 cut, at the
            default all-pairs load: no RELAY is dropped (the relays refuse DATA and answer busy), every
            reachable pair delivers

usage: tests/ftdrb_metapath.py [--only CLAUSE[,CLAUSE..]]   (from the repository's root;
       build/ftsim built, or $FTSIM; any other argument is refused with this text, exit 2)
Prints PASS ftdrb-metapath, or FAIL and the clauses broken (exit 1).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

FTSIM = os.environ.get("FTSIM", "build/ftsim")
PAIR = re.compile(r"^ftdrb-sci: complement, 6 cables: pair \S+:((?: via -?\d+,-?\d+ \d+ % \(\d+ "
                  r"cycles\))+)$")
MEMBER = re.compile(r"via (-?\d+),(-?\d+) (\d+) % \((\d+) cycles\)")
fails = []
CLAUSES = ("spread", "ablation", "latency", "order", "pushback")


def check(ok, clause, what, detail=""):
    print(("ok    " if ok else "FAIL  ") + f"{clause}: {what}" + ("" if ok else f"\n      {detail}"))
    if not ok:
        fails.append(clause)


def experiment(out, *extra):
    cmd = [FTSIM, "experiment", "ftdrb-sci", "--torus", "8x8", "--patterns", "complement",
           "--faults", "0,6", "--json", "--quiet", "--verbose", "--out", out, *extra]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    try:
        d = json.loads(p.stdout)
    except ValueError:
        d = None
    return p, d


def runs_of(d):
    return {(r["faults"], r["config"]): r for r in d["runs"]}


def main():
    only = set(CLAUSES)
    if len(sys.argv) == 3 and sys.argv[1] == "--only" and set(sys.argv[2].split(",")) <= only:
        only = set(sys.argv[2].split(","))
    elif len(sys.argv) > 1:
        print(__doc__, file=sys.stderr)
        return 2
    out = tempfile.mkdtemp(prefix="ftdrb-mp-")
    if only & {"spread", "latency", "order"}:
        spread_latency_order(out)
    if "ablation" in only:
        ablation(out)
    if "pushback" in only:
        pushback()
    print(("FAIL ftdrb-metapath: " + ", ".join(sorted(set(fails)))) if fails else
          "PASS ftdrb-metapath")
    return 1 if fails else 0


def spread_latency_order(out):
    p, d = experiment(out)
    if d is None:
        check(False, "spread", "the experiment gives JSON", f"exit {p.returncode}: {p.stderr[-600:]}")
        return
    r = runs_of(d)
    six, zero = r[(6, "ftdrb")], r[(0, "ftdrb")]
    spread = sum(six["pairs_by_paths"][2:])
    check(p.returncode == 0 and d["pass"], "spread", "the experiment passes (the ledger, every "
          "pair delivering)", f"exit {p.returncode}: {p.stderr[-400:]}")
    check(spread > 0 and six["delivering"] == six["flows"], "spread",
          f"six cables: {spread} pairs sent on two or more paths, {six['delivering']} of "
          f"{six['flows']} pairs deliver", str(six))
    check(six["mp_added"] > 0, "spread", f"six cables: {six['mp_added']} members joined a "
          "metapath when its latency doubled (M4)", str(six))
    check(zero["pairs_by_paths"][1] == zero["flows"] and zero["msp_sent"] == 0, "spread",
          "fault-free: every pair on one path, nothing through intermediates", str(zero))

    lines = [m.group(1) for m in map(PAIR.match, p.stderr.splitlines()) if m]
    judged = agree = 0
    for ln in lines:
        mem = [(int(s), int(l)) for _, _, s, l in MEMBER.findall(ln) if int(l) > 0]
        if len(mem) < 2:
            continue
        lo, hi = min(mem, key=lambda x: x[1]), max(x[1] for x in mem)
        if hi * 4 < lo[1] * 5:
            continue
        judged += 1
        agree += all(lo[0] > s for s, l in mem if l != lo[1])
    check(judged > 0 and 3 * agree >= 2 * judged, "latency",
          f"the least-latency path carries more than each slower one in {agree} of {judged} pairs "
          "whose latencies differ by a quarter or more", "\n      ".join(lines[:8]))
    check(six["held"] > 0, "order", f"{six['held']} messages held for in-order delivery, "
          "ledger clean", str(six))


def ablation(out):
    p2, d2 = experiment(out, "--no-spread")
    if d2 is None:
        check(False, "ablation", "--no-spread gives JSON", p2.stderr[-600:])
    else:
        six2 = runs_of(d2)[(6, "ftdrb")]
        check(p2.returncode == 0 and sum(six2["pairs_by_paths"][2:]) == 0, "ablation",
              f"--no-spread: every pair on one path ({six2['pairs_by_paths']}), the experiment "
              f"passes (exit {p2.returncode})", str(six2))


def pushback():
    cmd = [FTSIM, "faultcheck", "--torus", "4x4", "--ftdrb", "--quiet", "--multi-only",
           "--fault", "xring:0+xring:1"]
    q = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    m = re.search(r"with FT-DRB:\s+(\d+) of the (\d+) reachable pairs deliver.*?(\d+) relay drops",
                  q.stdout)
    check(q.returncode == 0 and m and m.group(1) == m.group(2) and m.group(3) == "0", "pushback",
          "4x4 xring:0+xring:1 at the default load: every reachable pair delivers, 0 relay drops"
          + (f" ({m.group(1)} of {m.group(2)})" if m else ""), q.stdout[-600:])


if __name__ == "__main__":
    sys.exit(main())
