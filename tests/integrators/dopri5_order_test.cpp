// Convergence order, continuous extension, tolerance proportionality and work accounting of the
// Dormand-Prince 5(4) integrator (integrators/dopri5.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "integrators/dopri5.hpp"

namespace dopri5_order_test {

using myriad::InstanceStatus;
using myriad::IntegratorStats;
using myriad::StepControl;

// A nonlinear, non-autonomous spiral: y' = (1 + t) |y|^2 J y with J the rotation by +90 degrees. |y| = r0 is
// invariant, so the exact solution is y = r0 (cos phi, sin phi), phi = r0^2 (t + t^2 / 2), starting at (r0,
// 0).
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

// Fixed-step DOPRI5 from 0 to `t_end` with dopri5_step (FSAL k7 -> k1), evaluating the continuous extension
// at `dense_times` on the way. Returns the end error; the worst dense-output error goes to *dense_error.
double fixed_step_run(double h, double t_end, const std::vector<double>& dense_times, double* dense_error) {
  Spiral sys;
  IntegratorStats stats;
  double y[2] = {kRadius, 0.0}, k1[2], k7[2], y_new[2], error[2], y_dense[2];
  double work[12];
  EXPECT_TRUE(sys.derivative(0.0, y, k1));
  const int steps = static_cast<int>(std::lround(t_end / h));
  size_t next_dense = 0;
  *dense_error = 0.0;
  for (int k = 0; k < steps; ++k) {
    const double t = k * h;
    EXPECT_TRUE(myriad::dopri5_step(sys, t, h, y, k1, y_new, error, k7, work, stats));
    while (next_dense < dense_times.size() && dense_times[next_dense] < t + h) {
      myriad::dopri5_dense_output(2, (dense_times[next_dense] - t) / h, h, y, y_new, k1,
                                  myriad::dopri5_stage(work, 2, 3), myriad::dopri5_stage(work, 2, 4),
                                  myriad::dopri5_stage(work, 2, 5), myriad::dopri5_stage(work, 2, 6), k7,
                                  y_dense);
      *dense_error = std::fmax(*dense_error, distance_to_exact(dense_times[next_dense], y_dense));
      ++next_dense;
    }
    for (int i = 0; i < 2; ++i) {
      y[i] = y_new[i];
      k1[i] = k7[i];
    }
  }
  EXPECT_EQ(next_dense, dense_times.size());
  EXPECT_EQ(stats.function_evaluations, 6LL * steps);  // dopri5_step counts its 6 stages
  return distance_to_exact(t_end, y);
}

TEST(Dopri5, StepShowsOrderFiveAtFixedStep) {
  const std::vector<double> steps = {0.02, 0.01, 0.005, 0.0025};
  const std::vector<double> dense_times = {0.3317, 0.7713, 1.2341, 1.9109};  // never a step boundary below
  std::vector<double> errors, dense_errors;
  for (double h : steps) {
    double dense_error = 0.0;
    errors.push_back(fixed_step_run(h, 2.0, dense_times, &dense_error));
    dense_errors.push_back(dense_error);
  }
  const double order = fitted_order(steps, errors);
  const double dense_order = fitted_order(steps, dense_errors);
  std::printf("DOPRI5 fixed-step end errors: %.3e %.3e %.3e %.3e, fitted order %.4f\n", errors[0], errors[1],
              errors[2], errors[3], order);
  std::printf("DOPRI5 fixed-step dense errors: %.3e %.3e %.3e %.3e, fitted order %.4f\n", dense_errors[0],
              dense_errors[1], dense_errors[2], dense_errors[3], dense_order);
  EXPECT_GT(order, 4.8);
  EXPECT_LT(order, 5.2);
  EXPECT_GT(errors[3], 1e-13);  // far above round-off: the fit measures truncation error
  // The continuous extension has local order 4 (error O(h^5)), so between steps the global error keeps
  // O(h^5).
  EXPECT_GT(dense_order, 4.6);
  EXPECT_LT(dense_order, 5.4);
}

TEST(Dopri5, EmbeddedErrorEstimateIsFifthPowerOfStep) {
  // The estimate y - yhat of one step is the 4th-order solution's local error, O(h^5).
  const std::vector<double> steps = {0.1, 0.05, 0.025, 0.0125};
  std::vector<double> estimates, true_local_errors;
  for (double h : steps) {
    Spiral sys;
    IntegratorStats stats;
    double y[2] = {kRadius, 0.0}, k1[2], k7[2], y_new[2], error[2], work[12];
    ASSERT_TRUE(sys.derivative(0.0, y, k1));
    ASSERT_TRUE(myriad::dopri5_step(sys, 0.0, h, y, k1, y_new, error, k7, work, stats));
    estimates.push_back(std::hypot(error[0], error[1]));
    // The 4th-order solution's true local error is about the estimate (the 5th-order one is O(h^6)).
    const double y_embedded[2] = {y_new[0] - error[0], y_new[1] - error[1]};
    true_local_errors.push_back(distance_to_exact(h, y_embedded));
    double k7_expected[2];
    ASSERT_TRUE(sys.derivative(h, y_new, k7_expected));
    EXPECT_EQ(k7[0], k7_expected[0]);  // FSAL: k7 is f at the new point
    EXPECT_EQ(k7[1], k7_expected[1]);
  }
  const double order = fitted_order(steps, estimates);
  std::printf("DOPRI5 one-step error estimates: %.3e %.3e %.3e %.3e, fitted order %.4f\n", estimates[0],
              estimates[1], estimates[2], estimates[3], order);
  EXPECT_GT(order, 4.7);
  EXPECT_LT(order, 5.3);
  EXPECT_NEAR(estimates[3] / true_local_errors[3], 1.0, 0.05);
}

struct AdaptiveRun {
  InstanceStatus status;
  IntegratorStats stats;
  Recorder recorder;
  double y[2];
};

AdaptiveRun run_adaptive(const StepControl& control, const std::vector<double>& output_times) {
  AdaptiveRun run;
  Spiral sys;
  run.y[0] = kRadius;
  run.y[1] = 0.0;
  std::vector<double> work(myriad::dopri5_workspace_size(2));
  run.status =
      myriad::integrate_dopri5(sys, 0.0, run.y, output_times.data(), static_cast<int>(output_times.size()),
                               run.recorder, control, work.data(), run.stats);
  return run;
}

TEST(Dopri5, AdaptiveMeetsToleranceAtOutputs) {
  const std::vector<double> output_times = {0.1, 0.37, 0.8, 1.3, 1.77, 2.0};
  long long previous_steps = 0;
  for (double tol : {1e-8, 1e-10}) {
    StepControl control;
    control.rtol = tol;
    control.atol = tol;
    const AdaptiveRun run = run_adaptive(control, output_times);
    ASSERT_EQ(run.status, InstanceStatus::ok);
    ASSERT_EQ(run.recorder.indices.size(), output_times.size());
    double worst = 0.0;
    for (size_t k = 0; k < output_times.size(); ++k) {
      EXPECT_EQ(run.recorder.indices[k], static_cast<int>(k));
      worst = std::fmax(worst, distance_to_exact(output_times[k], &run.recorder.values[2 * k]));
    }
    std::printf(
        "DOPRI5 tol %.0e: worst output error %.3e (%.2f tol), steps %lld, rejected %lld, evaluations %lld\n",
        tol, worst, worst / tol, run.stats.steps, run.stats.rejected, run.stats.function_evaluations);
    EXPECT_LT(worst, 10.0 * tol);
    EXPECT_GT(worst, 1e-3 * tol);                // a real integration error, not an exact formula
    EXPECT_GT(run.stats.steps, previous_steps);  // tighter tolerance, more steps
    EXPECT_GE(run.stats.rejected, 0);
    // 1 at t0, 1 for the starting-step trial (h_initial = 0), 6 per attempted step (k1 is FSAL); no rebases.
    EXPECT_EQ(run.stats.function_evaluations, 2 + 6 * (run.stats.steps + run.stats.rejected));
    previous_steps = run.stats.steps;
  }
}

TEST(Dopri5, OutputTimesAreIndependentOfInternalSteps) {
  const std::vector<double> output_times = {0.0, 0.05, 0.6180339887, 0.6180339887, 1.41421356, 2.0};
  StepControl loose, tight;
  loose.rtol = loose.atol = 1e-6;
  tight.rtol = tight.atol = 1e-11;
  const AdaptiveRun a = run_adaptive(loose, output_times);
  const AdaptiveRun b = run_adaptive(tight, output_times);
  ASSERT_EQ(a.status, InstanceStatus::ok);
  ASSERT_EQ(b.status, InstanceStatus::ok);
  EXPECT_LT(a.stats.steps * 5, b.stats.steps);  // very different internal grids
  EXPECT_EQ(a.recorder.times, output_times);    // exact, bit for bit
  EXPECT_EQ(b.recorder.times, output_times);
  EXPECT_EQ(a.recorder.indices, (std::vector<int>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(b.recorder.indices, (std::vector<int>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(a.recorder.values[0], kRadius);  // t0 output: the initial state
  for (size_t k = 0; k < output_times.size(); ++k) {
    EXPECT_LT(distance_to_exact(output_times[k], &a.recorder.values[2 * k]), 1e-4);
    EXPECT_LT(distance_to_exact(output_times[k], &b.recorder.values[2 * k]), 1e-9);
  }
  // The final output is the final state.
  EXPECT_EQ(b.recorder.values[10], b.y[0]);
  EXPECT_EQ(b.recorder.values[11], b.y[1]);
}

TEST(Dopri5, RejectsTooLargeFirstStepAndCountsIt) {
  StepControl control;
  control.rtol = control.atol = 1e-8;
  control.h_initial = 0.5;  // local error ~1e-3 >> tol: rejected, then retried smaller
  const AdaptiveRun run = run_adaptive(control, {0.7, 2.0});
  ASSERT_EQ(run.status, InstanceStatus::ok);
  EXPECT_GE(run.stats.rejected, 1);
  // Rejected attempts cost 6 evaluations too; no starting-step trial with h_initial given.
  EXPECT_EQ(run.stats.function_evaluations, 1 + 6 * (run.stats.steps + run.stats.rejected));
  EXPECT_LT(distance_to_exact(0.7, &run.recorder.values[0]), 1e-7);
  EXPECT_LT(distance_to_exact(2.0, run.y), 1e-7);
}

TEST(Dopri5, HMaxAndHInitialAreHonoured) {
  StepControl control;
  control.h_max = 0.01;
  control.h_initial = 0.001;
  const AdaptiveRun run = run_adaptive(control, {2.0});
  ASSERT_EQ(run.status, InstanceStatus::ok);
  EXPECT_GE(run.stats.steps, 200);  // 2 / h_max
  // No starting-step trial with h_initial given: 1 at t0 + 6 per attempt.
  EXPECT_EQ(run.stats.function_evaluations, 1 + 6 * (run.stats.steps + run.stats.rejected));
  EXPECT_LT(distance_to_exact(2.0, run.y), 1e-8);
}

}  // namespace dopri5_order_test
