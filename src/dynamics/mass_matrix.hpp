#pragma once
// Joint-space mass matrix by the composite-rigid-body algorithm (RBDA table 6.2). O(n d) for tree depth d.
// The composite inertias stay in rigid-body form (spatial/rigid_inertia.hpp): a sum of rigid inertias is one,
// and its change of frame costs well under half a general spatial inertia's.
#include "dynamics/tree_kinematics.hpp"

namespace myriad {

// Writes M (nv x nv, row-major) at coordinates q, and X_parent, subspace (tree_placements) and the composite
// inertias Ic in `w`; the rest of `w` is left as it was. Velocities do not enter M (v is not read).
template <class S, class K>
MYRIAD_HD void mass_matrix(const CompiledModel& model, const K& k, const S* q, const S*, TreeWorkspace<S>& w,
                           S* M) {
  tree_placements(model, k, q, w);
  const int nv = model.nv;
  for (int i = 0; i < nv * nv; ++i) M[i] = S(0);
  for (int i = 0; i < model.n_bodies; ++i) w.Ic[i] = body_rigid_inertia<S>(model, k, i);
  for (int i = model.n_bodies - 1; i >= 0; --i) {
    const int parent = model.joints[i].parent;
    if (parent >= 0) w.Ic[parent] += rigid_inertia_to_a(w.X_parent[i], w.Ic[i]);
  }
  for (int i = 0; i < model.n_bodies; ++i) {
    const CompiledJoint& joint_i = model.joints[i];
    for (int a = 0; a < joint_i.nv; ++a) {
      const int row = joint_i.v_index + a;
      Force<S> F = w.Ic[i] * w.subspace[row];
      // The joint's own block from its upper triangle, mirrored: s_b . (I s_a) and s_a . (I s_b) differ by rounding,
      // and the factorization of Pi wants M exactly symmetric.
      for (int b = a; b < joint_i.nv; ++b) {
        const int col = joint_i.v_index + b;
        const S value = dot(w.subspace[col], F);
        M[row * nv + col] = value;
        M[col * nv + row] = value;
      }
      int j = i;
      while (model.joints[j].parent >= 0) {
        F = force_to_a(w.X_parent[j], F);
        j = model.joints[j].parent;
        const CompiledJoint& joint_j = model.joints[j];
        for (int b = 0; b < joint_j.nv; ++b) {
          const int col = joint_j.v_index + b;
          const S value = dot(w.subspace[col], F);
          M[row * nv + col] = value;
          M[col * nv + row] = value;
        }
      }
    }
  }
}

}  // namespace myriad
