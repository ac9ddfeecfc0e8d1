#pragma once
// Per-joint kinematics in the joint's own frames (docs/model-format.md, "Joints"): the transform X_FM(q) of the
// child joint frame M in the parent joint frame F, the motion subspace S (columns in M coordinates, so the joint
// velocity is S * v) and the velocity-product term c_J = dS/dt * v. O(1) per joint.
#include "core/hd.hpp"
#include "dynamics/model_class.hpp"
#include "model/compiled_model.hpp"
#include "spatial/quaternion.hpp"
#include "spatial/transform.hpp"

namespace myriad {

template <class S, class K>
MYRIAD_HD_INLINE Vec3<S> load_vec3(const K& k, int offset) {
  return {S(k[offset]), S(k[offset + 1]), S(k[offset + 2])};
}

template <class S, class K>
MYRIAD_HD_INLINE Mat3<S> load_mat3(const K& k, int offset) {
  Mat3<S> m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m.m[i][j] = S(k[offset + 3 * i + j]);
  return m;
}

template <class S>
MYRIAD_HD_INLINE Quat<S> load_quat(const S* q) {
  return normalized(Quat<S>{q[0], q[1], q[2], q[3]});
}

// X_FM(q) for the joint whose coordinates start at q. Code for K's model class only (dynamics/model_class.hpp):
// a joint type it leaves out gives the identity, as a fixed joint.
template <class S, class K>
MYRIAD_HD Transform<S> joint_transform(const CompiledJoint& joint, const K& k, const S* q) {
  const int c = joint.constants;
  switch (joint.type) {
    case kRevolute:
      if constexpr (joint_compiled<K>(kRevolute))
        return {rotation_about_axis(load_vec3<S>(k, c + kJointAxis), q[0]), Vec3<S>::zero()};
      break;
    case kPrismatic:
      if constexpr (joint_compiled<K>(kPrismatic)) return {Mat3<S>::identity(), q[0] * load_vec3<S>(k, c + kJointAxis)};
      break;
    case kCylindrical:
      if constexpr (joint_compiled<K>(kCylindrical)) {
        const Vec3<S> axis = load_vec3<S>(k, c + kJointAxis);
        return {rotation_about_axis(axis, q[0]), q[1] * axis};
      }
      break;
    case kUniversal:
      if constexpr (joint_compiled<K>(kUniversal))
        return {rotation_about_axis(load_vec3<S>(k, c + kJointAxis), q[0]) *
                    rotation_about_axis(load_vec3<S>(k, c + kJointAux1), q[1]),
                Vec3<S>::zero()};
      break;
    case kSpherical:
      if constexpr (joint_compiled<K>(kSpherical)) return {rotation_matrix(load_quat(q)), Vec3<S>::zero()};
      break;
    case kPlanar:
      if constexpr (joint_compiled<K>(kPlanar))
        return {rotation_about_axis(load_vec3<S>(k, c + kJointAxis), q[2]),
                q[0] * load_vec3<S>(k, c + kJointAux1) + q[1] * load_vec3<S>(k, c + kJointAux2)};
      break;
    case kFree:
      if constexpr (joint_compiled<K>(kFree)) return {rotation_matrix(load_quat(q + 3)), Vec3<S>{q[0], q[1], q[2]}};
      break;
    default: break;
  }
  return Transform<S>::identity();
}

// Motion subspace columns in M coordinates (joint.nv of them) at coordinates q: the joint velocity is S_M v.
template <class S, class K>
MYRIAD_HD void joint_subspace(const CompiledJoint& joint, const K& k, const S* q, Motion<S>* S_M) {
  const int c = joint.constants;
  const Vec3<S> zero = Vec3<S>::zero();
  switch (joint.type) {
    case kRevolute:
      if constexpr (joint_compiled<K>(kRevolute)) {
        S_M[0] = {load_vec3<S>(k, c + kJointAxis), zero};
      }
      break;
    case kPrismatic:
      if constexpr (joint_compiled<K>(kPrismatic)) {
        S_M[0] = {zero, load_vec3<S>(k, c + kJointAxis)};
      }
      break;
    case kCylindrical:
      if constexpr (joint_compiled<K>(kCylindrical)) {
        const Vec3<S> axis = load_vec3<S>(k, c + kJointAxis);
        S_M[0] = {axis, zero};
        S_M[1] = {zero, axis};
      }
      break;
    case kUniversal:
      if constexpr (joint_compiled<K>(kUniversal)) {
        // omega_M = Rot(axis2, q2)^T axis1 q1' + axis2 q2'; the first column turns with q2.
        const Vec3<S> axis2 = load_vec3<S>(k, c + kJointAux1);
        S_M[0] = {transpose_times(rotation_about_axis(axis2, q[1]), load_vec3<S>(k, c + kJointAxis)), zero};
        S_M[1] = {axis2, zero};
      }
      break;
    case kSpherical:
      if constexpr (joint_compiled<K>(kSpherical)) {
        S_M[0] = {Vec3<S>{S(1), S(0), S(0)}, zero};
        S_M[1] = {Vec3<S>{S(0), S(1), S(0)}, zero};
        S_M[2] = {Vec3<S>{S(0), S(0), S(1)}, zero};
      }
      break;
    case kPlanar:
      if constexpr (joint_compiled<K>(kPlanar)) {
        // Translation in F seen from the rotating M: both in-plane columns turn with the angle.
        const Vec3<S> normal = load_vec3<S>(k, c + kJointAxis);
        const Mat3<S> R_FM = rotation_about_axis(normal, q[2]);
        S_M[0] = {zero, transpose_times(R_FM, load_vec3<S>(k, c + kJointAux1))};
        S_M[1] = {zero, transpose_times(R_FM, load_vec3<S>(k, c + kJointAux2))};
        S_M[2] = {normal, zero};
      }
      break;
    case kFree:
      if constexpr (joint_compiled<K>(kFree)) {
        S_M[0] = {zero, Vec3<S>{S(1), S(0), S(0)}};
        S_M[1] = {zero, Vec3<S>{S(0), S(1), S(0)}};
        S_M[2] = {zero, Vec3<S>{S(0), S(0), S(1)}};
        S_M[3] = {Vec3<S>{S(1), S(0), S(0)}, zero};
        S_M[4] = {Vec3<S>{S(0), S(1), S(0)}, zero};
        S_M[5] = {Vec3<S>{S(0), S(0), S(1)}, zero};
      }
      break;
    default: break;
  }
}

// Whether the joint's placement and subspace come folded in its constants (kJointPlacementA0 ...).
MYRIAD_HD_INLINE bool has_placement_constants(int type) { return type == kRevolute || type == kPrismatic; }

// Whether the joint's subspace turns with its own coordinates (c_J = dS/dt v not identically zero).
MYRIAD_HD_INLINE bool has_velocity_product(int type) { return type == kUniversal || type == kPlanar; }

// c_J = dS/dt v in M coordinates for velocities v and the subspace S_M of joint_subspace; zero unless
// has_velocity_product(joint.type).
template <class S, class K>
MYRIAD_HD Motion<S> joint_velocity_product(const CompiledJoint& joint, const K& k, const S* v,
                                           const Motion<S>* S_M) {
  const int c = joint.constants;
  const Vec3<S> zero = Vec3<S>::zero();
  switch (joint.type) {
    case kUniversal:
      if constexpr (joint_compiled<K>(kUniversal))
        return {-cross(v[1] * load_vec3<S>(k, c + kJointAux1), v[0] * S_M[0].angular), zero};
      break;
    case kPlanar:
      if constexpr (joint_compiled<K>(kPlanar))
        return {zero, -cross(v[2] * load_vec3<S>(k, c + kJointAxis), v[0] * S_M[0].linear + v[1] * S_M[1].linear)};
      break;
    default: break;
  }
  return Motion<S>::zero();
}

}  // namespace myriad
