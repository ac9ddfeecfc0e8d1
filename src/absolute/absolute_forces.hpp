#pragma once
// Applied forces of the absolute-coordinate engine (seed 000 sec. 5.1's rotational spring-damper-actuators, RSDA)
// as generalized forces Q on the orientation coordinates of rp (Euler parameters) and re (Euler angles).
//
// An RSDA acts between body i (0: the ground) and body j about an axis h fixed in body i; f_i (on i) and f_j (on
// j) are unit vectors perpendicular to it that coincide at angle 0. Its angle is
//
//   theta(q) = atan2((f_i x f_j) . h_i, f_i . f_j),   f_i = A_i f-bar_i, f_j = A_j f-bar_j, h_i = A_i h-bar_i,
//
// the rotation of j relative to i about h (a revolute joint's coordinate when f_i, f_j are one vector of its two
// frames). The torque tau = -(k delta + c theta') with the deflection delta = theta - zero_angle made
// continuous: atan2 wraps to (-pi, pi], so delta = unwrapped_anchor + wrap(theta - wrapped_anchor) - zero_angle,
// where (wrapped_anchor, unwrapped_anchor) are one earlier angle as atan2 gave it and as the continuous motion
// reached it. wrap() has slope 1, so delta is smooth in q as long as the angle stays within pi of the anchor;
// callers that integrate far move the anchor along with the motion (absolute/state_space.hpp does after every
// accepted step).
//
// By virtual work (tau delta-theta), Q = tau dtheta/do on the orientation coordinates o of i and j, and theta' =
// dtheta/do . o'. Both come from one forward pass of dual numbers over (o_i, o_j) (2 K directions), so they are
// exact for the representation's coordinates, also off the unit sphere where Newton's iterates of rp live (a
// component of Q along p lies in the normalization constraint's row and only moves its multiplier).
//
// Host and device, any scalar S (double, or dual numbers for the integration Jacobians). O(K) per element.
#include <cmath>

#include "absolute/rotation_representation.hpp"
#include "core/dual.hpp"
#include "core/hd.hpp"
#include "core/scalar.hpp"

namespace myriad {

constexpr int kMaxAbsoluteRsdas = 4;

struct AbsoluteRsda {
  int body_i = 0, body_j = 0;                   // absolute body indices (0: the ground)
  Vec3<double> axis_bar_i{0.0, 0.0, 1.0};       // h-bar in body i's frame
  Vec3<double> reference_bar_i{1.0, 0.0, 0.0};  // f-bar_i, perpendicular to h-bar_i
  Vec3<double> reference_bar_j{1.0, 0.0, 0.0};  // f-bar_j
  double stiffness = 0.0, damping = 0.0, zero_angle = 0.0;
  double wrapped_anchor = 0.0, unwrapped_anchor = 0.0;  // see above
};

// x shifted by whole turns into [-pi, pi] (the shift read from the value; slope 1 in every derivative).
template <class S>
MYRIAD_HD_INLINE S wrap_to_pi(const S& x) {
  constexpr double kTwoPi = 6.283185307179586;
  return x - S(kTwoPi * std::nearbyint(value_of(x) / kTwoPi));
}

// theta of an element for orientations given as Rep's coordinates o_i, o_j (any scalar; the ground when null).
template <class Rep, class T>
MYRIAD_HD_INLINE T rsda_angle(const AbsoluteRsda& e, const T* o_i, const T* o_j) {
  const auto orientation = [](const T* o) {
    return o ? orientation_matrix(Rep::orientation(o)) : orientation_matrix(Rep::template identity<T>());
  };
  const Mat3<T> A_i = orientation(o_i), A_j = orientation(o_j);
  const Vec3<T> f_i = A_i * vec3_cast<T>(e.reference_bar_i), f_j = A_j * vec3_cast<T>(e.reference_bar_j),
                h_i = A_i * vec3_cast<T>(e.axis_bar_i);
  using std::atan2;
  return atan2(dot(cross(f_i, f_j), h_i), dot(f_i, f_j));
}

// The element's continuous deflection at orientation coordinates o_i, o_j (double; null for the ground).
template <class Rep>
MYRIAD_HD_INLINE double rsda_deflection(const AbsoluteRsda& e, const double* o_i, const double* o_j) {
  return e.unwrapped_anchor + wrap_to_pi(rsda_angle<Rep>(e, o_i, o_j) - e.wrapped_anchor) - e.zero_angle;
}

// Adds the element's generalized force on the orientation coordinates (K each) of bodies i and j to Q_i, Q_j
// (null for the ground) at orientations o and orientation rates u.
template <class Rep, class S>
MYRIAD_HD_INLINE void add_rsda_force(const AbsoluteRsda& e, const S* o_i, const S* u_i, const S* o_j,
                                     const S* u_j, S* Q_i, S* Q_j) {
  constexpr int K = Rep::kOrientation;
  using D = Dual<S, 2 * K>;
  D di[K], dj[K];
  for (int k = 0; k < K; ++k) {
    if (o_i) di[k] = D(o_i[k]), di[k].d[k] = S(1.0);
    if (o_j) dj[k] = D(o_j[k]), dj[k].d[K + k] = S(1.0);
  }
  const D theta = rsda_angle<Rep>(e, o_i ? di : static_cast<const D*>(nullptr), o_j ? dj : static_cast<const D*>(nullptr));
  S theta_dot = S(0.0);
  for (int k = 0; k < K; ++k) {
    if (o_i) theta_dot += theta.d[k] * u_i[k];
    if (o_j) theta_dot += theta.d[K + k] * u_j[k];
  }
  const S delta = S(e.unwrapped_anchor) + wrap_to_pi(theta.value - S(e.wrapped_anchor)) - S(e.zero_angle);
  const S tau = -(S(e.stiffness) * delta + S(e.damping) * theta_dot);
  for (int k = 0; k < K; ++k) {
    if (Q_i) Q_i[k] += tau * theta.d[k];
    if (Q_j) Q_j[k] += tau * theta.d[K + k];
  }
}

// Re-anchors an element at orientation coordinates o_i, o_j (null for the ground): the continuous angle there
// becomes the anchor, so that a later evaluation may lie within pi of this one rather than of the old anchor.
template <class Rep>
MYRIAD_HD_INLINE void move_rsda_anchor(AbsoluteRsda& e, const double* o_i, const double* o_j) {
  const double theta = rsda_angle<Rep>(e, o_i, o_j);
  e.unwrapped_anchor += wrap_to_pi(theta - e.wrapped_anchor);
  e.wrapped_anchor = theta;
}

}  // namespace myriad
