#!/usr/bin/env python3
"""The synthesis results of build/synth gathered into build/synth/report.json (and a table).

usage: report.py [--dir DIR] [--markdown] [DEVICE ...]

Reads, per device (all of rtl/files.txt's when none is given), what make synth wrote into DIR
(NAME.v, NAME.stat.json, NAME.cmos.txt, NAME.ltp.txt) and what make fpga wrote
(fpga/NAME.json, when present), and writes DIR/report.json: a list of one object per device,
  design       the device's name
  top          the RTL's top module; params its parameters
  cells        every cell of the netlist (gates, flip-flops, memories)
  cells_by_kind  Yosys's count per cell type
  flops        flip-flop bits (the $_*DFF*_ cells); latches (the $_DLATCH*_ and $_SR*_ cells)
  memories     {name: [words, width]} of the arrays kept as memories; memory_bits their bits
  transistors  `stat -tech cmos`'s estimate (gates and flip-flops; memories not counted)
  depth        the longest combinational path, in cells (`ltp -noff`)
  fpga         {device, luts, ffs, ram_blocks, fmax_mhz, ...} or null where not run
--markdown also prints the table synth/README.md shows. Exit 1 when a netlist is missing, 2 on
bad arguments.
"""
import argparse
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "harness", "scripts"))
import designs  # noqa: E402


def memories(netlist):
    """The arrays write_verilog left in the netlist: {name: [words, width]}."""
    out = {}
    rx = re.compile(r"^\s*reg\s+(?:\[(\d+):(\d+)\]\s+)?(\S+)\s*\[(\d+):(\d+)\]\s*;")
    with open(netlist, encoding="utf-8") as f:
        for line in f:
            m = rx.match(line)
            if m:
                width = abs(int(m.group(1) or 0) - int(m.group(2) or 0)) + 1
                words = abs(int(m.group(4)) - int(m.group(5))) + 1
                out[m.group(3).lstrip("\\")] = [words, width]
    return out


def one(v, d):
    name = v.device
    base = os.path.join(d, name)
    with open(base + ".stat.json", encoding="utf-8") as f:
        stat = json.load(f)["design"]
    kinds = stat["num_cells_by_type"]
    with open(base + ".cmos.txt", encoding="utf-8") as f:
        m = re.search(r"Estimated number of transistors:\s*(\d+)", f.read())
    transistors = int(m.group(1)) if m else None
    with open(base + ".ltp.txt", encoding="utf-8") as f:
        m = re.search(r"Longest topological path in \S+ \(length=(\d+)\)", f.read())
    depth = int(m.group(1)) if m else None
    mems = memories(base + ".v")
    fpga = None
    fp = os.path.join(d, "fpga", name + ".json")
    if os.path.exists(fp):
        with open(fp, encoding="utf-8") as f:
            fpga = json.load(f)
    return {
        "design": name, "top": v.design.top, "params": dict(v.params),
        "cells": stat["num_cells"], "cells_by_kind": kinds,
        "flops": sum(n for k, n in kinds.items() if "DFF" in k),
        "latches": sum(n for k, n in kinds.items() if "DLATCH" in k or k.startswith("$_SR")),
        "memories": mems, "memory_bits": sum(w * b for w, b in mems.values()),
        "transistors": transistors, "depth": depth, "fpga": fpga,
    }


def markdown(rows):
    out = ["| design | cells | flops | memory bits | transistors | depth | FPGA (ECP5) |",
           "|---|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        f = r["fpga"]
        fp = (f"{f['luts']:,} LUT4, {f['ffs']:,} FF, {f.get('ram_blocks', 0)} DP16KD, "
              f"{f.get('dist_ram', 0)} RAMW, {f['fmax_mhz']:.1f} MHz" if f else "not run")
        if f and f.get("netlist_ffs") and f["netlist_ffs"] != f.get("generic_flops"):
            fp += f"; flop check fails ({f['netlist_ffs']:,} on the FPGA)"
        out.append(f"| {r['design']} | {r['cells']:,} | {r['flops']:,} | {r['memory_bits']:,} | "
                   f"{r['transistors']:,} | {r['depth']} | {fp} |")
    return "\n".join(out)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawTextHelpFormatter,
                                 usage="report.py [--dir DIR] [--markdown] [DEVICE ...]")
    ap.add_argument("devices", nargs="*", metavar="DEVICE")
    ap.add_argument("--dir", default=os.path.join(ROOT, "build", "synth"))
    ap.add_argument("--markdown", action="store_true", help="print the docs' table")
    a = ap.parse_args(argv)
    vs = [v for v in designs.variants() if v.device != designs.NO_DEVICE]
    known = {v.device for v in vs}
    bad = [n for n in a.devices if n not in known]
    if bad:
        ap.error(f"unknown device {', '.join(bad)} (devices: {', '.join(sorted(known))})")
    rows = []
    for v in vs:
        if a.devices and v.device not in a.devices:
            continue
        if not os.path.exists(os.path.join(a.dir, v.device + ".v")):
            print(f"report.py: {a.dir}/{v.device}.v missing (make synth)", file=sys.stderr)
            return 1
        rows.append(one(v, a.dir))
    with open(os.path.join(a.dir, "report.json"), "w", encoding="utf-8") as f:
        json.dump(rows, f, indent=1)
        f.write("\n")
    if a.markdown:
        print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
