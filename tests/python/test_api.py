"""The Python package against the CLI and the C++ API's promises: simulate equals the CLI's CSV bit for bit, its
result is not copied, the interpreter lock is released during runs, Ctrl-C cancels cleanly, and every loader error
class and bad setting arrives as a ValueError carrying the file, JSON pointer and reason (or the setting)."""
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import myriad

# The quarter-car bump study (models/quarter_car_study.csv; run.sh's main job before the road study).
STUDY_OPTIONS = dict(t_end=3.0, dt_out=0.01, integrator="dopri5", rtol=1e-7, atol=1e-9)
STUDY_FLAGS = ["--t-end", "3", "--dt-out", "0.01", "--integrator", "dopri5", "--rtol", "1e-7", "--atol", "1e-9"]


def read_cli_csv(path, n_signals):
    """instance,time,<signals> rows -> (instances, times, values (N, T, S)) parsed with float(), which reads the
    CLI's shortest round-trip text back to the same doubles."""
    with open(path) as f:
        header = f.readline().rstrip("\n").split(",")
        rows = [line.rstrip("\n").split(",") for line in f]
    assert header[:2] == ["instance", "time"] and len(header) == 2 + n_signals
    instances = np.array([int(r[0]) for r in rows])
    n = int(instances.max()) + 1
    t = len(rows) // n
    times = np.array([float(r[1]) for r in rows[:t]])
    values = np.array([[float(x) for x in r[2:]] for r in rows]).reshape(n, t, n_signals)
    assert np.array_equal(instances, np.repeat(np.arange(n), t))
    return header[2:], times, values


def test_simulate_equals_the_cli_csv_bit_for_bit_on_the_quarter_car_study(repo, cli, tmp_path, quarter_car):
    study = repo / "models" / "quarter_car_study.csv"
    out = tmp_path / "study.csv"
    subprocess.run([str(cli), "simulate", str(repo / "models" / "quarter_car.json"), "--params", str(study),
                    *STUDY_FLAGS, "--out", str(out), "--quiet"], check=True)
    result = myriad.simulate(quarter_car, params=str(study), **STUDY_OPTIONS)
    names, times, values = read_cli_csv(out, len(quarter_car.signal_names))
    assert names == result.signal_names == quarter_car.signal_names
    assert result.values.shape == (1024, 301, len(names))
    assert np.array_equal(times, result.times)
    assert np.array_equal(values, result.values)  # bit for bit (no NaN: every instance is ok)
    assert result.status_names == ["ok"] * 1024 and not result.status.any()


def test_params_as_csv_dict_table_and_parameter_set_give_the_same_run(repo, quarter_car):
    study = repo / "models" / "quarter_car_study.csv"
    table = myriad.ParameterSet.from_csv(str(study))
    rows = slice(0, 64, 7)
    names, values = table.names, table.values[rows]
    options = dict(t_end=0.5, dt_out=0.05)
    by_tuple = myriad.simulate(quarter_car, params=(names, values), **options)
    by_dict = myriad.simulate(quarter_car, params={n: values[:, j] for j, n in enumerate(names)}, **options)
    by_set = myriad.simulate(quarter_car, params=myriad.ParameterSet.from_array(names, values), **options)
    by_path = myriad.simulate(str(repo / "models" / "quarter_car.json"), params=study, **options)
    assert by_tuple.values.shape[0] == len(values)
    assert np.array_equal(by_tuple.values, by_dict.values)
    assert np.array_equal(by_tuple.values, by_set.values)
    assert np.array_equal(by_tuple.values, by_path.values[rows])  # an instance does not depend on the others
    # Different parameters give a different run (the table is really used).
    assert not np.array_equal(by_tuple.values[0], by_tuple.values[1])


def test_overrides_and_instances(quarter_car):
    k = quarter_car.parameter_names.index("k_s")
    stiff = myriad.simulate(quarter_car, instances=3, overrides={"k_s": 40000.0}, t_end=0.2, dt_out=0.1)
    table = myriad.simulate(quarter_car, params={"k_s": np.full(3, 40000.0)}, t_end=0.2, dt_out=0.1)
    default = myriad.simulate(quarter_car, instances=1, t_end=0.2, dt_out=0.1)
    assert stiff.values.shape == (3, 3, len(quarter_car.signal_names))
    assert np.array_equal(stiff.values, table.values)
    assert quarter_car.parameter_defaults[k] != 40000.0
    assert not np.array_equal(default.values[0], stiff.values[0])


