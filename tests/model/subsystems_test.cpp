// Templates (docs/model-format.md, "Subsystems"): the double wishbone expands into the entries its comment in
// src/model/double_wishbone.cpp lists, with hardpoints as linear expressions of parameters; the expanded model
// (`myriad expand`) loads to the same model; a right side mirrors the left; and every bad input the issue names
// (missing hardpoint, coincident hardpoints, a rod of zero length, unknown template) is refused at its pointer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/kc_rig.hpp"
#include "model/linear_expression.hpp"
#include "model/model.hpp"
#include "model/model_loader.hpp"
#include "model/model_validation.hpp"
#include "spatial/vec3.hpp"
#include "support/model_fixture.hpp"
#include "support/run_model.hpp"

namespace myriad {
namespace subsystems_test {

using Json = nlohmann::ordered_json;

Json corner() {
  std::ifstream in(testing::model_path("double_wishbone_corner.json"));
  return Json::parse(in);
}

::testing::AssertionResult fails_with(const Json& model, const std::string& pointer, const std::string& reason_part) {
  try {
    load_model_text(model.dump(), "t.json");
  } catch (const ModelError& e) {
    if (e.pointer() != pointer)
      return ::testing::AssertionFailure() << "pointer '" << e.pointer() << "', expected '" << pointer << "': " << e.what();
    if (e.reason().find(reason_part) == std::string::npos)
      return ::testing::AssertionFailure() << "reason lacks '" << reason_part << "': " << e.what();
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "loaded without error";
}

TEST(LinearExpression, ParsesAndPrintsBack) {
  LinearExpression e;
  std::string reason;
  ASSERT_TRUE(parse_linear_expression(" 0.5*$a - $b + 2 - 0.25 * $a", e, reason)) << reason;
  EXPECT_EQ(e.constant, 2.0);
  ASSERT_EQ(e.terms.size(), 2u);
  EXPECT_EQ(e.terms[0], std::make_pair(std::string("a"), 0.25));
  EXPECT_EQ(e.terms[1], std::make_pair(std::string("b"), -1.0));
  LinearExpression back;
  ASSERT_TRUE(parse_linear_expression(linear_expression_text(e), back, reason)) << linear_expression_text(e);
  EXPECT_EQ(back.constant, e.constant);
  EXPECT_EQ(back.terms, e.terms);
  EXPECT_EQ(linear_expression_text(-1.0 * e), "-0.25*$a + $b - 2");
  // $a - $a cancels to a constant.
  ASSERT_TRUE(parse_linear_expression("$a - $a + 1", e, reason));
  EXPECT_TRUE(e.is_constant());
  for (const char* bad : {"", "$", "2 3", "$a $b", "$a*2", "*$a", "1e999*$a", "$a +"})
    EXPECT_FALSE(parse_linear_expression(bad, e, reason)) << bad;
}

TEST(LinearExpression, ParametersResolvePerInstance) {
  Json m = corner();
  m["parameters"]["dy"] = 0.01;
  m["subsystems"][0]["hardpoints"]["wheel_center"] = Json::array({-0.04, "0.9 + $dy", "-0.026"});
  const Model model = load_model_text(m.dump(), "t.json");
  std::vector<double> values = default_parameter_values(model);
  const std::size_t dy = model.parameters.size() - 1;
  values[dy] = 0.03;
  const Model literal = apply_parameters(model, values);
  // The wheel mount's frames carry the wheel centre.
  for (const Joint& j : literal.joints)
    if (j.name == "front_wheel_mount") {
      EXPECT_EQ(j.parent_frame.origin[1].value, 0.9 + 0.03);
      EXPECT_EQ(j.child_frame.origin[1].value, 0.9 + 0.03);
    }
}

TEST(Subsystems, DoubleWishboneExpandsIntoItsParts) {
  const Model m = load_model_file(testing::model_path("double_wishbone_corner.json"));
  ASSERT_EQ(m.subsystems.size(), 1u);
  const Subsystem& s = m.subsystems[0];
  EXPECT_EQ(s.name, "front");
  EXPECT_EQ(s.template_name, "double_wishbone");
  EXPECT_EQ(s.pointer, "/subsystems/0");
  std::vector<std::string> bodies, joints, loops;
  for (const auto& p : s.parts) {
    if (p.first == "body") bodies.push_back(p.second);
    if (p.first == "joint") joints.push_back(p.second);
    if (p.first == "loop") loops.push_back(p.second);
  }
  EXPECT_EQ(bodies, (std::vector<std::string>{"front_lca", "front_uca", "front_upright", "front_kingpin", "front_wheel"}));
  EXPECT_EQ(joints, (std::vector<std::string>{"front_lca_pivot", "front_uca_pivot", "front_lower_ball",
                                              "front_steering_axis", "front_wheel_mount"}));
  EXPECT_EQ(loops, (std::vector<std::string>{"front_upper_ball", "front_tierod"}));
  // The tie rod's design length is the hardpoints' distance: (-0.25, 0.448, 0.054) to (-0.176, 0.821, -0.016).
  for (const Loop& l : m.loops)
    if (l.name == "front_tierod") {
      EXPECT_TRUE(l.length_from_design);
      EXPECT_NEAR(l.length.value, std::sqrt(0.074 * 0.074 + 0.373 * 0.373 + 0.07 * 0.07), 1e-15);
    }
}

TEST(Subsystems, DesignLengthFollowsTheParameters) {
  const Model m = load_model_file(testing::model_path("double_wishbone_corner.json"));
  std::vector<double> values = default_parameter_values(m);
  for (std::size_t p = 0; p < m.parameters.size(); ++p)
    if (m.parameters[p].name == "tierod_upright_z") values[p] = 0.034;
  const Model literal = apply_parameters(m, values);
  for (const Loop& l : literal.loops)
    if (l.name == "front_tierod")
      EXPECT_NEAR(l.length.value, std::sqrt(0.074 * 0.074 + 0.373 * 0.373 + 0.02 * 0.02), 1e-15);
}

TEST(Subsystems, ExpandedModelLoadsToTheSameModel) {
  const std::string path = testing::model_path("double_wishbone_corner.json");
  const std::string expanded = expanded_model_text(path);
  EXPECT_EQ(expanded.find("subsystems"), std::string::npos);
  const Model a = load_model_file(path);
  const Model b = load_model_text(expanded, "expanded.json");
  ASSERT_EQ(a.bodies.size(), b.bodies.size());
  ASSERT_EQ(a.joints.size(), b.joints.size());
  ASSERT_EQ(a.loops.size(), b.loops.size());
  ASSERT_EQ(a.forces.size(), b.forces.size());
  ASSERT_EQ(a.outputs.size(), b.outputs.size());
  // Every number the same, parameter references included: the K&C curves agree bit for bit.
  const KcCurves ka = kinematics_and_compliance(apply_parameters(a, default_parameter_values(a)), {});
  Model b_with_info = b;
  b_with_info.subsystems = a.subsystems;
  const KcCurves kb = kinematics_and_compliance(apply_parameters(b_with_info, default_parameter_values(b)), {});
  EXPECT_EQ(ka.rows, kb.rows);
}

// The files a model names beside itself come out as absolute paths, so the expanded model loads from anywhere
// (here: as if written to a folder without the model's `tires/` beside it) with the same tire coefficients.
TEST(Subsystems, ExpandedModelNamesItsFilesSoItLoadsAnywhere) {
  const std::string path = testing::model_path("driven_wheel.json");
  const Model a = load_model_file(path);
  const Model b = load_model_text(expanded_model_text(path), "/nonexistent-folder/expanded.json");
  ASSERT_EQ(b.forces.size(), a.forces.size());
  EXPECT_EQ(b.forces[0].tire_coefficients, a.forces[0].tire_coefficients);
  EXPECT_EQ(b.forces[0].tire_file.front(), '/');
}

TEST(Subsystems, RightSideMirrorsTheLeft) {
  Json m = corner();
  m["subsystems"][0]["side"] = "both";
  const Model model = load_model_text(m.dump(), "t.json");
  ASSERT_EQ(model.subsystems.size(), 2u);
  EXPECT_EQ(model.subsystems[0].name, "front_left");
  EXPECT_EQ(model.subsystems[1].name, "front_right");
  EXPECT_EQ(model.subsystems[1].side, "right");
  const Model literal = apply_parameters(model, default_parameter_values(model));
  KcOptions o;
  o.subsystem = "front_left";
  const KcCurves left = kinematics_and_compliance(literal, o);
  o.subsystem = "front_right";
  const KcCurves right = kinematics_and_compliance(literal, o);
  ASSERT_EQ(left.rows.size(), right.rows.size());
  for (std::size_t r = 0; r < left.rows.size(); ++r)
    for (std::size_t c = 0; c < left.rows[r].size(); ++c) {
      const double expected = left.columns[c] == "wheel_center_y" ? -left.rows[r][c] : left.rows[r][c];
      EXPECT_NEAR(right.rows[r][c], expected, 1e-9 * std::max(1.0, std::fabs(expected))) << left.columns[c];
    }
  // Toe and camber change over the sweep, so the comparison means something.
  EXPECT_GT(std::fabs(left.rows.front()[2] - left.rows.back()[2]), 1e-2);
}

TEST(SubsystemErrors, MissingHardpoint) {
  Json m = corner();
  m["subsystems"][0]["hardpoints"].erase("uca_rear");
  EXPECT_TRUE(fails_with(m, "/subsystems/0/hardpoints/uca_rear", "missing required key"));
}

TEST(SubsystemErrors, CoincidentHardpoints) {
  Json m = corner();
  m["subsystems"][0]["hardpoints"]["lca_rear"] = m["subsystems"][0]["hardpoints"]["lca_front"];
  EXPECT_TRUE(fails_with(m, "/subsystems/0/hardpoints/lca_rear",
                         "hardpoints 'lca_front' and 'lca_rear' coincide at (0.223, 0.307, 0)"));
}

TEST(SubsystemErrors, TieRodOfZeroLength) {
  Json m = corner();
  m["subsystems"][0]["hardpoints"]["tierod_upright"] = Json::array({-0.25, 0.448, 0.054});
  EXPECT_TRUE(fails_with(m, "/subsystems/0/hardpoints/tierod_upright", "the tie rod would have zero length"));
}

TEST(SubsystemErrors, TieRodOfZeroLengthForOneInstance) {
  // Coincident only at an instance's parameter value: the per-instance check refuses the design length.
  const Model model = load_model_file(testing::model_path("double_wishbone_corner.json"));
  Json m = corner();
  m["parameters"]["tro_x"] = -0.176;
  m["subsystems"][0]["hardpoints"]["tierod_upright"] = Json::array({"$tro_x", 0.448, 0.054});
  m["subsystems"][0]["hardpoints"]["tierod_chassis"] = Json::array({-0.25, 0.448, 0.054});
  const Model loaded = load_model_text(m.dump(), "t.json");
  std::vector<double> values = default_parameter_values(loaded);
  values.back() = -0.25;
  try {
    validate_instance_values(loaded, values, "instance 4");
    FAIL() << "accepted a tie rod of zero length";
  } catch (const ModelError& e) {
    EXPECT_NE(e.reason().find("instance 4: the design length"), std::string::npos) << e.what();
    EXPECT_NE(e.reason().find("'tro_x'"), std::string::npos) << e.what();
  }
}

TEST(SubsystemErrors, UnknownTemplate) {
  Json m = corner();
  m["subsystems"][0]["template"] = "double_wishbones";
  EXPECT_TRUE(fails_with(m, "/subsystems/0/template",
                         "unknown template 'double_wishbones' (expected one of: double_wishbone, macpherson, five_link, anti_roll_bar)"));
}

TEST(SubsystemErrors, UnknownChassisKeyAndTakenName) {
  Json m = corner();
  m["subsystems"][0]["chassis"] = "frame";
  EXPECT_TRUE(fails_with(m, "/subsystems/0/chassis", "unknown chassis body 'frame'"));
  m = corner();
  m["subsystems"][0]["anti_roll_bar"] = true;
  EXPECT_TRUE(fails_with(m, "/subsystems/0/anti_roll_bar", "unknown key 'anti_roll_bar'"));
  m = corner();
  m["bodies"].push_back({{"name", "front_lca"}, {"mass", 1}, {"inertia", {{"ixx", 1}, {"iyy", 1}, {"izz", 1}}}});
  EXPECT_TRUE(fails_with(m, "/subsystems/0/name", "would add bodies entry 'front_lca', but that name is already taken"));
  m = corner();
  m["subsystems"][0]["hardpoints"]["wheel_center"][1] = "$wheel_y";
  EXPECT_TRUE(fails_with(m, "/subsystems/0/hardpoints/wheel_center/1", "undefined parameter 'wheel_y'"));
}

TEST(SubsystemErrors, ErrorsInGeneratedPartsNameTheSubsystem) {
  Json m = corner();
  m["subsystems"][0]["upright"]["mass"] = -19.45;
  EXPECT_TRUE(fails_with(m, "/subsystems/0", "part 'front_upright' of subsystem 'front' (/bodies/3/mass in the "
                                             "expanded model, see `myriad expand`): mass must be positive"));
}

}  // namespace subsystems_test
}  // namespace myriad

namespace myriad {
namespace subsystems_test {

int degrees_of_freedom(const Model& m) {
  int nv = 0, equations = 0;
  for (const Joint& j : m.joints) {
    switch (j.type) {
      case JointType::revolute: case JointType::prismatic: nv += 1; break;
      case JointType::universal: case JointType::cylindrical: nv += 2; break;
      case JointType::planar: case JointType::spherical: nv += 3; break;
      case JointType::free: nv += 6; break;
      case JointType::fixed: break;
    }
  }
  for (const Loop& l : m.loops) equations += loop_equation_count(l.type);
  return nv - equations;
}

TEST(Subsystems, EveryCornerTemplateLeavesTheWheelTravelAsItsOneFreedom) {
  // The chassis slide plus one travel per corner; the anti-roll bar adds none.
  EXPECT_EQ(degrees_of_freedom(load_model_file(testing::model_path("double_wishbone_corner.json"))), 2);
  EXPECT_EQ(degrees_of_freedom(load_model_file(testing::model_path("macpherson_corner.json"))), 2);
  EXPECT_EQ(degrees_of_freedom(load_model_file(testing::model_path("five_link_corner.json"))), 2);
  EXPECT_EQ(degrees_of_freedom(load_model_file(testing::model_path("half_car.json"))), 4);
  EXPECT_EQ(degrees_of_freedom(load_model_file(testing::model_path("full_car.json"))), 7);
  // Seed 001 Table 9's rear rods: 2, 2, 4, 1 and 3 kg, as rod loops of design length.
  const Model five = load_model_file(testing::model_path("five_link_corner.json"));
  std::vector<double> masses;
  for (const Loop& l : five.loops) {
    EXPECT_EQ(l.type, LoopType::rod);
    EXPECT_TRUE(l.length_from_design);
    masses.push_back(l.mass.value);
  }
  EXPECT_EQ(masses, (std::vector<double>{2, 2, 4, 1, 3}));
}

TEST(Subsystems, MacPhersonAndFiveLinkRunOnTheKcRig) {
  for (const char* file : {"macpherson_corner.json", "five_link_corner.json"}) {
    SCOPED_TRACE(file);
    const Model m = load_model_file(testing::model_path(file));
    const KcCurves k = kinematics_and_compliance(apply_parameters(m, default_parameter_values(m)), {});
    const std::vector<double>& design = k.rows[k.rows.size() / 2];
    EXPECT_EQ(design[0], 0.0);
    EXPECT_NEAR(design[1], 0.0, 1e-15);  // toe
    EXPECT_NEAR(design[2], 0.0, 1e-15);  // camber
    // Bump camber goes negative (top inward) on both, as on real cars.
    EXPECT_LT(k.rows.back()[2], -1e-3);
    EXPECT_GT(k.rows.front()[2], 1e-3);
    for (const auto& row : k.rows)
      for (double v : row) EXPECT_TRUE(std::isfinite(v));
  }
}

TEST(Subsystems, LocationMovesTheCornerAndNothingElse) {
  Json m = corner();
  m["subsystems"][0]["location"] = Json::array({1.5, 0, 0.25});
  m["subsystems"][0].erase("tire");
  const Model moved = load_model_text(m.dump(), "t.json");
  m = corner();
  m["subsystems"][0].erase("tire");
  const Model plain = load_model_text(m.dump(), "t.json");
  const KcCurves a = kinematics_and_compliance(apply_parameters(plain, default_parameter_values(plain)), {});
  const KcCurves b = kinematics_and_compliance(apply_parameters(moved, default_parameter_values(moved)), {});
  for (std::size_t r = 0; r < a.rows.size(); ++r) {
    EXPECT_NEAR(b.rows[r][1], a.rows[r][1], 1e-12);  // toe
    EXPECT_NEAR(b.rows[r][2], a.rows[r][2], 1e-12);  // camber
    EXPECT_NEAR(b.rows[r][3], a.rows[r][3] + 1.5, 1e-12);
    EXPECT_NEAR(b.rows[r][5], a.rows[r][5] + 0.25, 1e-12);
    EXPECT_NEAR(b.rows[r][7], a.rows[r][7], 1e-9);  // motion ratio
  }
}

TEST(Subsystems, AntiRollBarJoinsBothSidesOfACorner) {
  const Model m = load_model_file(testing::model_path("full_car.json"));
  const Subsystem* arb = nullptr;
  for (const Subsystem& s : m.subsystems)
    if (s.template_name == "anti_roll_bar") arb = &s;
  ASSERT_NE(arb, nullptr);
  EXPECT_EQ(arb->side, "both");
  for (const Loop& l : m.loops)
    if (l.name == "front_arb_droplink_left" || l.name == "front_arb_droplink_right") {
      EXPECT_EQ(l.type, LoopType::rod);
      EXPECT_NEAR(l.length.value, 0.16, 1e-15);
      EXPECT_EQ(m.bodies[static_cast<std::size_t>(l.body2)].name,
                l.name == "front_arb_droplink_left" ? "front_left_lca" : "front_right_lca");
    }
  // The right track of the random road is the right corners' own.
  for (const ForceElement& f : m.forces)
    if (f.name == "front_right_tire" || f.name == "rear_right_tire")
      EXPECT_EQ(f.end2.motion.track, 1) << f.name;
}

TEST(SubsystemErrors, AntiRollBarNeedsBothSides) {
  Json m = Json::parse(std::ifstream(testing::model_path("full_car.json")));
  m["subsystems"][2]["side"] = "right";
  EXPECT_TRUE(fails_with(m, "/subsystems/2/side", "an anti_roll_bar spans both sides"));
  m = Json::parse(std::ifstream(testing::model_path("full_car.json")));
  m["subsystems"][2]["corner"] = "middle";
  EXPECT_TRUE(fails_with(m, "/subsystems/2", "part 'front_arb_droplink_left' of subsystem 'front_arb'"));
}

}  // namespace subsystems_test
}  // namespace myriad

namespace myriad {
namespace subsystems_test {

TEST(SubsystemErrors, KcRigRefusals) {
  const Model m = load_model_file(testing::model_path("double_wishbone_corner.json"));
  const Model literal = apply_parameters(m, default_parameter_values(m));
  KcOptions o;
  o.subsystem = "rear";
  EXPECT_THROW(
      {
        try {
          kinematics_and_compliance(literal, o);
        } catch (const std::invalid_argument& e) {
          EXPECT_STREQ(e.what(), "no subsystem 'rear' (the model has: front)");
          throw;
        }
      },
      std::invalid_argument);
  o = {};
  o.travel = 0.0;
  EXPECT_THROW(kinematics_and_compliance(literal, o), std::invalid_argument);
  o = {};
  o.points = 1;
  EXPECT_THROW(kinematics_and_compliance(literal, o), std::invalid_argument);
  const Model plain = load_model_file(testing::model_path("quarter_car.json"));
  EXPECT_THROW(kinematics_and_compliance(apply_parameters(plain, default_parameter_values(plain)), {}),
               std::invalid_argument);
}

}  // namespace subsystems_test
}  // namespace myriad

namespace myriad {
namespace subsystems_test {

KcCurves full_car_kc(const std::string& corner, double k_arb) {
  const Model m = load_model_file(testing::model_path("full_car.json"));
  std::vector<double> values = default_parameter_values(m);
  for (std::size_t p = 0; p < m.parameters.size(); ++p)
    if (m.parameters[p].name == "k_arb") values[p] = k_arb;
  KcOptions o;
  o.subsystem = corner;
  o.points = 9;
  return kinematics_and_compliance(apply_parameters(m, values), o);
}

TEST(Subsystems, KcRigTwistsTheAntiRollBarOfTheWheelItPushes) {
  // Kinematics do not depend on the bar; the wheel it pushes loads the bar (the other wheel is held), the bar is
  // untwisted at the design position and stiffens the front wheel, not the rear one.
  const KcCurves soft = full_car_kc("front_left", 0.0), bar = full_car_kc("front_left", 5000.0);
  const KcCurves rear_soft = full_car_kc("rear_left", 0.0), rear_bar = full_car_kc("rear_left", 5000.0);
  const std::size_t middle = soft.rows.size() / 2;
  for (std::size_t r = 0; r < soft.rows.size(); ++r) {
    for (std::size_t c : {1, 2, 3, 4, 5, 6, 7, 10}) EXPECT_NEAR(bar.rows[r][c], soft.rows[r][c], 1e-12) << soft.columns[c];
    const double s = soft.rows[r][0], extra = bar.rows[r][8] - soft.rows[r][8];
    if (r == middle) EXPECT_NEAR(extra, 0.0, 1e-9);
    else EXPECT_GT(extra * s, 0.0) << "travel " << s;  // the bar pushes back both ways
    EXPECT_GT(bar.rows[r][9], soft.rows[r][9] + 1e3);
    EXPECT_EQ(rear_bar.rows[r][8], rear_soft.rows[r][8]);
  }
  std::printf("front wheel rate at design: %.0f N/m without the bar, %.0f with it\n", soft.rows[middle][9],
              bar.rows[middle][9]);
}

}  // namespace subsystems_test
}  // namespace myriad

namespace myriad {
namespace subsystems_test {

// The double wishbone with its upper arm on a bushing (seed 000 sec. 5.2's HMMWV), as models/hmmwv.json mounts it:
// the bushing from uca_rear, in the arm's plane and perpendicular to its pivot axis, 0.1 m long.
Json bushed_corner(double stiffness, double damping) {
  Json m = corner();
  Json& c = m["subsystems"][0];
  c["hardpoints"]["uca_bushing_chassis"] = Json::array({-0.2839, 0.3795, 0.2033});
  c["uca_bushing"] = Json{{"stiffness", stiffness}, {"damping", damping}};
  return m;
}

Vec3<double> as_vec(const Vector3& v) { return {v[0].value, v[1].value, v[2].value}; }

TEST(Subsystems, UcaBushingMountsTheUpperArmOnAUniversalWhoseSwingTheBushingHolds) {
  const Model model = load_model_text(bushed_corner(2e7, 2e6).dump(), "t.json");
  EXPECT_EQ(degrees_of_freedom(model), 3);  // the slide, the wheel travel and the arm's swing
  const Joint* mount = nullptr;
  for (const Joint& j : model.joints)
    if (j.name == "front_uca_mount") mount = &j;
  ASSERT_NE(mount, nullptr);
  EXPECT_EQ(mount->type, JointType::universal);
  const Vec3<double> front{-0.048, 0.446, 0.245}, rear{-0.268, 0.478, 0.196}, bushing{-0.2839, 0.3795, 0.2033};
  const Vec3<double> pivot = as_vec(mount->axis), swing = as_vec(mount->axis2);
  EXPECT_LT(norm(cross(pivot, rear - front)), 1e-12 * norm(pivot) * norm(rear - front));
  // The swing moves uca_rear in the plane of the pivot axis and the bushing, across the axis: the bushing (here
  // 89.98 degrees to the axis) holds it, as a rear bearing would.
  const Vec3<double> r = rear - front, line = bushing - rear, motion = cross(swing, r);
  EXPECT_LT(std::fabs(dot(motion, r)), 1e-12 * norm(motion) * norm(r));
  EXPECT_LT(std::fabs(dot(motion, cross(r, line))), 1e-12 * norm(motion) * norm(cross(r, line)));
  EXPECT_GT(dot(motion, line), 0.999 * norm(motion) * norm(line));
  const ForceElement* tsda = nullptr;
  for (const ForceElement& f : model.forces)
    if (f.name == "front_uca_bushing") tsda = &f;
  ASSERT_NE(tsda, nullptr);
  EXPECT_DOUBLE_EQ(tsda->free_length.value, norm(line));
  EXPECT_EQ(tsda->stiffness.value, 2e7);

  // Over the corner's bump the stiff bushing lets the arm swing by a few micro-radians: the wheel follows the
  // revolute-mounted corner to a tenth of a millimetre.
  const std::vector<double> times = {0.0, 0.45, 0.55, 0.6, 0.7, 0.9, 1.2};
  RunSpec spec;
  spec.method = Method::rn4;
  spec.control.rtol = spec.control.atol = 1e-7;
  const Model plain = load_model_text(corner().dump(), "t.json");
  Model bushed_with_swing = model;
  Output swing_angle;
  swing_angle.name = "swing";
  swing_angle.kind = OutputKind::joint_coordinate;
  swing_angle.joint = static_cast<int>(mount - model.joints.data());
  swing_angle.index = 1;
  bushed_with_swing.outputs.push_back(swing_angle);
  const EnsembleResult a = testing::run_model(plain, spec, times), b = testing::run_model(bushed_with_swing, spec, times);
  ASSERT_EQ(a.status[0], InstanceStatus::ok);
  ASSERT_EQ(b.status[0], InstanceStatus::ok);
  const auto index_of = [](const Model& m, const std::string& name) {
    for (std::size_t s = 0; s < m.outputs.size(); ++s)
      if (m.outputs[s].name == name) return static_cast<int>(s);
    return -1;
  };
  const int za = index_of(plain, "front_wheel_z"), zb = index_of(bushed_with_swing, "front_wheel_z");
  ASSERT_GE(za, 0);
  ASSERT_GE(zb, 0);
  double travel = 0.0;
  for (int k = 0; k < static_cast<int>(times.size()); ++k) {
    travel = std::max(travel, std::fabs(a.value(0, k, za) - a.value(0, 0, za)));
    EXPECT_NEAR(b.value(0, k, zb), a.value(0, k, za), 1e-4) << times[k];
    EXPECT_LT(std::fabs(b.value(0, k, b.n_signals - 1)), 1e-4) << times[k];
  }
  EXPECT_GT(travel, 0.01) << "the bump moves the wheel, so the comparison means something";
}

TEST(Subsystems, TierodBodyPutsTheTieRodsInnerEndOnARack) {
  Json m = bushed_corner(2e7, 2e6);
  m["bodies"].push_back(Json{{"name", "rack"}, {"mass", 9}, {"inertia", {{"ixx", 0.6}, {"iyy", 0.01}, {"izz", 0.6}}}});
  m["joints"].push_back(Json{{"name", "rack_slide"}, {"type", "prismatic"}, {"parent", "chassis"}, {"child", "rack"},
                             {"axis", {0, 1, 0}}});
  m["drivers"] = Json::array({Json{{"name", "straight"}, {"joint", "rack_slide"},
                                   {"function", {{"type", "constant"}, {"value", 0}}}}});
  m["subsystems"][0]["tierod_body"] = "rack";
  const Model model = load_model_text(m.dump(), "t.json");
  const Loop* tierod = nullptr;
  for (const Loop& l : model.loops)
    if (l.name == "front_tierod") tierod = &l;
  ASSERT_NE(tierod, nullptr);
  EXPECT_EQ(model.bodies[static_cast<std::size_t>(tierod->body1)].name, "rack");
  m["subsystems"][0]["tierod_body"] = "no_such_body";
  EXPECT_THROW(load_model_text(m.dump(), "t.json"), ModelError);
}

TEST(SubsystemErrors, UcaBushingRefusals) {
  Json m = bushed_corner(2e7, 2e6);
  m["subsystems"][0]["hardpoints"].erase("uca_bushing_chassis");
  EXPECT_TRUE(fails_with(m, "/subsystems/0/hardpoints", "uca_bushing_chassis"));
  m = bushed_corner(2e7, 2e6);
  m["parameters"]["x_rear"] = Json{{"value", -0.268}};
  m["subsystems"][0]["hardpoints"]["uca_rear"][0] = "$x_rear";
  EXPECT_TRUE(fails_with(m, "/subsystems/0/hardpoints/uca_rear", "plain numbers"));
  m = bushed_corner(2e7, 2e6);  // along the pivot axis: it would hold nothing
  m["subsystems"][0]["hardpoints"]["uca_bushing_chassis"] = Json::array({-0.488, 0.51, 0.147});
  EXPECT_TRUE(fails_with(m, "/subsystems/0/hardpoints/uca_bushing_chassis", "pivot axis"));
  m = bushed_corner(2e7, 2e6);
  m["subsystems"][0]["uca_bushing"]["preload"] = 1;
  EXPECT_TRUE(fails_with(m, "/subsystems/0/uca_bushing/preload", ""));
}

// A spinning wheel's spin_velocity is its rate about the left corner's +y: both wheels of a two-sided corner then
// turn the same way about the world (rolling forward), the right one negatively about its own axis -y, for every
// instance's parameter values.
TEST(Subsystems, SpinVelocityRollsBothWheelsForward) {
  Json m = corner();
  m["parameters"]["v"] = Json{{"value", 10.0}};
  m["subsystems"][0]["side"] = "both";
  m["subsystems"][0]["wheel"]["spin"] = true;
  m["subsystems"][0]["wheel"]["spin_velocity"] = "3 * $v";
  const Model model = load_model_text(m.dump(), "t.json");
  std::vector<double> values = default_parameter_values(model);
  values[model.parameters.size() - 1] = 20.0;
  const Model literal = apply_parameters(model, values);
  int found = 0;
  for (const Joint& j : literal.joints) {
    const bool left = j.name == "front_left_wheel_mount", right = j.name == "front_right_wheel_mount";
    if (!left && !right) continue;
    ++found;
    ASSERT_EQ(j.initial_velocity.size(), 1u) << j.name;
    const double axis_y = j.axis[1].value, rate = j.initial_velocity[0].value;
    EXPECT_EQ(axis_y, left ? 1.0 : -1.0) << j.name;
    EXPECT_EQ(rate, left ? 60.0 : -60.0) << j.name;
    EXPECT_EQ(axis_y * rate, 60.0) << j.name << ": the world spin about +y";
  }
  EXPECT_EQ(found, 2);
  m["subsystems"][0]["wheel"].erase("spin");
  EXPECT_TRUE(fails_with(m, "/subsystems/0/wheel/spin_velocity", "needs \"spin\": true"));
}

}  // namespace subsystems_test
}  // namespace myriad
