#!/usr/bin/env python3
"""The report of `ftsim torus`: what it says happened (harness/scisys/sci_sys.md sections 2, 4
and 7).

TEST RATIONALE. A fault-injection report that reads well can still say the wrong thing: a gap
measured through the drain, a stalled sender that looks healthy, a JSON that does not parse, a
fault that never happens and a PASS. Each case runs a small torus whose outcome follows from
the contract, not from a recorded answer: a flow whose ACKs must cross a cut X ring (its data
does not) stalls on its window, so its gap seen from the source must span the rest of the run
and no more; a flow on other rings must keep its gap under one message interval; a driver's
pass at time scale 10 lasts about 25 ms, so a 2 ms run ends inside it and must say so, and a
run past it must not. Every check fails when the behaviour it names is broken.

usage: tests/torus_report.py CASE    (CASE: one of CASES below; `all` runs every one)
Prints `PASS torus-report CASE: ...` and exits 0, or `FAIL torus-report CASE: why` and exits 1.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FTSIM = os.environ.get("FTSIM", os.path.join(ROOT, "build", "ftsim"))

# A 4x4 LC3 torus, X ring of row 2 cut at 0.5 ms, timers at scale 10 (a driver's pass: about
# 25 ms). Flow `ack` goes (0,0) -> (1,2): its data takes row 0's X ring and column 1's Y ring,
# its ACKs row 2's X ring, which is cut. Flow `held` starts in row 2 and crosses it: its driver
# holds it. Flow `calm` stays on row 1 and column 1, away from the fault.
FLOWS = ["--flow", "ack:0,0:1,2", "--flow", "held:0,2:3,2", "--flow", "calm:0,1:1,1"]
CUT = ["--torus", "4x4", *FLOWS, "--every", "20us", "--fault", "500us:cut x 1,2",
       "--time-scale", "10"]
SPEED = re.compile(r"^speed: .*\n", re.M)


class Fail(Exception):
    """A case's check failed: the message says what was wrong."""


def ftsim(*args, stdin=None):
    p = subprocess.run([FTSIM, "torus", *args], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, input=(stdin or "").encode())
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def run_json(*args):
    rc, out, err = ftsim(*args, "--json")
    if rc != 0:
        raise Fail(f"exit {rc}: {err.strip()[-300:]}")
    return json.loads(out), err


def flows_of(doc):
    return {f["name"]: f for f in doc["flows"]}


