#pragma once
// Reading the `loops`, `drivers` and `independent` sections (docs/model-format.md, "Loops", "Drivers",
// "Independent coordinates"). Internal to the loader. Structural checks live here (types, keys, body and
// joint references, a loop between a body and itself, a driver on a coordinate that does not exist or is
// already driven, an independent coordinate named twice or driven); the values a parameter can change (axes,
// lengths, rod masses, coincident points) are checked by model_validation.
#include <vector>

#include "model/json_reader.hpp"
#include "model/model.hpp"
#include "model/model_reading.hpp"

namespace myriad {

// The loops in file order (Loop::file_index set). Body references resolve through context.bodies. O(loops).
std::vector<Loop> read_loops(const JsonNode& loops, const ReadContext& context);

// The drivers in file order; joint references resolve to the final joint order (context.joints and
// context.joint_list must be final). O(drivers).
std::vector<Driver> read_drivers(const JsonNode& drivers, const ReadContext& context);

// The named independent velocity coordinates, in file order; `drivers` are the model's drivers (a driven
// coordinate cannot be independent). O(entries * (entries + drivers)).
std::vector<IndependentCoordinate> read_independent(const JsonNode& independent, const ReadContext& context,
                                                    const std::vector<Driver>& drivers);

}  // namespace myriad
