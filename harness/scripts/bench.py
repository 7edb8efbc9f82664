#!/usr/bin/env python3
"""make bench: simulated cycles per second, measured side by side in this one run.

usage: bench.py [--base FTSIM --base-label REV] [--repeat K] [--cycles N] [--rtl-sizes S]
                [--only-cocotb | --only-torus | --only-devices]

Every measurement is a whole ftsim run whose own report gives its speed (simulated cycles
over wall time). Each is run K times (default 5) and the best is kept: the machine is shared,
so the fastest try is the fairest. With --base, the same runs are made with a second ftsim
binary (a revision built by `make bench BASE=REV`), alternating base and this tree run by run,
so both see the same machine; the ratio this/base is the median of the per-round ratios.
"""
import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import designs  # noqa: E402  (rtl/files.txt, the manifest of the designs)
THIS = os.path.join("build", "ftsim")


def run(cmd):
    p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL)
    out = p.stdout.decode("utf-8", "replace")
    if p.returncode != 0:
        sys.exit(f"bench: `{' '.join(cmd)}` failed (exit {p.returncode}):\n{out[-1500:]}")
    return out


def grab(pattern, text, what):
    m = re.search(pattern, text, re.M)
    if not m:
        sys.exit(f"bench: no figure for {what} in:\n{text[-1500:]}")
    return float(m.group(1))


# ---- the measurements: each is a list of jobs; a job is one ftsim command (without the binary)
# and what its output gives, {row name: cycles/s}. Row names are "DEVICE, RUN"; RUN is rtl, csim,
# lockstep or rtl + FST where a device runs on each, so every device's speed on every model reads
# in one table. A job runs on this tree's binary and the base's back to back (the order flipping
# from job to job and round to round), so each ratio compares two runs seconds apart: this
# machine's speed moves by tens of percent from one run to the next, and a pair taken apart by a
# whole group of runs would measure that, not the code.

class Job:
    def __init__(self, args, parse, needs=None):
        self.args, self.parse = args, parse
        self.needs = needs  # None, or needs(binary) -> can that binary run it?


def wave(name):
    os.makedirs(os.path.join(ROOT, "build", "bench"), exist_ok=True)
    return os.path.join("build", "bench", name + ".fst")


def rn1(a):
    """RN1: the fuzz traffic and its captured stimulus replayed, on each model (ftsim bench)."""
    def parse(out):
        res = {}
        for mode, name in (("rtl", "rtl"), ("csim", "csim"), ("lockstep (rtl+csim)", "lockstep"),
                           ("rtl + FST", "rtl + FST")):
            m = re.search(r"^\| " + re.escape(mode) + r" \| (\d+) \| [^|]* \| (\d+) \|", out, re.M)
            if not m:
                sys.exit(f"bench: ftsim bench printed no row for {mode}:\n{out[-1500:]}")
            res[f"RN1 fuzz traffic, {name}"] = float(m.group(1))
            res[f"RN1 stimulus replayed, {name}"] = float(m.group(2))
        return res
    return [Job(["bench", "--cycles", str(a.cycles), "--repeat", "1"], parse)]


def one(key, pattern):
    """A parser for a run that prints one figure."""
    return lambda out: {key: grab(pattern, out, key)}


def fuzz_rows(label, args, cycles):
    """One fuzz run per model, and the RTL again with an FST; the fuzz prints its speed."""
    return [Job(["fuzz", *args, "--cycles", str(cycles), "--quiet", *extra],
                one(f"{label}, {name}", r"\((\d+) cycles/s\)"))
            for name, extra in (("rtl", ["--model", "rtl"]), ("csim", ["--model", "csim"]),
                                ("lockstep", ["--model", "both"]),
                                ("rtl + FST", ["--model", "rtl", "--wave", wave(label.split()[0])]))]


def sci_lc(a):
    """One SCI link controller (LC3) under the fuzz's random stimulus."""
    return fuzz_rows("LC3 controller", ["--device", "lc3", "--seed", "1"], a.ring_cycles)


def rnpnet(a):
    """An RNP network of 48 RN1s (64 endpoints), 4 faults, the backward channel on."""
    return fuzz_rows("rnpnet64 (48 routers)", ["--device", "rnpnet", "--endpoints", "64",
                                               "--faults", "4", "--backchan", "--seed", "3"],
                     a.net_cycles)


RING = ["--device", "ring", "--nodes", "8", "--lc3", "--no-cuts", "--gap", "1", "--seed", "1"]


