#pragma once
// Test support for seed 002's mechanisms in absolute coordinates (tests/absolute/): the joint-coordinate reference
// runs in tests/data/seed002/ read by column, the physical pendulum the single pendulum's dynamics reduce to, and
// rA's index-1 equations integrated on SO(3) (RKMK4) with the measures of an rA state.
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absolute/rotation_matrix_dynamics.hpp"

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

// One classical RK4 step of the index-1 absolute equations (AbsoluteDae::accelerations: q' = v, v' = q'') from
// (t, y) with step h, in place; false when the forward dynamics fail. What the tests integrate tightly to compare
// the absolute engine's equations with the joint-coordinate engine's (h = 2e-4: integration error far below 1e-8).
template <class Dae>
bool seed002_rk4_step(const Dae& dae, double t, std::vector<double>& y, double h) {
  const int n = Dae::NY, NQ = Dae::NQ;
  auto derivative = [&](double time, const std::vector<double>& state, std::vector<double>& out) {
    double z[Dae::NZ];
    for (int i = 0; i < NQ; ++i) out[i] = state[i + NQ];
    return dae.accelerations(time, state.data(), out.data() + NQ, z);
  };
  std::vector<double> k1(n), k2(n), k3(n), k4(n), stage(n);
  if (!derivative(t, y, k1)) return false;
  for (int i = 0; i < n; ++i) stage[i] = y[i] + 0.5 * h * k1[i];
  if (!derivative(t + 0.5 * h, stage, k2)) return false;
  for (int i = 0; i < n; ++i) stage[i] = y[i] + 0.5 * h * k2[i];
  if (!derivative(t + 0.5 * h, stage, k3)) return false;
  for (int i = 0; i < n; ++i) stage[i] = y[i] + h * k3[i];
  if (!derivative(t + h, stage, k4)) return false;
  for (int i = 0; i < n; ++i) y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
  return true;
}

// Seed 002's double pendulum in absolute coordinates (any Dae over its two rods, body 1 rod 1) integrated from y by
// seed002_rk4_step (h = 2e-4) over 1 s: the largest difference of the two centres of mass from the joint-coordinate
// engine's run (tests/data/seed002/double_pendulum_reference.csv, DOPRI5 at 1e-12) every 0.1 s; y ends at 1 s.
// Negative when the forward dynamics fail.
template <class Dae>
double seed002_double_pendulum_difference(const Dae& dae, std::vector<double>& y) {
  static const auto reference = read_seed002_reference("double_pendulum_reference.csv");
  const char* names[6] = {"rod1_cm_x", "rod1_cm_y", "rod1_cm_z", "rod2_cm_x", "rod2_cm_y", "rod2_cm_z"};
  const int index[6] = {0, 1, 2, Dae::kPerBody, Dae::kPerBody + 1, Dae::kPerBody + 2};
  const double h = 2e-4;
  double worst = 0.0;
  for (int step = 1; step <= 5000; ++step) {
    if (!seed002_rk4_step(dae, (step - 1) * h, y, h)) return -1.0;
    if (step % 500 != 0) continue;  // every 0.1 s: rows 10, 20, ... of the reference
    const size_t row = static_cast<size_t>(step / 50);
    for (int k = 0; k < 6; ++k) worst = std::fmax(worst, std::fabs(y[index[k]] - reference.at(names[k])[row]));
  }
  return worst;
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

// ---- rA (absolute/rotation_matrix_dynamics.hpp) ----

// max |A^T A - I|.
inline double rotation_matrix_orthonormality_error(const Mat3<double>& A) {
  const Mat3<double> P = transpose(A) * A;
  double worst = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) worst = std::fmax(worst, std::fabs(P.m[i][j] - (i == j ? 1.0 : 0.0)));
  return worst;
}

