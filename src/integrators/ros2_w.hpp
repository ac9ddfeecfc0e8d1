#pragma once
// The adaptive two-stage, order-2(1) ROS2 W-method of seed 000 sec. 4 (the table after the RN4 coefficients,
// "proposed by Verwer et al."; Verwer, Spee, Blom & Hundsdorfer, SIAM J. Sci. Comput. 20 (1999) 1456-1480)
// for second-order systems x'' = f(t, x, x'), with a finite-difference Jacobian that is reused across steps.
// Host and device, no allocation. The System concept is described in integrators/second_order_system.hpp
// (ROS2-W uses acceleration() and rebase() only: neither jacobians() nor mass_matrix()).
//
// The method. gamma = 1 + 1/sqrt(2); base coefficients (seed 000 eqs. 11a-11b, 12) alpha_21 = 1,
// gamma_21 = -2 gamma, b = (1/2, 1/2), bhat = (0, 1); Theorem 2.1 turns them into the transformed ones
// a_21 = 1/gamma, c_21 = -2/gamma, m = (3/(2 gamma), 1/(2 gamma)), mhat = (2/gamma, 1/gamma), exactly the
// seed's W-method table (checked in tests/integrators/ros2_w_test.cpp). Applied to the first-order form
// y = (x, w), y' = F(t, y) = (w, f(t, x, w)) (seed 000 eq. 17b) in the transformed form of Hairer & Wanner
// (Solving ODEs II, sec. IV.7, eq. 7.25 without the f_t term):
//   (I/(h gamma) - J) u_1 = F(t, y_n),
//   (I/(h gamma) - J) u_2 = F(t + h, y_n + a_21 u_1) + (c_21 / h) u_1,
//   y_n+1 = y_n + m_1 u_1 + m_2 u_2,    J = [[0, I], [J1, J2]] with J1 ~ df/dx, J2 ~ df/dw.
// In the original variables this is VSBH's ROS2: y_n+1 = y_n + 3/2 h k_1 + 1/2 h k_2, (I - gamma h J) k_1 =
// F(y_n), (I - gamma h J) k_2 = F(y_n + h k_1) - 2 k_1.
//   * W-method: the order 2 holds for ANY matrix J (the J-dependent order-2 condition sum b_i gamma_i = 0
//     holds: b_1 gamma + b_2 (gamma_21 + gamma) = 0), so J may be approximate and stale, and the f_t term of
//     eq. 11b may be left out (it is a column of the Jacobian of the autonomized system, which may be
//     approximated by zero); it is. Stability (L-stability for the exact Jacobian, R(inf) = 0) needs a
//     good J.
//   * The 2n x 2n system (I/(h gamma) - J) u = r = (r_x, r_w) is solved exactly by block elimination through
//     the n x n matrix S = I - gamma h J2 - gamma^2 h^2 J1 (the S of seed 000 eq. 25e):
//       S u_x = gamma h [r_x + gamma h (r_w - J2 r_x)],   u_w = u_x / (gamma h) - r_x,
//     so one n x n LU serves both stages.
//   * Error estimate: y_n+1 - yhat_n+1 = (m_1 - mhat_1) u_1 + (m_2 - mhat_2) u_2 = -(u_1 + u_2) / (2 gamma),
//     the seed's embedded order-1 solution mhat. In VSBH's variables this is -h (k_1 + k_2) / 2, the negative
//     of VSBH's own estimate y_n+1 - (y_n + h k_1) (their embedded order-1 solution is y_n + h k_1, the
//     seed's is y_n + 2 h k_1 + h k_2): the same norm. It is O(h^2), so q = 1 in eq. 16 (exponent 1/2).
//   * Jacobian: forward differences of acceleration() (ros2w_jacobian): 2n evaluations. Reused across steps
//     while the step size stays within kRos2wJacobianStepRatio (20%) of the one it was evaluated for;
//     refreshed at the current step start after a rejection or when the step size drifted further, never
//     twice at the same point. S is refactored whenever h or J changed since its last factorization.
#include <cmath>

#include "core/hd.hpp"
#include "core/scalar.hpp"
#include "core/status.hpp"
#include "integrators/integration_progress.hpp"
#include "integrators/rosenbrock_nystrom.hpp"
#include "integrators/rosenbrock_nystrom_coefficients.hpp"
#include "integrators/step_control.hpp"
#include "linalg/dense_lu.hpp"

