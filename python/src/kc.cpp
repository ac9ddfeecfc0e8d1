// myriad.kc: api::kinematics_and_compliance for Python: the K&C curves of a template corner as a dict of numpy arrays
// by column (the columns `myriad kc` writes), with their units.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings.hpp"

namespace myriad::python {

void bind_kc(py::module_& m) {
  m.def(
      "kc",
      [](const py::object& model, const std::string& subsystem, double travel, int points, const py::object& overrides) {
        const api::LoadedModel loaded = model_from(model);
        api::KcOptions options;
        options.subsystem = subsystem;
        options.travel = travel;
        options.points = points;
        options.overrides = overrides_from(overrides);
        api::KcResult r;
        {
          py::gil_scoped_release release;
          r = api::kinematics_and_compliance(loaded, options);
        }
        py::dict curves, units;
        for (std::size_t c = 0; c < r.columns.size(); ++c) {
          py::array_t<double> column(static_cast<py::ssize_t>(r.rows.size()));
          auto data = column.mutable_unchecked<1>();
          for (std::size_t k = 0; k < r.rows.size(); ++k) data(static_cast<py::ssize_t>(k)) = r.rows[k][c];
          curves[py::str(r.columns[c])] = column;
          units[py::str(r.columns[c])] = r.units[c];
        }
        py::dict out;
        out["subsystem"] = r.subsystem;
        out["side"] = r.side;
        out["curves"] = curves;
        out["units"] = units;
        return out;
      },
      py::arg("model"), py::arg("subsystem") = "", py::arg("travel") = 0.08, py::arg("points") = 33,
      py::arg("overrides") = py::none(),
      "kc(model, subsystem='', travel=0.08, points=33, overrides=None) -> dict\n\n"
      "A template corner on the quasi-static K&C rig, like `myriad kc`: {'subsystem', 'side', 'curves': {column:\n"
      "ndarray}, 'units': {column: unit}} with the columns travel, toe, camber, wheel_center_x/y/z, spring_length,\n"
      "motion_ratio, wheel_load, wheel_rate, roll_centre_height (docs/model-format.md, \"The K&C rig\"). subsystem ''\n"
      "takes the model's only one. ValueError for bad options or a missing subsystem, RuntimeError when the corner\n"
      "cannot reach a travel, SettingError for an unknown parameter in overrides.");
}

}  // namespace myriad::python
