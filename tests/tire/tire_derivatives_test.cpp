// The tire formulas in dual numbers (tire/magic_formula.hpp, tire/fiala.hpp take any scalar): the derivatives of Fx,
// Fy and Mz with respect to kappa, alpha, gamma and Fz that a force element's exact Jacobians will use agree with
// central differences of the plain-double formulas, and the Dual values are the double ones to rounding.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>

#include "core/dual.hpp"
#include "tire/fiala.hpp"
#include "tire/magic_formula.hpp"
#include "tire/tir_file.hpp"

namespace myriad {
namespace tire_derivatives_test {

using D4 = Dual<double, 4>;

const std::string kShipped = std::string(MYRIAD_SOURCE_DIR) + "/models/tires/pacejka2006_205_60R15.tir";

// Central difference of component `c` (0 fx, 1 fy, 2 mz) along direction `i` of (kappa, alpha, gamma, fz).
template <class F>
double difference(const F& forces, double x[4], int i, int c) {
  const double h = i == 3 ? 1e-3 : 1e-6;
  double plus[4] = {x[0], x[1], x[2], x[3]}, minus[4] = {x[0], x[1], x[2], x[3]};
  plus[i] += h;
  minus[i] -= h;
  const TireForces a = forces(plus), b = forces(minus);
  const double fa[3] = {a.fx, a.fy, a.mz}, fb[3] = {b.fx, b.fy, b.mz};
  return (fa[c] - fb[c]) / (2 * h);
}

// The Dual evaluation `d` at x against the plain one: values to rounding (the Dual's division by a Dual multiplies by
// the reciprocal), derivatives along `directions` to 1e-5 of the component's scale per unit of the variable (a force
// over a slip, or over Fz). Returns the worst relative difference of the derivatives.
template <class F>
double check(const F& plain, const TireForcesOf<D4>& d, double x[4], std::initializer_list<int> directions) {
  const TireForces v = plain(x);
  EXPECT_NEAR(d.fx.value, v.fx, 1e-13 * std::max(1.0, std::fabs(v.fx)));
  EXPECT_NEAR(d.fy.value, v.fy, 1e-13 * std::max(1.0, std::fabs(v.fy)));
  EXPECT_NEAR(d.mz.value, v.mz, 1e-13 * std::max(1.0, std::fabs(v.mz)));
  const D4* component[3] = {&d.fx, &d.fy, &d.mz};
  double worst = 0.0;
  for (int c = 0; c < 3; ++c)
    for (int i : directions) {
      const double fd = difference(plain, x, i, c), exact = component[c]->d[i];
      const double scale = std::max(std::fabs(exact), i == 3 ? 1e-3 : 1e2);
      worst = std::max(worst, std::fabs(exact - fd) / scale);
      EXPECT_NEAR(exact, fd, 1e-5 * scale) << "component " << c << " direction " << i << " at kappa " << x[0]
                                           << " alpha " << x[1] << " gamma " << x[2] << " fz " << x[3];
    }
  return worst;
}

TEST(TireDerivatives, MagicFormulaDualsMatchCentralDifferences) {
  TirCoefficients p = read_tir_file(kShipped);
  // An arm of Fx in Mz and camber terms, so that every term of the combined moment carries a derivative.
  p[kTirSsz1] = 0.04;
  p[kTirSsz3] = 0.5;
  p[kTirQhz1] = 0.002;
  const auto plain = [&](const double* x) { return tire_forces(p.data(), x[0], x[1], x[2], x[3]); };
  double worst = 0.0;
  for (double kappa : {-0.12, -0.02, 0.03, 0.25})
    for (double alpha : {-0.15, -0.01, 0.04, 0.2})
      for (double gamma : {-0.03, 0.02})
        for (double fz : {1800.0, 4500.0}) {
          double x[4] = {kappa, alpha, gamma, fz};
          const TireForcesOf<D4> d = tire_forces(p.data(), D4::variable(kappa, 0), D4::variable(alpha, 1),
                                                 D4::variable(gamma, 2), D4::variable(fz, 3));
          worst = std::max(worst, check(plain, d, x, {0, 1, 2, 3}));
        }
  std::printf("Magic Formula: worst relative difference of the Dual derivatives to central differences %.1e\n", worst);
}

TEST(TireDerivatives, FialaDualsMatchCentralDifferences) {
  const FialaParameters p{0.47, 0.318, 193929.0, 50000.0, 0.5568, 0.9835};
  const auto plain = [&](const double* x) { return fiala_forces(p, x[0], x[1], x[3]); };
  // In the elastic region (|kappa| < S*, |alpha| < alpha*) and in the sliding one, away from the switches.
  for (double kappa : {-0.002, 0.001, 0.3})
    for (double alpha : {-0.02, 0.01, 0.5})
      for (double fz : {3000.0, 6000.0}) {
        double x[4] = {kappa, alpha, 0.0, fz};
        const TireForcesOf<D4> d = fiala_forces(p, D4::variable(kappa, 0), D4::variable(alpha, 1), D4::variable(fz, 3));
        check(plain, d, x, {0, 1, 3});
      }
}

}  // namespace tire_derivatives_test
}  // namespace myriad
