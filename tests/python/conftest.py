"""Shared fixtures of the Python suite (run by ctest `python_tests` with PYTHONPATH=<build>/python, or by hand:
PYTHONPATH=build/python MYRIAD_CLI=build/myriad build/venv/bin/python -m pytest tests/python)."""
import os
import pathlib

import pytest

REPO = pathlib.Path(os.environ.get("MYRIAD_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


@pytest.fixture(scope="session")
def repo() -> pathlib.Path:
    return REPO


@pytest.fixture(scope="session")
def cli(repo) -> pathlib.Path:
    """The myriad CLI of the same build (ctest sets MYRIAD_CLI)."""
    path = pathlib.Path(os.environ.get("MYRIAD_CLI", repo / "build" / "myriad"))
    if not path.is_file():
        pytest.fail(f"no CLI at {path}: set MYRIAD_CLI to the build's myriad binary")
    return path


@pytest.fixture(scope="session")
def quarter_car(repo):
    import myriad

    return myriad.load_model(str(repo / "models" / "quarter_car.json"))
