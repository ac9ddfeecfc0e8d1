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

// Rotational inertia about the centre of mass, body axes, of the body whose constants start at b.
template <class S, class K>
MYRIAD_HD_INLINE Mat3<S> centroidal_inertia(const K& k, int b) {
  return {{{S(k[b + kBodyInertia]), S(k[b + kBodyInertia + 3]), S(k[b + kBodyInertia + 4])},
           {S(k[b + kBodyInertia + 3]), S(k[b + kBodyInertia + 1]), S(k[b + kBodyInertia + 5])},
           {S(k[b + kBodyInertia + 4]), S(k[b + kBodyInertia + 5]), S(k[b + kBodyInertia + 2])}}};
}

// Rigid-body spatial inertia of tree body i about its body origin, body coordinates.
template <class S, class K>
MYRIAD_HD_INLINE SpatialInertia<S> body_inertia(const CompiledModel& model, const K& k, int i) {
  const int b = model.joints[i].body_constants;
  const Mat3<S> I_cm = centroidal_inertia<S>(k, b);
  return rigid_body_inertia(S(k[b + kBodyMass]), load_vec3<S>(k, b + kBodyCenterOfMass), I_cm);
}

// The same body as a RigidInertia (spatial/rigid_inertia.hpp), for the composite-rigid-body algorithm.
template <class S, class K>
MYRIAD_HD_INLINE RigidInertia<S> body_rigid_inertia(const CompiledModel& model, const K& k, int i) {
  const int b = model.joints[i].body_constants;
  const Mat3<S> I_cm = centroidal_inertia<S>(k, b);
  return rigid_inertia(S(k[b + kBodyMass]), load_vec3<S>(k, b + kBodyCenterOfMass), I_cm);
}

// X_PC of a revolute or prismatic joint from its placement constants (model/compiled_model.hpp,
// kJointPlacementA0): 24 multiplications (revolute) where X_PF X_FM(q) X_CM^-1 takes about 95. O(1).
template <class S, class K>
MYRIAD_HD_INLINE Transform<S> fixed_axis_placement(const CompiledJoint& joint, const K& k, const S& q) {
  const int c = joint.constants;
  Transform<S> X;
  if (joint.type == kRevolute) {
    S s, cosine;
    scalar_sincos(q, s, cosine);
    const S t = S(1) - cosine;
    for (int r = 0; r < 3; ++r)
      for (int col = 0; col < 3; ++col) {
        const int e = 3 * r + col;
        X.R.m[r][col] = S(k[c + kJointPlacementA0 + e]) + s * k[c + kJointPlacementA1 + e] +
                        t * k[c + kJointPlacementA2 + e];
      }
    X.p = {
        S(k[c + kJointPlacementB0]) + s * k[c + kJointPlacementB1] + t * k[c + kJointPlacementB2],
        S(k[c + kJointPlacementB0 + 1]) + s * k[c + kJointPlacementB1 + 1] + t * k[c + kJointPlacementB2 + 1],
        S(k[c + kJointPlacementB0 + 2]) + s * k[c + kJointPlacementB1 + 2] +
            t * k[c + kJointPlacementB2 + 2]};
  } else {
    X.R = load_mat3<S>(k, c + kJointPlacementA0);
    X.p = {S(k[c + kJointPlacementB0]) + q * k[c + kJointPlacementB1],
           S(k[c + kJointPlacementB0 + 1]) + q * k[c + kJointPlacementB1 + 1],
           S(k[c + kJointPlacementB0 + 2]) + q * k[c + kJointPlacementB1 + 2]};
  }
  return X;
}

// The part of the kinematics that depends on q alone, for body i: writes X_parent[i] and its joint's subspace
// columns in body coordinates (w.subspace); for a joint with a velocity product (has_velocity_product) leaves
// the columns in M coordinates in S_M (joint.nv) for it.
template <class S, class K>
MYRIAD_HD_ALWAYS_INLINE void place_body(const CompiledModel& model, const K& k, const S* q, int i,
                                        TreeWorkspace<S>& w, Motion<S>* S_M) {
  const CompiledJoint& joint = model.joints[i];
  const int c = joint.constants;
  const S* q_joint = q + joint.q_index;
  if (has_placement_constants(joint.type)) {
    w.X_parent[i] = fixed_axis_placement(joint, k, q_joint[0]);
    w.subspace[joint.v_index] = {load_vec3<S>(k, c + kJointSubspaceC),
                                 load_vec3<S>(k, c + kJointSubspaceC + 3)};
    return;
  }
  const Transform<S> X_PF = load_transform<S>(k, c + kJointRotationPF, c + kJointOriginPF);
  const Transform<S> X_CM = load_transform<S>(k, c + kJointRotationCM, c + kJointOriginCM);
  w.X_parent[i] = X_PF * joint_transform(joint, k, q_joint) * inverse(X_CM);
  joint_subspace(joint, k, q_joint, S_M);
  for (int col = 0; col < joint.nv; ++col) w.subspace[joint.v_index + col] = motion_to_a(X_CM, S_M[col]);
}

