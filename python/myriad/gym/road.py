"""Random roads in the manner of ISO 8608 (road surface profiles): a vertical profile whose displacement PSD is
Gd(n) = Gd(n0) (n / n0)^-2 (waviness 2) at spatial frequency n [cycles/m], n0 = 0.1 cycles/m, built as a sum of
sinusoids z(x) = sum_i sqrt(2 Gd(n_i) dn) cos(2 pi n_i x + phi_i) with equally spaced n_i, driven at vehicle speed
v (x = v t), and sampled on the model's table grid. Classes by their geometric-mean Gd(n0) [m^3]:
A 16e-6, B 64e-6, C 256e-6, D 1024e-6. The profile is shifted so that it starts at height 0 (the car starts in
static equilibrium). Phases and the class come from the counter-based draws of myriad.gym.randomness, so a road
depends only on (seed, env_id, episode).
"""
from __future__ import annotations

import numpy as np

from . import randomness

GD_N0 = {"A": 16e-6, "B": 64e-6, "C": 256e-6, "D": 1024e-6}
N0 = 0.1  # cycles/m


def road_profiles(times, speed, classes, seeds, env_ids, episodes, n_waves=64, n_min=None, n_max=None):
    """Road heights (n_envs x len(times)) [m] for the environments (seeds, env_ids, episodes).

    times: the table's time grid [s] (uniform spacing dt). speed: vehicle speed [m/s]. classes: ISO 8608 classes
    to choose from, uniformly per episode. The spatial band runs from one wave per table span (n_min = 1 / (v T))
    to n_max = 0.4 / (v dt) (8 Hz at dt = 0.05 s, so the piecewise-linear table resolves every wave with at least
    2.5 points); n_waves equally spaced frequencies. O(n_envs n_waves len(times))."""
    times = np.asarray(times, dtype=np.float64)
    dt = times[1] - times[0]
    span = times[-1] - times[0]
    n_min = 1.0 / (speed * span) if n_min is None else n_min
    n_max = 0.4 / (speed * dt) if n_max is None else n_max
    dn = (n_max - n_min) / n_waves
    freqs = n_min + dn * (np.arange(n_waves) + 0.5)
    counters = randomness.ROAD + np.arange(n_waves + 1)
    u = randomness.uniform(seeds, env_ids, episodes, counters)
    classes = list(classes)
    gd0 = np.array([GD_N0[c] for c in classes])[np.minimum((u[:, 0] * len(classes)).astype(int), len(classes) - 1)]
    phases = 2.0 * np.pi * u[:, 1:]
    amplitude = np.sqrt(2.0 * gd0[:, None] * (freqs[None, :] / N0) ** -2.0 * dn)  # n_envs x n_waves
    arg = 2.0 * np.pi * freqs[None, :, None] * speed * times[None, None, :] + phases[:, :, None]
    z = np.einsum("ew,ewt->et", amplitude, np.cos(arg))
    return z - z[:, :1]
