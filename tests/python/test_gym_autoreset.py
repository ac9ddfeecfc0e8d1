"""myriad.gym's three autoreset modes against Gymnasium's documented behaviour (gymnasium.vector.AutoresetMode,
https://farama.org/Vector-Autoreset-Mode): each mode is checked by its documented properties and, step for step,
against gymnasium.vector.SyncVectorEnv running the same environments one by one (myriad.gym.SingleEnv), which is
Gymnasium's own implementation of the modes."""
import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402

import myriad.gym  # noqa: E402

N = 3
SEED = 11
# Cart-pole pushed always to the same side falls within ~10 steps; a 6-step horizon truncates some episodes first.
HORIZON = 6


def actions_for(step):
    # env 0 always pushes right (falls fast), env 1 alternates (lives until truncation), env 2 pushes left
    return np.array([1, step % 2, 0])


def make_pair(mode):
    vec = myriad.gym.CartPoleVecEnv(N, autoreset_mode=mode, max_episode_steps=HORIZON)
    sync = SyncVectorEnv([lambda i=i: myriad.gym.make_single("cart_pole", env_id=i, max_episode_steps=HORIZON)
                          for i in range(N)], autoreset_mode=mode)
    return vec, sync


def test_next_step_mode_resets_on_the_step_after_the_end():
    vec, sync = make_pair(AutoresetMode.NEXT_STEP)
    assert vec.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = vec.reset(seed=[SEED] * N)
    obs_s, _ = sync.reset(seed=[SEED] * N)
    np.testing.assert_array_equal(obs, obs_s)
    ended_before = np.zeros(N, dtype=bool)
    saw_end = np.zeros(N, dtype=bool)
    for step in range(25):
        a = actions_for(step)
        obs, rew, term, trunc, info = vec.step(a)
        obs_s, rew_s, term_s, trunc_s, info_s = sync.step(a)
        np.testing.assert_array_equal(obs, obs_s)
        np.testing.assert_array_equal(rew, rew_s)
        np.testing.assert_array_equal(term, term_s)
        np.testing.assert_array_equal(trunc, trunc_s)
        assert "final_obs" not in info
        # documented: the step after an end returns the first observation of the next episode, reward 0, no flags
        for i in np.flatnonzero(ended_before):
            assert rew[i] == 0.0 and not term[i] and not trunc[i]
            first = myriad.gym.CartPoleVecEnv(1, env_ids=[i])
            first.reset(seed=SEED)
            for _ in range(int(vec.episodes[i])):
                first_obs, _ = first.reset()
            np.testing.assert_array_equal(obs[i], first_obs[0])
            assert np.all(np.abs(obs[i]) <= 0.05)
        for i in np.flatnonzero(~ended_before):
            assert rew[i] == 1.0
        saw_end |= term | trunc
        ended_before = term | trunc
    assert saw_end.all() and (vec.episodes >= 1).all()


def test_same_step_mode_resets_within_the_ending_step_with_final_obs():
    vec, sync = make_pair(AutoresetMode.SAME_STEP)
    assert vec.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    vec.reset(seed=[SEED] * N)
    sync.reset(seed=[SEED] * N)
    ends = 0
    for step in range(25):
        a = actions_for(step)
        before = vec.episodes
        obs, rew, term, trunc, info = vec.step(a)
        obs_s, rew_s, term_s, trunc_s, info_s = sync.step(a)
        np.testing.assert_array_equal(obs, obs_s)
        np.testing.assert_array_equal(rew, rew_s)
        np.testing.assert_array_equal(term, term_s)
        np.testing.assert_array_equal(trunc, trunc_s)
        done = term | trunc
        assert ("final_obs" in info) == done.any() == ("final_obs" in info_s)
        if done.any():
            np.testing.assert_array_equal(info["_final_obs"], done)
            np.testing.assert_array_equal(info["_final_obs"], info_s["_final_obs"])
            np.testing.assert_array_equal(info["_final_info"], info_s["_final_info"])
            for i in range(N):
                if done[i]:
                    np.testing.assert_array_equal(info["final_obs"][i], info_s["final_obs"][i])
                    # the final observation is the ended state, the returned one the next episode's first
                    x, _, theta, _ = info["final_obs"][i]
                    if term[i]:
                        assert abs(x) > 2.4 or abs(theta) > 12 * np.pi / 180
                    assert np.all(np.abs(obs[i]) <= 0.05)
                    assert vec.episodes[i] == before[i] + 1
                else:
                    assert info["final_obs"][i] is None
            ends += done.sum()
    assert ends >= N


def test_disabled_mode_never_resets_and_reset_mask_resets_only_the_masked():
    vec, sync = make_pair(AutoresetMode.DISABLED)
    assert vec.metadata["autoreset_mode"] == AutoresetMode.DISABLED
    vec.reset(seed=[SEED] * N)
    sync.reset(seed=[SEED] * N)
    for step in range(40):
        a = actions_for(step)
        obs, rew, term, trunc, info = vec.step(a)
        obs_s, rew_s, term_s, trunc_s, _ = sync.step(a)
        np.testing.assert_array_equal(obs, obs_s)
        np.testing.assert_array_equal(term | trunc, term_s | trunc_s)
        done = term | trunc
        if done.any():
            # stepping again without a reset is an error (SyncVectorEnv asserts)
            with pytest.raises(RuntimeError):
                vec.step(a)
            with pytest.raises(AssertionError):
                sync.step(a)
            kept = obs.copy()
            obs2, _ = vec.reset(options={"reset_mask": done})
            obs2_s, _ = sync.reset(options={"reset_mask": done.copy()})
            np.testing.assert_array_equal(obs2, obs2_s)
            np.testing.assert_array_equal(obs2[~done], kept[~done])  # the others are untouched
            assert np.all(np.abs(obs2[done]) <= 0.05)
    for bad in (np.zeros(N, dtype=bool), np.ones(N, dtype=int), np.ones(N + 1, dtype=bool)):
        with pytest.raises((ValueError, TypeError)):
            vec.reset(options={"reset_mask": bad})