// Writes X_parent and subspace of every body for coordinates q (nq): what the composite-rigid-body algorithm
// needs, without the velocities and world placements of tree_kinematics.
template <class S, class K>
MYRIAD_HD void tree_placements(const CompiledModel& model, const K& k, const S* q, TreeWorkspace<S>& w) {
  Motion<S> S_M[joint_nv_bound<K>()];  // joint_subspace's columns
  for (int i = 0; i < model.n_bodies; ++i) place_body(model, k, q, i, w, S_M);
}

// Body i's velocity v_i and bias v_i x v_J from its parent's velocity, its X_parent and subspace columns in `w`
// and the velocities v (nv); the velocity product of a joint that has one is the caller's.
template <class S>
MYRIAD_HD_ALWAYS_INLINE void body_velocity(const CompiledModel& model, const S* v, int i, TreeWorkspace<S>& w) {
  const CompiledJoint& joint = model.joints[i];
  const S* v_joint = v + joint.v_index;
  Motion<S> v_J = Motion<S>::zero();
  for (int col = 0; col < joint.nv; ++col) v_J += v_joint[col] * w.subspace[joint.v_index + col];
  w.velocity[i] = joint.parent < 0 ? v_J : motion_to_b(w.X_parent[i], w.velocity[joint.parent]) + v_J;
  w.bias[i] = cross_motion(w.velocity[i], v_J);
}

// Writes X_parent, X_world, velocity, subspace and bias of every body for coordinates q (nq) and velocities v
// (nv).
template <class S, class K>
MYRIAD_HD void tree_kinematics(const CompiledModel& model, const K& k, const S* q, const S* v,
                               TreeWorkspace<S>& w) {
  MYRIAD_UNROLL
  for (int i = 0; i < model.n_bodies; ++i) {
    const CompiledJoint& joint = model.joints[i];
    Motion<S> S_M[joint_nv_bound<K>()];  // joint_subspace's columns
    place_body(model, k, q, i, w, S_M);
    w.X_world[i] = joint.parent < 0 ? w.X_parent[i] : w.X_world[joint.parent] * w.X_parent[i];
    body_velocity(model, v, i, w);
    if (has_velocity_product(joint.type)) {
      const int c = joint.constants;
      const Transform<S> X_CM = load_transform<S>(k, c + kJointRotationCM, c + kJointOriginCM);
      w.bias[i] += motion_to_a(X_CM, joint_velocity_product(joint, k, v + joint.v_index, S_M));
    }
  }
}

namespace detail {
template <class S, class T>
MYRIAD_HD_INLINE Vec3<S> constant_of(const Vec3<T>& a) {
  return {S(a.x), S(a.y), S(a.z)};
}
template <class S, class T>
MYRIAD_HD_INLINE Transform<S> constant_of(const Transform<T>& X) {
  Transform<S> r;
  for (int row = 0; row < 3; ++row)
    for (int col = 0; col < 3; ++col) r.R.m[row][col] = S(X.R.m[row][col]);
  r.p = constant_of<S>(X.p);
  return r;
}
}  // namespace detail

// Whether tree_kinematics_placed may stand for tree_kinematics: no joint adds a velocity product (it needs the
// joint's subspace in its own frame, which only place_body has).
MYRIAD_HD_INLINE bool kinematics_can_reuse_placements(const CompiledModel& model) {
  for (int i = 0; i < model.n_bodies; ++i)
    if (has_velocity_product(model.joints[i].type)) return false;
  return true;
}

// tree_kinematics on S = Dual<T, N> where q carries no derivative (the Jacobian's velocity and time directions):
// X_parent, X_world and subspace are `placed`'s, a workspace on T on which tree_kinematics ran at the same q,
// taken as constants (what S would compute: the same real parts, derivatives zero); only velocities and biases
// are computed on S. Saves the pass the placements and their sines and cosines. Only where
// kinematics_can_reuse_placements(model).
template <class S, class T>
MYRIAD_HD void tree_kinematics_placed(const CompiledModel& model, const TreeWorkspace<T>& placed, const S* v,
                                      TreeWorkspace<S>& w) {
  for (int i = 0; i < model.n_bodies; ++i) {
    const CompiledJoint& joint = model.joints[i];
    w.X_parent[i] = detail::constant_of<S>(placed.X_parent[i]);
    w.X_world[i] = detail::constant_of<S>(placed.X_world[i]);
    for (int col = joint.v_index; col < joint.v_index + joint.nv; ++col)
      w.subspace[col] = {detail::constant_of<S>(placed.subspace[col].angular),
                         detail::constant_of<S>(placed.subspace[col].linear)};
    body_velocity(model, v, i, w);
  }
}

// World position and velocity of a point fixed on tree body i (given in the body frame).
template <class S>
MYRIAD_HD_INLINE void body_point_state(const TreeWorkspace<S>& w, int i, const Vec3<S>& p_BoQ_B,
                                       Vec3<S>& p_WQ, Vec3<S>& v_WQ) {
  const Transform<S>& X_WB = w.X_world[i];
  const Motion<S>& V_B = w.velocity[i];
  p_WQ = transform_point(X_WB, p_BoQ_B);
  v_WQ = X_WB.R * (V_B.linear + cross(V_B.angular, p_BoQ_B));
}

}  // namespace myriad
