// Every error the model format promises: each test breaks one thing in a small valid model and checks the
// exact JSON pointer of the ModelError and the key part of its reason. Also the per-instance re-check of
// parameter values (validate_instance_values).
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "model/model.hpp"
#include "model/model_loader.hpp"
#include "model/model_validation.hpp"

namespace myriad {
namespace loader_errors_test {

using Json = nlohmann::ordered_json;

// Two bodies on a chain of revolute joints; tests break one piece of it.
Json base_model() {
  return Json::parse(R"({
    "format": "myriad-model", "version": 1,
    "parameters": {"m": 2.0, "k": 10},
    "bodies": [
      {"name": "a", "mass": 1, "inertia": {"ixx": 1, "iyy": 1, "izz": 1}},
      {"name": "b", "mass": "$m", "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}
    ],
    "joints": [
      {"name": "j0", "type": "revolute", "parent": "ground", "child": "a", "axis": [0, 0, 1]},
      {"name": "j1", "type": "revolute", "parent": "a", "child": "b", "axis": [0, 0, 1]}
    ]
  })");
}

// The base model with `forces` (or another top-level key) set from JSON text.
Json with(const std::string& key, const std::string& json) {
  Json m = base_model();
  m[key] = Json::parse(json);
  return m;
}

std::string describe(const ModelError& e) { return "'" + std::string(e.what()) + "'"; }

::testing::AssertionResult text_fails_with(const std::string& text, const std::string& pointer,
                                           const std::string& reason_part) {
  try {
    load_model_text(text, "t.json");
  } catch (const ModelError& e) {
    if (e.file() != "t.json") return ::testing::AssertionFailure() << "wrong file in " << describe(e);
    if (e.pointer() != pointer)
      return ::testing::AssertionFailure()
             << "pointer '" << e.pointer() << "', expected '" << pointer << "' in " << describe(e);
    if (e.reason().find(reason_part) == std::string::npos)
      return ::testing::AssertionFailure() << "reason lacks '" << reason_part << "' in " << describe(e);
    return ::testing::AssertionSuccess();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw a non-ModelError: " << e.what();
  }
  return ::testing::AssertionFailure() << "loaded without error";
}

::testing::AssertionResult fails_with(const Json& model, const std::string& pointer,
                                      const std::string& reason_part) {
  return text_fails_with(model.dump(), pointer, reason_part);
}

TEST(LoaderErrors, base_model_is_valid) { EXPECT_NO_THROW(load_model_text(base_model().dump(), "t.json")); }

TEST(LoaderErrors, message_names_file_pointer_and_reason) {
  Json m = base_model();
  m["bodies"][0]["mass"] = -1;
  try {
    load_model_text(m.dump(), "models/bad.json");
    FAIL() << "loaded";
  } catch (const ModelError& e) {
    EXPECT_STREQ(e.what(), "models/bad.json: /bodies/0/mass: mass must be positive and finite, got -1");
  }
}

// ---- JSON and document level ----

TEST(LoaderErrors, malformed_json_points_at_root_with_position) {
  EXPECT_TRUE(text_fails_with("{\"format\": \"myriad-model\",\n \"version\": }", "/",
                              "malformed JSON: parse error at line 2"));
  EXPECT_TRUE(text_fails_with("{\"format\": \"myriad-model\",\n \"version\": }", "/", "(byte "));
  EXPECT_TRUE(text_fails_with("", "/", "malformed JSON"));
}

TEST(LoaderErrors, document_must_be_an_object) {
  EXPECT_TRUE(text_fails_with("[1, 2]", "/", "expected an object, got array"));
}

TEST(LoaderErrors, format_must_be_myriad_model) {
  Json m = base_model();
  m["format"] = "urdf";
  EXPECT_TRUE(fails_with(m, "/format", "unsupported format 'urdf' (expected 'myriad-model')"));
}

TEST(LoaderErrors, version_must_be_1) {
  Json m = base_model();
  m["version"] = 2;
  EXPECT_TRUE(fails_with(m, "/version", "unsupported version 2 (this build reads version 1)"));
  m["version"] = 1.5;
  EXPECT_TRUE(fails_with(m, "/version", "expected the integer 1, got number"));
}

TEST(LoaderErrors, missing_required_top_level_key) {
  Json m = base_model();
  m.erase("format");
  EXPECT_TRUE(fails_with(m, "/format", "missing required key 'format'"));
  m = base_model();
  m.erase("joints");
  EXPECT_TRUE(fails_with(m, "/joints", "missing required key 'joints'"));
}

TEST(LoaderErrors, unknown_top_level_key_lists_expected_keys) {
  Json m = base_model();
  m["bodys"] = Json::array();
  EXPECT_TRUE(fails_with(m, "/bodys",
                         "unknown key 'bodys' (expected one of: format, version, name, description, gravity, "
                         "parameters, bodies, joints, forces, outputs, simulation, loops, drivers, independent, "
                         "inputs, kpis, subsystems, rig, reference_counts, rod_inertia)"));
}

TEST(LoaderErrors, unknown_body_key_lists_expected_keys) {
  Json m = base_model();
  m["bodies"][0]["mosss"] = 1;
  EXPECT_TRUE(fails_with(m, "/bodies/0/mosss",
                         "unknown key 'mosss' (expected one of: name, mass, center_of_mass, inertia)"));
}

TEST(LoaderErrors, unknown_nested_key) {
  Json m = base_model();
  m["bodies"][1]["inertia"]["ixxx"] = 1;
  EXPECT_TRUE(fails_with(m, "/bodies/1/inertia/ixxx", "unknown key 'ixxx' for an inertia"));
  m = base_model();
  m["joints"][0]["parent_frame"] = Json::parse(R"({"orign": [0, 0, 0]})");
  EXPECT_TRUE(fails_with(m, "/joints/0/parent_frame/orign", "unknown key 'orign' for a frame"));
}

TEST(LoaderErrors, key_not_used_by_the_joint_type_is_unknown) {
  Json m = base_model();
  m["joints"][1]["type"] = "spherical";
  EXPECT_TRUE(
      fails_with(m, "/joints/1/axis",
                 "unknown key 'axis' for a spherical joint (expected one of: name, type, parent, child, "
                 "parent_frame, child_frame, position, velocity)"));
}

TEST(LoaderErrors, duplicate_key_in_an_object) {
  const std::string text = R"({"format": "myriad-model", "version": 1,
    "bodies": [{"name": "a", "mass": 1, "mass": 2, "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}],
    "joints": [{"name": "j", "type": "free", "parent": "ground", "child": "a"}]})";
  EXPECT_TRUE(text_fails_with(text, "/bodies/0/mass", "duplicate key 'mass'"));
}

TEST(LoaderErrors, wrong_json_type_names_the_expected_type) {
  Json m = base_model();
  m["bodies"][0]["name"] = 3;
  EXPECT_TRUE(fails_with(m, "/bodies/0/name", "expected a string, got number"));
  m = base_model();
  m["bodies"] = Json::object();
  EXPECT_TRUE(fails_with(m, "/bodies", "expected an array, got object"));
  m = base_model();
  m["bodies"][0]["mass"] = true;
  EXPECT_TRUE(
      fails_with(m, "/bodies/0/mass", "expected a number or a \"$parameter\" reference, got boolean"));
  m = base_model();
  m["joints"][0]["axis"] = Json::parse("[0, 1]");
  EXPECT_TRUE(fails_with(m, "/joints/0/axis", "expected an array of 3 numbers, got 2 elements"));
}

TEST(LoaderErrors, missing_required_key) {
  Json m = base_model();
  m["bodies"][1].erase("mass");
  EXPECT_TRUE(fails_with(m, "/bodies/1/mass", "missing required key 'mass'"));
  m = base_model();
  m["joints"][0].erase("axis");
  EXPECT_TRUE(fails_with(m, "/joints/0/axis", "missing required key 'axis'"));
}

TEST(LoaderErrors, model_needs_a_body) {
  Json m = base_model();
  m["bodies"] = Json::array();
  m["joints"] = Json::array();
  EXPECT_TRUE(fails_with(m, "/bodies", "a model needs at least one body"));
}

// ---- types ----

TEST(LoaderErrors, unknown_joint_type_lists_valid_ones) {
  Json m = base_model();
  m["joints"][1]["type"] = "hinge";
  EXPECT_TRUE(
      fails_with(m, "/joints/1/type",
                 "unknown joint type 'hinge' (expected one of: revolute, prismatic, cylindrical, universal, "
                 "spherical, planar, free, fixed)"));
}

TEST(LoaderErrors, unknown_force_type_lists_valid_ones) {
  EXPECT_TRUE(fails_with(with("forces", R"([{"name": "f", "type": "spring"}])"), "/forces/0/type",
                         "unknown force type 'spring' (expected one of: tsda, rsda, joint_actuator, bushing, tire)"));
}

TEST(LoaderErrors, unknown_output_type_lists_valid_ones) {
  EXPECT_TRUE(fails_with(with("outputs", R"([{"name": "o", "type": "energy"}])"), "/outputs/0/type",
                         "unknown output type 'energy' (expected one of: joint_coordinate, joint_velocity, "
                         "joint_acceleration, body_position, body_orientation, body_velocity, spring_length, "
                         "spring_force, kinetic_energy, potential_energy, total_energy, damper_force, bushing_force, "
                         "tire_force, tire_slip)"));
}

TEST(LoaderErrors, unknown_time_function_type_lists_valid_ones) {
  EXPECT_TRUE(fails_with(
      with("forces",
           R"([{"name": "f", "type": "joint_actuator", "joint": "j0", "function": {"type": "square"}}])"),
      "/forces/0/function/type",
      "unknown time function type 'square' (expected one of: constant, step, ramp, sine, smooth_step, "
      "half_sine_bump, table, input, iso8608_road, haversine_bump, sine_sweep, velocity_sweep, profile, cylinder_bump)"));
}

TEST(LoaderErrors, time_function_missing_coefficient) {
  EXPECT_TRUE(fails_with(with("forces", R"([{"name": "f", "type": "joint_actuator", "joint": "j0",
                                           "function": {"type": "step", "t0": 1, "before": 0}}])"),
                         "/forces/0/function/after", "missing required key 'after'"));
}

