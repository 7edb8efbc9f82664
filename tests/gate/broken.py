#!/usr/bin/env python3
"""A netlist with one gate changed must fail some vector on the gate-level model.

usage: broken.py [--seed N] [--device NAME] [--out DIR]

Copies build/synth/DEVICE.v (make synth), changes one two-input gate chosen by --seed N (among
the `assign X = A op B;` lines with one of & | ^: & becomes |, | becomes &, ^ becomes ~^),
builds its model under DIR (make gate-models, unoptimised: the vectors are short) and plays every
spec and golden vector of the device without upsets on it in lockstep with the C model
(FTSIM_GATE_DIR=DIR ftsim play --model gate-both). Prints the seed, the line changed, how many
vectors fail and the first failure; the last line is PASS broken-gate (some vector fails) or
FAIL broken-gate (none does: the change went unseen). Exit 0 / 1; 2 on bad arguments or when
there is no netlist or the build fails.
"""
import argparse
import glob
import os
import random
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FTSIM = os.environ.get("FTSIM", os.path.join("build", "ftsim"))
GATE = re.compile(r"^(\s*assign\s+\S+(?:\s*\[\d+\])?\s*=\s*~?\(?\s*[\w\\.\[\]]+(?:\s*\[\d+\])?\s*)"
                  r"([&|^])(\s*~?\(?\s*[\w\\.\[\]]+(?:\s*\[\d+\])?\s*\)?\)?\s*;\s*)$")
SWAP = {"&": "|", "|": "&", "^": "~^"}


def vectors(device):
    """The device's spec and golden vectors without upsets."""
    out = []
    for kind in ("spec", "golden"):
        for vec in sorted(glob.glob(os.path.join(ROOT, "vectors", "*", kind, "*.vec"))):
            text = open(vec, encoding="utf-8").read()
            m = re.search(r"^\s*device\s+(\S+)", text, re.M | re.I)
            if m and m.group(1).lower() == device and not re.search(r"^\s*@\S+\s+seu\b", text, re.M):
                out.append(os.path.relpath(vec, ROOT))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--device", default="rn1")
    ap.add_argument("--out", default=os.path.join("build", "gate-broken"))
    a = ap.parse_args()
    src = os.path.join(ROOT, "build", "synth", a.device + ".v")
    if not os.path.exists(src):
        print(f"broken.py: {src} not there (make synth writes it)", file=sys.stderr)
        return 2
    lines = open(src, encoding="utf-8").read().split("\n")
    gates = [i for i, ln in enumerate(lines) if GATE.match(ln)]
    if not gates:
        print(f"{src}:0: no two-input gate found", file=sys.stderr)
        return 2
    i = random.Random(a.seed).choice(gates)
    m = GATE.match(lines[i])
    old = lines[i].strip()
    lines[i] = m.group(1) + SWAP[m.group(2)] + m.group(3)
    print(f"seed {a.seed}: {a.device}.v line {i + 1} of {len(gates)} two-input gates: "
          f"`{old}` -> `{lines[i].strip()}`")
    out = os.path.join(ROOT, a.out)
    os.makedirs(os.path.join(out, "synth"), exist_ok=True)
    with open(os.path.join(out, "synth", a.device + ".v"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    build = subprocess.run(["make", "-s", "gate-models", f"GATE_NETLISTS={a.out}/synth",
                            f"GATE_DIR={a.out}", "VOPT=-O0", "VSLOW=-O0", "VPAR=0"],
                           cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if build.returncode:
        print(build.stdout[-3000:])
        print("broken.py: the broken netlist's model did not build", file=sys.stderr)
        return 2
    vecs = vectors(a.device)
    env = dict(os.environ, FTSIM_GATE_DIR=out)
    p = subprocess.run([FTSIM, "play", "--model", "gate-both", "--max-msgs", "1", *vecs], cwd=ROOT,
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    fails = [ln[5:] for ln in p.stdout.splitlines() if ln.startswith("FAIL ")]
    first = next((ln for ln in p.stdout.splitlines() if "diverge" in ln or "expected" in ln), "")
    print(f"{len(fails)} of {len(vecs)} vectors fail on the broken netlist" +
          (f"; first: {first}" if first else ""))
    if fails and p.returncode == 1:
        print("PASS broken-gate")
        return 0
    print("FAIL broken-gate" + (f" (exit {p.returncode})" if not fails else ""))
    return 1


if __name__ == "__main__":
    sys.exit(main())
