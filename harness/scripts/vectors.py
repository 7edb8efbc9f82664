#!/usr/bin/env python3
"""make vectors: re-record the golden vectors, safely.

usage: vectors.py [--model csim|rtl] [--only FILE.vec]

Every golden vector is recorded into a scratch folder (build/vectors-new/) first: from each
spec vector's stimulus (`ftsim record`), and from fixed-seed fuzz runs (`ftsim fuzz ...
--record`). Only when every recording succeeded are the goldens replaced; on the first failure
the failing command and its output are printed and nothing in vectors/ changes. The run ends
with the list of goldens that changed and `git diff --stat`. Golden vectors record behaviour
for regression: review the diff, never edit them by hand.

--model rtl records from the RTL instead of the C model (after an RTL-only change; the two
must agree, which `make test` checks in lockstep). --only FILE re-records one golden: FILE is a
golden vector or the spec vector it comes from.
"""
import argparse
import filecmp
import glob
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FTSIM = os.path.join("build", "ftsim")
SCRATCH = os.path.join("build", "vectors-new")

# Fuzz traffic with fixed seeds: broad stimulus no hand-written vector has. (golden, arguments)
FUZZ = [(f"vectors/rn1/golden/fuzz-seed{s}.vec",
         ["--device", "rn1", "--seed", str(s), "--cycles", "1000"]) for s in (11, 12, 13)]
FUZZ += [
    # a small network with faults injected early
    ("vectors/rnpnet/golden/fuzz-rnpnet16-seed5.vec",
     ["--device", "rnpnet", "--endpoints", "16", "--faults", "3", "--seed", "5", "--cycles", "600",
      "--gap", "30"]),
    # one SCI controller under random stimulus
    ("vectors/lc3/golden/fuzz-lc3-seed5.vec", ["--device", "lc3", "--seed", "5", "--cycles", "3000"]),
    ("vectors/p2s/golden/fuzz-p2s-seed5.vec", ["--device", "p2s", "--seed", "5", "--cycles", "3000"]),
    # rings with a cable pulled and put back while the hosts exchange messages
    ("vectors/ring/golden/fuzz-ring4-seed5.vec",
     ["--device", "ring", "--nodes", "4", "--lc3", "--pull", "1", "--gap", "60", "--seed", "5",
      "--cycles", "3000"]),
    ("vectors/ring/golden/fuzz-p2sring3-seed6.vec",
     ["--device", "ring", "--nodes", "3", "--p2s", "--pull", "2", "--gap", "60", "--seed", "6",
      "--cycles", "3000"]),
]


def jobs(model):
    """(golden path, command) for every golden vector."""
    out = []
    for spec in sorted(glob.glob(os.path.join("vectors", "*", "spec", "*.vec"))):
        dev = spec.split(os.sep)[1]
        gold = os.path.join("vectors", dev, "golden", os.path.basename(spec))
        out.append((gold, spec, lambda dst, spec=spec: [FTSIM, "record", spec, "-o", dst,
                                                         "--model", model]))
    for gold, args in FUZZ:
        out.append((gold, None, lambda dst, args=args: [FTSIM, "fuzz", *args, "--model", model,
                                                         "--quiet", "--record", dst]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", choices=("csim", "rtl"), default="csim")
    ap.add_argument("--only", metavar="FILE.vec")
    a = ap.parse_args()
    os.chdir(ROOT)
    todo = jobs(a.model)
    if a.only:
        want = os.path.normpath(os.path.relpath(os.path.abspath(a.only), ROOT))
        todo = [j for j in todo if want in (os.path.normpath(j[0]), j[1] and os.path.normpath(j[1]))]
        if not todo:
            print(f"make vectors: {a.only} is neither a golden vector nor a spec vector "
                  "that has one", file=sys.stderr)
            return 2
    # The recordings run inside the scratch folder, which mirrors vectors/ (spec/ folders linked,
    # golden/ folders empty), so every path a recording writes into its header is the one it
    # has in the tree.
    shutil.rmtree(SCRATCH, ignore_errors=True)
    for spec in glob.glob(os.path.join("vectors", "*", "spec")):
        os.makedirs(os.path.join(SCRATCH, os.path.dirname(spec), "golden"), exist_ok=True)
        os.symlink(os.path.abspath(spec), os.path.join(SCRATCH, spec))
    for gold, _, cmd in todo:
        dst = os.path.join(SCRATCH, gold)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        argv = cmd(gold)
        argv[0] = os.path.abspath(argv[0])
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, cwd=SCRATCH)
        if p.returncode != 0 or not os.path.exists(dst):
            print(f"make vectors: recording {gold} failed (exit {p.returncode}); no golden "
                  "vector was changed.\ncommand: " + " ".join(argv) + "\noutput:", file=sys.stderr)
            sys.stderr.write(p.stdout.decode("utf-8", "replace")[-4000:])
            return 1
    changed = []
    for gold, _, _ in todo:
        new = os.path.join(SCRATCH, gold)
        if not os.path.exists(gold) or not filecmp.cmp(new, gold, shallow=False):
            changed.append(("added" if not os.path.exists(gold) else "changed", gold))
            shutil.copyfile(new, gold)
    if not a.only:  # goldens whose source is gone
        made = {os.path.normpath(g) for g, _, _ in todo}
        for gold in sorted(glob.glob(os.path.join("vectors", "*", "golden", "*.vec"))):
            if os.path.normpath(gold) not in made:
                changed.append(("removed", gold))
                os.remove(gold)
    print(f"make vectors: {len(todo)} golden vectors recorded from the {a.model} model, "
          f"{len(changed)} changed")
    for what, gold in changed:
        print(f"  {what:8} {gold}")
    if changed and os.path.exists(".git"):
        subprocess.run(["git", "diff", "--stat", "--", "vectors"])
    if changed:
        print("review the diff (git diff vectors/) before committing: goldens are never the oracle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
