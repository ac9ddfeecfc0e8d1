#!/usr/bin/env python3
"""Seed 001's Tables 4-6 on Myriad's sedan and rod corner (models/sedan.json, models/rod_corner.json; issue 20
item 5): the difference in the relative accelerations between seed 001's extrapolated rod inertia (point, linear and
quadratic Lagrange extrapolation with the partitioned rod mass matrix, the model's `rod_inertia`) and the exact
formulation over 1 s of each model's manoeuvre with RK4 at h = 1e-4 .. 1e-3 (Table 4), against the rods' mass
(Table 5), and the time each takes for 10 s and 20 s (Table 6). The accelerations are joint_acceleration outputs of
every relative coordinate every 1 ms, the exact equations' at the integrated state (docs/model-format.md, "Rods").

    build/venv/bin/python bench/rod_extrapolation.py --myriad build/myriad --out docs/validation/rod-extrapolation.md

Needs numpy. About ten minutes on the 2-core machine, most of it the sedan's timing runs.
"""
import argparse
import csv
import json
import os
import platform
import subprocess
import sys
import tempfile

import numpy as np

from report_tables import machine, table

METHODS = ["point", "linear", "quadratic"]
STEPS = [1e-4, 2e-4, 5e-4, 1e-3]
SCALES = [0.0, 0.5, 1.0, 2.0, 3.0]
# Seed 001, Table 4: max(Delta zdd) per h for point, linear, quadratic (its errata: the point column's norm at
# 2e-4 reads 7.00e-3 for 7.00e-4; the max column is not affected).
PAPER_TABLE4 = {1e-4: (1.63e-4, 5.67e-7, 1.68e-8), 2e-4: (3.24e-4, 2.33e-6, 1.11e-7),
                5e-4: (8.02e-4, 1.53e-5, 9.85e-7), 1e-3: (1.60e-3, 6.56e-5, 5.29e-6)}
PAPER_TABLE6 = {5e-4: (10.14, 9.78, 9.17), 1e-3: (10.44, 10.03, 9.83)}


COORDINATES = {"prismatic": 1, "revolute": 1, "universal": 2, "cylindrical": 2, "planar": 3, "spherical": 3,
               "free": 6, "fixed": 0}


def expanded(myriad, model_path, workdir):
    """The model with its templates expanded and an `acc_<joint>_<i>` output for every relative coordinate."""
    path = os.path.join(workdir, "expanded.json")
    subprocess.run([myriad, "expand", model_path, "--out", path], check=True, stdout=subprocess.DEVNULL)
    with open(path) as f:
        model = json.load(f)
    model["outputs"] = [{"name": f"acc_{j['name']}_{i}", "type": "joint_acceleration", "joint": j["name"], "index": i}
                        for j in model["joints"] for i in range(COORDINATES[j["type"]])]
    return model


def variant(model, method, workdir):
    model = dict(model, rod_inertia=method)
    path = os.path.join(workdir, f"{model['name']}_{method}.json")
    with open(path, "w") as f:
        json.dump(model, f)
    return path


def simulate(myriad, model, h, t_end, scale, workdir, instances=1):
    out = os.path.join(workdir, "out.csv")
    stats = os.path.join(workdir, "stats.json")
    command = [myriad, "simulate", model, "--integrator", "rk4", "--h", repr(h), "--t-end", repr(t_end),
               "--dt-out", "0.001", "--param", f"rod_scale={scale!r}", "--threads", "1", "--instances",
               str(instances), "-q", "--out", out, "--stats-json", stats]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(stats) as f:
        s = json.load(f)
    with open(out) as f:
        rows = list(csv.reader(f))
    header = rows[0]
    data = np.array([[float(x) for x in r] for r in rows[1:]])
    columns = [i for i, name in enumerate(header) if name.startswith("acc_")]
    return data[:, columns], s["totals"]["wall_seconds"]


def difference(a, b):
    """max |Delta zdd| over time and coordinates, and the norm of Delta zdd at the time of the largest norm."""
    d = a - b
    return np.abs(d).max(), np.linalg.norm(d, axis=1).max()


def slope(hs, errors):
    return np.polyfit(np.log(hs), np.log(errors), 1)[0]


