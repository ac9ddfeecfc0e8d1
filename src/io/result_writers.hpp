#pragma once
// Result files of `myriad simulate`: the signal table as CSV and the statistics as JSON. Both written atomically.
#include <string>
#include <vector>

#include "ensemble/ensemble_result.hpp"

namespace myriad {

// Header `instance,time,<signal names>`, one row per instance and output time, values with 17 significant digits.
void write_result_csv(const std::string& path, const EnsembleResult& result,
                      const std::vector<std::string>& signal_names);

// Totals (instances, per-status counts, steps, rejected steps, function evaluations, wall time) and, per instance,
// steps, rejected, function_evaluations, wall_seconds and status.
void write_stats_json(const std::string& path, const EnsembleResult& result, const std::string& model_name,
                      const std::string& integrator);

struct StatsTotals {
  long long steps = 0, rejected = 0, function_evaluations = 0, jacobian_evaluations = 0, lu_factorizations = 0;
  int status_counts[kInstanceStatusCount] = {};
};
StatsTotals totals(const EnsembleResult& result);

}  // namespace myriad
