#pragma once
// Myriad as a library: the public C++ API (installed as <myriad/myriad.hpp>; `find_package(myriad)` then links
// `myriad::myriad`). Self-contained: it includes nothing of src/ but this folder, so a program or the Python
// binding sees plain types only. Errors: a model file's problem throws ModelFileError (file, JSON pointer,
// reason, the same message as the CLI prints); a bad run setting throws SettingError naming the setting (never
// a CLI flag); a cancelled run throws Cancelled. Everything else that can go wrong throws std::runtime_error.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace myriad::api {

// ---- errors ----

class ModelFileError : public std::invalid_argument {
 public:
  ModelFileError(std::string file, std::string pointer, std::string reason);
  const std::string& file() const { return file_; }
  const std::string& pointer() const { return pointer_; }  // JSON pointer, e.g. /forces/1/stiffness
  const std::string& reason() const { return reason_; }

 private:
  std::string file_, pointer_, reason_;
};

// "setting 'rtol' = -1: must be in (0, 1)"; setting() is the RunOptions / SimulatorOptions member name.
class SettingError : public std::invalid_argument {
 public:
  SettingError(std::string setting, const std::string& message);
  const std::string& setting() const { return setting_; }

 private:
  std::string setting_;
};

class Cancelled : public std::runtime_error {
 public:
  Cancelled() : std::runtime_error("the run was cancelled") {}
};

// ---- models ----

struct ModelImpl;  // the parsed Model and its CompiledModel (src/api/model_impl.hpp)

struct SimulationDefaults {
  double t_end = 1.0, dt_out = 0.01, rtol = 1e-6, atol = 1e-8, h = 1e-3;
  std::string integrator = "dopri5";
  double rho_inf = 0.0;  // the implicit integrators' spectral radius at infinity
};

// An immutable, shareable loaded and compiled model. Cheap to copy (shared).
class LoadedModel {
 public:
  const std::string& name() const;
  const std::string& source() const;                    // the file name, or the name given to load_model_string
  const std::vector<std::string>& parameter_names() const;  // Model::parameters order
  const std::vector<double>& parameter_defaults() const;
  const std::vector<std::string>& parameter_units() const;  // "" where the file gives none
  const std::vector<std::string>& signal_names() const;     // the model's outputs, in order
  const std::vector<std::string>& kpi_names() const;        // the model's named KPIs, in order
  const std::vector<std::string>& kpi_units() const;
  const std::vector<std::string>& input_names() const;      // the model's `inputs`, in order
  const std::vector<double>& input_defaults() const;
  const std::vector<double>& input_lower() const;           // -inf where unbounded
  const std::vector<double>& input_upper() const;           // +inf where unbounded
  int nq() const;
  int nv() const;
  bool has_loops() const;
  SimulationDefaults defaults() const;

  std::shared_ptr<const ModelImpl> impl;
};

// Throws ModelFileError (every loader and compiler error class), std::runtime_error when the file cannot be read.
LoadedModel load_model(const std::string& path);
LoadedModel load_model_string(const std::string& json_text, const std::string& name = "<string>");
// The model with only the named outputs (signals), in the order named, so a run computes, records and writes only
// those; a named KPI's output has to be among them. Throws SettingError("signals", ...) for an empty list, a name
// that is not one of model.signal_names(), a name given twice, or a KPI's output left out.
LoadedModel keep_signals(const LoadedModel& model, const std::vector<std::string>& names);

// ---- batch runs ----

