"""Reproducibility of myriad.gym: an environment's episode depends only on (seed, env id, episode) -- the same seed
gives the same episode, and environment i is bit-identical whether 1, 7 or 1024 environments run and in whatever
order they are placed; domain randomization and roads are the documented Philox draws."""
import numpy as np
import pytest

pytest.importorskip("gymnasium")
import myriad  # noqa: E402
import myriad.gym  # noqa: E402
from myriad.gym import randomness  # noqa: E402
from myriad.gym.road import GD_N0, road_profiles  # noqa: E402

STEPS = 60
RANDOMIZE = {"m_s": {"dist": "uniform", "low": 320.0, "high": 480.0},
             "c_s": {"dist": "loguniform", "low": 1000.0, "high": 2500.0},
             "k_t": {"dist": "normal", "mean": 200000.0, "std": 10000.0, "low": 150000.0}}


def actions(env_ids, step):
    """A deterministic action per (env id, step), independent of the batch."""
    return (2000.0 * np.sin(0.37 * env_ids.astype(np.float64) + 0.11 * step))[:, None]


def run(env_ids, seed=5, steps=STEPS):
    env = myriad.gym.ActiveSuspensionVecEnv(len(env_ids), env_ids=env_ids, randomize=RANDOMIZE)
    obs, _ = env.reset(seed=seed)
    trace = [obs]
    rewards = []
    for k in range(steps):
        obs, rew, term, trunc, _ = env.step(actions(env.env_ids, k))
        trace.append(obs)
        rewards.append(rew)
    return np.stack(trace, 1), np.stack(rewards, 1), env


def test_same_seed_same_episode_and_different_seed_different_road():
    a, ra, env_a = run(np.arange(4))
    b, rb, _ = run(np.arange(4))
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(ra, rb)
    c, _, env_c = run(np.arange(4), seed=6)
    assert not np.array_equal(env_a.road_heights(), env_c.road_heights())
    assert not np.array_equal(a, c)
    # a seeded reset of the same env object replays it too
    obs, _ = env_a.reset(seed=5)
    np.testing.assert_array_equal(obs, a[:, 0])


def test_env_i_bit_identical_for_1_7_1024_envs_and_any_order():
    big, rbig, _ = run(np.arange(1024))
    for i in (0, 3, 6, 517, 1023):
        one, rone, _ = run(np.array([i]))
        np.testing.assert_array_equal(one[0], big[i])
        np.testing.assert_array_equal(rone[0], rbig[i])
    seven, rseven, _ = run(np.arange(7))
    np.testing.assert_array_equal(seven, big[:7])
    np.testing.assert_array_equal(rseven, rbig[:7])
    perm = np.random.default_rng(3).permutation(1024)[:7]
    shuffled, rshuffled, _ = run(perm)
    np.testing.assert_array_equal(shuffled, big[perm])
    np.testing.assert_array_equal(rshuffled, rbig[perm])


def test_domain_randomization_draws_are_the_documented_philox_numbers():
    env = myriad.gym.ActiveSuspensionVecEnv(64, randomize=RANDOMIZE)
    env.reset(seed=9)
    env.reset()  # episode 1
    ids = np.arange(64, dtype=np.uint64)
    seeds = np.full(64, 9, dtype=np.uint64)
    ep = np.ones(64, dtype=np.uint64)
    names = list(env.model.parameter_names)
    u = myriad.philox_uniform(seeds, ids, ep, np.full(64, randomness.PARAMETER_UNIFORM + names.index("m_s"), dtype=np.uint64))
    np.testing.assert_array_equal(env.parameter("m_s"), 320.0 + 160.0 * u)
    u = myriad.philox_uniform(seeds, ids, ep, np.full(64, randomness.PARAMETER_UNIFORM + names.index("c_s"), dtype=np.uint64))
    np.testing.assert_allclose(env.parameter("c_s"), np.exp(np.log(1000) + (np.log(2500) - np.log(1000)) * u),
                               rtol=1e-15)
    z = myriad.philox_normal(seeds, ids, ep, np.full(64, randomness.PARAMETER_NORMAL + names.index("k_t"), dtype=np.uint64))
    np.testing.assert_array_equal(env.parameter("k_t"), np.maximum(200000.0 + 10000.0 * z, 150000.0))
    # the free lengths follow the drawn masses: static lengths stay 0.3 m, so every episode starts at rest
    np.testing.assert_allclose(env.parameter("l0_s") - env.parameter("m_s") * 9.81 / env.parameter("k_s"), 0.3,
                               atol=1e-14)
    obs, _ = env.reset()
    np.testing.assert_allclose(obs, 0.0, atol=1e-9)
    with pytest.raises(ValueError, match="unknown parameter 'm_x'"):
        myriad.gym.ActiveSuspensionVecEnv(1, randomize={"m_x": {"dist": "uniform", "low": 0, "high": 1}})


