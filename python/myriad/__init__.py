"""Myriad: ensembles of multibody models on all CPU cores or a CUDA GPU, from Python.

    import myriad
    model = myriad.load_model("models/quarter_car.json")
    result = myriad.simulate(model, params="models/quarter_car_study.csv")
    result.signal("a_s")            # (N, T) view of result.values (N, T, S), no copy

The extension ``myriad._myriad`` binds the C++ API (src/api/myriad/myriad.hpp); this package re-exports it.
``myriad.gym`` holds Gymnasium vector environments over ``Simulator``.
"""
from ._myriad import (
    LoadedModel,
    ModelFileError,
    ObservationTensor,
    ParameterSet,
    SettingError,
    SimulationDefaults,
    SimulationResult,
    Simulator,
    __version__,
    load_model,
    kc,
    load_model_string,
    modes,
    philox_normal,
    philox_uniform,
    simulate,
    status_name,
)

__all__ = [
    "LoadedModel",
    "ModelFileError",
    "ObservationTensor",
    "ParameterSet",
    "SettingError",
    "SimulationDefaults",
    "SimulationResult",
    "Simulator",
    "__version__",
    "load_model",
    "kc",
    "load_model_string",
    "modes",
    "philox_normal",
    "philox_uniform",
    "simulate",
    "status_name",
]
