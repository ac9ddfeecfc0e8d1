#pragma once
// The reference path's Jacobians of a second-order system x'' = f(t, x, w), by finite differences of its
// acceleration (deliberately not the fast path's dual numbers):
//   J1 = df/dx, J2 = df/dw: central differences with step cbrt(eps) max(1, |component|), dividing by the increment
//     actually represented; truncation and round-off errors both O(eps^(2/3)) relative;
//   f_t: the derivative at t of the quadratic through f(t), f(t + d), f(t + 2 d) (d = cbrt(eps) max(1, |t|)),
//     written with differences so that a time-independent f gives exactly 0, and never looking back across the
//     input breakpoint at which a piecewise integration segment begins.
// Cost: 4 n + 3 evaluations. Host only; allocates.
#include <algorithm>
#include <cmath>
#include <vector>

namespace myriad::reference {

inline double central_difference_step(double v) { return 6.0554544523933395e-06 * std::max(1.0, std::abs(v)); }

// `acceleration(t, x, w, f)` returns false on failure; so does this, as soon as one evaluation fails or a result
// is not finite. f receives f(t, x, w).
template <class Acceleration>
bool finite_difference_jacobians(int n, Acceleration&& acceleration, double t, const double* x, const double* w,
                                 double* f, double* J1, double* J2, double* f_t) {
  if (!acceleration(t, x, w, f)) return false;
  std::vector<double> x_moved(x, x + n), w_moved(w, w + n), f_plus(static_cast<size_t>(n)),
      f_minus(static_cast<size_t>(n));
  for (int which = 0; which < 2; ++which) {
    double* moved = which == 0 ? x_moved.data() : w_moved.data();
    const double* original = which == 0 ? x : w;
    double* J = which == 0 ? J1 : J2;
    for (int j = 0; j < n; ++j) {
      const double d = central_difference_step(original[j]);
      const double plus = original[j] + d, minus = original[j] - d;
      moved[j] = plus;
      const bool ok_plus = acceleration(t, x_moved.data(), w_moved.data(), f_plus.data());
      moved[j] = minus;
      const bool ok_minus = ok_plus && acceleration(t, x_moved.data(), w_moved.data(), f_minus.data());
      moved[j] = original[j];
      if (!ok_minus) return false;
      const double span = plus - minus;
      for (int i = 0; i < n; ++i)
        J[i * n + j] = (f_plus[static_cast<size_t>(i)] - f_minus[static_cast<size_t>(i)]) / span;
    }
  }
  const double d = central_difference_step(t);
  const double t1 = t + d, t2 = t + 2.0 * d;
  if (!acceleration(t1, x, w, f_plus.data()) || !acceleration(t2, x, w, f_minus.data())) return false;
  const double d1 = t1 - t, d2 = t2 - t;
  const double c1 = d2 / (d1 * (d2 - d1)), c2 = -d1 / (d2 * (d2 - d1));
  bool finite = true;
  for (int i = 0; i < n; ++i) {
    f_t[i] = c1 * (f_plus[static_cast<size_t>(i)] - f[i]) + c2 * (f_minus[static_cast<size_t>(i)] - f[i]);
    finite = finite && std::isfinite(f_t[i]);
  }
  for (int i = 0; i < n * n; ++i) finite = finite && std::isfinite(J1[i]) && std::isfinite(J2[i]);
  return finite;
}

}  // namespace myriad::reference
