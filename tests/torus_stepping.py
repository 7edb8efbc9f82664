#!/usr/bin/env python3
"""The C torus steps only the nodes with work (harness/sci/sci_torus.c, "the clock edge"), and
the hosts and drivers do steps 3 to 5 of a cycle in one loop over the nodes
(harness/scisys/sci_sys_threads.c): the runs must be the same, byte for byte, as with every
node stepped every edge and the steps in two loops.

TEST RATIONALE. A node left out of an edge must be one whose edge would change nothing: one
wrong reason to leave a node out (a link word that changed, a host port, a register write, a
power-up, a cable) and a packet stalls or a ring stays down a cycle longer, which shows in the
driver log, the report or the drain. Each case runs a small torus with faults that exercise
those reasons (cables pulled and put back, a node powered off and on, FT-DRB's relayed paths),
with --log, once with FTSIM_TORUS_STEP_ALL=1 (every node takes every edge) and
FTSIM_SYS_TWO_LOOPS=1 (every host takes its symbol and every driver its turn before any host
sends), the reference, and then stepping only nodes with work, steps 3 to 5 in one loop, on 1
and 2 threads. A host's send that saw another node's receive of the same cycle, or a receive
that saw another node's send, would show too (a message sent or acknowledged a cycle apart, a
log line out of place). With --base FTSIM the same cases are
run on that binary too (an older revision, every node stepped as it was) and must match.

usage: tests/torus_stepping.py [--base FTSIM] CASE    (CASE: one of CASES below, or `all`)
Prints `PASS torus-stepping CASE: ...` and exits 0, or `FAIL torus-stepping CASE: why` and
exits 1 (2 on a bad argument).
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from threads_same import strip  # noqa: E402  the speed figures taken out

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FTSIM = os.environ.get("FTSIM", os.path.join(ROOT, "build", "ftsim"))

FAULTS = ["--fault", "100us:cut x 1,2", "--fault", "150us:off 2,3", "--fault", "300us:restore x 1,2",
          "--fault", "350us:on 2,3"]
CASES = {
    "lc3-faults": ["torus", "--torus", "4x4", "--traffic", "uniform", "--every", "50us",
                   "--time-scale", "1000", "--run", "600us", *FAULTS, "--log", "--json"],
    "p2s-faults": ["torus", "--torus", "4x4", "--p2s", "--traffic", "uniform", "--every", "50us",
                   "--time-scale", "1000", "--run", "600us", *FAULTS, "--log"],
    "ftdrb-relay": ["torus", "--torus", "3x3", "--flow", "a:2,0:1,2", "--flow", "b:1,2:2,0",
                    "--flow", "c:0,0:2,2", "--flow", "d:2,2:0,1", "--every", "20us",
                    "--fault", "100us:cut y 1,0", "--fault", "100us:cut y 2,0",
                    "--time-scale", "1000", "--ftdrb", "--run", "1ms", "--log"],
    "ftdrb-cuts": ["torus", "--torus", "4x4", "--traffic", "uniform", "--every", "20us",
                   "--time-scale", "1000", "--ftdrb", "--run", "800us", "--fault", "100us:cut x 1,1",
                   "--fault", "200us:cut y 2,2", "--fault", "300us:off 3,0", "--log"],
    "p2s-8x8-json": ["torus", "--torus", "8x8", "--p2s", "--traffic", "uniform", "--every", "20us",
                     "--time-scale", "1000", "--run", "300us", "--fault", "100us:cut y 3,3",
                     "--fault", "120us:off 5,5", "--fault", "250us:on 5,5", "--json"],
    "p2s-8x8": ["torus", "--torus", "8x8", "--p2s", "--traffic", "uniform", "--every", "20us",
                "--time-scale", "1000", "--run", "300us", "--fault", "100us:cut y 3,3",
                "--fault", "120us:off 5,5", "--fault", "250us:on 5,5", "--log"],
}


def run(ftsim, args, threads, step_all):
    env = dict(os.environ)
    env.pop("FTSIM_TORUS_STEP_ALL", None)
    env.pop("FTSIM_SYS_TWO_LOOPS", None)
    if step_all:
        env["FTSIM_TORUS_STEP_ALL"] = "1"
        env["FTSIM_SYS_TWO_LOOPS"] = "1"
    p = subprocess.run([ftsim, *args, "--threads", str(threads)], cwd=ROOT, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    return (f"exit {p.returncode}\n" + strip(p.stdout.decode("utf-8", "replace")) +
            "--- stderr\n" + strip(p.stderr.decode("utf-8", "replace")))


def first_diff(a, b):
    a, b = a.splitlines(), b.splitlines()
    k = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
    return k + 1, a[k] if k < len(a) else "(end)", b[k] if k < len(b) else "(end)"


def check(case, base):
    args = CASES[case]
    ref = run(FTSIM, args, 1, True)
    if ref.splitlines()[0] not in ("exit 0", "exit 1"):  # PASS or FAIL torus; else it broke
        return False, f"the reference run (every node stepped, two loops): {ref.splitlines()[0]}"
    runs = [("only nodes with work, one loop, 1 thread", FTSIM, 1, False),
            ("only nodes with work, one loop, 2 threads", FTSIM, 2, False)]
    if base:
        runs.append((f"{base}, 1 thread", base, 1, False))
    for what, ftsim, threads, step_all in runs:
        out = run(ftsim, args, threads, step_all)
        if out != ref:
            line, a, b = first_diff(ref, out)
            return False, (f"{what} differs from every node stepped in two loops at line {line}:\n"
                           f"  all: {a[:300]}\n  {what}: {b[:300]}")
    return True, (f"{', '.join(r[0] for r in runs)}: the same as every node stepped in two loops "
                  f"({len(ref.splitlines())} lines, {ref.splitlines()[0]})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", help="another ftsim binary whose runs must match too")
    ap.add_argument("case", help=f"one of {', '.join(CASES)}, or all")
    a = ap.parse_args()
    if a.case != "all" and a.case not in CASES:
        ap.error(f"unknown case {a.case!r}: {', '.join(CASES)} or all")
    bad = 0
    for case in (CASES if a.case == "all" else [a.case]):
        ok, msg = check(case, a.base)
        print(f"{'PASS' if ok else 'FAIL'} torus-stepping {case}: {msg}", flush=True)
        bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
