#pragma once
// Seed 002's mechanisms (sec. 4.2, Table 7) in absolute coordinates, as the tests and
// bench/seed002_absolute.cpp use them. Gravity -z. The same mechanisms in joint coordinates are
// tests/data/seed002/*.json (the four link's is the project's stand-in, models/loops/four_link.json). Host
// only.
//
// The pendulums: slender rods whose body frame has x along the rod (J-bar = diag(0.0325, 104, 104) for the
// 4 m, 78 kg rod, diag(0.01625, 13.01, 13.01) for the 2 m, 39 kg one) and z along the hinge axis, global x,
// so that the ZXZ angles keep theta = 90 deg, away from their singularity, while the rods swing in the
// global y-z plane.
//
// The slider crank and the four link: closed loops driven by one rheonomic DP1 each (0 DOF), built below
// from the joint recipes of Table 1 with Table 7's GCON counts.
#include <cmath>
#include <vector>

#include "absolute/absolute_dynamics.hpp"
#include "absolute/absolute_kinematics.hpp"
#include "absolute/joint_recipes.hpp"
#include "absolute/rotation_matrix_dynamics.hpp"
#include "absolute/rotation_matrix_kinematics.hpp"
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

// ======================== the closed loops: slider crank and four link (sec. 4.2) ========================

// Their body frames. Each body's frame sits at its centre of mass (AbsoluteDae's bodies have their origin
// there) with the axes of the joint-coordinate model's body frame renamed cyclically, x' = y, y' = z,
// z' = x (a turn of 120 deg about (1, 1, 1): still right-handed). A permutation keeps J-bar diagonal:
// J-bar' = (J_y, J_z, J_x). Why z' = the old x: ZXZ angles (re) are singular where body z' is parallel to
// global z (sin theta = 0, the gimbal lock of absolute/rotation_representation.hpp), and in both mechanisms
// every body's old x is a horizontal rotation axis (crank, rocker), a horizontal guide (slider), a bar
// turning in a horizontal plane (rotor) or a bar that never comes near the vertical (rod, coupler); each
// model's comment gives the smallest sin theta along its motion. The old z would not do: the slider's and
// the rotor's are global z (theta = 0 throughout) and the crank's and the rocker's pass through it. rp uses
// the same frames (one model for both representations).
inline Vec3<double> seed002_renamed_axes(const Vec3<double>& v_old) { return {v_old.y, v_old.z, v_old.x}; }

// A' = A P, P = [old y, old z, old x] (columns), the rotation matrix of the Euler parameters (1, 1, 1, 1)/2.
inline Mat3<double> seed002_renamed_orientation(const Mat3<double>& A_old) {
  return A_old * rotation_matrix(Quat<double>{0.5, 0.5, 0.5, 0.5});
}

// Three bodies' poses, centres of mass r and orientations A_old of the joint-coordinate frames renamed as
// above, as the (r, A) of an rA state (absolute/rotation_matrix_dynamics.hpp) with zero velocities: what the
// starts below take, in rA itself or converted to rp or re.
inline RotationMatrixState<3> seed002_renamed_poses(const Vec3<double> (&r)[3],
                                                    const Mat3<double> (&A_old)[3]) {
  RotationMatrixState<3> poses;
  for (int b = 0; b < 3; ++b) {
    poses.r[b] = r[b], poses.A[b] = seed002_renamed_orientation(A_old[b]);
    poses.r_dot[b] = poses.omega_bar[b] = {0.0, 0.0, 0.0};
  }
  return poses;
}

// Appends one body's coordinates: its centre of mass r, then the orientation A as Euler parameters (rp, e0 >=
// 0) or ZXZ angles (re, theta in (0, pi), which the frames above keep away from its ends).
template <class Rep>
void append_seed002_body(std::vector<double>& q, const Vec3<double>& r, const Mat3<double>& A) {
  q.insert(q.end(), {r.x, r.y, r.z});
  if (Rep::kNormalized) {
    const Quat<double> p = euler_parameters_of(A);
    q.insert(q.end(), {p.w, p.x, p.y, p.z});
  } else {
    const EulerAngles<double> e = euler_angles_of(A);
    q.insert(q.end(), {e.phi, e.theta, e.psi});
  }
}

