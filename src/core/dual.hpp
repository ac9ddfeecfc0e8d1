#pragma once
// Forward-mode dual numbers: a value and its derivatives along N directions, carried through the templated
// dynamics (S = Dual<double, N>) to give exact Jacobians, N columns per evaluation. Trivially copyable, no
// allocation, host+device. Comparisons are deliberately absent: branching code compares value_of(x), so a
// branch never silently depends on derivative parts.
//
// Cost: every operation on a Dual costs O(N) flops on top of the value's.
#include <cmath>
#include <type_traits>

#include "core/hd.hpp"
#include "core/scalar.hpp"

namespace myriad {

template <class T, int N>
struct Dual {
  static_assert(N > 0, "a Dual needs at least one direction");
  static constexpr int kDirections = N;

  T value;  // the real part
  T d[N];   // derivatives along the N seeded directions

  Dual() = default;
  // A constant: zero derivatives. Explicit, as S(1.0) and S(k[i]) are written throughout the dynamics.
  MYRIAD_HD_INLINE explicit Dual(double v) : value(T(v)) {
    for (int i = 0; i < N; ++i) d[i] = T(0);
  }

  // A constant of a vector real part (T = Lanes: several instances' values, core/lane_dual.hpp).
  template <class U,
            class = typename std::enable_if<std::is_same<U, T>::value && !std::is_arithmetic<U>::value>::type>
  MYRIAD_HD_INLINE explicit Dual(const U& v) : value(v) {
    for (int i = 0; i < N; ++i) d[i] = T(0);
  }

  // The variable of direction `direction` (derivative 1 there, 0 elsewhere).
  MYRIAD_HD_INLINE static Dual variable(double v, int direction) {
    Dual r(v);
    if (direction >= 0 && direction < N) r.d[direction] = T(1);
    return r;
  }
  template <class U,
            class = typename std::enable_if<std::is_same<U, T>::value && !std::is_arithmetic<U>::value>::type>
  MYRIAD_HD_INLINE static Dual variable(const U& v, int direction) {
    Dual r(v);
    if (direction >= 0 && direction < N) r.d[direction] = T(1);
    return r;
  }

