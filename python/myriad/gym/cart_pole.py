"""Cart-pole from a Myriad model file (cart_pole.json, shipped in myriad/gym/models/ as a copy of models/cart_pole.json)

Same as CartPole-v1: masscart 1.0, masspole 0.1, length 0.5 (half the pole), gravity 9.8, force_mag 10,
tau = 0.02 s per step, observation [x, x_dot, theta, theta_dot], reward 1 per step, termination when |x| > 2.4 or
|theta| > 12 degrees, truncation after 500 steps, initial state uniform in [-0.05, 0.05]^4 (from the counter-based
draws, not np_random). Action: Discrete(2) (0 pushes with -10 N, 1 with +10 N) as CartPole-v1, or with
continuous=True a Box [-10, 10] of shape (1,).

How it differs from Gymnasium's CartPole-v1: Gymnasium advances its continuous equations (a cart with a uniform
rod of half-length l, the 4/3 factor) by one explicit Euler step of tau = 0.02 s (kinematics_integrator="euler";
"semi-implicit euler" is the other option), which is first-order accurate: its theta after a second of free fall
from 0.05 rad differs from the exact solution by about 1e-2 rad. Myriad integrates the same equations, derived
from the model's bodies and joints, with an adaptive method to the model's tolerances (dopri5, rtol 1e-10) --
the trajectory of the continuous system. Observations are float64 (Gymnasium: float32).
"""
from __future__ import annotations

import math

import numpy as np
import gymnasium
from gymnasium.vector import AutoresetMode

from . import randomness
from .models import model_path
from .vector_env import MyriadVectorEnv


class CartPoleVecEnv(MyriadVectorEnv):
    x_threshold = 2.4
    theta_threshold_radians = 12 * 2 * math.pi / 360
    force_mag = 10.0

    def __init__(self, num_envs: int = 1, *, physics_dt: float = 0.02, decimation: int = 1, env_ids=None,
                 autoreset_mode=AutoresetMode.NEXT_STEP, randomize=None, parameters=None, continuous=False,
                 max_episode_steps: int = 500, backend: str = "cpu", threads: int = 0, integrator=None, h=None,
                 rtol=None, atol=None, model=None):
        model = model if model is not None else model_path("cart_pole.json")
        super().__init__(model, num_envs, physics_dt=physics_dt, decimation=decimation,
                         max_episode_steps=max_episode_steps, env_ids=env_ids, autoreset_mode=autoreset_mode,
                         randomize=randomize, parameters=parameters, backend=backend, threads=threads,
                         integrator=integrator, h=h, rtol=rtol, atol=atol)
        self.continuous = bool(continuous)
        high = np.array([self.x_threshold * 2, np.inf, self.theta_threshold_radians * 2, np.inf])
        action_space = (gymnasium.spaces.Box(-self.force_mag, self.force_mag, shape=(1,), dtype=np.float64)
                        if self.continuous else gymnasium.spaces.Discrete(2))
        self._set_spaces(gymnasium.spaces.Box(-high, high, dtype=np.float64), action_space)

    def _episode_parameters(self, p, rows):
        m, l = p[:, self._parameter_index["masspole"]], p[:, self._parameter_index["length"]]
        p[:, self._parameter_index["pole_inertia"]] = m * (2 * l) ** 2 / 12
        return p

    def _initial_states(self, p, rows):
        u = randomness.uniform(self._seeds[rows], self.env_ids[rows], self._episodes[rows],
                               randomness.INITIAL_STATE + np.arange(4))
        x, x_dot, theta, theta_dot = (-0.05 + 0.1 * u).T
        return np.stack([x, theta, x_dot, theta_dot], axis=1)  # q = (x, theta), v = (x_dot, theta_dot)

    def _inputs(self, actions):
        if self.continuous:
            a = np.asarray(actions, dtype=np.float64).reshape(self.num_envs, 1)
            return np.clip(a, -self.force_mag, self.force_mag)
        a = np.asarray(actions).reshape(self.num_envs)
        if not np.isin(a, (0, 1)).all():
            raise ValueError(f"CartPole actions must be 0 or 1, got {a}")
        return np.where(a == 1, self.force_mag, -self.force_mag).reshape(self.num_envs, 1)

    def _observation(self, signals, p):
        return np.stack([self.signal(signals, n) for n in ("x", "x_dot", "theta", "theta_dot")], axis=1)

    def _reward(self, obs, signals, inputs):
        return np.ones(self.num_envs)

    def _terminated(self, obs, signals):
        return (np.abs(obs[:, 0]) > self.x_threshold) | (np.abs(obs[:, 2]) > self.theta_threshold_radians)
