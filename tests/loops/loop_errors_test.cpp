// Loop models that load but cannot be compiled are refused by compile() with a ModelError that names the
// model file, the JSON pointer of the responsible loop, driver or `independent`, and the reason with its
// numbers: assembly at the initial state (which loop, what residual), redundant equations (which loop repeats
// earlier ones), a named partition that does not fit, a distance whose two points coincide, and the
// capacities of the compiled model.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "model/compile.hpp"
#include "model/model_limits.hpp"
#include "model/refusal_support.hpp"

namespace myriad {
namespace loop_errors_test {

using testing::throws_model_error;
using Json = nlohmann::ordered_json;

const char* const kFile = "models/bad_four_bar.json";

Json four_bar() {
  std::ifstream in(std::string(MYRIAD_SOURCE_DIR) + "/models/loops/four_bar.json");
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str());
}

::testing::AssertionResult compile_refused(const Json& model, const std::string& pointer,
                                           const std::vector<std::string>& reason_parts) {
  return throws_model_error([&] { compile(load_model_text(model.dump(), kFile)); }, kFile, pointer,
                            reason_parts);
}

TEST(LoopErrors, assembly_that_does_not_converge_names_the_loop_and_its_residual) {
  Json m = four_bar();
  m["joints"][2]["parent_frame"]["origin"] = Json::parse("[10, 0, 0]");  // the links reach 5.5 of 10
  EXPECT_TRUE(compile_refused(m, "/loops/0",
                              {"the model does not assemble at its initial state (not_converged)",
                               "Newton did not converge in 50 iterations: max |Phi| = ",
                               "max |Phi| at the last iterate: loop 'coupler_rocker' (/loops/0) "}));
}

TEST(LoopErrors, the_loop_with_the_largest_residual_is_named) {
  // A pendulum beside the four-bar closed by a distance that holds at its initial angle does not take the
  // blame.
  Json m = four_bar();
  m["joints"][2]["parent_frame"]["origin"] = Json::parse("[10, 0, 0]");
  m["bodies"].push_back(m["bodies"][0]);
  m["bodies"][3]["name"] = "extra";
  m["joints"].push_back(Json::parse(R"({"name": "extra_pivot", "type": "revolute", "parent": "ground",
    "child": "extra", "parent_frame": {"origin": [0, 5, 0]}, "axis": [0, 0, 1]})"));
  m["loops"].insert(m["loops"].begin(), Json::parse(R"({"name": "fine", "type": "distance", "body1": "ground",
    "point1": [1, 4, 0], "body2": "extra", "point2": [1, 0, 0], "length": 1})"));
  EXPECT_TRUE(compile_refused(m, "/loops/1", {"(not_converged)", "loop 'coupler_rocker' (/loops/1)"}));
}

TEST(LoopErrors, more_equations_than_coordinates_names_the_loop_that_passes_them) {
  Json m = four_bar();
  m.erase("independent");
  Json again = m["loops"][0];
  again["name"] = "again";
  m["loops"].push_back(again);
  EXPECT_TRUE(compile_refused(
      m, "/loops/1",
      {"(too_many_constraints): 4 constraint equations for 3 velocity coordinates", "from loop 'again' on"}));
}

TEST(LoopErrors, redundant_loop_is_named) {
  // Two pendulums on Hooke joints joined twice by the same distance: m = 2, nv = 4, rank 1.
  const Json m = Json::parse(R"({"format": "myriad-model", "version": 1, "gravity": [0, 0, -9.81],
    "bodies": [{"name": "a", "mass": 1, "center_of_mass": [0, 0, -1], "inertia": {"ixx": 0.1, "iyy": 0.1, "izz": 0.1}},
               {"name": "b", "mass": 1, "center_of_mass": [0, 0, -1], "inertia": {"ixx": 0.1, "iyy": 0.1, "izz": 0.1}}],
    "joints": [{"name": "ja", "type": "universal", "parent": "ground", "child": "a", "axis": [1, 0, 0],
                "axis2": [0, 1, 0]},
               {"name": "jb", "type": "universal", "parent": "ground", "child": "b", "axis": [1, 0, 0],
                "axis2": [0, 1, 0], "parent_frame": {"origin": [1, 0, 0]}}],
    "loops": [{"name": "rod1", "type": "distance", "body1": "a", "point1": [0, 0, -1], "body2": "b",
               "point2": [0, 0, -1], "length": 1},
              {"name": "rod2", "type": "distance", "body1": "a", "point1": [0, 0, -1], "body2": "b",
               "point2": [0, 0, -1], "length": 1}]})");
  EXPECT_TRUE(
      compile_refused(m, "/loops/1",
                      {"(redundant): redundant constraints: 2 constraint equations but the Jacobian has "
                       "rank 1",
                       "loop 'rod2' (distance) (/loops/1) is a combination of the equations before it"}));
}

