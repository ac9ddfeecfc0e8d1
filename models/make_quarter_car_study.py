#!/usr/bin/env python3
"""Regenerate models/quarter_car_study.csv (python3, standard library only).

A deterministic 32 x 32 grid over suspension stiffness k_s in [15000, 40000] N/m and suspension damping
c_s in [800, 4000] N s/m (both ends included, equal spacing; k_s is the outer loop, c_s the inner one), 1024 rows.
Each row also sets the suspension free length l0_s = l_static + m_s g / k_s, so that every instance of
models/quarter_car.json starts in static equilibrium: l_static (= -q_u0), m_s and g are read from the model
file itself, so the study stays consistent with the model defaults.

Usage: python3 models/make_quarter_car_study.py [OUTPUT.csv]   (default: quarter_car_study.csv next to this script)
"""
import json
import os
import sys

N_K = 32
N_C = 32
K_S_MIN, K_S_MAX = 15000.0, 40000.0
C_S_MIN, C_S_MAX = 800.0, 4000.0


def param(model, name):
    v = model["parameters"][name]
    return float(v["value"] if isinstance(v, dict) else v)


def grid(lo, hi, n):
    return [lo + (hi - lo) * i / (n - 1) for i in range(n)]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "quarter_car_study.csv")
    with open(os.path.join(here, "quarter_car.json")) as f:
        model = json.load(f)
    m_s = param(model, "m_s")
    g = -float(model["gravity"][2])
    l_static = -param(model, "q_u0")
    lines = ["k_s,c_s,l0_s"]
    for k_s in grid(K_S_MIN, K_S_MAX, N_K):
        l0_s = l_static + m_s * g / k_s
        for c_s in grid(C_S_MIN, C_S_MAX, N_C):
            lines.append("%r,%r,%r" % (k_s, c_s, l0_s))
    with open(out, "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote %d rows to %s" % (len(lines) - 1, out))


if __name__ == "__main__":
    main()
