#pragma once
// Spatial inertia of a rigid body (or of a composite of rigid bodies welded together) in its ten-number form:
// mass m, first mass moment h = m c and rotational inertia I about the frame origin. It is the SpatialInertia
// with A = I, B = skew(h), C = m 1 (spatial_inertia.hpp), but its change of frame needs R h and one symmetric
// R I R^T instead of three general 3 x 3 similarity products: the composite-rigid-body algorithm's inertias
// stay in this form (a sum of rigid inertias is one), the articulated-body algorithm's do not.
#include "spatial/spatial_inertia.hpp"

namespace myriad {

template <class S>
struct RigidInertia {
  S mass;
  Vec3<S> h;  // first mass moment m c about the frame origin
  Mat3<S> I;  // rotational inertia about the frame origin (symmetric; both triangles kept)
};

// A body of mass m, centre of mass c and rotational inertia I_cm about the centre of mass, about the frame
// origin (parallel-axis theorem: I = I_cm - m [c]x^2 = I_cm + m ((c . c) 1 - c c^T)). O(1).
template <class S>
MYRIAD_HD_INLINE RigidInertia<S> rigid_inertia(const S& mass, const Vec3<S>& c, const Mat3<S>& I_cm) {
  RigidInertia<S> Y{mass, mass * c, I_cm};
  const S cc = dot(c, c);
  for (int i = 0; i < 3; ++i) {
    for (int j = i; j < 3; ++j) {
      const S shift = mass * ((i == j ? cc : S(0)) - c[i] * c[j]);
      Y.I.m[i][j] += shift;
      if (j != i) Y.I.m[j][i] = Y.I.m[i][j];
    }
  }
  return Y;
}

// Y_A from Y_B for the transform X_AB (B's axes and origin in A): h_A = R h + m p and
//   I_A = R I R^T - [R h]x [p]x - [p]x [R h]x - m [p]x^2
//       = R I R^T - p a^T - a p^T - m p p^T + (2 a . p + m p . p) 1,   a = R h,
// the rigid-body case of inertia_to_a (same operator, about 60 multiplications instead of about 150). O(1).
template <class S>
MYRIAD_HD_INLINE RigidInertia<S> rigid_inertia_to_a(const Transform<S>& X_AB, const RigidInertia<S>& Y_B) {
  const Mat3<S>& R = X_AB.R;
  const Vec3<S>& p = X_AB.p;
  const Vec3<S> a = R * Y_B.h;
  const Mat3<S> RI = R * Y_B.I;
  const S diagonal = S(2) * dot(a, p) + Y_B.mass * dot(p, p);
  RigidInertia<S> Y{Y_B.mass, a + Y_B.mass * p, Mat3<S>::zero()};
  for (int i = 0; i < 3; ++i) {
    for (int j = i; j < 3; ++j) {
      S value = RI.m[i][0] * R.m[j][0] + RI.m[i][1] * R.m[j][1] + RI.m[i][2] * R.m[j][2];
      value -= p[i] * a[j] + a[i] * p[j] + Y_B.mass * p[i] * p[j];
      if (i == j) value += diagonal;
      Y.I.m[i][j] = value;
      Y.I.m[j][i] = value;
    }
  }
  return Y;
}

// f = Y m: moment I omega + h x v, force m v - h x omega (SpatialInertia's product with B = skew(h)). The
// inertia may be of another scalar than the motion: the Jacobians' Newton-Euler passes keep a body's constant
// inertia in doubles against Dual motions (a double times a Dual is a third of a Dual product). O(1).
template <class T, class S>
MYRIAD_HD_INLINE Force<S> operator*(const RigidInertia<T>& Y, const Motion<S>& m) {
  return {Y.I * m.angular + cross(Y.h, m.linear), Y.mass * m.linear - cross(Y.h, m.angular)};
}

template <class S>
MYRIAD_HD_INLINE RigidInertia<S>& operator+=(RigidInertia<S>& a, const RigidInertia<S>& b) {
  a.mass += b.mass;
  a.h += b.h;
  a.I = a.I + b.I;
  return a;
}

// The same inertia as a general SpatialInertia (A = I, B = skew(h), C = m 1).
template <class S>
MYRIAD_HD_INLINE SpatialInertia<S> spatial_inertia(const RigidInertia<S>& Y) {
  return {Y.I, skew(Y.h), Y.mass * Mat3<S>::identity()};
}

}  // namespace myriad
