#pragma once
// Step-size control for embedded Runge-Kutta pairs: the scaled error norm and the step-size controller of
// seed 000 eqs. 13-16, and Hairer's starting-step algorithm (Hairer, Norsett & Wanner, Solving Ordinary
// Differential Equations I, 2nd ed., sec. II.4). Host and device; nothing here allocates.
#include <cmath>

#include "core/hd.hpp"
#include "core/scalar.hpp"
#include "core/status.hpp"

namespace myriad {

struct StepControl {
  double rtol = 1e-6;      // relative tolerance Rtol of seed 000 eq. 13, the same for every component
  double atol = 1e-8;      // absolute tolerance Atol of seed 000 eq. 13, the same for every component
  double fac = 0.9;        // safety factor of seed 000 eq. 16
  double facmin = 0.2;     // smallest step ratio h_new / h of seed 000 eq. 16
  double facmax = 5.0;     // largest step ratio h_new / h of seed 000 eq. 16 (1 right after a rejection)
  double h_initial = 0.0;  // first trial step; 0: automatic (Hairer's starting step algorithm)
  double h_min = 0.0;      // smallest step the controller may ask for; the round-off floor
                           // 1e-14 * max(1, |t|) applies whatever this is (see minimum_step_size)
  double h_max = 0.0;      // largest step; 0: unlimited
  long long max_steps = 10000000;  // accepted + rejected steps allowed in one integrate call
};

// The step below which an adaptive integrator gives up with InstanceStatus::step_size_too_small: the user's
// h_min, but never below 1e-14 * max(1, |t|), because below that t + h no longer resolves the step in double
// precision (about 50 ulps of t) and the integration would stall while consuming steps. O(1).
MYRIAD_HD_INLINE double minimum_step_size(const StepControl& control, double t) {
  const double round_off_floor = 1e-14 * std::fmax(1.0, std::fabs(t));
  return std::fmax(control.h_min, round_off_floor);
}

// Scaled RMS norm of an error estimate, seed 000 eqs. 13-14:
//   sc_i = atol + max(|y_n,i|, |y_n+1,i|) * rtol,  err = sqrt(mean_i (error_i / sc_i)^2),
// where error = y_n+1 - yhat_n+1 is the difference of the two solutions of the embedded pair. err <= 1
// accepts the step. Returns a non-finite value when any input is non-finite. O(n).
MYRIAD_HD_INLINE double error_norm(int n, const double* y_old, const double* y_new, const double* error,
                                   double rtol, double atol) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const double sc = atol + std::fmax(std::fabs(y_old[i]), std::fabs(y_new[i])) * rtol;
    const double scaled = error[i] / sc;
    sum += scaled * scaled;
  }
  return std::sqrt(sum / static_cast<double>(n > 0 ? n : 1));
}

// The next step size from the error norm err of a step of size h, seed 000 eq. 16:
//   h_new = h * min(facmax, max(facmin, fac * (1/err)^(1/(q+1)))),
// q the lower order of the pair (4 for DOPRI5). After a rejection (after_rejection) facmax is 1: neither the
// retry nor the step accepted right after it may grow h, which stops the controller from oscillating between
// rejection and growth (Hairer's dopri5 does the same). err = 0 gives the largest growth; a NaN err the
// largest shrink, facmin (integrators handle non-finite steps themselves before calling this). O(1).
MYRIAD_HD_INLINE double next_step_size(double h, double err, int lower_order, const StepControl& control,
                                       bool after_rejection) {
  const double facmax = after_rejection ? std::fmin(1.0, control.facmax) : control.facmax;
  if (err != err) return h * control.facmin;
  if (err <= 0.0) return h * facmax;
  const double optimal_ratio = control.fac * std::pow(1.0 / err, 1.0 / static_cast<double>(lower_order + 1));
  return h * std::fmin(facmax, std::fmax(control.facmin, optimal_ratio));
}

// Scratch doubles initial_step_size needs in `work`: a trial state and its derivative.
MYRIAD_HD_INLINE int initial_step_size_workspace_size(int n) { return 2 * n; }

