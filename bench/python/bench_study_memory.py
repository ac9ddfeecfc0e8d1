#!/usr/bin/env python3
"""Peak resident memory of `myriad study` against the instance count: a quarter-car KPI study of
models/quarter_car_road.json (k_s uniform, c_s normal by tolerance, Latin hypercube; the model's ten named KPIs
computed on line), and the same study keeping two series (body acceleration and travel) at 100 Hz, on the cpu
backend, at N = 10^4, 10^5, 10^6 by default. The integration is coarse (DOPRI5, rtol 1e-3, to t = 1.2 s, outputs
at 100 Hz) because this measures memory against N, not the KPIs: a 10^6 run then takes minutes, not an hour. Each run is a fresh process; its
peak RSS comes from wait4(2) (the kernel's ru_maxrss of that child alone). The issue's bound: below 1 GB, flat in N.
Standard library only.

    python3 bench/python/bench_study_memory.py --cli build/myriad [--sizes 10000,100000,1000000] [--md FILE]
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import platform
import subprocess
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parents[2]


def study(n: int, series: bool, output: str) -> dict:
    spec = {
        "model": str(REPO / "models" / "quarter_car_road.json"),
        "parameters": [
            {"name": "k_s", "distribution": "uniform", "lower": 10000, "upper": 40000},
            {"name": "c_s", "distribution": "normal", "nominal": 1500, "tolerance": 300},
        ],
        "sampler": {"type": "latin_hypercube", "samples": n, "seed": 1},
        "simulation": {"t_end": 1.2, "rtol": 1e-3, "atol": 1e-5, "dt_out": 0.01, "backend": "cpu"},
        "output": output,
    }
    if series:
        spec["series"] = {"signals": ["a_b", "travel"], "dt": 0.01}
    return spec


def run(cli: str, spec: dict, folder: pathlib.Path) -> tuple[float, float, str]:
    path = folder / "study.json"
    path.write_text(json.dumps(spec))
    start = time.perf_counter()
    child = subprocess.Popen([cli, "study", str(path), "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    out = child.stdout.read().decode()
    err = child.stderr.read().decode()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"myriad study failed ({status}): {err}")
    return usage.ru_maxrss / 1024.0, seconds, out  # ru_maxrss is in KiB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", default=str(REPO / "build" / "myriad"))
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--series-sizes", default=None, help="sizes of the series runs (default: --sizes)")
    parser.add_argument("--md", default=None, help="append the table to this Markdown file")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    series_sizes = [int(s) for s in (args.series_sizes or args.sizes).split(",")]
    rows = []
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as tmp:
        folder = pathlib.Path(tmp)
        for series, ns in ((False, sizes), (True, series_sizes)):
            for n in ns:
                output = str(folder / "results.h5")
                rss, seconds, out = run(args.cli, study(n, series, output), folder)
                size = os.path.getsize(output) / 2**20
                rows.append((n, "KPIs + 2 series at 100 Hz" if series else "KPIs only", rss, seconds, size))
                print(f"N = {n:>8}  {rows[-1][1]:<26} peak RSS {rss:8.1f} MiB  {seconds:8.1f} s  file {size:8.1f} MiB",
                      flush=True)
                for p in folder.glob("results*"):
                    p.unlink()
    lines = [
        f"Machine: {platform.node()}, {os.cpu_count()} CPUs ({platform.processor() or platform.machine()}); command: "
        f"`python3 bench/python/bench_study_memory.py --cli {args.cli} --sizes {args.sizes}"
        + (f" --series-sizes {args.series_sizes}" if args.series_sizes else "") + "`",
        "",
        "| instances | kept | peak RSS (MiB) | wall time (s) | results file (MiB) |",
        "| ---: | --- | ---: | ---: | ---: |",
    ]
    lines += [f"| {n} | {kind} | {rss:.1f} | {seconds:.1f} | {size:.1f} |" for n, kind, rss, seconds, size in rows]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.md:
        with open(args.md, "a", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()
