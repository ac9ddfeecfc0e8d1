#include "ensemble/warp_runner.hpp"

#include "ensemble/cpu_runner.hpp"
#include "ensemble/warp_cadence.hpp"
#include "linalg/lane_lu.hpp"

namespace myriad {

namespace {

// A warp of kWarpLanes lanes played by one thread: it is the leader, broadcasts are the leader's own values, and
// the cooperative LU runs phase by phase, every lane's share in turn.
struct EmulatedWarp {
  bool leader() const { return true; }
  int broadcast(int value) const { return value; }
  void sync() const {}
  bool factor(int n, double* A, double* pivots) const { return lane_lu_factor_emulated(n, A, pivots, kWarpLanes); }
  void solve(int n, const double* LU, const double* pivots, double* b) const {
    lane_lu_solve_emulated(n, LU, pivots, b, kWarpLanes);
  }
};

}  // namespace

EnsembleResult run_ensemble_warp_cpu(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                                     const std::vector<double>& output_times, int threads) {
  const int n_times = static_cast<int>(output_times.size());
  return run_ensemble_instances(
      model, ensemble, spec, output_times, threads,
      [&](const double* k, const double* q, const double* v, double* scratch, double* outputs,
          IntegratorStats& stats) {
        EmulatedWarp warp;
        begin_instance_external_lu(scratch);
        cooperative_advance_instance(warp, model, k, q, v, spec, output_times.data(), n_times, scratch, outputs,
                                     stats, -1);
        return instance_progress(scratch).status;
      });
}

}  // namespace myriad
