#pragma once
// Fixed-step integration of an implicit DAE (integrators/implicit_dae_system.hpp) by one of the seed 003
// methods (integrators/implicit_methods.hpp): every time point is written as y_N = psi + c dt y'_N (eq. 8b),
// its derivative predicted (sec. 3.1, integrators/implicit_predictor.hpp) and corrected by Newton (sec. 3.2,
// integrators/implicit_newton.hpp). Host and device, no allocation: the caller gives a workspace of
// implicit_workspace_size(n, m) doubles.
//
//   * Linear multistep (eq. 2): psi = sum_j alpha_j y_k-j + dt sum_{j>=1} beta_j y'_k-j, c = beta_0. The first
//     `steps - 1` steps, which lack history, use the trapezoidal rule (eq. 3). Prediction: eq. 12 (two points;
//     one after the start).
//   * Single-step (eqs. 4a-4e): the auxiliary derivatives y'^p (p = 1..r-1, complex for SS3 and SS4) are affine
//     in y'_k through the chain 4e -> 4b, which gives psi and c (c dt = dt gamma_0 gamma_2.../(gamma_1 gamma_3...),
//     eqs. 9-11); after the solve the chain updates them (eqs. 18-20 written for every derivative, not only the
//     angular velocities). Prediction: constant (eq. 15). At the start every y'^p_0 = y'_0 (sec. 2.2).
//   * ESDIRK (eqs. 5-6): stage i = 2..s solves y_i = y_k-1 + dt (sum_{j<i} a_ij y'_j + gamma y'_i); the first
//     stage is the previous step's end (explicit, its derivative known), the last stage is the step's end
//     (stiffly accurate). Prediction: constant at stage 2, eq. 12 from the two previous stages at stages 3..s-1
//     and at the last stage, eq. 16 from the three previous stages at the last stage of the fourth- and
//     higher-order methods (sec. 3.1).
// The algebraic variables z are predicted constant (their last value). A point whose Newton iteration fails from an
// extrapolated prediction is solved once more from the constant one (a stiff transient can put the extrapolation
// outside Newton's basin: bench/results/implicit_ensemble.md, the stiff double pendulum at h = 0.01).
#include <cmath>

#include "core/hd.hpp"
#include "core/status.hpp"
#include "integrators/implicit_methods.hpp"
#include "integrators/implicit_newton.hpp"
#include "integrators/implicit_predictor.hpp"

