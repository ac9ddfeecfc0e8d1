// api::Simulator, the stepping API: N instances of one model, each with its own t, q, v, inputs, parameters and
// status, advanced together by step_instance (src/ensemble/step_instance.hpp) on a persistent pool of threads (four
// at a time per thread in vector lanes where the model and method allow: ensemble/lane_runner.hpp), or
// on the cuda backend by the step kernel (backends/cuda_stepper.hpp), a thread per instance running the same
// per-instance body. On the cuda backend the state lives on the device: advance, set_inputs and observe work there,
// and the host's copy is brought up to date only when a host call reads it (reset, get_state, times, status).
// An instance's numbers depend only on its own state: the scratch an instance uses is re-initialized at every step
// (begin_instance) and carries nothing from one step or instance to the next, so results do not depend on how many
// instances run, on which thread or in which order.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "api/model_impl.hpp"
#include "api/myriad/myriad.hpp"
#include "api/run_options.hpp"
#include "backends/cuda_stepper.hpp"
#include "ensemble/device_instances.hpp"
#include "ensemble/ensemble.hpp"
#include "ensemble/parameter_table.hpp"
#include "ensemble/lane_runner.hpp"
#include "ensemble/step_instance.hpp"
#include "model/compile.hpp"

namespace myriad::api {
namespace {

// A fixed set of worker threads that run one job at a time: job(worker) on every worker, the calling thread being
// worker 0. Created once per Simulator, so advance() on small ensembles does not pay for thread creation.
class WorkerPool {
 public:
  explicit WorkerPool(int threads) {
    for (int w = 1; w < threads; ++w) {
      try {
        workers_.emplace_back([this, w] { loop(w); });
      } catch (const std::system_error&) {
        break;  // fewer threads than asked: the jobs still cover every task (see run)
      }
    }
  }
  ~WorkerPool() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
  }
  int size() const { return static_cast<int>(workers_.size()) + 1; }

  // Calls job(w) for w in [0, size()), worker 0 on the calling thread; returns once all have returned. Rethrows
  // the first exception a job threw.
  void run(const std::function<void(int)>& job) {
    if (workers_.empty()) return job(0);
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      job_ = &job;
      pending_ = static_cast<int>(workers_.size());
      failure_ = nullptr;
      ++generation_;
    }
    wake_.notify_all();
    try {
      job(0);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (!failure_) failure_ = std::current_exception();
    }
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0; });
    job_ = nullptr;
    if (failure_) std::rethrow_exception(failure_);
  }

 private:
  void loop(int w) {
    long long seen = 0;
    for (;;) {
      const std::function<void(int)>* job = nullptr;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        job = job_;
      }
      try {
        (*job)(w);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (!failure_) failure_ = std::current_exception();
      }
      {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (--pending_ == 0) done_.notify_one();
      }
    }
  }

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(int)>* job_ = nullptr;
  int pending_ = 0;
  long long generation_ = 0;
  bool stop_ = false;
  std::exception_ptr failure_;
};

constexpr long long kChunk = 64;  // instances handed out at a time

}  // namespace

struct Simulator::Impl {
  LoadedModel model;
  const ModelImpl* mi = nullptr;
  const CompiledModel* compiled = nullptr;
  RunSpec spec;
  long long n = 0;
  int nq = 0, nv = 0, n_inputs = 0, n_params = 0, n_signals = 0, n_constants = 0;
  std::size_t scratch_doubles = 0;  // per worker
  int lanes = 1;  // cpu: instances a worker steps in lockstep (ensemble/lane_runner.hpp); 1 where it cannot
  std::vector<FlatInputSlot> slots;  // where the inputs land in an instance's constants (input_slots, flattened)
  std::vector<double> lower, upper, input_defaults;
  std::vector<double> base_parameters;  // defaults + overrides