// y0 = (q, q') of a 0-DOF (fully driven) mechanism at time t from the poses q: q polished by the position
// analysis (a pose consistent to rounding takes one Newton iteration), q' from the velocity analysis
// Phi_q q' = nu (seed 002 sec. 2; absolute/absolute_kinematics.hpp). Empty if either fails (a singular
// Phi_q). O(NQ^3).
template <class Rep, int NB, int NC>
std::vector<double> seed002_driven_start(const AbsoluteModel<NB, NC>& model, std::vector<double> q,
                                         double t) {
  AbsoluteKinematics<Rep, NB, NC> kinematics;
  kinematics.dae.model = &model;
  constexpr int NQ = AbsoluteKinematics<Rep, NB, NC>::NQ;
  int iterations = 0;
  if (static_cast<int>(q.size()) != NQ || !kinematics.positions(t, q.data(), iterations, 1e-14)) return {};
  q.resize(2 * NQ);
  if (!kinematics.velocities(t, q.data(), q.data() + NQ)) return {};
  return q;
}

// The same from the bodies' poses (r, A) in `poses` (their velocities unused), in the representation Rep.
template <class Rep, int NB, int NC>
std::vector<double> seed002_driven_start(const AbsoluteModel<NB, NC>& model,
                                         const RotationMatrixState<NB>& poses, double t) {
  std::vector<double> q;
  for (int b = 0; b < NB; ++b) append_seed002_body<Rep>(q, poses.r[b], poses.A[b]);
  return seed002_driven_start<Rep>(model, q, t);
}

// The same start in rA (absolute/rotation_matrix_dynamics.hpp): s, holding the poses (e.g.
// seed002_slider_crank_poses()), becomes (r, A, r', omega-bar) at time t: r and A polished by rA's position
// analysis (A turned by A exp(-dtheta-bar~), so it stays on SO(3)), r' and omega-bar from its velocity
// analysis [Phi_r Phi_pi] (r', omega-bar) = nu (absolute/rotation_matrix_kinematics.hpp). False if either
// fails (a singular Jacobian). O(NV^3).
template <int NB, int NC>
bool seed002_driven_rotation_matrix_start(const AbsoluteModel<NB, NC>& model, RotationMatrixState<NB>& s,
                                          double t) {
  RotationMatrixKinematics<NB, NC> kinematics;
  kinematics.dynamics.model = &model;
  int iterations = 0;
  return kinematics.positions(t, s, iterations, 1e-14) && kinematics.velocities(t, s);
}

namespace seed002_detail {
// Fills a model's GCON list in order.
template <int NB, int NC>
struct GconList {
  AbsoluteModel<NB, NC>& model;
  int count = 0;
  void add(const Gcon<double>& g) { model.gcons[count++] = g; }
  void add(const JointGcons<double>& joint) {
    for (int k = 0; k < joint.count; ++k) add(joint.gcons[k]);
  }
};
}  // namespace seed002_detail

