#!/usr/bin/env python3
"""Write a GTKWave layout for one path through an RNP network waveform (ftsim play --wave on
an rnpnetN vector): per stage, the router's forward port (word in, word back, state, chosen
output, count, XOR) and the backward port it took (word out, word back).

usage: path_gtkw.py OUT.gtkw HOP [HOP ...]     HOP = rR:fI:bJ (router R, forward port I, output J)
example (vectors/rnpnet/spec/path_rotation.vec): path_gtkw.py waves/rnpnet16_path.gtkw r0:f5:b2 r5:f0:b2
The stage order is the path's; open from the repository root (the translate filters are in waves/).
"""
import re
import sys


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip())
        return 2
    out, hops = sys.argv[1], sys.argv[2:]
    lines = ["[*] ftsim path layout: " + " -> ".join(hops),
             "[*] gtkwave -a %s build/waves/NAME.fst   (1 cycle = 10 ns)" % out,
             "[timestart] 0", "[size] 1600 900", "*-4.700000 0 -1", "[signals_width] 220",
             "@28", "r0.clk_i"]
    for k, hop in enumerate(hops):
        m = re.fullmatch(r"r(\d+):f([0-7]):b([0-7])", hop)
        if not m:
            print(f"bad hop {hop!r} (want rR:fI:bJ)")
            return 2
        r, f, b = m.groups()
        top, u = f"r{r}.rn1", f"r{r}.rn1.gen_fport[{f}].u_fport"
        name = f"stage {k}: r{r} f{f} -> b{b}"
        lines += ["@800200", "-" + name,
                  "@2022", "^1 waves/rnp_word.txt", f"+{{r{r}.f{f} in}} {top}.gen_tap[{f}].f_in[8:0]",
                  "@2022", "^1 waves/rnp_word.txt", f"+{{r{r}.f{f} back}} {top}.gen_tap[{f}].f_out[8:0]",
                  "@2024", "^2 waves/rn1_state.txt", f"+{{r{r}.f{f} state}} {u}.state_q[3:0]",
                  "@24", f"+{{r{r}.f{f} bq}} {u}.bq_q[2:0]", f"+{{r{r}.f{f} count}} {u}.count_q[5:0]",
                  "@22", f"+{{r{r}.f{f} xor}} {u}.xor_q[7:0]",
                  "@2022", "^1 waves/rnp_word.txt", f"+{{r{r}.b{b} out}} {top}.gen_tap[{b}].b_out[8:0]",
                  "@2022", "^1 waves/rnp_word.txt", f"+{{r{r}.b{b} back}} {top}.gen_tap[{b}].b_in[8:0]",
                  "@22", f"+{{r{r} alloc}} {top}.alloc_q[7:0]",
                  "@1000200", "-" + name]
    with open(out, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
