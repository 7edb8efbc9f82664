#!/usr/bin/env python3
"""The docs suite's own test: each check of tests/docs_check.py passes on a scratch tree that
keeps its rule and fails, naming `file:line`, on a copy broken on purpose.

Every scratch tree lives in a temporary folder; the repository is only read (its Makefile,
harness/cmd/main.c and tests/run.py are copied where a check parses them). A check without a
case here is a failure, so a new check cannot go untested. The last line is `N passed, N failed`.
"""
import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ left in tests/
sys.path.insert(0, os.path.join(ROOT, "tests"))
import docs_check  # noqa: E402

# The word the no-seed check guards, written so that this file keeps its own rule.
S = "se" + "ed"


def build(files, copies=()):
    """A scratch tree: {path: text} written, repository files copied."""
    d = tempfile.mkdtemp(prefix="ftsim-docs-selftest-")
    for rel in copies:
        os.makedirs(os.path.join(d, os.path.dirname(rel)), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, rel), os.path.join(d, rel))
    for rel, text in files.items():
        os.makedirs(os.path.join(d, os.path.dirname(rel)) or d, exist_ok=True)
        with open(os.path.join(d, rel), "w") as f:
            f.write(text)
        if text.startswith("#!"):
            os.chmod(os.path.join(d, rel), 0o755)
    return d


