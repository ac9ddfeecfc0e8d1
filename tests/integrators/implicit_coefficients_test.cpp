// The coefficients of the seed 003 integrators (integrators/implicit_coefficients.hpp): the values the seed prints
// (Bathe's gamma, LMS2 = BDF2 at rho_inf = 0), the Runge-Kutta order conditions of every ESDIRK tableau up to its
// nominal order (independently of how the tableau was built), stiff accuracy and consistent nodes, the limit
// R(-inf) = +-rho_inf of every ESDIRK and the roots at infinity of every LMS, and the errors for bad rho_inf.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <complex>
#include <stdexcept>
#include <string>
#include <vector>

#include "integrators/implicit_coefficients.hpp"
#include "support/implicit_schemes.hpp"

namespace myriad {
namespace {

using test::every_implicit_scheme;
using test::implicit_label;

TEST(ImplicitCoefficients, BatheGammaIsTheSeedsAtRhoZeroAndSixTenths) {
  EXPECT_NEAR(implicit_scheme(ImplicitMethod::bathe, 0.0).gamma, 0.2928932, 5e-8);
  EXPECT_NEAR(implicit_scheme(ImplicitMethod::bathe, 0.6).gamma, 0.2639320, 5e-8);
  EXPECT_NEAR(implicit_scheme(ImplicitMethod::bathe, 0.0).gamma, 1.0 - std::sqrt(0.5), 1e-15);
}

TEST(ImplicitCoefficients, Lms2AtRhoZeroIsBdf2) {
  const ImplicitScheme s = implicit_scheme(ImplicitMethod::lms2, 0.0);
  EXPECT_DOUBLE_EQ(s.alpha[1], 4.0 / 3.0);
  EXPECT_DOUBLE_EQ(s.alpha[2], -1.0 / 3.0);
  EXPECT_DOUBLE_EQ(s.beta[0], 2.0 / 3.0);
  EXPECT_EQ(s.beta[1], 0.0);
  EXPECT_EQ(s.beta[2], 0.0);
}

// Order conditions of a linear multistep formula: exact for polynomials up to its order, not beyond.
TEST(ImplicitCoefficients, MultistepFormulasHaveTheirOrderAndRootsAtInfinityMinusRho) {
  for (const ImplicitScheme& s : every_implicit_scheme()) {
    if (s.family != ImplicitFamily::multistep) continue;
    auto defect = [&](int degree) {  // y = t^degree at t_k = 0, h = 1: y_k - sum alpha y_k-j - sum beta y'_k-j
      double sum = degree == 0 ? 1.0 : 0.0;
      for (int j = 1; j <= s.steps; ++j) sum -= s.alpha[j] * std::pow(-j, degree);
      for (int j = 0; j <= s.steps; ++j) sum -= s.beta[j] * (degree == 0 ? 0.0 : degree * std::pow(-j, degree - 1));
      return sum;
    };
    for (int degree = 0; degree <= s.order; ++degree) EXPECT_NEAR(defect(degree), 0.0, 1e-14) << implicit_label(s) << degree;
    EXPECT_GT(std::fabs(defect(s.order + 1)), 1e-3) << implicit_label(s);
    // hlambda -> infinity: beta_0 zeta^r + beta_1 zeta^(r-1) + ... = 0, the companion matrix's spectral radius.
    Eigen::MatrixXd C = Eigen::MatrixXd::Zero(s.steps, s.steps);
    for (int j = 0; j < s.steps; ++j) C(0, j) = -s.beta[j + 1] / s.beta[0];
    for (int i = 1; i < s.steps; ++i) C(i, i - 1) = 1.0;
    const double radius = C.eigenvalues().cwiseAbs().maxCoeff();
    EXPECT_NEAR(radius, s.rho_inf, 1e-3) << implicit_label(s);  // an r-fold root: eigenvalues to about eps^(1/r)
    double poly_error = 0.0;  // sum_j beta_j zeta^(r-j) = beta_0 (zeta + rho)^r, coefficient by coefficient
    for (int j = 0; j <= s.steps; ++j) {
      double binomial = 1.0;
      for (int k = 0; k < j; ++k) binomial = binomial * (s.steps - k) / (k + 1);
      poly_error = std::fmax(poly_error, std::fabs(s.beta[j] - s.beta[0] * binomial * std::pow(s.rho_inf, j)));
    }
    EXPECT_LT(poly_error, 1e-14) << implicit_label(s);
  }
}

// The Butcher conditions (Hairer, Norsett & Wanner I, sec. II.2, Table 2.2) up to order 5, for the tableau
// (a, b = last row, c).
double butcher_order_defect(const ImplicitScheme& s, int order) {
  const int n = s.stages;
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) A(i, j) = s.a[i][j];
  const Eigen::VectorXd b = A.row(n - 1).transpose();
  Eigen::VectorXd c(n);
  for (int i = 0; i < n; ++i) c[i] = s.c[i];
  const Eigen::VectorXd e = Eigen::VectorXd::Ones(n);
  auto pw = [&](int k) { return c.array().pow(k).matrix().eval(); };
  auto had = [](const Eigen::VectorXd& x, const Eigen::VectorXd& y) { return x.cwiseProduct(y).eval(); };
  double worst = 0.0;
  auto check = [&](double value, double exact) { worst = std::fmax(worst, std::fabs(value - exact)); };
  const Eigen::VectorXd Ac = A * c, Ac2 = A * pw(2), AAc = A * Ac;
  if (order >= 1) check(b.dot(e), 1.0);
  if (order >= 2) check(b.dot(c), 0.5);
  if (order >= 3) check(b.dot(pw(2)), 1.0 / 3.0), check(b.dot(Ac), 1.0 / 6.0);
  if (order >= 4) {
    check(b.dot(pw(3)), 0.25), check(b.dot(had(c, Ac)), 1.0 / 8.0);
    check(b.dot(Ac2), 1.0 / 12.0), check(b.dot(AAc), 1.0 / 24.0);
  }
  if (order >= 5) {
    check(b.dot(pw(4)), 0.2), check(b.dot(had(pw(2), Ac)), 0.1), check(b.dot(had(Ac, Ac)), 1.0 / 20.0);
    check(b.dot(had(c, Ac2)), 1.0 / 15.0), check(b.dot(had(c, AAc)), 1.0 / 30.0), check(b.dot(A * pw(3)), 0.05);
    check(b.dot(A * had(c, Ac)), 1.0 / 40.0), check(b.dot(A * Ac2), 1.0 / 60.0), check(b.dot(A * AAc), 1.0 / 120.0);
  }
  return worst;
}

TEST(ImplicitCoefficients, EsdirkTableauxAreStifflyAccurateWithTheirNominalOrder) {
  for (const ImplicitScheme& s : every_implicit_scheme()) {
    if (s.family != ImplicitFamily::esdirk) continue;
    const int n = s.stages;
    EXPECT_EQ(s.c[0], 0.0) << implicit_label(s);
    EXPECT_EQ(s.c[n - 1], 1.0) << implicit_label(s);
    for (int i = 0; i < n; ++i) {
      double row = 0.0;
      for (int j = 0; j < n; ++j) row += s.a[i][j];
      EXPECT_NEAR(row, s.c[i], 1e-13) << implicit_label(s) << " row " << i;
      for (int j = i + 1; j < n; ++j) EXPECT_EQ(s.a[i][j], 0.0) << implicit_label(s);
      if (i > 0) EXPECT_EQ(s.a[i][i], s.gamma) << implicit_label(s);
    }
    EXPECT_LT(butcher_order_defect(s, s.order), 1e-12) << implicit_label(s);
    if (s.order < 5) EXPECT_GT(butcher_order_defect(s, s.order + 1), 1e-6) << implicit_label(s) << ": order above nominal";
    // R(z) on y' = lambda y, z = h lambda: the stage values solve (I - z A) Y = e y_0 and, the tableau being stiffly
    // accurate, y_1 is the last of them. At z = -1e8 R is within O(1/z) of its limit.
    Eigen::MatrixXd A(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) A(i, j) = s.a[i][j];
    const double z = -1e8;
    const Eigen::VectorXd stages = (Eigen::MatrixXd::Identity(n, n) - z * A).partialPivLu().solve(Eigen::VectorXd::Ones(n));
    const double R = stages[n - 1];  // stiffly accurate: y_1 is the last stage value
    EXPECT_NEAR(std::fabs(R), s.rho_inf, 1e-3) << implicit_label(s);
  }
}

TEST(ImplicitCoefficients, SingleStepParametersMakeARealFormula) {
  // c dt of eqs. 9-11 (gamma_0 gamma_2 ... / (gamma_1 gamma_3 ...)) is real and equals LMS(r)'s beta_0.
  for (const ImplicitScheme& s : every_implicit_scheme()) {
    if (s.family != ImplicitFamily::single_step) continue;
    std::complex<double> c(s.gamma_re[0], s.gamma_im[0]);
    for (int i = 1; i <= 2 * s.steps - 2; ++i) {
      const std::complex<double> g(s.gamma_re[i], s.gamma_im[i]);
      c = i % 2 == 0 ? c * g : c / g;
    }
    const ImplicitMethod lms = s.steps == 2 ? ImplicitMethod::lms2 : s.steps == 3 ? ImplicitMethod::lms3 : ImplicitMethod::lms4;
    EXPECT_NEAR(c.imag(), 0.0, 1e-15) << implicit_label(s);
    EXPECT_NEAR(c.real(), implicit_scheme(lms, s.rho_inf).beta[0], 1e-14) << implicit_label(s);
  }
}

TEST(ImplicitCoefficients, BadRhoInfIsRefusedWithTheMethodNamed) {
  auto message = [](ImplicitMethod m, double rho) {
    try {
      implicit_scheme(m, rho);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(message(ImplicitMethod::lms3, 1.5).find("lms3"), std::string::npos);
  EXPECT_NE(message(ImplicitMethod::lms3, -0.1).find("[0, 1]"), std::string::npos);
  EXPECT_NE(message(ImplicitMethod::esdirk4_6l, 0.6).find("L-stable"), std::string::npos);
  EXPECT_NE(message(ImplicitMethod::mssth5, 0.25).find("0, 0.1, ..., 1"), std::string::npos);
  EXPECT_EQ(message(ImplicitMethod::mssth5, 0.3), "");
  EXPECT_EQ(message(ImplicitMethod::mssth3, 0.25), "");  // MSSTH(3) takes any rho_inf
}

TEST(ImplicitCoefficients, NamesRoundTrip) {
  for (int i = 0; i < kImplicitMethodCount; ++i) {
    const ImplicitMethod method = static_cast<ImplicitMethod>(i);
    ImplicitMethod parsed = ImplicitMethod::lms2;
    ASSERT_TRUE(parse_implicit_method(implicit_method_name(method), parsed));
    EXPECT_EQ(parsed, method);
  }
  ImplicitMethod parsed;
  EXPECT_TRUE(parse_implicit_method("ESDIRK4(3)6L[2]SA2", parsed));
  EXPECT_FALSE(parse_implicit_method("bdf3", parsed));
}

}  // namespace
}  // namespace myriad