TEST(LoaderErrors, unknown_rotation_type_lists_valid_ones) {
  Json m = base_model();
  m["joints"][0]["parent_frame"] = Json::parse(R"({"rotation": {"euler": [0, 0, 0]}})");
  EXPECT_TRUE(
      fails_with(m, "/joints/0/parent_frame/rotation/euler",
                 "unknown rotation type 'euler' (a rotation is one of: {\"axis\", \"angle\"}, {\"rpy\"}, "
                 "{\"quaternion\"}, {\"matrix\"})"));
}

TEST(LoaderErrors, rotation_gives_exactly_one_form) {
  Json m = base_model();
  m["joints"][0]["child_frame"] =
      Json::parse(R"({"rotation": {"rpy": [0, 0, 0], "quaternion": [1, 0, 0, 0]}})");
  EXPECT_TRUE(fails_with(m, "/joints/0/child_frame/rotation", "got 'rpy' and 'quaternion'"));
  m["joints"][0]["child_frame"] = Json::parse(R"({"rotation": {"axis": [0, 0, 1]}})");
  EXPECT_TRUE(fails_with(m, "/joints/0/child_frame/rotation/angle", "missing required key 'angle'"));
}

// ---- names ----

TEST(LoaderErrors, missing_name) {
  Json m = base_model();
  m["joints"][1].erase("name");
  EXPECT_TRUE(fails_with(m, "/joints/1/name", "missing required key 'name'"));
  m = base_model();
  m["bodies"][0]["name"] = "";
  EXPECT_TRUE(fails_with(m, "/bodies/0/name", "name must not be empty"));
}

