// api::load_model / load_model_string: a model loads with the names, defaults and sizes of the model layer, and
// every class of loader and compiler error arrives as api::ModelFileError with exactly the file, JSON pointer,
// reason and message that load_model_file / load_model_text + compile throw as ModelError.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "api/model_impl.hpp"
#include "api/myriad/myriad.hpp"
#include "model/compile.hpp"
#include "model/model_error.hpp"
#include "model/model_loader.hpp"
#include "support/cli_run.hpp"

namespace myriad {
namespace load_model_test {

using Json = nlohmann::ordered_json;

std::string read_model_text(const std::string& relative) {
  std::ifstream in(std::string(MYRIAD_SOURCE_DIR) + "/models/" + relative);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const char* const kPendulumWithInput = R"({
  "format": "myriad-model", "version": 1, "name": "driven",
  "parameters": {"m": 2.0},
  "inputs": {"torque": {"default": 0.5, "min": -3, "unit": "N m"}, "free": {}},
  "bodies": [{"name": "a", "mass": "$m", "center_of_mass": [1, 0, 0], "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}],
  "joints": [{"name": "j", "type": "revolute", "parent": "ground", "child": "a", "axis": [0, 0, 1]}],
  "forces": [{"name": "motor", "type": "joint_actuator", "joint": "j",
              "function": {"type": "input", "input": "torque", "gain": 2}}],
  "outputs": [{"name": "angle", "type": "joint_coordinate", "joint": "j"}]
})";

TEST(ApiLoadModel, FileAndStringGiveTheModelLayersNamesDefaultsAndSizes) {
  const std::string path = test::model_path("quarter_car.json");
  const Model model = load_model_file(path);
  const auto compiled = compile(model);
  const api::LoadedModel from_file = api::load_model(path);
  const api::LoadedModel from_text = api::load_model_string(read_model_text("quarter_car.json"), "qc");
  for (const api::LoadedModel* loaded : {&from_file, &from_text}) {
    EXPECT_EQ(loaded->name(), model.name);
    ASSERT_EQ(loaded->parameter_names().size(), model.parameters.size());
    for (size_t p = 0; p < model.parameters.size(); ++p) {
      EXPECT_EQ(loaded->parameter_names()[p], model.parameters[p].name);
      EXPECT_EQ(loaded->parameter_defaults()[p], model.parameters[p].value);
    }
    ASSERT_EQ(loaded->signal_names().size(), model.outputs.size());
    for (size_t s = 0; s < model.outputs.size(); ++s) EXPECT_EQ(loaded->signal_names()[s], model.outputs[s].name);
    EXPECT_EQ(loaded->nq(), compiled->nq);
    EXPECT_EQ(loaded->nv(), compiled->nv);
    EXPECT_FALSE(loaded->has_loops());
    EXPECT_EQ(loaded->defaults().t_end, model.simulation.t_end);
    EXPECT_EQ(loaded->defaults().dt_out, model.simulation.dt_out);
    EXPECT_EQ(loaded->defaults().rtol, model.simulation.rtol);
    EXPECT_EQ(loaded->defaults().atol, model.simulation.atol);
    EXPECT_EQ(loaded->defaults().h, model.simulation.h);
    EXPECT_EQ(loaded->defaults().integrator, model.simulation.integrator);
    EXPECT_TRUE(loaded->input_names().empty());
  }
  EXPECT_EQ(from_file.source(), path);
  EXPECT_EQ(from_text.source(), "qc");
  EXPECT_TRUE(api::load_model(test::model_path("loops/four_bar.json")).has_loops());
}

TEST(ApiLoadModel, InputsAreListedInFileOrderWithDefaultsAndBounds) {
  const api::LoadedModel loaded = api::load_model_string(kPendulumWithInput);
  EXPECT_EQ(loaded.source(), "<string>");
  ASSERT_EQ(loaded.input_names(), (std::vector<std::string>{"torque", "free"}));
  EXPECT_EQ(loaded.input_defaults(), (std::vector<double>{0.5, 0.0}));
  EXPECT_EQ(loaded.input_lower()[0], -3.0);
  EXPECT_EQ(loaded.input_upper()[0], std::numeric_limits<double>::infinity());
  EXPECT_EQ(loaded.input_lower()[1], -std::numeric_limits<double>::infinity());
  EXPECT_EQ(loaded.input_upper()[1], std::numeric_limits<double>::infinity());
}

// What the model layer throws for `text` (load + compile), and what the API throws: the same four strings.
void expect_same_error(const std::string& text, const std::string& what_class) {
  std::string file, pointer, reason, message;
  try {
    compile(load_model_text(text, "bad.json"));
    ADD_FAILURE() << what_class << ": the model layer accepted it";
    return;
  } catch (const ModelError& e) {
    file = e.file();
    pointer = e.pointer();
    reason = e.reason();
    message = e.what();
  }
  try {
    api::load_model_string(text, "bad.json");
    ADD_FAILURE() << what_class << ": load_model_string accepted it";
  } catch (const api::ModelFileError& e) {
    EXPECT_EQ(e.file(), file) << what_class;
    EXPECT_EQ(e.pointer(), pointer) << what_class;
    EXPECT_EQ(e.reason(), reason) << what_class;
    EXPECT_EQ(std::string(e.what()), message) << what_class;
    EXPECT_EQ(message, file + ": " + pointer + ": " + reason) << what_class;
  }
  // The same file on disk through load_model (the file name is then the path).
  const std::filesystem::path dir = test::fresh_directory("api_load");
  const std::string path = (dir / "bad.json").string();
  std::ofstream(path) << text;
  std::string disk_message;
  try {
    compile(load_model_file(path));
  } catch (const ModelError& e) {
    disk_message = e.what();
    try {
      api::load_model(path);
      ADD_FAILURE() << what_class << ": load_model accepted the file";
    } catch (const api::ModelFileError& api_error) {
      EXPECT_EQ(api_error.file(), e.file()) << what_class;
      EXPECT_EQ(api_error.pointer(), e.pointer()) << what_class;
      EXPECT_EQ(api_error.reason(), e.reason()) << what_class;
      EXPECT_EQ(std::string(api_error.what()), disk_message) << what_class;
    }
  }
  EXPECT_FALSE(disk_message.empty()) << what_class;
  std::filesystem::remove_all(dir);
}

Json four_bar() { return Json::parse(read_model_text("loops/four_bar.json")); }

TEST(ApiLoadModel, EveryLoaderAndCompilerErrorClassArrivesAsModelFileErrorWithTheSameFilePointerAndReason) {
  const Json base = Json::parse(kPendulumWithInput);
  expect_same_error(R"({"format": "myriad-model", "version": 1, "bodies": [)", "JSON syntax");
  Json unknown = base;
  unknown["bodies"][0]["colour"] = "red";
  expect_same_error(unknown.dump(), "unknown key");
  Json reference = base;
  reference["bodies"][0]["mass"] = "$no_such_parameter";
  expect_same_error(reference.dump(), "bad $parameter reference");
  Json negative = base;
  negative["parameters"]["m"] = -1.0;
  expect_same_error(negative.dump(), "invalid value");
  Json input = base;
  input["forces"][0]["function"]["input"] = "thrust";
  expect_same_error(input.dump(), "unknown input");
  Json loop = four_bar();
  loop["joints"][2]["parent_frame"]["origin"] = Json::parse("[10, 0, 0]");  // the links reach 5.5 of 10
  expect_same_error(loop.dump(), "loop that does not assemble");
  expect_same_error(std::string(100000, '[') + std::string(100000, ']'), "nesting limit");
  Json many = base;
  for (int b = 0; b < 1100; ++b) many["bodies"].push_back(base["bodies"][0]);
  expect_same_error(many.dump(), "section count limit");
}

TEST(ApiLoadModel, AFileThatCannotBeOpenedIsARuntimeErrorNamingItNotAModelFileError) {
  const std::string path = "/nonexistent/dir/model.json";
  try {
    api::load_model(path);
    FAIL() << "loaded a missing file";
  } catch (const api::ModelFileError& e) {
    FAIL() << "a missing file is not the model's fault: " << e.what();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("No such file"), std::string::npos) << e.what();
  }
}

}  // namespace load_model_test
}  // namespace myriad
