#!/usr/bin/env python3
"""The RTL designs as rtl/files.txt describes them: the one reader of the manifest.

Imported by tests/run.py, harness/scripts/lint.py and bench.py; run by the Makefile (--make)
for the variables its Verilator and SystemC rules are generated from.

usage: designs.py [--rtl DIR] --make   the Makefile's variables (build/gen/designs.mk)
       designs.py [--rtl DIR] --list   one line per variant: design, variant, device, params
(Which Makefile lines name a design: python3 tests/docs_check.py --check makefile-designs.)
A malformed manifest is reported as `file:line: message`, exit 2.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KEYS = ("top", "variant", "shim", "vectors", "systemc", "dir")
NO_DEVICE = "-"


class ManifestError(Exception):
    """file:line: message"""


class Variant:
    def __init__(self, design, name, device, params):
        self.design, self.name, self.device, self.params = design, name, device, params

    @property
    def prefix(self):
        return "V" + self.name

    @property
    def sc_prefix(self):
        return "Vsc" + self.name

    def vparams(self):
        """The parameters as Verilator takes them."""
        return [f"-G{k}={v}" for k, v in self.params]

    def iparams(self):
        """The parameters as Icarus takes them (on the top module)."""
        return [f"-P{self.design.top}.{k}={v}" for k, v in self.params]


class Design:
    def __init__(self, name, files, line):
        self.name, self.files, self.line = name, files, line
        self.top, self.variants, self.shims, self.vectors, self.systemc = None, [], [], [], False
        self.dir = None     # its files' folder from the root; None: the RTL folder

    def paths(self, rtl="rtl", ext=None):
        """Its files (under the RTL folder rtl, or under its own folder), those ending in ext
        only when given."""
        return [os.path.join(self.dir or rtl, f) for f in self.files
                if ext is None or f.endswith(ext)]


def load(rtl=None):
    """The designs of rtl/files.txt (or of DIR/files.txt), in the file's order."""
    path = os.path.join(rtl or os.path.join(ROOT, "rtl"), "files.txt")
    shown = os.path.relpath(path, ROOT) if not os.path.isabs(rtl or "") else path
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise ManifestError(f"{shown}:0: cannot open ({e.strerror})")
    designs, cur = [], None

    def bad(n, msg):
        raise ManifestError(f"{shown}:{n}: {msg}")
    for n, raw in enumerate(lines, 1):
        text = raw.split("#", 1)[0].rstrip()
        if not text.strip():
            continue
        if not raw[0].isspace():
            m = re.fullmatch(r"([A-Za-z_]\w*):\s*(.*)", text)
            if not m:
                bad(n, f"want 'design: files', got {text.strip()!r}")
            if any(d.name == m.group(1) for d in designs):
                bad(n, f"design {m.group(1)} given twice")
            files = m.group(2).split()
            if not any(f.endswith(".v") for f in files):
                bad(n, f"design {m.group(1)} has no Verilog source (.v)")
            for f in files:
                if not f.endswith((".v", ".vlt")):
                    bad(n, f"{f}: a design's files are .v and .vlt")
            cur = Design(m.group(1), files, n)
            designs.append(cur)
            continue
        if cur is None:
            bad(n, "an indented line before the first 'design: files' line")
        key, *vals = text.split()
        if key not in KEYS:
            bad(n, f"unknown key {key!r} (keys: {', '.join(KEYS)})")
        if key == "top":
            if len(vals) != 1 or cur.top:
                bad(n, "top takes one module, once per design")
            cur.top = vals[0]
        elif key == "variant":
            if len(vals) < 2:
                bad(n, "want 'variant NAME DEVICE [PARAM=VALUE ...]'")
            params = []
            for p in vals[2:]:
                m = re.fullmatch(r"([A-Za-z_]\w*)=(\S+)", p)
                if not m:
                    bad(n, f"{p}: a parameter is NAME=VALUE")
                params.append((m.group(1), m.group(2)))
            if not re.fullmatch(r"[a-z][a-z0-9_]*", vals[0]):
                bad(n, f"{vals[0]}: a variant's name is lower case letters and digits")
            cur.variants.append(Variant(cur, vals[0], vals[1], params))
        elif key == "shim":
            cur.shims += vals
        elif key == "vectors":
            cur.vectors += vals
        elif key == "dir":
            if len(vals) != 1 or cur.dir or os.path.isabs(vals[0]) or ".." in vals[0].split("/"):
                bad(n, "dir takes one folder below the root, once per design")
            cur.dir = vals[0].rstrip("/")
        elif key == "systemc":
            if vals not in (["yes"], ["no"]):
                bad(n, "systemc yes or no")
            cur.systemc = vals == ["yes"]
    seen = {}
    for d in designs:
        if not d.top:
            bad(d.line, f"design {d.name} names no top module")
        if not d.variants:
            bad(d.line, f"design {d.name} has no variant")
        for v in d.variants:
            for what, key in (("variant", v.name), ("device", "dev:" + v.device)):
                if key == "dev:" + NO_DEVICE:
                    continue
                if key in seen:
                    bad(d.line, f"{what} {key.split(':')[-1]} is in {seen[key]} and {d.name}")
                seen[key] = d.name
    return designs