// Seed 002's slider crank (sec. 4.2, Fig. 1; "the parameters of Haug 1989 ch. 10", not printed in the seed)
// as the seed authors' public models have it (tests/data/seed002/README.md, "slider_crank.json": geometry,
// start and GCON list of alliekissel/simEngine3D models/sliderCrank3d.mdl, masses, inertias and driver value
// of their setup code). Bodies 1 crank, 2 connecting rod, 3 slider, 0 the ground; frames renamed as above
// from the README's (crank old x = global x, its axis; rod old x along the rod, from the crank pin to the
// slider; slider old axes the world's): in these frames the crank pin is crank (0.08, 0, 0), the rod's ends
// rod (0, 0, -+0.15), and J-bar = (1e-5, 1e-4, 1e-4) (crank), (4e-4, 4e-3, 4e-3) (rod), 1e-4 I (slider).
// Masses 0.12, 0.5, 2 kg.
//
// GCONs (Table 7: 6 CD, 7 DP1, 4 DP2, 1 D = 18 = 6 x 3 bodies: 0 DOF), the authors' list grouped by joint:
//   0-4    crank to ground, revolute at (0, 0.1, 0.12) about global x (ground y, z normal to the crank's
//          axis): 3 CD + 2 DP1
//   5      driver: DP1(ground y, crank old y) = cos(-2 pi t + pi/2) = sin 2 pi t, the value of the authors'
//          setup code (their .mdl file has cos(2 pi t + pi/2), a turn about +x); crank old y = (0, sin q,
//          cos q) for the crank turned by q about -x (README), so q = 2 pi t, the seed's "about its negative
//          x-axis": 1 DP1
//   6-8    rod to crank, spherical at the crank pin: 3 CD
//   9-12   rod to slider, the README's universal joint ("rod end on the slider origin, rod y normal to
//          slider x") with its point coincidence written as the authors write it, not as 3 CD: DP1(rod y,
//          slider x) = 0 (the cross pins); _|_2: the slider origin minus the rod end normal to rod y and
//          rod z, i.e. on the rod's axis (2 DP2); D: the slider's point (1, 0, 0) 1 m from the rod end
//          (f = 1 m^2), which on that axis leaves the rod end at the slider origin or 2 (rod x . slider x) m
//          from it along the rod, a regular root while rod x . slider x != 0 (here >= 0.6):
//          1 DP1 + 2 DP2 + 1 D
//   13-17  slider to ground, translational along global x: DP1(slider z, ground y) + _|_1(slider z, y;
//          ground x) + _|_2(slider z, y; slider origin to ground (0.2, 0, 0)): 3 DP1 + 2 DP2
// CD 3 + 3 = 6; DP1 2 + 1 + 1 + 3 = 7; DP2 2 + 2 = 4; D 1. With the universal joint as Table 1 has it (SJ +
// DP1) the counts would be 9 CD, 7 DP1, 2 DP2, 0 D: Table 7's D and its last two DP2 are the authors' point
// coincidence.
//
// The driver's limit: a DP1 of two unit vectors fixes the cosine of their angle, which is stationary where
// they are parallel: here crank old y = +-ground y, q = pi/2 + k pi, t = 1/4 + k/2 s. There the driver's row
// of Phi_q vanishes along the mechanism's one motion, so the kinematics' Jacobian and the dynamics' matrix
// are singular, and q(t) and pi - q(t) give the same f: the position analysis cannot be solved at those
// instants, and after them the previous position alone cannot tell the branch (a predictor that uses q' can).
// No choice of the two vectors avoids this for a crank that turns fully (a smooth periodic f(q) has
// stationary points); it only moves the instants.
//
// re along the motion: crank and slider keep theta = 90 deg (z' = global x); the rod's z' is the rod, whose z
// component -(crank pin z) / 0.3 stays in [-2/3, -0.13] (pin z in [0.04, 0.2]), so sin theta >= 0.745.
inline AbsoluteModel<3, 18> seed002_slider_crank() {
  AbsoluteModel<3, 18> model;
  const Vec3<double> crank_inertia{1e-4, 1e-5, 1e-4}, rod_inertia{4e-3, 4e-4, 4e-3};
  model.mass[0] = 0.12, model.inertia[0] = seed002_renamed_axes(crank_inertia);
  model.mass[1] = 0.5, model.inertia[1] = seed002_renamed_axes(rod_inertia);
  model.mass[2] = 2.0, model.inertia[2] = {1e-4, 1e-4, 1e-4};
  const auto axes = seed002_renamed_axes;
  const Vec3<double> origin{0.0, 0.0, 0.0}, x{1.0, 0.0, 0.0}, y{0.0, 1.0, 0.0}, z{0.0, 0.0, 1.0};
  const Vec3<double> crank_pin = axes({0.0, 0.08, 0.0}), rod_crank_end = axes({-0.15, 0.0, 0.0}),
                     rod_slider_end = axes({0.15, 0.0, 0.0});
  seed002_detail::GconList<3, 18> list{model};
  list.add(revolute_joint<double>(0, {0.0, 0.1, 0.12}, y, z, 1, origin, axes(x)));
  list.add(driven(make_dp1<double>(0, y, 1, axes(y), 0.0), 0));
  list.add(spherical_joint<double>(2, rod_crank_end, 1, crank_pin));
  list.add(make_dp1<double>(2, axes(y), 3, axes(x), 0.0));
  list.add(perpendicular_2<double>(2, axes(y), axes(z), rod_slider_end, 3, origin));
  list.add(distance_joint<double>(2, rod_slider_end, 3, axes(x), 1.0));
  list.add(translational_joint<double>(3, origin, axes(z), axes(y), 0, {0.2, 0.0, 0.0}, x, y));
  // f = cos(-2 pi t + pi/2): AbsoluteDriver's offset + amplitude cos(frequency t + phase), used as f itself.
  model.drivers[0].amplitude = 1.0;
  model.drivers[0].frequency = -2.0 * M_PI;
  model.drivers[0].phase = 0.5 * M_PI;
  return model;
}

