// Convergence orders, L-stability, the time-derivative term, the Mhat scaling, failure statuses, dense
// output, rebasing and exact work accounting of the RN4(3) Rosenbrock-Nystrom integrator
// (integrators/rosenbrock_nystrom.hpp).
#include "integrators/rosenbrock_nystrom.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "integrators/dopri5.hpp"
#include "support/second_order_reference.hpp"

namespace rosenbrock_nystrom_test {

using myriad::InstanceStatus;
using myriad::IntegratorStats;
using myriad::StepControl;
using myriad::testing::fitted_order;
using myriad::testing::Recorder;
using myriad::testing::reference_solution;
using myriad::testing::StiffLinear;

// Two damped pendulums (g/l = 9.81, damping c = 0.1) coupled by a spring kappa = 2:
//   x0'' = -a sin x0 - c w0 + kappa (x1 - x0),  x1'' = -a sin x1 - c w1 - kappa (x1 - x0).
// Exact J1, J2; autonomous (f_t = 0); Mhat = I. Counts its own calls and records every rebase time (= every
// accepted step end). With `chart` set, the state is a displacement from a base point that each rebase moves
// (x_physical = base + x, rebase: base += x, x = 0, returns true).
struct CoupledPendulums {
  double a = 9.81, c = 0.1, kappa = 2.0;
  bool chart = false;
  double base[2] = {0.0, 0.0};
  bool zero_mass = false;  // mass_matrix returns zeros: Pi is singular for every h
  long long acceleration_calls = 0, jacobians_calls = 0, mass_matrix_calls = 0;
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
  bool jacobians(double t, const double* x, const double* w, double* f, double* J1, double* J2, double* f_t) {
    ++jacobians_calls;
    --acceleration_calls;  // the evaluation below is part of this call
    if (!acceleration(t, x, w, f)) return false;
    double p[2];
    physical(x, p);
    J1[0] = -a * std::cos(p[0]) - kappa;
    J1[1] = kappa;
    J1[2] = kappa;
    J1[3] = -a * std::cos(p[1]) - kappa;
    J2[0] = -c;
    J2[1] = 0.0;
    J2[2] = 0.0;
    J2[3] = -c;
    f_t[0] = f_t[1] = 0.0;
    return true;
  }
  bool mass_matrix(double, const double*, double* M) {
    ++mass_matrix_calls;
    const double diagonal = zero_mass ? 0.0 : 1.0;
    M[0] = diagonal;
    M[1] = 0.0;
    M[2] = 0.0;
    M[3] = diagonal;
    return true;
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

// A forced damped oscillator, x'' = -k x - c w + A sin(omega t) (k = 4, c = 0.5, A = 2, omega = 3): f_t =
// A omega cos(omega t). With drop_f_t the system reports f_t = 0 (a wrong time derivative).
struct ForcedOscillator {
  double k = 4.0, c = 0.5, amplitude = 2.0, omega = 3.0;
  bool drop_f_t = false;
  int dimension() const { return 1; }
  bool acceleration(double t, const double* x, const double* w, double* f) {
    f[0] = -k * x[0] - c * w[0] + amplitude * std::sin(omega * t);
    return true;
  }
  bool jacobians(double t, const double* x, const double* w, double* f, double* J1, double* J2, double* f_t) {
    acceleration(t, x, w, f);
    J1[0] = -k;
    J2[0] = -c;
    f_t[0] = drop_f_t ? 0.0 : amplitude * omega * std::cos(omega * t);
    return true;
  }
  bool mass_matrix(double, const double*, double* M) {
    M[0] = 1.0;
    return true;
  }
  bool rebase(double, double*, double*) { return false; }
};

// A non-autonomous nonlinear system with a constant SPD mass matrix M = [[2, 0.5], [0.5, 1]],
// M x'' = Q(t, x, w),
//   Q0 = -3 sin x0 + (x1 - x0) - 0.2 w0 + cos t,  Q1 = -2 x1 - (x1 - x0) - 0.4 w1 + 0.1 w0,
// f = M^-1 Q, J1 = M^-1 Q_x, J2 = M^-1 Q_w, f_t = M^-1 Q_t. With identity_mass, mass_matrix reports I instead
// of M (same f and Jacobians): Pi and the stage right-hand sides then lose their Mhat factor.
struct MassMatrixSystem {
  bool identity_mass = false;
  static constexpr double M[4] = {2.0, 0.5, 0.5, 1.0};
  static void solve_mass(const double* q, double* out) {  // M^-1 q, det M = 1.75
    out[0] = (1.0 * q[0] - 0.5 * q[1]) / 1.75;
    out[1] = (-0.5 * q[0] + 2.0 * q[1]) / 1.75;
  }
  int dimension() const { return 2; }
  bool acceleration(double t, const double* x, const double* w, double* f) {
    const double q[2] = {-3.0 * std::sin(x[0]) + (x[1] - x[0]) - 0.2 * w[0] + std::cos(t),
                         -2.0 * x[1] - (x[1] - x[0]) - 0.4 * w[1] + 0.1 * w[0]};
    solve_mass(q, f);
    return true;
  }
  bool jacobians(double t, const double* x, const double* w, double* f, double* J1, double* J2, double* f_t) {
    acceleration(t, x, w, f);
    const double q_x[4] = {-3.0 * std::cos(x[0]) - 1.0, 1.0, 1.0, -3.0};
    const double q_w[4] = {-0.2, 0.0, 0.1, -0.4};
    for (int j = 0; j < 2; ++j) {  // columns
      const double qx_col[2] = {q_x[j], q_x[2 + j]}, qw_col[2] = {q_w[j], q_w[2 + j]};
      double jx[2], jw[2];
      solve_mass(qx_col, jx);
      solve_mass(qw_col, jw);
      J1[j] = jx[0];
      J1[2 + j] = jx[1];
      J2[j] = jw[0];
      J2[2 + j] = jw[1];
    }
    const double q_t[2] = {-std::sin(t), 0.0};
    solve_mass(q_t, f_t);
    return true;
  }
  bool mass_matrix(double, const double*, double* out) {
    for (int i = 0; i < 4; ++i) out[i] = identity_mass ? (i == 0 || i == 3 ? 1.0 : 0.0) : M[i];
    return true;
  }
  bool rebase(double, double*, double*) { return false; }
};

// Fixed-step RN4 from (x0, w0) at 0 to t_end in `steps` steps of rn4_step; with `embedded` the embedded
// order-3 solution is propagated instead of the order-4 one. Returns the max-norm error of (x, w) at t_end
// against `reference` (2n values).
template <class System>
double fixed_step_error(System sys, const double* x0, const double* w0, double t_end, int steps,
                        bool embedded, const std::vector<double>& reference) {
  const int n = sys.dimension();
  std::vector<double> x(x0, x0 + n), w(w0, w0 + n), x_new(n), w_new(n), x_hat(n), w_hat(n);
  std::vector<double> work(myriad::rn4_step_workspace_size(n));
  IntegratorStats stats;
  const double h = t_end / steps;
  for (int k = 0; k < steps; ++k) {
    const InstanceStatus status =
        myriad::rn4_step(sys, k * h, h, x.data(), w.data(), x_new.data(), w_new.data(), x_hat.data(),
                         w_hat.data(), work.data(), stats);
    EXPECT_EQ(status, InstanceStatus::ok);
    x = embedded ? x_hat : x_new;
    w = embedded ? w_hat : w_new;
  }
  EXPECT_EQ(stats.jacobian_evaluations, steps);
  EXPECT_EQ(stats.lu_factorizations, steps);
  EXPECT_EQ(stats.function_evaluations, 3LL * steps);  // three evaluations per step (eq. 39)
  double error = 0.0;
  for (int i = 0; i < n; ++i) {
    error = std::max(error, std::fabs(x[i] - reference[i]));
    error = std::max(error, std::fabs(w[i] - reference[n + i]));
  }
  return error;
}

TEST(Rn4, fixed_step_global_order_is_4_and_embedded_order_is_3_on_coupled_pendulums) {
  // Errors at t = 1 with h = 1/40 .. 1/320 (measured 1.0e-5, 6.6e-7, 4.2e-8, 2.7e-9; embedded 1.5e-4 ..
  // 2.7e-7, halving ratios 15.3-15.9 and 8.1-8.2).
  const double t_end = 1.0;
  const std::vector<double> reference = reference_solution(CoupledPendulums{}, kX0, kW0, {t_end});
  std::vector<double> hs, errors, errors_embedded;
  for (int steps : {40, 80, 160, 320}) {
    hs.push_back(t_end / steps);
    errors.push_back(fixed_step_error(CoupledPendulums{}, kX0, kW0, t_end, steps, false, reference));
    errors_embedded.push_back(fixed_step_error(CoupledPendulums{}, kX0, kW0, t_end, steps, true, reference));
  }
  const double order = fitted_order(hs, errors);
  const double order_embedded = fitted_order(hs, errors_embedded);
  EXPECT_GT(order, 3.8);
  EXPECT_LT(order, 4.2);
  EXPECT_GT(order_embedded, 2.8);
  EXPECT_LT(order_embedded, 3.2);
  EXPECT_LT(errors.back(), 1e-8);
}

TEST(Rn4, non_autonomous_order_4_needs_the_time_derivative_term_of_eq_46) {
  // With the exact f_t the forced oscillator converges with order 4. Reporting f_t = 0 leaves the h^2 gamma_i
  // f_t terms out of eq. 45; the f_t part of the order-2 condition then reads sum b_i alpha_i = 1/2, but
  // sum b_i alpha_i = 0.4667 for RN4, so the local error is O(h^2) and the global error O(h): order 1.
  const double t_end = 2.0;
  const double x0[1] = {0.5}, w0[1] = {0.0};
  const std::vector<double> reference = reference_solution(ForcedOscillator{}, x0, w0, {t_end});
  ForcedOscillator without_f_t;
  without_f_t.drop_f_t = true;
  std::vector<double> hs, errors, errors_without;
  for (int steps : {20, 40, 80, 160}) {
    hs.push_back(t_end / steps);
    errors.push_back(fixed_step_error(ForcedOscillator{}, x0, w0, t_end, steps, false, reference));
    errors_without.push_back(fixed_step_error(without_f_t, x0, w0, t_end, steps, false, reference));
  }
  const double order = fitted_order(hs, errors);
  const double order_without = fitted_order(hs, errors_without);
  EXPECT_GT(order, 3.8);
  EXPECT_LT(order, 4.2);
  EXPECT_LT(order_without, 1.5);
  EXPECT_GT(order_without, 0.5);
  EXPECT_GT(errors_without.back(), 100.0 * errors.back());
}

// R(z) = 1 + z b^T (I - z B)^-1 1 with B = A + Gamma: the stability function of a Rosenbrock method with the
// exact Jacobian (HNW II, sec. IV.7); on y' = J y it advances y_n+1 = R(hJ) y_n.
double rn4_stability_function(double z) {
  const auto& t = myriad::kRn4BaseTableau;
  double u[4];  // (I - z B) u = 1
  for (int i = 0; i < 4; ++i) {
    double s = 1.0;
    for (int j = 0; j < i; ++j) s += z * (t.alpha_ij[i][j] + t.gamma_ij[i][j]) * u[j];
    u[i] = s / (1.0 - z * t.gamma);
  }
  double r = 1.0;
  for (int i = 0; i < 4; ++i) r += z * t.b[i] * u[i];
  return r;
}

TEST(Rn4, stiff_damped_oscillator_decays_as_the_l_stable_stability_function_predicts) {
  // x'' = -1e8 x - 1e6 w, x(0) = 1, w(0) = 0, h = 1e-2, 100 steps. First-order eigenvalues lambda_1 = -100.01
  // (slow) and lambda_2 = -999899.99 (stiff): h lambda = -1.0001 and -9999. The exact solution decays like
  // e^(-100 t); an explicit method would need h < 3e-6. With the exact Jacobian RN4 is R(hJ) per step, so
  //   x_n = c_1 R(h lambda_1)^n + c_2 R(h lambda_2)^n,
  //   w_n = c_1 lambda_1 R(h lambda_1)^n + c_2 lambda_2 R(h lambda_2)^n,
  // c_1 = lambda_2 / (lambda_2 - lambda_1), c_2 = -lambda_1 / (lambda_2 - lambda_1) (from x = 1, w = 0).
  // |R(-9999)| ~ 1e-4: the stiff mode is gone after one step (L-stability); R(-1.0001) ~ e^(-1.0001).
  StiffLinear sys;
  const double discriminant = std::sqrt(sys.c * sys.c - 4.0 * sys.k);
  const double lambda1 = 0.5 * (-sys.c + discriminant), lambda2 = 0.5 * (-sys.c - discriminant);
  const double h = 1e-2;
  const double R1 = rn4_stability_function(h * lambda1), R2 = rn4_stability_function(h * lambda2);
  EXPECT_NEAR(R1, std::exp(h * lambda1), 4e-3);  // 0.36450 against e^(-1.0001) = 0.36784
  EXPECT_LT(std::fabs(R2), 1e-3);
  const double c1 = lambda2 / (lambda2 - lambda1), c2 = -lambda1 / (lambda2 - lambda1);

  double x[1] = {1.0}, w[1] = {0.0}, x_new[1] = {0.0}, w_new[1] = {0.0}, x_hat[1] = {0.0}, w_hat[1] = {0.0};
  std::vector<double> work(myriad::rn4_step_workspace_size(1));
  IntegratorStats stats;
  double max_abs_x = 0.0;
  for (int k = 1; k <= 100; ++k) {
    ASSERT_EQ(myriad::rn4_step(sys, (k - 1) * h, h, x, w, x_new, w_new, x_hat, w_hat, work.data(), stats),
              InstanceStatus::ok);
    x[0] = x_new[0];
    w[0] = w_new[0];
    max_abs_x = std::max(max_abs_x, std::fabs(x[0]));
    const double predicted_x = c1 * std::pow(R1, k) + c2 * std::pow(R2, k);
    const double predicted_w = c1 * lambda1 * std::pow(R1, k) + c2 * lambda2 * std::pow(R2, k);
    ASSERT_NEAR(x[0], predicted_x, 1e-9 * std::fabs(predicted_x)) << "step " << k;
    ASSERT_NEAR(w[0], predicted_w, 1e-9 * std::fabs(predicted_w) + 1e-12 * std::fabs(c2 * lambda2 * R2))
        << "step " << k;
  }
  EXPECT_LE(max_abs_x, 1.0);
  // The exact x(1) = c_1 e^(lambda_1) + c_2 e^(lambda_2) = 3.7e-44. RN4's x_100 = c_1 R1^100 = 1.5e-44: the
  // slow mode is resolved (h lambda_1 = -1) with the order-4 error of R1, (R1 / e^(h lambda_1))^100 = 0.40.
  const double exact = c1 * std::exp(lambda1 * 1.0);
  EXPECT_NEAR(x[0] / exact, std::pow(R1 / std::exp(h * lambda1), 100), 1e-6);
  EXPECT_GT(x[0] / exact, 0.39);
  EXPECT_LT(x[0] / exact, 0.41);
  EXPECT_GT(x[0], 0.0);
  EXPECT_LT(x[0], 2e-44);
}

// Adaptive RN4 on the coupled pendulums from 0 to t_end with `outputs` equally spaced outputs (the last at
// t_end); returns the max-norm error over all outputs against DOPRI5 at 1e-13.
struct AdaptiveRun {
  InstanceStatus status;
  IntegratorStats stats;
  double max_error;
  CoupledPendulums sys;
  std::vector<double> output_times;
};

AdaptiveRun adaptive_run(double tol, double t_end, int outputs, double h_initial = 0.0) {
  AdaptiveRun run;
  for (int k = 1; k <= outputs; ++k) run.output_times.push_back(t_end * k / outputs);
  const std::vector<double> reference = reference_solution(CoupledPendulums{}, kX0, kW0, run.output_times);
  double x[2] = {kX0[0], kX0[1]}, w[2] = {kW0[0], kW0[1]};
  std::vector<double> work(myriad::rn4_workspace_size(2));
  Recorder recorder(4);
  StepControl control;
  control.rtol = control.atol = tol;
  control.h_initial = h_initial;
  run.status = myriad::integrate_rn4(run.sys, 0.0, x, w, run.output_times.data(), outputs, recorder, control,
                                     work.data(), run.stats);
  EXPECT_EQ(recorder.indices.size(), static_cast<size_t>(outputs));
  run.max_error = 0.0;
  for (size_t k = 0; k < recorder.indices.size(); ++k) {
    EXPECT_EQ(recorder.indices[k], static_cast<int>(k));
    EXPECT_EQ(recorder.times[k], run.output_times[k]);
    for (int i = 0; i < 4; ++i) {
      run.max_error = std::max(run.max_error, std::fabs(recorder.values[4 * k + i] - reference[4 * k + i]));
    }
  }
  return run;
}

TEST(Rn4, adaptive_errors_follow_the_tolerance) {
  // The controller bounds the estimated error of the embedded order-3 solution per step; the order-4 solution
  // is propagated (local extrapolation), whose local error is far smaller, and the global error is the sum of
  // the local errors over the steps. Over two periods of the pendulums (t_end = 2, 20 outputs) the largest
  // output error lands at 13 tol (measured 13.1, 13.0, 12.9, 12.8 tol for tol = 1e-4 .. 1e-10: tolerance
  // proportionality); the steps grow like tol^(-1/4).
  long long previous_steps = 0;
  for (double tol : {1e-4, 1e-6, 1e-8, 1e-10}) {
    const AdaptiveRun run = adaptive_run(tol, 2.0, 20);
    ASSERT_EQ(run.status, InstanceStatus::ok) << tol;
    EXPECT_LT(run.max_error, 20.0 * tol) << tol;
    EXPECT_GT(run.max_error, 5.0 * tol) << tol;
    if (previous_steps > 0) {
      const double growth = static_cast<double>(run.stats.steps) / static_cast<double>(previous_steps);
      EXPECT_GT(growth, 2.5) << tol;  // 100^(1/4) = 3.16
      EXPECT_LT(growth, 4.0) << tol;
    }
    previous_steps = run.stats.steps;
  }
}

// Whether some output time lies strictly inside (t_start, t_stop).
bool output_inside(const std::vector<double>& output_times, double t_start, double t_stop) {
  for (double t : output_times) {
    if (t > t_start && t < t_stop) return true;
  }
  return false;
}

TEST(Rn4, work_counters_match_the_documented_accounting_exactly) {
  long long dense_last_steps = 0;
  for (int outputs : {1, 7, 200, 4000}) {  // 4000 outputs: several inside every step, the last one included
    const AdaptiveRun run = adaptive_run(1e-7, 10.0, outputs);
    ASSERT_EQ(run.status, InstanceStatus::ok);
    const IntegratorStats& s = run.stats;
    const CoupledPendulums& sys = run.sys;
    ASSERT_EQ(static_cast<long long>(sys.rebase_times.size()), s.steps);
    const double last_start = s.steps >= 2 ? sys.rebase_times[s.steps - 2] : 0.0;
    const long long last_dense = output_inside(run.output_times, last_start, 10.0) ? 1 : 0;
    // One linearization per step start (no rebase changes the chart): jacobian_evaluations == steps.
    EXPECT_EQ(s.jacobian_evaluations, s.steps);
    EXPECT_EQ(sys.jacobians_calls, s.jacobian_evaluations);
    EXPECT_EQ(sys.mass_matrix_calls, s.jacobian_evaluations);
    // Every attempt factors Pi once.
    EXPECT_EQ(s.lu_factorizations, s.steps + s.rejected);
    // Two acceleration() calls per attempt (stages 2, 3; stage 4 reuses stage 3), one for the starting step,
    // one for the last step's dense output if it has an output inside.
    EXPECT_EQ(sys.acceleration_calls, 2 * (s.steps + s.rejected) + 1 + last_dense) << outputs;
    EXPECT_EQ(s.function_evaluations, sys.acceleration_calls + sys.jacobians_calls);
    EXPECT_GT(s.steps, 20);
    dense_last_steps += last_dense;
  }
  EXPECT_EQ(dense_last_steps, 1);  // the 4000-output run
  // A given first step saves the starting-step evaluation.
  const AdaptiveRun run = adaptive_run(1e-7, 10.0, 1, 1e-3);
  EXPECT_EQ(run.sys.acceleration_calls, 2 * (run.stats.steps + run.stats.rejected));
}

TEST(Rn4, dense_output_keeps_the_accuracy_of_the_steps) {
  // 500 outputs on [0, 2] with about 100 steps: nearly all outputs come from the quintic (x) / cubic (w)
  // Hermite interpolants, whose error stays below the global error bound of the step values.
  const AdaptiveRun run = adaptive_run(1e-6, 2.0, 500);
  ASSERT_EQ(run.status, InstanceStatus::ok);
  EXPECT_LT(run.stats.steps, 150);
  EXPECT_LT(run.max_error, 20.0 * 1e-6);  // as for 20 outputs (measured 13.0 tol both)
}

TEST(Rn4, quintic_and_cubic_hermite_reproduce_polynomials_of_their_degree) {
  // x(s) = 1 + 2 s - s^2 + 0.5 s^3 + 3 s^4 - 2 s^5 on [0.3, 0.3 + h] (quintic), w(s) cubic: both
  // reproduced to rounding.
  const double t0 = 0.3, h = 0.7;
  auto x_of = [](double s) {
    return 1 + 2 * s - s * s + 0.5 * s * s * s + 3 * std::pow(s, 4) - 2 * std::pow(s, 5);
  };
  auto dx_of = [](double s) { return 2 - 2 * s + 1.5 * s * s + 12 * std::pow(s, 3) - 10 * std::pow(s, 4); };
  auto ddx_of = [](double s) { return -2 + 3 * s + 36 * s * s - 40 * std::pow(s, 3); };
  auto w_of = [](double s) { return 0.5 - s + 4 * s * s - 3 * s * s * s; };
  auto dw_of = [](double s) { return -1 + 8 * s - 9 * s * s; };
  for (double theta : {0.0, 0.1, 0.37, 0.5, 0.81, 1.0}) {
    const double s = t0 + theta * h;
    double x0[1] = {x_of(t0)}, v0[1] = {dx_of(t0)}, a0[1] = {ddx_of(t0)};
    double x1[1] = {x_of(t0 + h)}, v1[1] = {dx_of(t0 + h)}, a1[1] = {ddx_of(t0 + h)};
    double x_out[1], w_out[1];
    myriad::second_order_dense_output(1, theta, h, x0, v0, a0, x1, v1, a1, x_out, w_out);
    EXPECT_NEAR(x_out[0], x_of(s), 1e-13) << theta;
    EXPECT_NEAR(w_out[0], dx_of(s), 1.0) << theta;  // dx is quartic: not reproduced, only close
    double w0[1] = {w_of(t0)}, f0[1] = {dw_of(t0)}, w1[1] = {w_of(t0 + h)}, f1[1] = {dw_of(t0 + h)};
    myriad::second_order_dense_output(1, theta, h, x0, w0, f0, x1, w1, f1, x_out, w_out);
    EXPECT_NEAR(w_out[0], w_of(s), 1e-13) << theta;
  }
}

TEST(Rn4, non_identity_mass_matrix_gives_the_same_solution_as_the_identity) {
  // Pi = Mhat S / gamma^2 and r_i = Mhat (...) / gamma^2: the factor Mhat cancels in z_i.
  const std::vector<double> times = {0.5, 1.0, 2.5, 4.0};
  std::vector<std::vector<double>> results;
  std::vector<IntegratorStats> all_stats;
  for (bool identity : {false, true}) {
    MassMatrixSystem sys;
    sys.identity_mass = identity;
    double x[2] = {0.8, -0.3}, w[2] = {0.1, 0.4};
    std::vector<double> work(myriad::rn4_workspace_size(2));
    Recorder recorder(4);
    StepControl control;
    control.rtol = control.atol = 1e-8;
    IntegratorStats stats;
    ASSERT_EQ(myriad::integrate_rn4(sys, 0.0, x, w, times.data(), 4, recorder, control, work.data(), stats),
              InstanceStatus::ok);
    results.push_back(recorder.values);
    all_stats.push_back(stats);
  }
  ASSERT_EQ(results[0].size(), results[1].size());
  for (size_t i = 0; i < results[0].size(); ++i) EXPECT_NEAR(results[0][i], results[1][i], 1e-12) << i;
  EXPECT_EQ(all_stats[0].steps, all_stats[1].steps);
  EXPECT_EQ(all_stats[0].rejected, all_stats[1].rejected);
  // And the solution is right: against DOPRI5.
  const double x0[2] = {0.8, -0.3}, w0[2] = {0.1, 0.4};
  const std::vector<double> reference = reference_solution(MassMatrixSystem{}, x0, w0, times);
  for (size_t i = 0; i < reference.size(); ++i) EXPECT_NEAR(results[0][i], reference[i], 1e-6) << i;
}

TEST(Rn4, zero_mass_matrix_gives_singular_matrix_after_the_halving_retries) {
  CoupledPendulums sys;
  sys.zero_mass = true;
  double x[2] = {kX0[0], kX0[1]}, w[2] = {kW0[0], kW0[1]};
  const double times[1] = {1.0};
  std::vector<double> work(myriad::rn4_workspace_size(2));
  Recorder recorder(4);
  StepControl control;
  control.h_initial = 0.1;
  IntegratorStats stats;
  EXPECT_EQ(myriad::integrate_rn4(sys, 0.0, x, w, times, 1, recorder, control, work.data(), stats),
            InstanceStatus::singular_matrix);
  const long long attempts = 1 + myriad::kRosenbrockSingularRetries;
  EXPECT_EQ(stats.steps, 0);
  EXPECT_EQ(stats.rejected, attempts);
  EXPECT_EQ(stats.lu_factorizations, attempts);
  EXPECT_EQ(stats.jacobian_evaluations, 1);  // the linearization is reused by every retry
  EXPECT_EQ(stats.function_evaluations, 1);  // no stage is evaluated with an unfactored Pi
  EXPECT_EQ(sys.acceleration_calls, 0);
  EXPECT_EQ(x[0], kX0[0]);  // the state is the last accepted one: the initial state
  EXPECT_TRUE(recorder.indices.empty());
}

// x0'' = lambda x0 (unstable, lambda = 4), x1'' = -x1: Pi = diag(1/gamma^2 - 4 h^2, 1/gamma^2 + h^2) is
// singular at h = 1 / (2 gamma) exactly and regular at h / 2.
struct UnstableMode {
  int dimension() const { return 2; }
  bool acceleration(double, const double* x, const double*, double* f) {
    f[0] = 4.0 * x[0];
    f[1] = -x[1];
    return true;
  }
  bool jacobians(double t, const double* x, const double* w, double* f, double* J1, double* J2, double* f_t) {
    acceleration(t, x, w, f);
    J1[0] = 4.0;
    J1[1] = J1[2] = 0.0;
    J1[3] = -1.0;
    J2[0] = J2[1] = J2[2] = J2[3] = 0.0;
    f_t[0] = f_t[1] = 0.0;
    return true;
  }
  bool mass_matrix(double, const double*, double* M) {
    M[0] = M[3] = 1.0;
    M[1] = M[2] = 0.0;
    return true;
  }
  bool rebase(double, double*, double*) { return false; }
};

TEST(Rn4, a_singular_pi_at_one_step_size_is_cured_by_halving) {
  UnstableMode sys;
  double x[2] = {1e-3, 1.0}, w[2] = {0.0, 0.0};
  const double times[1] = {3.0};
  std::vector<double> work(myriad::rn4_workspace_size(2));
  Recorder recorder(4);
  StepControl control;
  control.h_initial = 1.0 / (2.0 * myriad::kRn4BaseTableau.gamma);
  control.rtol = control.atol = 1e-8;
  IntegratorStats stats;
  ASSERT_EQ(myriad::integrate_rn4(sys, 0.0, x, w, times, 1, recorder, control, work.data(), stats),
            InstanceStatus::ok);
  EXPECT_GE(stats.rejected, 1);
  EXPECT_EQ(stats.lu_factorizations, stats.steps + stats.rejected);
  // x0 = 1e-3 cosh(2 t), x1 = cos t.
  EXPECT_NEAR(x[0], 1e-3 * std::cosh(6.0), 1e-5 * 1e-3 * std::cosh(6.0));  // the unstable mode amplifies
  EXPECT_NEAR(x[1], std::cos(3.0), 1e-6);
}

TEST(Rn4, failing_linearization_at_t0_is_non_finite) {
  struct Failing : CoupledPendulums {
    bool jacobians(double, const double*, const double*, double*, double*, double*, double*) { return false; }
  } sys;
  double x[2] = {kX0[0], kX0[1]}, w[2] = {kW0[0], kW0[1]};
  const double times[1] = {1.0};
  std::vector<double> work(myriad::rn4_workspace_size(2));
  Recorder recorder(4);
  StepControl control;
  IntegratorStats stats;
  EXPECT_EQ(myriad::integrate_rn4(sys, 0.0, x, w, times, 1, recorder, control, work.data(), stats),
            InstanceStatus::non_finite);
}

TEST(Rn4, rebasing_every_step_reproduces_the_plain_run_and_relinearizes_in_the_new_chart) {
  // Pure absolute tolerance: the step sizes do not depend on the chart, so the two runs take the same steps
  // and their physical states agree to rounding. Outputs inside steps make the integrator linearize at the
  // step end before the rebase and once more after it.
  const int outputs = 40;
  AdaptiveRun charted;
  charted.sys.chart = true;
  for (int k = 1; k <= outputs; ++k) charted.output_times.push_back(5.0 * k / outputs);
  double x[2] = {kX0[0], kX0[1]}, w[2] = {kW0[0], kW0[1]};
  std::vector<double> work(myriad::rn4_workspace_size(2));
  Recorder recorder(4);
  StepControl control;
  control.rtol = 0.0;
  control.atol = 1e-8;
  charted.status = myriad::integrate_rn4(charted.sys, 0.0, x, w, charted.output_times.data(), outputs,
                                         recorder, control, work.data(), charted.stats);
  ASSERT_EQ(charted.status, InstanceStatus::ok);

  // The plain run with the same absolute tolerance.
  CoupledPendulums plain_sys;
  double xp[2] = {kX0[0], kX0[1]}, wp[2] = {kW0[0], kW0[1]};
  Recorder plain_recorder(4);
  IntegratorStats plain_stats;
  ASSERT_EQ(myriad::integrate_rn4(plain_sys, 0.0, xp, wp, charted.output_times.data(), outputs,
                                  plain_recorder, control, work.data(), plain_stats),
            InstanceStatus::ok);
  EXPECT_EQ(charted.stats.steps, plain_stats.steps);
  EXPECT_EQ(charted.stats.rejected, plain_stats.rejected);
  double physical[2];
  charted.sys.physical(x, physical);
  EXPECT_NEAR(physical[0], xp[0], 1e-12);
  EXPECT_NEAR(physical[1], xp[1], 1e-12);
  EXPECT_NEAR(w[0], wp[0], 1e-12);
  EXPECT_NEAR(w[1], wp[1], 1e-12);

  // Extra linearizations: one per non-final step with an output strictly inside it (evaluated before the
  // rebase for the dense output, then again in the new chart).
  const std::vector<double>& ends = charted.sys.rebase_times;
  ASSERT_EQ(static_cast<long long>(ends.size()), charted.stats.steps);
  long long dense_non_final = 0;
  for (size_t k = 0; k + 1 < ends.size(); ++k) {
    dense_non_final += output_inside(charted.output_times, k == 0 ? 0.0 : ends[k - 1], ends[k]) ? 1 : 0;
  }
  EXPECT_GT(dense_non_final, 0);
  EXPECT_EQ(charted.stats.jacobian_evaluations, charted.stats.steps + dense_non_final);
  EXPECT_EQ(plain_stats.jacobian_evaluations, plain_stats.steps);
}

}  // namespace rosenbrock_nystrom_test

namespace myriad::testing {
namespace rosenbrock_nystrom_test {

using namespace ::rosenbrock_nystrom_test;  // the systems of the file's first part

// The staged strategy's protocol at the integrator level: the caller factors and solves (here with lu_factor and
// lu_solve, in the fixed cycle factor, solve x 4 of ensemble/staged_cadence.hpp, serving a request only when the
// cycle comes round to it) and the run is the inline run bit for bit. UnstableMode's first Pi is singular, so its
// first attempt leaves the cycle after the factorization and waits for the next factor turn.
template <class System>
void expect_external_lu_reproduces_inline(System sys, const double* x0, const double* w0, double h_initial,
                                          double t_end) {
  const double times[3] = {0.25 * t_end, 0.5 * t_end, t_end};
  StepControl control;
  control.h_initial = h_initial;
  control.rtol = control.atol = 1e-8;
  double x_inline[2] = {x0[0], x0[1]}, w_inline[2] = {w0[0], w0[1]};
  std::vector<double> work_inline(rn4_workspace_size(2));
  Recorder inline_recorder(4);
  IntegratorStats inline_stats;
  System inline_sys = sys;
  const InstanceStatus inline_status = integrate_rn4(inline_sys, 0.0, x_inline, w_inline, times, 3, inline_recorder,
                                                     control, work_inline.data(), inline_stats);

  double x[2] = {x0[0], x0[1]}, w[2] = {w0[0], w0[1]};
  std::vector<double> work(rn4_workspace_size(2));
  Recorder recorder(4);
  IntegratorStats stats;
  IntegrationProgress progress;
  progress.external_lu = true;
  using Request = IntegrationProgress::LinearRequest;
  int pivots[2];
  int waits = 0;
  Request served = Request::none;
  InstanceStatus status = InstanceStatus::ok;
  for (long long launch = 0; !progress.finished(); ++launch) {
    ASSERT_LT(launch, 100000);
    if (progress.request == Request::none || progress.request == served)
      status = integrate_rn4(sys, 0.0, x, w, times, 3, recorder, control, work.data(), stats, progress);
    else
      ++waits;
    served = launch % 5 == 0 ? Request::factor : Request::solve;
    if (progress.request != served) continue;
    if (served == Request::factor)
      progress.lu_info = lu_factor(2, progress.factor_matrix, pivots) ? 0 : 1;
    else
      lu_solve(2, progress.factor_matrix, pivots, progress.solve_vector);
  }
  EXPECT_EQ(status, inline_status);
  EXPECT_EQ(stats.steps, inline_stats.steps);
  EXPECT_EQ(stats.rejected, inline_stats.rejected);
  EXPECT_EQ(stats.lu_factorizations, inline_stats.lu_factorizations);
  EXPECT_EQ(stats.function_evaluations, inline_stats.function_evaluations);
  EXPECT_EQ(recorder.values, inline_recorder.values);
  EXPECT_EQ(x[0], x_inline[0]);
  EXPECT_EQ(w[1], w_inline[1]);
  if (inline_stats.rejected > 0) EXPECT_GT(waits, 0);  // the rejected attempts really left the cycle
}

TEST(Rn4, external_linear_algebra_in_the_staged_cycle_reproduces_the_inline_run) {
  expect_external_lu_reproduces_inline(CoupledPendulums{}, kX0, kW0, 0.0, 2.0);
  const double x0[2] = {1e-3, 1.0}, w0[2] = {0.0, 0.0};
  expect_external_lu_reproduces_inline(UnstableMode{}, x0, w0, 1.0 / (2.0 * kRn4BaseTableau.gamma), 3.0);
}

}  // namespace rosenbrock_nystrom_test
}  // namespace myriad::testing
