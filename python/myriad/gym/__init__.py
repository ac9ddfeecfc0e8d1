"""Batched Gymnasium environments on Myriad (Gymnasium 1.x vector API).

    import myriad.gym
    envs = myriad.gym.ActiveSuspensionVecEnv(num_envs=1024)        # a gymnasium.vector.VectorEnv
    obs, info = envs.reset(seed=0)
    obs, reward, terminated, truncated, info = envs.step(envs.action_space.sample())
    env = myriad.gym.make_single("cart_pole")                      # a gymnasium.Env (one environment)

Registered ids (gymnasium.make / gymnasium.make_vec with vectorization_mode="vector_entry_point"):
"myriad/ActiveSuspension-v0", "myriad/CartPole-v0".
"""
from __future__ import annotations

import gymnasium

from .active_suspension import ActiveSuspensionVecEnv
from .cart_pole import CartPoleVecEnv
from .single import SingleEnv
from .vector_env import MyriadVectorEnv

ENVIRONMENTS = {"active_suspension": ActiveSuspensionVecEnv, "cart_pole": CartPoleVecEnv}


def make_vec(name: str, num_envs: int = 1, **kwargs) -> MyriadVectorEnv:
    """The vector env `name` ("active_suspension" or "cart_pole") with num_envs environments."""
    if name not in ENVIRONMENTS:
        raise ValueError(f"unknown environment '{name}' (known: {', '.join(ENVIRONMENTS)})")
    return ENVIRONMENTS[name](num_envs, **kwargs)


def make_single(name: str, env_id: int = 0, **kwargs) -> SingleEnv:
    """One environment of `name` as a gymnasium.Env (the vector env's environment `env_id`, autoreset disabled)."""
    if name not in ENVIRONMENTS:
        raise ValueError(f"unknown environment '{name}' (known: {', '.join(ENVIRONMENTS)})")
    return SingleEnv(ENVIRONMENTS[name], env_id=env_id, **kwargs)


def _register():
    for env_id, name in (("myriad/ActiveSuspension-v0", "active_suspension"),
                         ("myriad/CartPole-v0", "cart_pole")):
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(id=env_id, entry_point=lambda name=name, **kwargs: make_single(name, **kwargs),
                           vector_entry_point=ENVIRONMENTS[name], disable_env_checker=True)


_register()

__all__ = ["ActiveSuspensionVecEnv", "CartPoleVecEnv", "MyriadVectorEnv", "SingleEnv", "make_vec", "make_single",
           "ENVIRONMENTS"]
