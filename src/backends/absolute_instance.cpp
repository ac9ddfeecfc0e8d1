#include "backends/absolute_instance.hpp"

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
  return world_body_states(literal, q, v);
}

}  // namespace myriad
