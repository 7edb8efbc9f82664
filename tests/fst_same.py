#!/usr/bin/env python3
"""Two FST waveforms carry the same values: every signal under SCOPE that both hold has the same
value changes at the same times (fst2vcd, from the gtkwave package, reads them).

usage: fst_same.py A.fst B.fst SCOPE    e.g. TOP.rn1 (the C harness's and the SystemC harness's
                                        dumps of one vector)
Prints `N signals compared, M differ` (and the first few that differ); exit 0 when M is 0 and N
is not, else 1.
"""
import subprocess
import sys


def changes(path, scope):
    vcd = subprocess.run(["fst2vcd", path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         check=True).stdout.decode("utf-8", "replace")
    stack, ids, out, t = [], {}, {}, 0
    lines = iter(vcd.splitlines())
    for line in lines:
        w = line.split()
        if not w:
            continue
        if w[0] == "$scope":
            stack.append(w[2])
        elif w[0] == "$upscope":
            stack.pop()
        elif w[0] == "$var":
            name = ".".join(stack + [w[4]])
            if name == scope or name.startswith(scope + "."):
                ids.setdefault(w[3], []).append(name)
                out[name] = []
        elif w[0] == "$enddefinitions":
            break
    for line in lines:
        if not line:
            continue
        if line[0] == "#":
            t = int(line[1:])
        elif line[0] in "br":
            v, code = line[1:].split()
            for n in ids.get(code, ()):
                out[n].append((t, v.lstrip("0") or "0"))
        elif line[0] in "01xzXZ" and line[1:] in ids:
            for n in ids[line[1:]]:
                out[n].append((t, line[0]))
    # A value written again unchanged is no change.
    for n, ch in out.items():
        out[n] = [c for i, c in enumerate(ch) if i == 0 or c[1] != ch[i - 1][1]]
    return out


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    a, b = changes(sys.argv[1], sys.argv[3]), changes(sys.argv[2], sys.argv[3])
    both = sorted(set(a) & set(b))
    bad = [n for n in both if a[n] != b[n]]
    for n in bad[:5]:
        first = next(i for i, (x, y) in enumerate(zip(a[n] + [None], b[n] + [None])) if x != y)
        print(f"{n}: change {first}: {a[n][first] if first < len(a[n]) else 'none'} vs "
              f"{b[n][first] if first < len(b[n]) else 'none'}")
    print(f"{len(both)} signals compared, {len(bad)} differ")
    return 0 if both and not bad else 1


if __name__ == "__main__":
    sys.exit(main())
