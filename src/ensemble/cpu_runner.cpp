#include "ensemble/cpu_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "ensemble/ensemble_kpis.hpp"
#include "ensemble/instance_blocks.hpp"
#include "ensemble/lane_runner.hpp"
#include "ensemble/simulate_instance.hpp"
#include "model/model_limits.hpp"

namespace myriad {

std::vector<double> output_grid(double t0, double t_end, double dt_out) {
  if (!std::isfinite(t_end)) throw std::invalid_argument("output grid: t_end must be finite");
  // Counted before anything is allocated: a grid of 1e300 times must be refused, not attempted.
  const std::size_t count = output_time_count(t0, t_end, dt_out);
  if (count > kMaxOutputTimes)
    throw std::invalid_argument("output grid: t_end " + std::to_string(t_end) + " and dt_out " +
                                std::to_string(dt_out) + " give more than the limit of " +
                                std::to_string(kMaxOutputTimes) + " output times");
  std::vector<double> times;
  times.reserve(count);
  const double span = t_end - t0;
  const long long steps = static_cast<long long>(std::floor(span / dt_out + 1e-9));
  for (long long k = 0; k <= steps; ++k) times.push_back(t0 + static_cast<double>(k) * dt_out);
  if (t_end - times.back() > 1e-12 * std::max(1.0, std::abs(t_end)))
    times.push_back(t_end);
  else
    times.back() = t_end;
  return times;
}

EnsembleResult make_ensemble_result(int n_instances, const std::vector<double>& output_times, int n_signals,
                                    bool keep_series) {
  EnsembleResult result;
  result.n_instances = n_instances;
  result.n_times = static_cast<int>(output_times.size());
  result.n_signals = n_signals;
  result.times = output_times;
  if (keep_series)
    result.values.assign(static_cast<size_t>(n_instances) * output_times.size() * static_cast<size_t>(n_signals),
                         std::numeric_limits<double>::quiet_NaN());
  result.status.assign(static_cast<size_t>(n_instances), InstanceStatus::ok);
  result.stats.assign(static_cast<size_t>(n_instances), IntegratorStats{});
  result.wall_seconds.assign(static_cast<size_t>(n_instances), 0.0);
  return result;
}

namespace {

using Clock = std::chrono::steady_clock;

// One thread's share: its own scratch, then blocks of instances from the shared counter (instance_blocks.hpp).
// Without kept series the instance's rows go to a buffer of its own (its KPIs still see every row).
void run_worker(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                const std::vector<double>& times, const InstanceRun& run, InstanceBlocks& blocks,
                EnsembleResult& result, RunProgress* progress) {
  const InstanceScratchLayout layout = instance_scratch_layout(model, spec.method);
  std::vector<double> scratch(layout.bytes / sizeof(double) + 1);
  std::vector<double> constants(static_cast<size_t>(model.n_constants) + 1);
  std::vector<double> q(static_cast<size_t>(model.nq) + 1), v(static_cast<size_t>(model.nv) + 1);
  const size_t per_instance = times.size() * static_cast<size_t>(model.n_outputs);
  const bool series = !result.values.empty() || per_instance == 0;
  std::vector<double> rows(series ? 0 : per_instance);
  const size_t kpi_doubles = static_cast<size_t>(model.n_kpis) * kKpiStateDoubles;
  long long begin = 0, end = 0;
  while (!(progress && progress->cancelled()) && blocks.claim(begin, end)) {
    for (int i = static_cast<int>(begin); i < static_cast<int>(end); ++i) {
      const auto start = Clock::now();
      const size_t index = static_cast<size_t>(i);
      ensemble.gather_constants(i, constants.data());
      ensemble.gather_initial_state(i, q.data(), v.data());
      double* outputs = series ? result.values.data() + per_instance * index : rows.data();
      double* kpi_state = kpi_doubles > 0 ? result.kpi_state.data() + kpi_doubles * index : nullptr;
      result.status[index] = run(constants.data(), q.data(), v.data(), scratch.data(), outputs, result.stats[index],
                                 kpi_state);
      result.wall_seconds[index] = std::chrono::duration<double>(Clock::now() - start).count();
    }
    if (progress) progress->finished(end - begin);
  }
}

}  // namespace

EnsembleResult run_ensemble_cpu(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                                const std::vector<double>& output_times, int threads, RunProgress* progress,
                                bool keep_series, int lanes) {
  if (!valid_lane_count(lanes))
    throw std::invalid_argument("lanes: " + std::to_string(lanes) + " is not 1, 2, 4 or 8");
  if (lanes > 1 && lanes_supported(model, spec))
    return run_ensemble_lanes(model, ensemble, spec, output_times, threads, lanes, progress, keep_series);
  const int n_times = static_cast<int>(output_times.size());
  return run_ensemble_instances(
      model, ensemble, spec, output_times, threads,
      [&](const double* k, const double* q, const double* v, double* scratch, double* outputs,
          IntegratorStats& stats, double* kpi_state) {
        return simulate_instance(model, k, q, v, spec, output_times.data(), n_times, scratch, outputs, stats,
                                 kpi_state);
      },
      progress, keep_series);
}

EnsembleResult run_ensemble_instances(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                                      const std::vector<double>& output_times, int threads, const InstanceRun& run,
                                      RunProgress* progress, bool keep_series) {
  return run_ensemble_on_threads(model, ensemble.n_instances, output_times, threads, keep_series,
                                 [&](InstanceBlocks& blocks, EnsembleResult& result) {
                                   run_worker(model, ensemble, spec, output_times, run, blocks, result, progress);
                                 });
}

EnsembleResult run_ensemble_on_threads(const CompiledModel& model, int n_instances,
                                       const std::vector<double>& output_times, int threads, bool keep_series,
                                       const EnsembleWorker& worker) {
  const int n = n_instances;
  EnsembleResult result = make_ensemble_result(n, output_times, model.n_outputs, keep_series);
  result.kpi_state.assign(static_cast<size_t>(n) * static_cast<size_t>(model.n_kpis) * kKpiStateDoubles, 0.0);
  threads = resolve_thread_count(threads, n);

  const auto start = Clock::now();
  InstanceBlocks blocks(n, ensemble_block_size(n, threads));
  result.threads = run_on_threads(threads, [&] { worker(blocks, result); });
  result.total_wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  finish_kpis(model, result);
  return result;
}

}  // namespace myriad
