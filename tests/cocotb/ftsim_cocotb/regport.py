"""The register port every design shares (8-bit address, 64-bit data, byte strobes, read
combinational through reg_raddr_i/reg_rdata_o), the clock, and the reset sequence ftsim uses.

Timing, as ftsim's harness drives the RTL (harness/core/dev.h): one cycle is 10 ns and starts
with a rising edge; a cycle's inputs are applied just after that edge and act at the edge that
ends it; outputs are registered, so they are read any time within the cycle. A read through the
register port sets reg_raddr_i and reads reg_rdata_o 1 ps later. A write is held for the one
edge that ends its cycle. Reads and writes set pins, so call them where a coroutine may write
(after a clock edge or a Timer, not after ReadOnly).
"""
import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer

PERIOD_NS = 10


def start_clock(dut):
    """The clock, low at time 0, first rising edge at 5 ns, then every 10 ns."""
    return cocotb.start_soon(Clock(dut.clk_i, PERIOD_NS, "ns").start(start_high=False))


def strobe_write(cur, data, mask):
    """A masked write as the register port takes it: the mask widened to byte strobes, the
    strobed bytes' other bits taken from the register's current value."""
    strb = 0
    for b in range(8):
        if (mask >> (8 * b)) & 0xFF:
            strb |= 1 << b
    return (cur & ~mask & (2**64 - 1)) | (data & mask), strb


class RegPort:
    def __init__(self, dut):
        self.dut = dut
        dut.reg_we_i.value = 0
        dut.reg_raddr_i.value = 0

    async def read(self, addr):
        """The register at addr, now (combinational: 1 ps)."""
        self.dut.reg_raddr_i.value = addr
        await Timer(1, "ps")
        return self.dut.reg_rdata_o.value.integer

    async def read_field(self, reg):
        """A field, reg as ftsim describes it (Design.reg(name)): {addr, lsb, width}."""
        v = await self.read(reg["addr"])
        return (v >> reg["lsb"]) & ((1 << reg["width"]) - 1)

    async def start_write(self, addr, data, mask=2**64 - 1):
        """Present a write in this cycle: it takes effect at the edge that ends the cycle; call
        end_write() after that edge."""
        wdata, strb = strobe_write(await self.read(addr), data, mask)
        d = self.dut
        d.reg_we_i.value = 1
        d.reg_waddr_i.value = addr
        d.reg_wdata_i.value = wdata
        d.reg_wstrb_i.value = strb

    def end_write(self):
        self.dut.reg_we_i.value = 0

    async def write(self, addr, data, mask=2**64 - 1):
        """A whole write: presented now, through the next rising edge."""
        await self.start_write(addr, data, mask)
        await RisingEdge(self.dut.clk_i)
        self.end_write()

    async def write_field(self, reg, value):
        if value >> reg["width"]:
            raise ValueError(f"{reg['name']}: {value:#x} does not fit {reg['width']} bits")
        mask = ((1 << reg["width"]) - 1) << reg["lsb"]
        await self.write(reg["addr"], value << reg["lsb"], mask)


async def reset(dut, regport, driver, init):
    """ftsim's reset: reset held for two cycles with every input idle, then each configuration
    write (init: [{addr, data, mask}], as ftsim's `config` gives them) in its own reset cycle,
    then released: the next cycle is cycle 0. Returns after the release (in cycle 0)."""
    dut.rst_ni.value = 0
    driver.idle()
    driver.apply()
    regport.end_write()
    clk = dut.clk_i
    for _ in range(2):
        await RisingEdge(clk)
    for w in init:
        await regport.start_write(w["addr"], w["data"], w["mask"])
        await RisingEdge(clk)
        regport.end_write()
    dut.rst_ni.value = 1