// Unset members come from the model's `simulation` block (or the defaults of docs/model-format.md). A value given
// is checked as given and refused with a SettingError naming the member, never replaced by a default.
struct RunOptions {
  std::optional<double> t_end, dt_out, h, rtol, atol, fac, facmin, facmax;
  std::optional<long long> max_steps;
  // rk4 | dopri5 | rn4 | ros2w, or an implicit fixed-step method (h is then its largest step): backward-euler |
  // lms2 | lms3 | lms4 | ss2 | ss3 | ss4 | bathe | msstc3 | msstc4 | msstc5 | mssth3 | mssth4 | mssth5 |
  // esdirk3(2)4l[2]sa | esdirk3(2)5l[2]sa | esdirk4(3)6l[2]sa2 (core/integrator_names.hpp; docs/integrators.md)
  std::optional<std::string> integrator;
  // The implicit methods' spectral radius at infinity, in [0, 1] (0: most dissipation; the methods without the
  // parameter take 0 only; msstc4/5 and mssth4/5 take 0, 0.1, ..., 1)
  std::optional<double> rho_inf;
  std::string backend = "auto";              // auto | reference | cpu | cuda
  int threads = 0;                           // reference and cpu; 0: all hardware threads
  int lanes = 4;  // cpu: instances each thread integrates in lockstep where it can (1, 2, 4, 8); same results
  std::optional<std::string> gpu_strategy;   // cuda: fused | warp | shared-lu | staged
  std::optional<long long> gpu_step_budget;  // cuda: step attempts per launch; 0: to the end
  // joint (default): the model's joint coordinates. rp | re: seed 002's absolute coordinates (Euler parameters,
  // ZXZ Euler angles) on the index-3 DAE, integrated by an implicit method; rA: rotation matrices on SO(3) with
  // backward Euler only; on the cpu backend (auto) or cuda; outputs the same signals
  // (docs/validation/seed002-absolute.md, backends/absolute_backend.hpp)
  std::optional<std::string> coordinates;
};

// Per-instance parameter values by column name: an N x P row-major table (any subset of the model's parameters).
struct ParameterSet {
  std::string source = "<array>";  // for messages: a file name or "<array>"
  std::vector<std::string> names;  // P columns
  long long rows = 0;              // N
  std::vector<double> values;      // N * P, row-major: values[i * P + p]

  static ParameterSet from_csv(const std::string& path);  // the CLI's --params format
  // Throws std::invalid_argument on a size mismatch, an empty or duplicate name, or a non-finite value
  // (naming the row and column).
  static ParameterSet from_array(std::vector<std::string> names, long long rows, const double* row_major);
};

struct Progress {
  long long done = 0, total = 0;  // instances finished, instances in the run
};

struct SimulateRequest {
  long long instances = 0;                                 // 0: the parameter set's rows, else 1
  std::optional<ParameterSet> parameters;                  // row i -> instance i
  std::vector<std::pair<std::string, double>> overrides;   // every instance (a table value wins)
  RunOptions options;
  std::function<void(const Progress&)> progress;           // called from the calling thread, at most ~10 times/s
  const std::atomic<bool>* cancel = nullptr;               // set -> the run stops soon and throws Cancelled
  // false: keep no time series (SimulationResult::values empty), only the model's named KPIs, computed on line
  // (the cpu and reference backends, and the cuda backend's fused kernel; its other strategies compute them from
  // their series afterwards, with the same code).
  bool keep_series = true;
  // Each instance's index in the whole study (non-negative, one per instance), which keys what an instance draws
  // by its index (an iso8608_road's phases): a slice of a study run alone then meets the roads the whole study
  // gives it. Empty: 0 .. N-1.
  std::vector<long long> instance_ids;
};

// Per-instance work counters (integrators' IntegratorStats).
struct InstanceStats {
  long long steps = 0, rejected = 0, function_evaluations = 0, jacobian_evaluations = 0, lu_factorizations = 0;
};

