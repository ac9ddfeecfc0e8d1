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

// Accelerations qdd (nv) for the kinematics and applied forces already in `w` (tree_kinematics, applied_forces).
// Returns false if a joint's articulated inertia S^T IA S is not positive definite (a massless end of a chain).
template <class S, class K>
MYRIAD_HD bool articulated_body_accelerations(const CompiledModel& model, const K& k, TreeWorkspace<S>& w, S* qdd) {
  const int nb = model.n_bodies;
  for (int i = 0; i < nb; ++i) {
    const SpatialInertia<S> I = body_inertia<S>(model, k, i);
    w.IA[i] = I;
    w.pA[i] = cross_force(w.velocity[i], I * w.velocity[i]) - w.f_ext[i];
  }
  for (int i = nb - 1; i >= 0; --i) {
    const CompiledJoint& joint = model.joints[i];
    const int n = joint.nv, v0 = joint.v_index;
    const Motion<S>* S_i = w.subspace + v0;
    Force<S>* U = w.U + v0;
    S* D_inv = w.D_inv + 36 * i;
    S D[36];
    for (int a = 0; a < n; ++a) U[a] = w.IA[i] * S_i[a];
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) D[a * n + b] = dot(S_i[a], U[b]);
    if (n > 0 && !invert_small_spd(D, n, D_inv)) return false;
    for (int a = 0; a < n; ++a) w.u[v0 + a] = w.tau[v0 + a] - dot(S_i[a], w.pA[i]);
    if (joint.parent < 0) continue;
    SpatialInertia<S> Ia = w.IA[i];
    Force<S> pa = w.pA[i];
    for (int a = 0; a < n; ++a) {
      S Dinv_u = S(0);
      for (int b = 0; b < n; ++b) {
        add_force_outer(Ia, -D_inv[a * n + b], U[a], U[b]);
        Dinv_u += D_inv[a * n + b] * w.u[v0 + b];
      }
      pa += Dinv_u * U[a];
    }
    pa += Ia * w.bias[i];
    w.IA[joint.parent] += inertia_to_a(w.X_parent[i], Ia);
    w.pA[joint.parent] += force_to_a(w.X_parent[i], pa);
  }
  const Motion<S> a_base = base_acceleration<S>(model, k);
  for (int i = 0; i < nb; ++i) {
    const CompiledJoint& joint = model.joints[i];
    const int n = joint.nv, v0 = joint.v_index;
    const Motion<S>& a_parent = joint.parent < 0 ? a_base : w.acceleration[joint.parent];
    Motion<S> a = motion_to_b(w.X_parent[i], a_parent) + w.bias[i];
    S rhs[6];
    for (int b = 0; b < n; ++b) rhs[b] = w.u[v0 + b] - dot(a, w.U[v0 + b]);
    for (int row = 0; row < n; ++row) {
      S sum = S(0);
      for (int b = 0; b < n; ++b) sum += w.D_inv[36 * i + row * n + b] * rhs[b];
      qdd[v0 + row] = sum;
    }
    for (int b = 0; b < n; ++b) a += qdd[v0 + b] * w.subspace[v0 + b];
    w.acceleration[i] = a;
  }
  return true;
}

// Forward dynamics of the tree: qdd = M^-1 (Q_applied - C(q, v) - G(q)). O(n). Returns false on a singular joint
// inertia; qdd is then unspecified.
template <class S, class K>
MYRIAD_HD bool forward_dynamics(const CompiledModel& model, const K& k, double t, const S* q, const S* v,
                                TreeWorkspace<S>& w, S* qdd) {
  tree_kinematics(model, k, q, v, w);
  applied_forces(model, k, t, q, v, w);
  return articulated_body_accelerations(model, k, w, qdd);
}

}  // namespace myriad
