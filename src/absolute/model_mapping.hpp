#pragma once
// A joint-coordinate model file (model/model.hpp) in seed 002's absolute coordinates: its bodies as the absolute
// engine's bodies and its joints, loops and drivers as GCONs (absolute/joint_recipes.hpp, Table 1), so that one
// model file describes a mechanism for either family and `myriad info` can say which primitives it produced (the
// counts of seed 002 Table 7).
//
// Bodies. The absolute engine's body frame sits at the centre of mass with its axes the principal axes of the
// centroidal inertia (J-bar diagonal, seed 002 sec. 3); a model's body frame need not. Each body b keeps its
// model frame B, and the absolute frame P of body b + 1 (0 is the ground, the world frame) has its origin at B's
// centre of mass c and its axes the columns of R_BP (right-handed eigenvectors of the inertia in B). A point p
// of B is s-bar = R_BP^T (p - c) in P, a direction a is R_BP^T a.
//
// Joints (Table 1; F the joint frame on the parent, M the one on the child, both coinciding at q = 0, `axis` in F
// and so in M; u, w unit vectors completing the axis to a right-handed triad):
//   revolute      RJ: point F = point M, the child's axis perpendicular to the parent's u and w  (3 CD, 2 DP1)
//   prismatic     TJ: the axis kept (_|_1), F -> M along it (_|_2), DP1(u_F, w_M) = 0           (3 DP1, 2 DP2)
//   cylindrical   CJ: _|_1 + _|_2                                                               (2 DP1, 2 DP2)
//   universal     UJ: SJ + DP1(axis on F, axis2 on M)                                            (3 CD, 1 DP1)
//   spherical     SJ                                                                             (3 CD)
//   planar        the normal kept (_|_1), M's origin in F's plane: DP2(axis_F, F -> M) = 0       (2 DP1, 1 DP2)
//   fixed         SJ + the three axes of M perpendicular to two of F's each                     (3 CD, 3 DP1)
//   free          no GCON
// Loops: cut_spherical SJ, cut_revolute RJ, cut_universal UJ, cut_planar_revolute _|_2 (frame 2's origin on frame
// 1's axis line through its origin: the in-plane coincidence of a planar pair, 2 DP2), distance and massless rod D,
// a rod with a mass a body of its own between two SJs (AbsoluteBodyMapping::rod_loop). Drivers: a revolute
// coordinate as the seed drives its mechanisms, DP1(u_F, u_M) = cos(q(t)) (rheonomic), or on request as the angle
// GCON = q(t); a prismatic one as DP2(axis_F, F -> M) = q(t). Their Gcon::driver is the model's driver index; the
// time function itself stays the model's.
// Force elements: an rsda on a revolute joint becomes the absolute engine's RSDA (absolute/absolute_forces.hpp)
// about the joint axis, its angle measured from F's u to M's u (= the joint coordinate), zero angle as the joint
// engine takes it (model/time_function_packing.hpp: shifted by whole turns for "shortest"), anchored at the
// joint's initial angle, its actuator by the compiled force element's time function; a joint_actuator about a
// rotation (revolute, a cylindrical joint's first coordinate) an RSDA without spring or damper, one along a
// translation (prismatic, a cylindrical joint's second) a force along the joint's DP2 row (AbsoluteActuator); a
// tsda the engine's TSDA between the mapped end points, its law the compiled model's. The engine's model then
// needs the compiled model and the instance's constants (AbsoluteModel::compiled, constants;
// backends/absolute_backend.cpp sets them). Bushings, tires and other actuators are listed as unmapped and missing.
//
// Host only; the model must have had its parameters applied (every Number literal). O(bodies + joints + loops).
#include <string>
#include <vector>

#include <stdexcept>

#include "absolute/absolute_dynamics.hpp"
#include "absolute/joint_recipes.hpp"
#include "model/model.hpp"
#include "spatial/quaternion.hpp"

