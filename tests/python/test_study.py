"""`myriad study`: the samplers against their peers (scipy's Sobol' sequence, SALib's Saltelli matrices and Sobol
indices), the results file read with h5py alone, and a run killed by SIGTERM after some chunks and resumed, equal
bit for bit to an uninterrupted one."""
import json
import os
import signal
import subprocess

import h5py
import numpy as np
import pytest
from scipy.stats import qmc

PI = float(np.pi)


def write_study(path, **study):
    path.write_text(json.dumps(study), encoding="utf-8")
    return path


def run_cli(cli, *args, check=True):
    result = subprocess.run([str(cli), *map(str, args)], capture_output=True, text=True, timeout=600)
    if check and result.returncode != 0:
        raise AssertionError(f"myriad {' '.join(map(str, args))} exited {result.returncode}: {result.stderr}")
    return result


def uniform(name, lower=0.0, upper=1.0):
    return {"name": name, "distribution": "uniform", "lower": lower, "upper": upper}


def design(cli, tmp_path, **study):
    path = write_study(tmp_path / "design.json", model="builtin:ishigami", **study)
    out = tmp_path / "design.csv"
    run_cli(cli, "study", path, "--design-only", out)
    return np.loadtxt(out, delimiter=",", skiprows=1, ndmin=2)


def test_unscrambled_sobol_points_equal_scipy_for_2_to_10_points_in_8_dimensions(cli, tmp_path):
    names = [f"x{i}" for i in range(1, 9)]
    ours = design(cli, tmp_path, parameters=[uniform(n) for n in names],
                  sampler={"type": "sobol", "samples": 1024, "scramble": False})
    theirs = qmc.Sobol(d=8, scramble=False).random(1024)
    assert ours.shape == (1024, 8)
    assert np.array_equal(ours, theirs)


def test_saltelli_rows_are_salib_s_matrices_in_salib_s_order(cli, tmp_path):
    from SALib.sample import sobol as salib_sobol

    names = ["x1", "x2", "x3"]
    bounds = [[-PI, PI], [0.0, 2.0], [10.0, 20.0]]
    ours = design(cli, tmp_path, parameters=[uniform(n, *b) for n, b in zip(names, bounds)],
                  sampler={"type": "saltelli", "samples": 64, "scramble": False})
    problem = {"num_vars": 3, "names": names, "bounds": bounds}
    theirs = salib_sobol.sample(problem, 64, calc_second_order=True, scramble=False)
    assert ours.shape == (64 * (2 * 3 + 2), 3)
    # scale_samples maps u to lower + u (upper - lower), as the uniform's inverse CDF does.
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-14)


def test_latin_hypercube_puts_one_point_in_each_stratum_of_every_dimension(cli, tmp_path):
    names = [f"x{i}" for i in range(1, 6)]
    n = 500
    ours = design(cli, tmp_path, parameters=[uniform(n_, 0.0, 1.0) for n_ in names],
                  sampler={"type": "latin_hypercube", "samples": n, "seed": 9})
    for column in ours.T:
        assert sorted(np.floor(column * n).astype(int)) == list(range(n))