def measure(myriad, model_path, repeats, instances, workdir):
    base = expanded(myriad, model_path, workdir)
    models = {m: variant(base, m, workdir) for m in ["exact"] + METHODS}
    table4 = {}
    for h in STEPS:
        exact, _ = simulate(myriad, models["exact"], h, 1.0, 1.0, workdir)
        table4[h] = [difference(simulate(myriad, models[m], h, 1.0, 1.0, workdir)[0], exact) for m in METHODS]
        print(f"{base['name']} h {h:g}: " + ", ".join(f"{m} {e[0]:.3g}" for m, e in zip(METHODS, table4[h])),
              file=sys.stderr, flush=True)
    table5 = {}
    for scale in SCALES:
        for h in (5e-4, 1e-3):
            exact, _ = simulate(myriad, models["exact"], h, 1.0, scale, workdir)
            table5[(scale, h)] = [difference(simulate(myriad, models[m], h, 1.0, scale, workdir)[0], exact)
                                  for m in METHODS]
    table6 = {}
    for horizon in (10.0, 20.0):
        for h in (5e-4, 1e-3):
            for m in ["exact"] + METHODS:
                table6[(horizon, h, m)] = min(simulate(myriad, models[m], h, horizon, 1.0, workdir, instances)[1]
                                              for _ in range(repeats))
            print(f"{base['name']} {horizon:g} s, h {h:g}: exact {table6[(horizon, h, 'exact')]:.3f} s",
                  file=sys.stderr, flush=True)
    return base, table4, table5, table6


