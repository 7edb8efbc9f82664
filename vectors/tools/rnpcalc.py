#!/usr/bin/env python3
"""rnpcalc - arithmetic helper for writing RN1 spec vectors by hand.

Arithmetic only (LFSR, bit picks, XOR/count, rotation order); it does NOT model the
router. Every rule below is stated in rtl/rn1.md (sections 2 and 5).

  LFSR (rn1.md s5): 16-bit Galois, shifting right:
      lsb = s & 1; s >>= 1; if (lsb) s ^= 0xB400
  held at `seed` during reset (a zero seed loads 0xACE1); value during cycle t is the seed
  stepped t times. A decision of forward port p in cycle t uses bit p: 0 even, 1 odd.
  Service order in cycle t: port t mod 8 first, then (t+1) mod 8, ...
  STATUS = disp<<6 | (count mod 64); CHECKSUM = XOR of the d of every counted word.

Commands:
  lfsr SEED T [T2]        table of the LFSR value during cycles T..T2, with bits 0..7
  bit SEED P T [T2]       the bit forward port P uses in cycle T (..T2); 0=even, 1=odd
  status DISP BYTE...     STATUS and CHECKSUM for the counted words' d bytes (hex);
                          DISP is 00, 01, 10 or 11; 'BYTE*N' repeats a byte N times
  order T [T2]            service order of forward ports in cycle T (..T2)
  dir BYTE                direction d[7:6] of a routing byte (hex) and its backward ports
  find SEED T0 T1 P=V ... cycles in T0..T1 where every listed port P has LFSR bit V
  raw STATE BQ DISP ARMED COUNT XOR
                          pack a PORT p debug word (rn1.md encoding: state[3:0],
                          bq[6:4], disp[9:8], armed[12], count[21:16], xor[31:24]);
                          STATE is a name (IDLE..DISCARD) or code; DISP 00/01/10/11;
                          COUNT decimal (taken mod 64); XOR a hex byte
  selftest                checks against values worked by hand (exit 1 on a mismatch)
Numbers: decimal or 0x hex, except BYTEs, which are hex without 0x as in vectors.
"""
import sys

SEED_DEFAULT = 0xACE1


def seed_eff(seed):
    return seed if seed else SEED_DEFAULT


def step(s):
    lsb = s & 1
    s >>= 1
    if lsb:
        s ^= 0xB400
    return s


def lfsr_at(seed, t):
    s = seed_eff(seed)
    for _ in range(t):
        s = step(s)
    return s


def num(text):
    return int(text, 0)


def bits8(v):
    return " ".join(str((v >> i) & 1) for i in range(8))


def cmd_lfsr(a):
    seed, t0 = num(a[0]), num(a[1])
    t1 = num(a[2]) if len(a) > 2 else t0
    print("cycle  lfsr    b0 b1 b2 b3 b4 b5 b6 b7   first(t mod 8)")
    s = lfsr_at(seed, t0)
    for t in range(t0, t1 + 1):
        print(f"{t:5d}  0x{s:04X}  {'  '.join(str((s >> i) & 1) for i in range(8))}   f{t % 8}")
        s = step(s)


def cmd_bit(a):
    seed, p, t0 = num(a[0]), num(a[1]), num(a[2])
    t1 = num(a[3]) if len(a) > 3 else t0
    for t in range(t0, t1 + 1):
        v = lfsr_at(seed, t)
        b = (v >> p) & 1
        print(f"cycle {t}: lfsr 0x{v:04X}, bit {p} = {b} -> {'odd' if b else 'even'}")


def expand(bytes_):
    out = []
    for b in bytes_:
        if "*" in b:
            v, n = b.split("*")
            out += [int(v, 16)] * int(n, 0)
        else:
            out.append(int(b, 16))
    return out


def cmd_status(a):
    disp = int(a[0], 2)
    ds = expand(a[1:])
    x = 0
    for d in ds:
        x ^= d
    n = len(ds)
    st = (disp << 6) | (n % 64)
    print(f"counted words: {n} (mod 64 = {n % 64}), disp {disp:02b}")
    print(f"STATUS:{st:02X}  CHECKSUM:{x:02X}")


