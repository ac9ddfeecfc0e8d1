#!/usr/bin/env python3
"""Env-steps per second of myriad.gym.ActiveSuspensionVecEnv on the cpu backend (1 thread and all threads) for
N = 1, 64, 1024, 16384 environments, beside two peers on the same machine in the same run:

* MuJoCo: the same quarter car in MJCF (two slide joints in absolute coordinates; the suspension a fixed tendon
  z_s - z_u with stiffness k_s, damping c_s, spring length l0_s; the tire the unsprung joint's stiffness k_t
  about l0_t and damping c_t, the road entering as a control force k_t r + c_t r' held over each MuJoCo step at
  the step's midpoint; the active force a motor on the tendon), integrated by mujoco.rollout with RK4 at the
  same physics step as Myriad's env (h = 1 ms, 10 steps per 0.01 s env step), 1 thread and all threads;
* Gymnasium SyncVectorEnv over a small MuJoCo-based gymnasium.Env of the same MJCF (mj_step x 10 per env step).

With `--backends cpu,cuda` (a machine with a device) Myriad's env also runs on the cuda backend (the same env, its
observations copied back to NumPy each step as a user's policy reads them), and its accuracy row is added. Where
MuJoCo is not installed (the device machine's image) its columns read n/a and the table says so.

Every run drives each environment with its own road (the Myriad env's ISO 8608 draw, seed 0) and an open-loop
force F_k = 1500 sin(0.3 k + 0.1 i) (env i, step k), since mujoco.rollout takes open-loop controls.

Accuracy: environment 0 over the 5 s episode (500 env steps), both simulators against SciPy's solve_ivp (DOP853,
rtol = atol = 1e-12) of the same linear ODE with the exact piecewise-linear road and the held forces: the max
error over the env steps of the sprung position z_s and the sprung velocity v_s.

    PYTHONPATH=build-py/python python3 bench/python/bench_env_steps.py [--sizes 1,64,1024,16384] [--md FILE]
    PYTHONPATH=build-py/python python3 bench/python/bench_env_steps.py --breakdown   # Myriad's per-step costs
    PYTHONPATH=build-gpu/python python3 bench/python/bench_env_steps.py --backends cpu,cuda --sizes 1,1024,65536
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import time

import numpy as np

import myriad.gym

M_S, M_U, K_S, C_S, K_T, C_T, G = 400.0, 40.0, 25000.0, 1500.0, 200000.0, 100.0, 9.81
L0_S = 0.3 + M_S * G / K_S
L0_T = 0.3 + (M_S + M_U) * G / K_T
H = 1e-3          # physics step [s] for both simulators
ENV_DT = 0.01     # env step [s]
SUB = int(round(ENV_DT / H))

MJCF = f"""
<mujoco model="quarter_car">
  <option timestep="{H}" integrator="RK4" gravity="0 0 -{G}"/>
  <worldbody>
    <body name="sprung" pos="0 0 0">
      <joint name="z_s" type="slide" axis="0 0 1"/>
      <inertial pos="0 0 0" mass="{M_S}" diaginertia="29.6667 56.3333 69.3333"/>
    </body>
    <body name="unsprung" pos="0 0 0">
      <joint name="z_u" type="slide" axis="0 0 1" stiffness="{K_T}" springref="{L0_T}" damping="{C_T}"/>
      <inertial pos="0 0 0" mass="{M_U}" diaginertia="1.0333 1.8 1.0333"/>
    </body>
  </worldbody>
  <tendon>
    <fixed name="suspension" stiffness="{K_S}" damping="{C_S}" springlength="{L0_S}">
      <joint joint="z_s" coef="1"/>
      <joint joint="z_u" coef="-1"/>
    </fixed>
  </tendon>
  <actuator>
    <motor name="active" tendon="suspension" gear="-1"/>
    <motor name="road" joint="z_u" gear="1"/>
  </actuator>
