// Model classes (dynamics/model_class.hpp): which shipped models belong to AxisJointsClass, read independently from
// the loaded model's joint and force types, and code compiled for a class computing the generic code's
// accelerations bit for bit on the models that belong to it.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <set>

#include "dynamics/articulated_body.hpp"
#include "dynamics/model_class.hpp"
#include "support/model_fixture.hpp"

namespace myriad {
namespace model_class_test {

using testing::Instance;
using testing::shipped_model_files;

// The class by its definition: joints that turn or slide about one axis (or none), springs, dampers, actuators.
bool axis_joints_by_type(const Model& model) {
  for (const Joint& joint : model.joints)
    if (joint.type != JointType::revolute && joint.type != JointType::prismatic && joint.type != JointType::fixed)
      return false;
  for (const ForceElement& force : model.forces)
    if (force.type != ForceType::tsda && force.type != ForceType::rsda && force.type != ForceType::joint_actuator)
      return false;
  return true;
}

TEST(ModelClass, AxisJointsHoldsExactlyTheModelsOfOneAxisJointsSpringsDampersAndActuators) {
  std::set<std::string> in_class;
  for (const std::string& file : shipped_model_files()) {
    const Model model = load_model_file(file);
    const auto compiled = compile(model);
    const bool expected = axis_joints_by_type(model);
    EXPECT_EQ(model_in_class<AxisJointsClass>(*compiled), expected) << file;
    EXPECT_TRUE(model_in_class<AnyModelClass>(*compiled)) << file;
    if (expected) in_class.insert(file.substr(file.rfind('/') + 1));
  }
  for (const char* file : {"quarter_car.json", "stiff_double_pendulum.json", "pendulum_002.json"})
    EXPECT_EQ(in_class.count(file), 1u) << file;
  for (const char* file : {"spatial_chain.json", "free_body.json", "full_car.json", "engine_mount.json"})
    EXPECT_EQ(in_class.count(file), 0u) << file;
}

// Forward dynamics over ClassConstants<AxisJointsClass, ...> (no code for the other joints and elements) equals
// the generic code's, bit for bit, at random states of every tree model of the class.
TEST(ModelClass, AxisJointsCodeGivesTheGenericAccelerationsBitForBit) {
  std::mt19937_64 rng(5);
  std::normal_distribution<double> normal(0.0, 1.0);
  int models = 0;
  for (const std::string& file : shipped_model_files()) {
    const Model loaded = load_model_file(file);
    Instance instance(loaded);
    const CompiledModel& model = *instance.compiled;
    if (model.constraints.m > 0 || !model_in_class<AxisJointsClass>(model)) continue;
    ++models;
    const ClassConstants<AxisJointsClass, const double*> classed{instance.constants.data()};
    std::vector<unsigned char> other_buffer(tree_workspace_bytes<double>(model));
    TreeWorkspace<double> other = carve_tree_workspace<double>(model, other_buffer.data(), nullptr);
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<double> q = instance.q, v(static_cast<size_t>(model.nv));
      for (double& x : q) x += 0.3 * normal(rng);
      for (double& x : v) x = normal(rng);
      const double t = 0.05 * trial;
      std::vector<double> generic(static_cast<size_t>(model.nv)), own(static_cast<size_t>(model.nv));
      ASSERT_TRUE(forward_dynamics(model, instance.constants.data(), t, q.data(), v.data(), instance.w,
                                   generic.data())) << file;
      ASSERT_TRUE(forward_dynamics(model, classed, t, q.data(), v.data(), other, own.data())) << file;
      for (int i = 0; i < model.nv; ++i)
        ASSERT_EQ(std::memcmp(&generic[i], &own[i], sizeof(double)), 0) << file << " qdd " << i;
    }
  }
  EXPECT_GE(models, 4);
}

}  // namespace model_class_test
}  // namespace myriad
