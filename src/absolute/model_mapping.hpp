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
// 1's axis line through its origin: the in-plane coincidence of a planar pair, 2 DP2), distance and rod D (a
// rod's mass is the joint-coordinate engine's; here it is a massless distance). Drivers: a revolute coordinate as
// the seed drives its mechanisms, DP1(u_F, u_M) = cos(q(t)) (rheonomic); a prismatic one as DP2(axis_F, F -> M) =
// q(t). Their Gcon::driver is the model's driver index; the time function itself stays the model's.
//
// Host only; the model must have had its parameters applied (every Number literal). O(bodies + joints + loops).
#include <string>
#include <vector>

#include "absolute/joint_recipes.hpp"
#include "model/model.hpp"

namespace myriad {

// One body of the absolute engine, from a model body.
struct AbsoluteBodyMapping {
  std::string name;
  double mass = 0.0;
  Vec3<double> principal_inertia{};  // J-bar's diagonal (kg m^2), in P
  Mat3<double> R_BP{};               // P's axes in the model frame B (columns)
  Vec3<double> center_of_mass{};     // P's origin in B
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
  std::vector<std::string> unmapped;        // what produced no GCON and why (free joints, unsupported drivers)
  GconCounts counts{};                      // over `gcons`
};

// The mapping of a parameter-applied model. Throws std::invalid_argument naming the body when its inertia is not
// positive definite (no principal frame).
AbsoluteMapping map_to_absolute(const Model& model);

// A point p given in the frame of model body `body` (-1: the world) in the absolute frame of that body.
Vec3<double> absolute_point(const AbsoluteMapping& mapping, int body, const Vec3<double>& p);
// A direction likewise.
Vec3<double> absolute_direction(const AbsoluteMapping& mapping, int body, const Vec3<double>& a);

// "6 CD, 7 DP1, 4 DP2, 1 D" (the order of seed 002 Table 7).
std::string gcon_counts_text(const GconCounts& counts);

}  // namespace myriad
