#include "reference/reference_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>

#include "dynamics/tree_ode.hpp"
#include "dynamics/tree_second_order.hpp"
#include "ensemble/cpu_runner.hpp"
#include "ensemble/ensemble_kpis.hpp"
#include "ensemble/instance_blocks.hpp"
#include "ensemble/simulate_instance.hpp"
#include "reference/finite_difference_jacobians.hpp"
#include "reference/reference_dynamics.hpp"
#include "reference/reference_loop_ode.hpp"

namespace myriad {
namespace reference {
namespace {

bool all_finite(int n, const double* v) {
  for (int i = 0; i < n; ++i)
    if (!std::isfinite(v[i])) return false;
  return true;
}

// reference::forward_dynamics into u_dot (nv); false if it throws (M not positive definite, a zero-length
// spring).
bool reference_accelerations(const Model& literal, double t, const Eigen::VectorXd& q,
                             const Eigen::VectorXd& u, double* u_dot) {
  try {
    const Eigen::VectorXd a = reference::forward_dynamics(literal, t, q, u);
    for (Eigen::Index i = 0; i < a.size(); ++i) u_dot[i] = a[i];
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

// ---- first-order form ----

ReferenceTreeOde::ReferenceTreeOde(const Model& literal, const CompiledModel& compiled, double* base_q)
    : literal_(&literal), compiled_(&compiled), base_q_(base_q), q_(compiled.nq), u_(compiled.nv) {}

bool ReferenceTreeOde::derivative(double t, const double* y, double* dydt) {
  const int nv = compiled_->nv;
  chart_to_q(*compiled_, base_q_, y, q_.data());
  for (int i = 0; i < nv; ++i) u_[i] = y[nv + i];
  if (!reference_accelerations(*literal_, t, q_, u_, dydt + nv)) return false;
  chart_rate(*compiled_, y, q_.data(), y + nv, dydt);
  return all_finite(2 * nv, dydt);
}

bool ReferenceTreeOde::rebase(double, double* y) {
  return compiled_->has_quaternions ? chart_rebase(*compiled_, base_q_, y, kChartRebaseThreshold) : false;
}

// ---- second-order form ----

ReferenceTreeSecondOrder::ReferenceTreeSecondOrder(const Model& literal, const CompiledModel& compiled,
                                                   double* base_q)
    : literal_(&literal),
      compiled_(&compiled),
      base_q_(base_q),
      q_(static_cast<size_t>(compiled.nq) + 1),
      u_(static_cast<size_t>(compiled.nv) + 1),
      u_dot_(static_cast<size_t>(compiled.nv) + 1),
      q_eigen_(compiled.nq),
      u_eigen_(compiled.nv) {}

bool ReferenceTreeSecondOrder::acceleration(double t, const double* x, const double* w, double* f) {
  const CompiledModel& model = *compiled_;
  chart_to_q(model, base_q_, x, q_.data());
  velocity_from_chart_rate(model, x, q_.data(), w, u_.data());
  for (int i = 0; i < model.nq; ++i) q_eigen_[i] = q_[static_cast<size_t>(i)];
  for (int i = 0; i < model.nv; ++i) u_eigen_[i] = u_[static_cast<size_t>(i)];
  if (!reference_accelerations(*literal_, t, q_eigen_, u_eigen_, u_dot_.data())) return false;
  chart_acceleration(model, x, q_.data(), w, u_.data(), u_dot_.data(), f);
  return all_finite(model.nv, f);
}

bool ReferenceTreeSecondOrder::jacobians(double t, const double* x, const double* w, double* f, double* J1,
                                         double* J2, double* f_t) {
  return finite_difference_jacobians(
      compiled_->nv,
      [this](double s, const double* a, const double* b, double* out) { return acceleration(s, a, b, out); }, t, x,
      w, f, J1, J2, f_t);
}

bool ReferenceTreeSecondOrder::mass_matrix(double, const double*, double* M) {
  const int n = compiled_->nv;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) M[i * n + j] = i == j ? 1.0 : 0.0;
  return true;
}

bool ReferenceTreeSecondOrder::rebase(double, double* x, double* w) {
  const CompiledModel& model = *compiled_;
  if (!model.has_quaternions) return false;
  chart_to_q(model, base_q_, x, q_.data());
  velocity_from_chart_rate(model, x, q_.data(), w, u_.data());
  if (!chart_rebase(model, base_q_, x, rebase_threshold)) return false;
  chart_to_q(model, base_q_, x, q_.data());
  chart_rate(model, x, q_.data(), u_.data(), w);
  return true;
}

void ReferenceTreeSecondOrder::to_first_order(const double* x, const double* w, double* y) {
  const int n = compiled_->nv;
  for (int i = 0; i < n; ++i) y[i] = x[i];
  chart_to_q(*compiled_, base_q_, x, q_.data());
  velocity_from_chart_rate(*compiled_, x, q_.data(), w, y + n);
}

void ReferenceTreeSecondOrder::from_first_order(const double* y, double* x, double* w) {
  const int n = compiled_->nv;
  for (int i = 0; i < n; ++i) x[i] = y[i];
  chart_to_q(*compiled_, base_q_, x, q_.data());
  chart_rate(*compiled_, x, q_.data(), y + n, w);
}

}  // namespace reference

namespace {

using Recorder = SignalRecorder<const double*>;

// The Rosenbrock integrators' observer sees (x, w); the signal recorder reads (x, u) (as SecondOrderRecorder
// in ensemble/simulate_instance.hpp, for the reference system).
struct ReferenceSecondOrderRecorder {
  reference::ReferenceTreeSecondOrder* system;
  Recorder* recorder;
  double* y;  // (x, u), 2 nv

