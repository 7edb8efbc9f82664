#!/usr/bin/env python3
"""The RTL lint, defined once: `make lint` runs every check, the lint suite of tests/run.py
runs each check as a test of its own.

Every variant of every design of rtl/files.txt (its top module, its parameters) goes through
  verilator  verilator --lint-only -Wall: exit 0 and nothing printed
  iverilog   iverilog -g2012 -Wall: exit 0 and nothing printed (a warning fails)
A check is named KIND:VARIANT (e.g. verilator:lc3n2).

usage: lint.py [--rtl DIR] [--build DIR] [CHECK ...]   the checks given, or all; exit 1 when one fails
       lint.py [--rtl DIR] --list                       the checks, one a line, with what each runs
"""
import os
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import designs  # noqa: E402

ROOT = designs.ROOT
KINDS = ("verilator", "iverilog")


def command(kind, v, rtl, build):
    """The command of one check (run from the root)."""
    d = v.design
    if kind == "verilator":
        return ["verilator", "--lint-only", "-Wall", f"-I{rtl}", "--top-module", d.top,
                *v.vparams(), *d.paths(rtl)]
    return ["iverilog", "-g2012", "-Wall", f"-I{rtl}", "-s", d.top, *v.iparams(),
            "-o", os.path.join(build, f"iverilog-{v.name}.vvp"), *d.paths(rtl, ".v")]


def checks(rtl="rtl", build="build"):
    """{name: command} for every check, in the manifest's order, verilator's first."""
    vs = designs.variants(designs.load(rtl if os.path.isabs(rtl) else os.path.join(ROOT, rtl)))
    return {f"{k}:{v.name}": command(k, v, rtl, build) for k in KINDS for v in vs}


def run(cmd):
    """'' when the check passes, else why not (with its output)."""
    try:
        p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL)
    except OSError as e:
        return f"cannot run {cmd[0]}: {e.strerror}"
    out = p.stdout.decode("utf-8", "replace").strip()
    if p.returncode != 0:
        return f"exit status {p.returncode}" + (f":\n{out}" if out else "")
    if out:
        return f"exit 0 but it printed:\n{out}"
    return ""


def main(argv):
    args, rtl, build = list(argv), "rtl", "build"
    while args[:1] in (["--rtl"], ["--build"]):
        if len(args) < 2:
            print(f"lint.py: {args[0]} takes a folder", file=sys.stderr)
            return 2
        if args[0] == "--rtl":
            rtl = args[1]
        else:
            build = args[1]
        args = args[2:]
    if args[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    try:
        all_checks = checks(rtl, build)
    except designs.ManifestError as e:
        print(e, file=sys.stderr)
        return 2
    if args == ["--list"]:
        for name, cmd in all_checks.items():
            print(f"{name:<18} {shlex.join(cmd)}")
        return 0
    bad = [a for a in args if a not in all_checks]
    if bad:
        print(f"lint.py: no check {bad[0]!r} (lint.py --list)", file=sys.stderr)
        return 2
    os.makedirs(os.path.join(ROOT, build), exist_ok=True)
    failed = 0
    for name in args or all_checks:
        why = run(all_checks[name])
        if why:
            failed += 1
            print(f"FAIL {name}: {shlex.join(all_checks[name])}")
            for line in why.splitlines():
                print(f"     {line}")
        else:
            print(f"ok   {name}")
    n = len(args or all_checks)
    print(f"lint: {n - failed} of {n} checks clean" if failed else f"lint: clean ({n} checks)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
