// The driven spatial four-link of models/loops/four_link.json (seed 002; dimensions are this project's choice,
// see models/loops/README.md) against its closed-form kinematics.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "constraints/constraint_equations.hpp"
#include "loops/loop_support.hpp"

namespace myriad::testing {
namespace four_link_test {

using Eigen::VectorXd;

// Geometry of models/loops/four_link.json.
constexpr double kRotorRadius = 0.2;                     // rotor pin at (r cos th, r sin th, 0)
constexpr double kGx = 0.6, kGy = 0.0, kGz = 0.4;        // rocker pivot G on ground, rocker axis = world x
constexpr double kRockerLength = 0.5;                    // rocker tip at (0, rho, 0) in the rocker frame
constexpr double kCouplerLength = 0.9;                   // coupler from rocker tip (its origin) to (c, 0, 0)

int joint_index(const Model& model, const std::string& name) {
  for (size_t j = 0; j < model.joints.size(); ++j)
    if (model.joints[j].name == name) return static_cast<int>(j);
  return -1;
}

// Closed form. The rotor turns about world z through the origin, th(t) = pi t (the driver), so the pin is
//   P(t) = (r cos th, r sin th, 0).
// The rocker turns about world x through G; its frame is the world's at phi = 0 with the bar along y, so its tip is
//   R(phi) = (gx, gy + rho cos phi, gz + rho sin phi).
// The coupler (length c) joins R to P through the universal joint and the cut spherical joint, so |P - R|^2 = c^2:
//   (r cos th - gx)^2 + (r sin th - gy - rho cos phi)^2 + (gz + rho sin phi)^2 = c^2
// which expands to
//   A cos phi + B sin phi = C,  A = 2 rho (gy - r sin th),  B = 2 rho gz,
//                              C = c^2 - rho^2 - gz^2 - (r cos th - gx)^2 - (r sin th - gy)^2.
// With S = sqrt(A^2 + B^2) and delta = atan2(B, A) this is S cos(phi - delta) = C, so
//   phi = delta - acos(C / S)
// on the branch of the initial configuration (t = 0: A = 0, B = 0.4, C = 0.24, phi = asin(0.6) = 0.6435, the
// rocker tip at (0.6, 0.4, 0.7); the other branch, delta + acos, has the tip at (0.6, -0.4, 0.7)). For these
// numbers C = 0.24 cos th and S >= 0.4, so |C / S| <= 0.6: acos never reaches 0 or pi, delta stays within
// pi/2 -+ atan(1/2) (never at the atan2 cut), and the branch is smooth for every th: the rotor turns fully and the
// rocker swings within -+0.773397 rad (the extremes at th = 0.5377 and pi + 0.5377).
// Rate: d/dt of A cos phi + B sin phi = C, with B constant and th' = pi:
//   A' cos phi + (B cos phi - A sin phi) phi' = C',
//   A' = -2 rho r cos th th',  C' = -2 r (gx sin th - gy cos th) th',
//   phi' = (C' - A' cos phi) / (B cos phi - A sin phi)
// (the denominator is S sin(acos(C / S)) >= 0.8 S > 0: no dead point).
// Universal joint (first axis z of the rocker, second axis y of the coupler, coupler bar along its x): the coupler
// direction in rocker axes is u = Rx(-phi) (P - R) / c = Rz(a) Ry(b) x = (cos a cos b, sin a cos b, -sin b), so
//   b = asin(-u_z),  a = atan2(u_y, u_x)
// (u_x < 0 and u_y < 0 on the whole motion, so a stays in (-pi, -pi/2), near the file's guess -2.07).
struct FourLinkState {
  double phi, phi_rate, a, b;
};

FourLinkState four_link_closed_form(double t) {
  const double r = kRotorRadius, rho = kRockerLength, c = kCouplerLength;
  const double th = M_PI * t, th_rate = M_PI;
  const double A = 2.0 * rho * (kGy - r * std::sin(th)), B = 2.0 * rho * kGz;
  const double px = r * std::cos(th) - kGx, py = r * std::sin(th) - kGy;
  const double C = c * c - rho * rho - kGz * kGz - px * px - py * py;
  FourLinkState s;
  s.phi = std::atan2(B, A) - std::acos(C / std::hypot(A, B));
  const double dA = -2.0 * rho * r * std::cos(th) * th_rate;
  const double dC = -2.0 * r * (kGx * std::sin(th) - kGy * std::cos(th)) * th_rate;
  s.phi_rate = (dC - dA * std::cos(s.phi)) / (B * std::cos(s.phi) - A * std::sin(s.phi));
  // Coupler direction (P - R) / c in world axes, then in rocker axes (rotate by -phi about x).
  const double dx = px / c, dy = (py - rho * std::cos(s.phi)) / c, dz = (-kGz - rho * std::sin(s.phi)) / c;
  const double uy = std::cos(s.phi) * dy + std::sin(s.phi) * dz, uz = -std::sin(s.phi) * dy + std::cos(s.phi) * dz;
  s.b = std::asin(-uz);
  s.a = std::atan2(uy, dx);
  return s;
}

TEST(LoopPhysics, DrivenFourLinkFollowsItsKinematicSolution) {
  const Model model = loop_model_with_state_outputs("loops/four_link.json");
  const int rotor = joint_index(model, "rotor_pivot"), rocker = joint_index(model, "rocker_pivot");
  const int universal = joint_index(model, "coupler_universal");
  ASSERT_GE(rotor, 0);
  ASSERT_GE(rocker, 0);
  ASSERT_GE(universal, 0);
  // One coordinate per revolute, two for the universal, in joint order: q index = joint index for rotor and
  // rocker, universal + 0 and universal + 1 for its angles (it is the last joint).
  ASSERT_EQ(universal, 2);
  const int nv = 4;

  const std::vector<double> times = output_grid(0.0, 2.0, 0.005);
  const EnsembleResult r = run_model(model, rk4(1e-3), times);
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  ASSERT_EQ(r.n_signals, 2 * nv + 1);

  double worst_rotor = 0.0, worst_rotor_rate = 0.0, worst_phi = 0.0, worst_rate = 0.0, worst_universal = 0.0;
  double worst_position = 0.0, worst_velocity = 0.0, phi_min = 10.0, phi_max = -10.0;
  for (int k = 0; k < r.n_times; ++k) {
    const FourLinkState s = four_link_closed_form(times[k]);
    VectorXd q, v;
    recorded_state(r, nv, k, q, v);
    worst_rotor = std::max(worst_rotor, std::fabs(q[rotor] - M_PI * times[k]));
    worst_rotor_rate = std::max(worst_rotor_rate, std::fabs(v[rotor] - M_PI));
    worst_phi = std::max(worst_phi, std::fabs(q[rocker] - s.phi));
    worst_rate = std::max(worst_rate, std::fabs(v[rocker] - s.phi_rate));
    worst_universal = std::max({worst_universal, std::fabs(q[universal] - s.a), std::fabs(q[universal + 1] - s.b)});
    phi_min = std::min(phi_min, q[rocker]);
    phi_max = std::max(phi_max, q[rocker]);
    // The coupler end meets the rotor pin (cut spherical) and the driver holds, at position and velocity level.
    const constraints::ConstraintEvaluation e = constraints::evaluate_constraints(model, times[k], q, v);
    ASSERT_EQ(e.phi.size(), 4);
    worst_position = std::max(worst_position, e.phi.cwiseAbs().maxCoeff());
    worst_velocity = std::max(worst_velocity, (e.G * v + e.phi_t).cwiseAbs().maxCoeff());
  }
  EXPECT_LE(worst_rotor, 1e-10);
  EXPECT_LE(worst_rotor_rate, 1e-10);
  EXPECT_LE(worst_phi, 1e-8);
  EXPECT_LE(worst_rate, 1e-8);
  EXPECT_LE(worst_universal, 1e-8);
  EXPECT_LE(worst_position, 1e-12);
  EXPECT_LE(worst_velocity, 1e-10);
  // Two full rotor turns sweep the rocker over its whole swing, -+0.773397 rad (the 5 ms grid comes within 1e-5).
  EXPECT_NEAR(phi_max, 0.773397, 1e-4);
  EXPECT_NEAR(phi_min, -0.773397, 1e-4);
  RecordProperty("worst_phi", std::to_string(worst_phi));
  RecordProperty("worst_rate", std::to_string(worst_rate));
  std::printf("four_link: worst |dq_rotor| %.3g, |dv_rotor| %.3g, |dphi| %.3g, |dphi'| %.3g, |d(a, b)| %.3g, "
              "max |Phi| %.3g, max |G v + Phi_t| %.3g, phi in [%.6f, %.6f]\n",
              worst_rotor, worst_rotor_rate, worst_phi, worst_rate, worst_universal, worst_position,
              worst_velocity, phi_min, phi_max);
}

}  // namespace four_link_test
}  // namespace myriad::testing
