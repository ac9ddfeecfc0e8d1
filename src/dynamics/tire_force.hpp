#pragma once
// A handling tire on a tree body: its wheel's centre, spin axis and angular velocity from the tree kinematics, its
// law dynamics/tire_law.hpp's (contact, slips, formula), its load applied to the wheel body. Host+device, any scalar
// (Duals give the exact Jacobians the Rosenbrock methods use; the cuts act on values).
#include "dynamics/bushing.hpp"
#include "dynamics/tire_law.hpp"
#include "dynamics/tree_kinematics.hpp"
#include "model/compiled_model.hpp"

namespace myriad {

// The tire of force element f (type 4) on the road at height `road` rising at `road_rate`: its contact, slips and
// vertical load, without the formula (fx, fy, mz zero): what the potential energy and the slip outputs read.
template <class S, class K>
MYRIAD_HD TireState<S> tire_contact(const TreeWorkspace<S>& w, const K& k, const CompiledForce& f, const S& road,
                                    const S& road_rate) {
  const int c = f.constants;
  const Transform<S>& X_WB = w.X_world[f.body1];
  Vec3<S> center, v_center;
  body_point_state(w, f.body1, load_vec3<S>(k, c + kTireCenter), center, v_center);
  const Vec3<S> a = X_WB.R * load_vec3<S>(k, c + kTireAxis);
  const Vec3<S> omega = X_WB.R * w.velocity[f.body1].angular;
  return tire_contact_of(k, f, center, v_center, a, omega, road, road_rate);
}

// tire_contact with the formula's Fx, Fy, Mz where the tire is on the road.
template <class S, class K>
MYRIAD_HD TireState<S> tire_state(const TreeWorkspace<S>& w, const K& k, const CompiledForce& f, const S& road,
                                  const S& road_rate) {
  TireState<S> s = tire_contact(w, k, f, road, road_rate);
  add_tire_formula(k, f, s);
  return s;
}

// Adds the tire's force (at the wheel's material point at P) and aligning moment to the wheel body's applied
// forces. Outlined on the device (one copy per scalar type).
template <class S, class K>
MYRIAD_HD_OUTLINE void apply_tire(const K& k, const CompiledForce& f, const S& road, const S& road_rate,
                                  TreeWorkspace<S>& w) {
  const TireState<S> s = tire_state(w, k, f, road, road_rate);
  if (!s.in_contact) return;
  const Vec3<S> F_W = s.fx * s.ex + s.fy * s.ey + Vec3<S>{S(0), S(0), s.fz};
  const Transform<S>& X_WB = w.X_world[f.body1];
  w.f_ext[f.body1] += point_force_in_body(X_WB, s.contact, F_W);
  w.f_ext[f.body1] += Force<S>{transpose_times(X_WB.R, Vec3<S>{S(0), S(0), s.mz}), Vec3<S>::zero()};
}

}  // namespace myriad
