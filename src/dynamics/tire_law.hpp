#pragma once
// A handling tire's law (docs/model-format.md, "Tires"), from its wheel's kinematics (dynamics/tire_force.hpp takes
// them from the tree; absolute/absolute_forces.hpp from seed 002's absolute coordinates): its contact with the flat
// road z = h(t), its slips, and the Magic Formula (tire/magic_formula.hpp) or Fiala (tire/fiala.hpp) forces, in ISO 8855 / TYDEX
// W-axis conventions: x forward along the wheel plane, y to the left, z up. With c the wheel centre, a its unit
// spin axis (pointing to the wheel's left), n = e_z and R the unloaded radius:
//   e_x = (a x n) / |a x n|,  e_y = n x e_x,  sin(gamma) = a . n  (camber; |a x n| = cos(gamma)),
//   p = c + R (a x e_x)        the rim's lowest point, z(p) = c_z - R cos(gamma),
//   delta = h - z(p)           the tire's deflection, delta' = h' - n . v(p) (v(p): the velocity of the wheel's
//                              material point at p, which is d z(p)/dt since p is the lowest rim point),
//   Fz = k delta + c delta'    cut to zero when delta <= 0 or Fz <= 0: the tire lifts off and never pulls.
// The elastic part k delta along n at p is exactly the gradient of k delta^2 / 2 (z(p) is the minimum over the rim,
// so its gradient is that of the material point's height), which dynamics/energy.hpp counts.
// Slips (Pacejka 2006, sec. 1.2 and 4.3, ISO signs; v0 keeps them finite at rest):
//   V_x = v(c) . e_x, V_y = v(c) . e_y, Omega = omega . a (> 0 rolling forward), R_e = R - delta,
//   V_ref = sqrt(V_x^2 + v0^2),  kappa = (Omega R_e - V_x) / V_ref (> 0 drives),  alpha = atan(V_y / V_ref)
//   (> 0: the wheel moves to the left of its heading, and Fy < 0 pushes it back).
// The formula's Fx e_x + Fy e_y + Fz n acts at the contact point P = p + delta n on the road, Mz about n.
// Steady-state forces: no relaxation length, no rolling resistance beyond the formula's. Host+device, any scalar
// (Duals give the exact Jacobians the Rosenbrock methods use; the cuts act on values).
#include "core/scalar.hpp"
#include "dynamics/constants_view.hpp"
#include "model/compiled_model.hpp"
#include "spatial/vec3.hpp"
#include "tire/fiala.hpp"
#include "tire/magic_formula.hpp"

namespace myriad {

template <class S>
struct TireState {
  Vec3<S> contact;       // P, on the road (world)
  Vec3<S> ex, ey;        // the contact frame's longitudinal and lateral axes (world; normal e_z)
  S deflection;          // delta (> 0 in contact)
  S fx, fy, fz, mz;      // zero off the road
  S kappa, alpha, gamma;
  bool in_contact;
};

// The tire of force element f (type 4) on the road at height `road` rising at `road_rate`, on a wheel whose centre
// is at `center` moving at v_center, with unit spin axis a and angular velocity omega (all in the world): its
// contact, slips and vertical load, without the formula (fx, fy, mz zero): what the potential energy and the slip
// outputs read.
template <class S, class K>
MYRIAD_HD TireState<S> tire_contact_of(const K& k, const CompiledForce& f, const Vec3<S>& center,
                                       const Vec3<S>& v_center, const Vec3<S>& a, const Vec3<S>& omega, const S& road,
                                       const S& road_rate) {
  const int c = f.constants;
  const S radius = S(k[c + kTireRadius]);
  TireState<S> s;
  // a x n with n = e_z, and its length cos(gamma).
  const Vec3<S> a_cross_n{a.y, -a.x, S(0)};
  const S cos_gamma = scalar_sqrt(a.x * a.x + a.y * a.y);
  s.ex = (S(1) / cos_gamma) * a_cross_n;
  s.ey = Vec3<S>{-s.ex.y, s.ex.x, S(0)};
  s.gamma = scalar_atan(a.z / cos_gamma);
  const Vec3<S> lowest = center + radius * cross(a, s.ex);
  s.deflection = road - lowest.z;
  s.contact = Vec3<S>{lowest.x, lowest.y, road};
  const Vec3<S> v_lowest = v_center + cross(omega, lowest - center);
  const S deflection_rate = road_rate - v_lowest.z;
  const S v0 = S(k[c + kTireSpeed]);
  const S vx = dot(v_center, s.ex), vy = dot(v_center, s.ey);
  const S v_ref = scalar_sqrt(vx * vx + v0 * v0);
  s.kappa = (dot(omega, a) * (radius - s.deflection) - vx) / v_ref;
  s.alpha = scalar_atan(vy / v_ref);
  s.fz = S(k[c + kTireStiffness]) * s.deflection + S(k[c + kTireDamping]) * deflection_rate;
  s.in_contact = value_of(s.deflection) > 0.0 && value_of(s.fz) > 0.0;
  s.fx = s.fy = s.mz = S(0);
  if (!s.in_contact) s.fz = S(0);
  return s;
}

// The formula's Fx, Fy, Mz (Magic Formula, or Fiala for f.index 1) into s where the tire is on the road.
template <class S, class K>
MYRIAD_HD void add_tire_formula(const K& k, const CompiledForce& f, TireState<S>& s) {
  if (!s.in_contact) return;
  const ConstantsView<K> p{k, f.constants + kTireCoefficients};
  const TireForcesOf<S> forces =
      f.index == 1 ? fiala_forces(FialaParameters{p[kTireFialaRadius], p[kTireFialaWidth], p[kTireFialaCSlip],
                                                  p[kTireFialaCAlpha], p[kTireFialaUMin], p[kTireFialaUMax]},
                                  s.kappa, s.alpha, s.fz)
                   : tire_forces(p, s.kappa, s.alpha, s.gamma, s.fz);
  s.fx = forces.fx;
  s.fy = forces.fy;
  s.mz = forces.mz;
}

}  // namespace myriad
