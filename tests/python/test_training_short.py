"""The active-suspension training example's short mode (CI) runs to the end in under a minute and reports the
held-out KPIs of the passive and trained suspensions."""
import json
import pathlib
import subprocess
import sys
import time

import numpy as np
import pytest

pytest.importorskip("gymnasium")

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "python" / "examples" / "train_active_suspension.py"


def test_training_example_short_mode(tmp_path):
    out = tmp_path / "result.json"
    start = time.perf_counter()
    run = subprocess.run([sys.executable, str(EXAMPLE), "--short", "--json", str(out)], capture_output=True, text=True,
                         timeout=120)
    seconds = time.perf_counter() - start
    assert run.returncode == 0, run.stderr
    assert seconds < 60, seconds
    result = json.loads(out.read_text())
    for kind in ("passive", "trained"):
        assert result[kind]["episodes"] == result["config"]["n_eval"]
        assert np.isfinite(result[kind]["rms_sprung_accel"]) and result[kind]["rms_sprung_accel"] > 0
        assert np.isfinite(result[kind]["rms_tire_deflection"]) and result[kind]["rms_tire_deflection"] > 0
    assert result["passive"]["rms_force"] == 0.0
    assert len(result["history"]) == result["config"]["iterations"]
    assert "comfort improvement" in run.stdout
