#pragma once
// Inverse dynamics by the recursive Newton-Euler algorithm (RBDA table 5.1). O(n).
#include <type_traits>

#include "dynamics/articulated_body.hpp"

namespace myriad {

// The algorithm's two passes for the kinematics and applied forces already in `w` (tree_kinematics,
// applied_forces): tau = M(q) qdd + C(q, v) + G(q) - Q_applied. Writes tau (nv), acceleration and pA (nb).
// qdd may be of another scalar than the kinematics: TreeSecondOrder::jacobians differentiates the residual
// in (q, v, t) with qdd held at the forward dynamics' plain value (a double among Dual kinematics).
template <class S, class K, class Q>
MYRIAD_HD void newton_euler_forces(const CompiledModel& model, const K& k, const Q* qdd, TreeWorkspace<S>& w,
                                   S* tau) {
  using Constant = typename std::decay<decltype(k[0])>::type;
  const Motion<S> a_base = base_acceleration<S>(model, k);
  for (int i = 0; i < model.n_bodies; ++i) {
    const CompiledJoint& joint = model.joints[i];
    const Motion<S>& a_parent = joint.parent < 0 ? a_base : w.acceleration[joint.parent];
    Motion<S> a = motion_to_b(w.X_parent[i], a_parent) + w.bias[i];
    for (int b = 0; b < joint.nv; ++b) a += qdd[joint.v_index + b] * w.subspace[joint.v_index + b];
    w.acceleration[i] = a;
    // Constant: no derivatives to carry; a double per instance (several instances' doubles on lanes).
    const RigidInertia<Constant> I = body_rigid_inertia<Constant>(model, k, i);
    w.pA[i] = I * a + cross_force(w.velocity[i], I * w.velocity[i]) - w.f_ext[i];
  }
  for (int i = model.n_bodies - 1; i >= 0; --i) {
    const CompiledJoint& joint = model.joints[i];
    for (int b = 0; b < joint.nv; ++b)
      tau[joint.v_index + b] = dot(w.subspace[joint.v_index + b], w.pA[i]) - w.tau[joint.v_index + b];
    if (joint.parent >= 0) w.pA[joint.parent] += force_to_a(w.X_parent[i], w.pA[i]);
  }
}

// Generalized forces that must be added to the model's own force elements to give accelerations qdd:
// tau = M(q) qdd + C(q, v) + G(q) - Q_applied(t, q, v). Writes tau (nv).
template <class S, class K>
MYRIAD_HD void inverse_dynamics(const CompiledModel& model, const K& k, double t, const S* q, const S* v,
                                const S* qdd, TreeWorkspace<S>& w, S* tau) {
  tree_kinematics(model, k, q, v, w);
  applied_forces(model, k, t, q, v, w);
  newton_euler_forces(model, k, qdd, w, tau);
}

}  // namespace myriad
