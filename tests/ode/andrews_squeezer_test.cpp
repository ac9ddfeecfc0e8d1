// Andrews' squeezing mechanism (ode/andrews_squeezer.hpp) against the Bari/CWI test set's published values: the
// consistent accelerations and multipliers at t = 0, the dual-number Jacobians against central differences, and
// the seed 003 integrators' solution at t = 0.03 s against the test set's reference (computed there by PSIDE at
// 1e-14) with the energy balance of seed 003 eq. 23.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "integrators/implicit_coefficients.hpp"
#include "integrators/implicit_integrate.hpp"
#include "ode/andrews_squeezer.hpp"

namespace myriad {
namespace {

std::vector<double> andrews_start() {
  std::vector<double> y(14, 0.0);
  for (int i = 0; i < 7; ++i) y[i] = andrews::q0[i];
  return y;
}

TEST(AndrewsSqueezer, ConsistentStartReproducesTheTestSetsAccelerationsAndMultipliers) {
  AndrewsSqueezerDae system;
  const std::vector<double> y = andrews_start();
  double ydot[14], z[6];
  ASSERT_TRUE(system.consistent_start(0.0, y.data(), ydot, z));
  // The test set's qdd0 and lambda0 (all other components 0).
  EXPECT_NEAR(ydot[7] / 14222.4439199541138705911625887, 1.0, 1e-12);
  EXPECT_NEAR(ydot[8] / -10666.8329399655854029433719415, 1.0, 1e-12);
  EXPECT_NEAR(z[0] / 98.5668703962410896057654982170, 1.0, 1e-12);
  EXPECT_NEAR(z[1] / -6.12268834425566265503114393122, 1.0, 1e-12);
  for (int i = 9; i < 14; ++i) EXPECT_NEAR(ydot[i], 0.0, 1e-9);
  for (int k = 2; k < 6; ++k) EXPECT_NEAR(z[k], 0.0, 1e-11);
  double r[20];
  ASSERT_TRUE(system.residual(0.0, y.data(), ydot, z, r));
  for (int i = 0; i < 20; ++i) EXPECT_NEAR(r[i], 0.0, 1e-14) << i;
}

TEST(AndrewsSqueezer, DualJacobiansAgreeWithCentralDifferences) {
  AndrewsSqueezerDae system;
  double y[14], ydot[14], z[6];
  for (int i = 0; i < 7; ++i) y[i] = andrews::q0[i] + 0.1 * i, y[7 + i] = 30.0 * i - 80.0;
  for (int i = 0; i < 14; ++i) ydot[i] = 1e3 * (i - 6);
  for (int k = 0; k < 6; ++k) z[k] = 20.0 * k - 40.0;
  double r[20], r_y[280], r_ydot[280], r_z[120];
  ASSERT_TRUE(system.residual_jacobians(0.0, y, ydot, z, r, r_y, r_ydot, r_z));
  auto check = [&](double* x, int count, const double* J, const char* what) {
    for (int col = 0; col < count; ++col) {
      const double saved = x[col], h = 1e-6 * std::fmax(1.0, std::fabs(saved));
      double rp[20], rm[20];
      x[col] = saved + h;
      system.residual(0.0, y, ydot, z, rp);
      x[col] = saved - h;
      system.residual(0.0, y, ydot, z, rm);
      x[col] = saved;
      for (int row = 0; row < 20; ++row) {
        const double fd = (rp[row] - rm[row]) / (2.0 * h);
        EXPECT_NEAR(J[row * count + col], fd, 1e-6 * (1.0 + std::fabs(fd))) << what << " row " << row << " col " << col;
      }
    }
  };
  check(y, 14, r_y, "r_y");
  check(ydot, 14, r_ydot, "r_ydot");
  check(z, 6, r_z, "r_z");
}

// Runs `method` to t = 0.03 with dt / n = dt_per_point; returns beta(0.03) and the largest |Delta E|.
void run_andrews(ImplicitMethod method, double rho, double dt_per_point, double& beta, double& worst_energy) {
  const ImplicitScheme s = implicit_scheme(method, rho);
  const int points = s.family == ImplicitFamily::esdirk ? s.stages - 1 : 1;
  const double dt = dt_per_point * points;
  const long long steps = std::llround(0.03 / dt);
  AndrewsSqueezerDae system;
  const std::vector<double> y0 = andrews_start();
  std::vector<double> work(static_cast<size_t>(implicit_workspace_size(14, 6)));
  const double zero[7] = {};
  const double E0 = andrews::energy(andrews::q0, zero);
  worst_energy = 0.0;
  auto observer = [&](long long, double, const double* y, const double*, const double*) {
    const double dE = andrews::energy(y, y + 7) - E0 - andrews::drive_torque * (y[0] - andrews::q0[0]);
    worst_energy = std::fmax(worst_energy, std::fabs(dE));
    beta = y[0];
  };
  ImplicitStats stats;
  ASSERT_EQ(integrate_implicit(system, s, 0.0, dt, steps, y0.data(), work.data(), ImplicitOptions(), stats, observer),
            InstanceStatus::ok);
}

TEST(AndrewsSqueezer, Lms3ConvergesToTheTestSetReferenceWithSecondOrderAndItsEnergyBalance) {
  const double beta_reference = 0.1581077119629904e+02;  // test set, t = 0.03
  double beta_coarse, beta_fine, energy_coarse, energy_fine;
  run_andrews(ImplicitMethod::lms3, 0.6, 1e-4, beta_coarse, energy_coarse);
  run_andrews(ImplicitMethod::lms3, 0.6, 1e-5, beta_fine, energy_fine);
  const double error_coarse = std::fabs(beta_coarse - beta_reference), error_fine = std::fabs(beta_fine - beta_reference);
  // Measured: 7.0e-3 and 7.0e-5 rad; |Delta E| 4.7e-3 and 4.7e-5 J (E itself grows from 1.44 to 1.96 J).
  EXPECT_LT(error_fine, 1.5e-4);
  EXPECT_NEAR(std::log10(error_coarse / error_fine), 2.0, 0.2);  // second order
  EXPECT_LT(energy_fine, 1e-4);
  EXPECT_NEAR(std::log10(energy_coarse / energy_fine), 2.0, 0.3);
}

}  // namespace
}  // namespace myriad
