#pragma once
// Unit quaternion (w, x, y, z) for spherical and free joints, and the exponential map that lets integrators work
// in a local rotation vector about the configuration at the start of a step.
#include "spatial/mat3.hpp"

namespace myriad {

template <class S>
struct Quat {
  S w, x, y, z;
  MYRIAD_HD_INLINE static Quat identity() { return {S(1), S(0), S(0), S(0)}; }
};

template <class S>
MYRIAD_HD_INLINE Quat<S> operator*(const Quat<S>& a, const Quat<S>& b) {
  return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
          a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}

template <class S>
MYRIAD_HD_INLINE Quat<S> normalized(const Quat<S>& q) {
  const S n = scalar_sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  return {q.w / n, q.x / n, q.y / n, q.z / n};
}

// R_AB for the quaternion that turns A into B (Hamilton convention, active rotation).
template <class S>
MYRIAD_HD_INLINE Mat3<S> rotation_matrix(const Quat<S>& q) {
  const S w = q.w, x = q.x, y = q.y, z = q.z;
  return {{{S(1) - S(2) * (y * y + z * z), S(2) * (x * y - w * z), S(2) * (x * z + w * y)},
           {S(2) * (x * y + w * z), S(1) - S(2) * (x * x + z * z), S(2) * (y * z - w * x)},
           {S(2) * (x * z - w * y), S(2) * (y * z + w * x), S(1) - S(2) * (x * x + y * y)}}};
}

// exp of the rotation vector phi (angle |phi| about phi/|phi|); a series keeps it smooth (and Dual-safe) at 0.
template <class S>
MYRIAD_HD_INLINE Quat<S> quat_exp(const Vec3<S>& phi) {
  const S theta2 = dot(phi, phi);
  S half_cos, sinc_half;  // cos(theta/2), sin(theta/2)/theta
  if (value_of(theta2) < 1e-12) {
    half_cos = S(1) - theta2 / S(8);
    sinc_half = S(0.5) - theta2 / S(48);
  } else {
    const S theta = scalar_sqrt(theta2);
    half_cos = scalar_cos(theta / S(2));
    sinc_half = scalar_sin(theta / S(2)) / theta;
  }
  return {half_cos, sinc_half * phi.x, sinc_half * phi.y, sinc_half * phi.z};
}

// log of a rotation matrix: the rotation vector phi with exp(phi) = R, angle in [0, pi). From the skew part
// v = sin(theta) axis and cos(theta) = (trace - 1)/2 by atan2; below sin^2 = 1e-16 (theta < 1e-8) the series
// theta/sin(theta) = 1 + theta^2/6 keeps it smooth and Dual-safe at 0. Ill-conditioned near pi (the skew part
// vanishes there too): callers keep their relative rotations well below. O(1).
template <class S>
MYRIAD_HD_INLINE Vec3<S> rotation_log(const Mat3<S>& R) {
  const Vec3<S> v{S(0.5) * (R.m[2][1] - R.m[1][2]), S(0.5) * (R.m[0][2] - R.m[2][0]), S(0.5) * (R.m[1][0] - R.m[0][1])};
  const S s2 = dot(v, v);
  const S c = S(0.5) * (R.m[0][0] + R.m[1][1] + R.m[2][2] - S(1));
  S factor;  // theta / sin(theta)
  if (value_of(s2) < 1e-16 && value_of(c) > 0.0) {
    factor = S(1) + s2 / S(6);
  } else {
    const S s = scalar_sqrt(s2);
    factor = scalar_atan2(s, c) / s;
  }
  return factor * v;
}

// Inverse of the right Jacobian of SO(3): for R(t) = R0 exp(phi(t)) with body angular velocity omega,
// phi' = jr_inverse(phi) * omega. Valid for |phi| < pi; the chart is re-centred long before that.
template <class S>
MYRIAD_HD_INLINE Vec3<S> right_jacobian_inverse_times(const Vec3<S>& phi, const Vec3<S>& omega) {
  const S theta2 = dot(phi, phi);
  S c;  // (1/theta^2) (1 - (theta/2) cot(theta/2))
  if (value_of(theta2) < 1e-8) {
    c = S(1) / S(12) + theta2 / S(720);
  } else {
    const S theta = scalar_sqrt(theta2);
    const S half = theta / S(2);
    c = (S(1) - half * scalar_cos(half) / scalar_sin(half)) / theta2;
  }
  const Vec3<S> pxw = cross(phi, omega);
  return omega + S(0.5) * pxw + c * cross(phi, pxw);
}

// Right Jacobian of SO(3): for R(t) = R0 exp(phi(t)), the body angular velocity is omega = Jr(phi) phi', with
// Jr(phi) = I - (1 - cos theta)/theta^2 [phi]x + (theta - sin theta)/theta^3 [phi]x^2, theta = |phi|. The
// inverse of right_jacobian_inverse_times. A series below theta = 0.1 keeps it accurate and Dual-safe at 0.
// O(1).
template <class S>
MYRIAD_HD_INLINE Vec3<S> right_jacobian_times(const Vec3<S>& phi, const Vec3<S>& phi_dot) {
  const S theta2 = dot(phi, phi);
  S a, b;  // (1 - cos theta)/theta^2, (theta - sin theta)/theta^3
  if (value_of(theta2) < 1e-2) {
    a = S(0.5) - theta2 * (S(1.0 / 24.0) - theta2 * (S(1.0 / 720.0) - theta2 * S(1.0 / 40320.0)));
    b = S(1.0 / 6.0) - theta2 * (S(1.0 / 120.0) - theta2 * (S(1.0 / 5040.0) - theta2 * S(1.0 / 362880.0)));
  } else {
    const S theta = scalar_sqrt(theta2);
    const S s_half = scalar_sin(theta / S(2));
    a = S(2) * s_half * s_half / theta2;  // no cancellation, unlike 1 - cos theta
    b = (theta - scalar_sin(theta)) / (theta2 * theta);
  }
  const Vec3<S> pxw = cross(phi, phi_dot);
  return phi_dot - a * pxw + b * cross(phi, pxw);
}

// Directional derivative of the map phi -> Jr^-1(phi) omega (omega held fixed) along `direction`:
//   D = 1/2 direction x omega + c(theta) (direction x (phi x omega) + phi x (direction x omega))
//       + e(theta) (phi . direction) phi x (phi x omega),
// with c(theta) = 1/theta^2 - cot(theta/2)/(2 theta) (the coefficient of right_jacobian_inverse_times) and
// e(theta) = c'(theta)/theta = -2/theta^4 + cot(theta/2)/(2 theta^3) + 1/(4 theta^2 sin^2(theta/2)).
// For phi(t) with phi' = direction this is d/dt[Jr^-1(phi) omega] at fixed omega, the velocity-product part
// of the chart acceleration phi'' = Jr^-1 omega' + D. Series (to theta^6) below theta = 0.1, where the closed
// forms cancel; Dual-safe at phi = 0. Valid for |phi| < pi. O(1).
template <class S>
MYRIAD_HD_INLINE Vec3<S> right_jacobian_inverse_derivative_times(const Vec3<S>& phi, const Vec3<S>& omega,
                                                                 const Vec3<S>& direction) {
  const S theta2 = dot(phi, phi);
  S c, e;
  if (value_of(theta2) < 1e-2) {
    c = S(1.0 / 12.0) + theta2 * (S(1.0 / 720.0) + theta2 * (S(1.0 / 30240.0) + theta2 * S(1.0 / 1209600.0)));
    e = S(1.0 / 360.0) +
        theta2 * (S(1.0 / 7560.0) + theta2 * (S(1.0 / 201600.0) + theta2 * S(1.0 / 5987520.0)));
  } else {
    const S theta = scalar_sqrt(theta2);
    const S half = theta / S(2);
    const S s_half = scalar_sin(half);
    const S cot_half = scalar_cos(half) / s_half;
    c = (S(1) - half * cot_half) / theta2;
    e = (cot_half / (S(2) * theta) + S(1) / (S(4) * s_half * s_half) - S(2) / theta2) / (theta2);
  }
  const Vec3<S> pxw = cross(phi, omega);
  return S(0.5) * cross(direction, omega) +
         c * (cross(direction, pxw) + cross(phi, cross(direction, omega))) +
         (e * dot(phi, direction)) * cross(phi, pxw);
}

// Quaternion of a rotation matrix (Shepperd's method: divides by the largest of the four candidates), w >= 0.
template <class S>
MYRIAD_HD_INLINE Quat<S> quat_from_rotation(const Mat3<S>& R) {
  const S trace = R.m[0][0] + R.m[1][1] + R.m[2][2];
  Quat<S> q;
  if (value_of(trace) >= value_of(R.m[0][0]) && value_of(trace) >= value_of(R.m[1][1]) &&
      value_of(trace) >= value_of(R.m[2][2])) {
    const S r = scalar_sqrt(S(1) + trace);
    const S s = S(0.5) / r;
    q = {S(0.5) * r, (R.m[2][1] - R.m[1][2]) * s, (R.m[0][2] - R.m[2][0]) * s, (R.m[1][0] - R.m[0][1]) * s};
  } else if (value_of(R.m[0][0]) >= value_of(R.m[1][1]) && value_of(R.m[0][0]) >= value_of(R.m[2][2])) {
    const S r = scalar_sqrt(S(1) + R.m[0][0] - R.m[1][1] - R.m[2][2]);
    const S s = S(0.5) / r;
    q = {(R.m[2][1] - R.m[1][2]) * s, S(0.5) * r, (R.m[0][1] + R.m[1][0]) * s, (R.m[0][2] + R.m[2][0]) * s};
  } else if (value_of(R.m[1][1]) >= value_of(R.m[2][2])) {
    const S r = scalar_sqrt(S(1) + R.m[1][1] - R.m[0][0] - R.m[2][2]);
    const S s = S(0.5) / r;
    q = {(R.m[0][2] - R.m[2][0]) * s, (R.m[0][1] + R.m[1][0]) * s, S(0.5) * r, (R.m[1][2] + R.m[2][1]) * s};
  } else {
    const S r = scalar_sqrt(S(1) + R.m[2][2] - R.m[0][0] - R.m[1][1]);
    const S s = S(0.5) / r;
    q = {(R.m[1][0] - R.m[0][1]) * s, (R.m[0][2] + R.m[2][0]) * s, (R.m[1][2] + R.m[2][1]) * s, S(0.5) * r};
  }
  if (value_of(q.w) < 0.0) q = {-q.w, -q.x, -q.y, -q.z};
  return q;
}

}  // namespace myriad