def test_ishigami_indices_equal_salib_s_on_the_same_samples_and_the_file_reads_without_myriad(cli, tmp_path):
    from SALib.analyze import sobol as salib_analyze

    study = write_study(tmp_path / "ishigami.json", model="builtin:ishigami",
                        parameters=[uniform(n, -PI, PI) for n in ("x1", "x2", "x3")],
                        sampler={"type": "saltelli", "samples": 2 ** 14, "seed": 21},
                        sobol={"bootstrap": 50}, output="ishigami.h5")
    run_cli(cli, "study", study, "--quiet")
    with h5py.File(tmp_path / "ishigami.h5", "r") as f:
        assert f.attrs["complete"] == 1
        assert f.attrs["sampler"] == "saltelli"
        assert len(f.attrs["study_sha256"]) == 64
        x = f["parameters"][:]
        y = f["kpis"][:, 0]
        assert list(f["parameters"].attrs["names"]) == ["x1", "x2", "x3"]
        s1, st = f["sobol/y/S1"][:], f["sobol/y/ST"][:]
    # The function itself, evaluated here on the file's rows.
    np.testing.assert_allclose(y, np.sin(x[:, 0]) + 7 * np.sin(x[:, 1]) ** 2 + 0.1 * x[:, 2] ** 4 * np.sin(x[:, 0]),
                               rtol=0, atol=1e-12)
    problem = {"num_vars": 3, "names": ["x1", "x2", "x3"], "bounds": [[-PI, PI]] * 3}
    theirs = salib_analyze.analyze(problem, y, calc_second_order=True, num_resamples=10, seed=1)
    np.testing.assert_allclose(s1, theirs["S1"], rtol=0, atol=1e-10)
    np.testing.assert_allclose(st, theirs["ST"], rtol=0, atol=1e-10)
    np.testing.assert_allclose(s1, [0.314, 0.442, 0.0], atol=0.02)
    np.testing.assert_allclose(st, [0.558, 0.442, 0.244], atol=0.02)


def quarter_car_study(repo, tmp_path, name):
    return write_study(
        tmp_path / f"{name}.json", model=str(repo / "models" / "quarter_car_road.json"),
        parameters=[uniform("k_s", 1e4, 4e4), {"name": "c_s", "distribution": "normal", "mean": 1500, "sd": 100}],
        sampler={"type": "latin_hypercube", "samples": 48, "seed": 4},
        simulation={"t_end": 1.2, "rtol": 1e-5, "threads": 1},
        series={"signals": ["a_b"], "dt": 0.01}, chunk=6, output=f"{name}.h5")


def datasets(path):
    out = {}
    with h5py.File(path, "r") as f:
        f.visititems(lambda name, item: out.__setitem__(name, item[()]) if isinstance(item, h5py.Dataset) else None)
    return out


