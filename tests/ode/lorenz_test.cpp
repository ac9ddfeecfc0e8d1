// The built-in Lorenz model and its CPU ensemble runs: RK4's order and accuracy on it against a tight DOPRI5
// solution, single vs double precision, and thread-count independence of the ensemble.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "integrators/dopri5.hpp"
#include "ode/lorenz_ensemble.hpp"

namespace myriad {
namespace lorenz_test {

// The state at spec.t_end of the instance with the given rho, by DOPRI5 at rtol = atol = 1e-13.
std::vector<double> tight_solution(const LorenzSpec& spec, double rho) {
  LorenzSystem<double> system{spec.sigma, rho, spec.beta};
  std::vector<double> y(spec.initial, spec.initial + 3), out(3), work(static_cast<size_t>(dopri5_workspace_size(3)));
  LorenzFinalState<double> observer{out.data()};
  StepControl control;
  control.rtol = control.atol = 1e-13;
  IntegratorStats stats;
  EXPECT_EQ(integrate_dopri5(system, spec.t0, y.data(), &spec.t_end, 1, observer, control, work.data(), stats),
            InstanceStatus::ok);
  return out;
}

template <class Real>
std::vector<double> rk4_solution(const LorenzSpec& spec, double rho, IntegratorStats* stats_out = nullptr) {
  Real work[15], state[3];
  IntegratorStats stats;
  EXPECT_EQ(simulate_lorenz_instance(spec, static_cast<Real>(rho), state, work, stats), InstanceStatus::ok);
  if (stats_out) *stats_out = stats;
  return {state[0], state[1], state[2]};
}

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0.0;
  for (size_t j = 0; j < a.size(); ++j) worst = std::max(worst, std::abs(a[j] - b[j]));
  return worst;
}

double max_magnitude(const std::vector<double>& a) {
  double worst = 0.0;
  for (double v : a) worst = std::max(worst, std::abs(v));
  return worst;
}

TEST(Lorenz, Rk4ConvergesWithOrderFour) {
  for (double rho : {5.0, 14.0, 21.0}) {
    LorenzSpec spec;
    const std::vector<double> exact = tight_solution(spec, rho);
    double previous = 0.0;
    for (long long steps : {100, 200, 400, 800}) {
      spec.steps = steps;
      const double error = max_difference(rk4_solution<double>(spec, rho), exact);
      if (previous > 0.0) {
        const double order = std::log2(previous / error);
        EXPECT_GT(order, 3.9) << "rho " << rho << ", " << steps << " steps";
        EXPECT_LT(order, 4.35) << "rho " << rho << ", " << steps << " steps";
      }
      previous = error;
    }
  }
}

TEST(Lorenz, BenchmarkStepIsAccurateInDoubleAndSingle) {
  const LorenzSpec spec;  // 1000 steps over [0, 1]
  for (double rho : {0.0, 7.0, 14.0, 21.0}) {
    const std::vector<double> exact = tight_solution(spec, rho);
    IntegratorStats stats;
    const std::vector<double> in_double = rk4_solution<double>(spec, rho, &stats);
    EXPECT_EQ(stats.steps, 1000);
    EXPECT_EQ(stats.function_evaluations, 4001);  // 4 per step and one at t0: the FSAL-like end evaluation
    const double scale = std::max(1.0, max_magnitude(exact));
    // RK4's global error at h = 1e-3 is about 1e-10 of the state here (C h^4 with C ~ 1e2).
    EXPECT_LT(max_difference(in_double, exact), 1e-9 * scale) << "rho " << rho;
    // Single precision: rounding of 1000 steps (eps_f = 6e-8) dominates the truncation error.
    EXPECT_LT(max_difference(rk4_solution<float>(spec, rho), exact), 2e-5 * scale) << "rho " << rho;
  }
}

TEST(Lorenz, OriginAttractsBelowRhoOne) {
  // For rho < 1, V = x^2 / sigma + y^2 + z^2 has V' = 2(1 + rho) x y - 2x^2 - 2y^2 - 2 beta z^2 < 0 away from the
  // origin, so V(t_end) < V(0): the integration must respect the Lyapunov function.
  const LorenzSpec spec;
  for (double rho : {0.0, 0.5, 0.9}) {
    const std::vector<double> y = rk4_solution<double>(spec, rho);
    const auto V = [&](double x0, double y0, double z0) { return x0 * x0 / spec.sigma + y0 * y0 + z0 * z0; };
    EXPECT_LT(V(y[0], y[1], y[2]), V(spec.initial[0], spec.initial[1], spec.initial[2])) << "rho " << rho;
  }
}

TEST(LorenzEnsemble, CpuRunIsIndependentOfThreadsAndMatchesSingleInstances) {
  LorenzSpec spec;
  spec.steps = 200;
  const long long n = 1001;
  const LorenzRun<double> one = run_lorenz_cpu<double>(spec, n, 1);
  const LorenzRun<double> two = run_lorenz_cpu<double>(spec, n, 2);
  ASSERT_EQ(one.final_state.size(), static_cast<size_t>(3 * n));
  EXPECT_EQ(one.threads, 1);
  EXPECT_EQ(one.steps, 200);
  for (size_t k = 0; k < one.final_state.size(); ++k) ASSERT_EQ(one.final_state[k], two.final_state[k]) << k;
  for (long long i = 0; i < n; ++i) {
    ASSERT_EQ(one.status[static_cast<size_t>(i)], InstanceStatus::ok);
    ASSERT_EQ(two.status[static_cast<size_t>(i)], InstanceStatus::ok);
  }
  // rho spreads evenly over [0, 21]: instance 500 has rho = 10.5.
  const std::vector<double> middle = rk4_solution<double>(spec, 10.5);
  for (int j = 0; j < 3; ++j) EXPECT_EQ(one.final_state[static_cast<size_t>(j * n + 500)], middle[static_cast<size_t>(j)]);
  const LorenzRun<float> single = run_lorenz_cpu<float>(spec, n, 2);
  for (size_t k = 0; k < one.final_state.size(); ++k)
    EXPECT_NEAR(single.final_state[k], one.final_state[k], 2e-5 * std::max(1.0, std::abs(one.final_state[k])));
}

TEST(LorenzEnsemble, BlowUpIsReportedPerInstance) {
  // A huge rho range makes the far end blow up within the horizon at this step size; those instances report
  // non_finite (NaN states), the others finish.
  LorenzSpec spec;
  spec.rho_max = 1e9;
  spec.steps = 100;
  const LorenzRun<double> run = run_lorenz_cpu<double>(spec, 11, 2);
  EXPECT_EQ(run.status.front(), InstanceStatus::ok);
  EXPECT_TRUE(std::isfinite(run.final_state[0]));
  EXPECT_EQ(run.status.back(), InstanceStatus::non_finite);
  EXPECT_TRUE(std::isnan(run.final_state[10]));
}

TEST(LorenzEnsemble, RejectsBadSpecifications) {
  LorenzSpec spec;
  spec.steps = 0;
  EXPECT_THROW(run_lorenz_cpu<double>(spec, 10, 1), std::invalid_argument);
  EXPECT_THROW(run_lorenz_cpu<double>(LorenzSpec{}, -1, 1), std::invalid_argument);
}

}  // namespace lorenz_test
}  // namespace myriad
