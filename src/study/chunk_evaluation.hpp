#pragma once
// One chunk of a study: its parameter rows run through api::simulate (or the built-in Ishigami function), and
// what the results file keeps of them: statuses, failure times, work counters, the chosen KPIs, the kept
// series decimated to their spacing.
#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "myriad/myriad.hpp"
#include "study/results_file.hpp"
#include "study/study_spec.hpp"

namespace myriad::study {

// What a chunk needs of the study beyond its rows, fixed before the first chunk runs.
struct ChunkPlan {
  const StudySpec* spec = nullptr;
  std::optional<api::LoadedModel> model;  // none for builtin:ishigami
  std::vector<std::string> parameter_names;
  std::vector<int> kpi_columns;     // the model's KPI index of each kept KPI
  std::vector<int> series_columns;  // the model's output index of each kept series
  int series_every = 1;             // kept series: every n-th output time of the run
  int threads = 0;                  // when the study leaves threads to Myriad (0): this many (0: all cores)
  // Derived parameters: per expression, where each of its names comes from: a design column (>= 0), else the
  // constant (a fixed value or the model's default).
  struct Source {
    int column = -1;
    double constant = 0.0;
  };
  std::vector<std::vector<Source>> derived_sources;
};

// The names a study can use of its model: for builtin:ishigami x1, x2, x3 and the KPI y.
struct ModelNames;
ChunkPlan plan_chunks(const StudySpec& spec, std::vector<std::string> design_names);

// Runs rows [row0, row0 + rows) of the design (values: rows x P) and returns what is written (with the kept
// series' output times). progress(done) is called with the chunk's instances done. Throws what api::simulate
// throws (SettingError for a bad simulation setting; never Cancelled: a chunk always finishes).
ChunkRows evaluate_chunk(const ChunkPlan& plan, long long row0, long long rows,
                         const std::vector<double>& values, const std::function<void(long long)>& progress);

}  // namespace myriad::study
