#!/usr/bin/env python3
"""make coverage: the regression played on the coverage build, its counts merged and reported.

The coverage build (build/cov/ftsim, `make COVERAGE=1`) has every Verilated model built with
Verilator's --coverage (line, toggle and the RTL's FT_COVER points) and the C models with gcov.
This script plays the regression on it (tests/run.py's suites: the C models' unit tests, every
spec and golden vector, the fixed-seed fuzz runs), each process writing its RTL counts into
build/coverage/dat/; merges them with verilator_coverage; writes an lcov file and an HTML report
(genhtml) for the RTL and for the C models; and prints a table per module and every RTL point
the regression did not reach.

The regression is tests/run.py's own tests, commands and checks, with one change: the fuzz
runs (same seeds) run a third of their cycles by default (--cycles-div), because a coverage
model runs 8 to 13 times slower and the whole runs were measured to reach no line, branch or
cover point more (README.md, "Coverage"). --cycles-div 1 plays them whole.

usage: coverage.py [--jobs J] [--suites a,b] [--cycles-div N] [--report-only]
"""
import concurrent.futures as cf
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import time
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join("build", "cov")
OUT = os.path.join("build", "coverage")
# The regression: tests/run.py's suites that play the models (the unit tests for the C models).
SUITES = "csim-unit,spec-vectors,golden-vectors,upset,fuzz,net-fuzz,sci-fuzz"
FUZZ_SUITES = ("fuzz", "net-fuzz", "sci-fuzz")
CYCLES_DIV = 3
# The RTL's own files; anything else in the counts (the harness observer) is listed apart.
RTL_DIR = "rtl"


def sh(cmd, **kw):
    p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kw)
    if p.returncode != 0:
        out = p.stdout.decode(errors="replace")
        sys.exit(f"coverage: {' '.join(cmd[:3])} ... failed (exit {p.returncode}):\n{out[-3000:]}")
    return p.stdout.decode(errors="replace")


