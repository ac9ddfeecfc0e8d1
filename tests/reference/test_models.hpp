#pragma once
// Small models built in code for the reference-path tests: parameters already applied (every Number literal),
// joints parent-first.
#include <array>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace myriad::test_models {

inline Number num(double value) { return Number{value, -1}; }

inline Vector3 vec(double x, double y, double z) { return {num(x), num(y), num(z)}; }

inline std::vector<Number> numbers(std::initializer_list<double> values) {
  std::vector<Number> out;
  for (double v : values) out.push_back(num(v));
  return out;
}

inline Frame frame_at(double x, double y, double z) {
  Frame f;
  f.origin = vec(x, y, z);
  return f;
}

// Frame with origin and R = Rz(yaw) Ry(pitch) Rx(roll).
inline Frame frame_rpy(double x, double y, double z, double roll, double pitch, double yaw) {
  Frame f = frame_at(x, y, z);
  f.rotation.kind = Rotation::Kind::rpy;
  f.rotation.rpy = vec(roll, pitch, yaw);
  return f;
}

// Inertia in body axes: ixx, iyy, izz, ixy, ixz, iyz.
inline Body body(const std::string& name, double mass, Vector3 center_of_mass,
                 std::array<double, 6> inertia) {
  Body b;
  b.name = name;
  b.mass = num(mass);
  b.center_of_mass = center_of_mass;
  for (size_t k = 0; k < 6; ++k) b.inertia[k] = num(inertia[k]);
  return b;
}

inline Joint joint(const std::string& name, JointType type, int parent, int child, Frame parent_frame = {},
                   Frame child_frame = {}, Vector3 axis = vec(0, 0, 1)) {
  Joint j;
  j.name = name;
  j.type = type;
  j.parent = parent;
  j.child = child;
  j.parent_frame = parent_frame;
  j.child_frame = child_frame;
  j.axis = axis;
  return j;
}

inline TimeFunction constant_function(double value) {
  TimeFunction f;
  f.kind = TimeFunction::Kind::constant;
  f.value = num(value);
  return f;
}

inline TimeFunction sine_function(double amplitude, double frequency_hz, double phase, double offset) {
  TimeFunction f;
  f.kind = TimeFunction::Kind::sine;
  f.amplitude = num(amplitude);
  f.frequency = num(frequency_hz);
  f.phase = num(phase);
  f.offset = num(offset);
  return f;
}

inline ForceElement tsda(const std::string& name, int body1, Vector3 point1, int body2, Vector3 point2,
                         double stiffness, double damping, double free_length) {
  ForceElement f;
  f.name = name;
  f.type = ForceType::tsda;
  f.end1.body = body1;
  f.end1.point = point1;
  f.end2.body = body2;
  f.end2.point = point2;
  f.stiffness = num(stiffness);
  f.damping = num(damping);
  f.free_length = num(free_length);
  return f;
}

inline ForceElement rsda(const std::string& name, int joint_index, double stiffness, double damping,
                         double zero_angle, bool shortest = true) {
  ForceElement f;
  f.name = name;
  f.type = ForceType::rsda;
  f.joint = joint_index;
  f.stiffness = num(stiffness);
  f.damping = num(damping);
  f.zero_angle = num(zero_angle);
  f.shortest_initial_deflection = shortest;
  return f;
}

inline ForceElement joint_actuator(const std::string& name, int joint_index, int index,
                                   TimeFunction function) {
  ForceElement f;
  f.name = name;
  f.type = ForceType::joint_actuator;
  f.joint = joint_index;
  f.index = index;
  f.has_actuator = true;
  f.actuator = function;
  return f;
}

// Compound pendulum: a revolute joint about world y at the origin; the centre of mass hangs a distance d
// below the pivot at q = 0 (body frame at the pivot, centre of mass at (0, 0, -d)); gravity (0, 0, -g).
inline Model pendulum(double mass, double d, double I_cm, double theta0, double g = 9.81) {
  Model m;
  m.name = "pendulum";
  m.gravity = vec(0, 0, -g);
  m.bodies.push_back(body("rod", mass, vec(0, 0, -d), {I_cm, I_cm, 0.5 * I_cm, 0, 0, 0}));
  Joint j = joint("pivot", JointType::revolute, -1, 0, {}, {}, vec(0, 1, 0));
  j.initial_position = numbers({theta0});
  j.initial_velocity = numbers({0.0});
  m.joints.push_back(j);
  return m;
}

