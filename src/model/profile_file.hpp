#pragma once
// A measured road profile for the `profile` time function (docs/model-format.md, "Roads"): a text file of
// (distance, height) pairs in metres, one per line, comma- or whitespace-separated; blank lines and lines starting
// with '#' are skipped, and the first other line may be a header (its first field not a number).
#include <array>
#include <string>
#include <vector>

#include "model/json_reader.hpp"
#include "model/model.hpp"

namespace myriad {

// `path` as written in the model file: absolute, or relative to the folder of the model file `model_file`.
std::string resolve_beside(const std::string& model_file, const std::string& path);

// The points of the file at `path` (at least 2, distances strictly increasing, all finite, at most 100,000). A
// problem fails at `node` (the model's "file" key) with the profile's path, the line and the reason.
std::vector<std::array<Number, 2>> read_profile_file(const std::string& path, const JsonNode& node);

}  // namespace myriad
