#include "backends/absolute_instance.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "constraints/assembly.hpp"
#include "model/time_function_packing.hpp"

namespace myriad {

PackedDrivers pack_drivers(const Model& literal) {
  PackedDrivers p;
  for (const Driver& d : literal.drivers) {
    p.coefficients.emplace_back();
    p.points.push_back(pack_time_function(d.function, p.coefficients.back()));
    p.kinds.push_back(packed_time_function_kind(d.function));
  }
  return p;
}

std::unique_ptr<AbsoluteRunModel> absolute_run_model(const AbsoluteMapping& mapping,
                                                     const PackedDrivers& drivers,
                                                     const CompiledModel& compiled, const double* constants) {
  auto model =
      std::make_unique<AbsoluteRunModel>(absolute_model<kAbsoluteRunBodies, kAbsoluteRunGcons>(mapping));
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

void absolute_joint_start(const Model& literal, const Ensemble& ensemble, int i, Eigen::VectorXd& q,
                          Eigen::VectorXd& v) {
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

kinematics::BodyKinematics absolute_body_kinematics(const AbsoluteMapping& mapping, int b,
                                                    const Mat3<double>& A, const double* r,
                                                    const double* r_dot, const Vec3<double>& omega_bar) {
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

AbsoluteInstance prepare_absolute_instance(const Model& literal, const CompiledModel& compiled,
                                           const double* constants, const Ensemble& ensemble, int i,
                                           BodyAxisOrder axes) {
  AbsoluteInstance instance;
  instance.mapping = map_to_absolute(literal, RevoluteDriverGcon::angle, axes);
  instance.drivers = pack_drivers(literal);
  instance.model = absolute_run_model(instance.mapping, instance.drivers, compiled, constants);
  absolute_joint_start(literal, ensemble, i, instance.q0, instance.v0);
  return instance;
}

std::vector<WorldBodyState> start_body_states(const Model& literal, const AbsoluteInstance& instance) {
  const std::vector<double> q(instance.q0.data(), instance.q0.data() + instance.q0.size());
  const std::vector<double> v(instance.v0.data(), instance.v0.data() + instance.v0.size());
  std::vector<WorldBodyState> states = world_body_states(literal, q, v);
  append_rod_states(literal, instance.mapping, states);
  return states;
}

std::vector<double> rotation_matrix_start(const AbsoluteMapping& mapping, const std::vector<WorldBodyState>& bodies) {
  RotationRunState s;
  for (size_t b = 0; b < bodies.size(); ++b) {
    s.A[b] = bodies[b].R_WB * mapping.bodies[b].R_BP;
    s.r[b] = bodies[b].p_cm;
    s.r_dot[b] = bodies[b].v_cm;
    s.omega_bar[b] = transpose_times(s.A[b], bodies[b].w);
  }
  const int nb = static_cast<int>(bodies.size());
  std::vector<double> y(static_cast<size_t>(kRotationMatrixBodyValues * nb));
  pack_rotation_matrix_state(s, nb, y.data());
  return y;
}

namespace {

// Body b's A from rA's state layout (row by row after r).
Mat3<double> rotation_matrix_of(const double* y, int b) {
  const double* o = y + kRotationMatrixBodyValues * b + 3;
  Mat3<double> A;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) A.m[i][j] = o[3 * i + j];
  return A;
}

std::vector<kinematics::BodyKinematics> rotation_matrix_body_states(const AbsoluteMapping& mapping,
                                                                    const double* y) {
  std::vector<kinematics::BodyKinematics> bodies(mapping.bodies.size());
  for (size_t b = 0; b < bodies.size(); ++b) {
    const double* o = y + kRotationMatrixBodyValues * b;
    bodies[b] = absolute_body_kinematics(mapping, static_cast<int>(b), rotation_matrix_of(y, static_cast<int>(b)),
                                         o, o + 12, Vec3<double>{o[15], o[16], o[17]});
  }
  return bodies;
}

// The bodies' accelerations r'' and A omega-bar' (omega = A omega-bar: omega' = A (omega-bar x omega-bar +
// omega-bar') = A omega-bar') from (r'', omega-bar') per body.
std::vector<kinematics::BodyAcceleration> rotation_matrix_body_accelerations(const double* y, const double* a,
                                                                             int n) {
  std::vector<kinematics::BodyAcceleration> out(static_cast<size_t>(n));
  for (int b = 0; b < n; ++b) {
    const double* ab = a + RotationRun::kPerBody * b;
    const Vec3<double> alpha = rotation_matrix_of(y, b) * Vec3<double>{ab[3], ab[4], ab[5]};
    out[static_cast<size_t>(b)].a_cm_W = Eigen::Vector3d(ab[0], ab[1], ab[2]);
    out[static_cast<size_t>(b)].alpha_W = Eigen::Vector3d(alpha.x, alpha.y, alpha.z);
  }
  return out;
}

}  // namespace

void record_rotation_matrix_rows(BodySignalRecorder& recorder, const AbsoluteMapping& mapping, const double* rows,
                                 int reached, int row_size) {
  const int nb = static_cast<int>(mapping.bodies.size()), ny = kRotationMatrixBodyValues * nb;
  for (int k = 0; k < reached; ++k) {
    const double* row = rows + static_cast<size_t>(k) * static_cast<size_t>(row_size);
    recorder.record(k, recorder.times[static_cast<size_t>(k)], rotation_matrix_body_states(mapping, row), [&] {
      if (std::isnan(row[ny])) return std::vector<kinematics::BodyAcceleration>();
      return rotation_matrix_body_accelerations(row, row + ny, nb);
    });
  }
}

}  // namespace myriad
