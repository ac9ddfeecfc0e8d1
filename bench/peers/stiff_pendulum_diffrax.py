#!/usr/bin/env python3
"""Myriad RN4 beside diffrax Kvaerno5 (jit + vmap over instances) on seed 000's stiff double pendulum ensemble
(issue 19's acceptance: at least 3x faster at matched accuracy, 2x at equal tolerance), one core each.

The ensemble: models/stiff_double_pendulum.json, t = 0..2 s, N instances with k2 spread +-20% (k2 = 3e5 (0.8 +
0.4 i / (N - 1))), the state saved every 0.01 s (201 times). Myriad runs as a user runs it (`myriad simulate
--params ... --threads 1 --signals theta1_dot --out`: the one signal diffrax returns, the model's other ten
outputs neither computed nor written; best of two runs per --lanes value: 1 is one instance at a time, 4 the
default, four instances in the core's vector lanes with the same bits), timed by its own compute time; diffrax's
ODE is the same planar double pendulum written out by hand (relative joint angles, slender-rod inertias, the
springs' shortest initial deflections of seed-notes.md), jitted and vmapped, timed after a warm-up call
(compilation excluded), with XLA held to one thread. Both processes are pinned to one core (taskset).

Accuracy is the max |theta1-dot| error over the saved times and over a subset of instances, against a reference
solved by diffrax Kvaerno5 at rtol = atol = 1e-12 (checked against a Myriad run at 1e-10: if the two references
disagree by more than 1e-7 the script stops, since then the peer would not solve Myriad's problem). Matched
accuracy: diffrax's time at the tolerance whose error is nearest Myriad's, log-interpolated between the two
tolerances that bracket it.

    bench/peers/run.sh stiff_pendulum_diffrax.py --cli build-bench/myriad [--instances 1000] [--lanes 1,4]
        [--tolerances 1e-6,1e-5,1e-7,1e-8] [--md FILE]
"""
from __future__ import annotations

import argparse
import csv
import math
import os
import pathlib
import platform
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parents[2]
MODEL = REPO / "models" / "stiff_double_pendulum.json"
T_END, DT_OUT = 2.0, 0.01


def pin_to_one_core() -> None:
    os.environ["XLA_FLAGS"] = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
    os.environ["OMP_NUM_THREADS"] = "1"
    try:
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    except (AttributeError, OSError):
        pass


pin_to_one_core()
import jax  # noqa: E402  (after the thread settings)

jax.config.update("jax_enable_x64", True)
import diffrax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

# Seed 000 sec 5.1 as models/stiff_double_pendulum.json states it.
M1, M2, A1, L1, A2, I1, I2, G = 3.0, 0.3, 1.0, 2.0, 1.5, 1.0, 0.225, 9.81
K1, C1, C2 = 400.0, 15.0, 5e4
Q1_ZERO, Q2_ZERO = -math.pi / 2, 2 * math.pi  # zero-tension angles after the shortest initial deflections
Y0 = jnp.array([0.0, 6.021385919380436, 0.0, 10.0])


def vector_field(t, y, k2):
    q1, q2, w1, w2 = y
    c2, s2 = jnp.cos(q2), jnp.sin(q2)
    m11 = I1 + M1 * A1**2 + I2 + M2 * (L1**2 + A2**2 + 2 * L1 * A2 * c2)
    m12 = I2 + M2 * (A2**2 + L1 * A2 * c2)
    m22 = I2 + M2 * A2**2
    h = M2 * L1 * A2 * s2
    g1 = (M1 * A1 + M2 * L1) * G * jnp.cos(q1) + M2 * A2 * G * jnp.cos(q1 + q2)
    g2 = M2 * A2 * G * jnp.cos(q1 + q2)
    tau1 = -K1 * (q1 - Q1_ZERO) - C1 * w1
    tau2 = -k2 * (q2 - Q2_ZERO) - C2 * w2
    r1 = tau1 + h * (2 * w1 * w2 + w2**2) - g1
    r2 = tau2 - h * w1**2 - g2
    det = m11 * m22 - m12 * m12
    return jnp.array([w1, w2, (m22 * r1 - m12 * r2) / det, (m11 * r2 - m12 * r1) / det])