namespace myriad {

// Doubles integrate_implicit needs in `work` (layout in ImplicitWorkspace).
MYRIAD_HD_INLINE int implicit_workspace_size(int n, int m) {
  return kImplicitPointSlots * (2 * n + 1) + 2 * 2 * kMaxSingleStepLevels * n + 2 * m + n +
         implicit_point_workspace_size(n, m);
}

// The caller's workspace, carved up. Every array is written by integrate_implicit / implicit_step.
struct ImplicitWorkspace {
  double* t;           // time of each slot (kImplicitPointSlots)
  double* y;           // y of each slot (kImplicitPointSlots x n)
  double* ydot;        // y' of each slot (kImplicitPointSlots x n)
  double* aux;         // single-step auxiliaries y'^p at the last step: level p-1, real then imaginary (2 x levels x n)
  double* aux_next;    // the same at the new step, built by implicit_step (2 x levels x n)
  double* z;           // algebraic variables at the last point (m)
  double* z_start;     // z before the current point's solve, for its retry (m)
  double* psi;         // the known part of the current point's formula (n)
  double* point_work;  // implicit_point_solve's scratch
};

MYRIAD_HD_INLINE ImplicitWorkspace implicit_workspace(int n, int m, double* work) {
  ImplicitWorkspace w;
  w.t = work;
  w.y = w.t + kImplicitPointSlots;
  w.ydot = w.y + kImplicitPointSlots * n;
  w.aux = w.ydot + kImplicitPointSlots * n;
  w.aux_next = w.aux + 2 * kMaxSingleStepLevels * n;
  w.z = w.aux_next + 2 * kMaxSingleStepLevels * n;
  w.z_start = w.z + m;
  w.psi = w.z_start + m;
  w.point_work = w.psi + n;
  return w;
}

namespace detail {

// Predicts y' at t from the K latest points (slots[0] the latest) and solves the point into `slot`.
template <class System>
MYRIAD_HD InstanceStatus implicit_solve_point(System& sys, const ImplicitWorkspace& w, int n, double t, double cdt,
                                              int K, const int* slots, int slot, const ImplicitOptions& options,
                                              ImplicitStats& stats) {
  double past[kMaxPredictorPoints], m_weights[kMaxPredictorPoints], n_weights[kMaxPredictorPoints];
  const double* ys[kMaxPredictorPoints];
  const double* ydots[kMaxPredictorPoints];
  for (int j = 0; j < K; ++j) {
    past[j] = w.t[slots[j]];
    ys[j] = w.y + slots[j] * n;
    ydots[j] = w.ydot + slots[j] * n;
  }
  if (!predictor_weights(K, t, past, m_weights, n_weights)) {
    K = 1;
    predictor_weights(1, t, past, m_weights, n_weights);
  }
  double* y = w.y + slot * n;
  double* ydot = w.ydot + slot * n;
  predict_derivative(K, n, t - past[0], m_weights, n_weights, ys, ydots, ydot);
  ++stats.points;
  w.t[slot] = t;
  const int m = sys.algebraic_dimension();
  for (int j = 0; j < m; ++j) w.z_start[j] = w.z[j];
  const InstanceStatus status = implicit_point_solve(sys, t, cdt, w.psi, ydot, w.z, y, w.point_work, options, stats);
  if (status == InstanceStatus::ok || status == InstanceStatus::non_finite || K == 1) return status;
  // An extrapolating predictor (eqs. 12, 16) can start Newton outside its basin where the solution turns sharply
  // (a stiff transient): once more from the constant prediction (eq. 15), the latest point's derivative. The
  // multipliers restart from their last converged values too (a failed solve leaves them anywhere).
  for (int i = 0; i < n; ++i) ydot[i] = ydots[0][i];
  for (int j = 0; j < m; ++j) w.z[j] = w.z_start[j];
  return implicit_point_solve(sys, t, cdt, w.psi, ydot, w.z, y, w.point_work, options, stats);
}

}  // namespace detail

// Starts an integration at (t0, y0): y'_0 and z_0 from the system's consistent_start, every single-step
// auxiliary set to y'_0. Returns ok or non_finite (consistent_start failed).
template <class System>
MYRIAD_HD InstanceStatus implicit_start(System& sys, double t0, const double* y0, const ImplicitWorkspace& w,
                                        ImplicitHistory& history) {
  const int n = sys.differential_dimension();
  for (int s = 0; s < kImplicitPointSlots; ++s) history.order[s] = s;
  history.count = 1;
  w.t[0] = t0;
  for (int i = 0; i < n; ++i) w.y[i] = y0[i];
  if (!sys.consistent_start(t0, w.y, w.ydot, w.z)) return InstanceStatus::non_finite;
  for (int level = 0; level < kMaxSingleStepLevels; ++level)
    for (int i = 0; i < n; ++i) {
      w.aux[(2 * level) * n + i] = w.ydot[i];
      w.aux[(2 * level + 1) * n + i] = 0.0;
    }
  return InstanceStatus::ok;
}

// One step of size dt from the latest point; afterwards history.order[0] is the new point's slot (values in
// w.t, w.y, w.ydot at that slot, w.z). Returns ok or the failing point's status (the history is then
// unusable).
template <class System>
MYRIAD_HD InstanceStatus implicit_step(System& sys, const ImplicitScheme& scheme, double dt, const ImplicitWorkspace& w,
                                       ImplicitHistory& history, const ImplicitOptions& options,
                                       ImplicitStats& stats) {
  const int n = sys.differential_dimension();
  const int latest = history.order[0];
  const double t_prev = w.t[latest];
  const double* y_prev = w.y + latest * n;
  const double* ydot_prev = w.ydot + latest * n;
  InstanceStatus status = InstanceStatus::ok;
  if (scheme.family == ImplicitFamily::multistep) {
    const int steps = scheme.steps;
    const bool started = history.count >= steps;
    double cdt;
    if (started) {  // eq. 2
      for (int i = 0; i < n; ++i) {
        double sum = 0.0;
        for (int j = 1; j <= steps; ++j) {
          const int slot = history.order[j - 1];
          sum += scheme.alpha[j] * w.y[slot * n + i] + dt * scheme.beta[j] * w.ydot[slot * n + i];
        }
        w.psi[i] = sum;
      }
      cdt = scheme.beta[0] * dt;
    } else {  // eq. 3
      for (int i = 0; i < n; ++i) w.psi[i] = y_prev[i] + 0.5 * dt * ydot_prev[i];
      cdt = 0.5 * dt;
    }
    // The new point goes into a free slot, or replaces the oldest kept one. At least two points are kept for
    // the predictor even by a one-step formula (backward Euler).
    const int capacity = steps < 2 ? 2 : steps;
    const int slot = history.count < capacity ? history.order[history.count] : history.order[capacity - 1];
    const int K = history.count >= 2 ? 2 : 1;
    status = detail::implicit_solve_point(sys, w, n, t_prev + dt, cdt, K, history.order, slot, options, stats);
    if (status != InstanceStatus::ok) return status;
    const int held = history.count < capacity ? history.count + 1 : capacity;
    for (int j = held - 1; j > 0; --j) history.order[j] = history.order[j - 1];
    history.order[0] = slot;
    history.count = held;
  } else if (scheme.family == ImplicitFamily::single_step) {
    // The chain 4e -> 4b: y'^p_k = A_p + B_p y'_k (complex), A_0 = 0, B_0 = 1.
    const int r = scheme.steps;
    const int levels = r - 1;
    double B_re = 1.0, B_im = 0.0;
    double level_B_re[kMaxSingleStepLevels], level_B_im[kMaxSingleStepLevels];  // B_p, kept for the update
    for (int p = 1; p <= levels; ++p) {
      const int a = 2 * (r - p) - 1, b = 2 * (r - p);
      const double ga_re = scheme.gamma_re[a], ga_im = scheme.gamma_im[a];
      const double gb_re = scheme.gamma_re[b], gb_im = scheme.gamma_im[b];
      const double den = ga_re * ga_re + ga_im * ga_im;  // 1/gamma_a = conj(gamma_a) / |gamma_a|^2
      const double ia_re = ga_re / den, ia_im = -ga_im / den;
      for (int i = 0; i < n; ++i) {
        // (1 - gamma_b) y'^(p-1)_k-1 + gamma_b A_(p-1) - (1 - gamma_a) y'^p_k-1
        const double lo_re = p == 1 ? ydot_prev[i] : w.aux[(2 * (p - 2)) * n + i];
        const double lo_im = p == 1 ? 0.0 : w.aux[(2 * (p - 2) + 1) * n + i];
        const double A_re = p == 1 ? 0.0 : w.aux_next[(2 * (p - 2)) * n + i];
        const double A_im = p == 1 ? 0.0 : w.aux_next[(2 * (p - 2) + 1) * n + i];
        const double hi_re = w.aux[(2 * (p - 1)) * n + i], hi_im = w.aux[(2 * (p - 1) + 1) * n + i];
        const double s_re = (1.0 - gb_re) * lo_re + gb_im * lo_im + gb_re * A_re - gb_im * A_im -
                            ((1.0 - ga_re) * hi_re + ga_im * hi_im);
        const double s_im = (1.0 - gb_re) * lo_im - gb_im * lo_re + gb_re * A_im + gb_im * A_re -
                            ((1.0 - ga_re) * hi_im - ga_im * hi_re);
        w.aux_next[(2 * (p - 1)) * n + i] = s_re * ia_re - s_im * ia_im;
        w.aux_next[(2 * (p - 1) + 1) * n + i] = s_re * ia_im + s_im * ia_re;
      }
      const double nb_re = gb_re * B_re - gb_im * B_im, nb_im = gb_re * B_im + gb_im * B_re;
      B_re = nb_re * ia_re - nb_im * ia_im;
      B_im = nb_re * ia_im + nb_im * ia_re;
      level_B_re[p - 1] = B_re, level_B_im[p - 1] = B_im;
    }
    // Eq. 4a: y_k = y_k-1 + dt ((1 - gamma_0) y'^(r-1)_k-1 + gamma_0 (A_(r-1) + B_(r-1) y'_k)).
    const double g0_re = scheme.gamma_re[0], g0_im = scheme.gamma_im[0];
    const int top = levels - 1;
    for (int i = 0; i < n; ++i) {
      const double prev_re = w.aux[(2 * top) * n + i], prev_im = w.aux[(2 * top + 1) * n + i];
      const double A_re = w.aux_next[(2 * top) * n + i], A_im = w.aux_next[(2 * top + 1) * n + i];
      w.psi[i] = y_prev[i] + dt * ((1.0 - g0_re) * prev_re + g0_im * prev_im + g0_re * A_re - g0_im * A_im);
    }
    const double cdt = dt * (g0_re * B_re - g0_im * B_im);
    const int slot = latest == 0 ? 1 : 0;
    status = detail::implicit_solve_point(sys, w, n, t_prev + dt, cdt, 1, history.order, slot, options, stats);
    if (status != InstanceStatus::ok) return status;
    // y'^p_k = A_p + B_p y'_k, level by level.
    const double* ydot = w.ydot + slot * n;
    for (int p = 1; p <= levels; ++p)
      for (int i = 0; i < n; ++i) {
        w.aux[(2 * (p - 1)) * n + i] = w.aux_next[(2 * (p - 1)) * n + i] + level_B_re[p - 1] * ydot[i];
        w.aux[(2 * (p - 1) + 1) * n + i] = w.aux_next[(2 * (p - 1) + 1) * n + i] + level_B_im[p - 1] * ydot[i];
      }
    history.order[1] = latest;
    history.order[0] = slot;
  } else {  // ESDIRK: stage i (1-based) in slot i - 1 of stage_slots; stage 1 is the latest point.
    const int s = scheme.stages;
    int stage_slots[kMaxEsdirkStages];
    stage_slots[0] = latest;
    for (int i = 1, next = 0; i < s; ++i, ++next) {
      if (next == latest) ++next;
      stage_slots[i] = next;
    }
    const double cdt = scheme.gamma * dt;
    for (int i = 2; i <= s; ++i) {
      for (int k = 0; k < n; ++k) {
        double sum = 0.0;
        for (int j = 1; j < i; ++j) sum += scheme.a[i - 1][j - 1] * w.ydot[stage_slots[j - 1] * n + k];
        w.psi[k] = y_prev[k] + dt * sum;
      }
      int K = i == 2 ? 1 : (i == s ? scheme.last_stage_predictor_points : 2);
      if (K > i - 1) K = i - 1;
      int past_slots[kMaxPredictorPoints];
      for (int j = 0; j < K; ++j) past_slots[j] = stage_slots[i - 2 - j];
      const double t_stage = i == s ? t_prev + dt : t_prev + scheme.c[i - 1] * dt;
      status = detail::implicit_solve_point(sys, w, n, t_stage, cdt, K, past_slots, stage_slots[i - 1], options, stats);
      if (status != InstanceStatus::ok) return status;
    }
    history.order[0] = stage_slots[s - 1];
  }
  ++stats.steps;
  return status;
}

// Integrates n_steps steps of size dt from (t0, y0), calling observer(k, t_k, y_k, y'_k, z_k) at the start
// (k = 0) and after every step. work: implicit_workspace_size(n, m) doubles. Returns ok, or the status of the
// first point that failed (non_finite, singular_matrix, newton_failed); the observer has then seen every step
// before it. Cost per step: the method's implicit points (1, or s - 1 for an ESDIRK) times their Newton
// iterations, each one residual_jacobians call and an O((n + m)^3) LU.
template <class System, class Observer>
MYRIAD_HD InstanceStatus integrate_implicit(System& sys, const ImplicitScheme& scheme, double t0, double dt,
                                            long long n_steps, const double* y0, double* work,
                                            const ImplicitOptions& options, ImplicitStats& stats,
                                            Observer& observer) {
  const int n = sys.differential_dimension();
  const int m = sys.algebraic_dimension();
  const ImplicitWorkspace w = implicit_workspace(n, m, work);
  ImplicitHistory history;
  InstanceStatus status = implicit_start(sys, t0, y0, w, history);
  if (status != InstanceStatus::ok) return status;
  observer(0LL, t0, w.y, w.ydot, w.z);
  for (long long k = 1; k <= n_steps; ++k) {
    status = implicit_step(sys, scheme, dt, w, history, options, stats);
    if (status != InstanceStatus::ok) return status;
    const int slot = history.order[0];
    // t_k from t0 + k dt rather than summed, so that long runs keep their grid.
    const double t_k = t0 + static_cast<double>(k) * dt;
    w.t[slot] = t_k;
    observer(k, t_k, w.y + slot * n, w.ydot + slot * n, w.z);
  }
  return InstanceStatus::ok;
}

}  // namespace myriad
