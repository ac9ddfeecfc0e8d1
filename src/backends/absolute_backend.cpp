#include "backends/absolute_backend.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "absolute/absolute_dynamics.hpp"
#include "absolute/model_mapping.hpp"
#include "absolute/rotation_matrix_dynamics.hpp"
#include "core/scalar.hpp"
#include "constraints/assembly.hpp"
#include "constraints/model_kinematics.hpp"
#include "dynamics/output_signals.hpp"
#include "dynamics/tree_kinematics.hpp"
#include "dynamics/tree_workspace.hpp"
#include "ensemble/ensemble_kpis.hpp"
#include "ensemble/instance_blocks.hpp"
#include "integrators/implicit_outputs.hpp"
#include "integrators/rk4.hpp"
#include "kpi/kpi.hpp"
#include "model/time_function_packing.hpp"

namespace myriad {

namespace {

using Clock = std::chrono::steady_clock;
using RunModel = AbsoluteModel<kAbsoluteRunBodies, kAbsoluteRunGcons>;

// The engine's DAE over a model it may change: after every step the RSDAs' anchors move to the step's end
// (absolute/absolute_forces.hpp), which changes no residual value, so the chart stays (rebase returns false).
template <class Rep>
struct RunDae : AbsoluteDae<Rep, kAbsoluteRunBodies, kAbsoluteRunGcons> {
  using Base = AbsoluteDae<Rep, kAbsoluteRunBodies, kAbsoluteRunGcons>;
  RunModel* movable = nullptr;  // the same model as Base::model
  bool rebase(double /*t*/, double* y) {
    for (int e = 0; e < movable->rsda_count; ++e) {
      AbsoluteRsda& f = movable->rsdas[e];
      const auto orientation = [&](int body) -> const double* {
        return body > 0 ? y + (body - 1) * Base::kPerBody + 3 : nullptr;
      };
      move_rsda_anchor<Rep>(f, orientation(f.body_i), orientation(f.body_j));
    }
    return false;
  }
};

// Each model driver's time function, packed as the joint-coordinate engine packs it.
struct PackedDrivers {
  std::vector<std::vector<double>> coefficients;
  std::vector<int> kinds, points;
};

PackedDrivers pack_drivers(const Model& literal) {
  PackedDrivers p;
  for (const Driver& d : literal.drivers) {
    p.coefficients.emplace_back();
    p.points.push_back(pack_time_function(d.function, p.coefficients.back()));
    p.kinds.push_back(packed_time_function_kind(d.function));
  }
  return p;
}

// The engine's model of a mapping, its drivers pointing into `drivers` and its force laws into the compiled model
// and the instance's constants (all of which must outlive it).
std::unique_ptr<RunModel> run_model(const AbsoluteMapping& mapping, const PackedDrivers& drivers,
                                    const CompiledModel& compiled, const double* constants) {
  auto model = std::make_unique<RunModel>(absolute_model<kAbsoluteRunBodies, kAbsoluteRunGcons>(mapping));
  model->compiled = &compiled;
  model->constants = constants;
  for (size_t d = 0; d < drivers.kinds.size(); ++d) {
    AbsoluteDriver& driver = model->drivers[d];
    driver.time_function = drivers.kinds[d];
    driver.points = drivers.points[d];
    driver.coefficients = drivers.coefficients[d].data();
  }
  return model;
}

// The model's joint-coordinate start: its initial state, assembled (loops closed, drivers met) where it has loops
// or drivers, as the joint-coordinate engine starts. Throws std::runtime_error when the assembly fails.
void joint_start(const Model& literal, const Ensemble& ensemble, int i, Eigen::VectorXd& q, Eigen::VectorXd& v) {
  q.resize(ensemble.nq);
  v.resize(ensemble.nv);
  ensemble.gather_initial_state(i, q.data(), v.data());
  if (literal.loops.empty() && literal.drivers.empty()) return;
  const constraints::AssemblyResult assembled = constraints::assemble(literal);
  if (assembled.status != constraints::AssemblyStatus::ok)
    throw std::runtime_error("the initial state does not assemble: " + assembled.message);
  q = assembled.q;
  v = assembled.v;
}

// A model body's kinematics from the engine's body b (its principal frame A, centre of mass r, r', omega-bar):
// R_WB = A R_BP^T, the angular velocity A omega-bar.
kinematics::BodyKinematics absolute_body_kinematics(const AbsoluteMapping& mapping, int b, const Mat3<double>& A,
                                                    const double* r, const double* r_dot,
                                                    const Vec3<double>& omega_bar) {
  const Mat3<double>& R_BP = mapping.bodies[static_cast<size_t>(b)].R_BP;
  kinematics::BodyKinematics k;
  Eigen::Matrix3d A_e, R_BP_e;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) A_e(i, j) = A(i, j), R_BP_e(i, j) = R_BP(i, j);
  k.R_WB = A_e * R_BP_e.transpose();
  k.p_WBcm = Eigen::Vector3d(r[0], r[1], r[2]);
  k.v_WBcm_W = Eigen::Vector3d(r_dot[0], r_dot[1], r_dot[2]);
  k.w_WB_W = A_e * Eigen::Vector3d(omega_bar.x, omega_bar.y, omega_bar.z);
  k.p_WBo = k.p_WBcm;  // not read by joint_state_from_bodies
  return k;
}

// The model bodies' poses and velocities at the engine's y (rp, re).
template <class Rep>
std::vector<kinematics::BodyKinematics> body_states(const AbsoluteMapping& mapping, const double* y) {
  constexpr int per_body = 3 + Rep::kOrientation;
  const int n = static_cast<int>(mapping.bodies.size());
  const double* rates = y + n * per_body;
  std::vector<kinematics::BodyKinematics> bodies(static_cast<size_t>(n));
  for (int b = 0; b < n; ++b) {
    const double* x = y + b * per_body;
    const double* u = rates + b * per_body;
    bodies[static_cast<size_t>(b)] =
        absolute_body_kinematics(mapping, b, orientation_matrix(Rep::orientation(x + 3)), x, u,
                        body_angular_velocity(Rep::orientation(x + 3), Rep::orientation(u + 3)));
  }
  return bodies;
}

// The model bodies' angular and centre-of-mass accelerations at the engine's y and q'': r'', and A omega-bar'
// (omega = A omega-bar, A' omega-bar = A (omega-bar x omega-bar) = 0), omega-bar' by a dual number along the motion.
template <class Rep>
std::vector<kinematics::BodyAcceleration> body_accelerations(const AbsoluteMapping& mapping, const double* y,
                                                             const double* q_ddot) {
  constexpr int per_body = 3 + Rep::kOrientation;
  using D = Dual<double, 1>;
  const int n = static_cast<int>(mapping.bodies.size());
  std::vector<kinematics::BodyAcceleration> out(static_cast<size_t>(n));
  for (int b = 0; b < n; ++b) {
    const double* x = y + b * per_body;
    const double* u = y + n * per_body + b * per_body;
    const double* a = q_ddot + b * per_body;
    D o[Rep::kOrientation], rate[Rep::kOrientation];
    for (int k = 0; k < Rep::kOrientation; ++k) {
      o[k] = D(x[3 + k]), o[k].d[0] = u[3 + k];
      rate[k] = D(u[3 + k]), rate[k].d[0] = a[3 + k];
    }
    const Vec3<D> omega_bar = body_angular_velocity(Rep::orientation(o), Rep::orientation(rate));
    const Mat3<double> A = orientation_matrix(Rep::orientation(x + 3));
    const Vec3<double> alpha = A * Vec3<double>{omega_bar.x.d[0], omega_bar.y.d[0], omega_bar.z.d[0]};
    out[static_cast<size_t>(b)].alpha_W = Eigen::Vector3d(alpha.x, alpha.y, alpha.z);
    out[static_cast<size_t>(b)].a_cm_W = Eigen::Vector3d(a[0], a[1], a[2]);
  }
  return out;
}

// Turns the bodies at each output time into the model's signals and KPIs: joint coordinates and velocities
// recovered from the bodies (angles unwrapped against the previous output), joint accelerations from the bodies'
// where an output reads them, then the joint-coordinate engine's output_row and kpi_update.
struct BodySignalRecorder {
  const Model& literal;
  const CompiledModel& compiled;
  const double* constants;
  const std::vector<double>& times;
  double* rows;
  double* kpi_state;
  bool accelerations;  // an output reads joint accelerations
  Eigen::VectorXd reference;
  std::vector<unsigned char> tree_bytes;
  TreeWorkspace<double> w;
  Eigen::VectorXd joint_accelerations;
  bool recovered = true;

