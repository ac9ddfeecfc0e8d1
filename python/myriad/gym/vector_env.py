"""Batched Gymnasium environments over myriad.Simulator (Gymnasium 1.x vector API).

One myriad.Simulator holds the num_envs environments as instances; an environment step sets the inputs of all of
them, advances every instance `decimation` times by `physics_dt` (each instance integrates with its own method and
step size; the action is held over the whole step) and observes the model's output signals.

Autoreset follows gymnasium.vector.AutoresetMode (https://farama.org/Vector-Autoreset-Mode) exactly as
gymnasium.vector.SyncVectorEnv implements it:

* NEXT_STEP (default): the step after an episode ended (terminated or truncated) resets that environment instead
  of stepping it: its action is ignored, it returns the new episode's first observation with reward 0 and
  terminated = truncated = False.
* SAME_STEP: the step that ends an episode resets the environment at once and returns the new episode's first
  observation; the ended episode's last observation is in info["final_obs"] (an object array, None for the other
  environments) and its info in info["final_info"], with the masks info["_final_obs"] and info["_final_info"].
* DISABLED: nothing is reset automatically; the caller resets ended environments with
  reset(options={"reset_mask": mask}) (a bool array of shape (num_envs,) with at least one True); stepping while an
  ended environment has not been reset raises.

Randomness. Every draw (domain randomization, roads, initial states) is keyed by (seed, env_id, episode) through
myriad.philox_uniform / philox_normal (myriad.gym.randomness). env_ids default to 0..num_envs-1; giving them
explicitly (a permutation, or one id of a larger batch) reproduces exactly the episodes those environments have in
any other batch, since instances never influence each other; environments given the same id (and seed) see the same
draws, e.g. the same road for every candidate policy of a search (common random numbers). reset(seed=s) keys
every reset environment by s (not s + i as SyncVectorEnv does: the env id already separates environments) and
restarts its episode count at 0;
reset(seed=None) and every autoreset start the environment's next episode (episode + 1). A list of seeds gives one
seed per environment (None: keep counting).

Domain randomization: randomize = {parameter name: {"dist": "uniform", "low": a, "high": b} |
{"dist": "loguniform", "low": a, "high": b} | {"dist": "normal", "mean": m, "std": s[, "low": a, "high": b]}},
drawn once per episode per environment; the other parameters keep the model's values (or `parameters`).
"""
from __future__ import annotations

from typing import Any

import numpy as np
import gymnasium
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

import myriad

from . import randomness


