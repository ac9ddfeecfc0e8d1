#pragma once
// Test support for seed 002's mechanisms in absolute coordinates (tests/absolute/): the joint-coordinate reference
// runs in tests/data/seed002/ read by column, and the physical pendulum the single pendulum's dynamics reduce to.
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace myriad::testing {

// The columns of tests/data/seed002/<file> (header `instance,time,<outputs>`) by name.
inline std::map<std::string, std::vector<double>> read_seed002_reference(const std::string& file) {
  std::ifstream in(std::string(MYRIAD_SOURCE_DIR) + "/tests/data/seed002/" + file);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> names;
  std::stringstream header(line);
  for (std::string name; std::getline(header, name, ',');) names.push_back(name);
  std::map<std::string, std::vector<double>> columns;
  while (std::getline(in, line)) {
    std::stringstream row(line);
    std::string cell;
    for (size_t k = 0; std::getline(row, cell, ','); ++k) columns[names[k]].push_back(std::stod(cell));
  }
  return columns;
}

// Seed 002's single pendulum released from the horizontal as a physical pendulum: phi from +y towards +z,
// I_O phi'' = -m g (L/2) cos phi, I_O = 104 + 78 * 2^2 = 416; classical RK4 with h = 1e-5. The CM's z, z' and z''
// at t_end.
inline void seed002_physical_pendulum(double t_end, double& z, double& z_dot, double& z_ddot) {
  const double k = 78.0 * 9.81 * 2.0 / 416.0;
  auto accel = [k](double p) { return -k * std::cos(p); };
  double phi = 0.0, w = 0.0;
  const int steps = static_cast<int>(std::lround(t_end / 1e-5));
  const double h = t_end / steps;
  for (int i = 0; i < steps; ++i) {
    const double k1 = w, l1 = accel(phi), k2 = w + 0.5 * h * l1, l2 = accel(phi + 0.5 * h * k1);
    const double k3 = w + 0.5 * h * l2, l3 = accel(phi + 0.5 * h * k2), k4 = w + h * l3, l4 = accel(phi + h * k3);
    phi += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
    w += h / 6.0 * (l1 + 2.0 * l2 + 2.0 * l3 + l4);
  }
  z = 2.0 * std::sin(phi);
  z_dot = 2.0 * std::cos(phi) * w;
  z_ddot = 2.0 * (std::cos(phi) * accel(phi) - std::sin(phi) * w * w);
}

// The driven single pendulum's closed form: alpha = pi/4 cos 2t, CM = 2 (0, sin alpha, -cos alpha), and its
// first two derivatives (y, z components).
struct Seed002DrivenPendulum {
  double alpha, alpha_dot, alpha_ddot, y, z, y_dot, z_dot, y_ddot, z_ddot;
};
inline Seed002DrivenPendulum seed002_driven_pendulum(double t) {
  const double alpha = 0.25 * M_PI * std::cos(2.0 * t), alpha_dot = -0.5 * M_PI * std::sin(2.0 * t),
               alpha_ddot = -M_PI * std::cos(2.0 * t);
  Seed002DrivenPendulum p;
  p.alpha = alpha, p.alpha_dot = alpha_dot, p.alpha_ddot = alpha_ddot;
  p.y = 2.0 * std::sin(alpha), p.z = -2.0 * std::cos(alpha);
  p.y_dot = 2.0 * std::cos(alpha) * alpha_dot, p.z_dot = 2.0 * std::sin(alpha) * alpha_dot;
  p.y_ddot = 2.0 * (std::cos(alpha) * alpha_ddot - std::sin(alpha) * alpha_dot * alpha_dot);
  p.z_ddot = 2.0 * (std::sin(alpha) * alpha_ddot + std::cos(alpha) * alpha_dot * alpha_dot);
  return p;
}

}  // namespace myriad::testing
