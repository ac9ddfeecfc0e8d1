#pragma once
// The four geometric constraints (GCONs) of seed 002 sec. 2 from which every lower-pair joint is assembled
// (Table 1; absolute/joint_recipes.hpp): DP1, DP2, D and CD, eqs. 1-4 (and one of the project's, the angle about
// a hinge, for drivers that turn fully: below, after CD), with for each
//   Phi    the constraint value;
//   row    its Jacobian blocks with respect to (r_i, orientation_i, r_j, orientation_j): for rA the
//          coefficients of the first-order variation in the body-frame virtual rotations theta-bar (Table 2,
//          eq. 14c); for rp the partials in p (4 columns per body, eq. 20); for re those in epsilon (eq. 26);
//   nu     the velocity right-hand side, f'(t) for every GCON and representation (eqs. 17, 21, 27);
//   gamma  the acceleration right-hand side (eqs. 18, 24, 29);
// so that Phi_q q' = nu and Phi_q q'' = gamma along any motion that keeps Phi = 0, with q' = (r', omega-bar),
// q'' = (r'', omega-bar') for rA, (r', p'), (r'', p'') for rp and (r', epsilon'), (r'', epsilon'') for re.
//
// All four share one form: the representation (absolute/rotation_representation.hpp) supplies, for a
// body-fixed vector, its global image s = A s-bar, the partials of s, its rate s' and the part of s''
// quadratic in the orientation velocity; the chain rule then gives every row, and gamma = f'' - (the part of
// Phi'' quadratic in the velocities). For rA this reproduces Table 2 entry by entry and eq. 18d; for rp eq.
// 24 with B(p, s-bar); for re eq. 29 with D s-bar of eq. 28b. The seed's printed eqs. 18, 29 and Table 2
// carry transcription errors: see the notes at the end of this file.
//
// Body j may be the ground (j = 0 in the seed): pass its fixed pose (r = 0, A = I) and ignore its columns.
// Every function is O(1), allocation- and exception-free, host+device, and templated on the scalar (double,
// Dual).
#include <cmath>

#include "absolute/rotation_representation.hpp"