def ring(a):
    """A ring of 8 LC3 nodes under saturating host traffic (every flow always has a message in
    flight, no cable pulls), the same seed on each model."""
    return fuzz_rows("SCI ring of 8", RING, a.ring_cycles)


TORUS = ["torus", "--torus", "3x3", "--scenario", "tests/scenarios/pull_restore_3x3.scn",
         "--time-scale", "100", "--run", "3ms"]
CPS = r" = (\d+) simulated cycles/s"


def torus(a):
    """The running 3x3 torus (ftsim torus): the paper's flows, a cable pulled and put back, the
    drivers at time scale 100; the C model with and without idle skipping."""
    return [Job([*TORUS, *extra], one(f"SCI 3x3 torus running, {name}", CPS))
            for name, extra in (("rtl", ["--model", "rtl"]), ("csim", ["--model", "csim", "--no-skip"]),
                                ("csim, idle edges skipped", ["--model", "csim"]),
                                ("lockstep", ["--model", "both"]),
                                ("rtl + FST", ["--model", "rtl", "--wave", wave("torus3x3")]))]


def helps(text):
    """needs(): the binary's `ftsim torus --help` mentions text (a feature the base may lack)."""
    seen = {}

    def needs(ft):
        if ft not in seen:
            seen[ft] = text in run([ft, "torus", "--help"])
        return seen[ft]
    return needs


def node_cycles(key, w, h):
    return lambda out: {key: grab(CPS, out, key) * w * h}


# The torus size sweep: P2S, light uniform traffic, the C model; (size, simulated run). Each
# run lasts about half a second or more: 400 us of a 2x2 torus took 5 ms, where one scheduler
# tick decides the ratio.
SWEEP = [("2x2", "40ms"), ("4x4", "8ms"), ("8x8", "2ms"), ("16x16", "200us"),
         ("32x32", "100us")]


def sweep(a):
    """Node-cycles/s of a P2S torus by size, on 1 thread and on 2."""
    jobs = []
    for size, t in SWEEP:
        w, h = map(int, size.split("x"))
        cmd = ["torus", "--torus", size, "--p2s", "--traffic", "uniform", "--every", "50us",
               "--time-scale", "1000", "--run", t]
        name = f"P2S torus {size} node-cycles/s, csim"
        jobs.append(Job(cmd, node_cycles(f"{name}, 1 thread", w, h)))
        jobs.append(Job([*cmd, "--threads", "2"], node_cycles(f"{name}, 2 threads", w, h),
                        helps("--threads")))
    return jobs


# The devices with a fuzzer of their own, whose synthesized netlist is benched when its
# gate-level model is built (make gate: gate/DEVICE.so beside the binary; harness/gate).
GATE_FUZZ = {"rn1": (["--device", "rn1", "--seed", "1"], "cycles"),
             "lc3": (["--device", "lc3", "--seed", "1"], "ring_cycles"),
             "p2s": (["--device", "p2s", "--seed", "1"], "ring_cycles")}


def gate(a):
    """Each netlist with a model beside the binary: the fuzz on its RTL, its C model and its
    netlist (--model gate), the same seed; nothing when no netlist was built."""
    jobs = []
    for dev, (args, cyc) in GATE_FUZZ.items():
        def built(ft, dev=dev):
            return os.path.exists(os.path.join(ROOT, os.path.dirname(ft), "gate", dev + ".so"))
        for name in ("rtl", "csim", "gate"):
            jobs.append(Job(["fuzz", *args, "--cycles", str(getattr(a, cyc)), "--quiet", "--model", name],
                            one(f"{dev} netlist bench (fuzz), {name}", r"\((\d+) cycles/s\)"), built))
    return jobs


# The RTL torus by size (LC3 up to 16x16, P2S at 32x32), light uniform traffic: (size, variant,
# simulated run), short: a 16x16 RTL torus runs some thousand cycles a second.
RTL_SWEEP = [("3x3", "", "200us"), ("8x8", "", "30us"), ("16x16", "", "10us"),
             ("32x32", "--p2s", "2us")]


def rtl_sweep(a):
    """Node-cycles/s of the RTL torus by size, on 1 thread and (where the binary runs the RTL in
    parts) on 2."""
    jobs = []
    for size, var, t in RTL_SWEEP:
        if a.rtl_sizes and size not in a.rtl_sizes.split(","):
            continue
        w, h = map(int, size.split("x"))
        name = f"{'P2S' if var else 'LC3'} torus {size} node-cycles/s, rtl"
        base = ["torus", "--torus", size, *([var] if var else []), "--model", "rtl", "--traffic",
                "uniform", "--every", "50us", "--time-scale", "1000", "--run", t]
        # one thread: the base may not take --threads for the RTL; two: only where it runs in parts
        jobs.append(Job(base, node_cycles(f"{name}, 1 thread", w, h)))
        jobs.append(Job([*base, "--threads", "2"], node_cycles(f"{name}, 2 threads", w, h),
                        helps("Verilator context")))
    return jobs


