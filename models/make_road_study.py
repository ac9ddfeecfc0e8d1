#!/usr/bin/env python3
"""Regenerate models/quarter_car_road_study.csv (python3, standard library only).

The main job's study (./run.sh): 100 suspension designs of models/quarter_car_road.json, a 10 x 10 grid over
spring stiffness k_s in [10000, 40000] N/m and damping c_s in [500, 5000] N s/m (both geometric, ends included),
each driven over 100 roads: 10^4 rows, design-major (row i is design i // 100; k_s is the outer loop of the designs,
c_s the inner one). The roads are the model's ISO 8608 class C road keyed by the instance (row), so every row meets
its own road and a design's 100 rows are 100 independent roads. Each row also sets the spring's free length
l0_s = l_static + m_b g / k_s (l_static = 0.3 m), so that every instance starts in static equilibrium; m_b and g are
read from the model file.

Usage: python3 models/make_road_study.py [OUTPUT.csv]   (default: quarter_car_road_study.csv next to this script)
"""
import json
import os
import sys

N_K = 10
N_C = 10
REPEATS = 100
K_S_MIN, K_S_MAX = 10000.0, 40000.0
C_S_MIN, C_S_MAX = 500.0, 5000.0
L_STATIC = 0.3


def param(model, name):
    v = model["parameters"][name]
    return float(v["value"] if isinstance(v, dict) else v)


def geometric(lo, hi, n):
    return [lo * (hi / lo) ** (i / (n - 1)) for i in range(n)]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "quarter_car_road_study.csv")
    with open(os.path.join(here, "quarter_car_road.json")) as f:
        model = json.load(f)
    m_b = param(model, "m_b")
    g = -float(model["gravity"][2])
    lines = ["k_s,c_s,l0_s"]
    for k_s in geometric(K_S_MIN, K_S_MAX, N_K):
        l0_s = L_STATIC + m_b * g / k_s
        for c_s in geometric(C_S_MIN, C_S_MAX, N_C):
            lines.extend(["%r,%r,%r" % (k_s, c_s, l0_s)] * REPEATS)
    with open(out, "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote %d rows to %s" % (len(lines) - 1, out))


if __name__ == "__main__":
    main()
