#!/usr/bin/env python3
"""The comfort vs road-holding trade-off of the main job's study (./run.sh), as a PNG.

Reads the study's parameter file (k_s, c_s per instance: models/quarter_car_road_study.csv) and the KPI file the
run wrote (--kpis: instance,kpi,value,unit), and plots the ISO 2631-1 Wk-weighted RMS body acceleration (comfort)
against the RMS dynamic tire load over the static load (road holding): every instance as a faint dot, each design's
mean over its roads as a marker coloured by its damping, designs of equal stiffness joined (every third labelled with its k_s, at its softest damper). Lower-left is better on
both; the trade-off is the lower-left edge.

Usage (numpy and matplotlib, e.g. in build/venv):
  build/venv/bin/python -m pip install matplotlib
  build/venv/bin/python scripts/plot_road_study.py models/quarter_car_road_study.csv out/quarter_car_road_kpis.csv \
      docs/validation/quarter_car_road_tradeoff.png
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def read_kpis(path):
    values = defaultdict(dict)
    units = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            values[row["kpi"]][int(row["instance"])] = float(row["value"])
            units[row["kpi"]] = row["unit"]
    return values, units


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    study, kpi_file, png = sys.argv[1:]
    with open(study) as f:
        rows = list(csv.DictReader(f))
    k_s = np.array([float(r["k_s"]) for r in rows])
    c_s = np.array([float(r["c_s"]) for r in rows])
    values, units = read_kpis(kpi_file)
    n = len(rows)
    comfort = np.array([values["comfort_wk_rms"].get(i, np.nan) for i in range(n)])
    holding = np.array([values["dynamic_tire_load"].get(i, np.nan) for i in range(n)])
    ok = np.isfinite(comfort) & np.isfinite(holding)

    fig, ax = plt.subplots(figsize=(8, 6), dpi=120)
    ax.scatter(comfort[ok], holding[ok], s=2, color="0.8", label="one instance (design x road)", rasterized=True)
    designs = sorted(set(zip(k_s, c_s)))
    means = {}
    for k, c in designs:
        sel = ok & (k_s == k) & (c_s == c)
        means[(k, c)] = (comfort[sel].mean(), holding[sel].mean())
    for index, k in enumerate(sorted(set(k_s))):
        line = [means[(k, c)] for c in sorted(set(c_s)) if (k, c) in means]
        ax.plot([p[0] for p in line], [p[1] for p in line], color="0.4", lw=0.8)
        if index % 3 == 0:  # every third stiffness labelled: the soft ones crowd
            ax.annotate("%.1f kN/m" % (k / 1000), line[0], fontsize=7, xytext=(0, 5), textcoords="offset points",
                        ha="center")
    pts = ax.scatter([means[d][0] for d in designs], [means[d][1] for d in designs],
                     c=[d[1] for d in designs], cmap="viridis", norm=matplotlib.colors.LogNorm(), s=28, zorder=3,
                     label="design mean over its roads")
    fig.colorbar(pts, ax=ax, label="damping c_s [N s/m]")
    ax.set_xlabel("comfort: Wk-weighted RMS body acceleration [%s]" % units.get("comfort_wk_rms", "m/s^2"))
    ax.set_ylabel("road holding: RMS dynamic tire load / static load [-]")
    ax.set_title("Quarter car, ISO 8608 class C at 80 km/h: %d instances, %d designs" % (ok.sum(), len(designs)))
    ax.legend(loc="upper right", fontsize=8)
    ax.grid(True, lw=0.3)
    fig.tight_layout()
    fig.savefig(png)
    print("wrote %s (%d instances ok of %d)" % (png, ok.sum(), n))


if __name__ == "__main__":
    main()