def regression_tests(suites, div):
    """tests/run.py's tests of those suites, run on the coverage build; the fuzz runs' --cycles
    divided by div."""
    os.environ["FTSIM"] = os.path.join(BUILD, "ftsim")  # read by run.py when it is imported
    os.environ["UNITS"] = os.path.join(BUILD, "tests")
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import run
    tests = []
    for name in suites.split(","):
        if name not in run.SUITES:
            sys.exit(f"coverage: unknown suite {name!r} (tests/run.py --help lists them)")
        for t in run.SUITES[name]():
            if name in FUZZ_SUITES and div > 1 and "--cycles" in t.cmd:
                i = t.cmd.index("--cycles") + 1
                t.cmd[i] = str(max(1000, int(t.cmd[i]) // div))
                t.name += f" [coverage: --cycles {t.cmd[i]}]"
            tests.append(t)
    return run, tests


def run_regression(jobs, suites, div):
    dat = os.path.join(ROOT, OUT, "dat")
    shutil.rmtree(dat, ignore_errors=True)
    os.makedirs(dat)
    for g in glob.glob(os.path.join(ROOT, BUILD, "**", "*.gcda"), recursive=True):
        os.remove(g)
    os.environ["FTSIM_COVERAGE_DIR"] = dat  # every ftsim the tests start writes its counts there
    run, tests = regression_tests(suites, div)
    print(f"coverage: {len(tests)} tests of {suites} on {BUILD}/ftsim"
          + (f", fuzz cycles / {div}" if div > 1 else "") + f" (counts in {OUT}/dat/)")
    sys.stdout.flush()
    t0 = time.monotonic()
    failed = 0
    per_suite = defaultdict(lambda: [0, 0, 0.0])
    with cf.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        # the long ones first, as tests/run.py does
        order = sorted(tests, key=lambda t: t.suite not in FUZZ_SUITES)
        for t in pool.map(run.run_one, order):
            s = per_suite[t.suite]
            s[0 if t.ok else 1] += 1
            s[2] += t.secs
            if not t.ok:
                failed += 1
                print(f"FAIL {t.suite}: {t.name}\n     command: {' '.join(t.cmd)}\n     why: {t.why}")
                for line in t.out.strip().splitlines()[-12:]:
                    print(f"     | {line}")
                sys.stdout.flush()
    for name, (ok, bad, secs) in per_suite.items():
        print(f"  {name:<16}{ok:>5} passed{bad:>4} failed{secs:>8.0f} cpu s")
    print(f"coverage: regression {time.monotonic() - t0:.0f} s on {jobs} jobs; "
          f"{len(tests) - failed} passed, {failed} failed")
    return 1 if failed else 0


# ---- the RTL: Verilator's coverage file -------------------------------------------------------

def read_dat(path):
    """Points of a verilator_coverage file: dicts of their keys, with 'count'."""
    points = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"C '(.*)' (\d+)$", line.rstrip("\n"))
            if not m:
                continue
            keys = dict(kv.split("\x02", 1) for kv in m.group(1).split("\x01") if "\x02" in kv)
            keys["count"] = int(m.group(2))
            points.append(keys)
    return points


def kind_of(p):
    """line (a block), branch (an arm of an if or case), toggle, or user (an FT_COVER point)."""
    page = p.get("page", "")
    return page.split("/", 1)[0].replace("v_", "")


def module_of(p):
    """The module a point is in: its file's name (one module per file, named after it)."""
    return os.path.splitext(os.path.basename(p.get("f", "?")))[0]


def normalize(points):
    """One point per place in the source: Verilator keys a point by the instance's hierarchy
    and the module by its parameter set (rn1_fport__P3, sci_lc__P1), and verilator_coverage
    merges only equal keys; a module's point counts here with the hits of every instance,
    every parameter set and every run."""
    agg = {}
    for p in points:
        key = (p.get("f", "?"), int(p.get("l", 0)), int(p.get("n", 0)), kind_of(p), p.get("o", ""))
        if key in agg:
            agg[key]["count"] += p["count"]
        else:
            q = {k: p[k] for k in ("f", "l", "n", "o", "S") if k in p}
            q["page"] = f"v_{key[3]}/{module_of(p)}"
            q["h"] = module_of(p)
            q["count"] = p["count"]
            agg[key] = q
    return [agg[k] for k in sorted(agg)]


def write_dat(points, path):
    with open(path, "w", encoding="utf-8") as f:
        f.write("# SystemC::Coverage-3\n")
        for p in points:
            keys = "".join(f"\x01{k}\x02{p[k]}" for k in ("f", "l", "n", "page", "o", "S", "h")
                           if k in p)
            f.write(f"C '{keys}' {p['count']}\n")


def pct(hit, total):
    return f"{hit}/{total} ({100.0 * hit / total:.1f} %)" if total else "-"


def rtl_report(points):
    by = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    files = {}
    for p in points:
        mod, kind = module_of(p), kind_of(p)
        by[mod][kind][1] += 1
        by[mod][kind][0] += p["count"] > 0
        files.setdefault(mod, p.get("f", "?"))
    rtl = sorted(m for m in by if files[m].startswith(RTL_DIR + "/"))
    other = sorted(m for m in by if m not in rtl)
    rows = [("module", "lines (blocks)", "branches", "toggles (bits)", "cover points")]
    for m in rtl + other:
        rows.append((m, pct(*by[m]["line"]), pct(*by[m]["branch"]), pct(*by[m]["toggle"]),
                     pct(*by[m]["user"])))
    return rows, rtl, other


def table(rows):
    w = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = ["| " + " | ".join(c.ljust(w[i]) for i, c in enumerate(rows[0])) + " |",
           "|" + "|".join("-" * (x + 2) for x in w) + "|"]
    out += ["| " + " | ".join(c.ljust(w[i]) for i, c in enumerate(r)) + " |" for r in rows[1:]]
    return "\n".join(out)


def holes(points, rtl_modules):
    """Every line and cover point the regression did not reach, by file and line."""
    out = []
    for p in sorted(points, key=lambda p: (p.get("f", ""), int(p.get("l", 0)), p.get("o", ""))):
        if p["count"] or module_of(p) not in rtl_modules or kind_of(p) == "toggle":
            continue
        out.append(f"{p.get('f')}:{p.get('l')}: {kind_of(p)} {p.get('o', '')}")
    return out


def toggle_holes(points, rtl_modules):
    out = []
    for p in sorted(points, key=lambda p: (p.get("f", ""), int(p.get("l", 0)), p.get("o", ""))):
        if p["count"] or module_of(p) not in rtl_modules or kind_of(p) != "toggle":
            continue
        out.append(f"{p.get('f')}:{p.get('l')}: {module_of(p)}.{p.get('o', '')}")
    return out


# ---- the C models: gcov through lcov -----------------------------------------------------------

def c_report(info):
    """Per source file of an lcov file: lines, branches and functions hit / found, and the
    lines and branches not reached."""
    rows = [("file", "lines", "branches", "functions")]
    stats = defaultdict(lambda: {"DA": {}, "BRDA": {}, "FN": {}})
    missed = []
    cur = None
    with open(info, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("SF:"):
                cur = stats[os.path.relpath(line[3:], ROOT)]
                name = os.path.relpath(line[3:], ROOT)
            elif line.startswith("DA:"):
                ln, n = line[3:].split(",")[:2]
                cur["DA"][int(ln)] = cur["DA"].get(int(ln), 0) + int(n)
            elif line.startswith("BRDA:"):
                ln, blk, br, n = line[5:].split(",")
                k = (int(ln), blk, br)
                cur["BRDA"][k] = cur["BRDA"].get(k, 0) + (0 if n == "-" else int(n))
            elif line.startswith("FNDA:"):
                n, fn = line[5:].split(",", 1)
                cur["FN"][fn] = cur["FN"].get(fn, 0) + int(n)
    for name in sorted(stats):
        s = stats[name]
        if not s["DA"]:
            continue  # a header whose code is all inlined elsewhere
        hit = lambda d: sum(1 for v in d.values() if v)
        rows.append((name, pct(hit(s["DA"]), len(s["DA"])), pct(hit(s["BRDA"]), len(s["BRDA"])),
                     pct(hit(s["FN"]), len(s["FN"]))))
        missed += [f"{name}:{ln}: line" for ln, v in sorted(s["DA"].items()) if not v]
        missed += [f"{name}:{k[0]}: branch {k[1]}.{k[2]}" for k, v in sorted(s["BRDA"].items())
                   if not v]
    return rows, missed


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--suites", default=SUITES,
                    help=f"tests/run.py suites to play (default {SUITES})")
    ap.add_argument("--cycles-div", type=int, default=CYCLES_DIV, metavar="N",
                    help=f"run the fuzz tests for 1/N of their cycles (default {CYCLES_DIV}; 1: whole)")
    ap.add_argument("--report-only", action="store_true",
                    help="report the counts of the last run again, without running")
    args = ap.parse_args()
    os.makedirs(os.path.join(ROOT, OUT), exist_ok=True)
    started = time.monotonic()
    status = 0
    if not args.report_only:
        status = run_regression(args.jobs, args.suites, args.cycles_div)
    dats = sorted(glob.glob(os.path.join(ROOT, OUT, "dat", "*.dat")))
    if not dats:
        sys.exit(f"coverage: no counts in {OUT}/dat/ (run without --report-only)")

    # RTL: merge, one point per source place, lcov file, annotated sources, HTML.
    raw = os.path.join(OUT, "merged.dat")
    merged = os.path.join(OUT, "rtl.dat")
    sh(["verilator_coverage", "--write", raw, *[os.path.relpath(d, ROOT) for d in dats]])
    points = normalize(read_dat(os.path.join(ROOT, raw)))
    write_dat(points, os.path.join(ROOT, merged))
    sh(["verilator_coverage", "--write-info", os.path.join(OUT, "rtl.info"), merged])
    shutil.rmtree(os.path.join(ROOT, OUT, "annotated"), ignore_errors=True)
    sh(["verilator_coverage", "--annotate", os.path.join(OUT, "annotated"), "--annotate-all",
        "--annotate-min", "1", merged])
    shutil.rmtree(os.path.join(ROOT, OUT, "html"), ignore_errors=True)
    sh(["genhtml", "--quiet", "--output-directory", os.path.join(OUT, "html", "rtl"),
        "--title", "ftsim RTL", os.path.join(OUT, "rtl.info")])

    # C models: gcov counts of the build's csim objects.
    cinfo = os.path.join(OUT, "csim.info")
    sh(["lcov", "--quiet", "--capture", "--rc", "lcov_branch_coverage=1", "--directory",
        os.path.join(BUILD, "obj", "csim"), "--base-directory", ".", "--output-file", cinfo])
    sh(["genhtml", "--quiet", "--branch-coverage", "--output-directory",
        os.path.join(OUT, "html", "csim"), "--title", "ftsim C models", cinfo])

    rows, rtl, other = rtl_report(points)
    h = holes(points, rtl)
    th = toggle_holes(points, rtl)
    with open(os.path.join(ROOT, OUT, "holes.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(h + th) + "\n")
    print()
    print(f"RTL coverage ({len(dats)} count files merged; a point is covered when hit once):")
    print(table(rows))
    if other:
        print(f"({', '.join(other)}: the harness's own observer, not a design)")
    print()
    crows, cmissed = c_report(os.path.join(ROOT, cinfo))
    with open(os.path.join(ROOT, OUT, "csim-holes.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(cmissed) + "\n")
    print("C models (gcov):")
    print(table(crows))
    print(f"(lines and branches not reached: {OUT}/csim-holes.txt)")
    print()
    print(f"RTL lines and cover points not reached ({len(h)}; toggles: {len(th)}, "
          f"all in {OUT}/holes.txt):")
    for line in h:
        print(f"  {line}")
    print()
    print(f"HTML: {OUT}/html/rtl/index.html, {OUT}/html/csim/index.html; annotated RTL: "
          f"{OUT}/annotated/; lcov files: {OUT}/rtl.info, {OUT}/csim.info")
    print(f"coverage: {time.monotonic() - started:.0f} s in all")
    if status:
        print("coverage: some tests FAILED on the coverage build (above): the figures are of a "
              "failing regression")
    return 1 if status else 0


if __name__ == "__main__":
    sys.exit(main())
