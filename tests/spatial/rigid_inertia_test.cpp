// The ten-number rigid-body inertia (spatial/rigid_inertia.hpp) against the general 6 x 6 spatial inertia it
// stands for: the same operator in every frame, built, moved and applied independently.
#include "spatial/rigid_inertia.hpp"

#include <gtest/gtest.h>

#include <random>

#include "core/dual.hpp"

namespace myriad {
namespace rigid_inertia_test {

std::mt19937_64 rng(7);
double uniform(double a = -1.0, double b = 1.0) { return std::uniform_real_distribution<double>(a, b)(rng); }
Vec3<double> random_vec() { return {uniform(), uniform(), uniform()}; }
Transform<double> random_transform() {
  const Vec3<double> axis = random_vec();
  return {rotation_about_axis((1.0 / norm(axis)) * axis, uniform(-3, 3)), 2.0 * random_vec()};
}
// A physically valid centroidal inertia: R diag(a, b, c) R^T with each moment below the sum of the others.
Mat3<double> random_centroidal_inertia() {
  const Mat3<double> R = random_transform().R;
  const double a = uniform(0.5, 1.0), b = uniform(0.5, 1.0), c = uniform(0.5, 1.0);
  return R * Mat3<double>{{{a, 0, 0}, {0, b, 0}, {0, 0, c}}} * transpose(R);
}

void expect_same_operator(const SpatialInertia<double>& a, const SpatialInertia<double>& b, double tol) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      EXPECT_NEAR(a.A.m[i][j], b.A.m[i][j], tol) << "A " << i << j;
      EXPECT_NEAR(a.B.m[i][j], b.B.m[i][j], tol) << "B " << i << j;
      EXPECT_NEAR(a.C.m[i][j], b.C.m[i][j], tol) << "C " << i << j;
    }
}

TEST(RigidInertia, IsTheRigidBodySpatialInertia) {
  for (int trial = 0; trial < 20; ++trial) {
    const double mass = uniform(0.1, 5.0);
    const Vec3<double> c = random_vec();
    const Mat3<double> I_cm = random_centroidal_inertia();
    const RigidInertia<double> Y = rigid_inertia(mass, c, I_cm);
    expect_same_operator(spatial_inertia(Y), rigid_body_inertia(mass, c, I_cm), 1e-14);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) EXPECT_EQ(Y.I.m[i][j], Y.I.m[j][i]);
  }
}

TEST(RigidInertia, ChangesFrameAsTheGeneralInertiaDoes) {
  for (int trial = 0; trial < 20; ++trial) {
    const RigidInertia<double> Y_B =
        rigid_inertia(uniform(0.1, 5.0), random_vec(), random_centroidal_inertia());
    const Transform<double> X_AB = random_transform();
    const RigidInertia<double> Y_A = rigid_inertia_to_a(X_AB, Y_B);
    expect_same_operator(spatial_inertia(Y_A), inertia_to_a(X_AB, spatial_inertia(Y_B)), 1e-13);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) EXPECT_EQ(Y_A.I.m[i][j], Y_A.I.m[j][i]);
    // Moved back, it is the body it was.
    const RigidInertia<double> Y_back = rigid_inertia_to_a(inverse(X_AB), Y_A);
    expect_same_operator(spatial_inertia(Y_back), spatial_inertia(Y_B), 1e-13);
  }
}

TEST(RigidInertia, PureTranslationsTakeInertiaToAsShortPathToTheSameOperator) {
  // inertia_to_a skips the rotations when R is exactly the identity; the rigid-body formula has no such
  // branch.
  for (int trial = 0; trial < 20; ++trial) {
    const RigidInertia<double> Y_B =
        rigid_inertia(uniform(0.1, 5.0), random_vec(), random_centroidal_inertia());
    const Transform<double> X_AB{Mat3<double>::identity(), 2.0 * random_vec()};
    expect_same_operator(spatial_inertia(rigid_inertia_to_a(X_AB, Y_B)),
                         inertia_to_a(X_AB, spatial_inertia(Y_B)), 1e-13);
  }
}

TEST(RigidInertia, ARotationThatIsTheIdentityInValueOnlyIsNotSkipped) {
  // A revolute joint's rotation at q = 0 in a Jacobian pass: the identity, with a derivative along q.
  using D = Dual<double, 2>;
  Mat3<D> R = mat3_cast<D>(Mat3<double>::identity());
  EXPECT_TRUE(is_identity(R));
  R.m[0][1].d[0] = -1.0;  // d/dq of Rot(z, q) at 0
  R.m[1][0].d[0] = 1.0;
  EXPECT_FALSE(is_identity(R));
  const SpatialInertia<D> I{mat3_cast<D>(Mat3<double>{{{2, 0.1, 0}, {0.1, 1, 0}, {0, 0, 1.5}}}),
                            Mat3<D>::zero(), mat3_cast<D>(Mat3<double>::identity())};
  const SpatialInertia<D> I_A = inertia_to_a(Transform<D>{R, Vec3<D>::zero()}, I);
  // d/dq (R A R^T)_01 at q = 0 with R' = [[0, -1, 0], [1, 0, 0], [0, 0, 0]]: (R'A + A R'^T)_01 = A_00 - A_11
  // = 1.
  EXPECT_DOUBLE_EQ(I_A.A.m[0][1].d[0], 1.0);
}

TEST(RigidInertia, AppliesAndAddsAsTheGeneralInertiaDoes) {
  for (int trial = 0; trial < 20; ++trial) {
    RigidInertia<double> Y = rigid_inertia(uniform(0.1, 5.0), random_vec(), random_centroidal_inertia());
    const RigidInertia<double> Z =
        rigid_inertia(uniform(0.1, 5.0), random_vec(), random_centroidal_inertia());
    const Motion<double> m{random_vec(), random_vec()};
    const Force<double> f = Y * m, g = spatial_inertia(Y) * m;
    for (int i = 0; i < 3; ++i) {
      EXPECT_NEAR(f.moment[i], g.moment[i], 1e-14);
      EXPECT_NEAR(f.force[i], g.force[i], 1e-14);
    }
    const SpatialInertia<double> sum = spatial_inertia(Y) + spatial_inertia(Z);
    Y += Z;
    expect_same_operator(spatial_inertia(Y), sum, 1e-14);
  }
}

}  // namespace rigid_inertia_test
}  // namespace myriad