// Planar double pendulum in the world x-y plane, gravity (0, -g, 0), angles about z measured from x: link 1
// pivots at the origin with its centre of mass at d1 along its x axis and carries the second pivot at L1;
// link 2 has its centre of mass at d2 along its x axis. I1, I2 are the centroidal moments about z.
struct DoublePendulum {
  double m1 = 1.3, L1 = 0.9, d1 = 0.4, I1 = 0.11;
  double m2 = 0.7, d2 = 0.35, I2 = 0.05;
  double g = 9.81;
};

inline Model double_pendulum(const DoublePendulum& p) {
  Model m;
  m.name = "double_pendulum";
  m.gravity = vec(0, -p.g, 0);
  m.bodies.push_back(body("link1", p.m1, vec(p.d1, 0, 0), {0.5 * p.I1, 0.6 * p.I1, p.I1, 0, 0, 0}));
  m.bodies.push_back(body("link2", p.m2, vec(p.d2, 0, 0), {0.5 * p.I2, 0.6 * p.I2, p.I2, 0, 0, 0}));
  m.joints.push_back(joint("shoulder", JointType::revolute, -1, 0, {}, {}, vec(0, 0, 1)));
  m.joints.push_back(joint("elbow", JointType::revolute, 0, 1, frame_at(p.L1, 0, 0), {}, vec(0, 0, 1)));
  return m;
}

// One body on a free joint to ground. The joint frame M sits at `child_frame` on the body; F at
// `parent_frame`.
inline Model free_body(double mass, Vector3 center_of_mass, std::array<double, 6> inertia, Frame parent_frame,
                       Frame child_frame, Vector3 gravity) {
  Model m;
  m.name = "free_body";
  m.gravity = gravity;
  m.bodies.push_back(body("body", mass, center_of_mass, inertia));
  m.joints.push_back(joint("float", JointType::free, -1, 0, parent_frame, child_frame));
  return m;
}

// Spherical pendulum: ball joint at the world origin, body frame at the ball, centre of mass at (0, 0, -d),
// gravity (0, 0, -g); the inertia may be non-diagonal.
inline Model spherical_pendulum(double mass, double d, std::array<double, 6> inertia, double g = 9.81) {
  Model m;
  m.name = "spherical_pendulum";
  m.gravity = vec(0, 0, -g);
  m.bodies.push_back(body("bob", mass, vec(0, 0, -d), inertia));
  m.joints.push_back(joint("ball", JointType::spherical, -1, 0));
  return m;
}

