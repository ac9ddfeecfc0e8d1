// Axes, directions and quaternions are normalized scale-robustly (divided by their largest |component|
// first): [1e200, 1e200, 1e200] used to overflow to a zero axis (the run then ended non_finite) and [1e-160,
// ...] to underflow into denormals; both must now give the unit vector of [1, 1, 1] bit for bit, in the fast
// path's constants, its initial state, the reference path and the constraint equations. A zero axis is
// refused by pointer, however small the components of a non-zero one.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "constraints/constraint_equations.hpp"
#include "model/compile.hpp"
#include "model/refusal_support.hpp"
#include "reference/reference_dynamics.hpp"

namespace myriad {
namespace axis_scale_test {

using testing::text_refused;
using Json = nlohmann::ordered_json;

std::string number(double s) { return Json(s).dump(); }

// A tree with every kind of direction a file gives: joint axes, a rotation's axis and quaternion, an initial
// quaternion and a moving ground point's direction, each scaled by s.
std::string tree_model(double s) {
  const std::string S = number(s);
  return R"({"format": "myriad-model", "version": 1, "gravity": [0, 0, -9.81],
    "bodies": [
      {"name": "a", "mass": 1, "center_of_mass": [0.1, 0.2, -0.5], "inertia": {"ixx": 0.1, "iyy": 0.2, "izz": 0.15}},
      {"name": "b", "mass": 2, "center_of_mass": [0, 0, -0.5], "inertia": {"ixx": 0.1, "iyy": 0.1, "izz": 0.1}},
      {"name": "c", "mass": 1, "center_of_mass": [0, 0, -0.3], "inertia": {"ixx": 0.1, "iyy": 0.1, "izz": 0.1}},
      {"name": "d", "mass": 1, "inertia": {"ixx": 0.1, "iyy": 0.1, "izz": 0.1}}
    ],
    "joints": [
      {"name": "ja", "type": "revolute", "parent": "ground", "child": "a", "axis": [)" +
         S + "," + S + "," + S + R"(],
       "parent_frame": {"rotation": {"axis": [)" +
         S + R"(, 0, 0], "angle": 0.3}}, "position": [0.2]},
      {"name": "jb", "type": "universal", "parent": "a", "child": "b", "axis": [)" +
         S + R"(, 0, 0],
       "axis2": [0, )" +
         S + R"(, 0], "child_frame": {"rotation": {"quaternion": [)" + S + "," + S + R"(, 0, 0]}}},
      {"name": "jc", "type": "spherical", "parent": "b", "child": "c", "position": [)" +
         S + R"(, 0, 0, )" + S + R"(]},
      {"name": "jd", "type": "planar", "parent": "ground", "child": "d", "axis": [0, )" +
         S + "," + S + R"(]}
    ],
    "forces": [{"name": "spring", "type": "tsda", "body1": "ground", "point1": [0, 0, 1], "body2": "a",
                "stiffness": 10, "free_length": 1,
                "motion1": {"direction": [)" +
         S + "," + S + R"(, 0], "function": {"type": "sine", "amplitude": 0.1,
                            "frequency": 1}}}]
  })";
}

struct Packed {
  std::vector<double> constants, q, v;
  Eigen::VectorXd reference_q;
};

Packed pack(double s) {
  const Model model = load_model_text(tree_model(s), "t.json");
  const auto compiled = compile(model);
  Packed p;
  p.constants.resize(static_cast<size_t>(compiled->n_constants));
  pack_constants(*compiled, model, p.constants.data());
  p.q.resize(static_cast<size_t>(compiled->nq));
  p.v.resize(static_cast<size_t>(compiled->nv));
  initial_state(model, p.q.data(), p.v.data());
  p.reference_q = reference::initial_q(model);
  return p;
}

TEST(AxisScale, huge_and_tiny_directions_give_the_unit_vectors_of_ones) {
  const Packed unit = pack(1.0);
  for (const double s : {1e200, 1e-160, 1e-300, 2.0}) {
    const Packed scaled = pack(s);
    EXPECT_EQ(scaled.constants, unit.constants) << s;
    EXPECT_EQ(scaled.q, unit.q) << s;
    EXPECT_EQ(scaled.reference_q, unit.reference_q) << s;
  }
}

// A loop model for the constraint equations: cut joints whose axes are scaled by s.
std::string loop_model(double s) {
  const std::string S = number(s);
  return R"({"format": "myriad-model", "version": 1,
    "bodies": [{"name": "a", "mass": 1, "inertia": {"ixx": 1, "iyy": 1, "izz": 1}},
               {"name": "b", "mass": 1, "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}],
    "joints": [{"name": "ja", "type": "revolute", "parent": "ground", "child": "a", "axis": [0, 0, 1],
                "position": [0.4]},
               {"name": "jb", "type": "cylindrical", "parent": "ground", "child": "b", "axis": [0, 0, 1],
                "parent_frame": {"origin": [2, 0, 0]}, "position": [0.1, 0.2]}],
    "loops": [
      {"name": "u", "type": "cut_universal", "body1": "a", "body2": "b", "axis": [)" +
         S + R"(, 0, 0],
       "axis2": [0, )" +
         S + R"(, 0], "frame1": {"origin": [1, 0, 0]}},
      {"name": "r", "type": "cut_revolute", "body1": "a", "body2": "b", "axis": [)" +
         S + "," + S + "," + S + R"(]},
      {"name": "p", "type": "cut_planar_revolute", "body1": "a", "body2": "b", "axis": [0, )" +
         S + R"(, 0]}
    ]
  })";
}

TEST(AxisScale, loop_axes_are_normalized_scale_robustly) {
  const auto evaluate = [](double s) {
    const Model model = load_model_text(loop_model(s), "t.json");
    return constraints::evaluate_constraints(model, 0.0, reference::initial_q(model),
                                             reference::initial_v(model));
  };
  const constraints::ConstraintEvaluation unit = evaluate(1.0);
  for (const double s : {1e200, 1e-160}) {
    const constraints::ConstraintEvaluation scaled = evaluate(s);
    EXPECT_EQ(scaled.phi, unit.phi) << s;
    EXPECT_EQ(scaled.G, unit.G) << s;
    EXPECT_EQ(scaled.gamma, unit.gamma) << s;
  }
}

TEST(AxisScale, zero_axes_are_refused_and_tiny_ones_are_not) {
  Json m = Json::parse(tree_model(1.0));
  m["joints"][0]["axis"] = Json::parse("[0, 0, 0]");
  EXPECT_TRUE(text_refused(m.dump(), "/joints/0/axis", {"axis must be non-zero"}));
  m["joints"][0]["axis"] = Json::parse("[1e-170, 0, 0]");  // its norm underflows to 0, its direction does not
  EXPECT_NO_THROW(load_model_text(m.dump(), "t.json"));

  m = Json::parse(tree_model(1.0));
  m["forces"][0]["motion1"]["direction"] = Json::parse("[0, 0, 0]");
  EXPECT_TRUE(text_refused(m.dump(), "/forces/0/motion1/direction", {"direction must be non-zero"}));

  m = Json::parse(loop_model(1.0));
  m["loops"][1]["axis"] = Json::parse("[0, 0, 0]");
  EXPECT_TRUE(text_refused(m.dump(), "/loops/1/axis", {"axis must be non-zero"}));

  m = Json::parse(tree_model(1.0));
  m["joints"][2]["position"] = Json::parse("[0, 0, 0, 0]");
  EXPECT_TRUE(
      text_refused(m.dump(), "/joints/2/position", {"the initial quaternion (w, x, y, z) must be non-zero"}));
  m["joints"][2]["position"] = Json::parse("[1e-170, 0, 0, 0]");
  EXPECT_NO_THROW(load_model_text(m.dump(), "t.json"));
}

}  // namespace axis_scale_test
}  // namespace myriad
