#pragma once
// Test support: a shipped model loaded, compiled and packed for one instance, with a workspace ready for the
// fast-path algorithms.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "dynamics/tree_workspace.hpp"
#include "model/compile.hpp"
#include "model/model_loader.hpp"

namespace myriad::testing {

inline std::string model_path(const std::string& file) { return std::string(MYRIAD_SOURCE_DIR) + "/models/" + file; }

// Every model file in models/ and models/loops/, and the ladder with L = 4 (the ladder family's small member),
// sorted: the models every cross-path test runs.
inline std::vector<std::string> shipped_model_files() {
  std::vector<std::string> files;
  for (const char* folder : {"/models", "/models/loops"})
    for (const auto& entry : std::filesystem::directory_iterator(std::string(MYRIAD_SOURCE_DIR) + folder))
      if (entry.path().extension() == ".json") files.push_back(entry.path().string());
  files.push_back(std::string(MYRIAD_SOURCE_DIR) + "/models/loops/ladder/ladder_L4.json");
  std::sort(files.begin(), files.end());
  return files;
}

// The shipped models that the every-model integration runs (twins, resumable instances, method comparisons) take:
// all but hmmwv.json, stiff by design (dominant eigenvalue -1.76e5: an explicit method needs some 10^4 steps per
// 0.2 s of it, seconds an instance), which tests/physics/hmmwv_test.cpp runs on its own horizons: both backends,
// RN4 and DOPRI5, the bumps, seed 000's Tables 3-4 shortened. Static checks (dynamics against the reference,
// Jacobians, model classes) take every model.
inline bool stiff_vehicle(const std::string& file) {
  return file.size() >= 10 && file.compare(file.size() - 10, 10, "hmmwv.json") == 0;
}
inline std::vector<std::string> shipped_model_files_to_run() {
  std::vector<std::string> files = shipped_model_files();
  files.erase(std::remove_if(files.begin(), files.end(), stiff_vehicle), files.end());
  return files;
}

struct Instance {
  Model model;  // parameters applied
  std::unique_ptr<CompiledModel> compiled;
  std::vector<double> constants, q, v;
  std::vector<unsigned char> buffer;
  TreeWorkspace<double> w{};

  explicit Instance(const Model& loaded, std::vector<std::pair<std::string, double>> overrides = {}) {
    std::vector<double> values = default_parameter_values(loaded);
    for (const auto& [name, value] : overrides)
      for (size_t p = 0; p < loaded.parameters.size(); ++p)
        if (loaded.parameters[p].name == name) values[p] = value;
    model = apply_parameters(loaded, values);
    compiled = compile(model);
    constants.resize(static_cast<size_t>(compiled->n_constants));
    pack_constants(*compiled, model, constants.data());
    q.resize(static_cast<size_t>(compiled->nq));
    v.resize(static_cast<size_t>(compiled->nv));
    initial_state(model, q.data(), v.data());
    buffer.resize(tree_workspace_bytes<double>(*compiled));
    w = carve_tree_workspace<double>(*compiled, buffer.data(), nullptr);
  }
  const double* k() const { return constants.data(); }
};

inline int output_index(const Model& model, const std::string& name) {
  for (size_t i = 0; i < model.outputs.size(); ++i)
    if (model.outputs[i].name == name) return static_cast<int>(i);
  return -1;
}

}  // namespace myriad::testing
