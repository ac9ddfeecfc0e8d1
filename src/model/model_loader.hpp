#pragma once
// Reads and validates a model file (docs/model-format.md). Throws ModelError naming file, JSON pointer and
// reason at the first problem; a returned Model is complete and valid for its parameter defaults.
#include <string>

#include "model/model.hpp"
#include "model/model_error.hpp"

namespace myriad {

Model load_model_file(const std::string& path);

// Parses model JSON text; `file_name` is used in error messages only.
Model load_model_text(const std::string& json_text, const std::string& file_name);

}  // namespace myriad
