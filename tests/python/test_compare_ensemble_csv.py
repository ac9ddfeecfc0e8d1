"""scripts/compare_ensemble_csv.py, the judge of the device session's CLI comparison (cuda against cpu): it must
pass what the consistency tests pass and fail what they fail, on CSVs the CLI writes."""
import subprocess
import sys

import numpy as np


def compare(repo, a, b, *options):
    script = repo / "scripts" / "compare_ensemble_csv.py"
    return subprocess.run([sys.executable, str(script), str(a), str(b), *options], capture_output=True, text=True)


def write(path, values, header="instance,time,x,force"):
    with open(path, "w", encoding="utf-8") as f:
        f.write(header + "\n")
        for row in values:
            f.write(",".join(repr(float(v)) for v in row) + "\n")


def table(rng):
    rows = []
    for i in range(3):
        for k in range(5):
            rows.append([i, 0.1 * k, rng.normal(), 1e5 * rng.normal()])
    return np.array(rows)


def test_the_cli_result_of_one_backend_agrees_with_itself(repo, cli, tmp_path):
    out = tmp_path / "a.csv"
    subprocess.run([str(cli), "simulate", str(repo / "models" / "quarter_car.json"), "--instances", "2",
                    "--t-end", "0.2", "--dt-out", "0.05", "--backend", "cpu", "--out", str(out), "--quiet"],
                   check=True)
    result = compare(repo, out, out, "--rtol", "1e-12")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "agree" in result.stdout


def test_pointwise_takes_a_difference_within_ten_times_rtol_and_refuses_one_beyond(repo, tmp_path):
    rng = np.random.default_rng(3)
    a = table(rng)
    write(tmp_path / "a.csv", a)
    near, far = a.copy(), a.copy()
    near[4, 2] += 0.9e-5 * max(1.0, abs(a[4, 2]))  # within 10 x 1e-6
    far[4, 2] += 1.1e-5 * max(1.0, abs(a[4, 2]))
    write(tmp_path / "near.csv", near)
    write(tmp_path / "far.csv", far)
    assert compare(repo, tmp_path / "a.csv", tmp_path / "near.csv", "--rtol", "1e-6").returncode == 0
    result = compare(repo, tmp_path / "a.csv", tmp_path / "far.csv", "--rtol", "1e-6")
    assert result.returncode == 1 and "FAIL" in result.stdout


def test_signalwise_judges_a_value_against_its_instances_range(repo, tmp_path):
    rng = np.random.default_rng(4)
    a = table(rng)
    a[0:5, 3] = [0.0, 1e6, 2.0, -3.0, 5.0]  # instance 0's force ranges to 1e6
    write(tmp_path / "a.csv", a)
    b = a.copy()
    b[2, 3] += 5.0  # 2.5 relative to the value, 5e-6 of the instance's range
    write(tmp_path / "b.csv", b)
    assert compare(repo, tmp_path / "a.csv", tmp_path / "b.csv", "--rtol", "1e-6").returncode == 1
    assert compare(repo, tmp_path / "a.csv", tmp_path / "b.csv", "--rtol", "1e-6",
                   "--mode", "signalwise").returncode == 0
    # The same difference on instance 1, whose range is small, fails signalwise too.
    c = a.copy()
    c[7, 3] = a[7, 3] + 5.0
    write(tmp_path / "c.csv", c)
    assert compare(repo, tmp_path / "a.csv", tmp_path / "c.csv", "--rtol", "1e-6",
                   "--mode", "signalwise").returncode == 1


def test_nan_in_other_places_rows_or_headers_that_differ_are_refused(repo, tmp_path):
    rng = np.random.default_rng(5)
    a = table(rng)
    write(tmp_path / "a.csv", a)
    nan = a.copy()
    nan[3, 2] = np.nan
    write(tmp_path / "nan.csv", nan)
    assert compare(repo, tmp_path / "a.csv", tmp_path / "nan.csv", "--rtol", "1e-6").returncode == 1
    write(tmp_path / "short.csv", a[:-1])
    assert compare(repo, tmp_path / "a.csv", tmp_path / "short.csv", "--rtol", "1e-6").returncode == 2
    write(tmp_path / "renamed.csv", a, header="instance,time,x,torque")
    result = compare(repo, tmp_path / "a.csv", tmp_path / "renamed.csv", "--rtol", "1e-6")
    assert result.returncode == 2 and "header" in result.stderr
    write(tmp_path / "missing.csv", a)
    (tmp_path / "missing.csv").unlink()
    assert compare(repo, tmp_path / "a.csv", tmp_path / "missing.csv", "--rtol", "1e-6").returncode == 2


def test_mixed_judges_forces_signalwise_and_states_pointwise_by_the_models_output_types(repo, tmp_path):
    model = tmp_path / "model.json"
    model.write_text('{"outputs": [{"name": "x", "type": "joint_coordinate"}, '
                     '{"name": "force", "type": "spring_force"}]}', encoding="utf-8")
    rng = np.random.default_rng(6)
    a = table(rng)
    a[0:5, 3] = [0.0, 1e6, 2.0, -3.0, 5.0]
    write(tmp_path / "a.csv", a)
    force = a.copy()
    force[2, 3] += 5.0  # fails pointwise, passes against the instance's range
    write(tmp_path / "force.csv", force)
    mixed = ("--rtol", "1e-6", "--mode", "mixed", "--model", str(model))
    assert compare(repo, tmp_path / "a.csv", tmp_path / "force.csv", *mixed).returncode == 0
    state = a.copy()
    state[2, 2] += 2e-5 * max(1.0, abs(a[2, 2]))  # a state-like signal is held pointwise
    write(tmp_path / "state.csv", state)
    assert compare(repo, tmp_path / "a.csv", tmp_path / "state.csv", *mixed).returncode == 1
    assert compare(repo, tmp_path / "a.csv", tmp_path / "a.csv", "--rtol", "1e-6", "--mode", "mixed").returncode == 2
