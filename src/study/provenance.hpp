#pragma once
// Where a results file came from, as the attributes on its root: Myriad's version and git commit, how it was
// built (compiler, flags, floating-point contraction), the backend and the machine, the run's settings, the
// model and study files' text and SHA-256, the sampler and seed, the start time.
#include <string>
#include <utility>
#include <vector>

#include "study/study_spec.hpp"

namespace myriad::study {

struct Provenance {
  std::vector<std::pair<std::string, std::string>> text;
  std::vector<std::pair<std::string, double>> numbers;
};

Provenance study_provenance(const StudySpec& spec, const std::string& model_text);

// "2026-11-26T14:05:00Z".
std::string utc_now();

}  // namespace myriad::study
