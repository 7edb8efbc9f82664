#!/usr/bin/env python3
"""sites.py - every element of a device's upset map flipped once, on a stimulus, recorded by
the Verilated model: the oracle the other benches' flips are held to.

usage: sites.py DEVICE STIM.vec OUT.vec
       sites.py --all OUTDIR      every device of STIMULI: OUTDIR/DEVICE.vec

Writes OUT.vec: the golden vector `ftsim record --model rtl` records from STIM's stimulus with
one upset of each element of DEVICE's upset map (`ftsim info DEVICE --upsets`) added, one a
cycle from cycle 20, each at its own bit and table entry (element k: bit 5k mod its width,
entry 37k mod its size). The Verilated model flips the member and settles; a bench that plays
OUT.vec flips by its own means (the exported testbench's deposits, the cocotb replay's
handles), so OUT.vec passing there says its flips land where the Verilated model's do, as far as
the outputs and recorded registers show them. OUT-noflip.vec is the same golden without its
upsets, which must fail (the flips show). Exit 0, or 1 with what went wrong.
"""
import os
import re
import subprocess
import sys

# A stimulus per device: traffic in the cycles the flips are in (20 on), so that they show.
STIMULI = [("rn1", "vectors/rn1/golden/fuzz-seed12.vec"),
           ("lc3", "vectors/lc3/golden/fuzz-lc3-seed5.vec"),
           ("p2s", "vectors/p2s/golden/fuzz-p2s-seed5.vec"),
           ("lc3node", "tests/upset/lc3node_busy.vec"),
           ("p2snode", "vectors/node/golden/p2s_asel.vec"),
           ("lc3node2", "vectors/node/golden/blink_x_before_y.vec"),
           ("p2snode2", "vectors/node/golden/p2s_fo_bypass.vec")]

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FTSIM = os.environ.get("FTSIM", os.path.join("build", "ftsim"))


def run(cmd):
    p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def upset_map(device):
    """(name, bits, entries: 0 for one element) of every element of device's upset map."""
    rc, out = run([FTSIM, "info", device, "--upsets"])
    if rc != 0:
        raise SystemExit(f"ftsim info {device} --upsets: exit {rc}\n{out}")
    els = []
    for line in out.splitlines()[1:]:
        m = re.match(r"^  (\S+)\s+(\d+)\s+(?:\[0\.\.0x([0-9A-F]+)\])?", line)
        if m:
            els.append((m.group(1), int(m.group(2)), int(m.group(3), 16) + 1 if m.group(3) else 0))
    return els


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--all":
        os.makedirs(os.path.join(ROOT, sys.argv[2]), exist_ok=True)
        for device, stim in STIMULI:
            if one(device, stim, os.path.join(sys.argv[2], f"{device}.vec")):
                return 1
        return 0
    if len(sys.argv) != 4:
        print(__doc__.strip())
        return 2
    return one(*sys.argv[1:])


def one(device, stim, out):
    with open(os.path.join(ROOT, stim), encoding="utf-8") as f:
        text = re.sub(r"^\s*end\s+@\d+.*$", "", f.read(), flags=re.M)
    last = max(int(c) for c in re.findall(r"^\s*@(\d+)", text, re.M))
    els = upset_map(device)
    flips = [f"@{20 + k} seu {n if not cnt else f'{n}[{(37 * k) % cnt:#x}]'} bit{(5 * k) % w}"
             for k, (n, w, cnt) in enumerate(els)]
    src = out.removesuffix(".vec") + "-stim.vec"
    with open(os.path.join(ROOT, src), "w", encoding="utf-8") as f:
        f.write(text + "\n" + "\n".join(flips) + f"\nend @{max(last, 20 + len(els)) + 20}\n")
    rc, msg = run([FTSIM, "record", src, "--model", "rtl", "-o", out])
    if rc != 0:
        print(f"ftsim record {src} --model rtl: exit {rc}\n{msg}")
        return 1
    with open(os.path.join(ROOT, out), encoding="utf-8") as f:
        bare = re.sub(r"^@\d+ seu .*$", "", f.read(), flags=re.M)
    with open(os.path.join(ROOT, out.removesuffix(".vec") + "-noflip.vec"), "w", encoding="utf-8") as f:
        f.write(bare)
    print(f"{out}: {len(els)} elements of {device} flipped on {stim}'s stimulus, recorded by the RTL")
    return 0


if __name__ == "__main__":
    sys.exit(main())
