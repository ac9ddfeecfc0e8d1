#pragma once
// Narrowing a model's outputs to the signals a run keeps (`myriad simulate --signals`, api::keep_signals): the
// outputs not named are never computed, recorded or written, so a run that wants one signal of eleven pays for one.
#include <string>
#include <vector>

#include "model/model.hpp"

namespace myriad {

// The model with only the named outputs, in the order named; every KPI's output index follows its output.
// Throws std::invalid_argument for an empty list, a name the model has no output of (the message lists the
// model's outputs), a name given twice, or a list that leaves out an output a named KPI reads (the message names
// the KPI). O(outputs + names + KPIs).
Model keep_outputs(Model model, const std::vector<std::string>& names);

}  // namespace myriad
