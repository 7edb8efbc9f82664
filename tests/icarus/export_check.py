#!/usr/bin/env python3
"""Vectors as Verilog testbenches (ftsim export-tb) under Icarus 11: the icarus suite's checks.

usage: tests/icarus/export_check.py events DEVICE VEC...
           the device's testbench (export-tb --device) compiled once; every VEC's events
           (export-tb VEC --events) played on it: each must print PASS and exit 0
       tests/icarus/export_check.py netlist DEVICE VEC...
           the same on the device's synthesized netlist (make synth: build/synth/DEVICE.v;
           export-tb --device DEVICE --netlist), four-state: an uninitialised flop or memory
           read is X there and fails the expectation it reaches
       tests/icarus/export_check.py standalone VEC...
           each VEC exported whole (export-tb VEC -o TB.sv), compiled and run with the commands
           its header names: PASS and exit 0; then its events played on the device's testbench
           print the same lines
       tests/icarus/export_check.py wrong VEC OLD NEW
           a copy of VEC with its text OLD replaced by NEW (a wrong expectation, or NEW empty:
           one taken away) exported whole: FAIL, a non-zero exit, and the same first mismatch
           and mismatch count as ftsim play --model rtl prints for the copy
       tests/icarus/export_check.py mutant NAME VEC...
           the RTL broken by mutant NAME of tests/mutants.py, in a scratch folder; each VEC
           exported whole against it (--rtl): at least one fails (FAIL, non-zero exit)
       tests/icarus/export_check.py assertion VEC FILE OLD NEW
           a copy of rtl/ with OLD made NEW in FILE (an assertion's condition that then fails)
           in a scratch folder; VEC exported whole against it: FAIL, a non-zero exit, and the
           harness's words for an RTL assertion
       tests/icarus/export_check.py words DEVICE
           the words testbench (export-tb --device DEVICE --words): PASS
       tests/icarus/export_check.py sites DEVICE STIM
           every element of DEVICE's upset map flipped once on STIM's stimulus, recorded by
           `ftsim record --model rtl` (tests/upset/sites.py); that golden exported whole: PASS,
           so the testbench's deposits (the map's sites, dev_upset_t.tb) do what the Verilated
           flips do; and the golden without its flips: FAIL, so the flips show in it
Prints one line a vector and ends with `PASS export_check ...` or `FAIL export_check ...`.
"""
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.dont_write_bytecode = True  # no __pycache__ left in tests/
import mutants  # noqa: E402  (the one table of mutants)

FTSIM = os.environ.get("FTSIM", os.path.join("build", "ftsim"))
# Each run writes under a folder of its own (its words hashed), so that runs in parallel never
# share a file.
OUT = os.path.join("build", "icarus", "export", "run-" + hashlib.sha1(
    "\0".join(sys.argv[1:]).encode()).hexdigest()[:12])
TIMEOUT = 300


class Broken(Exception):
    """A step that must work did not (said how)."""


def sh(cmd, timeout=TIMEOUT):
    """Run cmd (a list) at the root: (exit status, stdout and stderr together)."""
    p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=timeout, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def scratch(vec, tag=""):
    """A file stem under build/icarus/export/ for a vector (its path flattened)."""
    os.makedirs(os.path.join(ROOT, OUT), exist_ok=True)
    return os.path.join(OUT, vec.replace("/", "_").removesuffix(".vec") + tag)


def header_commands(tb):
    """The iverilog and vvp commands a testbench's header names, as argument lists."""
    with open(os.path.join(ROOT, tb), encoding="utf-8") as f:
        head = f.read(4000)
    comp = re.search(r"^//   (iverilog .*)$", head, re.M)
    run = re.search(r"^//   (vvp .*)$", head, re.M)
    if not comp or not run:
        raise Broken(f"{tb}: its header names no iverilog or vvp command")
    return shlex.split(comp.group(1)), shlex.split(run.group(1))


def export_whole(vec, tb, *extra, quiet=True):
    """export-tb VEC -o TB, compiled as its header says (with no word from the compiler when
    quiet): (exit status of vvp, its output), or raises with what went wrong."""
    rc, out = sh([FTSIM, "export-tb", vec, "-o", tb, *extra])
    if rc != 0:
        raise Broken(f"ftsim export-tb {vec}: exit {rc}\n{out}")
    comp, run = header_commands(tb)
    rc, out = sh(comp)
    if rc != 0 or (quiet and out.strip()):
        raise Broken(f"{' '.join(comp)}: exit {rc}\n{out}")
    return sh(run)


def device_tb(device, *extra):
    """The device's testbench compiled once: the vvp file."""
    tb = os.path.join(OUT, f"{device}_tb.sv")
    os.makedirs(os.path.join(ROOT, OUT), exist_ok=True)
    rc, out = sh([FTSIM, "export-tb", "--device", device, "-o", tb, *extra])
    if rc != 0:
        raise Broken(f"ftsim export-tb --device {device}: exit {rc}\n{out}")
    comp, _ = header_commands(tb)
    rc, out = sh(comp)
    if rc != 0 or out.strip():
        raise Broken(f"{' '.join(comp)}: exit {rc}\n{out}")
    return comp[comp.index("-o") + 1]


