#pragma once
// Scalar helpers usable with double, float and the forward-mode Dual type: calls go through argument-dependent
// lookup so that a Dual finds its own overloads while plain floating point finds the standard ones.
#include <cmath>
#include <limits>

#include "core/hd.hpp"

namespace myriad {

template <class S>
MYRIAD_HD_INLINE S scalar_sqrt(const S& x) {
  using std::sqrt;
  return sqrt(x);
}
template <class S>
MYRIAD_HD_INLINE S scalar_sin(const S& x) {
  using std::sin;
  return sin(x);
}
template <class S>
MYRIAD_HD_INLINE S scalar_cos(const S& x) {
  using std::cos;
  return cos(x);
}
// sin x and cos x together (Lanes and Dual overload it: one library call per lane for both, as the compiler makes
// of a double's sin and cos; the same bits as the two calls).
template <class S>
MYRIAD_HD_INLINE void scalar_sincos(const S& x, S& s, S& c) {
  s = scalar_sin(x);
  c = scalar_cos(x);
}
template <class S>
MYRIAD_HD_INLINE S scalar_abs(const S& x) {
  using std::abs;
  return abs(x);
}
template <class S>
MYRIAD_HD_INLINE S scalar_atan(const S& x) {
  using std::atan;
  return atan(x);
}
template <class S>
MYRIAD_HD_INLINE S scalar_tan(const S& x) {
  using std::tan;
  return tan(x);
}
template <class S>
MYRIAD_HD_INLINE S scalar_exp(const S& x) {
  using std::exp;
  return exp(x);
}
template <class S>
MYRIAD_HD_INLINE S scalar_atan2(const S& y, const S& x) {
  using std::atan2;
  return atan2(y, x);
}

// The real part of a scalar: the value itself for floating point; Dual overloads it.
MYRIAD_HD_INLINE double value_of(double x) { return x; }
MYRIAD_HD_INLINE float value_of(float x) { return x; }

// Whether x is positive, judged on the value (a Dual's derivatives do not count; Lanes overload it: every lane).
template <class S>
MYRIAD_HD_INLINE bool is_positive(const S& x) {
  return value_of(x) > 0.0;
}

// Whether S carries several instances side by side (core/lanes.hpp specializes it): the force elements that have
// no lane form (bushings, tires) are not compiled for it, and the lane runner leaves models with them to the
// scalar path (ensemble/lane_runner.hpp, lanes_supported).
template <class S>
struct is_lanes {
  static constexpr bool value = false;
};

// Whether x is exactly the constant v: for a Dual (its overload), the value and no derivative.
MYRIAD_HD_INLINE bool is_exactly(double x, double v) { return x == v; }
MYRIAD_HD_INLINE bool is_exactly(float x, double v) { return x == v; }

MYRIAD_HD_INLINE bool is_finite(double x) { return x - x == 0.0; }
MYRIAD_HD_INLINE bool is_finite(float x) { return x - x == 0.0f; }

// What a value that was never computed reads (outputs after an instance's failure).
MYRIAD_HD_INLINE double quiet_nan() { return std::numeric_limits<double>::quiet_NaN(); }

constexpr double kPi = 3.14159265358979323846264338327950288;

}  // namespace myriad