def test_result_arrays_share_memory_with_the_cpp_result(quarter_car):
    result = myriad.simulate(quarter_car, instances=4, t_end=0.1, dt_out=0.01)
    values = result.values
    assert values is result.values  # made once
    assert values.dtype == np.float64 and values.flags.c_contiguous and not values.flags.owndata
    assert values.base is not None and type(values.base).__name__ == "PyCapsule"  # owns the shared_ptr
    z = result.signal("z_s")
    k = result.signal_names.index("z_s")
    assert z.shape == (4, result.n_times) and np.shares_memory(values, z)
    assert np.array_equal(z, values[:, :, k])
    # The same memory: a write through one view shows in the other.
    saved = values[2, 3, k]
    z[2, 3] = 12345.0
    assert values[2, 3, k] == 12345.0
    values[2, 3, k] = saved
    # The buffer outlives the result object.
    del result, z
    import gc

    gc.collect()
    assert np.isfinite(values).all() and values[2, 3, k] == saved
    with pytest.raises(KeyError, match="no signal 'nope'"):
        myriad.simulate(quarter_car, instances=1, t_end=0.01, dt_out=0.01).signal("nope")


def test_values_speak_dlpack_on_the_cpu(quarter_car):
    result = myriad.simulate(quarter_car, instances=2, t_end=0.05, dt_out=0.01)
    assert result.values.__dlpack_device__() == (1, 0)  # kDLCPU, device 0
    imported = np.from_dlpack(result.values)
    assert np.shares_memory(imported, result.values) and np.array_equal(imported, result.values)


def test_result_metadata(quarter_car):
    result = myriad.simulate(quarter_car, instances=5, t_end=0.3, dt_out=0.1, integrator="rk4", h=1e-3,
                             backend="cpu", threads=2)
    assert result.backend == "cpu" and result.integrator == "rk4" and result.threads >= 1
    assert np.allclose(result.times, [0.0, 0.1, 0.2, 0.3], rtol=0, atol=1e-15)
    assert set(result.stats) == {"steps", "rejected", "function_evaluations", "jacobian_evaluations",
                                 "lu_factorizations", "wall_seconds"}
    assert result.stats["steps"].dtype == np.int64 and result.stats["steps"].shape == (5,)
    assert (result.stats["steps"] == 300).all()  # rk4 at h = 1e-3 over 0.3 s
    evaluations = result.stats["function_evaluations"]
    assert ((evaluations >= 4 * 300) & (evaluations <= 4 * 300 + 1)).all()  # 4 a step (+ the outputs at t = 0)
    assert result.wall_seconds >= 0.0
    assert result.status.dtype == np.int32 and result.status_names == ["ok"] * 5
    assert myriad.status_name(0) == "ok"


def test_keep_signals_returns_the_named_columns_of_the_whole_run_bit_for_bit(quarter_car):
    names = quarter_car.signal_names
    kept = quarter_car.keep_signals([names[3], names[0]])
    assert kept.signal_names == [names[3], names[0]] and quarter_car.signal_names == names
    whole = myriad.simulate(quarter_car, instances=3, t_end=0.3, backend="cpu")
    part = myriad.simulate(kept, instances=3, t_end=0.3, backend="cpu")
    assert part.values.shape == whole.values.shape[:2] + (2,)
    assert part.values.tobytes() == whole.values[:, :, [3, 0]].copy().tobytes()
    with pytest.raises(myriad.SettingError, match="no output of that name"):
        quarter_car.keep_signals(["no_such_signal"])