TEST(LoopErrors, named_partition_that_does_not_fit_points_at_independent) {
  Json m = four_bar();
  m["independent"].push_back(Json::parse(R"({"joint": "rocker_pivot"})"));
  EXPECT_TRUE(
      compile_refused(m, "/independent",
                      {"(bad_independent): the model names 2 independent coordinates, but 2 constraint "
                       "equations on 3 velocity coordinates leave 1"}));
}

TEST(LoopErrors, distance_with_coincident_points_names_the_loop) {
  Json m = four_bar();
  m.erase("independent");
  m["loops"].push_back(Json::parse(R"({"name": "zero", "type": "distance", "body1": "crank",
    "point1": [1, 0, 0], "body2": "coupler", "length": 1})"));  // the coupler's origin is the crank's tip
  EXPECT_TRUE(compile_refused(m, "/loops/1", {"distance 'zero' has zero length at this configuration"}));
}

TEST(LoopErrors, constraint_equations_over_capacity_name_the_loop_that_passes_it) {
  // 410 cut revolute joints of 5 equations: equation 2049 belongs to loop 409.
  Json m = four_bar();
  Json loop =
      Json::parse(R"({"type": "cut_revolute", "body1": "coupler", "body2": "rocker", "axis": [0, 0, 1]})");
  m["loops"] = Json::array();
  for (int l = 0; l < 410; ++l) {
    loop["name"] = "l" + std::to_string(l);
    m["loops"].push_back(loop);
  }
  EXPECT_TRUE(compile_refused(m, "/loops/409",
                              {"the loops and drivers have 2050 constraint equations, more than the " +
                               std::to_string(kMaxConstraints) + " a model may have"}));
}

TEST(LoopErrors, time_functions_over_capacity_name_the_function_that_passes_it) {
  // 342 springs between two moving ground points with an actuator: 3 functions each, function 1025 is the
  // second ground motion of spring 341.
  Json m = testing::pendulum_model();
  const Json function = Json::parse(R"({"type": "sine", "amplitude": 0.1, "frequency": 1})");
  m["forces"] = Json::array();
  for (int f = 0; f < 342; ++f)
    m["forces"].push_back({{"name", "s" + std::to_string(f)},
                           {"type", "tsda"},
                           {"body1", "ground"},
                           {"point1", {0, 0, 0}},
                           {"motion1", {{"direction", {1, 0, 0}}, {"function", function}}},
                           {"body2", "ground"},
                           {"point2", {0, 1, 0}},
                           {"motion2", {{"direction", {1, 0, 0}}, {"function", function}}},
                           {"stiffness", 1},
                           {"actuator", function}});
  EXPECT_TRUE(compile_refused(m, "/forces/341/motion2",
                              {"time function 1025 of the model",
                               "more than the " + std::to_string(kMaxTimeFunctions) + " a model may have"}));
}

TEST(LoopErrors, sections_over_capacity_in_a_model_built_in_code_name_the_section) {
  Model model = load_model_text(testing::pendulum_model().dump(), kFile);
  model.outputs.resize(static_cast<size_t>(kMaxOutputs) + 1, model.outputs[0]);
  EXPECT_TRUE(throws_model_error([&] { compile(model); }, kFile, "/outputs",
                                 {std::to_string(kMaxOutputs + 1) + " outputs, more than the"}));
}

}  // namespace loop_errors_test
}  // namespace myriad
