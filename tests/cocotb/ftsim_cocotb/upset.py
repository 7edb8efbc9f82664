"""Upsets (`@N seu NAME bitB`, vectors/README.md "Upsets") through the simulator's handles: the
state element `ftsim vec-json` names (var: its hierarchical name under the design's module,
word: the word of a memory or None, bit: the bit to flip) is read, its bit flipped and written
back, as `ftsim export-tb`'s testbench and the Verilated model's upset do. The replay deposits
a cycle's upsets at its start, after the edge that ended the cycle before has settled, and
before the cycle's drives, register write and checks."""
import re

from cocotb.binary import BinaryValue
from cocotb.triggers import Timer

_PART = re.compile(r"^([A-Za-z_]\w*)(?:\[(\d+)\])?$")


def _parts(var):
    """`gen_lc[0].u_lc.u_ctrl.q_o` as [("gen_lc", 0), ("u_lc", None), ...]."""
    out = []
    for comp in var.split("."):
        m = _PART.match(comp)
        if not m:
            raise ValueError(f"{var!r}: not a hierarchical name")
        out.append((m.group(1), None if m.group(2) is None else int(m.group(2))))
    return out


def _verilator(var):
    """var as Verilator names it: a generate scope's index is part of the scope's name
    (gen_fport[3].u_fport is gen_fport__BRA__3__KET__.u_fport)."""
    comps = var.split(".")
    return ".".join([re.sub(r"\[(\d+)\]$", r"__BRA__\1__KET__", c) for c in comps[:-1]] + comps[-1:])


def handle(dut, var):
    """The handle of var under dut: scope by scope, a generate scope's index as an index of its
    generate array (Icarus; asked for whole, its VPI can hand a memory in a generate scope back
    without its range), else asked for whole as the simulator names it (Verilator:
    gen_lc__BRA__0__KET__.u_lc.u_ctrl.q_o, a generate scope's index in its name)."""
    try:
        h = dut
        for name, index in _parts(var):
            h = getattr(h, name)
            if index is not None:
                h = h[index]
        return h
    except (AttributeError, IndexError):
        pass
    for name in dict.fromkeys((var, _verilator(var))):
        try:
            return dut._id(name, extended=False)
        except AttributeError:
            pass
    raise AttributeError(f"{dut._path}: no {var} (nor {_verilator(var)})")


def flip(h, bit):
    """Bit `bit` of h's value flipped (an x or z bit stays as it is), written back."""
    s = h.value.binstr
    if not 0 <= bit < len(s):
        raise ValueError(f"{h._path}: bit {bit} beyond its {len(s)} bits")
    k = len(s) - 1 - bit
    s = s[:k] + {"0": "1", "1": "0"}.get(s[k], s[k]) + s[k + 1:]
    h.value = BinaryValue(s, n_bits=len(s), bigEndian=False)


async def apply(dut, upsets):
    """A cycle's upsets, in the vector's order, then the design's logic settled (1 ps)."""
    await Timer(1, "ps")  # the previous edge's register updates done
    for u in upsets:
        h = handle(dut, u["var"])
        if u["word"] is not None:
            h = h[u["word"]]
        flip(h, u["bit"])
        await Timer(1, "ps")  # written (a second flip of the same bit reads this one)
