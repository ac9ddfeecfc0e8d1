#pragma once
// Classical fixed-step Runge-Kutta of order 4 with cubic Hermite dense output, host and device, no
// allocation. The System and Observer concepts are described in integrators/ode_system.hpp.
// The state's scalar type Real is double for every model; float serves single-precision calibration workloads
// (ode/lorenz.hpp). Time stays double either way; step coefficients are formed in double and rounded once to
// Real, so with Real = double the arithmetic is unchanged.
#include <cmath>

#include "core/hd.hpp"
#include "core/scalar.hpp"
#include "core/status.hpp"
#include "integrators/integration_progress.hpp"

namespace myriad {

// Scratch doubles rk4_step needs in `work`: a stage derivative and a stage state.
MYRIAD_HD_INLINE int rk4_step_workspace_size(int n) { return 2 * n; }

// Scratch doubles integrate_rk4 needs in `work` (see the layout there).
MYRIAD_HD_INLINE int rk4_workspace_size(int n) { return 3 * n + rk4_step_workspace_size(n); }

// One classical RK4 step (HNW I, sec. II.1, Table 1.2, left) from (t, y) with dydt = f(t, y) given:
//   k1 = dydt, k2 = f(t + h/2, y + h/2 k1), k3 = f(t + h/2, y + h/2 k2), k4 = f(t + h, y + h k3),
//   y_new = y + h (k1 + 2 k2 + 2 k3 + k4) / 6.
// y_new must not alias y. work: rk4_step_workspace_size(n) doubles. Cost: 3 derivative evaluations (counted
// in stats.function_evaluations; fewer if one fails) and O(n). Returns false if a derivative evaluation
// failed, y_new then holds a partial sum.
template <class System, class Real, class T>
MYRIAD_HD bool rk4_step(System& sys, const T& t, const T& h, const Real* y, const Real* dydt, Real* y_new,
                        Real* work, IntegratorStats& stats) {
  const int n = sys.dimension();
  Real* k = work;            // the current stage derivative k2, k3 or k4 (n)
  Real* y_stage = work + n;  // the state at which the next stage is evaluated (n)
  const Real half = static_cast<Real>(0.5 * h);
  const Real sixth = static_cast<Real>(h / 6.0), third = static_cast<Real>(h / 3.0), full = static_cast<Real>(h);
  for (int i = 0; i < n; ++i) {
    y_new[i] = y[i] + sixth * dydt[i];
    y_stage[i] = y[i] + half * dydt[i];
  }
  ++stats.function_evaluations;
  if (!sys.derivative(t + half, y_stage, k)) return false;  // k2
  for (int i = 0; i < n; ++i) {
    y_new[i] += third * k[i];
    y_stage[i] = y[i] + half * k[i];
  }
  ++stats.function_evaluations;
  if (!sys.derivative(t + half, y_stage, k)) return false;  // k3
  for (int i = 0; i < n; ++i) {
    y_new[i] += third * k[i];
    y_stage[i] = y[i] + full * k[i];
  }
  ++stats.function_evaluations;
  if (!sys.derivative(t + h, y_stage, k)) return false;  // k4
  for (int i = 0; i < n; ++i) y_new[i] += sixth * k[i];
  return true;
}

// rk4_step to y_new and the derivative there, dydt_end = f(t_next, y_new), which is the next step's start
// derivative: false when a stage or that evaluation fails or y_new is not finite (y_new, dydt_end then partial).
// T is double, or Lanes for several instances' steps at once (core/lanes.hpp; the lane runner). Cost: 4
// derivative evaluations (counted; fewer on failure) and O(n).
template <class System, class Real, class T>
MYRIAD_HD bool rk4_step_to_end(System& sys, const T& t, const T& h, const T& t_next, const Real* y, const Real* dydt,
                               Real* y_new, Real* dydt_end, Real* work, IntegratorStats& stats) {
  if (!rk4_step(sys, t, h, y, dydt, y_new, work, stats)) return false;
  const int n = sys.dimension();
  for (int i = 0; i < n; ++i) {
    if (!is_finite(y_new[i])) return false;
  }
  ++stats.function_evaluations;
  return sys.derivative(t_next, y_new, dydt_end);
}

// Cubic Hermite interpolation on a step [t, t + h] from the values and derivatives at both ends (HNW I,
// sec. II.6, eq. 6.7), at theta = (t_out - t) / h in [0, 1]:
//   u(theta) = (1 - theta) y0 + theta y1 + theta (theta - 1) ((1 - 2 theta)(y1 - y0) + (theta - 1) h f0
//              + theta h f1).
// Its interpolation error is O(h^4), the same order as RK4's global error, so outputs keep order 4. O(n).
template <class Real>
MYRIAD_HD_INLINE void hermite_dense_output(int n, double theta, double h, const Real* y0, const Real* f0,
                                           const Real* y1, const Real* f1, Real* y_out) {
  const Real th = static_cast<Real>(theta), w = static_cast<Real>(theta * (theta - 1.0));
  const Real one_minus = static_cast<Real>(1.0 - theta), slope = static_cast<Real>(1.0 - 2.0 * theta);
  const Real start_weight = static_cast<Real>((theta - 1.0) * h), end_weight = static_cast<Real>(theta * h);
  for (int i = 0; i < n; ++i) {
    const Real difference = y1[i] - y0[i];
    y_out[i] = one_minus * y0[i] + th * y1[i] +
               w * (slope * difference + start_weight * f0[i] + end_weight * f1[i]);
  }
}

// Leaves a step for the caller (IntegrationProgress::external_step: it takes rk4_step_to_end) with stage 1; true.
// Steps on doubles only: a float integration (the Lorenz kernels) never hands one over (false).
MYRIAD_HD_INLINE bool hand_over_rk4_step(IntegrationProgress& progress, double t, double h, double t_next,
                                         double* y, double* dydt, double* y_new, double* dydt_end, double* work) {
  hand_over_step(progress, t, h, t_next, y, dydt, y_new, nullptr, dydt_end, work);
  return true;
}
template <class Real>
MYRIAD_HD_INLINE bool hand_over_rk4_step(IntegrationProgress&, double, double, double, Real*, Real*, Real*, Real*,
                                         Real*) {
  return false;
}

// Integrates y' = f(t, y) with classical RK4 at fixed step h from t0 to T = output_times[n_outputs - 1] and
// hands the solution at every output time to obs (integrators/ode_system.hpp).
//   * Step k runs from t0 + k h to t0 + (k+1) h (computed from t0, not accumulated); the step that reaches T
//     is shortened (or stretched by at most a round-off 1e-9 h, so no sliver step is taken) to end exactly on
//     T.
//   * output_times must be nondecreasing and >= t0. Outputs come from cubic Hermite dense output of each step
//     (y and f at both ends; f at the end is the next step's first stage, so it costs nothing extra), so they
//     need not be multiples of h. An output time equal to t0 gets the initial y, one equal to a step end gets
//     that step's value; each index is reported exactly once.
//   * After each step (after its outputs) sys.rebase(t, y) is called; if it returns true and another step
//     follows, f is re-evaluated at the new y.
// y: the initial state (n) on entry; on return the state at T, or on failure the state at the last completed
// step (in the chart after its rebase). work: rk4_workspace_size(n) doubles. stats is added to, not reset.
// Function evaluations: 1 (at t0) + 4 per step + 1 per rebase that returned true, except after the final
// step; none when T <= t0.
// Cost: O(steps * (4 evaluations + n)). Returns ok; non_finite if a derivative evaluation failed or a state
// became non-finite; max_steps if T needs more than max_steps steps (after taking max_steps);
// step_size_too_small if h is not positive (or not finite).
// The resumable form (integrators/integration_progress.hpp): the same integration, stopping before an attempt
// when progress.budget is used up (returning ok with progress.finished() false) and carrying on from there when
// called again with the same progress, y and work. Finished: returns progress.status (again, if called again).
template <class System, class Observer, class Real>
MYRIAD_HD InstanceStatus integrate_rk4(System& sys, double t0, double h, Real* y, const double* output_times,
                                       int n_outputs, Observer& obs, Real* work, IntegratorStats& stats,
                                       long long max_steps, IntegrationProgress& progress) {
  if (progress.finished()) return progress.status;
  if (n_outputs <= 0) return progress.finish(InstanceStatus::ok);
  const int n = sys.dimension();
  Real* derivative_a = work;       // f at the start of the current step (n), the FSAL-like cache ...
  Real* y_end = work + n;          // the state at the end of the current step (n), written by rk4_step
  Real* derivative_b = work + 2 * n;  // ... and f at its end (n); the two swap roles after every step
  Real* step_work = work + 3 * n;  // rk4_step's scratch (2n); its second half also receives dense outputs
  Real* y_dense = step_work + n;
  int& next_output = progress.next_output;

  if (progress.phase == IntegrationProgress::Phase::fresh) {
    while (next_output < n_outputs && output_times[next_output] <= t0) {
      obs(next_output, output_times[next_output], y);
      ++next_output;
    }
    if (next_output == n_outputs) return progress.finish(InstanceStatus::ok);
    if (!(h > 0.0) || !is_finite(h)) return progress.finish(InstanceStatus::step_size_too_small);
    ++stats.function_evaluations;
    if (!sys.derivative(t0, y, derivative_a)) return progress.finish(InstanceStatus::non_finite);
    progress.phase = IntegrationProgress::Phase::stepping;
    progress.swapped = false;
    progress.attempts = 0;
  }

  const double t_end = output_times[n_outputs - 1];
  // A remaining interval within this slack of h is finished in one step, so that rounding in t0 + k h never
  // leaves a sliver step of a few ulps before T.
  const double landing_slack =
      1e-9 * h + 4.0 * 2.220446049250313e-16 * std::fmax(std::fabs(t0), std::fabs(t_end));

  for (;;) {
    const long long k = progress.attempts;
    const bool taken = progress.step_pending();  // the caller's step is back
    if (!taken) {
      if (k >= max_steps) return progress.finish(InstanceStatus::max_steps);
      if (!progress.take_attempt()) return InstanceStatus::ok;
    }
    Real* dydt_start = progress.swapped ? derivative_b : derivative_a;
    Real* dydt_end = progress.swapped ? derivative_a : derivative_b;
    const double t = t0 + static_cast<double>(k) * h;
    const double remaining = t_end - t;
    const bool last = remaining <= h + landing_slack;
    const double h_step = last ? remaining : h;
    const double t_next = last ? t_end : t0 + static_cast<double>(k + 1) * h;

    bool stepped;
    if (taken) {
      progress.stage = -1;
      stepped = progress.step_evaluated;
    } else if (kExternalSteps && progress.external_step &&
               hand_over_rk4_step(progress, t, h_step, t_next, y, dydt_start, y_end, dydt_end, step_work)) {
      return InstanceStatus::ok;
    } else {
      stepped = rk4_step_to_end(sys, t, h_step, t_next, y, dydt_start, y_end, dydt_end, step_work, stats);
    }
    if (!stepped) return progress.finish(InstanceStatus::non_finite);
    ++stats.steps;

    while (next_output < n_outputs && output_times[next_output] <= t_next) {
      const double t_out = output_times[next_output];
      if (t_out == t_next) {
        obs(next_output, t_out, y_end);
      } else {
        hermite_dense_output(n, (t_out - t) / h_step, h_step, y, dydt_start, y_end, dydt_end, y_dense);
        obs(next_output, t_out, y_dense);
      }
      ++next_output;
    }

    for (int i = 0; i < n; ++i) y[i] = y_end[i];
    progress.swapped = !progress.swapped;  // the end derivative is the next step's start derivative
    progress.attempts = k + 1;

    if (sys.rebase(t_next, y)) {
      for (int i = 0; i < n; ++i) {
        if (!is_finite(y[i])) return progress.finish(InstanceStatus::non_finite);
      }
      if (!last) {
        ++stats.function_evaluations;
        if (!sys.derivative(t_next, y, dydt_end)) return progress.finish(InstanceStatus::non_finite);
      }
    }
    if (last) return progress.finish(InstanceStatus::ok);
  }
}

// In one call, to the end.
template <class System, class Observer, class Real>
MYRIAD_HD InstanceStatus integrate_rk4(System& sys, double t0, double h, Real* y, const double* output_times,
                                       int n_outputs, Observer& obs, Real* work, IntegratorStats& stats,
                                       long long max_steps) {
  IntegrationProgress progress;
  return integrate_rk4(sys, t0, h, y, output_times, n_outputs, obs, work, stats, max_steps, progress);
}

}  // namespace myriad
