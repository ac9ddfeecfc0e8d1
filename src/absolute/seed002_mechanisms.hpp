#pragma once
// Seed 002's pendulums (sec. 4.2) in absolute coordinates, as the tests and bench/seed002_absolute.cpp use them:
// slender rods whose body frame has x along the rod (J-bar = diag(0.0325, 104, 104) for the 4 m, 78 kg rod,
// diag(0.01625, 13.01, 13.01) for the 2 m, 39 kg one) and z along the hinge axis, global x, so that the ZXZ angles
// keep theta = 90 deg, away from their singularity, while the rods swing in the global y-z plane. Gravity -z. The
// same mechanisms in joint coordinates are tests/data/seed002/*.json. Host only.
#include <cmath>
#include <vector>

#include "absolute/absolute_dynamics.hpp"
#include "absolute/joint_recipes.hpp"
#include "spatial/quaternion.hpp"

namespace myriad {

// The single pendulum: the 4 m rod hinged to the ground at the origin (its end at s-bar = (-2, 0, 0)), undriven.
inline AbsoluteModel<1, 5> seed002_single_pendulum() {
  AbsoluteModel<1, 5> model;
  model.mass[0] = 78.0;
  model.inertia[0] = {0.0325, 104.0, 104.0};
  const JointGcons<double> hinge =
      revolute_joint<double>(0, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}, 1, {-2.0, 0.0, 0.0}, {0.0, 0.0, 1.0});
  for (int k = 0; k < 5; ++k) model.gcons[k] = hinge.gcons[k];
  return model;
}

// The same, driven as the seed drives it: a rheonomic DP1 sets the angle between the rod's local y axis and the
// global -z axis to pi/2 + pi/4 cos 2t (3 CD + 3 DP1, Table 7).
inline AbsoluteModel<1, 6> seed002_driven_single_pendulum() {
  const AbsoluteModel<1, 5> free = seed002_single_pendulum();
  AbsoluteModel<1, 6> model;
  model.mass[0] = free.mass[0];
  model.inertia[0] = free.inertia[0];
  for (int k = 0; k < 5; ++k) model.gcons[k] = free.gcons[k];
  model.gcons[5] = driven(make_dp1<double>(1, {0.0, 1.0, 0.0}, 0, {0.0, 0.0, -1.0}, 0.0), 0);
  model.drivers[0].offset = 0.5 * M_PI;
  model.drivers[0].amplitude = 0.25 * M_PI;
  model.drivers[0].frequency = 2.0;
  model.drivers[0].cosine_of_angle = true;
  return model;
}

// The double pendulum: the 4 m rod hinged at the origin, the 2 m rod hinged to its far end (s-bar = (2, 0, 0) on
// rod 1, (-1, 0, 0) on rod 2), both about global x.
inline AbsoluteModel<2, 10> seed002_double_pendulum() {
  AbsoluteModel<2, 10> model;
  const AbsoluteModel<1, 5> first = seed002_single_pendulum();
  model.mass[0] = first.mass[0], model.inertia[0] = first.inertia[0];
  model.mass[1] = 39.0, model.inertia[1] = {0.01625, 13.01, 13.01};
  const JointGcons<double> elbow =
      revolute_joint<double>(1, {2.0, 0.0, 0.0}, {1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, 2, {-1.0, 0.0, 0.0}, {0.0, 0.0, 1.0});
  for (int k = 0; k < 5; ++k) model.gcons[k] = first.gcons[k], model.gcons[5 + k] = elbow.gcons[k];
  return model;
}

// Appends one rod's coordinates to q: its centre of mass, then its orientation with the rod at `alpha` from -z
// towards +y (A = Rx(alpha - pi/2) Rz(pi/2) Rx(pi/2): body x -> (0, sin alpha, -cos alpha), body z -> global x),
// as Euler parameters (rp) or ZXZ angles (pi/2, pi/2, alpha - pi/2) (re).
template <class Rep>
void append_seed002_rod(std::vector<double>& q, const Vec3<double>& centre_of_mass, double alpha) {
  const double quarter = 0.5 * M_PI;
  q.insert(q.end(), {centre_of_mass.x, centre_of_mass.y, centre_of_mass.z});
  if (Rep::kNormalized) {
    const Quat<double> p = quat_exp(Vec3<double>{alpha - quarter, 0.0, 0.0}) * quat_exp(Vec3<double>{0.0, 0.0, quarter}) *
                           quat_exp(Vec3<double>{quarter, 0.0, 0.0});
    q.insert(q.end(), {p.w, p.x, p.y, p.z});
  } else {
    q.insert(q.end(), {quarter, quarter, alpha - quarter});
  }
}

// y0 = (q, 0): the single pendulum horizontal along +y, or the double pendulum with rod 1 along +y and rod 2
// hanging along -z below its far end (seed 002 sec. 4.2), at rest.
template <class Rep>
std::vector<double> seed002_pendulum_start(int bodies) {
  std::vector<double> y;
  append_seed002_rod<Rep>(y, {0.0, 2.0, 0.0}, 0.5 * M_PI);
  if (bodies == 2) append_seed002_rod<Rep>(y, {0.0, 4.0, -1.0}, 0.0);
  y.resize(2 * y.size(), 0.0);
  return y;
}

}  // namespace myriad
