// simulate(): an ensemble run with the interpreter lock released, cancellable by Ctrl-C, and its result as NumPy
// arrays that share memory with the C++ result (no copy of the N x T x S values).
//
// The run executes on a worker thread; the calling thread waits with the lock released and every 50 ms takes it
// back briefly to let Python handle signals (PyErr_CheckSignals: a pending SIGINT raises KeyboardInterrupt there)
// and to report progress to a Python callback. On an exception it sets the run's cancel flag, waits for the run to
// stop (api::simulate then throws Cancelled and frees its work) and raises the Python exception: nothing of the run
// is left behind.
#include <pybind11/stl.h>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "bindings.hpp"

namespace myriad::python {

namespace {

// The Python view of a SimulationResult. The arrays are made once (with the lock held) and returned as they are,
// so r.values is r.values.
struct PyResult {
  api::SimulationResult result;
  py::array values;  // (N, T, S) float64 over result.values' buffer; its base owns a shared_ptr to it
  py::array times;   // (T,)
  py::array status;  // (N,) int32
  py::dict stats;    // name -> (N,) array
  py::dict kpis;     // the model's named KPIs: name -> (N,) float64
  py::dict kpi_units;

  explicit PyResult(api::SimulationResult r) : result(std::move(r)) {
    const auto n = static_cast<py::ssize_t>(result.n_instances);
    const auto t = static_cast<py::ssize_t>(result.n_times);
    const auto s = static_cast<py::ssize_t>(result.n_signals);
    auto buffer = result.values ? result.values : std::make_shared<std::vector<double>>();
    // A run that kept no series (keep_series=False) has values of shape (N, 0, S); times still lists the grid.
    const py::ssize_t t_kept = buffer->empty() ? 0 : t;
    if (static_cast<py::ssize_t>(buffer->size()) != n * t_kept * s) {
      throw std::runtime_error("simulate: the result holds " + std::to_string(buffer->size()) +
                               " values, expected N x T x S = " + std::to_string(n * t * s));
    }
    // The capsule owns a copy of the shared_ptr: the buffer lives as long as any array viewing it.
    auto* owner = new std::shared_ptr<std::vector<double>>(buffer);
    py::capsule base(owner, [](void* p) { delete static_cast<std::shared_ptr<std::vector<double>>*>(p); });
    constexpr auto d = static_cast<py::ssize_t>(sizeof(double));
    values = py::array(py::dtype::of<double>(), {n, t_kept, s}, {t_kept * s * d, s * d, d}, buffer->data(), base);

    py::array_t<double> time_array(t);
    std::copy(result.times.begin(), result.times.end(), time_array.mutable_data());
    times = time_array;

    py::array_t<std::int32_t> status_array(n);
    for (py::ssize_t i = 0; i < n; ++i) status_array.mutable_at(i) = result.status[static_cast<std::size_t>(i)];
    status = status_array;

    auto counter = [&](long long api::InstanceStats::*member) {
      py::array_t<std::int64_t> out(n);
      for (py::ssize_t i = 0; i < n; ++i) out.mutable_at(i) = result.stats[static_cast<std::size_t>(i)].*member;
      return out;
    };
    stats["steps"] = counter(&api::InstanceStats::steps);
    stats["rejected"] = counter(&api::InstanceStats::rejected);
    stats["function_evaluations"] = counter(&api::InstanceStats::function_evaluations);
    stats["jacobian_evaluations"] = counter(&api::InstanceStats::jacobian_evaluations);
    stats["lu_factorizations"] = counter(&api::InstanceStats::lu_factorizations);
    py::array_t<double> wall(n);
    for (py::ssize_t i = 0; i < n; ++i) wall.mutable_at(i) = result.wall_seconds[static_cast<std::size_t>(i)];
    stats["wall_seconds"] = wall;

    const std::size_t k = result.kpi_names.size();
    for (std::size_t j = 0; j < k; ++j) {
      py::array_t<double> column(n);
      for (py::ssize_t i = 0; i < n; ++i) column.mutable_at(i) = result.kpis[static_cast<std::size_t>(i) * k + j];
      kpis[py::str(result.kpi_names[j])] = column;
      kpi_units[py::str(result.kpi_names[j])] = result.kpi_units[j];
    }
  }

