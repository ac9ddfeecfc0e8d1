"""Figures of seed 003 Figs. 10 and 12 (the energy balance of Andrews' squeezer) from bench/andrews_energy.

Reads bench/results/andrews_energy_1e-4.csv and _1e-5.csv (written by build/bench/andrews_energy; one row per
sample: method, t, delta_E) and writes
docs/validation/andrews_energy_1e-4.png and _1e-5.png: Delta E(t) in three panels as in the seed, (a) the
second-order methods at rho_inf = 0, (b) at rho_inf = 0.6, (c) the higher-order methods at rho_inf = 0.
Usage: build/venv/bin/python bench/andrews_energy_plot.py
"""
import csv
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HIGHER = ("mssth", "esdirk")


def read(path):
    """The long-format CSV (method, t, delta_E) as {method: ([t], [delta_E])}, in file order."""
    series = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            t, values = series.setdefault(row["method"], ([], []))
            t.append(float(row["t"]))
            values.append(float(row["delta_E"]))
    return series


def panel_of(name):
    if name.startswith(HIGHER):
        return 2
    return 1 if "(0.6)" in name else 0


def main():
    for tag in ("1e-4", "1e-5"):
        series = read(os.path.join(ROOT, "bench", "results", f"andrews_energy_{tag}.csv"))
        fig, axes = plt.subplots(1, 3, figsize=(15, 4.2), sharex=True)
        titles = ["(a) second order, rho_inf = 0", "(b) second order, rho_inf = 0.6", "(c) higher order, rho_inf = 0"]
        for name, (t, values) in series.items():
            ax = axes[panel_of(name)]
            ax.plot(t, values, label=name.replace(" (0.6)", "").replace(" (0)", ""), linewidth=1.0)
        for ax, title in zip(axes, titles):
            ax.set_title(title, fontsize=10)
            ax.set_xlabel("t (s)")
            ax.axhline(0.0, color="black", linewidth=0.5)
            ax.legend(fontsize=7, ncol=2)
            ax.grid(alpha=0.3)
        axes[0].set_ylabel("Delta E (J)")
        fig.suptitle(f"Andrews' squeezer, energy balance (seed 003 eq. 23), dt/n = {tag} s")
        fig.tight_layout()
        out = os.path.join(ROOT, "docs", "validation", f"andrews_energy_{tag}.png")
        fig.savefig(out, dpi=110)
        print("wrote", out)


if __name__ == "__main__":
    main()