namespace myriad {

// The ROS2 base method (seed 000's W-method table, expressed in the coefficients of eqs. 11a-11b and 12).
// gamma = 1 + 1/sqrt(2) to 35 digits; gamma_21 = -2 gamma.
constexpr RosenbrockTableau<2> kRos2BaseTableau = {
    1.70710678118654752440084436210484904,
    {{0.0, 0.0}, {1.0, 0.0}},
    {{0.0, 0.0}, {-2.0 * 1.70710678118654752440084436210484904, 0.0}},
    {0.5, 0.5},
    {0.0, 1.0}};

// The transformed (Rosenbrock-Nystrom, Theorem 2.1) coefficients of ROS2: a, c, m, mhat, ...
constexpr RosenbrockNystromTableau<2> kRos2Tableau = rosenbrock_nystrom_tableau(kRos2BaseTableau);

// The lower order q of the pair (seed 000 eq. 15).
constexpr int kRos2wLowerOrder = 1;

// The Jacobian is reused while |h / h_J - 1| <= this, h_J the step size of the attempt it was evaluated for.
constexpr double kRos2wJacobianStepRatio = 0.2;

// Forward-difference increment for component value v: sqrt(eps) max(|v|, 1), i.e. a relative increment of
// sqrt(eps) with the typical magnitude of a state component taken as 1 (Dennis & Schnabel, Numerical Methods
// for Unconstrained Optimization, sec. 5.4; MINPACK's fdjac uses sqrt(eps) |v| and sqrt(eps) at v = 0). It
// balances the O(delta) truncation error against the O(eps |f| / delta) cancellation error for O(1)
// curvature; the floor keeps the increment measurable at v = 0 (a rebased chart, a body at rest), where an
// increment proportional to |v| would vanish.
MYRIAD_HD_INLINE double ros2w_difference_increment(double v) {
  return 1.4901161193847656e-08 * std::fmax(1.0, std::fabs(v));  // sqrt(2^-52) = 2^-26
}

// Forward-difference Jacobians J1 ~ df/dx, J2 ~ df/dw (n x n, row-major) at (t, x, w) with f = f(t, x, w)
// given: column j of J1 is (f(t, x + d e_j, w) - f) / d with d = ros2w_difference_increment(x_j) (the
// increment actually represented, (x_j + d) - x_j), likewise J2 with w. scratch: 3n doubles. Cost: 2n
// acceleration() calls (counted in stats.function_evaluations) and O(n^2); stats.jacobian_evaluations + 1.
// Returns false if an evaluation fails or gives a non-finite value (J1, J2 then partial).
template <class System>
MYRIAD_HD bool ros2w_jacobian(System& sys, double t, const double* x, const double* w, const double* f,
                              double* J1, double* J2, double* scratch, IntegratorStats& stats) {
  const int n = sys.dimension();
  double* x_perturbed = scratch;          // x with one component moved (n)
  double* w_perturbed = scratch + n;      // w with one component moved (n)
  double* f_perturbed = scratch + 2 * n;  // f at the perturbed point (n)
  for (int i = 0; i < n; ++i) {
    x_perturbed[i] = x[i];
    w_perturbed[i] = w[i];
  }
  ++stats.jacobian_evaluations;
  for (int which = 0; which < 2; ++which) {
    double* moved = which == 0 ? x_perturbed : w_perturbed;
    const double* original = which == 0 ? x : w;
    double* J = which == 0 ? J1 : J2;
    for (int j = 0; j < n; ++j) {
      moved[j] = original[j] + ros2w_difference_increment(original[j]);
      const double increment = moved[j] - original[j];
      ++stats.function_evaluations;
      const bool evaluated = sys.acceleration(t, x_perturbed, w_perturbed, f_perturbed);
      moved[j] = original[j];
      if (!evaluated || !rosenbrock_detail::all_finite(n, f_perturbed)) return false;
      for (int i = 0; i < n; ++i) J[i * n + j] = (f_perturbed[i] - f[i]) / increment;
    }
  }
  return true;
}

// Assembles S = I - gamma h J2 - gamma^2 h^2 J1 into S (n x n). O(n^2).
MYRIAD_HD_INLINE void ros2w_assemble(int n, double h, const double* J1, const double* J2, double* S) {
  constexpr double gamma = rosenbrock_nystrom_tableau(kRos2BaseTableau).gamma;
  const double gh = gamma * h;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      S[i * n + j] = (i == j ? 1.0 : 0.0) - gh * J2[i * n + j] - gh * gh * J1[i * n + j];
  }
}

