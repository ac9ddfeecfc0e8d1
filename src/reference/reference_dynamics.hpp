#pragma once
// The reference path (shared/DESIGN.md, "reference path"): a dense, textbook, single-threaded formulation of
// the tree dynamics with Eigen, deliberately independent of the fast path's spatial algebra so that it can
// serve as the oracle the fast paths are tested against.
//
// Formulation: world-frame vector mechanics about each body's centre of mass. Each body i has explicit 3 x nv
// Jacobians Jv_i (velocity of its centre of mass, world) and Jw_i (angular velocity, world). Mass matrix:
//   M = sum_i Jv_i^T m_i Jv_i + Jw_i^T I_i^W Jw_i,
// generalized forces:
//   Q = sum_i Jv_i^T m_i g + (force elements) - sum_i [Jv_i^T m_i (Jdot_v v)_i + Jw_i^T (I_i^W (Jdot_w v)_i
//       + w_i x I_i^W w_i)],
// and the forward dynamics solves M a = Q. Jdot v (the accelerations when dv/dt = 0) comes from an exact
// world-frame kinematic recursion, never from finite differences.
//
// Conventions (docs/model-format.md): q and v are the joints' coordinates concatenated in Model::joints
// order; for spherical and free joints q holds a quaternion w, x, y, z of R_FM (normalized on use) and v the
// angular velocity of M relative to F in M axes (free: first the linear velocity of M's origin relative to F,
// in M axes). The model must have had its parameters applied (every Number literal). All results are in world
// axes unless a name says otherwise. Every function allocates freely; none keeps state.
#include <Eigen/Dense>
#include <vector>

#include "constraints/model_kinematics.hpp"
#include "model/model.hpp"

namespace myriad::reference {

// The kinematics (layout, poses, Jacobians, bias accelerations, dq/dt, initial coordinates) live one layer down,
// in constraints/model_kinematics.hpp, where the constraint equations use them too; the oracle's names for them:
using kinematics::BodyAcceleration;
using kinematics::BodyJacobian;
using kinematics::BodyKinematics;
using kinematics::CoordinateLayout;
using kinematics::body_accelerations;
using kinematics::body_bias_accelerations;
using kinematics::body_jacobians_cm;
using kinematics::body_kinematics;
using kinematics::coordinate_layout;
using kinematics::initial_q;
using kinematics::initial_v;
using kinematics::point_jacobian;
using kinematics::qdot;

// nv x nv joint-space mass matrix, symmetric positive definite. O(bodies * nv^2). Throws as body_kinematics.
Eigen::MatrixXd mass_matrix(const Model& model, const Eigen::VectorXd& q);

// State of a TSDA force element at (t, q, v). Throws std::invalid_argument if `force` is not a tsda, and a
// ModelError naming the file and the force (reference/reference_errors.hpp) if its two points coincide (zero
// length).
struct TsdaState {
  Eigen::Vector3d p_W1, p_W2;  // world positions of the two ends
  double length = 0.0;         // l = |p_W2 - p_W1|
  double length_rate = 0.0;    // dl/dt
  double tension = 0.0;        // f = k (l - l0) + c dl/dt + actuator(t); positive pulls the ends together
};
TsdaState tsda_state(const Model& model, int force, double t, const Eigen::VectorXd& q,
                     const Eigen::VectorXd& v);

// Zero-tension angle q0 an RSDA uses (its zero angle, shifted by whole turns for "shortest"), and its joint
// torque -k (q - q0) - c q' + actuator(t). Throw std::invalid_argument if `force` is not an rsda on a
// revolute joint.
double rsda_zero_angle(const Model& model, int force);
double rsda_torque(const Model& model, int force, double t, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& v);

// Generalized forces Q (nv): gravity, TSDA (actuators and moving ground points included), RSDA, joint
// actuators, minus the velocity-product terms. O(bodies * nv + forces * bodies * nv). Throws as
// body_kinematics, and std::invalid_argument for a force element that does not fit its joint (see tsda_state,
// rsda_torque; a joint_actuator index outside the joint's nv).
Eigen::VectorXd generalized_forces(const Model& model, double t, const Eigen::VectorXd& q,
                                   const Eigen::VectorXd& v);

// dv/dt from M a = Q (Cholesky). O(nv^3 + bodies * nv^2). Throws a ModelError naming the file and the joint
// where M stops being positive definite (reference/reference_errors.hpp), else as generalized_forces.
Eigen::VectorXd forward_dynamics(const Model& model, double t, const Eigen::VectorXd& q,
                                 const Eigen::VectorXd& v);

// Sum over bodies of 1/2 m |v_cm|^2 + 1/2 w . I^W w, from body_kinematics (not from M). O(bodies).
double kinetic_energy(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v);

// Gravity (-m g . r_cm summed over bodies) plus 1/2 k (l - l0)^2 per TSDA plus 1/2 k (q - q0)^2 per RSDA at
// time t (ground points may move). O(bodies + forces * bodies). Throws as tsda_state and rsda_torque.
double potential_energy(const Model& model, double t, const Eigen::VectorXd& q);

}  // namespace myriad::reference
