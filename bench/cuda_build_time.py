#!/usr/bin/env python3
"""Seconds nvcc takes over each CUDA file of the kernel library, with the build's own commands: issue 19's measure of
the CUDA part of CI's build (CI configures on a machine without a GPU, so the kernels compile to compute_90 PTX
without device optimization; a build with -DCMAKE_CUDA_ARCHITECTURES=90 measures the full sm_90 compile instead).
Such a check-only build compiles the kernel files as one unit (build/kernels_one_unit.cu, MYRIAD_CUDA_ONE_UNIT):
configure with -DMYRIAD_CUDA_ONE_UNIT=OFF to time them one by one.

    python3 bench/cuda_build_time.py --build build [--md FILE]

Each command runs alone, one after another, into a temporary directory (the build's objects are left as they
are), so the sum is the serial CPU time of the CUDA part; `ninja -j2` overlaps two files at a time. Run it on a
quiet machine: it measures wall time. Standard library only.
"""
from __future__ import annotations

import argparse
import os
import pathlib
import platform
import re
import shlex
import subprocess
import tempfile
import time


def cpu_model() -> str:
    for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown CPU"


def git_commit(repo: pathlib.Path) -> str:
    result = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return result.stdout.strip() + (" (with uncommitted changes)" if dirty else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", required=True, help="a configured build directory (Ninja)")
    parser.add_argument("--md", default=None)
    args = parser.parse_args()
    build = pathlib.Path(args.build).resolve()
    commands = subprocess.run(["ninja", "-C", str(build), "-t", "commands", "myriad_kernels"], capture_output=True,
                              text=True, check=True).stdout.splitlines()
    compiles = [c for c in commands if re.search(r"\s-c\s+\S+\.cu\s", c + " ")]
    if not compiles:
        raise SystemExit(f"cuda_build_time.py: {build} builds no CUDA kernels (configured without nvcc?)")
    source_root = None
    rows, total = [], 0.0
    with tempfile.TemporaryDirectory() as scratch:
        for index, command in enumerate(compiles):
            words = shlex.split(command)
            source = words[words.index("-c") + 1]
            source_root = source_root or pathlib.Path(source).parents[1]
            kept, skip = [], 0
            for i, word in enumerate(words):
                if skip:
                    skip -= 1
                elif word in ("-MT", "-MF"):
                    skip = 1
                elif word == "-MD":
                    continue
                elif word == "-o":
                    skip = 1
                else:
                    kept.append(word)
            kept += ["-o", os.path.join(scratch, f"{index}.o")]
            start = time.perf_counter()
            result = subprocess.run(kept, cwd=build, capture_output=True, text=True)
            seconds = time.perf_counter() - start
            if result.returncode != 0:
                raise SystemExit(f"cuda_build_time.py: {source} failed to compile:\n{result.stderr[-2000:]}")
            rows.append((pathlib.Path(source).name, seconds))
            total += seconds
    arch = re.search(r"--generate-code=(\S+)", compiles[0])
    options = [o for o in ("-Ofc=max", "-O3", "-Xptxas=-v") if o in compiles[0]]
    version = subprocess.run([shlex.split(compiles[0])[0], "--version"], capture_output=True,
                             text=True).stdout.strip().splitlines()[-1]
    lines = [f"Commit {git_commit(source_root)}; {cpu_model()}, {os.cpu_count()} cores; {version}; "
             f"{arch.group(1) if arch else 'default architecture'}, {' '.join(options) or 'no extra options'}.",
             f"Command: `python3 bench/cuda_build_time.py --build {args.build}`", "",
             "| file | seconds |", "| --- | ---: |"]
    lines += [f"| `{name}` | {seconds:.2f} |" for name, seconds in rows]
    lines.append(f"| **all {len(rows)} files, one after another** | **{total:.1f}** |")
    text = "\n".join(lines) + "\n"
    if args.md:
        pathlib.Path(args.md).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
