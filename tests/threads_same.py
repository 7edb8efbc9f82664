#!/usr/bin/env python3
"""Runs one ftsim command with --threads N for each N given and checks that the outputs
(stdout and stderr: the report, the JSON, the driver log) are the same byte for byte once the
figures that measure the machine rather than the model are taken out: the `speed:` line,
"cycles_per_s" and "build_s" in JSON, and the seconds a faultcheck summary ends with.

usage: tests/threads_same.py 1,2,3 ARGS...   (ARGS: the ftsim command and its options)
Prints `PASS threads: ...` and exits 0, or the first differing line and exits 1.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FTSIM = os.environ.get("FTSIM", os.path.join(ROOT, "build", "ftsim"))  # SAN=1: build/san/ftsim

SPEED = [
    (re.compile(r"^speed: .*\n", re.M), ""),
    (re.compile(r'"cycles_per_s": [0-9.e+]+, "build_s": [0-9.e+]+'), '"cycles_per_s": -, "build_s": -'),
    (re.compile(r"; [0-9]+ s$", re.M), "; - s"),
]


def strip(text):
    for pat, rep in SPEED:
        text = pat.sub(rep, text)
    return text


def run(args, threads):
    p = subprocess.run([FTSIM, *args, "--threads", str(threads)], cwd=ROOT,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    return (f"exit {p.returncode}\n" + strip(p.stdout.decode("utf-8", "replace")) +
            "--- stderr\n" + strip(p.stderr.decode("utf-8", "replace")))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    counts = [int(n) for n in sys.argv[1].split(",")]
    args = sys.argv[2:]
    ref = run(args, counts[0])
    for n in counts[1:]:
        out = run(args, n)
        if out != ref:
            a, b = ref.splitlines(), out.splitlines()
            k = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
            print(f"FAIL threads: --threads {n} differs from --threads {counts[0]} at line {k + 1}:")
            print(f"  {counts[0]}: {a[k] if k < len(a) else '(end)'}")
            print(f"  {n}: {b[k] if k < len(b) else '(end)'}")
            return 1
    print(f"PASS threads: ftsim {' '.join(args)}: the same on "
          f"{', '.join(map(str, counts))} threads ({len(ref.splitlines())} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
