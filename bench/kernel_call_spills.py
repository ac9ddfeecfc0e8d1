#!/usr/bin/env python3
"""Compiles bench/probes/kernel_call_spills.cu (the quarter car's dynamics; one DOPRI5 step holding 0..30 doubles
across its calls of them; the bare DOPRI5 loop), or with --source another file of kernels such as
kernels/model_kernels.cu (the kernels compiled on one model), for sm_90 at several register caps and tabulates
ptxas' report: registers, stack, the kernel's own spills, and the spill stores of each device function it calls out
of line, with ptxas' own compile time per cap. Issue 19's evidence for what keeps the model kernels over 128
registers (bench/results/kernel_resources.md). Needs nvcc only, no GPU. The probe lies outside CMake's bench/*.cu
(it has no main) and out of CI's build: compiling it takes about as long as every kernel file of the library
together (cuda_build_time.md); this script is its build.

    python3 bench/kernel_call_spills.py [--nvcc PATH] [--caps 255,128,112,96,80] [--source FILE] [--md FILE]
"""
from __future__ import annotations

import argparse
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

from kernel_resources import demangle, emit, ptxas_entries, readable, short

REPO = pathlib.Path(__file__).resolve().parents[1]
PROBE = "bench/probes/kernel_call_spills.cu"


def compile_at(nvcc: str, source: str, cap: int, out_dir: str) -> str:
    """ptxas' verbose report for `source` (relative to the repository) compiled with at most `cap` registers a
    thread, with the library's include directories and its Release flags for device code."""
    command = [nvcc, "-std=c++17", "-O3", "-DNDEBUG", "--expt-relaxed-constexpr", f"-I{REPO / 'src'}",
               f"-I{REPO / 'kernels'}", "--generate-code=arch=compute_90,code=sm_90", "-Xptxas=-v",
               f"-maxrregcount={cap}", "-c", str(REPO / source), "-o", str(pathlib.Path(out_dir) / f"probe_{cap}.o")]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"kernel_call_spills.py: nvcc failed at -maxrregcount={cap}:\n{done.stderr}")
    return done.stderr


def callee_name(mangled: str) -> str:
    """A device function's short name: its last qualified component without template arguments."""
    name = short(demangle([mangled])[0])
    while (bare := re.sub(r"<[^<>]*>", "", name)) != name:  # innermost template arguments first
        name = bare
    return name.split("::")[-1].split(" ")[-1] or mangled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    parser.add_argument("--caps", default="255,128,112,96,80")
    parser.add_argument("--source", default=PROBE, help="file of kernels, relative to the repository")
    parser.add_argument("--md", default=None)
    args = parser.parse_args()
    caps = [int(c) for c in args.caps.split(",")]
    version = subprocess.run([args.nvcc, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    command = f"python3 bench/kernel_call_spills.py --caps {args.caps}"
    if args.source != PROBE:
        command += f" --source {args.source}"
    lines = [f"nvcc: {version[-1] if version else '?'}; command: `{command}`", "",
             "| kernel | register cap | registers | stack (B) | spill stores / loads (B) | out-of-line callees' spill "
             "stores (B) |", "| --- | ---: | ---: | ---: | ---: | --- |"]
    with tempfile.TemporaryDirectory() as out_dir:
        times = []
        for cap in caps:
            report = compile_at(args.nvcc, args.source, cap, out_dir)
            seconds = sum(float(t) for t in re.findall(r"Compile time = ([0-9.]+) ms", report)) / 1000.0
            times.append(f"{seconds:.0f} s at {cap}")
            for kernel in ptxas_entries(report):
                name = readable(short(demangle([kernel["name"]])[0])).replace("myriad::probe::", "").replace(
                    "myriad::cuda::fused::", "")
                callees = ", ".join(f"{callee_name(f)} {b}" for f, b in kernel["callees"].items()
                                    if not f.startswith("__internal")) or "none"
                stores, loads = kernel["spills"]
                lines.append(f"| `{name}` | {cap} | {kernel.get('registers', '?')} | {kernel.get('stack', '?')} | "
                             f"{stores} / {loads} | {callees} |")
    lines += ["", f"ptxas' compile time (its report, summed over the file's functions): {', '.join(times)}"]
    emit(lines, args.md)


if __name__ == "__main__":
    main()
