// The `loops`, `drivers` and `independent` sections (docs/model-format.md): every loop type loads with its
// keys, parameters reach loop and driver numbers, and every error names the file, the JSON pointer and the
// reason. compile() names what the fast path cannot take (loops over quaternion joints).
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "model/compile.hpp"
#include "model/model.hpp"
#include "model/model_loader.hpp"
#include "model/model_validation.hpp"

namespace myriad {
namespace loop_loader_test {

using Json = nlohmann::ordered_json;

// Two bodies hanging from ground on revolute joints, plus a spherical joint body for driver checks.
Json base_model() {
  return Json::parse(R"({
    "format": "myriad-model", "version": 1,
    "parameters": {"L": 1.5, "mrod": 0.2},
    "bodies": [
      {"name": "a", "mass": 1, "inertia": {"ixx": 1, "iyy": 1, "izz": 1}},
      {"name": "b", "mass": 1, "inertia": {"ixx": 1, "iyy": 1, "izz": 1}},
      {"name": "s", "mass": 1, "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}
    ],
    "joints": [
      {"name": "ja", "type": "revolute", "parent": "ground", "child": "a", "axis": [0, 0, 1]},
      {"name": "jb", "type": "cylindrical", "parent": "ground", "child": "b", "axis": [0, 0, 1],
       "parent_frame": {"origin": [2, 0, 0]}},
      {"name": "js", "type": "spherical", "parent": "a", "child": "s"}
    ]
  })");
}

Json with(const std::string& key, const std::string& json) {
  Json m = base_model();
  m[key] = Json::parse(json);
  return m;
}

::testing::AssertionResult fails_with(const Json& model, const std::string& pointer,
                                      const std::string& reason) {
  try {
    load_model_text(model.dump(), "t.json");
  } catch (const ModelError& e) {
    if (e.file() != "t.json") return ::testing::AssertionFailure() << "wrong file in " << e.what();
    if (e.pointer() != pointer)
      return ::testing::AssertionFailure()
             << "pointer '" << e.pointer() << "', expected '" << pointer << "' in " << e.what();
    if (e.reason().find(reason) == std::string::npos)
      return ::testing::AssertionFailure() << "reason lacks '" << reason << "' in " << e.what();
    return ::testing::AssertionSuccess();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw a non-ModelError: " << e.what();
  }
  return ::testing::AssertionFailure() << "loaded without error";
}

const char* const kAllLoops = R"([
  {"name": "sph", "type": "cut_spherical", "body1": "a", "frame1": {"origin": [1, 0, 0]}, "body2": "b"},
  {"name": "rev", "type": "cut_revolute", "body1": "a", "body2": "b", "axis": [0, 0, 2],
   "frame2": {"origin": [0, 1, 0], "rotation": {"axis": [0, 0, 1], "angle": 0.5}}},
  {"name": "uni", "type": "cut_universal", "body1": "ground", "body2": "b", "axis": [1, 0, 0], "axis2": [0, 1, 0]},
  {"name": "pla", "type": "cut_planar_revolute", "body1": "b", "body2": "a", "axis": [0, 0, 1]},
  {"name": "dis", "type": "distance", "body1": "a", "point1": [1, 0, 0], "body2": "ground", "point2": [3, 0, 0],
   "length": "$L"},
  {"name": "rod", "type": "rod", "body1": "a", "body2": "b", "point2": [0, 0, 1], "length": 2, "mass": "$mrod"}
])";

TEST(LoopLoader, reads_every_loop_type) {
  const Model m = load_model_text(with("loops", kAllLoops).dump(), "t.json");
  ASSERT_EQ(m.loops.size(), 6u);
  EXPECT_EQ(m.loops[0].type, LoopType::cut_spherical);
  EXPECT_EQ(m.loops[0].body1, 0);
  EXPECT_EQ(m.loops[0].body2, 1);
  EXPECT_DOUBLE_EQ(m.loops[0].frame1.origin[0].value, 1.0);
  EXPECT_EQ(m.loops[1].type, LoopType::cut_revolute);
  EXPECT_DOUBLE_EQ(m.loops[1].axis[2].value, 2.0);
  EXPECT_EQ(m.loops[1].frame2.rotation.kind, Rotation::Kind::axis_angle);
  EXPECT_EQ(m.loops[2].type, LoopType::cut_universal);
  EXPECT_EQ(m.loops[2].body1, -1);
  EXPECT_DOUBLE_EQ(m.loops[2].axis2[1].value, 1.0);
  EXPECT_EQ(m.loops[3].type, LoopType::cut_planar_revolute);
  EXPECT_EQ(m.loops[4].type, LoopType::distance);
  EXPECT_DOUBLE_EQ(m.loops[4].length.value, 1.5);
  EXPECT_EQ(m.loops[4].length.parameter, 0);
  EXPECT_DOUBLE_EQ(m.loops[4].point2[0].value, 3.0);
  EXPECT_EQ(m.loops[5].type, LoopType::rod);
  EXPECT_DOUBLE_EQ(m.loops[5].mass.value, 0.2);
  EXPECT_EQ(m.loops[5].mass.parameter, 1);
  int equations = 0;
  for (const Loop& loop : m.loops) equations += loop_equation_count(loop.type);
  EXPECT_EQ(equations, 3 + 5 + 4 + 2 + 1 + 1);
}

