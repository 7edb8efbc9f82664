#!/usr/bin/env python3
"""The docs suite: checks that fail when the docs drift from the tree, and the tree's limits.

Each check is named; every failure is printed as `file:line: message` (line 0: the file as a
whole). `docs_check.py --list` names the checks, `--check NAME` (repeatable) runs only those,
`--root DIR` checks another copy of the repository (tests/docs_selftest.py breaks scratch
copies with it). Exit status: 0 every check passed, 1 a check failed, 2 bad arguments.

The README's first-vector convention (check readme-first-vector): under the heading that says
"Your first vector", every fenced block is a transcript. A line starting with `$ ` is a command
(a trailing backslash continues it on the next line); the lines after it, up to the next command
or the end of the block, are its output (stdout and stderr together), compared line by line
with trailing blanks ignored. In a quoted line, `...` stands for any text; a line that is only
`...` stands for any number of lines. The commands run in order with bash, in a scratch copy of
the tree whose build/ holds only a link to build/ftsim, with no display; `make` there is run
as `make -o build/ftsim`, so it never rebuilds ftsim. Nothing is written into the tree.
"""
import argparse
import ast
import glob
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ left in the tree it reads

# The one Verilator shim template of the core: every Verilated device shim includes it.
SHIM_TEMPLATE = "harness/core/vl_dev.h"
# The Verilated device shims: these names under harness/.
SHIM_GLOBS = ["harness/*/*_rtl.cpp", "harness/sc/sc_dev.cpp"]  # those that are devices (dev_ops_t)
# Limits this issue set for the work after it.
README_MAX_LINES, README_MAX_COLS = 200, 120
C_MAX_LINES = 1200
MAKEFILE_MAX_DESIGN_LINES = 5
# Functions called by name from outside our sources (the C runtime, libFuzzer, SystemC, Verilator).
UNCALLED_ALLOW = {"main", "LLVMFuzzerTestOneInput", "sc_main", "sc_time_stamp"}
# Identifiers of a design family (parts of an identifier split at `_`); lc3/p2s/rnp also as a
# prefix (lc3node, p2sn1, rnpnet).
FAMILY_PARTS = {"rn1", "rnp", "rnpnet", "sci", "lc3", "p2s"}
FAMILY_PREFIXES = ("rn1", "rnp", "lc3", "p2s")
# Folders that hold no project source: outputs, version control, virtual environments.
SKIP_DIRS = {"build", ".git", "__pycache__", "venv", ".venv", "node_modules"}
DOC_EXTS = (".md", ".c", ".h", ".cpp", ".hpp", ".cc", ".py", ".v", ".sv", ".svh", ".vlt", ".sh")
# What a quoted repository path may end in when it has no folder.
PATH_EXTS = ("md", "c", "h", "cpp", "hpp", "py", "v", "sv", "svh", "vlt", "vec", "gtkw", "txt",
             "sh", "csv", "png", "json", "tcl", "yml", "yaml", "cfg", "scn", "stim")
C_EXTS = (".c", ".h", ".cpp", ".hpp", ".cc")

CHECKS = {}


def check(name, what):
    def reg(fn):
        CHECKS[name] = (fn, what)
        return fn
    return reg


# ---- the tree --------------------------------------------------------------------------------

def walk(root, exts=None, under=""):
    """Project files (relative paths, sorted) under `under`, outputs and .git left out."""
    out = []
    base = os.path.join(root, under) if under else root
    for d, dirs, files in os.walk(base):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not x.startswith("."))
        rel = os.path.relpath(d, root)
        for f in sorted(files):
            p = os.path.normpath(os.path.join(rel, f))
            if exts is None or p.endswith(exts):
                out.append(p)
    # .ci/ is part of the project (hidden folders are otherwise skipped)
    if not under and os.path.isdir(os.path.join(root, ".ci")):
        for f in sorted(os.listdir(os.path.join(root, ".ci"))):
            p = os.path.join(".ci", f)
            if os.path.isfile(os.path.join(root, p)) and (exts is None or p.endswith(exts)):
                out.append(p)
    return out


