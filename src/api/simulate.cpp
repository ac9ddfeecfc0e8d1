// api::simulate: a request resolved against the model (run options, parameters, overrides, backend), the ensemble
// built and run on the chosen backend, progress reported from the calling thread, cancellation between blocks of
// instances (cpu, reference) or after the run (cuda).
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>

#include "api/model_impl.hpp"
#include "api/parameter_set.hpp"
#include "api/run_options.hpp"
#include "api/simulation_result.hpp"
#include "backends/absolute_backend.hpp"
#include "backends/absolute_cuda.hpp"
#include "backends/backend.hpp"
#include "core/status.hpp"
#include "ensemble/ensemble.hpp"
#include "ensemble/run_progress.hpp"
#include "model/model_error.hpp"

namespace myriad::api {

const char* status_name(int status) {
  if (status < 0 || status >= kInstanceStatusCount) return "unknown";
  return instance_status_name(static_cast<InstanceStatus>(status));
}

SimulationResult to_simulation_result(EnsembleResult&& result, std::vector<std::string> signal_names,
                                      std::string backend, std::string integrator) {
  SimulationResult out;
  out.n_instances = result.n_instances;
  out.n_times = result.n_times;
  out.n_signals = result.n_signals;
  out.signal_names = std::move(signal_names);
  out.times = std::move(result.times);
  out.values = std::make_shared<std::vector<double>>(std::move(result.values));
  out.kpis = std::move(result.kpis);
  out.status.reserve(result.status.size());
  for (InstanceStatus s : result.status) out.status.push_back(static_cast<int>(s));
  out.stats.reserve(result.stats.size());
  for (const IntegratorStats& s : result.stats)
    out.stats.push_back({s.steps, s.rejected, s.function_evaluations, s.jacobian_evaluations, s.lu_factorizations});
  out.wall_seconds = std::move(result.wall_seconds);
  out.total_wall_seconds = result.total_wall_seconds;
  out.backend = std::move(backend);
  out.threads = result.threads;
  out.integrator = std::move(integrator);
  return out;
}

EnsembleResult to_ensemble_result(SimulationResult&& result) {
  EnsembleResult out;
  out.n_instances = static_cast<int>(result.n_instances);
  out.n_times = result.n_times;
  out.n_signals = result.n_signals;
  out.times = std::move(result.times);
  if (result.values) {
    if (result.values.use_count() == 1)
      out.values = std::move(*result.values);
    else
      out.values = *result.values;
    result.values.reset();
  }
  out.status.reserve(result.status.size());
  for (int s : result.status) out.status.push_back(static_cast<InstanceStatus>(s));
  out.stats.reserve(result.stats.size());
  for (const InstanceStats& s : result.stats)
    out.stats.push_back({s.steps, s.rejected, s.function_evaluations, s.jacobian_evaluations, s.lu_factorizations});
  out.wall_seconds = std::move(result.wall_seconds);
  out.total_wall_seconds = result.total_wall_seconds;
  out.threads = result.threads;
  out.n_kpis = static_cast<int>(result.kpi_names.size());
  out.kpis = std::move(result.kpis);
  return out;
}

namespace {

using Clock = std::chrono::steady_clock;

// The backend a request runs on; the GPU settings are refused for a backend named that is not cuda (with `auto`
// and no GPU they do not apply). Throws SettingError.
Backend choose_request_backend(const RunOptions& o, const CompiledModel& compiled, Method method) {
  const SettingNames names;
  if (o.backend == "cuda") {
    std::string device;
    if (!cuda_device_available(&device))
      throw SettingError("backend", names.given("backend", "'cuda'") + ": " + device);
  }
  Backend backend = choose_backend(o.backend, o.threads);
  if (backend.automatic && backend.kind == BackendKind::cuda && !kernels_take(compiled, method))
    backend = choose_backend("cpu", o.threads);  // not in this build's kernels
  if (backend.kind != BackendKind::cuda && o.backend != "auto") {
    if (o.gpu_strategy)
      throw SettingError("gpu_strategy", names.given("gpu_strategy", "'" + *o.gpu_strategy + "'") +
                                             ": applies to the cuda backend only, and this run uses backend '" +
                                             backend.name + "'");
    if (o.gpu_step_budget)
      throw SettingError("gpu_step_budget", names.given("gpu_step_budget", std::to_string(*o.gpu_step_budget)) +
                                                ": applies to the cuda backend only, and this run uses backend '" +
                                                backend.name + "'");
  }
  backend.cuda.step_budget = o.gpu_step_budget.value_or(0);
  backend.cpu_lanes = o.lanes;
  const std::string strategy = o.gpu_strategy.value_or("fused");
  backend.cuda.strategy = strategy == "staged"      ? GpuStrategy::staged
                          : strategy == "warp"      ? GpuStrategy::warp
                          : strategy == "shared-lu" ? GpuStrategy::shared_lu
                                                    : GpuStrategy::fused;
  return backend;
}

bool is_set(const std::atomic<bool>* flag) { return flag != nullptr && flag->load(std::memory_order_relaxed); }

// Whether a request integrates in absolute coordinates (RunOptions::coordinates rp or re).
bool absolute_request(const RunOptions& o) { return o.coordinates && *o.coordinates != "joint"; }

// An absolute-coordinate run's checks: an implicit method, the cpu backend (auto resolves to it) or cuda where a
// device is present, no GPU strategy settings, a model the mapping expresses whole (its parameter
// defaults applied: parameters change no structure). Throws SettingError naming the setting.
void check_absolute_request(const RunOptions& o, const ModelImpl& m, const ResolvedRun& run) {
  const SettingNames names;
  const std::string given = names.given("coordinates", "'" + *o.coordinates + "'");
  if (run.spec.method != Method::implicit)
    throw SettingError("coordinates", given + ": integrates the index-3 DAE with an implicit method (backward-euler, "
                                              "lms2, ..., bathe, esdirk...), and this run uses " + run.integrator);
  if (*o.coordinates == "rA" && run.spec.implicit.method != ImplicitMethod::backward_euler)
    throw SettingError("integrator", names.given("integrator", "'" + run.integrator + "'") + ": " + given +
                                         " integrates with its own backward Euler on SO(3) (seed 002 eqs. 32-38) "
                                         "only: backward-euler");
  if (o.backend != "auto" && o.backend != "cpu" && o.backend != "cuda")
    throw SettingError("backend", names.given("backend", "'" + o.backend + "'") + ": " + given +
                                      " runs on the cpu and cuda backends only");
  if (o.backend == "cuda") {
    std::string device;
    if (!cuda_device_available(&device))
      throw SettingError("backend", names.given("backend", "'cuda'") + ": " + device);
  }
  if (o.gpu_strategy || o.gpu_step_budget)
    throw SettingError(o.gpu_strategy ? "gpu_strategy" : "gpu_step_budget",
                       names.name(o.gpu_strategy ? "gpu_strategy" : "gpu_step_budget") +
                           ": does not apply to " + given + " (its kernel is a thread per instance, run whole)");
  const std::string refusal = absolute_run_refusal(apply_parameters(m.model, m.parameter_defaults));
  if (!refusal.empty()) throw SettingError("coordinates", given + ": model '" + m.model.name + "': " + refusal);
}

// Runs `run` on a worker thread while the calling thread reports progress (at most every 100 ms, and once at the
// end) and watches the caller's cancel flag (every 10 ms): `progress.cancel` must point at `stop`. An exception
// of the callback stops the run and is rethrown once the worker has ended. Without a thread to spare, runs on the
// calling thread and reports once at the end.
template <class Run>
EnsembleResult run_with_progress(const Run& run, RunProgress& progress, std::atomic<bool>& stop, long long total,
                                 const SimulateRequest& request) {
  const auto report = [&] {
    request.progress(Progress{progress.instances_done.load(std::memory_order_relaxed), total});
  };
  EnsembleResult result;
  std::exception_ptr failure;
  bool finished = false;
  std::mutex mutex;
  std::condition_variable ended;
  std::thread worker;
  try {
    worker = std::thread([&] {
      try {
        result = run();
      } catch (...) {
        failure = std::current_exception();
      }
      const std::lock_guard<std::mutex> lock(mutex);
      finished = true;
      ended.notify_all();
    });
  } catch (const std::system_error&) {
    result = run();  // no thread to spare: the run goes on here
    report();
    return result;
  }
  std::exception_ptr callback_failure;
  Clock::time_point next_report = Clock::now();
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex);
      if (ended.wait_for(lock, std::chrono::milliseconds(10), [&] { return finished; })) break;
    }
    if (is_set(request.cancel)) stop.store(true, std::memory_order_relaxed);
    const Clock::time_point now = Clock::now();
    if (!callback_failure && !stop.load(std::memory_order_relaxed) && now >= next_report) {
      try {
        report();
      } catch (...) {
        callback_failure = std::current_exception();
        stop.store(true, std::memory_order_relaxed);
      }
      next_report = now + std::chrono::milliseconds(100);
    }
  }
  worker.join();
  if (callback_failure) std::rethrow_exception(callback_failure);
  if (failure) std::rethrow_exception(failure);
  if (is_set(request.cancel)) stop.store(true, std::memory_order_relaxed);
  if (!stop.load(std::memory_order_relaxed)) report();
  return result;
}

}  // namespace