def test_implicit_integrators_run_from_python_and_agree_with_a_tight_dopri5(quarter_car):
    # seed 003's methods: a fixed grid of h (the grid lands on t_end), Newton counted as Jacobian evaluations
    tight = myriad.simulate(quarter_car, instances=3, t_end=0.5, dt_out=0.05, rtol=1e-11, atol=1e-11,
                            backend="cpu", params={"k_s": [20000.0, 30000.0, 40000.0]})
    for name, rho in [("lms3", 0.6), ("bathe", 0.0), ("esdirk4(3)6l[2]sa2", None)]:
        result = myriad.simulate(quarter_car, instances=3, t_end=0.5, dt_out=0.05, integrator=name, h=1e-3,
                                 rho_inf=rho, backend="cpu", params={"k_s": [20000.0, 30000.0, 40000.0]})
        assert result.integrator == name and result.status_names == ["ok"] * 3
        assert (result.stats["steps"] == 500).all()
        assert (result.stats["jacobian_evaluations"] >= 500).all()
        assert np.max(np.abs(result.values - tight.values)) < 1e-3 * np.max(np.abs(tight.values))
    stepper = myriad.Simulator(quarter_car, instances=2, integrator="bathe", rho_inf=0.6, h=1e-3)
    for _ in range(5):
        stepper.advance(0.01)
    assert (stepper.status == 0).all()


def test_absolute_coordinates_from_python_and_the_cli(repo, cli, tmp_path):
    # seed 002's rp and re on the double pendulum's own model file: the same signals as the joint coordinates
    # (Bathe at h = 1e-3: second order, 5e-6 rad here), and the CLI's --coordinates writes the same CSV rows
    model = str(repo / "models" / "double_pendulum_002.json")
    tight = myriad.simulate(model, t_end=0.5, dt_out=0.1, rtol=1e-12, atol=1e-12, backend="cpu")
    for coordinates in ["rp", "re"]:
        result = myriad.simulate(model, t_end=0.5, dt_out=0.1, integrator="bathe", h=1e-3,
                                 coordinates=coordinates)
        assert result.status_names == ["ok"] and result.backend == "cpu"
        assert np.max(np.abs(result.values - tight.values)) < 1e-4 * np.max(np.abs(tight.values))
    out = tmp_path / "rp.csv"
    subprocess.run([str(cli), "simulate", model, "--t-end", "0.5", "--dt-out", "0.1", "--integrator", "bathe",
                    "--h", "1e-3", "--coordinates", "rp", "--out", str(out), "-q"], check=True,
                   capture_output=True)
    rows = np.loadtxt(out, delimiter=",", skiprows=1)[:, 2:]
    rp = myriad.simulate(model, t_end=0.5, dt_out=0.1, integrator="bathe", h=1e-3, coordinates="rp")
    assert np.array_equal(rows, rp.values[0])
    with pytest.raises(myriad.SettingError, match="coordinates"):
        myriad.simulate(model, integrator="dopri5", coordinates="rp")
    # backend="cuda" takes rp, re and rA where a device is present (the kernels run the cpu backend's functions: the
    # same signals to the device's rounding) and says why not where none is
    ra = myriad.simulate(model, t_end=0.5, dt_out=0.1, integrator="backward-euler", h=1e-3, coordinates="rA")
    for coordinates, integrator, cpu in [("rp", "bathe", rp), ("rA", "backward-euler", ra)]:
        try:
            on_cuda = myriad.simulate(model, t_end=0.5, dt_out=0.1, integrator=integrator, h=1e-3,
                                      coordinates=coordinates, backend="cuda")
        except myriad.SettingError as refused:
            assert refused.setting == "backend"
        else:
            assert on_cuda.backend == "cuda" and on_cuda.status_names == ["ok"]
            assert np.max(np.abs(on_cuda.values - cpu.values)) < 1e-7 * max(1.0, np.max(np.abs(cpu.values)))