def play_events(vvp, vec):
    ev = scratch(vec, ".events")
    rc, out = sh([FTSIM, "export-tb", vec, "--events", ev])
    if rc != 0:
        raise Broken(f"ftsim export-tb {vec} --events: exit {rc}\n{out}")
    return sh(["vvp", "-n", vvp, f"+events={ev}"])


def passed(vec, rc, out):
    return rc == 0 and out.rstrip().splitlines()[-1:] == [f"PASS {vec}"]


def lines(out):
    """The testbench's own lines (Icarus's $fatal report and VCD notes left out)."""
    return [l for l in out.splitlines()
            if not l.startswith(("FATAL:", "       Time:", "VCD info:"))]


def cmd_events(device, vecs, netlist=None):
    vvp = device_tb(device, *(["--netlist", netlist] if netlist else []))
    on = f"{device}'s netlist" if netlist else f"{device}'s testbench"
    bad = 0
    for vec in vecs:
        rc, out = play_events(vvp, vec)
        ok = passed(vec, rc, out)
        bad += not ok
        print(f"{'PASS' if ok else 'FAIL'} {vec} (events on {on})")
        if not ok:
            print("\n".join("  | " + l for l in out.strip().splitlines()[-8:]))
    return bad, f"{len(vecs) - bad} of {len(vecs)} vectors of {device} pass" + \
        (f" on {netlist}" if netlist else "")


def cmd_netlist(device, vecs):
    net = os.path.join("build", "synth", device + ".v")
    if not os.path.exists(os.path.join(ROOT, net)):
        raise Broken(f"{net}: not there (make synth writes it)")
    return cmd_events(device, vecs, net)


def cmd_standalone(vecs):
    bad = 0
    for vec in vecs:
        rc, out = export_whole(vec, scratch(vec, ".sv"))
        ok = passed(vec, rc, out)
        if ok:  # the same vector through the device's testbench: the same lines
            with open(os.path.join(ROOT, vec), encoding="utf-8") as f:
                device = re.search(r"^\s*device\s+(\S+)", f.read(), re.M | re.I)
            erc, eout = play_events(device_tb(device.group(1).lower()), vec)
            if (erc, lines(eout)) != (rc, lines(out)):
                print(f"  {vec}: its events file plays otherwise:\n{eout}")
                ok = False
        bad += not ok
        print(f"{'PASS' if ok else 'FAIL'} {vec} (whole, compiled by its header's command)")
        if not ok:
            print("\n".join("  | " + l for l in out.strip().splitlines()[-8:]))
    return bad, f"{len(vecs) - bad} of {len(vecs)} exported whole pass"


def first_mismatch(out, path):
    """The first mismatch line and the count line of a run of path."""
    first = next((l for l in out.splitlines() if l.startswith(f"{path}:") and ": cycle " in l), None)
    count = next((l for l in out.splitlines() if re.match(re.escape(path) + r": \d+ mismatch", l)),
                 None)
    return first, count


def cmd_wrong(vec, old, new):
    with open(os.path.join(ROOT, vec), encoding="utf-8") as f:
        text = f.read()
    if text.count(old) != 1:
        return 1, f"{vec}: {old!r} occurs {text.count(old)} times (once wanted)"
    copy = scratch(vec, "-wrong.vec")
    with open(os.path.join(ROOT, copy), "w", encoding="utf-8") as f:
        f.write(text.replace(old, new))
    rc, out = export_whole(copy, scratch(vec, "-wrong.sv"))
    print(out.rstrip())
    prc, pout = sh([FTSIM, "play", copy, "--model", "rtl"])
    want, got = first_mismatch(pout, copy), first_mismatch(out, copy)
    print(f"ftsim play --model rtl (exit {prc}): {want[0]}")
    if prc != 1 or not want[0]:
        return 1, "ftsim play does not fail the broken copy: not a broken vector"
    if rc == 0 or f"FAIL {copy}" not in out:
        return 1, f"the testbench does not fail the broken copy (exit {rc})"
    if got != want:
        return 1, f"the testbench says {got}, ftsim play says {want}"
    return 0, f"{vec} with {old!r} -> {new!r}: FAIL, exit {rc}, as ftsim play words it"