TEST(LoaderErrors, duplicate_body_name) {
  Json m = base_model();
  m["bodies"][1]["name"] = "a";
  EXPECT_TRUE(fails_with(m, "/bodies/1/name", "duplicate body name 'a' (first at /bodies/0)"));
}

TEST(LoaderErrors, duplicate_joint_name) {
  Json m = base_model();
  m["joints"][1]["name"] = "j0";
  EXPECT_TRUE(fails_with(m, "/joints/1/name", "duplicate joint name 'j0' (first at /joints/0)"));
}

TEST(LoaderErrors, duplicate_force_name) {
  EXPECT_TRUE(fails_with(with("forces", R"([{"name": "r", "type": "rsda", "joint": "j0"},
                                            {"name": "r", "type": "rsda", "joint": "j1"}])"),
                         "/forces/1/name", "duplicate force name 'r' (first at /forces/0)"));
}

TEST(LoaderErrors, duplicate_output_name) {
  EXPECT_TRUE(fails_with(with("outputs", R"([{"name": "E", "type": "total_energy"},
                                             {"name": "E", "type": "kinetic_energy"}])"),
                         "/outputs/1/name", "duplicate output name 'E' (first at /outputs/0)"));
}

TEST(LoaderErrors, duplicate_parameter_name) {
  const std::string text = R"({"format": "myriad-model", "version": 1, "parameters": {"m": 1, "m": 2},
    "bodies": [{"name": "a", "mass": "$m", "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}],
    "joints": [{"name": "j", "type": "free", "parent": "ground", "child": "a"}]})";
  EXPECT_TRUE(text_fails_with(text, "/parameters/m", "duplicate key 'm'"));
}

TEST(LoaderErrors, ground_is_a_reserved_body_name) {
  Json m = base_model();
  m["bodies"][0]["name"] = "ground";
  EXPECT_TRUE(fails_with(m, "/bodies/0/name", "'ground' is reserved for the fixed world frame"));
}

TEST(LoaderErrors, invalid_parameter_name) {
  Json m = base_model();
  m["parameters"]["2fast"] = 1;
  EXPECT_TRUE(fails_with(m, "/parameters/2fast", "invalid parameter name '2fast'"));
  m = base_model();
  m["parameters"]["a/b"] = 1;
  EXPECT_TRUE(fails_with(m, "/parameters/a~1b", "invalid parameter name 'a/b'"));
}

TEST(LoaderErrors, parameter_value_must_be_a_plain_number) {
  Json m = base_model();
  m["parameters"]["k"] = "$m";
  EXPECT_TRUE(fails_with(m, "/parameters/k", "expected a number or {\"value\", \"unit\", \"description\"}"));
  m["parameters"]["k"] = Json::parse(R"({"unit": "N/m"})");
  EXPECT_TRUE(fails_with(m, "/parameters/k/value", "missing required key 'value'"));
}

