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
  direct    C1: every pair the failover alone delivers in the measured window (the run without
            FT-DRB, same faults) sends on its direct path in that window with FT-DRB
  faster    C2: a member no faster than member 0 (the direct path, or the selection) is only
            measured: over the pairs on two or more paths, the members no faster than member 0
            at the window's end carry a median share of at most 5 % (the median: a member
            faster for most of the window and overtaken near its end took its share by M2)
  probe     C3: a flow whose direct path failed probes it (the log says so) every 16th DATA,
            the interval doubling (16, 32, .. 1024) as probes fail; some flows come back to it,
            and none stays off a direct path the failover serves (clause direct)
  pushback  R1-R4: `ftsim faultcheck` on 4x4 LC3 (a) with the X rings of rows 0 and 1 cut, at
            the default all-pairs load: no RELAY is dropped (a relayed ACK or NOTE supersedes a
            stale one on a full buffer), every reachable pair delivers; (b) with one live column
            (the Y rings of columns 1 and 2 cut, node (0,1) failed) at one message per pair every
            9,000 cycles, where the relays' buffers fill: every reachable pair delivers (the
            relays refuse DATA and answer busy; what R4 still drops there is ACKs and NOTEs that
            found no stale one to replace, which the next ACK or the source's timeout make up)

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
ONLY = set()  # the clauses asked for (--only), all by default
CLAUSES = ("spread", "ablation", "latency", "order", "pushback", "direct", "faster", "probe")
FAILED = re.compile(r"FT-DRB: flow (\S+): the direct path failed")
BACK = re.compile(r"FT-DRB: flow (\S+): the direct path delivers again")
PROBE = re.compile(r"FT-DRB: flow (\S+): a probe of the direct path \(every (\d+)\)")


def check(ok, clause, what, detail=""):
    if clause not in ONLY:
        return
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
    ONLY.update(only)
    out = tempfile.mkdtemp(prefix="ftdrb-mp-")
    if only & {"spread", "latency", "order", "direct", "faster", "probe"}:
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

    base = r[(6, "p2s")]
    check(six["direct_pairs"] == base["delivering"], "direct", f"C1: of the {base['delivering']} "
          f"pairs the failover alone delivers, {six['direct_pairs']} send on their direct path "
          "with FT-DRB", str(six))
    slow = []
    for ln in lines:
        mem = [(int(sh), int(l)) for _, _, sh, l in MEMBER.findall(ln)]
        if mem[0][1] > 0:
            slow += [sh for sh, l in mem[1:] if l >= mem[0][1]]
    med = sorted(slow)[len(slow) // 2] if slow else 0
    check(slow and med <= 5, "faster", f"C2: {len(slow)} members no faster than member 0 carry a "
          f"median {med} % of their pair's messages (at most 5 %)", str(sorted(slow)[:30]))
    failed = {m.group(1) for m in map(FAILED.search, p.stderr.splitlines()) if m}
    back = {m.group(1) for m in map(BACK.search, p.stderr.splitlines()) if m}
    probes = {}
    for m in map(PROBE.search, p.stderr.splitlines()):
        if m:
            probes.setdefault(m.group(1), []).append(int(m.group(2)))
    legal = {16 << j for j in range(7)}
    odd = {f: g for f, g in probes.items() if g != sorted(g) or not set(g) <= legal}
    check(failed and back and probes and set(probes) <= failed and not odd, "probe",
          f"C3: {len(failed)} flows' direct paths failed, {len(probes)} probed it "
          f"({sum(map(len, probes.values()))} probes, intervals "
          f"{sorted({x for g in probes.values() for x in g})}), {len(back)} came back to it",
          f"probing flows that never failed: {sorted(set(probes) - failed)[:5]}; "
          f"odd intervals: {list(odd.items())[:3]}")


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
    re_pairs = re.compile(r"with FT-DRB:\s+(\d+) of the (\d+) reachable pairs deliver"
                          r".*?(\d+) relay drops")
    cmd = [FTSIM, "faultcheck", "--torus", "4x4", "--ftdrb", "--quiet", "--multi-only",
           "--fault", "xring:0+xring:1"]
    q = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    m = re_pairs.search(q.stdout)
    check(q.returncode == 0 and m and m.group(1) == m.group(2) and m.group(3) == "0", "pushback",
          "4x4 xring:0+xring:1 at the default load: every reachable pair delivers, 0 relay drops"
          + (f" ({m.group(1)} of {m.group(2)}, {m.group(3)} drops)" if m else ""), q.stdout[-600:])
    # The direct-path rule (4a) relays little where the failover serves a pair: one live column
    # makes most pairs relayed, and at this period the relays' buffers fill.
    cmd = [FTSIM, "faultcheck", "--torus", "4x4", "--ftdrb", "--period", "9000", "--quiet",
           "--multi-only", "--fault", "yring:1+yring:2+node:0,1"]
    q = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    m = re_pairs.search(q.stdout)
    check(q.returncode == 0 and m and m.group(1) == m.group(2), "pushback",
          "4x4 yring:1+yring:2+node:0,1, a message per pair every 9,000 cycles: every reachable "
          "pair delivers" + (f" ({m.group(1)} of {m.group(2)}, {m.group(3)} relay drops)"
                             if m else ""), q.stdout[-600:])


if __name__ == "__main__":
    sys.exit(main())