def diffrax_solver(rtol: float, atol: float):
    ts = jnp.linspace(0.0, T_END, int(round(T_END / DT_OUT)) + 1)

    def solve(k2):
        sol = diffrax.diffeqsolve(diffrax.ODETerm(vector_field), diffrax.Kvaerno5(), 0.0, T_END, 1e-5, Y0,
                                  args=k2, saveat=diffrax.SaveAt(ts=ts),
                                  stepsize_controller=diffrax.PIDController(rtol=rtol, atol=atol),
                                  max_steps=1_000_000)
        return sol.ys[:, 2], sol.stats["num_accepted_steps"]

    return jax.jit(jax.vmap(solve))


def run_diffrax(k2: np.ndarray, rtol: float, atol: float, repeats: int = 2):
    solve = diffrax_solver(rtol, atol)
    theta1_dot, steps = solve(jnp.asarray(k2))  # compile and warm up
    theta1_dot.block_until_ready()
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        theta1_dot, steps = solve(jnp.asarray(k2))
        theta1_dot.block_until_ready()
        best = min(best, time.perf_counter() - start)
    return best, np.asarray(theta1_dot), float(np.mean(steps))


def run_myriad(cli: str, k2: np.ndarray, rtol: float, atol: float, folder: pathlib.Path, lanes: int = 4):
    params = folder / "k2.csv"
    params.write_text("k2\n" + "".join(f"{float(x)!r}\n" for x in k2))
    out = folder / "myriad.csv"
    cmd = ["taskset", "-c", str(sorted(os.sched_getaffinity(0))[0]), cli, "simulate", str(MODEL), "--params",
           str(params), "--threads", "1", "--integrator", "rn4", "--rtol", str(rtol), "--atol", str(atol),
           "--dt-out", str(DT_OUT), "--t-end", str(T_END), "--lanes", str(lanes), "--signals", "theta1_dot",
           "--out", str(out), "--stats"]
    run = subprocess.run(cmd, capture_output=True, text=True)
    text = run.stdout + run.stderr
    if run.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{text}")
    compute = float(text.split("compute ")[1].split(" s")[0])
    steps = float(text.split("steps per instance: min ")[1].split("mean ")[1].split()[0])
    with out.open() as f:
        reader = csv.DictReader(f)
        rows = list(reader)
    n_times = int(round(T_END / DT_OUT)) + 1
    theta1_dot = np.zeros((len(k2), n_times))
    for row in rows:
        i = int(row["instance"])
        j = int(round(float(row["time"]) / DT_OUT))
        theta1_dot[i, j] = float(row["theta1_dot"])
    return compute, theta1_dot, steps, " ".join(cmd)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", default=str(REPO / "build-bench" / "myriad"))
    parser.add_argument("--instances", type=int, default=1000)
    parser.add_argument("--check", type=int, default=20, help="instances the accuracy is measured on")
    parser.add_argument("--lanes", default="1,4", help="Myriad's --lanes values, one run each")
    parser.add_argument("--tolerances", default="1e-6",
                        help="Myriad's rtol = atol values (the last --lanes value); the first is the equal-tolerance "
                             "comparison, each gives a matched-accuracy one")
    parser.add_argument("--md", default=None)
    args = parser.parse_args()
    n = args.instances
    k2 = 3e5 * (0.8 + 0.4 * np.arange(n) / max(n - 1, 1))
    check = np.linspace(0, n - 1, min(args.check, n)).astype(int)

    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp)
        _, reference, _ = run_diffrax(k2[check], 1e-12, 1e-12, repeats=1)
        _, myriad_reference, _, _ = run_myriad(args.cli, k2[check], 1e-10, 1e-10, folder)
        agreement = np.max(np.abs(reference - myriad_reference))
        if agreement > 1e-7:
            sys.exit(f"the peer's tight solution differs from Myriad's by {agreement:.2e} in theta1-dot: not the "
                     "same problem")

        def error(theta1_dot_checked):
            return float(np.max(np.abs(theta1_dot_checked - reference)))

        rows = []
        myriad = []  # (lanes, tol, seconds, error)
        lane_values = [int(v) for v in args.lanes.split(",")]
        tolerances = [float(v) for v in args.tolerances.split(",")]
        runs_wanted = [(lanes, tolerances[0]) for lanes in lane_values]
        runs_wanted += [(lane_values[-1], tol) for tol in tolerances[1:]]
        for lanes, tol in runs_wanted:
            # Best of two, as diffrax's timing (run_diffrax's repeats): one run alone is at the mercy of the machine.
            runs = [run_myriad(args.cli, k2, tol, tol, folder, lanes) for _ in range(2)]
            myriad_time, myriad_theta, myriad_steps, command = min(runs, key=lambda r: r[0])
            myriad_error = error(myriad_theta[check])
            rows.append((f"Myriad RN4, lanes {lanes}", tol, myriad_time, myriad_error, myriad_steps))
            myriad.append((lanes, tol, myriad_time, myriad_error))
        peer = []
        for tol in (1e-5, 1e-6, 1e-7, 1e-8, 1e-9):
            seconds, theta, steps = run_diffrax(k2, tol, tol)
            peer.append((tol, seconds, error(theta[check]), steps))
            rows.append(("diffrax Kvaerno5", tol, seconds, peer[-1][2], steps))

    def peer_time_at(target):
        for (t_a, s_a, e_a, _), (t_b, s_b, e_b, _) in zip(peer, peer[1:]):
            if min(e_a, e_b) <= target <= max(e_a, e_b) and e_a != e_b:
                w = (math.log(target) - math.log(e_a)) / (math.log(e_b) - math.log(e_a))
                return math.exp((1 - w) * math.log(s_a) + w * math.log(s_b))
        return None
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    lines = ["# Stiff double pendulum ensemble: Myriad RN4 beside diffrax Kvaerno5 (jit + vmap)", "",
             "Issue 19's acceptance: Myriad at least 3x faster at matched accuracy and 2x at equal tolerance. "
             "Written by `bench/peers/stiff_pendulum_diffrax.py` (its docstring says how each side is run).", "",
             f"Machine: {platform.node()}, {cpu}, one core (taskset; XLA one thread); jax {jax.__version__}, "
             f"diffrax {diffrax.__version__}; {n} instances, k2 +-20%, t = 0..{T_END} s, state saved every {DT_OUT} s; "
             f"error: max |theta1-dot - reference| over {len(check)} instances and all saved times; reference "
             f"diffrax Kvaerno5 at 1e-12, agreeing with Myriad RN4 at 1e-10 to {agreement:.1e}.", "",
             f"Command: `bench/peers/run.sh stiff_pendulum_diffrax.py --cli {args.cli} --instances {n} "
             f"--lanes {args.lanes} --tolerances {args.tolerances}`; Myriad as "
             f"`{command.replace(str(folder), '<tmp>')}`", "",
             "| solver | rtol = atol | seconds | per 1000 instances | max theta1-dot error | steps per instance |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for name, tol, seconds, err, steps in rows:
        lines.append(f"| {name} | {tol:.0e} | {seconds:.3f} | {1000 * seconds / n:.3f} | {err:.2e} | {steps:.0f} |")
    lines.append("")
    for lanes, tol, myriad_time, myriad_error in myriad:
        matched = peer_time_at(myriad_error)
        equal = next((s for t, s, _, _ in peer if t == tol), None)
        lines.append(f"Myriad (lanes {lanes}, {tol:.0e}) speed-up at equal tolerance: "
                     + (f"{equal / myriad_time:.2f}x" if equal else "n/a")
                     + "; at matched accuracy: "
                     + (f"{matched / myriad_time:.2f}x (diffrax's time at Myriad's error {myriad_error:.2e}, "
                        f"log-interpolated: {matched:.3f} s)" if matched
                        else "n/a (Myriad's error outside diffrax's range)"))
    print("\n".join(lines))
    if args.md:
        pathlib.Path(args.md).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
