#!/usr/bin/env python3
"""ftsim test runner: runs every suite, timed per suite, on --jobs workers.

Each test is one command with a check of its exit status and output. A failing test prints
its command and the tail of its output; a failing vector is re-played with a waveform and
the runner names the FST to open. The last line is `N passed, N failed`; the exit status is
non-zero when anything failed.
"""
import argparse
import concurrent.futures as cf
import fnmatch
import glob
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "harness", "scripts"))
import layouts  # noqa: E402  (the one table of waveform layouts)
import designs  # noqa: E402  (the RTL designs: rtl/files.txt)
import lint  # noqa: E402  (the RTL lint's checks)
# The binary under test and the unit tests' folder (make test SAN=1 points both at build/san/).
FTSIM = os.environ.get("FTSIM", os.path.join("build", "ftsim"))
UNITS = os.environ.get("UNITS", os.path.join("build", "tests"))
# The SystemC harness (harness/sc/): the same vectors under the SystemC kernel.
FTSIM_SC = os.environ.get("FTSIM_SC", os.path.join("build", "ftsim-sc"))
# The designs ftsim-sc plays (rtl/files.txt: systemc yes), by vector folder and by device.
SC_VECTOR_DIRS = designs.vector_dirs(systemc=True)
SC_DEVICES = designs.devices(systemc=True)

# Fuzz in `make test`: fixed seeds, at least 2 million lockstep cycles in all.
FUZZ_SEEDS = [1, 2, 3, 4, 5, 6, 7, 8]
FUZZ_CYCLES = 500_000


class Test:
    def __init__(self, suite, name, cmd, check=None, timeout=600, wave_vec=None):
        self.suite, self.name, self.cmd = suite, name, cmd
        self.check = check or exit_is(0)
        self.timeout = timeout
        self.wave_vec = wave_vec  # a vector to re-play with a waveform on failure
        self.vec = None           # the vector this test plays (make test VEC=...)
        self.ok, self.secs, self.out, self.why, self.extra = False, 0.0, "", "", ""


def exit_is(code, *needles):
    def check(rc, out):
        if rc != code:
            return f"exit status {rc}, expected {code}"
        for n in needles:
            if n not in out:
                return f"output lacks {n!r}"
        return ""
    return check


def counts_line(rc, out):
    """A program that reports its own `N passed, N failed` line."""
    m = re.search(r"^(\d+) passed, (\d+) failed$", out, re.M)
    if not m:
        return "no 'N passed, N failed' line"
    if rc != 0 or int(m.group(2)) != 0:
        return f"exit status {rc}, {m.group(0)}"
    return ""