  // Row-major per instance. On the cuda backend t, q, v and status are the host's copy of the device's (pull()).
  mutable std::vector<double> t, q, v;
  std::vector<double> u, p, constants;
  mutable std::vector<int> status;
  mutable std::vector<double> observation;  // observe_in_place's buffer on the cpu backend
  mutable std::vector<double> scratch;  // workers x scratch_doubles
  std::vector<LaneStepWorkspacePtr> lane_workspaces;  // a worker's each, when lanes > 1 on the cpu backend
  std::unique_ptr<WorkerPool> pool;
  // The cuda backend's device copy (null on the cpu backend); whether the host's constants have changed since
  // they were last copied there (inputs alone go by CudaStepper::set_inputs); which copy of the state is current.
  std::unique_ptr<CudaStepper> device;
  mutable bool constants_changed = true;
  mutable bool device_state_current = false;  // the device holds the host's t, q, v, status
  mutable bool host_state_current = true;     // the host holds the device's
  mutable bool host_status_current = true;    // the host holds the device's status (implied by the above)

  // Brings the host's state up to date with the device's (cuda backend; a no-op otherwise).
  void pull() const {
    if (host_state_current) return;
    device->download_state(t.data(), q.data(), v.data(), status.data());
    host_state_current = host_status_current = true;
  }
  // The status alone: N ints rather than the whole state, for the environments' check after every step.
  void pull_status() const {
    if (host_state_current || host_status_current) return;
    device->download_status(status.data());
    host_status_current = true;
  }
  // The host will change its state: up to date first, then the device's copy is stale.
  void host_writes_state() {
    pull();
    device_state_current = false;
  }
  // Brings the device's constants and state up to date with the host's before a launch.
  void push() const {
    if (constants_changed) device->set_constants(constants.data());
    constants_changed = false;
    if (!device_state_current) device->upload_state(t.data(), q.data(), v.data(), status.data());
    device_state_current = true;
  }

  double* k(long long i) { return constants.data() + i * n_constants; }

  // Runs body(begin, end, w) for chunks covering [0, n) on the pool; w is the worker (its scratch and lanes).
  template <class Body>
  void for_each_chunk(const Body& body, const std::atomic<bool>* cancel = nullptr) const {
    std::atomic<long long> next{0};
    std::atomic<bool> cancelled{false};
    pool->run([&](int w) {
      for (;;) {
        if (cancel && cancel->load(std::memory_order_relaxed)) {
          cancelled = true;
          return;
        }
        const long long begin = next.fetch_add(kChunk);
        if (begin >= n) return;
        body(begin, std::min(n, begin + kChunk), w);
      }
    });
    if (cancelled) throw Cancelled();
  }

  // Runs body(i, scratch) for every i in [0, n) on the pool.
  template <class Body>
  void for_each(const Body& body, const std::atomic<bool>* cancel = nullptr) const {
    for_each_chunk(
        [&](long long begin, long long end, int w) {
          void* s = scratch.data() + static_cast<std::size_t>(w) * scratch_doubles;
          for (long long i = begin; i < end; ++i) body(i, s);
        },
        cancel);
  }

  // Writes gain * u of instance i's inputs into its constants (the host's copy; the caller says what the device
  // needs).
  void write_inputs(long long i) {
    write_instance_inputs(slots.data(), static_cast<int>(slots.size()), u.data() + i * n_inputs, k(i), 1);
  }

  // Validates and packs the parameters of the listed instances (rows: P values each, in `which` order): their
  // constants (inputs rewritten) and, when `initial` is given, their initial q and v. Nothing changes when it
  // throws.
  void apply_parameters(const std::vector<long long>& which, const std::vector<double>& rows,
                        std::vector<double>* initial) {
    if (which.empty()) return;
    ParameterTable table;
    table.source = "parameters";
    table.names = mi->parameter_names;
    table.rows.resize(which.size());
    for (std::size_t r = 0; r < which.size(); ++r)
      table.rows[r].assign(rows.begin() + static_cast<std::ptrdiff_t>(r * n_params),
                           rows.begin() + static_cast<std::ptrdiff_t>((r + 1) * n_params));
    for (std::size_t r = 0; r < which.size(); ++r)
      for (int j = 0; j < n_params; ++j)
        if (!std::isfinite(table.rows[r][static_cast<std::size_t>(j)]))
          throw std::invalid_argument("parameters: instance " + std::to_string(which[r]) + ", '" +
                                      mi->parameter_names[static_cast<std::size_t>(j)] + "' is not finite");
    constants_changed = true;
    Ensemble e;
    if (n_params > 0) {
      e = build_ensemble(mi->model, *compiled, 0, &table, {}, &which);
    } else {
      e = build_ensemble(mi->model, *compiled, static_cast<int>(which.size()), nullptr, {}, &which);
    }
    if (initial) initial->assign(which.size() * static_cast<std::size_t>(nq + nv), 0.0);
    for (std::size_t r = 0; r < which.size(); ++r) {
      const long long i = which[r];
      e.gather_constants(static_cast<int>(r), k(i));
      for (int j = 0; j < n_params; ++j) p[i * n_params + j] = rows[r * n_params + static_cast<std::size_t>(j)];
      write_inputs(i);
      if (initial)
        e.gather_initial_state(static_cast<int>(r), initial->data() + r * static_cast<std::size_t>(nq + nv),
                               initial->data() + r * static_cast<std::size_t>(nq + nv) + nq);
    }
  }
};