class MyriadVectorEnv(VectorEnv):
    """Base class: subclasses define the spaces and the hooks `_inputs`, `_observation`, `_reward`, `_terminated`,
    and optionally `_episode_parameters` (after the base's draws) and `_initial_states`."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, model, num_envs: int, *, physics_dt: float, decimation: int = 1, max_episode_steps: int,
                 env_ids=None, autoreset_mode=AutoresetMode.NEXT_STEP, randomize=None, parameters=None,
                 backend: str = "cpu", threads: int = 0, integrator=None, h=None, rtol=None, atol=None):
        if isinstance(model, str) or hasattr(model, "__fspath__"):
            model = myriad.load_model(str(model))
        self.model = model
        self.num_envs = int(num_envs)
        if self.num_envs < 1:
            raise ValueError(f"num_envs must be >= 1, got {num_envs}")
        if not (physics_dt > 0 and np.isfinite(physics_dt)):
            raise ValueError(f"physics_dt must be positive, got {physics_dt}")
        if int(decimation) < 1:
            raise ValueError(f"decimation must be >= 1, got {decimation}")
        self.physics_dt = float(physics_dt)
        self.decimation = int(decimation)
        self.dt = self.physics_dt * self.decimation
        self.max_episode_steps = int(max_episode_steps)
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.metadata = dict(self.metadata)
        self.metadata["autoreset_mode"] = self.autoreset_mode
        ids = np.arange(self.num_envs, dtype=np.uint64) if env_ids is None else np.asarray(env_ids)
        if ids.shape != (self.num_envs,) or (ids.dtype.kind == "i" and (ids < 0).any()) or ids.dtype.kind not in "iu":
            raise ValueError(f"env_ids must be {self.num_envs} non-negative integers")
        self.env_ids = ids.astype(np.uint64)  # equal ids see equal draws (common random numbers)

        self.parameter_names = list(model.parameter_names)
        self._parameter_index = {n: k for k, n in enumerate(self.parameter_names)}
        self.signal_names = list(model.signal_names)
        self._signal_index = {n: k for k, n in enumerate(self.signal_names)}
        base = np.asarray(model.parameter_defaults, dtype=np.float64).copy()
        for name, value in (parameters or {}).items():
            if name not in self._parameter_index:
                raise ValueError(f"parameters: unknown parameter '{name}'")
            base[self._parameter_index[name]] = float(value)
        self._base_parameters = base
        self.distributions = randomness.check_distributions(randomize, self.parameter_names)

        self.sim = myriad.Simulator(model, instances=self.num_envs, backend=backend, threads=threads,
                                    integrator=integrator, h=h, rtol=rtol, atol=atol)
        self.parameters = np.tile(base, (self.num_envs, 1))  # current episode's parameters (num_envs x P)
        self._seeds = np.zeros(self.num_envs, dtype=np.uint64)
        self._episodes = np.zeros(self.num_envs, dtype=np.uint64)
        self._seeded = np.zeros(self.num_envs, dtype=bool)
        self._steps = np.zeros(self.num_envs, dtype=np.int64)
        self._autoreset_envs = np.zeros(self.num_envs, dtype=bool)
        self._observations = None
        self._has_reset = False

    # ---- spaces: subclasses call this with their single spaces ----
    def _set_spaces(self, single_observation_space, single_action_space):
        self.single_observation_space = single_observation_space
        self.single_action_space = single_action_space
        self.observation_space = batch_space(single_observation_space, self.num_envs)
        self.action_space = batch_space(single_action_space, self.num_envs)

    # ---- hooks ----
    def _episode_parameters(self, parameters, rows):
        """Derived parameters of a new episode for the environments `rows` (parameters: len(rows) x P, the DR
        draws already in). Returns the array."""
        return parameters

    def _initial_states(self, parameters, rows):
        """Initial (q, v) of a new episode (len(rows) x (nq + nv)), or None for the model's initial state."""
        return None

    def _inputs(self, actions):
        raise NotImplementedError

    def _observation(self, signals, parameters):
        raise NotImplementedError

    def _reward(self, observations, signals, inputs):
        raise NotImplementedError

    def _terminated(self, observations, signals):
        raise NotImplementedError

    # ---- helpers ----
    def signal(self, signals, name):
        return signals[:, self._signal_index[name]]

    def parameter(self, name, parameters=None):
        p = self.parameters if parameters is None else parameters
        return p[:, self._parameter_index[name]]

    @property
    def episodes(self):
        """Episode number of each environment (its key in the random draws)."""
        return self._episodes.copy()

    @property
    def seeds(self):
        return self._seeds.copy()

    def _reset_rows(self, mask):
        """Restarts the environments in `mask` with their current (seed, episode) keys."""
        rows = np.flatnonzero(mask)
        p = np.tile(self._base_parameters, (len(rows), 1))
        randomness.draw_parameters(p, self.distributions, self._seeds[rows], self.env_ids[rows], self._episodes[rows])
        p = self._episode_parameters(p, rows)
        self.parameters[rows] = p
        states = self._initial_states(p, rows)
        full_states = None
        if states is not None:
            full_states = np.zeros((self.num_envs, states.shape[1]))
            full_states[rows] = states
        self.sim.reset(mask=mask.copy(), params=self.parameters.copy(), states=full_states)
        self._steps[rows] = 0

    def _observe(self):
        signals = np.asarray(self.sim.observe())
        return signals, self._observation(signals, self.parameters)

    # ---- Gymnasium API ----
    def reset(self, *, seed=None, options=None):
        options = dict(options or {})
        mask = np.ones(self.num_envs, dtype=bool)
        if "reset_mask" in options:
            mask = options.pop("reset_mask")
            if not isinstance(mask, np.ndarray):
                raise TypeError(f"`options['reset_mask']` must be a numpy array, got {type(mask)}")
            if mask.shape != (self.num_envs,):
                raise ValueError(f"`options['reset_mask']` must have shape `({self.num_envs},)`, got {mask.shape}")
            if mask.dtype != np.bool_:
                raise TypeError(f"`options['reset_mask']` must have `dtype=np.bool_`, got {mask.dtype}")
            if not mask.any():
                raise ValueError("`options['reset_mask']` must contain a boolean array with at least one True value, "
                                 f"got reset_mask={mask}")
            if not self._has_reset and not mask.all():
                raise RuntimeError("the first reset must reset every environment")
        if options:
            raise ValueError(f"reset: unknown options {sorted(options)}")
        if seed is None:
            seeds = [None] * self.num_envs
        elif isinstance(seed, (int, np.integer)):
            seeds = [int(seed)] * self.num_envs
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"If seeds are passed as a list the length must match num_envs={self.num_envs} "
                                 f"but got length={len(seeds)}.")
        for i in np.flatnonzero(mask):
            s = seeds[i]
            if s is not None:
                if int(s) < 0:
                    raise ValueError(f"seed must be non-negative, got {s}")
                self._seeds[i] = np.uint64(int(s) % (1 << 64))
                self._episodes[i] = 0
                self._seeded[i] = True
            elif not self._seeded[i]:
                self._seeds[i] = np.uint64(np.random.SeedSequence().entropy % (1 << 64))
                self._episodes[i] = 0
                self._seeded[i] = True
            else:
                self._episodes[i] += np.uint64(1)
        self._reset_rows(mask)
        self._autoreset_envs[mask] = False
        _, obs = self._observe()
        if self._observations is None:
            self._observations = obs
        else:
            self._observations[mask] = obs[mask]
        self._has_reset = True
        return self._observations.copy(), {}

    def step(self, actions):
        if not self._has_reset:
            raise RuntimeError("call reset() before step()")
        if self.autoreset_mode == AutoresetMode.DISABLED and self._autoreset_envs.any():
            raise RuntimeError(
                "autoreset_mode is DISABLED and environments "
                f"{np.flatnonzero(self._autoreset_envs).tolist()} ended: reset them with "
                "reset(options={'reset_mask': mask}) before stepping")
        inputs = self._inputs(actions)
        self.sim.set_inputs(np.ascontiguousarray(inputs, dtype=np.float64))
        for _ in range(self.decimation):
            self.sim.advance(self.physics_dt)
        signals, obs = self._observe()
        reward = np.asarray(self._reward(obs, signals, inputs), dtype=np.float64)
        failed = np.asarray(self.sim.status) != 0
        terminated = np.asarray(self._terminated(obs, signals), dtype=bool) | failed
        self._steps += 1
        truncated = (self._steps >= self.max_episode_steps) & ~terminated
        infos: dict[str, Any] = {}
        if failed.any():
            infos["sim_failed"] = failed.copy()
            infos["_sim_failed"] = failed.copy()

        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            pending = self._autoreset_envs
            if pending.any():
                self._episodes[pending] += np.uint64(1)
                self._reset_rows(pending)
                signals, fresh = self._observe()
                obs[pending] = fresh[pending]
                reward[pending] = 0.0
                terminated[pending] = False
                truncated[pending] = False
                for key in [k for k in infos if not k.startswith("_")]:
                    infos[key][pending] = False
                    infos["_" + key][pending] = False
            self._autoreset_envs = terminated | truncated
        elif self.autoreset_mode == AutoresetMode.SAME_STEP:
            done = terminated | truncated
            if done.any():
                final_obs = np.full(self.num_envs, None, dtype=object)
                for i in np.flatnonzero(done):
                    final_obs[i] = obs[i].copy()
                final_info = {k: v.copy() for k, v in infos.items()}
                infos["final_obs"], infos["_final_obs"] = final_obs, done.copy()
                infos["final_info"], infos["_final_info"] = final_info, done.copy()
                self._episodes[done] += np.uint64(1)
                self._reset_rows(done)
                _, fresh = self._observe()
                obs[done] = fresh[done]
        else:
            self._autoreset_envs = terminated | truncated
        self._observations = obs
        return obs.copy(), reward, terminated, truncated, infos

    def close_extras(self, **kwargs):
        self.sim = None