def case_json():
    """sci_sys.md 7: --json prints one JSON object on stdout and nothing else; the warning
    goes into it and to stderr; a name with a quote and a backslash stays valid JSON."""
    rc, out, err = ftsim(*CUT, "--run", "2ms", "--flow", 'q"\\uote:2,2:3,3', "--json")
    if rc != 0:
        raise Fail(f"exit {rc}: {err.strip()[-300:]}")
    tool = subprocess.run([sys.executable, "-m", "json.tool"], input=out.encode(),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if tool.returncode != 0:
        raise Fail(f"python3 -m json.tool refuses stdout: {tool.stderr.decode()[:200]}\n{out[:300]}")
    doc = json.loads(out)
    if 'q"\\uote' not in flows_of(doc):
        raise Fail(f"the flow named q\"\\uote is not in the JSON: {list(flows_of(doc))}")
    for key in ("offered", "sent", "delivered", "held", "retransmitted", "fail_reports",
                "max_gap_ms"):
        if key not in doc["flows"][0]:
            raise Fail(f"a flow has no {key!r}")
    if not doc["warnings"] or "warning" not in err:
        raise Fail("the run ends inside the drivers' pass, but no warning in the JSON and on stderr")
    return f"{len(out.splitlines())} line of JSON, {len(doc['flows'])} flows, warning on stderr"


def case_fault_after_end():
    """sci_sys.md 7: a fault at or after the run's end would never happen in the run: exit 2
    with a message, from --fault, from a scenario (file:line) and against the default run."""
    rc, _, err = ftsim("--torus", "3x3", "--flow", "a:0,0:1,1", "--fault", "20ms:cut x 1,2",
                       "--run", "1ms")
    if rc != 2 or "--fault 20ms:cut x 1,2" not in err or "run's end (1.000 ms" not in err:
        raise Fail(f"--fault 20ms with --run 1ms: exit {rc}, {err.strip()!r}")
    rc, _, err = ftsim("--torus", "3x3", "--flow", "a:0,0:1,1", "--fault", "1ms:cut x 1,2",
                       "--run", "1ms")
    if rc != 2:
        raise Fail(f"a fault at the run's end exactly: exit {rc}, expected 2")
    rc, _, err = ftsim("--torus", "3x3", "--flow", "a:0,0:1,1", "--fault", "20ms:cut x 1,2")
    if rc != 2 or "10.000 ms, the default" not in err:
        raise Fail(f"--fault 20ms against the default run: exit {rc}, {err.strip()!r}")
    with tempfile.NamedTemporaryFile("w", suffix=".scn", dir=os.path.join(ROOT, "build"),
                                     delete=False) as f:
        f.write("flow a 0,0 -> 1,1\nfault 5ms cut y 1,1\nrun 2ms\n")
    try:
        rc, _, err = ftsim("--torus", "3x3", "--scenario", f.name)
    finally:
        os.unlink(f.name)
    if rc != 2 or f"{f.name}:2: fault cut y 1,1" not in err:
        raise Fail(f"a scenario's fault after its run: exit {rc}, {err.strip()!r}")
    rc, out, err = ftsim("--torus", "3x3", "--flow", "a:0,0:1,1", "--fault", "999us:cut x 1,2",
                         "--run", "1ms")
    if rc != 0 or "fault at 0.999 ms" not in out:
        raise Fail(f"a fault inside the run refused: exit {rc}, {err.strip()!r}")
    # a scenario cut short by --run: its later faults are left out, and said to be
    scn = "tests/scenarios/pull_restore_3x3.scn"
    rc, out, err = ftsim("--torus", "3x3", "--scenario", scn, "--time-scale", "100", "--run",
                         "3ms")
    if rc != 0 or "1 faults, run 3.000 ms" not in out or \
            "fault at 12.000 ms: restore x 0,0 (the scenario's, after --run: left out)" not in out:
        raise Fail(f"{scn} cut to 3 ms: exit {rc}:\n{out[:400]}{err.strip()[-200:]}")
    doc, _ = run_json("--torus", "3x3", "--scenario", scn, "--time-scale", "100", "--run", "3ms")
    if [f["what"] for f in doc["faults"]] != ["cut x 0,0"] or \
            [f["what"] for f in doc["faults_left_out"]] != ["restore x 0,0"]:
        raise Fail(f"the JSON's faults: {doc['faults']}, left out: {doc['faults_left_out']}")
    return ("refused (exit 2) from --fault, the default run and a scenario line; 999us of 1ms "
            "runs; a scenario cut short by --run leaves its later faults out, and says so")


def case_flow_form():
    """--flow NAME:SX,SY:DX,DY is the same flow as NAME:SX,SY->DX,DY."""
    a = ftsim("--torus", "3x3", "--flow", "a:0,0:2,1", "--run", "1ms")
    b = ftsim("--torus", "3x3", "--flow", "a:0,0->2,1", "--run", "1ms")
    if a[0] != 0:
        raise Fail(f"--flow a:0,0:2,1: exit {a[0]}, {a[2].strip()!r}")
    if SPEED.sub("", a[1]) != SPEED.sub("", b[1]):
        raise Fail("a:0,0:2,1 and a:0,0->2,1 give different reports")
    if not re.search(r"^a +50 +50 +50 ", a[1], re.M):
        raise Fail(f"flow a did not offer, send and deliver 50 messages in 1 ms:\n{a[1]}")
    rc, _, err = ftsim("--torus", "3x3", "--flow", "a:0,0:5,5")
    if rc != 2 or "two different nodes of the 3x3 torus" not in err:
        raise Fail(f"--flow a:0,0:5,5 on 3x3: exit {rc}, {err.strip()!r}")
    return "the same report from both forms; a node outside the torus refused"


def case_scenario_setup():
    """sci_sys.md 7: a scenario's `torus 4x4`, `p2s` and `time-scale 1000` run as --torus 4x4
    --p2s --time-scale 1000; --torus must agree, --time-scale wins."""
    body = ("flow a 0,0 -> 1,2 every 20us\nflow b 3,3 -> 0,1 every 30us\n"
            "fault 100us cut y 1,2\nrun 500us\n")
    d = os.path.join(ROOT, "build")
    paths = []
    try:
        for text in ("torus 4x4\np2s\ntime-scale 1000\n" + body, body,
                     "time-scale 1000\n" + body + "torus 4x4  # last, still the torus\np2s\n"):
            with tempfile.NamedTemporaryFile("w", suffix=".scn", dir=d, delete=False) as f:
                f.write(text)
                paths.append(f.name)
        own = ftsim("--scenario", paths[0])
        opts = ftsim("--torus", "4x4", "--p2s", "--time-scale", "1000", "--scenario", paths[1])
        late = ftsim("--scenario", paths[2])
        with open(paths[0], encoding="utf-8") as f:  # read twice, but a pipe reads once
            piped = ftsim("--scenario", "/dev/stdin", stdin=f.read())
        if own[0] != 0:
            raise Fail(f"the scenario alone: exit {own[0]}, {own[2].strip()!r}")
        if not own[1].startswith("torus 4x4 P2S") or "time scale 1000)" not in own[1]:
            raise Fail(f"the header does not say 4x4 P2S at time scale 1000: {own[1].splitlines()[0]}")
        if SPEED.sub("", own[1]) != SPEED.sub("", opts[1]) or own[2] != opts[2]:
            raise Fail("the scenario's statements and the options give different reports")
        if SPEED.sub("", late[1]) != SPEED.sub("", own[1]):
            raise Fail("torus and p2s after the flows give another report")
        if SPEED.sub("", piped[1]) != SPEED.sub("", own[1]):
            raise Fail(f"the scenario through a pipe gives another report:\n{piped[1][:300]}")
        rc, _, err = ftsim("--torus", "3x3", "--scenario", paths[0])
        if rc != 2 or f"{paths[0]}:1: torus 4x4, but --torus 3x3" not in err:
            raise Fail(f"--torus 3x3 against the scenario's torus 4x4: exit {rc}, {err.strip()!r}")
        rc, out, _ = ftsim("--time-scale", "100", "--scenario", paths[0])
        if rc != 0 or "time scale 100)" not in out.splitlines()[0]:
            raise Fail(f"--time-scale 100 did not win over the scenario's: {out.splitlines()[:1]}")
        same = ftsim("--torus", "4x4", "--scenario", paths[0])
        if same[0] != 0:
            raise Fail(f"--torus 4x4 with the scenario's torus 4x4: exit {same[0]}")
    finally:
        for p in paths:
            os.unlink(p)
    return "the same report as the options; a contradicting --torus refused; --time-scale wins"


def case_p2s_log():
    """sci_sys.md 4: on P2S, --log shows the hardware failover: a Y cut's redirect and bypass
    with the NOTIFY owed at every node of the column, the forced select at every node notified,
    an X cut's redirect, and the end of both when the watchdog enables the LCs again."""
    rc, out, err = ftsim("--torus", "4x4", "--p2s", "--traffic", "uniform", "--every", "50us",
                         "--time-scale", "1000", "--fault", "100us:cut y 1,2", "--fault",
                         "300us:restore y 1,2", "--fault", "400us:cut x 0,3", "--fault",
                         "600us:restore x 0,3", "--run", "2500us", "--log")
    if rc != 0:
        raise Fail(f"exit {rc}: {out.strip()[-300:]}")
    fo = [ln for ln in err.splitlines() if "P2S failover:" in ln]
    want = []
    for y in range(4):
        want += [(f"(1,{y}): P2S failover: Y-LC down: the PSB redirects packets for the Y-LC to "
                  f"the X-LC (X-first), the X-LC lets column 1 bypass; NOTIFY (Y down) owed to "
                  f"(2,{y})"),
                 (f"(2,{y}): P2S failover: forced select: packets for column 1 outside row {y} "
                  "take address select 1 (Y-first) (FOCOL)"),
                 f"(1,{y}): P2S failover: Y-LC enabled, its ring up: the redirect and the bypass end",
                 f"(2,{y}): P2S failover: forced select off (FOCOL clear)"]
    for x in range(4):
        want += [(f"({x},3): P2S failover: X-LC down: the PSB redirects packets for the X-LC to "
                  "the Y-LC (bit 14 iff ty != sy)"),
                 f"({x},3): P2S failover: X-LC enabled, its ring up: the redirect ends"]
    missing = [w for w in want if not any(w in ln for ln in fo)]
    if missing:
        raise Fail(f"{len(missing)} failover lines missing, e.g. {missing[0]!r}\n" + "\n".join(fo[:12]))
    # the Y-LC goes down in the cycle the fault reaches it: the line is within the ring-down
    # bound of the fault (100 us = cycle 10000 of the run, after the boot)
    first = next(ln for ln in fo if "Y-LC down" in ln)
    fault = next(ln for ln in err.splitlines() if "fault: cut y 1,2" in ln)
    if not 0 < int(first.split()[0]) - int(fault.split()[0]) < 100:
        raise Fail(f"the redirect is logged far from the fault:\n{fault}\n{first}")
    return f"{len(fo)} failover lines, every expected one among them"


def case_end_busy():
    """sci_sys.md 7: a run that ends inside a driver's pass says so (text and JSON); one that
    runs past the pass does not."""
    rc, out, _ = ftsim(*CUT, "--run", "2ms")
    if rc != 0 or not re.search(r"^warning: the run ended at 2\.000 ms with 4 drivers still "
                                r"reconfiguring \(\(0,2\) \(1,2\) \(2,2\) \(3,2\)\)", out, re.M):
        raise Fail(f"no warning for a run that ends inside the pass (exit {rc}):\n{out[-600:]}")
    doc, _ = run_json(*CUT, "--run", "40ms")
    if doc["warnings"] or doc["busy_at_end"]:
        raise Fail(f"a run past the pass still warns: {doc['warnings']}")
    return "a warning naming the 4 drivers of row 2 at 2 ms; none at 40 ms"


def case_stalled_gap():
    """sci_sys.md 2: the gap seen from the source. A flow whose ACKs are lost stalls on its
    window: offered = sent + held, delivered = sent, and its gap runs from its blocked write to
    the run's end (not through the drain); a flow held by its driver likewise; a flow away
    from the fault keeps a gap under one message interval."""
    doc, _ = run_json(*CUT, "--run", "2ms")
    f = flows_of(doc)
    ack, held, calm = f["ack"], f["held"], f["calm"]
    # From the fault to the run's end, less what a window of 8 messages one interval apart
    # (and the one in flight at the fault) takes to fill: then the source can send no more.
    stall, fill = 2.0 - 0.5, (8 + 1) * 0.020
    for fl in (ack, held):
        if fl["offered"] != fl["sent"] + fl["held"]:
            raise Fail(f"{fl['name']}: offered {fl['offered']} != sent {fl['sent']} + held "
                       f"{fl['held']}")
        if not stall - fill <= fl["max_gap_ms"] <= stall:
            raise Fail(f"{fl['name']}: gap {fl['max_gap_ms']} ms, expected {stall - fill:.2f} "
                       f"to {stall} ms (from when it can send no more to the run's end)")
        if fl["held"] < 1:
            raise Fail(f"{fl['name']}: nothing held at the source though it cannot send")
    if ack["delivered"] != ack["sent"] or ack["acked"] >= ack["delivered"]:
        raise Fail((f"ack: its data should arrive and its ACKs not: sent {ack['sent']}, delivered "
                f"{ack['delivered']}, acked {ack['acked']}"))
    if held["sent"] >= held["offered"] - 1 or held["delivered"] > held["sent"]:
        raise Fail(f"held: the driver should hold its messages: {held}")
    if not calm["max_gap_ms"] < 0.020 or calm["held"] > 1:
        raise Fail(f"calm: gap {calm['max_gap_ms']} ms, held {calm['held']}: the fault reached it")
    return (f"ack gap {ack['max_gap_ms']:.3f} ms (held {ack['held']}), held gap "
            f"{held['max_gap_ms']:.3f} ms (held {held['held']}), calm gap "
            f"{calm['max_gap_ms'] * 1000:.1f} us")


CASES = {"json": case_json, "fault-after-end": case_fault_after_end, "flow-form": case_flow_form,
         "scenario-setup": case_scenario_setup, "p2s-log": case_p2s_log,
         "end-busy": case_end_busy, "stalled-gap": case_stalled_gap}


def main():
    if len(sys.argv) != 2 or (sys.argv[1] not in CASES and sys.argv[1] != "all"):
        sys.exit(__doc__ + "CASES: " + ", ".join(CASES))
    os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
    bad = 0
    for name in (CASES if sys.argv[1] == "all" else [sys.argv[1]]):
        try:
            print(f"PASS torus-report {name}: {CASES[name]()}")
        except (Fail, json.JSONDecodeError, KeyError) as e:
            print(f"FAIL torus-report {name}: {e}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