def test_rotation_matrices_from_python_and_the_cli(repo, cli, tmp_path):
    # seed 002's rA (its backward Euler on SO(3)) on the double pendulum's model file: first order towards the joint
    # coordinates (halving h halves the error), the CLI's CSV rows equal to Python's, other methods refused
    model = str(repo / "models" / "double_pendulum_002.json")
    tight = myriad.simulate(model, t_end=0.5, dt_out=0.1, rtol=1e-12, atol=1e-12, backend="cpu")
    errors = []
    for h in [2.5e-3, 1.25e-3]:
        result = myriad.simulate(model, t_end=0.5, dt_out=0.1, integrator="backward-euler", h=h, coordinates="rA")
        assert result.status_names == ["ok"] and result.backend == "cpu"
        errors.append(np.max(np.abs(result.values - tight.values)))
    assert 1.8 < errors[0] / errors[1] < 2.2
    out = tmp_path / "ra.csv"
    subprocess.run([str(cli), "simulate", model, "--t-end", "0.5", "--dt-out", "0.1", "--integrator",
                    "backward-euler", "--h", "1.25e-3", "--coordinates", "rA", "--out", str(out), "-q"], check=True,
                   capture_output=True)
    rows = np.loadtxt(out, delimiter=",", skiprows=1)[:, 2:]
    assert np.array_equal(rows, result.values[0])
    with pytest.raises(myriad.SettingError, match="integrator"):
        myriad.simulate(model, integrator="bathe", coordinates="rA")


def test_progress_is_reported_from_the_calling_thread(quarter_car):
    calls = []
    caller = threading.get_ident()
    myriad.simulate(quarter_car, instances=300, t_end=1.0, dt_out=0.5, backend="cpu", threads=1,
                    progress=lambda done, total: calls.append((done, total, threading.get_ident())))
    assert calls and calls[-1][:2] == (300, 300)
    assert all(ident == caller for *_, ident in calls)
    assert [c[0] for c in calls] == sorted(c[0] for c in calls)


def test_an_exception_in_the_progress_callback_cancels_the_run_and_propagates(quarter_car):
    def progress(done, total):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        myriad.simulate(quarter_car, instances=20000, t_end=3.0, dt_out=3.0, backend="cpu", threads=1,
                        progress=progress)


def test_a_python_thread_keeps_running_during_a_long_simulate(quarter_car):
    count = 0
    stop = threading.Event()

    def counter():
        nonlocal count
        while not stop.is_set():
            count += 1

    thread = threading.Thread(target=counter)
    thread.start()
    try:
        time.sleep(0.05)
        # The run must be long enough to show a stalled counter; machines differ by several times, so the batch
        # grows until one run takes over 0.3 s (150 instances take about 1 s on an idle CI core).
        instances = 150
        for _ in range(4):
            before = count
            start = time.perf_counter()
            myriad.simulate(quarter_car, instances=instances, t_end=3.0, dt_out=1.0, backend="cpu", threads=1)
            elapsed = time.perf_counter() - start
            during = count - before
            if elapsed > 0.3:
                break
            instances *= 4
    finally:
        stop.set()
        thread.join()
    assert elapsed > 0.3, f"{instances} instances took {elapsed:.3f} s: too short to show anything"
    # With the lock held the counter would stand still for the whole run (a few increments at most).
    assert during > 10000, f"{during} increments in {elapsed:.2f} s"


CTRL_C_SCRIPT = textwrap.dedent("""
    import sys, time
    import myriad
    model = myriad.load_model(sys.argv[1])
    print("started", flush=True)
    start = time.perf_counter()
    try:
        # cpu: its runner stops handing out instances once the cancel flag is set (the cuda runner does not
        # look at the flag yet: there the run ends first, then KeyboardInterrupt).
        # 40000 instances of 300 s (about 6 min on one core): long ones, so that the ensemble's tables are small
        # (~80 MB) and what the test times is the run stopping. With 400000 instances of 3 s (~0.9 GB of tables)
        # the run ended 0.5 s after SIGINT, and 2.8 s on a loaded machine; like this, 0.03-0.05 s.
        myriad.simulate(model, instances=40000, t_end=300.0, dt_out=300.0, backend="cpu", threads=1)
        print("finished", flush=True)
    except KeyboardInterrupt:
        # time.monotonic is CLOCK_MONOTONIC, one clock for the whole machine: the test compares it with its own.
        print(f"caught at {time.monotonic()!r}", flush=True)
        print(f"interrupted after {time.perf_counter() - start:.3f}", flush=True)
        # No half state: the next run works and gives the same numbers as ever.
        result = myriad.simulate(model, instances=3, t_end=0.1, dt_out=0.05)
        print("again", repr(float(result.values[2, -1, 0])), flush=True)
        raise
""")


