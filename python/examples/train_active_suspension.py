#!/usr/bin/env python3
"""Trains a linear active-suspension controller on myriad.gym's ActiveSuspensionVecEnv with augmented random
search (ARS V1-t, Mania, Guy and Recht 2018), numpy only, and compares it with the passive suspension (zero force)
on held-out roads.

Policy: F = clip(theta . (obs / OBS_SCALE)) * FORCE_SCALE, obs = (sprung acceleration, suspension deflection,
suspension deflection rate, tire deflection). Each iteration evaluates theta +- nu delta_k for n_directions random
directions on the same n_roads roads (common random numbers: equal env ids and seed), all in one vector env of
2 n_directions n_roads environments, and moves theta along the best directions' return differences. The return of
an episode is the sum of the env's rewards plus a penalty of TERMINATION_PENALTY per step lost when the suspension
hits its travel limit (the env ends the episode there).

Held-out evaluation: n_eval roads from a seed never used in training; KPIs over every step of every episode:
comfort = RMS sprung acceleration [m/s^2], road holding = RMS tire deflection [m], also RMS suspension deflection
and RMS force.

    python3 python/examples/train_active_suspension.py            # full run (the recorded result)
    python3 python/examples/train_active_suspension.py --short    # CI: a few iterations, small batches
"""
from __future__ import annotations

import argparse
import json
import time

import numpy as np
from gymnasium.vector import AutoresetMode

import myriad.gym

OBS_SCALE = np.array([1.0, 0.01, 0.1, 0.005])  # m/s^2, m, m/s, m
FORCE_SCALE = 100.0  # N
TERMINATION_PENALTY = 10.0  # per step not lived (a typical step reward is about -0.1)


def policy_forces(theta, obs, force_limit):
    """theta: (n, 4) per-environment gains; obs: (n, 4). Returns (n, 1) forces."""
    return np.clip(np.einsum("nk,nk->n", theta, obs / OBS_SCALE) * FORCE_SCALE, -force_limit, force_limit)[:, None]


def rollout(env, theta, seed):
    """Runs one full episode in every environment of `env` with gains theta (num_envs x 4). Returns the returns
    (num_envs,) and the per-step arrays of observations (steps, n, 4) and forces (steps, n) while alive, and the
    alive mask (steps, n)."""
    obs, _ = env.reset(seed=seed)
    n, steps = env.num_envs, env.max_episode_steps
    alive = np.ones(n, dtype=bool)
    returns = np.zeros(n)
    trace_obs = np.zeros((steps, n, 4))
    trace_force = np.zeros((steps, n))
    trace_alive = np.zeros((steps, n), dtype=bool)
    for k in range(steps):
        force = policy_forces(theta, obs, env.force_limit)
        obs, reward, terminated, truncated, _ = env.step(force)
        returns += np.where(alive, reward, 0.0)
        trace_obs[k], trace_force[k], trace_alive[k] = obs, force[:, 0], alive
        lost = alive & terminated
        returns -= np.where(lost, TERMINATION_PENALTY * (steps - 1 - k), 0.0)
        alive &= ~(terminated | truncated)
    return returns, trace_obs, trace_force, trace_alive


def kpis(trace_obs, trace_force, trace_alive):
    a = trace_obs[..., 0][trace_alive]
    return {"rms_sprung_accel": float(np.sqrt(np.mean(a ** 2))),
            "rms_tire_deflection": float(np.sqrt(np.mean(trace_obs[..., 3][trace_alive] ** 2))),
            "rms_suspension_deflection": float(np.sqrt(np.mean(trace_obs[..., 1][trace_alive] ** 2))),
            "rms_force": float(np.sqrt(np.mean(trace_force[trace_alive] ** 2))),
            "terminated_episodes": int(np.sum(~trace_alive[-1])),
            "episodes": int(trace_alive.shape[1])}


