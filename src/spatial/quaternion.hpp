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
