#!/usr/bin/env python3
"""The netlist as an ASIC would have it: its memories with no initial contents, under Icarus.

usage: noinit.py DEVICE [VEC...]

Copies build/synth/DEVICE.v (make synth) with every `initial begin ... end` block taken out
(Yosys writes a memory's initial contents as one; an ASIC's SRAM has none) into
build/gate-noinit/DEVICE.v and plays the vectors (default: every spec and golden vector of the
device without upsets) as exported testbenches of it under Icarus, four-state: a read of an
entry nothing wrote is X there and fails the expectation it reaches. Lists the vectors that
fail (the ones that read such an entry); the last line is `PASS noinit: N of M vectors read an
entry nothing wrote` when at least one does (so X does show) or FAIL when none does.
Exit 0 / 1; 2 when there is no netlist.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, os.path.join(ROOT, "tests", "icarus"))
sys.dont_write_bytecode = True
import export_check  # noqa: E402
import run  # noqa: E402


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) > 1 else 2
    dev = sys.argv[1]
    src = os.path.join(ROOT, "build", "synth", dev + ".v")
    if not os.path.exists(src):
        print(f"noinit.py: {src} not there (make synth writes it)", file=sys.stderr)
        return 2
    text = open(src, encoding="utf-8").read()
    stripped, n = re.subn(r"^\s*initial begin\n(?:.*\n)*?\s*end\n", "", text, flags=re.M)
    os.makedirs(os.path.join(ROOT, "build", "gate-noinit"), exist_ok=True)
    out = os.path.join("build", "gate-noinit", dev + ".v")
    with open(os.path.join(ROOT, out), "w", encoding="utf-8") as f:
        f.write(stripped)
    vecs = sys.argv[2:] or [v for kind in ("spec", "golden")
                            for v in run.vectors_by_device(os.path.join("vectors", "*", kind, "*.vec")).get(dev, [])
                            if not run.has_upset(v)]
    print(f"{out}: {n} initial blocks taken out of {os.path.relpath(src, ROOT)}")
    bad, _ = export_check.cmd_events(dev, vecs, out)
    ok = bad > 0
    print(f"{'PASS' if ok else 'FAIL'} noinit: {bad} of {len(vecs)} vectors read an entry nothing wrote")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