Simulator::Simulator(const LoadedModel& model, const SimulatorOptions& options) : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  if (!model.impl) throw std::invalid_argument("Simulator: the model is empty (not loaded)");
  s.model = model;
  s.mi = model.impl.get();
  s.compiled = s.mi->compiled.get();
  if (options.backend != "cpu" && options.backend != "cuda")
    throw SettingError("backend", "setting 'backend' = '" + options.backend + "': must be cpu or cuda");
  if (options.instances < 1 || options.instances > kMaxInstances)
    throw SettingError("instances", "setting 'instances' = " + std::to_string(options.instances) +
                                        ": must be in 1 .. " + std::to_string(kMaxInstances));
  if (options.threads < 0 || options.threads > kMaxThreads)
    throw SettingError("threads", "setting 'threads' = " + std::to_string(options.threads) + ": must be in 0 .. " +
                                      std::to_string(kMaxThreads));
  const ResolvedRun run = resolve_integration(options.run, s.mi->model);
  check_overrides(options.overrides, s.mi->model);
  s.spec = run.spec;
  const CompiledModel& c = *s.compiled;
  s.lanes = options.run.lanes > 1 && lanes_supported(c, s.spec) ? options.run.lanes : 1;
  s.n = options.instances;
  s.nq = c.nq;
  s.nv = c.nv;
  s.n_inputs = static_cast<int>(s.mi->model.inputs.size());
  s.n_params = static_cast<int>(s.mi->model.parameters.size());
  s.n_signals = c.n_outputs;
  s.n_constants = c.n_constants;
  const std::vector<std::vector<InputSlot>> slots = input_slots(s.mi->model, c);
  for (int a = 0; a < static_cast<int>(slots.size()); ++a)
    for (const InputSlot& slot : slots[static_cast<std::size_t>(a)]) s.slots.push_back({a, slot.constant, slot.gain});
  for (const Input& in : s.mi->model.inputs) {
    s.lower.push_back(in.min);
    s.upper.push_back(in.max);
    s.input_defaults.push_back(in.value);
  }
  s.base_parameters = default_parameter_values(s.mi->model);
  for (const auto& [name, value] : options.overrides)
    for (int j = 0; j < s.n_params; ++j)
      if (s.mi->parameter_names[static_cast<std::size_t>(j)] == name) s.base_parameters[static_cast<std::size_t>(j)] = value;

  const std::size_t n = static_cast<std::size_t>(s.n);
  s.t.assign(n, 0.0);
  s.q.assign(n * static_cast<std::size_t>(s.nq), 0.0);
  s.v.assign(n * static_cast<std::size_t>(s.nv), 0.0);
  s.u.assign(n * static_cast<std::size_t>(s.n_inputs), 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (int a = 0; a < s.n_inputs; ++a) s.u[i * static_cast<std::size_t>(s.n_inputs) + a] = s.input_defaults[static_cast<std::size_t>(a)];
  s.p.assign(n * static_cast<std::size_t>(s.n_params), 0.0);
  s.constants.assign(n * static_cast<std::size_t>(s.n_constants), 0.0);
  s.status.assign(n, 0);

  std::vector<double> rows(n * static_cast<std::size_t>(s.n_params));
  for (std::size_t i = 0; i < n; ++i)
    std::copy(s.base_parameters.begin(), s.base_parameters.end(), rows.begin() + static_cast<std::ptrdiff_t>(i * s.n_params));
  if (options.parameters) {
    const ParameterSet& set = *options.parameters;
    if (set.rows != s.n)
      throw SettingError("parameters", "setting 'parameters' (" + set.source + "): has " + std::to_string(set.rows) +
                                           " rows for " + std::to_string(s.n) + " instances");
    const std::size_t columns = set.names.size();
    for (std::size_t col = 0; col < columns; ++col) {
      int j = -1;
      for (int m = 0; m < s.n_params; ++m)
        if (s.mi->parameter_names[static_cast<std::size_t>(m)] == set.names[col]) j = m;
      if (j < 0)
        throw SettingError("parameters", "setting 'parameters' (" + set.source + "): '" + set.names[col] +
                                             "' is not a parameter of the model");
      for (std::size_t i = 0; i < n; ++i) rows[i * s.n_params + static_cast<std::size_t>(j)] = set.values[i * columns + col];
    }
  }
  std::vector<long long> all(n);
  for (std::size_t i = 0; i < n; ++i) all[i] = static_cast<long long>(i);
  std::vector<double> initial;
  s.apply_parameters(all, rows, &initial);
  for (std::size_t i = 0; i < n; ++i) {
    const double* x = initial.data() + i * static_cast<std::size_t>(s.nq + s.nv);
    std::copy(x, x + s.nq, s.q.begin() + static_cast<std::ptrdiff_t>(i * s.nq));
    std::copy(x + s.nq, x + s.nq + s.nv, s.v.begin() + static_cast<std::ptrdiff_t>(i * s.nv));
  }

  int threads = options.threads > 0 ? options.threads : static_cast<int>(std::thread::hardware_concurrency());
  threads = std::max(1, std::min<long long>(threads, (s.n + kChunk - 1) / kChunk) > 0
                            ? static_cast<int>(std::min<long long>(threads, (s.n + kChunk - 1) / kChunk))
                            : 1);
  s.pool = std::make_unique<WorkerPool>(threads);
  s.scratch_doubles = (step_scratch_bytes(c, s.spec.method) + sizeof(double) - 1) / sizeof(double);
  s.scratch.assign(static_cast<std::size_t>(s.pool->size()) * s.scratch_doubles, 0.0);
  if (s.lanes > 1 && options.backend == "cpu")
    for (int w = 0; w < s.pool->size(); ++w)
      s.lane_workspaces.push_back(make_lane_step_workspace(c, s.spec, s.lanes));
  // Last, once every setting has been checked: std::runtime_error naming why when there is no device.
  if (options.backend == "cuda") s.device = std::make_unique<CudaStepper>(c, s.spec, s.n, s.slots, s.n_inputs);
}

