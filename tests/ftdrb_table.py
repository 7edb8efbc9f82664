#!/usr/bin/env python3
"""The per-source fault table of FT-DRB on the SCI torus (harness/scisys/ftdrb_sci.md section 3),
checked from `ftsim torus --ftdrb --log` on a 3x3 torus with uniform traffic, a Y ring cut at
100 us and put back at 500 us:

  notify  the nodes that fail other nodes' packets notify their sources, whose tables learn
          the ring from them (a stage line naming another node)
  stage   every ring entry's stage goes up by one at a time, and only for a notification of a
          packet sent at or after the entry last changed (a window in flight when the ring went
          down fails together: one notification, not several)
  attempt the entries' attempt numbers reach 10 and their paths come up for a trial, and the
          trials are made (the FT-DRB summary counts them)
  brief   a ring down for 0.9 ms (cut at 0.1 ms, put back at 0.5 ms, its controllers enabled
          again by the drivers' watchdog at 1 ms) whose traffic the drivers carry around it
          becomes no permanent entry, and once it is back the direct paths carry the traffic
          again: fewer messages go through intermediates than a tenth of those delivered
  ledger  every message of a live pair delivered once, in order, and acknowledged

usage: tests/ftdrb_table.py   (from the repository's root; build/ftsim built, or $FTSIM;
       no arguments: any is refused with this text, exit 2)
Prints PASS ftdrb-table, or FAIL and the first clause broken (exit 1).
"""
import os
import re
import subprocess
import sys

FTSIM = os.environ.get("FTSIM", "build/ftsim")
CMD = [FTSIM, "torus", "--torus", "3x3", "--traffic", "uniform", "--every", "2us",
       "--fault", "100us:cut y 1,1", "--fault", "500us:restore y 1,1", "--time-scale", "1000",
       "--run", "4ms", "--ftdrb", "--log"]

STAGE = re.compile(r"^\s*(\d+)\s+\S+ ms\s+\((\d+),(\d+)\): FT-DRB: fault table: ([XY]) ring (\d+) "
                   r"\((from|inferred.*at) \((\d+),(\d+)\)\) stage (\d+)(, permanent)?; our packet "
                   r"sent at (\d+)$")
TRIAL = re.compile(r"^\s*\d+\s+\S+ ms\s+\(\d+,\d+\): FT-DRB: fault table: [XY] ring \d+ "
                   r"attempt 10: its paths come up for a trial$")
SUMMARY = re.compile(r"^FT-DRB: (\d+) notifications sent .*?, (\d+) messages sent through "
                     r"intermediates, .*?, (\d+) trials, .*fault tables: (\d+) entries "
                     r"\((\d+) permanent\)")
TOTAL = re.compile(r"^total: (\d+) messages delivered")


def fail(why):
    print(f"FAIL ftdrb-table: {why}")
    print("  reproduce: " + " ".join(f"'{a}'" if " " in a else a for a in CMD))
    sys.exit(1)


def main():
    if len(sys.argv) > 1:
        help_ = sys.argv[1] in ("-h", "--help")
        print(__doc__.strip(), file=sys.stdout if help_ else sys.stderr)
        sys.exit(0 if help_ else 2)
    p = subprocess.run(CMD, capture_output=True, text=True, timeout=300)
    if p.returncode != 0 or "PASS torus" not in p.stdout:
        fail(f"ledger: exit {p.returncode}, no 'PASS torus'\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
    last = {}  # (host x, host y, ring) -> (stage, cycle it changed)
    stages = trials_due = remote = 0
    for line in p.stderr.splitlines():
        m = STAGE.match(line)
        if m:
            now, hx, hy, xy, r, how, wx, wy, st, _, sent = m.groups()
            remote += how == "from" and (wx, wy) != (hx, hy)
            key, now, st, sent = (hx, hy, xy + r), int(now), int(st), int(sent)
            prev = last.get(key)
            if prev is None and st != 1:
                fail(f"stage: ({hx},{hy}) {xy} ring {r} starts at stage {st}: {line.strip()}")
            if prev is not None:
                if st != prev[0] + 1:
                    fail(f"stage: ({hx},{hy}) {xy} ring {r} from stage {prev[0]} to {st}: "
                         f"{line.strip()}")
                if sent < prev[1]:
                    fail(f"stage: ({hx},{hy}) {xy} ring {r} stage {st} for a packet sent at {sent}, "
                         f"before the entry last changed (cycle {prev[1]}): the same "
                         f"notification counted twice: {line.strip()}")
            last[key] = (st, now)
            stages += 1
        elif TRIAL.match(line):
            trials_due += 1
    summary = next((SUMMARY.match(l) for l in p.stdout.splitlines() if SUMMARY.match(l)), None)
    total = next((TOTAL.match(l) for l in p.stdout.splitlines() if TOTAL.match(l)), None)
    if not summary or not total:
        fail(f"no FT-DRB summary or total line\n{p.stdout[-2000:]}")
    notes, msp, trials, entries, permanent = map(int, summary.groups())
    delivered = int(total.group(1))
    if not stages or not notes:
        fail("stage: the cut taught no table anything (no stage line, no notification)")
    if not remote:
        fail(f"notify: {notes} NOTEs sent, yet no table learnt a ring from another node: the "
             "sources do not hear the nodes that failed their packets")
    if not trials_due or not trials:
        fail(f"attempt: {trials_due} entries came up for a trial, {trials} trials made: a path "
             "notified faulty is never tried again")
    if permanent:
        fail(f"brief: {permanent} permanent entries after a ring down for 0.9 ms that the "
             "drivers carry traffic around")
    if msp * 10 >= delivered:
        fail(f"brief: {msp} messages through intermediates of {delivered} delivered: the direct "
             "paths did not come back")
    print(f"PASS ftdrb-table: {stages} stage changes ({remote} from a NOTE), each for a packet sent after the entry's "
          f"last change; {trials_due} entries came up for a trial, {trials} trials made; "
          f"{entries} entries, 0 permanent; {msp} of {delivered} messages through intermediates")


if __name__ == "__main__":
    main()
