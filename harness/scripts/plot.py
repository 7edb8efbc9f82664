#!/usr/bin/python3
"""Draw the experiments' PNG plots from the CSV files `ftsim experiment` writes.

usage: plot.py [--out DIR] CSV...
  rnp-load.csv, rnp-patterns.csv, rnp-policy.csv  (ftsim experiment rnp-*): NAME.png
  ftdrb-rnp.csv (ftsim experiment ftdrb-rnp): ftdrb-rnp.png, FT-DRB's Figure 3 redrawn
  NAME.csv of an SCI torus experiment (ftsim experiment ring-down-9, ...): NAME-bandwidth.png
      and NAME-latency.png, around the fault, with the fault and the drivers-idle markers
  ftdrb-sci.csv (ftsim experiment ftdrb-sci): ftdrb-sci.png, FT-DRB's Figure 3 on the P2S
      torus: performance per pattern, a panel per cable count, the paper's figures marked
The PNGs go to --out DIR, or beside each CSV. `make paper` runs it on every experiment.
Needs matplotlib (Debian python3-matplotlib, hence /usr/bin/python3).
"""
import csv
import math
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

DPI = 90
CONFIGS = ["plain", "lft", "backchan", "lft+backchan"]
LABELS = {"plain": "plain RNP", "lft": "+ link fault table", "backchan": "+ backward channel",
          "lft+backchan": "+ both"}


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def save(fig, path):
    # "tight" takes in the legends drawn outside the axes
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    print(f"wrote {path}")


def fig_legend(fig, ax, ncol):
    """One legend for the whole figure, in a row under the axes, where it covers no data."""
    fig.tight_layout()
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=ncol,
               fontsize=9)


def plot_load(path, out):
    data = rows(path)
    faults = sorted({int(r["faults"]) for r in data})
    fig, ax = plt.subplots(2, len(faults), figsize=(4 * len(faults), 7), sharex=True)
    for j, fl in enumerate(faults):
        for cfg in CONFIGS:
            pts = sorted((float(r["offered"]), float(r["latency"]), float(r["retries"]))
                         for r in data if r["config"] == cfg and int(r["faults"]) == fl)
            x = [p[0] for p in pts]
            ax[0][j].plot(x, [p[1] for p in pts], marker="o", label=LABELS[cfg])
            ax[1][j].plot(x, [p[2] for p in pts], marker="o", label=LABELS[cfg])
        ax[0][j].set_title(f"{fl} fault{'s' if fl != 1 else ''}")
        ax[0][j].set_yscale("log")
        ax[1][j].set_xlabel("offered load (messages / endpoint / cycle)")
    ax[0][0].set_ylabel("mean latency (cycles, log)")
    ax[1][0].set_ylabel("retries per message")
    fig.suptitle("RNP network, 64 endpoints, uniform traffic: latency and retries vs offered load")
    fig_legend(fig, ax[0][0], len(CONFIGS))
    save(fig, os.path.join(out, "rnp-load.png"))


def plot_patterns(path, out):
    data = rows(path)
    pats = [r["pattern"] for r in data if r["faults"] == "0"]
    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    for k, fl in enumerate(["0", "4"]):
        vals = {r["pattern"]: r for r in data if r["faults"] == fl}
        xs = [i + (k - 0.5) * 0.38 for i in range(len(pats))]
        ax[0].bar(xs, [float(vals[p]["throughput"]) for p in pats], 0.38, label=f"{fl} faults")
        ax[1].bar(xs, [float(vals[p]["retries"]) for p in pats], 0.38, label=f"{fl} faults")
    for a, t in zip(ax, ["accepted throughput (msg / endpoint / cycle)", "retries per message"]):
        a.set_xticks(range(len(pats)))
        a.set_xticklabels(pats, rotation=30, ha="right")
        a.set_title(t)
    fig.suptitle("RNP network, 64 endpoints, permutation patterns (link fault table + backward channel)")
    fig_legend(fig, ax[0], 2)
    save(fig, os.path.join(out, "rnp-patterns.png"))


def plot_policy(path, out):
    data = rows(path)
    kinds = ["permanent", "transient", "intermittent"]
    pols = ["no table", "naive (mask at first)", "FT-DRB stages"]
    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    for k, pl in enumerate(pols):
        vals = {r["faults"]: r for r in data if r["policy"] == pl}
        xs = [i + (k - 1) * 0.27 for i in range(len(kinds))]
        ax[0].bar(xs, [float(vals[f]["retries"]) for f in kinds], 0.27, label=pl)
        ax[1].bar(xs, [int(vals[f]["masked_end"]) for f in kinds], 0.27, label=pl)
    for a, t in zip(ax, ["retries per message", "links still masked at the end"]):
        a.set_xticks(range(len(kinds)))
        a.set_xticklabels(kinds)
        a.set_title(t)
    fig.suptitle("12 link faults of each kind. Source policy: where the link fault table pays, and where telling transient "
                 "from permanent matters")
    fig_legend(fig, ax[0], len(pols))
    save(fig, os.path.join(out, "rnp-policy.png"))


