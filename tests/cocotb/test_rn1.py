"""TEST RATIONALE: an RN1 connection as a cocotb user writes it, with the drivers, monitor and
encoders of ftsim_cocotb rather than a vector: a source opens a connection through direction 1
with b3 disabled (so the only way out is b2), sends a random payload and turns; a destination
model answers on b2 as soon as it sees the TURN and drops. Checked against rtl/rn1.md: the
forward words leave on b2 one cycle later (section 4, FORWARD); the source then sees a reply
stream without gaps: STATUS (disposition 10, first port; count = the counted words), CHECKSUM
(the XOR of their bytes), the destination's words, DROP (section 4, "What a source sees"); after
the close nothing is allocated and no error was counted (sections 11 and 12). The payload
changes with cocotb's random seed, so the expected STATUS and CHECKSUM are computed, not copied.
"""
import random

import cocotb
from cocotb.triggers import ReadOnly, RisingEdge

from ftsim_cocotb import words as w
from ftsim_cocotb.ftsim import Design
from ftsim_cocotb.regport import RegPort, reset, start_clock
from ftsim_cocotb.rn1 import Rn1Driver, Rn1Monitor


async def destination(dut, drv, mon, port, reply):
    """Waits for a TURN on output `port`, then answers with `reply` and DROP, then IDLE."""
    clk = dut.clk_i
    while True:
        await ReadOnly()
        if mon.get(port) == w.TURN:
            break
        await RisingEdge(clk)
    await RisingEdge(clk)
    await drv.send(port, reply + [w.DROP])
    await RisingEdge(clk)
    drv.drive(**{port: w.IDLE})


@cocotb.test()
async def connection_status_checksum(dut):
    design = Design("rn1", disable=0x08)  # every key but disable at its documented default
    drv, mon, rp = Rn1Driver(dut), Rn1Monitor(dut), RegPort(dut)
    start_clock(dut)
    await reset(dut, rp, drv, design.init)

    payload = [w.data(random.randrange(256)) for _ in range(random.randint(1, 8))]
    reply = [w.data(random.randrange(256)) for _ in range(random.randint(1, 4))]
    forward = [w.route(0x40)] + payload  # d[7:6] = 1: direction 1, b2 or b3
    turn_cycle = len(forward)
    cycles = turn_cycle + 6 + len(reply) + 4

    to_dest = cocotb.start_soon(mon.record("b2", cycles))  # cycles 1..cycles
    to_src = cocotb.start_soon(mon.record("f0", cycles))
    cocotb.start_soon(destination(dut, drv, mon, "b2", reply))
    await drv.send("f0", forward + [w.TURN, w.IDLE])  # IDLE: a held TURN would turn again
    b2, f0 = await to_dest, await to_src

    assert b2[:turn_cycle + 1] == forward + [w.TURN], \
        f"b2 carried {[w.rn1_format(x) for x in b2]}"
    first = f0.index(next(x for x in f0 if x != w.IDLE)) + 1
    assert first == turn_cycle + 1, f"STATUS in cycle {first}, expected {turn_cycle + 1}"
    stream = f0[turn_cycle:turn_cycle + 3 + len(reply)]
    want = [w.status(2, len(forward)), w.checksum(forward)] + reply + [w.DROP]
    assert stream == want, (f"the source saw {[w.rn1_format(x) for x in stream]}, expected "
                            f"{[w.rn1_format(x) for x in want]}")
    assert all(x == w.IDLE for x in f0[turn_cycle + 3 + len(reply):]), "f0 not idle after DROP"

    await RisingEdge(dut.clk_i)  # out of the read-only phase the monitors left us in
    assert await rp.read_field(design.reg("alloc")) == 0, "b2 still allocated after the DROP"
    assert await rp.read_field(design.reg("errors")) == 0, "an error was counted"
    dut._log.info("connection of %d words, reply of %d: STATUS %s, CHECKSUM %s", len(forward),
                  len(reply), w.rn1_format(want[0], "STATUS"), w.rn1_format(want[1], "CHECKSUM"))


@cocotb.test()
async def id_and_config_readback(dut):
    """The configuration ftsim writes during reset reads back through the register port."""
    design = Design("rn1", seed=0x1234, disable=0x81)
    drv, rp = Rn1Driver(dut), RegPort(dut)
    start_clock(dut)
    await reset(dut, rp, drv, design.init)
    assert await rp.read_field(design.reg("seed")) == 0x1234
    assert await rp.read_field(design.reg("disable")) == 0x81
    assert await rp.read_field(design.reg("mode")) == design.reg("mode")["default"]
