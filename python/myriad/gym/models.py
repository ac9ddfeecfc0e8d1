"""Where the shipped model files of myriad.gym are found: $MYRIAD_MODELS_DIR if set, else the first `models/`
folder holding the file in this package's parent folders (the source tree's models/ beside python/)."""
from __future__ import annotations

import os
from pathlib import Path


def model_path(file_name: str) -> str:
    env = os.environ.get("MYRIAD_MODELS_DIR")
    if env:
        candidate = Path(env) / file_name
        if candidate.is_file():
            return str(candidate)
        raise FileNotFoundError(f"{candidate}: not found (MYRIAD_MODELS_DIR={env})")
    here = Path(__file__).resolve()
    for parent in here.parents:
        candidate = parent / "models" / file_name
        if candidate.is_file():
            return str(candidate)
    raise FileNotFoundError(f"models/{file_name}: not found above {here.parent}; set MYRIAD_MODELS_DIR")
