#!/usr/bin/env python3
"""A SymbiYosys trace (VCD) of RN1 as a vector: the drives of the trace, cycle by cycle.

usage: formal/cex2vec.py TRACE.vcd OUT.vec --name PROPERTY [--step N] [--kind cex|cover]

Step 0 of the trace is the reset cycle FT_FORMAL_RESET assumes (rtl/ft_assert.svh); step k is
the vector's cycle k-1. The configuration in force after the reset edge becomes the vector's
`config` line (the reset cycle's write, or the defaults); a later write of CFG becomes `@N
config` of the keys whose bytes it strobes (a write of a seed byte reloads the LFSR, whatever
the value: rtl/rn1.md 10); writes of read-only addresses are dropped (ignored by the contract,
rtl/rn1.md 11). Words are driven raw (`W:hhh`), bc inputs as 0/1. The vector checks nothing
(`check loose`): on an RTL that breaks the property its assertion fires in the cycle noted in
the header, and ftsim play fails naming it. Bad input exits 2 with file:line: message.
"""
import argparse
import os
import sys


def die(msg):
    print(msg, file=sys.stderr)
    sys.exit(2)


def read_vcd(path):
    """{VCD id: [signal names, dotted, below the top]} and the value changes [(time, id, v)]."""
    ids, names, vals, changes = {}, [], {}, []
    scope = []
    t = 0
    try:
        lines = open(path).read().split("\n")
    except OSError as e:
        die(f"{path}:1: {e.strerror}")
    in_defs = True
    for n, line in enumerate(lines, 1):
        f = line.split()
        if not f:
            continue
        if in_defs:
            if f[0] == "$scope":
                scope.append(f[2])
            elif f[0] == "$upscope":
                scope.pop()
            elif f[0] == "$var":
                name = ".".join(scope[1:] + [f[4]])
                ids.setdefault(f[3], []).append(name)
            elif f[0] == "$enddefinitions":
                in_defs = False
            continue
        c = f[0]
        if c.startswith("#"):
            t = int(c[1:])
        elif c[0] in "bB":
            v = c[1:]
            changes.append((t, f[1], int(v.replace("x", "0").replace("z", "0"), 2)))
        elif c[0] in "01xz":
            changes.append((t, c[1:], 1 if c[0] == "1" else 0))
        elif c.startswith("$"):
            continue
        else:
            die(f"{path}:{n}: unexpected VCD line")
    return ids, changes


def sampled(ids, changes, want):
    """Each wanted signal's value at every rising edge of clk_i (the value during the ending
    cycle: the last change strictly before the edge's time)."""
    clk = [i for i, ns in ids.items() if "clk_i" in ns]  # the top's (names are below the top)
    if not clk:
        die("trace: no clk_i")
    clk = clk[0]
    edges, last = [], 1
    for t, i, v in changes:
        if i == clk and v == 1 and last == 0 and t > 0:  # the edge ending a step
            edges.append(t)
        if i == clk:
            last = v
    # The trace's last step has no edge after it: its values are sampled after its last change.
    edges.append(max(t for t, _, _ in changes) + 1)
    idof = {}
    for i, ns in ids.items():
        for nm in ns:
            idof[nm] = i
    out = {}
    for w in want:
        if w not in idof:
            die(f"trace: no signal {w}")
        i = idof[w]
        ch = [(t, v) for t, j, v in changes if j == i]
        vals, k, cur = [], 0, 0
        for e in edges:
            while k < len(ch) and ch[k][0] < e:
                cur = ch[k][1]
                k += 1
            vals.append(cur)
        out[w] = vals
    return out, len(edges)


def cfg_keys(cfg):
    return {"swallow": cfg & 0xFF, "disable": cfg >> 8 & 0xFF, "seed": cfg >> 16 & 0xFFFF,
            "mode": cfg >> 32 & 1, "backchan": cfg >> 40 & 1}


BYTES = {"swallow": 0x01, "disable": 0x02, "seed": 0x0C, "mode": 0x10, "backchan": 0x20}


def fmt(k, v):
    if k == "mode":
        return "mode=" + ("dual" if v else "dilated")
    return f"{k}={v:#x}" if k != "backchan" else f"backchan={v}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trace")
    ap.add_argument("out")
    ap.add_argument("--name", required=True, help="the property (assertion or cover)")
    ap.add_argument("--kind", choices=["cex", "cover"], default="cex")
    ap.add_argument("--why", default="", help="a line for the header (where it came from)")
    ap.add_argument("--step", type=int, help="the trace's step where it fails or is reached "
                    "(SymbiYosys's status; default the trace's last step)")
    a = ap.parse_args()
    ids, changes = read_vcd(a.trace)
    sigs = ["fwd_i", "bwd_i", "bwd_bc_i", "reg_we_i", "reg_waddr_i", "reg_wstrb_i", "cfg_q",
            "cfg_d"]
    v, nsteps = sampled(ids, changes, sigs)
    g = lambda s, k: v[s][k]  # noqa: E731
    if nsteps < 3:
        die(f"{a.trace}:1: a trace of {nsteps} steps has no cycle out of reset")
    # Under FORMAL the checks are combinational (rtl/ft_assert.svh): one fails (or is reached) in
    # the trace's last step on that step's values, which simulation checks at the edge ending
    # vector cycle nsteps - 2 (step 0 is the reset cycle).
    last = nsteps - 1
    cyc = (a.step if a.step is not None else last) - 1
    if not 0 <= cyc < last:
        die(f"{a.trace}:1: step {a.step} is not a step of this {nsteps}-step trace after reset")
    lines = [f"# TEST RATIONALE: {'counterexample to' if a.kind == 'cex' else 'a trace reaching'}"
             f" {a.name}, from SymbiYosys ({a.why or os.path.basename(a.trace)}).",
             f"# {a.name} {'fires' if a.kind == 'cex' else 'is reached'} at the edge that ends "
             f"cycle {cyc}.",
             "device rn1"]
    cfg = g("cfg_q", 1)
    lines.append("config " + " ".join(fmt(k, x) for k, x in cfg_keys(cfg).items()))
    lines.append("check loose")
    prev_f = [0] * 8
    prev_b = [0] * 8
    prev_bc = [0] * 8
    for k in range(1, last + 1):
        n = k - 1
        fw, bw, bc = g("fwd_i", k), g("bwd_i", k), g("bwd_bc_i", k)
        for p in range(8):
            w = fw >> (9 * p) & 0x1FF
            if w != prev_f[p]:
                lines.append(f"@{n} f{p} <- W:{w:03X}")
                prev_f[p] = w
            w = bw >> (9 * p) & 0x1FF
            if w != prev_b[p]:
                lines.append(f"@{n} b{p} <- W:{w:03X}")
                prev_b[p] = w
            b = bc >> p & 1
            if b != prev_bc[p]:
                lines.append(f"@{n} b{p}.bc <- {b}")
                prev_bc[p] = b
        if g("reg_we_i", k) and g("reg_waddr_i", k) == 0:
            st = g("reg_wstrb_i", k)
            new = cfg_keys(g("cfg_d", k))
            keys = [fmt(x, new[x]) for x in new if st & BYTES[x]]
            if keys:
                lines.append(f"@{n} config " + " ".join(keys))
    lines.append(f"end @{last}")
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{a.out}: {a.name} at cycle {cyc}")


if __name__ == "__main__":
    main()