</mujoco>
"""


def machine():
    cpu = "unknown"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, nproc {os.cpu_count()}, {platform.system()} {platform.release()}, Python {platform.python_version()}"


def forces(n, steps, offset=0):
    k = np.arange(steps)[None, :]
    i = np.arange(offset, offset + n)[:, None]
    return 1500.0 * np.sin(0.3 * k + 0.1 * i)  # n x steps


def road_at(times, road_t, heights):
    """Piecewise-linear road (n x len(times)) and its slope."""
    grid = road_t[1] - road_t[0]
    k = np.clip(np.floor(times / grid).astype(int), 0, len(road_t) - 2)
    ra, rb = heights[:, k], heights[:, k + 1]
    slope = (rb - ra) / grid
    return ra + slope * (times - road_t[k]), slope


# ---------------- Myriad ----------------
def bench_myriad(n, steps, threads, backend="cpu"):
    env = myriad.gym.ActiveSuspensionVecEnv(n, threads=threads, backend=backend)
    env.reset(seed=0)
    f = forces(n, steps)
    t0 = time.perf_counter()
    for k in range(steps):
        env.step(f[:, k:k + 1])
    wall = time.perf_counter() - t0
    return n * steps / wall, wall


def myriad_trajectory(steps, backend="cpu"):
    env = myriad.gym.ActiveSuspensionVecEnv(1, threads=1, backend=backend)
    env.reset(seed=0)
    f = forces(1, steps)
    out = []
    for k in range(steps):
        env.step(f[:, k:k + 1])
        s = env.sim.observe()[0]
        out.append((s[env.signal_names.index("z_s")], s[env.signal_names.index("v_s")]))
    return np.array(out), env.road_times, env.road_heights()


def breakdown(n=1024, seconds=1.0, repeats=3):
    """Myriad's cost per RK4 step per instance [s] (1 thread): Simulator.advance at 0.01 / 0.1 / 1.0 s per call (the
    cost of restarting the integration at each advance), with the 101-point road table, a 2-point one and no road
    motion (the cost of the table lookup), and through ActiveSuspensionVecEnv.step (the env's own work); and the
    wall time of one env step at N = 1. Each Simulator case: best of `repeats` interleaved runs."""
    from myriad.gym.models import model_path
    spec = json.loads(open(model_path("active_suspension.json")).read())

    def variant(points):
        edited = json.loads(json.dumps(spec))
        for force in edited["forces"]:
            if force["name"] == "tire":
                if points == 0:
                    force.pop("motion2")
                else:
                    force["motion2"]["function"]["points"] = force["motion2"]["function"]["points"][:points]
        return myriad.load_model_string(json.dumps(edited), name=f"road table of {points} points")

    def per_step(model, dt):
        sim = myriad.Simulator(model, instances=n, threads=1)
        sim.set_inputs(np.full((n, 1), 100.0))
        t0 = time.perf_counter()
        for _ in range(int(round(seconds / dt))):
            sim.advance(dt)
        return (time.perf_counter() - t0) / (n * seconds / H)

    full = myriad.load_model(model_path("active_suspension.json"))
    cases = [("Simulator.advance(0.01), 101-point road table (the env's model)", full, 0.01),
             ("Simulator.advance(0.1), same model (10x fewer advance restarts)", full, 0.1),
             ("Simulator.advance(1.0), same model (one advance)", full, 1.0),
             ("Simulator.advance(0.01), 2-point road table", variant(2), 0.01),
             ("Simulator.advance(0.01), no road motion (flat ground)", variant(0), 0.01)]
    # interleaved repeats, best of each: the machine may be shared
    best = [per_step(model, dt) for _, model, dt in cases]
    for _ in range(repeats - 1):
        best = [min(b, per_step(model, dt)) for b, (_, model, dt) in zip(best, cases)]
    rows = [(name, b) for (name, _, _), b in zip(cases, best)]
    env = myriad.gym.ActiveSuspensionVecEnv(n, threads=1)
    env.reset(seed=0)
    steps = int(round(seconds / ENV_DT))
    t0 = time.perf_counter()
    for _ in range(steps):
        env.step(np.zeros((n, 1)))
    env_seconds = time.perf_counter() - t0
    rows.append(("ActiveSuspensionVecEnv.step (10 substeps + observe + numpy)", env_seconds / (n * steps * SUB)))
    one = myriad.gym.ActiveSuspensionVecEnv(1, threads=1)
    one.reset(seed=0)
    t0 = time.perf_counter()
    for _ in range(500):
        one.step(np.zeros((1, 1)))
    lines = [f"Machine: {machine()}; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}.", "",
             f"| what is timed (N = {n}, 1 thread, best of {repeats}) | us per RK4 step per instance |", "| --- | ---: |"]
    lines += [f"| {name} | {value * 1e6:.2f} |" for name, value in rows]
    lines += ["", f"N = 1: {(time.perf_counter() - t0) / 500 * 1e6:.1f} us per env step (10 RK4 steps)."]
    return "\n".join(lines)


# ---------------- MuJoCo ----------------
def mujoco_setup():
    """(mujoco, model), or (None, None) where MuJoCo is not installed."""
    try:
        import mujoco
    except ImportError:
        return None, None
    model = mujoco.MjModel.from_xml_string(MJCF)
    return mujoco, model


def mujoco_controls(n, steps, road_t, heights):
    """(n, steps * SUB, 2) controls: active force held per env step, road force at each physics step's midpoint."""
    t_mid = (np.arange(steps * SUB) + 0.5) * H
    r, rd = road_at(t_mid, road_t, heights)
    ctrl = np.empty((n, steps * SUB, 2))
    ctrl[:, :, 0] = np.repeat(forces(n, steps), SUB, axis=1)
    ctrl[:, :, 1] = K_T * r + C_T * rd
    return ctrl


def mujoco_initial_state(mujoco, model, n):
    data = mujoco.MjData(model)
    data.qpos[:] = [0.6, 0.3]
    size = mujoco.mj_stateSize(model, mujoco.mjtState.mjSTATE_FULLPHYSICS)
    state = np.empty(size)
    mujoco.mj_getState(model, data, state, mujoco.mjtState.mjSTATE_FULLPHYSICS)
    return np.tile(state, (n, 1))


def bench_mujoco_rollout(mujoco, model, n, steps, threads, road_t, heights):
    from mujoco import rollout
    ctrl = mujoco_controls(n, steps, road_t, heights)
    init = mujoco_initial_state(mujoco, model, n)
    datas = [mujoco.MjData(model) for _ in range(threads)]
    t0 = time.perf_counter()
    state, _ = rollout.rollout(model, datas if threads > 1 else datas[0], init, ctrl)
    wall = time.perf_counter() - t0
    return n * steps / wall, wall, state


def bench_sync_vector_env(mujoco, model, n, steps, road_t, heights):
    import gymnasium
    from gymnasium.vector import SyncVectorEnv

    class QuarterCarMujocoEnv(gymnasium.Env):
        def __init__(self, road_heights):
            self.model = model
            self.data = mujoco.MjData(model)
            self.road_heights = road_heights[None, :]
            self.action_space = gymnasium.spaces.Box(-2500.0, 2500.0, shape=(1,), dtype=np.float64)
            self.observation_space = gymnasium.spaces.Box(-np.inf, np.inf, shape=(4,), dtype=np.float64)

        def _obs(self):
            return np.array([self.data.qacc[0], self.data.qpos[0] - self.data.qpos[1] - 0.3,
                             self.data.qvel[0] - self.data.qvel[1], 0.0])

        def reset(self, *, seed=None, options=None):
            super().reset(seed=seed)
            mujoco.mj_resetData(self.model, self.data)
            self.data.qpos[:] = [0.6, 0.3]
            return self._obs(), {}

        def step(self, action):
            self.data.ctrl[0] = action[0]
            for _ in range(SUB):
                t = self.data.time + 0.5 * H
                r, rd = road_at(np.array([t]), road_t, self.road_heights)
                self.data.ctrl[1] = K_T * r[0, 0] + C_T * rd[0, 0]
                mujoco.mj_step(self.model, self.data)
            obs = self._obs()
            return obs, -float(obs[0] ** 2), False, False, {}

    envs = SyncVectorEnv([lambda i=i: QuarterCarMujocoEnv(heights[i]) for i in range(n)])
    envs.reset(seed=0)
    f = forces(n, steps)
    t0 = time.perf_counter()
    for k in range(steps):
        envs.step(f[:, k:k + 1])
    wall = time.perf_counter() - t0
    return n * steps / wall, wall


# ---------------- reference ----------------
def reference_trajectory(steps, road_t, heights):
    from scipy.integrate import solve_ivp
    h = heights[0]
    f = forces(1, steps)[0]
    grid = road_t[1] - road_t[0]

    def rhs(t, y, force, slope, r0, t0):
        zs, zu, vs, vu = y
        r, rd = r0 + slope * (t - t0), slope
        ts = K_S * (zs - zu - L0_S) + C_S * (vs - vu) + force
        tt = K_T * (zu - r - L0_T) + C_T * (vu - rd)
        return [vs, vu, -G - ts / M_S, -G + ts / M_U - tt / M_U]

    y = np.array([0.6, 0.3, 0.0, 0.0])
    out = []
    for k in range(steps):
        ta, tb = k * ENV_DT, (k + 1) * ENV_DT
        cuts = sorted({ta, tb, *[t for t in road_t if ta < t < tb]})
        for a, b in zip(cuts[:-1], cuts[1:]):
            j = min(int(np.floor((a + 1e-12) / grid)), len(road_t) - 2)
            slope = (h[j + 1] - h[j]) / grid
            y = solve_ivp(rhs, (a, b), y, method="DOP853", rtol=1e-12, atol=1e-12,
                          args=(f[k], slope, h[j], road_t[j])).y[:, -1]
        out.append((y[0], y[2]))
    return np.array(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1,64,1024,16384")
    parser.add_argument("--target", type=float, default=3e5, help="env steps per measurement (steps = target / N)")
    parser.add_argument("--sync-max", type=int, default=1024, help="largest N for the SyncVectorEnv peer")
    parser.add_argument("--md", help="append a markdown table to this file")
    parser.add_argument("--breakdown", action="store_true", help="only Myriad's per-step cost breakdown")
    parser.add_argument("--backends", default="cpu", help="Myriad's backends: cpu, or cpu,cuda on a machine with a device")
    args = parser.parse_args()
    backends = args.backends.split(",")
    if "cpu" not in backends or not set(backends) <= {"cpu", "cuda"}:
        parser.error(f"--backends {args.backends}: cpu, or cpu,cuda")
    nan = float("nan")
    if args.breakdown:
        text = breakdown()
        print(text)
        if args.md:
            with open(args.md, "a") as fh:
                fh.write(text + "\n")
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    all_threads = os.cpu_count() or 1
    rows = []
    mujoco, mj_model = mujoco_setup()
    if mujoco is None:
        print("MuJoCo is not installed: its columns are n/a", flush=True)
    probe = myriad.gym.ActiveSuspensionVecEnv(max(sizes))
    probe.reset(seed=0)
    road_t, heights = probe.road_times, probe.road_heights()
    del probe
    for n in sizes:
        steps = int(np.clip(round(args.target / n), 20, 500))
        row = {"N": n, "steps": steps}
        row["myriad_1"], _ = bench_myriad(n, steps, 1)
        row["myriad_all"], _ = bench_myriad(n, steps, all_threads)
        if "cuda" in backends:
            bench_myriad(n, min(steps, 20), 0, "cuda")  # the kernels' first launch and the device memory, untimed
            row["myriad_cuda"], _ = bench_myriad(n, steps, 0, "cuda")
        if mujoco is None:
            row["mujoco_1"] = row["mujoco_all"] = row["sync"] = nan
            rows.append(row)
            print(row, flush=True)
            continue
        row["mujoco_1"], _, _ = bench_mujoco_rollout(mujoco, mj_model, n, steps, 1, road_t, heights[:n])
        row["mujoco_all"], _, _ = bench_mujoco_rollout(mujoco, mj_model, n, steps, all_threads, road_t, heights[:n])
        row["sync"] = (bench_sync_vector_env(mujoco, mj_model, n, min(steps, 50), road_t, heights[:n])[0]
                       if n <= args.sync_max else nan)
        rows.append(row)
        print(row, flush=True)

    steps = 500
    my, road_t1, heights1 = myriad_trajectory(steps)
    ref = reference_trajectory(steps, road_t1, heights1)
    err = {"myriad": np.abs(my - ref).max(axis=0), "mujoco": np.full(2, nan)}
    if "cuda" in backends:
        err["myriad_cuda"] = np.abs(myriad_trajectory(steps, "cuda")[0] - ref).max(axis=0)
    if mujoco is not None:
        _, _, mj_state = bench_mujoco_rollout(mujoco, mj_model, 1, steps, 1, road_t1, heights1)
        # state layout (FULLPHYSICS): time, qpos (2), qvel (2), ...; the state after each env step
        mj = mj_state[0, SUB - 1::SUB][:, [1, 3]]
        err["mujoco"] = np.abs(mj - ref).max(axis=0)
    print("max |error| vs DOP853 (z_s [m], v_s [m/s]):", err, flush=True)

    cuda = "cuda" in backends
    peers = f"MuJoCo {mujoco.__version__}" if mujoco is not None else "MuJoCo not installed here (its columns n/a)"
    device = ""
    if cuda:
        import subprocess
        query = ["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"]
        device = "; device " + subprocess.run(query, capture_output=True, text=True).stdout.strip()
    lines = [f"Machine: {machine()}{device}; {peers}.", "",
             "| N | env steps timed | Myriad 1 thread | Myriad all threads |" + (" Myriad cuda |" if cuda else "") +
             " MuJoCo rollout 1 thread | MuJoCo rollout all threads | SyncVectorEnv(MuJoCo env) |",
             "| ---: | ---: | ---: | ---: |" + (" ---: |" if cuda else "") + " ---: | ---: | ---: |"]
    for r in rows:
        lines.append(f"| {r['N']} | {r['steps']} | {r['myriad_1']:,.0f} | {r['myriad_all']:,.0f} | " +
                     (f"{r['myriad_cuda']:,.0f} | " if cuda else "") +
                     f"{r['mujoco_1']:,.0f} | {r['mujoco_all']:,.0f} | {r['sync']:,.0f} |")
    lines += ["", "env steps per second (one env step = 0.01 s of simulated time = 10 RK4 steps of 1 ms in both).", "",
              "Accuracy of environment 0 over 500 env steps (5 s), max |error| against SciPy DOP853 (rtol = atol = 1e-12):",
              "", "| simulator | z_s [m] | v_s [m/s] |", "| --- | ---: | ---: |",
              f"| Myriad (rk4, h = 1 ms, exact piecewise-linear road) | {err['myriad'][0]:.2e} | {err['myriad'][1]:.2e} |"]
    if cuda:
        lines.append(f"| Myriad on the cuda backend (the same) | {err['myriad_cuda'][0]:.2e} | {err['myriad_cuda'][1]:.2e} |")
    lines += [
              f"| MuJoCo (RK4, 1 ms, road force held per step at its midpoint) | {err['mujoco'][0]:.2e} | {err['mujoco'][1]:.2e} |"]
    text = "\n".join(lines)
    print(text)
    if args.md:
        with open(args.md, "a") as fh:
            fh.write(text + "\n")


if __name__ == "__main__":
    main()