// ---- references ----

TEST(LoaderErrors, unknown_body_reference) {
  Json m = base_model();
  m["joints"][1]["parent"] = "c";
  EXPECT_TRUE(fails_with(m, "/joints/1/parent", "unknown body 'c' (known: ground, a, b)"));
  m = base_model();
  m["joints"][1]["child"] = "bb";
  EXPECT_TRUE(fails_with(m, "/joints/1/child", "unknown body 'bb' (known: a, b)"));
}

TEST(LoaderErrors, unknown_body_reference_in_a_force_and_an_output) {
  EXPECT_TRUE(fails_with(with("forces", R"([{"name": "s", "type": "tsda", "body1": "x", "body2": "a"}])"),
                         "/forces/0/body1", "unknown body 'x'"));
  EXPECT_TRUE(fails_with(
      with("outputs", R"([{"name": "z", "type": "body_position", "body": "c", "component": "z"}])"),
      "/outputs/0/body", "unknown body 'c'"));
}

TEST(LoaderErrors, unknown_joint_reference) {
  EXPECT_TRUE(fails_with(with("outputs", R"([{"name": "q", "type": "joint_coordinate", "joint": "j7"}])"),
                         "/outputs/0/joint", "unknown joint 'j7' (known: j0, j1)"));
  EXPECT_TRUE(fails_with(with("forces", R"([{"name": "r", "type": "rsda", "joint": "jx"}])"),
                         "/forces/0/joint", "unknown joint 'jx'"));
}

TEST(LoaderErrors, unknown_force_reference) {
  EXPECT_TRUE(fails_with(with("outputs", R"([{"name": "l", "type": "spring_length", "force": "s"}])"),
                         "/outputs/0/force", "unknown force 's' (none are defined)"));
}

TEST(LoaderErrors, output_body_must_not_be_ground) {
  EXPECT_TRUE(fails_with(with("outputs", R"([{"name": "z", "type": "body_position", "body": "ground",
                                              "component": "z"}])"),
                         "/outputs/0/body", "ground does not move"));
}

// ---- topology ----

TEST(LoaderErrors, child_with_two_parent_joints_names_the_earlier_joint) {
  Json m = base_model();
  m["bodies"].push_back(
      Json::parse(R"({"name": "c", "mass": 1, "inertia": {"ixx": 1, "iyy": 1, "izz": 1}})"));
  m["joints"].push_back(Json::parse(R"({"name": "j2", "type": "free", "parent": "ground", "child": "c"})"));
  m["joints"].push_back(Json::parse(R"({"name": "j3", "type": "fixed", "parent": "c", "child": "b"})"));
  EXPECT_TRUE(fails_with(m, "/joints/3/child", "body 'b' already has parent joint 'j1' (/joints/1)"));
}

TEST(LoaderErrors, joint_cycle_is_reported_at_the_joint_that_closes_it) {
  Json m = base_model();
  m["bodies"].push_back(
      Json::parse(R"({"name": "c", "mass": 1, "inertia": {"ixx": 1, "iyy": 1, "izz": 1}})"));
  m["joints"][0]["parent"] = "c";  // a <- c <- b <- a
  m["joints"].push_back(Json::parse(R"({"name": "j2", "type": "fixed", "parent": "b", "child": "c"})"));
  EXPECT_TRUE(fails_with(m, "/joints/2/parent", "joint 'j2' closes a cycle through bodies"));
  EXPECT_TRUE(fails_with(m, "/joints/2/parent", "joints must form a tree rooted at ground"));
}

TEST(LoaderErrors, body_without_joint_says_to_add_one) {
  Json m = base_model();
  m["joints"].erase(1);
  EXPECT_TRUE(
      fails_with(m, "/bodies/1",
                 "body 'b' has no joint: add a free joint to ground (or a fixed joint to weld it in place)"));
}

TEST(LoaderErrors, joint_child_must_be_a_body_other_than_the_parent) {
  Json m = base_model();
  m["joints"][0]["child"] = "ground";
  EXPECT_TRUE(fails_with(m, "/joints/0/child", "the child of a joint must be a body, not ground"));
  m = base_model();
  m["joints"][1]["parent"] = "b";
  EXPECT_TRUE(fails_with(m, "/joints/1/child", "joint 'j1' connects a body to itself"));
}

// ---- geometry ----

TEST(LoaderErrors, zero_axis) {
  Json m = base_model();
  m["joints"][0]["axis"] = Json::parse("[0, 0, 0]");
  EXPECT_TRUE(fails_with(m, "/joints/0/axis", "axis must be non-zero"));
}

