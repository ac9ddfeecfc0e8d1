#pragma once
// The three orientation representations of one body that seed 002 (Kissel, Taves & Negrut, "Constrained
// multibody kinematics and dynamics in absolute coordinates: ... three approaches to representing rigid body
// rotation") compares, and the one thing the constraint layer (absolute/constraint_primitives.hpp) needs from
// each: how a body-fixed vector s-bar (over-bar: expressed in the body's L-RF) appears in the global G-RF, s
// = A s-bar, and how s varies with the orientation coordinates and with time.
//
//   rA (sec. 2.1) the rotation matrix A_i itself, kept on SO(3) by A <- A exp(theta-bar~) (eqs. 8, 12, 30b).
//       The "orientation coordinates" of the Jacobian are the body-frame virtual rotation theta-bar of eq. 12
//       (three of them; eq. 14c); the orientation velocity is the body angular velocity omega-bar, A' = A
//       omega-bar~ (eq. 30a, eq. 13b), so the velocity equation reads G^A [r'; omega-bar] = nu (eq. 15b).
//   rp (sec. 2.2) Euler parameters p = (e0, e1, e2, e3), four coordinates, with the normalization constraint
//       1/2 p^T p - 1/2 = 0 per body (eq. 19). Orientation velocity p'; omega-bar = 2 G(p) p' (G = B^P of eq.
//       39c).
//   re (sec. 2.3) Euler angles epsilon = (phi, theta, psi), "ZXZ-intrinsic": A = A1(phi) A2(theta) A3(psi)
//       with A1, A3 rotations about z and A2 about x (the matrices printed under eq. 27). Orientation
//       velocity epsilon'; omega-bar = B^e(epsilon) epsilon' (eq. 43b).
//
// For rp and re the Jacobian columns are true partial derivatives (dA s-bar / dp is B(p, s-bar), eq. 23a);
// for rA they are the coefficients of the first-order variation under A -> A exp(theta-bar~), Pi-bar(A s-bar)
// = -A s-bar~ (eq. 13a). Every function here is O(1), allocation- and exception-free, host+device, and
// templated on the scalar (double, Dual); nothing here throws or fails except where a comment says a map is
// singular.
#include <cmath>

#include "core/hd.hpp"
#include "core/scalar.hpp"
#include "spatial/mat3.hpp"
#include "spatial/quaternion.hpp"
#include "spatial/vec3.hpp"

