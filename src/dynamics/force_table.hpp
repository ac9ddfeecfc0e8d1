#pragma once
// A tsda's piecewise-linear force tables (ForceElement::spring_table, damper_table; docs/model-format.md): f(x)
// through the points (x_i, f_i), linear beyond the first and last points with the end segments' slopes, and the
// integral of f from 0 (a table spring's stored energy). The points lie in an instance's constants packed
// [x_0, f_0, x_1, f_1, ...]; `c` is anything indexable by int that yields double. O(log points) for a force,
// O(points) for the integral. The segment search is core/point_table.hpp's, shared with the time tables.
#include "core/hd.hpp"
#include "core/point_table.hpp"
#include "core/scalar.hpp"

namespace myriad {

// f(x) on segment s, and its slope there.
template <class C>
MYRIAD_HD_INLINE double table_line(const C& c, int s, double x, double& slope) {
  const double xa = c[2 * s], fa = c[2 * s + 1], xb = c[2 * s + 2], fb = c[2 * s + 3];
  slope = (fb - fa) / (xb - xa);
  return fa + slope * (x - xa);
}

// f(x) as scalar S: a Dual x carries the segment's slope times its derivatives, so Jacobians are exact on each
// segment.
template <class S, class C>
MYRIAD_HD_INLINE S table_force(const C& c, int points, const S& x) {
  const double at = value_of(x);
  double slope = 0.0;
  const double f = table_line(c, table_segment(c, points, at), at, slope);
  return S(f) + slope * (x - at);
}

// The integral of f from 0 to x, exact: each segment's part of [min(0, x), max(0, x)] by the trapezoid rule,
// negated for x < 0.
template <class C>
MYRIAD_HD double table_integral(const C& c, int points, double x) {
  const double lo = x < 0.0 ? x : 0.0, hi = x < 0.0 ? 0.0 : x;
  double sum = 0.0, slope = 0.0;
  for (int s = 0; s + 1 < points; ++s) {
    const double a = s == 0 ? lo : (c[2 * s] > lo ? c[2 * s] : lo);
    const double b = s + 2 == points ? hi : (c[2 * s + 2] < hi ? c[2 * s + 2] : hi);
    if (!(b > a)) continue;
    sum += 0.5 * (b - a) * (table_line(c, s, a, slope) + table_line(c, s, b, slope));
  }
  return x < 0.0 ? -sum : sum;
}

}  // namespace myriad
