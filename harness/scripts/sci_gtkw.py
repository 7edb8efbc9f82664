#!/usr/bin/env python3
"""Write the GTKWave layouts of the SCI designs (ftsim play --wave on their vectors).

usage: sci_gtkw.py lc OUT.gtkw            one link controller (devices lc3, p2s): TOP.sci_lc
       sci_gtkw.py node K OUT.gtkw        one node with K LCs (lc3node, p2snode: 1; ...node2: 2)
       sci_gtkw.py ring N OUT.gtkw        a ring of N nodes (devices ringN, p2sringN): n0..nN-1
       sci_gtkw.py torus W H OUT.gtkw     a W x H torus (torusWxH, p2storusWxH): per node its X-LC,
                                          Y-LC and PSB (scopes nX_Y)
       sci_gtkw.py sys W H OUT.gtkw [FLOW...]
                                          the running torus (ftsim torus --wave): the harness's
                                          faults and per-flow deliveries (labelled FLOW...), then
                                          per node the ring status of both LCs, CableNotOk, the
                                          driver's state, its hold and its table writes

Per controller: the link in and out with signal detect, the parser state (take, bypass,
discard, echo), the LRT hit and the BRT port of the packet being decided, the bypass FIFO,
receive queue, send queue and echo queue levels, the active buffers in use, the echo traffic
(echo queued, echo consumed) and the ring state (ring up, originating ring-down idles, clean
cycles, CableNotOk). Per node of a ring, also the PSB: host ports, its FIFO levels, the B-link
owner and the remote-read timer. 1 cycle = 10 ns. Open from the repository root (the translate
filter waves/sci_parse.txt is relative to it).
"""
import sys

PARSE = "^2 waves/sci_parse.txt"


def lc_signals(p, label):
    """Signals of one sci_lc instance at hierarchy path p."""
    return [
        "@800200", f"-{label}",
        "@22", f"+{{{label} lin}} {p}.lin_i[16:0]",
        "@28", f"+{{{label} lin sd}} {p}.lin_sd_i",
        "@22", f"+{{{label} lout}} {p}.lout_q[16:0]",
        "@2024", PARSE, f"+{{{label} parser}} {p}.ps_q[3:0]",
        "@28", f"+{{{label} LRT hit}} {p}.lrt_bit",
        "@24", f"+{{{label} BRT port}} {p}.brt_port[2:0]",
        "@24", f"+{{{label} bypass FIFO}} {p}.bf_cnt_q[6:0]",
        f"+{{{label} receive q}} {p}.rq_cnt_q[3:0]",
        f"+{{{label} send q}} {p}.sq_cnt_q[3:0]",
        f"+{{{label} active bufs}} {p}.ab_cnt[3:0]",
        f"+{{{label} echo q}} {p}.eq_cnt_q[3:0]",
        "@28", f"+{{{label} echo queued}} {p}.eq_push",
        f"+{{{label} echo consumed}} {p}.ev_echo",
        f"+{{{label} ring up}} {p}.ring_up_q",
        f"+{{{label} ring-down orig}} {p}.orig",
        "@24", f"+{{{label} clean cycles}} {p}.since_q[6:0]",
        "@28", f"+{{{label} CableNotOk}} {p}.irq_q",
        f"+{{{label} failing}} {p}.failing",
        "@1000200", f"-{label}",
    ]


def psb_signals(p, label):
    return [
        "@800200", f"-{label} PSB",
        "@22", f"+{{{label} hin}} {p}.hin_i[16:0]",
        "@22", f"+{{{label} hout}} {p}.hout_o[16:0]",
        "@24", f"+{{{label} B-link owner}} {p}.own_q[2:0]",
        "@1000200", f"-{label} PSB",
    ]


def header(out, what, top):
    return [f"[*] ftsim {out}: {what}. Open from the repository root:",
            f"[*]   gtkwave -a {out} build/waves/NAME.fst   (1 cycle = 10 ns)",
            "[timestart] 0", "[size] 1600 1000", "*-11.000000 0 -1", "[signals_width] 220",
            "@28", f"{top}.clk_i"]