// A tree mixing every joint type, with offset and rotated frames, non-diagonal inertias and a gravity that is
// not along an axis:
//   ground -universal-> A -cylindrical-> B -planar-> C -prismatic-> D -revolute-> E
//                                        B -spherical-> F -fixed-> G
//   ground -free-> H
// With `springs`: an undamped TSDA from a ground point to C, one from E to H, and an RSDA on joint r.
inline Model mixed_chain(bool springs) {
  Model m;
  m.name = "mixed_chain";
  m.gravity = vec(0.4, -1.1, -9.7);
  m.bodies.push_back(body("A", 1.7, vec(0.1, -0.05, 0.2), {0.09, 0.08, 0.05, 0.004, -0.003, 0.002}));
  m.bodies.push_back(body("B", 2.3, vec(-0.02, 0.15, 0.05), {0.12, 0.10, 0.07, -0.01, 0.005, 0.008}));
  m.bodies.push_back(body("C", 0.9, vec(0.05, 0.05, -0.1), {0.03, 0.035, 0.04, 0.002, 0.001, -0.003}));
  m.bodies.push_back(body("D", 0.6, vec(0.2, 0.0, 0.03), {0.01, 0.02, 0.025, 0.001, -0.002, 0.0015}));
  m.bodies.push_back(body("E", 1.1, vec(0.0, 0.3, 0.1), {0.06, 0.04, 0.05, 0.005, 0.002, -0.004}));
  m.bodies.push_back(body("F", 0.8, vec(0.1, 0.1, -0.2), {0.02, 0.03, 0.025, -0.002, 0.001, 0.003}));
  m.bodies.push_back(body("G", 0.5, vec(-0.1, 0.2, 0.0), {0.015, 0.012, 0.01, 0.001, 0.0, -0.001}));
  m.bodies.push_back(body("H", 1.4, vec(0.05, -0.1, 0.08), {0.07, 0.05, 0.06, 0.006, -0.004, 0.003}));

  Joint u = joint("u", JointType::universal, -1, 0, frame_rpy(0.1, 0.2, 1.5, 0.3, -0.2, 0.5),
                  frame_rpy(-0.1, 0.05, 0.3, -0.1, 0.2, 0.1), vec(1, 0, 0));
  u.axis2 = vec(0, 1, 0);
  u.initial_position = numbers({0.4, -0.7});
  u.initial_velocity = numbers({0.8, -1.1});
  Joint c = joint("c", JointType::cylindrical, 0, 1, frame_rpy(0.3, -0.2, 0.1, 0.2, 0.1, -0.4),
                  frame_rpy(0.05, 0.1, -0.2, 0.0, 0.3, 0.2), vec(0.3, 0.2, 1.0));
  c.initial_position = numbers({0.9, 0.15});
  c.initial_velocity = numbers({-0.6, 0.4});
  Joint p = joint("p", JointType::planar, 1, 2, frame_rpy(-0.2, 0.3, 0.25, -0.3, 0.2, 0.6),
                  frame_rpy(0.1, -0.1, 0.05, 0.4, 0.0, -0.2), vec(1.0, 1.0, 0.2));
  p.initial_position = numbers({0.2, -0.3, 1.1});
  p.initial_velocity = numbers({0.5, 0.7, -0.9});
  Joint s = joint("s", JointType::prismatic, 2, 3, frame_rpy(0.2, 0.1, -0.1, 0.1, 0.1, 0.1),
                  frame_rpy(-0.05, 0.0, 0.1, 0.0, -0.3, 0.0), vec(1.0, 0.5, 0.0));
  s.initial_position = numbers({0.25});
  s.initial_velocity = numbers({-0.35});
  Joint r = joint("r", JointType::revolute, 3, 4, frame_rpy(0.3, 0.0, 0.05, 0.2, -0.1, 0.3),
                  frame_at(0.0, -0.2, 0.0), vec(0, 1, 1));
  r.initial_position = numbers({-0.5});
  r.initial_velocity = numbers({1.3});
  Joint ball = joint("ball", JointType::spherical, 1, 5, frame_rpy(0.0, -0.3, 0.2, 0.0, 0.4, 0.0),
                     frame_rpy(0.1, 0.1, 0.3, 0.3, 0.0, 0.0));
  ball.initial_position = numbers({0.9, 0.2, -0.3, 0.25});  // normalized on use
  ball.initial_velocity = numbers({0.7, -0.4, 1.2});
  Joint weld = joint("weld", JointType::fixed, 5, 6, frame_rpy(0.2, 0.2, -0.1, 0.5, 0.5, 0.5),
                     frame_rpy(0.0, 0.1, 0.0, -0.2, 0.0, 0.3));
  Joint fly = joint("fly", JointType::free, -1, 7, frame_rpy(1.0, 0.5, 0.0, 0.0, 0.0, 0.7),
                    frame_rpy(0.1, 0.0, -0.1, 0.2, 0.3, -0.1));
  fly.initial_position = numbers({0.3, -0.2, 0.8, 0.8, -0.3, 0.4, 0.2});
  fly.initial_velocity = numbers({0.4, -0.6, 0.2, 0.9, -0.5, 1.4});
  m.joints = {u, c, p, s, r, ball, weld, fly};

  if (springs) {
    ForceElement ground_spring =
        tsda("ground_spring", -1, vec(0.5, 0.5, 2.0), 2, vec(0.1, 0.0, 0.05), 40.0, 0.0, 0.6);
    ForceElement link_spring =
        tsda("link_spring", 4, vec(0.0, 0.2, 0.1), 7, vec(-0.1, 0.1, 0.0), 25.0, 0.0, 0.9);
    ForceElement torsion = rsda("torsion", 4, 3.5, 0.0, 2.0);
    m.forces = {ground_spring, link_spring, torsion};
  }
  return m;
}

// The first five bodies and joints of mixed_chain (universal, cylindrical, planar, prismatic, revolute),
// where v = dq/dt, so Lagrange's equations in q hold as written. With `springs`: a TSDA from ground to C, one
// from ground to E and the RSDA on the revolute joint.
inline Model minimal_coordinate_chain(bool springs) {
  Model m = mixed_chain(false);
  m.name = "minimal_coordinate_chain";
  m.bodies.resize(5);
  m.joints.resize(5);
  if (springs) {
    m.forces = {tsda("ground_spring", -1, vec(0.5, 0.5, 2.0), 2, vec(0.1, 0.0, 0.05), 40.0, 0.0, 0.6),
                tsda("tip_spring", -1, vec(-0.4, 0.8, 0.3), 4, vec(0.0, 0.2, 0.1), 25.0, 0.0, 0.9),
                rsda("torsion", 4, 3.5, 0.0, 2.0)};
  }
  return m;
}

}  // namespace myriad::test_models
