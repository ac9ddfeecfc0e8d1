"""Type stubs of the extension myriad._myriad (python/src/*.cpp), the binding of src/api/myriad/myriad.hpp."""
import os
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

__version__: str

_Path = Union[str, "os.PathLike[str]"]
_Params = Union[
    None,
    _Path,
    Mapping[str, npt.ArrayLike],
    Tuple[Sequence[str], npt.ArrayLike],
    "ParameterSet",
]
_UInt = Union[int, npt.ArrayLike]

class ModelFileError(ValueError):
    """A model file's problem: str(error) is the CLI's message."""

    file: str
    pointer: str
    reason: str

class SettingError(ValueError):
    """A run setting refused as given; `setting` is the RunOptions member's name."""

    setting: str

class SimulationDefaults:
    t_end: float
    dt_out: float
    rtol: float
    atol: float
    h: float
    integrator: str
    def as_dict(self) -> Dict[str, Union[float, str]]: ...

class LoadedModel:
    @property
    def name(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def parameter_names(self) -> List[str]: ...
    @property
    def parameter_defaults(self) -> npt.NDArray[np.float64]: ...
    @property
    def signal_names(self) -> List[str]: ...
    @property
    def input_names(self) -> List[str]: ...
    @property
    def input_defaults(self) -> npt.NDArray[np.float64]: ...
    @property
    def input_lower(self) -> npt.NDArray[np.float64]: ...
    @property
    def input_upper(self) -> npt.NDArray[np.float64]: ...
    @property
    def nq(self) -> int: ...
    @property
    def nv(self) -> int: ...
    @property
    def has_loops(self) -> bool: ...
    @property
    def defaults(self) -> SimulationDefaults: ...

def load_model(path: _Path) -> LoadedModel: ...
def load_model_string(text: str, name: str = "<string>") -> LoadedModel: ...

class ParameterSet:
    source: str
    names: List[str]
    rows: int
    @property
    def values(self) -> npt.NDArray[np.float64]: ...
    @staticmethod
    def from_csv(path: str) -> ParameterSet: ...
    @staticmethod
    def from_array(names: Sequence[str], values: npt.ArrayLike) -> ParameterSet: ...
    @staticmethod
    def from_any(params: _Params) -> Optional[ParameterSet]: ...

class SimulationResult:
    values: npt.NDArray[np.float64]
    times: npt.NDArray[np.float64]
    status: npt.NDArray[np.int32]
    stats: Dict[str, npt.NDArray[np.generic]]
    @property
    def signal_names(self) -> List[str]: ...
    @property
    def status_names(self) -> List[str]: ...
    @property
    def wall_seconds(self) -> float: ...
    @property
    def backend(self) -> str: ...
    @property
    def integrator(self) -> str: ...
    @property
    def threads(self) -> int: ...
    @property
    def n_instances(self) -> int: ...
    @property
    def n_times(self) -> int: ...
    @property
    def n_signals(self) -> int: ...
    def signal(self, name: str) -> npt.NDArray[np.float64]: ...

def simulate(
    model: Union[LoadedModel, _Path],
    params: _Params = None,
    instances: Optional[int] = None,
    t_end: Optional[float] = None,
    dt_out: Optional[float] = None,
    integrator: Optional[str] = None,
    h: Optional[float] = None,
    rtol: Optional[float] = None,
    atol: Optional[float] = None,
    backend: str = "auto",
    threads: int = 0,
    overrides: Optional[Mapping[str, float]] = None,
    progress: Optional[Callable[[int, int], object]] = None,
    *,
    fac: Optional[float] = None,
    facmin: Optional[float] = None,
    facmax: Optional[float] = None,
    max_steps: Optional[int] = None,
    gpu_strategy: Optional[str] = None,
    gpu_step_budget: Optional[int] = None,
) -> SimulationResult: ...

class Simulator:
    def __init__(
        self,
        model: Union[LoadedModel, _Path],
        instances: int = 1,
        backend: str = "cpu",
        threads: int = 0,
        integrator: Optional[str] = None,
        h: Optional[float] = None,
        rtol: Optional[float] = None,
        atol: Optional[float] = None,
        params: _Params = None,
        overrides: Optional[Mapping[str, float]] = None,
        *,
        fac: Optional[float] = None,
        facmin: Optional[float] = None,
        facmax: Optional[float] = None,
        max_steps: Optional[int] = None,
    ) -> None: ...
    def __len__(self) -> int: ...
    @property
    def size(self) -> int: ...
    @property
    def n_inputs(self) -> int: ...
    @property
    def n_signals(self) -> int: ...
    @property
    def n_parameters(self) -> int: ...
    @property
    def state_size(self) -> int: ...
    @property
    def model(self) -> LoadedModel: ...
    @property
    def times(self) -> npt.NDArray[np.float64]: ...
    @property
    def status(self) -> npt.NDArray[np.int32]: ...
    def set_inputs(self, u: npt.ArrayLike) -> None: ...
    def advance(self, dt: float) -> None: ...
    def observe(self, out: Optional[npt.NDArray[np.float64]] = None) -> npt.NDArray[np.float64]: ...
    def reset(
        self,
        mask: Optional[npt.ArrayLike] = None,
        params: Optional[npt.ArrayLike] = None,
        states: Optional[npt.ArrayLike] = None,
    ) -> None: ...
    def get_parameters(self) -> npt.NDArray[np.float64]: ...
    def set_parameters(self, p: npt.ArrayLike) -> None: ...
    def get_state(self) -> npt.NDArray[np.float64]: ...
    def set_state(self, state: npt.ArrayLike) -> None: ...

@overload
def philox_uniform(seed: int, instance: int, episode: int, counter: int) -> float: ...
@overload
def philox_uniform(seed: _UInt, instance: _UInt, episode: _UInt, counter: _UInt) -> npt.NDArray[np.float64]: ...
@overload
def philox_normal(seed: int, instance: int, episode: int, counter: int) -> float: ...
@overload
def philox_normal(seed: _UInt, instance: _UInt, episode: _UInt, counter: _UInt) -> npt.NDArray[np.float64]: ...
def status_name(code: int) -> str: ...
