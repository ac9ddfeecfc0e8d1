#pragma once
// Recursive kinematics of the spanning tree, parent-first (Featherstone, RBDA ch. 5): body transforms, body
// velocities, motion subspaces and velocity-product accelerations. O(n).
#include "dynamics/joint_model.hpp"
#include "dynamics/tree_workspace.hpp"

namespace myriad {

template <class S, class K>
MYRIAD_HD_INLINE Transform<S> load_transform(const K& k, int rotation, int origin) {
  return {load_mat3<S>(k, rotation), load_vec3<S>(k, origin)};
}

// Rigid-body spatial inertia of tree body i about its body origin, body coordinates.
template <class S, class K>
MYRIAD_HD_INLINE SpatialInertia<S> body_inertia(const CompiledModel& model, const K& k, int i) {
  const int b = model.joints[i].body_constants;
  const Mat3<S> I_cm = {{{S(k[b + kBodyInertia]), S(k[b + kBodyInertia + 3]), S(k[b + kBodyInertia + 4])},
                         {S(k[b + kBodyInertia + 3]), S(k[b + kBodyInertia + 1]), S(k[b + kBodyInertia + 5])},
                         {S(k[b + kBodyInertia + 4]), S(k[b + kBodyInertia + 5]), S(k[b + kBodyInertia + 2])}}};
  return rigid_body_inertia(S(k[b + kBodyMass]), load_vec3<S>(k, b + kBodyCenterOfMass), I_cm);
}

// Writes X_parent, X_world, velocity, subspace and bias of every body for coordinates q (nq) and velocities v (nv).
template <class S, class K>
MYRIAD_HD void tree_kinematics(const CompiledModel& model, const K& k, const S* q, const S* v, TreeWorkspace<S>& w) {
  for (int i = 0; i < model.n_bodies; ++i) {
    const CompiledJoint& joint = model.joints[i];
    const int c = joint.constants;
    const Transform<S> X_PF = load_transform<S>(k, c + kJointRotationPF, c + kJointOriginPF);
    const Transform<S> X_CM = load_transform<S>(k, c + kJointRotationCM, c + kJointOriginCM);
    const S* q_joint = q + joint.q_index;
    const S* v_joint = v + joint.v_index;
    const Transform<S> X_PC = X_PF * joint_transform(joint, k, q_joint) * inverse(X_CM);
    w.X_parent[i] = X_PC;

    Motion<S> S_M[6];
    Motion<S> c_J;
    joint_motion(joint, k, q_joint, v_joint, S_M, c_J);
    Motion<S> v_J = Motion<S>::zero();
    for (int col = 0; col < joint.nv; ++col) {
      const Motion<S> S_C = motion_to_a(X_CM, S_M[col]);
      w.subspace[joint.v_index + col] = S_C;
      v_J += v_joint[col] * S_C;
    }
    if (joint.parent < 0) {
      w.X_world[i] = X_PC;
      w.velocity[i] = v_J;
    } else {
      w.X_world[i] = w.X_world[joint.parent] * X_PC;
      w.velocity[i] = motion_to_b(X_PC, w.velocity[joint.parent]) + v_J;
    }
    w.bias[i] = cross_motion(w.velocity[i], v_J) + motion_to_a(X_CM, c_J);
  }
}

// World position and velocity of a point fixed on tree body i (given in the body frame).
template <class S>
MYRIAD_HD_INLINE void body_point_state(const TreeWorkspace<S>& w, int i, const Vec3<S>& p_BoQ_B, Vec3<S>& p_WQ,
                                       Vec3<S>& v_WQ) {
  const Transform<S>& X_WB = w.X_world[i];
  const Motion<S>& V_B = w.velocity[i];
  p_WQ = transform_point(X_WB, p_BoQ_B);
  v_WQ = X_WB.R * (V_B.linear + cross(V_B.angular, p_BoQ_B));
}

}  // namespace myriad
