"""Where the model files of myriad.gym's environments are found: $MYRIAD_MODELS_DIR if set (to try an edited model
without reinstalling), else the package's own data folder myriad/gym/models/, which ships copies of the source
tree's models/active_suspension.json and models/cart_pole.json (tests/python/test_gym_env_checker.py checks that
they are byte-identical), so an installed package needs no source tree."""
from __future__ import annotations

import os
from pathlib import Path

PACKAGE_MODELS = Path(__file__).resolve().parent / "models"


def model_path(file_name: str) -> str:
    env = os.environ.get("MYRIAD_MODELS_DIR")
    folder = Path(env) if env else PACKAGE_MODELS
    candidate = folder / file_name
    if not candidate.is_file():
        where = f"MYRIAD_MODELS_DIR={env}" if env else "the myriad.gym package data"
        raise FileNotFoundError(f"{candidate}: not found ({where})")
    return str(candidate)
