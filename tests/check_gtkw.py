#!/usr/bin/env python3
"""Check a GTKWave save file against a waveform, headless: every signal the layout names must
exist in the FST (read with fst2vcd), and every translate filter file it names must exist.

usage: tests/check_gtkw.py LAYOUT.gtkw WAVE.fst
"""
import os
import re
import subprocess
import sys


def fst_signals(fst):
    p = subprocess.run(["fst2vcd", fst], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if p.returncode != 0:
        sys.exit(f"{fst}: fst2vcd cannot read it")
    scope, names = [], set()
    for line in p.stdout.decode(errors="replace").splitlines():
        t = line.split()
        if not t:
            continue
        if t[0] == "$scope":
            scope.append(t[2])
        elif t[0] == "$upscope":
            scope.pop()
        elif t[0] == "$var":
            names.add(".".join(scope + [t[4]]))
        elif t[0] == "$enddefinitions":
            break
    return names


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip())
        return 2
    layout, fst = sys.argv[1:]
    have = fst_signals(fst)
    bad, n = [], 0
    with open(layout, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if line.startswith("^"):
                path = line.split(None, 1)[1]
                if not os.path.isfile(path):
                    bad.append(f"{layout}:{lineno}: translate filter {path} does not exist")
                continue
            m = re.match(r"^(?:\+\{[^}]*\}\s*)?([A-Za-z]\w*\.\S+?)(\[\d+:\d+\])?$", line)
            if not m:
                continue
            n += 1
            if m.group(1) not in have:
                bad.append(f"{layout}:{lineno}: {m.group(1)} is not in {fst}")
    for b in bad:
        print(b)
    print(f"{layout}: {n} signals checked against {fst}, {len(bad)} missing")
    return 1 if bad or n == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