TEST(LoaderErrors, universal_axis2_must_be_non_zero_and_perpendicular) {
  Json m = base_model();
  m["joints"][1]["type"] = "universal";
  m["joints"][1]["axis2"] = Json::parse("[1, 0, 1]");
  EXPECT_TRUE(fails_with(m, "/joints/1/axis2", "axis2 must be perpendicular to axis (|cos| = 0.707107"));
  m["joints"][1]["axis2"] = Json::parse("[0, 0, 0]");
  EXPECT_TRUE(fails_with(m, "/joints/1/axis2", "axis2 must be non-zero"));
  m["joints"][1]["axis2"] = Json::parse("[0, 3, 0]");
  EXPECT_NO_THROW(load_model_text(m.dump(), "t.json"));
}

TEST(LoaderErrors, rotation_matrix_must_be_orthonormal) {
  Json m = base_model();
  m["joints"][0]["parent_frame"] =
      Json::parse(R"({"rotation": {"matrix": [[1, 0, 0], [0, 1, 0.1], [0, 0, 1]]}})");
  EXPECT_TRUE(fails_with(m, "/joints/0/parent_frame/rotation/matrix", "rotation matrix is not orthonormal"));
}

TEST(LoaderErrors, rotation_matrix_must_have_determinant_plus_one) {
  Json m = base_model();
  m["joints"][1]["child_frame"] =
      Json::parse(R"({"rotation": {"matrix": [[1, 0, 0], [0, 1, 0], [0, 0, -1]]}})");
  EXPECT_TRUE(fails_with(m, "/joints/1/child_frame/rotation/matrix", "rotation matrix has determinant -1"));
}

TEST(LoaderErrors, zero_quaternion_in_a_rotation) {
  Json m = base_model();
  m["joints"][0]["child_frame"] = Json::parse(R"({"rotation": {"quaternion": [0, 0, 0, 0]}})");
  EXPECT_TRUE(fails_with(m, "/joints/0/child_frame/rotation/quaternion", "quaternion must be non-zero"));
}

TEST(LoaderErrors, zero_axis_in_an_axis_angle_rotation) {
  Json m = base_model();
  m["joints"][0]["parent_frame"] = Json::parse(R"({"rotation": {"axis": [0, 0, 0], "angle": 1}})");
  EXPECT_TRUE(fails_with(m, "/joints/0/parent_frame/rotation/axis", "rotation axis must be non-zero"));
}

TEST(LoaderErrors, zero_initial_quaternion_of_spherical_and_free_joints) {
  Json m = base_model();
  m["joints"][1] = Json::parse(R"({"name": "j1", "type": "spherical", "parent": "a", "child": "b",
                                   "position": [0, 0, 0, 0]})");
  EXPECT_TRUE(fails_with(m, "/joints/1/position", "the initial quaternion (w, x, y, z) must be non-zero"));
  m["joints"][1] = Json::parse(R"({"name": "j1", "type": "free", "parent": "a", "child": "b",
                                   "position": [1, 2, 3, 0, 0, 0, 0]})");
  EXPECT_TRUE(fails_with(m, "/joints/1/position", "the initial quaternion (w, x, y, z) must be non-zero"));
}

TEST(LoaderErrors, wrong_number_of_joint_coordinates) {
  Json m = base_model();
  m["joints"][0]["position"] = Json::parse("[0, 1]");
  EXPECT_TRUE(fails_with(m, "/joints/0/position",
                         "expected an array of 1 position coordinate of a revolute joint, got 2 elements"));
  m = base_model();
  m["joints"][1] = Json::parse(R"({"name": "j1", "type": "spherical", "parent": "a", "child": "b",
                                   "velocity": [0, 0, 0, 0]})");
  EXPECT_TRUE(fails_with(m, "/joints/1/velocity",
                         "expected an array of 3 velocity coordinates of a spherical joint, got 4 elements"));
}

// ---- mass and inertia ----

TEST(LoaderErrors, non_positive_mass) {
  Json m = base_model();
  m["bodies"][0]["mass"] = 0;
  EXPECT_TRUE(fails_with(m, "/bodies/0/mass", "mass must be positive and finite, got 0"));
}

TEST(LoaderErrors, non_positive_mass_from_a_parameter_names_it) {
  Json m = base_model();
  m["parameters"]["m"] = -3;
  EXPECT_TRUE(
      fails_with(m, "/bodies/1/mass", "mass must be positive and finite, got -3 (from parameter 'm')"));
}

TEST(LoaderErrors, inertia_not_positive_definite) {
  Json m = base_model();
  m["bodies"][1]["inertia"] = Json::parse(R"({"ixx": 1, "iyy": 1, "izz": 1, "ixy": 2})");
  EXPECT_TRUE(fails_with(m, "/bodies/1/inertia", "inertia is not positive definite"));
}

TEST(LoaderErrors, inertia_violating_the_triangle_inequality) {
  Json m = base_model();
  m["bodies"][1]["inertia"] = Json::parse(R"({"ixx": 1, "iyy": 1, "izz": 3})");
  EXPECT_TRUE(fails_with(m, "/bodies/1/inertia",
                         "inertia violates the triangle inequality (principal moments 1, 1, 3)"));
}

