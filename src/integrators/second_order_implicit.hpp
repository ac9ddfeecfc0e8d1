#pragma once
// A second-order system (integrators/second_order_system.hpp: x'' = f(t, x, w), w = x') written as the implicit
// ODE of the seed 003 integrators (integrators/implicit_dae_system.hpp), so that every model the Rosenbrock methods
// run (a tree in its chart, a loop model over its independent coordinates) runs under LMS, SS, Bathe, MSST, ESDIRK
// and backward Euler as well:
//
//   y = (x, w),   r(y, y', t) = (x' - w, w' - f(t, x, w)),   no algebraic variables.
//
// The Jacobians are the system's exact ones (the same J1 = df/dx, J2 = df/dw RN4 factors): r_y = [0 -I; -J1 -J2],
// r_y' = I. A loop model's constraints are already eliminated in its state-space form (seed 000 sec. 2), so Newton
// never meets an index-3 row here; the index-3 form of the same integrators is the absolute-coordinate engine's
// (absolute/absolute_dynamics.hpp). Host and device; the scratch (2 n^2 + 2 n doubles) is the caller's.
#include "core/hd.hpp"
#include "core/scalar.hpp"

namespace myriad {

// Doubles of scratch a SecondOrderImplicitOde over a system of dimension n needs.
MYRIAD_HD_INLINE int second_order_implicit_scratch_size(int n) { return 2 * n * n + 2 * n; }

template <class System>
struct SecondOrderImplicitOde {
  System* system;
  double* scratch;  // second_order_implicit_scratch_size(system->dimension()) doubles

  MYRIAD_HD int differential_dimension() const { return 2 * system->dimension(); }
  MYRIAD_HD int algebraic_dimension() const { return 0; }

  MYRIAD_HD bool residual(double t, const double* y, const double* ydot, const double* /*z*/, double* r) {
    const int n = system->dimension();
    double* f = scratch;
    if (!system->acceleration(t, y, y + n, f)) return false;
    return fill_residual(n, y, ydot, f, r);
  }

  MYRIAD_HD bool residual_jacobians(double t, const double* y, const double* ydot, const double* /*z*/, double* r,
                                    double* r_y, double* r_ydot, double* /*r_z*/) {
    const int n = system->dimension();
    const int N = 2 * n;
    double* f = scratch;
    double* f_t = f + n;
    double* J1 = f_t + n;
    double* J2 = J1 + n * n;
    if (!system->jacobians(t, y, y + n, f, J1, J2, f_t)) return false;
    for (int i = 0; i < N * N; ++i) r_y[i] = 0.0, r_ydot[i] = 0.0;
    for (int i = 0; i < N; ++i) r_ydot[i * N + i] = 1.0;
    for (int i = 0; i < n; ++i) {
      r_y[i * N + n + i] = -1.0;
      for (int j = 0; j < n; ++j) {
        r_y[(n + i) * N + j] = -J1[i * n + j];
        r_y[(n + i) * N + n + j] = -J2[i * n + j];
      }
    }
    return fill_residual(n, y, ydot, f, r);
  }

  // y' = (w, f(t, x, w)): the start every method takes (seed 003 eq. 1 solved for y'_0).
  MYRIAD_HD bool consistent_start(double t, const double* y, double* ydot, double* /*z*/) {
    const int n = system->dimension();
    for (int i = 0; i < n; ++i) ydot[i] = y[n + i];
    return system->acceleration(t, y, y + n, ydot + n);
  }

  // The system's chart re-centring after a step (second_order_system.hpp); true when it rewrote y, whose history
  // (past points, auxiliary derivatives) is then in the old chart.
  MYRIAD_HD bool rebase(double t, double* y) {
    const int n = system->dimension();
    return system->rebase(t, y, y + n);
  }

 private:
  MYRIAD_HD static bool fill_residual(int n, const double* y, const double* ydot, const double* f, double* r) {
    for (int i = 0; i < n; ++i) {
      r[i] = ydot[i] - y[n + i];
      r[n + i] = ydot[n + i] - f[i];
    }
    for (int i = 0; i < 2 * n; ++i)
      if (!is_finite(r[i])) return false;
    return true;
  }
};

}  // namespace myriad