namespace myriad {

// ---- shared shapes ----

// A body-fixed vector s-bar seen from the global frame, with its first-order variation (K orientation
// coordinates).
template <class S, int K>
struct BodyFixedVector {
  Vec3<S> s;       // s = A s-bar, global frame
  Vec3<S> s_q[K];  // ds/d(orientation coordinate k); rA: column k of Pi-bar(A s-bar) = -A s-bar~ (eq. 13a)
};

// Its time derivatives along a motion: s' and the part of s'' quadratic in the orientation velocity (the part
// left when the orientation acceleration is zero: what the acceleration right-hand side gamma collects).
template <class S>
struct BodyFixedVectorRates {
  Vec3<S> s_dot;             // d/dt (A s-bar)
  Vec3<S> s_ddot_quadratic;  // d^2/dt^2 (A s-bar) - sum_k (ds/dq_k) q_k''   (rA: q'' is omega-bar')
};

// Euler parameters (seed 002 sec. 2.2) are the unit quaternion of spatial/quaternion.hpp: e0 = w, (e1, e2,
// e3) = (x, y, z); eq. 22 is rotation_matrix(Quat) on |p| = 1. The same type carries p' (not unit).
template <class S>
using EulerParameters = Quat<S>;

// ZXZ-intrinsic Euler angles (seed 002 sec. 2.3), and their rates.
template <class S>
struct EulerAngles {
  S phi;    // first rotation, about z
  S theta;  // second, about the once-rotated x (nutation)
  S psi;    // third, about the twice-rotated z
};

// What the generic primitives need to know about an orientation type: its velocity type and how many
// orientation coordinates a Jacobian row has per body.
template <class Orientation>
struct OrientationTraits;

template <class S>
struct OrientationTraits<Mat3<S>> {  // rA
  using Scalar = S;
  using Rate = Vec3<S>;  // omega-bar, body frame (eq. 30a)
  static constexpr int kCoordinates = 3;
};
template <class S>
struct OrientationTraits<Quat<S>> {  // rp
  using Scalar = S;
  using Rate = Quat<S>;  // p'
  static constexpr int kCoordinates = 4;
};
template <class S>
struct OrientationTraits<EulerAngles<S>> {  // re
  using Scalar = S;
  using Rate = EulerAngles<S>;  // epsilon'
  static constexpr int kCoordinates = 3;
};

// ============================== rA: the rotation matrix (seed 002 sec. 2.1) ==============================

// exp(chi~) of an Euler rotation vector chi = chi u (eqs. 5-7, Rodrigues). Through the unit quaternion, whose
// series at chi = 0 keeps it smooth and Dual-safe there.
template <class S>
MYRIAD_HD_INLINE Mat3<S> rotation_exp(const Vec3<S>& chi) {
  return rotation_matrix(quat_exp(chi));
}

// The rA update of eqs. 12 and 30b: the orientation turned by the body-frame rotation vector theta-bar.
template <class S>
MYRIAD_HD_INLINE Mat3<S> rotation_update(const Mat3<S>& A, const Vec3<S>& theta_bar) {
  return A * rotation_exp(theta_bar);
}

template <class S>
MYRIAD_HD_INLINE Mat3<S> orientation_matrix(const Mat3<S>& A) {
  return A;
}

// The rA velocity is omega-bar itself.
template <class S>
MYRIAD_HD_INLINE Vec3<S> body_angular_velocity(const Mat3<S>& /*A*/, const Vec3<S>& omega_bar) {
  return omega_bar;
}

// s = A s-bar and Pi-bar(A s-bar) = -A s-bar~ (eq. 13a); column k is A (e_k x s-bar).
template <class S>
MYRIAD_HD_INLINE BodyFixedVector<S, 3> attached_vector(const Mat3<S>& A, const Vec3<S>& s_bar) {
  BodyFixedVector<S, 3> v;
  v.s = A * s_bar;
  const S zero(0.0);
  v.s_q[0] = A * Vec3<S>{zero, -s_bar.z, s_bar.y};
  v.s_q[1] = A * Vec3<S>{s_bar.z, zero, -s_bar.x};
  v.s_q[2] = A * Vec3<S>{-s_bar.y, s_bar.x, zero};
  return v;
}

// With A' = A omega-bar~ (eq. 30a): s' = A (omega-bar x s-bar) and s'' = A (omega-bar' x s-bar) + A
// (omega-bar x (omega-bar x s-bar)); the second term is the quadratic part.
template <class S>
MYRIAD_HD_INLINE BodyFixedVectorRates<S> attached_vector_rates(const Mat3<S>& A, const Vec3<S>& omega_bar,
                                                               const Vec3<S>& s_bar) {
  const Vec3<S> w_x_s = cross(omega_bar, s_bar);
  return {A * w_x_s, A * cross(omega_bar, w_x_s)};
}

// ============================== rp: Euler parameters (seed 002 sec. 2.2) ==============================

// A 3 x 4 matrix (G(p), E(p), B(p, s-bar)), row-major.
template <class S>
struct Mat34 {
  S m[3][4];
};

template <class S>
MYRIAD_HD_INLINE Vec3<S> operator*(const Mat34<S>& a, const Quat<S>& v) {
  Vec3<S> r;
  for (int i = 0; i < 3; ++i) r[i] = a.m[i][0] * v.w + a.m[i][1] * v.x + a.m[i][2] * v.y + a.m[i][3] * v.z;
  return r;
}

// a^T v: a 4-vector, returned as a Quat.
template <class S>
MYRIAD_HD_INLINE Quat<S> transpose_times(const Mat34<S>& a, const Vec3<S>& v) {
  Quat<S> r;
  r.w = a.m[0][0] * v.x + a.m[1][0] * v.y + a.m[2][0] * v.z;
  r.x = a.m[0][1] * v.x + a.m[1][1] * v.y + a.m[2][1] * v.z;
  r.y = a.m[0][2] * v.x + a.m[1][2] * v.y + a.m[2][2] * v.z;
  r.z = a.m[0][3] * v.x + a.m[1][3] * v.y + a.m[2][3] * v.z;
  return r;
}

// G(p) = [-e, -e~ + e0 I]: omega-bar = 2 G(p) p'. It is B^P of seed 002 eq. 39c (rows (-e1, e0, e3, -e2),
// (-e2, -e3, e0, e1), (-e3, e2, -e1, e0)).
template <class S>
MYRIAD_HD_INLINE Mat34<S> euler_parameter_g(const Quat<S>& p) {
  return {{{-p.x, p.w, p.z, -p.y}, {-p.y, -p.z, p.w, p.x}, {-p.z, p.y, -p.x, p.w}}};
}

// E(p) = [-e, e~ + e0 I]: omega (global) = 2 E(p) p'.
template <class S>
MYRIAD_HD_INLINE Mat34<S> euler_parameter_e(const Quat<S>& p) {
  return {{{-p.x, p.w, -p.z, p.y}, {-p.y, p.z, p.w, -p.x}, {-p.z, -p.y, p.x, p.w}}};
}

// A(p) = E(p) G(p)^T = (e0^2 - e^T e) I + 2 e e^T + 2 e0 e~: seed 002 eq. 22 wherever p^T p = 1. Written in
// this homogeneous quadratic form (eq. 22 spends p^T p = 1 on its diagonal) so that B(p, s-bar) below is its
// exact partial derivative in all four directions and A(p) s-bar'' = B(p) p'' + B(p') p' holds along any
// p(t): the Jacobian and gamma are then exact also off the unit sphere, where Newton's iterates live.
template <class S>
MYRIAD_HD_INLINE Mat3<S> orientation_matrix(const Quat<S>& p) {
  const S e0 = p.w, e1 = p.x, e2 = p.y, e3 = p.z;
  const S d = e0 * e0 - e1 * e1 - e2 * e2 - e3 * e3;
  return {{{d + S(2.0) * e1 * e1, S(2.0) * (e1 * e2 - e0 * e3), S(2.0) * (e1 * e3 + e0 * e2)},
           {S(2.0) * (e1 * e2 + e0 * e3), d + S(2.0) * e2 * e2, S(2.0) * (e2 * e3 - e0 * e1)},
           {S(2.0) * (e1 * e3 - e0 * e2), S(2.0) * (e2 * e3 + e0 * e1), d + S(2.0) * e3 * e3}}};
}

// omega-bar = 2 G(p) p' (body frame) and omega = 2 E(p) p' (global); exact for |p| = 1 and p^T p' = 0.
template <class S>
MYRIAD_HD_INLINE Vec3<S> body_angular_velocity(const Quat<S>& p, const Quat<S>& p_dot) {
  return S(2.0) * (euler_parameter_g(p) * p_dot);
}
template <class S>
MYRIAD_HD_INLINE Vec3<S> global_angular_velocity(const Quat<S>& p, const Quat<S>& p_dot) {
  return S(2.0) * (euler_parameter_e(p) * p_dot);
}

// The inverse map on the unit sphere: p' = 1/2 G(p)^T omega-bar (which satisfies p^T p' = 0).
template <class S>
MYRIAD_HD_INLINE Quat<S> euler_parameter_rate(const Quat<S>& p, const Vec3<S>& omega_bar) {
  const Quat<S> r = transpose_times(euler_parameter_g(p), omega_bar);
  return {S(0.5) * r.w, S(0.5) * r.x, S(0.5) * r.y, S(0.5) * r.z};
}

// B(p, s-bar) = d[A(p) s-bar]/dp (seed 002 eq. 23a) = 2 [(e0 I + e~) s-bar, e s-bar^T - (e0 I + e~) s-bar~].
// Linear in p, so d/dt [B(p, s-bar) p'] = B(p', s-bar) p' + B(p, s-bar) p'' (eq. 23b for a constant s-bar).
template <class S>
MYRIAD_HD_INLINE Mat34<S> euler_parameter_b(const Quat<S>& p, const Vec3<S>& s_bar) {
  const S e0 = p.w;
  const Vec3<S> e{p.x, p.y, p.z};
  const Vec3<S> col0 = S(2.0) * (e0 * s_bar + cross(e, s_bar));
  Mat34<S> b;
  for (int i = 0; i < 3; ++i) b.m[i][0] = col0[i];
  for (int k = 0; k < 3; ++k) {
    // column k + 1: 2 (s-bar_k e - (e0 I + e~)(s-bar x e_k))
    Vec3<S> unit = Vec3<S>::zero();
    unit[k] = S(1.0);
    const Vec3<S> sxk = cross(s_bar, unit);
    const Vec3<S> col = S(2.0) * (s_bar[k] * e - e0 * sxk - cross(e, sxk));
    for (int i = 0; i < 3; ++i) b.m[i][k + 1] = col[i];
  }
  return b;
}

template <class S>
MYRIAD_HD_INLINE BodyFixedVector<S, 4> attached_vector(const Quat<S>& p, const Vec3<S>& s_bar) {
  BodyFixedVector<S, 4> v;
  v.s = orientation_matrix(p) * s_bar;
  const Mat34<S> b = euler_parameter_b(p, s_bar);
  for (int k = 0; k < 4; ++k) v.s_q[k] = {b.m[0][k], b.m[1][k], b.m[2][k]};
  return v;
}

// s' = B(p, s-bar) p' (eq. 23e's terms), quadratic part B(p', s-bar) p' (eqs. 23b, 24).
template <class S>
MYRIAD_HD_INLINE BodyFixedVectorRates<S> attached_vector_rates(const Quat<S>& p, const Quat<S>& p_dot,
                                                               const Vec3<S>& s_bar) {
  return {euler_parameter_b(p, s_bar) * p_dot, euler_parameter_b(p_dot, s_bar) * p_dot};
}

// The normalization constraint of eq. 19, one per rp body: Phi = 1/2 p^T p - 1/2, Phi_p = p^T (returned as
// the 4-vector p), nu = 0, gamma = -p'^T p' (from d^2/dt^2 (1/2 p^T p) = p^T p'' + p'^T p').
template <class S>
MYRIAD_HD_INLINE S euler_parameter_normalization(const Quat<S>& p) {
  return S(0.5) * (p.w * p.w + p.x * p.x + p.y * p.y + p.z * p.z) - S(0.5);
}
template <class S>
MYRIAD_HD_INLINE Quat<S> euler_parameter_normalization_jacobian(const Quat<S>& p) {
  return p;
}
template <class S>
MYRIAD_HD_INLINE S euler_parameter_normalization_gamma(const Quat<S>& p_dot) {
  return -(p_dot.w * p_dot.w + p_dot.x * p_dot.x + p_dot.y * p_dot.y + p_dot.z * p_dot.z);
}

// The Euler parameters of a rotation matrix (eq. 22 inverted), with e0 >= 0 (p and -p are the same rotation).
MYRIAD_HD_INLINE Quat<double> euler_parameters_of(const Mat3<double>& A) {
  const Quat<double> p = quat_from_rotation(A);
  return p.w < 0.0 ? Quat<double>{-p.w, -p.x, -p.y, -p.z} : p;
}

// ============================== re: ZXZ Euler angles (seed 002 sec. 2.3) ==============================

namespace absolute_detail {

// A rotation about z by an angle of cosine c and sine s, and its first and second angle derivatives (A1 and
// A3 of sec. 2.3 with A_1phi, A_1phiphi).
template <class S>
MYRIAD_HD_INLINE Mat3<S> rotation_z(const S& c, const S& s) {
  const S o(0.0), l(1.0);
  return {{{c, -s, o}, {s, c, o}, {o, o, l}}};
}
template <class S>
MYRIAD_HD_INLINE Mat3<S> rotation_z_d(const S& c, const S& s) {
  const S o(0.0);
  return {{{-s, -c, o}, {c, -s, o}, {o, o, o}}};
}
template <class S>
MYRIAD_HD_INLINE Mat3<S> rotation_z_dd(const S& c, const S& s) {
  const S o(0.0);
  return {{{-c, s, o}, {-s, -c, o}, {o, o, o}}};
}
// About x (A2 of sec. 2.3) and its derivatives.
template <class S>
MYRIAD_HD_INLINE Mat3<S> rotation_x(const S& c, const S& s) {
  const S o(0.0), l(1.0);
  return {{{l, o, o}, {o, c, -s}, {o, s, c}}};
}
template <class S>
MYRIAD_HD_INLINE Mat3<S> rotation_x_d(const S& c, const S& s) {
  const S o(0.0);
  return {{{o, o, o}, {o, -s, -c}, {o, c, -s}}};
}
template <class S>
MYRIAD_HD_INLINE Mat3<S> rotation_x_dd(const S& c, const S& s) {
  const S o(0.0);
  return {{{o, o, o}, {o, -c, s}, {o, -s, -c}}};
}

// The three factors of A(epsilon) = A1(phi) A2(theta) A3(psi) and their derivatives.
template <class S>
struct EulerAngleFactors {
  Mat3<S> a1, a1_d, a1_dd;
  Mat3<S> a2, a2_d, a2_dd;
  Mat3<S> a3, a3_d, a3_dd;
};

template <class S>
MYRIAD_HD_INLINE EulerAngleFactors<S> euler_angle_factors(const EulerAngles<S>& e) {
  S c1, s1, c2, s2, c3, s3;
  scalar_sincos(e.phi, s1, c1);
  scalar_sincos(e.theta, s2, c2);
  scalar_sincos(e.psi, s3, c3);
  return {rotation_z(c1, s1), rotation_z_d(c1, s1), rotation_z_dd(c1, s1),
          rotation_x(c2, s2), rotation_x_d(c2, s2), rotation_x_dd(c2, s2),
          rotation_z(c3, s3), rotation_z_d(c3, s3), rotation_z_dd(c3, s3)};
}

}  // namespace absolute_detail

template <class S>
MYRIAD_HD_INLINE Mat3<S> orientation_matrix(const EulerAngles<S>& e) {
  const absolute_detail::EulerAngleFactors<S> f = absolute_detail::euler_angle_factors(e);
  return f.a1 * f.a2 * f.a3;
}

// B^e(epsilon) of eq. 43b: omega-bar = B^e epsilon', columns for phi', theta', psi'.
template <class S>
MYRIAD_HD_INLINE Mat3<S> euler_angle_b(const EulerAngles<S>& e) {
  S c2, s2, c3, s3;
  scalar_sincos(e.theta, s2, c2);
  scalar_sincos(e.psi, s3, c3);
  const S o(0.0), l(1.0);
  return {{{s3 * s2, c3, o}, {c3 * s2, -s3, o}, {c2, o, l}}};
}

template <class S>
MYRIAD_HD_INLINE Vec3<S> body_angular_velocity(const EulerAngles<S>& e, const EulerAngles<S>& e_dot) {
  return euler_angle_b(e) * Vec3<S>{e_dot.phi, e_dot.theta, e_dot.psi};
}

// omega (global) = phi' z + theta' A1 x + psi' A1 A2 z.
template <class S>
MYRIAD_HD_INLINE Vec3<S> global_angular_velocity(const EulerAngles<S>& e, const EulerAngles<S>& e_dot) {
  S c1, s1, c2, s2;
  scalar_sincos(e.phi, s1, c1);
  scalar_sincos(e.theta, s2, c2);
  return Vec3<S>{s1 * s2 * e_dot.psi + c1 * e_dot.theta, s1 * e_dot.theta - c1 * s2 * e_dot.psi,
                 e_dot.phi + c2 * e_dot.psi};
}

// The ZXZ angles of a rotation matrix A = Rz(phi) Rx(theta) Rz(psi), whose third column is (sin phi sin theta,
// -cos phi sin theta, cos theta) and third row (sin theta sin psi, sin theta cos psi, cos theta): theta in [0, pi];
// at theta = 0 or pi (the gimbal lock) phi and psi are not separable and the result is one of the choices.
MYRIAD_HD_INLINE EulerAngles<double> euler_angles_of(const Mat3<double>& A) {
  const double sin_theta = std::hypot(A.m[0][2], A.m[1][2]);
  return {std::atan2(A.m[0][2], -A.m[1][2]), std::atan2(sin_theta, A.m[2][2]), std::atan2(A.m[2][0], A.m[2][1])};
}

// The inverse of eq. 43b: epsilon' from omega-bar. Singular where sin(theta) = 0 (the ZXZ gimbal lock: phi
// and psi turn about the same axis); there the result is not finite and the caller must re-chart.
template <class S>
MYRIAD_HD_INLINE EulerAngles<S> euler_angle_rate(const EulerAngles<S>& e, const Vec3<S>& omega_bar) {
  S c2, s2, c3, s3;
  scalar_sincos(e.theta, s2, c2);
  scalar_sincos(e.psi, s3, c3);
  const S phi_dot = (s3 * omega_bar.x + c3 * omega_bar.y) / s2;
  return {phi_dot, c3 * omega_bar.x - s3 * omega_bar.y, omega_bar.z - c2 * phi_dot};
}

// s = A s-bar and its partials [A1' A2 A3 s-bar, A1 A2' A3 s-bar, A1 A2 A3' s-bar] (the terms of eq. 28a).
template <class S>
MYRIAD_HD_INLINE BodyFixedVector<S, 3> attached_vector(const EulerAngles<S>& e, const Vec3<S>& s_bar) {
  const absolute_detail::EulerAngleFactors<S> f = absolute_detail::euler_angle_factors(e);
  const Vec3<S> v3 = f.a3 * s_bar;
  const Vec3<S> v23 = f.a2 * v3;
  BodyFixedVector<S, 3> v;
  v.s = f.a1 * v23;
  v.s_q[0] = f.a1_d * v23;
  v.s_q[1] = f.a1 * (f.a2_d * v3);
  v.s_q[2] = f.a1 * (f.a2 * (f.a3_d * s_bar));
  return v;
}

// s' = A' s-bar (eq. 28a) and the quadratic part D s-bar of s'' (eq. 28b: the three squared and three cross
// terms).
template <class S>
MYRIAD_HD_INLINE BodyFixedVectorRates<S> attached_vector_rates(const EulerAngles<S>& e,
                                                               const EulerAngles<S>& e_dot,
                                                               const Vec3<S>& s_bar) {
  const absolute_detail::EulerAngleFactors<S> f = absolute_detail::euler_angle_factors(e);
  const S w1 = e_dot.phi, w2 = e_dot.theta, w3 = e_dot.psi;
  const Vec3<S> v3 = f.a3 * s_bar, v3_d = f.a3_d * s_bar, v3_dd = f.a3_dd * s_bar;
  const Vec3<S> v23 = f.a2 * v3, v2d3 = f.a2_d * v3, v2dd3 = f.a2_dd * v3, v23d = f.a2 * v3_d;
  const Vec3<S> v2d3d = f.a2_d * v3_d, v23dd = f.a2 * v3_dd;
  BodyFixedVectorRates<S> r;
  r.s_dot = w1 * (f.a1_d * v23) + f.a1 * (w2 * v2d3 + w3 * v23d);
  r.s_ddot_quadratic = f.a1_dd * ((w1 * w1) * v23) + f.a1_d * ((S(2.0) * w1) * (w2 * v2d3 + w3 * v23d)) +
                       f.a1 * ((w2 * w2) * v2dd3 + (S(2.0) * w2 * w3) * v2d3d + (w3 * w3) * v23dd);
  return r;
}

}  // namespace myriad
