"""TEST RATIONALE: the same RN1 fuzz stimulus `ftsim stim` hands the Icarus replay
(tests/icarus/tb_rn1_replay.sv), replayed through cocotb's driver and monitor: the output
signature (per cycle f0..f7, b0..b7, then the bc bits, each folded in as sig = sig * 31 + word,
64 bits) must be the C model's, and the loop's wall time gives cocotb's cycles/s for
`make bench`. Files from run.py: FTSIM_STIM (one line a cycle, 36 hex digits {fwd_i, bwd_i}),
FTSIM_STIM_CYCLES, FTSIM_STIM_SIG (the C model's signature), FTSIM_STIM_OUT (the result)."""
import json
import os
import time

import cocotb
from cocotb.triggers import RisingEdge, Timer

from ftsim_cocotb.ftsim import Design
from ftsim_cocotb.regport import RegPort, reset, start_clock
from ftsim_cocotb.rn1 import NPORTS, Rn1Driver, Rn1Monitor

M64 = (1 << 64) - 1
M72 = (1 << 72) - 1


@cocotb.test()
async def fuzz_stimulus_signature(dut):
    n = int(os.environ["FTSIM_STIM_CYCLES"])
    with open(os.environ["FTSIM_STIM"], encoding="utf-8") as f:
        stim = [int(line, 16) for line, _ in zip(f, range(n))]
    drv, mon, rp = Rn1Driver(dut), Rn1Monitor(dut), RegPort(dut)
    start_clock(dut)
    await reset(dut, rp, drv, Design("rn1").init)
    order = [f"f{k}" for k in range(NPORTS)] + [f"b{k}" for k in range(NPORTS)]
    sig, clk = 0, dut.clk_i
    t0 = time.perf_counter()
    for v in stim:
        drv.fwd = [(v >> (72 + 9 * k)) & 0x1FF for k in range(NPORTS)]
        drv.bwd = [(v & M72) >> (9 * k) & 0x1FF for k in range(NPORTS)]
        drv.apply()
        await Timer(1, "ps")
        out = mon.sample()
        for p in order:
            sig = (sig * 31 + out[p]) & M64
        bc = sum(out[f"f{k}.bc"] << k for k in range(NPORTS))
        sig = (sig * 31 + bc) & M64
        await RisingEdge(clk)
    secs = time.perf_counter() - t0
    got = f"{sig:016x}"
    with open(os.environ["FTSIM_STIM_OUT"], "w", encoding="utf-8") as f:
        json.dump({"cycles": n, "secs": secs, "sig": got}, f)
    want = os.environ["FTSIM_STIM_SIG"].lower()
    assert got == want, f"signature {got}, the C model's {want}"
