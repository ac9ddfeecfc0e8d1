"""Gymnasium's env checker on the single-environment views, and the vector envs' batched spaces."""
import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

import myriad.gym  # noqa: E402


@pytest.mark.parametrize("name", ["active_suspension", "cart_pole"])
def test_check_env_passes_on_the_single_view(name):
    env = myriad.gym.make_single(name)
    check_env(env, skip_render_check=True)


def test_registered_ids_make_the_envs():
    env = gymnasium.make("myriad/CartPole-v0")
    obs, _ = env.reset(seed=0)
    assert obs.shape == (4,)
    vec = gymnasium.make_vec("myriad/ActiveSuspension-v0", num_envs=5, vectorization_mode="vector_entry_point")
    obs, _ = vec.reset(seed=0)
    assert obs.shape == (5, 4)


@pytest.mark.parametrize("cls, obs_dim", [(myriad.gym.ActiveSuspensionVecEnv, 4), (myriad.gym.CartPoleVecEnv, 4)])
def test_vector_spaces_are_batched_single_spaces(cls, obs_dim):
    env = cls(6)
    assert env.num_envs == 6
    assert env.single_observation_space.shape == (obs_dim,)
    assert env.observation_space.shape == (6, obs_dim)
    obs, info = env.reset(seed=1)
    assert obs in env.observation_space and info == {}
    env.action_space.seed(0)
    obs, rew, term, trunc, info = env.step(env.action_space.sample())
    assert obs.shape == (6, obs_dim) and rew.shape == term.shape == trunc.shape == (6,)
    assert rew.dtype == np.float64 and term.dtype == trunc.dtype == np.bool_


def test_active_suspension_truncates_at_the_horizon_and_terminates_at_the_travel_limit():
    env = myriad.gym.ActiveSuspensionVecEnv(2, autoreset_mode=gymnasium.vector.AutoresetMode.DISABLED)
    env.reset(seed=4)
    force = np.array([[0.0], [2500.0]])  # env 1 pulls the masses together until the bump stop
    ended = np.zeros(2, dtype=bool)
    for k in range(env.max_episode_steps):
        obs, rew, term, trunc, _ = env.step(force)
        if term[1] and not ended[1]:
            assert obs[1, 1] < -env.travel_limit
        ended |= term
        if term[1]:
            break
    assert ended[1]
    env = myriad.gym.ActiveSuspensionVecEnv(1)
    env.reset(seed=4)
    for k in range(env.max_episode_steps):
        obs, rew, term, trunc, _ = env.step(np.zeros((1, 1)))
        assert not term[0]
        assert trunc[0] == (k == env.max_episode_steps - 1)
        # reward is -(w_a a^2 + w_t tire^2 + w_f F^2)
        assert rew[0] == pytest.approx(-(obs[0, 0] ** 2 + 1e4 * obs[0, 3] ** 2), rel=1e-12)
