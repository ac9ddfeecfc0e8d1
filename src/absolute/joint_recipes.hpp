#pragma once
// Lower-pair joints as lists of GCONs (seed 002 Table 1), so that a model in absolute coordinates is data:
// each joint becomes the DP1 / DP2 / D / CD instances below, and count_gcons tells which primitives a model
// produced.
//
// Table 1 (columns DP1, DP2, D, CD):
//   perpendicular 1 (_|_1)  2 DP1: a vector c_j on body j perpendicular to the plane of a_i, b_i on body i
//   perpendicular 2 (_|_2)  2 DP2: the vector P_i -> Q_j perpendicular to the plane of a_i, b_i on body i
//   spherical      SJ  3 CD: P_i and Q_j coincide coordinate by coordinate
//   universal      UJ  SJ + 1 DP1: the two cross-pin axes a_i, a_j stay perpendicular
//   cylindrical    CJ  _|_1 + _|_2
//   revolute       RJ  _|_1 + SJ
//   translational  TJ  1 DP1 + _|_1 + _|_2: the extra DP1 stops the rotation about the sliding axis
// plus the distance constraint, the D GCON on its own (sec. 2; the slider crank of Table 7 uses one), and
// drivers: any GCON whose f depends on time (the seed's mechanisms are driven by a rheonomic DP1, sec. 4.2).
// Table 1 as printed puts SJ's three marks in the D column; the UJ and RJ rows ([x x x]_SJ under CD) and
// Table 7 (single pendulum = revolute + driver = 3 CD, 3 DP1) place them under CD.
//
// Seed 002 Table 7, GCONs per mechanism (CD, DP1, DP2, D):
//   single pendulum  3, 3, 0, 0   (a revolute joint to ground + the driving DP1)
//   four link       12, 6, 0, 0
//   slider crank     6, 7, 4, 1
// (the four-link and slider-crank joint lists are Haug 1989 ch. 10's and are not printed in the seed).
//
// Builders are O(1) and host+device; they store the vectors as given (body-fixed, L-RF of their body) and do
// not check that the vectors are perpendicular or non-collinear.
#include "absolute/constraint_primitives.hpp"

