// Seed 001's rod-inertia approximation (sec. 4-5, issue 20 item 4) on models/rod_corner.json, Tables 4-5's
// findings asserted: the difference from the exact formulation falls with the step at the extrapolation's order
// (point O(h), linear O(h^2), quadratic O(h^3): fitted slopes of at least 0.9, 1.8 and 2.5), is nil for massless
// rods and proportional to the rods' mass; the cpu and reference backends, which keep their histories
// independently, agree with the approximation as with the exact rods; and only accepted states (the k1 stage)
// feed the history. The full tables and the time saved are bench/rod_extrapolation.py's
// (docs/validation/rod-extrapolation.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "integrators/rk4.hpp"
#include "loops/loop_support.hpp"
#include "reference/reference_runner.hpp"
#include "support/run_model.hpp"

namespace myriad {
namespace rod_extrapolation_test {

using namespace testing;

Model corner(RodInertia method) {
  Model model = load_model_file(model_path("rod_corner.json"));
  model.rod_inertia = method;
  return model;
}

EnsembleResult run(RodInertia method, double h, double rod_scale = 1.0) {
  return run_model(corner(method), rk4(h), output_grid(0.0, 1.0, 1e-3), {{"rod_scale", rod_scale}});
}

// max over the 1 s slalom of the road and every relative acceleration (seed 001's max(Delta zdd)).
double acceleration_difference(const EnsembleResult& a, const EnsembleResult& b, const Model& model) {
  EXPECT_EQ(a.status[0], InstanceStatus::ok);
  EXPECT_EQ(b.status[0], InstanceStatus::ok);
  double worst = 0.0;
  for (int s = 0; s < static_cast<int>(model.outputs.size()); ++s) {
    if (model.outputs[static_cast<size_t>(s)].name.find("_acc") == std::string::npos) continue;
    for (int k = 0; k < a.n_times; ++k) worst = std::max(worst, std::fabs(a.value(0, k, s) - b.value(0, k, s)));
  }
  return worst;
}

// Least-squares slope of log(error) over log(h).
double fitted_slope(const std::vector<double>& h, const std::vector<double>& error) {
  double mx = 0, my = 0;
  for (size_t i = 0; i < h.size(); ++i) {
    mx += std::log(h[i]) / h.size();
    my += std::log(error[i]) / h.size();
  }
  double sxy = 0, sxx = 0;
  for (size_t i = 0; i < h.size(); ++i) {
    sxy += (std::log(h[i]) - mx) * (std::log(error[i]) - my);
    sxx += (std::log(h[i]) - mx) * (std::log(h[i]) - mx);
  }
  return sxy / sxx;
}

const RodInertia kMethods[3] = {RodInertia::point, RodInertia::linear, RodInertia::quadratic};

TEST(RodExtrapolation, DifferenceFallsWithTheStepAtTheExtrapolationsOrder) {
  const Model model = corner(RodInertia::exact);
  const std::vector<double> steps = {1e-4, 2e-4, 5e-4, 1e-3};
  const double minimum_slope[3] = {0.9, 1.8, 2.5};
  std::vector<std::vector<double>> errors(3);
  for (double h : steps) {
    const EnsembleResult exact = run(RodInertia::exact, h);
    for (int m = 0; m < 3; ++m) errors[static_cast<size_t>(m)].push_back(acceleration_difference(run(kMethods[m], h), exact, model));
  }
  for (int m = 0; m < 3; ++m) {
    const double slope = fitted_slope(steps, errors[static_cast<size_t>(m)]);
    EXPECT_GE(slope, minimum_slope[m]) << "method " << m + 1 << " points";
    EXPECT_LT(slope, minimum_slope[m] + 1.5) << "method " << m + 1 << " points";
  }
  for (size_t i = 0; i < steps.size(); ++i) {
    EXPECT_GT(errors[0][i], 0.0) << "the approximation differs from the exact rods at all";
    EXPECT_LT(errors[1][i], errors[0][i]) << "h = " << steps[i];
    EXPECT_LT(errors[2][i], errors[1][i]) << "h = " << steps[i];
  }
}

TEST(RodExtrapolation, MasslessRodsGiveTheExactFormulation) {
  const Model model = corner(RodInertia::exact);
  for (double h : {5e-4, 1e-3}) {
    const EnsembleResult exact = run(RodInertia::exact, h, 0.0);
    for (RodInertia method : kMethods) {
      const EnsembleResult approximate = run(method, h, 0.0);
      double worst = 0.0;
      for (int s = 0; s < static_cast<int>(model.outputs.size()); ++s)
        for (int k = 0; k < exact.n_times; ++k)
          worst = std::max(worst, std::fabs(approximate.value(0, k, s) - exact.value(0, k, s)));
      EXPECT_LE(worst, 1e-14) << "h = " << h;
    }
  }
}

TEST(RodExtrapolation, DifferenceIsProportionalToTheRodMass) {
  const Model model = corner(RodInertia::exact);
  for (double h : {5e-4, 1e-3})
    for (RodInertia method : kMethods) {
      const double unit = acceleration_difference(run(method, h, 1.0), run(RodInertia::exact, h, 1.0), model);
      for (double scale : {0.5, 2.0, 3.0}) {
        const double error = acceleration_difference(run(method, h, scale), run(RodInertia::exact, h, scale), model);
        EXPECT_NEAR(error / (scale * unit), 1.0, 0.2)
            << "h = " << h << ", method " << static_cast<int>(method) << " points, rod mass x" << scale;
      }
    }
}

TEST(RodExtrapolation, CpuAndReferenceBackendsAgree) {
  for (RodInertia method : {RodInertia::point, RodInertia::quadratic}) {
    const Model model = corner(method);
    const auto compiled = compile(model);
    const Ensemble e = build_ensemble(model, *compiled, 1, nullptr, {});
    const std::vector<double> times = output_grid(0.0, 0.6, 0.01);
    const double h = 1e-3;
    const EnsembleResult cpu = run_ensemble_cpu(*compiled, e, rk4(h), times, 1);
    const EnsembleResult ref = run_ensemble_reference(model, *compiled, e, rk4(h), times, 1);
    const EnsembleResult exact = run(RodInertia::exact, h);
    ASSERT_EQ(cpu.status[0], InstanceStatus::ok);
    ASSERT_EQ(ref.status[0], InstanceStatus::ok);
    // The approximation's own effect at this step (1e-3 .. 1e-5) is far above the backends' difference.
    const double agreement = acceleration_difference(cpu, ref, model);
    EXPECT_LT(agreement, 1e-8) << static_cast<int>(method);
    double effect = 0.0;
    const int acc = output_index(model, "rear_heave_acc");
    for (int k = 0; k < cpu.n_times; ++k)
      effect = std::max(effect, std::fabs(cpu.value(0, k, acc) - exact.value(0, 10 * k, acc)));
    EXPECT_GT(effect, 100 * agreement) << static_cast<int>(method);
  }
}

// RK4 with outputs between its step ends: the history holds the accelerations at the last three accepted states
// (step ends, the k1 stages), equal to the derivative there, never a stage's or an output's.
TEST(RodExtrapolation, OnlyAcceptedStatesFeedTheHistory) {
  LoopInstance instance(corner(RodInertia::quadratic));
  LoopOde<const double*>& ode = instance.ode;
  ASSERT_TRUE(ode.initialize(0.0, instance.q.data(), instance.v.data(), instance.y.data()));
  ASSERT_EQ(rod_history_count(ode.s.rods), 1);
  const double h = 1e-3;
  const std::vector<double> outputs = {0.0105, 0.0203, 0.0307};  // between step ends
  const int n = 2 * instance.compiled->constraints.n_independent;
  std::vector<double> work(static_cast<size_t>(rk4_workspace_size(n)));
  IntegratorStats stats;
  int observed = 0;
  auto observer = [&](int, double, const double*) { ++observed; };
  ASSERT_EQ(integrate_rk4(ode, 0.0, h, instance.y.data(), outputs.data(), 3, observer, work.data(), stats, 1000),
            InstanceStatus::ok);
  EXPECT_EQ(observed, 3);
  ASSERT_EQ(rod_history_count(ode.s.rods), 3);
  const double* times = ode.s.rods.header + 5;
  // The last step lands on 0.0307 (stretched from the grid); the two before end on the grid.
  EXPECT_DOUBLE_EQ(times[0], 0.0307);
  EXPECT_NEAR(times[1], 0.030, 1e-15);
  EXPECT_NEAR(times[2], 0.029, 1e-15);
  // The newest entry is the derivative the integrator evaluated at the final state: its first-same-as-last stage,
  // which integrate_rk4 keeps in its third n doubles after an even-numbered last step (31 steps here).
  for (int i = 0; i < instance.compiled->constraints.n_independent; ++i)
    EXPECT_EQ(ode.s.rods.values[ode.independent()[i]], work[static_cast<size_t>(2 * n + n / 2 + i)]) << i;
}

}  // namespace rod_extrapolation_test
}  // namespace myriad
