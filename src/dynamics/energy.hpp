#pragma once
// Kinetic and potential energy of the tree and its rods after tree_kinematics. O(n + force elements + loops).
#include "dynamics/force_elements.hpp"

namespace myriad {

// World position and velocity of the end point `end` (1 or 2) of loop l (a rod), or of the world point for ground.
template <class S, class K>
MYRIAD_HD_INLINE void rod_end(const CompiledModel& model, const K& k, const TreeWorkspace<S>& w, int l, int end,
                              Vec3<S>& p, Vec3<S>& v) {
  const CompiledLoop& loop = model.constraints.loops[l];
  const int body = end == 1 ? loop.body1 : loop.body2;
  const Vec3<S> local = load_vec3<S>(k, loop.constants + (end == 1 ? kLoopOrigin1 : kLoopOrigin2));
  if (body < 0) {
    p = local;
    v = Vec3<S>::zero();
  } else {
    body_point_state(w, body, local, p, v);
  }
}

constexpr int kLoopTypeRod = 5;  // LoopType::rod

template <class S, class K>
MYRIAD_HD S kinetic_energy(const CompiledModel& model, const K& k, const TreeWorkspace<S>& w) {
  S energy = S(0);
  for (int i = 0; i < model.n_bodies; ++i)
    energy += S(0.5) * dot(w.velocity[i], body_inertia<S>(model, k, i) * w.velocity[i]);
  // Rods: m/6 (|v1|^2 + v1 . v2 + |v2|^2), a uniform slender rod without spin about its axis (seed 001).
  for (int l = 0; l < model.constraints.n_loops; ++l) {
    if (model.constraints.loops[l].type != kLoopTypeRod) continue;
    Vec3<S> p1, v1, p2, v2;
    rod_end(model, k, w, l, 1, p1, v1);
    rod_end(model, k, w, l, 2, p2, v2);
    energy += S(k[model.constraints.loops[l].constants + kLoopMass]) / S(6) *
              (dot(v1, v1) + dot(v1, v2) + dot(v2, v2));
  }
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
  for (int l = 0; l < model.constraints.n_loops; ++l) {  // rods: gravity at the midpoint
    if (model.constraints.loops[l].type != kLoopTypeRod) continue;
    Vec3<S> p1, v1, p2, v2;
    rod_end(model, k, w, l, 1, p1, v1);
    rod_end(model, k, w, l, 2, p2, v2);
    energy -= S(k[model.constraints.loops[l].constants + kLoopMass]) * dot(g, S(0.5) * (p1 + p2));
  }
  for (int e = 0; e < model.n_forces; ++e) {
    const CompiledForce& f = model.forces[e];
    const int c = f.constants;
    if (f.type == kTsda) {
      const S stretch = tsda_state(model, k, w, f, t).length - S(k[c + kTsdaFreeLength]);
      // A one-sided spring stores energy only on its side (the cut of its damping stores none).
      const bool stores = f.acts == 0 || (f.acts == 1 && value_of(stretch) < 0.0) ||
                          (f.acts == 2 && value_of(stretch) > 0.0);
      if (stores) energy -= S(k[c + kTsdaPreload]) * stretch;  // the preload's potential: -P (l - l0)
      if (stores && f.spring_points > 0) {  // the table's integral, whose derivative is the table's force
        const ConstantsView<K> table{k, f.spring_table};
        const double x = value_of(stretch);
        energy += S(table_integral(table, f.spring_points, x)) +
                  table_force(table, f.spring_points, S(x)) * (stretch - x);
      } else if (stores) {
        energy += S(0.5) * S(k[c + kTsdaStiffness]) * stretch * stretch;
      }
    } else if (f.type == kRsda) {
      const S deflection = q[model.joints[f.joint].q_index] - S(k[c + kRsdaZeroAngle]);
      energy += S(0.5) * S(k[c + kRsdaStiffness]) * deflection * deflection;
    } else if (f.type == kBushing) {
      if constexpr (force_compiled<K>(kBushing)) energy += bushing_energy(k, f, bushing_state(w, k, f));
    } else if (f.type == kTire) {  // a tire's vertical spring, while it is compressed (dynamics/tire_force.hpp)
      if constexpr (force_compiled<K>(kTire)) {
        const TimeValue road = time_function_value(model, k, f.motion1, value_of(t));
        const S deflection = tire_contact(w, k, f, S(road.value), S(road.rate)).deflection;
        if (value_of(deflection) > 0.0) energy += S(0.5) * S(k[c + kTireStiffness]) * deflection * deflection;
      }
    }
  }
  return energy;
}

}  // namespace myriad
