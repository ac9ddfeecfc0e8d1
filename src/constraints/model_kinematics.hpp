#pragma once
// Host kinematics of a Model with Eigen: coordinate layout, body poses and velocities, explicit 3 x nv Jacobians,
// velocity-product (bias) accelerations, dq/dt and the initial coordinates. The constraint equations and the
// assembly of this layer are built on it, and so is the reference path's dynamics (reference/
// reference_dynamics.hpp re-exports these names in myriad::reference). It sits below both the model compiler
// (loop structure, assembly at compile time) and the reference oracle, so that the fast path never includes
// src/reference (docs/architecture.md, "Layers").
//
// Formulation: world-frame vector mechanics, one parent-first recursion X_WC = X_WP X_PF X_FM(q) X_CM^-1; the
// bias accelerations Jdot v come from an exact world-frame recursion, never from finite differences;
// deliberately independent of the fast path's spatial algebra (src/spatial, src/dynamics).
//
// Conventions (docs/model-format.md): q and v are the joints' coordinates concatenated in Model::joints
// order; for spherical and free joints q holds a quaternion w, x, y, z of R_FM (normalized on use) and v the
// angular velocity of M relative to F in M axes (free: first the linear velocity of M's origin relative to F,
// in M axes). The model must have had its parameters applied (every Number literal). All results are in world
// axes unless a name says otherwise. Every function allocates freely; none keeps state.
#include <Eigen/Dense>
#include <vector>

#include "model/model.hpp"

