#!/usr/bin/python3
"""Draw the RNP network measurements (ftsim experiment rnp-*) as PNG plots.

usage: plot_rnp.py CSV_DIR OUT_DIR
Reads rnp-load.csv, rnp-patterns.csv and rnp-policy.csv from CSV_DIR; writes rnp-load.png,
rnp-patterns.png and rnp-policy.png to OUT_DIR. Needs matplotlib (Debian python3-matplotlib).
"""
import csv
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

CONFIGS = ["plain", "lft", "backchan", "lft+backchan"]
LABELS = {"plain": "plain RNP", "lft": "+ link fault table", "backchan": "+ backward channel",
          "lft+backchan": "+ both"}


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def plot_load(src, out):
    data = rows(os.path.join(src, "rnp-load.csv"))
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
    ax[0][0].legend(fontsize=8)
    fig.suptitle("RNP network, 64 endpoints, uniform traffic: latency and retries vs offered load")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "rnp-load.png"), dpi=90)


def plot_patterns(src, out):
    data = rows(os.path.join(src, "rnp-patterns.csv"))
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
        a.legend(fontsize=8)
    fig.suptitle("RNP network, 64 endpoints, permutation patterns (link fault table + backward channel)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "rnp-patterns.png"), dpi=90)


def plot_policy(src, out):
    data = rows(os.path.join(src, "rnp-policy.csv"))
    kinds = ["permanent", "transient", "intermittent"]
    pols = ["no table", "naive (mask at first)", "seed 001"]
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
        a.legend(fontsize=8)
    fig.suptitle("12 link faults of each kind. Source policy: where the link fault table pays, and where telling transient "
                 "from permanent matters")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "rnp-policy.png"), dpi=90)


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip())
        return 2
    src, out = sys.argv[1:]
    os.makedirs(out, exist_ok=True)
    for name, fn in [("rnp-load", plot_load), ("rnp-patterns", plot_patterns), ("rnp-policy", plot_policy)]:
        if os.path.exists(os.path.join(src, name + ".csv")):
            fn(src, out)
            print(f"wrote {os.path.join(out, name + '.png')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
