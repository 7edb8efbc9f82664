"""The RN1 port family (rtl/rn1.v): a driver of its inputs and a monitor of its outputs, by the
port names of the vector language (f0..f7, b0..b7, bJ.bc in; f0..f7, b0..b7, fP.bc out).

The RTL packs the ports into buses: fwd_i/fwd_o and bwd_i/bwd_o hold eight 9-bit words (port k
in bits [9k +: 9]), bwd_bc_i and fwd_bc_o one backward-channel bit a port.
"""
from cocotb.triggers import ReadOnly, RisingEdge

from . import words

NPORTS = 8
_MASK9 = 0x1FF


def _port(name):
    """'f3' -> ('f', 3, False); 'b2.bc' -> ('b', 2, True)."""
    n = name.lower()
    bc = n.endswith(".bc")
    if bc:
        n = n[:-3]
    if len(n) != 2 or n[0] not in "fb" or not n[1].isdigit() or int(n[1]) >= NPORTS:
        raise KeyError(f"rn1 has no port {name!r}")
    return n[0], int(n[1]), bc


class Rn1Driver:
    """Holds every input word; set() changes one, apply() puts them on the pins. A word holds
    until it is set again (as in a vector)."""

    def __init__(self, dut):
        self.dut = dut
        self.idle()
        self.apply()

    def idle(self):
        self.fwd = [words.IDLE] * NPORTS
        self.bwd = [words.IDLE] * NPORTS
        self.bc = 0

    def set(self, port, value):
        side, k, bc = _port(port)
        if bc:
            if side != "b":
                raise KeyError(f"rn1: {port} is an output")
            self.bc = (self.bc & ~(1 << k)) | ((value & 1) << k)
        else:
            (self.fwd if side == "f" else self.bwd)[k] = value & _MASK9

    def apply(self):
        self.dut.fwd_i.value = sum(w << (9 * k) for k, w in enumerate(self.fwd))
        self.dut.bwd_i.value = sum(w << (9 * k) for k, w in enumerate(self.bwd))
        self.dut.bwd_bc_i.value = self.bc

    def drive(self, **ports):
        """Set and apply: drv.drive(f0=words.route(0x40), b2=words.IDLE)."""
        for p, v in ports.items():
            self.set(p, v)
        self.apply()

    async def send(self, port, seq):
        """One word a cycle from this cycle on (the caller is just after a rising edge); the
        last word holds."""
        for i, w in enumerate(seq):
            if i:
                await RisingEdge(self.dut.clk_i)
            self.set(port, w)
            self.apply()


class Rn1Monitor:
    """Reads the outputs of the current cycle by port name."""

    def __init__(self, dut):
        self.dut = dut

    def sample(self):
        """Every output, {name: value}."""
        fwd = self.dut.fwd_o.value.integer
        bwd = self.dut.bwd_o.value.integer
        bc = self.dut.fwd_bc_o.value.integer
        out = {}
        for k in range(NPORTS):
            out[f"f{k}"] = (fwd >> (9 * k)) & _MASK9
            out[f"b{k}"] = (bwd >> (9 * k)) & _MASK9
            out[f"f{k}.bc"] = (bc >> k) & 1
        return out

    def get(self, port):
        return self.sample()[port.lower()]

    async def record(self, port, cycles):
        """The words on an output over the next `cycles` cycles, one a cycle."""
        seen = []
        for _ in range(cycles):
            await RisingEdge(self.dut.clk_i)
            await ReadOnly()
            seen.append(self.get(port))
        return seen

    @staticmethod
    def format(port, value, like=None):
        return str(value & 1) if port.lower().endswith(".bc") else words.rn1_format(value, like)
