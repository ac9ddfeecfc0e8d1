// The staged strategy's CPU twin (instances advanced in lockstep between batched factorizations and solves of
// Pi) against the fused cpu run: the same numbers bit for bit, the same work and statuses, on every shipped model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "ensemble/staged_runner.hpp"
#include "support/run_model.hpp"

namespace myriad {
namespace {

using namespace testing;

TEST(StagedRunner, MatchesTheFusedRunBitForBitOnEveryModel) {
  for (const std::string& file : shipped_model_files()) {
    SCOPED_TRACE(file);
    const Model model = load_model_file(file);
    const auto compiled = compile(model);
    // 70 instances: more than one group of the cycle; a parameter spread so that their step sequences differ.
    // The 9-body chains' RN4 Jacobians cost 0.1 s an instance here: 8 of them.
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
    spec.method = Method::rn4;
    spec.control.rtol = 1e-6;
    spec.control.atol = 1e-8;
    spec.max_steps = 20000;
    const EnsembleResult fused = run_ensemble_cpu(*compiled, e, spec, times, 2);
    const EnsembleResult staged = run_ensemble_staged_cpu(*compiled, e, spec, times, 2);
    for (int i = 0; i < e.n_instances; ++i) {
      const size_t k = static_cast<size_t>(i);
      ASSERT_EQ(staged.status[k], fused.status[k]) << i;
      EXPECT_EQ(staged.stats[k].steps, fused.stats[k].steps) << i;
      EXPECT_EQ(staged.stats[k].rejected, fused.stats[k].rejected) << i;
      EXPECT_EQ(staged.stats[k].lu_factorizations, fused.stats[k].lu_factorizations) << i;
      EXPECT_EQ(staged.stats[k].function_evaluations, fused.stats[k].function_evaluations) << i;
    }
    ASSERT_EQ(staged.values.size(), fused.values.size());
    for (size_t j = 0; j < fused.values.size(); ++j)
      ASSERT_EQ(std::memcmp(&staged.values[j], &fused.values[j], sizeof(double)), 0)
          << "value " << j << ": " << staged.values[j] << " vs " << fused.values[j];
  }
}

TEST(StagedRunner, RefusesMethodsWithoutAFactorizationEveryAttempt) {
  const Model model = load_model_file(model_path("quarter_car.json"));
  const auto compiled = compile(model);
  const Ensemble e = build_ensemble(model, *compiled, 2, nullptr, {});
  for (Method method : {Method::rk4, Method::dopri5, Method::ros2w}) {
    RunSpec spec;
    spec.method = method;
    EXPECT_THROW(run_ensemble_staged_cpu(*compiled, e, spec, output_grid(0.0, 0.1, 0.05), 1), std::invalid_argument);
  }
}

}  // namespace
}  // namespace myriad