// Assembles S (ros2w_assemble) and LU-factors it in place with its pivots (n, stored as doubles). Counted in
// stats.lu_factorizations. Returns false if S is numerically singular (linalg/dense_lu.hpp). O(n^3).
MYRIAD_HD_INLINE bool ros2w_factor(int n, double h, const double* J1, const double* J2, double* S,
                                   double* pivots, IntegratorStats& stats) {
  ros2w_assemble(n, h, J1, J2, S);
  ++stats.lu_factorizations;
  return lu_factor(n, S, pivots);
}

// The block elimination that solves (I/(h gamma) - J) u = r, J = [[0, I], [J1, J2]], through S = I - gh J2 -
// gh^2 J1: S u_x = gamma h [r_x + gamma h (r_w - J2 r_x)], u_w = u_x / (gamma h) - r_x (gh = gamma h), in
// three parts so that the n x n solve in the middle may be done elsewhere (external_lu). First the right-hand
// side of S u_x into rhs (n) for r = (r_x, r_w) held in u (2n). O(n^2).
MYRIAD_HD_INLINE void ros2w_solve_rhs(int n, double gh, const double* J2, const double* u, double* rhs) {
  const double* r_x = u;
  const double* r_w = u + n;
  rosenbrock_detail::dense_matrix_vector(n, J2, r_x, rhs);
  for (int i = 0; i < n; ++i) rhs[i] = gh * (r_x[i] + gh * (r_w[i] - rhs[i]));
}

// Then, with u_x solved in place of rhs, u (2n) overwritten by the solution (u_x, u_w). O(n).
MYRIAD_HD_INLINE void ros2w_solve_finish(int n, double gh, const double* u_x, double* u) {
  double* r_x = u;
  double* r_w = u + n;
  for (int i = 0; i < n; ++i) {
    r_w[i] = u_x[i] / gh - r_x[i];  // u_w (r_x still intact)
    r_x[i] = u_x[i];                // u_x
  }
}

// Solves (I/(h gamma) - J) u = r with S factored, for r held in u (2n, overwritten by the solution); product:
// n doubles of scratch. O(n^2).
MYRIAD_HD_INLINE void ros2w_solve(int n, double gh, const double* J2, const double* S, const double* pivots,
                                  double* u, double* product) {
  ros2w_solve_rhs(n, gh, J2, u, product);
  lu_solve(n, S, pivots, product);  // u_x
  ros2w_solve_finish(n, gh, product, u);
}

// Scratch doubles of ros2w_stages: u_1 and u_2 (2n each), a stage state (2n), the stage f and a product
// (n each).
MYRIAD_HD_INLINE int ros2w_stage_workspace_size(int n) { return 8 * n; }