namespace myriad {

enum class JointKind : int {
  perpendicular_1 = 0,
  perpendicular_2 = 1,
  spherical = 2,
  universal = 3,
  cylindrical = 4,
  revolute = 5,
  translational = 6,
  distance = 7,
};

// How many GCONs of each kind.
struct GconCounts {
  int dp1;
  int dp2;
  int d;
  int cd;
  int angle = 0;  // angle drivers (not among the seed's four GCONs)
  MYRIAD_HD_INLINE constexpr int total() const { return dp1 + dp2 + d + cd + angle; }
};

MYRIAD_HD_INLINE constexpr bool operator==(const GconCounts& a, const GconCounts& b) {
  return a.dp1 == b.dp1 && a.dp2 == b.dp2 && a.d == b.d && a.cd == b.cd && a.angle == b.angle;
}

// Table 1 as numbers: the GCONs each joint kind is made of.
MYRIAD_HD_INLINE constexpr GconCounts joint_gcon_counts(JointKind kind) {
  switch (kind) {
    case JointKind::perpendicular_1:
      return {2, 0, 0, 0};
    case JointKind::perpendicular_2:
      return {0, 2, 0, 0};
    case JointKind::spherical:
      return {0, 0, 0, 3};
    case JointKind::universal:
      return {1, 0, 0, 3};
    case JointKind::cylindrical:
      return {2, 2, 0, 0};
    case JointKind::revolute:
      return {2, 0, 0, 3};
    case JointKind::translational:
      return {3, 2, 0, 0};
    case JointKind::distance:
    default:
      return {0, 0, 1, 0};
  }
}

// Counts the GCONs of a list by kind (for `myriad info`). O(n).
template <class S>
MYRIAD_HD_INLINE GconCounts count_gcons(const Gcon<S>* gcons, int n) {
  GconCounts c{0, 0, 0, 0, 0};
  for (int k = 0; k < n; ++k) {
    switch (gcons[k].kind) {
      case GconKind::dp1:
        ++c.dp1;
        break;
      case GconKind::dp2:
        ++c.dp2;
        break;
      case GconKind::d:
        ++c.d;
        break;
      case GconKind::cd:
        ++c.cd;
        break;
      case GconKind::angle:
        ++c.angle;
        break;
    }
  }
  return c;
}

// The GCONs of one joint: at most 6 (a weld, SJ + 3 DP1, absolute/model_mapping.cpp; Table 1's joints: 5).
constexpr int kMaxGconsPerJoint = 6;

template <class S>
struct JointGcons {
  JointKind kind;
  int count;  // gcons[0 .. count)
  Gcon<S> gcons[kMaxGconsPerJoint];
};

template <class S>
MYRIAD_HD_INLINE GconCounts count_gcons(const JointGcons<S>& joint) {
  return count_gcons(joint.gcons, joint.count);
}

// ---- single GCONs (scleronomic: f constant, no driver) ----

template <class S>
MYRIAD_HD_INLINE Gcon<S> make_gcon(GconKind kind, int body_i, int body_j) {
  const Vec3<S> zero = Vec3<S>::zero();
  return {kind, body_i, body_j, zero, zero, zero, zero, zero, S(0.0), -1};
}

// DP1: a-bar_i . a-bar_j (in the G-RF) = f.
template <class S>
MYRIAD_HD_INLINE Gcon<S> make_dp1(int body_i, const Vec3<S>& a_bar_i, int body_j, const Vec3<S>& a_bar_j,
                                  const S& f_constant) {
  Gcon<S> g = make_gcon<S>(GconKind::dp1, body_i, body_j);
  g.a_bar_i = a_bar_i;
  g.a_bar_j = a_bar_j;
  g.f_constant = f_constant;
  return g;
}

// The angle from f-bar_i (on i) to f-bar_j (on j) about h-bar_i (on i) = f (constraint_primitives.hpp's angle
// GCON; f-bar_i, f-bar_j perpendicular to h-bar_i). Mostly driven: driven(make_angle(...), driver).
template <class S>
MYRIAD_HD_INLINE Gcon<S> make_angle(int body_i, const Vec3<S>& h_bar_i, const Vec3<S>& f_bar_i, int body_j,
                                    const Vec3<S>& f_bar_j, const S& f_constant) {
  Gcon<S> g = make_dp1(body_i, f_bar_i, body_j, f_bar_j, f_constant);  // f-bar_i, f-bar_j as a DP1 keeps them
  g.kind = GconKind::angle;
  g.s_bar_i_P = cross(h_bar_i, f_bar_i);
  return g;
}

// DP2: a_i . (Q_j - P_i) = f.
template <class S>
MYRIAD_HD_INLINE Gcon<S> make_dp2(int body_i, const Vec3<S>& a_bar_i, const Vec3<S>& s_bar_i_P, int body_j,
                                  const Vec3<S>& s_bar_j_Q, const S& f_constant) {
  Gcon<S> g = make_gcon<S>(GconKind::dp2, body_i, body_j);
  g.a_bar_i = a_bar_i;
  g.s_bar_i_P = s_bar_i_P;
  g.s_bar_j_Q = s_bar_j_Q;
  g.f_constant = f_constant;
  return g;
}

// D: |Q_j - P_i|^2 = f (f is the squared distance, eq. 3).
template <class S>
MYRIAD_HD_INLINE Gcon<S> make_d(int body_i, const Vec3<S>& s_bar_i_P, int body_j, const Vec3<S>& s_bar_j_Q,
                                const S& f_constant) {
  Gcon<S> g = make_gcon<S>(GconKind::d, body_i, body_j);
  g.s_bar_i_P = s_bar_i_P;
  g.s_bar_j_Q = s_bar_j_Q;
  g.f_constant = f_constant;
  return g;
}

// CD: axis . (Q_j - P_i) = f, axis 0, 1, 2 for the global i, j, k.
template <class S>
MYRIAD_HD_INLINE Gcon<S> make_cd(int axis, int body_i, const Vec3<S>& s_bar_i_P, int body_j,
                                 const Vec3<S>& s_bar_j_Q, const S& f_constant) {
  Gcon<S> g = make_gcon<S>(GconKind::cd, body_i, body_j);
  g.c[axis] = S(1.0);
  g.s_bar_i_P = s_bar_i_P;
  g.s_bar_j_Q = s_bar_j_Q;
  g.f_constant = f_constant;
  return g;
}

// Makes a GCON rheonomic: f(t) is the model's driving function `driver` (sec. 2; the seed's single pendulum
// is driven by a DP1 whose f is the cosine of the prescribed angle, since DP1 of unit vectors is that
// cosine).
template <class S>
MYRIAD_HD_INLINE Gcon<S> driven(Gcon<S> g, int driver) {
  g.driver = driver;
  return g;
}

// ---- joints (Table 1) ----

namespace absolute_detail {
template <class S>
MYRIAD_HD_INLINE void append(JointGcons<S>& joint, const Gcon<S>& g) {
  joint.gcons[joint.count++] = g;
}
template <class S>
MYRIAD_HD_INLINE JointGcons<S> empty_joint(JointKind kind) {
  JointGcons<S> joint{};
  joint.kind = kind;
  joint.count = 0;
  return joint;
}
template <class S>
MYRIAD_HD_INLINE void append_perpendicular_1(JointGcons<S>& joint, int body_i, const Vec3<S>& a_bar_i,
                                             const Vec3<S>& b_bar_i, int body_j, const Vec3<S>& c_bar_j) {
  append(joint, make_dp1(body_i, a_bar_i, body_j, c_bar_j, S(0.0)));
  append(joint, make_dp1(body_i, b_bar_i, body_j, c_bar_j, S(0.0)));
}
template <class S>
MYRIAD_HD_INLINE void append_perpendicular_2(JointGcons<S>& joint, int body_i, const Vec3<S>& a_bar_i,
                                             const Vec3<S>& b_bar_i, const Vec3<S>& s_bar_i_P, int body_j,
                                             const Vec3<S>& s_bar_j_Q) {
  append(joint, make_dp2(body_i, a_bar_i, s_bar_i_P, body_j, s_bar_j_Q, S(0.0)));
  append(joint, make_dp2(body_i, b_bar_i, s_bar_i_P, body_j, s_bar_j_Q, S(0.0)));
}
template <class S>
MYRIAD_HD_INLINE void append_spherical(JointGcons<S>& joint, int body_i, const Vec3<S>& s_bar_i_P, int body_j,
                                       const Vec3<S>& s_bar_j_Q) {
  for (int axis = 0; axis < 3; ++axis)
    append(joint, make_cd(axis, body_i, s_bar_i_P, body_j, s_bar_j_Q, S(0.0)));
}
}  // namespace absolute_detail

// _|_1: c_j perpendicular to a_i and to b_i (2 DP1).
template <class S>
MYRIAD_HD_INLINE JointGcons<S> perpendicular_1(int body_i, const Vec3<S>& a_bar_i, const Vec3<S>& b_bar_i,
                                               int body_j, const Vec3<S>& c_bar_j) {
  JointGcons<S> joint = absolute_detail::empty_joint<S>(JointKind::perpendicular_1);
  absolute_detail::append_perpendicular_1(joint, body_i, a_bar_i, b_bar_i, body_j, c_bar_j);
  return joint;
}

// _|_2: P_i -> Q_j perpendicular to a_i and to b_i (2 DP2).
template <class S>
MYRIAD_HD_INLINE JointGcons<S> perpendicular_2(int body_i, const Vec3<S>& a_bar_i, const Vec3<S>& b_bar_i,
                                               const Vec3<S>& s_bar_i_P, int body_j,
                                               const Vec3<S>& s_bar_j_Q) {
  JointGcons<S> joint = absolute_detail::empty_joint<S>(JointKind::perpendicular_2);
  absolute_detail::append_perpendicular_2(joint, body_i, a_bar_i, b_bar_i, s_bar_i_P, body_j, s_bar_j_Q);
  return joint;
}

// Spherical: P_i = Q_j (3 CD).
template <class S>
MYRIAD_HD_INLINE JointGcons<S> spherical_joint(int body_i, const Vec3<S>& s_bar_i_P, int body_j,
                                               const Vec3<S>& s_bar_j_Q) {
  JointGcons<S> joint = absolute_detail::empty_joint<S>(JointKind::spherical);
  absolute_detail::append_spherical(joint, body_i, s_bar_i_P, body_j, s_bar_j_Q);
  return joint;
}

// Universal: P_i = Q_j and the cross-pin axes a_i, a_j perpendicular (3 CD + 1 DP1).
template <class S>
MYRIAD_HD_INLINE JointGcons<S> universal_joint(int body_i, const Vec3<S>& s_bar_i_P, const Vec3<S>& a_bar_i,
                                               int body_j, const Vec3<S>& s_bar_j_Q, const Vec3<S>& a_bar_j) {
  JointGcons<S> joint = absolute_detail::empty_joint<S>(JointKind::universal);
  absolute_detail::append_spherical(joint, body_i, s_bar_i_P, body_j, s_bar_j_Q);
  absolute_detail::append(joint, make_dp1(body_i, a_bar_i, body_j, a_bar_j, S(0.0)));
  return joint;
}

// Revolute: P_i = Q_j and the axis c_j perpendicular to a_i and b_i, which span the plane normal to the axis
// on body i (_|_1 + SJ: 2 DP1 + 3 CD).
template <class S>
MYRIAD_HD_INLINE JointGcons<S> revolute_joint(int body_i, const Vec3<S>& s_bar_i_P, const Vec3<S>& a_bar_i,
                                              const Vec3<S>& b_bar_i, int body_j, const Vec3<S>& s_bar_j_Q,
                                              const Vec3<S>& c_bar_j) {
  JointGcons<S> joint = absolute_detail::empty_joint<S>(JointKind::revolute);
  absolute_detail::append_perpendicular_1(joint, body_i, a_bar_i, b_bar_i, body_j, c_bar_j);
  absolute_detail::append_spherical(joint, body_i, s_bar_i_P, body_j, s_bar_j_Q);
  return joint;
}

// Cylindrical: the axis c_j perpendicular to a_i, b_i, and P_i -> Q_j too (P_i, Q_j on the axis): _|_1 +
// _|_2.
template <class S>
MYRIAD_HD_INLINE JointGcons<S> cylindrical_joint(int body_i, const Vec3<S>& s_bar_i_P, const Vec3<S>& a_bar_i,
                                                 const Vec3<S>& b_bar_i, int body_j, const Vec3<S>& s_bar_j_Q,
                                                 const Vec3<S>& c_bar_j) {
  JointGcons<S> joint = absolute_detail::empty_joint<S>(JointKind::cylindrical);
  absolute_detail::append_perpendicular_1(joint, body_i, a_bar_i, b_bar_i, body_j, c_bar_j);
  absolute_detail::append_perpendicular_2(joint, body_i, a_bar_i, b_bar_i, s_bar_i_P, body_j, s_bar_j_Q);
  return joint;
}

// Translational: a cylindrical joint plus DP1(a_i, d_j) = 0 with d_j on body j perpendicular to the axis,
// which stops the relative rotation about it (1 DP1 + _|_1 + _|_2).
template <class S>
MYRIAD_HD_INLINE JointGcons<S> translational_joint(int body_i, const Vec3<S>& s_bar_i_P,
                                                   const Vec3<S>& a_bar_i, const Vec3<S>& b_bar_i, int body_j,
                                                   const Vec3<S>& s_bar_j_Q, const Vec3<S>& c_bar_j,
                                                   const Vec3<S>& d_bar_j) {
  JointGcons<S> joint = absolute_detail::empty_joint<S>(JointKind::translational);
  absolute_detail::append(joint, make_dp1(body_i, a_bar_i, body_j, d_bar_j, S(0.0)));
  absolute_detail::append_perpendicular_1(joint, body_i, a_bar_i, b_bar_i, body_j, c_bar_j);
  absolute_detail::append_perpendicular_2(joint, body_i, a_bar_i, b_bar_i, s_bar_i_P, body_j, s_bar_j_Q);
  return joint;
}

// Distance: |Q_j - P_i| = length (one D with f = length^2).
template <class S>
MYRIAD_HD_INLINE JointGcons<S> distance_joint(int body_i, const Vec3<S>& s_bar_i_P, int body_j,
                                              const Vec3<S>& s_bar_j_Q, const S& length) {
  JointGcons<S> joint = absolute_detail::empty_joint<S>(JointKind::distance);
  absolute_detail::append(joint, make_d(body_i, s_bar_i_P, body_j, s_bar_j_Q, length * length));
  return joint;
}

}  // namespace myriad