  void operator()(int index, double t, const double* xw) {
    system->to_first_order(xw, xw + system->dimension(), y);
    (*recorder)(index, t, y);
  }
};

using Clock = std::chrono::steady_clock;

// As in cpu_runner.cpp: blocks of instances from the shared counter (ensemble/instance_blocks.hpp); each is
// computed alone.
void run_worker(const Model& model, const CompiledModel& compiled, const Ensemble& ensemble,
                const RunSpec& spec, const std::vector<double>& times, InstanceBlocks& blocks,
                EnsembleResult& result, RunProgress* progress) {
  std::vector<double> constants(static_cast<size_t>(compiled.n_constants) + 1);
  std::vector<double> q(static_cast<size_t>(compiled.nq) + 1), v(static_cast<size_t>(compiled.nv) + 1);
  std::vector<double> values(model.parameters.size());
  const size_t per_instance = times.size() * static_cast<size_t>(compiled.n_outputs);
  const bool series = !result.values.empty() || per_instance == 0;
  std::vector<double> rows(series ? 0 : per_instance);  // an instance's rows when the run keeps no series
  const size_t kpi_doubles = static_cast<size_t>(compiled.n_kpis) * kKpiStateDoubles;
  long long begin = 0, end = 0;
  while (!(progress && progress->cancelled()) && blocks.claim(begin, end)) {
    for (int i = static_cast<int>(begin); i < static_cast<int>(end); ++i) {
      const auto start = Clock::now();
      const size_t index = static_cast<size_t>(i);
      double* outputs = series ? result.values.data() + per_instance * index : rows.data();
      double* kpi_state = kpi_doubles > 0 ? result.kpi_state.data() + kpi_doubles * index : nullptr;
      try {
        const Model literal = ensemble.literal_model(model, i, values);
        ensemble.gather_constants(i, constants.data());
        ensemble.gather_initial_state(i, q.data(), v.data());
        result.status[index] = simulate_instance_reference(
            literal, compiled, constants.data(), q.data(), v.data(), spec, times.data(),
            static_cast<int>(times.size()), outputs, result.stats[index], kpi_state);
      } catch (const std::exception&) {
        // Nothing in an instance's run is expected to throw (the dynamics' exceptions become statuses);
        // should anything else (allocation) fail, this instance alone stops.
        result.status[index] = InstanceStatus::non_finite;
      }
      // Values after a failure stay NaN: the recorder writes only the output times the integration reached.
      result.wall_seconds[index] = std::chrono::duration<double>(Clock::now() - start).count();
    }
    if (progress) progress->finished(end - begin);
  }
}

// A model with loops on the reference path (reference/reference_loop_ode.hpp); outputs through the fast path's
// LoopSignalRecorder fed the reference state, as the tree case feeds SignalRecorder.
InstanceStatus simulate_loop_instance_reference(const Model& literal, const CompiledModel& compiled,
                                                const double* constants, const double* q_init,
                                                const double* v_init, const RunSpec& spec,
                                                const double* output_times, int n_output_times, double* outputs,
                                                IntegratorStats& stats, double* kpi_state) {
  reference::ReferenceLoopOde ode(literal, compiled, q_init, v_init);
  const int ndof = compiled.constraints.n_independent;
  std::vector<double> y(2 * static_cast<size_t>(ndof) + 1);
  if (n_output_times <= 0) return InstanceStatus::ok;
  const auto failed = [&] {
    return ode.projection_failed() ? InstanceStatus::projection_failed : InstanceStatus::non_finite;
  };
  if (!ode.initial_state(spec.t0, y.data())) return failed();
  std::vector<unsigned char> buffer(loop_scratch_bytes<double>(compiled));
  LoopOde<const double*> recorder_ode{&compiled, constants,
                                      carve_loop_scratch<double>(compiled, buffer.data(), nullptr),
                                      LoopFailure::none, 0.0, 0};
  for (int i = 0; i < compiled.nv; ++i) {  // the recorder's Newton starts from the reference's assembled state
    recorder_ode.s.q[i] = q_init[i];
    recorder_ode.s.v[i] = v_init[i];
  }
  LoopSignalRecorder<const double*> recorder{&recorder_ode, outputs, output_times, n_output_times, kpi_state};
  if (ndof == 0) {
    for (int i = 0; i < n_output_times; ++i) {
      if (!ode.derivative(output_times[i], y.data(), nullptr)) return failed();
      recorder(i, output_times[i], y.data());
    }
    return InstanceStatus::ok;
  }
  StepControl control = spec.control;
  control.max_steps = spec.max_steps;
  std::vector<double> work(static_cast<size_t>(integrator_workspace_size(spec.method, ndof)) + 1);
  InstanceStatus status = InstanceStatus::ok;
  reference::ReferenceLoopSecondOrder second_order{&ode};
  const auto integrate = [&](double t, const SegmentTimes& times, int count, auto& observer) {
    switch (spec.method) {
      case Method::rk4:
      case Method::implicit: break;  // not piecewise: below
      case Method::dopri5:
        return integrate_dopri5(ode, t, y.data(), times, count, observer, control, work.data(), stats);
      case Method::rn4:
        return integrate_rn4(second_order, t, y.data(), y.data() + ndof, times, count, observer, control,
                             work.data(), stats);
      case Method::ros2w:
        return integrate_ros2w(second_order, t, y.data(), y.data() + ndof, times, count, observer, control,
                               work.data(), stats);
    }
    return InstanceStatus::non_finite;
  };
  if (spec.method == Method::rk4) {
    status = integrate_rk4(ode, spec.t0, spec.h, y.data(), output_times, n_output_times, recorder, work.data(),
                           stats, spec.max_steps);
  } else if (spec.method == Method::implicit) {  // fixed grid, as RK4: no pieces
    SecondOrderImplicitOde<reference::ReferenceLoopSecondOrder> implicit{
        &second_order, work.data() + implicit_outputs_workspace_size(2 * ndof, 0)};
    IntegrationProgress progress;
    status = integrate_implicit_outputs(implicit, spec.implicit, spec.implicit_options, spec.t0, spec.h, y.data(),
                                        output_times, n_output_times, recorder, work.data(), stats, spec.max_steps,
                                        progress);
  } else
    status = integrate_piecewise(compiled, constants, spec.t0, output_times, n_output_times, recorder, integrate);
  if (status == InstanceStatus::non_finite && ode.projection_failed()) return InstanceStatus::projection_failed;
  return status;
}

}  // namespace

InstanceStatus simulate_instance_reference(const Model& literal, const CompiledModel& compiled,
                                           const double* constants, const double* q_init,
                                           const double* v_init, const RunSpec& spec,
                                           const double* output_times, int n_output_times, double* outputs,
                                           IntegratorStats& stats, double* kpi_state) {
  if (compiled.constraints.m > 0)
    return simulate_loop_instance_reference(literal, compiled, constants, q_init, v_init, spec, output_times,
                                            n_output_times, outputs, stats, kpi_state);
  const int nv = compiled.nv;
  const size_t nq_size = static_cast<size_t>(compiled.nq) + 1, nv_size = static_cast<size_t>(nv) + 1;
  std::vector<double> base_q(nq_size);  // chart base (nq), shared by the reference system and the recorder
  std::vector<double> record_q(nq_size), record_qdd(nv_size);  // the recorder's scratch, written by it
  std::vector<double> y(2 * nv_size);                           // (x, u) (2 nv), the first-order state
  std::vector<double> tree_buffer(tree_workspace_bytes<double>(compiled) / sizeof(double) + 1);
  TreeOde<const double*> recorder_ode{&compiled, constants, base_q.data(), record_q.data(), record_qdd.data(),
                                      carve_tree_workspace<double>(compiled, tree_buffer.data(), nullptr)};
  chart_from_q(compiled, q_init, base_q.data(), y.data());
  for (int i = 0; i < nv; ++i) y[static_cast<size_t>(nv + i)] = v_init[i];
  Recorder recorder{&recorder_ode, outputs, output_times, n_output_times, kpi_state};
  if (n_output_times <= 0) return InstanceStatus::ok;

  StepControl control = spec.control;
  control.max_steps = spec.max_steps;
  std::vector<double> work(static_cast<size_t>(integrator_workspace_size(spec.method, nv)) + 1);
  const double* k = constants;
  switch (spec.method) {
    case Method::rk4: {
      reference::ReferenceTreeOde ode(literal, compiled, base_q.data());
      return integrate_rk4(ode, spec.t0, spec.h, y.data(), output_times, n_output_times, recorder,
                           work.data(), stats, spec.max_steps);
    }
    case Method::dopri5: {
      reference::ReferenceTreeOde ode(literal, compiled, base_q.data());
      return integrate_piecewise(compiled, k, spec.t0, output_times, n_output_times, recorder,
                                 [&](double t, const SegmentTimes& times, int count, auto& observer) {
                                   return integrate_dopri5(ode, t, y.data(), times, count, observer, control,
                                                           work.data(), stats);
                                 });
    }
    case Method::implicit: {  // fixed grid, as RK4: no pieces
      reference::ReferenceTreeSecondOrder system(literal, compiled, base_q.data());
      system.rebase_threshold = kChartRebaseThreshold;
      std::vector<double> xw(2 * nv_size);
      double* x = xw.data();
      system.from_first_order(y.data(), x, x + nv);
      ReferenceSecondOrderRecorder adapter{&system, &recorder, y.data()};
      SecondOrderImplicitOde<reference::ReferenceTreeSecondOrder> implicit{
          &system, work.data() + implicit_outputs_workspace_size(2 * nv, 0)};
      IntegrationProgress progress;
      return integrate_implicit_outputs(implicit, spec.implicit, spec.implicit_options, spec.t0, spec.h, x,
                                        output_times, n_output_times, adapter, work.data(), stats, spec.max_steps,
                                        progress);
    }
    case Method::rn4:
    case Method::ros2w: {
      reference::ReferenceTreeSecondOrder system(literal, compiled, base_q.data());
      std::vector<double> xw(2 * nv_size);
      double* x = xw.data();
      double* w = x + nv;
      system.from_first_order(y.data(), x, w);
      ReferenceSecondOrderRecorder adapter{&system, &recorder, y.data()};
      const bool rn4 = spec.method == Method::rn4;
      return integrate_piecewise(compiled, k, spec.t0, output_times, n_output_times, adapter,
                                 [&](double t, const SegmentTimes& times, int count, auto& observer) {
                                   return rn4 ? integrate_rn4(system, t, x, w, times, count, observer,
                                                              control, work.data(), stats)
                                              : integrate_ros2w(system, t, x, w, times, count, observer,
                                                                control, work.data(), stats);
                                 });
    }
  }
  return InstanceStatus::non_finite;
}

EnsembleResult run_ensemble_reference(const Model& model, const CompiledModel& compiled,
                                      const Ensemble& ensemble, const RunSpec& spec,
                                      const std::vector<double>& output_times, int threads,
                                      RunProgress* progress, bool keep_series) {
  if (ensemble.n_parameters != static_cast<int>(model.parameters.size()) || ensemble.nq != compiled.nq ||
      ensemble.nv != compiled.nv || ensemble.n_constants != compiled.n_constants)
    throw std::invalid_argument("run_ensemble_reference: the ensemble was not built for model '" +
                                model.name + "'");
  const int n = ensemble.n_instances;
  EnsembleResult result = make_ensemble_result(n, output_times, compiled.n_outputs, keep_series);
  result.kpi_state.assign(static_cast<size_t>(n) * static_cast<size_t>(compiled.n_kpis) * kKpiStateDoubles, 0.0);
  threads = resolve_thread_count(threads, n);

  const auto start = Clock::now();
  InstanceBlocks blocks(n, ensemble_block_size(n, threads));
  result.threads = run_on_threads(
      threads, [&] { run_worker(model, compiled, ensemble, spec, output_times, blocks, result, progress); });
  result.total_wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  finish_kpis(compiled, result);
  return result;
}

}  // namespace myriad