  int signal_index(const std::string& name) const {
    for (std::size_t k = 0; k < result.signal_names.size(); ++k) {
      if (result.signal_names[k] == name) return static_cast<int>(k);
    }
    std::string known;
    for (const auto& s : result.signal_names) known += (known.empty() ? "" : ", ") + s;
    throw py::key_error("no signal '" + name + "' (signals: " + known + ")");
  }

  // (N, T) view of one signal: shares memory with `values` (its base is the values array).
  py::array signal(const std::string& name) const {
    const int k = signal_index(name);
    const auto n = static_cast<py::ssize_t>(result.n_instances);
    const auto t = static_cast<py::ssize_t>(values.shape(1));
    const auto s = static_cast<py::ssize_t>(result.n_signals);
    constexpr auto d = static_cast<py::ssize_t>(sizeof(double));
    auto* data = static_cast<double*>(const_cast<void*>(values.data())) + k;
    return py::array(py::dtype::of<double>(), {n, t}, {t * s * d, s * d}, data, values);
  }
};

// Runs `work` on a worker thread while this (Python) thread polls signals and reports progress, the lock
// released in between. Returns when the worker has finished, whatever happened; then raises the first Python
// exception seen while polling (KeyboardInterrupt, or one from the progress callback), else the worker's.
template <class Work, class Poll>
void run_interruptibly(Work&& work, Poll&& poll, std::atomic<bool>& cancel) {
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  std::exception_ptr worker_error;
  std::optional<py::error_already_set> python_error;
  {
    py::gil_scoped_release release;
    std::thread worker([&] {
      try {
        work();
      } catch (...) {
        worker_error = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mutex);
      done = true;
      finished.notify_one();
    });
    std::unique_lock<std::mutex> lock(mutex);
    while (!finished.wait_for(lock, std::chrono::milliseconds(50), [&] { return done; })) {
      lock.unlock();
      {
        py::gil_scoped_acquire acquire;
        if (!python_error) {
          try {
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            poll();
          } catch (py::error_already_set& e) {
            python_error.emplace(std::move(e));
            cancel.store(true);
          }
        }
      }
      lock.lock();
    }
    lock.unlock();
    worker.join();
  }
  if (python_error) throw std::move(*python_error);
  // A signal that arrived in the last poll interval: raise it now rather than after the result is returned.
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  if (worker_error) std::rethrow_exception(worker_error);
}

PyResult simulate(const py::object& model_or_path, const py::object& params, std::optional<long long> instances,
                  const RunOptionArgs& args, const std::string& backend, int threads, const py::object& overrides,
                  const py::object& progress, const std::optional<std::string>& gpu_strategy,
                  std::optional<long long> gpu_step_budget, bool keep_series, int lanes,
                  const std::optional<std::string>& coordinates) {
  api::LoadedModel model = model_from(model_or_path);
  api::SimulateRequest request;
  request.instances = instances.value_or(0);
  request.parameters = parameters_from(params);
  request.overrides = overrides_from(overrides);
  request.options = args.to_options(backend, threads);
  request.options.gpu_strategy = gpu_strategy;
  request.options.gpu_step_budget = gpu_step_budget;
  request.options.lanes = lanes;
  request.options.coordinates = coordinates;
  request.keep_series = keep_series;

  std::atomic<bool> cancel{false};
  request.cancel = &cancel;
  // The run reports progress on its thread; Python sees it from the polling thread.
  std::atomic<long long> done{0}, total{0};
  long long reported = -1;
  if (!progress.is_none()) {
    request.progress = [&](const api::Progress& p) {
      total.store(p.total);
      done.store(p.done);
    };
  }
  auto report = [&] {
    if (progress.is_none() || total.load() == 0 || done.load() == reported) return;
    reported = done.load();
    progress(reported, total.load());
  };

  api::SimulationResult result;
  run_interruptibly([&] { result = api::simulate(model, request); }, report, cancel);
  report();  // the final count, when the last poll missed it
  return PyResult(std::move(result));
}

}  // namespace

void bind_simulate(py::module_& m) {
  py::class_<PyResult>(m, "SimulationResult",
                       "The outputs of an ensemble run. `values` is an (N, T, S) float64 array over the C++ "
                       "result's buffer (no copy): its base owns the buffer, which lives while any view does.")
      .def_readonly("values", &PyResult::values,
                    "(N, T, S) float64: signal s of instance i at output time t; NaN after an instance's failure.")
      .def_readonly("times", &PyResult::times, "(T,) float64: the output times.")
      .def_readonly("status", &PyResult::status, "(N,) int32: 0 ok, else a code named by status_names.")
      .def_readonly("stats", &PyResult::stats,
                    "Per-instance work: dict of (N,) arrays: steps, rejected, function_evaluations, "
                    "jacobian_evaluations, lu_factorizations (int64) and wall_seconds (float64).")
      .def_readonly("kpis", &PyResult::kpis,
                    "The model's named KPIs (its `kpis` section), computed on line: dict name -> (N,) float64, NaN "
                    "for an instance that did not finish ok. Empty for a model without KPIs.")
      .def_readonly("kpi_units", &PyResult::kpi_units, "dict name -> unit of each KPI ('m/s^2', 'N', '1', ...).")
      .def_property_readonly("signal_names", [](const PyResult& r) { return r.result.signal_names; },
                             "Names of the S signals, in order.")
      .def_property_readonly("status_names",
                             [](const PyResult& r) {
                               std::vector<std::string> names;
                               for (int code : r.result.status) names.emplace_back(api::status_name(code));
                               return names;
                             },
                             "Each instance's status by name (ok, step_size_too_small, max_steps, non_finite, ...).")
      .def_property_readonly("wall_seconds", [](const PyResult& r) { return r.result.total_wall_seconds; },
                             "The run's wall time in seconds (per instance: stats['wall_seconds']).")
      .def_property_readonly("backend", [](const PyResult& r) { return r.result.backend; },
                             "The backend that ran ('auto' resolved).")
      .def_property_readonly("integrator", [](const PyResult& r) { return r.result.integrator; },
                             "The integrator that ran.")
      .def_property_readonly("threads", [](const PyResult& r) { return r.result.threads; },
                             "The number of threads that ran.")
      .def_property_readonly("n_instances", [](const PyResult& r) { return r.result.n_instances; }, "N.")
      .def_property_readonly("n_times", [](const PyResult& r) { return r.result.n_times; }, "T.")
      .def_property_readonly("n_signals", [](const PyResult& r) { return r.result.n_signals; }, "S.")
      .def("signal", &PyResult::signal, py::arg("name"),
           "signal(name) -> (N, T) float64 view of `values` (shares its memory). KeyError for an unknown name.")
      .def("__repr__", [](const PyResult& r) {
        return "<myriad.SimulationResult: " + std::to_string(r.result.n_instances) + " instances x " +
               std::to_string(r.result.n_times) + " times x " + std::to_string(r.result.n_signals) +
               " signals, backend " + r.result.backend + ", " + r.result.integrator + ">";
      });

  m.def(
      "simulate",
      [](const py::object& model, const py::object& params, std::optional<long long> instances,
         std::optional<double> t_end, std::optional<double> dt_out, std::optional<std::string> integrator,
         std::optional<double> h, std::optional<double> rtol, std::optional<double> atol, const std::string& backend,
         int threads, const py::object& overrides, const py::object& progress, std::optional<double> fac,
         std::optional<double> facmin, std::optional<double> facmax, std::optional<long long> max_steps,
         std::optional<std::string> gpu_strategy, std::optional<long long> gpu_step_budget, bool keep_series,
         int lanes, std::optional<double> rho_inf, std::optional<std::string> coordinates) {
        const RunOptionArgs args{t_end,  dt_out, h,         rtol, atol, fac, facmin, facmax, max_steps,
                                 std::move(integrator), rho_inf};
        return simulate(model, params, instances, args, backend, threads, overrides, progress, gpu_strategy,
                        gpu_step_budget, keep_series, lanes, coordinates);
      },
      py::arg("model"), py::arg("params") = py::none(), py::arg("instances") = py::none(),
      py::arg("t_end") = py::none(), py::arg("dt_out") = py::none(), py::arg("integrator") = py::none(),
      py::arg("h") = py::none(), py::arg("rtol") = py::none(), py::arg("atol") = py::none(),
      py::arg("backend") = "auto", py::arg("threads") = 0, py::arg("overrides") = py::none(),
      py::arg("progress") = py::none(), py::kw_only(), py::arg("fac") = py::none(), py::arg("facmin") = py::none(),
      py::arg("facmax") = py::none(), py::arg("max_steps") = py::none(), py::arg("gpu_strategy") = py::none(),
      py::arg("gpu_step_budget") = py::none(), py::arg("keep_series") = true, py::arg("lanes") = 4,
      py::arg("rho_inf") = py::none(), py::arg("coordinates") = py::none(),
      "simulate(model, params=None, instances=None, t_end=None, dt_out=None, integrator=None, h=None, rtol=None,\n"
      "         atol=None, backend='auto', threads=0, overrides=None, progress=None, *, fac=None, facmin=None,\n"
      "         facmax=None, max_steps=None, gpu_strategy=None, gpu_step_budget=None, keep_series=True, lanes=4,\n"
      "         rho_inf=None, coordinates=None) -> SimulationResult\n\n"
      "Runs an ensemble of `model` (a LoadedModel or a path) like `myriad simulate`.\n"
      "params: per-instance parameters: a CSV path (the CLI's --params), a dict name -> (N,) array, (names, N x P\n"
      "  array) or a ParameterSet; row i goes to instance i. instances: N (default: the table's rows, else 1).\n"
      "overrides: dict name -> value for every instance (a table value wins).\n"
      "Unset run options come from the model's `simulation` block; a value given is checked as given (SettingError,\n"
      "a ValueError naming the setting). backend: auto | reference | cpu | cuda; threads: 0 for all cores.\n"
      "progress: callable(done, total) called from this thread while the run goes on.\n"
      "keep_series: False keeps no time series (values has shape (N, 0, S)), only the model's named KPIs\n"
      "  (result.kpis), computed on line: memory no longer grows with the output times.\n"
      "integrator: rk4 | dopri5 | rn4 | ros2w, or an implicit fixed-step method of seed 003 (backward-euler,\n"
      "  lms2..4, ss2..4, bathe, msstc3..5, mssth3..5, 'esdirk3(2)4l[2]sa', 'esdirk3(2)5l[2]sa',\n"
      "  'esdirk4(3)6l[2]sa2'; cpu and reference backends) whose largest step is h and whose dissipation is\n"
      "  rho_inf in [0, 1].\n"
      "lanes: cpu backend, instances each thread integrates in lockstep where the model and method allow (1, 2, 4\n"
      "  or 8; the results are the same bit for bit).\n"
      "coordinates: 'joint' (default), or 'rp' / 're': seed 002's absolute coordinates (Euler parameters, ZXZ\n"
      "  Euler angles) on the index-3 DAE with an implicit integrator, or 'rA' (rotation matrices on SO(3), with\n"
      "  backward-euler only); cpu backend; the same signals.\n"
      "The interpreter lock is released while the run computes (other Python threads keep running); Ctrl-C\n"
      "cancels the run and raises KeyboardInterrupt once it has stopped. Model problems raise ModelFileError.");
}

}  // namespace myriad::python