// The bodies' poses at t = 0, the authors' start (README): crank at its pivot with old y =
// global +z; rod centre (0.1, 0.05, 0.1), old x = (2, -1, -2) / 3 from the pin (0, 0.1, 0.2) to the slider,
// old y = (0, 2, -1) / sqrt 5 (normal to global x), old z = x cross y = (5, 2, 4) / (3 sqrt 5); slider at
// (0.2, 0, 0), old axes the world's.
inline RotationMatrixState<3> seed002_slider_crank_poses() {
  const double r5 = std::sqrt(5.0);
  const Mat3<double> crank{{{1.0, 0.0, 0.0}, {0.0, 0.0, -1.0}, {0.0, 1.0, 0.0}}};
  const Mat3<double> rod{{{2.0 / 3.0, 0.0, 5.0 / (3.0 * r5)},
                          {-1.0 / 3.0, 2.0 / r5, 2.0 / (3.0 * r5)},
                          {-2.0 / 3.0, -1.0 / r5, 4.0 / (3.0 * r5)}}};
  return seed002_renamed_poses({{0.0, 0.1, 0.12}, {0.1, 0.05, 0.1}, {0.2, 0.0, 0.0}},
                               {crank, rod, Mat3<double>::identity()});
}

// y0 = (q, q') at t = 0 from those poses, velocities from the velocity analysis (crank -2 pi rad/s about x,
// rod centre (-0.04 pi, 0.08 pi, 0), slider -0.08 pi along x). In rA: seed002_driven_rotation_matrix_start.
template <class Rep>
std::vector<double> seed002_slider_crank_start() {
  return seed002_driven_start<Rep>(seed002_slider_crank(), seed002_slider_crank_poses(), 0.0);
}

