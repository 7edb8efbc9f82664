"""Words of the two port families, as Python values: encoders a test writes stimulus with and
formatters that print a seen word the way the vector language writes it.

RN1 (rtl/rn1.md section 2): a 9-bit word {c, d[7:0]}. SCI (rtl/sci_lc.md sections 1 and 2): a
link word {flag, sym[15:0]} (17 bits), a B-link or host word {last, valid, sym[15:0]} (18 bits),
packets of 16-bit symbols closed by a CRC-16/CCITT symbol.
"""

# ---- RN1 ---------------------------------------------------------------------------------------

RN1_C = 0x100
IDLE = 0x000
TURN = 0x055
HOLD = 0x0AA
DROP = 0x0FF
_RN1_CONTROL = {IDLE: "IDLE", TURN: "TURN", HOLD: "HOLD", DROP: "DROP"}


def _byte(d):
    if not 0 <= d <= 0xFF:
        raise ValueError(f"an RN1 word carries a byte, not {d:#x}")
    return d


def route(d):
    """The routing word: c = 1, d[7:6] the direction."""
    return RN1_C | _byte(d)


def data(d):
    """A payload word (c = 1)."""
    return RN1_C | _byte(d)


def status(disposition, count):
    """A router's STATUS: d[7:6] the disposition, d[5:0] the count of counted words."""
    if not (0 <= disposition <= 3 and 0 <= count <= 0x3F):
        raise ValueError("STATUS takes a disposition 0..3 and a count 0..63")
    return RN1_C | disposition << 6 | count


def checksum(words):
    """CHECKSUM of the counted words: the XOR of their data bytes."""
    x = 0
    for w in words:
        x ^= w & 0xFF
    return RN1_C | x


def rn1_format(w, like=None):
    """A 9-bit word as the vector language writes it; a c = 1 word under the name `like` uses
    (ROUTE, DATA, STATUS, CHECKSUM; DATA by default)."""
    w &= 0x1FF
    if w & RN1_C:
        name = (like or "DATA").split(":")[0].upper()
        if name not in ("ROUTE", "DATA", "STATUS", "CHECKSUM"):
            name = "DATA"
        return f"{name}:{w & 0xFF:02X}"
    return _RN1_CONTROL.get(w, f"W:{w:03X}")


# ---- SCI ---------------------------------------------------------------------------------------

SCI_FLAG = 0x10000  # a link word's flag: a packet symbol; on a B-link word: valid
SCI_LAST = 0x20000  # a B-link word's last: the packet's CRC symbol

CMD = {"DATA": 0x01, "ACK": 0x02, "PROBE": 0x10, "STATUS_READ": 0x11, "STATUS_REPLY": 0x12,
       "NOTIFY": 0x13, "ACCEPT": 0x20, "BUSY": 0x21, "ERROR": 0x22, "FAIL_REPORT": 0x30}


def crc16(syms):
    """CRC-16/CCITT (polynomial 0x1021, initial 0xFFFF, most significant bit first) over the
    symbols, with targetId bit 14 (the P2S address select) and the scrubber mark (bit 7 of the
    command symbol) taken as 0: both may change in flight."""
    crc = 0xFFFF
    for i, s in enumerate(syms):
        if i == 0:
            s &= ~0x4000
        if i == 1:
            s &= ~0x0080
        for b in range(15, -1, -1):
            top = (crc >> 15) & 1
            crc = (crc << 1) & 0xFFFF
            if ((s >> b) & 1) ^ top:
                crc ^= 0x1021
    return crc


def packet(target, cmd, src, tid, payload=(), mark=0):
    """The symbols of a packet: targetId, {command, mark}, sourceId, tid, the payload, the CRC.
    cmd is a number or a name of CMD."""
    c = CMD[cmd.upper()] if isinstance(cmd, str) else cmd
    syms = [target & 0xFFFF, (c & 0xFF) << 8 | (mark & 1) << 7, src & 0xFFFF, tid & 0xFFFF]
    syms += [p & 0xFFFF for p in payload]
    return syms + [crc16(syms)]


def echo(target, kind, src, tid):
    """The symbols of an echo: kind ACCEPT, BUSY or ERROR."""
    return packet(target, kind, src, tid)


def link_words(syms):
    """A packet as link words, one a cycle: every symbol with the flag, then the idle every
    packet ends with."""
    return [SCI_FLAG | s for s in syms] + [0]


def blink_words(syms):
    """A packet as B-link or host words: valid on every symbol, last on the CRC."""
    return [SCI_FLAG | s for s in syms[:-1]] + [SCI_FLAG | SCI_LAST | syms[-1]]


def rdown(node):
    """A ring-down idle of node `node` (flag 0)."""
    return 0x8000 | (node & 0x1FFF)


def link_format(w):
    if w & SCI_FLAG:
        return f"S:0x{w & 0xFFFF:04X}"
    if w == 0:
        return "IDLE"
    if (w & 0xE000) == 0x8000:
        return f"RDOWN:0x{w & 0x1FFF:X}"
    return f"W:0x{w & 0x1FFFF:05X}"


def blink_format(w):
    if not w & SCI_FLAG:
        return f"W:0x{w:05X}" if w else "IDLE"
    return f"{'L' if w & SCI_LAST else 'S'}:0x{w & 0xFFFF:04X}"
