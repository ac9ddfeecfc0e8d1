// Failure statuses, rejection of failed trial stages and rebasing of the RK4 and DOPRI5 integrators
// (integrators/rk4.hpp, integrators/dopri5.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "integrators/dopri5.hpp"
#include "integrators/rk4.hpp"

namespace integrator_status_test {

using myriad::InstanceStatus;
using myriad::IntegratorStats;
using myriad::StepControl;

// y' = y^2, y(0) = 1: y = 1 / (1 - t) blows up at t = 1.
struct BlowUp {
  int dimension() const { return 1; }
  bool derivative(double, const double* y, double* dydt) {
    dydt[0] = y[0] * y[0];
    return std::isfinite(dydt[0]);
  }
  bool rebase(double, double*) { return false; }
};

// The spiral y' = (1 + t) |y|^2 J y of the order tests: y = r0 (cos phi, sin phi), phi = r0^2 (t + t^2 / 2).
// Optionally its derivative fails outside |y| < domain_radius (a model with a restricted domain, e.g. a
// square root of a negative number) or beyond fail_after_time.
struct Spiral {
  double domain_radius = INFINITY;
  double fail_after_time = INFINITY;
  int dimension() const { return 2; }
  bool derivative(double t, const double* y, double* dydt) {
    const double r2 = y[0] * y[0] + y[1] * y[1];
    if (!(r2 < domain_radius * domain_radius) || t > fail_after_time) return false;
    const double rate = (1.0 + t) * r2;
    dydt[0] = -rate * y[1];
    dydt[1] = rate * y[0];
    return std::isfinite(dydt[0]) && std::isfinite(dydt[1]);
  }
  bool rebase(double, double*) { return false; }
};

constexpr double kRadius = 1.2;

double spiral_error(double t, const double* y) {
  const double phi = kRadius * kRadius * (t + 0.5 * t * t);
  return std::hypot(y[0] - kRadius * std::cos(phi), y[1] - kRadius * std::sin(phi));
}

// The spiral in a moving chart: the physical state is x = base + scale * y. Each rebase folds y into the
// base, sets y = 0 and switches scale between 1 and 3, so the derivative in the chart, dy/dt = f(t, x) /
// scale, changes at every rebase: an integrator that kept its old derivative (FSAL stage or cached f) would
// be wrong by a factor 3 in its first stage.
struct ChartedSpiral {
  double base[2] = {kRadius, 0.0};
  double scale = 1.0;
  long long rebases = 0;
  int dimension() const { return 2; }
  void physical(const double* y, double* x) const {
    x[0] = base[0] + scale * y[0];
    x[1] = base[1] + scale * y[1];
  }
  bool derivative(double t, const double* y, double* dydt) {
    double x[2];
    physical(y, x);
    const double rate = (1.0 + t) * (x[0] * x[0] + x[1] * x[1]);
    dydt[0] = -rate * x[1] / scale;
    dydt[1] = rate * x[0] / scale;
    return std::isfinite(dydt[0]) && std::isfinite(dydt[1]);
  }
  bool rebase(double, double* y) {
    physical(y, base);
    y[0] = y[1] = 0.0;
    scale = (scale == 1.0) ? 3.0 : 1.0;
    ++rebases;
    return true;
  }
};

// Records outputs as physical states of a ChartedSpiral (valid because the observer runs before the rebase).
struct ChartedRecorder {
  const ChartedSpiral* sys;
  std::vector<int> indices;
  std::vector<double> values;
  void operator()(int k, double, const double* y) {
    double x[2];
    sys->physical(y, x);
    indices.push_back(k);
    values.push_back(x[0]);
    values.push_back(x[1]);
  }
};

struct Recorder {
  std::vector<int> indices;
  std::vector<double> values;
  void operator()(int k, double, const double* y) {
    indices.push_back(k);
    for (int i = 0; i < 2; ++i) values.push_back(y[i]);
  }
};

TEST(IntegratorStatus, BlowUpGivesStepSizeTooSmall) {
  // Why step_size_too_small and not non_finite: with the relative part of the tolerance the controller keeps
  // the local error ~ rtol |y|, which needs h ~ c (1 - t) as t -> 1 (y = 1/(1-t), all derivatives scale
  // with powers of y). Each stage then moves y by a bounded fraction of itself, so states stay finite
  // (|y| ~ 1e14 / c) when h reaches the floor 1e-14 max(1, |t|), and no trial stage ever overflows. The
  // rejections near the end are ordinary error rejections, so the status is step_size_too_small.
  BlowUp sys;
  const std::vector<double> output_times = {0.5, 0.9, 0.99, 1.5, 2.0};
  std::vector<int> reported;
  std::vector<double> values;
  auto obs = [&](int k, double, const double* y) {
    reported.push_back(k);
    values.push_back(y[0]);
  };
  double y[1] = {1.0};
  double work[10];
  IntegratorStats stats;
  StepControl control;
  const InstanceStatus status =
      myriad::integrate_dopri5(sys, 0.0, y, output_times.data(), 5, obs, control, work, stats);
  EXPECT_EQ(status, InstanceStatus::step_size_too_small);
  ASSERT_EQ(reported, (std::vector<int>{0, 1, 2}));  // only the outputs before the singularity
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(values[k], 1.0 / (1.0 - output_times[k]), 1e-4 * values[k]);
  EXPECT_TRUE(std::isfinite(y[0]));
  EXPECT_GT(y[0], 1e10);  // stopped close to t = 1: y is the last accepted state
  EXPECT_LT(stats.steps + stats.rejected, control.max_steps);
}

TEST(IntegratorStatus, MaxStepsStopsLongRun) {
  Spiral sys;
  const double t_end = 1000.0;
  double y[2] = {kRadius, 0.0};
  double work[20];
  IntegratorStats stats;
  StepControl control;
  control.max_steps = 10;
  int outputs = 0;
  auto obs = [&](int, double, const double*) { ++outputs; };
  EXPECT_EQ(myriad::integrate_dopri5(sys, 0.0, y, &t_end, 1, obs, control, work, stats),
            InstanceStatus::max_steps);
  EXPECT_EQ(stats.steps + stats.rejected, 10);  // attempts, accepted or rejected
  EXPECT_EQ(outputs, 0);

  double y4[2] = {kRadius, 0.0};
  IntegratorStats stats4;
  EXPECT_EQ(myriad::integrate_rk4(sys, 0.0, 0.01, y4, &t_end, 1, obs, work, stats4, 10),
            InstanceStatus::max_steps);
  EXPECT_EQ(stats4.steps, 10);
  EXPECT_EQ(stats4.function_evaluations, 1 + 4 * 10);
  EXPECT_EQ(outputs, 0);
  EXPECT_LT(spiral_error(0.1, y4), 1e-8);  // y holds the state after the 10 steps taken
}

TEST(IntegratorStatus, FailingDerivativeGivesNonFinite) {
  Spiral sys;
  sys.domain_radius = 0.5;  // the initial state |y| = 1.2 is already outside: the first evaluation fails
  const double output_times[2] = {0.0, 1.0};
  double work[20];
  Recorder recorder;
  double y[2] = {kRadius, 0.0};
  IntegratorStats stats;
  EXPECT_EQ(myriad::integrate_dopri5(sys, 0.0, y, output_times, 2, recorder, StepControl{}, work, stats),
            InstanceStatus::non_finite);
  EXPECT_EQ(stats.function_evaluations, 1);
  EXPECT_EQ(stats.steps, 0);
  EXPECT_EQ(recorder.indices, (std::vector<int>{0}));  // the t0 output precedes any evaluation
  EXPECT_EQ(y[0], kRadius);

  Recorder recorder4;
  IntegratorStats stats4;
  EXPECT_EQ(myriad::integrate_rk4(sys, 0.0, 0.1, y, output_times, 2, recorder4, work, stats4, 100),
            InstanceStatus::non_finite);
  EXPECT_EQ(stats4.function_evaluations, 1);
  EXPECT_EQ(stats4.steps, 0);
}

TEST(IntegratorStatus, DerivativeFailingBeyondATimeGivesNonFiniteAfterRetries) {
  // Every trial step that reaches past t = 1 fails; halving cannot get past it, so h underflows while
  // retrying after failed evaluations: non_finite (not step_size_too_small, which is for error rejections).
  Spiral sys;
  sys.fail_after_time = 1.0;
  const double output_times[3] = {0.5, 0.999, 2.0};
  double work[20];
  Recorder recorder;
  double y[2] = {kRadius, 0.0};
  IntegratorStats stats;
  StepControl control;
  control.rtol = control.atol = 1e-9;
  EXPECT_EQ(myriad::integrate_dopri5(sys, 0.0, y, output_times, 3, recorder, control, work, stats),
            InstanceStatus::non_finite);
  EXPECT_GT(stats.rejected, 30);  // ~log2(h / 1e-14) halvings at least
  ASSERT_EQ(recorder.indices, (std::vector<int>{0, 1}));
  EXPECT_LT(spiral_error(0.5, &recorder.values[0]), 1e-8);
  EXPECT_LT(spiral_error(0.999, &recorder.values[2]), 1e-8);
  EXPECT_LT(spiral_error(1.0, y), 1e-8);  // stopped within ~1e-14 of t = 1

  double y4[2] = {kRadius, 0.0};
  IntegratorStats stats4;
  Recorder recorder4;
  EXPECT_EQ(myriad::integrate_rk4(sys, 0.0, 0.03, y4, output_times, 3, recorder4, work, stats4, 1000),
            InstanceStatus::non_finite);
  EXPECT_EQ(stats4.steps, 33);  // 33 * 0.03 = 0.99; the 34th step's stages pass t = 1
  EXPECT_EQ(recorder4.indices, (std::vector<int>{0}));
}

TEST(IntegratorStatus, FailedTrialStageIsRejectedAndRetried) {
  // h_initial = 5: the second stage y + h/5 k1 = (1.2, 1.73) is outside |y| < 2, so the first attempt fails
  // after 1 evaluation; the step is halved until the stages stay inside and the run completes.
  Spiral sys;
  sys.domain_radius = 2.0;
  const double output_times[2] = {1.0, 2.0};
  double work[20];
  Recorder recorder;
  double y[2] = {kRadius, 0.0};
  IntegratorStats stats;
  StepControl control;
  control.rtol = control.atol = 1e-9;
  control.h_initial = 5.0;
  EXPECT_EQ(myriad::integrate_dopri5(sys, 0.0, y, output_times, 2, recorder, control, work, stats),
            InstanceStatus::ok);
  EXPECT_GE(stats.rejected, 1);
  // The failed attempt(s) ended early, so evaluations fall short of the full 1 + 6 per attempt.
  EXPECT_LT(stats.function_evaluations, 1 + 6 * (stats.steps + stats.rejected));
  EXPECT_LT(spiral_error(1.0, &recorder.values[0]), 1e-8);
  EXPECT_LT(spiral_error(2.0, y), 1e-8);
}

TEST(IntegratorStatus, RebaseEveryStepKeepsSolutionAndCountsEvaluations) {
  const std::vector<double> output_times = {0.0, 0.45, 1.1, 1.63, 2.0};
  double work[20];
  {
    ChartedSpiral sys;
    ChartedRecorder recorder{&sys, {}, {}};
    double y[2] = {0.0, 0.0};
    IntegratorStats stats;
    StepControl control;
    control.rtol = control.atol = 1e-9;
    ASSERT_EQ(myriad::integrate_dopri5(sys, 0.0, y, output_times.data(), 5, recorder, control, work, stats),
              InstanceStatus::ok);
    EXPECT_EQ(sys.rebases, stats.steps);  // once per accepted step
    // 1 at t0 + 1 starting-step trial + 6 per attempt + 1 after every rebase except the final step's.
    EXPECT_EQ(stats.function_evaluations, 2 + 6 * (stats.steps + stats.rejected) + (stats.steps - 1));
    ASSERT_EQ(recorder.indices, (std::vector<int>{0, 1, 2, 3, 4}));
    for (int k = 0; k < 5; ++k) {
      EXPECT_LT(spiral_error(output_times[k], &recorder.values[2 * k]), 1e-8) << "output " << k;
    }
    double x[2];
    sys.physical(y, x);
    EXPECT_LT(spiral_error(2.0, x), 1e-8);
  }
  {
    ChartedSpiral sys;
    ChartedRecorder recorder{&sys, {}, {}};
    double y[2] = {0.0, 0.0};
    IntegratorStats stats;
    ASSERT_EQ(myriad::integrate_rk4(sys, 0.0, 0.01, y, output_times.data(), 5, recorder, work, stats, 1000),
              InstanceStatus::ok);
    EXPECT_EQ(stats.steps, 200);
    EXPECT_EQ(sys.rebases, 200);
    // 1 at t0 + 4 per step + 1 after every rebase except the final step's.
    EXPECT_EQ(stats.function_evaluations, 1 + 4 * 200 + 199);
    ASSERT_EQ(recorder.indices, (std::vector<int>{0, 1, 2, 3, 4}));
    // RK4 commutes with affine changes of variables, so the charted run must reproduce the plain one up to
    // round-off; a stale derivative after a rebase would be off by a factor 3 in a stage instead.
    Spiral plain;
    Recorder plain_recorder;
    double plain_y[2] = {kRadius, 0.0};
    IntegratorStats plain_stats;
    ASSERT_EQ(myriad::integrate_rk4(plain, 0.0, 0.01, plain_y, output_times.data(), 5, plain_recorder, work,
                                    plain_stats, 1000),
              InstanceStatus::ok);
    for (int k = 0; k < 5; ++k) {
      EXPECT_LT(spiral_error(output_times[k], &recorder.values[2 * k]), 1e-6) << "output " << k;
      EXPECT_NEAR(recorder.values[2 * k], plain_recorder.values[2 * k], 1e-12) << "output " << k;
      EXPECT_NEAR(recorder.values[2 * k + 1], plain_recorder.values[2 * k + 1], 1e-12) << "output " << k;
    }
  }
}

}  // namespace integrator_status_test
