#!/usr/bin/env python3
"""The GTKWave layout of each device: the one table `make wave` and the test runner read.

usage: layouts.py DEVICE          print the layout for a vector's device, writing it under
                                  build/waves/ first when no committed one fits (rings and
                                  tori of any size); exit 2 for a device with none
       layouts.py --fst VEC.vec   print where a vector's waveform goes: build/waves/ + the
                                  vector's path, so spec/ and golden/ vectors never share one
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WAVES = os.path.join("build", "waves")

# (device pattern, committed layout or None, how to write one: arguments of sci_gtkw.py)
TABLE = [
    (r"rn1", "waves/rn1.gtkw", None),
    (r"lc3|p2s", "waves/lc3.gtkw", None),
    (r"lc3node|p2snode", "waves/lc3node.gtkw", None),
    (r"lc3node2|p2snode2", "waves/lc3node2.gtkw", None),
    (r"(?:p2s)?ring(\d+)", "waves/ring{0}.gtkw", ["ring", "{0}"]),
    (r"(?:p2s)?torus(\d+)x(\d+)", "waves/torus{0}x{1}.gtkw", ["torus", "{0}", "{1}"]),
    (r"rnpnet(\d+)(?:x\d+)?(?:w\d+)?", "waves/rnpnet{0}_path.gtkw", None),
]


def fst_for(vec):
    """build/waves/<the vector's path without .vec>.fst (relative to the repository)."""
    rel = os.path.relpath(os.path.abspath(vec), ROOT)
    if rel.startswith(".."):
        rel = os.path.basename(vec)
    return os.path.join(WAVES, re.sub(r"\.vec$", "", rel) + ".fst")


def layout_for(device):
    """(layout path, note): the committed layout, or one written under build/waves/; (None,
    note) when the device has none (an RNP network whose path has no committed layout)."""
    device = device.lower()
    for pat, committed, gen in TABLE:
        m = re.fullmatch(pat, device)
        if not m:
            continue
        path = committed.format(*m.groups())
        if os.path.exists(os.path.join(ROOT, path)):
            return path, ""
        if gen:
            out = os.path.join(WAVES, os.path.basename(path))
            os.makedirs(os.path.join(ROOT, WAVES), exist_ok=True)
            subprocess.run([sys.executable, "harness/scripts/sci_gtkw.py",
                            *[g.format(*m.groups()) for g in gen], out], cwd=ROOT, check=True)
            return out, ""
        return None, (f"no committed layout for {device}; write one for your path with "
                      f"harness/scripts/path_gtkw.py {WAVES}/{device}.gtkw rR:fI:bJ ... "
                      "(ftsim net --links lists the links)")
    return None, f"no layout for device {device}"


def device_of(vec):
    with open(vec, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"\s*device\s+(\S+)", line, re.I)
            if m:
                return m.group(1)
    return None


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--fst":
        print(fst_for(sys.argv[2]))
        return 0
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path, note = layout_for(sys.argv[1])
    if not path:
        print(note, file=sys.stderr)
        return 2
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