Simulator::~Simulator() = default;
Simulator::Simulator(Simulator&&) noexcept = default;
Simulator& Simulator::operator=(Simulator&&) noexcept = default;

long long Simulator::size() const { return impl_->n; }
int Simulator::n_inputs() const { return impl_->n_inputs; }
int Simulator::n_signals() const { return impl_->n_signals; }
int Simulator::n_parameters() const { return impl_->n_params; }
int Simulator::state_size() const { return 2 + impl_->nq + impl_->nv + impl_->n_inputs + impl_->n_params; }
const LoadedModel& Simulator::model() const { return impl_->model; }
const std::vector<double>& Simulator::times() const {
  impl_->pull();
  return impl_->t;
}
const std::vector<int>& Simulator::status() const {
  impl_->pull_status();
  return impl_->status;
}

void Simulator::set_inputs(const double* u) {
  Impl& s = *impl_;
  const std::size_t total = static_cast<std::size_t>(s.n) * s.n_inputs;
  for (std::size_t j = 0; j < total; ++j)
    if (std::isnan(u[j]))
      throw std::invalid_argument("set_inputs: instance " + std::to_string(j / s.n_inputs) + ", input '" +
                                  s.mi->model.inputs[j % s.n_inputs].name + "' is NaN");
  for (std::size_t j = 0; j < total; ++j) {
    const std::size_t a = j % s.n_inputs;
    s.u[j] = std::min(std::max(u[j], s.lower[a]), s.upper[a]);
  }
  for (long long i = 0; i < s.n; ++i) s.write_inputs(i);
  // On the device: u and one launch, unless the whole table goes there before the next launch anyway.
  if (s.device && !s.constants_changed) s.device->set_inputs(s.u.data());
}