def plot_ftdrb_sci(path, out):
    """FT-DRB's Figure 3 (Zarza et al.) on the P2S torus: per pattern, latency fault-free / with K cables
    pulled, the hardware failover alone beside FT-DRB; the pairs still delivering written on
    the bars where some do not (the failover alone cannot route them: their latency is not in
    its bar)."""
    with open(path) as f:
        head = f.readline().lstrip("# ").strip()
        data = list(csv.DictReader(f))
    counts = sorted({int(r["faults"]) for r in data if r["faults"] != "0"})
    pats = list(dict.fromkeys(r["pattern"] for r in data))
    fig, ax = plt.subplots(1, len(counts), figsize=(4.6 * len(counts), 4.2), sharey=True,
                           squeeze=False)
    for j, k in enumerate(counts):
        a = ax[0][j]
        for c, (cfg, label) in enumerate([("p2s", "P2S hardware failover alone"),
                                          ("ftdrb", "+ FT-DRB in the hosts")]):
            vals = {r["pattern"]: r for r in data if r["config"] == cfg and int(r["faults"]) == k}
            xs = [i + (c - 0.5) * 0.4 for i in range(len(pats))]
            ys = [float(vals[p]["perf_pct"]) if vals[p]["perf_pct"] != "nan" else 0 for p in pats]
            a.bar(xs, ys, 0.4, label=label)
            for x, p, y in zip(xs, pats, ys):
                r = vals[p]
                if int(r["delivering"]) < int(r["flows"]):
                    a.text(x, y + 1, f"{r['delivering']}/{r['flows']}\npairs", ha="center",
                           fontsize=6)
        for y, style, label in [(97, "--", "Zarza et al. average (97 %)"),
                                (88, ":", "Zarza et al. worst (88 %)")]:
            a.axhline(y, color="k", linestyle=style, linewidth=0.8, label=label)
        iso = {r["isolated"] for r in data if int(r["faults"]) == k}
        a.set_title(f"{k} cable{'s' if k != 1 else ''} pulled ({'/'.join(sorted(iso))} isolated)")
        a.set_xticks(range(len(pats)))
        a.set_xticklabels(pats, rotation=30, ha="right")
        a.set_ylim(0, 115)
    ax[0][0].set_ylabel("performance: latency fault-free / faulty (%)")
    fig.suptitle(head.split(";")[0])
    fig_legend(fig, ax[0][0], 4)
    save(fig, os.path.join(out, "ftdrb-sci.png"))


ZARZA_FIG3 = {"average": 97, "worst": 88, "best": 100}  # FT-DRB's Figure 3 (Zarza et al.)
FTDRB_TABLES = ["per-source", "per-source (no relays)", "global"]
PAPER_PATTERNS = ["bit-reversal", "perfect-shuffle", "butterfly", "transpose", "complement"]


def plot_ftdrb(path, out):
    """FT-DRB's Figure 3 (Zarza et al.) redrawn for the RNP network: performance (100 L0 / Lf) per pattern,
    a panel per fault count, a bar per table, the paper's average, worst and best marked."""
    data = rows(path)
    counts = sorted({int(r["faults"]) for r in data if r["faults"] != "0"})
    pats = PAPER_PATTERNS + ["uniform"]
    fig, ax = plt.subplots(1, len(counts), figsize=(6 * len(counts), 4.4), squeeze=False)
    w = 0.8 / len(FTDRB_TABLES)
    for a, n in zip(ax[0], counts):
        for k, tb in enumerate(FTDRB_TABLES):
            vals = {r["pattern"]: float(r["perf"]) for r in data
                    if int(r["faults"]) == n and r["table"] == tb}
            if not vals:
                continue
            xs = [i + (k - (len(FTDRB_TABLES) - 1) / 2) * w for i in range(len(pats))]
            a.bar(xs, [vals.get(p, 0) for p in pats], w, label=f"{tb} table")
        for key, style in (("average", "--"), ("worst", ":"), ("best", "-.")):
            a.axhline(ZARZA_FIG3[key], color="k", ls=style, lw=1,
                      label=f"Zarza et al. {key} ({ZARZA_FIG3[key]} %)")
        a.set_xticks(range(len(pats)))
        a.set_xticklabels(pats, rotation=30, ha="right")
        a.set_ylim(0, 110)
        a.set_title(f"{n} permanent link faults")
        a.grid(axis="y", alpha=0.3)
    ax[0][0].set_ylabel("performance: 100 x latency fault-free / faulty (%)")
    fig.suptitle("FT-DRB on rnpnet1024 beside FT-DRB's Figure 3 (Zarza et al.; uniform: not in the paper)")
    fig.tight_layout()
    h, lab = ax[0][0].get_legend_handles_labels()
    fig.legend(h, lab, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=3, fontsize=9)
    save(fig, os.path.join(out, "ftdrb-rnp.png"))


