"""A gymnasium.Env over one environment of a Myriad vector env (num_envs = 1, autoreset disabled), for tools
that expect a single environment (gymnasium.utils.env_checker.check_env, gymnasium.make)."""
from __future__ import annotations

import numpy as np
import gymnasium
from gymnasium.vector import AutoresetMode


class SingleEnv(gymnasium.Env):
    metadata = {"render_modes": []}

    def __init__(self, vector_env_class, env_id: int = 0, **kwargs):
        kwargs.pop("render_mode", None)
        self.vector_env = vector_env_class(1, env_ids=[env_id], autoreset_mode=AutoresetMode.DISABLED, **kwargs)
        self.observation_space = self.vector_env.single_observation_space
        self.action_space = self.vector_env.single_action_space
        self.render_mode = None

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is None and not self.vector_env._seeded[0]:
            # the first unseeded reset takes its key from np_random, seeded from entropy by Env.reset
            seed = int(self.np_random.integers(0, 2**63))
        obs, info = self.vector_env.reset(seed=seed, options=options)
        return obs[0], info

    def step(self, action):
        batched = np.asarray(action)[None, ...]
        obs, reward, terminated, truncated, info = self.vector_env.step(batched)
        return obs[0], float(reward[0]), bool(terminated[0]), bool(truncated[0]), {}

    def close(self):
        self.vector_env.close()
