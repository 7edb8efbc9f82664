#!/usr/bin/env python3
"""make formal-mutants: every RTL mutant of tests/mutants.py through the proofs (formal/README.md).

For each mutant whose model is the RTL it makes the mutated copy of rtl/ (tests/mutants.py's own
edit), runs the prove tasks of the design forms that read the mutated file (formal/run.py --rtl
COPY --task prf --form F), and records which properties fail: from reset (a trace), or in a
block-alone proof (formal/run.py's narrower tasks, every input free). The table goes to
build/formal/mutants.md and to the standard output; whether the vectors kill the mutant is
make mutants' verdict (its suite requires every mutant killed).

usage: formal/mutants.py [--only NAME ...] [--timeout S] [--out DIR]
Bad arguments exit 2. Exit 0 when the table is written (a mutant formal misses is a row, not an
error).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import mutants  # noqa: E402  (tests/mutants.py: the mutants and their one-place edits)

# Which design forms (formal/FORM.sby) read each RTL file.
FORMS_OF = {"rn1.v": ["rn1"], "rn1_fport.v": ["rn1"], "sci_lc.v": ["lc3", "p2s"],
            "sci_cfg_reg.v": ["lc3", "p2s"], "sci_crc16.v": ["lc3", "p2s"],
            "sci_psb.v": ["node"], "sci_node.v": ["node"]}


def git_rev():
    p = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                       text=True)
    return p.stdout.strip() or "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 epilog="formal/README.md has the table of the last run.")
    ap.add_argument("--only", action="append", help="this mutant only (repeatable)")
    ap.add_argument("--timeout", type=int, default=120,
                    help="seconds per prove task (formal/run.py --timeout; default 120)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "formal-mut"),
                    help="work folder (default build/formal-mut)")
    a = ap.parse_args()
    names = [n for n, m in mutants.MUTANTS.items() if m[0] == "rtl"]
    for n in a.only or []:
        if n not in names:
            print(f"formal/mutants.py: {n!r} is not an RTL mutant of tests/mutants.py",
                  file=sys.stderr)
            sys.exit(2)
    names = a.only or names
    rows = []
    t_all = time.time()
    for i, name in enumerate(names, 1):
        fname = mutants.MUTANTS[name][1]
        forms = FORMS_OF.get(fname)
        if not forms:
            rows.append((name, "-", "no form reads " + fname))
            continue
        base = os.path.join(a.out, name)
        shutil.rmtree(base, ignore_errors=True)
        src = os.path.relpath(os.path.join(base, "src"), ROOT)
        rtl = mutants.mutate(name, src)
        if not rtl:
            sys.exit(2)
        verdict, how = "no", "every property held (proven or bounded) or the time ran out"
        t0 = time.time()
        for form in forms:
            out = os.path.join(base, "formal")
            cmd = [sys.executable, os.path.join(ROOT, "formal", "run.py"), "--rtl",
                   os.path.join(ROOT, rtl), "--form", form, "--task", "prf",
                   "--timeout", str(a.timeout), "--out", out]
            subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            rep = os.path.join(out, "report.json")
            if not os.path.exists(rep):
                verdict, how = "error", f"formal/run.py wrote no report ({form})"
                break
            entries = json.load(open(rep))
            dead = [e for e in entries if e["status"] == "failed" and "trace" in e]
            if dead:
                e = dead[0]
                frm = e.get("by", "prf")
                where = (f"in task {frm} (the block alone, inputs free)" if frm.startswith("prt")
                         else f"task {frm}, from reset, step {e['depth']}")
                if e.get("vector"):
                    where += f", vector `{os.path.basename(e['vector'])}`"
                verdict = "yes"
                how = f"`{e['name'].split('.')[-1]}` ({form}, {where})"
                break
        secs = time.time() - t0
        rows.append((name, verdict, how + f"; {secs:.0f} s"))
        print(f"formal-mutants: [{i}/{len(names)}] {name}: {verdict} {how}; {secs:.0f} s",
              flush=True)
    lines = [f"Formal against the RTL mutants ({time.strftime('%Y-%m-%d', time.gmtime())}, "
             f"revision {git_rev()}, --timeout {a.timeout}; {time.time() - t_all:.0f} s)", "",
             "| mutant | killed by formal | how | killed by vectors |", "|---|---|---|---|"]
    for name, verdict, how in rows:
        lines.append(f"| `{name}` | {verdict} | {how} | yes (make mutants) |")
    os.makedirs(os.path.join(ROOT, "build", "formal"), exist_ok=True)
    path = os.path.join(ROOT, "build", "formal", "mutants.md")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"formal-mutants: table {os.path.relpath(path, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
