#!/usr/bin/env python3
"""Run the cocotb test bench on the RTL with cocotb's runner (run with the venv's python,
build/venv/bin/python; `make cocotb-venv` makes it).

usage: run.py replay [--sim icarus|verilator] FILE.vec...
       run.py native [--sim icarus|verilator] [--only rn1|lc3] [--seed S]
       run.py stim   [--sim icarus|verilator] --cycles N [--seed S]
       run.py module MODULE --device DEV [--dir DIR] [--sim icarus|verilator] [--seed S]

replay   the vectors, parsed by `ftsim vec-json`, one cocotb test each (test_replay.py), one
         simulator run per device (rn1, lc3, p2s, lc3node, p2snode, lc3node2, p2snode2), and
         one per vector with an upset (what it flips may outlive a reset)
native   the hand-written cocotb tests: test_rn1.py on RN1, test_lc3.py on LC3
stim     `ftsim stim`'s RN1 fuzz stimulus replayed through cocotb (test_stim.py): its output
         signature must be the C model's; prints the cocotb replay's cycles/s (make bench)
module   your own test module (MODULE.py in tests/cocotb or DIR) on the RTL of device DEV
         (rn1, lc3, p2s, lc3node, p2snode, lc3node2, p2snode2)

Prints `PASS NAME` or `FAIL NAME` a test and ends with `N passed, N failed`; exit status 0 when
all pass, 1 when a test fails, 2 on bad input (a malformed vector: ftsim's file:line: message).
Everything it builds and writes goes under build/cocotb/SIM/.
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import warnings
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

with warnings.catch_warnings():  # 1.8 calls its runner experimental; the pin holds it still
    warnings.simplefilter("ignore", UserWarning)
    from cocotb.runner import get_runner  # noqa: E402

from ftsim_cocotb import ftsim, replay  # noqa: E402


def rtl_files(design):
    """rtl/files.txt: the one list of each design's files (.vlt for Verilator, .v for both)."""
    with open(os.path.join(ROOT, "rtl", "files.txt"), encoding="utf-8") as f:
        for line in f:
            if line.startswith(design + ":"):
                return [os.path.join(ROOT, "rtl", n) for n in line.split(":", 1)[1].split()]
    raise SystemExit(f"rtl/files.txt: no design {design!r}")


def build(sim, top, params, tag, label):
    """Build the HDL top for sim; returns (runner, build dir). Icarus builds in a folder per
    run (build/cocotb/icarus/TAG-LABEL: a second or so, and runs in parallel never share
    one); a Verilator build (half a minute) is kept per design (build/cocotb/verilator/TAG):
    the generated makefile then recompiles nothing when the sources have not changed."""
    bdir = os.path.join(ROOT, "build", "cocotb", sim, tag if sim == "verilator" else f"{tag}-{label}")
    os.makedirs(bdir, exist_ok=True)
    files = rtl_files(top)
    srcs = [f for f in files if f.endswith(".v")]
    if sim == "icarus":
        # Icarus takes the time unit from a command file (the RTL has no `timescale).
        cmdf = os.path.join(bdir, "timescale.f")
        with open(cmdf, "w", encoding="utf-8") as f:
            f.write("+timescale+1ns/1ps\n")
        args = ["-f", cmdf]
    else:
        args = ["--timescale", "1ns/1ps", "-Wno-fatal", "--x-assign", "unique", "--x-initial",
                "unique", *[f for f in files if f.endswith(".vlt")],
                "-CFLAGS", "-O2", "-O3"]
    r = get_runner(sim)
    r.build(verilog_sources=srcs, includes=[os.path.join(ROOT, "rtl")], parameters=params,
            build_args=args, hdl_toplevel=top, build_dir=bdir, always=sim == "icarus")
    return r, bdir


def work_dir(sim, tag, label):
    """Where one run keeps its files (its vectors, results): build/cocotb/SIM/TAG-LABEL."""
    d = os.path.join(ROOT, "build", "cocotb", sim, f"{tag}-{label}")
    os.makedirs(d, exist_ok=True)
    return d


def run_tests(sim, top, params, tag, label, module, env, seed=1):
    """One simulator run of a test module; returns [(test name, failure message or "")]."""
    r, bdir = build(sim, top, params, tag, label)
    tdir = work_dir(sim, tag, label)
    os.environ.update(env)
    os.environ.setdefault("COCOTB_REDUCED_LOG_FMT", "1")
    xml = os.path.join(tdir, "results.xml")
    try:
        r.test(test_module=module, hdl_toplevel=top, build_dir=bdir, test_dir=tdir,
               parameters=params, results_xml=os.path.basename(xml), seed=seed)
    except SystemExit as e:
        return [(f"{tag}: {module}", f"the simulator did not finish: {e}")]
    if not os.path.exists(xml):
        return [(f"{tag}: {module}", "the simulator wrote no results")]
    res = []
    for tc in ET.parse(xml).iter("testcase"):
        fail = next(iter(tc.iter("failure")), None)
        res.append((tc.get("name"), "" if fail is None else (fail.get("message") or "failed")))
        TIMES[tc.get("name")] = float(tc.get("time") or 0)
    return res


TIMES = {}  # test name -> its own wall time, as cocotb reports it (setup and build excluded)