// ---- numbers and parameters ----

TEST(LoaderErrors, overflowing_number_is_not_finite) {
  const std::string text = R"({"format": "myriad-model", "version": 1,
    "bodies": [{"name": "a", "mass": 1e999, "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}],
    "joints": [{"name": "j", "type": "free", "parent": "ground", "child": "a"}]})";
  EXPECT_TRUE(text_fails_with(text, "/bodies/0/mass", "number is not finite"));
  const std::string in_array = R"({"format": "myriad-model", "version": 1, "gravity": [0, 0, -1e999],
    "bodies": [], "joints": []})";
  EXPECT_TRUE(text_fails_with(in_array, "/gravity/2", "number is not finite"));
}

TEST(LoaderErrors, non_finite_number_written_as_a_string) {
  Json m = base_model();
  m["bodies"][0]["mass"] = "NaN";
  EXPECT_TRUE(fails_with(m, "/bodies/0/mass", "non-finite number \"NaN\""));
  m["bodies"][0]["mass"] = "-Infinity";
  EXPECT_TRUE(fails_with(m, "/bodies/0/mass", "non-finite number \"-Infinity\""));
}

TEST(LoaderErrors, number_as_other_string) {
  Json m = base_model();
  m["bodies"][0]["mass"] = "1.5";
  EXPECT_TRUE(
      fails_with(m, "/bodies/0/mass", "expected a number or a \"$parameter\" reference, got string \"1.5\""));
}

TEST(LoaderErrors, undefined_parameter) {
  EXPECT_TRUE(
      fails_with(with("forces", R"([{"name": "r", "type": "rsda", "joint": "j0", "stiffness": "$k_front"}])"),
                 "/forces/0/stiffness", "undefined parameter 'k_front'"));
}

TEST(LoaderErrors, invalid_parameter_reference) {
  Json m = base_model();
  m["bodies"][0]["mass"] = "$m*2";
  EXPECT_TRUE(fails_with(m, "/bodies/0/mass", "invalid parameter expression \"$m*2\": expected + or - at character 3"));
  m["bodies"][0]["mass"] = "$1m";
  EXPECT_TRUE(fails_with(m, "/bodies/0/mass", "invalid parameter reference at character 1"));
}

// ---- indices and forces ----

TEST(LoaderErrors, output_joint_index_out_of_range) {
  EXPECT_TRUE(
      fails_with(with("outputs", R"([{"name": "q", "type": "joint_coordinate", "joint": "j0", "index": 1}])"),
                 "/outputs/0/index", "index 1 is out of range for joint 'j0' (revolute, nq = 1)"));
  Json m = with("outputs", R"([{"name": "w", "type": "joint_velocity", "joint": "j1", "index": 3}])");
  m["joints"][1] = Json::parse(R"({"name": "j1", "type": "spherical", "parent": "a", "child": "b"})");
  EXPECT_TRUE(
      fails_with(m, "/outputs/0/index", "index 3 is out of range for joint 'j1' (spherical, nv = 3)"));
}

TEST(LoaderErrors, output_index_must_be_a_non_negative_integer) {
  EXPECT_TRUE(fails_with(
      with("outputs", R"([{"name": "q", "type": "joint_coordinate", "joint": "j0", "index": -1}])"),
      "/outputs/0/index", "expected a non-negative integer, got -1"));
}

TEST(LoaderErrors, output_on_a_fixed_joint) {
  Json m = with("outputs", R"([{"name": "q", "type": "joint_coordinate", "joint": "j1"}])");
  m["joints"][1] = Json::parse(R"({"name": "j1", "type": "fixed", "parent": "a", "child": "b"})");
  EXPECT_TRUE(fails_with(m, "/outputs/0/joint", "joint 'j1' is fixed and has no coordinates"));
}

TEST(LoaderErrors, joint_actuator_index_out_of_range) {
  EXPECT_TRUE(fails_with(with("forces", R"([{"name": "p", "type": "joint_actuator", "joint": "j1", "index": 2,
                                            "function": {"type": "constant", "value": 1}}])"),
                         "/forces/0/index", "index 2 is out of range for joint 'j1' (revolute, nv = 1)"));
}

TEST(LoaderErrors, rsda_needs_a_revolute_joint) {
  Json m = with("forces", R"([{"name": "r", "type": "rsda", "joint": "j1", "stiffness": 1}])");
  m["joints"][1]["type"] = "prismatic";
  EXPECT_TRUE(
      fails_with(m, "/forces/0/joint", "a rsda acts on a revolute joint, and joint 'j1' is prismatic"));
}

TEST(LoaderErrors, tsda_ends_coinciding_on_one_body) {
  EXPECT_TRUE(fails_with(with("forces", R"([{"name": "s", "type": "tsda", "body1": "a", "point1": [1, 0, 0],
                                            "body2": "a", "point2": [1, 0, 0], "stiffness": 1}])"),
                         "/forces/0/point2", "the two ends of tsda 's' coincide on body 'a'"));
}

