#!/usr/bin/env python3
"""derive.py - the stimuli of one node's vectors, made into another node's (for ftsim upsetcheck).

usage: derive.py DEVICE LC OUTDIR VEC...

Writes OUTDIR/<name>.vec for each lc3node vector VEC: its drives, register writes and
configuration (comments and expectations left out, `check loose`) on DEVICE (p2snode, lc3node2,
p2snode2). On a torus node (lc3node2, p2snode2) the controller's ports, registers and keys take
the prefix LC (x or y) and, for the Y-LC, the PSB's BRT entries that named LC port 1 name port
2. What the vector made the one controller of lc3node do, the derived one makes that controller
of DEVICE do; the other controller of a torus node idles (its ring down). A stimulus, not a spec
vector: nothing is expected of the outputs (tests/upset/README.md).
"""
import os
import re
import sys

LC_PORTS = {"lin", "lin.sd"}
PSB = ("psb.", "rsr_timeout")


def rename(name, pre):
    return name if not pre or name.startswith(PSB) else pre + name


def derive(text, device, lc):
    pre = f"{lc}." if lc in ("x", "y") else ""
    out = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line or "->" in line:
            continue
        w = line.split()
        if w[0] == "device":
            out.append(f"device {device}")
            continue
        if w[0] == "check":
            out.append("check loose")
            continue
        if w[0] == "config" or (w[0].startswith("@") and len(w) > 1 and w[1] == "config"):
            k = 1 if w[0] == "config" else 2
            w[k:] = [rename(kv.split("=", 1)[0], pre) + kv[kv.index("="):] if "=" in kv else kv
                     for kv in w[k:]]
        elif w[0].startswith("@") and len(w) > 3 and w[1] == "reg":
            if lc == "y" and w[2] == "psb.brt" and w[4] == "1":
                w[4] = "2"
            w[2] = rename(w[2], pre)
        elif w[0].startswith("@") and len(w) > 2 and w[1] in LC_PORTS:
            w[1] = pre + w[1]
        out.append(" ".join(w))
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) < 5:
        print(__doc__.strip())
        return 2
    device, lc, outdir, vecs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    os.makedirs(outdir, exist_ok=True)
    for v in vecs:
        with open(v, encoding="utf-8") as f:
            text = f.read()
        if not re.search(r"^device lc3node\s*$", text, re.M):
            print(f"{v}: not an lc3node vector")
            return 2
        name = os.path.splitext(os.path.basename(v))[0]
        with open(os.path.join(outdir, f"{name}.vec"), "w", encoding="utf-8") as f:
            f.write(f"# STIMULUS derived by tests/upset/derive.py from {v}\n")
            f.write(derive(text, device, lc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
