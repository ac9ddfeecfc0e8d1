// Model `inputs` (docs/model-format.md, "Inputs"): loading, the errors a file gets (file, JSON pointer, reason),
// the compiled slots the stepping API writes, and batch runs that use each input's default on the fast path and
// the reference path alike.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "ensemble/ensemble.hpp"
#include "model/compile.hpp"
#include "model/model.hpp"
#include "model/model_error.hpp"
#include "model/model_loader.hpp"
#include "model/time_function_packing.hpp"
#include "reference/reference_dynamics.hpp"
#include "dynamics/articulated_body.hpp"

namespace myriad {
namespace inputs_test {

// A 2 kg mass on a prismatic x joint without gravity, pushed by a joint_actuator `function` and pulled by a tsda
// from ground whose `actuator` is given; `inputs` is the section's text.
std::string mass_model(const std::string& inputs, const std::string& function,
                       const std::string& tsda_actuator = R"({"type": "constant", "value": 0})") {
  return R"({"format": "myriad-model", "version": 1, "gravity": [0, 0, 0],
    "inputs": )" + inputs + R"(,
    "bodies": [{"name": "m", "mass": 2, "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}],
    "joints": [{"name": "x", "type": "prismatic", "parent": "ground", "child": "m", "axis": [1, 0, 0],
                "position": [1], "velocity": [0]}],
    "forces": [{"name": "push", "type": "joint_actuator", "joint": "x", "function": )" + function + R"(},
               {"name": "pull", "type": "tsda", "body1": "ground", "point1": [0, 0, 0], "body2": "m",
                "actuator": )" + tsda_actuator + R"(}],
    "outputs": [{"name": "x", "type": "joint_coordinate", "joint": "x"}]})";
}

const char* const kInputs =
    R"({"force": {"default": 3, "min": -10, "max": 10, "unit": "N", "description": "push"}, "free": {}})";

// The loader's error for `text`: "t.json" with its pointer and reason.
ModelError load_error(const std::string& text) {
  try {
    load_model_text(text, "t.json");
  } catch (const ModelError& e) {
    return e;
  }
  ADD_FAILURE() << "model loaded, expected an error";
  return ModelError("", "", "");
}

TEST(ModelInputs, LoadWithDefaultsBoundsAndFunctions) {
  const Model m = load_model_text(mass_model(kInputs, R"({"type": "input", "input": "force", "gain": 0.5})",
                                             R"({"type": "input", "input": "free"})"),
                                  "t.json");
  ASSERT_EQ(m.inputs.size(), 2u);
  EXPECT_EQ(m.inputs[0].name, "force");
  EXPECT_EQ(m.inputs[0].value, 3.0);
  EXPECT_EQ(m.inputs[0].min, -10.0);
  EXPECT_EQ(m.inputs[0].max, 10.0);
  EXPECT_EQ(m.inputs[0].unit, "N");
  EXPECT_EQ(m.inputs[0].description, "push");
  EXPECT_EQ(m.inputs[1].name, "free");
  EXPECT_EQ(m.inputs[1].value, 0.0);
  EXPECT_EQ(m.inputs[1].min, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(m.inputs[1].max, std::numeric_limits<double>::infinity());
  const TimeFunction& f = m.forces[0].actuator;
  EXPECT_EQ(f.kind, TimeFunction::Kind::input);
  EXPECT_EQ(f.input, 0);
  EXPECT_EQ(f.gain, 0.5);
  EXPECT_EQ(f.value.value, 1.5);  // gain * default: what batch runs use
  EXPECT_EQ(m.forces[1].actuator.input, 1);
  EXPECT_EQ(m.forces[1].actuator.gain, 1.0);
  const TimeValue v = evaluate_time_function(f, 7.0);  // the reference path's evaluation
  EXPECT_EQ(v.value, 1.5);
  EXPECT_EQ(v.rate, 0.0);
  EXPECT_EQ(v.acceleration, 0.0);
}

TEST(ModelInputs, CompiledSlotsHoldGainTimesTheDefault) {
  const Model m = load_model_text(mass_model(kInputs, R"({"type": "input", "input": "force", "gain": 0.5})",
                                             R"({"type": "input", "input": "force", "gain": -2})"),
                                  "t.json");
  const auto compiled = compile(m);
  const auto slots = input_slots(m, *compiled);
  ASSERT_EQ(slots.size(), 2u);
  ASSERT_EQ(slots[0].size(), 2u);
  EXPECT_TRUE(slots[1].empty());  // `free` drives nothing
  std::vector<double> k(static_cast<size_t>(compiled->n_constants));
  pack_constants(*compiled, apply_parameters(m, default_parameter_values(m)), k.data());
  EXPECT_EQ(slots[0][0].gain, 0.5);
  EXPECT_EQ(slots[0][1].gain, -2.0);
  EXPECT_EQ(k[static_cast<size_t>(slots[0][0].constant)], 1.5);
  EXPECT_EQ(k[static_cast<size_t>(slots[0][1].constant)], -6.0);
  for (int i = 0; i < compiled->n_time_functions; ++i) EXPECT_EQ(compiled->time_functions[i].kind, kTfConstant);
}

// The fast path's forward dynamics and the reference path's see the same force, gain * default, and a model with
// the equivalent constant actuators gives the same accelerations bit for bit.
TEST(ModelInputs, BatchDynamicsUseTheDefaultOnBothPaths) {
  const Model with_input = load_model_text(
      mass_model(kInputs, R"({"type": "input", "input": "force", "gain": 0.5})",
                 R"({"type": "input", "input": "force", "gain": -2})"),
      "t.json");
  // tsda from the ground origin to the mass at x = 1: tension -6 pulls the points apart, so +6 along x; with the
  // push 1.5, a = 7.5 / 2.
  const double expected = (1.5 + 6.0) / 2.0;
  const auto compiled = compile(with_input);
  std::vector<double> k(static_cast<size_t>(compiled->n_constants));
  pack_constants(*compiled, with_input, k.data());
  const double q[1] = {1.0}, v[1] = {0.0};
  std::vector<unsigned char> scratch;
  std::size_t bytes = 0;
  carve_tree_workspace<double>(*compiled, nullptr, &bytes);
  scratch.resize(bytes + 64);
  TreeWorkspace<double> w = carve_tree_workspace<double>(*compiled, scratch.data(), nullptr);
  double qdd[1] = {0.0};
  forward_dynamics(*compiled, k.data(), 0.25, q, v, w, qdd);
  EXPECT_NEAR(qdd[0], expected, 1e-14);
  const Eigen::VectorXd reference =
      reference::forward_dynamics(with_input, 0.25, Eigen::VectorXd::Constant(1, 1.0), Eigen::VectorXd::Zero(1));
  EXPECT_NEAR(reference[0], expected, 1e-14);

  const Model constant = load_model_text(mass_model(kInputs, R"({"type": "constant", "value": 1.5})",
                                                    R"({"type": "constant", "value": -6})"),
                                         "t.json");
  const auto compiled_constant = compile(constant);
  std::vector<double> k2(static_cast<size_t>(compiled_constant->n_constants));
  pack_constants(*compiled_constant, constant, k2.data());
  EXPECT_EQ(k, k2);
  double qdd2[1] = {0.0};
  forward_dynamics(*compiled_constant, k2.data(), 0.25, q, v, w, qdd2);
  EXPECT_EQ(qdd[0], qdd2[0]);
}

TEST(ModelInputs, ErrorsNameTheFilePointerAndReason) {
  const std::string push = R"({"type": "input", "input": "force"})";
  ModelError e = load_error(mass_model(kInputs, R"({"type": "input", "input": "forse"})"));
  EXPECT_EQ(e.file(), "t.json");
  EXPECT_EQ(e.pointer(), "/forces/0/function/input");
  EXPECT_NE(e.reason().find("unknown input 'forse'"), std::string::npos) << e.reason();

  e = load_error(mass_model(R"({"force": {"min": 2, "max": 1, "default": 1.5}})", push));
  EXPECT_EQ(e.pointer(), "/inputs/force/min");
  EXPECT_NE(e.reason().find("greater than max"), std::string::npos) << e.reason();

  e = load_error(mass_model(R"({"force": {"min": -1, "max": 1, "default": 4}})", push));
  EXPECT_EQ(e.pointer(), "/inputs/force/default");
  EXPECT_NE(e.reason().find("outside [-1, 1]"), std::string::npos) << e.reason();

  e = load_error(mass_model(R"({"force": {"min": 1}})", push));  // default 0 below min
  EXPECT_EQ(e.pointer(), "/inputs/force");

  e = load_error(mass_model(R"({"force": {"default": 1e999}})", push));  // parses to infinity
  EXPECT_EQ(e.file(), "t.json");

  e = load_error(mass_model(R"({"force": {"default": "$m"}})", push));
  EXPECT_EQ(e.pointer(), "/inputs/force/default");

  e = load_error(mass_model(R"({"force": {"deflt": 1}})", push));
  EXPECT_EQ(e.pointer(), "/inputs/force/deflt");

  e = load_error(mass_model(R"({"1force": {}})", push));
  EXPECT_EQ(e.pointer(), "/inputs/1force");

  e = load_error(mass_model(kInputs, R"({"type": "input", "input": "force", "gain": "$g"})"));
  EXPECT_EQ(e.pointer(), "/forces/0/function/gain");

  e = load_error(mass_model(kInputs, R"({"type": "input", "input": "force", "value": 1})"));
  EXPECT_EQ(e.pointer(), "/forces/0/function/value");

  e = load_error(mass_model(kInputs, R"({"type": "input"})"));
  EXPECT_EQ(e.pointer(), "/forces/0/function/input");

  e = load_error(mass_model("[1]", push));
  EXPECT_EQ(e.pointer(), "/inputs");
}

// A ground motion's rate enters the tsda's damping, and a driver's its constraint: an input (rate 0, held over an
// advance) is refused there.
TEST(ModelInputs, RefusedOutsideForceActuators) {
  const std::string text = R"({"format": "myriad-model", "version": 1, "gravity": [0, 0, 0],
    "inputs": {"u": {}},
    "bodies": [{"name": "m", "mass": 2, "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}],
    "joints": [{"name": "x", "type": "prismatic", "parent": "ground", "child": "m", "axis": [1, 0, 0],
                "position": [1], "velocity": [0]}],
    "forces": [{"name": "s", "type": "tsda", "body1": "ground", "body2": "m", "stiffness": 1,
                "motion1": {"direction": [1, 0, 0], "function": {"type": "input", "input": "u"}}}]})";
  const ModelError e = load_error(text);
  EXPECT_EQ(e.pointer(), "/forces/0/motion1/function/type");
  EXPECT_NE(e.reason().find("only allowed"), std::string::npos) << e.reason();
}

// Every instance of an ensemble packs gain * default (batch runs); parameters do not touch inputs.
TEST(ModelInputs, EnsembleInstancesStartAtTheDefault) {
  const Model m = load_model_text(mass_model(kInputs, R"({"type": "input", "input": "force", "gain": 0.5})"), "t.json");
  const auto compiled = compile(m);
  const Ensemble e = build_ensemble(m, *compiled, 3, nullptr, {});
  const int slot = input_slots(m, *compiled)[0][0].constant;
  for (int i = 0; i < 3; ++i) EXPECT_EQ(e.constants[static_cast<size_t>(slot) * 3 + i], 1.5);
}

}  // namespace inputs_test
}  // namespace myriad