TEST(LoaderErrors, tsda_motion_only_for_an_end_on_ground) {
  EXPECT_TRUE(fails_with(with("forces", R"([{"name": "s", "type": "tsda", "body1": "a", "body2": "ground",
                                            "motion1": {"direction": [0, 0, 1],
                                                        "function": {"type": "constant", "value": 0}}}])"),
                         "/forces/0/motion1",
                         "motion1 is only allowed for an end on ground, and body1 is 'a'"));
}

TEST(LoaderErrors, tsda_motion_direction_must_be_non_zero) {
  EXPECT_TRUE(fails_with(with("forces", R"([{"name": "s", "type": "tsda", "body1": "a", "body2": "ground",
                                            "point2": [0, 0, -1],
                                            "motion2": {"direction": [0, 0, 0],
                                                        "function": {"type": "constant", "value": 0}}}])"),
                         "/forces/0/motion2/direction", "direction must be non-zero"));
}

TEST(LoaderErrors, spring_length_needs_a_tsda) {
  Json m = with("forces", R"([{"name": "r", "type": "rsda", "joint": "j0"}])");
  m["outputs"] = Json::parse(R"([{"name": "l", "type": "spring_length", "force": "r"}])");
  EXPECT_TRUE(fails_with(m, "/outputs/0/force", "spring_length needs a tsda, and force 'r' is not one"));
}

TEST(LoaderErrors, spring_force_needs_a_spring) {
  Json m = with("forces", R"([{"name": "p", "type": "joint_actuator", "joint": "j0",
                               "function": {"type": "constant", "value": 1}}])");
  m["outputs"] = Json::parse(R"([{"name": "f", "type": "spring_force", "force": "p"}])");
  EXPECT_TRUE(fails_with(m, "/outputs/0/force", "spring_force needs a tsda or a rsda"));
}

TEST(LoaderErrors, unknown_output_component_lists_valid_ones) {
  EXPECT_TRUE(fails_with(
      with("outputs", R"([{"name": "z", "type": "body_position", "body": "a", "component": "qw"}])"),
      "/outputs/0/component", "unknown body_position component 'qw' (expected one of: x, y, z)"));
  EXPECT_TRUE(fails_with(
      with("outputs", R"([{"name": "v", "type": "body_velocity", "body": "a", "component": "x"}])"),
      "/outputs/0/component", "(expected one of: wx, wy, wz, vx, vy, vz)"));
}

// ---- time functions ----

TEST(LoaderErrors, table_needs_two_points) {
  EXPECT_TRUE(fails_with(with("forces", R"([{"name": "p", "type": "joint_actuator", "joint": "j0",
                                            "function": {"type": "table", "points": [[0, 1]]}}])"),
                         "/forces/0/function/points", "a table needs at least 2 points, got 1"));
}

TEST(LoaderErrors, table_times_must_increase_strictly) {
  EXPECT_TRUE(fails_with(with("forces", R"([{"name": "p", "type": "joint_actuator", "joint": "j0",
                                            "function": {"type": "table", "points": [[0, 1], [1, 2], [1, 3]]}}])"),
                         "/forces/0/function/points/2/0", "table times must be strictly increasing"));
}

TEST(LoaderErrors, smooth_step_needs_t1_after_t0) {
  EXPECT_TRUE(fails_with(with("forces", R"([{"name": "r", "type": "rsda", "joint": "j0",
                                            "actuator": {"type": "smooth_step", "t0": 1, "t1": 1, "from": 0, "to": 1}}])"),
                         "/forces/0/actuator/t1", "t1 must be greater than t0 (got t0 = 1, t1 = 1)"));
}

TEST(LoaderErrors, half_sine_bump_needs_positive_duration) {
  EXPECT_TRUE(fails_with(with("forces", R"([{"name": "s", "type": "tsda", "body1": "a", "body2": "ground",
                                            "point2": [0, 0, -1],
                                            "motion2": {"direction": [0, 0, 1],
                                                        "function": {"type": "half_sine_bump", "t0": 0,
                                                                     "duration": 0, "height": 1}}}])"),
                         "/forces/0/motion2/function/duration", "duration must be positive, got 0"));
}

// ---- simulation and reserved sections ----

TEST(LoaderErrors, simulation_values_must_be_positive) {
  for (const char* key : {"t_end", "dt_out", "rtol", "atol", "h"}) {
    SCOPED_TRACE(key);
    Json m = base_model();
    m["simulation"] = Json::object();
    m["simulation"][key] = 0;
    EXPECT_TRUE(
        fails_with(m, std::string("/simulation/") + key, std::string(key) + " must be positive, got 0"));
    m["simulation"][key] = -1e-3;
    EXPECT_TRUE(fails_with(m, std::string("/simulation/") + key, " must be positive, got -0.001"));
  }
}

