"""`mpirun -np K myriad study`: the ranks deal the chunks (k mod K), rank 0 writes the one results file, and the
datasets equal a one-rank run's bit for bit; a rank that fails leaves its chunks to --resume. Run by the ctest
`study_mpi` (the python_tests run leaves this file out); skipped with the reason when mpirun is missing."""
import json
import os
import shutil
import subprocess

import h5py
import numpy as np
import pytest

MPIRUN = shutil.which("mpirun")
pytestmark = pytest.mark.skipif(MPIRUN is None, reason="no mpirun on this machine (install openmpi-bin)")


def mpi_environment(**extra):
    env = dict(os.environ)
    if os.geteuid() == 0:  # CI runs as root; OpenMPI refuses that unless told twice
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    # Containers often forbid the cross-memory attach that OpenMPI's shared-memory transport tries first.
    env.setdefault("OMPI_MCA_btl_vader_single_copy_mechanism", "none")
    env.update(extra)
    return env


def study(repo, tmp_path, samples, chunk):
    path = tmp_path / "study.json"
    path.write_text(json.dumps({
        "model": str(repo / "models" / "quarter_car_road.json"),
        "parameters": [{"name": "k_s", "distribution": "uniform", "lower": 1e4, "upper": 4e4},
                       {"name": "c_s", "distribution": "normal", "nominal": 1500, "tolerance": 300}],
        "sampler": {"type": "latin_hypercube", "samples": samples, "seed": 8},
        "simulation": {"t_end": 1.2, "rtol": 1e-5},
        "kpis": ["comfort_wk_rms", "dynamic_tire_load"],
        "series": {"signals": ["a_b"], "dt": 0.01}, "chunk": chunk}))
    return path


def mpi_study(cli, ranks, path, out, env=None, check=True):
    result = subprocess.run([MPIRUN, "-np", str(ranks), "--oversubscribe", str(cli), "study", str(path), "--out",
                             str(out), "--quiet"], capture_output=True, text=True, timeout=600,
                            env=env or mpi_environment())
    if check and result.returncode != 0:
        raise AssertionError(f"mpirun -np {ranks} exited {result.returncode}: {result.stdout}\n{result.stderr}")
    return result


def datasets(path):
    out = {}
    with h5py.File(path, "r") as f:
        f.visititems(lambda name, item: out.__setitem__(name, item[()]) if isinstance(item, h5py.Dataset) else None)
    return out


def assert_same_datasets(a, b):
    x, y = datasets(a), datasets(b)
    assert sorted(x) == sorted(y)
    for name in x:
        assert x[name].dtype == y[name].dtype and x[name].tobytes() == y[name].tobytes(), name


@pytest.mark.parametrize("samples", [48, 42])  # 8 chunks of 6 (4 + 4), and 7 (4 + 3)
def test_two_ranks_give_the_datasets_of_one_bit_for_bit_and_share_the_chunks(cli, repo, tmp_path, samples):
    path = study(repo, tmp_path, samples, 6)
    mpi_study(cli, 1, path, tmp_path / "one.h5")
    two = mpi_study(cli, 2, path, tmp_path / "two.h5")
    assert "ranks: 2" in two.stdout
    assert_same_datasets(tmp_path / "one.h5", tmp_path / "two.h5")
    with h5py.File(tmp_path / "two.h5", "r") as f:
        counts = [int(n) for n in f.attrs["rank_instances"].split(",")]
        assert f.attrs["complete"] == 1
    assert sum(counts) == samples
    assert max(counts) - min(counts) <= 6  # at most one chunk apart
    assert (tmp_path / "one_kpis.csv").read_text() == (tmp_path / "two_kpis.csv").read_text()


def test_a_failed_rank_s_chunks_are_reported_and_resumable(cli, repo, tmp_path):
    path = study(repo, tmp_path, 48, 6)
    failed = mpi_study(cli, 2, path, tmp_path / "r.h5", env=mpi_environment(MYRIAD_STUDY_FAIL_RANK="1"), check=False)
    assert failed.returncode != 0
    assert "rank 1 failed at chunk 1" in failed.stderr and "--resume" in failed.stderr
    assert not (tmp_path / "r.h5").exists()
    with h5py.File(tmp_path / "r.h5.part", "r") as f:
        assert f.attrs["complete"] == 0
        assert "rank 1 failed" in f.attrs["failure"]
        done = f["chunks/done"][:]
        assert list(done) == [1, 0, 1, 0, 1, 0, 1, 0]  # rank 0's chunks are in, rank 1's are not
        assert np.isnan(f["kpis"][6:12]).all()
    subprocess.run([str(cli), "study", str(path), "--out", str(tmp_path / "r.h5"), "--resume", "--quiet"], check=True,
                   capture_output=True, timeout=600)
    mpi_study(cli, 1, path, tmp_path / "one.h5")
    assert_same_datasets(tmp_path / "one.h5", tmp_path / "r.h5")
