#pragma once
// 3x3 matrix (row-major) on any scalar type: rotations R_AB and rotational inertias.
#include "spatial/vec3.hpp"

namespace myriad {

template <class S>
struct Mat3 {
  S m[3][3];

  MYRIAD_HD_INLINE static Mat3 identity() {
    return {{{S(1), S(0), S(0)}, {S(0), S(1), S(0)}, {S(0), S(0), S(1)}}};
  }
  MYRIAD_HD_INLINE static Mat3 zero() { return {{{S(0), S(0), S(0)}, {S(0), S(0), S(0)}, {S(0), S(0), S(0)}}}; }
  MYRIAD_HD_INLINE S& operator()(int i, int j) { return m[i][j]; }
  MYRIAD_HD_INLINE const S& operator()(int i, int j) const { return m[i][j]; }
};

// a v; the two may differ in scalar (a constant double matrix against a Dual vector).
template <class T, class S>
MYRIAD_HD_INLINE Vec3<ProductScalar<T, S>> operator*(const Mat3<T>& a, const Vec3<S>& v) {
  return {a.m[0][0] * v.x + a.m[0][1] * v.y + a.m[0][2] * v.z, a.m[1][0] * v.x + a.m[1][1] * v.y + a.m[1][2] * v.z,
          a.m[2][0] * v.x + a.m[2][1] * v.y + a.m[2][2] * v.z};
}

// a^T v without forming the transpose.
template <class S>
MYRIAD_HD_INLINE Vec3<S> transpose_times(const Mat3<S>& a, const Vec3<S>& v) {
  return {a.m[0][0] * v.x + a.m[1][0] * v.y + a.m[2][0] * v.z, a.m[0][1] * v.x + a.m[1][1] * v.y + a.m[2][1] * v.z,
          a.m[0][2] * v.x + a.m[1][2] * v.y + a.m[2][2] * v.z};
}

template <class S>
MYRIAD_HD_INLINE Mat3<S> operator*(const Mat3<S>& a, const Mat3<S>& b) {
  Mat3<S> c;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c.m[i][j] = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j] + a.m[i][2] * b.m[2][j];
  return c;
}

template <class S>
MYRIAD_HD_INLINE Mat3<S> operator+(const Mat3<S>& a, const Mat3<S>& b) {
  Mat3<S> c;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c.m[i][j] = a.m[i][j] + b.m[i][j];
  return c;
}

template <class S>
MYRIAD_HD_INLINE Mat3<S> operator-(const Mat3<S>& a, const Mat3<S>& b) {
  Mat3<S> c;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c.m[i][j] = a.m[i][j] - b.m[i][j];
  return c;
}

template <class S, class T>
MYRIAD_HD_INLINE Mat3<S> operator*(const T& s, const Mat3<S>& a) {
  Mat3<S> c;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c.m[i][j] = s * a.m[i][j];
  return c;
}

template <class S>
MYRIAD_HD_INLINE Mat3<S> transpose(const Mat3<S>& a) {
  Mat3<S> c;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c.m[i][j] = a.m[j][i];
  return c;
}

// Whether a is exactly the constant identity (a Dual entry with derivatives is not constant: a revolute joint's
// rotation at q = 0 is the identity in value only).
template <class S>
MYRIAD_HD_INLINE bool is_identity(const Mat3<S>& a) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (!is_exactly(a.m[i][j], i == j ? 1.0 : 0.0)) return false;
  return true;
}

// Skew-symmetric matrix with skew(a) * b == cross(a, b).
template <class S>
MYRIAD_HD_INLINE Mat3<S> skew(const Vec3<S>& a) {
  return {{{S(0), -a.z, a.y}, {a.z, S(0), -a.x}, {-a.y, a.x, S(0)}}};
}

// Rotation by `angle` about the unit vector `axis` (Rodrigues): the matrix R_AB of frame B turned from A.
template <class S>
MYRIAD_HD_INLINE Mat3<S> rotation_about_axis(const Vec3<S>& axis, const S& angle) {
  const S c = scalar_cos(angle);
  const S s = scalar_sin(angle);
  const S t = S(1) - c;
  const S x = axis.x, y = axis.y, z = axis.z;
  return {{{t * x * x + c, t * x * y - s * z, t * x * z + s * y},
           {t * x * y + s * z, t * y * y + c, t * y * z - s * x},
           {t * x * z - s * y, t * y * z + s * x, t * z * z + c}}};
}

template <class S, class T>
MYRIAD_HD_INLINE Mat3<S> mat3_cast(const Mat3<T>& a) {
  Mat3<S> c;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c.m[i][j] = S(a.m[i][j]);
  return c;
}

}  // namespace myriad
