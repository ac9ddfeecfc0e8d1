#include "model/output_selection.hpp"

#include <stdexcept>
#include <unordered_map>

namespace myriad {

namespace {

std::string joined(const std::vector<Output>& outputs) {
  std::string text;
  for (const Output& output : outputs) text += (text.empty() ? "" : ", ") + output.name;
  return text;
}

}  // namespace

Model keep_outputs(Model model, const std::vector<std::string>& names) {
  if (names.empty()) throw std::invalid_argument("no signal named: a run keeps at least one of the model's outputs");
  std::unordered_map<std::string, int> index_of;
  for (size_t i = 0; i < model.outputs.size(); ++i) index_of[model.outputs[i].name] = static_cast<int>(i);
  std::vector<int> new_index(model.outputs.size(), -1);
  std::vector<Output> kept;
  for (const std::string& name : names) {
    const auto found = index_of.find(name);
    if (found == index_of.end())
      throw std::invalid_argument("signal '" + name + "': model '" + model.name + "' has no output of that name (its " +
                                  "outputs: " + joined(model.outputs) + ")");
    if (new_index[static_cast<size_t>(found->second)] >= 0)
      throw std::invalid_argument("signal '" + name + "' is named twice");
    new_index[static_cast<size_t>(found->second)] = static_cast<int>(kept.size());
    kept.push_back(model.outputs[static_cast<size_t>(found->second)]);
  }
  // A named KPI is computed on line from its output's values, so the output has to stay.
  for (Kpi& kpi : model.kpis) {
    const int index = new_index[static_cast<size_t>(kpi.output)];
    if (index < 0)
      throw std::invalid_argument("the signals kept leave out '" + model.outputs[static_cast<size_t>(kpi.output)].name +
                                  "', which KPI '" + kpi.name + "' reads: keep it too");
    kpi.output = index;
  }
  model.outputs = std::move(kept);
  return model;
}

}  // namespace myriad
