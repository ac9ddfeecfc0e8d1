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

// R M R^T for a symmetric M: the upper triangle computed, the lower mirrored (exactly symmetric). 45
// multiplies.
template <class S>
MYRIAD_HD_INLINE Mat3<S> rotate_symmetric(const Mat3<S>& R, const Mat3<S>& M) {
  const Mat3<S> RM = R * M;
  Mat3<S> out;
  for (int i = 0; i < 3; ++i)
    for (int j = i; j < 3; ++j) {
      out.m[i][j] = RM.m[i][0] * R.m[j][0] + RM.m[i][1] * R.m[j][1] + RM.m[i][2] * R.m[j][2];
      out.m[j][i] = out.m[i][j];
    }
  return out;
}

// I_A = X_AB^* I_B X_BA: an inertia given in B coordinates, expressed in A coordinates. With the blocks
// rotated (A' = R A R^T, B' = R B R^T, C' = R C R^T) and E = skew(p): A = A' - B'E - (B'E)^T - E C' E, B = B'
// + E C', C = C'. E M is p x each column of M and M E each row of M x p, so no product with E is a full 3 x 3
// one, and the symmetric blocks are rotated by their upper triangles: about 190 multiplies. O(1). A call on
// the host (core/hd.hpp): inlined into the articulated-body backward pass, GCC made that pass slower.
template <class S>
MYRIAD_HD_HOST_OUTLINE SpatialInertia<S> inertia_to_a(const Transform<S>& X_AB,
                                                      const SpatialInertia<S>& I_B) {
  const Mat3<S>& R = X_AB.R;
  const Vec3<S>& p = X_AB.p;
  // A pure translation (prismatic joints and unrotated frames: R is exactly the identity) skips the rotations,
  // which would return the blocks unchanged bit for bit.
  const bool rotated = !is_identity(R);
  const Mat3<S> A = rotated ? rotate_symmetric(R, I_B.A) : I_B.A;
  const Mat3<S> B = rotated ? R * I_B.B * transpose(R) : I_B.B;
  const Mat3<S> C = rotated ? rotate_symmetric(R, I_B.C) : I_B.C;
  SpatialInertia<S> out{Mat3<S>::zero(), B, C};
  Mat3<S> EC, BE;  // E C' by columns, B'E by rows
  for (int j = 0; j < 3; ++j) {
    const Vec3<S> column = cross(p, Vec3<S>{C.m[0][j], C.m[1][j], C.m[2][j]});
    EC.m[0][j] = column.x;
    EC.m[1][j] = column.y;
    EC.m[2][j] = column.z;
  }
  for (int i = 0; i < 3; ++i) {
    const Vec3<S> row = cross(Vec3<S>{B.m[i][0], B.m[i][1], B.m[i][2]}, p);
    BE.m[i][0] = row.x;
    BE.m[i][1] = row.y;
    BE.m[i][2] = row.z;
    const Vec3<S> ECE = cross(Vec3<S>{EC.m[i][0], EC.m[i][1], EC.m[i][2]}, p);  // row i of E C' E
    for (int j = i; j < 3; ++j) out.A.m[i][j] = A.m[i][j] - ECE[j];
  }
  for (int i = 0; i < 3; ++i)
    for (int j = i; j < 3; ++j) {
      out.A.m[i][j] -= BE.m[i][j] + BE.m[j][i];
      out.A.m[j][i] = out.A.m[i][j];
    }
  out.B = B + EC;
  return out;
}

// Outer-product update I += s * (f1 (x) f2) in the operator sense: m -> s * f1 * (f2 . m). Used by the
// articulated-body recursion to remove the joint's own directions (I - U D^-1 U^T).
template <class S>
MYRIAD_HD_INLINE void add_force_outer(SpatialInertia<S>& I, const S& s, const Force<S>& f1,
                                      const Force<S>& f2) {
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      I.A.m[i][j] += s * f1.moment[i] * f2.moment[j];
      I.B.m[i][j] += s * f1.moment[i] * f2.force[j];
      I.C.m[i][j] += s * f1.force[i] * f2.force[j];
    }
  }
}

}  // namespace myriad
