#!/usr/bin/env python3
"""make unwritten: the vectors that read a memory entry nothing wrote (what an ASIC would see).

usage: unwritten.py [--out DIR] [--only REGEX] [DEVICE ...]

Every simulation and the netlists start the designs' memories zero (rtl/sci_lc.v and
rtl/sci_psb.v zero them in an initial block; make synth keeps it as the memories' initial
contents, as an FPGA's RAM is loaded at configuration). An ASIC's SRAM has no initial contents.
This finds the vectors that depend on the zeros: a copy of rtl/ in DIR (build/synth/unwritten)
without the lines that zero the memories (--only REGEX: those of the memories whose name
matches), so that under Icarus (four-state) every word of them starts X;
each device's testbench (ftsim export-tb --device) compiled against rtl/ and against the copy;
every spec and golden vector of the device (vectors/*/{spec,golden}/*.vec, by its `device`
line) played on both. A vector that passes on rtl/ and fails on the copy reads, somewhere, an
entry nothing wrote and lets it matter. Prints one line a vector played on the copy and the
list; exit 0 when it ran (whatever it found), 1 when a vector failed on rtl/ itself, 2 on bad
arguments.
"""
import argparse
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "harness", "scripts"))
import designs  # noqa: E402

FTSIM = os.environ.get("FTSIM", os.path.join("build", "ftsim"))


def sh(cmd):
    p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL, timeout=900)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def x_copy(dst, only=None):
    """rtl/ copied to dst with the zeroing of every memory (a line `NAME_mem[i] = 0;` in an
    initial block) removed, or of those whose name matches the regular expression only; the
    files changed."""
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "rtl"), dst)
    changed = []
    for p in sorted(glob.glob(os.path.join(dst, "*.v"))):
        with open(p, encoding="utf-8") as f:
            text = f.read()
        new = re.sub(r"^\s*(\w+_mem)\[i\]\s*=\s*\d+'[dhb]0;\n",
                     lambda m: "" if only is None or re.search(only, m.group(1)) else m.group(0),
                     text, flags=re.M)
        if new != text:
            changed.append(os.path.basename(p))
            with open(p, "w", encoding="utf-8") as f:
                f.write(new)
    return changed


def device_tb(device, rtl, out):
    tb = os.path.join(out, f"{device}_tb.sv")
    os.makedirs(os.path.join(ROOT, out), exist_ok=True)
    rc, o = sh([FTSIM, "export-tb", "--device", device, "-o", tb, "--rtl", rtl])
    if rc != 0:
        raise SystemExit(f"unwritten.py: ftsim export-tb --device {device}: exit {rc}\n{o}")
    with open(os.path.join(ROOT, tb), encoding="utf-8") as f:
        comp = shlex.split(re.search(r"^//   (iverilog .*)$", f.read(4000), re.M).group(1))
    rc, o = sh(comp)
    if rc != 0:
        raise SystemExit(f"unwritten.py: {' '.join(comp)}: exit {rc}\n{o}")
    return comp[comp.index("-o") + 1]


def vectors_of(device):
    out = []
    for p in sorted(glob.glob(os.path.join(ROOT, "vectors", "*", "*", "*.vec"))):
        if os.path.basename(os.path.dirname(p)) not in ("spec", "golden"):
            continue
        with open(p, encoding="utf-8") as f:
            m = re.search(r"^\s*device\s+(\S+)", f.read(), re.M)
        if m and m.group(1) == device:
            out.append(os.path.relpath(p, ROOT))
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawTextHelpFormatter,
                                 usage="unwritten.py [--out DIR] [--only REGEX] [DEVICE ...]")
    ap.add_argument("devices", nargs="*", metavar="DEVICE")
    ap.add_argument("--out", default=os.path.join("build", "synth", "unwritten"))
    ap.add_argument("--only", metavar="REGEX", help="leave X only the memories whose name "
                    "matches (e.g. 'lrt|brt|asel': the routing tables)")
    a = ap.parse_args(argv)
    devs = [v.device for v in designs.variants() if v.device != designs.NO_DEVICE]
    bad = [d for d in a.devices if d not in devs]
    if bad:
        ap.error(f"unknown device {', '.join(bad)} (devices: {', '.join(devs)})")
    xrtl = os.path.join(a.out, "rtl")
    changed = x_copy(os.path.join(ROOT, xrtl), a.only)
    print(f"unwritten: {xrtl}/ without the memories' zeroing in {', '.join(changed)}",
          flush=True)
    found, broken = [], []
    for dev in a.devices or devs:
        vecs = vectors_of(dev)
        out = os.path.join(a.out, dev)
        os.makedirs(os.path.join(ROOT, out), exist_ok=True)
        tb0 = device_tb(dev, "rtl", os.path.join(out, "zero"))
        tbx = device_tb(dev, xrtl, os.path.join(out, "x"))
        for vec in vecs:
            ev = os.path.join(out, os.path.basename(vec) + ".events")
            rc, o = sh([FTSIM, "export-tb", vec, "--events", ev])
            if rc != 0:
                print(f"FAIL {vec}: ftsim export-tb --events: exit {rc}\n{o}", flush=True)
                broken.append(vec)
                continue
            rc0, o0 = sh(["vvp", "-n", tb0, f"+events={ev}"])
            rcx, ox = sh(["vvp", "-n", tbx, f"+events={ev}"])
            ok0 = rc0 == 0 and o0.rstrip().splitlines()[-1:] == [f"PASS {vec}"]
            okx = rcx == 0 and ox.rstrip().splitlines()[-1:] == [f"PASS {vec}"]
            if not ok0:
                broken.append(vec)
                print(f"FAIL {vec}: fails with the memories zero too", flush=True)
            elif not okx:
                first = next((ln for ln in ox.splitlines() if ": cycle" in ln), "")
                found.append((dev, vec, first.strip()))
                print(f"X   {dev} {vec}: {first.strip()}", flush=True)
            else:
                print(f"ok  {dev} {vec}", flush=True)
    print(f"{len(found)} vectors read a memory entry nothing wrote:")
    for dev, vec, first in found:
        print(f"  {dev} {vec}  {first}")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