TEST(LoopLoader, reads_drivers_and_independent_coordinates) {
  Json m = with("drivers", R"([
    {"name": "d0", "joint": "ja", "function": {"type": "sine", "amplitude": "$L", "frequency": 1}},
    {"name": "d1", "joint": "jb", "index": 1, "function": {"type": "constant", "value": 0.1}}])");
  m["independent"] = Json::parse(R"([{"joint": "jb"}, {"joint": "js", "index": 2}])");
  const Model model = load_model_text(m.dump(), "t.json");
  ASSERT_EQ(model.drivers.size(), 2u);
  EXPECT_EQ(model.joints[static_cast<size_t>(model.drivers[0].joint)].name, "ja");
  EXPECT_EQ(model.drivers[0].index, 0);
  EXPECT_EQ(model.drivers[0].function.kind, TimeFunction::Kind::sine);
  EXPECT_EQ(model.drivers[0].function.amplitude.parameter, 0);
  EXPECT_EQ(model.drivers[1].index, 1);
  ASSERT_EQ(model.independent.size(), 2u);
  EXPECT_EQ(model.joints[static_cast<size_t>(model.independent[1].joint)].name, "js");
  EXPECT_EQ(model.independent[1].index, 2);
}

TEST(LoopLoader, parameters_reach_loops_and_drivers) {
  Json m = with("loops", kAllLoops);
  m["drivers"] =
      Json::parse(R"([{"name": "d0", "joint": "ja", "function": {"type": "constant", "value": "$L"}}])");
  const Model model = load_model_text(m.dump(), "t.json");
  const Model literal = apply_parameters(model, {2.5, 0.7});
  EXPECT_DOUBLE_EQ(literal.loops[4].length.value, 2.5);
  EXPECT_EQ(literal.loops[4].length.parameter, -1);
  EXPECT_DOUBLE_EQ(literal.loops[5].mass.value, 0.7);
  EXPECT_DOUBLE_EQ(literal.drivers[0].function.value.value, 2.5);
  try {
    validate_instance_values(model, {-1.0, 0.7}, "instance 3");
    FAIL() << "accepted a negative length";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.pointer(), "/loops/4/length");
    EXPECT_NE(e.reason().find("instance 3: length must be positive and finite, got -1"), std::string::npos);
    EXPECT_NE(e.reason().find("(from parameter 'L')"), std::string::npos);
  }
}

// The fast path's loop code needs coordinates that are their own rates.
TEST(LoopLoader, compile_names_what_the_fast_path_cannot_take) {
  const Model loops = load_model_text(with("loops", kAllLoops).dump(), "t.json");
  try {
    compile(loops);
    FAIL() << "compiled loops over a spherical joint";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.file(), "t.json");
    EXPECT_EQ(e.pointer(), "/joints/2");
    EXPECT_NE(e.reason().find("joint 'js' is spherical, and the model has loops or drivers"),
              std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(compile(load_model_text(base_model().dump(), "t.json")));
}

TEST(LoopLoader, shipped_loop_models_load) {
  for (const char* name : {"four_bar", "slider_crank", "andrews_squeezer"}) {
    const std::string path = std::string(MYRIAD_SOURCE_DIR) + "/models/loops/" + name + ".json";
    EXPECT_NO_THROW(load_model_file(path)) << path;
  }
}

// ---- errors ----

TEST(LoopLoader, unknown_loop_type) {
  EXPECT_TRUE(fails_with(
      with("loops", R"([{"name": "l", "type": "weld", "body1": "a", "body2": "b"}])"), "/loops/0/type",
      "unknown loop type 'weld' (expected one of: cut_spherical, cut_revolute, cut_universal, "
      "cut_planar_revolute, distance, rod)"));
}

TEST(LoopLoader, unknown_body) {
  EXPECT_TRUE(
      fails_with(with("loops", R"([{"name": "l", "type": "cut_spherical", "body1": "a", "body2": "c"}])"),
                 "/loops/0/body2", "unknown body 'c' (known: ground, a, b, s)"));
}

TEST(LoopLoader, loop_between_a_body_and_itself) {
  EXPECT_TRUE(
      fails_with(with("loops", R"([{"name": "l", "type": "cut_spherical", "body1": "a", "body2": "a"}])"),
                 "/loops/0/body2", "loop 'l' connects body 'a' to itself"));
}

TEST(LoopLoader, coincident_distance_points) {
  EXPECT_TRUE(
      fails_with(with("loops", R"([{"name": "l", "type": "distance", "body1": "a", "point1": [1, 2, 3],
                                           "body2": "a", "point2": [1, 2, 3], "length": 1}])"),
                 "/loops/0/body2", "the two points of distance 'l' coincide on body 'a'"));
}

