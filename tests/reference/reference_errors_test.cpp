// The reference path's refusals that a model file can cause (`myriad check` calls it directly) name the file,
// the entry and the reason: a spring whose ends coincide, a mass matrix that is not positive definite in
// double precision, an initial state that does not fit its joint.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <string>

#include "model/refusal_support.hpp"
#include "reference/reference_dynamics.hpp"

namespace myriad {
namespace reference_errors_test {

using testing::pendulum_model;
using testing::throws_model_error;
using Json = nlohmann::ordered_json;

const char* const kFile = "models/bad.json";

::testing::AssertionResult dynamics_refused(const Json& text, const std::string& pointer,
                                            const std::vector<std::string>& reason_parts) {
  const Model model = load_model_text(text.dump(), kFile);
  return throws_model_error(
      [&] {
        reference::forward_dynamics(model, 0.0, reference::initial_q(model), reference::initial_v(model));
      },
      kFile, pointer, reason_parts);
}

TEST(ReferenceErrors, spring_whose_ends_coincide_names_the_force) {
  // Ground's origin and the pivot of the bob coincide whatever the angle.
  Json m = pendulum_model();
  m["forces"] = Json::parse(R"([{"name": "s", "type": "tsda", "body1": "ground", "body2": "bob",
                                  "stiffness": 10, "free_length": 0.5}])");
  EXPECT_TRUE(dynamics_refused(m, "/forces/0", {"tsda 's' has zero length at this configuration"}));
}

TEST(ReferenceErrors, mass_matrix_that_is_not_positive_definite_names_the_joint) {
  // A double pendulum of the smallest denormal masses and inertias: the second joint's pivot underflows to 0.
  const std::string tiny = "5e-324";
  const std::string body = R"("mass": )" + tiny + R"(, "center_of_mass": [0.5, 0, 0], "inertia": {"ixx": )" +
                           tiny + R"(, "iyy": )" + tiny + R"(, "izz": )" + tiny + "}";
  const Json m = Json::parse(R"({"format": "myriad-model", "version": 1, "gravity": [0, -9.81, 0],
    "bodies": [{"name": "a", )" +
                             body + R"(}, {"name": "b", )" + body + R"(}],
    "joints": [{"name": "ja", "type": "revolute", "parent": "ground", "child": "a", "axis": [0, 0, 1],
                "position": [0.3]},
               {"name": "jb", "type": "revolute", "parent": "a", "child": "b", "axis": [0, 0, 1],
                "parent_frame": {"origin": [1, 0, 0]}, "position": [0.5]}]})");
  EXPECT_TRUE(dynamics_refused(m, "/joints/1",
                               {"the mass matrix is not positive definite at this configuration: pivot 0 at "
                                "velocity coordinate 0 of joint 'jb'"}));
}

TEST(ReferenceErrors, initial_state_that_does_not_fit_its_joint_names_the_key) {
  Model model = load_model_text(pendulum_model().dump(), kFile);
  model.joints[0].initial_position.resize(2);
  EXPECT_TRUE(throws_model_error([&] { reference::initial_q(model); }, kFile, "/joints/0/position",
                                 {"joint 'pivot': 2 initial positions, expected 1"}));
  model = load_model_text(pendulum_model().dump(), kFile);
  model.joints[0].initial_velocity.resize(3);
  EXPECT_TRUE(throws_model_error([&] { reference::initial_v(model); }, kFile, "/joints/0/velocity",
                                 {"joint 'pivot': 3 initial velocities, expected 1"}));
}

}  // namespace reference_errors_test
}  // namespace myriad
