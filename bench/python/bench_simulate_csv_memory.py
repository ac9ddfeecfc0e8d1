#!/usr/bin/env python3
"""Peak resident memory of `myriad simulate --out FILE.csv` against the instance count: the quarter car
(models/quarter_car.json, DOPRI5, to t = 1 s, every output at 1 kHz: 1001 times x 13 outputs, 104 KB of values an
instance) written in chunks (`--chunk 100`), and in one piece (`--summary` asks for the whole ensemble's
statistics, which keeps every series in memory, as every CSV run did before chunks). Each run is a fresh process;
its peak RSS comes from wait4(2). The CSVs are deleted after each run. Standard library only.

    python3 bench/python/bench_simulate_csv_memory.py --cli build/myriad [--sizes 500,1000,2000] [--md FILE]
"""
from __future__ import annotations

import argparse
import os
import pathlib
import platform
import subprocess
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parents[2]


def run(command: list[str]) -> tuple[float, float]:
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed: {child.stderr.read().decode()}")
    return usage.ru_maxrss / 1024.0, seconds  # ru_maxrss is in KiB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", default=str(REPO / "build" / "myriad"))
    parser.add_argument("--sizes", default="500,1000,2000")
    parser.add_argument("--md", default=None, help="append the table to this Markdown file")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        out = pathlib.Path(folder) / "out.csv"
        for n in (int(s) for s in args.sizes.split(",")):
            base = [args.cli, "simulate", str(REPO / "models" / "quarter_car.json"), "--instances", str(n),
                    "--t-end", "1", "--dt-out", "0.001", "--quiet", "--out", str(out)]
            for mode, extra in (("chunks of 100", ["--chunk", "100"]),
                                ("one piece (--summary)", ["--summary", str(pathlib.Path(folder) / "s.csv")])):
                rss, seconds = run(base + extra)
                size = out.stat().st_size / 2**20
                out.unlink()
                rows.append((n, mode, rss, seconds, size))
                print(f"N = {n:6d}  {mode:22s}  peak RSS {rss:8.1f} MiB  {seconds:6.2f} s  CSV {size:8.1f} MiB",
                      flush=True)
    table = ["| N | --out written | peak RSS [MiB] | wall [s] | CSV [MiB] |", "| --- | --- | --- | --- | --- |"]
    table += [f"| {n} | {mode} | {rss:.1f} | {seconds:.2f} | {size:.0f} |" for n, mode, rss, seconds, size in rows]
    text = (f"\nMachine: {platform.node()}, {os.cpu_count()} CPUs; command: `python3 "
            f"bench/python/bench_simulate_csv_memory.py --cli {args.cli} --sizes {args.sizes}`\n\n" + "\n".join(table) + "\n")
    print(text)
    if args.md:
        with open(args.md, "a") as f:
            f.write(text)


if __name__ == "__main__":
    main()