def read(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
        return f.read()


def docs(root):
    return [p for p in walk(root, (".md",))]


def md_lines(text):
    """(line number, line, in a fenced block, fence info) for each line of a Markdown text."""
    fence = None
    for n, line in enumerate(text.splitlines(), 1):
        m = re.match(r"^\s*(```+|~~~+)(.*)$", line)
        if m and fence is None:
            fence = m.group(1)
            yield n, line, True, "open"
            continue
        if m and fence is not None and m.group(1).startswith(fence[0] * len(fence)) \
                and not m.group(2).strip():
            fence = None
            yield n, line, True, "close"
            continue
        yield n, line, fence is not None, ""


def code_spans(root, rel):
    """(line, text) of every piece of code a doc quotes: inline `code` and fenced lines."""
    for n, line, fenced, mark in md_lines(read(root, rel)):
        if mark:
            continue
        if fenced:
            yield n, line
        else:
            for m in re.finditer(r"(`+)(.+?)\1", line):
                yield n, m.group(2)


C_TOKENS = re.compile(r'//[^\n]*|/\*.*?(?:\*/|\Z)|"(?:\\.|[^"\\\n])*"?|\'(?:\\.|[^\'\\\n])*\'?',
                      re.S)


def strip_c_comments(text, strings=False):
    """C/C++ text with comments (and, if asked, string and char literals) blanked, lines kept."""
    def blank(m):
        t = m.group(0)
        if t[0] in "\"'":
            if not strings:
                return t
            return t[0] + re.sub(r"[^\n]", " ", t[1:-1]) + t[-1] if len(t) > 1 else t
        return re.sub(r"[^\n]", " ", t)
    return C_TOKENS.sub(blank, text)


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def load_module(root, rel, name):
    path = os.path.join(root, rel)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    saved = list(sys.path)
    sys.path.insert(0, os.path.dirname(path))
    try:
        spec.loader.exec_module(mod)
    finally:
        sys.path[:] = saved
    return mod


# ---- doc-paths -------------------------------------------------------------------------------

# Options and commands whose next word is a file they write.
OUTPUT_OPTS = {"-o", "--out", "--output", "--json-file", "--wave", "--return", ">", ">>", "tee",
               "--junit", "--csv"}
PLACEHOLDER_OK = {"README", "Makefile", "LICENSE", "CHANGELOG"}


def path_like(tok):
    """The repository path a quoted token names, or None."""
    tok = tok.strip().lstrip("([\"'").rstrip(".,;:)]\"'")
    tok = re.sub(r"^[A-Za-z_]+=", "", tok)          # V=vectors/x.vec, --out=dir
    tok = re.sub(r"^--[\w-]+=", "", tok)
    tok = re.sub(r":\d+(:\d+)?$", "", tok)          # file.c:123
    tok = re.sub(r"#.*$", "", tok)                  # file.md#anchor
    if not tok or "://" in tok or tok.startswith(("/", "~", "$", "-", "..")):
        return None
    if re.search(r"[*?{}<>\[\]|%@,=+`'\"\\]", tok) or "..." in tok or "…" in tok:
        return None                                 # globs, placeholders, expressions
    if not re.fullmatch(r"[A-Za-z0-9_./-]+", tok) or not re.search(r"[A-Za-z]", tok):
        return None
    if tok.startswith(("build/", "./build/")) or tok in ("build", "build/"):
        return None                                 # outputs
    segs = [s for s in tok.split("/") if s not in ("", ".")]
    if not segs:
        return None
    for s in segs:
        stem = s.split(".")[0]
        if re.fullmatch(r"[A-Z][A-Z0-9_]*", stem) and stem not in PLACEHOLDER_OK:
            return None                             # FILE.vec, DEVICE/, K/N
    if "/" in tok:
        if len(segs) < 2 and not tok.endswith("/"):
            return None
        return tok
    ext = tok.rsplit(".", 1)[1] if "." in tok else ""
    return tok if ext in PATH_EXTS and re.fullmatch(r"[\w.-]+\.\w+", tok) else None


@check("doc-paths", "every repository path a .md quotes (in backticks or links) exists")
def check_doc_paths(root):
    files = walk(root)
    names = {os.path.basename(p) for p in files}
    dirs = set()
    for p in files:
        d = os.path.dirname(p)
        while d:
            dirs.add(d)
            d = os.path.dirname(d)
    fails = []
    dirnames = {os.path.basename(d) for d in dirs}

    def exists(doc, p):
        bare = p.rstrip("/")
        for base in ("", os.path.dirname(doc)):
            q = os.path.normpath(os.path.join(base, bare))
            if os.path.exists(os.path.join(root, q)) and not q.startswith(".."):
                return True
        if "/" not in bare:
            return bare in names or bare in {os.path.basename(d) for d in dirs}
        # a path given from inside its folder (spec/x.vec, sc/sc_dev.cpp)
        return any(f.endswith("/" + bare) for f in files) or \
            any(d.endswith("/" + bare) for d in dirs)

    for doc in docs(root):
        seen = set()
        text = read(root, doc)
        quoted = []
        for n, line, fenced, mark in md_lines(text):
            if mark:
                continue
            if fenced:
                quoted.append((n, line.split()))
            else:
                toks = []
                for m in re.finditer(r"(`+)(.+?)\1", line):
                    toks += m.group(2).split()
                for m in re.finditer(r"\]\(([^)\s]+)\)", line):
                    toks.append(m.group(1))
                quoted.append((n, toks))
        # what the doc's commands write (-o X, --out X, > X, tee X, mkdir X): outputs, not the
        # repository's
        outputs = set()
        for n, toks in quoted:
            made = False
            for k, a in enumerate(toks):
                b = toks[k + 1] if k + 1 < len(toks) else ""
                if a in (";", "&&", "|", "\\"):
                    made = False
                made = made or a == "mkdir"
                cands = []
                if made and not a.startswith("-") and a != "mkdir":
                    cands.append(a)
                if a in OUTPUT_OPTS:
                    cands.append(b)
                if a.startswith(">") and len(a) > 1:
                    cands.append(a.lstrip(">"))
                if "=" in a and a.split("=", 1)[0] in OUTPUT_OPTS:
                    cands.append(a.split("=", 1)[1])
                for c in cands:
                    o = path_like(c)
                    if o:
                        outputs.add(o.rstrip("/"))
        for n, toks in quoted:
            for t in toks:
                p = path_like(t)
                if not p or (n, p) in seen:
                    continue
                seen.add((n, p))
                bare = p.rstrip("/")
                if any(bare == o or bare.startswith(o + "/") for o in outputs):
                    continue
                if "/" in bare and "." not in os.path.basename(bare) and not p.endswith("/") \
                        and bare.split("/")[0] not in dirnames:
                    continue                        # a/b that names no folder: not a path
                if not exists(doc, p):
                    fails.append((doc, n, f"quotes `{p}`, which is not in the repository"))
    return fails


# ---- suite-table -----------------------------------------------------------------------------

def run_py_suites(root):
    """The suites of tests/run.py, in order, with the line of each SUITES entry."""
    text = read(root, "tests/run.py")
    m = re.search(r"^SUITES\s*=\s*\{(.*?)^\}", text, re.M | re.S)
    if not m:
        return None
    base = line_of(text, m.start(1))
    return [(s.group(1), base + m.group(1).count("\n", 0, s.start()))
            for s in re.finditer(r'^\s*"([\w-]+)"\s*:', m.group(1), re.M)]


@check("suite-table", "every suite of tests/run.py has its row in tests/README.md")
def check_suite_table(root):
    suites = run_py_suites(root)
    if suites is None:
        return [("tests/run.py", 0, "no SUITES = {...} table found")]
    if not os.path.exists(os.path.join(root, "tests/README.md")):
        return [("tests/README.md", 0, "missing: it holds one row per suite of tests/run.py")]
    rows, header = {}, None
    for n, line, fenced, _ in md_lines(read(root, "tests/README.md")):
        if fenced or not line.lstrip().startswith("|"):
            header = None
            continue
        cell = line.strip().strip("|").split("|")[0].strip().strip("`*").strip()
        if header is None:
            header = cell.lower()
            continue
        if header == "suite" and cell and not re.fullmatch(r":?-+:?", cell):
            rows[cell] = n
    fails = [("tests/run.py", n, f"suite '{s}' has no row in tests/README.md (a table whose "
              "first column is 'suite')") for s, n in suites if s not in rows]
    known = {s for s, _ in suites}
    fails += [("tests/README.md", n, f"row '{s}' names no suite of tests/run.py")
              for s, n in rows.items() if s not in known]
    return fails


# ---- make-targets, ftsim-commands ------------------------------------------------------------

# Where a command starts in quoted code: the start, after a prompt, a separator or `(`.
CMD_START = r"(?:^|(?<=^\$ )|(?<=[;|&(]\s)|(?<=[;|&(])|(?<=&&\s)|(?<=\$\(\s)|(?<=^\s\s)|(?<=^\s{4})|" \
            r"(?<=\bnice\s)|(?<=\btime\s)|(?<=\benv\s))"


def makefile_targets(root):
    targets = set()
    text = read(root, "Makefile")
    # and the files it includes by name (a folder's own .mk)
    for inc in re.findall(r"(?m)^-?include\s+([^\s$]+\.mk)\s*$", text):
        if os.path.exists(os.path.join(root, inc)):
            text += "\n" + read(root, inc)
    for line in text.splitlines():
        m = re.match(r"^([A-Za-z0-9_.\-/ $()]+?)\s*::?(?![=])", line)
        if m and not line.startswith("\t"):
            targets.update(t for t in m.group(1).split() if "$" not in t)
    return targets


@check("make-targets", "every `make X` a doc names is a Makefile target")
def check_make_targets(root):
    targets = makefile_targets(root)
    fails = []
    for doc in docs(root):
        for n, code in code_spans(root, doc):
            for m in re.finditer(CMD_START + r"make((?:\s+[^\s;|&#`)]+)*)", code):
                for w in m.group(1).split():
                    if w.startswith("-") or "=" in w:
                        continue                    # options, VARIABLE=value
                    if re.fullmatch(r"[a-z][\w.-]*", w) and w not in targets:
                        fails.append((doc, n, f"`make {w}`: the Makefile has no target '{w}'"))
                    break
    return fails


# ---- doc-includes ----------------------------------------------------------------------------

@check("doc-includes", "a fenced block after `<!-- include PATH -->` is that file, byte for byte")
def check_doc_includes(root):
    fails = []
    for doc in docs(root):
        lines = read(root, doc).split("\n")
        for n, line in enumerate(lines, 1):
            m = re.fullmatch(r"<!-- include (\S+) -->", line.strip())
            if not m:
                continue
            rel = m.group(1)
            if not os.path.isfile(os.path.join(root, rel)):
                fails.append((doc, n, f"includes `{rel}`, which does not exist"))
                continue
            want = read(root, rel).split("\n")
            if want and want[-1] == "":
                want.pop()
            fence = lines[n] if n < len(lines) else ""
            if not re.match(r"^(```+|~~~+)", fence):
                fails.append((doc, n + 1, f"a fenced block holding `{rel}` must follow its "
                              "include line"))
                continue
            body = lines[n + 1:n + 1 + len(want)]
            close = lines[n + 1 + len(want)] if n + 1 + len(want) < len(lines) else ""
            for i, (got, exp) in enumerate(zip(body + [None] * len(want), want)):
                if got != exp:
                    fails.append((doc, n + 2 + i, f"differs from `{rel}` line {i + 1}: the doc "
                                  "shows the file as it is (copy it in again)"))
                    break
            else:
                if close.strip() != fence.strip()[:len(re.match(r"[`~]+", fence).group(0))]:
                    fails.append((doc, n + 2 + len(want), f"more than `{rel}` in its block "
                                  "(the file ends here)"))
    return fails


def ftsim_commands(root):
    text = read(root, "harness/cmd/main.c")
    cmds = set(re.findall(r'\{\s*"([\w-]+)"\s*,\s*cmd_\w+\s*\}', text))
    return cmds | {"--help", "-h", "help", "--version"}


@check("ftsim-commands", "every `ftsim X` or `build/ftsim X` a doc names is an ftsim command")
def check_ftsim_commands(root):
    cmds = ftsim_commands(root)
    # words ftsim itself prints after its name (a shard file's header `ftsim shard 1`): quoted
    # output, not commands
    printed = set()
    for rel in walk(root, C_EXTS, "harness"):
        printed.update(re.findall(r'"ftsim ([a-z][\w-]*)', read(root, rel)))
    fails = []
    for doc in docs(root):
        for n, code in code_spans(root, doc):
            for m in re.finditer(CMD_START + r"(?:[\w.$()/]*/)?ftsim(?![\w.-])\s+([^\s;|&`)]+)",
                                 code):
                w = m.group(1)
                if w.startswith("-") and w not in cmds:
                    continue                        # `ftsim --wave ...` is not a command
                if re.fullmatch(r"[A-Za-z][\w-]*", w) and w not in cmds and w.islower() \
                        and w not in printed:
                    fails.append((doc, n, f"`ftsim {w}`: ftsim has no command '{w}' "
                                  "(harness/cmd/main.c)"))
    return fails


# ---- doc-counts ------------------------------------------------------------------------------

DATE_RE = re.compile(r"\b20\d\d-\d\d-\d\d\b|\b\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|"
                     r"Nov|Dec)[a-z]* 20\d\d\b|\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|"
                     r"Dec)[a-z]* (?:\d{1,2}, )?20\d\d\b")
NUM = r"(?<![\w.,])(\d{1,3}(?:[, ]\d{3})+|\d+)"
COUNT_PATTERNS = [
    ("spec vectors", re.compile(NUM + r"\s+spec\s+vectors\b")),
    ("mutants", re.compile(NUM + r"\s+mutants\b")),
    ("tests", re.compile(NUM + r"\s+tests\b")),
    ("passed", re.compile(NUM + r"\s+passed\b")),
]


def count_facts(root):
    """What the tree says: the counts a doc may quote, each a set of accepted values."""
    per = {}
    for p in glob.glob(os.path.join(root, "vectors", "*", "spec", "*.vec")):
        d = os.path.basename(os.path.dirname(os.path.dirname(p)))
        per[d] = per.get(d, 0) + 1
    spec = {sum(per.values())} | set(per.values())
    try:
        sc_dirs = load_module(root, "tests/run.py", "_docs_run").SC_VECTOR_DIRS
        spec.add(sum(per.get(d, 0) for d in sc_dirs))
    except Exception:
        pass
    facts = {"spec vectors": (spec, "the spec vectors of vectors/*/spec/*.vec: "
                              + ", ".join(f"{k} {v}" for k, v in sorted(per.items())))}
    try:
        mut = load_module(root, "tests/mutants.py", "_docs_mutants").MUTANTS
        facts["mutants"] = ({len(mut)}, f"tests/mutants.py lists {len(mut)}")
    except Exception as e:
        facts["mutants"] = (set(), f"tests/mutants.py cannot be read ({e})")
    try:
        run = load_module(root, "tests/run.py", "_docs_run")
        per_suite = {n: len(f()) for n, f in run.SUITES.items()}
        total = sum(per_suite.values())
        facts["tests"] = ({total}, f"tests/run.py has {total} tests", per_suite)
        facts["passed"] = facts["tests"]
    except Exception as e:
        facts["tests"] = facts["passed"] = (set(), f"tests/run.py cannot be read ({e})", {})
    return facts


@check("doc-counts", "a count the docs quote (spec vectors, mutants, tests) is the tree's; "
       "dated measurements and quoted transcripts are exempt")
def check_doc_counts(root):
    facts = count_facts(root)
    fails = []
    for doc in docs(root):
        lines = list(md_lines(read(root, doc)))
        # a paragraph: contiguous non-blank lines (a table row stands alone); its heading
        para_of, paras, cur, heading = {}, [], None, ""
        for n, line, fenced, mark in lines:
            if line.startswith("#"):
                heading = line
            if not line.strip() or line.lstrip().startswith("|") or line.startswith("#"):
                if line.strip():
                    paras.append([line])
                    para_of[n] = (len(paras) - 1, heading)
                cur = None
                continue
            if cur is None:
                paras.append([])
                cur = len(paras) - 1
            paras[cur].append(line)
            para_of[n] = (cur, heading)
        for n, line, fenced, mark in lines:
            if fenced or line.startswith(("#", ">")):
                continue                            # a quoted transcript or quote, a title
            found = [(kind, m) for kind, rx in COUNT_PATTERNS for m in rx.finditer(line)]
            if not found:
                continue
            pi, head = para_of.get(n, (None, ""))
            context = "\n".join(paras[pi]) if pi is not None else line
            if DATE_RE.search(context) or DATE_RE.search(head):
                continue                            # a dated measurement
            for kind, m in found:
                v = int(re.sub(r"[, ]", "", m.group(1)))
                ok, why = facts[kind][0], facts[kind][1]
                if kind in ("tests", "passed"):
                    per_suite = facts[kind][2]
                    before = line[max(0, m.start() - 40):m.start()].split(";")[-1]
                    named = [s for s in per_suite if re.search(
                        r"`%s`|\b%s\b suite|suite \b%s\b" % ((re.escape(s),) * 3), before)]
                    if named:
                        ok = {sum(per_suite[s] for s in named)} | {per_suite[s] for s in named}
                        why = ", ".join(f"suite {s} has {per_suite[s]}" for s in named)
                if v not in ok:
                    fails.append((doc, n, f"says '{m.group(0)}', the tree has "
                                  f"{' or '.join(map(str, sorted(ok))) or '?'} ({why}); "
                                  "a measurement keeps its date beside it"))
    return fails


# ---- readme-first-vector ---------------------------------------------------------------------

def first_vector_transcript(text):
    """[(line, command, [(line, expected output line)])] of the "Your first vector" section."""
    level, steps, in_sec = None, [], False
    cmd = None
    for n, line, fenced, mark in md_lines(text):
        h = re.match(r"^(#+)\s+(.*)$", line) if not fenced else None
        if h:
            if in_sec and len(h.group(1)) <= level:
                in_sec = False
            if re.search(r"your first vector", h.group(2), re.I):
                in_sec, level = True, len(h.group(1))
            continue
        if not in_sec or not fenced:
            continue
        if mark:
            cmd = None
            continue
        if cmd is not None and cmd[1].endswith("\\") and not cmd[2]:
            cmd[1] = cmd[1][:-1] + " " + line.strip()
        elif line.startswith("$ "):
            cmd = [n, line[2:].strip(), []]
            steps.append(cmd)
        elif cmd is not None:
            cmd[2].append((n, line.rstrip()))
    return steps


def lines_match(want, got):
    """Quoted lines against output lines: `...` is any text, a lone `...` any lines."""
    def one(w, g):
        parts = [re.escape(p) for p in w.split("...")]
        return re.fullmatch(".*".join(parts), g) is not None
    memo = {}

    def go(i, j):
        if (i, j) in memo:
            return memo[i, j]
        if i == len(want):
            r = j == len(got)
        elif want[i][1].strip() == "...":
            r = any(go(i + 1, k) for k in range(j, len(got) + 1))
        else:
            r = j < len(got) and one(want[i][1], got[j]) and go(i + 1, j + 1)
        memo[i, j] = r
        return r
    if go(0, 0):
        return None
    # the first quoted line that is not where it should be
    j = 0
    for ln, w in want:
        if w.strip() == "...":
            continue
        while j < len(got) and not one(w, got[j]):
            j += 1
        if j == len(got):
            return ln, w
        j += 1
    return want[-1][0] if want else 0, "(the output has more lines than the README quotes)"


def scratch_copy(root, dst):
    for rel in walk(root):
        src = os.path.join(root, rel)
        os.makedirs(os.path.join(dst, os.path.dirname(rel)), exist_ok=True)
        shutil.copy2(src, os.path.join(dst, rel))


@check("readme-first-vector", "the README's first-vector commands, run in a scratch copy, "
       "print what the README quotes")
def check_readme_first_vector(root):
    if not os.path.exists(os.path.join(root, "README.md")):
        return [("README.md", 0, "missing")]
    steps = first_vector_transcript(read(root, "README.md"))
    if not steps:
        return [("README.md", 0, "no `$ ` command in a fenced block under a 'Your first vector' "
                 "heading")]
    ftsim = os.path.join(root, "build", "ftsim")
    needs = any(re.search(r"\bftsim\b|\bmake\b", c) for _, c, _ in steps)
    if needs and not os.access(ftsim, os.X_OK):
        return [("README.md", steps[0][0], "build/ftsim is missing: `make build` first (the "
                 "first-vector commands are not run, so this check fails)")]
    fails, bindir = [], None
    tmp = tempfile.mkdtemp(prefix="ftsim-docs-")
    try:
        scratch_copy(root, tmp)
        if os.access(ftsim, os.X_OK):
            os.makedirs(os.path.join(tmp, "build"), exist_ok=True)
            os.symlink(os.path.realpath(ftsim), os.path.join(tmp, "build", "ftsim"))
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY",
                                                                 "MAKEFLAGS", "MFLAGS", "MAKELEVEL",
                                                                 "MAKEOVERRIDES")}
        env.pop("FTSIM", None)
        make = shutil.which("make")
        if make:                                    # make there never rebuilds build/ftsim
            bindir = tempfile.mkdtemp(prefix="ftsim-docs-bin-")
            with open(os.path.join(bindir, "make"), "w") as f:
                f.write(f'#!/bin/sh\nexec "{make}" -o build/ftsim "$@"\n')
            os.chmod(os.path.join(bindir, "make"), 0o755)
            env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
        for n, cmd, want in steps:
            try:
                p = subprocess.run(["bash", "-c", cmd], cwd=tmp, env=env, timeout=120,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL)
                got = [x.rstrip() for x in p.stdout.decode("utf-8", "replace").splitlines()]
            except subprocess.TimeoutExpired:
                fails.append(("README.md", n, f"`{cmd}` ran over 120 s"))
                continue
            bad = lines_match(want, got)
            if bad:
                shown = "\n".join("    | " + g for g in got[:20])
                fails.append(("README.md", bad[0], f"`{cmd}`: the README quotes {bad[1]!r}, "
                              f"the command printed:\n{shown}"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if bindir:
            shutil.rmtree(bindir, ignore_errors=True)
    return fails


# ---- readme-size -----------------------------------------------------------------------------

@check("readme-size", f"README.md has at most {README_MAX_LINES} lines of at most "
       f"{README_MAX_COLS} characters")
def check_readme_size(root):
    lines = read(root, "README.md").splitlines()
    fails = []
    if len(lines) > README_MAX_LINES:
        fails.append(("README.md", README_MAX_LINES + 1,
                      f"{len(lines)} lines, at most {README_MAX_LINES}"))
    fails += [("README.md", n, f"{len(x)} characters, at most {README_MAX_COLS}")
              for n, x in enumerate(lines, 1) if len(x) > README_MAX_COLS]
    return fails


# ---- no-seed ---------------------------------------------------------------------------------

WORD = "the word for random seeds"
SEED_PAPER = [
    (re.compile(r"\bseeds?[\s_-]*0\d\d\b", re.I), "a paper called by a number"),
    (re.compile(r"\bseed'?s['’]?\s+(?:paper|figure|fig\b|table|method|section|experiment|"
                r"protocol|design|detector|timer|watchdog|authors?)", re.I), "a paper called " + WORD),
    (re.compile(r"\bseed['’]s\b", re.I), "a paper called " + WORD + ", possessive"),
    (re.compile(r"\bseed\s+papers?\b", re.I), "a paper called " + WORD),
    (re.compile(r"\bseeds/"), "a path into the papers' folder"),
    (re.compile(r"\bthe\s+seed\b(?!\s*(?:is|was|=|\)|,|value|derived|printed|reload|stepped|"
                r"field|during|loads?|word|bits?\b|register|of the (?:lfsr|prng|generator|run|"
                r"fuzz)|\(--seed))", re.I), "a paper called " + WORD),
]
# Text files beside the sources that the no-seed check reads too (vectors aside: their comments
# quote the LFSR's seed clauses).
SEED_TEXT_EXTS = (".csv", ".txt", ".scn")
# Words just before the last pattern's match that make it a random seed.
SEED_RANDOM_BEFORE = re.compile(r"(?:from|becomes|is|at|over|zero|same|new|random|wiring|network|"
                                r"fuzz|its|a|run's)\s+$", re.I)


@check("no-seed", "no paper is called by the word for random seeds (by number, possessive, "
       "folder, or 'the' and the word)")
def check_no_seed(root):
    fails = []
    # the docs and sources, and the text files the programs write for people (a CSV's comment)
    files = [p for p in walk(root) if p.endswith(DOC_EXTS + SEED_TEXT_EXTS)
             or p.startswith(".ci/") or os.path.basename(p) == "Makefile"]
    for rel in files:
        for n, line in enumerate(read(root, rel).splitlines(), 1):
            if "seed" not in line.lower():
                continue
            for rx, what in SEED_PAPER:
                m = rx.search(line)
                if not m:
                    continue
                if rx is SEED_PAPER[-1][0] and SEED_RANDOM_BEFORE.search(line[:m.start()]):
                    continue
                fails.append((rel, n, f"'{m.group(0)}': {what}; name the paper by its method "
                              "or authors"))
                break
    return fails


# ---- c-file-size -----------------------------------------------------------------------------

@check("c-file-size", f"no C/C++ source in harness/ or csim/ over {C_MAX_LINES} lines")
def check_c_file_size(root):
    fails = []
    for rel in walk(root, C_EXTS, "harness") + walk(root, C_EXTS, "csim"):
        n = len(read(root, rel).splitlines())
        if n > C_MAX_LINES:
            fails.append((rel, C_MAX_LINES + 1, f"{n} lines, at most {C_MAX_LINES}"))
    return fails


# ---- makefile-designs ------------------------------------------------------------------------

def design_names(root):
    """The names a Makefile line names a design by. A design is what rtl/files.txt describes:
    each entry's name, top module, variants, devices (`-`, no device, aside) and vector folders
    (the harness's observer, sci_obs, is such an entry); with the networks built of them that
    have no entry of their own (rnpnet). A design family's name counts too (rnp, and each
    folder of csim/): the Makefile finds the families from csim/ (FAMILIES) and derives their
    include paths, so a line naming one is a line the next family would copy. The fixed names
    below stand when a tree has no manifest."""
    names = {"rn1", "rnp", "rnpnet", "lc3", "p2s", "sci_lc", "sci_node", "sci_obs"}
    p = os.path.join(root, "rtl", "files.txt")
    if os.path.exists(p):
        for line in read(root, "rtl/files.txt").splitlines():
            line = line.split("#", 1)[0]
            m = re.match(r"^([A-Za-z]\w*)\s*:", line)
            if m:
                names.add(m.group(1))
                continue
            key, *vals = line.split() or [""]
            if key == "variant":
                names.update(v for v in vals[:2] if v != "-")
            elif key in ("top", "vectors"):
                names.update(vals)
    csim = os.path.join(root, "csim")
    if os.path.isdir(csim):
        names.update(f for f in os.listdir(csim) if os.path.isdir(os.path.join(csim, f)))
    return {n.lower() for n in names}


def names_design(line, designs):
    """The design identifier a text names: a design's name as a word or part of an identifier
    (RN1_FILES, INC_rnp, lc3n1), or None."""
    for tok in re.findall(r"[A-Za-z0-9_]+", line):
        low = tok.lower()
        for d in designs:
            if low == d or low.startswith(d + "_") or low.endswith("_" + d) or \
                    ("_" + d + "_") in low:
                return d
        for part in low.split("_"):
            if part.startswith(("lc3", "p2s", "rn1", "rnp")) and re.fullmatch(r"[a-z0-9]+", part):
                return part
    return None


@check("makefile-designs", f"at most {MAKEFILE_MAX_DESIGN_LINES} Makefile lines (comments and "
       "quoted text aside) name a design, its variants, devices or family (rtl/files.txt)")
def check_makefile_designs(root):
    designs = design_names(root)
    hits = []
    for n, line in enumerate(read(root, "Makefile").splitlines(), 1):
        if line.lstrip().startswith(("#", "@#")) or line.lstrip().startswith("\t@#"):
            continue                                # a comment
        code = re.sub(r'"[^"]*"', '""', line if line.startswith("\t") else line.split("#", 1)[0])
        d = names_design(code, designs)
        if d:
            hits.append((n, d))
    if len(hits) <= MAKEFILE_MAX_DESIGN_LINES:
        return []
    return [("Makefile", n, f"names the design '{d}' ({len(hits)} lines do, at most "
             f"{MAKEFILE_MAX_DESIGN_LINES}: a design belongs in its manifest)") for n, d in hits]


# ---- core-no-design --------------------------------------------------------------------------

@check("core-no-design", "no code of harness/core (comments aside) names a design family "
       "(rn1_, rnp, sci_, lc3, p2s)")
def check_core_no_design(root):
    fails = []
    for rel in walk(root, C_EXTS, "harness/core"):
        text = strip_c_comments(read(root, rel))
        for n, line in enumerate(text.splitlines(), 1):
            for tok in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", line):
                parts = tok.lower().split("_")
                if any(p in FAMILY_PARTS or p.startswith(FAMILY_PREFIXES) for p in parts):
                    fails.append((rel, n, f"'{tok}' names a design family; the core knows none"))
                    break
    return fails


# ---- no-uncalled -----------------------------------------------------------------------------

C_KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "catch", "defined",
              "__attribute__", "alignof", "decltype", "static_assert", "_Static_assert"}


def c_functions(text):
    """(name, offset) of the functions a C/C++ text defines at file scope (namespaces and
    extern "C" blocks see through), from text with comments and literals blanked."""
    defs, stack = [], []
    for b in re.finditer(r"[{}]", text):
        i, c = b.start(), b.group(0)
        if c == "{":
            head = text[max(0, i - 300):i]
            transparent = re.search(r"(?:\bnamespace(?:\s+\w+)?|\bextern\s+\"\s*C\s*\")\s*$",
                                    head) is not None
            if all(stack) and not transparent:
                m = re.search(r"([A-Za-z_][\w:~]*)\s*\(([^;{}]*)\)\s*(?:const\s*)?(?:noexcept\s*)?"
                              r"(?:override\s*)?(?::[^;{}]*)?$", head)
                if m:
                    name = m.group(1).split("::")[-1]
                    if name not in C_KEYWORDS:
                        defs.append((name, i - len(head) + m.start(1)))
            stack.append(transparent)
        elif c == "}":
            if stack:
                stack.pop()
    return defs


@check("no-uncalled", "no function is defined in harness/ or csim/ and never called")
def check_no_uncalled(root):
    srcs = walk(root, C_EXTS, "harness") + walk(root, C_EXTS, "csim")
    texts = {r: strip_c_comments(read(root, r), strings=True) for r in srcs}
    defs = []
    for r, t in texts.items():
        defs += [(name, r, off) for name, off in c_functions(t)]
    names = {d[0] for d in defs}
    # every use of a name: not its definition and not a prototype (name( at file scope
    # outside #define)
    used = set()
    for r, t in texts.items():
        depth = 0
        def_at = {off for name, rr, off in defs if rr == r}
        for c_m in re.finditer(r"[{}]|[A-Za-z_]\w*", t):
            tok = c_m.group(0)
            if tok == "{":
                depth += 1
            elif tok == "}":
                depth = max(0, depth - 1)
            elif tok in names and c_m.start() not in def_at:
                if depth == 0:
                    line_start = t.rfind("\n", 0, c_m.start()) + 1
                    directive = t[line_start:c_m.start()].lstrip().startswith("#")
                    if not directive and t[c_m.end():c_m.end() + 200].lstrip().startswith("("):
                        continue                    # a prototype
                used.add(tok)
    fails = []
    for name, r, off in defs:
        if name not in used and name not in UNCALLED_ALLOW:
            fails.append((r, line_of(texts[r], off), f"{name}() is defined and never called"))
    return fails


# ---- one-shim-template -----------------------------------------------------------------------

@check("one-shim-template", f"every Verilated device shim uses the one template "
       f"({SHIM_TEMPLATE}) and defines no dev_ops_t table of its own")
def check_one_shim_template(root):
    fails = []
    if not os.path.exists(os.path.join(root, SHIM_TEMPLATE)):
        fails.append((SHIM_TEMPLATE, 0, "missing: the one template the Verilated device shims "
                      "use"))
    inc = os.path.basename(SHIM_TEMPLATE)
    shims = sorted({os.path.relpath(p, root) for g in SHIM_GLOBS
                    for p in glob.glob(os.path.join(root, g))})
    for rel in shims:
        text = strip_c_comments(read(root, rel))
        if not re.search(r"\bdev_ops_t\b|%s" % re.escape(inc), text):
            continue                                # not a device (the torus observer)
        if not re.search(r'#\s*include\s*[<"](?:[\w/]*/)?%s[>"]' % re.escape(inc), text):
            fails.append((rel, 1, f"does not include {inc}, the one shim template"))
        for m in re.finditer(r"\bdev_ops_t\s+[\w:]+\s*(?:\[[^\]]*\])?\s*=\s*\{", text):
            fails.append((rel, line_of(text, m.start()), "defines a dev_ops_t table of its own "
                          "thunks; the template provides it"))
    return fails


# ---- json-library ----------------------------------------------------------------------------

JSON_KEY = re.compile(r'\\"[A-Za-z0-9_%. -]*\\"\s*:')


@check("json-library", "no hand-written JSON in harness/ (keys in string literals, "
       "\\\"key\\\": ); the JSON library writes and reads it")
def check_json_library(root):
    fails = []
    for rel in walk(root, C_EXTS, "harness"):
        text = read(root, rel)
        code = strip_c_comments(text)
        for n, line in enumerate(code.splitlines(), 1):
            m = JSON_KEY.search(line)
            if m:
                fails.append((rel, n, f"JSON by hand ({m.group(0)}): write it with json-c"))
    return fails


# ---- mutant-texts ----------------------------------------------------------------------------

@check("mutant-texts", "every mutant of tests/mutants.py finds its text exactly once in its "
       "file (make mutants, not make test, builds them)")
def check_mutant_texts(root):
    rel = "tests/mutants.py"
    path = os.path.join(root, rel)
    if not os.path.exists(path):
        return []
    text = read(root, rel)
    m = re.search(r"^MUTANTS = \{$", text, re.M)
    if not m:
        return [(rel, 1, "no MUTANTS table")]
    body = text[m.end():text.index("\n}\n", m.end()) + 2]
    table = ast.literal_eval("{" + body)
    fails = []
    for name, (model, fname, old, *_rest) in table.items():
        src = os.path.join(model, fname)
        n = read(root, src).count(old) if os.path.exists(os.path.join(root, src)) else 0
        if n != 1:
            at = re.search(r'^\s*"%s":' % re.escape(name), text, re.M)
            fails.append((rel, line_of(text, at.start()) if at else 1,
                          f"mutant {name}: its text occurs {n} times in {src}"))
    return fails


# ---- the runner ------------------------------------------------------------------------------

def run_checks(root, names):
    """{name: [(file, line, message)]} for the named checks on the tree at root."""
    out = {}
    for name in names:
        try:
            out[name] = CHECKS[name][0](root)
        except FileNotFoundError as e:
            rel = os.path.relpath(e.filename, root) if e.filename else "?"
            out[name] = [(rel, 0, "missing (the check reads it)")]
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list", action="store_true", help="name the checks and what each keeps")
    ap.add_argument("--check", action="append", metavar="NAME", help="run only this check "
                    "(repeatable)")
    ap.add_argument("--root", default=ROOT, help="the repository to check (default: this one)")
    a = ap.parse_args(argv)
    if a.list:
        for n, (_, what) in CHECKS.items():
            print(f"{n:20} {what}")
        return 0
    names = a.check or list(CHECKS)
    bad = [n for n in names if n not in CHECKS]
    if bad:
        print(f"docs_check.py: unknown check '{bad[0]}' (docs_check.py --list)", file=sys.stderr)
        return 2
    if not os.path.isdir(a.root):
        print(f"docs_check.py: --root {a.root}: no such folder", file=sys.stderr)
        return 2
    res = run_checks(os.path.abspath(a.root), names)
    failed = 0
    for n in names:
        for f, ln, msg in res[n]:
            print(f"{f}:{ln}: {msg}")
        print(f"{'PASS' if not res[n] else 'FAIL'} {n}" +
              (f" ({len(res[n])} problems; every one: python3 tests/docs_check.py --check {n})"
               if res[n] else ""))
        failed += bool(res[n])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