def train(iterations, n_directions, n_best, n_roads, step_size, noise, seed, threads, log):
    env = myriad.gym.ActiveSuspensionVecEnv(2 * n_directions * n_roads, threads=threads,
                                            env_ids=np.tile(np.arange(n_roads), 2 * n_directions),
                                            autoreset_mode=AutoresetMode.NEXT_STEP)
    rng = np.random.default_rng(seed)
    theta = np.zeros(4)
    history = []
    for it in range(iterations):
        delta = rng.standard_normal((n_directions, 4))
        candidates = np.concatenate([theta + noise * delta, theta - noise * delta])  # (2 n_dir, 4)
        gains = np.repeat(candidates, n_roads, axis=0)
        returns, *_ = rollout(env, gains, seed=1_000_000 + seed * 10_000 + it)
        per_candidate = returns.reshape(2 * n_directions, n_roads).mean(axis=1)
        r_plus, r_minus = per_candidate[:n_directions], per_candidate[n_directions:]
        best = np.argsort(-np.maximum(r_plus, r_minus))[:n_best]
        sigma = np.std(np.concatenate([r_plus[best], r_minus[best]])) + 1e-12
        theta = theta + step_size / (n_best * sigma) * ((r_plus[best] - r_minus[best])[:, None] * delta[best]).sum(0)
        history.append(float(per_candidate.mean()))
        log(f"iteration {it + 1:3d}: mean return {per_candidate.mean():10.3f}  theta {np.array2string(theta, precision=3)}")
    env.close()
    return theta, history


def evaluate(theta, n_eval, seed, threads):
    env = myriad.gym.ActiveSuspensionVecEnv(2 * n_eval, threads=threads,
                                            env_ids=np.tile(np.arange(n_eval), 2))
    gains = np.concatenate([np.zeros((n_eval, 4)), np.tile(theta, (n_eval, 1))])
    returns, trace_obs, trace_force, trace_alive = rollout(env, gains, seed=seed)
    env.close()
    passive = kpis(trace_obs[:, :n_eval], trace_force[:, :n_eval], trace_alive[:, :n_eval])
    trained = kpis(trace_obs[:, n_eval:], trace_force[:, n_eval:], trace_alive[:, n_eval:])
    passive["mean_return"], trained["mean_return"] = float(returns[:n_eval].mean()), float(returns[n_eval:].mean())
    return passive, trained


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--short", action="store_true", help="a few small iterations (CI)")
    parser.add_argument("--iterations", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=0, help="simulator threads (0: all)")
    parser.add_argument("--json", help="write the result to this file")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    if args.short:
        config = dict(iterations=4, n_directions=4, n_best=2, n_roads=2, step_size=0.3, noise=0.3, n_eval=8)
    else:
        config = dict(iterations=40, n_directions=16, n_best=8, n_roads=8, step_size=0.2, noise=0.2, n_eval=64)
    if args.iterations is not None:
        config["iterations"] = args.iterations
    log = (lambda s: None) if args.quiet else (lambda s: print(s, flush=True))
    start = time.perf_counter()
    theta, history = train(config["iterations"], config["n_directions"], config["n_best"], config["n_roads"],
                           config["step_size"], config["noise"], args.seed, args.threads, log)
    train_seconds = time.perf_counter() - start
    held_out_seed = 987_654_321 + args.seed  # never a training seed
    passive, trained = evaluate(theta, config["n_eval"], held_out_seed, args.threads)
    result = {"config": config, "seed": args.seed, "theta": theta.tolist(), "obs_scale": OBS_SCALE.tolist(),
              "force_scale": FORCE_SCALE, "train_seconds": train_seconds, "history": history,
              "held_out_seed": held_out_seed, "passive": passive, "trained": trained,
              "comfort_improvement": 1.0 - trained["rms_sprung_accel"] / passive["rms_sprung_accel"],
              "road_holding_ratio": trained["rms_tire_deflection"] / passive["rms_tire_deflection"]}
    log(f"passive: RMS a_s {passive['rms_sprung_accel']:.4f} m/s^2, RMS tire deflection "
        f"{passive['rms_tire_deflection'] * 1e3:.4f} mm")
    log(f"trained: RMS a_s {trained['rms_sprung_accel']:.4f} m/s^2, RMS tire deflection "
        f"{trained['rms_tire_deflection'] * 1e3:.4f} mm, RMS force {trained['rms_force']:.1f} N")
    log(f"comfort improvement {100 * result['comfort_improvement']:.1f}%, road holding ratio "
        f"{result['road_holding_ratio']:.3f} (<= 1 is equal or better); training {train_seconds:.1f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)
    return result


if __name__ == "__main__":
    main()