RNP = {"rnp-load": plot_load, "rnp-patterns": plot_patterns, "rnp-policy": plot_policy,
       "ftdrb-rnp": plot_ftdrb}


def read_series(path):
    """The `# key: value` lines, then the table of 1 ms bins (an empty latency: no delivery)."""
    meta, lines = {}, []
    with open(path, newline="") as f:
        for line in f:
            if line.startswith("#"):
                key, _, val = line[1:].partition(":")
                meta[key.strip()] = val.strip()
            else:
                lines.append(line)
    cols = {"time_ms": [], "bandwidth_mbs": [], "latency_us": []}
    for r in csv.DictReader(lines):
        for k, v in cols.items():
            v.append(float(r[k]) if r[k] != "" else math.nan)
    return meta, cols


def sci_plot(meta, t, y, what, ylabel, path):
    fig, ax = plt.subplots(figsize=(10, 4.6))
    # the markers go behind the data so that a peak at the drivers-idle time stays visible
    line, = ax.plot(t, y, color="tab:blue", lw=1.2, label="all flows", zorder=3)
    # a bin whose neighbours have no value would draw no line: a small square shows it
    fin = [not math.isnan(v) for v in y]
    lone = [i for i in range(len(y)) if fin[i] and not (i > 0 and fin[i - 1])
            and not (i + 1 < len(y) and fin[i + 1])]
    ax.plot([t[i] for i in lone], [y[i] for i in lone], "s", ms=2.5, color=line.get_color(),
            zorder=3)
    idle = float(meta["drivers_idle_ms"])
    ax.axvline(float(meta["fault_ms"]), color="tab:red", ls="--", lw=1.2, label="fault", zorder=2)
    ax.axvline(idle, color="tab:red", ls=":", lw=1.5, label=f"drivers idle (mean, {idle:.0f} ms)",
               zorder=2)
    # from 0, with room above the highest bin so that a flat series does not hide in the frame
    ax.set_ylim(0, 1.1 * max((v for v in y if not math.isnan(v)), default=1.0) or 1.0)
    ax.grid(alpha=0.3)
    ax.set_title(f"{meta['experiment']}: {what}, {meta['fault']} (mean of {meta['runs']} runs)")
    ax.set_xlabel("time from the fault (ms)")
    ax.set_ylabel(ylabel)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9)
    fig.tight_layout()
    save(fig, path)


def plot_sci(path, out):
    meta, c = read_series(path)
    name, probe = meta["experiment"], float(meta["probe_us"])
    sci_plot(meta, c["time_ms"], c["bandwidth_mbs"], "total bandwidth",
             f"MB/s delivered\n(64-byte messages, one per {probe:.0f} us per flow)",
             os.path.join(out, f"{name}-bandwidth.png"))
    sci_plot(meta, c["time_ms"], c["latency_us"], "average latency",
             "latency (us), first send to delivery", os.path.join(out, f"{name}-latency.png"))


def is_series(path):
    with open(path) as f:
        return f.readline().startswith("# experiment:")


def main(argv):
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    out = None
    if len(argv) >= 2 and argv[0] == "--out":
        out, argv = argv[1], argv[2:]
    if not argv or any(a.startswith("-") for a in argv):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    if out:
        os.makedirs(out, exist_ok=True)
    for path in argv:
        name = os.path.basename(path)[:-4] if path.endswith(".csv") else ""
        dest = out or os.path.dirname(path) or "."
        if not os.path.isfile(path):
            print(f"plot.py: {path}: no such file (run ftsim experiment first)", file=sys.stderr)
            return 1
        if name in RNP:
            RNP[name](path, dest)
        elif name == "ftdrb-sci":
            plot_ftdrb_sci(path, dest)
        elif is_series(path):
            plot_sci(path, dest)
        else:
            print(f"plot.py: {path}: not an experiment's CSV", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
