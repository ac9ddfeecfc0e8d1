#pragma once
// Forward dynamics of the tree by the articulated-body algorithm (Featherstone, RBDA table 7.1; seed 004 eqs 8-29
// in the same spirit), in body coordinates with gravity as a base acceleration. O(n).
#include "dynamics/force_elements.hpp"
#include "dynamics/small_spd.hpp"

namespace myriad {

template <class S, class K>
MYRIAD_HD_INLINE Motion<S> base_acceleration(const CompiledModel& model, const K& k) {
  return {Vec3<S>::zero(), -load_vec3<S>(k, model.gravity)};
}

// Adds to pa the articulated-body force a joint passes on beyond IA^a c: sum_a (D^-1 u)_a U_a for joint i (n
// coordinates from v0), with u = tau - S^T pA of the backward pass.
template <class S>
MYRIAD_HD_INLINE void add_articulated_force(const TreeWorkspace<S>& w, int i, int n, int v0, const S* u,
                                            Force<S>& pa) {
  for (int a = 0; a < n; ++a) {
    S Dinv_u = S(0);
    for (int b = 0; b < n; ++b) Dinv_u += w.D_inv[36 * i + a * n + b] * u[v0 + b];
    pa += Dinv_u * w.U[v0 + a];
  }
}

// The algorithm's forward pass, parent-first: qdd_i = D^-1 (u_i - U^T a'), a_i = a' + S qdd_i with
// a' = X a_parent (+ bias_i when bias is given), a_base for the root's parent. Writes acceleration (nb), qdd (nv).
// MaxNv: the most coordinates of any joint (joint_nv_bound).
template <class S, int MaxNv = 6>
MYRIAD_HD void articulated_forward_pass(const CompiledModel& model, const TreeWorkspace<S>& w,
                                        const Motion<S>& a_base, const Motion<S>* bias, const S* u,
                                        Motion<S>* acceleration, S* qdd) {
  MYRIAD_UNROLL
  for (int i = 0; i < model.n_bodies; ++i) {
    const CompiledJoint& joint = model.joints[i];
    const int n = joint.nv, v0 = joint.v_index;
    const Motion<S>& a_parent = joint.parent < 0 ? a_base : acceleration[joint.parent];
    Motion<S> a = motion_to_b(w.X_parent[i], a_parent);
    if (bias) a += bias[i];
    S rhs[MaxNv];
    for (int b = 0; b < n; ++b) rhs[b] = u[v0 + b] - dot(a, w.U[v0 + b]);
    for (int row = 0; row < n; ++row) {
      S sum = S(0);
      for (int b = 0; b < n; ++b) sum += w.D_inv[36 * i + row * n + b] * rhs[b];
      qdd[v0 + row] = sum;
    }
    for (int b = 0; b < n; ++b) a += qdd[v0 + b] * w.subspace[v0 + b];
    acceleration[i] = a;
  }
}

// Accelerations qdd (nv) for the kinematics and applied forces already in `w` (tree_kinematics, applied_forces).
// Returns false if a joint's articulated inertia S^T IA S is not positive definite (a massless end of a chain).
template <class S, class K>
MYRIAD_HD bool articulated_body_accelerations(const CompiledModel& model, const K& k, TreeWorkspace<S>& w, S* qdd) {
  const int nb = model.n_bodies;
  MYRIAD_UNROLL
  for (int i = 0; i < nb; ++i) {
    const SpatialInertia<S> I = body_inertia<S>(model, k, i);
    w.IA[i] = I;
    w.pA[i] = cross_force(w.velocity[i], I * w.velocity[i]) - w.f_ext[i];
  }
  MYRIAD_UNROLL
  for (int i = nb - 1; i >= 0; --i) {
    const CompiledJoint& joint = model.joints[i];
    const int n = joint.nv, v0 = joint.v_index;
    const Motion<S>* S_i = w.subspace + v0;
    Force<S>* U = w.U + v0;
    S* D_inv = w.D_inv + 36 * i;
    S D[joint_nv_bound<K>() * joint_nv_bound<K>()];
    for (int a = 0; a < n; ++a) U[a] = w.IA[i] * S_i[a];
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) D[a * n + b] = dot(S_i[a], U[b]);
    if (n > 0 && !invert_small_spd<S, joint_nv_bound<K>()>(D, n, D_inv)) return false;
    for (int a = 0; a < n; ++a) w.u[v0 + a] = w.tau[v0 + a] - dot(S_i[a], w.pA[i]);
    if (joint.parent < 0) continue;
    SpatialInertia<S> Ia = w.IA[i];
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) add_force_outer(Ia, -D_inv[a * n + b], U[a], U[b]);
    Force<S> pa = w.pA[i];
    add_articulated_force(w, i, n, v0, w.u, pa);
    pa += Ia * w.bias[i];
    w.IA[joint.parent] += inertia_to_a(w.X_parent[i], Ia);
    w.pA[joint.parent] += force_to_a(w.X_parent[i], pa);
  }
  articulated_forward_pass<S, joint_nv_bound<K>()>(model, w, base_acceleration<S>(model, k), w.bias, w.u,
                                                    w.acceleration, qdd);
  return true;
}

// qdd = M(q)^-1 tau (nv) with the factors the last articulated_body_accelerations left in `w` (U, D_inv,
// X_parent, subspace): the algorithm's passes without velocity, gravity or applied forces (the bias terms
// vanish, so the articulated inertias stay as they are). The caller's scratch: pA (nb), u (nv), acceleration
// (nb), which may be w's own. tau and qdd may be one array. O(n).
template <class S>
MYRIAD_HD void articulated_body_solve(const CompiledModel& model, const TreeWorkspace<S>& w, const S* tau,
                                      Force<S>* pA, S* u, Motion<S>* acceleration, S* qdd) {
  const int nb = model.n_bodies;
  for (int i = 0; i < nb; ++i) pA[i] = Force<S>::zero();
  for (int i = nb - 1; i >= 0; --i) {
    const CompiledJoint& joint = model.joints[i];
    const int n = joint.nv, v0 = joint.v_index;
    for (int a = 0; a < n; ++a) u[v0 + a] = tau[v0 + a] - dot(w.subspace[v0 + a], pA[i]);
    if (joint.parent < 0) continue;
    Force<S> pa = pA[i];
    add_articulated_force(w, i, n, v0, u, pa);
    pA[joint.parent] += force_to_a(w.X_parent[i], pa);
  }
  articulated_forward_pass(model, w, Motion<S>::zero(), static_cast<const Motion<S>*>(nullptr), u, acceleration,
                           qdd);
}

// Forward dynamics of the tree: qdd = M^-1 (Q_applied - C(q, v) - G(q)). O(n). Returns false on a singular joint
// inertia; qdd is then unspecified. Time T is a double, or Lanes for several instances at once (core/lanes.hpp).
template <class S, class K, class T>
MYRIAD_HD bool forward_dynamics(const CompiledModel& model, const K& k, const T& t, const S* q, const S* v,
                                TreeWorkspace<S>& w, S* qdd) {
  tree_kinematics(model, k, q, v, w);
  applied_forces(model, k, t, q, v, w);
  return articulated_body_accelerations(model, k, w, qdd);
}

}  // namespace myriad