def test_ctrl_c_cancels_a_run_cleanly(repo, quarter_car):
    model_path = str(repo / "models" / "quarter_car.json")
    process = subprocess.Popen([sys.executable, "-c", CTRL_C_SCRIPT, model_path], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=os.environ.copy())
    assert process.stdout.readline().strip() == "started"
    time.sleep(0.5)
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=30)
    ended = time.monotonic() - sent
    assert "finished" not in stdout
    assert process.returncode != 0 and "KeyboardInterrupt" in stderr, stderr
    assert "interrupted after" in stdout
    # The run itself stops within 2 s (the whole run would take minutes); the process then runs again and exits,
    # which on CI's two busy cores has taken up to ~6 s, so the process's end is held to a looser bound.
    caught = float(stdout.split("caught at ")[1].split()[0]) - sent
    assert caught < 2.0, f"the run ended {caught:.2f} s after SIGINT"
    assert ended < 15.0, f"the process ended {ended:.2f} s after SIGINT"
    expected = myriad.simulate(quarter_car, instances=3, t_end=0.1, dt_out=0.05).values[2, -1, 0]
    assert f"again {float(expected)!r}" in stdout


# ---- errors ----

VALID = {
    "format": "myriad-model", "version": 1,
    "parameters": {"m": 2.0},
    "bodies": [{"name": "a", "mass": "$m", "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}],
    "joints": [{"name": "j0", "type": "revolute", "parent": "ground", "child": "a", "axis": [0, 0, 1]}],
}


def broken(**changes):
    model = json.loads(json.dumps(VALID))
    for key, value in changes.items():
        model[key] = value
    return json.dumps(model)


def four_bar_text(repo, pivot):
    model = json.loads((repo / "models" / "loops" / "four_bar.json").read_text())
    model["joints"][2]["parent_frame"]["origin"] = pivot
    return json.dumps(model)


def assert_model_error(error, file, pointer, reason_part):
    assert isinstance(error, ValueError) and isinstance(error, myriad.ModelFileError)
    assert error.file == file and error.pointer == pointer, str(error)
    assert reason_part in error.reason, error.reason
    assert str(error) == f"{file}: {pointer}: {error.reason}"  # the CLI's message


def test_the_valid_base_model_loads():
    model = myriad.load_model_string(json.dumps(VALID), "ok.json")
    assert model.source == "ok.json" and model.parameter_names == ["m"] and model.nq == 1 and model.nv == 1


@pytest.mark.parametrize("text, pointer, reason", [
    ('{"format": "myriad-model",\n "version": }', "/", "malformed JSON"),  # bad JSON
    (broken(bodys=[]), "/bodys", "unknown key 'bodys'"),  # unknown field
    (broken(bodies=[{"name": "a", "mass": "$mass", "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}]),
     "/bodies/0/mass", "undefined parameter 'mass'"),  # unknown $parameter
    ("[" * 100 + "]" * 100, "/0" * 64, "JSON nests deeper than 64 levels"),  # a limit
    (broken(version=2), "/version", "unsupported version 2"),
])
def test_every_loader_error_class_is_a_value_error_with_file_pointer_and_reason(text, pointer, reason):
    with pytest.raises(ValueError) as caught:
        myriad.load_model_string(text, "bad.json")
    assert_model_error(caught.value, "bad.json", pointer, reason)


def test_a_loop_that_does_not_assemble_is_refused_by_pointer(repo):
    with pytest.raises(myriad.ModelFileError) as caught:
        myriad.load_model_string(four_bar_text(repo, [10, 0, 0]), "models/bad_four_bar.json")
    assert_model_error(caught.value, "models/bad_four_bar.json", "/loops/0",
                       "the model does not assemble at its initial state")


def test_a_model_file_error_names_the_file_path(tmp_path):
    path = tmp_path / "bad model.json"
    path.write_text(broken(bodies=[{"name": "a", "mass": -1, "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}]))
    with pytest.raises(ValueError) as caught:
        myriad.load_model(path)
    assert_model_error(caught.value, str(path), "/bodies/0/mass", "mass must be positive")
    # simulate takes a path too and raises the same error.
    with pytest.raises(myriad.ModelFileError, match="mass must be positive"):
        myriad.simulate(str(path))


def test_a_directory_is_refused_by_name_and_a_missing_file_is_a_runtime_error(repo, tmp_path):
    with pytest.raises(ValueError, match="is a directory"):
        myriad.load_model(repo / "models")
    with pytest.raises(RuntimeError, match="missing.json: cannot open file"):
        myriad.load_model(tmp_path / "missing.json")


@pytest.mark.parametrize("options, setting", [
    (dict(rtol=-1.0), "rtol"),
    (dict(t_end=0.0), "t_end"),
    (dict(dt_out=float("nan")), "dt_out"),
    (dict(h=-1e-3, integrator="rk4"), "h"),
    (dict(integrator="euler"), "integrator"),
    (dict(integrator="lms3", rho_inf=2.0), "rho_inf"),
    (dict(integrator="dopri5", rho_inf=0.5), "rho_inf"),
    (dict(backend="abacus"), "backend"),
    (dict(threads=-1), "threads"),
])
def test_a_bad_setting_is_a_value_error_naming_it(quarter_car, options, setting):
    with pytest.raises(ValueError) as caught:
        myriad.simulate(quarter_car, instances=1, **options)
    assert isinstance(caught.value, myriad.SettingError)
    assert caught.value.setting == setting and setting in str(caught.value)


def test_bad_parameter_tables_are_value_errors(quarter_car, tmp_path):
    with pytest.raises(ValueError, match="k_s"):
        myriad.simulate(quarter_car, params={"k_s": [1.0, float("nan")]})
    with pytest.raises(ValueError):
        myriad.simulate(quarter_car, params={"k_s": [1.0, 2.0], "c_s": [1.0]})
    with pytest.raises(ValueError):
        myriad.simulate(quarter_car, params=(["k_s"], np.ones((2, 2))))
    with pytest.raises(ValueError, match="no_such_parameter"):
        myriad.simulate(quarter_car, params={"no_such_parameter": [1.0]})
    csv = tmp_path / "p.csv"
    csv.write_text("k_s,k_s\n1,2\n")
    # The CSV reader (api::ParameterSet::from_csv) reports file and line; it throws std::runtime_error.
    with pytest.raises(RuntimeError, match=r"p\.csv:1: duplicate column 'k_s'"):
        myriad.simulate(quarter_car, params=csv)
    with pytest.raises(TypeError):
        myriad.simulate(quarter_car, params=42)


# ---- Simulator ----

def make_simulator(model, n, **kwargs):
    return myriad.Simulator(model, instances=n, integrator="rk4", h=1e-3, threads=2, **kwargs)


def test_simulator_shapes_and_checks(quarter_car):
    sim = make_simulator(quarter_car, 5)
    assert len(sim) == sim.size == 5
    assert sim.n_signals == len(quarter_car.signal_names)
    assert sim.n_parameters == len(quarter_car.parameter_names)
    assert sim.n_inputs == len(quarter_car.input_names)
    assert sim.observe().shape == (5, sim.n_signals)
    assert sim.get_parameters().shape == (5, sim.n_parameters)
    assert sim.get_state().shape == (5, sim.state_size)
    assert sim.times.shape == (5,) and not sim.times.any() and not sim.status.any()
    np.testing.assert_array_equal(sim.get_parameters(), np.tile(quarter_car.parameter_defaults, (5, 1)))
    with pytest.raises(ValueError, match=r"expected shape \(5, "):
        sim.set_parameters(np.zeros((4, sim.n_parameters)))
    with pytest.raises(ValueError):
        sim.set_state(np.zeros((5, sim.state_size + 1)))
    with pytest.raises(ValueError):
        sim.reset(mask=np.ones(4, bool))
    with pytest.raises(ValueError):
        sim.set_inputs(np.zeros((5, sim.n_inputs + 1)))
    with pytest.raises(ValueError):
        sim.observe(out=np.zeros((5, sim.n_signals), np.float32))
    out = np.empty((5, sim.n_signals))
    assert sim.observe(out=out) is out


def test_simulator_advances_like_simulate(quarter_car):
    # rk4 with the same h from t = 0: the stepper and the batch run take the same steps.
    sim = make_simulator(quarter_car, 3)
    observed = [sim.observe()]
    for _ in range(5):
        sim.advance(0.02)
        observed.append(sim.observe())
    np.testing.assert_allclose(sim.times, 0.1, rtol=0, atol=1e-12)
    batch = myriad.simulate(quarter_car, instances=3, t_end=0.1, dt_out=0.02, integrator="rk4", h=1e-3)
    stepped = np.stack(observed, axis=1)
    np.testing.assert_allclose(stepped, batch.values, rtol=1e-9, atol=1e-9)


def test_simulator_save_and_restore_continue_bit_for_bit(quarter_car):
    sim = make_simulator(quarter_car, 4, params={"k_s": [15000.0, 20000.0, 25000.0, 30000.0]})
    for _ in range(3):
        sim.advance(0.05)
    saved = sim.get_state()
    for _ in range(4):
        sim.advance(0.05)
    first = sim.observe(), sim.get_state()
    sim.set_state(saved)
    for _ in range(4):
        sim.advance(0.05)
    assert np.array_equal(sim.observe(), first[0]) and np.array_equal(sim.get_state(), first[1])


@pytest.mark.parametrize("integrator", ["rk4", "dopri5"])
def test_an_instance_does_not_depend_on_how_many_run_beside_it(quarter_car, integrator):
    n_big = 1024
    rng = np.random.default_rng(5)
    k_s = rng.uniform(15000.0, 35000.0, n_big)
    runs = {}
    for n in (1, 7, n_big):
        sim = myriad.Simulator(quarter_car, instances=n, integrator=integrator, h=1e-3,
                               params={"k_s": k_s[n_big - n:]}, threads=2)
        trajectory = []
        for _ in range(10):
            sim.advance(0.01)
            trajectory.append(sim.observe()[-1])
        runs[n] = np.array(trajectory)  # the last instance has k_s[-1] in every run
    assert np.array_equal(runs[1], runs[7]) and np.array_equal(runs[1], runs[n_big])


def test_simulator_reset_restarts_masked_instances(quarter_car):
    sim = make_simulator(quarter_car, 3)
    start = sim.observe()
    sim.advance(0.05)
    moved = sim.observe()
    sim.reset(mask=np.array([True, False, True]))
    np.testing.assert_array_equal(sim.times, [0.0, 0.05, 0.0])
    after = sim.observe()
    assert np.array_equal(after[[0, 2]], start[[0, 2]]) and np.array_equal(after[1], moved[1])


def test_simulator_on_cuda_steps_like_cpu_or_says_why_not(quarter_car):
    # Without a device (this build's CI) the refusal names the reason; with one, the step kernel's states agree
    # with the cpu backend's (rk4: the same substeps, only the device's multiply-adds differ).
    try:
        gpu = make_simulator(quarter_car, 64, backend="cuda")
    except RuntimeError as error:
        assert str(error).startswith("cuda backend: "), str(error)
        return
    cpu = make_simulator(quarter_car, 64, backend="cpu")
    for sim in (cpu, gpu):
        for _ in range(5):
            sim.advance(0.02)
    np.testing.assert_array_equal(gpu.times, cpu.times)
    np.testing.assert_allclose(gpu.get_state(), cpu.get_state(), rtol=1e-10, atol=1e-12)


def test_observe_in_place_speaks_dlpack_on_the_cpu_without_a_copy(quarter_car):
    sim = make_simulator(quarter_car, 5)
    sim.advance(0.03)
    tensor = sim.observe_in_place()
    assert tensor.__dlpack_device__() == (1, 0) and tensor.shape == (5, sim.n_signals) and tensor.device == "cpu"
    imported = np.from_dlpack(tensor)
    assert imported.dtype == np.float64 and imported.shape == (5, sim.n_signals)
    np.testing.assert_array_equal(imported, sim.observe())
    # The Simulator's own memory: the next observe_in_place writes it again, and the import sees that.
    again = np.from_dlpack(sim.observe_in_place())
    assert np.shares_memory(imported, again)
    sim.advance(0.03)
    sim.observe_in_place()
    np.testing.assert_array_equal(imported, sim.observe())
    # The import keeps the Simulator (the memory's owner) alive after the last Python reference goes.
    del sim, tensor, again
    import gc

    gc.collect()
    assert np.isfinite(imported).all()
    with pytest.raises(BufferError, match="not copied elsewhere"):
        make_simulator(quarter_car, 1).observe_in_place().__dlpack__(dl_device=(2, 0))


def test_observe_in_place_on_cuda_is_device_memory_or_says_why_not(quarter_car):
    # Without a device (this build's CI) the refusal names the reason; with one and PyTorch, the import is a CUDA
    # tensor with observe()'s bits.
    try:
        gpu = make_simulator(quarter_car, 64, backend="cuda")
    except RuntimeError as error:
        assert str(error).startswith("cuda backend: "), str(error)
        return
    gpu.advance(0.02)
    tensor = gpu.observe_in_place()
    assert tensor.__dlpack_device__()[0] == 2 and tensor.device.startswith("cuda:")
    torch = pytest.importorskip("torch", reason="PyTorch is not installed: no DLPack consumer on the GPU to check")
    imported = torch.from_dlpack(tensor)
    assert imported.is_cuda and imported.dtype == torch.float64 and tuple(imported.shape) == tensor.shape
    np.testing.assert_array_equal(imported.cpu().numpy(), gpu.observe())


# ---- random draws ----

def test_philox_draws_are_keyed_not_sequential():
    counters = np.arange(1000, dtype=np.uint64)
    u = myriad.philox_uniform(7, 3, 1, counters)
    assert u.shape == (1000,) and (u >= 0).all() and (u < 1).all()
    # Each draw depends only on its key and counter: elementwise = vectorized, in any order or shape.
    assert all(myriad.philox_uniform(7, 3, 1, int(c)) == u[c] for c in (0, 1, 999))
    grid = myriad.philox_uniform(7, np.arange(4, dtype=np.uint64)[:, None], 1, counters[None, :10])
    assert grid.shape == (4, 10) and np.array_equal(grid[3], u[:10])
    assert not np.array_equal(grid[0], grid[1])  # another instance, another stream
    assert abs(u.mean() - 0.5) < 0.05 and abs(u.var() - 1 / 12) < 0.01
    z = myriad.philox_normal(7, 0, 0, np.arange(20000, dtype=np.uint64))
    assert abs(z.mean()) < 0.05 and abs(z.std() - 1.0) < 0.05
    with pytest.raises(ValueError, match="32 bits"):
        myriad.philox_uniform(1, 2**32, 0, 0)


# ---- documentation ----

def public_members(cls):
    return {name for name in vars(cls) if not name.startswith("_")}


def test_every_public_function_class_and_member_has_a_docstring():
    from myriad import _myriad

    for name in myriad.__all__:
        if name == "__version__":
            continue
        obj = getattr(myriad, name)
        assert (obj.__doc__ or "").strip(), name
        if isinstance(obj, type) and not issubclass(obj, BaseException):
            for member in public_members(obj):
                assert (getattr(obj, member).__doc__ or "").strip(), f"{name}.{member}"
    assert set(myriad.__all__) - {"__version__"} == {n for n in vars(_myriad) if not n.startswith("_")}


def test_the_type_stubs_name_what_the_extension_has(repo):
    """The stubs (python/myriad/_myriad.pyi) list the module's names and each class's public members; their
    signatures were checked with mypy.stubtest."""
    import ast

    from myriad import _myriad

    tree = ast.parse((repo / "python" / "myriad" / "_myriad.pyi").read_text())
    stub_names, stub_members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            stub_names.add(node.name)
        if isinstance(node, ast.ClassDef):
            stub_members[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
                n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
    runtime = {n for n in vars(_myriad) if not n.startswith("_")}
    assert stub_names == runtime
    for name, members in stub_members.items():
        cls = getattr(_myriad, name)
        if issubclass(cls, BaseException):
            assert members == {"file", "pointer", "reason"} or members == {"setting"}
            continue
        assert {m for m in members if not m.startswith("_")} == public_members(cls), name
