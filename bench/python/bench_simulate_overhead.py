#!/usr/bin/env python3
"""Python myriad.simulate against the CLI on the quarter-car study (models/quarter_car.json with the 1024 rows of
models/quarter_car_study.csv, the model's own integrator settings, cpu backend): wall time of each (best of
--repeat runs; the CLI's includes process start, model load and writing its CSV, the Python call's only the call)
and whether the results are the same (the CLI's CSV parsed back against result.values, bit for bit: the CSV prints
17 significant digits).

    PYTHONPATH=build-py/python MYRIAD_CLI=build/myriad python3 bench/python/bench_simulate_overhead.py [--md FILE]
"""
from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

import myriad

REPO = Path(__file__).resolve().parents[2]


def machine():
    cpu = "unknown"
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"{cpu}, nproc {os.cpu_count()}, {platform.system()} {platform.release()}, Python "
            f"{platform.python_version()}, load average {load} (1, 5, 15 min) at the end")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", default=os.environ.get("MYRIAD_CLI", str(REPO / "build" / "myriad")))
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--md", help="append a markdown table to this file")
    args = parser.parse_args()
    model_path = REPO / "models" / "quarter_car.json"
    study = REPO / "models" / "quarter_car_study.csv"
    threads = args.threads or os.cpu_count()

    py_times, py_compute, cli_times, cli_compute = [], [], [], []
    model = myriad.load_model(str(model_path))
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        result = myriad.simulate(model, params=str(study), backend="cpu", threads=threads)
        py_times.append(time.perf_counter() - t0)
        py_compute.append(result.wall_seconds)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.csv"
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            run = subprocess.run([args.cli, "simulate", str(model_path), "--params", str(study), "--backend", "cpu",
                                  "--threads", str(threads), "--out", str(out)], check=True, capture_output=True,
                                 text=True)
            cli_times.append(time.perf_counter() - t0)
            # the CLI's own report: "wall time: W s (compute C s, write X s)"
            found = re.search(r"compute ([0-9.]+) s", run.stdout + run.stderr)
            cli_compute.append(float(found.group(1)) if found else float("nan"))
        csv = np.loadtxt(out, delimiter=",", skiprows=1)
    n, t, s = result.values.shape
    cli_values = csv[:, 2:].reshape(n, t, s)
    same = bool(np.array_equal(cli_values, result.values))
    max_diff = float(np.max(np.abs(cli_values - result.values)))
    lines = [f"Machine: {machine()}.", "",
             f"Quarter-car study: {n} instances x {t} output times x {s} signals, cpu backend, {threads} threads, "
             f"best of {args.repeat}.", "",
             "| path | wall [s] |", "| --- | ---: |",
             f"| Python myriad.simulate (in-process, result shared with C++) | {min(py_times):.3f} |",
             f"| CLI myriad simulate --out (process, load, run, write CSV) | {min(cli_times):.3f} |",
             f"| C++ run time inside the Python call (result.wall_seconds) | {min(py_compute):.3f} |",
             f"| CLI compute time (its own report, without load and CSV writing) | {min(cli_compute):.3f} |", "",
             f"Python overhead around the C++ run (call wall - result.wall_seconds, best run): "
             f"{min(w - c for w, c in zip(py_times, py_compute)) * 1e3:.1f} ms.", "",
             f"Same result: {'yes, bit for bit' if same else f'NO (max |diff| {max_diff:.3e})'}."]
    text = "\n".join(lines)
    print(text)
    if args.md:
        with open(args.md, "a") as fh:
            fh.write(text + "\n")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