void Simulator::advance(double dt, const std::atomic<bool>* cancel) {
  Impl& s = *impl_;
  if (!(dt > 0.0) || !std::isfinite(dt))
    throw std::invalid_argument("advance: dt = " + std::to_string(dt) + " must be positive and finite");
  const CompiledModel& c = *s.compiled;
  if (s.device) {
    // One launch, which no flag interrupts: the cancellation is honoured before it.
    if (cancel && cancel->load(std::memory_order_relaxed)) throw Cancelled();
    s.push();
    s.device->advance(dt);
    s.host_state_current = s.host_status_current = false;
    return;
  }
  // Fewer instances than lanes (a single environment) would pay for the idle lanes' work: one at a time then.
  if (s.lanes > 1 && s.n >= s.lanes) {
    s.for_each_chunk(
        [&](long long begin, long long end, int w) {
          step_instances_in_lanes(*s.lane_workspaces[static_cast<std::size_t>(w)], dt, begin, end,
                                  s.constants.data(), s.n_constants, s.t.data(), s.q.data(), s.v.data(),
                                  s.status.data());
        },
        cancel);
    return;
  }
  s.for_each(
      [&](long long i, void* scratch) {
        if (s.status[static_cast<std::size_t>(i)] != 0) return;
        IntegratorStats stats{};
        const InstanceStatus status = step_instance(c, static_cast<const double*>(s.k(i)), s.spec,
                                                    s.t[static_cast<std::size_t>(i)], s.q.data() + i * s.nq,
                                                    s.v.data() + i * s.nv, dt, scratch, stats);
        s.status[static_cast<std::size_t>(i)] = static_cast<int>(status);
      },
      cancel);
}

void Simulator::observe(double* out) const {
  const Impl& s = *impl_;
  const CompiledModel& c = *s.compiled;
  if (s.device) {
    s.push();
    s.device->observe(out);
    return;
  }
  s.for_each([&](long long i, void* scratch) {
    observe_instance(c, static_cast<const double*>(s.constants.data() + i * s.n_constants), s.spec.method,
                     s.t[static_cast<std::size_t>(i)], s.q.data() + i * s.nq, s.v.data() + i * s.nv, scratch,
                     out + i * s.n_signals);
  });
}

ObservationView Simulator::observe_in_place() {
  Impl& s = *impl_;
  if (s.device) {
    s.push();
    return {s.device->observe_on_device(), s.n, s.n_signals, true, s.device->device()};
  }
  s.observation.resize(static_cast<std::size_t>(s.n) * s.n_signals);
  observe(s.observation.data());
  return {s.observation.data(), s.n, s.n_signals, false, -1};
}

void Simulator::reset(const std::uint8_t* mask, const double* parameters, const double* states) {
  Impl& s = *impl_;
  if (s.device) s.pull();  // the instances outside the mask keep the device's state
  std::vector<long long> which;
  for (long long i = 0; i < s.n; ++i)
    if (!mask || mask[i]) which.push_back(i);
  std::vector<double> rows(which.size() * static_cast<std::size_t>(s.n_params));
  for (std::size_t r = 0; r < which.size(); ++r) {
    const double* from = parameters ? parameters + which[r] * s.n_params : s.p.data() + which[r] * s.n_params;
    std::copy(from, from + s.n_params, rows.begin() + static_cast<std::ptrdiff_t>(r * s.n_params));
  }
  const int nx = s.nq + s.nv;
  if (states)
    for (long long i : which)
      for (int j = 0; j < nx; ++j)
        if (!std::isfinite(states[i * nx + j]))
          throw std::invalid_argument("reset: instance " + std::to_string(i) + ", state entry " + std::to_string(j) +
                                      " is not finite");
  // Inputs go to their defaults before the constants are packed (apply_parameters writes them).
  const std::vector<double> saved_u = s.u;
  for (long long i : which)
    for (int a = 0; a < s.n_inputs; ++a) s.u[i * s.n_inputs + a] = s.input_defaults[static_cast<std::size_t>(a)];
  std::vector<double> initial;
  try {
    s.apply_parameters(which, rows, &initial);
  } catch (...) {
    s.u = saved_u;
    throw;
  }
  if (s.device) s.host_writes_state();
  for (std::size_t r = 0; r < which.size(); ++r) {
    const long long i = which[r];
    const double* x = states ? states + i * nx : initial.data() + r * static_cast<std::size_t>(nx);
    std::copy(x, x + s.nq, s.q.begin() + static_cast<std::ptrdiff_t>(i * s.nq));
    std::copy(x + s.nq, x + nx, s.v.begin() + static_cast<std::ptrdiff_t>(i * s.nv));
    s.t[static_cast<std::size_t>(i)] = 0.0;
    s.status[static_cast<std::size_t>(i)] = 0;
  }
}

