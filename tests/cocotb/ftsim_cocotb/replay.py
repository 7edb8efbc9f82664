"""Replay a vector, as `ftsim vec-json` gives it, on the RTL under cocotb: the same reset, the
same upsets, inputs and register writes in the same cycles, and the same checks as `ftsim play
--model rtl` (rtl/*.md, vectors/README.md): expected outputs under their care mask, register
reads, and under `check strict` every output not named at its idle value. Every mismatch is
one line `FILE:LINE: cycle N: ...`, LINE the vector statement that asked for it."""
from cocotb.triggers import RisingEdge, Timer

from . import regport, rn1, sci, upset

def _node(nlc):
    return (lambda dut: sci.NodeDriver(dut, nlc)), (lambda dut: sci.NodeMonitor(dut, nlc))


# device -> (HDL top module, its parameters, driver, monitor): the designs one RTL module is.
FAMILIES = {
    "rn1": ("rn1", {}, rn1.Rn1Driver, rn1.Rn1Monitor),
    "lc3": ("sci_lc", {"P2s": 0}, sci.LcDriver, sci.LcMonitor),
    "p2s": ("sci_lc", {"P2s": 1}, sci.LcDriver, sci.LcMonitor),
    "lc3node": ("sci_node", {"P2s": 0, "NLC": 1}, *_node(1)),
    "p2snode": ("sci_node", {"P2s": 1, "NLC": 1}, *_node(1)),
    "lc3node2": ("sci_node", {"P2s": 0, "NLC": 2}, *_node(2)),
    "p2snode2": ("sci_node", {"P2s": 1, "NLC": 2}, *_node(2)),
}


def value_text(reg, v):
    """A register field's value as ftsim prints it: its name, else decimal below 10, else hex."""
    names = reg.get("enums", ())
    if v < len(names):
        return names[v]
    return str(v) if v < 10 else f"{v:#x}"


def family(device):
    try:
        return FAMILIES[device.lower()]
    except KeyError:
        raise ValueError(f"no cocotb replay for device {device!r} (only {', '.join(FAMILIES)})")


class Mismatches:
    def __init__(self, path, log, max_msgs=10):
        self.path, self.log, self.max_msgs, self.lines = path, log, max_msgs, []

    def __call__(self, line, cycle, msg):
        text = f"{self.path}:{line}: cycle {cycle}: {msg}"
        self.lines.append(text)
        if len(self.lines) <= self.max_msgs:
            self.log.error(text)


async def replay(dut, vec, log):
    """Play one vector on dut; returns the mismatch lines (none: the vector passes)."""
    _, _, drv_cls, mon_cls = family(vec["device"])
    if any("control" in c for c in vec["cycles"]):
        raise ValueError(f"{vec['path']}: device controls have no RTL pin to drive")
    drv, mon, rp = drv_cls(dut), mon_cls(dut), regport.RegPort(dut)
    bad = Mismatches(vec["path"], log)
    outputs = [p for p in vec["ports"] if p["dir"] == "out"]
    clock = regport.start_clock(dut)
    await regport.reset(dut, rp, drv, vec["init"])
    by_cycle = {c["cycle"]: c for c in vec["cycles"]}
    line = vec["device_line"]
    for cyc in range(vec["end"] + 1):
        ev = by_cycle.get(cyc, {})
        line = ev.get("line", line)
        if "upset" in ev:
            await upset.apply(dut, ev["upset"])
        for d in ev.get("drive", ()):
            drv.set(d["port"], d["value"])
        drv.apply()
        if "write" in ev:
            w = ev["write"]
            await rp.start_write(w["addr"], w["data"], w["mask"])
        await Timer(1, "ps")
        seen = mon.sample()
        named = set()
        for e in ev.get("expect", ()):
            p = e["port"].lower()
            named.add(p)
            if (seen[p] ^ e["value"]) & e["care"]:
                bad(e["line"], cyc, f"{e['port']}: expected {e['word']}, cocotb saw "
                    f"{mon.format(p, seen[p], e['word'])}")
        for r in ev.get("reg", ()):
            got = await rp.read_field(r)
            if got != r["value"]:
                bad(r["line"], cyc, f"reg {r['name']}: expected {r['text']}, cocotb reads "
                    f"{value_text(r, got)}")
        if vec["check"] == "strict":
            for p in outputs:
                n = p["name"].lower()
                if n not in named and seen[n] != p["idle"]:
                    bad(line, cyc, f"{p['name']}: cocotb saw {mon.format(n, seen[n])} where nothing "
                        "is expected (check strict: an output not named must be idle)")
        await RisingEdge(dut.clk_i)
        rp.end_write()
    clock.kill()
    return bad.lines
