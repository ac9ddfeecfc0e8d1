"""myriad.gym's model files: the package ships its own copies (myriad/gym/models/), byte-identical to the source
tree's models/, found without the source tree; $MYRIAD_MODELS_DIR overrides them; an environment starts from the
file's parameter values (read here from the JSON, independently of the binding)."""
import json

import numpy as np
import pytest

pytest.importorskip("gymnasium")
import myriad.gym  # noqa: E402
from myriad.gym import models  # noqa: E402

FILES = ["active_suspension.json", "cart_pole.json"]


@pytest.mark.parametrize("name", FILES)
def test_shipped_models_are_the_source_trees(repo, name):
    assert (models.PACKAGE_MODELS / name).read_bytes() == (repo / "models" / name).read_bytes()


def test_models_are_found_in_the_package_or_the_override(monkeypatch, tmp_path):
    monkeypatch.delenv("MYRIAD_MODELS_DIR", raising=False)
    assert models.model_path("cart_pole.json") == str(models.PACKAGE_MODELS / "cart_pole.json")
    monkeypatch.setenv("MYRIAD_MODELS_DIR", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="MYRIAD_MODELS_DIR"):
        models.model_path("cart_pole.json")
    (tmp_path / "cart_pole.json").write_bytes((models.PACKAGE_MODELS / "cart_pole.json").read_bytes())
    assert models.model_path("cart_pole.json") == str(tmp_path / "cart_pole.json")


def test_cart_pole_runs_with_the_files_parameter_values(monkeypatch):
    monkeypatch.delenv("MYRIAD_MODELS_DIR", raising=False)
    spec = json.loads((models.PACKAGE_MODELS / "cart_pole.json").read_text())
    env = myriad.gym.CartPoleVecEnv(2)
    env.reset(seed=0)
    for name, entry in spec["parameters"].items():
        np.testing.assert_array_equal(env.parameter(name), entry["value"], err_msg=name)
    np.testing.assert_array_equal(env.sim.get_parameters(), env.parameters)
