#pragma once
// Result files of `myriad simulate`: the signal table as CSV and the statistics as JSON. Both written atomically.
#include <string>
#include <vector>

#include "ensemble/ensemble_result.hpp"
#include "ensemble/run_progress.hpp"

namespace myriad {

// Header `instance,time,<signal names>`, one row per instance and output time, each value in the shortest form
// that reads back as the same double (std::to_chars); `nan` after an instance's failure. `progress` (optional)
// counts the instances written. O(N x times x signals).
void write_result_csv(const std::string& path, const EnsembleResult& result,
                      const std::vector<std::string>& signal_names, RunProgress* progress = nullptr);

// The same table in pieces, for a run written chunk by chunk: the header line, then the rows of `n_instances`
// instances numbered from `first_instance`, whose values are [(i * times.size() + k) * n_signals + s].
void write_result_csv_header(std::ostream& out, const std::vector<std::string>& signal_names);
void write_result_csv_rows(std::ostream& out, long long first_instance, long long n_instances,
                           const std::vector<double>& times, int n_signals, const double* values,
                           RunProgress* progress = nullptr);

// Totals (instances, per-status counts, steps, rejected steps, function evaluations, compute wall time and the
// seconds spent writing the files written before this one) and, per instance, steps, rejected,
// function_evaluations, wall_seconds and status. Streamed: O(1) memory beyond the result.
void write_stats_json(const std::string& path, const EnsembleResult& result, const std::string& model_name,
                      const std::string& integrator, double write_seconds = 0.0);

struct StatsTotals {
  long long steps = 0, rejected = 0, function_evaluations = 0, jacobian_evaluations = 0, lu_factorizations = 0;
  int status_counts[kInstanceStatusCount] = {};
};
StatsTotals totals(const EnsembleResult& result);

}  // namespace myriad