struct SimulationResult {
  long long n_instances = 0;
  int n_times = 0, n_signals = 0;
  std::vector<std::string> signal_names;
  std::vector<double> times;                   // T
  std::shared_ptr<std::vector<double>> values; // N x T x S row-major; NaN after an instance's failure
  std::vector<int> status;                     // N: 0 ok, else status_name(code)
  std::vector<InstanceStats> stats;            // N
  std::vector<double> wall_seconds;            // N
  double total_wall_seconds = 0.0;
  std::string backend;                         // the backend that ran (auto resolved)
  int threads = 1;
  std::string integrator;
  // The model's named KPIs (docs/model-format.md, "KPIs"): kpis[i * K + j], NaN for an instance not ok.
  std::vector<std::string> kpi_names, kpi_units;  // K
  std::vector<double> kpis;                       // N x K
};
const char* status_name(int status);           // ok | step_size_too_small | max_steps | non_finite | ...

// Runs the ensemble. The calling thread does no Python-visible work: a binding may release its interpreter lock.
SimulationResult simulate(const LoadedModel& model, const SimulateRequest& request);

// The backend simulate would run `options` on ("reference", "cpu" or "cuda": `auto` resolved on this machine).
// Throws SettingError as simulate does for a backend that cannot run here.
std::string resolved_backend(const LoadedModel& model, const RunOptions& options);

// ---- stepping (control and RL) ----

struct SimulatorOptions {
  long long instances = 1;
  std::string backend = "cpu";              // cpu | cuda (same interface and results to rounding of the device;
                                            // cuda: tree models only)
  int threads = 0;                          // host threads (cpu: stepping and observing; cuda: observing and
                                            // resets); 0: all hardware threads
  RunOptions run;                           // integrator, h (rk4 substep), rtol, atol, ...; t_end/dt_out unused
  std::optional<ParameterSet> parameters;   // initial per-instance parameters (row i -> instance i)
  std::vector<std::pair<std::string, double>> overrides;
};

// N instances stepped together. Each instance integrates from its own t to t + dt with its own method and step
// size (substeps allowed), its inputs held constant over the step. An instance's results never depend on the
// other instances (how many, which, in which order). Full state save/restore continues bit for bit.
// Where Simulator::observe_in_place left the outputs: rows x columns doubles, row-major, in memory the Simulator
// owns: the host's on the cpu backend, the device's (CUDA device `device`) on the cuda backend. Valid until the
// Simulator's next call or its end.
struct ObservationView {
  const double* data = nullptr;
  long long rows = 0;
  int columns = 0;
  bool on_device = false;
  int device = -1;  // the CUDA device ordinal when on_device
};

class Simulator {
 public:
  Simulator(const LoadedModel& model, const SimulatorOptions& options);
  ~Simulator();
  Simulator(Simulator&&) noexcept;
  Simulator& operator=(Simulator&&) noexcept;

  long long size() const;
  int n_inputs() const;
  int n_signals() const;
  int n_parameters() const;
  int state_size() const;  // doubles of one instance's full state (get_state / set_state)
  const LoadedModel& model() const;

  void set_inputs(const double* u);                 // N x A row-major; clipped to the model's input bounds
  void advance(double dt, const std::atomic<bool>* cancel = nullptr);  // every instance: t -> t + dt
  void observe(double* out) const;                  // N x S output signals at each instance's current state
  // The same signals left where the backend computed them, without a copy (the cuda backend: in device memory,
  // for a consumer on the GPU such as a DLPack importer).
  ObservationView observe_in_place();
  const std::vector<double>& times() const;         // N: each instance's t
  const std::vector<int>& status() const;           // N: 0 while healthy; a failed instance stays put until reset