// The two stages of one ROS2 step of size h from (t, x, w) with f = f(t, x, w), the J2 that S was built with
// and the LU of S (ros2w_factor at this h): one acceleration() call (counted). Writes the order-2 solution
// (x_new, w_new) and the error estimate y_new - yhat_new = -(u_1 + u_2) / (2 gamma) split into x_error and
// w_error. Outputs must not alias inputs. work: ros2w_stage_workspace_size(n) doubles. Returns false if the
// stage evaluation fails (outputs then unset). O(n^2) plus the evaluation.
// With a progress whose external_lu is set (integrators/integration_progress.hpp) the two n x n solves are the
// caller's: the call stops at each with progress->request = solve and progress->stage = 1 or 2 (returning true;
// outputs unset), and a later call with the same arguments and work takes the solution and goes on.
template <class System>
MYRIAD_HD bool ros2w_stages(System& sys, double t, double h, const double* x, const double* w,
                            const double* f, const double* J2, double* S, double* pivots,
                            double* x_new, double* w_new, double* x_error, double* w_error, double* work,
                            IntegratorStats& stats, IntegrationProgress* progress = nullptr) {
  using Request = IntegrationProgress::LinearRequest;
  // Static, as rn4_stages' tableau: indexed at run time, a plain constexpr local is built in each device thread's
  // local memory on every call.
  static constexpr RosenbrockNystromTableau<2> T = rosenbrock_nystrom_tableau(kRos2BaseTableau);
  const int n = sys.dimension();
  double* u1 = work;               // (u_x, u_w) of stage 1 (2n)
  double* u2 = work + 2 * n;       // (u_x, u_w) of stage 2 (2n)
  double* Y = work + 4 * n;        // stage-2 state (X, W) = y_n + a_21 u_1 (2n)
  double* f_stage = work + 6 * n;  // f(t + h, X, W) (n)
  double* product = work + 7 * n;  // J2 r_x, then the right-hand side of S u_x and u_x (n)
  const double gh = T.gamma * h;
  const bool external = progress != nullptr && progress->external_lu;
  const int resumed_stage = progress != nullptr ? progress->stage : -1;  // 1, 2: that stage's solve came back
  // Hands the solve of S u_x = product to the caller (external) or does it here; true when the caller's.
  const auto solve = [&](int stage) {
    if (!external) {
      lu_solve(n, S, pivots, product);
      return false;
    }
    progress->factor_matrix = S;
    progress->factor_pivots = pivots;
    progress->solve_vector = product;
    progress->request = Request::solve;
    progress->stage = stage;
    return true;
  };
  if (resumed_stage >= 1) progress->request = Request::none;

  if (resumed_stage < 1) {
    for (int i = 0; i < n; ++i) {
      u1[i] = w[i];
      u1[n + i] = f[i];
    }
    ros2w_solve_rhs(n, gh, J2, u1, product);
    if (solve(1)) return true;
  }
  if (resumed_stage < 2) {
    ros2w_solve_finish(n, gh, product, u1);
    for (int i = 0; i < n; ++i) {
      Y[i] = x[i] + T.a[1][0] * u1[i];
      Y[n + i] = w[i] + T.a[1][0] * u1[n + i];
    }
    ++stats.function_evaluations;
    if (!sys.acceleration(t + T.alpha_i[1] * h, Y, Y + n, f_stage)) {
      if (progress) progress->stage = -1;
      return false;
    }
    const double c_over_h = T.c[1][0] / h;
    for (int i = 0; i < n; ++i) {
      u2[i] = Y[n + i] + c_over_h * u1[i];
      u2[n + i] = f_stage[i] + c_over_h * u1[n + i];
    }
    ros2w_solve_rhs(n, gh, J2, u2, product);
    if (solve(2)) return true;
  }
  ros2w_solve_finish(n, gh, product, u2);
  if (progress) progress->stage = -1;
  const double e1 = T.m[0] - T.m_hat[0], e2 = T.m[1] - T.m_hat[1];
  for (int i = 0; i < n; ++i) {
    x_new[i] = x[i] + T.m[0] * u1[i] + T.m[1] * u2[i];
    w_new[i] = w[i] + T.m[0] * u1[n + i] + T.m[1] * u2[n + i];
    x_error[i] = e1 * u1[i] + e2 * u2[i];
    w_error[i] = e1 * u1[n + i] + e2 * u2[n + i];
  }
  return true;
}

// Scratch doubles ros2w_step needs in `work`.
MYRIAD_HD_INLINE int ros2w_step_workspace_size(int n) {
  return 3 * n * n + 2 * n + ros2w_stage_workspace_size(n);
}