TEST(LoopLoader, zero_length) {
  EXPECT_TRUE(fails_with(
      with("loops", R"([{"name": "l", "type": "distance", "body1": "a", "body2": "b", "length": 0}])"),
      "/loops/0/length",
      "length must be positive and finite, got 0 (the two points of a distance constraint"));
}

TEST(LoopLoader, rod_mass_must_not_be_negative) {
  EXPECT_TRUE(fails_with(
      with("loops", R"([{"name": "l", "type": "rod", "body1": "a", "body2": "b", "length": 1, "mass": -2}])"),
      "/loops/0/mass", "rod mass must be zero or positive and finite, got -2"));
}

TEST(LoopLoader, rod_inertia_names_a_method) {
  Json m = with("loops", R"([{"name": "l", "type": "rod", "body1": "a", "body2": "b", "length": 1, "mass": 2}])");
  m["rod_inertia"] = "cubic";
  EXPECT_TRUE(fails_with(m, "/rod_inertia",
                         "unknown rod inertia 'cubic' (expected 'exact', 'point', 'linear' or 'quadratic')"));
}

TEST(LoopLoader, keys_depend_on_the_type) {
  EXPECT_TRUE(fails_with(
      with("loops", R"([{"name": "l", "type": "cut_spherical", "body1": "a", "body2": "b", "length": 1}])"),
      "/loops/0/length", "unknown key 'length'"));
  EXPECT_TRUE(
      fails_with(with("loops", R"([{"name": "l", "type": "cut_revolute", "body1": "a", "body2": "b"}])"),
                 "/loops/0/axis", "missing required key 'axis'"));
  EXPECT_TRUE(fails_with(
      with("loops",
           R"([{"name": "l", "type": "cut_revolute", "body1": "a", "body2": "b", "axis": [0, 0, 0]}])"),
      "/loops/0/axis", "axis must be non-zero"));
}

TEST(LoopLoader, duplicate_loop_name) {
  EXPECT_TRUE(fails_with(with("loops", R"([{"name": "l", "type": "cut_spherical", "body1": "a", "body2": "b"},
                                          {"name": "l", "type": "cut_spherical", "body1": "a", "body2": "b"}])"),
                         "/loops/1/name", "duplicate loop name 'l' (first at /loops/0)"));
}

TEST(LoopLoader, driver_on_unknown_joint) {
  EXPECT_TRUE(fails_with(
      with("drivers", R"([{"name": "d", "joint": "jx", "function": {"type": "constant", "value": 0}}])"),
      "/drivers/0/joint", "unknown joint 'jx'"));
}

TEST(LoopLoader, driver_on_a_coordinate_that_does_not_exist) {
  EXPECT_TRUE(fails_with(
      with("drivers",
           R"([{"name": "d", "joint": "ja", "index": 1, "function": {"type": "constant", "value": 0}}])"),
      "/drivers/0/index", "index 1 is out of range for joint 'ja' (revolute, nq = 1)"));
  EXPECT_TRUE(fails_with(
      with("drivers", R"([{"name": "d", "joint": "js", "function": {"type": "constant", "value": 0}}])"),
      "/drivers/0/joint",
      "a driver acts on a revolute, prismatic, cylindrical, universal or planar joint, and "
      "joint 'js' is spherical"));
}

TEST(LoopLoader, driver_on_an_already_driven_coordinate) {
  EXPECT_TRUE(fails_with(with("drivers", R"([
      {"name": "d0", "joint": "jb", "index": 1, "function": {"type": "constant", "value": 0}},
      {"name": "d1", "joint": "jb", "index": 1, "function": {"type": "constant", "value": 1}}])"),
                         "/drivers/1/index",
                         "coordinate 1 of joint 'jb' is already driven by driver 'd0' (/drivers/0)"));
}

TEST(LoopLoader, driver_function_is_validated) {
  EXPECT_TRUE(fails_with(with("drivers", R"([{"name": "d", "joint": "ja",
      "function": {"type": "smooth_step", "t0": 1, "t1": 1, "from": 0, "to": 1}}])"),
                         "/drivers/0/function/t1", "t1 must be greater than t0"));
}

TEST(LoopLoader, independent_coordinate_errors) {
  Json m = with("independent", R"([{"joint": "ja"}, {"joint": "ja", "index": 0}])");
  EXPECT_TRUE(fails_with(m, "/independent/1/index",
                         "coordinate 0 of joint 'ja' is already named independent (/independent/0)"));
  m = with("independent", R"([{"joint": "js", "index": 3}])");
  EXPECT_TRUE(
      fails_with(m, "/independent/0/index", "index 3 is out of range for joint 'js' (spherical, nv = 3)"));
  m = with("drivers", R"([{"name": "d", "joint": "ja", "function": {"type": "constant", "value": 0}}])");
  m["independent"] = Json::parse(R"([{"joint": "ja"}])");
  EXPECT_TRUE(fails_with(m, "/independent/0/joint",
                         "coordinate 0 of joint 'ja' is driven by driver 'd' and cannot be independent"));
}

}  // namespace loop_loader_test
}  // namespace myriad
