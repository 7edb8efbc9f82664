"""The SCI link controller's port family (rtl/sci_lc.v, LC3 with P2s = 0, P2S with P2s = 1): a
driver of its inputs and a monitor of its outputs by the vector language's port names
(lin, lin.sd, bin, bout.ready in; lout, lout.sd, bin.ready, bout, bout.port, irq out), and
packet monitors for the ring link and the B-link.

Word values are the vector language's: a link word {flag, sym} (17 bits); a B-link word
{last, valid, sym} (18 bits), split on the pins into bin_i/bin_last_i and
bout_o/bout_valid_o/bout_last_o. A B-link output with valid 0 reads as IDLE (0), and bout.port
reads 0 then.
"""
import cocotb
from cocotb.queue import Queue
from cocotb.triggers import ReadOnly, RisingEdge

from . import words

INPUTS = ("lin", "lin.sd", "bin", "bout.ready")
OUTPUTS = ("lout", "lout.sd", "bin.ready", "bout", "bout.port", "irq")


class LcDriver:
    """Holds every input; set() changes one, apply() puts them on the pins. The P2S failover
    inputs (fo_byp_i, fo_xmask_i) belong to a node and are held at 0, as ftsim's LC device
    holds them."""

    def __init__(self, dut):
        self.dut = dut
        self.idle()
        self.apply()

    def idle(self):
        self.v = dict.fromkeys(INPUTS, 0)

    def set(self, port, value):
        p = port.lower()
        if p not in self.v:
            raise KeyError(f"the SCI controller has no input {port!r}")
        self.v[p] = value

    def apply(self):
        d, v = self.dut, self.v
        d.lin_i.value = v["lin"] & 0x1FFFF
        d.lin_sd_i.value = v["lin.sd"] & 1
        d.bin_i.value = v["bin"] & 0x1FFFF
        d.bin_last_i.value = 1 if v["bin"] & words.SCI_LAST else 0
        d.bout_ready_i.value = v["bout.ready"] & 1
        d.fo_byp_i.value = 0
        d.fo_xmask_i.value = 0

    def drive(self, **ports):
        """Set and apply, with '.' written '_': drv.drive(lin_sd=1, bout_ready=1)."""
        for p, v in ports.items():
            self.set(p.replace("_", "."), v)
        self.apply()

    async def send(self, port, seq):
        """One word a cycle from this cycle on (the caller is just after a rising edge). On
        `bin` a word is offered until the controller takes it (bin.ready 1), so a whole packet
        goes in whatever the send queue's state; on `lin` one a cycle, as a link does. The last
        word holds (a link's idle; on bin the caller drives IDLE after)."""
        clk = self.dut.clk_i
        for i, w in enumerate(seq):
            if i:
                await RisingEdge(clk)
            self.set(port, w)
            self.apply()
            if port == "bin":
                await ReadOnly()
                while not self.dut.bin_ready_o.value.integer:
                    await RisingEdge(clk)
                    await ReadOnly()


class LcMonitor:
    """Reads the outputs of the current cycle by port name."""

    def __init__(self, dut):
        self.dut = dut

    def sample(self):
        d = self.dut
        valid = d.bout_valid_o.value.integer
        bout = (d.bout_o.value.integer | words.SCI_FLAG
                | (words.SCI_LAST if d.bout_last_o.value.integer else 0)) if valid else 0
        return {"lout": d.lout_o.value.integer, "lout.sd": d.lout_sd_o.value.integer,
                "bin.ready": d.bin_ready_o.value.integer, "bout": bout,
                "bout.port": d.bout_port_o.value.integer if valid else 0,
                "irq": d.irq_o.value.integer}

    def get(self, port):
        return self.sample()[port.lower()]

    @staticmethod
    def format(port, value, like=None):
        p = port.lower()
        if p in ("lin", "lout"):
            return words.link_format(value)
        if p in ("bin", "bout"):
            return words.blink_format(value)
        return str(value)


class LinkPackets:
    """Collects the packets on the ring link output (lout): the symbols of each run of flagged
    words, in a queue, with the cycle of the first. Start it with start()."""

    def __init__(self, dut):
        self.dut, self.queue, self.cycle = dut, Queue(), 0

    def start(self):
        return cocotb.start_soon(self._run())

    async def _run(self):
        cur, first = [], 0
        while True:
            await RisingEdge(self.dut.clk_i)
            await ReadOnly()
            self.cycle += 1
            w = self.dut.lout_o.value.integer
            if w & words.SCI_FLAG:
                if not cur:
                    first = self.cycle
                cur.append(w & 0xFFFF)
            elif cur:
                self.queue.put_nowait((first, cur))
                cur = []


class BlinkPackets:
    """Collects the packets the controller hands its node on bout: a symbol is taken in a
    cycle with valid and bout.ready both 1; the symbol with last ends the packet. Queue items:
    (symbols, bout.port of the first symbol)."""

    def __init__(self, dut):
        self.dut, self.queue = dut, Queue()

    def start(self):
        return cocotb.start_soon(self._run())

    async def _run(self):
        d, cur, port = self.dut, [], 0
        while True:
            await RisingEdge(d.clk_i)
            await ReadOnly()
            if not (d.bout_valid_o.value.integer and d.bout_ready_i.value.integer):
                continue
            if not cur:
                port = d.bout_port_o.value.integer
            cur.append(d.bout_o.value.integer & 0xFFFF)
            if d.bout_last_o.value.integer:
                self.queue.put_nowait((cur, port))
                cur = []
