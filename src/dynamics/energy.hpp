#pragma once
// Kinetic and potential energy of the tree after tree_kinematics. O(n + number of force elements).
#include "dynamics/force_elements.hpp"

namespace myriad {

template <class S, class K>
MYRIAD_HD S kinetic_energy(const CompiledModel& model, const K& k, const TreeWorkspace<S>& w) {
  S energy = S(0);
  for (int i = 0; i < model.n_bodies; ++i)
    energy += S(0.5) * dot(w.velocity[i], body_inertia<S>(model, k, i) * w.velocity[i]);
  return energy;
}

// Gravity (-m g . r_cm, zero at the world origin) plus the elastic energy of TSDAs and RSDAs.
template <class S, class K>
MYRIAD_HD S potential_energy(const CompiledModel& model, const K& k, double t, const S* q, const TreeWorkspace<S>& w) {
  const Vec3<S> g = load_vec3<S>(k, model.gravity);
  S energy = S(0);
  for (int i = 0; i < model.n_bodies; ++i) {
    const int b = model.joints[i].body_constants;
    const Vec3<S> r_cm = transform_point(w.X_world[i], load_vec3<S>(k, b + kBodyCenterOfMass));
    energy -= S(k[b + kBodyMass]) * dot(g, r_cm);
  }
  for (int e = 0; e < model.n_forces; ++e) {
    const CompiledForce& f = model.forces[e];
    const int c = f.constants;
    if (f.type == 0) {
      const S stretch = tsda_state(model, k, w, f, t).length - S(k[c + kTsdaFreeLength]);
      energy += S(0.5) * S(k[c + kTsdaStiffness]) * stretch * stretch;
    } else if (f.type == 1) {
      const S deflection = q[model.joints[f.joint].q_index] - S(k[c + kRsdaZeroAngle]);
      energy += S(0.5) * S(k[c + kRsdaStiffness]) * deflection * deflection;
    }
  }
  return energy;
}

}  // namespace myriad
