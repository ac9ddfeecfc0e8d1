#pragma once
// Shared pieces of the pybind11 binding myriad._myriad (python/src): argument conversions used by both `simulate`
// and `Simulator`, and the registration functions each binding file defines.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "myriad/myriad.hpp"

namespace myriad::python {

namespace py = pybind11;

// A C-contiguous float64 view of any array-like (a copy only when the input is not already one).
using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

// A LoadedModel, or a path (str or os.PathLike) loaded with api::load_model.
api::LoadedModel model_from(const py::object& model_or_path);

// Per-instance parameters from what Python users pass: None; a ParameterSet; a path to a CSV (the CLI's --params
// format, read by api::ParameterSet::from_csv); a dict name -> 1-D array of N values; or (names, N x P array).
std::optional<api::ParameterSet> parameters_from(const py::object& params);

// {"name": value, ...} -> the api's override list, in the dict's order.
std::vector<std::pair<std::string, double>> overrides_from(const py::object& overrides);

// Run options as keyword arguments: None leaves a member unset (the model's `simulation` block decides). An
// aggregate: {t_end, dt_out, h, rtol, atol, fac, facmin, facmax, max_steps, integrator}.
struct RunOptionArgs {
  std::optional<double> t_end, dt_out, h, rtol, atol, fac, facmin, facmax;
  std::optional<long long> max_steps;
  std::optional<std::string> integrator;
  std::optional<double> rho_inf;  // the implicit integrators' spectral radius at infinity
  api::RunOptions to_options(const std::string& backend, int threads) const;
};

void bind_errors(py::module_& m);     // errors.cpp
void bind_model(py::module_& m);      // model.cpp
void bind_simulate(py::module_& m);   // simulate.cpp
void bind_simulator(py::module_& m);  // simulator.cpp
void bind_philox(py::module_& m);     // simulator.cpp
void bind_modes(py::module_& m);      // modes.cpp
void bind_kc(py::module_& m);         // kc.cpp
void bind_dlpack(py::module_& m);     // dlpack.cpp

// Simulator.observe_in_place's result: the view as a DLPack producer that keeps `owner` (the Simulator) alive.
py::object observation_tensor(const api::ObservationView& view, py::object owner);  // dlpack.cpp

}  // namespace myriad::python
