#pragma once
// Adaptive Dormand-Prince 5(4) with Shampine's 4th-order continuous extension, host and device, no
// allocation. Coefficients: Dormand & Prince (1980) as tabulated in HNW I, sec. II.5, Table 5.2, and Hairer's
// dopri5.f (error coefficients e_i = b_i - bhat_i, dense output d_i). The System and Observer concepts are
// described in integrators/ode_system.hpp; step control follows seed 000 eqs. 13-16
// (integrators/step_control.hpp).
#include <cmath>

#include "core/hd.hpp"
#include "core/scalar.hpp"
#include "core/status.hpp"
#include "integrators/integration_progress.hpp"
#include "integrators/step_control.hpp"

namespace myriad {

// The lower order q of the pair: the error estimate is O(h^(q+1)), seed 000 eq. 15.
constexpr int kDopri5LowerOrder = 4;

// Scratch doubles dopri5_step needs in `work`: stages k2..k6 and a stage state.
MYRIAD_HD_INLINE int dopri5_step_workspace_size(int n) { return 6 * n; }

// Scratch doubles integrate_dopri5 needs in `work` (see the layout there).
MYRIAD_HD_INLINE int dopri5_workspace_size(int n) { return 4 * n + dopri5_step_workspace_size(n); }

// Stage k_i (i = 2..6) inside dopri5_step's work array, for the dense output.
MYRIAD_HD_INLINE const double* dopri5_stage(const double* step_work, int n, int i) {
  return step_work + (i - 2) * n;
}

// One Dormand-Prince 5(4) step from (t, y) with k1 = f(t, y) given (FSAL: the previous step's k7):
//   k_i = f(t + c_i h, y + h sum_j a_ij k_j), i = 2..6;  y_new = y + h sum_i b_i k_i (5th order);
//   k7 = f(t + h, y_new);  error = h sum_i e_i k_i = y_new - yhat_new (yhat the embedded 4th-order solution).
// k7 is both the last stage of the error estimate and the next step's k1. y_new, error and k7 must not alias
// y or k1. work: dopri5_step_workspace_size(n) doubles; on success it holds k2..k6 (dopri5_stage) for
// dopri5_dense_output. Cost: 6 derivative evaluations (counted; fewer if one fails) and O(n). Returns false
// if a derivative evaluation failed (outputs then partial).
//   S is double, or Lanes for several instances' steps at once (core/lanes.hpp; the lane runner).
template <class System, class S>
MYRIAD_HD bool dopri5_step(System& sys, const S& t, const S& h, const S* y, const S* k1, S* y_new, S* error, S* k7,
                           S* work, IntegratorStats& stats) {
  constexpr double c2 = 1.0 / 5.0, c3 = 3.0 / 10.0, c4 = 4.0 / 5.0, c5 = 8.0 / 9.0;
  constexpr double a21 = 1.0 / 5.0;
  constexpr double a31 = 3.0 / 40.0, a32 = 9.0 / 40.0;
  constexpr double a41 = 44.0 / 45.0, a42 = -56.0 / 15.0, a43 = 32.0 / 9.0;
  constexpr double a51 = 19372.0 / 6561.0, a52 = -25360.0 / 2187.0, a53 = 64448.0 / 6561.0,
                   a54 = -212.0 / 729.0;
  constexpr double a61 = 9017.0 / 3168.0, a62 = -355.0 / 33.0, a63 = 46732.0 / 5247.0, a64 = 49.0 / 176.0,
                   a65 = -5103.0 / 18656.0;
  // 5th-order weights (b2 = 0); they are also row 7 of the tableau, which is what makes k7 FSAL.
  constexpr double b1 = 35.0 / 384.0, b3 = 500.0 / 1113.0, b4 = 125.0 / 192.0, b5 = -2187.0 / 6784.0,
                   b6 = 11.0 / 84.0;
  // e_i = b_i - bhat_i (e2 = 0).
  constexpr double e1 = 71.0 / 57600.0, e3 = -71.0 / 16695.0, e4 = 71.0 / 1920.0, e5 = -17253.0 / 339200.0,
                   e6 = 22.0 / 525.0, e7 = -1.0 / 40.0;

  const int n = sys.dimension();
  const S* k2 = work;  // stage derivatives k2..k6 (n each), written here
  const S* k3 = work + n;
  const S* k4 = work + 2 * n;
  const S* k5 = work + 3 * n;
  const S* k6 = work + 4 * n;
  S* y_stage = work + 5 * n;  // the state at which the next stage is evaluated (n)
  static constexpr double c[] = {0.0, 0.0, c2, c3, c4, c5, 1.0, 1.0};  // c_s of stage s (c6 = c7 = 1)

  // Stages 2..7 in one loop with one derivative call: on the device each call site inlines the model's whole
  // dynamics, and six sites in one function (the quarter car's model kernel) spilled 256 B at 128 registers where
  // the loop's one site spills 80 (issue 19, bench/results/kernel_call_spills.md). The host unrolls it back into six
  // straight stages (one-instance steps 60 ns slower rolled, the switch kept). Each stage's state is the same
  // expression either way, so the results are the same bits.
#if defined(__CUDA_ARCH__)
#pragma unroll 1
#elif defined(__GNUC__) && !defined(__CUDACC__)  // nvcc's front end knows no GCC pragma; its host code runs no steps
#pragma GCC unroll 6
#endif
  for (int s = 2; s <= 7; ++s) {
    S* at = s == 7 ? y_new : y_stage;  // stage 7 is evaluated at the 5th-order solution (FSAL)
    switch (s) {
      case 2:
        for (int i = 0; i < n; ++i) at[i] = y[i] + h * (a21 * k1[i]);
        break;
      case 3:
        for (int i = 0; i < n; ++i) at[i] = y[i] + h * (a31 * k1[i] + a32 * k2[i]);
        break;
      case 4:
        for (int i = 0; i < n; ++i) at[i] = y[i] + h * (a41 * k1[i] + a42 * k2[i] + a43 * k3[i]);
        break;
      case 5:
        for (int i = 0; i < n; ++i) at[i] = y[i] + h * (a51 * k1[i] + a52 * k2[i] + a53 * k3[i] + a54 * k4[i]);
        break;
      case 6:
        for (int i = 0; i < n; ++i) {
          at[i] = y[i] + h * (a61 * k1[i] + a62 * k2[i] + a63 * k3[i] + a64 * k4[i] + a65 * k5[i]);
        }
        break;
      default:
        for (int i = 0; i < n; ++i) {
          at[i] = y[i] + h * (b1 * k1[i] + b3 * k3[i] + b4 * k4[i] + b5 * k5[i] + b6 * k6[i]);
        }
        break;
    }
    ++stats.function_evaluations;
    if (!sys.derivative(t + c[s] * h, at, s == 7 ? k7 : work + (s - 2) * n)) return false;
  }
  for (int i = 0; i < n; ++i) {
    error[i] = h * (e1 * k1[i] + e3 * k3[i] + e4 * k4[i] + e5 * k5[i] + e6 * k6[i] + e7 * k7[i]);
  }
  return true;
}

// Shampine's 4th-order continuous extension of DOPRI5 (HNW I, sec. II.6, dopri5.f's CONTD5) on a step
// [t, t + h] from y, y_new and the step's stages, at theta = (t_out - t) / h in [0, 1]:
//   u(theta) = y + theta (dy + (1 - theta)(bspl + theta (r3 + (1 - theta) r4))),
//   dy = y_new - y, bspl = h k1 - dy, r3 = dy - h k7 - bspl, r4 = h sum_i d_i k_i (d2 = 0).
// u is C1 across steps and its error is O(h^5), so outputs keep the integrator's accuracy. O(n).
MYRIAD_HD_INLINE void dopri5_dense_output(int n, double theta, double h, const double* y, const double* y_new,
                                          const double* k1, const double* k3, const double* k4,
                                          const double* k5, const double* k6, const double* k7,
                                          double* y_out) {
  constexpr double d1 = -12715105075.0 / 11282082432.0, d3 = 87487479700.0 / 32700410799.0,
                   d4 = -10690763975.0 / 1880347072.0, d5 = 701980252875.0 / 199316789632.0,
                   d6 = -1453857185.0 / 822651844.0, d7 = 69997945.0 / 29380423.0;
  const double theta1 = 1.0 - theta;
  for (int i = 0; i < n; ++i) {
    const double dy = y_new[i] - y[i];
    const double bspl = h * k1[i] - dy;
    const double r3 = dy - h * k7[i] - bspl;
    const double r4 = h * (d1 * k1[i] + d3 * k3[i] + d4 * k4[i] + d5 * k5[i] + d6 * k6[i] + d7 * k7[i]);
    y_out[i] = y[i] + theta * (dy + theta1 * (bspl + theta * (r3 + theta1 * r4)));
  }
}

// Integrates y' = f(t, y) adaptively with DOPRI5 from t0 to T = output_times[n_outputs - 1] and hands the
// solution at every output time to obs (integrators/ode_system.hpp).
//   * Step control: error norm of seed 000 eqs. 13-14, next step of eq. 16 with q = 4, no growth after a
//     rejection; first trial step control.h_initial or, if 0, Hairer's starting step (initial_step_size);
//     every trial step clipped to control.h_max (if > 0; only the stretched final step below may exceed it,
//     by at most 1%).
//   * Steps never overshoot T: a step is clipped to end exactly on T, and one that would leave under 1% of
//     itself before T is stretched to T (as in dopri5.f), so no sliver step is taken. Steps do not stop at
//     intermediate output times; those come from the continuous extension (dopri5_dense_output), so outputs
//     are at the same times whatever the tolerances. An output time equal to t0 gets the initial y, one equal
//     to a step end that step's value; each index is reported exactly once. output_times must be
//     nondecreasing and >= t0; any sequence indexed like an array of doubles (integrators/output_times.hpp).
//   * A trial step whose stage evaluation fails, or whose error norm is not finite, counts as rejected and is
//     retried with half the step.
//   * After each accepted step (after its outputs) sys.rebase(t, y) is called; if it returns true and another
//     step follows, k1 is re-evaluated at the new y (the FSAL stage belongs to the old chart).
// y: the initial state (n) on entry; on return the state at T, or on failure the state at the last accepted
// step (in the chart after its rebase). work: dopri5_workspace_size(n) doubles. stats is added to, not reset.
// Function evaluations (when no stage fails): 1 (at t0) + 1 if h_initial == 0 (starting step) + 6 per step
// attempt (accepted or rejected) + 1 per rebase that returned true, except after the final step; a failing
// stage ends its attempt early, so such an attempt costs 1..6. None when T <= t0.
// Cost: O((steps + rejected) * (6 evaluations + n)). Returns ok; non_finite if the derivative fails at t0 or
// after a rebase, a rebase leaves a non-finite y, or the step falls below the minimum while retrying after
// failed/non-finite trials; step_size_too_small if the controller asks for a step below
// minimum_step_size(control, t) = max(h_min, 1e-14 max(1, |t|)) after ordinary error rejections; max_steps if
// control.max_steps attempts (accepted + rejected) did not reach T.
// The resumable form (integrators/integration_progress.hpp): stops before an attempt when progress.budget is
// used up (returning ok with progress.finished() false); a later call with the same progress, y and work carries
// on bit for bit. Finished: returns progress.status.
template <class System, class Times, class Observer>
MYRIAD_HD InstanceStatus integrate_dopri5(System& sys, double t0, double* y, const Times& output_times,
                                          int n_outputs, Observer& obs, const StepControl& control,
                                          double* work, IntegratorStats& stats, IntegrationProgress& progress) {
  if (progress.finished()) return progress.status;
  if (n_outputs <= 0) return progress.finish(InstanceStatus::ok);
  const int n = sys.dimension();
  double* derivative_a = work;       // f at the start of the current step (n): the FSAL stage ...
  double* derivative_b = work + n;   // ... and f at the end of the current trial step (n); swap on accept
  double* y_new = work + 2 * n;      // the 5th-order solution at the end of the trial step (n)
  double* error = work + 3 * n;      // the error estimate y_new - yhat_new (n); then reused for dense outputs
  double* step_work = work + 4 * n;  // dopri5_step's scratch (6n): k2..k6 and a stage state
  int& next_output = progress.next_output;
  double& t = progress.t;
  double& h = progress.h;
  bool& after_rejection = progress.retry.after_rejection;

  if (progress.phase == IntegrationProgress::Phase::fresh) {
    while (next_output < n_outputs && output_times[next_output] <= t0) {
      obs(next_output, output_times[next_output], y);
      ++next_output;
    }
    if (next_output == n_outputs) return progress.finish(InstanceStatus::ok);
    ++stats.function_evaluations;
    if (!sys.derivative(t0, y, derivative_a)) return progress.finish(InstanceStatus::non_finite);
    h = control.h_initial > 0.0
            ? control.h_initial
            : initial_step_size(sys, t0, output_times[n_outputs - 1], y, derivative_a, kDopri5LowerOrder, control,
                                step_work, stats);
    t = t0;
    progress.attempts = 0;
    progress.swapped = false;
    progress.retry = RetryState{};
    progress.phase = IntegrationProgress::Phase::stepping;
  }
  const double t_end = output_times[n_outputs - 1];

  for (;;) {
    // An underflowing h ends the run with the reason of the last rejection (non_finite or step_size_too_small).
    InstanceStatus result = InstanceStatus::ok;
    const bool taken = progress.step_pending();  // the caller's step is back
    if (!taken && !begin_adaptive_attempt(progress, control, t_end, &result)) return result;
    const bool last = progress.last;
    const double h_try = progress.h_try;
    double* k1 = progress.swapped ? derivative_b : derivative_a;
    double* k7 = progress.swapped ? derivative_a : derivative_b;

    bool evaluated;
    if (taken) {
      progress.stage = -1;
      evaluated = progress.step_evaluated;
    } else if (kExternalSteps && progress.external_step) {
      hand_over_step(progress, t, h_try, last ? t_end : t + h_try, y, k1, y_new, error, k7, step_work);
      return InstanceStatus::ok;
    } else {
      evaluated = dopri5_step(sys, t, h_try, y, k1, y_new, error, k7, step_work, stats);
    }
    const double err = evaluated ? error_norm(n, y, y_new, error, control.rtol, control.atol) : 0.0;
    if (!evaluated || !is_finite(err)) {
      ++stats.rejected;
      h = 0.5 * h_try;
      after_rejection = true;
      progress.retry.last = RetryState::Failure::non_finite;
      continue;
    }
    if (err > 1.0) {
      ++stats.rejected;
      h = next_step_size(h_try, err, kDopri5LowerOrder, control, true);
      after_rejection = true;
      progress.retry.last = RetryState::Failure::error;
      continue;
    }

    ++stats.steps;
    const double t_new = last ? t_end : t + h_try;
    while (next_output < n_outputs && output_times[next_output] <= t_new) {
      const double t_out = output_times[next_output];
      if (t_out == t_new) {
        obs(next_output, t_out, y_new);
      } else {
        dopri5_dense_output(n, (t_out - t) / h_try, h_try, y, y_new, k1, dopri5_stage(step_work, n, 3),
                            dopri5_stage(step_work, n, 4), dopri5_stage(step_work, n, 5),
                            dopri5_stage(step_work, n, 6), k7, error);
        obs(next_output, t_out, error);
      }
      ++next_output;
    }

    for (int i = 0; i < n; ++i) y[i] = y_new[i];
    progress.swapped = !progress.swapped;  // k7 is the next step's k1 (FSAL)
    t = t_new;

    if (sys.rebase(t, y)) {
      for (int i = 0; i < n; ++i) {
        if (!is_finite(y[i])) return progress.finish(InstanceStatus::non_finite);
      }
      if (!last) {
        ++stats.function_evaluations;
        if (!sys.derivative(t, y, k7)) return progress.finish(InstanceStatus::non_finite);
      }
    }
    if (last) return progress.finish(InstanceStatus::ok);
    h = next_step_size(h_try, err, kDopri5LowerOrder, control, after_rejection);
    after_rejection = false;
    progress.retry.last = RetryState::Failure::none;
  }
}

// In one call, to the end.
template <class System, class Times, class Observer>
MYRIAD_HD InstanceStatus integrate_dopri5(System& sys, double t0, double* y, const Times& output_times,
                                          int n_outputs, Observer& obs, const StepControl& control,
                                          double* work, IntegratorStats& stats) {
  IntegrationProgress progress;
  return integrate_dopri5(sys, t0, y, output_times, n_outputs, obs, control, work, stats, progress);
}

}  // namespace myriad