// The four link (sec. 4.2: "the rotor is prescribed to rotate at a rate of pi rad/s about its z-axis";
// Table 7: 12 CD, 6 DP1). Haug's ch. 10 numbers are not available (tests/data/seed002/README.md, "Four link
// (Haug's, not provided)"), so the dimensions, masses and start are the project's stand-in
// models/loops/four_link.json (models/loops/README.md), NOT Haug's: rotor 0.2 m about global z through the
// origin, rocker 0.5 m about global x through G = (0.6, 0, 0.4), coupler 0.9 m, slender bars of 2 kg/m
// (0.4, 1, 1.8 kg; I = m L^2 / 12 across, m (0.01 m)^2 / 2 along). Bodies 1 rotor, 2 rocker, 3 coupler;
// frames at the centres of mass (the file's sit at the joints), axes renamed as above: rotor pivot and pin
// at rotor (0, 0, -+0.1), axis (old z) rotor y'; rocker pivot and tip at rocker (-+0.25, 0, 0), axis rocker
// z', cross pin (old z) y'; coupler ends at coupler (0, 0, -+0.45), cross pin (old y) x'.
//
// GCONs (Table 7: 12 CD + 6 DP1 = 18 = 6 x 3 bodies: 0 DOF):
//   0-4    rotor to ground, revolute about global z through the origin: 3 CD + 2 DP1
//   5      driver: DP1(ground x, rotor old y) = cos(pi t + pi/2), the authors' value (README); rotor old y
//          = (-sin th, cos th, 0), so the rotor angle th = pi t (the file's ramp): 1 DP1
//   6-10   rocker to ground, revolute about global x through G: 3 CD + 2 DP1
//   11-14  coupler to rocker, universal at the rocker tip, cross pins rocker old z, coupler old y:
//          3 CD + 1 DP1
//   15-17  coupler to rotor, spherical at the rotor pin (the joint-coordinate model's cut joint): 3 CD
// CD 3 + 3 + 3 + 3 = 12; DP1 2 + 1 + 2 + 1 = 6. The driver is stationary, and Phi_q singular, as the slider
// crank's, at th = pi/2 + k pi: t = 1/2 + k s.
//
// re along the motion: rotor z' is its bar (horizontal) and rocker z' its axis (global x): theta = 90 deg;
// coupler z' is the coupler, whose z component -(0.4 + 0.5 sin phi) / 0.9 stays in [-0.83, -0.06] (the rocker
// angle phi within +-0.7734 rad, models/loops/README.md), so sin theta >= 0.55.
inline AbsoluteModel<3, 18> four_link_stand_in() {
  AbsoluteModel<3, 18> model;
  const auto axes = seed002_renamed_axes;
  model.mass[0] = 0.4, model.inertia[0] = axes({2e-05, 0.0013333333333333333, 0.0013333333333333333});
  model.mass[1] = 1.0, model.inertia[1] = axes({0.020833333333333332, 5e-05, 0.020833333333333332});
  model.mass[2] = 1.8, model.inertia[2] = axes({9e-05, 0.1215, 0.1215});
  const Vec3<double> origin{0.0, 0.0, 0.0}, x{1.0, 0.0, 0.0}, y{0.0, 1.0, 0.0}, z{0.0, 0.0, 1.0};
  seed002_detail::GconList<3, 18> list{model};
  list.add(revolute_joint<double>(0, origin, x, y, 1, axes({-0.1, 0.0, 0.0}), axes(z)));
  list.add(driven(make_dp1<double>(0, x, 1, axes(y), 0.0), 0));
  list.add(revolute_joint<double>(0, {0.6, 0.0, 0.4}, y, z, 2, axes({0.0, -0.25, 0.0}), axes(x)));
  list.add(universal_joint<double>(2, axes({0.0, 0.25, 0.0}), axes(z), 3, axes({-0.45, 0.0, 0.0}), axes(y)));
  list.add(spherical_joint<double>(1, axes({0.1, 0.0, 0.0}), 3, axes({0.45, 0.0, 0.0})));
  // f = cos(pi t + pi/2) as AbsoluteDriver's offset + amplitude cos(frequency t + phase).
  model.drivers[0].amplitude = 1.0;
  model.drivers[0].frequency = M_PI;
  model.drivers[0].phase = 0.5 * M_PI;
  return model;
}

// The bodies' poses at t = 0 (rotor angle 0): rotor along +x (centre (0.1, 0, 0)); rocker at
// phi = asin 0.6 (models/loops/README.md), centre G + Rx(phi) (0, 0.25, 0) = (0.6, 0.2, 0.55), tip R = (0.6,
// 0.4, 0.7); coupler from R to the rotor pin (0.2, 0, 0), old x = u = (-0.4, -0.4, -0.7) / 0.9, old y along
// rocker z x u (normal to the rocker's cross pin, the sign of the file's universal angles), centre R + 0.45 u
// = (0.4, 0.2, 0.35).
inline RotationMatrixState<3> four_link_stand_in_poses() {
  const double s = 0.6, c = 0.8;
  const Mat3<double> rocker{{{1.0, 0.0, 0.0}, {0.0, c, -s}, {0.0, s, c}}};
  const Vec3<double> tip{0.6, 0.4, 0.7};
  const Vec3<double> u = (1.0 / 0.9) * (Vec3<double>{0.2, 0.0, 0.0} - tip);
  const Vec3<double> cross_pin = cross(Vec3<double>{0.0, -s, c}, u);
  const Vec3<double> v = (1.0 / norm(cross_pin)) * cross_pin, w = cross(u, v);
  const Mat3<double> coupler{{{u.x, v.x, w.x}, {u.y, v.y, w.y}, {u.z, v.z, w.z}}};
  return seed002_renamed_poses({{0.1, 0.0, 0.0}, {0.6, 0.2, 0.55}, tip + 0.45 * u},
                               {Mat3<double>::identity(), rocker, coupler});
}

