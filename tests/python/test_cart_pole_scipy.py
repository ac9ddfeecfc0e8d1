"""Myriad's cart-pole (models/cart_pole.json: a prismatic cart and a revolute uniform rod) agrees with an
independent SciPy integration of Gymnasium's continuous CartPole equations (gymnasium/envs/classic_control/
cartpole.py: temp = (F + m l thd^2 sin th) / M, thdd = (g sin th - cos th temp) / (l (4/3 - m cos^2 th / M)),
xdd = temp - m l thdd cos th / M) to 1e-6 over 2 s, with a piecewise-constant force held over each 0.02 s step."""
import numpy as np
import pytest

pytest.importorskip("gymnasium")
scipy_integrate = pytest.importorskip("scipy.integrate")
from gymnasium.vector import AutoresetMode  # noqa: E402

import myriad.gym  # noqa: E402

G, MC, MP, L = 9.8, 1.0, 0.1, 0.5


def gymnasium_cart_pole(t, s, force):
    x, x_dot, th, th_dot = s
    total = MC + MP
    temp = (force + MP * L * th_dot ** 2 * np.sin(th)) / total
    th_acc = (G * np.sin(th) - np.cos(th) * temp) / (L * (4.0 / 3.0 - MP * np.cos(th) ** 2 / total))
    x_acc = temp - MP * L * th_acc * np.cos(th) / total
    return [x_dot, x_acc, th_dot, th_acc]


def test_cart_pole_matches_scipy_dop853_over_two_seconds():
    env = myriad.gym.CartPoleVecEnv(1, continuous=True, autoreset_mode=AutoresetMode.DISABLED,
                                    integrator="dopri5", rtol=1e-12, atol=1e-12)
    env.theta_threshold_radians = np.inf  # integrate through whatever the forces do
    env.x_threshold = np.inf
    obs, _ = env.reset(seed=3)
    state = obs[0].copy()
    steps = int(round(2.0 / env.dt))
    assert steps == 100
    worst = 0.0
    for k in range(steps):
        x, x_dot, th, th_dot = obs[0]
        # a PD push toward upright plus a swinging term: varied, bounded forces held over the step
        force = float(np.clip(-(30.0 * th + 5.0 * th_dot) + 0.5 * x + 4.0 * np.sin(0.7 * k), -10.0, 10.0))
        obs, *_ = env.step(np.array([[force]]))
        sol = scipy_integrate.solve_ivp(gymnasium_cart_pole, (k * env.dt, (k + 1) * env.dt), state, args=(force,),
                                        method="DOP853", rtol=1e-12, atol=1e-12)
        state = sol.y[:, -1]
        worst = max(worst, float(np.max(np.abs(obs[0] - state))))
    assert worst < 1e-6, worst
    assert np.abs(state[2]) > 0.01 or np.abs(state[0]) > 0.01  # it moved