def cmd_mutant(name, vecs):
    src = os.path.join(OUT, f"mut-{name}")
    rtl = mutants.mutate(name, src)
    if not rtl or os.path.basename(rtl) != "rtl":
        return 1, f"mutant {name}: not an RTL mutant that applies"
    killed = []
    for vec in vecs:
        # a mutated RTL may draw Icarus's "sorry" notes: not the testbench's
        rc, out = export_whole(vec, scratch(vec, f"-{name}.sv"), "--rtl", rtl, quiet=False)
        first, _ = first_mismatch(out, vec)
        if rc != 0 and f"FAIL {vec}" in out:
            killed.append(vec)
            print(f"FAIL {vec} on the RTL of mutant {name} (exit {rc}): {first}")
        else:
            print(f"PASS {vec} on the RTL of mutant {name}")
    if not killed:
        return 1, f"mutant {name} ({mutants.MUTANTS[name][4]}) survives every vector given"
    # the same testbench on the RTL itself passes: the mutant failed it, not the testbench
    rc, out = export_whole(killed[0], scratch(killed[0], ".sv"))
    if not passed(killed[0], rc, out):
        return 1, f"{killed[0]} fails on the RTL itself too:\n{out}"
    print(f"PASS {killed[0]} on the RTL itself")
    return 0, f"mutant {name} ({mutants.MUTANTS[name][4]}) killed by {len(killed)} of {len(vecs)}"


def cmd_assertion(vec, fname, old, new):
    src = os.path.join(ROOT, OUT, "asrt", "rtl")
    shutil.rmtree(src, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "rtl"), src)
    path = os.path.join(src, fname)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if text.count(old) != 1:
        return 1, f"rtl/{fname}: {old!r} occurs {text.count(old)} times (once wanted)"
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new))
    rc, out = export_whole(vec, scratch(vec, "-asrt.sv"), "--rtl", os.path.relpath(src, ROOT))
    print(out.rstrip())
    want = re.search(re.escape(vec) + r":\d+: cycle (\d+): rtl flagged an internal error "
                     r"\(assertion\) in cycle (\d+)$", out, re.M)
    if rc == 0 or f"FAIL {vec}" not in out or not want or want.group(1) != want.group(2):
        return 1, f"no FAIL for the assertion as the harness words it (exit {rc})"
    return 0, f"{vec} on rtl/{fname} with {old!r} -> {new!r}: FAIL, exit {rc}, the assertion named"


def cmd_sites(device, stim):
    gold = scratch(stim, f"-sites-{device}.vec")
    rc, out = sh(["python3", "tests/upset/sites.py", device, stim, gold])
    if rc != 0:
        return 1, f"tests/upset/sites.py: exit {rc}\n{out}"
    rc, out = export_whole(gold, scratch(stim, f"-sites-{device}.sv"))
    print("\n".join(l for l in lines(out) if not l.startswith("ERROR:")))
    if not passed(gold, rc, out):
        return 1, f"the testbench's deposits do otherwise than the Verilated flips (exit {rc})"
    none = gold.removesuffix(".vec") + "-noflip.vec"
    rc, out = export_whole(none, scratch(stim, f"-sites-{device}-noflip.sv"))
    if rc == 0 or f"FAIL {none}" not in out:
        return 1, f"the golden passes without its flips too: the flips showed nothing (exit {rc})"
    return 0, (f"every element of {device}'s upset map flipped on {stim}'s stimulus: the "
               "testbench does what the Verilated model does, and the golden fails without them")


def cmd_words(device):
    tb = os.path.join(OUT, f"words-{device}.sv")
    os.makedirs(os.path.join(ROOT, OUT), exist_ok=True)
    rc, out = sh([FTSIM, "export-tb", "--device", device, "--words", "-o", tb])
    if rc != 0:
        return 1, f"export-tb --words: exit {rc}\n{out}"
    comp, run = header_commands(tb)
    rc, out = sh(comp)
    if rc != 0 or out.strip():
        return 1, f"{' '.join(comp)}: exit {rc}\n{out}"
    rc, out = sh(run)
    print(out.rstrip())
    return (0 if rc == 0 and f"PASS words {device}" in out else 1), f"words of {device}"


def main():
    a = sys.argv[1:]
    if not a or a[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if a else 2
    what, args = a[0], a[1:]
    try:
        if what == "events" and len(args) >= 2:
            bad, msg = cmd_events(args[0], args[1:])
        elif what == "netlist" and len(args) >= 2:
            bad, msg = cmd_netlist(args[0], args[1:])
        elif what == "standalone" and args:
            bad, msg = cmd_standalone(args)
        elif what == "wrong" and len(args) == 3:
            bad, msg = cmd_wrong(*args)
        elif what == "mutant" and len(args) >= 2:
            bad, msg = cmd_mutant(args[0], args[1:])
        elif what == "assertion" and len(args) == 4:
            bad, msg = cmd_assertion(*args)
        elif what == "words" and len(args) == 1:
            bad, msg = cmd_words(args[0])
        elif what == "sites" and len(args) == 2:
            bad, msg = cmd_sites(*args)
        else:
            print(__doc__.strip())
            return 2
    except Broken as e:
        print(f"{e}\nFAIL export_check {what}")
        return 1
    except subprocess.TimeoutExpired as e:
        print(f"timed out after {e.timeout} s: {' '.join(e.cmd)}\nFAIL export_check {what}")
        return 1
    print(f"{'FAIL' if bad else 'PASS'} export_check {what}: {msg}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
