// The CPU twins of the GPU strategies against the fused cpu run: the same numbers bit for bit, the same work and
// statuses, on every shipped model. Staged: instances advanced in lock step between batched factorizations and
// solves of the iteration matrix (every method; RK4 and DOPRI5 one attempt per advance). Warp: each
// factorization and solve shared by the 32 lanes of a warp, emulated lane by lane (RN4, ROS2-W).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "ensemble/staged_runner.hpp"
#include "ensemble/warp_runner.hpp"
#include "support/run_model.hpp"

namespace myriad {
namespace {

using namespace testing;

using TwinRunner = EnsembleResult (*)(const CompiledModel&, const Ensemble&, const RunSpec&,
                                     const std::vector<double>&, int);

// Every shipped model with `method`: the twin against the fused cpu run.
void expect_twin_equals_fused(TwinRunner run_twin, Method method) {
  for (const std::string& file : shipped_model_files()) {
    SCOPED_TRACE(file);
    const Model model = load_model_file(file);
    const auto compiled = compile(model);
    // 70 instances: more than one group of the cycle; a parameter spread so that their step sequences differ.
    // The 9-body chains' Jacobians cost 0.1 s an instance here: 8 of them.
    const int n = compiled->nv > 6 ? 8 : 70;
    ParameterTable t;
    t.source = "generated";
    if (!model.parameters.empty()) {
      t.names = {model.parameters[0].name};
      const double base = model.parameters[0].value;
      for (int i = 0; i < n; ++i)
        t.rows.push_back({base != 0.0 ? base * (0.8 + 0.4 * i / (n - 1)) : -0.1 + 0.2 * i / (n - 1)});
    }
    const Ensemble e = build_ensemble(model, *compiled, n, model.parameters.empty() ? nullptr : &t, {});
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
    const int ndof = compiled->constraints.m > 0 ? compiled->constraints.n_independent : compiled->nv;
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
  expect_twin_equals_fused(run_ensemble_warp_cpu, Method::rn4);
}
TEST(WarpRunner, Ros2wMatchesTheFusedRunBitForBitOnEveryModel) {
  expect_twin_equals_fused(run_ensemble_warp_cpu, Method::ros2w);
}

}  // namespace
}  // namespace myriad