def main():
    a = sys.argv[1:]
    if len(a) == 2 and a[0] == "lc":
        out = a[1]
        lines = header(out, "one SCI link controller (lc3, p2s)", "TOP.sci_lc") + lc_signals("TOP.sci_lc", "lc")
    elif len(a) == 3 and a[0] == "node" and a[1] in ("1", "2"):
        k, out = int(a[1]), a[2]
        lines = header(out, f"one SCI node with {k} link controller(s)", "TOP.sci_node")
        for j in range(k):
            lines += lc_signals(f"TOP.sci_node.gen_lc[{j}].u_lc", "xy"[j] if k > 1 else "lc")
        lines += psb_signals("TOP.sci_node.u_psb", "node")
    elif len(a) == 3 and a[0] == "ring" and a[1].isdigit() and 2 <= int(a[1]) <= 16:
        n, out = int(a[1]), a[2]
        lines = header(out, f"a ring of {n} SCI nodes (ring{n}, p2sring{n})", "n0")
        for i in range(n):
            top = f"n{i}.sci_node"
            lines += lc_signals(f"{top}.gen_lc[0].u_lc", f"n{i}")
            lines += psb_signals(f"{top}.u_psb", f"n{i}")
    elif len(a) == 4 and a[0] == "torus" and a[1].isdigit() and a[2].isdigit():
        w, h, out = int(a[1]), int(a[2]), a[3]
        lines = header(out, f"a {w} x {h} SCI torus (torus{w}x{h}, p2storus{w}x{h})", "n0_0")
        for y in range(h):
            for x in range(w):
                top = f"n{x}_{y}.sci_node"
                lines += lc_signals(f"{top}.gen_lc[0].u_lc", f"n{x},{y} X")
                lines += lc_signals(f"{top}.gen_lc[1].u_lc", f"n{x},{y} Y")
                lines += psb_signals(f"{top}.u_psb", f"n{x},{y}")
    elif len(a) >= 4 and a[0] == "sys" and a[1].isdigit() and a[2].isdigit():
        w, h, out, labels = int(a[1]), int(a[2]), a[3], a[4:]
        lines = header(out, f"the running {w} x {h} torus: faults, deliveries, ring status, "
                       "drivers (ftsim torus --wave)", "n0_0")
        obs = "harness.sci_obs"
        lines += ["@800200", "-harness", "@24", f"+{{faults applied}} {obs}.faults_o[7:0]"]
        lines += ["@28"] + [f"+{{{labels[k] if k < len(labels) else f'flow {k}'} delivered}} "
                            f"{obs}.flow[{k}].deliver" for k in range(max(len(labels), 1))]
        lines += ["@1000200", "-harness"]
        for y in range(h):
            for x in range(w):
                i = y * w + x
                top = f"n{x}_{y}.sci_node"
                lab = f"n{x},{y}"
                lines += ["@800200", f"-{lab}", "@28",
                          f"+{{{lab} X ring up}} {top}.gen_lc[0].u_lc.ring_up_q",
                          f"+{{{lab} Y ring up}} {top}.gen_lc[1].u_lc.ring_up_q",
                          f"+{{{lab} X CableNotOk}} {top}.gen_lc[0].u_lc.irq_q",
                          f"+{{{lab} Y CableNotOk}} {top}.gen_lc[1].u_lc.irq_q",
                          "@2024", "^2 waves/sci_drv.txt",
                          f"+{{{lab} driver}} {obs}.node[{i}].drv_state[3:0]",
                          "@28", f"+{{{lab} holds}} {obs}.node[{i}].held",
                          f"+{{{lab} table write}} {obs}.node[{i}].tbl_wr",
                          "@1000200", f"-{lab}"]
    else:
        print(__doc__.strip())
        return 2
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
