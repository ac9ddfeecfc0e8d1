#pragma once
// Reading a study file (docs/study-format.md). Every refusal is a StudyFileError naming the file, the JSON
// pointer and the reason: malformed JSON, an unknown key, a value of the wrong type, an unknown distribution
// or sampler, bounds reversed, a sampler size that is not a power of two where the sampler needs one.
#include <string>

#include "study/study_spec.hpp"

namespace myriad::study {

// Reads and checks the file on its own (not against the model: check_study_against_model). Relative paths in
// it (the model, a table, the output) are taken from the study file's folder. Throws StudyFileError;
// std::runtime_error when the file cannot be read. O(file size).
StudySpec read_study_file(const std::string& path);
StudySpec read_study_text(const std::string& text, const std::string& file, const std::string& folder);

// The names the study uses must be the model's: each parameter (sampled or fixed) a model parameter, each KPI
// a named KPI, each kept series an output, the series spacing a whole number of output steps. Throws
// StudyFileError at the name's pointer.
struct ModelNames {
  std::vector<std::string> parameters, kpis, signals;
  double dt_out = 0.0;  // the run's output spacing
};
void check_study_against_model(const StudySpec& spec, const ModelNames& model);

// Where the n-th parameter / KPI / signal was named, for messages of later stages.
std::string parameter_pointer(const StudySpec& spec, std::size_t index);

}  // namespace myriad::study