def report(results):
    bad = 0
    for name, why in results:
        print(f"{'FAIL' if why else 'PASS'} {name}" + (f": {why}" if why else ""))
        bad += bool(why)
    print(f"{len(results) - bad} passed, {bad} failed")
    return 1 if bad else 0


def cmd_replay(a):
    try:
        vecs = ftsim.load_vectors(a.files)
    except ValueError as e:
        print(e)
        return 2
    groups, cycles, secs = {}, 0, 0.0
    for k, v in enumerate(vecs):
        # One simulator run a device; a vector with an upset has one of its own: a flip can
        # leave state that reset does not clear (a table entry, a packet memory word), and the
        # next vector starts from power-up as under ftsim play.
        upset = any("upset" in c for c in v["cycles"])
        groups.setdefault((v["device"].lower(), k if upset else -1), []).append(v)
    results = []
    for (dev, _), vs in groups.items():
        try:
            top, params, _, _ = replay.family(dev)
        except ValueError as e:
            print(e)
            return 2
        label = "replay-" + hashlib.sha1("\0".join(v["path"] for v in vs).encode()).hexdigest()[:10]
        path = os.path.join(work_dir(a.sim, dev, label), "vectors.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"format": "ftsim-vec-json 1", "vectors": vs}, f)
        names = {re.sub(r"\W", "_", re.sub(r"\.vec$", "", v["path"].replace("vectors/", "", 1))):
                 v for v in vs}
        got = run_tests(a.sim, top, params, dev, label, "test_replay", {"FTSIM_VEC_JSON": path})
        results += [(names[n]["path"] if n in names else n, why) for n, why in got]
        for n, v in names.items():
            if n in TIMES:  # reset cycles too: ftsim's replay runs them as well
                cycles += v["end"] + 1 + 2 + len(v["init"])
                secs += TIMES[n]
        missing = set(names) - {n for n, _ in got}
        results += [(names[n]["path"], "not run") for n in sorted(missing)
                    if len(got) > 1 or not got[0][1]]
    if secs:
        print(f"cocotb {a.sim}: replayed {cycles} cycles in {secs:.2f} s (the tests' own time), "
              f"{cycles / secs:.0f} cycles/s")
    return report(results)


def cmd_native(a):
    results = []
    if a.only in (None, "rn1"):
        results += run_tests(a.sim, "rn1", {}, "rn1", "native", "test_rn1", {}, a.seed)
    if a.only in (None, "lc3"):
        results += run_tests(a.sim, "sci_lc", {"P2s": 0}, "lc3", "native", "test_lc3", {}, a.seed)
    return report(results)


def cmd_stim(a):
    hexf = os.path.join(work_dir(a.sim, "rn1", "stim"), f"stim-{a.seed}-{a.cycles}.hex")
    os.makedirs(os.path.dirname(hexf), exist_ok=True)
    p = subprocess.run([ftsim.ftsim_path(), "stim", "--cycles", str(a.cycles), "--seed",
                        str(a.seed), "-o", hexf], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    m = re.search(r"^SIG (\S+)", p.stdout.decode(), re.M)
    if p.returncode or not m:
        print(p.stdout.decode())
        return 2
    out = os.path.join(work_dir(a.sim, "rn1", "stim"), "stim-result.json")
    if os.path.exists(out):
        os.remove(out)
    res = run_tests(a.sim, "rn1", {}, "rn1", "stim", "test_stim",
                    {"FTSIM_STIM": hexf, "FTSIM_STIM_CYCLES": str(a.cycles),
                     "FTSIM_STIM_SIG": m.group(1), "FTSIM_STIM_OUT": out})
    if os.path.exists(out):
        with open(out, encoding="utf-8") as f:
            r = json.load(f)
        print(f"cocotb {a.sim}: {r['cycles']} cycles in {r['secs']:.2f} s, "
              f"{r['cycles'] / r['secs']:.0f} cycles/s, signature {r['sig']} (C model {m.group(1)})")
    return report(res)


def cmd_module(a):
    try:
        top, params, _, _ = replay.family(a.device)
    except ValueError as e:
        print(e)
        return 2
    where = os.path.abspath(a.dir) if a.dir else HERE
    if not os.path.exists(os.path.join(where, a.module + ".py")):
        print(f"{os.path.join(where, a.module)}.py: no such test module")
        return 2
    sys.path.insert(0, where)
    return report(run_tests(a.sim, top, params, a.device.lower(), a.module, a.module, {}, a.seed))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("replay", "native", "stim", "module"):
        s = sub.add_parser(name)
        s.add_argument("--sim", choices=["icarus", "verilator"], default="icarus")
        if name == "replay":
            s.add_argument("files", nargs="+")
        if name == "native":
            s.add_argument("--only", choices=["rn1", "lc3"])
        if name in ("native", "module"):
            s.add_argument("--seed", type=int, default=1,
                           help="cocotb's random seed (the payloads); default 1")
        if name == "module":
            s.add_argument("module", help="a test module of tests/cocotb, without .py")
            s.add_argument("--device", required=True)
            s.add_argument("--dir", help="the folder of MODULE (default tests/cocotb)")
        if name == "stim":
            s.add_argument("--cycles", type=int, required=True)
            s.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    os.chdir(ROOT)
    return {"replay": cmd_replay, "native": cmd_native, "stim": cmd_stim,
            "module": cmd_module}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