def run(root, name):
    """docs_check.py --root ROOT --check NAME, in this process: (exit status, output)."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        rc = docs_check.main(["--root", root, "--check", name])
    return rc, buf.getvalue()


def cli_case():
    """The command line itself: --list names every check, an unknown check is exit 2, and
    a failure prints `file:line: message` and exits 1."""
    me = [sys.executable, os.path.join(ROOT, "tests", "docs_check.py")]
    p = subprocess.run(me + ["--list"], stdout=subprocess.PIPE, timeout=60)
    listed = [x.split()[0] for x in p.stdout.decode().splitlines() if x.strip()]
    if p.returncode != 0 or listed != list(docs_check.CHECKS):
        return f"--list: exit {p.returncode}, named {listed}"
    p = subprocess.run(me + ["--check", "no-such-check"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    if p.returncode != 2:
        return f"--check no-such-check: exit {p.returncode}, expected 2"
    root = build({"README.md": "# t\n\nSee `harness/none.c`.\n"})
    try:
        p = subprocess.run(me + ["--root", root, "--check", "doc-paths"],
                           stdout=subprocess.PIPE, timeout=60)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    out = p.stdout.decode()
    if p.returncode != 1 or not re.search(r"^README\.md:3: quotes `harness/none\.c`", out, re.M):
        return f"a missing path: exit {p.returncode}, output:\n{out}"
    return ""


# Each case: (check, what, files, copies, broken files (merged over files), the `file:line:`
# the failure must name (a regular expression)).
def cases():
    c = []
    # ---- doc-paths
    good = {"harness/core/dev.c": "int x;\n", "vectors/README.md": "# vectors\n",
            "README.md": "# t\n\nSee `harness/core/dev.c` and [the vectors](vectors/README.md); "
                         "`dev.c`; outputs `build/waves/x.fst`; `https://example.org/a/b.md`;\n"
                         "`vectors/<device>/spec/`, `vectors/*/spec/*.vec`, `FILE.vec`.\n\n"
                         "```\nmkdir -p out\nbuild/ftsim merge a.shard -o out/r.txt\n```\n"
                         "The table lands in `out/r.txt`.\n"}
    c.append(("doc-paths", "a doc quoting a missing path", good, (),
              {"README.md": good["README.md"] + "\nThen open `harness/core/gone.c`.\n"},
              r"^README\.md:12: quotes `harness/core/gone\.c`"))
    c.append(("doc-paths", "a link to a missing doc", good, (),
              {"vectors/README.md": "# v\n\n[the spec](spec/README.md)\n"},
              r"^vectors/README\.md:3: quotes `spec/README\.md`"))
    c.append(("doc-paths", "a fenced layout naming a missing folder", good, (),
              {"README.md": good["README.md"] + "\n```\nharness/core/   the core\n"
                                                "harness/gone/   a folder that went\n```\n"},
              r"^README\.md:14: quotes `harness/gone/`"))
    # ---- suite-table: the suites as tests/run.py --help lists them
    helptext = subprocess.run([sys.executable, "tests/run.py", "--help"], cwd=ROOT,
                              env=dict(os.environ, COLUMNS="100000"),
                              stdout=subprocess.PIPE).stdout.decode()
    m = re.search(r"^\s*--suite .*?:\s*(.*)$", helptext, re.M)
    suites = [s.strip() for s in m.group(1).split(",")] if m else []
    if not suites:
        raise SystemExit("docs_selftest.py: tests/run.py --help lists no suites")
    table = "# tests\n\n| suite | what | cost |\n|---|---|---|\n" + \
        "".join(f"| {s} | the {s} suite | 1 s |\n" for s in suites)
    runpy = open(os.path.join(ROOT, "tests", "run.py")).read()
    c.append(("suite-table", "a suite without its row", {"tests/README.md": table},
              ["tests/run.py"],
              {"tests/README.md": table.replace(f"| {suites[-1]} |", "| gone |")},
              r"^tests/run\.py:\d+: suite '%s' has no row" % re.escape(suites[-1])))
    c.append(("suite-table", "a new suite in run.py, not in the table", {"tests/README.md": table},
              ["tests/run.py"],
              {"tests/run.py": runpy.replace("SUITES = {\n", "SUITES = {\n    \"brand-new\": "
                                                             "suite_lint,\n", 1)},
              r"^tests/run\.py:\d+: suite 'brand-new' has no row"))
    c.append(("suite-table", "no tests/README.md", {"tests/README.md": table}, ["tests/run.py"],
              {"tests/README.md": None}, r"^tests/README\.md:0: missing"))
    # ---- make-targets (the repository's Makefile)
    doc = "# t\n\nRun `make test SUITE=docs`, `nice make -j2 build`.\n\n```\nmake demo   # all\n" \
          "$ make wave V=vectors/rn1/spec/x.vec\n```\n\nThe make targets: see `make help`.\n"
    c.append(("make-targets", "a doc naming a missing make target", {"README.md": doc},
              ["Makefile"], {"README.md": doc + "\nThen `make frobnicate`.\n"},
              r"^README\.md:12: `make frobnicate`"))
    c.append(("make-targets", "a target removed from the Makefile", {"README.md": doc},
              ["Makefile"], {"Makefile": re.sub(r"(?m)^wave:", "wave-gone:",
                                                open(os.path.join(ROOT, "Makefile")).read())},
              r"^README\.md:7: `make wave`"))
    mk = {"Makefile": "all:\n\ttrue\n\ninclude x/extra.mk\n", "x/extra.mk": "extra-check: all\n\ttrue\n",
          "README.md": "# t\n\nRun `make extra-check`.\n"}
    c.append(("make-targets", "a target of an included .mk removed", mk, (),
              {"x/extra.mk": "other: all\n\ttrue\n"}, r"^README\.md:3: `make extra-check`"))
    # ---- doc-includes
    script = "#!/bin/bash\n# run.sh: a job\nbuild/ftsim info rn1\n"
    doc = "# t\n\nThe job script:\n\n<!-- include harness/x/run.sh -->\n```\n" + script + "```\n"
    good = {"harness/x/run.sh": script, "README.md": doc}
    c.append(("doc-includes", "a script changed, its doc's copy not", good, (),
              {"harness/x/run.sh": script.replace("info rn1", "info lc3")},
              r"^README\.md:9: differs from `harness/x/run\.sh` line 3"))
    c.append(("doc-includes", "a doc's copy with a line more", good, (),
              {"README.md": doc.replace("```\n", "echo more\n```\n", 2).replace(
                  "echo more\n```\n#!", "```\n#!")},
              r"^README\.md:10: more than `harness/x/run\.sh`"))
    c.append(("doc-includes", "an include of a missing file", good, (),
              {"harness/x/run.sh": None}, r"^README\.md:5: includes `harness/x/run\.sh`"))
    c.append(("doc-includes", "an include line without its block", good, (),
              {"README.md": doc.replace("```\n#!", "\n```\n#!")},
              r"^README\.md:6: a fenced block"))
    # ---- ftsim-commands (the repository's harness/cmd/main.c)
    doc = "# t\n\n`build/ftsim play vectors/rn1/spec/x.vec`, `ftsim --version`, " \
          "`ftsim-sc rnpnet`.\n\n```\n$ build/ftsim info rn1\n```\n\nA shard starts " \
          "`ftsim shard 1`.\n"
    good = {"README.md": doc, "harness/core/c.c": 'void h(FILE *f) { fputs("ftsim shard 1\\n", f); }\n'}
    c.append(("ftsim-commands", "a doc naming a missing ftsim command", good,
              ["harness/cmd/main.c"], {"README.md": doc + "\n`build/ftsim frobnicate x`\n"},
              r"^README\.md:11: `ftsim frobnicate`"))
    c.append(("ftsim-commands", "a command removed from ftsim", good,
              ["harness/cmd/main.c"],
              {"harness/cmd/main.c": open(os.path.join(ROOT, "harness/cmd/main.c")).read()
               .replace('{"info", cmd_info},', "")}, r"^README\.md:6: `ftsim info`"))
    # ---- doc-counts
    tree = {"vectors/a/spec/one.vec": "", "vectors/a/spec/two.vec": "",
            "vectors/b/spec/three.vec": "",
            "tests/mutants.py": "MUTANTS = {'m1': (), 'm2': ()}\n",
            "tests/run.py": "SC_VECTOR_DIRS = ['a']\nSUITES = {'x': lambda: [1, 2, 3], "
                            "'y': lambda: [1]}\n"}
    doc = "# t\n\nThe 3 spec vectors (the 2 spec vectors of `a`), 2 mutants, 4 tests; the `x` " \
          "suite (3 tests).\n\nMeasured 2026-12-01 on two cores: 99 tests, 7 mutants.\n\n" \
          "```\n$ make test\n99 passed, 0 failed\n```\n\n> 98 passed, 1 failed\n"
    good = dict(tree, **{"README.md": doc})
    c.append(("doc-counts", "a wrong count of spec vectors", good, (),
              {"README.md": doc + "\nAll 5 spec vectors.\n"}, r"^README\.md:14: says '5 spec"))
    c.append(("doc-counts", "a spec vector added, the doc not", good, (),
              {"vectors/b/spec/four.vec": ""}, r"^README\.md:3: says '3 spec vectors'"))
    c.append(("doc-counts", "a wrong count of mutants", good, (),
              {"tests/mutants.py": "MUTANTS = {'m1': (), 'm2': (), 'm3': ()}\n"},
              r"^README\.md:3: says '2 mutants'"))
    c.append(("doc-counts", "an undated measured test count", good, (),
              {"README.md": doc + "\nThe test phase took 9 s for 1,750 tests.\n"},
              r"^README\.md:14: says '1,750 tests'"))
    c.append(("doc-counts", "a suite's test count", good, (),
              {"README.md": doc + "\nThe `y` suite (2 tests) is quick.\n"},
              r"^README\.md:14: says '2 tests'"))
    # ---- readme-first-vector (no ftsim needed by this transcript)
    readme = "# t\n\n## Your first vector\n\n```\n$ cat greeting.txt\nhello ftsim\n" \
             "$ printf 'a\\nb\\nc\\nd\\n'\na\n...\nd\n$ touch made-here; echo \"took ... s\" \\\n" \
             "  | sed 's/\\.\\.\\./0.5/'\ntook ... s\n```\n\n## Next\n\n```\n$ false\nnot run\n```\n"
    good = {"README.md": readme, "greeting.txt": "hello ftsim\n"}
    c.append(("readme-first-vector", "the tree no longer prints what the README quotes", good,
              (), {"greeting.txt": "hello world\n"}, r"^README\.md:7: `cat greeting\.txt`"))
    c.append(("readme-first-vector", "a quoted line that does not come", good, (),
              {"README.md": readme.replace("d\n$ touch", "e\n$ touch")},
              r"^README\.md:11: `printf"))
    c.append(("readme-first-vector", "ftsim commands with no build/ftsim", good, (),
              {"README.md": readme.replace("$ cat greeting.txt",
                                           "$ build/ftsim play vectors/rn1/spec/x.vec")},
              r"^README\.md:6: build/ftsim is missing"))
    c.append(("readme-first-vector", "no first-vector section", good, (),
              {"README.md": readme.replace("Your first vector", "First steps")},
              r"^README\.md:0: no `\$ ` command"))
    # a stand-in ftsim and a Makefile whose build/ftsim rule must not run in the scratch copy
    fake = "#!/bin/sh\necho \"ftsim $*\"\n"
    mk = "build/ftsim:\n\t@echo rebuilt\nhello: build/ftsim\n\t@echo hello from make\n"
    readme = "# t\n\n## Your first vector\n\n```\n$ build/ftsim play vectors/x.vec\n" \
             "ftsim play vectors/x.vec\n$ make hello\nhello from make\n```\n"
    good = {"README.md": readme, "Makefile": mk, "build/ftsim": fake}
    c.append(("readme-first-vector", "ftsim's output changed", good, (),
              {"build/ftsim": "#!/bin/sh\necho \"ftsim: $*\"\n"}, r"^README\.md:7: `build/ftsim"))
    c.append(("readme-first-vector", "make's output changed", good, (),
              {"Makefile": mk.replace("hello from", "hi from")}, r"^README\.md:9: `make hello`"))
    # ---- readme-size
    line = "x" * docs_check.README_MAX_COLS
    good = {"README.md": (line + "\n") * docs_check.README_MAX_LINES}
    c.append(("readme-size", "one line too many", good, (),
              {"README.md": (line + "\n") * (docs_check.README_MAX_LINES + 1)},
              r"^README\.md:%d: " % (docs_check.README_MAX_LINES + 1)))
    c.append(("readme-size", "one character too many", good, (),
              {"README.md": (line + "\n") * 5 + line + "y\n"}, r"^README\.md:6: "))
    # ---- no-seed
    good = {"README.md": f"# t\n\nFuzz with a random {S} (`--{S} 7`); from the {S} it draws a "
                         f"ring. The {S} is printed.\nFT-DRB (Zarza et al.).\n",
            "harness/a/a.c": f"/* the {S} stepped t times; a zero {S} loads 0xACE1 */\nint x;\n",
            "Makefile": f"# fixed {S}s for the fuzz\nall:\n"}
    for rel, text, want in [
            ("README.md", f"As in {S} 001's Figure 3.\n", r"^README\.md:1: "),
            ("harness/a/a.c", f"/* the {S}'s Table 1 */\n", r"^harness/a/a\.c:1: "),
            ("Makefile", f"# the {S} paper's timers\nall:\n", r"^Makefile:1: "),
            ("tests/x.py", f"PAPERS = '../shared/{S}s/'\n", r"^tests/x\.py:1: "),
            ("rtl/x.v", f"// The {S} keeps one channel per segment\n", r"^rtl/x\.v:1: "),
            (".ci/run", f"#!/bin/sh\n# the {S} 002 campaigns\n", r"^\.ci/run:2: "),
            ("harness/results/x.csv", f"# x: 32x32 torus; {S} 001 97/88/100 %\na,b\n",
             r"^harness/results/x\.csv:1: ")]:
        c.append(("no-seed", f"a paper called by the word in {rel}", good, (), {rel: text}, want))
    # ---- c-file-size
    good = {"harness/a/a.c": "int x;\n" * docs_check.C_MAX_LINES, "csim/b.h": "int y;\n",
            "tests/t.c": "int z;\n" * 2000}
    c.append(("c-file-size", "a C source in harness/ over the limit", good, (),
              {"harness/a/a.c": "int x;\n" * (docs_check.C_MAX_LINES + 1)},
              r"^harness/a/a\.c:%d: " % (docs_check.C_MAX_LINES + 1)))
    c.append(("c-file-size", "a C source in csim/ over the limit", good, (),
              {"csim/big.c": "int x;\n" * (docs_check.C_MAX_LINES + 5)}, r"^csim/big\.c:"))
    # ---- makefile-designs
    mk = "# rn1 lc3 p2s sci_node: comments may name them\nall:\n\t@echo \"RN1 and LC3\"\n" + \
        "".join(f"X{k} := $(call rtl_files,rn1)\n" for k in range(docs_check.MAKEFILE_MAX_DESIGN_LINES))
    good = {"Makefile": mk + "INC_core := -Iharness/core\n",
            "rtl/files.txt": "rn1: rn1.v\nwidget: widget.v  # a comment\n    top wtop\n"
                             "    variant gizmo gizmodev P=1\n    variant helper -\n",
            "csim/fam/a.c": "int x;\n"}
    c.append(("makefile-designs", "one design line too many", good, (),
              {"Makefile": mk + "W := $(VLBUILD)/lc3n1/Vlc3n1__ALL.a\n"}, r"^Makefile:\d+: names"))
    c.append(("makefile-designs", "RN1 named once more", good, (),
              {"Makefile": mk + "R := $(VLBUILD)/rn1\n"}, r"^Makefile:\d+: names the design 'rn1'"))
    c.append(("makefile-designs", "a manifest's new design named in the Makefile", good, (),
              {"Makefile": mk + "LINT += widget\n"}, r"^Makefile:\d+: names the design 'widget'"))
    c.append(("makefile-designs", "a manifest's variant named in the Makefile", good, (),
              {"Makefile": mk + "G := $(VLBUILD)/gizmo/Vgizmo__ALL.a\n"},
              r"^Makefile:\d+: names the design 'gizmo'"))
    c.append(("makefile-designs", "a manifest's device named in the Makefile", good, (),
              {"Makefile": mk + "demo: ; ftsim play --device gizmodev x.vec\n"},
              r"^Makefile:\d+: names the design 'gizmodev'"))
    c.append(("makefile-designs", "a manifest's top module named in the Makefile", good, (),
              {"Makefile": mk + "T := --top-module wtop\n"}, r"^Makefile:\d+: names the design 'wtop'"))
    c.append(("makefile-designs", "a family of csim/ named in the Makefile", good, (),
              {"Makefile": mk + "INC_fam := -Iharness/fam -Icsim/fam\n"},
              r"^Makefile:\d+: names the design 'fam'"))
    # ---- core-no-design
    good = {"harness/core/a.c": "/* the rn1_ and sci_ contracts (rn1.md) */\nint dev_count;\n",
            "harness/core/a.h": "#define N 3 // lc3, p2s\n", "harness/rnp/r.c": "int rn1_x;\n"}
    c.append(("core-no-design", "a core header naming an RN1 function", good, (),
              {"harness/core/a.h": "#define N 3\nvoid rn1_rtl_phase(int);\n"},
              r"^harness/core/a\.h:2: 'rn1_rtl_phase'"))
    c.append(("core-no-design", "a core source including an SCI header", good, (),
              {"harness/core/a.c": "#include \"sci_lc.h\"\nint dev_count;\n"},
              r"^harness/core/a\.c:1: 'sci_lc'"))
    c.append(("core-no-design", "a core function for an RNP experiment", good, (),
              {"harness/core/e.h": "int experiment_rnp(const char *n);\n"},
              r"^harness/core/e\.h:1: 'experiment_rnp'"))
    # ---- no-uncalled
    good = {"harness/a/a.h": "int helper(void);\nstatic inline int twice(int x) { return 2 * x; }\n",
            "harness/a/a.c": "#include \"a.h\"\nstatic int cb(int x) { return x; }\n"
                             "static int (*const tab[])(int) = {cb};\n"
                             "int main(void) { return twice(tab[0](helper())); }\n",
            "csim/b.c": "/* lonely() was here */\nint helper(void)\n{\n    return 1;\n}\n"}
    c.append(("no-uncalled", "a function defined and never called", good, (),
              {"csim/b.c": good["csim/b.c"] + "\nint lonely(void)\n{\n    return helper();\n}\n",
               "harness/a/a.h": good["harness/a/a.h"] + "int lonely(void);\n"},
              r"^csim/b\.c:7: lonely\(\)"))
    c.append(("no-uncalled", "an inline helper nobody calls", good, (),
              {"harness/a/a.h": good["harness/a/a.h"] +
               "static inline int thrice(int x) { return 3 * x; }\n"},
              r"^harness/a/a\.h:3: thrice\(\)"))
    c.append(("no-uncalled", "a C++ function nobody calls", good, (),
              {"harness/a/c.cpp": "namespace {\nint unused_cpp(int x)\n{\n    return x;\n}\n}\n"},
              r"^harness/a/c\.cpp:2: unused_cpp\(\)"))
    # ---- one-shim-template
    tpl = docs_check.SHIM_TEMPLATE
    shim = "// foo_rtl.cpp: the foo model as a device\n#include \"Vfoo.h\"\n#include \"%s\"\n\n" \
           "extern \"C\" const dev_ops_t *foo_ops(void) { return &vl_dev<Vfoo>::ops; }\n" \
           % os.path.basename(tpl)
    good = {tpl: "template <class V> struct vl_dev { static const dev_ops_t ops; };\n",
            "harness/foo/foo_rtl.cpp": shim, "harness/sc/sc_dev.cpp": shim,
            "harness/foo/obs_rtl.cpp": "// an observer, not a device\nint obs;\n"}
    c.append(("one-shim-template", "a shim with its own thunk table", good, (),
              {"harness/foo/foo_rtl.cpp": shim + "static const dev_ops_t ops = {destroy, tick};\n"},
              r"^harness/foo/foo_rtl\.cpp:6: defines a dev_ops_t table"))
    c.append(("one-shim-template", "a shim without the template", good, (),
              {"harness/sc/sc_dev.cpp": shim.replace(os.path.basename(tpl), "my_shim.h")},
              r"^harness/sc/sc_dev\.cpp:1: does not include"))
    c.append(("one-shim-template", "no template in the core", good, (), {tpl: None},
              r"^%s:0: missing" % re.escape(tpl)))
    # ---- json-library
    good = {"harness/a/w.c": "#include <json-c/json.h>\nvoid w(json_object *o)\n{\n"
                             "    json_object_object_add(o, \"cycles\", json_object_new_int64(1));\n"
                             "    printf(\"%s\\n\", \"plain \\\"quoted\\\" text\");\n}\n"}
    c.append(("json-library", "a JSON object written by hand", good, (),
              {"harness/a/p.c": "void p(FILE *f, int v)\n{\n"
                                "    fprintf(f, \"{\\\"cycles\\\": %d}\\n\", v);\n}\n"},
              r"^harness/a/p\.c:3: JSON by hand"))
    c.append(("json-library", "a JSON key parsed by hand", good, (),
              {"harness/a/r.c": "const char *k(const char *s) { return strstr(s, \"\\\"%s\\\":\"); }\n"},
              r"^harness/a/r\.c:1: JSON by hand"))
    # ---- mutant-texts
    good = {"tests/mutants.py": "MUTANTS = {\n    \"csim-a\": (\"csim\", \"a/a.c\",\n"
                                "        \"x = 1;\", \"x = 2;\", \"x is one\"),\n}\n",
            "csim/a/a.c": "int f(void)\n{\n    int x;\n    x = 1;\n    return x;\n}\n"}
    c.append(("mutant-texts", "a mutant whose text the source no longer has", good, (),
              {"csim/a/a.c": "int f(void) { return 1; }\n"},
              r"^tests/mutants\.py:2: mutant csim-a: its text occurs 0 times"))
    return c


def main():
    passed = failed = 0
    tested = set()
    for name, what, files, copies, broken, want in cases():
        tested.add(name)
        why = ""
        root = build(files, copies)
        try:
            rc, out = run(root, name)
            if rc != 0:
                why = f"fails on the scratch tree that keeps its rule (exit {rc}):\n{out}"
            else:
                for rel, text in broken.items():
                    p = os.path.join(root, rel)
                    if text is None:
                        os.remove(p)
                        continue
                    os.makedirs(os.path.dirname(p), exist_ok=True)
                    with open(p, "w") as f:
                        f.write(text)
                rc, out = run(root, name)
                if rc != 1:
                    why = f"exit {rc} on the broken copy, expected 1:\n{out}"
                elif not re.search(want, out, re.M):
                    why = f"the failure does not name /{want}/:\n{out}"
            if name == "readme-first-vector" and os.path.exists(os.path.join(root, "made-here")):
                why = why or "the transcript's commands wrote into the tree"
        finally:
            shutil.rmtree(root, ignore_errors=True)
        if why:
            failed += 1
            print(f"FAIL {name}: {what}: {why}")
        else:
            passed += 1
            print(f"PASS {name}: {what}")
    why = cli_case()
    print(f"{'FAIL' if why else 'PASS'} command line: --list, an unknown check, file:line"
          + (f": {why}" if why else ""))
    passed, failed = passed + (not why), failed + bool(why)
    for name in docs_check.CHECKS:
        if name not in tested:
            failed += 1
            print(f"FAIL {name}: no case breaks this check")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
