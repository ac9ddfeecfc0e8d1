// Simulator (the stepping API for control and RL) and the counter-based random draws. Every array argument is
// checked for its shape before the C++ side reads it; advance() releases the interpreter lock. One Simulator is
// used by one thread at a time: a mutex serializes calls from several Python threads.
#include <pybind11/stl.h>

#include <mutex>

#include "bindings.hpp"

namespace myriad::python {

namespace {

struct PySimulator {
  api::Simulator simulator;
  std::mutex mutex;  // serializes calls (taken with the interpreter lock released where a call may be long)

  PySimulator(const api::LoadedModel& model, const api::SimulatorOptions& options) : simulator(model, options) {}

  long long n() const { return simulator.size(); }
};

// `array` as C-contiguous float64 with shape (rows, columns); a 1-D array of `rows` values is accepted when
// columns == 1. Raises ValueError naming `what` otherwise.
DoubleArray checked_table(const py::handle& object, const char* what, long long rows, long long columns) {
  auto array = DoubleArray::ensure(object);
  if (!array) throw py::value_error(std::string(what) + ": not convertible to a float64 array");
  const bool as_matrix = array.ndim() == 2 && array.shape(0) == rows && array.shape(1) == columns;
  const bool as_column = array.ndim() == 1 && columns == 1 && array.shape(0) == rows;
  if (!as_matrix && !as_column) {
    std::string shape = "(";
    for (py::ssize_t k = 0; k < array.ndim(); ++k) shape += (k ? ", " : "") + std::to_string(array.shape(k));
    shape += array.ndim() == 1 ? ",)" : ")";
    throw py::value_error(std::string(what) + ": expected shape (" + std::to_string(rows) + ", " +
                          std::to_string(columns) + "), got " + shape);
  }
  return array;
}

py::array_t<double> new_table(long long rows, long long columns) {
  return py::array_t<double>({static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(columns)});
}

}  // namespace

void bind_simulator(py::module_& m) {
  py::class_<PySimulator>(m, "Simulator",
                          "N instances of a model stepped together (control and RL). Each instance integrates "
                          "from its own t to t + dt with its own method and step size, its inputs held constant "
                          "over the step; an instance's results never depend on the others (how many, which, in "
                          "which order). Full state save/restore (get_state/set_state) continues bit for bit.")
      .def(py::init([](const py::object& model, long long instances, const std::string& backend, int threads,
                       std::optional<std::string> integrator, std::optional<double> h, std::optional<double> rtol,
                       std::optional<double> atol, const py::object& params, const py::object& overrides,
                       std::optional<double> fac, std::optional<double> facmin, std::optional<double> facmax,
                       std::optional<long long> max_steps, std::optional<double> rho_inf) {
             // t_end and dt_out: unused by stepping.
             const RunOptionArgs args{std::nullopt, std::nullopt, h, rtol, atol, fac, facmin, facmax, max_steps,
                                      std::move(integrator), rho_inf};
             api::SimulatorOptions options;
             options.instances = instances;
             options.backend = backend;
             options.threads = threads;
             options.run = args.to_options(backend, threads);
             options.parameters = parameters_from(params);
             options.overrides = overrides_from(overrides);
             api::LoadedModel loaded = model_from(model);
             py::gil_scoped_release release;
             return std::make_unique<PySimulator>(loaded, options);
           }),
           py::arg("model"), py::arg("instances") = 1, py::arg("backend") = "cpu", py::arg("threads") = 0,
           py::arg("integrator") = py::none(), py::arg("h") = py::none(), py::arg("rtol") = py::none(),
           py::arg("atol") = py::none(), py::arg("params") = py::none(), py::arg("overrides") = py::none(),
           py::kw_only(), py::arg("fac") = py::none(), py::arg("facmin") = py::none(),
           py::arg("facmax") = py::none(), py::arg("max_steps") = py::none(), py::arg("rho_inf") = py::none(),
           "Simulator(model, instances=1, backend='cpu', threads=0, integrator=None, h=None, rtol=None, "
           "atol=None, params=None, overrides=None)\n\n"
           "model: a LoadedModel or a path. backend: cpu | cuda. params: initial per-instance parameters in any "
           "form simulate accepts (row i -> instance i); overrides: dict name -> value for every instance. Unset "
           "integrator options come from the model's `simulation` block; SettingError names a bad one.")
      .def_property_readonly("size", &PySimulator::n, "N, the number of instances.")
      .def("__len__", &PySimulator::n, "N, the number of instances.")
      .def_property_readonly("n_inputs", [](const PySimulator& s) { return s.simulator.n_inputs(); },
                             "A, the number of model inputs.")
      .def_property_readonly("n_signals", [](const PySimulator& s) { return s.simulator.n_signals(); },
                             "S, the number of output signals.")
      .def_property_readonly("n_parameters", [](const PySimulator& s) { return s.simulator.n_parameters(); },
                             "P, the number of model parameters.")
      .def_property_readonly("state_size", [](const PySimulator& s) { return s.simulator.state_size(); },
                             "Doubles of one instance's full state (get_state / set_state).")
      .def_property_readonly("model", [](const PySimulator& s) { return s.simulator.model(); },
                             "The LoadedModel.")
      .def(
          "set_inputs",
          [](PySimulator& s, const py::handle& u) {
            auto table = checked_table(u, "set_inputs: u", s.n(), s.simulator.n_inputs());
            std::lock_guard<std::mutex> lock(s.mutex);
            s.simulator.set_inputs(table.data());
          },
          py::arg("u"),
          "set_inputs(u)\n\nu: (N, A) input values (A == 1: (N,) too), clipped to the model's input bounds; held "
          "constant over the following advance calls.")
      .def(
          "advance",
          [](PySimulator& s, double dt) {
            py::gil_scoped_release release;
            std::lock_guard<std::mutex> lock(s.mutex);
            s.simulator.advance(dt);
          },
          py::arg("dt"),
          "advance(dt)\n\nEvery instance integrates from its t to t + dt (substeps as its method needs). The "
          "interpreter lock is released meanwhile; a Ctrl-C during the call raises KeyboardInterrupt when it "
          "returns (an advance is one control period, so it is not cut short).")
      .def(
          "observe",
          [](PySimulator& s, const py::object& out) {
            const long long rows = s.n(), columns = s.simulator.n_signals();
            py::array_t<double> result;
            if (out.is_none()) {
              result = new_table(rows, columns);
            } else {
              result = py::array_t<double>::ensure(out);
              const bool fits = result && result.ndim() == 2 && result.shape(0) == rows &&
                                result.shape(1) == columns && result.writeable() &&
                                (result.flags() & py::array::c_style) && result.ptr() == out.ptr();
              if (!fits) {
                throw py::value_error("observe: out must be a writeable C-contiguous float64 array of shape (" +
                                      std::to_string(rows) + ", " + std::to_string(columns) + ")");
              }
            }
            double* data = result.mutable_data();
            {
              py::gil_scoped_release release;
              std::lock_guard<std::mutex> lock(s.mutex);
              s.simulator.observe(data);
            }
            return result;
          },
          py::arg("out") = py::none(),
          "observe(out=None) -> (N, S) float64\n\nThe output signals at each instance's current state, into `out` "
          "when given (a C-contiguous float64 (N, S) array), else into a new array.")
      .def(
          "observe_in_place",
          [](const py::object& self) {
            PySimulator& s = self.cast<PySimulator&>();
            api::ObservationView view;
            {
              py::gil_scoped_release release;
              std::lock_guard<std::mutex> lock(s.mutex);
              view = s.simulator.observe_in_place();
            }
            return observation_tensor(view, self);
          },
          "observe_in_place() -> ObservationTensor\n\nThe output signals, as observe() gives them, left where the "
          "backend computed them (on the cuda backend: in device memory) and handed over through DLPack without a "
          "copy: torch.from_dlpack(sim.observe_in_place()) on the cuda backend, numpy.from_dlpack(...) on the cpu "
          "backend. The memory is the Simulator's: each call writes the same memory again.")
      .def_property_readonly(
          "times",
          [](PySimulator& s) {
            std::lock_guard<std::mutex> lock(s.mutex);
            const auto& times = s.simulator.times();
            py::array_t<double> out(static_cast<py::ssize_t>(times.size()));
            std::copy(times.begin(), times.end(), out.mutable_data());
            return out;
          },
          "(N,) float64: each instance's t (a copy).")
      .def_property_readonly(
          "status",
          [](PySimulator& s) {
            std::lock_guard<std::mutex> lock(s.mutex);
            const auto& status = s.simulator.status();
            py::array_t<std::int32_t> out(static_cast<py::ssize_t>(status.size()));
            for (std::size_t i = 0; i < status.size(); ++i) out.mutable_at(static_cast<py::ssize_t>(i)) = status[i];
            return out;
          },
          "(N,) int32: 0 while healthy; a failed instance keeps its code (status_name) until reset.")
      .def(
          "reset",
          [](PySimulator& s, const py::object& mask, const py::object& params, const py::object& states) {
            const long long n = s.n();
            std::vector<std::uint8_t> mask_bytes(static_cast<std::size_t>(n), 1);
            if (!mask.is_none()) {
              auto flags = py::array_t<bool, py::array::c_style | py::array::forcecast>::ensure(mask);
              if (!flags || flags.ndim() != 1 || flags.shape(0) != n) {
                throw py::value_error("reset: mask must be a bool array of shape (" + std::to_string(n) + ",)");
              }
              for (long long i = 0; i < n; ++i) mask_bytes[static_cast<std::size_t>(i)] = flags.at(i) ? 1 : 0;
            }
            std::optional<DoubleArray> parameter_table, state_table;
            if (!params.is_none()) {
              parameter_table = checked_table(params, "reset: params", n, s.simulator.n_parameters());
            }
            if (!states.is_none()) {
              const auto& model = s.simulator.model();
              state_table = checked_table(states, "reset: states", n, model.nq() + model.nv());
            }
            py::gil_scoped_release release;
            std::lock_guard<std::mutex> lock(s.mutex);
            s.simulator.reset(mask_bytes.data(), parameter_table ? parameter_table->data() : nullptr,
                              state_table ? state_table->data() : nullptr);
          },
          py::arg("mask") = py::none(), py::arg("params") = py::none(), py::arg("states") = py::none(),
          "reset(mask=None, params=None, states=None)\n\nInstances where mask (N,) is true (all when None) "
          "restart at t = 0 with the parameters of their row of params (N, P) or their current ones, the state of "
          "their row of states (N, nq + nv: q then v) or the model's initial state, and default inputs.")
      .def(
          "get_parameters",
          [](PySimulator& s) {
            auto out = new_table(s.n(), s.simulator.n_parameters());
            std::lock_guard<std::mutex> lock(s.mutex);
            s.simulator.get_parameters(out.mutable_data());
            return out;
          },
          "get_parameters() -> (N, P) float64: each instance's parameters (model.parameter_names order).")
      .def(
          "set_parameters",
          [](PySimulator& s, const py::handle& p) {
            auto table = checked_table(p, "set_parameters: p", s.n(), s.simulator.n_parameters());
            std::lock_guard<std::mutex> lock(s.mutex);
            s.simulator.set_parameters(table.data());
          },
          py::arg("p"), "set_parameters(p)\n\np: (N, P); takes effect at the next advance.")
      .def(
          "get_state",
          [](PySimulator& s) {
            auto out = new_table(s.n(), s.simulator.state_size());
            std::lock_guard<std::mutex> lock(s.mutex);
            s.simulator.get_state(out.mutable_data());
            return out;
          },
          "get_state() -> (N, state_size) float64: everything advance reads (t, q, v, inputs, parameters, the "
          "integrator's memory, status); set_state of it continues bit for bit.")
      .def(
          "set_state",
          [](PySimulator& s, const py::handle& state) {
            auto table = checked_table(state, "set_state: state", s.n(), s.simulator.state_size());
            std::lock_guard<std::mutex> lock(s.mutex);
            s.simulator.set_state(table.data());
          },
          py::arg("state"), "set_state(state)\n\nstate: (N, state_size) as get_state returned it.")
      .def("__repr__", [](const PySimulator& s) {
        return "<myriad.Simulator '" + s.simulator.model().name() + "': " + std::to_string(s.n()) +
               " instances>";
      });
}

void bind_philox(py::module_& m) {
  m.def("philox_uniform", py::vectorize(&api::philox_uniform), py::arg("seed"), py::arg("instance"),
        py::arg("episode"), py::arg("counter"),
        "philox_uniform(seed, instance, episode, counter) -> float | ndarray\n\n"
        "Uniform in [0, 1) with 53 random bits from Philox4x32-10 keyed by (seed, instance, episode), drawn at "
        "`counter`; the same numbers as the C++ api::philox_uniform. Arguments broadcast as NumPy uint64 arrays.");
  m.def("philox_normal", py::vectorize(&api::philox_normal), py::arg("seed"), py::arg("instance"),
        py::arg("episode"), py::arg("counter"),
        "philox_normal(seed, instance, episode, counter) -> float | ndarray\n\n"
        "Standard normal (Box-Muller on the uniforms of counters 2k and 2k+1); the same numbers as the C++ "
        "api::philox_normal. Arguments broadcast as NumPy uint64 arrays.");
  m.def("status_name", &api::status_name, py::arg("code"),
        "status_name(code) -> str: the name of an instance status code (0: 'ok').");
}

}  // namespace myriad::python
