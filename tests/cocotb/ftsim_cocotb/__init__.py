"""ftsim's cocotb test bench: word encoders, a driver and a monitor per port family (RN1, the
SCI link controller, the SCI node), the register port and reset ftsim uses, and the replay of ftsim's parsed
vectors (tests/cocotb/README.md)."""
from . import ftsim, regport, replay, rn1, sci, words  # noqa: F401