// max |Phi(r, A, t)|.
template <int NB, int NC>
double rotation_matrix_constraint_violation(const RotationMatrixDynamics<NB, NC>& dynamics, double t,
                                            const RotationMatrixState<NB>& s) {
  double phi[NC], jacobian[NC * RotationMatrixDynamics<NB, NC>::NV];
  dynamics.constraint_rows(t, s, phi, jacobian);
  double worst = 0.0;
  for (double value : phi) worst = std::fmax(worst, std::fabs(value));
  return worst;
}

// The index-1 rA equations as an ODE on SO(3)^NB x R^...: classical RK4 in the Lie algebra (Munthe-Kaas,
// RKMK): within a step A(t) = A_n exp(theta(t)~), theta' = Jr(theta)^-1 omega-bar, theta(t_n) = 0, so every
// stage and the result are A_n times an exponential and A stays orthonormal to rounding.
template <int NB, int NC>
struct RotationMatrixRkmk4 {
  const RotationMatrixDynamics<NB, NC>* dynamics;
  // Rates of (r, theta, r', omega-bar) per body at the stage (state at step start, stage increments).
  struct Rates {
    Vec3<double> r_dot[NB], theta_dot[NB], r_ddot[NB], omega_bar_dot[NB];
  };
  struct Increment {
    Vec3<double> r[NB], theta[NB], r_dot[NB], omega_bar[NB];
  };
  bool rates(double t, const RotationMatrixState<NB>& base, const Increment& d, Rates& out) const {
    RotationMatrixState<NB> s;
    for (int b = 0; b < NB; ++b) {
      s.r[b] = base.r[b] + d.r[b];
      s.A[b] = rotation_update(base.A[b], d.theta[b]);
      s.r_dot[b] = base.r_dot[b] + d.r_dot[b];
      s.omega_bar[b] = base.omega_bar[b] + d.omega_bar[b];
      out.r_dot[b] = s.r_dot[b];
      out.theta_dot[b] = right_jacobian_inverse_times(d.theta[b], s.omega_bar[b]);
    }
    double lambda[NC];
    return dynamics->accelerations(t, s, out.r_ddot, out.omega_bar_dot, lambda);
  }
  static Increment scaled(double h, const Rates& k) {
    Increment d;
    for (int b = 0; b < NB; ++b)
      d.r[b] = h * k.r_dot[b], d.theta[b] = h * k.theta_dot[b], d.r_dot[b] = h * k.r_ddot[b],
      d.omega_bar[b] = h * k.omega_bar_dot[b];
    return d;
  }
  bool step(double t, double h, RotationMatrixState<NB>& s) const {
    Increment zero;
    for (int b = 0; b < NB; ++b)
      zero.r[b] = zero.theta[b] = zero.r_dot[b] = zero.omega_bar[b] = {0.0, 0.0, 0.0};
    Rates k1, k2, k3, k4;
    if (!rates(t, s, zero, k1) || !rates(t + 0.5 * h, s, scaled(0.5 * h, k1), k2) ||
        !rates(t + 0.5 * h, s, scaled(0.5 * h, k2), k3) || !rates(t + h, s, scaled(h, k3), k4))
      return false;
    for (int b = 0; b < NB; ++b) {
      auto combine = [&](const Vec3<double>& a1, const Vec3<double>& a2, const Vec3<double>& a3,
                         const Vec3<double>& a4) { return (h / 6.0) * (a1 + 2.0 * a2 + 2.0 * a3 + a4); };
      s.r[b] += combine(k1.r_dot[b], k2.r_dot[b], k3.r_dot[b], k4.r_dot[b]);
      s.A[b] = rotation_update(s.A[b],
                               combine(k1.theta_dot[b], k2.theta_dot[b], k3.theta_dot[b], k4.theta_dot[b]));
      s.r_dot[b] += combine(k1.r_ddot[b], k2.r_ddot[b], k3.r_ddot[b], k4.r_ddot[b]);
      s.omega_bar[b] +=
          combine(k1.omega_bar_dot[b], k2.omega_bar_dot[b], k3.omega_bar_dot[b], k4.omega_bar_dot[b]);
    }
    return true;
  }
};

}  // namespace myriad::testing