MEASUREMENTS = [rn1, sci_lc, ring, torus, rnpnet, sweep, rtl_sweep, gate]


def icarus(a):
    """Verilator vs Icarus on the same RN1 fuzz stimulus (this tree only: the simulators, not
    the harness, are compared)."""
    os.makedirs(os.path.join(ROOT, "build", "icarus"), exist_ok=True)
    n = a.icarus_cycles
    out = run([THIS, "stim", "--cycles", str(n), "--seed", "1", "-o", "build/icarus/bench.hex",
               "--time-rtl"])
    v = grab(r"^verilator\s+\S+\s+(\d+)", out, "verilator")
    rtl = next(d.paths("rtl", ".v") for d in designs.load() if d.name == "rn1")
    run(["iverilog", "-g2012", "-Irtl", "-o", "build/icarus/tb_rn1_replay.vvp",
         "tests/icarus/tb_rn1_replay.sv", *rtl])
    t0 = time.monotonic()
    run(["vvp", "-n", "build/icarus/tb_rn1_replay.vvp", "+stim=build/icarus/bench.hex", f"+cycles={n}"])
    i = n / (time.monotonic() - t0)
    print(f"Verilator vs Icarus, the same {n}-cycle fuzz stimulus replayed on the RN1 RTL (no tracing):\n")
    print("| simulator | cycles/s | ratio |\n|---|---:|---:|")
    print(f"| Verilator 5.006 (-O3, OPT_FAST=-O2) | {v:.0f} | {v / i:.0f}x |")
    print(f"| Icarus 11 (vvp) | {i:.0f} | 1x |\n")


COCOTB_PY = os.path.join("build", "venv", "bin", "python")
COCOTB_DEVICES = ("rn1", "lc3", "p2s")
# ftsim plays the vectors this many times in one process, so that its start (a few ms, more
# than the vectors' own time) does not count against it: cocotb's figure leaves out its own.
COCOTB_VEC_TIMES = 20


def cocotb(a):
    """The C harness against a cocotb bench of the same RTL (this tree only): ftsim's RN1 fuzz
    stimulus (tests/cocotb/test_stim.py, whose signature must be the C model's) and the spec
    vectors of rn1, lc3 and p2s (tests/cocotb/test_replay.py), cocotb on Icarus and on
    Verilator. The C harness's figures: `ftsim stim --time-rtl` (its replay of the stimulus on
    the Verilated RTL, timed by itself) and `ftsim play --model rtl` over every vector, 20 times
    in one process, the whole run timed (its start included); cocotb's are the tests' own time
    (the simulator's start-up and the build excluded), so the ratios lean, if anything, toward
    cocotb."""
    n = a.cocotb_cycles
    hexf = os.path.join("build", "bench", "cocotb-stim.hex")
    os.makedirs(os.path.join(ROOT, "build", "bench"), exist_ok=True)
    vecs = sorted(os.path.relpath(p, ROOT) for d in COCOTB_DEVICES
                  for p in glob.glob(os.path.join(ROOT, "vectors", d, "spec", "*.vec")))
    doc = json.loads(run([THIS, "vec-json", *vecs]))
    cycles = sum(v["end"] + 1 + 2 + len(v["init"]) for v in doc["vectors"])
    best, ratios = {}, {}

    def keep(k, v):
        best[k] = max(best.get(k, 0.0), v)
        return v

    for _ in range(a.repeat):
        out = run([THIS, "stim", "--cycles", str(n), "--seed", "1", "-o", hexf, "--time-rtl"])
        got = {"stim C": grab(r"^verilator rtl (\d+) cycles/s", out, "ftsim stim --time-rtl")}
        t0 = time.monotonic()
        run([THIS, "play", "--model", "rtl", *vecs * COCOTB_VEC_TIMES])
        got["vec C"] = cycles * COCOTB_VEC_TIMES / (time.monotonic() - t0)
        for sim in ("verilator", "icarus"):
            out = run([COCOTB_PY, "tests/cocotb/run.py", "stim", "--sim", sim, "--cycles", str(n)])
            got[f"stim {sim}"] = grab(r"^cocotb \w+: .* (\d+) cycles/s, signature", out,
                                      f"cocotb stim {sim}")
            out = run([COCOTB_PY, "tests/cocotb/run.py", "replay", "--sim", sim, *vecs])
            got[f"vec {sim}"] = grab(r"^cocotb \w+: replayed .* (\d+) cycles/s", out,
                                     f"cocotb replay {sim}")
        for k, v in got.items():
            keep(k, v)
            what, sim = k.split()
            if sim != "C":  # the ratio of this round's runs, taken side by side
                ratios.setdefault(k, []).append(got[f"{what} C"] / v)
    print(f"The C harness and a cocotb bench (cocotb 1.8.1) on the same RTL, best of {a.repeat}: "
          f"the RN1 fuzz stimulus of `ftsim stim --seed 1`, {n} cycles (the same output signature "
          f"on each), and the {len(vecs)} spec vectors of {', '.join(COCOTB_DEVICES)} ({cycles} "
          f"cycles with their resets; ftsim plays them {COCOTB_VEC_TIMES} times in one run):\n")
    print("| run | cycles/s | C harness / this (median of rounds) |\n|---|---:|---:|")
    for what, key in (("RN1 fuzz stimulus", "stim"), ("spec vectors", "vec")):
        c = best[f"{key} C"]
        print(f"| {what}, C harness on Verilator | {c:.0f} | 1x |")
        for sim, name in (("verilator", "Verilator 5.006"), ("icarus", "Icarus 11")):
            v = best[f"{key} {sim}"]
            r = statistics.median(ratios[f"{key} {sim}"])
            print(f"| {what}, cocotb on {name} | {v:.0f} | {r:.0f}x |")
    print()