namespace myriad {

// The driving function of a GCON at the current time, given as numbers: f(t), f'(t), f''(t) (sec. 2; f is
// constant for a scleronomic GCON, then f' = f'' = 0).
template <class S>
struct DrivingValue {
  S f;
  S f_dot;
  S f_ddot;
};

// Position-level state of one body in absolute coordinates: r (origin of the L-RF in the G-RF) and the
// orientation (rA: Mat3 A; rp: EulerParameters p; re: EulerAngles epsilon).
template <class S, class Orientation>
struct AbsolutePose {
  Vec3<S> r;
  Orientation orientation;
};

// Velocity-level state: r' and the orientation velocity (rA: omega-bar, body frame; rp: p'; re: epsilon').
template <class S, class Orientation>
struct AbsoluteVelocity {
  Vec3<S> r_dot;
  typename OrientationTraits<Orientation>::Rate orientation_rate;
};

// One GCON's value and Jacobian row; K orientation coordinates per body (3 for rA and re, 4 for rp).
template <class S, int K>
struct GconRow {
  S phi;                   // Phi (eqs. 1-4)
  Vec3<S> phi_r_i;         // dPhi/dr_i
  S phi_orientation_i[K];  // dPhi/d(orientation_i); rA: the theta-bar_i column of Table 2
  Vec3<S> phi_r_j;         // dPhi/dr_j
  S phi_orientation_j[K];  // dPhi/d(orientation_j)
};

// nu of every GCON in every representation (eqs. 17, 21, 27): Phi = g(q) - f(t) gives Phi_q q' = f'.
template <class S>
MYRIAD_HD_INLINE S gcon_nu(const DrivingValue<S>& f) {
  return f.f_dot;
}

namespace absolute_detail {

template <class S, int K>
MYRIAD_HD_INLINE void dot_columns(const Vec3<S>& w, const BodyFixedVector<S, K>& v, const S& scale, S* out) {
  for (int k = 0; k < K; ++k) out[k] = scale * dot(w, v.s_q[k]);
}

template <class S, int K>
MYRIAD_HD_INLINE void add_dot_columns(const Vec3<S>& w, const BodyFixedVector<S, K>& v, const S& scale,
                                      S* out) {
  for (int k = 0; k < K; ++k) out[k] += scale * dot(w, v.s_q[k]);
}

}  // namespace absolute_detail

// ---- DP1 (eq. 1): Phi = a-bar_i^T A_i^T A_j a-bar_j - f(t) = a_i . a_j - f ----
// Rows: r_i, r_j zero; orientation_i a_j . da_i/dq_i; orientation_j a_i . da_j/dq_j (rA: Table 2 row DP1).
template <class S, class O>
MYRIAD_HD_INLINE GconRow<S, OrientationTraits<O>::kCoordinates> dp1_row(const Vec3<S>& a_bar_i,
                                                                        const AbsolutePose<S, O>& body_i,
                                                                        const Vec3<S>& a_bar_j,
                                                                        const AbsolutePose<S, O>& body_j,
                                                                        const DrivingValue<S>& f) {
  constexpr int K = OrientationTraits<O>::kCoordinates;
  const BodyFixedVector<S, K> a_i = attached_vector(body_i.orientation, a_bar_i);
  const BodyFixedVector<S, K> a_j = attached_vector(body_j.orientation, a_bar_j);
  GconRow<S, K> row;
  row.phi = dot(a_i.s, a_j.s) - f.f;
  row.phi_r_i = Vec3<S>::zero();
  row.phi_r_j = Vec3<S>::zero();
  absolute_detail::dot_columns(a_j.s, a_i, S(1.0), row.phi_orientation_i);
  absolute_detail::dot_columns(a_i.s, a_j, S(1.0), row.phi_orientation_j);
  return row;
}

// gamma = f'' - (a_i''_quad . a_j + 2 a_i' . a_j' + a_i . a_j''_quad) (eqs. 18a, 24a, 29a).
template <class S, class O>
MYRIAD_HD_INLINE S dp1_gamma(const Vec3<S>& a_bar_i, const AbsolutePose<S, O>& body_i,
                             const AbsoluteVelocity<S, O>& velocity_i, const Vec3<S>& a_bar_j,
                             const AbsolutePose<S, O>& body_j, const AbsoluteVelocity<S, O>& velocity_j,
                             const DrivingValue<S>& f) {
  const Vec3<S> a_i = orientation_matrix(body_i.orientation) * a_bar_i;
  const Vec3<S> a_j = orientation_matrix(body_j.orientation) * a_bar_j;
  const BodyFixedVectorRates<S> da_i =
      attached_vector_rates(body_i.orientation, velocity_i.orientation_rate, a_bar_i);
  const BodyFixedVectorRates<S> da_j =
      attached_vector_rates(body_j.orientation, velocity_j.orientation_rate, a_bar_j);
  return f.f_ddot - dot(da_i.s_ddot_quadratic, a_j) - S(2.0) * dot(da_i.s_dot, da_j.s_dot) -
         dot(a_i, da_j.s_ddot_quadratic);
}

// ---- DP2 (eq. 2): Phi = a-bar_i^T A_i^T d_ij - f(t), d_ij = r_j + A_j s-bar_j^Q - r_i - A_i s-bar_i^P ----
// Rows: r_i -a_i; r_j a_i; orientation_i d . da_i/dq_i - a_i . ds_i^P/dq_i; orientation_j a_i . ds_j^Q/dq_j
// (rA: Table 2 row DP2, a-bar_i^T s-bar_i^P~ - d^T A_i a-bar_i~ and -a_i^T A_j s-bar_j^Q~).
template <class S, class O>
MYRIAD_HD_INLINE GconRow<S, OrientationTraits<O>::kCoordinates> dp2_row(
    const Vec3<S>& a_bar_i, const Vec3<S>& s_bar_i_P, const AbsolutePose<S, O>& body_i,
    const Vec3<S>& s_bar_j_Q, const AbsolutePose<S, O>& body_j, const DrivingValue<S>& f) {
  constexpr int K = OrientationTraits<O>::kCoordinates;
  const BodyFixedVector<S, K> a_i = attached_vector(body_i.orientation, a_bar_i);
  const BodyFixedVector<S, K> s_i = attached_vector(body_i.orientation, s_bar_i_P);
  const BodyFixedVector<S, K> s_j = attached_vector(body_j.orientation, s_bar_j_Q);
  const Vec3<S> d = body_j.r + s_j.s - body_i.r - s_i.s;
  GconRow<S, K> row;
  row.phi = dot(a_i.s, d) - f.f;
  row.phi_r_i = -a_i.s;
  row.phi_r_j = a_i.s;
  absolute_detail::dot_columns(d, a_i, S(1.0), row.phi_orientation_i);
  absolute_detail::add_dot_columns(a_i.s, s_i, S(-1.0), row.phi_orientation_i);
  absolute_detail::dot_columns(a_i.s, s_j, S(1.0), row.phi_orientation_j);
  return row;
}

// gamma = f'' - (a_i''_quad . d + 2 a_i' . d' + a_i . (s_j''_quad - s_i''_quad)) (eqs. 18b, 24b, 29b).
template <class S, class O>
MYRIAD_HD_INLINE S dp2_gamma(const Vec3<S>& a_bar_i, const Vec3<S>& s_bar_i_P,
                             const AbsolutePose<S, O>& body_i, const AbsoluteVelocity<S, O>& velocity_i,
                             const Vec3<S>& s_bar_j_Q, const AbsolutePose<S, O>& body_j,
                             const AbsoluteVelocity<S, O>& velocity_j, const DrivingValue<S>& f) {
  const Mat3<S> A_i = orientation_matrix(body_i.orientation);
  const Mat3<S> A_j = orientation_matrix(body_j.orientation);
  const Vec3<S> a_i = A_i * a_bar_i;
  const Vec3<S> d = body_j.r + A_j * s_bar_j_Q - body_i.r - A_i * s_bar_i_P;
  const BodyFixedVectorRates<S> da_i =
      attached_vector_rates(body_i.orientation, velocity_i.orientation_rate, a_bar_i);
  const BodyFixedVectorRates<S> ds_i =
      attached_vector_rates(body_i.orientation, velocity_i.orientation_rate, s_bar_i_P);
  const BodyFixedVectorRates<S> ds_j =
      attached_vector_rates(body_j.orientation, velocity_j.orientation_rate, s_bar_j_Q);
  const Vec3<S> d_dot = velocity_j.r_dot + ds_j.s_dot - velocity_i.r_dot - ds_i.s_dot;
  return f.f_ddot - dot(da_i.s_ddot_quadratic, d) - S(2.0) * dot(da_i.s_dot, d_dot) -
         dot(a_i, ds_j.s_ddot_quadratic - ds_i.s_ddot_quadratic);
}

// ---- D (eq. 3): Phi = d_ij^T d_ij - f(t); f is the squared distance C^2 > 0 ---- Rows: r_i -2d; r_j 2d;
// orientation_i -2 d . ds_i^P/dq_i; orientation_j 2 d . ds_j^Q/dq_j (rA: Table 2 row D).
template <class S, class O>
MYRIAD_HD_INLINE GconRow<S, OrientationTraits<O>::kCoordinates> d_row(const Vec3<S>& s_bar_i_P,
                                                                      const AbsolutePose<S, O>& body_i,
                                                                      const Vec3<S>& s_bar_j_Q,
                                                                      const AbsolutePose<S, O>& body_j,
                                                                      const DrivingValue<S>& f) {
  constexpr int K = OrientationTraits<O>::kCoordinates;
  const BodyFixedVector<S, K> s_i = attached_vector(body_i.orientation, s_bar_i_P);
  const BodyFixedVector<S, K> s_j = attached_vector(body_j.orientation, s_bar_j_Q);
  const Vec3<S> d = body_j.r + s_j.s - body_i.r - s_i.s;
  GconRow<S, K> row;
  row.phi = dot(d, d) - f.f;
  row.phi_r_i = S(-2.0) * d;
  row.phi_r_j = S(2.0) * d;
  absolute_detail::dot_columns(d, s_i, S(-2.0), row.phi_orientation_i);
  absolute_detail::dot_columns(d, s_j, S(2.0), row.phi_orientation_j);
  return row;
}

// gamma = f'' - 2 d' . d' - 2 d . (s_j''_quad - s_i''_quad) (eqs. 18c, 24c, 29c).
template <class S, class O>
MYRIAD_HD_INLINE S d_gamma(const Vec3<S>& s_bar_i_P, const AbsolutePose<S, O>& body_i,
                           const AbsoluteVelocity<S, O>& velocity_i, const Vec3<S>& s_bar_j_Q,
                           const AbsolutePose<S, O>& body_j, const AbsoluteVelocity<S, O>& velocity_j,
                           const DrivingValue<S>& f) {
  const Vec3<S> d = body_j.r + orientation_matrix(body_j.orientation) * s_bar_j_Q - body_i.r -
                    orientation_matrix(body_i.orientation) * s_bar_i_P;
  const BodyFixedVectorRates<S> ds_i =
      attached_vector_rates(body_i.orientation, velocity_i.orientation_rate, s_bar_i_P);
  const BodyFixedVectorRates<S> ds_j =
      attached_vector_rates(body_j.orientation, velocity_j.orientation_rate, s_bar_j_Q);
  const Vec3<S> d_dot = velocity_j.r_dot + ds_j.s_dot - velocity_i.r_dot - ds_i.s_dot;
  return f.f_ddot - S(2.0) * dot(d_dot, d_dot) -
         S(2.0) * dot(d, ds_j.s_ddot_quadratic - ds_i.s_ddot_quadratic);
}

// ---- CD (eq. 4): Phi = c^T d_ij - f(t), c one of the global axes i, j, k (any fixed global vector works)
// ---- Rows: r_i -c; r_j c; orientation_i -c . ds_i^P/dq_i; orientation_j c . ds_j^Q/dq_j (rA: Table 2 row
// CD).
template <class S, class O>
MYRIAD_HD_INLINE GconRow<S, OrientationTraits<O>::kCoordinates> cd_row(
    const Vec3<S>& c, const Vec3<S>& s_bar_i_P, const AbsolutePose<S, O>& body_i, const Vec3<S>& s_bar_j_Q,
    const AbsolutePose<S, O>& body_j, const DrivingValue<S>& f) {
  constexpr int K = OrientationTraits<O>::kCoordinates;
  const BodyFixedVector<S, K> s_i = attached_vector(body_i.orientation, s_bar_i_P);
  const BodyFixedVector<S, K> s_j = attached_vector(body_j.orientation, s_bar_j_Q);
  GconRow<S, K> row;
  row.phi = dot(c, body_j.r + s_j.s - body_i.r - s_i.s) - f.f;
  row.phi_r_i = -c;
  row.phi_r_j = c;
  absolute_detail::dot_columns(c, s_i, S(-1.0), row.phi_orientation_i);
  absolute_detail::dot_columns(c, s_j, S(1.0), row.phi_orientation_j);
  return row;
}

// gamma = f'' - c . (s_j''_quad - s_i''_quad) (eqs. 18d, 24d, 29d).
template <class S, class O>
MYRIAD_HD_INLINE S cd_gamma(const Vec3<S>& c, const Vec3<S>& s_bar_i_P, const AbsolutePose<S, O>& body_i,
                            const AbsoluteVelocity<S, O>& velocity_i, const Vec3<S>& s_bar_j_Q,
                            const AbsolutePose<S, O>& body_j, const AbsoluteVelocity<S, O>& velocity_j,
                            const DrivingValue<S>& f) {
  const BodyFixedVectorRates<S> ds_i =
      attached_vector_rates(body_i.orientation, velocity_i.orientation_rate, s_bar_i_P);
  const BodyFixedVectorRates<S> ds_j =
      attached_vector_rates(body_j.orientation, velocity_j.orientation_rate, s_bar_j_Q);
  return f.f_ddot - dot(c, ds_j.s_ddot_quadratic - ds_i.s_ddot_quadratic);
}

// ---- angle (not one of the seed's four): Phi = wrap(theta - f(t)), theta = atan2(g_i . f_j, f_i . f_j) ----
// theta is the angle from f_i to f_j about h_i when f-bar_i, f-bar_j are perpendicular to the hinge axis h-bar_i
// and g-bar_i = h-bar_i x f-bar_i (a revolute joint's coordinate). A driver on the angle itself: a DP1 driver
// fixes cos(theta), whose row vanishes where theta = 0 or pi (a fully turning crank passes there twice a turn);
// this one's row never does (s^2 + c^2 = |f_i||f_j| on a revolute joint). Built on two DP1s, s = DP1(g_i, f_j)
// and c = DP1(f_i, f_j), with f = 0, whose rows and gammas the representation supplies:
//   row = (c row_s - s row_c) / r^2,  r^2 = s^2 + c^2,
//   theta' = (c s' - s c') / r^2,  s' = row_s q', c' = row_c q',
//   gamma = f'' + (c gamma_s - s gamma_c) / r^2 + 2 theta' (s s' + c c') / r^2,
// the last from theta'' = (c s'' - s c'') / r^2 - 2 theta' (s s' + c c') / r^2 with s'' = row_s q'' - gamma_s.
// wrap() shifts by whole turns (value only), so the GCON holds along a driven angle that grows without bound.
// x shifted by whole turns into [-pi, pi] (the shift read from the value; slope 1 in every derivative).
template <class S>
MYRIAD_HD_INLINE S wrap_to_pi(const S& x) {
  constexpr double kTwoPi = 6.283185307179586;
  return x - S(kTwoPi * std::nearbyint(value_of(x) / kTwoPi));
}

template <class S, class O>
MYRIAD_HD_INLINE GconRow<S, OrientationTraits<O>::kCoordinates> angle_row(
    const Vec3<S>& f_bar_i, const Vec3<S>& g_bar_i, const AbsolutePose<S, O>& body_i, const Vec3<S>& f_bar_j,
    const AbsolutePose<S, O>& body_j, const DrivingValue<S>& f) {
  constexpr int K = OrientationTraits<O>::kCoordinates;
  using std::atan2;
  const DrivingValue<S> none{S(0.0), S(0.0), S(0.0)};
  const GconRow<S, K> c = dp1_row(f_bar_i, body_i, f_bar_j, body_j, none);
  const GconRow<S, K> s = dp1_row(g_bar_i, body_i, f_bar_j, body_j, none);
  const S r2 = s.phi * s.phi + c.phi * c.phi, a = c.phi / r2, b = s.phi / r2;
  GconRow<S, K> row;
  row.phi = wrap_to_pi(atan2(s.phi, c.phi) - f.f);
  row.phi_r_i = Vec3<S>::zero();
  row.phi_r_j = Vec3<S>::zero();
  for (int k = 0; k < K; ++k) {
    row.phi_orientation_i[k] = a * s.phi_orientation_i[k] - b * c.phi_orientation_i[k];
    row.phi_orientation_j[k] = a * s.phi_orientation_j[k] - b * c.phi_orientation_j[k];
  }
  return row;
}

template <class S, class O>
MYRIAD_HD_INLINE S angle_gamma(const Vec3<S>& f_bar_i, const Vec3<S>& g_bar_i, const AbsolutePose<S, O>& body_i,
                               const AbsoluteVelocity<S, O>& velocity_i, const Vec3<S>& f_bar_j,
                               const AbsolutePose<S, O>& body_j, const AbsoluteVelocity<S, O>& velocity_j,
                               const DrivingValue<S>& f) {
  const DrivingValue<S> none{S(0.0), S(0.0), S(0.0)};
  const Mat3<S> A_i = orientation_matrix(body_i.orientation), A_j = orientation_matrix(body_j.orientation);
  const Vec3<S> f_i = A_i * f_bar_i, g_i = A_i * g_bar_i, f_j = A_j * f_bar_j;
  const Vec3<S> f_i_dot = attached_vector_rates(body_i.orientation, velocity_i.orientation_rate, f_bar_i).s_dot;
  const Vec3<S> g_i_dot = attached_vector_rates(body_i.orientation, velocity_i.orientation_rate, g_bar_i).s_dot;
  const Vec3<S> f_j_dot = attached_vector_rates(body_j.orientation, velocity_j.orientation_rate, f_bar_j).s_dot;
  const S c = dot(f_i, f_j), s = dot(g_i, f_j), r2 = s * s + c * c;
  const S c_dot = dot(f_i_dot, f_j) + dot(f_i, f_j_dot), s_dot = dot(g_i_dot, f_j) + dot(g_i, f_j_dot);
  const S gamma_c = dp1_gamma(f_bar_i, body_i, velocity_i, f_bar_j, body_j, velocity_j, none);
  const S gamma_s = dp1_gamma(g_bar_i, body_i, velocity_i, f_bar_j, body_j, velocity_j, none);
  const S theta_dot = (c * s_dot - s * c_dot) / r2;
  return f.f_ddot + (c * gamma_s - s * gamma_c) / r2 + S(2.0) * theta_dot * (s * s_dot + c * c_dot) / r2;
}

// ---- a GCON as data: what joint recipes produce and a model stores ----

enum class GconKind : int { dp1 = 0, dp2 = 1, d = 2, cd = 3, angle = 4 };

// One GCON instance (sec. 2's "attributes" of each GCON). Fields a kind does not use are left zero.
template <class S>
struct Gcon {
  GconKind kind;
  int body_i;  // body index; 0 is the ground (G-RF), as in the seed
  int body_j;
  Vec3<S> a_bar_i;    // DP1, DP2: vector on body i (L-RF_i); angle: f-bar_i
  Vec3<S> a_bar_j;    // DP1: vector on body j (L-RF_j); angle: f-bar_j
  Vec3<S> s_bar_i_P;  // DP2, D, CD: point P on body i (L-RF_i); angle: g-bar_i = h-bar_i x f-bar_i (a direction)
  Vec3<S> s_bar_j_Q;  // DP2, D, CD: point Q on body j (L-RF_j)
  Vec3<S> c;          // CD: the global coordinate axis
  S f_constant;       // f for a scleronomic GCON (0 for perpendicularity, C^2 for D, the offset for CD)
  int driver;  // index of the model's driving function f(t) for a rheonomic GCON; -1 for f = f_constant
};

// The driving value of a GCON: its constant, or drivers[driver] (the model's f, f', f'' at the current time).
template <class S>
MYRIAD_HD_INLINE DrivingValue<S> gcon_driving_value(const Gcon<S>& g, const DrivingValue<S>* drivers) {
  if (g.driver >= 0) return drivers[g.driver];
  return {g.f_constant, S(0.0), S(0.0)};
}

// Row of any GCON by kind. O(1).
template <class S, class O>
MYRIAD_HD_INLINE GconRow<S, OrientationTraits<O>::kCoordinates> gcon_row(const Gcon<S>& g,
                                                                         const AbsolutePose<S, O>& body_i,
                                                                         const AbsolutePose<S, O>& body_j,
                                                                         const DrivingValue<S>& f) {
  switch (g.kind) {
    case GconKind::dp1:
      return dp1_row(g.a_bar_i, body_i, g.a_bar_j, body_j, f);
    case GconKind::dp2:
      return dp2_row(g.a_bar_i, g.s_bar_i_P, body_i, g.s_bar_j_Q, body_j, f);
    case GconKind::d:
      return d_row(g.s_bar_i_P, body_i, g.s_bar_j_Q, body_j, f);
    case GconKind::angle:
      return angle_row(g.a_bar_i, g.s_bar_i_P, body_i, g.a_bar_j, body_j, f);
    case GconKind::cd:
    default:
      return cd_row(g.c, g.s_bar_i_P, body_i, g.s_bar_j_Q, body_j, f);
  }
}

// gamma of any GCON by kind. O(1).
template <class S, class O>
MYRIAD_HD_INLINE S gcon_gamma(const Gcon<S>& g, const AbsolutePose<S, O>& body_i,
                              const AbsoluteVelocity<S, O>& velocity_i, const AbsolutePose<S, O>& body_j,
                              const AbsoluteVelocity<S, O>& velocity_j, const DrivingValue<S>& f) {
  switch (g.kind) {
    case GconKind::dp1:
      return dp1_gamma(g.a_bar_i, body_i, velocity_i, g.a_bar_j, body_j, velocity_j, f);
    case GconKind::dp2:
      return dp2_gamma(g.a_bar_i, g.s_bar_i_P, body_i, velocity_i, g.s_bar_j_Q, body_j, velocity_j, f);
    case GconKind::d:
      return d_gamma(g.s_bar_i_P, body_i, velocity_i, g.s_bar_j_Q, body_j, velocity_j, f);
    case GconKind::angle:
      return angle_gamma(g.a_bar_i, g.s_bar_i_P, body_i, velocity_i, g.a_bar_j, body_j, velocity_j, f);
    case GconKind::cd:
    default:
      return cd_gamma(g.c, g.s_bar_i_P, body_i, velocity_i, g.s_bar_j_Q, body_j, velocity_j, f);
  }
}

// A GCON of another scalar (double model data entering Dual evaluation).
template <class S, class T>
MYRIAD_HD_INLINE Gcon<S> gcon_cast(const Gcon<T>& g) {
  return {g.kind,
          g.body_i,
          g.body_j,
          vec3_cast<S>(g.a_bar_i),
          vec3_cast<S>(g.a_bar_j),
          vec3_cast<S>(g.s_bar_i_P),
          vec3_cast<S>(g.s_bar_j_Q),
          vec3_cast<S>(g.c),
          S(g.f_constant),
          g.driver};
}

}  // namespace myriad

