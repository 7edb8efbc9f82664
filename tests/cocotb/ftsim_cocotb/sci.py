"""The SCI port families: the link controller (rtl/sci_lc.v, LC3 with P2s = 0, P2S with
P2s = 1), a driver of its inputs and a monitor of its outputs by the vector language's port
names (lin, lin.sd, bin, bout.ready in; lout, lout.sd, bin.ready, bout, bout.port, irq out),
packet monitors for its ring link and B-link; and the node (rtl/sci_node.v: PSB, B-link, one
or two controllers), a driver and a monitor of its links and host ports.

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


def _lc_prefix(nlc, k):
    """A node's LC port names: bare on a one-LC node, x. and y. (LC 0, LC 1) on a two-LC one."""
    return "" if nlc == 1 else "xy"[k] + "."


class NodeDriver:
    """The inputs of an SCI node (rtl/sci_node.v: the PSB, the B-link and NLC link
    controllers): per LC `lin`, `lin.sd` (`x.lin`, `y.lin.sd`, ... on a two-LC node) and the
    host ports `hin` (a B-link word, {last, valid, sym}) and `hout.ready`. LC k's link is bits
    [17k +: 17] of lin_i and bit k of lin_sd_i."""

    def __init__(self, dut, nlc):
        self.dut, self.nlc = dut, nlc
        self.names = [_lc_prefix(nlc, k) + p for k in range(nlc) for p in ("lin", "lin.sd")]
        self.names += ["hin", "hout.ready"]
        self.idle()
        self.apply()

    def idle(self):
        self.v = dict.fromkeys(self.names, 0)

    def set(self, port, value):
        p = port.lower()
        if p not in self.v:
            raise KeyError(f"the node has no input {port!r}")
        self.v[p] = value

    def apply(self):
        d, v = self.dut, self.v
        lin = sd = 0
        for k in range(self.nlc):
            pre = _lc_prefix(self.nlc, k)
            lin |= (v[pre + "lin"] & 0x1FFFF) << (17 * k)
            sd |= (v[pre + "lin.sd"] & 1) << k
        d.lin_i.value = lin
        d.lin_sd_i.value = sd
        d.hin_i.value = v["hin"] & 0x1FFFF
        d.hin_last_i.value = 1 if v["hin"] & words.SCI_LAST else 0
        d.hout_ready_i.value = v["hout.ready"] & 1


class NodeMonitor:
    """The outputs of an SCI node: per LC `lout`, `lout.sd`, `irq`; `hin.ready` and `hout` (a
    B-link word: valid is hout_o's flag bit, last from hout_last_o; 0 when not valid)."""

    def __init__(self, dut, nlc):
        self.dut, self.nlc = dut, nlc

    def sample(self):
        d = self.dut
        lout, sd, irq = d.lout_o.value.integer, d.lout_sd_o.value.integer, d.irq_o.value.integer
        out = {}
        for k in range(self.nlc):
            pre = _lc_prefix(self.nlc, k)
            out[pre + "lout"] = (lout >> (17 * k)) & 0x1FFFF
            out[pre + "lout.sd"] = (sd >> k) & 1
            out[pre + "irq"] = (irq >> k) & 1
        h = d.hout_o.value.integer
        out["hin.ready"] = d.hin_ready_o.value.integer
        out["hout"] = (h | (words.SCI_LAST if d.hout_last_o.value.integer else 0)) \
            if h & words.SCI_FLAG else 0
        return out

    def get(self, port):
        return self.sample()[port.lower()]

    @staticmethod
    def format(port, value, like=None):
        p = port.lower().split(".")[-1] if port.lower().startswith(("x.", "y.")) else port.lower()
        if p in ("lin", "lout"):
            return words.link_format(value)
        if p in ("hin", "hout"):
            return words.blink_format(value)
        return str(value)