  MYRIAD_HD_INLINE Dual& operator+=(const Dual& b) {
    value += b.value;
    for (int i = 0; i < N; ++i) d[i] += b.d[i];
    return *this;
  }
  MYRIAD_HD_INLINE Dual& operator-=(const Dual& b) {
    value -= b.value;
    for (int i = 0; i < N; ++i) d[i] -= b.d[i];
    return *this;
  }
  MYRIAD_HD_INLINE Dual& operator*=(const Dual& b) {
    for (int i = 0; i < N; ++i) d[i] = d[i] * b.value + value * b.d[i];
    value *= b.value;
    return *this;
  }
  MYRIAD_HD_INLINE Dual& operator/=(const Dual& b) {
    const T inv = T(1) / b.value;
    value *= inv;
    for (int i = 0; i < N; ++i) d[i] = (d[i] - value * b.d[i]) * inv;
    return *this;
  }
  MYRIAD_HD_INLINE Dual& operator+=(double b) {
    value += T(b);
    return *this;
  }
  MYRIAD_HD_INLINE Dual& operator-=(double b) {
    value -= T(b);
    return *this;
  }
  MYRIAD_HD_INLINE Dual& operator*=(double b) {
    value *= T(b);
    for (int i = 0; i < N; ++i) d[i] *= T(b);
    return *this;
  }
  MYRIAD_HD_INLINE Dual& operator/=(double b) {
    const T inv = T(1.0 / b);
    value *= inv;
    for (int i = 0; i < N; ++i) d[i] *= inv;
    return *this;
  }
};

static_assert(std::is_trivially_copyable<Dual<double, 8>>::value, "Dual must be memcpy-able to a device");

// The real part (recursively, for nested duals), so scalar.hpp's value_of(x) works for any scalar.
template <class T, int N>
MYRIAD_HD_INLINE double value_of(const Dual<T, N>& a) {
  return value_of(a.value);
}

// Whether a is the constant v: value v and every derivative zero (a Dual whose value is v but which depends on
// the seeded variables is not).
template <class T, int N>
MYRIAD_HD_INLINE bool is_exactly(const Dual<T, N>& a, double v) {
  if (!is_exactly(a.value, v)) return false;
  for (int i = 0; i < N; ++i)
    if (!is_exactly(a.d[i], 0.0)) return false;
  return true;
}

// A Dual with value `value` and every derivative `slope` times those of `a` (the chain rule for f(a)).
template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> dual_chain(const T& value, const T& slope, const Dual<T, N>& a) {
  Dual<T, N> r;
  r.value = value;
  for (int i = 0; i < N; ++i) r.d[i] = slope * a.d[i];
  return r;
}

// ---- arithmetic ----
template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> operator+(const Dual<T, N>& a) {
  return a;
}
template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> operator-(const Dual<T, N>& a) {
  Dual<T, N> r;
  r.value = -a.value;
  for (int i = 0; i < N; ++i) r.d[i] = -a.d[i];
  return r;
}
template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> operator+(Dual<T, N> a, const Dual<T, N>& b) {
  return a += b;
}
template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> operator-(Dual<T, N> a, const Dual<T, N>& b) {
  return a -= b;
}
template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> operator*(Dual<T, N> a, const Dual<T, N>& b) {
  return a *= b;
}
template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> operator/(Dual<T, N> a, const Dual<T, N>& b) {
  return a /= b;
}

template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> operator+(Dual<T, N> a, double b) {
  return a += b;
}
template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> operator+(double a, Dual<T, N> b) {
  return b += a;
}
template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> operator-(Dual<T, N> a, double b) {
  return a -= b;
}
template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> operator-(double a, const Dual<T, N>& b) {
  Dual<T, N> r = -b;
  return r += a;
}
template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> operator*(Dual<T, N> a, double b) {
  return a *= b;
}
template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> operator*(double a, Dual<T, N> b) {
  return b *= a;
}
template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> operator/(Dual<T, N> a, double b) {
  return a /= b;
}
template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> operator/(double a, const Dual<T, N>& b) {
  const T inv = T(1) / b.value;
  const T value = T(a) * inv;
  return dual_chain(value, -value * inv, b);
}

// ---- elementary functions, found by argument-dependent lookup from scalar.hpp's helpers ----
template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> sqrt(const Dual<T, N>& a) {
  using std::sqrt;
  const T s = sqrt(a.value);
  return dual_chain(s, T(0.5) / s, a);
}
template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> sin(const Dual<T, N>& a) {
  using std::cos;
  using std::sin;
  return dual_chain(sin(a.value), cos(a.value), a);
}
template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> cos(const Dual<T, N>& a) {
  using std::cos;
  using std::sin;
  return dual_chain(cos(a.value), -sin(a.value), a);
}
template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> atan(const Dual<T, N>& a) {
  using std::atan;
  return dual_chain(atan(a.value), T(1) / (T(1) + a.value * a.value), a);
}
template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> tan(const Dual<T, N>& a) {
  using std::tan;
  const T t = tan(a.value);
  return dual_chain(t, T(1) + t * t, a);
}
template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> exp(const Dual<T, N>& a) {
  using std::exp;
  const T e = exp(a.value);
  return dual_chain(e, e, a);
}
template <class T, int N>
MYRIAD_HD_INLINE void scalar_sincos(const Dual<T, N>& a, Dual<T, N>& s, Dual<T, N>& c) {
  T sv, cv;
  scalar_sincos(a.value, sv, cv);
  s = dual_chain(sv, cv, a);
  c = dual_chain(cv, -sv, a);
}
// |a|: the derivative of the branch a sits on (that of +a at a == 0).
template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> abs(const Dual<T, N>& a) {
  return value_of(a) < 0.0 ? -a : a;
}
template <class T, int N>
MYRIAD_HD_INLINE Dual<T, N> atan2(const Dual<T, N>& y, const Dual<T, N>& x) {
  using std::atan2;
  Dual<T, N> r;
  r.value = atan2(y.value, x.value);
  const T inv = T(1) / (x.value * x.value + y.value * y.value);
  for (int i = 0; i < N; ++i) r.d[i] = (x.value * y.d[i] - y.value * x.d[i]) * inv;
  return r;
}

}  // namespace myriad
