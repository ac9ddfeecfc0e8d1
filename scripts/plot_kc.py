#!/usr/bin/env python3
"""K&C curves of the shipped template corners (`myriad kc`), as one PNG: bump steer (toe), bump camber, motion
ratio and wheel rate over +-80 mm of wheel travel for the double wishbone, the MacPherson strut and the five-link
corner, and the full car's front-left wheel with and without its anti-roll bar.

Usage (numpy and matplotlib, e.g. in build/venv; the myriad module of a build on PYTHONPATH):
  PYTHONPATH=build/python build/venv/bin/python scripts/plot_kc.py docs/validation/kc_curves.png
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import myriad  # noqa: E402

CASES = [
    ("models/double_wishbone_corner.json", "", None, "double wishbone (HMMWV)"),
    ("models/macpherson_corner.json", "", None, "MacPherson (generic)"),
    ("models/five_link_corner.json", "", None, "five-link (generic, seed 001 rods)"),
    ("models/full_car.json", "front_left", None, "full car front left, anti-roll bar"),
    ("models/full_car.json", "front_left", {"k_arb": 0.0}, "full car front left, no bar"),
]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    for model, corner, overrides, label in CASES:
        r = myriad.kc(model, subsystem=corner, travel=0.08, points=81, overrides=overrides)
        c = r["curves"]
        travel_mm = 1000 * c["travel"]
        style = "--" if overrides else "-"
        axes[0, 0].plot(1000 * c["toe"], travel_mm, style, label=label)
        axes[0, 1].plot(1000 * c["camber"], travel_mm, style, label=label)
        axes[1, 0].plot(travel_mm, c["motion_ratio"], style, label=label)
        axes[1, 1].plot(travel_mm, c["wheel_rate"] / 1000, style, label=label)
    axes[0, 0].set(xlabel="toe [mrad] (toe-in +)", ylabel="wheel travel [mm] (bump +)", title="bump steer")
    axes[0, 1].set(xlabel="camber [mrad] (top outward +)", ylabel="wheel travel [mm]", title="bump camber")
    axes[1, 0].set(xlabel="wheel travel [mm]", ylabel="-d(spring length)/d(travel)", title="motion ratio")
    axes[1, 1].set(xlabel="wheel travel [mm]", ylabel="wheel rate [kN/m]", title="wheel rate (spring, bar)")
    for ax in axes.flat:
        ax.grid(alpha=0.3)
    axes[0, 0].legend(fontsize=8)
    fig.suptitle("myriad kc: template corners on the K&C rig (chassis held, one wheel pushed)")
    fig.tight_layout()
    fig.savefig(sys.argv[1], dpi=110)
    print("wrote", sys.argv[1])


if __name__ == "__main__":
    main()
