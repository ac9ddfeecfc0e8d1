#pragma once
// Lanes<W>: W instances' values of one quantity, side by side in a vector register (GCC's vector extension), so
// the templated tree dynamics evaluated on S = Lanes<W> run W instances in lockstep on one core (issue 19 item 3;
// ensemble/lane_runner.hpp drives it). Every operation acts on each lane exactly as the same operation on a
// double does (IEEE arithmetic lane by lane, libm called per lane), so a lane's result is the scalar path's bit
// for bit as long as the compiler does not contract a * b + c differently in the two (no FMA without -mfma: the
// default x86-64 target has none). Host only: the CUDA kernels run one instance per thread.
//
// Comparisons are absent, as for Dual: a branch on a value has a lane overload that either selects per lane
// (lanes_select) or evaluates that piece per lane with the scalar code (time functions, force tables).
#include <cmath>
#include <type_traits>

#include "core/scalar.hpp"

namespace myriad {

// The vector type of W doubles (GCC ignores a vector_size that depends on a template parameter).
template <int W>
struct LaneVector;
template <>
struct LaneVector<2> {
  typedef double type __attribute__((vector_size(16)));
};
template <>
struct LaneVector<4> {
  typedef double type __attribute__((vector_size(32)));
};
template <>
struct LaneVector<8> {
  typedef double type __attribute__((vector_size(64)));
};

template <int W>
struct Lanes {
  static constexpr int kWidth = W;
  using Vector = typename LaneVector<W>::type;
  Vector v;

  Lanes() = default;
  explicit Lanes(double x) : v(Vector{} + x) {}
  static Lanes from(const Vector& x) {
    Lanes r;
    r.v = x;
    return r;
  }

  double operator[](int lane) const { return v[lane]; }
  void set(int lane, double x) { v[lane] = x; }

