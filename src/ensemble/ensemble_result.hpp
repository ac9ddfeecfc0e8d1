#pragma once
// What a run of an ensemble produces: every output signal of every instance at every output time, and per
// instance its status, work counters and wall time.
#include <cstddef>
#include <vector>

#include "core/status.hpp"

namespace myriad {

struct EnsembleResult {
  int n_instances = 0, n_times = 0, n_signals = 0;
  std::vector<double> times;                // output grid (n_times)
  std::vector<double> values;               // [(i * n_times + k) * n_signals + s]; NaN after a failure
  std::vector<InstanceStatus> status;       // per instance
  std::vector<IntegratorStats> stats;       // per instance
  std::vector<double> wall_seconds;         // per instance
  double total_wall_seconds = 0.0;
  int threads = 1;
  // Named KPIs (kpi/kpi.hpp): kpis[i * n_kpis + j], NaN for an instance that did not finish ok. kpi_state is the
  // running state a runner that computes them on line keeps (n_kpis x kKpiStateDoubles per instance), empty once
  // finish_kpis (ensemble/ensemble_kpis.hpp) has turned it into kpis. values is empty when the run kept no series.
  int n_kpis = 0;
  std::vector<double> kpis;
  std::vector<double> kpi_state;

  double value(int instance, int time, int signal) const {
    return values[(static_cast<size_t>(instance) * n_times + time) * n_signals + signal];
  }
};

// A result of n_instances instances before the run: values NaN (what an instance that fails leaves behind),
// statuses ok, counters and times zero.
// keep_series false: values stays empty (a run that wants only its KPIs).
EnsembleResult make_ensemble_result(int n_instances, const std::vector<double>& output_times, int n_signals,
                                    bool keep_series = true);

// Output grid t0, t0 + dt, ... up to t_end, with t_end itself always last. Throws std::invalid_argument when
// t_end is not finite or the grid would have more than kMaxOutputTimes times (model/model_limits.hpp), before
// allocating. O(output times).
std::vector<double> output_grid(double t0, double t_end, double dt_out);

}  // namespace myriad