def run_one(t):
    start = time.monotonic()
    try:
        p = subprocess.run(t.cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=t.timeout, stdin=subprocess.DEVNULL)
        t.out = p.stdout.decode("utf-8", "replace")
        t.why = t.check(p.returncode, t.out)
    except subprocess.TimeoutExpired:
        t.why = f"timed out after {t.timeout} s"
    except OSError as e:
        t.why = f"cannot run: {e}"
    t.ok = not t.why
    if not t.ok and t.wave_vec:
        fst = layouts.fst_for(os.path.join(ROOT, t.wave_vec))
        os.makedirs(os.path.join(ROOT, os.path.dirname(fst)), exist_ok=True)
        subprocess.run([FTSIM, "play", t.wave_vec, "--wave", fst], cwd=ROOT,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        layout, note = layouts.layout_for(layouts.device_of(os.path.join(ROOT, t.wave_vec)) or "")
        t.extra = (f"waveform: {fst}  (make wave V={t.wave_vec} opens it"
                   + (f"; or gtkwave -a {layout} {fst})" if layout else f"; {note})"))
    t.secs = time.monotonic() - start
    return t


# ---- the suites ------------------------------------------------------------------------------

def suite_lint():
    """Every check of harness/scripts/lint.py (make lint runs them all): each variant of each
    design of rtl/files.txt through verilator --lint-only -Wall and iverilog -g2012 -Wall, silent."""
    t = []
    for name, cmd in lint.checks().items():
        top = cmd[cmd.index("--top-module" if cmd[0] == "verilator" else "-s") + 1]
        params = " ".join(a for a in cmd if a.startswith(("-G", "-P")))
        t.append(Test("lint", f"{name}: {' '.join(cmd[:3])} {top} {params}".rstrip(),
                      [sys.executable, "harness/scripts/lint.py", name], exit_is(0, f"ok   {name}")))
    return t


def suite_csim():
    """Every unit test the Makefile builds (tests/<area>/test_*.c -> build/tests/<area>/)."""
    tests = []
    for src in sorted(glob.glob(os.path.join(ROOT, "tests", "*", "test_*.c"))):
        rel = os.path.relpath(src, ROOT)[:-2]
        with open(src, encoding="utf-8") as f:
            head = f.read(400)
        m = re.search(r"^ \* ?(?:test_\w+\.c)?\s*[-—:]+\s*(.+)$", head, re.M)
        what = f" ({m.group(1).strip().rstrip('.')})" if m else ""
        tests.append(Test("csim-unit", f"{rel}{what}", [os.path.join(UNITS, os.path.relpath(rel, "tests"))],
                          counts_line))
    return tests


def suite_vectors(kind, models):
    tests = []
    for vec in sorted(glob.glob(os.path.join(ROOT, "vectors", "*", kind, "*.vec"))):
        rel = os.path.relpath(vec, ROOT)
        for m in models:
            tests.append(Test(f"{kind}-vectors", f"{rel} [{m}]",
                              [FTSIM, "play", rel, "--model", m], exit_is(0, f"PASS {rel}"),
                              wave_vec=rel if m != "csim" else None))
            tests[-1].vec = rel
    return tests


def suite_sc():
    """The SystemC harness: every spec and golden vector of the single-device designs in the three
    modes under ftsim-sc; a broken expectation fails there too; the
    committed layouts against its FST; the TLM register check."""
    tests = []
    for kind, models in (("spec", ["both", "rtl", "csim"]), ("golden", ["both", "rtl", "csim"])):
        for d in SC_VECTOR_DIRS:
            for vec in sorted(glob.glob(os.path.join(ROOT, "vectors", d, kind, "*.vec"))):
                rel = os.path.relpath(vec, ROOT)
                for m in models:
                    tests.append(Test("sc", f"ftsim-sc {rel} [{m}]",
                                      [FTSIM_SC, "play", rel, "--model", m],
                                      exit_is(0, f"PASS {rel}")))
                    tests[-1].vec = rel
    # RN1 in a 16-endpoint RNP network: the C harness's composition of SystemC RN1 units.
    for vec in sorted(glob.glob(os.path.join(ROOT, "vectors", "rnpnet", "*", "*.vec"))):
        rel = os.path.relpath(vec, ROOT)
        with open(vec, encoding="utf-8") as f:
            if not re.search(r"^device rnpnet16\b", f.read(), re.M):
                continue
        for m in ("both", "rtl", "csim"):
            tests.append(Test("sc", f"ftsim-sc {rel} [{m}] (SystemC RN1s in a 16-endpoint network)",
                              [FTSIM_SC, "play", rel, "--model", m], exit_is(0, f"PASS {rel}")))
            tests[-1].vec = rel
    # Upsets: an RTL-only element on the RTL alone, refused by the C model as ftsim refuses it;
    # an upset moved to another bit or entry fails, in every mode.
    tests.append(Test("sc", "ftsim-sc tests/upset/lc3node_rtl_only.vec [rtl] (an RTL-only upset)",
                      [FTSIM_SC, "play", "tests/upset/lc3node_rtl_only.vec", "--model", "rtl"],
                      exit_is(0, "PASS tests/upset/lc3node_rtl_only.vec")))
    tests.append(Test("sc", "ftsim-sc tests/upset/lc3node_rtl_only.vec [csim] -> 2 (the C model keeps "
                      "no such state)", [FTSIM_SC, "play", "tests/upset/lc3node_rtl_only.vec", "--model",
                                         "csim"], exit_is(2, "the C model keeps no psb.sf.count")))
    for vec in UPSET_WRONG:
        for m in ("both", "rtl", "csim"):
            tests.append(Test("sc", f"ftsim-sc {vec} [{m}]: an upset moved fails",
                              [FTSIM_SC, "play", vec, "--model", m], exit_is(1, f"FAIL {vec}")))
    # A vector made to fail: one expectation of the showcase changed (the value seen is named).
    for m in ("both", "rtl", "csim"):
        bad = f"build/sc-broken-showcase-{m}.vec"
        seen = "rtl and csim saw" if m == "both" else f"{m} saw"
        tests.append(Test("sc", f"ftsim-sc: a broken expectation fails [{m}]",
                          ["bash", "-c", "mkdir -p build && sed '0,/-> ROUTE:/s/-> ROUTE:[0-9a-fA-F]*/-> "
                           f"ROUTE:7f/' vectors/rn1/spec/showcase.vec > {bad} && "
                           f"! cmp -s {bad} vectors/rn1/spec/showcase.vec && "
                           f"{FTSIM_SC} play {bad} --model {m}"],
                          exit_is(1, "expected ROUTE:7F", seen, f"FAIL {bad}")))
    for layout, vec in (("waves/rn1.gtkw", "vectors/rn1/spec/showcase.vec"),
                        ("waves/lc3.gtkw", "vectors/lc3/spec/bout_port.vec"),
                        ("waves/lc3node.gtkw", "vectors/node/spec/lc_disabled.vec"),
                        ("waves/lc3node2.gtkw", "vectors/node/spec/blink_x_before_y.vec")):
        f = f"build/waves/test-sc-{os.path.basename(layout)[:-5]}.fst"
        tests.append(Test("sc", f"{layout} against an FST from ftsim-sc play --wave",
                          ["bash", "-c", f"mkdir -p build/waves && {FTSIM_SC} play {vec} --wave {f} "
                           f">/dev/null && python3 tests/check_gtkw.py {layout} {f}"],
                          exit_is(0, "0 missing")))
    # The SystemC model's FST holds the values of the C harness's, at the same times.
    for vec, scope, extra in (("vectors/rn1/spec/showcase.vec", "TOP.rn1", ""),
                              ("vectors/rn1/spec/showcase.vec", "TOP.rn1", " --wave-from 5 --wave-to 12"),
                              ("vectors/lc3/spec/bout_port.vec", "TOP.sci_lc", ""),
                              ("vectors/node/spec/blink_x_before_y.vec", "TOP.sci_node", "")):
        tag = f"test-same-{scope.split('.')[1]}{'-win' if extra else ''}"
        tests.append(Test("sc", f"ftsim-sc and ftsim FSTs of {vec}{extra}: every {scope} signal the same",
                          ["bash", "-c", f"mkdir -p build/waves && {FTSIM} play {vec} --wave build/waves/{tag}-c.fst{extra} "
                           f">/dev/null && {FTSIM_SC} play {vec} --wave build/waves/{tag}-sc.fst{extra} >/dev/null && "
                           f"python3 tests/fst_same.py build/waves/{tag}-c.fst build/waves/{tag}-sc.fst {scope}"],
                          exit_is(0, " 0 differ")))
    for d in SC_DEVICES:
        tests.append(Test("sc", f"ftsim-sc regs --device {d}: every register through the TLM socket "
                          "against the C harness's register port", [FTSIM_SC, "regs", "--device", d],
                          exit_is(0, " 0 differ", f"PASS regs {d}")))
    for args in (["--nodes", "4", "--model", "rtl"], ["--nodes", "8", "--model", "csim", "--pull", "5"],
                 ["--nodes", "3", "--model", "rtl", "--pull", "0"]):
        tests.append(Test("sc", f"ftsim-sc platform {' '.join(args)}: TLM configuration, ring traffic, "
                          "a pulled cable reported as the C harness's ring reports it",
                          [FTSIM_SC, "platform", *args], exit_is(0, "PASS platform")))
    for args in ([], ["--model", "csim", "--messages", "16", "--seed", "3"]):
        tests.append(Test("sc", f"ftsim-sc {' '.join(['rnpnet', *args])}: RN1 in a 16-endpoint network of SC "
                          "modules, configured over TLM, every message delivered as on the C harness's rnpnet16",
                          [FTSIM_SC, "rnpnet", *args],
                          exit_is(0, "the same messages at the same cycles", "PASS rnpnet")))
    tests.append(Test("sc", "ftsim-sc rnpnet --wave: one FST of the eight RTL routers",
                      ["bash", "-c", f"set -o pipefail; mkdir -p build/waves && {FTSIM_SC} rnpnet --wave "
                       "build/waves/sc-rnpnet16.fst > build/waves/sc-rnpnet16.txt && grep 'PASS rnpnet' "
                       "build/waves/sc-rnpnet16.txt && n=$(fst2vcd build/waves/sc-rnpnet16.fst | grep -c "
                       "'scope module net.r[0-7] ') && echo \"$n router scopes\" && [ \"$n\" = 8 ]"],
                      exit_is(0, "8 router scopes")))
    tests.append(Test("sc", "ftsim-sc: bad arguments give exit 2",
                      ["bash", "-c", f"set -o pipefail; {FTSIM_SC} play --model x vectors/rn1/spec/showcase.vec; "
                       f"[ $? = 2 ] && {FTSIM_SC} play; [ $? = 2 ] && {FTSIM_SC} play "
                       "vectors/ring/spec/$(ls vectors/ring/spec | grep vec$ | head -1); [ $? = 2 ] && "
                       f"{FTSIM_SC} play --help | grep usage && {FTSIM_SC} regs --help | grep usage && "
                       f"{FTSIM_SC} platform --help | grep usage && {FTSIM_SC} bench --help | grep usage && "
                       f"{FTSIM_SC} --help | grep usage; [ $? = 0 ] && {FTSIM_SC} nosuch; [ $? = 2 ] && "
                       f"{FTSIM_SC} regs --device ring4; [ $? = 2 ] && {FTSIM_SC} platform --nodes 1; [ $? = 2 ] && "
                       f"{FTSIM_SC} rnpnet --help | grep usage && {FTSIM_SC} rnpnet --model both; [ $? = 2 ] && "
                       f"{FTSIM_SC} rnpnet --model csim --wave x.fst; [ $? = 2 ] && {FTSIM_SC} rnpnet --messages 0; [ $? = 2 ]"],
                      exit_is(0)))
    return tests


def suite_golden_fresh():
    """The fuzz generators are deterministic: re-recording a fuzz golden vector gives the
    committed file byte for byte (the PRNG is the same on every machine). The command is the
    one its header names, or else the one `make vectors` records it with
    (harness/scripts/vectors.py); a fuzz golden with neither fails. Each records in a scratch
    copy of the tree's layout, so that the paths a recording writes into its header are the
    tree's."""
    import vectors as make_vectors  # harness/scripts/vectors.py: how make vectors records each
    recorded_by = {os.path.normpath(g): args for g, args in make_vectors.FUZZ}
    ftsim = os.path.join(ROOT, FTSIM)
    tests = []
    for vec in sorted(glob.glob(os.path.join(ROOT, "vectors", "*", "golden", "fuzz-*.vec"))):
        rel = os.path.relpath(vec, ROOT)
        with open(vec, encoding="utf-8") as f:
            head = f.readline()
        m = re.search(r"`ftsim fuzz ([^`]*?) --record`", head)
        if m:
            args, how = m.group(1), "its header's command"
        elif rel in recorded_by:
            args, how = " ".join(recorded_by[rel]), "make vectors' command (its header names none)"
        else:  # nothing to re-record it from: a test that fails, saying why
            tests.append(Test("golden-fresh", f"{rel} re-recorded",
                              ["sh", "-c", 'echo "$0:1: neither its header nor make vectors '
                               '(harness/scripts/vectors.py) names the command that records it"; '
                               "exit 1", rel], exit_is(0)))
            continue
        scratch = os.path.join("build", "fresh", os.path.basename(vec)[:-4])
        cmd = ["bash", "-c", f"rm -rf {scratch} && mkdir -p {scratch}/{os.path.dirname(rel)} && "
               f"cd {scratch} && {ftsim} fuzz {args} --model csim --quiet --record {rel} >/dev/null "
               f"&& cmp {rel} {ROOT}/{rel}"]
        tests.append(Test("golden-fresh", f"{rel} re-recorded by {how}", cmd, exit_is(0)))
    return tests


def suite_malformed():
    """Each case: file, the line the message must name, and a substring of the message."""
    tests = []
    spec = os.path.join(ROOT, "tests", "malformed", "cases.txt")
    with open(spec, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = [p.strip() for p in line.split("|")]
            if len(parts) != 3:
                raise SystemExit(f"{spec}:{n}: want 'file | line | message substring'")
            name, lineno, needle = parts
            rel = os.path.join("tests", "malformed", name)
            want = f"{rel}:{lineno}: " if lineno != "-" else rel
            tests.append(Test("malformed", f"{name} -> exit 2",
                              [FTSIM, "play", rel], exit_is(2, want, needle, f"FAIL {rel}")))
    return tests


def suite_cli():
    ok_vec = "tests/malformed/ok_crlf.vec"
    t = [
        Test("cli", "ftsim --help", [FTSIM, "--help"], exit_is(0, "usage: ftsim")),
        Test("cli", "ftsim (no command) -> 2", [FTSIM], exit_is(2, "usage")),
        Test("cli", "unknown command -> 2", [FTSIM, "frobnicate"], exit_is(2, "unknown command")),
        Test("cli", "play missing file -> 2", [FTSIM, "play", "nope.vec"],
             exit_is(2, "nope.vec: cannot open")),
        Test("cli", "play no file -> 2", [FTSIM, "play"], exit_is(2, "no vector file")),
        Test("cli", "play bad --model -> 2", [FTSIM, "play", ok_vec, "--model", "spice"],
             exit_is(2, "--model takes")),
        Test("cli", "play unknown option -> 2", [FTSIM, "play", ok_vec, "--fast"],
             exit_is(2, "unknown option")),
        Test("cli", "play --max-cycles: a far `end @N` is refused at its line -> 2",
             ["bash", "-c", "mkdir -p build && printf 'device rn1\\n@0 f0 <- IDLE\\nend @4294967295\\n' "
              f"> build/far-end.vec && {FTSIM} play build/far-end.vec --max-cycles 1000000"],
             exit_is(2, "build/far-end.vec:3: the vector runs 4294967296 cycles (end @4294967295), more "
                     "than --max-cycles 1000000", "FAIL build/far-end.vec")),
        Test("cli", "play --max-cycles: a vector within it plays; one cycle less refuses it",
             ["bash", "-c", "mkdir -p build && printf 'device rn1\\n@0 f0 <- IDLE\\nend @99\\n' "
              f"> build/end99.vec && {FTSIM} play build/end99.vec --max-cycles 100 && "
              f"{{ {FTSIM} play build/end99.vec --max-cycles 99; [ $? = 2 ]; }}"],
             exit_is(0, "PASS build/end99.vec", "build/end99.vec:3: the vector runs 100 cycles (end @99), "
                     "more than --max-cycles 99")),
        Test("cli", "play --max-cycles 0 / not a number -> 2; play --help names it",
             ["bash", "-c", f"{FTSIM} play {ok_vec} --max-cycles 0; [ $? = 2 ] && {FTSIM} play {ok_vec} "
              f"--max-cycles lots; [ $? = 2 ] && {FTSIM} play --help | grep -- '--max-cycles N refuses'"],
             exit_is(0, "--max-cycles takes a number of cycles from 1", "--max-cycles N refuses")),
        Test("cli", "play --wave with csim -> 2",
             [FTSIM, "play", ok_vec, "--model", "csim", "--wave", "build/x.fst"],
             exit_is(2, "--wave traces the RTL")),
        Test("cli", "fuzz bad --cycles -> 2", [FTSIM, "fuzz", "--cycles", "lots"],
             exit_is(2, "--cycles takes")),
        Test("cli", "fuzz unknown device -> 2", [FTSIM, "fuzz", "--device", "lc9"],
             exit_is(2, "no fuzz for device")),
        Test("cli", "record without -o -> 2", [FTSIM, "record", ok_vec], exit_is(2, "want IN.vec")),
        Test("cli", "info rn1", [FTSIM, "info", "rn1"], exit_is(0, "errors", "f7.state")),
        Test("cli", "fuzz prints its seed", [FTSIM, "fuzz", "--cycles", "1000", "--quiet"],
             exit_is(0, "fuzz rn1: seed ")),
    ]
    t += [Test("cli", "net without --endpoints -> 2", [FTSIM, "net"], exit_is(2, "--endpoints")),
          Test("cli", "experiment unknown -> 2", [FTSIM, "experiment", "nope"],
               exit_is(2, "unknown experiment 'nope'")),
          Test("cli", "stim without -o -> 2", [FTSIM, "stim", "--cycles", "10"], exit_is(2, "want --cycles")),
          Test("cli", "fuzz rnpnet bad size -> 2", [FTSIM, "fuzz", "--device", "rnpnet", "--endpoints", "20"],
               exit_is(2, "16, 64, 256 or 1024")),
          Test("cli", "a vector of a device line alone plays (no event: the parser fuzz's first find)",
               ["bash", "-c", "printf 'device p2sring11\\n' > build/device-only.vec && "
                f"{FTSIM} play build/device-only.vec"], exit_is(0, "PASS build/device-only.vec")),
          Test("cli", "an lc3 vector plays on each SCI model alone",
               ["bash", "-c", "printf 'device lc3\\ncheck loose\\n@0 lin.sd <- 1\\n@3 lin <- "
                "pkt(target=1, cmd=DATA, src=2, tid=3)\\nend @30\\n' > build/lc3.vec && "
                f"{FTSIM} play build/lc3.vec --model rtl && {FTSIM} play build/lc3.vec --model csim"],
               exit_is(0, "PASS build/lc3.vec"))]
    t += [Test("cli", "faultcheck without --torus -> 2", [FTSIM, "faultcheck"], exit_is(2, "--torus WxH")),
          Test("cli", "faultcheck 1x9 -> 2", [FTSIM, "faultcheck", "--torus", "1x9"], exit_is(2, "2x2 to")),
          Test("cli", "faultcheck --torus 3x3x3 -> 2 (not read as 3x3)",
               [FTSIM, "faultcheck", "--torus", "3x3x3"], exit_is(2, "--torus 3x3x3")),
          Test("cli", "torus --series to an unwritable path -> 2 before running",
               [FTSIM, "torus", "--torus", "3x3", "--flow", "a:0,0->1,1", "--series", "/nonexistent/x.csv"],
               exit_is(2, "cannot write")),
          Test("cli", "experiment --out that cannot be made -> 2 before running",
               [FTSIM, "experiment", "ring-down-9", "--out", "/nonexistent/dir"], exit_is(2, "--out")),
          Test("cli", "faultcheck LC3 20x2 -> 2", [FTSIM, "faultcheck", "--torus", "20x2"], exit_is(2, "16x16")),
          Test("cli", "faultcheck bad --fault -> 2", [FTSIM, "faultcheck", "--torus", "3x3", "--fault", "node:3,1"],
               exit_is(2, "--fault node:3,1")),
          Test("cli", "faultcheck bad --time-scale -> 2",
               [FTSIM, "faultcheck", "--torus", "2x2", "--time-scale", "fast"], exit_is(2, "--time-scale fast")),
          Test("cli", "experiment ring-down-9 --runs 0 -> 2", [FTSIM, "experiment", "ring-down-9", "--runs", "0"],
               exit_is(2, "--runs 0")),
          Test("cli", "experiment ring-down-9 --probe-us -5 -> 2",
               [FTSIM, "experiment", "ring-down-9", "--probe-us", "-5"], exit_is(2, "a positive number")),
          Test("cli", "experiment ring-down-9 --bogus -> 2", [FTSIM, "experiment", "ring-down-9", "--bogus", "1"],
               exit_is(2, "unknown option")),
          Test("cli", "experiment ring-down-9 --help", [FTSIM, "experiment", "ring-down-9", "--help"],
               exit_is(0, "downtime")),
          Test("cli", "torus bad --traffic -> 2", [FTSIM, "torus", "--torus", "3x3", "--traffic", "chaos"],
               exit_is(2, "--traffic chaos")),
          Test("cli", "torus bad --fault -> 2", [FTSIM, "torus", "--torus", "3x3", "--fault", "10:cut z 0,0"],
               exit_is(2, "cut z 0,0")),
          Test("cli", "torus bad --param -> 2", [FTSIM, "torus", "--torus", "3x3", "--param", "watchdog_ms=-1"],
               exit_is(2, "watchdog_ms=-1")),
          Test("cli", "torus unknown --param -> 2", [FTSIM, "torus", "--torus", "3x3", "--param", "warp=9"],
               exit_is(2, "NAME one of")),
          Test("cli", "torus missing scenario -> 2", [FTSIM, "torus", "--torus", "3x3", "--scenario", "nope.txt"],
               exit_is(2, "nope.txt")),
          Test("cli", "torus malformed scenario -> 2 with file:line",
               ["bash", "-c", "printf 'flow a 0,0 -> 1,1\nfault 5ms wiggle\n' > build/bad.scn && "
                f"{FTSIM} torus --torus 3x3 --scenario build/bad.scn"], exit_is(2, "build/bad.scn:2:"))]
    t += [Test("cli", "merge without files -> 2", [FTSIM, "merge"], exit_is(2, "no shard files")),
          Test("cli", "merge a missing file -> 2", [FTSIM, "merge", "nope.shard"], exit_is(2, "nope.shard: cannot open")),
          Test("cli", "faultcheck --shard 4/3 -> 2", [FTSIM, "faultcheck", "--torus", "2x2", "--shard", "4/3"],
               exit_is(2, "--shard 4/3")),
          Test("cli", "experiment --jobs 0 -> 2", [FTSIM, "experiment", "ring-down-9", "--jobs", "0"],
               exit_is(2, "--jobs 0")),
          Test("cli", "faultcheck progress: plain lines on stderr off a terminal, the last N/N; --quiet: none",
               ["bash", "-c", f"set -o pipefail; {FTSIM} faultcheck --torus 2x2 --double --period 1000 2>&1 >/dev/null | tail -1 && "
                f"{FTSIM} faultcheck --torus 2x2 --fault xring:0 --quiet 2>&1 >/dev/null | wc -c"],
               exit_is(0, "faultcheck: 36/36 cases\n0"))]
    win = "build/waves/test-window"
    t += [Test("cli", "play --wave-from 10 --wave-to 20: a smaller FST from 100 ns, the layout's signals in it",
               ["bash", "-c", f"mkdir -p build/waves && {FTSIM} play vectors/rn1/spec/showcase.vec --wave "
                f"{win}-all.fst >/dev/null && {FTSIM} play vectors/rn1/spec/showcase.vec --wave {win}.fst "
                f"--wave-from 10 --wave-to 20 >/dev/null && test $(stat -c%s {win}.fst) -lt "
                f"$(stat -c%s {win}-all.fst) && fst2vcd {win}.fst > {win}.vcd && grep -m1 '^#' {win}.vcd && "
                f"python3 tests/check_gtkw.py waves/rn1.gtkw {win}.fst"], exit_is(0, "#100\n", "0 missing")),
          Test("cli", "--wave-from without --wave -> 2", [FTSIM, "fuzz", "--wave-from", "10"],
               exit_is(2, "give --wave")),
          Test("cli", "--wave-to before --wave-from -> 2",
               [FTSIM, "play", ok_vec, "--wave", "build/x.fst", "--wave-from", "20", "--wave-to", "10"],
               exit_is(2, "--wave-to is before --wave-from"))]
    xtb = "build/cli-export.sv"
    t += [Test("cli", "export-tb without a vector -> 2", [FTSIM, "export-tb", "-o", xtb],
               exit_is(2, "no vector file given")),
          Test("cli", "export-tb with nothing to write -> 2", [FTSIM, "export-tb", ok_vec],
               exit_is(2, "nothing to write")),
          Test("cli", "export-tb two vectors -> 2", [FTSIM, "export-tb", ok_vec, ok_vec, "-o", xtb],
               exit_is(2, "one vector at a time")),
          Test("cli", "export-tb a torus vector -> 2 on its device line, saying why",
               [FTSIM, "export-tb", "vectors/torus/spec/cut_x_2x2.vec", "-o", xtb],
               exit_is(2, "vectors/torus/spec/cut_x_2x2.vec:10: device torus2x2 has no RTL module")),
          Test("cli", "export-tb --device ring4 -> 2, saying why", [FTSIM, "export-tb", "--device", "ring4",
               "-o", xtb], exit_is(2, "device ring4 has no RTL module of its own")),
          Test("cli", "export-tb --device lc9 -> 2", [FTSIM, "export-tb", "--device", "lc9", "-o", xtb],
               exit_is(2, "unknown device: lc9")),
          Test("cli", "export-tb a malformed vector -> 2 with file:line",
               [FTSIM, "export-tb", "tests/malformed/unknown_port.vec", "-o", xtb],
               exit_is(2, "tests/malformed/unknown_port.vec:")),
          Test("cli", "export-tb --events without a vector -> 2",
               [FTSIM, "export-tb", "--device", "rn1", "--events", "build/x.events"],
               exit_is(2, "--events writes a vector's events")),
          Test("cli", "export-tb --words without --device -> 2", [FTSIM, "export-tb", ok_vec, "--words",
               "-o", xtb], exit_is(2, "--words takes --device")),
          Test("cli", "export-tb to an unwritable path -> 2",
               [FTSIM, "export-tb", ok_vec, "-o", "/nonexistent/tb.sv"], exit_is(2, "cannot write")),
          Test("cli", "export-tb --rtl with no files.txt -> 2",
               [FTSIM, "export-tb", ok_vec, "-o", xtb, "--rtl", "/nonexistent"],
               exit_is(2, "/nonexistent/files.txt: cannot open")),
          Test("cli", "export-tb names the command that runs the testbench",
               [FTSIM, "export-tb", "vectors/lc3/spec/disabled.vec", "-o", xtb],
               exit_is(0, "iverilog -g2012 -Irtl -o build/cli-export.vvp build/cli-export.sv rtl/sci_lc.v"))]
    t.append(Test("cli", "torus --help: the default run and what each column of the report means",
                  [FTSIM, "torus", "--help"],
                  exit_is(0, "(default 10 ms)", "  offered ", "  sent ", "  delivered ", "  held ",
                          "  retrans ", "  fails ", "  gap ms ", "  lat us ", "NAME:SX,SY:DX,DY")))
    t += [Test("cli", "vec-json no file -> 2", [FTSIM, "vec-json"], exit_is(2, "no vector file")),
          Test("cli", "vec-json a malformed vector -> 2 with the parser's file:line, nothing written",
               ["bash", "-c", f"rm -f build/bad.json; {FTSIM} vec-json vectors/rn1/spec/doc_example.vec "
                "tests/malformed/unknown_port.vec -o build/bad.json; rc=$?; test ! -e build/bad.json && exit $rc"],
               exit_is(2, "tests/malformed/unknown_port.vec:2: unknown port 'f9'")),
          Test("cli", "vec-json: a packet macro one word a cycle, the line of each statement",
               ["bash", "-c", "printf 'device lc3\\ncheck loose\\n@0 lin.sd <- 1\\n@3 lin <- "
                "pkt(target=1, cmd=DATA, src=2, tid=3)\\n@9 lout -> S:0x1\\n' > build/lc3-json.vec && "
                f"{FTSIM} vec-json build/lc3-json.vec"],
               exit_is(0, '{ "cycle": 4, "line": 4, "drive": [ { "port": "lin", "value": 65792, "line": 4 } ] }',
                       '"expect": [ { "port": "lout", "value": 65537, "care": 131071, "word": "S:0x0001", '
                       '"line": 5 } ]'))]
    t += [Test("cli", "info rn1 --upsets: the upset map", [FTSIM, "info", "rn1", "--upsets"],
               exit_is(0, "lfsr", "f7.state", "gen_fport[7].u_fport.state_q", "codes 10 to 15",
                       "site: gen_fport[7].u_fport.state_q[B]", "site: fwd_q[7*9+B]")),
          Test("cli", "info --upsets without a device -> 2", [FTSIM, "info", "--upsets"],
               exit_is(2, "needs a DEVICE")),
          Test("cli", "upsetcheck without a vector -> 2", [FTSIM, "upsetcheck"], exit_is(2, "STIM.vec")),
          Test("cli", "upsetcheck --only an unknown element -> 2",
               [FTSIM, "upsetcheck", "tests/upset/rn1_contend.vec", "--only", "nosuch"],
               exit_is(2, "'nosuch' is not in the upset map of rn1")),
          Test("cli", "upsetcheck --only a list: those elements alone",
               [FTSIM, "upsetcheck", "tests/upset/rn1_contend.vec", "--only", "lfsr,rot", "--bits", "1"],
               exit_is(0, "ok   lfsr", "ok   rot", "2 passed, 0 failed")),
          Test("cli", "info torus3x3 --upsets: a composite's parts under their prefix",
               [FTSIM, "info", "torus3x3", "--upsets"],
               exit_is(0, "n0.0. to n2.2.", "x.lrt", "psb.sf.count",
                       "site: gen_lc[1].u_lc.lrt_mem[I][B]", "site: u_psb.u_ctrl.q_o[32+B]")),
          Test("cli", "an RTL-only upset: play --model rtl runs it",
               [FTSIM, "play", "tests/upset/lc3node_rtl_only.vec", "--model", "rtl"],
               exit_is(0, "PASS tests/upset/lc3node_rtl_only.vec")),
          Test("cli", "an RTL-only upset: play (lockstep) runs the RTL alone, with a note",
               [FTSIM, "play", "tests/upset/lc3node_rtl_only.vec"],
               exit_is(0, "lc3node_rtl_only.vec:14: note: an upset of an RTL-only element",
                       "PASS tests/upset/lc3node_rtl_only.vec")),
          Test("cli", "an RTL-only upset: play --model csim -> 2",
               [FTSIM, "play", "tests/upset/lc3node_rtl_only.vec", "--model", "csim"],
               exit_is(2, "lc3node_rtl_only.vec:14: the C model keeps no psb.sf.count bit3")),
          Test("cli", "an RTL-only upset: record --model csim -> 2",
               [FTSIM, "record", "tests/upset/lc3node_rtl_only.vec", "--model", "csim", "-o",
                "build/seu-rtl-only.vec"],
               exit_is(2, "lc3node_rtl_only.vec:14: the C model keeps no psb.sf.count bit3")),
          Test("cli", "upsetcheck --tries 0 -> 2", [FTSIM, "upsetcheck", "tests/upset/rn1_contend.vec",
                                                  "--tries", "0"], exit_is(2, "--tries")),
          Test("cli", "an assertion after an upset is a note, not a mismatch (play exits 0)",
               [FTSIM, "play", "vectors/rn1/spec/seu_state.vec"],
               exit_is(0, "note: an RTL assertion fired after the upset on line",
                       "PASS vectors/rn1/spec/seu_state.vec")),
          Test("cli", "export-tb writes an upset as a deposit at the start of its cycle",
               ["bash", "-c", f"{FTSIM} export-tb vectors/rn1/spec/seu_lfsr.vec -o build/cli-seu.sv "
                ">/dev/null && grep -F \"ev(5, 4, 7, 64'h0, 64'h2, 0, 20);  // @4 seu lfsr bit2\" "
                "build/cli-seu.sv && grep -F '7: u_dut.lfsr_q = u_dut.lfsr_q ^ (1'\"'\"'b1 << (b));' "
                "build/cli-seu.sv"], exit_is(0, "@4 seu lfsr bit2", "u_dut.lfsr_q ^")),
          Test("cli", "vec-json writes an upset: its state's name, memory word and bit",
               [FTSIM, "vec-json", "vectors/lc3/spec/seu_lrt.vec"],
               exit_is(0, '"upset": [ { "seu": "lrt[0x34] bit0", "var": "lrt_mem", "word": 52, "bit": 0')),
          Test("cli", "record writes a vector's upsets into the golden vector",
               ["bash", "-c", f"{FTSIM} record vectors/rn1/spec/seu_lfsr.vec -o build/seu-rec.vec "
                ">/dev/null && grep -x '@4 seu lfsr bit2' build/seu-rec.vec && "
                f"{FTSIM} play build/seu-rec.vec"], exit_is(0, "PASS build/seu-rec.vec"))]
    for cmd in ["play", "record", "fuzz", "bench", "info", "net", "experiment", "stim", "faultcheck",
                "torus", "merge", "export-tb", "vec-json", "upsetcheck"]:
        t.append(Test("cli", f"ftsim {cmd} --help", [FTSIM, cmd, "--help"],
                      exit_is(0, f"usage: ftsim {cmd}")))
    return t


def suite_fuzz():
    return [Test("fuzz", f"rn1 seed {s} x {FUZZ_CYCLES} cycles lockstep",
                 [FTSIM, "fuzz", "--device", "rn1", "--seed", str(s), "--cycles",
                  str(FUZZ_CYCLES), "--quiet", "--out", "build/fuzz"],
                 exit_is(0, f"PASS fuzz rn1 seed {s}"))
            for s in FUZZ_SEEDS]


# RNP networks: (endpoints, faults, backward channel, seed, cycles, models)
NET_FUZZ = [(16, 4, False, 1, 150_000, "both"), (16, 4, True, 2, 150_000, "both"),
            (64, 8, True, 3, 30_000, "both"), (64, 8, False, 4, 30_000, "both"),
            (256, 16, True, 5, 60_000, "csim"), (256, 8, False, 6, 4_000, "both")]


def suite_netfuzz():
    tests = []
    for n, k, bc, seed, cycles, models in NET_FUZZ:
        cmd = [FTSIM, "fuzz", "--device", "rnpnet", "--endpoints", str(n), "--faults", str(k),
               "--seed", str(seed), "--cycles", str(cycles), "--model", models, "--quiet"]
        if bc:
            cmd.append("--backchan")
        tests.append(Test("net-fuzz", f"rnpnet{n} {k} faults{' backchan' if bc else ''} seed {seed} "
                          f"x {cycles} cycles [{models}]", cmd, exit_is(0, f"PASS fuzz rnpnet seed {seed}")))
    tests.append(Test("net-fuzz", "ftsim net: several distinct paths for every pair",
                      [FTSIM, "net", "--endpoints", "64"], exit_is(0, "distinct link-level paths min 16")))
    tests.append(Test("net-fuzz", "ftsim experiment rnp-policy runs and writes its CSV",
                      ["bash", "-c", f"{FTSIM} experiment rnp-policy --cycles 3000 --quiet --out "
                       "build/exp-test >/dev/null && test -s build/exp-test/rnp-policy.csv"], exit_is(0)))
    return tests


# SCI: one controller under random stimulus; rings with the end-to-end ledger and random pulls
# (size and variant from the seed unless given); the pulled-cable bound check on a ring of 8.
SCI_LC_FUZZ = [("lc3", 1, 300_000), ("p2s", 2, 300_000)]
SCI_RING_FUZZ = [(11, [], 300_000), (12, [], 300_000), (13, ["--nodes", "16", "--p2s"], 200_000),
                 (14, ["--nodes", "2", "--lc3"], 300_000)]


def suite_scifuzz():
    tests = [Test("sci-fuzz", f"{d} seed {s} x {c} cycles lockstep",
                  [FTSIM, "fuzz", "--device", d, "--seed", str(s), "--cycles", str(c), "--quiet",
                   "--out", "build/fuzz"], exit_is(0, f"PASS fuzz {d} seed {s}"))
             for d, s, c in SCI_LC_FUZZ]
    tests += [Test("sci-fuzz", f"ring seed {s} {' '.join(a)} x {c} cycles lockstep, ledger",
                   [FTSIM, "fuzz", "--device", "ring", "--seed", str(s), "--cycles", str(c), *a,
                    "--quiet", "--out", "build/fuzz"], exit_is(0, f"PASS fuzz ring seed {s}"))
              for s, a, c in SCI_RING_FUZZ]
    for dims, variant, seed in (("3x3", "--lc3", 31), ("4x4", "--p2s", 32), ("2x2", "--p2s", 33)):
        tests.append(Test("sci-fuzz", f"torus {dims} {variant[2:]} seed {seed}: cable pulls, lockstep, ledger",
                          [FTSIM, "fuzz", "--device", "torus", "--torus", dims, variant, "--seed",
                           str(seed), "--cycles", "150000", "--quiet", "--out", "build/fuzz"],
                          exit_is(0, f"PASS fuzz torus seed {seed}")))
    for variant, seed in (("--lc3", 21), ("--p2s", 22)):
        tests.append(Test("sci-fuzz", f"ring of 8 {variant[2:]}: pulled cable, every LC down and up "
                          "within the bounds, ledger clean",
                          [FTSIM, "fuzz", "--device", "ring", "--nodes", "8", variant, "--pull", "3",
                           "--seed", str(seed), "--cycles", "150000", "--quiet", "--out", "build/fuzz"],
                          exit_is(0, "reports down (cycles after the pull)", f"PASS fuzz ring seed {seed}")))
    return tests


def suite_torus():
    """The running torus: every single fault on 2x2, 3x3 and 4x4, LC3 and P2S, with the
    checks of ftsim faultcheck (C model; 2x2 and the P2S failover cases also in lockstep with the
    RTL), and the structure of the paper's results with the paper's timers."""
    t = [Test("torus", f"faultcheck {d} {v or 'lc3'}: every single fault (csim)",
              [FTSIM, "faultcheck", "--torus", d, *([v] if v else [])],
              exit_is(0, "0 failed"), timeout=900)
         for d in ("2x2", "3x3", "4x4") for v in ("", "--p2s")]
    t += [Test("torus", f"faultcheck 2x2 {v or 'lc3'}: every single fault, rtl+csim lockstep",
               [FTSIM, "faultcheck", "--torus", "2x2", "--model", "both", *([v] if v else [])],
               exit_is(0, "0 failed"), timeout=900) for v in ("", "--p2s")]
    t += [Test("torus", f"faultcheck 3x3 {v or 'lc3'} {f}: rtl+csim lockstep",
               [FTSIM, "faultcheck", "--torus", "3x3", "--model", "both", "--fault", f,
                *([v] if v else [])], exit_is(0, "0 failed"), timeout=900)
          for v, f in (("--p2s", "xring:0"), ("--p2s", "yring:1"), ("--p2s", "node:1,1"),
                       ("", "node:1,1"))]
    t.append(Test("torus", "the paper's structure (5 experiments, paper's timers, 1 run each; make paper: 10)",
                  ["python3", "tests/paper_check.py", "1", "build/paper-check"], counts_line,
                  timeout=900))
    t.append(Test("torus", "waves/torus3x3_sys.gtkw against the FST of a running torus (RTL, drivers)",
                  ["bash", "-c", f"mkdir -p build/waves && {FTSIM} torus --torus 3x3 --model rtl "
                   "--scenario tests/scenarios/wave_3x3.scn --time-scale 1000 --wave "
                   "build/waves/test-sys3x3.fst >/dev/null && python3 tests/check_gtkw.py "
                   "waves/torus3x3_sys.gtkw build/waves/test-sys3x3.fst"], exit_is(0, "0 missing")))
    t.append(Test("torus", "torus 3x3 scenario: named flows, a cable pulled and put back, watchdog",
                  [FTSIM, "torus", "--torus", "3x3", "--scenario", "tests/scenarios/pull_restore_3x3.scn",
                   "--time-scale", "100"], exit_is(0, "PASS torus")))
    # --threads: the report, the JSON and the driver log byte for byte the same on 1, 2 and 3
    # threads (speed figures taken out), with faults that run the drivers and power a node off
    faults = ["--fault", "100us:cut x 1,2", "--fault", "150us:off 2,3", "--fault",
              "300us:restore x 1,2", "--fault", "350us:on 2,3"]
    for v, extra in (("", ["--json"]), ("--p2s", [])):
        t.append(Test("torus", f"torus 4x4 {v or 'lc3'} with faults: the same on 1, 2, 3 threads",
                      ["python3", "tests/threads_same.py", "1,2,3", "torus", "--torus", "4x4",
                       *([v] if v else []), "--traffic", "uniform", "--every", "50us",
                       "--time-scale", "1000", "--run", "600us", *faults, "--log", *extra],
                      exit_is(0, "PASS threads")))
    # the C torus steps only nodes with work, the hosts steps 3 to 5 in one loop skipping idle
    # nodes: the same bytes as every node stepped in two loops, 1 and 2 threads
    for case in ("lc3-faults", "p2s-faults", "ftdrb-relay", "ftdrb-cuts", "p2s-8x8", "p2s-8x8-json"):
        t.append(Test("torus", f"torus stepping {case}: only nodes with work, as every node stepped",
                      ["python3", "tests/torus_stepping.py", case],
                      exit_is(0, f"PASS torus-stepping {case}")))
    # the report says what happened (tests/torus_report.py; sci_sys.md sections 2, 4 and 7)
    for case, what in (("json", "--json prints only JSON (python3 -m json.tool reads it)"),
                       ("fault-after-end", "a fault at or after the run's end: exit 2"),
                       ("flow-form", "--flow NAME:SX,SY:DX,DY, the form without >"),
                       ("scenario-setup", "a scenario's torus 4x4, p2s, time-scale 1000 as the options"),
                       ("p2s-log", "P2S cuts: redirect, NOTIFY owed, forced select in --log"),
                       ("end-busy", "a run that ends inside the drivers' pass warns, a longer one not"),
                       ("stalled-gap", "a flow stalled by its cut ACK path: its gap seen from the source")):
        t.append(Test("torus", f"torus report: {what}", ["python3", "tests/torus_report.py", case],
                      exit_is(0, f"PASS torus-report {case}")))
    # --wave on threads: each part's FST merged into one, the one-thread FST's (fst2vcd)
    for case, what in (("rtl", "3x3 RTL with a cut X ring, 2 and 3 threads"),
                       ("window", "--wave-from/--wave-to, 2 threads"),
                       ("lockstep", "rtl+csim lockstep, 2 threads")):
        t.append(Test("torus", f"torus --wave on threads, {what}: the one-thread FST",
                      ["python3", "tests/wave_threads.py", case],
                      exit_is(0, f"PASS wave-threads {case}")))
    t += suite_torus_ftdrb()
    t.append(Test("torus", "faultcheck 4x4 lc3 node:1,2 -vv: the same on 1, 2, 3 threads",
                  ["python3", "tests/threads_same.py", "1,2,3", "faultcheck", "--torus", "4x4",
                   "--fault", "node:1,2", "-vv"], exit_is(0, "PASS threads")))
    return t


def torus_reachable(dims, faults):
    """The ordered pairs of live nodes of an LC3 torus (faultcheck --torus WxH) that a message
    can join through at most two intermediate hosts, computed here from the faults
    (faultcheck's --fault: `xring:Y`, `yring:X`, `node:X,Y`, joined by +) without the
    simulator: a node off takes down its X and its Y ring; each leg is routed X first (its
    source's X ring to the destination's column, that column's Y ring), over live rings and a
    live turning node."""
    w, h = map(int, dims.split("x"))
    xdown, ydown, off = set(), set(), set()
    for f in faults.split("+"):
        kind, arg = f.split(":")
        if kind == "node":
            x, y = map(int, arg.split(","))
            off.add((x, y))
            xdown.add(y)
            ydown.add(x)
        else:
            (xdown if kind == "xring" else ydown).add(int(arg))
    live = [(x, y) for x in range(w) for y in range(h) if (x, y) not in off]

    def leg(a, b):
        if a[1] == b[1]:
            return a[1] not in xdown
        if a[0] == b[0]:
            return a[0] not in ydown
        return a[1] not in xdown and b[0] not in ydown  # the turning node lives: its rings do
    one = {a: {b for b in live if b != a and leg(a, b)} for a in live}
    pairs = 0
    for s in live:
        seen = set(one[s])
        for _ in range(2):  # an intermediate more each round
            seen |= {c for b in seen for c in one[b]}
        pairs += len(seen - {s})
    return pairs


def ftdrb_relayed(rc, out):
    """PASS torus, and FT-DRB did relay messages (through intermediates, by hosts)."""
    if rc != 0 or "PASS torus" not in out:
        return f"exit status {rc}, or no 'PASS torus'"
    m = re.search(r"(\d+) messages sent through intermediates, (\d+) relayed", out)
    if not m or int(m.group(1)) == 0 or int(m.group(2)) == 0:
        return "no message went through an intermediate"
    return ""


def suite_torus_ftdrb():
    """FT-DRB (Zarza et al.) in the hosts (harness/scisys/ftdrb_sci.md): two Y rings of a 3x3 torus cut
    leave flows the drivers' tables cannot carry (2,0 -> 1,2 needs two intermediates); with
    --ftdrb they deliver, relayed by hosts, in lockstep with the RTL and with a clean ledger;
    without it the same run loses them. faultcheck counts the pairs against its own search of
    the live rings: every reachable pair delivers with FT-DRB, fewer without."""
    run = ["torus", "--torus", "3x3", "--flow", "a:2,0:1,2", "--flow", "b:1,2:2,0", "--flow",
           "c:0,0:2,2", "--flow", "d:2,2:0,1", "--every", "20us", "--fault", "100us:cut y 1,0",
           "--fault", "100us:cut y 2,0", "--time-scale", "1000"]
    t = [Test("torus", "torus 3x3 --ftdrb, Y rings 1 and 2 cut: relayed by hosts, rtl+csim lockstep, "
              "ledger clean", [FTSIM, *run, "--run", "1ms", "--model", "both", "--ftdrb"],
              ftdrb_relayed, timeout=300),
         Test("torus", "torus 3x3 without --ftdrb, Y rings 1 and 2 cut: messages of live pairs lost",
              [FTSIM, *run, "--run", "1ms"], exit_is(1, "FAIL torus", "still unacknowledged")),
         Test("torus", "torus 3x3 --ftdrb --log, Y rings 1 and 2 cut: the same on 1 and 2 threads",
              ["python3", "tests/threads_same.py", "1,2", *run, "--ftdrb", "--run", "2ms", "--log"],
              exit_is(0, "PASS threads")),
         # the RTL's nodes in as many parts as threads, each in a Verilator context of its own
         Test("torus", "torus 3x3 --ftdrb --log --model rtl, Y rings 1 and 2 cut: the same on 1, 2 "
              "and 3 threads (the RTL in 1, 2, 3 Verilator contexts)",
              ["python3", "tests/threads_same.py", "1,2,3", *run, "--ftdrb", "--run", "300us", "--log",
               "--model", "rtl"], exit_is(0, "PASS threads"), timeout=300),
         Test("torus", "torus 3x3 --ftdrb --log --model both (lockstep), Y rings 1 and 2 cut: the same "
              "on 1 and 2 threads", ["python3", "tests/threads_same.py", "1,2", *run, "--ftdrb", "--run",
                                     "300us", "--log", "--model", "both"],
              exit_is(0, "PASS threads"), timeout=300)]
    # The reachable pairs counted by the test (torus_reachable); those without FT-DRB measured.
    for f, base in (("yring:1+yring:2", 42), ("xring:0+node:1,1", 36)):
        pairs = torus_reachable("3x3", f)
        t.append(Test("torus", f"faultcheck 3x3 --fault {f} --ftdrb: {pairs} of {pairs} reachable "
                      f"pairs deliver ({base} without)",
                      [FTSIM, "faultcheck", "--torus", "3x3", "--fault", f, "--ftdrb"],
                      exit_is(0, f"without FT-DRB: {base} of the {pairs} reachable",
                              f"with FT-DRB:    {pairs} of the {pairs} reachable pairs deliver; "
                              "1 of 1 cases survive"), timeout=300))
    # the one 3x3 triple fault whose relays dropped (23 ACKs and NOTEs) before C1-C3
    pairs = torus_reachable("3x3", "xring:2+yring:0+yring:1")
    t.append(Test("torus", f"faultcheck 3x3 --fault xring:2+yring:0+yring:1 --ftdrb: {pairs} of "
                  f"{pairs} reachable pairs deliver, 0 relay drops (23 before ftdrb_sci.md 4a, "
                  "C1-C3)",
                  [FTSIM, "faultcheck", "--torus", "3x3", "--fault", "xring:2+yring:0+yring:1",
                   "--ftdrb", "--multi-only"],
                  exit_is(0, f"with FT-DRB:    {pairs} of the {pairs} reachable pairs deliver; 1 of 1 "
                          "cases survive", ", 0 relay drops"), timeout=300))
    pairs = torus_reachable("4x4", "yring:1+yring:2+node:0,1")
    t.append(Test("torus", "faultcheck 4x4 --fault yring:1+yring:2+node:0,1 --ftdrb --period 16000: "
                  "one live column relays all vertical traffic and two nodes are cut off; a flow "
                  "whose packet failed sends one message at a time, so no relay drops and all "
                  f"{pairs} reachable pairs deliver",
                  [FTSIM, "faultcheck", "--torus", "4x4", "--ftdrb", "--period", "16000", "--quiet",
                   "--multi-only", "--fault", "yring:1+yring:2+node:0,1"],
                  exit_is(0, f"with FT-DRB:    {pairs} of the {pairs} reachable pairs deliver; 1 of 1 "
                          "cases survive", ", 0 relay drops"), timeout=300))
    t.append(Test("torus", "torus 3x3 --ftdrb --log, a Y ring cut and put back: the fault tables "
                  "learn from NOTEs, count only different notifications, try paths again at attempt "
                  "10, and the direct paths come back",
                  ["python3", "tests/ftdrb_table.py"], exit_is(0, "PASS ftdrb-table"), timeout=300))
    t.append(Test("torus", "experiment ftdrb-sci on 8x8, bit reversal and transpose, six cables: "
                  "isolated nodes and excluded pairs as the test computes them, FT-DRB delivers every "
                  "connected pair, the failover alone abandons some (counted)",
                  ["python3", "tests/ftdrb_experiment.py"], counts_line, timeout=600))
    t.append(Test("torus", "FT-DRB's metapath and relays that push back (ftdrb_sci.md 4a, 6): 8x8 "
                  "complement with six cables spreads pairs over paths by latency, --no-spread "
                  "does not, every pair the failover delivers stays on its direct path (C1-C3); "
                  "4x4 xring:0+xring:1 at the default load: 0 relay drops, every pair",
                  ["python3", "tests/ftdrb_metapath.py"], exit_is(0, "PASS ftdrb-metapath"),
                  timeout=900))
    return t


def suite_waves():
    """make wave's FST opens with the committed layout: every signal it names is in the dump."""
    fst = "build/waves/test-showcase.fst"
    cmd = ["bash", "-c", f"mkdir -p build/waves && {FTSIM} play vectors/rn1/spec/showcase.vec "
           f"--wave {fst} >/dev/null && python3 tests/check_gtkw.py waves/rn1.gtkw {fst}"]
    net = "build/waves/test-net-path.fst"
    cmd2 = ["bash", "-c", f"mkdir -p build/waves && {FTSIM} play vectors/rnpnet/spec/path_rotation.vec "
            f"--wave {net} >/dev/null && python3 tests/check_gtkw.py waves/rnpnet16_path.gtkw {net}"]
    sci = []
    for layout, run in (("waves/lc3.gtkw", "fuzz --device lc3 --seed 3 --cycles 3000"),
                        ("waves/lc3.gtkw", "fuzz --device p2s --seed 3 --cycles 3000"),
                        ("waves/ring4.gtkw", "fuzz --device ring --nodes 4 --lc3 --seed 3 --cycles 3000"),
                        ("waves/ring8.gtkw", "fuzz --device ring --nodes 8 --p2s --seed 3 --cycles 3000"),
                        ("waves/torus3x3.gtkw", "fuzz --device torus --torus 3x3 --lc3 --seed 3 --cycles 3000")):
        f = f"build/waves/test-sci{len(sci)}.fst"
        sci.append(Test("waves", f"{layout} against an FST from ftsim {run.split()[0]} {run.split()[2]}",
                        ["bash", "-c", f"mkdir -p build/waves && {FTSIM} {run} --quiet --wave {f} "
                         f">/dev/null && python3 tests/check_gtkw.py {layout} {f}"],
                        exit_is(0, "0 missing")))
    return sci + [Test("waves", "waves/rn1.gtkw against an FST from ftsim play --wave", cmd,
                 exit_is(0, "0 missing")),
            Test("waves", "waves/rnpnet16_path.gtkw against a network FST (every router in one)",
                 cmd2, exit_is(0, "19 signals checked", "0 missing")),
            Test("waves", "waves/rnpnet256_path.gtkw against a 320-router FST",
                 ["bash", "-c", f"mkdir -p build/waves && {FTSIM} play vectors/rnpnet/spec/swallow_stage4.vec "
                  "--wave build/waves/test-s4.fst >/dev/null && python3 tests/check_gtkw.py "
                  "waves/rnpnet256_path.gtkw build/waves/test-s4.fst"], exit_is(0, "0 missing"))]


# The devices with an RTL module of their own: ftsim export-tb writes their vectors as Verilog
# testbenches (a ring, a torus or a network is composed in the harness and is refused).
EXPORT_DEVICES = designs.devices()
# A vector made wrong (its text, then what replaces it): the exported testbench must fail it as
# ftsim play --model rtl does, with the same first mismatch. A port word, an output left out
# of a strict vector, a register read, a packet's symbol.
EXPORT_WRONG = [
    ("vectors/rn1/spec/doc_example.vec", "f0 -> CHECKSUM:51", "f0 -> CHECKSUM:52"),
    ("vectors/rn1/spec/doc_example.vec", "@3  b2 -> TURN", ""),
    ("vectors/lc3/spec/reset_values.vec", "reg echo_timeout -> 200", "reg echo_timeout -> 201"),
    ("vectors/node/spec/psb_route_host.vec",
     "@144 hout -> pkt(target=1, cmd=DATA, src=1, tid=2, data=[0x0002, 0x1234])",
     "@144 hout -> pkt(target=1, cmd=DATA, src=1, tid=2, data=[0x0002, 0x1235])"),
    # an upset moved to another bit, to another table entry, a cycle late
    ("vectors/rn1/spec/seu_lfsr.vec", "@4  seu lfsr bit2", "@4  seu lfsr bit3"),
    ("vectors/lc3/spec/seu_lrt.vec", "@120 seu lrt[0x34] bit0", "@120 seu lrt[0x35] bit0"),
    ("vectors/rn1/spec/seu_disable.vec", "@4  seu disable bit0", "@5  seu disable bit0"),
]
# A stimulus per device on which every element of its upset map is flipped (tests/upset/sites.py).
sys.path.insert(0, os.path.join(ROOT, "tests", "upset"))
sys.dont_write_bytecode = True  # no __pycache__ left in tests/
from sites import STIMULI as UPSET_SITES  # noqa: E402
# An RTL mutant (tests/mutants.py) and a correct vector that its exported testbench must fail.
EXPORT_MUTANTS = [("rtl-checksum", "vectors/rn1/spec/reverse.vec"),
                  ("rtl-psb-probe-brt", "vectors/node/spec/psb_probe_port.vec")]


def has_upset(vec):
    """The vector flips a bit (`@N seu ...`)."""
    with open(vec if os.path.isabs(vec) else os.path.join(ROOT, vec), encoding="utf-8") as f:
        return re.search(r"^\s*@\S+\s+seu\b", f.read(), re.M) is not None


def vectors_by_device(pattern):
    """The vectors matching pattern (under the root), by the device each names."""
    by = {}
    for vec in sorted(glob.glob(os.path.join(ROOT, pattern))):
        with open(vec, encoding="utf-8") as f:
            m = re.search(r"^\s*device\s+(\S+)", f.read(), re.M | re.I)
        if m:
            by.setdefault(m.group(1).lower(), []).append(os.path.relpath(vec, ROOT))
    return by


def spec_vectors_by_device():
    """Every spec vector, by the device it names (those with upsets included)."""
    return vectors_by_device(os.path.join("vectors", "*", "spec", "*.vec"))


def upset_vectors_by_device():
    """The vectors with upsets that are not spec vectors: the golden ones, and tests/upset's."""
    by = {}
    for pattern in (os.path.join("vectors", "*", "golden", "*.vec"), os.path.join("tests", "upset", "*.vec")):
        for dev, vecs in vectors_by_device(pattern).items():
            by.setdefault(dev, []).extend(v for v in vecs if has_upset(v))
    return {d: v for d, v in by.items() if v}


# Vectors whose upset is moved to another bit or entry on purpose: every bench must fail them.
UPSET_WRONG = ["tests/cocotb/wrong/rn1_seu_wrong.vec", "tests/cocotb/wrong/lc3_seu_wrong.vec"]


def suite_icarus():
    """The RTL simulated by Icarus agrees with the C model on a fuzz stimulus (Icarus 11 can
    accept a design it then hangs on: compiling it is not enough); every spec vector of every
    device with an RTL module passes as an exported testbench (ftsim export-tb) under Icarus,
    a sample exported whole and compiled by its header's command; a vector made wrong, or a
    correct one on a broken RTL, fails there; the testbench prints words as ftsim does."""
    check = ["python3", "tests/icarus/export_check.py"]
    t = [Test("icarus", f"rn1 RTL under Icarus = C model, {n} fuzz cycles, seed {seed}",
              ["bash", "tests/icarus/replay.sh", str(n), str(seed)], exit_is(0, "PASS icarus replay"))
         for n, seed in [(2000, 7), (2000, 8)]]
    by = spec_vectors_by_device()
    for dev in EXPORT_DEVICES:
        vecs = by.get(dev, [])
        t.append(Test("icarus", f"{dev}: its {len(vecs)} spec vectors as exported testbenches "
                      "(events files on one testbench compiled once)", check + ["events", dev, *vecs],
                      exit_is(0, "PASS export_check")))
        if vecs:
            t.append(Test("icarus", f"{dev}: {vecs[0]} exported whole (-o TB.sv), compiled by its "
                          "header's command; its events file plays the same",
                          check + ["standalone", vecs[0]], exit_is(0, "PASS export_check")))
            t[-1].vec = vecs[0]
        t.append(Test("icarus", f"{dev}: the testbench prints every word and register value as "
                      "ftsim does", check + ["words", dev], exit_is(0, "PASS export_check")))
    for dev, stim in UPSET_SITES:
        t.append(Test("icarus", f"{dev}: every element of its upset map flipped on {stim}'s stimulus "
                      "by the exported testbench = by the Verilated model (ftsim record --model rtl)",
                      check + ["sites", dev, stim], exit_is(0, "PASS export_check")))
    for dev, vecs in sorted(upset_vectors_by_device().items()):
        t.append(Test("icarus", f"{dev}: its {len(vecs)} vectors with upsets beyond the spec ones "
                      "(golden, tests/upset) as exported testbenches", check + ["events", dev, *vecs],
                      exit_is(0, "PASS export_check")))
    for vec, old, new in EXPORT_WRONG:
        t.append(Test("icarus", f"{vec} with {old!r} made {new!r}: FAIL, non-zero exit, ftsim play's "
                      "first mismatch", check + ["wrong", vec, old, new], exit_is(0, "PASS export_check")))
    t.append(Test("icarus", "an RTL assertion that fails (rn1 BwdAllocOnce_A made to) fails the "
                  "exported testbench as the harness words it", check + [
                      "assertion", "vectors/rn1/spec/doc_example.vec", "rn1.v",
                      "BwdAllocOnce_A, chk_dup == 8'h00,", "BwdAllocOnce_A, chk_dup != 8'h00,"],
                  exit_is(0, "PASS export_check")))
    for name, vec in EXPORT_MUTANTS:
        t.append(Test("icarus", f"{vec} exported against the RTL of mutant {name}: FAIL (and PASS "
                      "on the RTL itself)", check + ["mutant", name, vec], exit_is(0, "PASS export_check")))
    return t


# The cocotb test bench (tests/cocotb/) runs in the venv `make` builds (build/venv).
COCOTB_PY = os.path.join("build", "venv", "bin", "python")
COCOTB_WRONG = ["tests/cocotb/wrong/rn1_wrong.vec", "tests/cocotb/wrong/lc3_wrong.vec"] + UPSET_WRONG


def suite_cocotb():
    """The cocotb bench under Icarus: the spec vectors replayed from ftsim's parse of them, the
    native tests, vectors made wrong on purpose failing with the lines ftsim play gives, a
    malformed vector refused with the parser's message, the fuzz stimulus's signature."""
    run = [COCOTB_PY, "tests/cocotb/run.py"]
    t = [Test("cocotb", f"{dev} spec vectors replayed by cocotb on Icarus",
              run + ["replay", *sorted(glob.glob(os.path.join(ROOT, "vectors", dev, "spec", "*.vec")))],
              counts_line)
         for dev in designs.vector_dirs()]
    upset = sorted(v for vecs in upset_vectors_by_device().values() for v in vecs)
    t.append(Test("cocotb", f"the {len(upset)} vectors with upsets beyond the spec ones (golden, "
                  "tests/upset) replayed by cocotb on Icarus", run + ["replay", *upset], counts_line))
    # Every element of each map flipped by cocotb as the Verilated model flips it (sites.py);
    # under pipefail, so that the replay's own exit status counts, not only its last line;
    # the same golden without its flips fails.
    t.append(Test("cocotb", "every element of every upset map flipped by cocotb on Icarus = by the "
                  "Verilated model (tests/upset/sites.py goldens); one without its flips fails",
                  ["bash", "-c", "set -o pipefail; python3 tests/upset/sites.py --all build/cocotb/sites >/dev/null && "
                   f"{' '.join(run)} replay {' '.join(f'build/cocotb/sites/{d}.vec' for d, _ in UPSET_SITES)}"
                   f" | tail -1 && ! {' '.join(run)} replay build/cocotb/sites/rn1-noflip.vec >/dev/null "
                   "&& echo 'noflip fails'"],
                  exit_is(0, f"{len(UPSET_SITES)} passed, 0 failed", "noflip fails")))
    t.append(Test("cocotb", "native cocotb tests (an RN1 connection, an LC3 packet taken and echoed)",
                  run + ["native"], counts_line))
    ftsim_lines = (f"{FTSIM} play --model rtl --max-msgs 100 {' '.join(COCOTB_WRONG)} | grep -E ': cycle [0-9]+: ' "
                   "| sed -E 's/rtl (saw|reads)/cocotb \\1/' | sort")
    t.append(Test("cocotb", "vectors made wrong fail under cocotb with the mismatches ftsim play names",
                  ["bash", "-c", f"out=$({' '.join(run)} replay {' '.join(COCOTB_WRONG)} 2>&1); rc=$?; "
                   "echo \"$out\" | tail -1; test $rc = 1 || exit 1; "
                   f"diff <({ftsim_lines}) <(echo \"$out\" | grep ' ERROR ' | grep -oE 'tests/cocotb/wrong/.*' | sort) "
                   f"&& test -n \"$({ftsim_lines})\" && echo SAME"],
                  exit_is(0, f"0 passed, {len(COCOTB_WRONG)} failed", "SAME")))
    t.append(Test("cocotb", "the example test of tests/cocotb/README.md passes as written",
                  ["bash", "-c", "mkdir -p build/cocotb/readme && awk '/^```python$/{p=1;next} /^```$/{p=0} p' "
                   "tests/cocotb/README.md > build/cocotb/readme/test_readme.py && grep -q cocotb.test "
                   f"build/cocotb/readme/test_readme.py && {' '.join(run)} module test_readme --device lc3 "
                   "--dir build/cocotb/readme"], counts_line))
    t.append(Test("cocotb", "a malformed vector: exit 2 with the parser's file:line",
                  run + ["replay", "tests/malformed/unknown_port.vec"],
                  exit_is(2, "tests/malformed/unknown_port.vec:2: unknown port 'f9'")))
    t.append(Test("cocotb", "RN1 fuzz stimulus through cocotb: the C model's signature",
                  run + ["stim", "--cycles", "2000", "--seed", "3"], counts_line))
    return t


# Every element of every design's upset map, checked by `ftsim upsetcheck` (tests/upset/README.md):
# (what, stimuli, extra arguments). A stimulus under build/upset/ is derived from the lc3node
# vectors by tests/upset/derive.py (DERIVED: its device, controller and source vectors).
def _vecs(pattern, device=None):
    """The vectors matching pattern (relative to the root), of device only when given."""
    out = []
    for v in sorted(glob.glob(os.path.join(ROOT, pattern))):
        with open(v, encoding="utf-8") as f:
            if device is None or re.search(rf"^device {device}\s*$", f.read(), re.M):
                out.append(os.path.relpath(v, ROOT))
    return out


LC3_STIMULI = ["vectors/lc3/golden/" + f + ".vec" for f in (
    "fuzz-lc3-seed5", "ring_down", "ring_up_count", "limit_pass", "timeout_retry", "disabled")]
LC3NODE_STIMULI = _vecs("vectors/node/golden/*.vec", "lc3node") + ["tests/upset/lc3node_busy.vec"]
DERIVED = {  # build/upset/<dir>: (device, controller)
    "p2snode": ("p2snode", "-"), "lc3node2x": ("lc3node2", "x"), "lc3node2y": ("lc3node2", "y"),
    "p2snode2x": ("p2snode2", "x"), "p2snode2y": ("p2snode2", "y")}
UPSET_CHECKS = [
    ("rn1", ["vectors/rn1/golden/fuzz-seed12.vec", "tests/upset/rn1_contend.vec"], []),
    ("lc3", LC3_STIMULI + ["tests/upset/lc3_busy.vec"], ["--tries", "24"]),
    ("p2s", ["vectors/p2s/golden/fuzz-p2s-seed5.vec", "vectors/p2s/golden/tables.vec",
             "vectors/p2s/golden/echo_bit14.vec"] + _vecs("tests/upset/p2s_*.vec"),
     ["--tries", "24"]),
    ("lc3node", LC3NODE_STIMULI, ["--tries", "24"]),
    ("p2snode", ["build/upset/p2snode"] + _vecs("vectors/node/golden/*.vec", "p2snode"),
     ["--tries", "24"]),
    ("lc3node2", ["build/upset/lc3node2x", "build/upset/lc3node2y"]
     + _vecs("vectors/node/golden/*.vec", "lc3node2"), ["--tries", "48"]),
    ("p2snode2", ["build/upset/p2snode2x", "build/upset/p2snode2y"]
     + _vecs("vectors/node/golden/*.vec", "p2snode2"), ["--tries", "48"]),
    # The composites: a sample of a part's elements reached through the part's prefix.
    ("ring4 part 2 (n2.)", _vecs("vectors/ring/golden/*.vec", "ring4"),
     ["--part", "2", "--only", "lrt,pipe,rxq.count,psb.brt,psb.sf.count,psb.node", "--bits", "2",
      "--tries", "24"]),
    ("p2sring3 part 1 (n1.)", ["vectors/ring/golden/fuzz-p2sring3-seed6.vec"],
     ["--part", "1", "--only", "lrt,pool.state,ins.kind,psb.asel,psb.rf.count", "--bits", "2",
      "--tries", "24"]),
    ("torus3x3 part 4 (n1.1.)", ["vectors/torus/golden/cut_x_3x3.vec",
                                 "vectors/torus/golden/deliver_xy_3x3.vec"],
     ["--part", "4", "--only", "x.lrt,y.lrt,y.ring_up,x.crc_errors,psb.node,psb.brt,psb.sf.count",
      "--bits", "2", "--tries", "24"]),
    ("rnpnet16x0w5 part 5 (r5.)", ["vectors/rnpnet/golden/fuzz-rnpnet16-seed5.vec"],
     ["--part", "5", "--only", "lfsr,f2.state,alloc,b3.out,seed", "--bits", "2"]),
]


def seu_command(stims, args):
    """ftsim upsetcheck over stims; a build/upset/<dir> stimulus is derived first."""
    derived = [d for d in stims if d.startswith("build/upset/")]
    if not derived:
        return [FTSIM, "upsetcheck", *stims, *args]
    sh = []
    for d in derived:
        device, lc = DERIVED[os.path.basename(d)]
        sh.append(f"rm -rf {d} && {sys.executable} tests/upset/derive.py {device} {lc} {d} "
                  + " ".join(LC3NODE_STIMULI))
    vecs = [f"{d}/*.vec" if d in derived else d for d in stims]
    sh.append(" ".join([FTSIM, "upsetcheck", *vecs, *args]))
    return ["sh", "-c", " && ".join(sh)]


def suite_upset():
    """Each element of each upset map flipped bit by bit against stimuli: seen from outside,
    the RTL and the C model in lockstep after it; a composite routes its parts' upsets by
    prefix."""
    return [Test("upset", f"{what}: every upset-map element seen, lockstep clean"
                 if "part" not in what else f"{what}: upsets reach the part, seen, lockstep clean",
                 seu_command(stims, args), counts_line)
            for what, stims, args in UPSET_CHECKS]


def monitor_check(*conds):
    """An `ftsim net --monitor-run` result (key=value lines) against (what, predicate) pairs."""
    def check(rc, out):
        if rc != 0:
            return f"exit status {rc}"
        kv = {}
        for line in out.splitlines():
            if "=" in line:
                k, v = line.split("=", 1)
                kv[k] = int(v) if v.isdigit() else v
        for what, pred in conds:
            try:
                ok = pred(kv)
            except (KeyError, TypeError):
                ok = False
            if not ok:
                return f"not {what}: " + " ".join(f"{k}={v}" for k, v in kv.items())
        return ""
    return check


# Every message delivered exactly once after the drain: none lost, none twice, none corrupt.
EXACTLY_ONCE = ("every message delivered exactly once",
                lambda kv: kv["lost"] == 0 and kv["duplicated"] == 0 and kv["corrupted"] == 0
                and kv["delivered"] == kv["generated"] > 0 and kv["drained"] == 1
                and kv["golden_detections"] == 0)
RECOVERED = ("recovered and re-probed", lambda kv: kv["recover_latency"] > 0 and kv["reprobes"] > 0)


def suite_rnp_monitor():
    """The host as the monitor of a loaded rnpnet64 (harness/rnp/rnp_upset.c): each detector
    catches the upset it is there for, recovery leaves every message delivered exactly once,
    and the run is what the campaign needs (lockstep clean, deterministic)."""
    run = [FTSIM, "net", "--monitor-run"]
    t = []
    t.append(Test("rnp-monitor", "no upset: no detector fires, every message delivered once",
                  run + ["none"], monitor_check(
                      ("no detection", lambda kv: kv["first"] == "none" and kv["outcome"] == "masked"),
                      ("self-test traffic sent", lambda kv: kv["test_msgs"] > 0), EXACTLY_ONCE)))
    t.append(Test("rnp-monitor", "no upset at load 0.8 (seed 3): no false alarm near saturation",
                  run + ["none", "--load", "0.8", "--seed", "3"], monitor_check(
                      ("no detection", lambda kv: kv["first"] == "none" and kv["golden_detections"] == 0
                       and kv["rewrites"] == 0 and kv["resets"] == 0), EXACTLY_ONCE)))
    t.append(Test("rnp-monitor", "alloc bit set with no owner (r5.alloc bit0): the watchdog within "
                  "2 T_wd, the router reset, exactly-once",
                  run + ["r5.alloc bit0", "--at", "100"], monitor_check(
                      ("first detector the watchdog", lambda kv: kv["first"] == "watchdog" and kv["outcome"] == "hung"),
                      ("within 2 T_wd", lambda kv: 0 < kv["det_watchdog"] - kv["at"] <= 2000),
                      ("the router reset", lambda kv: kv["resets"] >= 1), RECOVERED, EXACTLY_ONCE)))
    t.append(Test("rnp-monitor", "mode upset (r20.mode bit0, misroutes silently): the self-test first, "
                  "within T_st, configuration rewritten, exactly-once",
                  run + ["r20.mode bit0", "--at", "100"], monitor_check(
                      ("first detector the self-test", lambda kv: kv["first"] == "selftest" and kv["outcome"] == "selftest"),
                      ("within T_st", lambda kv: 0 < kv["det_selftest"] - kv["at"] <= 5000),
                      ("the upset misrouted data", lambda kv: kv["misrouted"] > 0),
                      ("the protocol saw nothing", lambda kv: kv["det_protocol"] == 0),
                      ("configuration rewritten", lambda kv: kv["rewrites"] >= 1), RECOVERED, EXACTLY_ONCE)))
    t.append(Test("rnp-monitor", "the same with the self-test off: not caught, the misrouting goes on",
                  run + ["r20.mode bit0", "--at", "100", "--no-selftest"], monitor_check(
                      ("no self-test detection", lambda kv: kv["det_selftest"] == 0 and kv["first"] != "selftest"),
                      ("no test traffic", lambda kv: kv["test_msgs"] == 0),
                      ("outcome misrouted", lambda kv: kv["outcome"] == "misrouted"),
                      ("lost/duplicated none", lambda kv: kv["lost"] == 0 and kv["duplicated"] == 0))))
    t.append(Test("rnp-monitor", "swallow upset (r5.swallow bit2): the protocol's diagnosis first, the "
                  "path rewritten, exactly-once",
                  run + ["r5.swallow bit2", "--at", "100"], monitor_check(
                      ("first detector the protocol", lambda kv: kv["first"] == "protocol"),
                      ("configuration rewritten", lambda kv: kv["rewrites"] >= 1), RECOVERED, EXACTLY_ONCE)))
    t.append(Test("rnp-monitor", "lockstep (RTL and C model) through the upset and the router reset: no "
                  "divergence, the RTL's assertion observed",
                  # at 110: an offset where bit 0 is clear, so the flip sets it with no owner (at 100
                  # the CRC-32's longer messages have port 0 allocated and the flip is masked)
                  run + ["r5.alloc bit0", "--at", "110", "--model", "both", "--warmup", "1000", "--window", "3000"],
                  monitor_check(
                      ("no divergence", lambda kv: kv["diverged"] == 0),
                      ("the RTL asserted (AllocIsOwned_A)", lambda kv: kv["asserted"] == 1),
                      ("caught by the watchdog", lambda kv: kv["first"] == "watchdog" and kv["resets"] >= 1),
                      EXACTLY_ONCE)))
    det = " ".join(run + ["'r20.mode bit0'", "--at", "100"])
    t.append(Test("rnp-monitor", "deterministic: the same run twice gives the same bytes",
                  ["sh", "-c", f"a=$({det}) && b=$({det}) && [ -n \"$a\" ] && [ \"$a\" = \"$b\" ] && echo same"],
                  exit_is(0, "same")))
    t.append(Test("rnp-monitor", "sites: the columns of rnpnet64's upset map, each site resolved by the network's map",
                  ["sh", "-c", " && ".join(f"{FTSIM} net --sites {c}" for c in ("config", "lfsr", "port", "all"))],
                  exit_is(0, "sites=1632", "last=r47.backchan bit0", "resolved=1632", "sites=768",
                          "last=r47.lfsr bit15", "resolved=768", "sites=17040", "first=r0.alloc bit0",
                          "resolved=17040", "sites=20208", "last=r47.b7.out bit8", "resolved=20208")))
    return t


def suite_mutants():
    """Each mutant breaks one behaviour of one model (or of the harness's FT-DRB hosts); the spec
    vectors (or the check it names) must catch it."""
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import mutants
    return [Test("mutants", f"{name}: {m[4]}", ["python3", "tests/mutants.py", name],
                 exit_is(0, "killed by"), timeout=900)
            for name, m in mutants.MUTANTS.items()]


def suite_campaign():
    """Campaigns over processes and shards (tests/campaign_check.py): --jobs 2 and 1 or 3
    shards merged give the bytes of the run whole; a merge of shards that are not one whole
    campaign is refused."""
    return [Test("campaign", f"{w}: --jobs 2, --shard 1/1 and K/3 merged == run whole"
                 + ("; merge refuses a missing, repeated, foreign or cut shard" if w == "faultcheck" else ""),
                 [sys.executable, "tests/campaign_check.py", w], counts_line)
            for w in ("faultcheck", "experiments", "upset")]


def suite_ftdrb_rnp():
    """FT-DRB (Zarza et al.) on RNP networks (harness/rnp/ftdrb_rnp.md), the quick experiment on
    rnpnet64: every run's ledger clean with the three tables, sources relaying around faults
    they learnt; a mutant deduplication the ledger must catch; lockstep with the RTL."""
    quick = [FTSIM, "experiment", "ftdrb-rnp", "--quick", "--quiet", "--json"]
    check = (
        "import json, subprocess, sys\n"
        "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "assert p.returncode == 0, (p.returncode, p.stderr[-2000:])\n"
        "j = json.loads(p.stdout)\n"
        "assert j['violations'] == 0, j['violations']\n"
        "rows = [r for r in j['rows'] if r['faults'] > 0]\n"
        "for r in j['rows']:\n"
        "    assert r['delivered'] + r['failed'] == r['msgs'] and r['violations'] == 0, r\n"
        "ps = [r for r in rows if r['table'] == 'per-source']\n"
        "relayed = sum(r['relayed'] for r in ps)\n"
        "assert relayed > 0 and all(r['relayed'] == 0 for r in rows if r['table'] != 'per-source'), relayed\n"
        "assert all(r['entries'] > 0 for r in ps), 'a per-source table learnt nothing'\n"
        "assert 0.35 <= j['load_fraction'] <= 0.65, j['load_fraction']\n"
        "print(f\"ledger clean in {len(j['rows'])} rows; per-source relayed {relayed} messages,"
        " delivered once each\")\n")
    t = [Test("ftdrb-rnp", "quick (rnpnet64): every message delivered once or failed to its "
              "source with each table; per-source sources relay around what they learnt",
              [sys.executable, "-c", check] + quick + ["--out", "build/ftdrb-rnp-test"],
              exit_is(0, "delivered once each"))]
    t.append(Test("ftdrb-rnp", "mutant: destinations dedup by the last sequence number per "
                  "source (relays reorder): the ledger catches it, exit 1",
                  quick[:-1] + ["--mutant", "dedup-last", "--out", "build/ftdrb-rnp-test"],
                  exit_is(1, "reported delivered but not there")))
    t.append(Test("ftdrb-rnp", "lockstep: the quick runs on rnpnet64 with a "
                  "1000-cycle window, RTL and C model, relays included: no divergence, ledger clean",
                  quick[:-1] + ["--cycles", "1000", "--model", "both", "--out",
                                "build/ftdrb-rnp-test"],
                  exit_is(0, "ledger: every message delivered once")))
    t.append(Test("ftdrb-rnp", "the contract's clauses (ftdrb_rnp.md 4b add, 4c spread by latency, 5a "
                  "relay buffer bound, 5b pushback, 5c relay sender, 6a CRC-32 default): about 12 s",
                  ["python3", "tests/ftdrb_rnp_spec.py"], exit_is(0, "PASS ftdrb-rnp-spec"), timeout=600))
    t.append(Test("ftdrb-rnp", "the weakened end-to-end check (--mutant crc8, seed 5) delivers a "
                  "corrupted message: the ledger fails the run, exit 1",
                  quick[:-1] + ["--seed", "5", "--mutant", "crc8", "--out", "build/ftdrb-rnp-test"],
                  exit_is(1, "corrupt or misdelivered")))
    t.append(Test("ftdrb-rnp", "bad input -> 2 before running: --endpoints 32, --mutant foo, "
                  "--json on rnp-load",
                  ["sh", "-c", f"{FTSIM} experiment ftdrb-rnp --endpoints 32; a=$?; "
                   f"{FTSIM} experiment ftdrb-rnp --mutant foo; b=$?; "
                   f"{FTSIM} experiment rnp-load --json; c=$?; echo codes $a $b $c"],
                  exit_is(0, "codes 2 2 2", "--endpoints (16, 64, 256 or 1024)",
                          "are ftdrb-rnp's: rnp-load")))
    return t


def suite_ft():
    """FTGM (Zhou et al.) on the running torus (tests/upset_ft.py): an upset in a live routing entry of a
    loaded 3x3 torus is caught first by the self-test within its interval, the nodes on the
    path are recovered, every message is delivered once; without the self-test it is not
    caught by it; in lockstep with the RTL; without the hosts' state messages are lost."""
    return [Test("ft", "upset in n1.1.x.lrt[0x12]: self-test first, recovered, exactly once "
                 "(csim, lockstep), self-test off, no host state",
                 [sys.executable, "tests/upset_ft.py"], counts_line),
            Test("ft", "no false alarm under load: saturated 3x3, 4x4, 8x8 tori with --ft and no "
                 "upset: no failed self-test read, watchdog, recovery or bad CRC; cost under 2 %",
                 [sys.executable, "tests/ft_load.py"], counts_line)]


def suite_runner():
    """The runner's own outputs: the JUnit file agrees with the closing line, and three shards
    merged hold every test of the unsharded run exactly once."""
    check = (
        "import re, subprocess, sys, xml.etree.ElementTree as ET\n"
        "run = lambda *a: subprocess.run([sys.executable, 'tests/run.py', '--suite', 'cli,malformed', *a],"
        " capture_output=True, text=True).stdout\n"
        "out = run('--junit', 'build/junit-selftest.xml')\n"
        "p, f = map(int, re.search(r'^(\\d+) passed, (\\d+) failed$', out, re.M).groups())\n"
        "r = ET.parse('build/junit-selftest.xml').getroot()\n"
        "n = len(r.findall('.//testcase')); nf = len(r.findall('.//failure'))\n"
        "assert (int(r.get('tests')), int(r.get('failures')), n, nf) == (p + f, f, p + f, f), (r.attrib, p, f)\n"
        "names = sorted((c.get('classname'), c.get('name')) for c in r.iter('testcase'))\n"
        "for k in (1, 2, 3): run('--shard', f'{k}/3', '--junit', f'build/junit-selftest-{k}.xml')\n"
        "m = subprocess.run([sys.executable, 'tests/run.py', '--merge-junit', 'build/junit-selftest-m.xml']"
        " + [f'build/junit-selftest-{k}.xml' for k in (1, 2, 3)], capture_output=True, text=True)\n"
        "merged = sorted((c.get('classname'), c.get('name'))"
        " for c in ET.parse('build/junit-selftest-m.xml').getroot().iter('testcase'))\n"
        "assert m.returncode == (1 if f else 0) and merged == names, (m.stdout, m.stderr, len(merged), len(names))\n"
        "print(f'junit: {p + f} tests = the closing line; 3 shards merged: each test once')\n")
    return [Test("runner", "JUnit XML equals the closing line; --shard 1..3/3 + --merge-junit run "
                 "each test once", [sys.executable, "-c", check], exit_is(0, "each test once"))]


def suite_docs():
    """The docs kept true and the tree's limits (tests/docs_check.py, one test a check), and the
    checks' own test: each one fails on a scratch copy broken on purpose."""
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import docs_check
    return [Test("docs", f"{name}: {what}", [sys.executable, "tests/docs_check.py", "--check", name],
                 timeout=300) for name, (_, what) in docs_check.CHECKS.items()] + \
        [Test("docs", "each check fails on a copy broken on purpose",
              [sys.executable, "tests/docs_selftest.py"], counts_line)]

# The gate-level models (harness/gate/README.md): make gate builds them beside the binary.
GATE_DIR = os.environ.get("FTSIM_GATE_DIR", os.path.join(os.path.dirname(FTSIM), "gate"))


def gate_devices():
    """The devices whose gate-level model is built (build/gate/DEVICE.so)."""
    return [d for d in designs.devices() if os.path.exists(os.path.join(GATE_DIR, d + ".so"))]


def suite_gate():
    """The synthesized netlists with a built model (make gate): every spec and golden vector of
    each such device, without upsets, on its netlist in lockstep with the C model; each vector
    with upsets refused there with its line; ftsim info naming the netlist and its hash. In
    make test when a model is built (seconds); none built: not run, and said so."""
    devs = gate_devices()
    if not devs:
        return [Test("gate", "a gate-level model is built (make gate)",
                     ["bash", "-c", f"ls {GATE_DIR}/*.so"], exit_is(0))]
    t = []
    by = vectors_by_device(os.path.join("vectors", "*", "*", "*.vec"))
    for dev in devs:
        net = os.path.join("build", "synth", dev + ".v")
        t.append(Test("gate", f"{dev}: ftsim info names its netlist and the netlist's SHA-256",
                      ["bash", "-c", f"h=$(sha256sum {net} | cut -c1-64); {FTSIM} info {dev} | "
                       f"grep -A1 'gate-level netlist (--model gate): .*/{net}$' | grep \"sha256 $h\""],
                      exit_is(0, "sha256")))
        for vec in by.get(dev, []):
            if has_upset(vec):
                t.append(Test("gate", f"{vec} [gate]: its upset refused on the netlist",
                              [FTSIM, "play", vec, "--model", "gate"],
                              exit_is(2, f"{vec}:", "an upset (seu) names a register of the RTL",
                                      f"FAIL {vec}")))
            else:
                t.append(Test("gate", f"{vec} [gate-both]", [FTSIM, "play", vec, "--model", "gate-both"],
                              exit_is(0, f"PASS {vec}")))
            t[-1].vec = vec
    t.append(Test("gate", "play --model gate on a device with no gate-level model: exit 2, says how",
                  [FTSIM, "play", os.path.relpath(sorted(glob.glob(os.path.join(ROOT, "vectors", "ring", "spec", "*.vec")))[0], ROOT),
                   "--model", "gate"],
                  exit_is(2, "no gate-level model", "make gate")))
    return t


def suite_gate_icarus():
    """The netlists' slow checks (make gate-test): the same vectors as exported testbenches of
    each netlist under Icarus, four-state; LC3's netlist without its memories' initial contents
    failing where a vector reads an entry nothing wrote; a netlist with one gate changed failing
    some vector (tests/gate/)."""
    devs = gate_devices()
    if not devs:
        return suite_gate()
    t = []
    by = vectors_by_device(os.path.join("vectors", "*", "*", "*.vec"))
    for dev in devs:
        vecs = [v for v in by.get(dev, []) if not has_upset(v)]
        t.append(Test("gate-icarus", f"{dev}: its {len(vecs)} spec and golden vectors without upsets as "
                      "exported testbenches of its netlist under Icarus (four-state)",
                      ["python3", "tests/icarus/export_check.py", "netlist", dev, *vecs],
                      exit_is(0, "PASS export_check"), timeout=900))
    if "lc3" in devs:
        t.append(Test("gate-icarus", "lc3.v with its memories' initial contents taken out (an ASIC's "
                      "SRAM): under Icarus the vectors that read an entry nothing wrote see X and fail",
                      ["python3", "tests/gate/noinit.py", "lc3"], exit_is(0, "PASS noinit"),
                      timeout=900))
    if "rn1" in devs:
        t.append(Test("gate-icarus", "rn1.v with one gate changed (seed 1) fails some vector on its model",
                      ["python3", "tests/gate/broken.py", "--seed", "1"], exit_is(0, "PASS broken-gate"),
                      timeout=900))
    return t

SUITES = {
    "lint": suite_lint,
    "csim-unit": suite_csim,
    "spec-vectors": lambda: suite_vectors("spec", ["both", "rtl", "csim"]),
    "golden-vectors": lambda: suite_vectors("golden", ["both"]),
    "golden-fresh": suite_golden_fresh,
    "sc": suite_sc,
    "malformed": suite_malformed,
    "cli": suite_cli,
    "waves": suite_waves,
    "icarus": suite_icarus,
    "cocotb": suite_cocotb,
    "fuzz": suite_fuzz,
    "net-fuzz": suite_netfuzz,
    "sci-fuzz": suite_scifuzz,
    "torus": suite_torus,
    "upset": suite_upset,
    "rnp-monitor": suite_rnp_monitor,
    "mutants": suite_mutants,
    "runner": suite_runner,
    "campaign": suite_campaign,
    "ftdrb-rnp": suite_ftdrb_rnp,
    "ft": suite_ft,
    "docs": suite_docs,
    "gate": suite_gate,
    "gate-icarus": suite_gate_icarus,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--suite", action="append", metavar="NAME[,NAME]",
                    help="run only these suites (repeatable, or comma-separated): "
                         + ", ".join(SUITES))
    ap.add_argument("--skip", metavar="NAME[,NAME]", default="",
                    help="leave these suites out (make test SAN=1 skips the mutants)")
    ap.add_argument("--vec", metavar="GLOB",
                    help="only the tests that play vectors matching GLOB (a path or a file "
                         "name, e.g. 'vectors/torus/*' or 'cut_*'); with no --suite, the "
                         "spec and golden vector suites")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every test")
    ap.add_argument("--junit", metavar="PATH", default=os.path.join("build", "junit.xml"),
                    help="write the results as JUnit XML (default build/junit.xml; with --shard "
                         "give each shard its own)")
    ap.add_argument("--shard", metavar="K/N",
                    help="run only the K-th of N deterministic shares of the selected tests "
                         "(K 1..N), for a job array over machines; merge with --merge-junit")
    ap.add_argument("--merge-junit", nargs="+", metavar=("OUT", "IN"),
                    help="join shards' JUnit files IN... into OUT, checking every test appears "
                         "once; prints the closing line of the whole run")
    args = ap.parse_args()
    if args.merge_junit:
        if len(args.merge_junit) < 2:
            ap.error("--merge-junit OUT IN...")
        return junit_merge(args.merge_junit[0], args.merge_junit[1:])
    shard = None
    if args.shard:
        m = re.fullmatch(r"(\d+)/(\d+)", args.shard)
        if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
            ap.error(f"--shard {args.shard}: want K/N with 1 <= K <= N")
        shard = (int(m.group(1)), int(m.group(2)))
    names = [n for arg in args.suite or [] for n in arg.split(",") if n]
    bad = [n for n in names if n not in SUITES]
    if bad:
        ap.error(f"unknown suite {bad[0]!r} (suites: {', '.join(SUITES)})")
    if not names:
        names = ["spec-vectors", "golden-vectors"] if args.vec else list(SUITES)
        if not args.vec:
            names.remove("gate-icarus")  # longer than make test's budget: make gate-test
            if not gate_devices():
                names.remove("gate")
                print(f"gate: not run (no gate-level model in {GATE_DIR}/: make gate builds them)")
    names = [n for n in names if n not in args.skip.split(",")]
    tests = [t for n in names for t in SUITES[n]()]
    if args.vec:
        tests = [t for t in tests if t.vec and (fnmatch.fnmatch(t.vec, args.vec)
                                                or fnmatch.fnmatch(os.path.basename(t.vec), args.vec))]
        if not tests:
            print(f"run.py: no test plays a vector matching {args.vec!r} in suites "
                  f"{', '.join(names)}", file=sys.stderr)
            return 2
    if shard:
        # Sorted by suite and name, every N-th from K-1: each suite spreads over the shards.
        ordered = sorted(tests, key=lambda t: (t.suite, t.name, " ".join(t.cmd)))
        tests = [t for i, t in enumerate(ordered) if i % shard[1] == shard[0] - 1]
        names = [n for n in names if any(t.suite == n for t in tests)]
    suite_wall = {}
    started = time.monotonic()
    first_start, last_end = {}, {}
    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futs = {}
        for t in sorted(tests, key=lambda t: t.suite not in ("mutants", "fuzz", "net-fuzz", "sci-fuzz")):  # long first
            futs[pool.submit(lambda t=t: (time.monotonic(), run_one(t), time.monotonic()))] = t
        for fut in cf.as_completed(futs):
            a, t, b = fut.result()
            first_start[t.suite] = min(first_start.get(t.suite, a), a)
            last_end[t.suite] = max(last_end.get(t.suite, b), b)
            if args.verbose or not t.ok:
                print(f"{'ok  ' if t.ok else 'FAIL'} {t.suite}: {t.name} ({t.secs:.1f} s)")
            if not t.ok:
                print(f"     command: {' '.join(t.cmd)}\n     why: {t.why}")
                for line in t.out.strip().splitlines()[-12:]:
                    print(f"     | {line}")
                if t.extra:
                    print(f"     {t.extra}")
            sys.stdout.flush()
    print()
    print(f"{'suite':<16}{'passed':>8}{'failed':>8}{'cpu s':>9}{'wall s':>9}")
    for n in names:
        ts = [t for t in tests if t.suite == n]
        if not ts:
            continue
        suite_wall[n] = last_end.get(n, 0) - first_start.get(n, 0)
        print(f"{n:<16}{sum(t.ok for t in ts):>8}{sum(not t.ok for t in ts):>8}"
              f"{sum(t.secs for t in ts):>9.1f}{suite_wall[n]:>9.1f}")
    print(f"total wall time {time.monotonic() - started:.1f} s on {args.jobs} jobs")
    passed = sum(t.ok for t in tests)
    failed = len(tests) - passed
    if args.junit:
        junit_write(args.junit, names, tests, args.shard)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


# ---- JUnit XML: what Jenkins, GitLab and GitHub show natively --------------------------------

def junit_write(path, names, tests, shard):
    root = ET.Element("testsuites", name="ftsim make test" + (f" shard {shard}" if shard else ""),
                      tests=str(len(tests)), failures=str(sum(not t.ok for t in tests)),
                      time=f"{sum(t.secs for t in tests):.3f}")
    for n in names:
        ts = [t for t in tests if t.suite == n]
        suite = ET.SubElement(root, "testsuite", name=n, tests=str(len(ts)),
                              failures=str(sum(not t.ok for t in ts)),
                              time=f"{sum(t.secs for t in ts):.3f}")
        for t in ts:
            case = ET.SubElement(suite, "testcase", classname=n, name=t.name, time=f"{t.secs:.3f}")
            ET.SubElement(case, "system-out").text = "command: " + " ".join(t.cmd)
            if not t.ok:
                tail = "\n".join(t.out.strip().splitlines()[-30:])
                fail = ET.SubElement(case, "failure", message=t.why)
                fail.text = f"command: {' '.join(t.cmd)}\n{tail}" + (f"\n{t.extra}" if t.extra else "")
    os.makedirs(os.path.dirname(os.path.join(ROOT, path)) or ".", exist_ok=True)
    ET.ElementTree(root).write(os.path.join(ROOT, path), encoding="utf-8", xml_declaration=True)


def junit_merge(out, ins):
    """Join shards' files: one testsuite per suite name, each test once."""
    suites, seen = {}, set()
    for path in ins:
        try:
            root = ET.parse(path).getroot()
        except (OSError, ET.ParseError) as e:
            print(f"{path}: cannot read a JUnit file: {e}", file=sys.stderr)
            return 2
        for suite in root.iter("testsuite"):
            for case in suite.iter("testcase"):
                key = (case.get("classname"), case.get("name"))
                if key in seen:
                    print(f"{path}: test {key[0]}: {key[1]} is in two shards", file=sys.stderr)
                    return 2
                seen.add(key)
                suites.setdefault(suite.get("name"), []).append(case)
    cases = [c for cs in suites.values() for c in cs]
    nfail = sum(c.find("failure") is not None for c in cases)
    root = ET.Element("testsuites", name="ftsim make test (merged)", tests=str(len(cases)),
                      failures=str(nfail),
                      time=f"{sum(float(c.get('time', 0)) for c in cases):.3f}")
    for name in sorted(suites, key=lambda n: list(SUITES).index(n) if n in SUITES else 99):
        cs = suites[name]
        suite = ET.SubElement(root, "testsuite", name=name, tests=str(len(cs)),
                              failures=str(sum(c.find("failure") is not None for c in cs)),
                              time=f"{sum(float(c.get('time', 0)) for c in cs):.3f}")
        suite.extend(cs)
    ET.ElementTree(root).write(out, encoding="utf-8", xml_declaration=True)
    print(f"{len(cases) - nfail} passed, {nfail} failed")
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