  Lanes& operator+=(const Lanes& b) { v += b.v; return *this; }
  Lanes& operator-=(const Lanes& b) { v -= b.v; return *this; }
  Lanes& operator*=(const Lanes& b) { v *= b.v; return *this; }
  Lanes& operator/=(const Lanes& b) { v /= b.v; return *this; }
  Lanes& operator+=(double b) { v += b; return *this; }
  Lanes& operator-=(double b) { v -= b; return *this; }
  Lanes& operator*=(double b) { v *= b; return *this; }
  Lanes& operator/=(double b) { v /= b; return *this; }
};

static_assert(std::is_trivially_copyable<Lanes<4>>::value, "Lanes are carved from raw scratch");

template <int W>
struct is_lanes<Lanes<W>> {
  static constexpr bool value = true;
};

template <int W> inline Lanes<W> operator+(const Lanes<W>& a) { return a; }
template <int W> inline Lanes<W> operator-(const Lanes<W>& a) { return Lanes<W>::from(-a.v); }
template <int W> inline Lanes<W> operator+(Lanes<W> a, const Lanes<W>& b) { return a += b; }
template <int W> inline Lanes<W> operator-(Lanes<W> a, const Lanes<W>& b) { return a -= b; }
template <int W> inline Lanes<W> operator*(Lanes<W> a, const Lanes<W>& b) { return a *= b; }
template <int W> inline Lanes<W> operator/(Lanes<W> a, const Lanes<W>& b) { return a /= b; }
template <int W> inline Lanes<W> operator+(Lanes<W> a, double b) { return a += b; }
template <int W> inline Lanes<W> operator-(Lanes<W> a, double b) { return a -= b; }
template <int W> inline Lanes<W> operator*(Lanes<W> a, double b) { return a *= b; }
template <int W> inline Lanes<W> operator/(Lanes<W> a, double b) { return a /= b; }
template <int W> inline Lanes<W> operator+(double a, const Lanes<W>& b) { return Lanes<W>::from(a + b.v); }
template <int W> inline Lanes<W> operator-(double a, const Lanes<W>& b) { return Lanes<W>::from(a - b.v); }
template <int W> inline Lanes<W> operator*(double a, const Lanes<W>& b) { return Lanes<W>::from(a * b.v); }
template <int W> inline Lanes<W> operator/(double a, const Lanes<W>& b) { return Lanes<W>::from(a / b.v); }

// f applied to each lane with the scalar library function: the same bits as the scalar path.
template <int W, class F>
inline Lanes<W> per_lane(const Lanes<W>& a, F f) {
  Lanes<W> r;
  for (int j = 0; j < W; ++j) r.v[j] = f(a.v[j]);
  return r;
}

// Elementary functions, found by argument-dependent lookup from core/scalar.hpp's helpers.
template <int W> inline Lanes<W> sqrt(const Lanes<W>& a) { return per_lane(a, [](double x) { return std::sqrt(x); }); }
template <int W> inline Lanes<W> sin(const Lanes<W>& a) { return per_lane(a, [](double x) { return std::sin(x); }); }
template <int W> inline Lanes<W> cos(const Lanes<W>& a) { return per_lane(a, [](double x) { return std::cos(x); }); }
template <int W> inline Lanes<W> tan(const Lanes<W>& a) { return per_lane(a, [](double x) { return std::tan(x); }); }
template <int W> inline Lanes<W> atan(const Lanes<W>& a) { return per_lane(a, [](double x) { return std::atan(x); }); }
template <int W> inline Lanes<W> exp(const Lanes<W>& a) { return per_lane(a, [](double x) { return std::exp(x); }); }
template <int W> inline Lanes<W> abs(const Lanes<W>& a) { return per_lane(a, [](double x) { return std::abs(x); }); }
template <int W>
inline void scalar_sincos(const Lanes<W>& a, Lanes<W>& s, Lanes<W>& c) {
  for (int j = 0; j < W; ++j) {
    const double x = a.v[j];
    s.v[j] = std::sin(x);  // the compiler makes one sincos call of the two, as on a double
    c.v[j] = std::cos(x);
  }
}
template <int W>
inline Lanes<W> atan2(const Lanes<W>& y, const Lanes<W>& x) {
  Lanes<W> r;
  for (int j = 0; j < W; ++j) r.v[j] = std::atan2(y.v[j], x.v[j]);
  return r;
}

// Whether every lane is finite / positive (the scalar checks of the dynamics ask this of the whole group: a
// group that fails one is evaluated again lane by lane, so a lane's status is the scalar path's).
template <int W>
inline bool is_finite(const Lanes<W>& a) {
  bool all = true;
  for (int j = 0; j < W; ++j) all = all && (a.v[j] - a.v[j] == 0.0);
  return all;
}
template <int W>
inline bool is_positive(const Lanes<W>& a) {
  bool all = true;
  for (int j = 0; j < W; ++j) all = all && a.v[j] > 0.0;
  return all;
}
// Whether every lane is exactly v (spatial/mat3.hpp's is_identity: a group takes a shortcut only when all its
// lanes would).
template <int W>
inline bool is_exactly(const Lanes<W>& a, double v) {
  bool all = true;
  for (int j = 0; j < W; ++j) all = all && a.v[j] == v;
  return all;
}

// Per lane: a where keep is set, b elsewhere.
template <int W>
inline Lanes<W> lanes_select(const bool (&keep)[W], const Lanes<W>& a, const Lanes<W>& b) {
  Lanes<W> r;
  for (int j = 0; j < W; ++j) r.v[j] = keep[j] ? a.v[j] : b.v[j];
  return r;
}

// W instances' constants: the table transposed so that constant i of all lanes is one Lanes load, and each lane's
// own row for the pieces that run per lane (time functions, force tables).
template <int W>
struct LaneConstants {
  const Lanes<W>* columns;
  const double* rows[W];
  Lanes<W> operator[](int i) const { return columns[i]; }
};

}  // namespace myriad
