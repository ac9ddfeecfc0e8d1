#pragma once
// Spatial (6D) motion and force vectors in Plucker coordinates (Featherstone): a motion vector is
// (angular velocity, velocity of the point at the frame origin); a force vector is (moment about the origin, force).
#include "spatial/vec3.hpp"

namespace myriad {

template <class S>
struct Motion {
  Vec3<S> angular, linear;
  MYRIAD_HD_INLINE static Motion zero() { return {Vec3<S>::zero(), Vec3<S>::zero()}; }
};

template <class S>
struct Force {
  Vec3<S> moment, force;
  MYRIAD_HD_INLINE static Force zero() { return {Vec3<S>::zero(), Vec3<S>::zero()}; }
};

template <class S>
MYRIAD_HD_INLINE Motion<S> operator+(const Motion<S>& a, const Motion<S>& b) {
  return {a.angular + b.angular, a.linear + b.linear};
}
template <class S>
MYRIAD_HD_INLINE Motion<S> operator-(const Motion<S>& a, const Motion<S>& b) {
  return {a.angular - b.angular, a.linear - b.linear};
}
template <class S, class T>
MYRIAD_HD_INLINE Motion<S> operator*(const T& s, const Motion<S>& a) {
  return {s * a.angular, s * a.linear};
}
template <class S>
MYRIAD_HD_INLINE Motion<S>& operator+=(Motion<S>& a, const Motion<S>& b) {
  a.angular += b.angular;
  a.linear += b.linear;
  return a;
}
template <class S>
MYRIAD_HD_INLINE Force<S> operator+(const Force<S>& a, const Force<S>& b) {
  return {a.moment + b.moment, a.force + b.force};
}
template <class S>
MYRIAD_HD_INLINE Force<S> operator-(const Force<S>& a, const Force<S>& b) {
  return {a.moment - b.moment, a.force - b.force};
}
template <class S, class T>
MYRIAD_HD_INLINE Force<S> operator*(const T& s, const Force<S>& a) {
  return {s * a.moment, s * a.force};
}
template <class S>
MYRIAD_HD_INLINE Force<S>& operator+=(Force<S>& a, const Force<S>& b) {
  a.moment += b.moment;
  a.force += b.force;
  return a;
}
template <class S>
MYRIAD_HD_INLINE Force<S>& operator-=(Force<S>& a, const Force<S>& b) {
  a.moment -= b.moment;
  a.force -= b.force;
  return a;
}

// Power of a force on a motion: m . f.
template <class S>
MYRIAD_HD_INLINE S dot(const Motion<S>& m, const Force<S>& f) {
  return dot(m.angular, f.moment) + dot(m.linear, f.force);
}

// Motion cross product v x m (crm): rate of change of m carried by a frame moving with v.
template <class S>
MYRIAD_HD_INLINE Motion<S> cross_motion(const Motion<S>& v, const Motion<S>& m) {
  return {cross(v.angular, m.angular), cross(v.angular, m.linear) + cross(v.linear, m.angular)};
}

// Force cross product v x* f (crf).
template <class S>
MYRIAD_HD_INLINE Force<S> cross_force(const Motion<S>& v, const Force<S>& f) {
  return {cross(v.angular, f.moment) + cross(v.linear, f.force), cross(v.angular, f.force)};
}

}  // namespace myriad
