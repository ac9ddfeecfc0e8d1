"""Active suspension on the quarter car (active_suspension.json, shipped in myriad/gym/models/ as a copy of models/).

Action: the actuator force F [N] between sprung and unsprung mass, a Box of shape (1,) in [-2500, 2500] (the
model input's bounds); positive F is tension, pulling the two masses together (sprung mass down, wheel up).

Observation (float64, shape (4,)):
  0. a_s: sprung-mass vertical acceleration [m/s^2] (0 at rest; the car starts in static equilibrium),
  1. suspension deflection [m]: suspension length minus its static length (positive = extended),
  2. suspension deflection rate [m/s] (positive = extending),
  3. tire deflection [m]: static tire length minus tire length (positive = compressed more than at rest).
Static lengths come from each episode's parameters: l0_s - m_s g / k_s and l0_t - (m_s + m_u) g / k_t.

Reward per step: -(w_accel a_s^2 + w_tire tire_deflection^2 + w_force F^2) with the defaults
w_accel = 1 (m/s^2)^-2, w_tire = 1e4 m^-2 (1 cm of tire deflection costs as much as 1 m/s^2), w_force = 1e-8 N^-2
(2500 N costs 0.0625): comfort first, road holding kept, force almost free but bounded.

Episodes: a road per episode (myriad.gym.road: ISO 8608 classes `road_classes` at `speed`), drawn into the
table parameters r0..rK of the model; truncation at the horizon (max_episode_steps = horizon / dt, 500 steps of
0.01 s by default); termination when the suspension deflection leaves [-travel_limit, travel_limit]
(0.08 m: the bump stops) or an instance's integration fails.

Domain randomization of any model parameter (randomize=...); the free lengths l0_s, l0_t are recomputed from the
drawn m_s, m_u, k_s, k_t so that every episode starts in static equilibrium with 0.3 m static lengths.
"""
from __future__ import annotations

import numpy as np
import gymnasium
from gymnasium.vector import AutoresetMode

from .models import model_path
from .road import road_profiles
from .vector_env import MyriadVectorEnv

GRAVITY = 9.81
STATIC_LENGTH = 0.3  # m, both the suspension and the tire at rest


class ActiveSuspensionVecEnv(MyriadVectorEnv):
    def __init__(self, num_envs: int = 1, *, physics_dt: float = 0.01, decimation: int = 1,
                 env_ids=None, autoreset_mode=AutoresetMode.NEXT_STEP, randomize=None, parameters=None,
                 road_classes=("A", "B", "C"), speed: float = 20.0, travel_limit: float = 0.08,
                 w_accel: float = 1.0, w_tire: float = 1e4, w_force: float = 1e-8,
                 backend: str = "cpu", threads: int = 0, integrator=None, h=None, rtol=None, atol=None,
                 model=None):
        model = model if model is not None else model_path("active_suspension.json")
        super().__init__(model, num_envs, physics_dt=physics_dt, decimation=decimation, max_episode_steps=1,
                         env_ids=env_ids, autoreset_mode=autoreset_mode, randomize=randomize, parameters=parameters,
                         backend=backend, threads=threads, integrator=integrator, h=h, rtol=rtol, atol=atol)
        road = sorted((n for n in self.parameter_names if n[:1] == "r" and n[1:].isdigit()), key=lambda n: int(n[1:]))
        self._road_columns = np.array([self._parameter_index[n] for n in road])
        grid = 0.05
        self.road_times = grid * np.arange(len(road))
        self.horizon = float(self.road_times[-1])
        self.max_episode_steps = int(round(self.horizon / self.dt))
        self.road_classes = tuple(road_classes)
        self.speed = float(speed)
        self.travel_limit = float(travel_limit)
        self.weights = (float(w_accel), float(w_tire), float(w_force))
        self.force_limit = float(model_upper(self.model))
        self._set_spaces(
            gymnasium.spaces.Box(-np.inf, np.inf, shape=(4,), dtype=np.float64),
            gymnasium.spaces.Box(-self.force_limit, self.force_limit, shape=(1,), dtype=np.float64))

    def _episode_parameters(self, p, rows):
        g = GRAVITY
        m_s, m_u = p[:, self._parameter_index["m_s"]], p[:, self._parameter_index["m_u"]]
        k_s, k_t = p[:, self._parameter_index["k_s"]], p[:, self._parameter_index["k_t"]]
        p[:, self._parameter_index["l0_s"]] = STATIC_LENGTH + m_s * g / k_s
        p[:, self._parameter_index["l0_t"]] = STATIC_LENGTH + (m_s + m_u) * g / k_t
        p[:, self._parameter_index["z_s0"]] = 2 * STATIC_LENGTH
        p[:, self._parameter_index["q_u0"]] = -STATIC_LENGTH
        p[:, self._road_columns] = road_profiles(self.road_times, self.speed, self.road_classes,
                                                 self._seeds[rows], self.env_ids[rows], self._episodes[rows])
        return p

    def _initial_states(self, p, rows):
        n = len(rows)
        return np.stack([np.full(n, 2 * STATIC_LENGTH), np.full(n, -STATIC_LENGTH), np.zeros(n), np.zeros(n)], 1)

    def road_heights(self):
        """The current episode's road table (num_envs x len(road_times)) [m]."""
        return self.parameters[:, self._road_columns].copy()

    def _inputs(self, actions):
        a = np.asarray(actions, dtype=np.float64).reshape(self.num_envs, 1)
        return np.clip(a, -self.force_limit, self.force_limit)

    def _observation(self, signals, p):
        g = GRAVITY
        m_s, m_u = p[:, self._parameter_index["m_s"]], p[:, self._parameter_index["m_u"]]
        k_s, k_t = p[:, self._parameter_index["k_s"]], p[:, self._parameter_index["k_t"]]
        static_s = p[:, self._parameter_index["l0_s"]] - m_s * g / k_s
        static_t = p[:, self._parameter_index["l0_t"]] - (m_s + m_u) * g / k_t
        return np.stack([self.signal(signals, "a_s"),
                         self.signal(signals, "susp_length") - static_s,
                         -self.signal(signals, "susp_rate"),
                         static_t - self.signal(signals, "tire_length")], axis=1)

    def _reward(self, obs, signals, inputs):
        w_a, w_t, w_f = self.weights
        return -(w_a * obs[:, 0] ** 2 + w_t * obs[:, 3] ** 2 + w_f * inputs[:, 0] ** 2)

    def _terminated(self, obs, signals):
        return np.abs(obs[:, 1]) > self.travel_limit


def model_upper(model):
    names = list(model.input_names)
    return np.asarray(model.input_upper, dtype=np.float64)[names.index("force")]
