#!/usr/bin/env python3
"""Campaigns over processes and shards give the output of one process, byte for byte.

usage: tests/campaign_check.py faultcheck|experiments|seu   (from the repository's root)

For each campaign below: the command run whole (the reference), with --jobs 2, as one shard
(--shard 1/1) and as three (one of them on two processes), each set of shards merged by
`ftsim merge` (given in a shuffled order): stdout, the exit status and the files the command
writes (CSV, JSON) must equal the reference's; faultcheck's closing wall-time figure aside.
`faultcheck` also checks that merge refuses shards that are not one whole campaign (one
missing, one twice, another seed, a file cut short, not a shard) with exit 2 and FILE:LINE, and
that a shard that failed (killed part way, cut short, empty, missing) is named with its K and the
command that runs it again, which run alone completes the merge; a shard that ran under Slurm
says so (its `slurm` header line) and merges to the same bytes.
Ends with `N passed, N failed`.
"""
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FTSIM = os.environ.get("FTSIM", os.path.join(ROOT, "build", "ftsim"))
WORK = os.path.join(ROOT, "build", "campaign-check")
results = []


def check(ok, what, detail=""):
    ok = bool(ok)
    results.append(ok)
    print(f"{'ok  ' if ok else 'FAIL'} {what}" + ("" if ok else f"\n     {detail}"))


def ftsim(args, out=None):
    """Runs ftsim; (exit status, stdout with the wall-time figure removed, stderr)."""
    p = subprocess.run([FTSIM, *args], cwd=ROOT, capture_output=True)
    text = re.sub(rb"; \d+ s\n", b"; - s\n", p.stdout)
    if out:
        with open(out, "wb") as f:
            f.write(p.stdout)
    return p.returncode, text, p.stderr.decode(errors="replace")





def side_files(d):
    """The files the command wrote under d, by name, with their bytes (then d is emptied)."""
    files = {}
    for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        with open(os.path.join(d, name), "rb") as f:
            files[name] = f.read()
    shutil.rmtree(d, ignore_errors=True)
    return files


def campaign(name, args, side):
    """args: the command line (side: the folder its files go to). Exit status, stdout and
    stderr are compared (the commands here are quiet: stderr holds only what went wrong).
    Returns the shard paths of the three-shard run, for the refusal checks."""
    ref = ftsim(args)
    ref_files = side_files(side)
    check(ref[0] in (0, 1), f"{name}: runs whole (exit {ref[0]})", ref[2][-300:])

    def same(what, got, files):
        check(got == ref and files == ref_files, f"{name}: {what} == run whole",
              f"exit {got[0]} vs {ref[0]}; stdout {'same' if got[1] == ref[1] else 'differs'}; "
              f"stderr {'same' if got[2] == ref[2] else 'differs'}; "
              f"files {sorted(files)} vs {sorted(ref_files)}"
              + ("" if files == ref_files else " (contents differ)") + f"\n{got[2][-300:]}")

    got = ftsim(args + ["--jobs", "2"])
    same("--jobs 2", got, side_files(side))
    paths = {}
    for n in (1, 3):
        paths[n] = []
        for k in range(1, n + 1):
            p = os.path.join(WORK, f"{name}-{k}of{n}.shard")
            rc, _, err = ftsim(args + ["--shard", f"{k}/{n}"] + (["--jobs", "2"] if k == 2 else []),
                               out=p)
            check(rc == 0 and not side_files(side),
                  f"{name}: shard {k}/{n} written, nothing else", f"exit {rc}: {err[-300:]}")
            paths[n].append(p)
        order = paths[n][1:] + paths[n][:1]
        got = ftsim(["merge", *order])
        same(f"{n} shard{'s' if n > 1 else ''} merged", got, side_files(side))
    return paths[3]


def refused(what, files, needle):
    rc, out, err = ftsim(["merge", *files])
    ok = rc == 2 and needle in err and re.search(r"^\S+:\d+: |^ftsim merge: ", err, re.M)
    check(bool(ok), f"merge refuses {what}: exit 2, '{needle}'", f"exit {rc}: {err.strip()}")


def rerun_named(what, files, k, n, ref):
    """Merging `files` fails naming shard k/n and the command that runs it again; that command,
    run alone, completes the merge (== ref, the run whole)."""
    rc, _, err = ftsim(["merge", *files])
    m = re.search(rf"^(\S+:\d+: shard {k}/{n} failed|ftsim merge: shard {k}/{n} missing)[^\n]*"
                  rf"run it(?: again)?: (ftsim .*)$", err, re.M)
    check(rc == 2 and m, f"merge names {what}: shard {k}/{n} and the command to run it again",
          f"exit {rc}: {err.strip()}")
    if not m:
        return
    words = shlex.split(m.group(2))
    out = words[-1] if words[-1] != "SHARD-FILE" else os.path.join(WORK, f"rerun-{k}of{n}.shard")
    rc, _, e2 = ftsim(words[1:-2], out=out)
    got = ftsim(["merge", *[f for f in files if f != out and os.path.getsize(f)], out])
    check(rc == 0 and got == ref, f"{what}: shard {k}/{n} run again alone, the merge == run whole",
          f"exit {rc}: {e2[-300:]}; merge exit {got[0]}: {got[2][-300:]}")


