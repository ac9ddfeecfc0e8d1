#pragma once
// The host side of one model-file instance in absolute coordinates, shared by the cpu backend
// (backends/absolute_backend.cpp) and the cuda backend's host half (backends/absolute_cuda.cpp), rp, re and rA.
// Before the integration: the instance's model (its parameters applied) mapped onto bodies and
// GCONs, with its drivers packed and its force laws pointing at the compiled model and the instance's
// constants, and its start from the joint-coordinate initial state (rA's too). After it: the bodies' states at the
// output times turned back into the model's signals and KPIs (BodySignalRecorder). Host only (Eigen
// kinematics).
#include <Eigen/Dense>
#include <cmath>
#include <memory>
#include <vector>

#include "absolute/absolute_run.hpp"
#include "absolute/model_mapping.hpp"
#include "absolute/rotation_matrix_run.hpp"
#include "constraints/model_kinematics.hpp"
#include "dynamics/output_signals.hpp"
#include "dynamics/tree_kinematics.hpp"
#include "dynamics/tree_workspace.hpp"
#include "ensemble/ensemble.hpp"
#include "kpi/kpi.hpp"
#include "model/compiled_model.hpp"
#include "model/model.hpp"

namespace myriad {

// Each model driver's time function, packed as the joint-coordinate engine packs it.
struct PackedDrivers {
  std::vector<std::vector<double>> coefficients;
  std::vector<int> kinds, points;
};

PackedDrivers pack_drivers(const Model& literal);

// The engine's model of a mapping, its drivers pointing into `drivers` and its force laws into the compiled
// model and the instance's constants (all of which must outlive it).
std::unique_ptr<AbsoluteRunModel> absolute_run_model(const AbsoluteMapping& mapping,
                                                     const PackedDrivers& drivers,
                                                     const CompiledModel& compiled, const double* constants);

// The model's joint-coordinate start: its initial state, assembled (loops closed, drivers met) where it has
// loops or drivers, as the joint-coordinate engine starts. Throws std::runtime_error when the assembly fails.
void absolute_joint_start(const Model& literal, const Ensemble& ensemble, int i, Eigen::VectorXd& q,
                          Eigen::VectorXd& v);

// A model body's kinematics from the engine's body b (its principal frame A, centre of mass r, r',
// omega-bar): R_WB = A R_BP^T, the angular velocity A omega-bar.
kinematics::BodyKinematics absolute_body_kinematics(const AbsoluteMapping& mapping, int b,
                                                    const Mat3<double>& A, const double* r,
                                                    const double* r_dot, const Vec3<double>& omega_bar);

// Instance i of an ensemble ready to integrate: its mapping, packed drivers and the engine's model (pointing
// into the drivers, the compiled model and the constants given, which must outlive it; moving the struct
// keeps the drivers' buffers where they are), and its joint-coordinate start (q0, v0).
struct AbsoluteInstance {
  AbsoluteMapping mapping;
  PackedDrivers drivers;
  std::unique_ptr<AbsoluteRunModel> model;
  Eigen::VectorXd q0, v0;
};

// Throws std::runtime_error when the start does not assemble. axes: rp's bodies as found, re's turned so that
// their z axes start away from the world's (gimbal lock at sin(theta) = 0).
AbsoluteInstance prepare_absolute_instance(const Model& literal, const CompiledModel& compiled,
                                           const double* constants, const Ensemble& ensemble, int i,
                                           BodyAxisOrder axes);

// The world states of the mapped bodies at the instance's joint-coordinate start (the model's bodies, then its rods').
std::vector<WorldBodyState> start_body_states(const Model& literal, const AbsoluteInstance& instance);

// rA's start (absolute/rotation_matrix_run.hpp's layout) from the mapped bodies' world states: A = R_WB R_BP,
// omega-bar = A^T w.
std::vector<double> rotation_matrix_start(const AbsoluteMapping& mapping, const std::vector<WorldBodyState>& bodies);

// The model bodies' poses and velocities at the engine's y (rp, re).
template <class Rep>
std::vector<kinematics::BodyKinematics> absolute_body_states(const AbsoluteMapping& mapping,
                                                             const double* y) {
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
// (omega = A omega-bar, A' omega-bar = A (omega-bar x omega-bar) = 0), omega-bar' by a dual number along the
// motion.
template <class Rep>
std::vector<kinematics::BodyAcceleration> absolute_body_accelerations(const AbsoluteMapping& mapping,
                                                                      const double* y, const double* q_ddot) {
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
// recovered from the bodies (angles unwrapped against the previous output), joint accelerations from the
// bodies' where an output reads them, then the joint-coordinate engine's output_row and kpi_update.
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
                     const std::vector<double>& output_times, double* out_rows, double* kpi,
                     const Eigen::VectorXd& q0)
      : literal(literal_model),
        compiled(compiled_model),
        constants(k),
        times(output_times),
        rows(out_rows),
        kpi_state(kpi),
        accelerations(outputs_read_accelerations(compiled_model)),
        reference(q0),
        tree_bytes(tree_workspace_bytes<double>(compiled_model)),
        w(carve_tree_workspace<double>(compiled_model, tree_bytes.data(), nullptr)),
        joint_accelerations(Eigen::VectorXd::Zero(compiled_model.nv)) {}

  // body_accelerations() gives the bodies' accelerations, or an empty vector when the engine's forward
  // dynamics failed at this state (the accelerations are then NaN).
  // The engine's bodies past the model's (its rods: AbsoluteBodyMapping::rod_loop) carry no joint coordinate.
  template <class BodyAccelerations>
  void record(int index, double t, std::vector<kinematics::BodyKinematics> bodies,
              const BodyAccelerations& body_accelerations) {
    bodies.resize(literal.bodies.size());
    const kinematics::JointState joints = joint_state_from_bodies(literal, bodies, reference);
    reference = joints.q;
    if (accelerations) {
      std::vector<kinematics::BodyAcceleration> a = body_accelerations();
      if (!a.empty()) a.resize(literal.bodies.size());
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

// Records output rows 0 .. reached - 1 of integrate_absolute_instance (absolute/absolute_run.hpp; row_size
// doubles each: the state y, then q'' where the recorder reads accelerations, NaN where they failed).
template <class Rep>
void record_absolute_rows(BodySignalRecorder& recorder, const AbsoluteMapping& mapping, const double* rows,
                          int reached, int row_size) {
  const int ny = 2 * static_cast<int>(mapping.bodies.size()) * (3 + Rep::kOrientation);
  for (int k = 0; k < reached; ++k) {
    const double* row = rows + static_cast<size_t>(k) * static_cast<size_t>(row_size);
    recorder.record(k, recorder.times[static_cast<size_t>(k)], absolute_body_states<Rep>(mapping, row), [&] {
      if (std::isnan(row[ny])) return std::vector<kinematics::BodyAcceleration>();
      return absolute_body_accelerations<Rep>(mapping, row, row + ny);
    });
  }
}

// Records output rows 0 .. reached - 1 of integrate_rotation_matrix_instance (absolute/rotation_matrix_run.hpp;
// row_size doubles each: the rA state, then (r'', omega-bar') per body where the recorder reads accelerations, NaN
// where they failed).
void record_rotation_matrix_rows(BodySignalRecorder& recorder, const AbsoluteMapping& mapping, const double* rows,
                                 int reached, int row_size);

}  // namespace myriad
