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
#include "core/scalar.hpp"
#include "constraints/assembly.hpp"
#include "constraints/model_kinematics.hpp"
#include "dynamics/output_signals.hpp"
#include "dynamics/tree_kinematics.hpp"
#include "dynamics/tree_workspace.hpp"
#include "ensemble/ensemble_kpis.hpp"
#include "ensemble/instance_blocks.hpp"
#include "integrators/implicit_outputs.hpp"
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

// The model bodies' poses and velocities at the engine's y: R_WB = A R_BP^T, the centre of mass r, its velocity
// r', the angular velocity A omega-bar.
template <class Rep>
std::vector<kinematics::BodyKinematics> body_states(const AbsoluteMapping& mapping, const double* y) {
  constexpr int per_body = 3 + Rep::kOrientation;
  const int n = static_cast<int>(mapping.bodies.size());
  const double* rates = y + n * per_body;
  std::vector<kinematics::BodyKinematics> bodies(static_cast<size_t>(n));
  for (int b = 0; b < n; ++b) {
    const double* x = y + b * per_body;
    const double* u = rates + b * per_body;
    const Mat3<double> A = orientation_matrix(Rep::orientation(x + 3));
    const Vec3<double> omega_bar = body_angular_velocity(Rep::orientation(x + 3), Rep::orientation(u + 3));
    const Mat3<double>& R_BP = mapping.bodies[static_cast<size_t>(b)].R_BP;
    kinematics::BodyKinematics& k = bodies[static_cast<size_t>(b)];
    Eigen::Matrix3d A_e, R_BP_e;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) A_e(r, c) = A(r, c), R_BP_e(r, c) = R_BP(r, c);
    k.R_WB = A_e * R_BP_e.transpose();
    k.p_WBcm = Eigen::Vector3d(x[0], x[1], x[2]);
    k.v_WBcm_W = Eigen::Vector3d(u[0], u[1], u[2]);
    k.w_WB_W = A_e * Eigen::Vector3d(omega_bar.x, omega_bar.y, omega_bar.z);
    k.p_WBo = k.p_WBcm;  // not read by joint_state_from_bodies
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

// One instance, start to end: status; its rows (n_times x n_outputs) written where the integration reached.
template <class Rep>
InstanceStatus run_instance(const Model& literal, const CompiledModel& compiled, const double* constants,
                            const Ensemble& ensemble, int i, const RunSpec& spec,
                            const std::vector<double>& times, double* rows, double* kpi_state,
                            IntegratorStats& stats) {
  const AbsoluteMapping mapping = map_to_absolute(literal, RevoluteDriverGcon::angle, Rep::kNormalized
                                                                                          ? BodyAxisOrder::as_found
                                                                                          : BodyAxisOrder::z_away_from_world_z);
  const PackedDrivers drivers = pack_drivers(literal);
  const std::unique_ptr<RunModel> model = run_model(mapping, drivers, compiled, constants);
  RunDae<Rep> dae;
  dae.model = model.get();
  dae.movable = model.get();

  Eigen::VectorXd q0, v0;
  joint_start(literal, ensemble, i, q0, v0);
  const std::vector<double> q_start(q0.data(), q0.data() + q0.size()), v_start(v0.data(), v0.data() + v0.size());
  std::vector<double> y = absolute_state<Rep>(mapping, world_body_states(literal, q_start, v_start));

  std::vector<unsigned char> tree_bytes(tree_workspace_bytes<double>(compiled));
  TreeWorkspace<double> w = carve_tree_workspace<double>(compiled, tree_bytes.data(), nullptr);
  Eigen::VectorXd reference = q0;
  const int n_times = static_cast<int>(times.size());
  bool recovered = true;
  // Joint accelerations, where an output reads them, from the engine's own forward dynamics at the state.
  const bool accelerations = outputs_read_accelerations(compiled);
  std::vector<double> q_ddot(accelerations ? RunDae<Rep>::NQ : 0), multipliers(accelerations ? RunDae<Rep>::NZ : 0);
  Eigen::VectorXd joint_accelerations = Eigen::VectorXd::Zero(ensemble.nv);
  auto observer = [&](int index, double t, const double* state) {
    const std::vector<kinematics::BodyKinematics> bodies = body_states<Rep>(mapping, state);
    const kinematics::JointState joints = joint_state_from_bodies(literal, bodies, reference);
    reference = joints.q;
    if (accelerations) {
      if (dae.accelerations(t, state, q_ddot.data(), multipliers.data()))
        joint_accelerations = kinematics::joint_accelerations_from_bodies(
            literal, bodies, body_accelerations<Rep>(mapping, state, q_ddot.data()), joints);
      else
        joint_accelerations.setConstant(quiet_nan());
    }
    tree_kinematics(compiled, constants, joints.q.data(), joints.v.data(), w);
    double* row = rows + static_cast<size_t>(index) * compiled.n_outputs;
    output_row(compiled, constants, t, joints.q.data(), joints.v.data(), joint_accelerations.data(), w, row);
    for (int s = 0; s < compiled.n_outputs; ++s) recovered = recovered && std::isfinite(row[s]);
    if (kpi_state) kpi_update(compiled, kpi_state, index, t, row, times.data(), n_times);
  };
  const int n = dae.differential_dimension(), m = dae.algebraic_dimension();
  std::vector<double> work(static_cast<size_t>(implicit_outputs_workspace_size(n, m)));
  IntegrationProgress progress;
  const InstanceStatus status = integrate_implicit_outputs(dae, spec.implicit, spec.implicit_options, spec.t0,
                                                           spec.h, y.data(), times.data(), n_times, observer,
                                                           work.data(), stats, spec.max_steps, progress);
  if (status == InstanceStatus::ok && !recovered) return InstanceStatus::non_finite;
  return status;
}

}  // namespace

bool parse_absolute_coordinates(const std::string& name, AbsoluteCoordinates& out) {
  if (name == "rp") return out = AbsoluteCoordinates::rp, true;
  if (name == "re") return out = AbsoluteCoordinates::re, true;
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
          for (size_t p = 0; p < values.size(); ++p) values[p] = ensemble.parameter(static_cast<int>(p), i);
          Model literal = apply_parameters(model, values);
          key_instance(literal, ensemble.instance_id(i));
          ensemble.gather_constants(i, constants.data());
          result.status[index] =
              coordinates == AbsoluteCoordinates::rp
                  ? run_instance<EulerParameterCoordinates>(literal, compiled, constants.data(), ensemble, i, spec,
                                                            output_times, rows.data(), kpi_state,
                                                            result.stats[index])
                  : run_instance<EulerAngleCoordinates>(literal, compiled, constants.data(), ensemble, i, spec,
                                                        output_times, rows.data(), kpi_state, result.stats[index]);
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