void Simulator::get_parameters(double* out) const { std::copy(impl_->p.begin(), impl_->p.end(), out); }

void Simulator::set_parameters(const double* in) {
  Impl& s = *impl_;
  std::vector<long long> all(static_cast<std::size_t>(s.n));
  for (long long i = 0; i < s.n; ++i) all[static_cast<std::size_t>(i)] = i;
  s.apply_parameters(all, std::vector<double>(in, in + s.n * s.n_params), nullptr);
}

// Layout of one instance's state: t, q (nq), v (nv), u (A), p (P), status.
void Simulator::get_state(double* out) const {
  const Impl& s = *impl_;
  if (s.device) s.pull();
  const int size = state_size();
  for (long long i = 0; i < s.n; ++i) {
    double* o = out + i * size;
    *o++ = s.t[static_cast<std::size_t>(i)];
    o = std::copy(s.q.begin() + i * s.nq, s.q.begin() + (i + 1) * s.nq, o);
    o = std::copy(s.v.begin() + i * s.nv, s.v.begin() + (i + 1) * s.nv, o);
    o = std::copy(s.u.begin() + i * s.n_inputs, s.u.begin() + (i + 1) * s.n_inputs, o);
    o = std::copy(s.p.begin() + i * s.n_params, s.p.begin() + (i + 1) * s.n_params, o);
    *o = static_cast<double>(s.status[static_cast<std::size_t>(i)]);
  }
}

void Simulator::set_state(const double* in) {
  Impl& s = *impl_;
  const int size = state_size();
  const int u_at = 1 + s.nq + s.nv, p_at = u_at + s.n_inputs;
  std::vector<double> rows(static_cast<std::size_t>(s.n) * s.n_params);
  std::vector<long long> all(static_cast<std::size_t>(s.n));
  for (long long i = 0; i < s.n; ++i) {
    const double* x = in + i * size;
    for (int j = 0; j < p_at; ++j)
      if (!std::isfinite(x[j]))
        throw std::invalid_argument("set_state: instance " + std::to_string(i) + ", entry " + std::to_string(j) +
                                    " is not finite");
    const double code = x[size - 1];
    if (!(code >= 0.0 && code < 64.0) || code != std::floor(code))
      throw std::invalid_argument("set_state: instance " + std::to_string(i) + ": status " + std::to_string(code) +
                                  " is not a status code");
    std::copy(x + p_at, x + p_at + s.n_params, rows.begin() + i * s.n_params);
    all[static_cast<std::size_t>(i)] = i;
  }
  const std::vector<double> saved_u = s.u;
  for (long long i = 0; i < s.n; ++i)
    for (int a = 0; a < s.n_inputs; ++a) s.u[i * s.n_inputs + a] = in[i * size + u_at + a];
  try {
    s.apply_parameters(all, rows, nullptr);
  } catch (...) {
    s.u = saved_u;
    throw;
  }
  if (s.device) {  // every instance's state is overwritten: nothing to bring back from the device
    s.host_state_current = s.host_status_current = true;
    s.device_state_current = false;
  }
  for (long long i = 0; i < s.n; ++i) {
    const double* x = in + i * size;
    s.t[static_cast<std::size_t>(i)] = x[0];
    std::copy(x + 1, x + 1 + s.nq, s.q.begin() + i * s.nq);
    std::copy(x + 1 + s.nq, x + u_at, s.v.begin() + i * s.nv);
    s.status[static_cast<std::size_t>(i)] = static_cast<int>(x[size - 1]);
  }
}

}  // namespace myriad::api
