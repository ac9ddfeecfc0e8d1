"""myriad.modes against NumPy on the textbook two-mass quarter car (M, C, K written here from the golden car's
published ratios), and its errors."""
import json
import subprocess

import numpy as np
import pytest

import myriad


def quarter_car_eigenvalues(m_b, m_w, c_s, k_s, k_t):
    M = np.diag([m_b, m_w])
    K = np.array([[k_s, -k_s], [-k_s, k_s + k_t]])
    C = np.array([[c_s, -c_s], [-c_s, c_s]])
    A = np.block([[np.zeros((2, 2)), np.eye(2)], [-np.linalg.solve(M, K), -np.linalg.solve(M, C)]])
    damped = sorted((lam for lam in np.linalg.eigvals(A) if lam.imag > 0), key=abs)
    undamped = np.sort(np.sqrt(np.linalg.eigvals(np.linalg.solve(M, K)).real)) / (2 * np.pi)
    return damped, undamped


def test_golden_car_modes_match_numpy(repo):
    r = myriad.modes(repo / "models" / "golden_car.json")
    assert r["coordinates"] == ["body_heave", "wheel_travel"]
    damped, undamped = quarter_car_eigenvalues(1.0, 0.15, 6.0, 63.3, 653.0)
    got = [m["eigenvalue"] for m in r["modes"]]
    np.testing.assert_allclose(got, damped, rtol=1e-9)
    np.testing.assert_allclose([m["frequency_hz"] for m in r["undamped"]], undamped, rtol=1e-9)
    # Issue 17: 1.21 Hz and 11.0 Hz within 1%.
    np.testing.assert_allclose([m["frequency_hz"] for m in r["undamped"]], [1.21, 11.0], rtol=0.01)
    assert [m["dominant"] for m in r["modes"]] == ["body_heave", "wheel_travel"]


def test_modes_equal_the_cli_json(repo, cli, tmp_path):
    out = tmp_path / "modes.json"
    model = repo / "models" / "quarter_car_benchmark.json"
    subprocess.run([str(cli), "modes", str(model), "--param", "c_s=500", "--json", str(out)], check=True,
                   capture_output=True)
    from_cli = json.loads(out.read_text())
    r = myriad.modes(str(model), overrides={"c_s": 500.0})
    assert [m["natural_hz"] for m in r["modes"]] == [m["natural_hz"] for m in from_cli["modes"]]
    assert r["equilibrium"]["q"] == from_cli["equilibrium"]["q"]


def test_modes_errors(repo):
    with pytest.raises(myriad.SettingError, match="k_z"):
        myriad.modes(repo / "models" / "golden_car.json", overrides={"k_z": 1.0})
    with pytest.raises(RuntimeError, match="no static equilibrium"):
        myriad.modes(repo / "models" / "golden_car.json", overrides={"k_t": 0.0})
    r = myriad.modes(repo / "models" / "golden_car.json", overrides={"k_t": 0.0}, at_initial_state=True)
    assert r["equilibrium"]["residual"] > 1.0