// One ROS2-W step of size h from (t, x, w), for fixed-step use: evaluates f (one acceleration() call) and the
// forward-difference Jacobian (2n calls) at (t, x, w), factors S, runs the two stages. Writes the order-2
// solution (x_new, w_new) and the embedded order-1 solution (x_hat, w_hat). Outputs (n each) must not alias
// the inputs. work: ros2w_step_workspace_size(n). Stats: function_evaluations + 2n + 2,
// jacobian_evaluations + 1, lu_factorizations + 1. Returns ok; non_finite if an evaluation fails;
// singular_matrix if S does not factor.
template <class System>
MYRIAD_HD InstanceStatus ros2w_step(System& sys, double t, double h, const double* x, const double* w,
                                    double* x_new, double* w_new, double* x_hat, double* w_hat, double* work,
                                    IntegratorStats& stats) {
  const int n = sys.dimension();
  double* J1 = work;                // n x n
  double* J2 = work + n * n;        // n x n
  double* S = work + 2 * n * n;     // n x n, then its LU
  double* f = work + 3 * n * n;     // f(t, x, w) (n)
  double* pivots = f + n;           // (n)
  double* stage_work = pivots + n;  // 8n (its first 3n also serve ros2w_jacobian)
  ++stats.function_evaluations;
  if (!sys.acceleration(t, x, w, f) || !rosenbrock_detail::all_finite(n, f))
    return InstanceStatus::non_finite;
  if (!ros2w_jacobian(sys, t, x, w, f, J1, J2, stage_work, stats)) return InstanceStatus::non_finite;
  if (!ros2w_factor(n, h, J1, J2, S, pivots, stats)) return InstanceStatus::singular_matrix;
  if (!ros2w_stages(sys, t, h, x, w, f, J2, S, pivots, x_new, w_new, x_hat, w_hat, stage_work, stats)) {
    return InstanceStatus::non_finite;
  }
  for (int i = 0; i < n; ++i) {
    x_hat[i] = x_new[i] - x_hat[i];
    w_hat[i] = w_new[i] - w_hat[i];
  }
  return InstanceStatus::ok;
}

// Scratch doubles integrate_ros2w needs in `work` (layout there): 3 n^2 + 17 n.
MYRIAD_HD_INLINE int ros2w_workspace_size(int n) { return 3 * n * n + 9 * n + ros2w_stage_workspace_size(n); }

