// Physics checks of the reference path (src/reference): analytic solutions, textbook mass matrices,
// Newton-Euler and Euler's equations, energy conservation, Lagrange's equations, hand-computed forces.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "model/model_geometry.hpp"
#include "reference/reference_dynamics.hpp"
#include "test_models.hpp"

namespace myriad::reference {
namespace reference_test {

using Eigen::Matrix3d;
using Eigen::MatrixXd;
using Eigen::Vector3d;
using Eigen::VectorXd;
using namespace myriad::test_models;

Matrix3d rot(const Vector3d& axis, double angle) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

Vector3d eig(const Vector3& v) { return {v[0].value, v[1].value, v[2].value}; }

Matrix3d inertia_of(const Body& b) {
  const Mat3<double> I = inertia_matrix(b.inertia);
  Matrix3d out;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out(i, j) = I.m[i][j];
  return out;
}

Matrix3d frame_rotation(const Frame& f) {
  const Mat3<double> R = rotation_matrix(f.rotation);
  Matrix3d out;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out(i, j) = R.m[i][j];
  return out;
}

// The configuration a step h along the trajectory through (q, v): q + h dq/dt (quaternions are normalized on
// use).
VectorXd q_along(const Model& m, const VectorXd& q, const VectorXd& v, double h) {
  return q + h * qdot(m, q, v);
}

double total_energy(const Model& m, double t, const VectorXd& q, const VectorXd& v) {
  return kinetic_energy(m, q, v) + potential_energy(m, t, q);
}

// ---- single pendulum ----

TEST(ReferencePendulum, angular_acceleration_matches_compound_pendulum_formula) {
  const double mass = 2.5, d = 0.7, I_cm = 0.13, g = 9.81;
  const Model m = pendulum(mass, d, I_cm, 0.0, g);
  for (const double theta : {-2.5, -0.4, 0.0, 0.3, 1.2, 3.0}) {
    for (const double rate : {0.0, 1.7}) {
      const VectorXd q = VectorXd::Constant(1, theta), v = VectorXd::Constant(1, rate);
      const VectorXd a = forward_dynamics(m, 0.0, q, v);
      const double expected = -mass * g * d * std::sin(theta) / (I_cm + mass * d * d);
      EXPECT_NEAR(a[0], expected, 1e-12) << "theta " << theta << " rate " << rate;
    }
  }
}

TEST(ReferencePendulum, centre_of_mass_position_and_velocity_follow_rotation_about_y) {
  const double d = 0.7, theta = 0.6, rate = -1.3;
  const Model m = pendulum(2.5, d, 0.13, 0.0);
  const std::vector<BodyKinematics> k =
      body_kinematics(m, VectorXd::Constant(1, theta), VectorXd::Constant(1, rate));
  EXPECT_TRUE(k[0].p_WBcm.isApprox(Vector3d(-d * std::sin(theta), 0, -d * std::cos(theta)), 1e-14));
  EXPECT_TRUE(k[0].w_WB_W.isApprox(Vector3d(0, rate, 0), 1e-14));
  EXPECT_TRUE(k[0].v_WBcm_W.isApprox(rate * Vector3d(-d * std::cos(theta), 0, d * std::sin(theta)), 1e-14));
  EXPECT_NEAR(kinetic_energy(m, VectorXd::Constant(1, theta), VectorXd::Constant(1, rate)),
              0.5 * (0.13 + 2.5 * d * d) * rate * rate, 1e-13);
  EXPECT_NEAR(potential_energy(m, 0.0, VectorXd::Constant(1, theta)), -2.5 * 9.81 * d * std::cos(theta),
              1e-13);
}

TEST(ReferencePendulum, initial_state_comes_from_the_joint) {
  const Model m = pendulum(2.5, 0.7, 0.13, 0.42);
  EXPECT_EQ(initial_q(m)[0], 0.42);
  EXPECT_EQ(initial_v(m)[0], 0.0);
}

// ---- planar double pendulum against the textbook mass matrix, Coriolis and gravity terms ----

TEST(ReferenceDoublePendulum, mass_matrix_and_generalized_forces_match_textbook) {
  const DoublePendulum p;
  const Model m = double_pendulum(p);
  const double q1 = 0.7, q2 = -1.1, u1 = 1.4, u2 = -0.8;
  const VectorXd q = (VectorXd(2) << q1, q2).finished(), v = (VectorXd(2) << u1, u2).finished();
  const double c2 = std::cos(q2), s2 = std::sin(q2);
  MatrixXd M_expected(2, 2);
  M_expected(0, 0) =
      p.I1 + p.I2 + p.m1 * p.d1 * p.d1 + p.m2 * (p.L1 * p.L1 + p.d2 * p.d2 + 2 * p.L1 * p.d2 * c2);
  M_expected(0, 1) = M_expected(1, 0) = p.I2 + p.m2 * (p.d2 * p.d2 + p.L1 * p.d2 * c2);
  M_expected(1, 1) = p.I2 + p.m2 * p.d2 * p.d2;
  EXPECT_TRUE(mass_matrix(m, q).isApprox(M_expected, 1e-14)) << mass_matrix(m, q);

  const double h = p.m2 * p.L1 * p.d2 * s2;
  const Eigen::Vector2d coriolis(-h * (2 * u1 * u2 + u2 * u2), h * u1 * u1);
  const double c1 = std::cos(q1), c12 = std::cos(q1 + q2);
  const Eigen::Vector2d gravity(p.m1 * p.g * p.d1 * c1 + p.m2 * p.g * (p.L1 * c1 + p.d2 * c12),
                                p.m2 * p.g * p.d2 * c12);
  const VectorXd Q = generalized_forces(m, 0.0, q, v);
  EXPECT_NEAR(Q[0], -coriolis[0] - gravity[0], 1e-12);
  EXPECT_NEAR(Q[1], -coriolis[1] - gravity[1], 1e-12);
  EXPECT_TRUE(forward_dynamics(m, 0.0, q, v).isApprox(M_expected.llt().solve(Q), 1e-12));
}

TEST(ReferenceDoublePendulum, joint_order_in_the_model_does_not_change_the_physics) {
  const Model m = double_pendulum(DoublePendulum{});
  Model reversed = m;  // elbow listed before shoulder: q = (q2, q1)
  std::swap(reversed.joints[0], reversed.joints[1]);
  const VectorXd q = (VectorXd(2) << 0.7, -1.1).finished(), v = (VectorXd(2) << 1.4, -0.8).finished();
  const VectorXd a = forward_dynamics(m, 0.0, q, v);
  const VectorXd a_reversed = forward_dynamics(reversed, 0.0, q.reverse(), v.reverse());
  EXPECT_TRUE(a_reversed.reverse().isApprox(a, 1e-13));
}

// ---- free body ----

TEST(ReferenceFreeBody, falls_with_gravity_when_not_spinning) {
  // Centre of mass away from M's origin, rotated joint frames: with w = 0 nothing turns, M's origin
  // accelerates with g, so dv_lin/dt = R_WM^T g (linear velocity in M axes) and dw/dt = 0.
  const Vector3 gravity = vec(0.3, -0.5, -9.81);
  const Model m = free_body(3.2, vec(0.2, -0.1, 0.3), {0.2, 0.3, 0.25, 0.02, -0.01, 0.03},
                            frame_rpy(0.5, -1.0, 2.0, 0.3, 0.2, -0.4),
                            frame_rpy(0.1, 0.2, -0.1, -0.5, 0.1, 0.9), gravity);
  VectorXd q(7), v(6);
  q << 0.3, 0.2, -0.1, 0.8, 0.1, -0.5, 0.3;
  q.segment<4>(3).normalize();
  v << 1.1, -0.7, 0.4, 0, 0, 0;
  const VectorXd a = forward_dynamics(m, 0.0, q, v);
  const Matrix3d R_WF = frame_rotation(m.joints[0].parent_frame);
  const Matrix3d R_FM = Eigen::Quaterniond(q[3], q[4], q[5], q[6]).toRotationMatrix();
  const Vector3d expected = (R_WF * R_FM).transpose() * eig(gravity);
  EXPECT_TRUE(a.head<3>().isApprox(expected, 1e-12)) << a.transpose();
  EXPECT_LT(a.tail<3>().norm(), 1e-12);
}

TEST(ReferenceFreeBody, obeys_newton_euler_about_the_centre_of_mass) {
  // General motion: spinning, centre of mass offset, non-diagonal inertia, rotated frames. Convert a (in M
  // axes) to world accelerations by hand and check a_cm = g and I_W alpha + w x I_W w = 0.
  const Vector3 gravity = vec(0.3, -0.5, -9.81);
  const Model m = free_body(3.2, vec(0.2, -0.1, 0.3), {0.2, 0.3, 0.25, 0.02, -0.01, 0.03},
                            frame_rpy(0.5, -1.0, 2.0, 0.3, 0.2, -0.4),
                            frame_rpy(0.1, 0.2, -0.1, -0.5, 0.1, 0.9), gravity);
  VectorXd q(7), v(6);
  q << 0.3, 0.2, -0.1, 0.8, 0.1, -0.5, 0.3;
  q.segment<4>(3).normalize();
  v << 1.1, -0.7, 0.4, 2.3, -1.5, 0.9;
  const VectorXd a = forward_dynamics(m, 0.0, q, v);

  const std::vector<BodyKinematics> k = body_kinematics(m, q, v);
  const Matrix3d R_CM = frame_rotation(m.joints[0].child_frame);
  const Matrix3d R_WM = k[0].R_WB * R_CM;
  const Vector3d p_WMo = k[0].p_WBo + k[0].R_WB * eig(m.joints[0].child_frame.origin);
  const Vector3d w_M = v.tail<3>(), v_M = v.head<3>();
  const Vector3d w_W = R_WM * w_M;
  const Vector3d alpha_W = R_WM * a.tail<3>();                    // d/dt (R w_M) = R (w_M x w_M + dw_M)
  const Vector3d a_Mo_W = R_WM * (a.head<3>() + w_M.cross(v_M));  // d/dt (R v_M) = R (w_M x v_M + dv_M)
  const Vector3d r = k[0].p_WBcm - p_WMo;
  const Vector3d a_cm_W = a_Mo_W + alpha_W.cross(r) + w_W.cross(w_W.cross(r));
  EXPECT_TRUE(a_cm_W.isApprox(eig(gravity), 1e-12)) << a_cm_W.transpose();
  const Matrix3d I_W = k[0].R_WB * inertia_of(m.bodies[0]) * k[0].R_WB.transpose();
  EXPECT_LT((I_W * alpha_W + w_W.cross(I_W * w_W)).norm(), 1e-12);
  EXPECT_TRUE(k[0].w_WB_W.isApprox(w_W, 1e-14));
}

TEST(ReferenceFreeBody, torque_free_asymmetric_body_obeys_euler_equations) {
  // Principal axes along M (= body frame), centre of mass at M's origin.
  const double I1 = 1.0, I2 = 2.0, I3 = 3.0;
  const Model m = free_body(5.0, vec(0, 0, 0), {I1, I2, I3, 0, 0, 0}, {}, {}, vec(0, 0, -9.81));
  VectorXd q(7), v(6);
  q << 1, 2, 3, 0.6, -0.2, 0.7, 0.1;
  q.segment<4>(3).normalize();
  const double w1 = 0.3, w2 = -1.2, w3 = 0.7;
  v << 0.5, 0.1, -0.3, w1, w2, w3;
  const VectorXd a = forward_dynamics(m, 0.0, q, v);
  EXPECT_NEAR(a[3], (I2 - I3) * w2 * w3 / I1, 1e-13);
  EXPECT_NEAR(a[4], (I3 - I1) * w3 * w1 / I2, 1e-13);
  EXPECT_NEAR(a[5], (I1 - I2) * w1 * w2 / I3, 1e-13);
  // Linear part: dv_M/dt = R^T g - w x v_M.
  const Matrix3d R = Eigen::Quaterniond(q[3], q[4], q[5], q[6]).toRotationMatrix();
  const Vector3d expected =
      R.transpose() * Vector3d(0, 0, -9.81) - Vector3d(w1, w2, w3).cross(Vector3d(v.head<3>()));
  EXPECT_TRUE(a.head<3>().isApprox(expected, 1e-13));
}

TEST(ReferenceFreeBody, coordinates_follow_the_model_format) {
  // q = position of M in F, quaternion of R_FM; v = linear velocity of M's origin and angular velocity, in M
  // axes.
  const Model m = free_body(1.0, vec(0.5, 0, 0), {0.1, 0.1, 0.1, 0, 0, 0}, {}, {}, vec(0, 0, 0));
  const double c = std::cos(kPi / 4), s = std::sin(kPi / 4);
  VectorXd q(7), v(6);
  q << 1, 2, 3, c, 0, 0, s;  // 90 degrees about z
  v << 1, 0, 0, 0, 0, 2;
  const std::vector<BodyKinematics> k = body_kinematics(m, q, v);
  EXPECT_TRUE(k[0].p_WBo.isApprox(Vector3d(1, 2, 3), 1e-15));
  EXPECT_TRUE(k[0].p_WBcm.isApprox(Vector3d(1, 2.5, 3), 1e-15));
  EXPECT_TRUE((k[0].R_WB * Vector3d(1, 0, 0)).isApprox(Vector3d(0, 1, 0), 1e-15));
  EXPECT_TRUE(k[0].w_WB_W.isApprox(Vector3d(0, 0, 2), 1e-15));
  EXPECT_TRUE(k[0].v_WBcm_W.isApprox(Vector3d(-1, 1, 0), 1e-15));  // (0,1,0) + (0,0,2) x (0,0.5,0)
  const VectorXd dq = qdot(m, q, v);
  EXPECT_TRUE(dq.head<3>().isApprox(Vector3d(0, 1, 0), 1e-15));
  // Quaternion rate 1/2 q (0, w): rotation about z at rate 2 keeps the axis, so (w, z) turn at rate 1.
  EXPECT_NEAR(dq[3], -s, 1e-15);
  EXPECT_NEAR(dq[6], c, 1e-15);
  EXPECT_NEAR(dq[4], 0.0, 1e-15);
  EXPECT_NEAR(dq[5], 0.0, 1e-15);
}

// ---- spherical pendulum ----

TEST(ReferenceSphericalPendulum, swinging_in_a_plane_matches_the_revolute_pendulum) {
  const double mass = 1.8, d = 0.6, Iyy = 0.07, g = 9.81;
  const Model m = spherical_pendulum(mass, d, {0.05, Iyy, 0.03, 0, 0, 0}, g);
  for (const double theta : {-1.3, 0.2, 2.4}) {
    VectorXd q(4), v(3);
    q << std::cos(theta / 2), 0, std::sin(theta / 2), 0;  // rotation theta about y
    v << 0, 0.9, 0;                                       // swinging about y
    const VectorXd a = forward_dynamics(m, 0.0, q, v);
    EXPECT_NEAR(a[1], -mass * g * d * std::sin(theta) / (Iyy + mass * d * d), 1e-12);
    EXPECT_NEAR(a[0], 0.0, 1e-12);
    EXPECT_NEAR(a[2], 0.0, 1e-12);
  }
}

// ---- joint conventions ----

TEST(ReferenceJoints, universal_rotates_about_axis_then_about_axis2) {
  Model m;
  m.gravity = vec(0, 0, 0);
  m.bodies.push_back(body("cross", 1.0, vec(0, 0, 0), {0.1, 0.1, 0.1, 0, 0, 0}));
  Joint u = joint("u", JointType::universal, -1, 0, {}, {}, vec(0, 0, 1));
  u.axis2 = vec(1, 0, 0);
  m.joints.push_back(u);
  const VectorXd q = (VectorXd(2) << kPi / 2, kPi / 2).finished(), v = (VectorXd(2) << 0.3, 0.5).finished();
  const std::vector<BodyKinematics> k = body_kinematics(m, q, v);
  // Rz(90) Rx(90) (0,0,1) = Rz(90) (0,-1,0) = (1,0,0); the other order would give (0,-1,0).
  EXPECT_TRUE((k[0].R_WB * Vector3d(0, 0, 1)).isApprox(Vector3d(1, 0, 0), 1e-15));
  // w = z q1' + Rz(q1) x q2'.
  EXPECT_TRUE(k[0].w_WB_W.isApprox(Vector3d(0, 0.5, 0.3), 1e-15));
}

TEST(ReferenceJoints, planar_uses_the_documented_in_plane_basis) {
  Model m;
  m.gravity = vec(0, 0, 0);
  m.bodies.push_back(body("slider", 1.0, vec(0, 0, 0), {0.1, 0.1, 0.1, 0, 0, 0}));
  m.joints.push_back(joint("p", JointType::planar, -1, 0, {}, {}, vec(2, 0, 0)));  // normal along x
  const VectorXd q = (VectorXd(3) << 0.2, 0.3, kPi / 2).finished(), v = (VectorXd(3) << 1, 2, 3).finished();
  const std::vector<BodyKinematics> k = body_kinematics(m, q, v);
  // |n.x| > 0.9: r = y, e1 = y, e2 = n x e1 = z.
  EXPECT_TRUE(k[0].p_WBo.isApprox(Vector3d(0, 0.2, 0.3), 1e-15));
  EXPECT_TRUE(k[0].v_WBcm_W.isApprox(Vector3d(0, 1, 2), 1e-15));
  EXPECT_TRUE(k[0].w_WB_W.isApprox(Vector3d(3, 0, 0), 1e-15));
  EXPECT_TRUE((k[0].R_WB * Vector3d(0, 1, 0)).isApprox(Vector3d(0, 0, 1), 1e-15));
}

TEST(ReferenceJoints, child_pose_is_parent_frame_times_motion_times_inverse_child_frame) {
  Model m;
  m.gravity = vec(0, 0, 0);
  m.bodies.push_back(body("link", 1.0, vec(0.1, 0.2, 0.3), {0.1, 0.1, 0.1, 0, 0, 0}));
  const Frame F = frame_rpy(1, 2, 3, 0.1, 0.2, 0.3), M = frame_rpy(-0.5, 0.4, 0.2, -0.3, 0.6, 0.2);
  m.joints.push_back(joint("r", JointType::revolute, -1, 0, F, M, vec(1, 1, 0)));
  const double angle = 0.8;
  const std::vector<BodyKinematics> k = body_kinematics(m, VectorXd::Constant(1, angle), VectorXd::Zero(1));
  const Matrix3d R_WM = frame_rotation(F) * rot(Vector3d(1, 1, 0), angle);
  const Matrix3d R_WB = R_WM * frame_rotation(M).transpose();
  EXPECT_TRUE(k[0].R_WB.isApprox(R_WB, 1e-15));
  // M's origin coincides with F's origin for a revolute joint.
  EXPECT_TRUE((k[0].p_WBo + k[0].R_WB * eig(M.origin)).isApprox(eig(F.origin), 1e-15));
  EXPECT_TRUE(k[0].p_WBcm.isApprox(k[0].p_WBo + R_WB * Vector3d(0.1, 0.2, 0.3), 1e-15));
}

// ---- mass matrix and energies on the mixed tree ----

TEST(ReferenceMixedChain, mass_matrix_is_symmetric_positive_definite) {
  const Model m = mixed_chain(false);
  const VectorXd q0 = initial_q(m), v0 = initial_v(m);
  ASSERT_EQ(q0.size(), 2 + 2 + 3 + 1 + 1 + 4 + 0 + 7);
  ASSERT_EQ(v0.size(), 2 + 2 + 3 + 1 + 1 + 3 + 0 + 6);
  for (const double h : {0.0, 0.4, 1.3}) {
    const VectorXd q = q_along(m, q0, v0, h);
    const MatrixXd M = mass_matrix(m, q);
    EXPECT_LE((M - M.transpose()).norm(), 1e-14 * M.norm());
    const Eigen::SelfAdjointEigenSolver<MatrixXd> eigen(M);
    EXPECT_GT(eigen.eigenvalues().minCoeff(), 1e-6 * eigen.eigenvalues().maxCoeff());
  }
}

TEST(ReferenceMixedChain, kinetic_energy_equals_half_v_M_v) {
  const Model m = mixed_chain(false);
  const VectorXd q0 = initial_q(m), v0 = initial_v(m);
  for (const double h : {0.0, 0.4, 1.3}) {
    const VectorXd q = q_along(m, q0, v0, h), v = (1.0 + h) * v0;
    const double T = kinetic_energy(m, q, v);
    EXPECT_GT(T, 0.0);
    EXPECT_NEAR(T, 0.5 * v.dot(mass_matrix(m, q) * v), 1e-13 * T);
  }
}

TEST(ReferenceMixedChain, body_velocities_match_finite_differences_of_poses) {
  const Model m = mixed_chain(false);
  const VectorXd q = initial_q(m), v = initial_v(m);
  const double h = 1e-6;
  const std::vector<BodyKinematics> k = body_kinematics(m, q, v);
  const std::vector<BodyKinematics> plus = body_kinematics(m, q_along(m, q, v, h), v);
  const std::vector<BodyKinematics> minus = body_kinematics(m, q_along(m, q, v, -h), v);
  for (size_t i = 0; i < k.size(); ++i) {
    const Vector3d v_fd = (plus[i].p_WBcm - minus[i].p_WBcm) / (2 * h);
    EXPECT_LT((v_fd - k[i].v_WBcm_W).norm(), 1e-8) << "body " << m.bodies[i].name;
    const Matrix3d W = (plus[i].R_WB - minus[i].R_WB) / (2 * h) * k[i].R_WB.transpose();  // [w]x
    EXPECT_LT((Vector3d(W(2, 1), W(0, 2), W(1, 0)) - k[i].w_WB_W).norm(), 1e-8)
        << "body " << m.bodies[i].name;
    // The Jacobians give the same velocities as the recursion.
    const std::vector<BodyJacobian> J = body_jacobians_cm(m, q);
    EXPECT_LT((J[i].Jv * v - k[i].v_WBcm_W).norm(), 1e-13);
    EXPECT_LT((J[i].Jw * v - k[i].w_WB_W).norm(), 1e-13);
  }
}

TEST(ReferenceMixedChain, velocity_product_terms_match_finite_differences_of_jacobians) {
  // Jdot v is d/dt (J(q) v) with v held fixed.
  const Model m = mixed_chain(false);
  const VectorXd q = initial_q(m), v = initial_v(m);
  const double h = 1e-6;
  const std::vector<BodyAcceleration> bias = body_bias_accelerations(m, q, v);
  const std::vector<BodyJacobian> plus = body_jacobians_cm(m, q_along(m, q, v, h));
  const std::vector<BodyJacobian> minus = body_jacobians_cm(m, q_along(m, q, v, -h));
  for (size_t i = 0; i < bias.size(); ++i) {
    const Vector3d a_fd = (plus[i].Jv - minus[i].Jv) * v / (2 * h);
    const Vector3d alpha_fd = (plus[i].Jw - minus[i].Jw) * v / (2 * h);
    EXPECT_LT((a_fd - bias[i].a_cm_W).norm(), 1e-7 * (1 + a_fd.norm())) << "body " << m.bodies[i].name;
    EXPECT_LT((alpha_fd - bias[i].alpha_W).norm(), 1e-7 * (1 + alpha_fd.norm()))
        << "body " << m.bodies[i].name;
  }
  // And body_accelerations adds J dv/dt to them.
  const VectorXd a = forward_dynamics(m, 0.0, q, v);
  const std::vector<BodyAcceleration> full = body_accelerations(m, q, v, a);
  const std::vector<BodyJacobian> J = body_jacobians_cm(m, q);
  for (size_t i = 0; i < full.size(); ++i)
    EXPECT_LT((full[i].a_cm_W - bias[i].a_cm_W - J[i].Jv * a).norm(), 1e-12);
}

// dE/dt along the trajectory through (t, q, v), by central differences of E at q +- h dq/dt, v +- h dv/dt;
// also returns dT/dt for scale.
void energy_rates(const Model& m, double t, const VectorXd& q, const VectorXd& v, double& dE, double& dT) {
  const double h = 1e-5;
  const VectorXd dq = qdot(m, q, v), a = forward_dynamics(m, t, q, v);
  const VectorXd qp = q + h * dq, qm = q - h * dq, vp = v + h * a, vm = v - h * a;
  dE = (total_energy(m, t, qp, vp) - total_energy(m, t, qm, vm)) / (2 * h);
  dT = (kinetic_energy(m, qp, vp) - kinetic_energy(m, qm, vm)) / (2 * h);
}

TEST(ReferenceEnergy, conserved_by_undamped_unforced_systems) {
  struct Case {
    const char* name;
    Model model;
    VectorXd q, v;
  };
  std::vector<Case> cases;
  {
    const Model m = mixed_chain(true);
    cases.push_back({"mixed chain with springs", m, initial_q(m), initial_v(m)});
  }
  {
    const Model m = double_pendulum(DoublePendulum{});
    cases.push_back(
        {"double pendulum", m, (VectorXd(2) << 0.7, -1.1).finished(), (VectorXd(2) << 1.4, -0.8).finished()});
  }
  {
    const Model m = spherical_pendulum(1.8, 0.6, {0.05, 0.07, 0.03, 0.004, -0.006, 0.002});
    VectorXd q(4);
    q << 0.8, 0.3, -0.4, 0.2;
    q.normalize();
    cases.push_back({"spherical pendulum", m, q, (VectorXd(3) << 1.1, -0.6, 2.1).finished()});
  }
  for (const Case& c : cases) {
    for (const double h : {0.0, 0.3}) {
      const VectorXd q = q_along(c.model, c.q, c.v, h);
      double dE, dT;
      energy_rates(c.model, 0.0, q, c.v, dE, dT);
      EXPECT_GT(std::abs(dT), 1e-2) << c.name;  // the check is not vacuous
      EXPECT_LT(std::abs(dE), 1e-6 * std::abs(dT)) << c.name << ": dE/dt " << dE << ", dT/dt " << dT;
    }
  }
}

TEST(ReferenceEnergy, rate_equals_power_of_dampers_and_actuators) {
  Model m = mixed_chain(true);
  m.forces[0].damping = num(3.0);  // ground spring
  m.forces[1].damping = num(1.5);  // link spring
  m.forces[1].has_actuator = true;
  m.forces[1].actuator = sine_function(4.0, 0.7, 0.2, 1.0);
  m.forces[2].damping = num(0.8);  // rsda
  m.forces[2].has_actuator = true;
  m.forces[2].actuator = constant_function(-2.5);
  m.forces.push_back(joint_actuator("push", 1, 1, sine_function(6.0, 1.3, 0.0, 0.5)));  // cylindrical slide
  m.forces.push_back(joint_actuator("twist", 7, 4, constant_function(1.7)));            // free joint, w_M y
  const double t = 0.37;
  const VectorXd q = initial_q(m), v = initial_v(m);
  const CoordinateLayout layout = coordinate_layout(m);

  double power = 0.0;
  for (int k = 0; k < 2; ++k) {  // tension's non-conservative part c l' + actuator does power -f l'
    const TsdaState s = tsda_state(m, k, t, q, v);
    const double conservative = m.forces[k].stiffness.value * (s.length - m.forces[k].free_length.value);
    power -= (s.tension - conservative) * s.length_rate;
  }
  const double rate = v[layout.v_index[4]];
  power += (-0.8 * rate - 2.5) * rate;
  power += (0.5 + 6.0 * std::sin(2 * kPi * 1.3 * t)) * v[layout.v_index[1] + 1];
  power += 1.7 * v[layout.v_index[7] + 4];

  double dE, dT;
  energy_rates(m, t, q, v, dE, dT);
  EXPECT_GT(std::abs(power), 1.0);
  EXPECT_NEAR(dE, power, 1e-6 * std::abs(dT)) << "dT/dt " << dT;
}

TEST(ReferenceLagrange, equations_of_motion_hold_in_minimal_coordinates) {
  // With v = dq/dt: Q = -dV/dq - (dM/dt) v + dT/dq, each derivative by central differences.
  const Model m = minimal_coordinate_chain(true);
  const VectorXd q = initial_q(m), v = initial_v(m);
  ASSERT_TRUE(qdot(m, q, v).isApprox(v));
  const double h = 1e-6;
  const int n = static_cast<int>(q.size());
  VectorXd dV(n), dT(n);
  for (int k = 0; k < n; ++k) {
    const VectorXd e = VectorXd::Unit(n, k) * h;
    dV[k] = (potential_energy(m, 0.0, q + e) - potential_energy(m, 0.0, q - e)) / (2 * h);
    dT[k] = (kinetic_energy(m, q + e, v) - kinetic_energy(m, q - e, v)) / (2 * h);
  }
  const VectorXd Mdot_v = (mass_matrix(m, q + h * v) - mass_matrix(m, q - h * v)) * v / (2 * h);
  const VectorXd expected = -dV - Mdot_v + dT;
  const VectorXd Q = generalized_forces(m, 0.0, q, v);
  EXPECT_LT((Q - expected).norm(), 1e-7 * (1.0 + expected.norm())) << Q.transpose() << "\n"
                                                                   << expected.transpose();
}

// ---- force elements against hand computation ----

TEST(ReferenceForces, tsda_with_moving_ground_point_matches_hand_computation) {
  // A slider on a prismatic joint along world x (body frame = M = F at the origin). End 1 on ground at
  // (0,0,0.5) moving along z by z1(t) = 0.1 + 0.2 sin(2 pi 1.5 t); end 2 on the slider at (0.1, 0, 0).
  const double mass = 2.0, k = 150.0, c = 4.0, l0 = 0.3, actuator = 7.0;
  Model m;
  m.gravity = vec(0, 0, 0);
  m.bodies.push_back(body("slider", mass, vec(0.05, 0, 0), {0.1, 0.1, 0.1, 0, 0, 0}));
  m.joints.push_back(joint("slide", JointType::prismatic, -1, 0, {}, {}, vec(1, 0, 0)));
  ForceElement f = tsda("strut", -1, vec(0, 0, 0.5), 0, vec(0.1, 0, 0), k, c, l0);
  f.end1.moves = true;
  f.end1.motion_direction = vec(0, 0, 2);  // normalized on use
  f.end1.motion = sine_function(0.2, 1.5, 0.0, 0.1);
  f.has_actuator = true;
  f.actuator = constant_function(actuator);
  m.forces.push_back(f);

  const double t = 0.21, x = 0.4, xdot = -0.6;
  const double w = 2 * kPi * 1.5;
  const double z1 = 0.5 + 0.1 + 0.2 * std::sin(w * t), z1dot = 0.2 * w * std::cos(w * t);
  const double dx = x + 0.1, dz = -z1;  // end 2 minus end 1
  const double l = std::sqrt(dx * dx + dz * dz);
  const double ldot = (dx * xdot + dz * (0.0 - z1dot)) / l;
  const double tension = k * (l - l0) + c * ldot + actuator;
  const double Q_expected = -tension * dx / l;  // force on end 2 is -f e, e = (dx, 0, dz) / l

  const VectorXd q = VectorXd::Constant(1, x), v = VectorXd::Constant(1, xdot);
  const TsdaState s = tsda_state(m, 0, t, q, v);
  EXPECT_NEAR(s.length, l, 1e-15);
  EXPECT_NEAR(s.length_rate, ldot, 1e-14);
  EXPECT_NEAR(s.tension, tension, 1e-12);
  EXPECT_NEAR(generalized_forces(m, t, q, v)[0], Q_expected, 1e-12);
  EXPECT_NEAR(forward_dynamics(m, t, q, v)[0], Q_expected / mass, 1e-12);
  EXPECT_NEAR(potential_energy(m, t, q), 0.5 * k * (l - l0) * (l - l0), 1e-13);
  // The length rate is the time derivative of the length along the motion of both ends.
  const double h = 1e-6;
  const double l_fd =
      (tsda_state(m, 0, t + h, q + h * v, v).length - tsda_state(m, 0, t - h, q - h * v, v).length) / (2 * h);
  EXPECT_NEAR(l_fd, ldot, 1e-8);
}

TEST(ReferenceForces, rsda_uses_the_shortest_initial_deflection) {
  // A wheel on a revolute joint about z, centroidal, Izz = 2; no gravity. Zero angle 3 pi/2 on a joint
  // starting at 0: "shortest" puts q0 at -pi/2 (starting deflection +pi/2), "literal" keeps 3 pi/2.
  const double Izz = 2.0, k = 12.0, c = 0.9, tau_act = 1.5;
  for (const bool shortest : {true, false}) {
    Model m;
    m.gravity = vec(0, 0, -9.81);
    m.bodies.push_back(body("wheel", 3.0, vec(0, 0, 0), {1.2, 1.3, Izz, 0, 0, 0}));
    m.joints.push_back(joint("axle", JointType::revolute, -1, 0, {}, {}, vec(0, 0, 1)));
    m.joints[0].initial_position = numbers({0.0});
    ForceElement f = rsda("torsion", 0, k, c, 1.5 * kPi, shortest);
    f.has_actuator = true;
    f.actuator = constant_function(tau_act);
    m.forces.push_back(f);

    const double q0 = shortest ? -0.5 * kPi : 1.5 * kPi;
    EXPECT_NEAR(rsda_zero_angle(m, 0), q0, 1e-15);
    const double angle = 0.3, rate = -0.4;
    const VectorXd q = VectorXd::Constant(1, angle), v = VectorXd::Constant(1, rate);
    const double torque = -k * (angle - q0) - c * rate + tau_act;
    EXPECT_NEAR(rsda_torque(m, 0, 0.0, q, v), torque, 1e-13);
    EXPECT_NEAR(generalized_forces(m, 0.0, q, v)[0], torque, 1e-13);
    EXPECT_NEAR(forward_dynamics(m, 0.0, q, v)[0], torque / Izz, 1e-13);
    const double pe_expected =
        0.5 * k * (angle - q0) * (angle - q0);  // gravity: centre of mass at the origin
    EXPECT_NEAR(potential_energy(m, 0.0, q), pe_expected, 1e-12);
  }
}

TEST(ReferenceForces, joint_actuator_drives_its_own_coordinate) {
  // Cylindrical joint along z, centre of mass on the axis: force on the slide coordinate accelerates it by
  // F/m; the rotation coordinate stays unforced. Gravity along the axis adds g_z.
  Model m;
  m.gravity = vec(0, 0, -9.81);
  m.bodies.push_back(body("piston", 2.0, vec(0, 0, 0.4), {0.3, 0.3, 0.1, 0, 0, 0}));
  m.joints.push_back(joint("bore", JointType::cylindrical, -1, 0, {}, {}, vec(0, 0, 1)));
  m.forces.push_back(joint_actuator("drive", 0, 1, sine_function(10.0, 2.0, 0.3, 5.0)));
  const double t = 0.8;
  const double force = 5.0 + 10.0 * std::sin(2 * kPi * 2.0 * t + 0.3);
  const VectorXd a =
      forward_dynamics(m, t, (VectorXd(2) << 0.2, 0.1).finished(), (VectorXd(2) << 3.0, -1.0).finished());
  EXPECT_NEAR(a[0], 0.0, 1e-13);
  EXPECT_NEAR(a[1], force / 2.0 - 9.81, 1e-12);
}

// ---- errors ----

TEST(ReferenceErrors, wrong_sizes_and_bad_force_elements_throw) {
  const Model m = double_pendulum(DoublePendulum{});
  EXPECT_THROW(mass_matrix(m, VectorXd::Zero(3)), std::invalid_argument);
  EXPECT_THROW(forward_dynamics(m, 0.0, VectorXd::Zero(2), VectorXd::Zero(1)), std::invalid_argument);
  Model bad = m;
  bad.forces.push_back(joint_actuator("push", 0, 1, constant_function(1.0)));  // revolute has one coordinate
  EXPECT_THROW(generalized_forces(bad, 0.0, VectorXd::Zero(2), VectorXd::Zero(2)), std::invalid_argument);
  Model cyclic = m;
  cyclic.joints[0].parent = 1;  // shoulder hangs from link2, which hangs from link1
  EXPECT_THROW(body_kinematics(cyclic, VectorXd::Zero(2), VectorXd::Zero(2)), std::invalid_argument);
}

}  // namespace reference_test
}  // namespace myriad::reference