std::string resolved_backend(const LoadedModel& model, const RunOptions& options) {
  if (!model.impl) throw std::invalid_argument("resolved_backend: the model is empty (load it with load_model)");
  const ResolvedRun run = resolve_integration(options, model.impl->model);
  if (absolute_request(options)) {
    check_absolute_request(options, *model.impl, run);
    return "cpu";
  }
  return choose_request_backend(options, *model.impl->compiled, run.spec.method).name;
}

SimulationResult simulate(const LoadedModel& model, const SimulateRequest& request) {
  if (!model.impl) throw std::invalid_argument("simulate: the model is empty (load it with load_model)");
  const ModelImpl& m = *model.impl;
  const ResolvedRun run = resolve_run_options(request.options, m.model);
  check_overrides(request.overrides, m.model);
  const ParameterSet* set = request.parameters ? &*request.parameters : nullptr;
  const long long instances = resolve_instance_count(request.instances, set);
  AbsoluteCoordinates coordinates = AbsoluteCoordinates::rp;
  const bool absolute = absolute_request(request.options);
  if (absolute) {
    check_absolute_request(request.options, m, run);
    parse_absolute_coordinates(*request.options.coordinates, coordinates);
  }
  // auto is cpu in absolute coordinates: their kernel has not yet run on a device (docs/validation/ensembles.md)
  Backend backend = absolute ? choose_backend(request.options.backend == "cuda" ? "cuda" : "cpu",
                                              request.options.threads)
                             : choose_request_backend(request.options, *m.compiled, run.spec.method);
  if (!request.instance_ids.empty()) {
    if (static_cast<long long>(request.instance_ids.size()) != instances)
      throw SettingError("instance_ids", "instance_ids: " + std::to_string(request.instance_ids.size()) +
                                             " indices for " + std::to_string(instances) + " instances");
    for (long long id : request.instance_ids)
      if (id < 0) throw SettingError("instance_ids", "instance_ids: " + std::to_string(id) + " is negative");
  }
  if (is_set(request.cancel)) throw Cancelled();

  Ensemble ensemble;
  {
    const ParameterTable table = set ? to_parameter_table(*set) : ParameterTable{};
    try {
      ensemble = build_ensemble(m.model, *m.compiled, set ? 0 : static_cast<int>(instances), set ? &table : nullptr,
                                request.overrides, request.instance_ids.empty() ? nullptr : &request.instance_ids);
    } catch (const ModelError& e) {
      throw ModelFileError(e.file(), e.pointer(), e.reason());
    }
  }

  RunProgress progress;
  std::atomic<bool> stop{false};
  const auto run_backend = [&] {
    if (absolute && backend.kind == BackendKind::cuda) {
      CudaRunOptions options;
      options.progress = &progress;
      options.keep_series = request.keep_series;
      return run_ensemble_absolute_cuda(coordinates, m.model, *m.compiled, ensemble, run.spec, run.times,
                                        request.options.threads, options);
    }
    if (absolute)
      return run_ensemble_absolute(coordinates, m.model, *m.compiled, ensemble, run.spec, run.times,
                                   request.options.threads, &progress, request.keep_series);
    return run_on_backend(backend, m.model, *m.compiled, ensemble, run.spec, run.times, request.options.threads,
                          &progress, request.keep_series);
  };
  EnsembleResult result;
  if (request.progress) {
    progress.cancel = &stop;
    result = run_with_progress(run_backend, progress, stop, ensemble.n_instances, request);
  } else {
    progress.cancel = request.cancel;
    result = run_backend();
  }
  if (progress.cancelled() || is_set(request.cancel)) throw Cancelled();
  SimulationResult out = to_simulation_result(std::move(result), m.signal_names, backend.name, run.integrator);
  for (const Kpi& kpi : m.model.kpis) {
    out.kpi_names.push_back(kpi.name);
    out.kpi_units.push_back(kpi.unit);
  }
  return out;
}

}  // namespace myriad::api
