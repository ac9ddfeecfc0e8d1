#pragma once
// Running a study (docs/study-format.md): the design drawn once and written to the results file, then chunk
// after chunk through api::simulate into the file, then the ensemble statistics, the Sobol indices (a
// Saltelli design) and the KPI CSV, and only then the file renamed into place. Until that rename the results
// live in `OUT.part`, marked incomplete: no complete-looking file exists while a run is unfinished. A chunk
// is written while the next computes; memory is bounded by two chunks (their series as the run keeps them)
// plus the design (N x P doubles), whatever N is.
#include <array>
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "study/results_file.hpp"
#include "study/study_ranks.hpp"
#include "study/study_spec.hpp"

namespace myriad::study {

struct StudyProgress {
  long long done = 0, total = 0;  // instances with results, of all the study's (resumed chunks count)
  long long chunks_done = 0, chunks = 0;
  long long done_at_start = 0;  // instances a resumed run found done (the rate counts the rest)
  double seconds = 0.0;         // since this run began
};

struct StudyRunOptions {
  std::string out;                                     // the results file; empty: the study's "output"
  bool resume = false;                                 // continue OUT.part from its completed chunks
  std::function<void(const StudyProgress&)> progress;  // from the calling thread, at most ~10 times a second
  const std::atomic<bool>* stop = nullptr;  // set: end after the current chunk, the file incomplete
  const StudyRanks* ranks = nullptr;        // a distributed run (null: one process)
  int fail_rank = -1;  // fault injection for tests: this worker rank fails its first chunk
  // true: OUT.part is a temporary (removed by the process's signal cleanup, io/temporary_files.hpp), for a
  // run that has no resume (`simulate --out FILE.h5`): a signal leaves no file behind instead of a resumable
  // one.
  bool temporary = false;
};

struct StudyOutcome {
  std::string path;     // the results file, or OUT.part when the run stopped early
  std::string kpi_csv;  // beside it (complete runs)
  bool complete = false;
  long long instances = 0, chunks = 0, chunks_run = 0, chunks_resumed = 0;
  std::array<long long, kStatusCodes> status_counts{};  // by api::status_name code
  double seconds = 0.0;
  std::vector<long long> rank_instances;  // instances each rank ran in this run (rank 0 of a distributed run)
  std::string failure;                    // a worker rank that could not go on: which, which chunk, why
};

// A distributed run (options.ranks with size > 1): every rank calls it; rank 0 writes the file and returns
// the outcome, a worker returns its own part (path empty). A worker that fails reports to rank 0, which
// writes what the others finish and leaves the file incomplete and resumable (outcome.failure). Throws
// StudyFileError (the study file's problems, found before anything runs), api::ModelFileError,
// api::SettingError, std::runtime_error (files: the output cannot be written, --resume without an unfinished
// run, an unfinished run without --resume, a study or model file that changed since the run began).
StudyOutcome run_study(const StudySpec& spec, const StudyRunOptions& options);

// OUT.part, and the KPI CSV beside OUT (results.h5 -> results_kpis.csv).
std::string partial_path(const std::string& out);
std::string kpi_csv_path(const std::string& out);

}  // namespace myriad::study
