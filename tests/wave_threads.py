#!/usr/bin/env python3
"""The RTL torus's waveform is the same on several threads as on one: `ftsim torus --wave` with
--threads N (the RTL in N parts, each in its own Verilator context, each part's FST merged into
one at the end) against --threads 1 (one FST written directly), read back through fst2vcd.
The two must declare the same scopes and signals in the same order with the same identifiers,
and give every signal the same value changes at the same times: the VCD texts are the same but
for the header's date.

usage: tests/wave_threads.py CASE     CASE: rtl (3x3, a cut X ring, 1 against 2 and 3 threads),
                                      window (--wave-from/--wave-to), lockstep (--model both)
Prints `PASS wave-threads CASE: ...` and exits 0, or what differs and exits 1 (2: bad usage).
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FTSIM = os.environ.get("FTSIM", os.path.join(ROOT, "build", "ftsim"))  # SAN=1: build/san/ftsim
OUT = os.path.join(ROOT, "build", "waves")

RUN = ["torus", "--torus", "3x3", "--flow", "a:0,0:1,2", "--flow", "b:2,1:0,0", "--flow", "c:1,2:2,0",
       "--every", "5us", "--fault", "60us:cut x 0,0", "--time-scale", "1000", "--run", "150us"]
CASES = {
    "rtl": (RUN + ["--model", "rtl"], [2, 3]),
    "window": (RUN + ["--model", "rtl", "--wave-from", "50us", "--wave-to", "80us"], [2]),
    "lockstep": (RUN + ["--model", "both"], [2]),
}


def vcd(path):
    """fst2vcd's text of path without the header's date."""
    p = subprocess.run(["fst2vcd", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise SystemExit(f"FAIL wave-threads: fst2vcd {path}: exit {p.returncode}: "
                         f"{p.stderr.decode(errors='replace').strip()}")
    text = p.stdout.decode("utf-8", "replace")
    return re.sub(r"\$date\b.*?\$end\n", "", text, count=1, flags=re.S)


def changes(text):
    """{signal's full name: [(time, value), ...]} and the signals in declaration order."""
    stack, ids, names, out, t = [], {}, [], {}, 0
    head, _, body = text.partition("$enddefinitions")
    for line in head.splitlines():
        w = line.split()
        if w[:1] == ["$scope"]:
            stack.append(w[2])
        elif w[:1] == ["$upscope"]:
            stack.pop()
        elif w[:1] == ["$var"]:
            name = ".".join(stack + [w[4]])
            ids.setdefault(w[3], []).append(name)
            names.append(name)
            out[name] = []
    for line in body.splitlines()[1:]:
        if not line or line[0] == "$":
            continue
        if line[0] == "#":
            t = int(line[1:])
            continue
        if line[0] in "br":
            v, code = line[1:].split()
        else:
            v, code = line[0], line[1:]
        for n in ids.get(code, ()):
            out[n].append((t, v))
    return out, names


def explain(ref, other, n, base):
    """What differs between the one-thread VCD text and the N-thread one, in a few lines."""
    a, an = changes(ref)
    b, bn = changes(other)
    lines = [f"FAIL wave-threads: --threads {n} differs from --threads 1 ({base})"]
    missing, extra = [s for s in an if s not in b], [s for s in bn if s not in a]
    if missing or extra:
        lines.append(f"  {len(missing)} signals missing (first: {missing[:3]}), "
                     f"{len(extra)} extra (first: {extra[:3]})")
    elif an != bn:
        k = next(i for i in range(len(an)) if an[i] != bn[i])
        lines.append(f"  the same signals declared in another order: #{k} is {an[k]} against {bn[k]}")
    bad = [s for s in an if s in b and a[s] != b[s]]
    for s in bad[:3]:
        k = next(i for i, (x, y) in enumerate(zip(a[s] + [None], b[s] + [None])) if x != y)
        lines.append(f"  {s}: change {k}: {a[s][k] if k < len(a[s]) else 'none'} on one thread, "
                     f"{b[s][k] if k < len(b[s]) else 'none'} on {n}")
    if not (missing or extra or bad) and an == bn:
        x, y = ref.splitlines(), other.splitlines()
        k = next((i for i in range(min(len(x), len(y))) if x[i] != y[i]), min(len(x), len(y)))
        lines.append(f"  the same values, another text at line {k + 1}: "
                     f"{x[k] if k < len(x) else '(end)'!r} against {y[k] if k < len(y) else '(end)'!r}")
    else:
        lines.append(f"  {len(bad)} of {len(an)} signals change differently")
    return "\n".join(lines)


def run(args, n, base):
    path = os.path.join(OUT, f"{base}-t{n}.fst")
    if os.path.exists(path):
        os.remove(path)
    p = subprocess.run([FTSIM, *args, "--threads", str(n), "--wave", path], cwd=ROOT,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    err = p.stderr.decode(errors="replace")
    if p.returncode != 0 or "PASS torus" not in p.stdout.decode(errors="replace") or err.strip():
        raise SystemExit(f"FAIL wave-threads: ftsim {' '.join(args)} --threads {n}: exit "
                         f"{p.returncode}\n{err[-1500:]}")
    leftovers = [f for f in os.listdir(OUT) if f.startswith(os.path.basename(path) + ".part")]
    if leftovers:
        raise SystemExit(f"FAIL wave-threads: the parts were left behind: {leftovers}")
    return vcd(path)


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        print(__doc__.strip(), file=sys.stderr)
        return 0 if sys.argv[1:] in (["-h"], ["--help"]) else 2
    case = sys.argv[1]
    args, counts = CASES[case]
    os.makedirs(OUT, exist_ok=True)
    base = f"wave-threads-{case}"
    ref = run(args, 1, base)
    chg, names = changes(ref)
    if not names or not any(chg.values()):
        print(f"FAIL wave-threads {case}: the one-thread waveform holds no value change")
        return 1
    for n in counts:
        other = run(args, n, base)
        if other != ref:
            print(explain(ref, other, n, base))
            return 1
    total = sum(len(v) for v in chg.values())
    print(f"PASS wave-threads {case}: on {', '.join(map(str, counts))} threads the FST holds the "
          f"one-thread FST's {len(names)} signals and {total} value changes (fst2vcd, date aside)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
