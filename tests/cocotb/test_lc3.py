"""TEST RATIONALE: an LC3 link controller as a cocotb user tests it, with ftsim_cocotb's driver,
packet monitors and encoders rather than a vector. Node 0x12 with signal detect on and a node
that takes everything (bout.ready 1); the tables written through the register port: target
0x34 taken (LRT 1) to B-link port 2 (BRT), target 0x55 not (LRT 0). Checked against
harness/sci/README.md and rtl/sci_lc.md: the ring comes up after 64 cycles of signal detect
(section 3, Ring down); a packet for 0x34 leaves the ring, reaches the node whole on bout with
bout.port 2, never appears on lout, and is answered by an ECHO_ACCEPT {target = its source,
src = this node, tid = its tid} on lout; a packet for 0x55 passes from lin to lout unchanged
(LRT, BRT, Echo, Bypass); no CRC error is counted. Payloads and tids are random (cocotb's seed),
CRCs computed by the encoder.
"""
import random

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge, with_timeout

from ftsim_cocotb import words as w
from ftsim_cocotb.ftsim import Design
from ftsim_cocotb.regport import RegPort, reset, start_clock
from ftsim_cocotb.sci import BlinkPackets, LcDriver, LinkPackets

NODE, TAKEN, PASSED, SRC = 0x12, 0x34, 0x55, 0x21


async def ring_up(dut, rp, design, limit=200):
    """Cycles until STATUS.ring_up reads 1 (at most limit)."""
    for n in range(limit):
        if await rp.read_field(design.reg("ring_up")):
            return n
        await RisingEdge(dut.clk_i)
    raise AssertionError(f"the ring is not up after {limit} cycles of signal detect")


@cocotb.test()
async def packet_taken_and_echoed(dut):
    design = Design("lc3", node=NODE)
    drv, rp = LcDriver(dut), RegPort(dut)
    start_clock(dut)
    await reset(dut, rp, drv, design.init)
    drv.drive(lin_sd=1, bout_ready=1)
    await rp.write_field(design.reg("taddr"), TAKEN)
    await rp.write_field(design.reg("lrt"), 1)
    await rp.write_field(design.reg("brt"), 2)
    await rp.write_field(design.reg("taddr"), PASSED)
    await rp.write_field(design.reg("lrt"), 0)
    n = await ring_up(dut, rp, design)
    assert 60 <= n <= 70, f"ring up after {n} cycles, expected about 64 (+1 registered)"

    link, blink = LinkPackets(dut), BlinkPackets(dut)
    link.start()
    blink.start()
    tid = random.randrange(1 << 16)
    pkt = w.packet(TAKEN, "DATA", SRC, tid, [random.randrange(1 << 16) for _ in range(3)])
    await drv.send("lin", w.link_words(pkt))

    got, port = await with_timeout(blink.queue.get(), 1000, "ns")
    assert got == pkt, f"the node got {[hex(s) for s in got]}, sent {[hex(s) for s in pkt]}"
    assert port == 2, f"bout.port {port}, the BRT says 2"
    _, echo = await with_timeout(link.queue.get(), 1000, "ns")
    want = w.echo(SRC, "ACCEPT", NODE, tid)
    assert echo == want, f"lout carried {[hex(s) for s in echo]}, expected the echo {want}"

    tid2 = (tid + 1) & 0xFFFF
    passing = w.packet(PASSED, "DATA", SRC, tid2, [random.randrange(1 << 16)])
    await RisingEdge(dut.clk_i)
    await drv.send("lin", w.link_words(passing))
    _, seen = await with_timeout(link.queue.get(), 1000, "ns")
    assert seen == passing, f"bypassed as {[hex(s) for s in seen]}, sent {passing}"

    await ClockCycles(dut.clk_i, 20)
    assert link.queue.empty() and blink.queue.empty(), "more packets than sent and echoed"
    assert await rp.read_field(design.reg("crc_errors")) == 0
    dut._log.info("taken tid %#x with its echo, bypassed tid %#x", tid, tid2)
