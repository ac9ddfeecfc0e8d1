#pragma once
// 3-vector on any scalar type; frame is carried by the variable name (p_PoCo_P), not the type.
#include <utility>

#include "core/hd.hpp"
#include "core/scalar.hpp"

namespace myriad {

template <class S>
struct Vec3 {
  S x, y, z;

  MYRIAD_HD_INLINE static Vec3 zero() { return {S(0), S(0), S(0)}; }
  MYRIAD_HD_INLINE S& operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
  MYRIAD_HD_INLINE const S& operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
};

template <class S>
MYRIAD_HD_INLINE Vec3<S> operator+(const Vec3<S>& a, const Vec3<S>& b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
template <class S>
MYRIAD_HD_INLINE Vec3<S> operator-(const Vec3<S>& a, const Vec3<S>& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
template <class S>
MYRIAD_HD_INLINE Vec3<S> operator-(const Vec3<S>& a) {
  return {-a.x, -a.y, -a.z};
}
template <class S, class T>
MYRIAD_HD_INLINE Vec3<S> operator*(const T& s, const Vec3<S>& a) {
  return {s * a.x, s * a.y, s * a.z};
}
template <class S, class T>
MYRIAD_HD_INLINE Vec3<S> operator*(const Vec3<S>& a, const T& s) {
  return {a.x * s, a.y * s, a.z * s};
}
template <class S>
MYRIAD_HD_INLINE Vec3<S>& operator+=(Vec3<S>& a, const Vec3<S>& b) {
  a.x += b.x;
  a.y += b.y;
  a.z += b.z;
  return a;
}
template <class S>
MYRIAD_HD_INLINE Vec3<S>& operator-=(Vec3<S>& a, const Vec3<S>& b) {
  a.x -= b.x;
  a.y -= b.y;
  a.z -= b.z;
  return a;
}
template <class S>
MYRIAD_HD_INLINE S dot(const Vec3<S>& a, const Vec3<S>& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
// The scalar of a product of a T and an S: a double times a Dual is a Dual.
template <class T, class S>
using ProductScalar = decltype(std::declval<T>() * std::declval<S>());

// a x b; the two may differ in scalar (a constant double vector against Dual ones).
template <class T, class S>
MYRIAD_HD_INLINE Vec3<ProductScalar<T, S>> cross(const Vec3<T>& a, const Vec3<S>& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
template <class S>
MYRIAD_HD_INLINE S norm(const Vec3<S>& a) {
  return scalar_sqrt(dot(a, a));
}

// Converts a double vector into another scalar type (constants entering Dual arithmetic).
template <class S, class T>
MYRIAD_HD_INLINE Vec3<S> vec3_cast(const Vec3<T>& a) {
  return {S(a.x), S(a.y), S(a.z)};
}

}  // namespace myriad