def test_a_run_killed_after_some_chunks_and_resumed_equals_an_uninterrupted_one_bit_for_bit(cli, repo, tmp_path):
    whole = quarter_car_study(repo, tmp_path, "whole")
    run_cli(cli, "study", whole, "--quiet")

    split = quarter_car_study(repo, tmp_path, "split")
    split.write_text(whole.read_text().replace("whole.h5", "split.h5"))
    process = subprocess.Popen([str(cli), "study", str(split), "--progress-json"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    for line in process.stderr:
        if line.startswith("{") and json.loads(line)["chunks_done"] >= 2:
            # While it runs: only the .part file, and it says incomplete.
            assert not (tmp_path / "split.h5").exists()
            process.send_signal(signal.SIGTERM)
            break
    rest = process.stderr.read()
    assert process.wait(timeout=120) == 130, rest
    assert "--resume" in rest
    assert not (tmp_path / "split.h5").exists()
    with h5py.File(tmp_path / "split.h5.part", "r") as f:
        assert f.attrs["complete"] == 0
        done = f["chunks/done"][:]
        assert 2 <= done.sum() < len(done)
        assert np.isnan(f["kpis"][-1]).all()  # rows not yet run read NaN
    resumed = run_cli(cli, "study", split, "--resume", "--quiet")
    assert "resumed" in resumed.stdout
    a, b = datasets(tmp_path / "whole.h5"), datasets(tmp_path / "split.h5")
    assert sorted(a) == sorted(b)
    for name in a:
        assert a[name].dtype == b[name].dtype and a[name].tobytes() == b[name].tobytes(), name
    assert (tmp_path / "whole_kpis.csv").read_text() == (tmp_path / "split_kpis.csv").read_text()


def test_a_bad_study_file_is_named_with_its_pointer_and_reason(cli, tmp_path):
    study = write_study(tmp_path / "bad.json", model="builtin:ishigami", parameters=[uniform("x1")],
                        sampler={"type": "sobol", "samples": 1000})
    result = run_cli(cli, "study", study, check=False)
    assert result.returncode == 2
    assert f"{study}: /sampler/samples: 1000 is not a power of two" in result.stderr


def test_simulate_out_h5_streams_the_numbers_simulate_writes_as_csv(cli, repo, tmp_path):
    model = repo / "models" / "quarter_car_road.json"
    params = tmp_path / "params.csv"
    params.write_text("k_s,c_s\n" + "\n".join(f"{12000 + 700 * i},{900 + 35 * i}" for i in range(24)) + "\n")
    common = [model, "--params", params, "--param", "speed=18", "--t-end", "1.2", "--rtol", "1e-5", "--quiet"]
    run_cli(cli, "simulate", *common, "--out", tmp_path / "run.csv")
    result = run_cli(cli, "simulate", *common, "--out", tmp_path / "run.h5")
    assert "instances: 24" in result.stdout
    header = (tmp_path / "run.csv").read_text().splitlines()[0].split(",")
    table = np.loadtxt(tmp_path / "run.csv", delimiter=",", skiprows=1)
    with h5py.File(tmp_path / "run.h5", "r") as f:
        assert f.attrs["complete"] == 1
        assert "--params" in f.attrs["study_text"]
        times = f["series/time"][:]
        assert np.array_equal(table[: len(times), header.index("time")], times)
        for signal in f["series"].attrs["signals"]:
            csv_values = table[:, header.index(signal)].reshape(24, len(times))
            assert csv_values.tobytes() == f["series"][signal][:].tobytes(), signal
        assert np.array_equal(f["parameters"][:, 0], 12000 + 700 * np.arange(24))
    assert not (tmp_path / "run.h5.part").exists()
    # --signals: the file keeps only the series named, in that order, with the same numbers.
    run_cli(cli, "simulate", *common, "--signals", "travel,a_b,tire_force,susp_force", "--out", tmp_path / "kept.h5")
    with h5py.File(tmp_path / "kept.h5", "r") as f:
        assert list(f["series"].attrs["signals"]) == ["travel", "a_b", "tire_force", "susp_force"]
        for signal in ("travel", "a_b", "tire_force", "susp_force"):
            csv_values = table[:, header.index(signal)].reshape(24, len(times))
            assert csv_values.tobytes() == f["series"][signal][:].tobytes(), signal
        assert "z_b" not in f["series"]
    refused = run_cli(cli, "simulate", model, "--out", tmp_path / "x.h5", "--summary", tmp_path / "s.csv", check=False)
    assert refused.returncode == 2 and "--summary: not with an HDF5 --out" in refused.stderr


def test_a_run_killed_outright_between_chunks_resumes_bit_for_bit(cli, repo, tmp_path):
    """SIGKILL (no handler runs): the file is closed while a chunk computes, so it stays whole and resumable."""
    whole = quarter_car_study(repo, tmp_path, "whole")
    run_cli(cli, "study", whole, "--quiet")
    killed = quarter_car_study(repo, tmp_path, "killed")
    spec = json.loads(whole.read_text())
    spec.update(output="killed.h5", chunk=16)  # 3 chunks, each long enough to be killed inside its compute
    killed.write_text(json.dumps(spec))
    process = subprocess.Popen([str(cli), "study", str(killed), "--progress-json"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    for line in process.stderr:
        if line.startswith("{") and json.loads(line)["chunks_done"] >= 1:
            process.kill()
            break
    process.wait(timeout=60)
    assert not (tmp_path / "killed.h5").exists()
    run_cli(cli, "study", killed, "--resume", "--quiet")
    a, b = datasets(tmp_path / "whole.h5"), datasets(tmp_path / "killed.h5")
    assert sorted(a) == sorted(b)
    for name in a:
        if name != "chunks/done":  # 8 chunks of 6 there, 3 of 16 here
            assert a[name].tobytes() == b[name].tobytes(), name
