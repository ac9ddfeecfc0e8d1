// Convergence order and dense output of the fixed-step RK4 integrator (integrators/rk4.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "integrators/rk4.hpp"

namespace rk4_order_test {

using myriad::InstanceStatus;
using myriad::IntegratorStats;

// A nonlinear, non-autonomous spiral: y' = (1 + t) |y|^2 J y with J the rotation by +90 degrees. |y| = r0 is
// invariant, so the exact solution is y = r0 (cos phi, sin phi), phi = r0^2 (t + t^2 / 2), starting at (r0,
// 0). The rate depends on the state (nonlinear) and on t (so wrong stage times show up).
struct Spiral {
  int dimension() const { return 2; }
  bool derivative(double t, const double* y, double* dydt) {
    const double rate = (1.0 + t) * (y[0] * y[0] + y[1] * y[1]);
    dydt[0] = -rate * y[1];
    dydt[1] = rate * y[0];
    return std::isfinite(dydt[0]) && std::isfinite(dydt[1]);
  }
  bool rebase(double, double*) { return false; }
};

constexpr double kRadius = 1.2;

void spiral_exact(double t, double* y) {
  const double phi = kRadius * kRadius * (t + 0.5 * t * t);
  y[0] = kRadius * std::cos(phi);
  y[1] = kRadius * std::sin(phi);
}

double distance_to_exact(double t, const double* y) {
  double exact[2];
  spiral_exact(t, exact);
  return std::hypot(y[0] - exact[0], y[1] - exact[1]);
}

// Records every observer call.
struct Recorder {
  std::vector<int> indices;
  std::vector<double> times;
  std::vector<double> values;  // 2 per call
  void operator()(int k, double t, const double* y) {
    indices.push_back(k);
    times.push_back(t);
    values.push_back(y[0]);
    values.push_back(y[1]);
  }
};

// Least-squares slope of log2(error) against log2(h).
double fitted_order(const std::vector<double>& h, const std::vector<double>& error) {
  const double m = static_cast<double>(h.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < h.size(); ++i) {
    const double x = std::log2(h[i]), y = std::log2(error[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (m * sxy - sx * sy) / (m * sxx - sx * sx);
}

struct Rk4Run {
  InstanceStatus status;
  IntegratorStats stats;
  Recorder recorder;
  double y[2];
};

Rk4Run run_rk4(double h, const std::vector<double>& output_times) {
  Rk4Run run;
  Spiral sys;
  run.y[0] = kRadius;
  run.y[1] = 0.0;
  std::vector<double> work(myriad::rk4_workspace_size(2));
  run.status =
      myriad::integrate_rk4(sys, 0.0, h, run.y, output_times.data(), static_cast<int>(output_times.size()),
                            run.recorder, work.data(), run.stats, 1000000);
  return run;
}

TEST(Rk4, ShowsOrderFourOnNonlinearProblem) {
  const std::vector<double> steps = {0.1, 0.05, 0.025, 0.0125};
  std::vector<double> errors;
  for (double h : steps) {
    const Rk4Run run = run_rk4(h, {2.0});
    ASSERT_EQ(run.status, InstanceStatus::ok);
    const long long expected_steps = std::llround(2.0 / h);
    EXPECT_EQ(run.stats.steps, expected_steps);
    EXPECT_EQ(run.stats.rejected, 0);
    // 1 evaluation at t0, then 3 stages + the end-of-step derivative per step.
    EXPECT_EQ(run.stats.function_evaluations, 1 + 4 * expected_steps);
    ASSERT_EQ(run.recorder.indices.size(), 1u);
    EXPECT_EQ(run.recorder.values[0], run.y[0]);  // the final output is the final state
    errors.push_back(distance_to_exact(2.0, run.y));
  }
  const double order = fitted_order(steps, errors);
  std::printf("RK4 end errors: %.3e %.3e %.3e %.3e, fitted order %.4f\n", errors[0], errors[1], errors[2],
              errors[3], order);
  EXPECT_GT(order, 3.8);
  EXPECT_LT(order, 4.2);
  EXPECT_GT(errors[3], 1e-12);  // far above round-off: the fit measures truncation error
}

TEST(Rk4, DenseOutputBetweenStepsIsFourthOrder) {
  // None of these is a multiple of any step below except the end point.
  const std::vector<double> output_times = {0.33, 0.77, 1.234, 1.91, 2.0};
  const std::vector<double> steps = {0.1, 0.05, 0.025, 0.0125};
  std::vector<double> dense_errors;
  for (double h : steps) {
    const Rk4Run run = run_rk4(h, output_times);
    ASSERT_EQ(run.status, InstanceStatus::ok);
    ASSERT_EQ(run.recorder.indices.size(), output_times.size());
    double worst = 0.0;
    for (size_t k = 0; k + 1 < output_times.size(); ++k) {
      EXPECT_EQ(run.recorder.indices[k], static_cast<int>(k));
      EXPECT_EQ(run.recorder.times[k], output_times[k]);
      worst = std::fmax(worst, distance_to_exact(output_times[k], &run.recorder.values[2 * k]));
    }
    dense_errors.push_back(worst);
    // Dense output must not cost evaluations: same count as without intermediate outputs.
    EXPECT_EQ(run.stats.function_evaluations, 1 + 4 * run.stats.steps);
  }
  std::printf("RK4 dense-output errors: %.3e %.3e %.3e %.3e, ratios %.2f %.2f %.2f\n", dense_errors[0],
              dense_errors[1], dense_errors[2], dense_errors[3], dense_errors[0] / dense_errors[1],
              dense_errors[1] / dense_errors[2], dense_errors[2] / dense_errors[3]);
  for (size_t i = 0; i + 1 < dense_errors.size(); ++i) {
    const double ratio = dense_errors[i] / dense_errors[i + 1];
    EXPECT_GT(ratio, 12.0) << "halving h from " << steps[i];
    EXPECT_LT(ratio, 21.0) << "halving h from " << steps[i];
  }
  const double order = fitted_order(steps, dense_errors);
  EXPECT_GT(order, 3.8);
  EXPECT_LT(order, 4.2);
}

TEST(Rk4, ReportsEveryOutputOnceIncludingStartAndStepEnds) {
  // t0, a step end, the same time twice, another step end, and the final time.
  const std::vector<double> output_times = {0.0, 0.25, 0.5, 0.5, 1.0};
  const double h = 0.25;
  const Rk4Run run = run_rk4(h, output_times);
  ASSERT_EQ(run.status, InstanceStatus::ok);
  ASSERT_EQ(run.recorder.indices, (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(run.stats.steps, 4);
  // Index 0 is the initial state itself.
  EXPECT_EQ(run.recorder.values[0], kRadius);
  EXPECT_EQ(run.recorder.values[1], 0.0);

  // Outputs at step ends are the steps' own values, bit for bit: redo the steps by hand with rk4_step.
  Spiral sys;
  IntegratorStats stats;
  double y[2] = {kRadius, 0.0}, dydt[2], y_new[2], work[4];
  ASSERT_TRUE(sys.derivative(0.0, y, dydt));
  std::vector<double> manual;  // y after each step
  for (int k = 0; k < 4; ++k) {
    ASSERT_TRUE(myriad::rk4_step(sys, k * h, h, y, dydt, y_new, work, stats));
    y[0] = y_new[0];
    y[1] = y_new[1];
    ASSERT_TRUE(sys.derivative((k + 1) * h, y, dydt));
    manual.push_back(y[0]);
    manual.push_back(y[1]);
  }
  EXPECT_EQ(stats.function_evaluations, 12);     // rk4_step counts its own 3 stages
  EXPECT_EQ(run.recorder.values[2], manual[0]);  // t = 0.25 after step 1
  EXPECT_EQ(run.recorder.values[3], manual[1]);
  EXPECT_EQ(run.recorder.values[4], manual[2]);  // t = 0.5 after step 2, reported twice
  EXPECT_EQ(run.recorder.values[6], manual[2]);
  EXPECT_EQ(run.recorder.values[7], manual[3]);
  EXPECT_EQ(run.recorder.values[8], manual[6]);  // t = 1 after step 4
  EXPECT_EQ(run.y[1], manual[7]);
}

TEST(Rk4, ShortensLastStepToLandOnEndTime) {
  // 1.0 / 0.03: 33 full steps and a last one of 0.01.
  const double h = 0.03;
  const Rk4Run run = run_rk4(h, {0.5, 1.0});
  ASSERT_EQ(run.status, InstanceStatus::ok);
  EXPECT_EQ(run.stats.steps, 34);
  EXPECT_EQ(run.stats.function_evaluations, 1 + 4 * 34);

  Spiral sys;
  IntegratorStats stats;
  double y[2] = {kRadius, 0.0}, dydt[2], y_new[2], work[4];
  ASSERT_TRUE(sys.derivative(0.0, y, dydt));
  for (int k = 0; k < 34; ++k) {
    const double t = k * h;
    const double step = (k == 33) ? 1.0 - t : h;
    ASSERT_TRUE(myriad::rk4_step(sys, t, step, y, dydt, y_new, work, stats));
    y[0] = y_new[0];
    y[1] = y_new[1];
    ASSERT_TRUE(sys.derivative(k == 33 ? 1.0 : (k + 1) * h, y, dydt));
  }
  EXPECT_EQ(run.y[0], y[0]);
  EXPECT_EQ(run.y[1], y[1]);
  EXPECT_LT(distance_to_exact(1.0, run.y), 1e-5);
}

}  // namespace rk4_order_test
