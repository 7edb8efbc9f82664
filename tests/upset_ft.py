#!/usr/bin/env python3
"""Detection and recovery on the running torus (harness/scisys/sci_sys.md section 8).

A loaded 3x3 LC3 torus (two seeded flows per node, and a flow (0,1) -> (2,1) whose packets pass
node (1,1)'s X-LC), the drivers' timers divided by 1000 (self-test every 0.5 ms), and at 1 ms
an upset of n1.1.x.lrt[0x12] bit0: (1,1)'s X-LC now takes the packets for (2,1) it should pass
on, and sends them round by its Y ring (a detour, still delivered). Checked:
  - the self-test is the first detector, within one self-test interval of the flip; the nodes
    on the failing path are recovered; every message is delivered once, none lost;
  - the same in lockstep with the RTL (no divergence through the upset and the resets);
  - with the self-test off, nothing catches it (the detector does the work);
  - without the hosts' protocol state (the ablation of FTGM's Figures 7 and 8), the
    recovery loses messages or leaves them never acknowledged, and the run fails saying so;
  - an upset that disables (1,1)'s X-LC (n1.1.x.enable bit0): the self-test is the first
    detector, at its first round after the flip, from the FAIL_REPORT of its read for the
    disabled LC (clause lost: reasons 2 to 4 answer a read at once, sci_sys.md section 8),
    not the PSB's timeout reply 200 us later (then the watchdog fires first);
  - a bad upset (unknown part, bit beyond the element, no bit) and --ft with --threads 2 are
    refused with exit 2 and the reason, before anything runs.
Ends with `N passed, N failed`.
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FTSIM = os.environ.get("FTSIM", os.path.join(ROOT, "build", "ftsim"))
results = []
BASE = ["torus", "--torus", "3x3", "--traffic", "uniform", "--flow", "live:0,1:2,1",
        "--run", "2ms", "--time-scale", "1000", "--ft", "--json",
        "--fault", "1ms:seu n1.1.x.lrt[0x12] bit0"]
FLIP_MS, ST_MS = 1.0, 0.5


def check(ok, what, detail=""):
    results.append(bool(ok))
    print(f"{'ok  ' if ok else 'FAIL'} {what}" + ("" if ok else f"\n     {detail}"))


def run(extra, base=BASE):
    p = subprocess.run([FTSIM, *base, *extra], cwd=ROOT, capture_output=True, text=True)
    try:
        return p.returncode, json.loads(p.stdout)
    except json.JSONDecodeError:
        return p.returncode, {"error": p.stdout + p.stderr}


def firsts(ft):
    return {k: ft[f"{k}_first_ms"] for k in ("watchdog", "selftest", "protocol", "scrub")
            if ft[f"{k}_first_ms"] >= 0}


def main():
    for model in ("csim", "both"):
        rc, j = run(["--model", model])
        ft = j.get("ft", {})
        f = firsts(ft) if ft else {}
        first = min(f, key=f.get) if f else None
        check(rc == 0 and j.get("pass") is True,
              f"{model}: the run passes (every message once, in order)", j.get("error", ""))
        check(first == "selftest" and FLIP_MS <= f["selftest"] <= FLIP_MS + ST_MS,
              f"{model}: the self-test is the first detector, within {ST_MS} ms of the flip",
              f"detectors {f}")
        check(ft.get("recoveries", 0) >= 1 and ft.get("lost", 1) == 0
              and ft.get("delivered_twice", 1) == 0,
              f"{model}: the nodes on the path recovered, nothing lost or duplicated", str(ft))
    rc, j = run(["--no-selftest"])
    ft = j.get("ft", {})
    check(rc == 0 and ft.get("selftest_count", 1) == 0 and ft.get("selftest_reads", 1) == 0,
          "self-test off: nothing catches the detour (the latency is its only sign)", str(ft))
    rc, j = run(["--no-host-state"])
    ft = j.get("ft", {})
    check(rc == 1 and j.get("pass") is False
          and ft.get("lost", 0) + ft.get("unacknowledged", 0) > 0,
          "no host state: the recovery loses messages (or leaves them never acknowledged) and "
          "the run fails saying so", str(ft))
    rc, j = run(["--fault", "1ms:seu n1.1.x.enable bit0"], BASE[:-2])  # this upset alone
    ft = j.get("ft", {})
    f = firsts(ft) if ft else {}
    first = min((k for k in f if k != "protocol"), key=f.get, default=None)
    check(rc == 0 and first == "selftest" and FLIP_MS <= f["selftest"] <= FLIP_MS + ST_MS,
          f"an X-LC disabled by an upset: the self-test first (before the watchdog), within "
          f"{ST_MS} ms of the flip, from its read's FAIL_REPORT (clause lost)", f"detectors {f}")
    for fault, needle in (("1ms:seu n1.1.x.lrt[0x12] bit9", "bit 9 is beyond x.lrt"),
                          ("1ms:seu n9.9.x.lrt[0x12] bit0", "names no part of torus3x3"),
                          ("1ms:seu n1.1.x.lrt", "want 'seu NAME bitB'")):
        p = subprocess.run([FTSIM, "torus", "--torus", "3x3", "--traffic", "uniform", "--ft",
                            "--run", "2ms", "--fault", fault], cwd=ROOT, capture_output=True,
                           text=True)
        check(p.returncode == 2 and needle in p.stderr and not p.stdout,
              f"a bad upset '{fault}': exit 2 with the map's reason, nothing run", p.stderr)
    p = subprocess.run([FTSIM, *BASE, "--threads", "2"], cwd=ROOT, capture_output=True, text=True)
    check(p.returncode == 2 and "one thread" in p.stderr,
          "--ft with --threads 2: exit 2, said why", p.stderr)
    print(f"{results.count(True)} passed, {results.count(False)} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
