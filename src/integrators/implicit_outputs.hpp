#pragma once
// The seed 003 methods (integrators/implicit_integrate.hpp) as an ensemble integrator: from t0 to the last output
// time on an equal-step grid, every output time answered by dense output, resumable between calls
// (integrators/integration_progress.hpp) like integrate_rk4, so that the cpu backend, the stepping API and any
// runner that hands out step budgets run them as they run RK4.
//
//   * The grid: n_steps = ceil((T - t0) / h) equal steps of dt = (T - t0) / n_steps <= h. The multistep and
//     single-step formulas (eqs. 2, 4) hold for a constant step only, so the last step is not shortened as RK4's
//     is; the grid lands on T instead.
//   * Outputs between two points: cubic Hermite interpolation of (y, y') at both ends (HNW I, sec. II.6, eq. 6.7),
//     exact for cubics, so an output keeps the order of every method here (<= 5 only on the grid itself, where
//     outputs at step ends are the points).
//   * After each step the system may re-centre its chart (rebase, as for RK4). When it does, the past points and
//     the single-step auxiliaries are in the old chart: the method restarts from the new point as at t0
//     (consistent start; the multistep methods' trapezoidal start steps again).
#include <cmath>

#include "core/hd.hpp"
#include "core/status.hpp"
#include "integrators/implicit_integrate.hpp"
#include "integrators/integration_progress.hpp"
#include "integrators/rk4.hpp"

namespace myriad {

// Doubles integrate_implicit_outputs needs in `work`: the stepper's workspace and one dense-output state.
MYRIAD_HD_INLINE int implicit_outputs_workspace_size(int n, int m) { return implicit_workspace_size(n, m) + n; }

// The grid's step count from t0 to t_end for a largest step h > 0 (1 when t_end - t0 <= h; a ratio within 1e-9
// of a whole number is taken as that number, so that 0.1 / 0.01 is 10 steps, not 11).
MYRIAD_HD_INLINE long long implicit_step_count(double t0, double t_end, double h) {
  const double steps = std::ceil((t_end - t0) / h - 1e-9);
  return steps < 1.0 ? 1LL : static_cast<long long>(steps);
}

// Integrates the implicit system `sys` (integrators/implicit_dae_system.hpp; it must also provide
// bool rebase(double t, double* y)) with `scheme` from (t0, y) to T = output_times[n_outputs - 1], handing y at
// every output time to obs(index, t, y). y (n): the initial state, consistent; on return the state at T, or at the
// last completed step on failure. work: implicit_outputs_workspace_size(n, m) doubles. stats is added to: steps,
// function_evaluations = residual evaluations, jacobian_evaluations = lu_factorizations = Newton iterations.
// Returns ok; the failing point's status (non_finite, singular_matrix, newton_failed); max_steps when the grid has
// more than max_steps steps (after taking max_steps); step_size_too_small when h is not positive and finite.
// Resumable: stops before a step when progress.budget is used up (ok, progress.finished() false) and carries on
// from there when called again with the same progress, system, y and work. Cost per step: the method's implicit
// points (1, or s - 1 for an s-stage ESDIRK) times their Newton iterations, each a residual_jacobians call and an
// O((n + m)^3) LU.
template <class System, class Observer>
MYRIAD_HD InstanceStatus integrate_implicit_outputs(System& sys, const ImplicitScheme& scheme,
                                                    const ImplicitOptions& options, double t0, double h, double* y,
                                                    const double* output_times, int n_outputs, Observer& obs,
                                                    double* work, IntegratorStats& stats, long long max_steps,
                                                    IntegrationProgress& progress) {
  if (progress.finished()) return progress.status;
  if (n_outputs <= 0) return progress.finish(InstanceStatus::ok);
  const int n = sys.differential_dimension();
  const int m = sys.algebraic_dimension();
  const ImplicitWorkspace w = implicit_workspace(n, m, work);
  double* y_dense = work + implicit_workspace_size(n, m);
  ImplicitHistory& history = progress.implicit_history;
  int& next_output = progress.next_output;

  if (progress.phase == IntegrationProgress::Phase::fresh) {
    while (next_output < n_outputs && output_times[next_output] <= t0) {
      obs(next_output, output_times[next_output], y);
      ++next_output;
    }
    if (next_output == n_outputs) return progress.finish(InstanceStatus::ok);
    if (!(h > 0.0) || !is_finite(h)) return progress.finish(InstanceStatus::step_size_too_small);
    ++stats.function_evaluations;
    const InstanceStatus started = implicit_start(sys, t0, y, w, history);
    if (started != InstanceStatus::ok) return progress.finish(started);
    progress.phase = IntegrationProgress::Phase::stepping;
    progress.attempts = 0;
  }

  const double t_end = output_times[n_outputs - 1];
  const long long n_steps = implicit_step_count(t0, t_end, h);
  const double dt = (t_end - t0) / static_cast<double>(n_steps);
  for (;;) {
    const long long k = progress.attempts;
    if (k >= max_steps) return progress.finish(InstanceStatus::max_steps);
    if (!progress.take_attempt()) return InstanceStatus::ok;
    const int previous = history.order[0];  // no method writes its new point or stages over the latest point
    ImplicitStats step_stats;
    const InstanceStatus status = implicit_step(sys, scheme, dt, w, history, options, step_stats);
    stats.steps += step_stats.steps;
    stats.function_evaluations += step_stats.residual_evaluations;
    stats.jacobian_evaluations += step_stats.newton_iterations;
    stats.lu_factorizations += step_stats.newton_iterations;
    if (status != InstanceStatus::ok) return progress.finish(status);
    const bool last = k + 1 == n_steps;
    // t_k from t0 + k dt rather than summed, so that long runs keep their grid; the last point is T itself.
    const double t_next = last ? t_end : t0 + static_cast<double>(k + 1) * dt;
    const int slot = history.order[0];
    w.t[slot] = t_next;
    const double t_prev = w.t[previous];
    const double* y_prev = w.y + previous * n;
    const double* ydot_prev = w.ydot + previous * n;
    const double* y_new = w.y + slot * n;
    const double* ydot_new = w.ydot + slot * n;
    while (next_output < n_outputs && output_times[next_output] <= t_next) {
      const double t_out = output_times[next_output];
      if (t_out == t_next) {
        obs(next_output, t_out, y_new);
      } else {
        const double span = t_next - t_prev;
        hermite_dense_output(n, (t_out - t_prev) / span, span, y_prev, ydot_prev, y_new, ydot_new, y_dense);
        obs(next_output, t_out, y_dense);
      }
      ++next_output;
    }
    for (int i = 0; i < n; ++i) y[i] = y_new[i];
    progress.attempts = k + 1;
    if (last) return progress.finish(InstanceStatus::ok);
    if (sys.rebase(t_next, y)) {
      for (int i = 0; i < n; ++i)
        if (!is_finite(y[i])) return progress.finish(InstanceStatus::non_finite);
      ++stats.function_evaluations;
      const InstanceStatus restarted = implicit_start(sys, t_next, y, w, history);
      if (restarted != InstanceStatus::ok) return progress.finish(restarted);
    }
  }
}

}  // namespace myriad
