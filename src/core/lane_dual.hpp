#pragma once
// Dual<Lanes<W>, N>: W instances' dual numbers side by side, so the Jacobian passes of the Rosenbrock methods
// (dynamics/tree_second_order.hpp) run W instances in lockstep on one core like the plain passes (issue 19
// item 3; dynamics/lane_tree_second_order.hpp). Each lane's value and derivatives go through the operations a
// Dual<double, N> goes through, in the same order, so a lane's Jacobian is the scalar path's bit for bit.
//
// What core/dual.hpp does with a double beside a Dual (a constant's product, sum, ...) is done here with a
// Lanes beside a Dual<Lanes>: the constants of W instances (LaneConstants) meet their W dual numbers. Host
// only.
#include "core/dual.hpp"
#include "core/lanes.hpp"

namespace myriad {

template <int W, int N>
struct is_lanes<Dual<Lanes<W>, N>> {
  static constexpr bool value = true;
};

template <int W, int N>
using LaneDual = Dual<Lanes<W>, N>;

// Lane j of a Dual<Lanes>, as the Dual<double> the scalar path has there.
template <int W, int N>
inline Dual<double, N> lane_of(const LaneDual<W, N>& a, int j) {
  Dual<double, N> r;
  r.value = a.value[j];
  for (int i = 0; i < N; ++i) r.d[i] = a.d[i][j];
  return r;
}

template <int W, int N>
inline void set_lane(LaneDual<W, N>& a, int j, const Dual<double, N>& x) {
  a.value.set(j, x.value);
  for (int i = 0; i < N; ++i) a.d[i].set(j, x.d[i]);
}

// ---- a Lanes beside a Dual<Lanes>: the operations of dual.hpp's double overloads, lane by lane ----
template <int W, int N>
inline LaneDual<W, N> operator+(LaneDual<W, N> a, const Lanes<W>& b) {
  a.value += b;
  return a;
}
template <int W, int N>
inline LaneDual<W, N> operator+(const Lanes<W>& a, LaneDual<W, N> b) {
  b.value += a;
  return b;
}
template <int W, int N>
inline LaneDual<W, N> operator-(LaneDual<W, N> a, const Lanes<W>& b) {
  a.value -= b;
  return a;
}
template <int W, int N>
inline LaneDual<W, N> operator-(const Lanes<W>& a, const LaneDual<W, N>& b) {
  LaneDual<W, N> r = -b;
  r.value += a;
  return r;
}
template <int W, int N>
inline LaneDual<W, N> operator*(LaneDual<W, N> a, const Lanes<W>& b) {
  a.value *= b;
  for (int i = 0; i < N; ++i) a.d[i] *= b;
  return a;
}
template <int W, int N>
inline LaneDual<W, N> operator*(const Lanes<W>& a, LaneDual<W, N> b) {
  b.value *= a;
  for (int i = 0; i < N; ++i) b.d[i] *= a;
  return b;
}
template <int W, int N>
inline LaneDual<W, N> operator/(LaneDual<W, N> a, const Lanes<W>& b) {
  // dual.hpp's Dual / double multiplies by the reciprocal: the same here.
  const Lanes<W> inv = 1.0 / b;
  a.value *= inv;
  for (int i = 0; i < N; ++i) a.d[i] *= inv;
  return a;
}
template <int W, int N>
inline LaneDual<W, N> operator/(const Lanes<W>& a, const LaneDual<W, N>& b) {
  const Lanes<W> inv = Lanes<W>(1.0) / b.value;
  const Lanes<W> value = a * inv;
  return dual_chain(value, -value * inv, b);
}

}  // namespace myriad