// Notes on seed 002 as printed (each checked by tests/absolute/constraint_primitives_test.cpp, which compares
// these functions with central differences of Phi in the coordinates and in time):
// * Eq. 13a prints Pi-bar(A s-bar) = -A s-bar theta-bar; the tilde is lost: -A s-bar~ theta-bar (as in
//   Table 2).
// * Table 2, DP1: the theta-bar_i entry should read -a-bar_j^T A_j^T A_i a-bar_i~ and the theta-bar_j entry
//   -a-bar_i^T A_i^T A_j a-bar_j~ (printed with a-bar_i and A_j^T A_j); the other rows are right as printed.
// * Eqs. 18 and 29 end in "+ f-dot(t)"; it is f''(t), as eq. 24 prints it (Phi = g(q) - f(t)).
// * Eq. 18 has lost tildes and repeated omega factors; eq. 18d reads c^T (A_i w_i~ w_i~ s-bar_i^P - A_j w_j~
//   w_j~ s-bar_j^Q) + f''.
// * Eq. 29 (re) signs and factors: 29a needs a minus on each of its three velocity terms; 29b's middle term
//   is -2 a-bar_i^T A'_i^T d'_ij (not D_i^T); 29c is -2 d'^T d' - 2 d^T (D_j s-bar_j^Q - D_i s-bar_i^P); 29d
//   is -c^T (D_j s-bar_j^Q - D_i s-bar_i^P) + f'' (the sign of eq. 24d). The printed forms miss Phi'' by
//   O(1).
// * Eq. 23c prints a_i' = B(p_i', a-bar_i) p_i'; it is B(p_i, a-bar_i) p_i'; eq. 23d is a_i'' = B(p_i',
//   a-bar_i) p_i' + B(p_i, a-bar_i) p_i''.
// * Eq. 16 prints omega'' for omega-bar'.
