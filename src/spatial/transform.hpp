#pragma once
// Rigid transform X_AB: rotation R_AB (B's axes expressed in A) and p_AoBo_A (B's origin from A's origin, in A).
// Named functions say the direction a spatial vector moves: from B coordinates to A (`to_a`) or back (`to_b`).
#include "spatial/mat3.hpp"
#include "spatial/spatial_vector.hpp"

namespace myriad {

template <class S>
struct Transform {
  Mat3<S> R;
  Vec3<S> p;
  MYRIAD_HD_INLINE static Transform identity() { return {Mat3<S>::identity(), Vec3<S>::zero()}; }
};

// X_AC = X_AB * X_BC.
template <class S>
MYRIAD_HD_INLINE Transform<S> operator*(const Transform<S>& X_AB, const Transform<S>& X_BC) {
  return {X_AB.R * X_BC.R, X_AB.p + X_AB.R * X_BC.p};
}

template <class S>
MYRIAD_HD_INLINE Transform<S> inverse(const Transform<S>& X_AB) {
  const Mat3<S> R_BA = transpose(X_AB.R);
  return {R_BA, -(R_BA * X_AB.p)};
}

// Position of a point given in B, expressed in A.
template <class S>
MYRIAD_HD_INLINE Vec3<S> transform_point(const Transform<S>& X_AB, const Vec3<S>& p_BoQ_B) {
  return X_AB.p + X_AB.R * p_BoQ_B;
}

// Motion vector from B coordinates to A coordinates.
template <class S>
MYRIAD_HD_INLINE Motion<S> motion_to_a(const Transform<S>& X_AB, const Motion<S>& m_B) {
  const Vec3<S> w_A = X_AB.R * m_B.angular;
  return {w_A, X_AB.R * m_B.linear + cross(X_AB.p, w_A)};
}

// Motion vector from A coordinates to B coordinates.
template <class S>
MYRIAD_HD_INLINE Motion<S> motion_to_b(const Transform<S>& X_AB, const Motion<S>& m_A) {
  return {transpose_times(X_AB.R, m_A.angular), transpose_times(X_AB.R, m_A.linear - cross(X_AB.p, m_A.angular))};
}

// Force vector from B coordinates to A coordinates.
template <class S>
MYRIAD_HD_INLINE Force<S> force_to_a(const Transform<S>& X_AB, const Force<S>& f_B) {
  const Vec3<S> f_A = X_AB.R * f_B.force;
  return {X_AB.R * f_B.moment + cross(X_AB.p, f_A), f_A};
}

// Force vector from A coordinates to B coordinates.
template <class S>
MYRIAD_HD_INLINE Force<S> force_to_b(const Transform<S>& X_AB, const Force<S>& f_A) {
  return {transpose_times(X_AB.R, f_A.moment - cross(X_AB.p, f_A.force)), transpose_times(X_AB.R, f_A.force)};
}

template <class S, class T>
MYRIAD_HD_INLINE Transform<S> transform_cast(const Transform<T>& X) {
  return {mat3_cast<S>(X.R), vec3_cast<S>(X.p)};
}

}  // namespace myriad
