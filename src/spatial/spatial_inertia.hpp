#pragma once
// Spatial inertia as a symmetric 6x6 operator in 3x3 blocks, f = I * m:
//   moment = A * angular + B * linear,   force = B^T * angular + C * linear.
// A rigid body about a frame origin O has A = I_O (rotational inertia about O), B = skew(h), C = m * 1, where
// h = m * c is the first mass moment. Articulated-body inertias keep the same block form (A, C symmetric).
#include "spatial/transform.hpp"

namespace myriad {

template <class S>
struct SpatialInertia {
  Mat3<S> A, B, C;
  MYRIAD_HD_INLINE static SpatialInertia zero() { return {Mat3<S>::zero(), Mat3<S>::zero(), Mat3<S>::zero()}; }
};

// Rigid body of mass m with centre of mass p_BoBcm_B and rotational inertia I_Bcm_B about the centre of mass,
// expressed about the body origin (parallel-axis theorem: I_Bo = I_Bcm - m [c]^2).
template <class S>
MYRIAD_HD_INLINE SpatialInertia<S> rigid_body_inertia(const S& mass, const Vec3<S>& p_BoBcm_B,
                                                       const Mat3<S>& I_Bcm_B) {
  const Mat3<S> c_skew = skew(p_BoBcm_B);
  return {I_Bcm_B - mass * (c_skew * c_skew), mass * c_skew, mass * Mat3<S>::identity()};
}

template <class S>
MYRIAD_HD_INLINE Force<S> operator*(const SpatialInertia<S>& I, const Motion<S>& m) {
  return {I.A * m.angular + I.B * m.linear, transpose_times(I.B, m.angular) + I.C * m.linear};
}

template <class S>
MYRIAD_HD_INLINE SpatialInertia<S> operator+(const SpatialInertia<S>& a, const SpatialInertia<S>& b) {
  return {a.A + b.A, a.B + b.B, a.C + b.C};
}

template <class S>
MYRIAD_HD_INLINE SpatialInertia<S>& operator+=(SpatialInertia<S>& a, const SpatialInertia<S>& b) {
  a = a + b;
  return a;
}

// I_A = X_AB^* I_B X_BA: an inertia given in B coordinates, expressed in A coordinates. O(1), about 150 flops.
template <class S>
MYRIAD_HD_INLINE SpatialInertia<S> inertia_to_a(const Transform<S>& X_AB, const SpatialInertia<S>& I_B) {
  const Mat3<S>& R = X_AB.R;
  const Mat3<S> Rt = transpose(R);
  const Mat3<S> A = R * I_B.A * Rt;
  const Mat3<S> B = R * I_B.B * Rt;
  const Mat3<S> C = R * I_B.C * Rt;
  const Mat3<S> E = skew(X_AB.p);
  const Mat3<S> BE = B * E;
  const Mat3<S> EC = E * C;
  return {A - BE - transpose(BE) - EC * E, B + EC, C};
}

// Outer-product update I += s * (f1 (x) f2) in the operator sense: m -> s * f1 * (f2 . m). Used by the
// articulated-body recursion to remove the joint's own directions (I - U D^-1 U^T).
template <class S>
MYRIAD_HD_INLINE void add_force_outer(SpatialInertia<S>& I, const S& s, const Force<S>& f1, const Force<S>& f2) {
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      I.A.m[i][j] += s * f1.moment[i] * f2.moment[j];
      I.B.m[i][j] += s * f1.moment[i] * f2.force[j];
      I.C.m[i][j] += s * f1.force[i] * f2.force[j];
    }
  }
}

}  // namespace myriad