def test_road_is_the_iso8608_sum_of_sinusoids():
    env = myriad.gym.ActiveSuspensionVecEnv(2, road_classes=("C",), speed=20.0)
    env.reset(seed=1)
    t = env.road_times
    np.testing.assert_array_equal(env.road_heights(), road_profiles(t, 20.0, ("C",), np.full(2, 1, np.uint64),
                                                                    np.arange(2, dtype=np.uint64),
                                                                    np.zeros(2, np.uint64)))
    # over many draws the mean square of a height difference over a lag L is the PSD's
    # sum_i 2 Gd(n_i) dn (1 - cos(2 pi n_i v L)) (the profile starts at 0, so compare differences)
    n = 4000
    z = road_profiles(t, 20.0, ("C",), np.zeros(n, np.uint64), np.arange(n, dtype=np.uint64), np.zeros(n, np.uint64))
    assert np.all(z[:, 0] == 0)
    n_min, n_max, waves = 1.0 / (20.0 * t[-1]), 0.4 / (20.0 * (t[1] - t[0])), 64
    dn = (n_max - n_min) / waves
    freqs = n_min + dn * (np.arange(waves) + 0.5)
    lag = 20
    diff_var = np.mean((z[:, lag:] - z[:, :-lag]) ** 2)
    expected = np.sum(GD_N0["C"] * (freqs / 0.1) ** -2 * dn * 2 * (1 - np.cos(2 * np.pi * freqs * 20.0 * lag * (t[1] - t[0]))))
    assert diff_var == pytest.approx(expected, rel=0.05)


def _decimation_run(flat_road, **kwargs):
    env = myriad.gym.ActiveSuspensionVecEnv(3, **kwargs)
    obs, _ = env.reset(seed=2)
    if flat_road:
        p = env.parameters.copy()
        p[:, env._road_columns] = 0.0
        env.sim.set_parameters(p)
    for k in range(50):
        obs, *_ = env.step(actions(np.arange(3, dtype=np.uint64), k))
    return obs, env


def test_decimation_holds_the_action_over_the_substeps():
    """decimation = 2 at physics_dt = 0.005 sets the inputs once per action and advances twice with them."""
    env = myriad.gym.ActiveSuspensionVecEnv(3, physics_dt=0.005, decimation=2)
    assert env.dt == 0.01 and env.max_episode_steps == 500
    env.reset(seed=2)
    p0, s0 = env.parameters.copy(), env.sim.get_state()
    held = myriad.Simulator(env.model, instances=3)
    first_only = myriad.Simulator(env.model, instances=3)
    for sim in (held, first_only):
        sim.set_parameters(p0)
        sim.set_state(s0)
    for k in range(20):
        u = actions(np.arange(3, dtype=np.uint64), k)
        obs, *_ = env.step(u)
        held.set_inputs(u)
        held.advance(0.005)
        held.advance(0.005)
        first_only.set_inputs(u)
        first_only.advance(0.005)
        first_only.set_inputs(np.zeros_like(u))
        first_only.advance(0.005)
    np.testing.assert_array_equal(env.sim.get_state(), held.get_state())
    assert np.abs(held.get_state() - first_only.get_state()).max() > 1e-3


def test_decimation_agrees_with_one_advance_per_action():
    """Two advances of 0.005 s per action against one of 0.01 s: the model's rk4 at h = 1e-3 takes the same steps.
    On a flat road (smooth forcing) the two agree to rounding. On a random road, a piecewise-linear table whose
    kinks (every 0.05 s) are step boundaries, they differ slightly: a kink lands at t = 0.05 k in one time
    accumulation and 1 ulp before it in the other, RK4's stage there takes the road's slope from the other side,
    an O(h) change per kink -- still 100x below the integration error both have against rk4 at h = 1e-5."""
    model = myriad.gym.ActiveSuspensionVecEnv(1).model
    assert model.defaults.integrator == "rk4" and model.defaults.h == 1e-3
    a, _ = _decimation_run(True, physics_dt=0.01)
    b, _ = _decimation_run(True, physics_dt=0.005, decimation=2)
    scale = np.abs(a).max(axis=0)
    assert scale[0] > 0.01  # it moved
    assert (np.abs(a - b) / scale).max() < 1e-12
    a, _ = _decimation_run(False, physics_dt=0.01)
    b, _ = _decimation_run(False, physics_dt=0.005, decimation=2)
    ref, _ = _decimation_run(False, physics_dt=0.01, h=1e-5)
    scale = np.abs(ref).max(axis=0)
    difference = (np.abs(a - b) / scale).max()
    error = min((np.abs(a - ref) / scale).max(), (np.abs(b - ref) / scale).max())
    assert difference < 0.05 * error and error < 1e-3, (difference, error)