def killed_shard(args, k, n, path):
    """Shard k/n of args, killed (SIGKILL) once it has written its header and a run; True if it
    was killed part way (not finished before the kill)."""
    with open(path, "wb") as f:
        p = subprocess.Popen([FTSIM, *args, "--shard", f"{k}/{n}"], cwd=ROOT, stdout=f,
                             stderr=subprocess.DEVNULL)
        while p.poll() is None:
            with open(path, "rb") as r:
                if b"\nrun " in r.read():
                    p.send_signal(signal.SIGKILL)
                    break
            time.sleep(0.005)
        p.wait()
    return p.returncode == -signal.SIGKILL


def main():
    which = sys.argv[1] if len(sys.argv) > 1 else ""
    if which not in ("faultcheck", "experiments", "upset"):
        print(__doc__.strip().splitlines()[2])
        return 2
    os.makedirs(WORK, exist_ok=True)
    if which == "faultcheck":
        # the single faults, the bad-table demonstration and every double fault (verbose): a
        # failing case and both kinds of line; --period 500 keeps it short
        fc = ["faultcheck", "--torus", "2x2", "--double", "--period", "500", "-v", "--quiet"]
        s = campaign("faultcheck", fc, os.path.join(WORK, "none"))
        refused("a missing shard", s[:2], "shard 3/3 missing")
        refused("a shard twice", s + s[1:2], "again")
        other = os.path.join(WORK, "faultcheck-seed2-3of3.shard")
        ftsim(fc + ["--seed", "2", "--shard", "3/3"], out=other)
        refused("a shard of another campaign", s[:2] + [other], ":11: arg '--seed'")
        cut = os.path.join(WORK, "faultcheck-cut.shard")
        with open(s[2], "rb") as f:
            lines = f.read().splitlines(keepends=True)
        with open(cut, "wb") as f:
            f.writelines(lines[:-1])
        refused("a shard cut short", s[:2] + [cut], "cut short")
        refused("a file that is no shard", s[:2] + ["tests/campaign_check.py"], ":1: not an ftsim shard")
        # a shard that failed is named, with the command that runs it again
        ref = ftsim(fc)
        killed = os.path.join(WORK, "faultcheck-killed-2of3.shard")
        check(killed_shard(fc, 2, 3, killed), "shard 2/3 killed part way (SIGKILL)")
        rerun_named("a shard killed part way", [s[0], killed, s[2]], 2, 3, ref)
        rerun_named("a shard cut short", [s[0], s[1], cut], 3, 3, ref)
        empty = os.path.join(WORK, "faultcheck-empty.shard")
        open(empty, "wb").close()
        refused("an empty shard file", s[:2] + [empty], ":1: empty")
        broken = os.path.join(WORK, "faultcheck-broken.shard")
        with open(s[2], "rb") as f:
            text = re.sub(rb"(?m)^(run \d+) \{", rb"\1 [", f.read(), count=1)
        with open(broken, "wb") as f:
            f.write(text)
        refused("a shard with a broken record", s[:2] + [broken], "a record that is not a JSON object")
        rerun_named("a shard with a broken record", s[:2] + [broken], 3, 3, ref)
        rerun_named("a shard whose file is empty", s[:2] + [empty], 3, 3, ref)
        rerun_named("a missing shard", s[1:], 1, 3, ref)
        # shards run under Slurm say so, and merge to the same bytes
        env = dict(os.environ, SLURM_JOB_ID="71", SLURM_ARRAY_JOB_ID="70")
        slurm = []
        for k in (1, 2, 3):
            slurm.append(os.path.join(WORK, f"faultcheck-slurm-{k}of3.shard"))
            with open(slurm[-1], "wb") as f:
                subprocess.run([FTSIM, *fc, "--shard", f"{k}/3"], cwd=ROOT, stdout=f,
                               env=dict(env, SLURM_ARRAY_TASK_ID=str(k)))
        with open(slurm[1], encoding="utf-8") as f:
            line = [x for x in f if x.startswith("slurm ")]
        check(line == ["slurm SLURM_JOB_ID=71 SLURM_ARRAY_JOB_ID=70 SLURM_ARRAY_TASK_ID=2\n"],
              "a shard under Slurm records its job, array job and task", repr(line))
        check(ftsim(["merge", *slurm]) == ref, "shards run under Slurm merged == run whole")
    elif which == "upset":
        # an upset campaign: six runs of the control registers of an LC3 node
        campaign("upset lc3-regs", ["upset", "--campaign", "lc3-regs", "--runs", "6", "--confirm", "0"],
                 os.path.join(WORK, "none"))
    else:
        out = os.path.join(WORK, "exp")
        campaign("ring-down-9", ["experiment", "ring-down-9", "--runs", "3", "--time-scale", "100",
                                 "--quiet", "--out", out, "--json-file", os.path.join(out, "x.json")], out)
        # a run that fails ends the experiment at that run, sharded or not
        campaign("ring-down-9-fails", ["experiment", "ring-down-9", "--runs", "3", "--time-scale",
                                       "100", "--readytogo-ms", "100000", "--quiet", "--out", out], out)
        campaign("rnp-policy", ["experiment", "rnp-policy", "--cycles", "3000", "--quiet", "--out", out],
                 out)
        campaign("ftdrb-sci", ["experiment", "ftdrb-sci", "--torus", "4x4", "--patterns",
                               "transpose,complement", "--faults", "0,2", "--learn-ms", "0.5",
                               "--measure-ms", "0.3", "--quiet", "--out", out], out)
        # FT-DRB on RNP, the quick version: its ledger, tables and CSV the same however run
        campaign("ftdrb-rnp", ["experiment", "ftdrb-rnp", "--quick", "--quiet", "--out", out], out)
    print(f"{results.count(True)} passed, {results.count(False)} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
