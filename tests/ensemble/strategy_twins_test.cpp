// The CPU twins of the GPU strategies against the fused cpu run: the same numbers bit for bit, the same work and
// statuses, on every shipped model. Staged: instances advanced in lock step between batched factorizations and
// solves of the iteration matrix (every method; RK4 and DOPRI5 one attempt per advance). Warp: each
// factorization and solve shared by the 32 lanes of a warp, emulated lane by lane (RN4, ROS2-W).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>

#include "ensemble/staged_runner.hpp"
#include "ensemble/warp_cadence.hpp"
#include "ensemble/warp_runner.hpp"
#include "support/run_model.hpp"

namespace myriad {
namespace strategy_twins_test {

using namespace testing;

using TwinRunner = std::function<EnsembleResult(const CompiledModel&, const Ensemble&, const RunSpec&,
                                                const std::vector<double>&, int)>;

// The warp twin with a step budget per call (0: none).
TwinRunner warp_twin(long long step_budget) {
  return [step_budget](const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                       const std::vector<double>& times, int threads) {
    return run_ensemble_warp_cpu(model, ensemble, spec, times, threads, step_budget);
  };
}

// Every shipped model with `method`: the twin against the fused cpu run.
void expect_twin_equals_fused(TwinRunner run_twin, Method method) {
  for (const std::string& file : shipped_model_files_to_run()) {
    SCOPED_TRACE(file);
    const Model model = load_model_file(file);
    const auto compiled = compile(model);
    // 70 instances: more than one group of the cycle; a parameter spread so that their step sequences differ.
    // The 9-body chains' Jacobians cost 0.1 s an instance here: 8 of them.
    const int n = compiled->nv > 6 ? 8 : 70;
    const Ensemble e = spread_first_parameter(model, *compiled, n);
    const std::vector<double> times = output_grid(0.0, std::min(0.3, model.simulation.t_end), 0.05);
    RunSpec spec;
    spec.method = method;
    spec.h = 2e-3;
    // Bit equality needs no tight tolerance: the low-order methods (many steps at 1e-6) run at 1e-4.
    const bool low_order = method == Method::ros2w || method == Method::dopri5;
    spec.control.rtol = low_order ? 1e-4 : 1e-6;
    spec.control.atol = low_order ? 1e-6 : 1e-8;
    spec.max_steps = 20000;
    const EnsembleResult fused = run_ensemble_cpu(*compiled, e, spec, times, 2);
    const EnsembleResult twin = run_twin(*compiled, e, spec, times, 2);
    long long factorizations = 0;
    for (int i = 0; i < e.n_instances; ++i) {
      const size_t k = static_cast<size_t>(i);
      ASSERT_EQ(twin.status[k], fused.status[k]) << i;
      EXPECT_EQ(twin.stats[k].steps, fused.stats[k].steps) << i;
      EXPECT_EQ(twin.stats[k].rejected, fused.stats[k].rejected) << i;
      EXPECT_EQ(twin.stats[k].lu_factorizations, fused.stats[k].lu_factorizations) << i;
      EXPECT_EQ(twin.stats[k].function_evaluations, fused.stats[k].function_evaluations) << i;
      factorizations += twin.stats[k].lu_factorizations;
    }
    // The implicit methods did go through the batched factorizations (a model with degrees of freedom; the
    // driven 0-DOF loops have no iteration matrix).
    const int ndof = iteration_matrix_order(*compiled);
    if ((method == Method::rn4 || method == Method::ros2w) && ndof > 0) EXPECT_GT(factorizations, 0);
    ASSERT_EQ(twin.values.size(), fused.values.size());
    for (size_t j = 0; j < fused.values.size(); ++j)
      ASSERT_EQ(std::memcmp(&twin.values[j], &fused.values[j], sizeof(double)), 0)
          << "value " << j << ": " << twin.values[j] << " vs " << fused.values[j];
  }
}

TEST(StagedRunner, Rn4MatchesTheFusedRunBitForBitOnEveryModel) {
  expect_twin_equals_fused(run_ensemble_staged_cpu, Method::rn4);
}

// ROS2-W skips the factorization while it reuses its factors: the cycle's solves then use the pivots it kept.
TEST(StagedRunner, Ros2wMatchesTheFusedRunBitForBitOnEveryModel) {
  expect_twin_equals_fused(run_ensemble_staged_cpu, Method::ros2w);
}

// The explicit methods advance one attempt per launch in lock step.
TEST(StagedRunner, Rk4MatchesTheFusedRunBitForBitOnEveryModel) {
  expect_twin_equals_fused(run_ensemble_staged_cpu, Method::rk4);
}
TEST(StagedRunner, Dopri5MatchesTheFusedRunBitForBitOnEveryModel) {
  expect_twin_equals_fused(run_ensemble_staged_cpu, Method::dopri5);
}

TEST(WarpRunner, Rn4MatchesTheFusedRunBitForBitOnEveryModel) {
  expect_twin_equals_fused(warp_twin(0), Method::rn4);
}
TEST(WarpRunner, Ros2wMatchesTheFusedRunBitForBitOnEveryModel) {
  expect_twin_equals_fused(warp_twin(0), Method::ros2w);
}

// A step budget per call, as the GPU's launches with compaction give it: an attempt stopped at its linear algebra
// carries on with what is left of the budget, and the run is still the fused one bit for bit.
TEST(WarpRunner, StepBudgetsPerCallGiveTheSameResultsBitForBit) {
  expect_twin_equals_fused(warp_twin(3), Method::rn4);
  expect_twin_equals_fused(warp_twin(3), Method::ros2w);
}

// The budget is what a launch may begin in all: an attempt stopped at its factorization or a solve goes on with
// what is left of it, so no call begins more than `budget` attempts, and every call but the last uses it all.
TEST(WarpRunner, ACallBeginsAtMostItsBudgetOfAttempts) {
  const Model model = load_model_file(model_path("stiff_double_pendulum.json"));
  const auto compiled = compile(model);
  const Ensemble e = build_ensemble(model, *compiled, 1, nullptr, {});
  const std::vector<double> times = output_grid(0.0, 0.2, 0.05);
  RunSpec spec;
  spec.method = Method::rn4;
  spec.control.rtol = 1e-6;
  spec.control.atol = 1e-8;
  std::vector<double> constants(static_cast<size_t>(compiled->n_constants) + 1);
  std::vector<double> q(static_cast<size_t>(compiled->nq)), v(static_cast<size_t>(compiled->nv));
  e.gather_constants(0, constants.data());
  e.gather_initial_state(0, q.data(), v.data());
  std::vector<double> scratch(instance_scratch_layout(*compiled, spec.method).bytes / sizeof(double) + 1);
  std::vector<double> outputs(times.size() * static_cast<size_t>(compiled->n_outputs));
  IntegratorStats stats;
  EmulatedWarp warp;
  begin_instance_external_lu(scratch.data());
  constexpr long long kBudget = 3;
  long long calls = 0, attempts = 0;
  for (bool finished = false; !finished; ++calls) {
    ASSERT_LT(calls, 100000);
    finished = cooperative_advance_instance(warp, *compiled, constants.data(), q.data(), v.data(), spec,
                                            times.data(), static_cast<int>(times.size()), scratch.data(),
                                            outputs.data(), stats, kBudget);
    const long long begun = stats.steps + stats.rejected - attempts;
    attempts += begun;
    EXPECT_LE(begun, kBudget) << "call " << calls;
    if (!finished) EXPECT_EQ(begun, kBudget) << "call " << calls;
  }
  EXPECT_EQ(instance_progress(scratch.data()).status, InstanceStatus::ok);
  EXPECT_GT(attempts, 10 * kBudget);
  EXPECT_EQ(calls, (attempts + kBudget - 1) / kBudget);
}

}  // namespace strategy_twins_test
}  // namespace myriad
