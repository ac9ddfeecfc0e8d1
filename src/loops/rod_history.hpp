#pragma once
// The accelerations seed 001's rod-inertia approximation extrapolates from (sec. 4, eqs. 30-46): the generalized
// accelerations vdot (nv, all coordinates, so a re-chosen partition reads its own independent entries) of the
// last accepted states, newest first, at most three. Only accelerations at accepted states enter ("only true
// accelerations (k1) can be used", the text after eq. 46): each evaluation of the loop ODE is kept as the last
// one, and when the integrator accepts a state (LoopOde::check_partition) that was last evaluated (RK4's and
// DOPRI5's first-same-as-last stage) it enters at once; otherwise it enters when it is next evaluated (the
// Rosenbrock methods' first stage). Evaluations between two accepted states extrapolate to their own time t with
// the Lagrange polynomial through the kept points (eqs. 35-39; on a uniform grid 2 a(t-h) - a(t-2h) and
// 3 a(t-h) - 3 a(t-2h) + a(t-3h)), so intermediate stages at t + h/2 use the polynomial there, as Fig. 7 does.
// Until the method's points are kept (its first steps) the rods stay exact, so the approximation has the method's
// order from the start instead of a point approximation's first steps.
// All of it lives in one double block of the instance's loop scratch, so it survives between advance calls and
// on the device. Host+device, no allocation.
#include "core/hd.hpp"
#include "core/scalar.hpp"

namespace myriad {

constexpr int kRodHistoryPoints = 3;

struct RodHistory {
  double* header;     // count, pending, pending_t, last_t, last_valid, then the kept times (newest first)
  double* values;     // kRodHistoryPoints x nv, newest first
  double* pending;    // 2 ndof: the accepted (x, w) awaiting its evaluation
  double* last_xw;    // 2 ndof: the last evaluation's (x, w)
  double* last_vdot;  // nv: its accelerations
};

constexpr int kRodHeaderDoubles = 5 + kRodHistoryPoints;

MYRIAD_HD_INLINE int rod_history_doubles(int nv, int ndof) {
  return kRodHeaderDoubles + (kRodHistoryPoints + 1) * nv + 4 * ndof;
}

MYRIAD_HD_INLINE RodHistory rod_history_view(double* block, int nv, int ndof) {
  RodHistory h;
  h.header = block;
  h.values = block + kRodHeaderDoubles;
  h.pending = h.values + kRodHistoryPoints * nv;
  h.last_xw = h.pending + 2 * ndof;
  h.last_vdot = h.last_xw + 2 * ndof;
  return h;
}

MYRIAD_HD_INLINE int rod_history_count(const RodHistory& h) { return static_cast<int>(h.header[0]); }

MYRIAD_HD_INLINE void rod_history_reset(RodHistory& h) {
  for (int i = 0; i < kRodHeaderDoubles; ++i) h.header[i] = 0.0;
}

// Keeps vdot at time t as the newest point; a second point at the newest time replaces it (a state re-evaluated
// after a repartition), so the Lagrange nodes stay distinct.
MYRIAD_HD_INLINE void rod_history_push(RodHistory& h, int nv, double t, const double* vdot) {
  double* times = h.header + 5;
  int count = rod_history_count(h);
  if (count > 0 && times[0] == t) {
    for (int i = 0; i < nv; ++i) h.values[i] = vdot[i];
    return;
  }
  for (int p = (count < kRodHistoryPoints ? count : kRodHistoryPoints - 1); p > 0; --p) {
    times[p] = times[p - 1];
    for (int i = 0; i < nv; ++i) h.values[p * nv + i] = h.values[(p - 1) * nv + i];
  }
  times[0] = t;
  for (int i = 0; i < nv; ++i) h.values[i] = vdot[i];
  if (count < kRodHistoryPoints) h.header[0] = static_cast<double>(count + 1);
}

MYRIAD_HD_INLINE bool same_state(int n, const double* a, const double* b) {
  for (int i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

// After an evaluation at (t, x, w) with accelerations vdot: enters it if it is the awaited accepted state, and
// keeps it as the last evaluation.
MYRIAD_HD_INLINE void rod_history_evaluated(RodHistory& h, int nv, int ndof, double t, const double* x,
                                            const double* w, const double* vdot) {
  if (h.header[1] != 0.0 && h.header[2] == t && same_state(ndof, h.pending, x) &&
      same_state(ndof, h.pending + ndof, w)) {
    rod_history_push(h, nv, t, vdot);
    h.header[1] = 0.0;
  }
  h.header[3] = t;
  h.header[4] = 1.0;
  for (int i = 0; i < ndof; ++i) {
    h.last_xw[i] = x[i];
    h.last_xw[ndof + i] = w[i];
  }
  for (int i = 0; i < nv; ++i) h.last_vdot[i] = vdot[i];
}

// The integrator accepted (t, x, w): enter the last evaluation if it was there, else await the next one there.
MYRIAD_HD_INLINE void rod_history_accepted(RodHistory& h, int nv, int ndof, double t, const double* x,
                                           const double* w) {
  if (h.header[4] != 0.0 && h.header[3] == t && same_state(ndof, h.last_xw, x) &&
      same_state(ndof, h.last_xw + ndof, w)) {
    rod_history_push(h, nv, t, h.last_vdot);
    h.header[1] = 0.0;
    return;
  }
  h.header[1] = 1.0;
  h.header[2] = t;
  for (int i = 0; i < ndof; ++i) {
    h.pending[i] = x[i];
    h.pending[ndof + i] = w[i];
  }
}

// The extrapolated independent accelerations at time t (seed 001 eqs. 33, 36, 39 on any grid): the Lagrange
// polynomial through the newest `points` kept accelerations, evaluated in the scalar T of t (so a Dual t carries
// its time derivative into the Jacobian's f_t). Returns false (exact rods) while fewer are kept.
template <class S, class T>
MYRIAD_HD bool rod_prediction(const RodHistory& h, int points, const T& t, int nv, const int* independent,
                              int ndof, S* out) {
  const int n = points;
  if (n <= 0 || rod_history_count(h) < n) return false;
  const double* times = h.header + 5;
  for (int i = 0; i < ndof; ++i) out[i] = S(0);
  for (int j = 0; j < n; ++j) {
    T weight = T(1);
    for (int k = 0; k < n; ++k)
      if (k != j) weight = weight * (t - T(times[k])) / T(times[j] - times[k]);
    const S w = S(weight);
    for (int i = 0; i < ndof; ++i) out[i] += w * S(h.values[j * nv + independent[i]]);
  }
  return true;
}

}  // namespace myriad
