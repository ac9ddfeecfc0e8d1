// Spatial algebra: identities that any correct Plucker-coordinate implementation satisfies.
#include <gtest/gtest.h>

#include <random>

#include "spatial/quaternion.hpp"
#include "spatial/spatial_inertia.hpp"

namespace myriad {
namespace spatial_algebra_test {

std::mt19937_64 rng(42);
double uniform(double a = -1.0, double b = 1.0) { return std::uniform_real_distribution<double>(a, b)(rng); }
Vec3<double> random_vec() { return {uniform(), uniform(), uniform()}; }
Transform<double> random_transform() {
  const Vec3<double> axis = random_vec();
  return {rotation_about_axis((1.0 / norm(axis)) * axis, uniform(-3, 3)), random_vec()};
}
Motion<double> random_motion() { return {random_vec(), random_vec()}; }
Force<double> random_force() { return {random_vec(), random_vec()}; }
void expect_near(const Vec3<double>& a, const Vec3<double>& b, double tol = 1e-13) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

TEST(SpatialAlgebra, RotationAboutAxisIsOrthonormalAndTurnsTheRightWay) {
  const Mat3<double> R = rotation_about_axis(Vec3<double>{0, 0, 1}, kPi / 2);
  expect_near(R * Vec3<double>{1, 0, 0}, {0, 1, 0});
  const Mat3<double> Q = rotation_about_axis((1.0 / norm(Vec3<double>{1, 2, 3})) * Vec3<double>{1, 2, 3}, 0.7);
  const Mat3<double> I = transpose(Q) * Q;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(I.m[i][j], i == j ? 1.0 : 0.0, 1e-15);
}

TEST(SpatialAlgebra, TransformComposesAndInverts) {
  const Transform<double> X_AB = random_transform(), X_BC = random_transform();
  const Vec3<double> p_C = random_vec();
  expect_near(transform_point(X_AB * X_BC, p_C), transform_point(X_AB, transform_point(X_BC, p_C)));
  expect_near(transform_point(inverse(X_AB), transform_point(X_AB, p_C)), p_C);
}

TEST(SpatialAlgebra, MotionAndForceTransformsPreservePower) {
  const Transform<double> X = random_transform();
  const Motion<double> m_B = random_motion();
  const Force<double> f_B = random_force();
  EXPECT_NEAR(dot(motion_to_a(X, m_B), force_to_a(X, f_B)), dot(m_B, f_B), 1e-13);
  const Motion<double> back = motion_to_b(X, motion_to_a(X, m_B));
  expect_near(back.angular, m_B.angular);
  expect_near(back.linear, m_B.linear);
  const Force<double> fb = force_to_b(X, force_to_a(X, f_B));
  expect_near(fb.moment, f_B.moment);
  expect_near(fb.force, f_B.force);
}

TEST(SpatialAlgebra, MotionTransformMovesTheReferencePoint) {
  // A pure rotation about B's origin seen from A: the velocity of A's origin is w x (p_A - p_B).
  const Transform<double> X_AB{Mat3<double>::identity(), {1, 0, 0}};
  const Motion<double> m_A = motion_to_a(X_AB, Motion<double>{{0, 0, 2}, {0, 0, 0}});
  expect_near(m_A.linear, cross(Vec3<double>{0, 0, 2}, Vec3<double>{-1, 0, 0}));
}

TEST(SpatialAlgebra, CrossProductsAreDualAndSkew) {
  const Motion<double> v = random_motion(), m = random_motion();
  const Force<double> f = random_force();
  // (v x m) . f == -m . (v x* f)
  EXPECT_NEAR(dot(cross_motion(v, m), f), -dot(m, cross_force(v, f)), 1e-13);
  const Motion<double> vv = cross_motion(v, v);
  expect_near(vv.angular, Vec3<double>::zero());
  expect_near(vv.linear, Vec3<double>::zero());
}

TEST(SpatialAlgebra, RigidInertiaGivesMomentumAndKineticEnergy) {
  const double m = 2.5;
  const Vec3<double> c{0.1, -0.2, 0.3};
  const Mat3<double> I_cm{{{0.3, 0.01, -0.02}, {0.01, 0.4, 0.03}, {-0.02, 0.03, 0.5}}};
  const SpatialInertia<double> I = rigid_body_inertia(m, c, I_cm);
  const Motion<double> v = random_motion();
  // Linear momentum = m * (velocity of the centre of mass).
  const Vec3<double> v_cm = v.linear + cross(v.angular, c);
  expect_near((I * v).force, m * v_cm);
  const double energy = 0.5 * m * dot(v_cm, v_cm) + 0.5 * dot(v.angular, I_cm * v.angular);
  EXPECT_NEAR(0.5 * dot(v, I * v), energy, 1e-13);
}

TEST(SpatialAlgebra, InertiaTransformMatchesForceOfTransformedMotion) {
  const SpatialInertia<double> I_B =
      rigid_body_inertia(1.7, Vec3<double>{0.2, 0.1, -0.3}, Mat3<double>{{{0.2, 0.0, 0.01}, {0.0, 0.3, 0.0}, {0.01, 0.0, 0.25}}});
  const Transform<double> X_AB = random_transform();
  const Motion<double> m_A = random_motion();
  const Force<double> direct = force_to_a(X_AB, I_B * motion_to_b(X_AB, m_A));
  const Force<double> via = inertia_to_a(X_AB, I_B) * m_A;
  expect_near(direct.moment, via.moment, 1e-12);
  expect_near(direct.force, via.force, 1e-12);
}

TEST(SpatialAlgebra, QuaternionRoundTripsAndExponentialMatchesAxisAngle) {
  const Vec3<double> phi{0.3, -0.4, 1.1};
  const Mat3<double> R = rotation_matrix(quat_exp(phi));
  const Mat3<double> R_axis = rotation_about_axis((1.0 / norm(phi)) * phi, norm(phi));
  const Quat<double> back = quat_from_rotation(R);
  const Mat3<double> R_back = rotation_matrix(back);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      EXPECT_NEAR(R.m[i][j], R_axis.m[i][j], 1e-15);
      EXPECT_NEAR(R_back.m[i][j], R.m[i][j], 1e-15);
    }
  // Shepperd's branches: rotations by nearly pi about each axis.
  for (int axis = 0; axis < 3; ++axis) {
    Vec3<double> a = Vec3<double>::zero();
    a[axis] = 3.1;
    const Mat3<double> Ra = rotation_matrix(quat_exp(a));
    const Mat3<double> Rb = rotation_matrix(quat_from_rotation(Ra));
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) EXPECT_NEAR(Ra.m[i][j], Rb.m[i][j], 1e-14);
  }
}

TEST(SpatialAlgebra, RightJacobianInverseMapsBodyRateToChartRate) {
  // R(t) = R0 exp(phi(t)); with phi' = Jr^-1(phi) w, R^T R' must equal skew(w) (body angular velocity).
  const Vec3<double> phi{0.4, -0.2, 0.3}, w{0.7, 0.1, -0.5};
  const Vec3<double> phi_dot = right_jacobian_inverse_times(phi, w);
  const double h = 1e-6;
  const Mat3<double> Rp = rotation_matrix(quat_exp(phi + h * phi_dot));
  const Mat3<double> Rm = rotation_matrix(quat_exp(phi - h * phi_dot));
  const Mat3<double> R = rotation_matrix(quat_exp(phi));
  const Mat3<double> W = transpose(R) * ((1.0 / (2 * h)) * (Rp - Rm));
  EXPECT_NEAR(W.m[2][1], w.x, 1e-8);
  EXPECT_NEAR(W.m[0][2], w.y, 1e-8);
  EXPECT_NEAR(W.m[1][0], w.z, 1e-8);
}

}  // namespace spatial_algebra_test
}  // namespace myriad
