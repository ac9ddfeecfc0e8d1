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

// The model file with its `subsystems` expanded (model/subsystems.hpp), as the JSON text `myriad expand` writes:
// loading it gives the same model. Checks the whole expanded model as load_model_file does. Throws ModelError.
std::string expanded_model_text(const std::string& path);

// The file's text, read as load_model_file reads it (size limit, directory check). Throws ModelError.
std::string read_model_file_text(const std::string& path);

}  // namespace myriad
