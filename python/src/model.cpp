// LoadedModel, ParameterSet, load_model / load_model_string, and the argument conversions shared by simulate and
// Simulator (a model or a path; parameters in the forms Python users hold them).
#include <pybind11/stl.h>

#include <cmath>
#include <string>

#include "bindings.hpp"

namespace myriad::python {

namespace {

py::array_t<double> to_array(const std::vector<double>& values) {
  py::array_t<double> out(static_cast<py::ssize_t>(values.size()));
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

bool is_path(const py::handle& object) {
  static const py::object path_like = py::module_::import("os").attr("PathLike");
  return py::isinstance<py::str>(object) || py::isinstance(object, path_like);
}

std::string path_string(const py::handle& object) {
  return py::str(py::module_::import("os").attr("fspath")(object));
}

api::ParameterSet parameters_from_columns(std::vector<std::string> names, const DoubleArray& table) {
  if (table.ndim() != 2) {
    throw py::value_error("params: the table must be 2-D (N x P), got " + std::to_string(table.ndim()) +
                          " dimensions");
  }
  if (static_cast<std::size_t>(table.shape(1)) != names.size()) {
    throw py::value_error("params: " + std::to_string(names.size()) + " names for " +
                          std::to_string(table.shape(1)) + " columns");
  }
  return api::ParameterSet::from_array(std::move(names), static_cast<long long>(table.shape(0)), table.data());
}

}  // namespace

api::LoadedModel model_from(const py::object& model_or_path) {
  if (py::isinstance<api::LoadedModel>(model_or_path)) return model_or_path.cast<api::LoadedModel>();
  if (is_path(model_or_path)) {
    std::string path = path_string(model_or_path);
    py::gil_scoped_release release;
    return api::load_model(path);
  }
  throw py::type_error("model: expected a myriad.LoadedModel or a path, got " +
                       std::string(py::str(py::type::of(model_or_path).attr("__name__"))));
}

std::optional<api::ParameterSet> parameters_from(const py::object& params) {
  if (params.is_none()) return std::nullopt;
  if (py::isinstance<api::ParameterSet>(params)) return params.cast<api::ParameterSet>();
  if (is_path(params)) {
    std::string path = path_string(params);
    py::gil_scoped_release release;
    return api::ParameterSet::from_csv(path);
  }
  if (py::isinstance<py::dict>(params)) {
    auto columns = params.cast<py::dict>();
    std::vector<std::string> names;
    std::vector<DoubleArray> arrays;
    py::ssize_t rows = -1;
    for (const auto& [key, value] : columns) {
      if (!py::isinstance<py::str>(key)) throw py::type_error("params: dict keys must be parameter names (str)");
      names.push_back(key.cast<std::string>());
      auto column = DoubleArray::ensure(value);
      if (!column) throw py::value_error("params['" + names.back() + "']: not convertible to float64");
      if (column.ndim() != 1) {
        throw py::value_error("params['" + names.back() + "']: expected a 1-D array of N values, got " +
                              std::to_string(column.ndim()) + " dimensions (use overrides= for one value)");
      }
      if (rows >= 0 && column.shape(0) != rows) {
        throw py::value_error("params['" + names.back() + "']: " + std::to_string(column.shape(0)) +
                              " values, the columns before it have " + std::to_string(rows));
      }
      rows = column.shape(0);
      arrays.push_back(std::move(column));
    }
    if (names.empty()) throw py::value_error("params: an empty dict (pass None for no parameter table)");
    const auto n = static_cast<std::size_t>(rows), p = names.size();
    std::vector<double> table(n * p);
    for (std::size_t j = 0; j < p; ++j) {
      const double* column = arrays[j].data();
      for (std::size_t i = 0; i < n; ++i) table[i * p + j] = column[i];
    }
    return api::ParameterSet::from_array(std::move(names), static_cast<long long>(n), table.data());
  }
  if (py::isinstance<py::tuple>(params) || py::isinstance<py::list>(params)) {
    auto pair = params.cast<py::sequence>();
    if (pair.size() != 2) throw py::value_error("params: a sequence must be (names, N x P array)");
    auto table = DoubleArray::ensure(pair[1]);
    if (!table) throw py::value_error("params: the table is not convertible to float64");
    return parameters_from_columns(pair[0].cast<std::vector<std::string>>(), table);
  }
  throw py::type_error("params: expected None, a CSV path, a dict name -> array, (names, N x P array) or a "
                       "myriad.ParameterSet");
}

std::vector<std::pair<std::string, double>> overrides_from(const py::object& overrides) {
  std::vector<std::pair<std::string, double>> out;
  if (overrides.is_none()) return out;
  if (!py::isinstance<py::dict>(overrides)) throw py::type_error("overrides: expected a dict name -> value");
  for (const auto& [key, value] : overrides.cast<py::dict>()) {
    out.emplace_back(key.cast<std::string>(), value.cast<double>());
  }
  return out;
}

api::RunOptions RunOptionArgs::to_options(const std::string& backend, int threads) const {
  api::RunOptions options;
  options.t_end = t_end;
  options.dt_out = dt_out;
  options.h = h;
  options.rtol = rtol;
  options.atol = atol;
  options.fac = fac;
  options.facmin = facmin;
  options.facmax = facmax;
  options.max_steps = max_steps;
  options.integrator = integrator;
  options.rho_inf = rho_inf;
  options.backend = backend;
  options.threads = threads;
  return options;
}

void bind_model(py::module_& m) {
  py::class_<api::SimulationDefaults>(m, "SimulationDefaults",
                                      "A model's `simulation` block with the documented defaults filled in.")
      .def_readonly("t_end", &api::SimulationDefaults::t_end, "End time of a run (s).")
      .def_readonly("dt_out", &api::SimulationDefaults::dt_out, "Output interval (s).")
      .def_readonly("rtol", &api::SimulationDefaults::rtol, "Relative tolerance of the adaptive methods.")
      .def_readonly("atol", &api::SimulationDefaults::atol, "Absolute tolerance of the adaptive methods.")
      .def_readonly("h", &api::SimulationDefaults::h, "Step size of rk4 (s).")
      .def_readonly("integrator", &api::SimulationDefaults::integrator,
                    "rk4 | dopri5 | rn4 | ros2w, or an implicit method (backward-euler, lms3, bathe, ...).")
      .def_readonly("rho_inf", &api::SimulationDefaults::rho_inf,
                    "The implicit methods' spectral radius at infinity (0 unless the model sets it).")
      .def("as_dict", [](const api::SimulationDefaults& d) {
        py::dict out;
        out["t_end"] = d.t_end;
        out["dt_out"] = d.dt_out;
        out["rtol"] = d.rtol;
        out["atol"] = d.atol;
        out["h"] = d.h;
        out["integrator"] = d.integrator;
        out["rho_inf"] = d.rho_inf;
        return out;
      }, "The defaults as a dict (t_end, dt_out, rtol, atol, h, integrator, rho_inf).")
      .def("__repr__", [](const api::SimulationDefaults& d) {
        return "SimulationDefaults(t_end=" + std::string(py::repr(py::float_(d.t_end))) +
               ", dt_out=" + std::string(py::repr(py::float_(d.dt_out))) + ", integrator='" + d.integrator +
               "', h=" + std::string(py::repr(py::float_(d.h))) + ", rtol=" +
               std::string(py::repr(py::float_(d.rtol))) + ", atol=" + std::string(py::repr(py::float_(d.atol))) +
               ")";
      });

  py::class_<api::LoadedModel>(m, "LoadedModel",
                               "A loaded and compiled model: immutable, cheap to share between runs and "
                               "simulators. Made by load_model / load_model_string.")
      .def_property_readonly("name", &api::LoadedModel::name, "The model's `name`.")
      .def_property_readonly("source", &api::LoadedModel::source,
                             "The file it was loaded from, or the name given to load_model_string.")
      .def_property_readonly("parameter_names", &api::LoadedModel::parameter_names,
                             "Names of the model's parameters, in file order (list of str).")
      .def_property_readonly("parameter_defaults",
                             [](const api::LoadedModel& model) { return to_array(model.parameter_defaults()); },
                             "The parameters' values in the file (float64 array, P).")
      .def_property_readonly("signal_names", &api::LoadedModel::signal_names,
                             "Names of the output signals, in order (the S axis of results).")
      .def_property_readonly("input_names", &api::LoadedModel::input_names,
                             "Names of the model's `inputs` (the A axis of Simulator.set_inputs).")
      .def_property_readonly("input_defaults",
                             [](const api::LoadedModel& model) { return to_array(model.input_defaults()); },
                             "Each input's default (float64 array, A): its value in batch runs and after reset.")
      .def_property_readonly("input_lower",
                             [](const api::LoadedModel& model) { return to_array(model.input_lower()); },
                             "Each input's lower bound (float64 array, A; -inf where unbounded).")
      .def_property_readonly("input_upper",
                             [](const api::LoadedModel& model) { return to_array(model.input_upper()); },
                             "Each input's upper bound (float64 array, A; +inf where unbounded).")
      .def_property_readonly("nq", &api::LoadedModel::nq, "Number of generalized coordinates.")
      .def_property_readonly("nv", &api::LoadedModel::nv, "Number of generalized velocities.")
      .def_property_readonly("has_loops", &api::LoadedModel::has_loops, "Whether the model has closed loops.")
      .def_property_readonly("defaults", [](const api::LoadedModel& model) { return model.defaults(); },
                             "The model's simulation defaults (t_end, dt_out, integrator, h, rtol, atol).")
      .def("keep_signals", &api::keep_signals, py::arg("names"),
           "keep_signals(names) -> LoadedModel\n\n"
           "The model with only the named outputs, in that order: a run computes, records and returns only those "
           "(their values are the whole model's, bit for bit). A named KPI's output has to be among them. Raises "
           "myriad.SettingError (setting 'signals') for an empty list, an unknown or repeated name, or a KPI's "
           "output left out.")
      .def("__repr__", [](const api::LoadedModel& model) {
        return "<myriad.LoadedModel '" + model.name() + "' from '" + model.source() + "': nq=" +
               std::to_string(model.nq()) + ", nv=" + std::to_string(model.nv()) + ", " +
               std::to_string(model.parameter_names().size()) + " parameters, " +
               std::to_string(model.signal_names().size()) + " signals, " +
               std::to_string(model.input_names().size()) + " inputs>";
      });

  m.def("load_model", [](const py::object& path) { return model_from(path); }, py::arg("path"),
        "load_model(path) -> LoadedModel\n\n"
        "Loads and compiles a model file (str or os.PathLike). Raises ModelFileError (a ValueError) naming the "
        "file, the JSON pointer and the reason for every loader and compiler error, RuntimeError "
        "when the file cannot be read.");
  m.def(
      "load_model_string",
      [](const std::string& text, const std::string& name) {
        py::gil_scoped_release release;
        return api::load_model_string(text, name);
      },
      py::arg("text"), py::arg("name") = "<string>",
      "load_model_string(text, name='<string>') -> LoadedModel\n\n"
      "Loads and compiles a model from JSON text; `name` stands for the file in messages (ModelFileError.file).");

  py::class_<api::ParameterSet>(m, "ParameterSet",
                                "Per-instance parameter values by column name: an N x P table (any subset of the "
                                "model's parameters). Row i goes to instance i.")
      .def_static("from_csv", &api::ParameterSet::from_csv, py::arg("path"),
                  "from_csv(path) -> ParameterSet\n\nReads the CLI's --params format (header of names, one row "
                  "per instance), with the CLI's checks and messages.")
      .def_static(
          "from_array",
          [](std::vector<std::string> names, const DoubleArray& table) {
            return parameters_from_columns(std::move(names), table);
          },
          py::arg("names"), py::arg("values"),
          "from_array(names, values) -> ParameterSet\n\n`values` is N x P (column j is names[j]). Raises "
          "ValueError on a size mismatch, an empty or duplicate name, or a non-finite value.")
      .def_static("from_any", &parameters_from, py::arg("params"),
                  "from_any(params) -> ParameterSet | None\n\nConverts what simulate's `params` accepts.")
      .def_readonly("source", &api::ParameterSet::source, "A file name, or '<array>'.")
      .def_readonly("names", &api::ParameterSet::names, "Column names (P).")
      .def_readonly("rows", &api::ParameterSet::rows, "Number of rows (N).")
      .def_property_readonly(
          "values",
          [](const api::ParameterSet& set) {
            py::array_t<double> out({static_cast<py::ssize_t>(set.rows),
                                     static_cast<py::ssize_t>(set.names.size())});
            std::copy(set.values.begin(), set.values.end(), out.mutable_data());
            return out;
          },
          "The table as a new float64 array (N x P).")
      .def("__repr__", [](const api::ParameterSet& set) {
        return "<myriad.ParameterSet from '" + set.source + "': " + std::to_string(set.rows) + " rows x " +
               std::to_string(set.names.size()) + " columns>";
      });
}

}  // namespace myriad::python
