// The folded placement constants of revolute and prismatic joints (model/compiled_model.hpp,
// kJointPlacementA0): fixed_axis_placement and the stored subspace column against the frames product X_PF
// X_FM(q) X_CM^-1 and X_CM's image of the joint's own subspace, on every such joint of every shipped model at
// random angles.
#include <gtest/gtest.h>

#include <random>

#include "dynamics/tree_kinematics.hpp"
#include "support/model_fixture.hpp"

namespace myriad {
namespace placement_constants_test {

using testing::Instance;

TEST(PlacementConstants, FoldTheFramesProductOfEveryRevoluteAndPrismaticJoint) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> angle(-40.0, 40.0);  // wheels turn many times
  int joints = 0;
  for (const std::string& file : testing::shipped_model_files()) {
    SCOPED_TRACE(file);
    Instance inst(load_model_file(file));
    const double* k = inst.k();
    for (int i = 0; i < inst.compiled->n_bodies; ++i) {
      const CompiledJoint& joint = inst.compiled->joints[i];
      if (!has_placement_constants(joint.type)) continue;
      ++joints;
      const int c = joint.constants;
      const Transform<double> X_PF = load_transform<double>(k, c + kJointRotationPF, c + kJointOriginPF);
      const Transform<double> X_CM = load_transform<double>(k, c + kJointRotationCM, c + kJointOriginCM);
      Motion<double> S_M[6];
      joint_subspace(joint, k, static_cast<const double*>(nullptr), S_M);  // q unread for these joints
      const Motion<double> S_C = motion_to_a(X_CM, S_M[0]);
      for (int c2 = 0; c2 < 3; ++c2) {
        EXPECT_EQ(k[c + kJointSubspaceC + c2], S_C.angular[c2]);
        EXPECT_EQ(k[c + kJointSubspaceC + 3 + c2], S_C.linear[c2]);
      }
      for (int trial = 0; trial < 16; ++trial) {
        const double q = angle(rng);
        const Transform<double> expected = X_PF * joint_transform(joint, k, &q) * inverse(X_CM);
        const Transform<double> folded = fixed_axis_placement(joint, k, q);
        // The two forms round differently, by a few ulps: 3.2e-15 (about 14 eps) on the rotation's O(1)
        // entries and 4e-15 relative to the offset's length.
        const double scale = 1.0 + norm(expected.p);
        for (int r = 0; r < 3; ++r) {
          for (int col = 0; col < 3; ++col) EXPECT_NEAR(folded.R.m[r][col], expected.R.m[r][col], 3.2e-15);
          EXPECT_NEAR(folded.p[r], expected.p[r], 4e-15 * scale);
        }
      }
    }
  }
  EXPECT_GE(joints, 20);  // pendulums, chains, corners and cars all have them
}

}  // namespace placement_constants_test
}  // namespace myriad
