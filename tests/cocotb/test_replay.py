"""TEST RATIONALE: the spec vectors are the oracle of the RTL; replayed through cocotb on the RTL
under Icarus (or Verilator), from ftsim's own parse of them (`ftsim vec-json`, the file named
by FTSIM_VEC_JSON), they must pass exactly as under `ftsim play --model rtl`. One cocotb test a
vector, named after its path; a failure logs `FILE:LINE: cycle N: ...` for each mismatch."""
import os
import re

import cocotb

from ftsim_cocotb import ftsim, replay


def _name(path):
    stem = re.sub(r"\.vec$", "", path.replace("vectors/", "", 1))
    return re.sub(r"\W", "_", stem)


def _make(vec):
    async def run(dut):
        bad = await replay.replay(dut, vec, dut._log)
        assert not bad, f"{len(bad)} mismatch(es), the first: {bad[0]}"
    run.__name__ = run.__qualname__ = _name(vec["path"])
    run.__doc__ = vec["path"]
    return cocotb.test()(run)


def _register():
    for v in ftsim.read_json(os.environ["FTSIM_VEC_JSON"]):
        t = _make(v)
        globals()[t.__qualname__] = t


_register()
