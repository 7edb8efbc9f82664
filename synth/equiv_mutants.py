#!/usr/bin/env python3
"""make equiv-mutants: a netlist with one gate changed must fail make equiv, for each seed.

usage: equiv_mutants.py [--dir DIR] [--seeds LIST] [--read-port] DEVICE

For each seed (default 1,2,3,4,5; printed) picks, with Python's random.Random(seed), one
gate of DIR/DEVICE.v that feeds a flip-flop (drives the value it takes, its enable or its
reset) and writes a copy of the netlist with that gate changed (a two-input gate's & and |
swapped, ^ made ~^ and back; a multiplexer's data inputs swapped) to
DIR/mutants/DEVICE-sSEED.v; then runs synth/equiv.py --net on the copy. A copy equiv.py
passes is a failure of this check. --read-port changes instead one memory read port's
transparency (DEVICE-rpSEED.v): the test `RADDR == WADDR` that sets the hit flag of
write_verilog's bypass beside a registered read port, made `!=`. Prints the change and the
verdict per seed. Exit 0 when every copy failed equivalence, 1 otherwise, 2 on bad arguments.
"""
import argparse
import os
import random
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SWAP = {"&": "|", "|": "&", "^": "~^", "~^": "^"}
ASSIGN = re.compile(r"^  assign (\S+(?: ?\[\d+\])?) = (.*);$")
BINOP = re.compile(r"(~\^|\^|&|\|)")


MUX = re.compile(r"^(\S+(?: ?\[\d+\])?) \? (\S+(?: ?\[\d+\])?) : (\S+(?: ?\[\d+\])?)$")


def mutate(lines, seed):
    """The netlist's lines with one gate feeding a flop changed, and what was changed. A gate
    feeds a flop when it drives the value a flop takes (`<= NET;`) or its enable or reset
    (`if (NET)`, `if (!NET)`); a two-input gate has its operator changed, a multiplexer its
    two data inputs swapped."""
    feeds = set()
    for line in lines:
        m = re.search(r"<= (\S+(?: ?\[\d+\])?);$", line)
        if m and not m.group(1)[0].isdigit():
            feeds.add(m.group(1).replace(" ", ""))
        m = re.match(r"^\s*(?:else )?if \(!?(\S+(?: ?\[\d+\])?)\)", line)
        if m:
            feeds.add(m.group(1).replace(" ", ""))
    cands = []
    for i, line in enumerate(lines):
        m = ASSIGN.match(line)
        if m and m.group(1).replace(" ", "") in feeds and (
                len(BINOP.findall(m.group(2))) == 1 or MUX.match(m.group(2))):
            cands.append(i)
    if not cands:
        raise ValueError("no two-input gate or multiplexer feeds a flip-flop")
    i = random.Random(seed).choice(cands)
    old = lines[i]
    lhs, rhs = old.split(" = ", 1)
    expr = rhs[:-1]
    mx = MUX.match(expr)
    if mx:
        new = f"{lhs} = {mx.group(1)} ? {mx.group(3)} : {mx.group(2)};"
    else:
        op = BINOP.search(expr).group(1)
        new = lhs + " = " + rhs.replace(op, SWAP[op], 1)
    out = list(lines)
    out[i] = new
    return out, i + 1, old.strip(), new.strip(), len(cands)


# write_verilog's bypass of a transparent registered read port: `if (WEN && RADDR == WADDR)`.
BYPASS = re.compile(r"^(\s*if \(.* && .*) == (.*\) begin)$")


def mutate_read_port(lines, seed):
    """The netlist's lines with one read port's transparency test made `!=` (the port chosen
    by random.Random(seed) among those that have one), as mutate returns them."""
    cands = [i for i, line in enumerate(lines) if BYPASS.match(line) and
             i > 2 and re.match(r"^\s*_\d+_ <= \d+'hx+;$", lines[i - 1])]
    if not cands:
        raise ValueError("no transparent registered read port")
    i = random.Random(seed).choice(cands)
    out = list(lines)
    out[i] = BYPASS.sub(r"\1 != \2", lines[i])
    return out, i + 1, lines[i].strip(), out[i].strip(), len(cands)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawTextHelpFormatter,
                                 usage="equiv_mutants.py [--dir DIR] [--seeds LIST] [--read-port] "
                                       "DEVICE")
    ap.add_argument("device")
    ap.add_argument("--dir", default="build/synth")
    ap.add_argument("--seeds", default="1,2,3,4,5")
    ap.add_argument("--read-port", action="store_true",
                    help="change a memory read port's transparency, not a gate")
    a = ap.parse_args(argv)
    try:
        seeds = [int(s) for s in a.seeds.split(",")]
    except ValueError:
        ap.error(f"--seeds: want numbers separated by commas, got {a.seeds!r}")
    net = os.path.join(ROOT, a.dir, a.device + ".v")
    if not os.path.exists(net):
        print(f"equiv_mutants.py: {a.dir}/{a.device}.v missing (make synth)", file=sys.stderr)
        return 2
    with open(net, encoding="utf-8") as f:
        lines = f.read().split("\n")
    os.makedirs(os.path.join(ROOT, a.dir, "mutants"), exist_ok=True)
    bad = 0
    for s in seeds:
        try:
            out, n, old, new, ncand = (mutate_read_port if a.read_port else mutate)(lines, s)
        except ValueError as e:
            print(f"equiv_mutants.py: {a.dir}/{a.device}.v: {e}", file=sys.stderr)
            return 2
        path = os.path.join(a.dir, "mutants", f"{a.device}-{'rp' if a.read_port else 's'}{s}.v")
        with open(os.path.join(ROOT, path), "w", encoding="utf-8") as f:
            f.write("\n".join(out))
        what = "read ports" if a.read_port else "gates feeding a flop"
        print(f"seed {s}: {a.device}.v:{n} (one of {ncand} {what}): "
              f"'{old}' -> '{new}'", flush=True)
        r = subprocess.run([sys.executable, os.path.join(ROOT, "synth", "equiv.py"), "--dir",
                            a.dir, "--net", path, "--jobs", "1", a.device],
                           cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        verdict = r.stdout.strip().splitlines()[-8:]
        if r.returncode == 1:
            print(f"seed {s}: make equiv fails it, as it must", flush=True)
        else:
            bad += 1
            print(f"FAIL seed {s}: equiv.py exit {r.returncode}, the changed gate went unseen",
                  flush=True)
        for line in verdict:
            print("    " + line, flush=True)
    print(f"{len(seeds) - bad} of {len(seeds)} changed netlists fail equivalence")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
