"""What the test bench takes from ftsim itself: vectors as the player sees them, through
`ftsim vec-json` (so the vector language has one parser, ftsim's), and a design's ports,
register fields and default configuration writes the same way."""
import json
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def ftsim_path():
    p = os.environ.get("FTSIM", os.path.join("build", "ftsim"))
    return p if os.path.isabs(p) else os.path.join(ROOT, p)


def load_vectors(files):
    """Every vector of files, parsed by `ftsim vec-json`. A malformed one raises ValueError with
    ftsim's own `file:line: message`."""
    p = subprocess.run([ftsim_path(), "vec-json", *files], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    if p.returncode != 0:
        raise ValueError(p.stderr.decode("utf-8", "replace").strip())
    doc = json.loads(p.stdout)
    if doc.get("format") != "ftsim-vec-json 1":
        raise ValueError(f"ftsim vec-json wrote format {doc.get('format')!r}")
    return doc["vectors"]


def read_json(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if doc.get("format") != "ftsim-vec-json 1":
        raise ValueError(f"{path}: not ftsim vec-json output")
    return doc["vectors"]


class Design:
    """A device as ftsim describes it: ports, register fields, and the configuration writes
    made during reset for the given keys (the others at their documented defaults).

        d = Design("lc3", node=0x12)
        d.reg("taddr")          # {"name", "addr", "lsb", "width", "access"}
        d.init                  # [{"addr", "data", "mask"}], as `config node=0x12` gives
    """

    def __init__(self, device, **config):
        text = f"device {device}\n"
        if config:
            text += "config " + " ".join(f"{k}={v}" for k, v in config.items()) + "\n"
        with tempfile.NamedTemporaryFile("w", suffix=".vec", delete=False) as f:
            f.write(text)
        try:
            v = load_vectors([f.name])[0]
        finally:
            os.unlink(f.name)
        self.device = v["device"]
        self.ports = v["ports"]
        self.regs = {r["name"].lower(): r for r in v["regs"]}
        self.init = v["init"]

    def reg(self, name):
        return self.regs[name.lower()]