def variants(designs=None):
    return [v for d in designs or load() for v in d.variants]


def devices(designs=None, systemc=None):
    """The devices with an RTL module of their own (of the SystemC designs only, if asked)."""
    return [v.device for d in designs or load() for v in d.variants
            if v.device != NO_DEVICE and (systemc is None or d.systemc == systemc)]


def vector_dirs(designs=None, systemc=None):
    return [x for d in designs or load() if systemc is None or d.systemc == systemc
            for x in d.vectors]


def includes(path):
    """The files a Verilog source `include`s."""
    try:
        with open(path, encoding="utf-8") as f:
            return re.findall(r'^\s*`include\s+"([^"]+)"', f.read(), re.M)
    except OSError:
        return []


def variants_reading(fname, designs=None, rtl=None):
    """The variants whose model reads the RTL file fname (one of a design's files, or an
    include file one of them includes): what a change of fname rebuilds."""
    rtl = rtl or os.path.join(ROOT, "rtl")
    out = []
    for d in designs or load(rtl):
        if fname in d.files or any(fname in includes(p) for p in d.paths(rtl, ".v")):
            out += d.variants
    return out


def make_vars(designs):
    """The Makefile's generated variables: names of the designs live here, not in the Makefile."""
    out = ["# Generated from rtl/files.txt by harness/scripts/designs.py --make; do not edit.",
           f"VL_VARIANTS := {' '.join(v.name for v in variants(designs))}",
           "SC_VARIANTS := " + " ".join(v.name for d in designs if d.systemc for v in d.variants),
           f"VL_DEVICES := {' '.join(devices(designs))}",
           f"VL_VECTOR_DIRS := {' '.join(vector_dirs(designs))}"]
    shims = {}
    for d in designs:
        for v in d.variants:
            out += [f"VL_TOP_{v.name} := {d.top}",
                    f"VL_PARAMS_{v.name} := {' '.join(v.vparams())}",
                    f"VL_SRCDIR_{v.name} := {d.dir or '$(RTL_DIR)'}",
                    f"VL_FILES_{v.name} := {' '.join(d.files)}"]
            for s in d.shims:
                shims.setdefault(s, []).append(v.name)
    out.append(f"VL_SHIMS := {' '.join(s[:-4] for s in shims if s.endswith('.cpp'))}")
    for s, vs in shims.items():
        out.append(f"VL_SHIM_VARIANTS_{s[:-4]} := {' '.join(vs)}")
    return "\n".join(out) + "\n"


def main(argv):
    args = list(argv)
    rtl = None
    if args[:1] == ["--rtl"] and len(args) >= 2:
        rtl, args = args[1], args[2:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if args else 2
    try:
        designs = load(rtl)
        if args == ["--make"]:
            sys.stdout.write(make_vars(designs))
        elif args == ["--list"]:
            for v in variants(designs):
                print(f"{v.design.name:<10} {v.name:<7} {v.device:<9} {' '.join(v.vparams())}")
        else:
            print(f"designs.py: unknown arguments {' '.join(args)!r} (--help)", file=sys.stderr)
            return 2
    except ManifestError as e:
        print(e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
