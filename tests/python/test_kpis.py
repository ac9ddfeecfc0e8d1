"""Named KPIs from Python (myriad.simulate(...).kpis): the same numbers with and without kept series, and against an
independent computation here: NumPy for the tire-load and travel KPIs, and for the ISO 2631-1 Wk-weighted RMS and
VDV a Wk filter built with SciPy from the standard's transfer functions (one bilinear transform of the whole
filter, no pre-warping: a different discretization from Myriad's, so agreement is to 0.2%; measured 1e-4)."""
import numpy as np
import pytest
from scipy import signal

import myriad


@pytest.fixture(scope="module")
def road_runs(repo):
    model = myriad.load_model(str(repo / "models" / "quarter_car_road.json"))
    options = dict(instances=4, t_end=3.0, dt_out=1e-3, integrator="dopri5", rtol=1e-7, atol=1e-9, backend="cpu")
    kept = myriad.simulate(model, **options)
    bare = myriad.simulate(model, keep_series=False, **options)
    return kept, bare


def wk_filter(fs):
    """ISO 2631-1 Wk (shared/notes/suspension-notes.md) as one analog transfer function, bilinear at fs."""
    w = lambda f: 2 * np.pi * f  # noqa: E731
    w1, w2, w3, w4, w5, w6 = w(0.4), w(100.0), w(12.5), w(12.5), w(2.37), w(3.35)
    q1 = q2 = 1 / np.sqrt(2)
    q4, q5, q6 = 0.63, 0.91, 0.91
    sections = [
        ([1, 0, 0], [1, w1 / q1, w1**2]),  # high-pass
        ([w2**2], [1, w2 / q2, w2**2]),  # low-pass
        ([1 / w3, 1], [1 / w4**2, 1 / (q4 * w4), 1]),  # acceleration-velocity transition
        ([1, w5 / q5, w5**2], [1, w6 / q6, w6**2]),  # upward step
    ]
    num, den = np.array([1.0]), np.array([1.0])
    for b, a in sections:
        num, den = np.polymul(num, b), np.polymul(den, a)
    return signal.bilinear(num, den, fs)


def test_kept_and_bare_runs_give_the_same_kpis(road_runs):
    kept, bare = road_runs
    assert bare.values.shape == (4, 0, kept.n_signals)
    assert kept.values.shape == (4, kept.n_times, kept.n_signals)
    assert set(kept.kpis) == set(bare.kpis) and len(kept.kpis) == 10
    for name in kept.kpis:
        np.testing.assert_array_equal(kept.kpis[name], bare.kpis[name], err_msg=name)
    assert kept.kpi_units["comfort_wk_rms"] == "m/s^2" and kept.kpi_units["comfort_vdv"] == "m/s^1.75"


def test_tire_and_travel_kpis_equal_numpy_on_the_series(road_runs):
    kept, _ = road_runs
    t = kept.times
    late = t >= 1.0
    load = -kept.signal("tire_force")
    travel = kept.signal("travel")
    static = load[:, :1]
    np.testing.assert_allclose(kept.kpis["dynamic_tire_load"],
                               np.sqrt(np.mean((load[:, late] - static) ** 2, axis=1)) / static[:, 0], rtol=1e-12)
    np.testing.assert_allclose(kept.kpis["min_tire_load"], load[:, late].min(axis=1), rtol=1e-12, atol=1e-9)
    np.testing.assert_array_equal(kept.kpis["lift_off_fraction"], np.mean(load[:, late] <= 0.0, axis=1))
    np.testing.assert_allclose(kept.kpis["travel_rms"],
                               np.sqrt(np.mean((travel[:, late] - travel[:, :1]) ** 2, axis=1)), rtol=1e-12)
    np.testing.assert_array_equal(kept.kpis["travel_max"], travel[:, late].max(axis=1))


def test_wk_rms_and_vdv_agree_with_a_scipy_wk_filter(road_runs):
    kept, _ = road_runs
    t = kept.times
    fs = 1.0 / (t[1] - t[0])
    b, a = wk_filter(fs)
    weighted = signal.lfilter(b, a, kept.signal("a_b"), axis=1)
    late = t >= 1.0
    rms = np.sqrt(np.mean(weighted[:, late] ** 2, axis=1))
    vdv = (np.sum(weighted[:, late] ** 4, axis=1) / fs) ** 0.25
    print("wk_rms myriad", kept.kpis["comfort_wk_rms"], "scipy", rms)
    np.testing.assert_allclose(kept.kpis["comfort_wk_rms"], rms, rtol=2e-3)
    np.testing.assert_allclose(kept.kpis["comfort_vdv"], vdv, rtol=2e-3)
    np.testing.assert_allclose(kept.kpis["crest_factor"], np.abs(weighted[:, late]).max(axis=1) / rms, rtol=0.02)