TEST(LoaderErrors, simulation_values_are_plain_numbers) {
  EXPECT_TRUE(fails_with(with("simulation", R"({"t_end": "$m"})"), "/simulation/t_end",
                         "simulation settings are plain numbers"));
}

TEST(LoaderErrors, unknown_integrator) {
  EXPECT_TRUE(fails_with(with("simulation", R"({"integrator": "euler"})"), "/simulation/integrator",
                         "unknown integrator 'euler' (expected one of: rk4, dopri5, rn4, ros2w, backward-euler, lms2, lms3"));
}

// Non-empty `loops` and `drivers` load now; their errors are in tests/model/loop_loader_test.cpp.
TEST(LoaderErrors, loop_entries_are_checked) {
  EXPECT_TRUE(fails_with(with("loops", R"([{"name": "l", "type": "distance"}])"), "/loops/0/body1",
                         "missing required key 'body1'"));
}

TEST(LoaderErrors, driver_entries_are_checked) {
  EXPECT_TRUE(fails_with(with("drivers", R"([{"name": "d", "joint": "j0"}])"), "/drivers/0/function",
                         "missing required key 'function'"));
}

TEST(LoaderErrors, unopenable_file) {
  try {
    load_model_file("/nonexistent/myriad/model.json");
    FAIL() << "loaded";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.file(), "/nonexistent/myriad/model.json");
    EXPECT_EQ(e.pointer(), "/");
    EXPECT_EQ(e.reason(), "cannot open file: No such file or directory");
  }
}

// ---- per-instance re-check ----

ModelError instance_error(const Model& model, const std::string& label) {
  try {
    validate_instance_values(model, label);
  } catch (const ModelError& e) {
    return e;
  }
  ADD_FAILURE() << "no error";
  return ModelError("", "", "");
}

TEST(InstanceValidation, rejects_a_parameter_row_that_breaks_a_value_naming_instance_and_field) {
  const Model model = load_model_text(base_model().dump(), "models/two.json");
  EXPECT_NO_THROW(validate_instance_values(apply_parameters(model, {5.0, 1.0}), "instance 3"));

  const ModelError e = instance_error(apply_parameters(model, {-3.0, 10.0}), "instance 17");
  EXPECT_EQ(e.file(), "models/two.json");
  EXPECT_EQ(e.pointer(), "/bodies/1/mass");
  EXPECT_EQ(e.reason(), "instance 17: mass must be positive and finite, got -3");

  // Given the parametric model and the row instead, the message also names the parameter.
  try {
    validate_instance_values(model, {-3.0, 10.0}, "instance 17");
    FAIL() << "accepted";
  } catch (const ModelError& error) {
    EXPECT_EQ(error.pointer(), "/bodies/1/mass");
    EXPECT_EQ(error.reason(), "instance 17: mass must be positive and finite, got -3 (from parameter 'm')");
  }
  EXPECT_THROW(validate_instance_values(model, {1.0}, "instance 0"), std::invalid_argument);
}

TEST(InstanceValidation, catches_axes_time_functions_and_non_finite_values) {
  // The universal joint is listed first in the file but placed second; its axis2 comes from a parameter.
  Json m = base_model();
  m["parameters"]["ax"] = 0;
  m["parameters"]["t1"] = 2;
  m["joints"][0] = Json::parse(R"({"name": "j0", "type": "universal", "parent": "a", "child": "b",
                                   "axis": [0, 0, 1], "axis2": [1, 0, "$ax"]})");
  m["joints"][1] = Json::parse(R"({"name": "j1", "type": "free", "parent": "ground", "child": "a"})");
  m["forces"] = Json::parse(R"([{"name": "p", "type": "joint_actuator", "joint": "j0",
                                 "function": {"type": "smooth_step", "t0": 1, "t1": "$t1", "from": 0, "to": 1}}])");
  const Model model = load_model_text(m.dump(), "t.json");
  // Parameters: m, k, ax, t1.
  ModelError e = instance_error(apply_parameters(model, {2.0, 10.0, 1.0, 2.0}), "instance 4");
  EXPECT_EQ(e.pointer(), "/joints/0/axis2");  // file index, though j0 is second in Model::joints
  EXPECT_EQ(e.reason().rfind("instance 4: axis2 must be perpendicular to axis", 0), 0u) << e.reason();

  e = instance_error(apply_parameters(model, {2.0, 10.0, 0.0, 0.5}), "instance 5");
  EXPECT_EQ(e.pointer(), "/forces/0/function/t1");
  EXPECT_EQ(e.reason(), "instance 5: t1 must be greater than t0 (got t0 = 1, t1 = 0.5)");

  e = instance_error(apply_parameters(model, {2.0, std::nan(""), 0.0, 2.0}), "instance 6");
  EXPECT_EQ(e.pointer(), "/parameters/k");
  EXPECT_EQ(e.reason(), "instance 6: parameter 'k' is not finite (got nan)");
}

}  // namespace loader_errors_test
}  // namespace myriad