  // Instances with mask[i] != 0 restart at t = 0: parameters (N x P row-major, row i used) or the current ones
  // when null; states (N x (nq + nv): q then v) or the model's initial state when null; inputs to their defaults.
  void reset(const std::uint8_t* mask, const double* parameters = nullptr, const double* states = nullptr);
  void get_parameters(double* out) const;           // N x P
  void set_parameters(const double* in);            // N x P; takes effect at the next advance
  void get_state(double* out) const;                // N x state_size(): t, q, v, inputs, parameters, status --
  void set_state(const double* in);                 //   everything advance reads (no step size is carried over)

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// ---- modes: linearization about static equilibrium ----

struct ModesOptions {
  std::vector<std::pair<std::string, double>> overrides;  // parameter values (the file's defaults otherwise)
  double t = 0.0;                 // the time linearized at: time functions and inputs hold their values there
  bool at_initial_state = false;  // true: linearize at the model's initial state, without solving for equilibrium
  double tolerance = 1e-10;       // equilibrium: max |acceleration| relative to max(1, |gravity|)
};

// One eigenvalue of the linearized first-order system (a pair's Im > 0 member for an oscillating mode).
struct Mode {
  bool oscillating = false;
  double real = 0.0, imag = 0.0;  // the eigenvalue (1/s)
  double natural_hz = 0.0;        // |eigenvalue| / (2 pi)
  double damped_hz = 0.0;         // imag / (2 pi)
  double damping_ratio = 0.0;     // -real / |eigenvalue|
  std::string dominant;           // the coordinate that moves most ("joint" or "joint[i]")
  std::vector<double> shape;      // |displacement| per coordinate, largest 1
};

// A natural frequency of the conservative part (damping left out): what det(K - omega^2 M) = 0 gives.
struct UndampedMode {
  double frequency_hz = 0.0;      // 0 for a rigid or statically unstable coordinate
  double eigenvalue = 0.0;        // of df/dx (1/s^2): -omega^2; > 0 means statically unstable
  std::string dominant;
  std::vector<double> shape;
};

struct ModesResult {
  std::vector<std::string> coordinates;  // the linearized coordinates, by joint ("joint" or "joint[i]")
  std::vector<double> q, v;              // the equilibrium (or initial) state: full coordinates and velocities
  double t = 0.0;
  int iterations = 0;                    // Newton iterations to the equilibrium
  double residual = 0.0;                 // max |acceleration| left there
  std::vector<Mode> modes;               // oscillating by natural frequency, then non-oscillating
  std::vector<UndampedMode> undamped;    // by frequency
};

// Solves for static equilibrium (Newton on the exact Jacobian) and returns the modes there. Throws SettingError for
// an unknown override, std::runtime_error when there is no equilibrium (a free body) or the dynamics fail.
ModesResult modes(const LoadedModel& model, const ModesOptions& options = {});

// ---- kc: the quasi-static kinematics-and-compliance rig of a template corner ----

struct KcOptions {
  std::string subsystem;  // empty: the model's only subsystem
  double travel = 0.08;   // wheel travel swept from -travel to +travel (m)
  int points = 33;
  std::vector<std::pair<std::string, double>> overrides;  // parameter values (the file's defaults otherwise)
};

struct KcResult {
  std::string subsystem, side;
  std::vector<std::string> columns;  // travel, toe, camber, wheel_center_x/y/z, spring_length, motion_ratio,
                                     // wheel_load, wheel_rate, roll_centre_height
  std::vector<std::string> units;
  std::vector<std::vector<double>> rows;  // one per travel, in the columns' order
};

// The corner's bump steer (toe), bump camber, wheel-centre path, spring length and motion ratio, wheel load and
// rate, and roll-centre height over the travel sweep (definitions in docs/model-format.md, "Subsystems"). Throws
// SettingError for an unknown override, std::invalid_argument for bad options or a missing subsystem,
// std::runtime_error when the corner cannot reach a travel.
KcResult kinematics_and_compliance(const LoadedModel& model, const KcOptions& options = {});

// Counter-based random numbers (Philox4x32-10): the draw depends only on (seed, instance, episode, counter), so an
// environment's randomness never depends on how many run beside it. Uniform in [0, 1) with 53 random bits.
double philox_uniform(std::uint64_t seed, std::uint64_t instance, std::uint64_t episode, std::uint64_t counter);
// Standard normal (Box-Muller on two uniforms of counters 2k, 2k+1).
double philox_normal(std::uint64_t seed, std::uint64_t instance, std::uint64_t episode, std::uint64_t counter);

}  // namespace myriad::api
