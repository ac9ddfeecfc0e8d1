#pragma once
// Test problems of the implicit integrators (integrators/implicit_integrate.hpp), in the implicit-DAE concept
// (integrators/implicit_dae_system.hpp):
//   * PendulumAngleDae: the plane pendulum theta'' = -(g/L) sin theta, a smooth nonlinear ODE for the orders of
//     convergence;
//   * PendulumCartesianDae: the same pendulum in Cartesian coordinates as an index-3 DAE (the form seed 002 and
//     seed 003 integrate), m x'' = -x lambda, m y'' = -y lambda - m g with Phi = (x^2 + y^2 - L^2) / 2:
//       q' - v = 0,   m v' + Phi_q^T lambda - (0, -m g) = 0,   Phi(q) = 0,   y = (x, y, vx, vy), z = lambda.
// (The undamped oscillator of the linear analysis lives in analysis/implicit_linear_analysis.cpp.) Host and
// device, no allocation, exact Jacobians.
#include <cmath>

#include "core/hd.hpp"

namespace myriad {

struct PendulumAngleDae {
  double gravity = 9.81, length = 1.0;
  MYRIAD_HD int differential_dimension() const { return 2; }
  MYRIAD_HD int algebraic_dimension() const { return 0; }
  MYRIAD_HD bool residual(double, const double* y, const double* ydot, const double*, double* r) const {
    r[0] = ydot[0] - y[1];
    r[1] = ydot[1] + (gravity / length) * std::sin(y[0]);
    return std::isfinite(r[0]) && std::isfinite(r[1]);
  }
  MYRIAD_HD bool residual_jacobians(double t, const double* y, const double* ydot, const double* z, double* r,
                                    double* r_y, double* r_ydot, double*) const {
    r_y[0] = 0.0, r_y[1] = -1.0, r_y[2] = (gravity / length) * std::cos(y[0]), r_y[3] = 0.0;
    r_ydot[0] = 1.0, r_ydot[1] = 0.0, r_ydot[2] = 0.0, r_ydot[3] = 1.0;
    return residual(t, y, ydot, z, r);
  }
  MYRIAD_HD bool consistent_start(double, const double* y, double* ydot, double*) const {
    ydot[0] = y[1];
    ydot[1] = -(gravity / length) * std::sin(y[0]);
    return true;
  }
};

struct PendulumCartesianDae {
  double mass = 1.0, gravity = 9.81, length = 1.0;
  MYRIAD_HD int differential_dimension() const { return 4; }
  MYRIAD_HD int algebraic_dimension() const { return 1; }
  MYRIAD_HD bool residual(double, const double* y, const double* ydot, const double* z, double* r) const {
    r[0] = ydot[0] - y[2];
    r[1] = ydot[1] - y[3];
    r[2] = mass * ydot[2] + y[0] * z[0];
    r[3] = mass * ydot[3] + y[1] * z[0] + mass * gravity;
    r[4] = 0.5 * (y[0] * y[0] + y[1] * y[1] - length * length);
    for (int i = 0; i < 5; ++i)
      if (!std::isfinite(r[i])) return false;
    return true;
  }
  MYRIAD_HD bool residual_jacobians(double t, const double* y, const double* ydot, const double* z, double* r,
                                    double* r_y, double* r_ydot, double* r_z) const {
    for (int i = 0; i < 20; ++i) r_y[i] = r_ydot[i] = 0.0;
    r_y[0 * 4 + 2] = -1.0;
    r_y[1 * 4 + 3] = -1.0;
    r_y[2 * 4 + 0] = z[0];
    r_y[3 * 4 + 1] = z[0];
    r_y[4 * 4 + 0] = y[0];
    r_y[4 * 4 + 1] = y[1];
    r_ydot[0 * 4 + 0] = 1.0;
    r_ydot[1 * 4 + 1] = 1.0;
    r_ydot[2 * 4 + 2] = mass;
    r_ydot[3 * 4 + 3] = mass;
    r_z[0] = 0.0, r_z[1] = 0.0, r_z[2] = y[0], r_z[3] = y[1], r_z[4] = 0.0;
    return residual(t, y, ydot, z, r);
  }
  // Twice differentiating Phi: x vx' + y vy' + vx^2 + vy^2 = 0 with m v' = -(x, y) lambda - (0, m g) gives
  // lambda = m (vx^2 + vy^2 - g y) / L^2 (L^2 = x^2 + y^2 on the constraint).
  MYRIAD_HD bool consistent_start(double, const double* y, double* ydot, double* z) const {
    const double r2 = y[0] * y[0] + y[1] * y[1];
    z[0] = mass * (y[2] * y[2] + y[3] * y[3] - gravity * y[1]) / r2;
    ydot[0] = y[2];
    ydot[1] = y[3];
    ydot[2] = -y[0] * z[0] / mass;
    ydot[3] = -y[1] * z[0] / mass - gravity;
    return std::isfinite(z[0]);
  }
};

// The pendulum's state (theta, omega) at t = 1 s from theta0 at rest, by classical RK4 with h = 2.5e-5 on the
// angle ODE (global error ~1e-16, far below what the tests and benches compare): the reference both forms are
// measured against. Host only; O(40000 steps).
inline void pendulum_angle_reference(const PendulumAngleDae& p, double theta0, double& theta, double& omega) {
  theta = theta0, omega = 0.0;
  const int steps = 40000;
  const double h = 1.0 / steps, k = p.gravity / p.length;
  for (int i = 0; i < steps; ++i) {
    const double a1 = omega, b1 = -k * std::sin(theta);
    const double a2 = omega + 0.5 * h * b1, b2 = -k * std::sin(theta + 0.5 * h * a1);
    const double a3 = omega + 0.5 * h * b2, b3 = -k * std::sin(theta + 0.5 * h * a2);
    const double a4 = omega + h * b3, b4 = -k * std::sin(theta + h * a3);
    theta += h / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
    omega += h / 6.0 * (b1 + 2.0 * b2 + 2.0 * b3 + b4);
  }
}

}  // namespace myriad
