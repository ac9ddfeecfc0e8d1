#include "backends/absolute_backend.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "absolute/absolute_run.hpp"
#include "absolute/model_mapping.hpp"
#include "absolute/rotation_matrix_dynamics.hpp"
#include "backends/absolute_instance.hpp"
#include "core/scalar.hpp"
#include "ensemble/ensemble_kpis.hpp"
#include "ensemble/instance_blocks.hpp"
#include "integrators/implicit_outputs.hpp"
#include "integrators/rk4.hpp"

namespace myriad {

namespace {

using Clock = std::chrono::steady_clock;

// One instance, start to end: status; its rows (n_times x n_outputs) written where the integration reached. The
// integration is integrate_absolute_instance (absolute/absolute_run.hpp), the function the cuda kernel runs; its
// output states are turned into signals afterwards.
template <class Rep>
InstanceStatus run_instance(const Model& literal, const CompiledModel& compiled, const double* constants,
                            const Ensemble& ensemble, int i, const RunSpec& spec,
                            const std::vector<double>& times, double* rows, double* kpi_state,
                            IntegratorStats& stats) {
  const BodyAxisOrder axes = Rep::kNormalized ? BodyAxisOrder::as_found : BodyAxisOrder::z_away_from_world_z;
  const AbsoluteInstance instance = prepare_absolute_instance(literal, compiled, constants, ensemble, i, axes);
  std::vector<double> y = absolute_state<Rep>(instance.mapping, start_body_states(literal, instance));
  BodySignalRecorder recorder(literal, compiled, constants, times, rows, kpi_state, instance.q0);
  const int n_times = static_cast<int>(times.size()), ny = static_cast<int>(y.size());
  const int row_size = absolute_row_size(ny, ny / 2, recorder.accelerations);
  std::vector<double> states(static_cast<size_t>(n_times) * static_cast<size_t>(row_size));
  std::vector<double> work(static_cast<size_t>(absolute_instance_workspace_size<Rep>(*instance.model)));
  int reached = 0;
  const InstanceStatus status = integrate_absolute_instance<Rep>(
      *instance.model, spec.implicit, spec.implicit_options, spec.t0, spec.h, spec.max_steps, y.data(),
      times.data(), n_times, recorder.accelerations, states.data(), work.data(), stats, reached);
  record_absolute_rows<Rep>(recorder, instance.mapping, states.data(), reached, row_size);
  if (status == InstanceStatus::ok && !recorder.recovered) return InstanceStatus::non_finite;
  return status;
}

using RotationRun = RotationMatrixDynamics<kAbsoluteRunBodies, kAbsoluteRunGcons>;
using RotationRunState = RotationMatrixState<kAbsoluteRunBodies>;

// The rA state of the mapped bodies in the given world states: A = R_WB R_BP, omega-bar = A^T w.
RotationRunState rotation_matrix_state(const AbsoluteMapping& mapping, const std::vector<WorldBodyState>& bodies) {
  RotationRunState s;
  for (size_t b = 0; b < bodies.size(); ++b) {
    s.A[b] = bodies[b].R_WB * mapping.bodies[b].R_BP;
    s.r[b] = bodies[b].p_cm;
    s.r_dot[b] = bodies[b].v_cm;
    s.omega_bar[b] = transpose_times(s.A[b], bodies[b].w);
  }
  return s;
}

std::vector<kinematics::BodyKinematics> rotation_matrix_body_states(const AbsoluteMapping& mapping,
                                                                    const RotationRunState& s) {
  std::vector<kinematics::BodyKinematics> bodies(mapping.bodies.size());
  for (size_t b = 0; b < bodies.size(); ++b) {
    const double r[3] = {s.r[b].x, s.r[b].y, s.r[b].z}, r_dot[3] = {s.r_dot[b].x, s.r_dot[b].y, s.r_dot[b].z};
    bodies[b] = absolute_body_kinematics(mapping, static_cast<int>(b), s.A[b], r, r_dot, s.omega_bar[b]);
  }
  return bodies;
}

// The bodies' accelerations r'' and A omega-bar' (omega = A omega-bar: omega' = A (omega-bar x omega-bar +
// omega-bar') = A omega-bar') from the unknowns x of a step or of the forward dynamics.
std::vector<kinematics::BodyAcceleration> rotation_matrix_body_accelerations(const RotationRunState& s,
                                                                             const double* x, int n) {
  std::vector<kinematics::BodyAcceleration> out(static_cast<size_t>(n));
  for (int b = 0; b < n; ++b) {
    const double* a = x + RotationRun::kPerBody * b;
    const Vec3<double> alpha = s.A[b] * Vec3<double>{a[3], a[4], a[5]};
    out[static_cast<size_t>(b)].a_cm_W = Eigen::Vector3d(a[0], a[1], a[2]);
    out[static_cast<size_t>(b)].alpha_W = Eigen::Vector3d(alpha.x, alpha.y, alpha.z);
  }
  return out;
}

// One instance in rA: seed 002's backward Euler on SO(3) (integrate_rotation_matrix_backward_euler, its exact
// iteration matrix) on the equal-step grid of integrators/implicit_outputs.hpp (n = ceil((T - t0) / h) steps of
// (T - t0) / n). An output time between two points takes the cubic Hermite interpolation of r (with r'), r' (with
// r'') and omega-bar (with omega-bar') and A_n exp(theta dt omega-bar_n+1), which is backward Euler's own turn
// A_n -> A_n+1 (eq. 32d) taken in part: every output keeps the method's order 1. After each step the RSDAs'
// anchors move to the new orientations. Status as run_instance's.
InstanceStatus run_rotation_matrix_instance(const Model& literal, const CompiledModel& compiled,
                                            const double* constants, const Ensemble& ensemble, int i,
                                            const RunSpec& spec, const std::vector<double>& times, double* rows,
                                            double* kpi_state, IntegratorStats& stats) {
  const AbsoluteInstance instance =
      prepare_absolute_instance(literal, compiled, constants, ensemble, i, BodyAxisOrder::as_found);
  const AbsoluteMapping& mapping = instance.mapping;
  AbsoluteRunModel* model = instance.model.get();
  RotationRun dynamics;
  dynamics.model = model;
  const int nb = model->body_count, nx = dynamics.unknown_count();
  RotationRunState state = rotation_matrix_state(mapping, start_body_states(literal, instance));

  BodySignalRecorder recorder(literal, compiled, constants, times, rows, kpi_state, instance.q0);
  std::vector<double> x_forward(static_cast<size_t>(RotationRun::NX));
  const auto record = [&](int index, double t, const RotationRunState& s) {
    recorder.record(index, t, rotation_matrix_body_states(mapping, s), [&] {
      if (!dynamics.accelerations(t, s, x_forward.data())) return std::vector<kinematics::BodyAcceleration>();
      return rotation_matrix_body_accelerations(s, x_forward.data(), nb);
    });
  };
  const int n_times = static_cast<int>(times.size());
  int next_output = 0;
  while (next_output < n_times && times[static_cast<size_t>(next_output)] <= spec.t0)
    record(next_output, times[static_cast<size_t>(next_output)], state), ++next_output;
  if (next_output == n_times) return recorder.recovered ? InstanceStatus::ok : InstanceStatus::non_finite;
  if (!(spec.h > 0.0) || !std::isfinite(spec.h)) return InstanceStatus::step_size_too_small;

  const double t_end = times.back();
  const long long n_steps = implicit_step_count(spec.t0, t_end, spec.h);
  const double dt = (t_end - spec.t0) / static_cast<double>(n_steps);
  const long long taken = std::min(n_steps, spec.max_steps);
  // The previous point: its state and unknowns (accelerations), for the outputs between it and the next.
  RotationRunState previous = state;
  std::vector<double> x(static_cast<size_t>(RotationRun::NX)), x_previous(x.size());
  constexpr int kDense = 9 * kAbsoluteRunBodies;  // (r, r', omega-bar) per body
  double y0[kDense], f0[kDense], y1[kDense], f1[kDense], y_out[kDense];
  const auto pack_dense = [&](const RotationRunState& s, const double* a, double* y, double* f) {
    for (int b = 0; b < nb; ++b)
      for (int k = 0; k < 3; ++k) {
        y[9 * b + k] = s.r[b][k], f[9 * b + k] = s.r_dot[b][k];
        y[9 * b + 3 + k] = s.r_dot[b][k], f[9 * b + 3 + k] = a[RotationRun::kPerBody * b + k];
        y[9 * b + 6 + k] = s.omega_bar[b][k], f[9 * b + 6 + k] = a[RotationRun::kPerBody * b + 3 + k];
      }
  };
  ImplicitStats implicit;
  const auto observer = [&](long long step, double t, const RotationRunState& s, const double* x_now) {
    if (step > 0) {
      const double t_next = step == n_steps ? t_end : t;
      const double t_prev = spec.t0 + static_cast<double>(step - 1) * dt;
      while (next_output < n_times && times[static_cast<size_t>(next_output)] <= t_next) {
        const double t_out = times[static_cast<size_t>(next_output)];
        if (t_out == t_next) {
          record(next_output, t_out, s);
        } else {
          const double theta = (t_out - t_prev) / dt;
          pack_dense(previous, x_previous.data(), y0, f0);
          pack_dense(s, x_now, y1, f1);
          hermite_dense_output(9 * nb, theta, dt, y0, f0, y1, f1, y_out);
          RotationRunState between = s;
          for (int b = 0; b < nb; ++b) {
            between.r[b] = {y_out[9 * b], y_out[9 * b + 1], y_out[9 * b + 2]};
            between.r_dot[b] = {y_out[9 * b + 3], y_out[9 * b + 4], y_out[9 * b + 5]};
            between.omega_bar[b] = {y_out[9 * b + 6], y_out[9 * b + 7], y_out[9 * b + 8]};
            between.A[b] = rotation_update(previous.A[b], (theta * dt) * s.omega_bar[b]);
          }
          record(next_output, t_out, between);
        }
        ++next_output;
      }
      RotationRun::move_anchors(*model, s);
    }
    previous = s;
    std::copy(x_now, x_now + nx, x_previous.begin());
  };
  ++stats.function_evaluations;  // the consistent start, as integrate_implicit_outputs counts it
  InstanceStatus status = integrate_rotation_matrix_backward_euler(dynamics, spec.t0, dt, taken, state, x.data(),
                                                                   spec.implicit_options,
                                                                   RotationMatrixIterationMatrix::exact, implicit,
                                                                   observer);
  stats.steps += implicit.steps;
  stats.function_evaluations += implicit.residual_evaluations;
  stats.jacobian_evaluations += implicit.newton_iterations;
  stats.lu_factorizations += implicit.newton_iterations;
  if (status == InstanceStatus::ok && taken < n_steps) status = InstanceStatus::max_steps;
  if (status == InstanceStatus::ok && !recorder.recovered) return InstanceStatus::non_finite;
  return status;
}

}  // namespace

bool parse_absolute_coordinates(const std::string& name, AbsoluteCoordinates& out) {
  if (name == "rp") return out = AbsoluteCoordinates::rp, true;
  if (name == "re") return out = AbsoluteCoordinates::re, true;
  if (name == "rA") return out = AbsoluteCoordinates::rA, true;
  return false;
}

std::string absolute_run_refusal(const Model& literal_model) {
  const AbsoluteMapping mapping = map_to_absolute(literal_model, RevoluteDriverGcon::angle);
  if (!mapping.missing.empty()) {
    std::string reason = "the absolute-coordinate mapping would leave out ";
    for (size_t k = 0; k < mapping.missing.size(); ++k) reason += (k ? "; " : "") + mapping.missing[k];
    return reason;
  }
  if (static_cast<int>(mapping.bodies.size()) > kAbsoluteRunBodies ||
      static_cast<int>(mapping.gcons.size()) > kAbsoluteRunGcons)
    return std::to_string(mapping.bodies.size()) + " bodies and " + std::to_string(mapping.gcons.size()) +
           " GCONs, more than the absolute engine's " + std::to_string(kAbsoluteRunBodies) + " and " +
           std::to_string(kAbsoluteRunGcons);
  if (static_cast<int>(literal_model.drivers.size()) > kMaxAbsoluteDrivers)
    return std::to_string(literal_model.drivers.size()) + " drivers, more than the absolute engine's " +
           std::to_string(kMaxAbsoluteDrivers);
  if (static_cast<int>(mapping.rsdas.size()) > kMaxAbsoluteRsdas)
    return std::to_string(mapping.rsdas.size()) + " rotational spring-dampers and revolute actuators, more than the "
           "absolute engine's " + std::to_string(kMaxAbsoluteRsdas);
  if (static_cast<int>(mapping.actuators.size()) > kMaxAbsoluteActuators)
    return std::to_string(mapping.actuators.size()) + " translational actuators, more than the absolute engine's " +
           std::to_string(kMaxAbsoluteActuators);
  if (static_cast<int>(mapping.tires.size()) > kMaxAbsoluteTires)
    return std::to_string(mapping.tires.size()) + " tires, more than the absolute engine's " +
           std::to_string(kMaxAbsoluteTires);
  if (static_cast<int>(mapping.bushings.size()) > kMaxAbsoluteBushings)
    return std::to_string(mapping.bushings.size()) + " bushings, more than the absolute engine's " +
           std::to_string(kMaxAbsoluteBushings);
  if (static_cast<int>(mapping.tsdas.size()) > kMaxAbsoluteTsdas)
    return std::to_string(mapping.tsdas.size()) + " translational spring-dampers, more than the absolute engine's " +
           std::to_string(kMaxAbsoluteTsdas);
  return "";
}

void check_absolute_run(AbsoluteCoordinates coordinates, const Model& model, const CompiledModel& compiled,
                        const Ensemble& ensemble, const RunSpec& spec) {
  if (spec.method != Method::implicit)
    throw std::invalid_argument("model '" + model.name +
                                "': absolute coordinates integrate the index-3 DAE with an implicit method only");
  if (coordinates == AbsoluteCoordinates::rA && spec.implicit.method != ImplicitMethod::backward_euler)
    throw std::invalid_argument("model '" + model.name +
                                "': rA integrates with its own backward Euler on SO(3) (seed 002 eqs. 32-38) only");
  if (ensemble.n_parameters != static_cast<int>(model.parameters.size()) || ensemble.nq != compiled.nq ||
      ensemble.nv != compiled.nv || ensemble.n_constants != compiled.n_constants)
    throw std::invalid_argument("run_ensemble_absolute: the ensemble was not built for model '" + model.name + "'");
  const int n = ensemble.n_instances;
  std::vector<double> values(model.parameters.size());
  for (size_t p = 0; p < values.size(); ++p) values[p] = n > 0 ? ensemble.parameter(static_cast<int>(p), 0) : 0.0;
  const std::string refusal = absolute_run_refusal(apply_parameters(model, values));
  if (!refusal.empty()) throw std::invalid_argument("model '" + model.name + "': " + refusal);
}

EnsembleResult run_ensemble_absolute(AbsoluteCoordinates coordinates, const Model& model,
                                     const CompiledModel& compiled, const Ensemble& ensemble, const RunSpec& spec,
                                     const std::vector<double>& output_times, int threads, RunProgress* progress,
                                     bool keep_series) {
  check_absolute_run(coordinates, model, compiled, ensemble, spec);
  const int n = ensemble.n_instances;
  EnsembleResult result = make_ensemble_result(n, output_times, compiled.n_outputs, keep_series);
  result.kpi_state.assign(static_cast<size_t>(n) * static_cast<size_t>(compiled.n_kpis) * kKpiStateDoubles, 0.0);
  threads = resolve_thread_count(threads, n);
  const size_t per_instance = output_times.size() * static_cast<size_t>(compiled.n_outputs);
  const size_t kpi_doubles = static_cast<size_t>(compiled.n_kpis) * kKpiStateDoubles;
  const auto start = Clock::now();
  InstanceBlocks blocks(n, ensemble_block_size(n, threads));
  const auto worker = [&] {
    std::vector<double> constants(static_cast<size_t>(compiled.n_constants) + 1), values(model.parameters.size());
    std::vector<double> rows(per_instance);
    long long begin = 0, end = 0;
    while (!(progress && progress->cancelled()) && blocks.claim(begin, end)) {
      for (int i = static_cast<int>(begin); i < static_cast<int>(end); ++i) {
        const auto instance_start = Clock::now();
        const size_t index = static_cast<size_t>(i);
        // Rows go to a scratch copy first: an instance's values after its failure stay NaN in the result.
        std::fill(rows.begin(), rows.end(), quiet_nan());
        double* kpi_state = kpi_doubles > 0 ? result.kpi_state.data() + kpi_doubles * index : nullptr;
        try {
          const Model literal = ensemble.literal_model(model, i, values);
          ensemble.gather_constants(i, constants.data());
          const double* k = constants.data();
          IntegratorStats& stats = result.stats[index];
          switch (coordinates) {
            case AbsoluteCoordinates::rp:
              result.status[index] = run_instance<EulerParameterCoordinates>(
                  literal, compiled, k, ensemble, i, spec, output_times, rows.data(), kpi_state, stats);
              break;
            case AbsoluteCoordinates::re:
              result.status[index] = run_instance<EulerAngleCoordinates>(
                  literal, compiled, k, ensemble, i, spec, output_times, rows.data(), kpi_state, stats);
              break;
            case AbsoluteCoordinates::rA:
              result.status[index] = run_rotation_matrix_instance(literal, compiled, k, ensemble, i, spec,
                                                                  output_times, rows.data(), kpi_state, stats);
              break;
          }
        } catch (const std::exception&) {
          // A start that does not assemble, or joint coordinates that cannot be recovered: this instance alone.
          result.status[index] = InstanceStatus::non_finite;
        }
        if (!result.values.empty()) std::copy(rows.begin(), rows.end(), result.values.begin() + per_instance * index);
        result.wall_seconds[index] = std::chrono::duration<double>(Clock::now() - instance_start).count();
      }
      if (progress) progress->finished(end - begin);
    }
  };
  result.threads = run_on_threads(threads, worker);
  result.total_wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  finish_kpis(compiled, result);
  return result;
}

}  // namespace myriad