namespace myriad::kinematics {

// Where each joint's coordinates start in q and v (Model::joints order). O(joints).
struct CoordinateLayout {
  std::vector<int> q_index;  // first position coordinate of each joint
  std::vector<int> v_index;  // first velocity coordinate of each joint
  int nq = 0;
  int nv = 0;
};
CoordinateLayout coordinate_layout(const Model& model);

// Pose and velocity of one body, all in world axes.
struct BodyKinematics {
  Eigen::Matrix3d R_WB;      // orientation of the body frame B in the world
  Eigen::Vector3d p_WBo;     // position of B's origin
  Eigen::Vector3d p_WBcm;    // position of B's centre of mass
  Eigen::Vector3d w_WB_W;    // angular velocity of B
  Eigen::Vector3d v_WBcm_W;  // velocity of B's centre of mass
};

// Per body (Model::bodies order), by a parent-first recursion: X_WC = X_WP X_PF X_FM(q) X_CM^-1. O(bodies).
// Throws std::invalid_argument when q or v has the wrong size or the joints do not form a tree.
std::vector<BodyKinematics> body_kinematics(const Model& model, const Eigen::VectorXd& q,
                                            const Eigen::VectorXd& v);

// Explicit Jacobians of one body's centre-of-mass velocity (Jv) and angular velocity (Jw): 3 x nv, world.
struct BodyJacobian {
  Eigen::MatrixXd Jv;
  Eigen::MatrixXd Jw;
};

// Per body (Model::bodies order). Column k of joint j (an ancestor of body i, or i's own joint) is built from
// the joint's world-frame twist basis: Jw = a_k, Jv = b_k + a_k x (p_cm_i - p_Mo_j), with a_k the angular
// velocity and b_k the velocity of M's origin that a unit v_k gives M relative to F. O(bodies * nv). Throws
// as body_kinematics.
std::vector<BodyJacobian> body_jacobians_cm(const Model& model, const Eigen::VectorXd& q);

// 3 x nv Jacobian of the world velocity of the point p_BQ_B (in the frame of `body`). O(bodies * nv).
// Throws std::out_of_range for a bad body index, else as body_kinematics.
Eigen::MatrixXd point_jacobian(const Model& model, const Eigen::VectorXd& q, int body,
                               const Eigen::Vector3d& p_BQ_B);

// Accelerations of one body in world axes, Jw a + Jdot_w v and Jv a + Jdot_v v, for a = dv/dt.
struct BodyAcceleration {
  Eigen::Vector3d alpha_W;  // angular acceleration of B
  Eigen::Vector3d a_cm_W;   // acceleration of B's centre of mass
};

// Jdot v alone (a = 0), per body (Model::bodies order), by an exact world-frame recursion. O(bodies). Throws
// as body_kinematics.
std::vector<BodyAcceleration> body_bias_accelerations(const Model& model, const Eigen::VectorXd& q,
                                                      const Eigen::VectorXd& v);

// Full accelerations of every body for given dv/dt: J a + Jdot v. O(bodies * nv). Throws as body_kinematics.
std::vector<BodyAcceleration> body_accelerations(const Model& model, const Eigen::VectorXd& q,
                                                 const Eigen::VectorXd& v, const Eigen::VectorXd& vdot);

// dq/dt (nq) from v: equal to v for all but spherical (quaternion rate 1/2 q (0, w_M)) and free joints
// (position rate R_FM v_M, then the quaternion rate). O(nq). Throws std::invalid_argument for wrongly sized q
// or v.
Eigen::VectorXd qdot(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v);

// Initial coordinates from the joints' initial_position / initial_velocity (empty: zeros, identity
// quaternion); quaternions normalized. O(nq). Throws a ModelError naming the file and the joint's `position`
// or `velocity` for a wrong non-zero count or a zero initial quaternion (the loader refuses both).
Eigen::VectorXd initial_q(const Model& model);
Eigen::VectorXd initial_v(const Model& model);

// The state one parent-first pass over the tree yields (for the reference dynamics, which builds its mass
// matrix and forces on the same recursion).
struct TreeState {
  CoordinateLayout layout;
  std::vector<int> body_joint;  // joint whose child each body is
  std::vector<BodyKinematics> bodies;
  std::vector<Eigen::Vector3d> p_WMo;  // per joint: world position of M's origin
  std::vector<Eigen::Matrix3Xd>
      A_W;  // per joint: angular velocity of M relative to F per unit v_k, world (3 x nv_j)
  std::vector<Eigen::Matrix3Xd>
      B_W;  // per joint: velocity of M's origin relative to F per unit v_k, world (3 x nv_j)
  std::vector<BodyAcceleration> bias;  // per body, Jdot v
};


// Motion of M in F for one joint at coordinates q (docs/model-format.md, "Joints"), with its twist basis: a
// unit v_k gives M the angular velocity S_w_F.col(k) and its origin the velocity S_v_F.col(k) relative to F,
// in F axes. O(1).
struct JointMotion {
  Eigen::Matrix3d R_FM = Eigen::Matrix3d::Identity();
  Eigen::Vector3d p_FoMo_F = Eigen::Vector3d::Zero();
  Eigen::Matrix3Xd S_w_F;  // 3 x nv
  Eigen::Matrix3Xd S_v_F;  // 3 x nv
};
JointMotion joint_motion(const Joint& joint, const double* q);

// Rates of S_w_F v and S_v_F v when dv/dt = 0 (the q-dependence of the joint's own basis), in F axes. O(1).
void joint_bias(const Joint& joint, const JointMotion& m, const double* q, const double* v,
                Eigen::Vector3d& angular_bias_F, Eigen::Vector3d& linear_bias_F);

// The inverse of body_kinematics: every joint's coordinates and velocities (Model::joints layout) from every
// body's pose and velocity (R_WB, p_WBcm, w_WB_W, v_WBcm_W are read), where the bodies' relative motions are
// ones their joints allow (a state of another engine, such as the absolute-coordinate one, that satisfies the
// joints). Angles (revolute, cylindrical, universal, planar) are taken within pi of `reference`'s and
// quaternions (spherical, free) with the sign nearest `reference`'s, so that a caller passing the previous
// output's q gets continuous coordinates; velocities solve [S_w; S_v] v = relative twist by least squares (exact
// for an allowed motion). Throws std::invalid_argument when `bodies` or `reference` has the wrong size.
// O(joints).
struct JointState {
  Eigen::VectorXd q, v;
};
JointState joint_state_from_bodies(const Model& model, const std::vector<BodyKinematics>& bodies,
                                   const Eigen::VectorXd& reference);

// The joint accelerations dv/dt (nv) from every body's angular and centre-of-mass accelerations at the state
// `joints` (joint_state_from_bodies of the same `bodies`): body_accelerations inverted joint by joint,
// alpha_C = alpha_P + w_P x w_rel + R_WF (S_w' v + S_w a), a_Mo = a_P(at Mo) + 2 w_P x v_rel + R_WF (S_v' v + S_v a),
// a by least squares (exact for an allowed motion). Throws std::invalid_argument for wrong sizes. O(joints).
Eigen::VectorXd joint_accelerations_from_bodies(const Model& model, const std::vector<BodyKinematics>& bodies,
                                                const std::vector<BodyAcceleration>& accelerations,
                                                const JointState& joints);

// Throws std::invalid_argument when q (or v, unless null) does not have the layout's size.
void check_sizes(const CoordinateLayout& layout, const Eigen::VectorXd& q, const Eigen::VectorXd* v);

// Poses, velocities, joint twist bases and (with_bias) bias accelerations of every body: one recursion in
// world axes. Ground has zero pose, velocity and acceleration. O(bodies). Throws as body_kinematics.
TreeState evaluate_tree(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v, bool with_bias);

// Jacobians (3 x nv) of the velocity of the world point p_WQ moving with `body` (Jv), and of its angular
// velocity (Jw), from an evaluated tree. O(depth * nv).
void jacobians_at(const Model& model, const TreeState& s, int body, const Eigen::Vector3d& p_WQ,
                  Eigen::MatrixXd& Jv, Eigen::MatrixXd& Jw);

}  // namespace myriad::kinematics