def section(title, intro, base, table4, table5, table6, instances, repeats):
    n = len(base["outputs"])
    text = [f"## {title}\n", intro.format(coordinates=n) + "\n"]
    rows = []
    for h in STEPS:
        cells = [f"{h:g}"]
        for k in range(3):
            e = table4[h][k]
            cells.append(f"{e[0]:.2e} / {e[1]:.2e} (paper {PAPER_TABLE4[h][k]:.2e})")
        rows.append(cells)
    slopes = [slope(STEPS, [table4[h][k][0] for h in STEPS]) for k in range(3)]
    rows.append(["fitted slope in h"] + [f"{s:.2f} (issue: >= {b})" for s, b in zip(slopes, (0.9, 1.8, 2.5))])
    text.append(table("Table 4 analogue: max |Delta zdd| / norm, by step (paper: its max column)",
                      ["h (s)", "point", "linear Lagrange", "quadratic Lagrange"], rows))
    rows = []
    for scale in SCALES:
        for h in (5e-4, 1e-3):
            cells = [f"{scale:g}x", f"{h:g}"]
            for k in range(3):
                e = table5[(scale, h)][k][0]
                unit = table5[(1.0, h)][k][0]
                ratio = "" if scale in (0.0, 1.0) else f" ({e / (scale * unit):.2f} of proportional)"
                cells.append(f"{e:.2e}{ratio}")
            rows.append(cells)
    text.append(table("Table 5 analogue: max |Delta zdd| against the rods' mass (rod_scale)",
                      ["rod mass", "h (s)", "point", "linear Lagrange", "quadratic Lagrange"], rows))
    rows = []
    for horizon in (10.0, 20.0):
        for h in (5e-4, 1e-3):
            exact = table6[(horizon, h, "exact")]
            rows.append([f"{horizon:g} s", f"{h:g}", "exact", f"{exact:.3f}", "", ""])
            for k, m in enumerate(METHODS):
                t = table6[(horizon, h, m)]
                paper = f"{PAPER_TABLE6[h][k]:.2f}%" if horizon == 10.0 else ""
                rows.append(["", "", m, f"{t:.3f}", f"{100 * (1 - t / exact):+.1f}%", paper])
    text.append(table(f"Table 6 analogue: wall seconds of {instances} instance(s) on one thread (fastest of "
                      f"{repeats}), and the time saved against the exact rods",
                      ["horizon", "h (s)", "formulation", "seconds", "saved", "paper saved"], rows))
    return "\n".join(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--myriad", default="build/myriad")
    parser.add_argument("--repeats", type=int, default=3, help="timing runs per cell (the fastest counts)")
    parser.add_argument("--out", default=None, help="markdown file to write (default: print only)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as workdir:
        sedan = measure(args.myriad, "models/sedan.json", args.repeats, 1, workdir)
        corner = measure(args.myriad, "models/rod_corner.json", args.repeats, 4, workdir)

    text = ["# Seed 001's rod-inertia extrapolation: Tables 4-6 on Myriad\n"]
    text.append("Generated by `build/venv/bin/python bench/rod_extrapolation.py --myriad build/myriad --out "
                "docs/validation/rod-extrapolation.md` (issue 20 item 5). Each model runs with `rod_inertia` "
                "exact and with seed 001's point, linear and quadratic Lagrange extrapolation of the rods' coupled "
                "inertia (its partitioned form, eqs. 47-50), RK4 at a fixed step h as in the paper, for 1 s. The "
                "difference is in the relative accelerations of every coordinate (m/s^2 and rad/s^2: "
                "`joint_acceleration` outputs every 1 ms, the exact equations' at each run's own state, so it "
                "measures how far the approximated motion strays): max |Delta zdd| over time and coordinates, and "
                "the largest Euclidean norm of the difference vector at one time. The paper's numbers are quoted "
                "beside ours for scale: its sedan, tires and slalom are not these.\n")
    text.append(f"Machine: {machine()}; Python {platform.python_version()}.\n")
    text.append(section("The sedan's slalom (`models/sedan.json`)",
                        "Seed 001's own manoeuvre on its own vehicle: the 15-DOF sedan (12 rods: 2 kg droplinks, "
                        "rear links of 2, 2, 4, 1, 3 kg) in a slalom at 30 m/s, steering from t = 0; "
                        "{coordinates} relative coordinates. At rod_scale 0, 0.5, 2 and 3 the spring preloads and the "
                        "chassis' start attitude follow the rods' weight, so every mass starts in steady running.",
                        *sedan, 1, args.repeats))
    text.append(section("A rod-heavy corner (`models/rod_corner.json`)",
                        "The rear five-link corner alone, its five rods (Table 9's 2, 2, 4, 1, 3 kg) on a 450 kg "
                        "quarter chassis with a passenger car's unsprung masses, over a harmonic road (20 mm, 2 Hz): "
                        "{coordinates} relative coordinates. This is the table ctest asserts "
                        "(`tests/physics/rod_extrapolation_test.cpp`).", *corner, 4, args.repeats))
    text.append("## Reading the tables\n")
    text.append("The extrapolations' remainders are O(h), O(h^2) and O(h^3) (seed 001 eqs. 34, 37, 40), and so are "
                "the differences: the fitted slopes of log max |Delta zdd| over log h. Until an extrapolation has "
                "its points (the first one to three steps) the rods stay exact. Massless rods give the exact "
                "formulation to the last bit (the partitioned system equals the exact one when the rods weigh "
                "nothing); the difference grows with the rods' mass, in proportion where the rods are a small part "
                "of what they move: on the corner within 12% from half to three times Table 9's masses, the "
                "sedan's point extrapolation within 10%. The sedan's linear and quadratic differences grow faster "
                "than the mass at two and three times it (1.25x and 1.6-1.8x proportional): there the rear rods "
                "(24 and 36 kg a side) approach and pass the rear upright and wheel (35 kg), so the motion they are "
                "approximated on changes with their mass, and the start leaves 0.3 mm and 0.35 mrad of settling "
                "at three times (the preload and attitude lines are exact at 0 and 1); these differences follow "
                "the accelerations' third and fourth derivatives, which both raise. The two causes are not "
                "separated here. Issue 20's 20% is asserted on the corner.\n")
    text.append("Seed 001's saving (about 10%) comes from a sparser, narrower mass matrix in its semi-recursive "
                "formulation, where the rods' coupling fills blocks between subsystems. Myriad's reduction forms "
                "the ndof x ndof matrix of Kane's equations in the independent speeds (seed 004 sec. 3), where a "
                "rod's coupling block costs the same few dot products per pair of columns as its diagonal blocks "
                "and the dense factorization is the same either way, while the extrapolation adds the history's "
                "bookkeeping; the saving is what Table 6 measures (here: the sedan 0.1-2.5% faster, the corner 0-1.3% "
                "slower; seed 001: 9-10%).\n")
    text = "\n".join(text)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