def systemc(a):
    """The SystemC harness beside the C harness (build/ftsim-sc bench): RN1's fuzz traffic and its
    stimulus replayed, on each model, both harnesses in one process, best of --repeat."""
    sc = os.path.join("build", "ftsim-sc")
    if not os.path.exists(os.path.join(ROOT, sc)):
        print("(no build/ftsim-sc: make sc-build adds the SystemC harness rows)\n")
        return
    out = run([sc, "bench", "--cycles", str(a.sc_cycles), "--repeat", str(a.repeat)])
    rows = [l for l in out.splitlines() if l.startswith("|")]
    print(f"The C harness and the SystemC harness (harness/sc/), RN1 {a.sc_cycles} cycles a run, "
          f"the same fuzz traffic and the same stimulus replayed, best of {a.repeat}, cycles/s:\n")
    print("\n".join(rows) + "\n")
    # The same vectors: every spec and golden vector of the single-device designs, in lockstep,
    # whole runs (process start included; ftsim-sc runs each file in a process of its own).
    import glob
    vecs = sorted(os.path.relpath(v, ROOT) for d in ("rn1", "lc3", "p2s", "node")
                  for k in ("spec", "golden") for v in glob.glob(os.path.join(ROOT, "vectors", d, k, "*.vec")))
    best = {}
    for _ in range(a.repeat):
        for label, ft in (("C harness", THIS), ("SystemC harness", sc)):
            t0 = time.monotonic()
            run([ft, "play", *vecs, "--model", "both"])
            best[label] = min(best.get(label, 1e9), time.monotonic() - t0)
    print(f"The same {len(vecs)} vectors (spec and golden of rn1, lc3, p2s, the nodes) in lockstep, "
          f"one command, wall seconds, best of {a.repeat}: C harness {best['C harness']:.2f} s, "
          f"SystemC harness {best['SystemC harness']:.2f} s "
          f"({best['SystemC harness'] / best['C harness']:.2f}x)\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", help="a second ftsim binary to bench side by side")
    ap.add_argument("--base-label", default="base", help="what the base binary is (a revision)")
    ap.add_argument("--repeat", type=int, default=int(os.environ.get("REPEAT", 5)))
    ap.add_argument("--cycles", type=int, default=int(os.environ.get("CYCLES", 1_000_000)))
    ap.add_argument("--ring-cycles", type=int, default=int(os.environ.get("RING_CYCLES", 300_000)))
    ap.add_argument("--net-cycles", type=int, default=int(os.environ.get("NET_CYCLES", 20_000)))
    ap.add_argument("--sc-cycles", type=int, default=int(os.environ.get("SC_CYCLES", 300_000)))
    ap.add_argument("--icarus-cycles", type=int, default=int(os.environ.get("ICARUS_CYCLES", 20_000)))
    ap.add_argument("--cocotb-cycles", type=int, default=int(os.environ.get("COCOTB_CYCLES", 20_000)))
    ap.add_argument("--only-cocotb", action="store_true",
                    help="only the C harness against cocotb (make bench ONLY=cocotb)")
    ap.add_argument("--rtl-sizes", default=os.environ.get("RTL_SIZES", ""),
                    help="only these sizes of the RTL torus sweep (e.g. 3x3,8x8; default all: the "
                         "32x32 P2S torus's RTL takes minutes to load its tables)")
    ap.add_argument("--only-devices", action="store_true",
                    help="only the single devices, the ring and rnpnet64, on each model (make "
                         "bench ONLY=devices): the rows that --only-torus leaves out")
    ap.add_argument("--only-torus", action="store_true",
                    help="only the running torus and the torus size sweeps, C and RTL "
                         "(make bench ONLY=torus)")
    a = ap.parse_args()
    if a.only_cocotb + a.only_torus + a.only_devices > 1:
        ap.error("--only-cocotb, --only-torus and --only-devices exclude one another")
    if a.repeat < 1:
        ap.error("--repeat takes a whole number >= 1")
    with open("/proc/cpuinfo", encoding="utf-8") as f:
        cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "?")
    print(f"machine: {os.cpu_count()} cores, {cpu}, {time.strftime('%Y-%m-%d', time.gmtime())}")
    if a.only_cocotb:
        cocotb(a)
        return 0
    bins = [("this", THIS)] + ([("base", a.base)] if a.base else [])
    best = {b: {} for b, _ in bins}
    ratios = {}
    measurements = ([torus, sweep, rtl_sweep] if a.only_torus else
                    [rn1, sci_lc, ring, rnpnet, gate] if a.only_devices else MEASUREMENTS)
    jobs = [j for meas in measurements for j in meas(a)]
    for r in range(a.repeat):
        for i, job in enumerate(jobs):
            got = {}
            # This tree and the base back to back, the first of the two flipping job by job and
            # round by round, so that neither always runs on a warmer (or busier) machine.
            for b, ft in (bins if (r + i) % 2 == 0 else bins[::-1]):
                if job.needs and not job.needs(ft):
                    continue
                got[b] = job.parse(run([ft, *job.args]))
                for k, v in got[b].items():
                    best[b][k] = max(best[b].get(k, 0.0), v)
            if "this" in got and "base" in got:
                for k in got["this"]:
                    if k in got["base"]:
                        ratios.setdefault(k, []).append(got["this"][k] / got["base"][k])
        for f in glob.glob(os.path.join(ROOT, "build", "bench", "*.fst")):
            os.remove(f)
        print(f"round {r + 1} of {a.repeat} done", file=sys.stderr)
    print(f"\nSimulated cycles/s (node-cycles/s for the sweep), best of {a.repeat}. RN1 {a.cycles} "
          f"cycles a run; LC3 and the ring of 8 {a.ring_cycles}; rnpnet64 {a.net_cycles}; the 3x3 "
          f"torus {TORUS[-1]} of tests/scenarios/pull_restore_3x3.scn; the sweep: ftsim torus "
          "--torus WxH --p2s --traffic uniform --every 50us --time-scale 1000 --run T (T: "
          + ", ".join(f"{t} at {n}" for n, t in SWEEP) + "); the RTL sweep: the same traffic with "
          "--model rtl, --run " + ", ".join(f"{t} at {n}" for n, _, t in RTL_SWEEP) +
          " (32x32 P2S).\n")
    if a.base:
        print(f"| run | this tree | vs its rtl | {a.base_label} | this / {a.base_label} "
              "(median of rounds) |")
        print("|---|---:|---:|---:|---:|")
    else:
        print("| run | cycles/s | vs its rtl |\n|---|---:|---:|")
    for k, v in best["this"].items():
        group = k.split(", ", 1)[0]
        rtl = best["this"].get(f"{group}, rtl")
        vs = f"{v / rtl:.2f}x" if rtl and not k.endswith(", rtl") else ("1.00x" if rtl else "")
        if a.base:
            b = best["base"].get(k)
            r = f"{statistics.median(ratios[k]):.3f}" if k in ratios else "(not in base)"
            print(f"| {k} | {v:.0f} | {vs} | {b:.0f} | {r} |" if b else f"| {k} | {v:.0f} | {vs} | - | {r} |")
        else:
            print(f"| {k} | {v:.0f} | {vs} |")
    print()
    if a.only_torus or a.only_devices:
        return 0
    icarus(a)
    cocotb(a)
    systemc(a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