// y0 = (q, q') at t = 0 from those poses, velocities from the velocity analysis. In rA:
// seed002_driven_rotation_matrix_start.
template <class Rep>
std::vector<double> four_link_stand_in_start() {
  return seed002_driven_start<Rep>(four_link_stand_in(), four_link_stand_in_poses(), 0.0);
}

// ======================== the same loops driven on the angle itself ========================
//
// A mechanism whose DP1 driver (gcons[driver_gcon], between f-bar_i on body i and f-bar_j on body j, both
// normal to the hinge axis h-bar_i on body i) is replaced by the angle GCON from f_i to f_j about h_i
// (absolute/constraint_primitives.hpp), driven by offset + rate t. The DP1's cos(angle) is stationary twice a
// turn (the singular instants above); the angle's row never vanishes, so the kinematics and the index-1
// dynamics run through whole turns. Same GCON count (the driver's one row), 0 DOF as before.
template <int NB, int NC>
AbsoluteModel<NB, NC> seed002_angle_driven(AbsoluteModel<NB, NC> model, int driver_gcon,
                                           const Vec3<double>& h_bar_i, double offset, double rate) {
  const Gcon<double> dp1 = model.gcons[driver_gcon];
  model.gcons[driver_gcon] =
      driven(make_angle<double>(dp1.body_i, h_bar_i, dp1.a_bar_i, dp1.body_j, dp1.a_bar_j, 0.0), dp1.driver);
  AbsoluteDriver ramp;
  ramp.offset = offset, ramp.rate = rate;
  model.drivers[dp1.driver] = ramp;
  return model;
}

// The slider crank: the angle from ground y to crank old y about global x is pi/2 - q = pi/2 - 2 pi t (the crank
// turns by q about -x; its DP1 value sin 2 pi t is this angle's cosine).
inline AbsoluteModel<3, 18> seed002_slider_crank_angle_driven() {
  return seed002_angle_driven(seed002_slider_crank(), 5, {1.0, 0.0, 0.0}, 0.5 * M_PI, -2.0 * M_PI);
}

// The four link: the angle from ground x to rotor old y = (-sin th, cos th, 0) about global z is pi/2 + pi t.
inline AbsoluteModel<3, 18> four_link_stand_in_angle_driven() {
  return seed002_angle_driven(four_link_stand_in(), 5, {0.0, 0.0, 1.0}, 0.5 * M_PI, M_PI);
}

// ---- the rA representation (absolute/rotation_matrix_dynamics.hpp): the same poses, each rod's orientation the
// rotation matrix of the Euler parameters append_seed002_rod builds ----

// The orientation of a seed 002 rod at `alpha` from -z towards +y.
MYRIAD_HD_INLINE Mat3<double> seed002_rod_orientation(double alpha) {
  const double quarter = 0.5 * M_PI;
  return rotation_matrix(quat_exp(Vec3<double>{alpha - quarter, 0.0, 0.0}) *
                         quat_exp(Vec3<double>{0.0, 0.0, quarter}) *
                         quat_exp(Vec3<double>{quarter, 0.0, 0.0}));
}

// At rest: the single pendulum (NB = 1) horizontal along +y, or the double pendulum (NB = 2) with rod 1 along
// +y and rod 2 hanging along -z below its far end (seed 002 sec. 4.2).
template <int NB>
MYRIAD_HD RotationMatrixState<NB> seed002_rotation_matrix_start() {
  static_assert(NB == 1 || NB == 2, "seed 002's pendulums have one or two rods");
  RotationMatrixState<NB> s;
  const Vec3<double> zero{0.0, 0.0, 0.0};
  s.r[0] = {0.0, 2.0, 0.0};
  s.A[0] = seed002_rod_orientation(0.5 * M_PI);
  if (NB == 2) {
    s.r[NB - 1] = {0.0, 4.0, -1.0};
    s.A[NB - 1] = seed002_rod_orientation(0.0);
  }
  for (int b = 0; b < NB; ++b) s.r_dot[b] = zero, s.omega_bar[b] = zero;
  return s;
}

}  // namespace myriad