namespace myriad {

// One body of the absolute engine, from a model body.
struct AbsoluteBodyMapping {
  std::string name;
  double mass = 0.0;
  Vec3<double> principal_inertia{};  // J-bar's diagonal (kg m^2), in P
  Mat3<double> R_BP{};               // P's axes in the model frame B (columns)
  Vec3<double> center_of_mass{};     // P's origin in B
  // A rod of the model (the loop of this index, of type rod with a mass) as a body of its own, after the model's
  // bodies: the slender bar between the loop's two points, its mass m at the midpoint and the isotropic inertia
  // m L^2 / 12, joined to the loop's two bodies by spherical joints at its ends, -L/2 and +L/2 along its x axis. Its
  // kinetic energy m/2 |(v1 + v2)/2|^2 + m L^2/24 |omega|^2 is the rod's, m/6 (|v1|^2 + v1 . v2 + |v2|^2) (seed 001
  // eqs. 18-19, docs/model-format.md), with omega the transverse rate |v2 - v1| / L: no moment about the bar's own
  // axis acts on it (its joints are points on the axis, gravity acts at the midpoint), so its spin, zero at the
  // start, stays zero, and its isotropic inertia stands in for the bar's missing axial one. -1: a model body (B is
  // then the model's frame; for a rod B = P, R_BP = I).
  int rod_loop = -1;
};

// What produced one group of GCONs.
struct GconSource {
  std::string what;  // "joint 'pivot' (revolute)", "loop 'crank_pin' (cut_spherical)", "driver 'crank_drive'"
  GconCounts counts{};
};

struct AbsoluteMapping {
  std::vector<AbsoluteBodyMapping> bodies;  // body b of the model is absolute body b + 1
  std::vector<Gcon<double>> gcons;          // joints (model order), then loops, then drivers
  std::vector<GconSource> sources;          // in the same order, one per joint, loop and driver
  std::vector<AbsoluteRsda> rsdas;          // the model's rsda elements and revolute joint actuators, in model order
  std::vector<AbsoluteTsda> tsdas;          // the model's tsda elements, in model order
  std::vector<AbsoluteActuator> actuators;  // the model's translational joint actuators, in model order
  std::vector<AbsoluteBushing> bushings;    // the model's bushings, in model order
  std::vector<AbsoluteTire> tires;          // the model's tires, in model order
  std::vector<std::string> unmapped;        // what produced no GCON and why (free joints, unsupported drivers)
  std::vector<std::string> missing;         // those of `unmapped` whose physics the mapped model lacks (forces,
                                            // actuators, drivers it cannot express): a run would be another model
  GconCounts counts{};                      // over `gcons`
  Vec3<double> gravity{};                   // the model's
};

// How a revolute driver becomes a GCON: as seed 002 drives its mechanisms, DP1(u_F, u_M) = cos q (its row vanishes
// where sin q = 0, twice a turn of a fully turning crank), or as the angle GCON from u_F to u_M about the axis = q
// (absolute/constraint_primitives.hpp; regular everywhere).
enum class RevoluteDriverGcon { dp1_cosine, angle };

// The order of a body's principal axes: as the body's inertia gives them (its own axes where it is diagonal), or
// cyclically turned so that the z axis starts away from the world's z (within 45 degrees of it: then the axis
// farthest from it), for re: the ZXZ Euler angles are singular where a body's z is the world's (theta = 0 or pi),
// and a model's bodies often start with their axes along the world's (a quarter car's masses, a rotor about the
// world z). A cyclic order keeps the frame right-handed; rp and rA take either.
enum class BodyAxisOrder { as_found, z_away_from_world_z };

// The mapping of a parameter-applied model. Throws std::invalid_argument naming the body when its inertia is not
// positive definite (no principal frame).
AbsoluteMapping map_to_absolute(const Model& model,
                                RevoluteDriverGcon revolute_drivers = RevoluteDriverGcon::dp1_cosine,
                                BodyAxisOrder axes = BodyAxisOrder::as_found);

// A point p given in the frame of model body `body` (-1: the world) in the absolute frame of that body.
Vec3<double> absolute_point(const AbsoluteMapping& mapping, int body, const Vec3<double>& p);
// A direction likewise.
Vec3<double> absolute_direction(const AbsoluteMapping& mapping, int body, const Vec3<double>& a);

// "6 CD, 7 DP1, 4 DP2, 1 D" (the order of seed 002 Table 7).
std::string gcon_counts_text(const GconCounts& counts);

// Copies a mapping's force elements into the engine's fixed array (std::invalid_argument naming `what` when there
// are more than it holds).
template <class Element, int N>
void copy_force_elements(const std::vector<Element>& from, Element (&to)[N], int& count, const char* what) {
  if (from.size() > static_cast<size_t>(N))
    throw std::invalid_argument("absolute_model: the mapping has " + std::to_string(from.size()) + " " + what +
                                ", more than the engine's " + std::to_string(N));
  count = static_cast<int>(from.size());
  for (int e = 0; e < count; ++e) to[e] = from[static_cast<size_t>(e)];
}

// The mapping as the absolute engine's model (absolute/absolute_dynamics.hpp) with capacities NB, NC, which must
// hold the mapping's bodies and GCONs (its body_count and gcon_count are the mapping's), and its RSDAs, TSDAs,
// actuators, bushings and tires (at most kMaxAbsoluteRsdas, kMaxAbsoluteTsdas, kMaxAbsoluteActuators,
// kMaxAbsoluteBushings, kMaxAbsoluteTires) (std::invalid_argument otherwise). The drivers' forms are the caller's: a driven GCON's driver index is the model's driver index, whose
// time function the caller packs into the driver (backends/absolute_backend.cpp) or writes in seed 002's form (a
// ramp q = omega t is AbsoluteDriver{0, 1, omega} on the revolute driver's DP1 value cos q); so are the compiled
// model and constants the force laws read. O(NB + NC).
template <int NB, int NC>
AbsoluteModel<NB, NC> absolute_model(const AbsoluteMapping& mapping) {
  if (static_cast<int>(mapping.bodies.size()) > NB || static_cast<int>(mapping.gcons.size()) > NC)
    throw std::invalid_argument("absolute_model: the mapping has " + std::to_string(mapping.bodies.size()) +
                                " bodies and " + std::to_string(mapping.gcons.size()) + " GCONs, more than " +
                                std::to_string(NB) + " and " + std::to_string(NC));
  AbsoluteModel<NB, NC> model;
  model.body_count = static_cast<int>(mapping.bodies.size());
  model.gcon_count = static_cast<int>(mapping.gcons.size());
  for (int b = 0; b < model.body_count; ++b) {
    model.mass[b] = mapping.bodies[static_cast<size_t>(b)].mass;
    model.inertia[b] = mapping.bodies[static_cast<size_t>(b)].principal_inertia;
  }
  for (int c = 0; c < model.gcon_count; ++c) model.gcons[c] = mapping.gcons[static_cast<size_t>(c)];
  model.gravity = mapping.gravity;
  copy_force_elements(mapping.rsdas, model.rsdas, model.rsda_count, "rotational spring-dampers");
  copy_force_elements(mapping.tsdas, model.tsdas, model.tsda_count, "translational spring-dampers");
  copy_force_elements(mapping.actuators, model.actuators, model.actuator_count, "translational actuators");
  copy_force_elements(mapping.bushings, model.bushings, model.bushing_count, "bushings");
  copy_force_elements(mapping.tires, model.tires, model.tire_count, "tires");
  return model;
}

// One model body's state in the world, as the joint-coordinate engine's kinematics give it.
struct WorldBodyState {
  Mat3<double> R_WB;       // the model frame's orientation
  Vec3<double> p_cm, v_cm;  // the centre of mass and its velocity
  Vec3<double> w;          // angular velocity, world axes
};

// Appends the world states of the mapping's rod bodies to `states` (the model bodies' world states, in model order):
// each rod's centre at its points' midpoint, its x axis from point 1 to point 2, its z axis horizontal
// (perpendicular to the world's z and the rod, or to the world's x for a vertical rod: away from re's gimbal lock),
// the centre's velocity the points' mean and the angular velocity d x (v2 - v1) / |d|^2 (d = p2 - p1; no spin).
void append_rod_states(const Model& model, const AbsoluteMapping& mapping, std::vector<WorldBodyState>& states);

// Every model body's world state at joint coordinates q and velocities v (the model's own; empty: its initial
// ones), by the joint-coordinate engine's host kinematics (constraints/model_kinematics.hpp): the start of an
// absolute run of a model file. Throws as that kinematics does (std::invalid_argument for wrong sizes).
std::vector<WorldBodyState> world_body_states(const Model& model, const std::vector<double>& q = {},
                                              const std::vector<double>& v = {});

// The absolute engine's y = (q, q') for representation Rep (rp: r and Euler parameters p with w >= 0; re: r and the
// ZXZ angles, theta in (0, pi)) of the mapped bodies in the given states. O(bodies).
template <class Rep>
std::vector<double> absolute_state(const AbsoluteMapping& mapping, const std::vector<WorldBodyState>& bodies) {
  const size_t n = bodies.size();
  std::vector<double> q, rates;
  for (size_t b = 0; b < n; ++b) {
    const Mat3<double> A = bodies[b].R_WB * mapping.bodies[b].R_BP;
    const Vec3<double> omega_bar = transpose_times(A, bodies[b].w);
    q.insert(q.end(), {bodies[b].p_cm.x, bodies[b].p_cm.y, bodies[b].p_cm.z});
    rates.insert(rates.end(), {bodies[b].v_cm.x, bodies[b].v_cm.y, bodies[b].v_cm.z});
    if (Rep::kNormalized) {  // omega-bar = 2 G(p) p', G G^T = I, G p = 0: p' = G^T omega-bar / 2
      const Quat<double> p = euler_parameters_of(A);
      const Quat<double> p_dot = transpose_times(euler_parameter_g(p), 0.5 * omega_bar);
      q.insert(q.end(), {p.w, p.x, p.y, p.z});
      rates.insert(rates.end(), {p_dot.w, p_dot.x, p_dot.y, p_dot.z});
    } else {
      const EulerAngles<double> e = euler_angles_of(A);
      const EulerAngles<double> e_dot = euler_angle_rate(e, omega_bar);
      q.insert(q.end(), {e.phi, e.theta, e.psi});
      rates.insert(rates.end(), {e_dot.phi, e_dot.theta, e_dot.psi});
    }
  }
  q.insert(q.end(), rates.begin(), rates.end());
  return q;
}

}  // namespace myriad
