// myriad.modes: api::modes for Python, as plain dicts and lists with the keys of `myriad modes --json`.
#include <pybind11/stl.h>

#include "bindings.hpp"

namespace myriad::python {

void bind_modes(py::module_& m) {
  m.def(
      "modes",
      [](const py::object& model, const py::object& overrides, double t, bool at_initial_state, double tolerance) {
        const api::LoadedModel loaded = model_from(model);
        api::ModesOptions options;
        options.overrides = overrides_from(overrides);
        options.t = t;
        options.at_initial_state = at_initial_state;
        options.tolerance = tolerance;
        api::ModesResult r;
        {
          py::gil_scoped_release release;
          r = api::modes(loaded, options);
        }
        py::list modes, undamped;
        for (const api::Mode& mode : r.modes) {
          py::dict d;
          d["oscillating"] = mode.oscillating;
          d["eigenvalue"] = std::complex<double>(mode.real, mode.imag);
          d["natural_hz"] = mode.natural_hz;
          d["damped_hz"] = mode.damped_hz;
          d["damping_ratio"] = mode.damping_ratio;
          d["dominant"] = mode.dominant;
          d["shape"] = mode.shape;
          modes.append(d);
        }
        for (const api::UndampedMode& mode : r.undamped) {
          py::dict d;
          d["frequency_hz"] = mode.frequency_hz;
          d["eigenvalue"] = mode.eigenvalue;
          d["dominant"] = mode.dominant;
          d["shape"] = mode.shape;
          undamped.append(d);
        }
        py::dict equilibrium;
        equilibrium["q"] = r.q;
        equilibrium["v"] = r.v;
        equilibrium["newton_iterations"] = r.iterations;
        equilibrium["residual"] = r.residual;
        py::dict out;
        out["t"] = r.t;
        out["coordinates"] = r.coordinates;
        out["equilibrium"] = equilibrium;
        out["modes"] = modes;
        out["undamped"] = undamped;
        return out;
      },
      py::arg("model"), py::arg("overrides") = py::none(), py::arg("t") = 0.0, py::arg("at_initial_state") = false,
      py::arg("tolerance") = 1e-10,
      "modes(model, overrides=None, t=0.0, at_initial_state=False, tolerance=1e-10) -> dict\n\n"
      "Static equilibrium (Newton on the exact Jacobian), linearization there and its modes, like `myriad modes`:\n"
      "{'t', 'coordinates', 'equilibrium': {'q', 'v', 'newton_iterations', 'residual'}, 'modes': [{'oscillating',\n"
      "'eigenvalue' (complex, 1/s), 'natural_hz', 'damped_hz', 'damping_ratio', 'dominant', 'shape'}, ...],\n"
      "'undamped': [{'frequency_hz', 'eigenvalue', 'dominant', 'shape'}, ...]}. Damped modes by natural frequency\n"
      "(non-oscillating ones last); undamped natural frequencies leave the damping out (det(K - w^2 M) = 0).\n"
      "RuntimeError when there is no equilibrium (a free body under gravity): at_initial_state=True linearizes\n"
      "where the model starts. SettingError for an unknown parameter in overrides.");
}

}  // namespace myriad::python
