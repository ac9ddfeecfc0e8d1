#!/usr/bin/env python3
"""Where an integration step's time goes on the cpu backend (issue 19, "profile first"): the stiff double pendulum
(seed 000 sec 5.1) and the spatial chain with RN4, the quarter car with RN4 and DOPRI5, one thread, counted by
valgrind's callgrind (instructions, not seconds: repeatable whatever else the machine does).

Each case runs twice, with N and 2N instances; the difference is what N instances cost, so loading, compiling and
writing nothing (no --out) fall away. Instructions are attributed to the source file of the code that executed them,
inlined code included (callgrind keeps the inlined file of each line), and the files are grouped into the stages
of a step. Needs a build with debug line tables, e.g.

    cmake -S . -B build-prof -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O3 -DNDEBUG -g" \\
          -DMYRIAD_CUDA=OFF -DMYRIAD_BUILD_PYTHON=OFF -DMYRIAD_BUILD_TESTS=OFF -DMYRIAD_BUILD_BENCH=OFF
    ninja -C build-prof myriad
    python3 bench/profile_rn4_step.py --cli build-prof/myriad [--md bench/results/rn4_step_profile.md]

Standard library only (and valgrind, callgrind_annotate on PATH).
"""
from __future__ import annotations

import argparse
import collections
import os
import pathlib
import platform
import re
import subprocess
import tempfile

REPO = pathlib.Path(__file__).resolve().parents[1]

# (label, model, flags, instances N)
CASES = [
    ("stiff double pendulum, RN4, rtol 1e-6, 2 s", "stiff_double_pendulum.json",
     ["--integrator", "rn4", "--rtol", "1e-6", "--atol", "1e-6"], 4),
    ("quarter car (bump), RN4, rtol 1e-6, 3 s", "quarter_car.json", ["--integrator", "rn4", "--rtol", "1e-6"], 4),
    ("quarter car (bump), DOPRI5, rtol 1e-7, 3 s", "quarter_car.json", ["--integrator", "dopri5"], 4),
    ("spatial chain (9 bodies), RN4, rtol 1e-6, 2 s", "spatial_chain.json",
     ["--integrator", "rn4", "--rtol", "1e-6", "--atol", "1e-8"], 2),
]

# Function (the non-inlined symbol that executed the instructions, with what was inlined into it) -> stage of a
# step, first match wins. Dual-number instantiations are the Jacobian passes (seed 000's exact Jacobians by
# forward-mode differentiation of the same recursions).
STAGES = [
    ("Jacobian passes (the dynamics on dual numbers)", [r"Dual<"]),
    ("output recording (signals, energies, KPIs)",
     [r"output_signal", r"SignalRecorder", r"kinetic_energy", r"potential_energy", r"kpi_", r"record"]),
    ("mass matrix (CRBA)", [r"mass_matrix", r"composite"]),
    ("forward dynamics (ABA), kinematics, forces",
     [r"articulated", r"tree_kinematics", r"inertia_to_a", r"chart_to_q", r"small_spd", r"applied_forces", r"joint",
      r"spatial", r"force", r"tree_", r"time_function", r"road", r"bushing", r"tire"]),
    ("iteration matrix Pi and its LU", [r"lu_", r"_lu", r"dense_lu", r"factor", r"solve"]),
    ("Rosenbrock / RK stages and error control",
     [r"rn4", r"rosenbrock", r"ros2w", r"dopri", r"rk4", r"error_norm", r"step_control", r"integrate"]),
    ("libm (sin, cos, exp, ...)", [r"s_sin\.c", r"sincos", r"e_exp", r"e_log", r"e_pow", r"s_atan", r"libm"]),
    ("instance loop and dispatch", [r"advance_instance", r"simulate_instance", r"run_worker", r"cpu_runner"]),
    ("allocation, runtime, other", [r".*"]),
]


def callgrind(cli: str, model: str, flags: list[str], n: int, folder: pathlib.Path) -> tuple[dict[str, int], int]:
    out = folder / f"cg.{n}.out"
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--dump-instr=no", cli, "simulate",
               str(REPO / "models" / model), "--instances", str(n), "--threads", "1", "--backend", "cpu", "--quiet",
               "--stats", *flags]
    run = subprocess.run(command, capture_output=True, text=True, check=True)
    steps = sum(int(m) for m in re.findall(r"^steps: (\d+)", run.stdout, re.M))
    annotated = subprocess.run(["callgrind_annotate", "--threshold=100", "--inclusive=no", "--auto=no", str(out)],
                               capture_output=True, text=True, check=True).stdout
    # Lines "Ir (share)  file:function [object]": the file is where the executed line lives (inlined code keeps
    # its own), the function the symbol it was compiled into.
    by_place: dict[str, int] = collections.Counter()
    for line in annotated.splitlines():
        m = re.match(r"^\s*([\d,]+)\s+\([^)]*\)\s+(\S.*)$", line)
        if not m or "PROGRAM TOTALS" in line:
            continue
        by_place[m.group(2)] += int(m.group(1).replace(",", ""))
    return by_place, steps


def stage_of(place: str) -> str:
    function = place.split(":", 1)[1] if ":" in place else place
    for stage, patterns in STAGES:
        if any(re.search(p, function) or re.search(p, place.split(":", 1)[0]) for p in patterns):
            return stage
    return STAGES[-1][0]


def short(place: str) -> str:
    """file:function without the argument lists, the object and the build path."""
    place = re.sub(r" \[.*\]$", "", place)
    place = re.sub(r"^.*?layers/[a-z_]+/", "", place)
    depth, out = 0, []
    for c in place:  # drop everything inside (...) and <...> after the function name
        if c in "(<":
            depth += 1
        elif c in ")>":
            depth -= 1
        elif depth == 0:
            out.append(c)
    return "".join(out)[:110]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", default=str(REPO / "build-prof" / "myriad"))
    parser.add_argument("--md", default=None, help="write the tables to this Markdown file")
    args = parser.parse_args()
    lines = [f"Machine: {platform.node()}, {os.cpu_count()} CPUs; counted by valgrind's callgrind (instructions); "
             f"command: `python3 bench/profile_rn4_step.py --cli {args.cli}`", ""]
    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp)
        for label, model, flags, n in CASES:
            small, steps_small = callgrind(args.cli, model, flags, n, folder)
            large, steps_large = callgrind(args.cli, model, flags, 2 * n, folder)
            steps = steps_large - steps_small
            stages: dict[str, int] = collections.Counter()
            places: dict[str, int] = collections.Counter()
            for place in set(small) | set(large):
                cost = large.get(place, 0) - small.get(place, 0)
                stages[stage_of(place)] += cost
                places[short(place)] += cost
            total = sum(stages.values())
            lines += [f"### {label}", "",
                      f"{n} instances: {steps} accepted steps, {total / max(steps, 1):,.0f} instructions per step.", "",
                      "| stage | instructions per step | share |", "| --- | ---: | ---: |"]
            for stage, _ in STAGES:
                if stages.get(stage, 0) > 0:
                    lines.append(f"| {stage} | {stages[stage] / max(steps, 1):,.0f} | {100 * stages[stage] / total:.1f}% |")
            lines += ["", "Top places (the executed line's file : the function it was compiled into):", "",
                      "| place | share |", "| --- | ---: |"]
            for place, cost in places.most_common(10):
                if cost > 0:
                    lines.append(f"| `{place}` | {100 * cost / total:.1f}% |")
            lines.append("")
            print("\n".join(lines[-30:]), flush=True)
    text = "\n".join(lines) + "\n"
    if args.md:
        pathlib.Path(args.md).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
