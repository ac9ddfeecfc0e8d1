#pragma once
// Reading time functions and the `forces` section (docs/model-format.md, "Time functions", "Force elements").
// Internal to the loader. Structural checks live here (types, keys, references, which end may move, which
// joint an element may act on); the values a parameter can change are checked by model_validation.
#include <vector>

#include "model/json_reader.hpp"
#include "model/model.hpp"
#include "model/model_reading.hpp"

namespace myriad {

// `allow_input`: the place takes an {"type": "input"} function (force actuators and joint_actuator functions;
// ground motions and drivers do not, their rates matter).
TimeFunction read_time_function(const JsonNode& node, const ReadContext& context, bool allow_input = false);

// The force elements in file order; joint references resolve to the final joint order, so context.joints and
// context.joint_list must be final. Registers the names in context.forces. O(number of elements).
std::vector<ForceElement> read_forces(const JsonNode& forces, ReadContext& context);

}  // namespace myriad
