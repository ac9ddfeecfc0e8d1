#pragma once
// Reading the `outputs` section (docs/model-format.md, "Outputs"). Internal to the loader.
#include <vector>

#include "model/json_reader.hpp"
#include "model/model.hpp"
#include "model/model_reading.hpp"

namespace myriad {

// The outputs in file order, with joint references into the final joint order and force references into the
// file order of `forces` (context.joint_list and context.force_list must be set). O(number of outputs).
std::vector<Output> read_outputs(const JsonNode& outputs, const ReadContext& context);

}  // namespace myriad