// Hairer's starting-step algorithm (HNW I, sec. II.4, "Starting Step Size"; dopri5.f's HINIT): with the norm
// ||.|| of seed 000 eq. 14 scaled by y0 alone,
//   d0 = ||y0||, d1 = ||f0||, h0 = 0.01 d0/d1 (1e-6 if either is below 1e-5),
//   d2 = ||f(t0 + h0, y0 + h0 f0) - f0|| / h0,
//   h1 = (0.01 / max(d1, d2))^(1/(q+1))  (max(1e-6, 1e-3 h0) if max(d1, d2) <= 1e-15),
//   h  = min(100 h0, h1, h_max).
// The first term guesses a step from the solution's scale, the second makes the local error of an order-q
// error estimate about 0.01 from an estimate of the second derivative. Forward in t only.
// One change to HINIT: the probe h0 is at most 1% of the way to t_end (the end of the piece being integrated,
// between the inputs' breakpoints). HINIT judges the time dependence by f at t0 + h0 alone; from a state at rest
// (f0 at round-off, so h0 = 0.01 d0/d1 is enormous) it probed far past a road bump, where the road is back at its
// starting height, saw nothing, and ROS2-W (whose stages sample only t0 and t0 + h) then stepped over the whole
// bump in one step (models/quarter_car_benchmark.json: 4 steps to t = 0.6 s and no response at all). The probe now
// samples the inputs near t0; h = min(100 h0, h1) still allows a first step of the whole piece.
// Cost: one derivative evaluation (counted in stats) and O(n). If that evaluation fails, h0 is returned and
// the integrator's rejection logic shrinks it further.
template <class System>
MYRIAD_HD double initial_step_size(System& sys, double t0, double t_end, const double* y0, const double* f0,
                                   int lower_order, const StepControl& control, double* work,
                                   IntegratorStats& stats) {
  const int n = sys.dimension();
  double* y_trial = work;      // y0 + h0 f0 (n), written here
  double* f_trial = work + n;  // f(t0 + h0, y_trial) (n), written here
  double d0 = 0.0, d1 = 0.0;
  for (int i = 0; i < n; ++i) {
    const double sc = control.atol + std::fabs(y0[i]) * control.rtol;
    d0 += (y0[i] / sc) * (y0[i] / sc);
    d1 += (f0[i] / sc) * (f0[i] / sc);
  }
  const double inv_n = 1.0 / static_cast<double>(n > 0 ? n : 1);
  d0 = std::sqrt(d0 * inv_n);
  d1 = std::sqrt(d1 * inv_n);
  double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
  if (control.h_max > 0.0) h0 = std::fmin(h0, control.h_max);
  // (Not for a sliver of a piece, shorter than 100 minimum steps, which is stepped over as before: a breakpoint
  // a few ulps before a stepping API's t + dt leaves one.)
  if (0.01 * (t_end - t0) >= minimum_step_size(control, t0)) h0 = std::fmin(h0, 0.01 * (t_end - t0));

  for (int i = 0; i < n; ++i) y_trial[i] = y0[i] + h0 * f0[i];
  ++stats.function_evaluations;
  if (!sys.derivative(t0 + h0, y_trial, f_trial)) return h0;
  double d2 = 0.0;
  for (int i = 0; i < n; ++i) {
    const double sc = control.atol + std::fabs(y0[i]) * control.rtol;
    const double scaled = (f_trial[i] - f0[i]) / sc;
    d2 += scaled * scaled;
  }
  d2 = std::sqrt(d2 * inv_n) / h0;

  const double d12 = std::fmax(d1, d2);
  const double h1 = (d12 <= 1e-15) ? std::fmax(1e-6, 1e-3 * h0)
                                   : std::pow(0.01 / d12, 1.0 / static_cast<double>(lower_order + 1));
  double h = std::fmin(100.0 * h0, h1);
  if (control.h_max > 0.0) h = std::fmin(h, control.h_max);
  return h;
}

// Retry bookkeeping of the Rosenbrock integrators: what failed last decides the status if h falls below the
// minimum while retrying, and the step after a rejection may not grow (eq. 16 with facmax = 1).
struct RetryState {
  enum class Failure { none, error, non_finite, singular };
  Failure last = Failure::none;
  bool after_rejection = false;

  MYRIAD_HD_INLINE InstanceStatus underflow_status() const {
    if (last == Failure::non_finite) return InstanceStatus::non_finite;
    if (last == Failure::singular) return InstanceStatus::singular_matrix;
    return InstanceStatus::step_size_too_small;
  }
  MYRIAD_HD_INLINE void reject(Failure why, IntegratorStats& stats) {
    ++stats.rejected;
    after_rejection = true;
    last = why;
  }
  MYRIAD_HD_INLINE void accept() {
    after_rejection = false;
    last = Failure::none;
  }
};

// Judges a finished attempt with error norm `err`; true if accepted. A rejected attempt is counted and h set for
// the retry: halved after a failed or non-finite evaluation, from eq. 16 (no growth) after too large an error.
MYRIAD_HD_INLINE bool judge_attempt(bool evaluated, double err, double h_try, int lower_order,
                                    const StepControl& control, IntegratorStats& stats, RetryState& retry,
                                    double& h) {
  if (!evaluated || !is_finite(err)) {
    retry.reject(RetryState::Failure::non_finite, stats);
    h = 0.5 * h_try;
    return false;
  }
  if (err > 1.0) {
    retry.reject(RetryState::Failure::error, stats);
    h = next_step_size(h_try, err, lower_order, control, true);
    return false;
  }
  return true;
}

}  // namespace myriad
