// Coefficients, convergence order, the W-method property, stiff stability, Jacobian reuse, rebasing and work
// accounting of the ROS2 W-method integrator (integrators/ros2_w.hpp).
#include "integrators/ros2_w.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "integrators/dopri5.hpp"
#include "support/second_order_reference.hpp"

namespace ros2_w_test {

using myriad::InstanceStatus;
using myriad::IntegratorStats;
using myriad::StepControl;
using myriad::testing::fitted_order;
using myriad::testing::Recorder;
using myriad::testing::reference_solution;
using myriad::testing::StiffLinear;

// Two damped pendulums coupled by a spring (as in rosenbrock_nystrom_test.cpp), acceleration() only. Counts
// its calls and records every rebase time; with `chart` the state is a displacement from a base point that
// each rebase moves (returns true).
struct CoupledPendulums {
  double a = 9.81, c = 0.1, kappa = 2.0;
  bool chart = false;
  double base[2] = {0.0, 0.0};
  long long acceleration_calls = 0;
  std::vector<double> rebase_times;
  int dimension() const { return 2; }
  void physical(const double* x, double* p) const {
    p[0] = base[0] + x[0];
    p[1] = base[1] + x[1];
  }
  bool acceleration(double, const double* x, const double* w, double* f) {
    ++acceleration_calls;
    double p[2];
    physical(x, p);
    f[0] = -a * std::sin(p[0]) - c * w[0] + kappa * (p[1] - p[0]);
    f[1] = -a * std::sin(p[1]) - c * w[1] - kappa * (p[1] - p[0]);
    return std::isfinite(f[0]) && std::isfinite(f[1]);
  }
  bool rebase(double t, double* x, double*) {
    rebase_times.push_back(t);
    if (!chart) return false;
    base[0] += x[0];
    base[1] += x[1];
    x[0] = x[1] = 0.0;
    return true;
  }
};

constexpr double kX0[2] = {1.0, -0.5};
constexpr double kW0[2] = {0.0, 0.3};

// x'' = -4 x - 0.5 w + 2 sin(3 t): non-autonomous (ROS2-W leaves the f_t term out).
struct ForcedOscillator {
  int dimension() const { return 1; }
  bool acceleration(double t, const double* x, const double* w, double* f) {
    f[0] = -4.0 * x[0] - 0.5 * w[0] + 2.0 * std::sin(3.0 * t);
    return true;
  }
  bool rebase(double, double*, double*) { return false; }
};

TEST(Ros2W, theorem_2_1_reproduces_the_seeds_w_method_table) {
  // The seed prints 14 decimals whose last digit is not reliable (gamma = 1.70710678118650 for
  // 1.7071067811865475...), hence 1e-13.
  const auto& t = myriad::kRos2Tableau;
  const double g = 1.0 + 1.0 / std::sqrt(2.0);
  EXPECT_NEAR(t.gamma, g, 4e-16);
  struct Entry {
    std::string name;
    double derived, printed;
  };
  const std::vector<Entry> table = {
      {"gamma", t.gamma, 1.70710678118650},
      {"alpha_1", t.alpha_i[0], 0.0},
      {"alpha_2", t.alpha_i[1], 1.0},
      {"gamma_1", t.gamma_i[0], 1.70710678118650},
      {"gamma_2", t.gamma_i[1], -1.70710678118650},
      {"a_21", t.a[1][0], 0.58578643762690},
      {"c_21", t.c[1][0], -1.17157287525380},
      {"delta_11", t.delta[0][0], 1.70710678118650},
      {"delta_22", t.delta[1][1], 1.70710678118650},
      {"delta_21", t.delta[1][0], -2.41421356237310},
      {"theta_21", t.theta[1][0], 1.0},
      {"m_1", t.m[0], 0.87867965644040},
      {"m_2", t.m[1], 0.29289321881340},
      {"mhat_1", t.m_hat[0], 1.17157287525380},
      {"mhat_2", t.m_hat[1], 0.58578643762690},
      {"mu_1", t.mu[0], 0.79289321881340},
      {"mu_2", t.mu[1], 0.5},
      {"muhat_1", t.mu_hat[0], 0.58578643762690},
      {"muhat_2", t.mu_hat[1], 1.0},
  };
  for (const Entry& e : table) EXPECT_NEAR(e.derived, e.printed, 1e-13) << e.name;
  // The closed forms of the notes: a_21 = 1/gamma, c_21 = -2/gamma, m = (3/(2 gamma), 1/(2 gamma)).
  EXPECT_NEAR(t.a[1][0], 1.0 / g, 1e-16);
  EXPECT_NEAR(t.c[1][0], -2.0 / g, 1e-15);
  EXPECT_NEAR(t.m[0], 1.5 / g, 1e-15);
  EXPECT_NEAR(t.m[1], 0.5 / g, 1e-16);
}

TEST(Ros2W, base_method_is_order_2_for_any_jacobian_and_l_stable) {
  const auto& b = myriad::kRos2BaseTableau;
  const double g = b.gamma;
  const double beta21 = b.alpha_ij[1][0] + b.gamma_ij[1][0];
  EXPECT_NEAR(b.b[0] + b.b[1], 1.0, 1e-16);            // order 1
  EXPECT_NEAR(b.b[1] * beta21, 0.5 - g, 1e-15);        // order 2, exact Jacobian (36b)
  EXPECT_NEAR(b.b[1] * b.alpha_ij[1][0], 0.5, 1e-16);  // order 2, W-method: sum b_i alpha_i
  EXPECT_NEAR(b.b[0] * g + b.b[1] * (b.gamma_ij[1][0] + g), 0.0, 1e-15);  // and sum b_i gamma_i = 0
  EXPECT_NEAR(b.b_hat[0] + b.b_hat[1], 1.0, 1e-16);                       // embedded: order 1
  // R(inf) = 1 - b^T B^-1 1 = (gamma^2 - 2 gamma + 1/2) / gamma^2 = 0.
  const double u1 = 1.0 / g, u2 = (1.0 - beta21 * u1) / g;
  EXPECT_NEAR(1.0 - b.b[0] * u1 - b.b[1] * u2, 0.0, 1e-15);
}

// Fixed-step ROS2-W with ros2w_step (fresh forward-difference Jacobian every step); `embedded` propagates the
// order-1 solution. Max-norm error of (x, w) at t_end.
template <class System>
double fixed_step_error(System sys, const double* x0, const double* w0, double t_end, int steps,
                        bool embedded, const std::vector<double>& reference) {
  const int n = sys.dimension();
  std::vector<double> x(x0, x0 + n), w(w0, w0 + n), x_new(n), w_new(n), x_hat(n), w_hat(n);
  std::vector<double> work(myriad::ros2w_step_workspace_size(n));
  IntegratorStats stats;
  const double h = t_end / steps;
  for (int k = 0; k < steps; ++k) {
    EXPECT_EQ(myriad::ros2w_step(sys, k * h, h, x.data(), w.data(), x_new.data(), w_new.data(), x_hat.data(),
                                 w_hat.data(), work.data(), stats),
              InstanceStatus::ok);
    x = embedded ? x_hat : x_new;
    w = embedded ? w_hat : w_new;
  }
  EXPECT_EQ(stats.function_evaluations, static_cast<long long>(steps) * (2 * n + 2));
  EXPECT_EQ(stats.jacobian_evaluations, steps);
  EXPECT_EQ(stats.lu_factorizations, steps);
  double error = 0.0;
  for (int i = 0; i < n; ++i) {
    error = std::max(error, std::fabs(x[i] - reference[i]));
    error = std::max(error, std::fabs(w[i] - reference[n + i]));
  }
  return error;
}

TEST(Ros2W, fixed_step_global_order_is_2_and_embedded_order_is_1) {
  const double t_end = 1.0;
  const std::vector<double> reference = reference_solution(CoupledPendulums{}, kX0, kW0, {t_end});
  std::vector<double> hs, errors, errors_embedded;
  for (int steps : {80, 160, 320, 640}) {
    hs.push_back(t_end / steps);
    errors.push_back(fixed_step_error(CoupledPendulums{}, kX0, kW0, t_end, steps, false, reference));
    errors_embedded.push_back(fixed_step_error(CoupledPendulums{}, kX0, kW0, t_end, steps, true, reference));
  }
  const double order = fitted_order(hs, errors);
  EXPECT_GT(order, 1.8);
  EXPECT_LT(order, 2.2);
  const double order_embedded = fitted_order(hs, errors_embedded);
  EXPECT_GT(order_embedded, 0.8);
  EXPECT_LT(order_embedded, 1.2);
}

TEST(Ros2W, order_2_without_f_t_on_a_non_autonomous_problem) {
  const double t_end = 2.0;
  const double x0[1] = {0.5}, w0[1] = {0.0};
  const std::vector<double> reference = reference_solution(ForcedOscillator{}, x0, w0, {t_end});
  std::vector<double> hs, errors;
  for (int steps : {80, 160, 320, 640}) {
    hs.push_back(t_end / steps);
    errors.push_back(fixed_step_error(ForcedOscillator{}, x0, w0, t_end, steps, false, reference));
  }
  const double order = fitted_order(hs, errors);
  EXPECT_GT(order, 1.8);
  EXPECT_LT(order, 2.2);
}

TEST(Ros2W, w_method_keeps_order_2_with_a_zero_jacobian) {
  // With J = 0 the stages are explicit; the W-method order conditions still give order 2.
  const double t_end = 1.0;
  const std::vector<double> reference = reference_solution(CoupledPendulums{}, kX0, kW0, {t_end});
  std::vector<double> hs, errors;
  for (int steps : {80, 160, 320, 640}) {
    CoupledPendulums sys;
    double x[2] = {kX0[0], kX0[1]}, w[2] = {kW0[0], kW0[1]}, f[2] = {0.0, 0.0};
    double x_new[2] = {0.0, 0.0}, w_new[2] = {0.0, 0.0}, x_error[2] = {0.0, 0.0}, w_error[2] = {0.0, 0.0};
    double zero[4] = {0.0, 0.0, 0.0, 0.0}, S[4], pivots[2];
    std::vector<double> work(myriad::ros2w_stage_workspace_size(2));
    IntegratorStats stats;
    const double h = t_end / steps;
    ASSERT_TRUE(myriad::ros2w_factor(2, h, zero, zero, S, pivots, stats));
    for (int k = 0; k < steps; ++k) {
      ASSERT_TRUE(sys.acceleration(k * h, x, w, f));
      ASSERT_TRUE(myriad::ros2w_stages(sys, k * h, h, x, w, f, zero, S, pivots, x_new, w_new, x_error,
                                       w_error, work.data(), stats));
      std::copy(x_new, x_new + 2, x);
      std::copy(w_new, w_new + 2, w);
    }
    double error = 0.0;
    for (int i = 0; i < 2; ++i) {
      error = std::max(error, std::fabs(x[i] - reference[i]));
      error = std::max(error, std::fabs(w[i] - reference[2 + i]));
    }
    hs.push_back(h);
    errors.push_back(error);
  }
  const double order = fitted_order(hs, errors);
  EXPECT_GT(order, 1.8);
  EXPECT_LT(order, 2.2);
}

// R(z) = (1 + (1 - 2 gamma) z) / (1 - gamma z)^2, ROS2's stability function (the z^2 term of the numerator,
// gamma^2 - 2 gamma + 1/2, vanishes for gamma = 1 + 1/sqrt(2): L-stable).
double ros2_stability_function(double z) {
  const double g = myriad::kRos2BaseTableau.gamma;
  return (1.0 + (1.0 - 2.0 * g) * z) / ((1.0 - g * z) * (1.0 - g * z));
}

TEST(Ros2W, stiff_damped_oscillator_stays_bounded_and_decays_as_predicted) {
  // x'' = -1e8 x - 1e6 w, x(0) = 1, w(0) = 0, h = 1e-2, 100 steps (see the RN4 test): h lambda = -1.0001 and
  // -9999. R(-1.0001) = 0.4659, |R(-9999)| = 8.3e-5, so x_n ~ c_1 R(-1.0001)^n and x_100 ~ 6.8e-34. The
  // forward-difference Jacobian is close to exact here, so the prediction holds to 1e-6.
  StiffLinear sys;
  const double discriminant = std::sqrt(sys.c * sys.c - 4.0 * sys.k);
  const double lambda1 = 0.5 * (-sys.c + discriminant), lambda2 = 0.5 * (-sys.c - discriminant);
  const double h = 1e-2;
  const double R1 = ros2_stability_function(h * lambda1), R2 = ros2_stability_function(h * lambda2);
  EXPECT_NEAR(R1, 0.4659, 1e-4);
  EXPECT_LT(std::fabs(R2), 1e-4);
  const double c1 = lambda2 / (lambda2 - lambda1), c2 = -lambda1 / (lambda2 - lambda1);
  double x[1] = {1.0}, w[1] = {0.0}, x_new[1] = {0.0}, w_new[1] = {0.0}, x_hat[1] = {0.0}, w_hat[1] = {0.0};
  std::vector<double> work(myriad::ros2w_step_workspace_size(1));
  IntegratorStats stats;
  for (int k = 1; k <= 100; ++k) {
    ASSERT_EQ(myriad::ros2w_step(sys, (k - 1) * h, h, x, w, x_new, w_new, x_hat, w_hat, work.data(), stats),
              InstanceStatus::ok);
    x[0] = x_new[0];
    w[0] = w_new[0];
    ASSERT_LE(std::fabs(x[0]), 1.0) << k;
    const double predicted = c1 * std::pow(R1, k) + c2 * std::pow(R2, k);
    ASSERT_NEAR(x[0], predicted, 1e-6 * std::fabs(predicted)) << "step " << k;
  }
  EXPECT_GT(x[0], 0.0);
  EXPECT_LT(x[0], 1e-33);
}

TEST(Ros2W, adaptive_run_on_the_stiff_oscillator_is_not_limited_by_stability) {
  // An explicit method would need h < 3e-6 (2.8 / 1e6), i.e. more than 3e5 steps on [0, 1].
  StiffLinear sys;
  double x[1] = {1.0}, w[1] = {0.0};
  const double times[2] = {0.5, 1.0};
  std::vector<double> work(myriad::ros2w_workspace_size(1));
  Recorder recorder(2);
  StepControl control;
  control.rtol = 1e-4;
  control.atol = 1e-8;
  IntegratorStats stats;
  ASSERT_EQ(myriad::integrate_ros2w(sys, 0.0, x, w, times, 2, recorder, control, work.data(), stats),
            InstanceStatus::ok);
  EXPECT_LT(stats.steps + stats.rejected, 10000);
  EXPECT_LT(std::fabs(x[0]), 1e-8);  // x(1) = 3.7e-44; the absolute tolerance is 1e-8
  for (double v : recorder.values) EXPECT_LE(std::fabs(v), 200.0);  // |x| <= 1, |w| <= 100 lambda_1-ish
}

// A mass at rest, away from the origin, pushed by a pulse a(t) = sin(pi t) on [0, 1] that is zero at both ends of
// the piece (a road bump under a tire without damping), plus round-off in the acceleration (a model started in
// static equilibrium): x'' = 1e-12 + sin(pi t).
struct PulseOnAMassAtRest {
  int dimension() const { return 1; }
  bool acceleration(double t, const double*, const double*, double* f) {
    f[0] = 1e-12 + std::sin(3.141592653589793 * t);
    return true;
  }
  bool rebase(double, double*, double*) { return false; }
};

TEST(Ros2W, a_pulse_that_ends_where_it_starts_is_not_stepped_over) {
  // Hairer's starting step probed f at t0 + h0 with h0 = 0.01 ||y|| / ||f|| ~ 1e7 here, far past the pulse, and
  // ROS2-W's two stages (at t0 and t0 + h) then took [0, 1] in one step with f ~ 0 at both ends: w(1) = 1e-12.
  // The probe is now within the first 1% of the piece. w(1) = 2 / pi, x(1) = 1 + 1 / pi.
  PulseOnAMassAtRest sys;
  double x[1] = {1.0}, w[1] = {0.0};
  const double times[1] = {1.0};
  std::vector<double> work(myriad::ros2w_workspace_size(1));
  Recorder recorder(2);
  StepControl control;
  control.rtol = 1e-6;
  control.atol = 1e-9;
  IntegratorStats stats;
  ASSERT_EQ(myriad::integrate_ros2w(sys, 0.0, x, w, times, 1, recorder, control, work.data(), stats),
            InstanceStatus::ok);
  EXPECT_GT(stats.steps, 10);
  EXPECT_NEAR(w[0], 2.0 / 3.141592653589793, 1e-4);
  EXPECT_NEAR(x[0], 1.0 + 1.0 / 3.141592653589793, 1e-4);
  // The starting step itself: the probe sees the pulse, so the step is small.
  double y0[2] = {1.0, 0.0}, dydt0[2] = {0.0, 1e-12}, scratch[8];
  IntegratorStats probe;
  const double h = myriad::second_order_initial_step(sys, 0.0, 1.0, y0, y0 + 1, dydt0 + 1, 1, control, scratch,
                                                     scratch + 2, scratch + 4, probe);
  EXPECT_LT(h, 1e-3);
}

struct AdaptiveRun {
  InstanceStatus status;
  IntegratorStats stats;
  double max_error = 0.0;
  CoupledPendulums sys;
  std::vector<double> output_times;
};

AdaptiveRun adaptive_run(double tol, double t_end, int outputs, double h_initial = 0.0) {
  AdaptiveRun run;
  for (int k = 1; k <= outputs; ++k) run.output_times.push_back(t_end * k / outputs);
  const std::vector<double> reference = reference_solution(CoupledPendulums{}, kX0, kW0, run.output_times);
  double x[2] = {kX0[0], kX0[1]}, w[2] = {kW0[0], kW0[1]};
  std::vector<double> work(myriad::ros2w_workspace_size(2));
  Recorder recorder(4);
  StepControl control;
  control.rtol = control.atol = tol;
  control.h_initial = h_initial;
  run.status = myriad::integrate_ros2w(run.sys, 0.0, x, w, run.output_times.data(), outputs, recorder,
                                       control, work.data(), run.stats);
  EXPECT_EQ(recorder.indices.size(), static_cast<size_t>(outputs));
  for (size_t k = 0; k < recorder.indices.size(); ++k) {
    EXPECT_EQ(recorder.indices[k], static_cast<int>(k));
    EXPECT_EQ(recorder.times[k], run.output_times[k]);
    for (int i = 0; i < 4; ++i) {
      run.max_error = std::max(run.max_error, std::fabs(recorder.values[4 * k + i] - reference[4 * k + i]));
    }
  }
  return run;
}

TEST(Ros2W, adaptive_errors_follow_the_tolerance) {
  // As for RN4 the controller bounds the local error estimate per step and the global error sums the local
  // ones; the order-2 solution is propagated. Over t in [0, 2] the largest output error is 30 tol (measured
  // 30.0, 30.1, 30.0, 30.0 tol for 1e-3 .. 1e-6: tolerance proportionality), steps growing like tol^(-1/2).
  long long previous_steps = 0;
  for (double tol : {1e-3, 1e-4, 1e-5, 1e-6}) {
    const AdaptiveRun run = adaptive_run(tol, 2.0, 20);
    ASSERT_EQ(run.status, InstanceStatus::ok) << tol;
    EXPECT_LT(run.max_error, 50.0 * tol) << tol;
    EXPECT_GT(run.max_error, 10.0 * tol) << tol;
    if (previous_steps > 0) {
      const double growth = static_cast<double>(run.stats.steps) / static_cast<double>(previous_steps);
      EXPECT_GT(growth, 2.5) << tol;  // 10^(1/2) = 3.16 per decade (q = 1)
      EXPECT_LT(growth, 4.0) << tol;
    }
    previous_steps = run.stats.steps;
  }
}

bool output_inside(const std::vector<double>& output_times, double t_start, double t_stop) {
  for (double t : output_times) {
    if (t > t_start && t < t_stop) return true;
  }
  return false;
}

TEST(Ros2W, jacobian_is_reused_and_work_counters_match_the_documented_accounting) {
  long long dense_last_steps = 0;
  for (int outputs : {1, 7, 300, 10000}) {  // 10000 outputs: several inside every step, the last one included
    const AdaptiveRun run = adaptive_run(1e-5, 2.0, outputs);
    ASSERT_EQ(run.status, InstanceStatus::ok);
    const IntegratorStats& s = run.stats;
    const long long n = 2;
    // Reuse: far fewer forward-difference Jacobians than steps on this smooth problem.
    EXPECT_LT(s.jacobian_evaluations * 3, s.steps) << outputs;
    EXPECT_GE(s.jacobian_evaluations, 1);
    EXPECT_LE(s.lu_factorizations, s.steps + s.rejected);
    EXPECT_GE(s.lu_factorizations, s.jacobian_evaluations);
    const std::vector<double>& ends = run.sys.rebase_times;
    ASSERT_EQ(static_cast<long long>(ends.size()), s.steps);
    const double last_start = s.steps >= 2 ? ends[s.steps - 2] : 0.0;
    const long long last_dense = output_inside(run.output_times, last_start, 2.0) ? 1 : 0;
    // f at t0 + starting step + 2n per Jacobian + stage 2 per attempt + f at each non-final step end + the
    // last step's end f if it has an output inside.
    EXPECT_EQ(s.function_evaluations,
              1 + 1 + 2 * n * s.jacobian_evaluations + (s.steps + s.rejected) + (s.steps - 1) + last_dense)
        << outputs;
    EXPECT_EQ(s.function_evaluations, run.sys.acceleration_calls);
    dense_last_steps += last_dense;
  }
  EXPECT_EQ(dense_last_steps, 1);  // the 10000-output run
}

TEST(Ros2W, constant_step_reuses_the_factorization) {
  // h clipped to h_max = 0.01 throughout: one factorization per Jacobian (the last step lands on T exactly
  // with the same h, t_end being a multiple of h_max up to rounding, or takes one more factorization).
  CoupledPendulums sys;
  double x[2] = {kX0[0], kX0[1]}, w[2] = {kW0[0], kW0[1]};
  const double times[1] = {1.0};
  std::vector<double> work(myriad::ros2w_workspace_size(2));
  Recorder recorder(4);
  StepControl control;
  control.rtol = control.atol = 1e-3;
  control.h_initial = 0.01;
  control.h_max = 0.01;
  IntegratorStats stats;
  ASSERT_EQ(myriad::integrate_ros2w(sys, 0.0, x, w, times, 1, recorder, control, work.data(), stats),
            InstanceStatus::ok);
  EXPECT_EQ(stats.rejected, 0);
  EXPECT_GE(stats.steps, 99);
  EXPECT_LE(stats.steps, 100);
  EXPECT_EQ(stats.jacobian_evaluations, 1);
  EXPECT_LE(stats.lu_factorizations, 2);
}

TEST(Ros2W, rebasing_every_step_matches_the_plain_run) {
  // Pure absolute tolerance (chart-independent control). The forward-difference increments depend on |x_j|,
  // which differs between the charts, so the Jacobians differ at the 1e-8 level and the runs agree to about
  // that, not to rounding.
  const std::vector<double> times = {1.0, 2.0, 3.0};
  StepControl control;
  control.rtol = 0.0;
  control.atol = 1e-7;
  std::vector<double> work(myriad::ros2w_workspace_size(2));
  CoupledPendulums plain, charted;
  charted.chart = true;
  double xp[2] = {kX0[0], kX0[1]}, wp[2] = {kW0[0], kW0[1]};
  double xc[2] = {kX0[0], kX0[1]}, wc[2] = {kW0[0], kW0[1]};
  Recorder plain_recorder(4), charted_recorder(4);
  IntegratorStats plain_stats, charted_stats;
  ASSERT_EQ(myriad::integrate_ros2w(plain, 0.0, xp, wp, times.data(), 3, plain_recorder, control, work.data(),
                                    plain_stats),
            InstanceStatus::ok);
  ASSERT_EQ(myriad::integrate_ros2w(charted, 0.0, xc, wc, times.data(), 3, charted_recorder, control,
                                    work.data(), charted_stats),
            InstanceStatus::ok);
  double physical[2];
  charted.physical(xc, physical);
  EXPECT_NEAR(physical[0], xp[0], 1e-8);
  EXPECT_NEAR(physical[1], xp[1], 1e-8);
  EXPECT_NEAR(wc[0], wp[0], 1e-8);
  EXPECT_NEAR(wc[1], wp[1], 1e-8);
  // The charted run re-evaluates f after every rebase: outputs are only at step ends here or inside steps;
  // count the non-final steps with an output strictly inside (their f is evaluated twice).
  const std::vector<double>& ends = charted.rebase_times;
  long long dense_non_final = 0;
  for (size_t k = 0; k + 1 < ends.size(); ++k) {
    dense_non_final += output_inside(times, k == 0 ? 0.0 : ends[k - 1], ends[k]) ? 1 : 0;
  }
  const long long last_dense = output_inside(times, ends[ends.size() - 2], ends.back()) ? 1 : 0;
  const IntegratorStats& s = charted_stats;
  EXPECT_EQ(s.function_evaluations, 2 + 4 * s.jacobian_evaluations + (s.steps + s.rejected) + (s.steps - 1) +
                                        dense_non_final + last_dense);
}

// x0'' = 2^k w0 with w0 = 0 (the forward difference of J2 is then exact), x1'' = -x1: S = diag(1 - gamma h
// 2^k, 1 + gamma^2 h^2) is singular at h = 1 / (gamma 2^k).
struct SingularAtOneStep {
  double kappa = 4.0;
  int dimension() const { return 2; }
  bool acceleration(double, const double* x, const double* w, double* f) {
    f[0] = kappa * w[0];
    f[1] = -x[1];
    return true;
  }
  bool rebase(double, double*, double*) { return false; }
};

TEST(Ros2W, a_singular_iteration_matrix_is_retried_with_half_the_step) {
  SingularAtOneStep sys;
  double x[2] = {0.5, 1.0}, w[2] = {0.0, 0.0};
  const double times[1] = {2.0};
  std::vector<double> work(myriad::ros2w_workspace_size(2));
  Recorder recorder(4);
  StepControl control;
  control.h_initial = 1.0 / (myriad::kRos2BaseTableau.gamma * sys.kappa);
  control.rtol = control.atol = 1e-6;
  IntegratorStats stats;
  ASSERT_EQ(myriad::integrate_ros2w(sys, 0.0, x, w, times, 1, recorder, control, work.data(), stats),
            InstanceStatus::ok);
  EXPECT_GE(stats.rejected, 1);
  EXPECT_EQ(x[0], 0.5);
  EXPECT_NEAR(x[1], std::cos(2.0), 1e-4);
}

// The staged strategy's protocol (ensemble/staged_cadence.hpp): the caller factors S and solves the two stages
// (here with lu_factor / lu_solve and the pivots in progress.factor_pivots, in the cycle factor, solve, solve,
// serving a request only when the cycle comes round to it); the run is the inline run bit for bit. An attempt
// that reuses its factors waits out the factor turn, and its solves use the pivots kept from an earlier cycle.
template <class System>
void expect_external_lu_reproduces_inline(System sys, const double* x0, const double* w0,
                                          const StepControl& control, double t_end) {
  using Request = myriad::IntegrationProgress::LinearRequest;
  const double times[3] = {0.25 * t_end, 0.5 * t_end, t_end};
  double x_inline[2] = {x0[0], x0[1]}, w_inline[2] = {w0[0], w0[1]};
  std::vector<double> work_inline(myriad::ros2w_workspace_size(2));
  Recorder inline_recorder(4);
  IntegratorStats inline_stats;
  System inline_sys = sys;
  const InstanceStatus inline_status = myriad::integrate_ros2w(inline_sys, 0.0, x_inline, w_inline, times, 3,
                                                               inline_recorder, control, work_inline.data(),
                                                               inline_stats);

  double x[2] = {x0[0], x0[1]}, w[2] = {w0[0], w0[1]};
  std::vector<double> work(myriad::ros2w_workspace_size(2));
  Recorder recorder(4);
  IntegratorStats stats;
  myriad::IntegrationProgress progress;
  progress.external_lu = true;
  long long factor_waits = 0, factored = 0;
  Request served = Request::none;
  InstanceStatus status = InstanceStatus::ok;
  for (long long launch = 0; !progress.finished(); ++launch) {
    ASSERT_LT(launch, 1000000);
    if (progress.request == Request::none || progress.request == served)
      status = myriad::integrate_ros2w(sys, 0.0, x, w, times, 3, recorder, control, work.data(), stats, progress);
    served = launch % 3 == 0 ? Request::factor : Request::solve;
    if (served == Request::factor && progress.request == Request::solve) ++factor_waits;
    if (progress.request != served) continue;
    if (served == Request::factor) {
      progress.lu_info = myriad::lu_factor(2, progress.factor_matrix, progress.factor_pivots) ? 0 : 1;
      ++factored;
    } else {
      myriad::lu_solve(2, progress.factor_matrix, progress.factor_pivots, progress.solve_vector);
    }
  }
  EXPECT_EQ(status, inline_status);
  EXPECT_EQ(stats.steps, inline_stats.steps);
  EXPECT_EQ(stats.rejected, inline_stats.rejected);
  EXPECT_EQ(stats.jacobian_evaluations, inline_stats.jacobian_evaluations);
  EXPECT_EQ(stats.lu_factorizations, inline_stats.lu_factorizations);
  EXPECT_EQ(stats.function_evaluations, inline_stats.function_evaluations);
  EXPECT_EQ(factored, stats.lu_factorizations);  // every factorization went through the caller
  EXPECT_EQ(recorder.values, inline_recorder.values);
  EXPECT_EQ(x[0], x_inline[0]);
  EXPECT_EQ(w[1], w_inline[1]);
  // Attempts that reused their factors waited out a factor turn of the cycle.
  EXPECT_EQ(factor_waits > 0, stats.lu_factorizations < stats.steps + stats.rejected);
}

TEST(Ros2W, external_linear_algebra_in_the_staged_cycle_reproduces_the_inline_run) {
  StepControl adaptive;
  adaptive.rtol = adaptive.atol = 1e-6;
  expect_external_lu_reproduces_inline(CoupledPendulums{}, kX0, kW0, adaptive, 2.0);
  StepControl constant;  // h = h_max throughout: one factorization serves almost every attempt
  constant.rtol = constant.atol = 1e-3;
  constant.h_initial = constant.h_max = 0.01;
  expect_external_lu_reproduces_inline(CoupledPendulums{}, kX0, kW0, constant, 1.0);
  SingularAtOneStep singular;  // the first S is singular: the attempt leaves the cycle after its factorization
  StepControl at_singular;
  at_singular.h_initial = 1.0 / (myriad::kRos2BaseTableau.gamma * singular.kappa);
  at_singular.rtol = at_singular.atol = 1e-6;
  const double x0[2] = {0.5, 1.0}, w0[2] = {0.0, 0.0};
  expect_external_lu_reproduces_inline(singular, x0, w0, at_singular, 2.0);
}

TEST(Ros2W, failing_acceleration_at_t0_is_non_finite) {
  struct Failing : CoupledPendulums {
    bool acceleration(double, const double*, const double*, double*) { return false; }
  } sys;
  double x[2] = {kX0[0], kX0[1]}, w[2] = {kW0[0], kW0[1]};
  const double times[1] = {1.0};
  std::vector<double> work(myriad::ros2w_workspace_size(2));
  Recorder recorder(4);
  StepControl control;
  IntegratorStats stats;
  EXPECT_EQ(myriad::integrate_ros2w(sys, 0.0, x, w, times, 1, recorder, control, work.data(), stats),
            InstanceStatus::non_finite);
}

}  // namespace ros2_w_test
