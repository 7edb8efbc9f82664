#!/usr/bin/env python3
"""The clauses of FT-DRB on RNP networks (harness/rnp/ftdrb_rnp.md), each checked on the quick
experiment (rnpnet64, 0, 6 and 16 faults) and named by its section number:

  4b add      with faults, sources add multistep paths to their metapaths: pairs spread;
  4c spread   where a pair spreads, its traffic follows the measured latencies: relaying costs
              two attempts and a relay's queue here, so the direct path keeps most of it;
  5a bound    no relay buffer ever held more than its bound;
  5b pushback with one-segment relay buffers relays answer BUSY and the ledger stays clean
              (nothing dropped, every message delivered once or failed to its source);
  5c sender   relayed segments leave by the relay sender, never by an endpoint's own sender
              (and with --one-sender they do: the check can fail);
  6a check    with the default end-to-end check no corrupted message is delivered, in runs where
              the weakened check (--mutant crc8) lets one through (the run then exits 1).

Each failing clause prints a line `FAIL <clause>: why`; exit 1 then, 0 with `PASS ftdrb-rnp-spec`,
2 on bad usage. The binary is $FTSIM (default build/ftsim), so tests/mutants.py can run it on a
mutated build.

usage: tests/ftdrb_rnp_spec.py [--seed S] [--only CLAUSE[,CLAUSE]]
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FTSIM = os.environ.get("FTSIM", os.path.join(ROOT, "build", "ftsim"))
CLAUSES = ["4b", "4c", "5a", "5b", "5c", "6a"]


def quick(seed, *extra):
    """The quick experiment's JSON and exit status, with extra options."""
    cmd = [FTSIM, "experiment", "ftdrb-rnp", "--quick", "--quiet", "--json", "--seed", str(seed),
           "--out", os.path.join(ROOT, "build", "ftdrb-rnp-spec"), *extra]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    try:
        return json.loads(p.stdout), p.returncode, p.stderr
    except json.JSONDecodeError:
        return None, p.returncode, p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=5, help="the experiment's seed (5: the weakened "
                    "check lets a corrupted message through there)")
    ap.add_argument("--only", default=",".join(CLAUSES), help="clauses to check")
    a = ap.parse_args()
    only = a.only.split(",")
    bad = [c for c in only if c not in CLAUSES]
    if bad:
        print(f"ftdrb_rnp_spec.py: unknown clause {bad[0]} ({', '.join(CLAUSES)})", file=sys.stderr)
        return 2
    print(f"seed {a.seed}")
    fails = []

    def fail(clause, why):
        fails.append(clause)
        print(f"FAIL {clause}: {why}")

    j, rc, err = quick(a.seed)
    if j is None or rc != 0 or j["violations"]:
        fail("6a" if j and j["violations"] else "run",
             f"the default run: exit {rc}, {j and j['violations']} ledger violations; "
             f"{err.strip()[-400:]}")
        j = j or {"rows": [], "relay_peak": 0, "relay_buffer_bound": 0, "own_sender_relayed": 0}
    ps = [r for r in j["rows"] if r["table"] == "per-source" and r["faults"] > 0]
    spread = sum(r["pairs_spread"] for r in ps)
    msgs = sum(r["spread_msgs"] for r in ps)
    direct = sum(r["spread_direct"] for r in ps)
    if "4b" in only:
        if spread == 0:
            fail("4b", "no pair added a multistep path with 6 or 16 faults")
        else:
            print(f"ok 4b add: {spread} pairs spread over more than one path")
    if "4c" in only:
        share = direct / msgs if msgs else 0
        if not msgs or share < 0.7:
            fail("4c", f"the direct path took {share:.3f} of the spreading pairs' messages "
                 "(at least 0.7 expected: relayed messages measure about twice its latency)")
        else:
            print(f"ok 4c spread: the direct path took {share:.3f} of the spreading pairs' "
                  f"{msgs} messages")
    if "5a" in only:
        if j["relay_peak"] > j["relay_buffer_bound"] or not j["relay_buffer_bound"]:
            fail("5a", f"a relay buffer held {j['relay_peak']} segments, bound "
                 f"{j['relay_buffer_bound']}")
        else:
            print(f"ok 5a bound: at most {j['relay_peak']} segments in a relay buffer "
                  f"(bound {j['relay_buffer_bound']})")
    if "5b" in only:
        k, rc, err = quick(a.seed, "--relay-buf", "1", "--one-sender", "--no-spread")
        if k is None or rc != 0 or k["violations"] or not k["busy"] or k["relay_peak"] > 1:  # 5a too
            fail("5b", f"one-segment relay buffers: exit {rc}, "
                 f"{k and k['violations']} ledger violations, {k and k['busy']} BUSY answers, "
                 f"peak {k and k['relay_peak']}; {err.strip()[-400:]}")
        else:
            print(f"ok 5b pushback: {k['busy']} BUSY answers with one-segment buffers, "
                  "ledger clean")
    if "5c" in only:
        k, rc, _ = quick(a.seed, "--one-sender", "--cycles", "1000")
        if j["own_sender_relayed"] != 0:
            fail("5c", f"endpoints' own senders carried {j['own_sender_relayed']} segments")
        elif k is None or not k["own_sender_relayed"]:
            fail("5c", "--one-sender: no segment counted on an own sender (the count is blind)")
        else:
            print(f"ok 5c sender: no segment on an own sender ({k['own_sender_relayed']} "
                  "with --one-sender)")
    if "6a" in only:
        k, rc, err = quick(a.seed, "--mutant", "crc8")
        if "6a" not in fails:
            print("ok 6a check: the default run delivered no corrupted message")
        if rc != 1 or "corrupt" not in err:
            print(f"note 6a: the weakened check (--mutant crc8) exited {rc} on seed {a.seed}: "
                  "no corrupted delivery there to compare with")
        else:
            print("ok 6a check: the weakened check lets a corrupted message through on the same "
                  "runs, and the run exits 1")
    if fails:
        return 1
    print("PASS ftdrb-rnp-spec")
    return 0


if __name__ == "__main__":
    sys.exit(main())
