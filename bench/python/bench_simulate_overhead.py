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
    return f"{cpu}, nproc {os.cpu_count()}, {platform.system()} {platform.release()}, Python {platform.python_version()}"


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

    py_times, cli_times = [], []
    model = myriad.load_model(str(model_path))
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        result = myriad.simulate(model, params=str(study), backend="cpu", threads=threads)
        py_times.append(time.perf_counter() - t0)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.csv"
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            subprocess.run([args.cli, "simulate", str(model_path), "--params", str(study), "--backend", "cpu",
                            "--threads", str(threads), "--out", str(out), "--quiet"], check=True)
            cli_times.append(time.perf_counter() - t0)
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
             f"| C++ run time inside the Python call (result.wall_seconds) | {result.wall_seconds:.3f} |", "",
             f"Same result: {'yes, bit for bit' if same else f'NO (max |diff| {max_diff:.3e})'}."]
    text = "\n".join(lines)
    print(text)
    if args.md:
        with open(args.md, "a") as fh:
            fh.write(text + "\n")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
