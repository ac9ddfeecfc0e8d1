#include "ensemble/warp_runner.hpp"

#include "ensemble/cpu_runner.hpp"
#include "ensemble/warp_cadence.hpp"

namespace myriad {

EnsembleResult run_ensemble_warp_cpu(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                                     const std::vector<double>& output_times, int threads, long long step_budget) {
  const int n_times = static_cast<int>(output_times.size());
  const long long budget = step_budget > 0 ? step_budget : -1;
  return run_ensemble_instances(
      model, ensemble, spec, output_times, threads,
      [&](const double* k, const double* q, const double* v, double* scratch, double* outputs,
          IntegratorStats& stats, double* kpi_state) {
        EmulatedWarp warp;
        begin_instance_external_lu(scratch);
        while (!cooperative_advance_instance(warp, model, k, q, v, spec, output_times.data(), n_times, scratch,
                                             outputs, stats, budget, kpi_state)) {
        }
        return instance_progress(scratch).status;
      });
}

}  // namespace myriad
