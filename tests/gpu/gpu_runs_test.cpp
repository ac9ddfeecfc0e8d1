// The runs the GPU tests compare (gpu_runs.hpp), checked on the CPU where every session can: each finishes ok for
// the extremes and the middle of the widest parameter spread the GPU tests use (a comparison of runs that both
// blew up proves nothing), within kGpuRunMaxSteps steps (what a step budget of 5 a launch turns into launches).
// Written after the first device run found both failures there (gpu_runs.hpp).
#include <gtest/gtest.h>

#include "gpu/gpu_runs.hpp"

namespace myriad {
namespace gpu_runs_test {

using namespace testing;

TEST(GpuRuns, EveryRunTheGpuTestsCompareFinishesOkOnTheCpuWithinAFewThousandSteps) {
  int checked = 0;
  for (const std::string& file : gpu_run_files()) {
    const Model model = load_model_file(model_path(file));
    const auto compiled = compile(model);
    const Spread spread = gpu_spread(file);
    const Ensemble e = spread_ensemble(model, *compiled, 3, spread.low, spread.high);
    for (const GpuRun& run : gpu_runs_every_method(file)) {
      const std::string where = file + " " + method_label(run.spec.method);
      const EnsembleResult r = run_ensemble_cpu(*compiled, e, run.spec, run.times, 0);
      for (int i = 0; i < e.n_instances; ++i) {
        const size_t index = static_cast<size_t>(i);
        EXPECT_EQ(r.status[index], InstanceStatus::ok) << where << " instance " << i;
        EXPECT_LE(r.stats[index].steps + r.stats[index].rejected, kGpuRunMaxSteps) << where << " instance " << i;
        EXPECT_GT(r.stats[index].steps, 0) << where << " instance " << i;
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 4 * static_cast<int>(gpu_run_files().size()));
}

// The plan that set the first device run's staged RK4 comparison NaN against NaN fails here as it did there: the
// check above would have caught it.
TEST(GpuRuns, Rk4AtTheOldStepBlowsUpOnTheStiffPendulum) {
  const Model model = load_model_file(model_path("stiff_double_pendulum.json"));
  const auto compiled = compile(model);
  const Ensemble e = build_ensemble(model, *compiled, 1, nullptr, {});
  const EnsembleResult r = run_ensemble_cpu(*compiled, e, rk4(1e-4), output_grid(0.0, 0.5, 0.05), 1);
  EXPECT_EQ(r.status[0], InstanceStatus::non_finite);
  EXPECT_LT(r.stats[0].steps, 10);
}

}  // namespace gpu_runs_test
}  // namespace myriad