// Integrates x'' = f(t, x, x') adaptively with ROS2-W from t0 to T = output_times[n_outputs - 1] and hands
// (x, w) at every output time to obs (integrators/second_order_system.hpp). Same contract as integrate_rn4
// (rosenbrock_nystrom.hpp) except:
//   * Jacobian: forward differences (ros2w_jacobian), evaluated at the current step start when there is none
//     yet, or when it was evaluated at an earlier step start and either the previous attempt from this start
//     was rejected or |h/h_J - 1| > kRos2wJacobianStepRatio (h the trial step, h_J the trial step of the
//     attempt it was evaluated for). A Jacobian is never re-evaluated at the point where it was evaluated. It
//     is kept across rebases (a W-method needs only an approximation).
//   * S = I - gamma h J2 - gamma^2 h^2 J1 is factored for an attempt when its h or J differs from the last
//     factorization's, so a run at a constant step (e.g. clipped to h_max) factors once per Jacobian.
//   * Step control with q = 1 (exponent 1/2). The error estimate is over positions and velocities, norm of
//     eq. 14 over 2n components (second_order_error_norm). Starting step: h_initial, or Hairer's (q = 1).
//   * Dense output: cubic Hermite on y = (x, w) with y' = (w, f) at both ends (hermite_dense_output), O(h^3)
//     error (the method's global error is O(h^2)). f at the step end is the next step's stage-1 f: evaluated
//     at every accepted step end except the last (before the outputs, if an output lies strictly inside the
//     step, otherwise after the rebase), and at the last step's end only if an output lies strictly
//     inside it.
//   * A singular S is retried with h/2 up to kRosenbrockSingularRetries times in a row, then singular_matrix.
// stats is added to, not reset:
//   jacobian_evaluations += number of Jacobian refreshes (rule above);
//   function_evaluations += 1 (f at t0) + 1 if h_initial == 0 (starting step) + 2n per Jacobian evaluation
//     + 1 per attempt whose S factored (stage 2) + 1 per accepted step other than the last (f at its end)
//     + 1 per such step that has an output strictly inside it and whose rebase returned true
//     + 1 if the last step has an output strictly inside it;
//   lu_factorizations += number of attempts whose (h, J) differed from the previous factorization's
//     (<= steps + rejected).
// Returns ok; non_finite if f at t0, at a step end or after a rebase fails, if a finite-difference evaluation
// fails, if a rebase leaves a non-finite state, or if the step underflows while retrying after failed
// attempts; singular_matrix; step_size_too_small; max_steps (as integrate_rn4).
// The resumable form (integrators/integration_progress.hpp): stops before an attempt when progress.budget is
// used up (returning ok with progress.finished() false); a later call with the same progress, x, w and work
// carries on bit for bit. Finished: returns progress.status. With progress.external_lu set, each factorization
// of S and each of the two stage solves is the caller's (the call stops with progress.request set; see
// integration_progress.hpp); the factors and their pivots stay in work across the attempts that reuse them.
template <class System, class Times, class Observer>
MYRIAD_HD InstanceStatus integrate_ros2w(System& sys, double t0, double* x, double* w,
                                         const Times& output_times, int n_outputs, Observer& obs,
                                         const StepControl& control, double* work, IntegratorStats& stats,
                                         IntegrationProgress& progress) {
  if (progress.finished()) return progress.status;
  if (n_outputs <= 0) return progress.finish(InstanceStatus::ok);
  const int n = sys.dimension();
  double* J1 = work;             // forward-difference df/dx (n x n); written by ros2w_jacobian
  double* J2 = work + n * n;     // forward-difference df/dw (n x n); written by ros2w_jacobian
  double* S = work + 2 * n * n;  // LU of S (n x n); written by ros2w_factor
  double* f = work + 3 * n * n;  // f at the current step start (n); after a dense step, f at its end
  double* pivots = f + n;        // pivots of S (n)
  double* y_new = pivots + n;    // (x_new, w_new) at the trial step end (2n)
  double* x_new = y_new;
  double* w_new = y_new + n;
  double* x_error = y_new + 2 * n;     // y_new - yhat_new, positions (n)
  double* w_error = y_new + 3 * n;     // y_new - yhat_new, velocities (n)
  double* y_out = y_new + 4 * n;       // (x, w) handed to obs for t0 and dense outputs (2n)
  double* f_start = y_new + 6 * n;     // f at the start of an accepted dense step (n)
  double* stage_work = y_new + 7 * n;  // ros2w_stages' scratch (8n); also ros2w_jacobian's and the
                                       // starting step's

  int& next_output = progress.next_output;
  double& t = progress.t;
  double& h = progress.h;
  RetryState& retry = progress.retry;  // decides the status if h underflows while retrying
  int& singular_in_a_row = progress.singular_in_a_row;
  bool& have_jacobian = progress.have_jacobian;
  bool& jacobian_at_start = progress.jacobian_at_start;  // the Jacobian was evaluated at the current step start
  double& h_jacobian = progress.h_jacobian;  // the trial step of the attempt the Jacobian was evaluated for
  bool& have_factorization = progress.have_factorization;
  double& h_factorization = progress.h_factorization;  // the h of the current LU of S
  const double t_end = output_times[n_outputs - 1];
  if (progress.phase == IntegrationProgress::Phase::fresh) {
    if (!second_order_initial_outputs(n, t0, x, w, output_times, n_outputs, obs, y_out, next_output))
      return progress.finish(InstanceStatus::ok);

    ++stats.function_evaluations;
    if (!sys.acceleration(t0, x, w, f) || !rosenbrock_detail::all_finite(n, f))
      return progress.finish(InstanceStatus::non_finite);
    // (x_error, w_error) are contiguous: the 2n of scratch for the first-order derivative.
    h = second_order_initial_step(sys, t0, t_end, x, w, f, kRos2wLowerOrder, control, y_out, x_error, stage_work,
                                  stats);

    t = t0;
    progress.attempts = 0;
    retry = RetryState{};
    singular_in_a_row = 0;
    have_jacobian = jacobian_at_start = have_factorization = false;
    h_jacobian = h_factorization = 0.0;
    progress.phase = IntegrationProgress::Phase::stepping;
  }
  for (;;) {
    InstanceStatus result = InstanceStatus::ok;
    // A new attempt, unless this call continues one that stopped for its linear algebra (external_lu).
    const bool resumed = progress.stage >= 0;
    if (!resumed && !begin_adaptive_attempt(progress, control, t_end, &result)) return result;
    const bool last = progress.last;
    const double h_try = progress.h_try;

    if (!resumed) {
      const bool refresh = !have_jacobian ||
                           (!jacobian_at_start && (retry.after_rejection ||
                                                   std::fabs(h_try / h_jacobian - 1.0) > kRos2wJacobianStepRatio));
      if (refresh) {
        if (!ros2w_jacobian(sys, t, x, w, f, J1, J2, stage_work, stats))
          return progress.finish(InstanceStatus::non_finite);
        have_jacobian = true;
        jacobian_at_start = true;
        h_jacobian = h_try;
        have_factorization = false;
      }
      if (!have_factorization || h_try != h_factorization) {
        h_factorization = h_try;
        if (progress.external_lu) {
          ros2w_assemble(n, h_try, J1, J2, S);
          ++stats.lu_factorizations;
          progress.lu_threshold = lu_singularity_threshold(n, S);
          progress.factor_matrix = S;
          progress.factor_pivots = pivots;
          progress.request = IntegrationProgress::LinearRequest::factor;
          progress.stage = 0;
          return InstanceStatus::ok;
        }
        have_factorization = ros2w_factor(n, h_try, J1, J2, S, pivots, stats);
      }
    } else if (progress.stage == 0) {  // the factorization came back
      progress.request = IntegrationProgress::LinearRequest::none;
      progress.stage = -1;
      have_factorization = progress.lu_info == 0 && lu_pivots_regular(n, S, progress.lu_threshold);
    }
    if (!have_factorization) {
      retry.reject(RetryState::Failure::singular, stats);
      if (++singular_in_a_row > kRosenbrockSingularRetries) return progress.finish(InstanceStatus::singular_matrix);
      h = 0.5 * h_try;
      continue;
    }
    singular_in_a_row = 0;

    const bool staged = ros2w_stages(sys, t, h_try, x, w, f, J2, S, pivots, x_new, w_new, x_error, w_error,
                                     stage_work, stats, &progress);
    if (progress.request != IntegrationProgress::LinearRequest::none) return InstanceStatus::ok;
    const bool evaluated = staged && rosenbrock_detail::all_finite(2 * n, y_new);
    const double err = evaluated ? second_order_error_norm(n, x, w, x_new, w_new, x_error, w_error,
                                                           control.rtol, control.atol)
                                 : 0.0;
    if (!judge_attempt(evaluated, err, h_try, kRos2wLowerOrder, control, stats, retry, h)) continue;

    ++stats.steps;
    const double t_new = last ? t_end : t + h_try;
    const bool dense = next_output < n_outputs && output_times[next_output] < t_new;
    if (dense) {
      for (int i = 0; i < n; ++i) f_start[i] = f[i];
      ++stats.function_evaluations;
      if (!sys.acceleration(t_new, x_new, w_new, f) || !rosenbrock_detail::all_finite(n, f)) {
        for (int i = 0; i < n; ++i) {
          x[i] = x_new[i];
          w[i] = w_new[i];
        }
        return progress.finish(InstanceStatus::non_finite);
      }
    }
    while (next_output < n_outputs && output_times[next_output] <= t_new) {
      const double t_out = output_times[next_output];
      if (t_out == t_new) {
        obs(next_output, t_out, y_new);
      } else {
        const double theta = (t_out - t) / h_try;
        hermite_dense_output(n, theta, h_try, x, w, x_new, w_new, y_out);
        hermite_dense_output(n, theta, h_try, w, f_start, w_new, f, y_out + n);
        obs(next_output, t_out, y_out);
      }
      ++next_output;
    }

    for (int i = 0; i < n; ++i) {
      x[i] = x_new[i];
      w[i] = w_new[i];
    }
    t = t_new;
    jacobian_at_start = false;
    const bool rebased = sys.rebase(t, x, w);
    if (rebased && (!rosenbrock_detail::all_finite(n, x) || !rosenbrock_detail::all_finite(n, w)))
      return progress.finish(InstanceStatus::non_finite);
    if (last) return progress.finish(InstanceStatus::ok);
    if (!dense || rebased) {
      ++stats.function_evaluations;
      if (!sys.acceleration(t, x, w, f) || !rosenbrock_detail::all_finite(n, f))
        return progress.finish(InstanceStatus::non_finite);
    }
    h = next_step_size(h_try, err, kRos2wLowerOrder, control, retry.after_rejection);
    retry.accept();
  }
}

// In one call, to the end.
template <class System, class Times, class Observer>
MYRIAD_HD InstanceStatus integrate_ros2w(System& sys, double t0, double* x, double* w,
                                         const Times& output_times, int n_outputs, Observer& obs,
                                         const StepControl& control, double* work, IntegratorStats& stats) {
  IntegrationProgress progress;
  return integrate_ros2w(sys, t0, x, w, output_times, n_outputs, obs, control, work, stats, progress);
}

}  // namespace myriad