def cmd_order(a):
    t0 = num(a[0])
    t1 = num(a[1]) if len(a) > 1 else t0
    for t in range(t0, t1 + 1):
        print(f"cycle {t}: " + " ".join(f"f{(t + i) % 8}" for i in range(8)))


def cmd_dir(a):
    d = int(a[0], 16)
    k = (d >> 6) & 3
    print(f"d=0x{d:02X}: direction {k}; dilated b{2 * k}/b{2 * k + 1}; "
          f"dual f0..f3 -> b{k}, f4..f7 -> b{4 + k}")


def cmd_find(a):
    seed, t0, t1 = num(a[0]), num(a[1]), num(a[2])
    want = [tuple(map(int, c.split("="))) for c in a[3:]]
    s = lfsr_at(seed, t0)
    for t in range(t0, t1 + 1):
        if all(((s >> p) & 1) == v for p, v in want):
            print(f"cycle {t}: lfsr 0x{s:04X} bits {bits8(s)}")
        s = step(s)


STATES = ["IDLE", "SWALLOW", "FORWARD", "BLOCKED", "STATUS", "CHECKSUM", "REVERSE",
          "HOLD", "DROP", "DISCARD"]


def raw_word(state, bq, disp, armed, count, xor):
    return (state & 0xF) | ((bq & 7) << 4) | ((disp & 3) << 8) | ((armed & 1) << 12) \
        | ((count % 64) << 16) | ((xor & 0xFF) << 24)


def cmd_raw(a):
    st = a[0].upper()
    state = STATES.index(st) if st in STATES else num(a[0])
    w = raw_word(state, num(a[1]), int(a[2], 2), num(a[3]), num(a[4]), int(a[5], 16))
    print(f"state {STATES[state] if state < len(STATES) else state}({state}) bq {num(a[1])} "
          f"disp {a[2]} armed {num(a[3])} count {num(a[4]) % 64} xor {a[5].upper()}: "
          f"raw 0x{w:08X}")


def cmd_selftest(_a):
    # Worked by hand from the rn1.md s5 rule, and the vectors/README.md example
    # (STATUS:82 CHECKSUM:51).
    checks = [
        (lfsr_at(0xACE1, 1), 0xE270),   # lsb 1: 0x5670 ^ 0xB400
        (lfsr_at(0xACE1, 2), 0x7138),   # lsb 0: plain shift
        (step(0x0E27), 0xB313),         # lsb 1: 0x0713 ^ 0xB400
        (lfsr_at(0, 0), 0xACE1),        # zero seed loads 0xACE1
        (lfsr_at(0xBEEF, 1), 0xEB77),   # 0x5F77 ^ 0xB400
    ]
    x = 0x40 ^ 0x11
    checks.append(((2 << 6) | 2, 0x82))
    checks.append((x, 0x51))
    checks.append((raw_word(2, 5, 3, 1, 2, 0xC5), 0xC5021352))  # by hand from rn1.md fields
    bad = [(i, got, want) for i, (got, want) in enumerate(checks) if got != want]
    for i, got, want in bad:
        print(f"selftest {i}: got 0x{got:04X}, want 0x{want:04X}")
    print("selftest " + ("FAIL" if bad else "ok"))
    if bad:
        raise SystemExit(1)


CMDS = {"lfsr": (cmd_lfsr, 2), "bit": (cmd_bit, 3), "status": (cmd_status, 1),
        "order": (cmd_order, 1), "dir": (cmd_dir, 1), "find": (cmd_find, 3),
        "raw": (cmd_raw, 6), "selftest": (cmd_selftest, 0)}


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help", "help") or argv[1] not in CMDS:
        print(__doc__)
        return 0 if len(argv) >= 2 and argv[1] in ("-h", "--help", "help") else 2
    fn, nmin = CMDS[argv[1]]
    if len(argv) - 2 < nmin:
        print(__doc__)
        return 2
    try:
        fn(argv[2:])
    except ValueError as e:
        print(f"rnpcalc: bad number: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