  BodySignalRecorder(const Model& literal_model, const CompiledModel& compiled_model, const double* k,
                 const std::vector<double>& output_times, double* out_rows, double* kpi, const Eigen::VectorXd& q0)
      : literal(literal_model), compiled(compiled_model), constants(k), times(output_times), rows(out_rows),
        kpi_state(kpi), accelerations(outputs_read_accelerations(compiled_model)), reference(q0),
        tree_bytes(tree_workspace_bytes<double>(compiled_model)),
        w(carve_tree_workspace<double>(compiled_model, tree_bytes.data(), nullptr)),
        joint_accelerations(Eigen::VectorXd::Zero(compiled_model.nv)) {}

  // body_accelerations() gives the bodies' accelerations, or an empty vector when the engine's forward dynamics
  // failed at this state (the accelerations are then NaN).
  template <class BodyAccelerations>
  void record(int index, double t, const std::vector<kinematics::BodyKinematics>& bodies,
              const BodyAccelerations& body_accelerations) {
    const kinematics::JointState joints = joint_state_from_bodies(literal, bodies, reference);
    reference = joints.q;
    if (accelerations) {
      const std::vector<kinematics::BodyAcceleration> a = body_accelerations();
      if (!a.empty())
        joint_accelerations = kinematics::joint_accelerations_from_bodies(literal, bodies, a, joints);
      else
        joint_accelerations.setConstant(quiet_nan());
    }
    tree_kinematics(compiled, constants, joints.q.data(), joints.v.data(), w);
    const int n_times = static_cast<int>(times.size());
    double* row = rows + static_cast<size_t>(index) * compiled.n_outputs;
    output_row(compiled, constants, t, joints.q.data(), joints.v.data(), joint_accelerations.data(), w, row);
    for (int s = 0; s < compiled.n_outputs; ++s) recovered = recovered && std::isfinite(row[s]);
    if (kpi_state) kpi_update(compiled, kpi_state, index, t, row, times.data(), n_times);
  }
};

// One instance, start to end: status; its rows (n_times x n_outputs) written where the integration reached.
template <class Rep>
InstanceStatus run_instance(const Model& literal, const CompiledModel& compiled, const double* constants,
                            const Ensemble& ensemble, int i, const RunSpec& spec,
                            const std::vector<double>& times, double* rows, double* kpi_state,
                            IntegratorStats& stats) {
  const BodyAxisOrder axes = Rep::kNormalized ? BodyAxisOrder::as_found : BodyAxisOrder::z_away_from_world_z;
  const AbsoluteMapping mapping = map_to_absolute(literal, RevoluteDriverGcon::angle, axes);
  const PackedDrivers drivers = pack_drivers(literal);
  const std::unique_ptr<RunModel> model = run_model(mapping, drivers, compiled, constants);
  RunDae<Rep> dae;
  dae.model = model.get();
  dae.movable = model.get();

  Eigen::VectorXd q0, v0;
  joint_start(literal, ensemble, i, q0, v0);
  const std::vector<double> q_start(q0.data(), q0.data() + q0.size()), v_start(v0.data(), v0.data() + v0.size());
  std::vector<double> y = absolute_state<Rep>(mapping, world_body_states(literal, q_start, v_start));
  BodySignalRecorder recorder(literal, compiled, constants, times, rows, kpi_state, q0);
  std::vector<double> q_ddot(RunDae<Rep>::NQ), multipliers(RunDae<Rep>::NZ);
  auto observer = [&](int index, double t, const double* state) {
    recorder.record(index, t, body_states<Rep>(mapping, state), [&] {
      if (!dae.accelerations(t, state, q_ddot.data(), multipliers.data()))
        return std::vector<kinematics::BodyAcceleration>();
      return body_accelerations<Rep>(mapping, state, q_ddot.data());
    });
  };
  const int n_times = static_cast<int>(times.size());
  const int n = dae.differential_dimension(), m = dae.algebraic_dimension();
  std::vector<double> work(static_cast<size_t>(implicit_outputs_workspace_size(n, m)));
  IntegrationProgress progress;
  const InstanceStatus status = integrate_implicit_outputs(dae, spec.implicit, spec.implicit_options, spec.t0,
                                                           spec.h, y.data(), times.data(), n_times, observer,
                                                           work.data(), stats, spec.max_steps, progress);
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
  const AbsoluteMapping mapping = map_to_absolute(literal, RevoluteDriverGcon::angle, BodyAxisOrder::as_found);
  const PackedDrivers drivers = pack_drivers(literal);
  const std::unique_ptr<RunModel> model = run_model(mapping, drivers, compiled, constants);
  RotationRun dynamics;
  dynamics.model = model.get();
  const int nb = model->body_count, nx = dynamics.unknown_count();

  Eigen::VectorXd q0, v0;
  joint_start(literal, ensemble, i, q0, v0);
  const std::vector<double> q_start(q0.data(), q0.data() + q0.size()), v_start(v0.data(), v0.data() + v0.size());
  RotationRunState state = rotation_matrix_state(mapping, world_body_states(literal, q_start, v_start));

  BodySignalRecorder recorder(literal, compiled, constants, times, rows, kpi_state, q0);
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

EnsembleResult run_ensemble_absolute(AbsoluteCoordinates coordinates, const Model& model,
                                     const CompiledModel& compiled, const Ensemble& ensemble, const RunSpec& spec,
                                     const std::vector<double>& output_times, int threads, RunProgress* progress,
                                     bool keep_series) {
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
  {
    std::vector<double> values(model.parameters.size());
    for (size_t p = 0; p < values.size(); ++p) values[p] = n > 0 ? ensemble.parameter(static_cast<int>(p), 0) : 0.0;
    const std::string refusal = absolute_run_refusal(apply_parameters(model, values));
    if (!refusal.empty()) throw std::invalid_argument("model '" + model.name + "': " + refusal);
  }
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
