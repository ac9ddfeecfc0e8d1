// The RN4(3) coefficients (integrators/rosenbrock_nystrom_coefficients.hpp): the base method satisfies the
// order conditions of seed 000 (36a)-(36h), the embedded weights (36a)-(36d), the design conditions
// (38)-(42), the derived Rosenbrock-Nystrom coefficients (Theorem 2.1) reproduce the seed's second table, and
// the errata of shared/notes/seed-notes.md are what the evidence says.
#include "integrators/rosenbrock_nystrom_coefficients.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace rosenbrock_nystrom_coefficients_test {

using myriad::kRn4BaseTableau;
using myriad::kRn4Tableau;
using myriad::RosenbrockTableau;

// Residuals (left - right) of the order conditions (36a)-(36h) of seed 000 for the weights `b` of a 4-stage
// Rosenbrock method, with beta_ij = alpha_ij + gamma_ij and beta'_i = sum_{j<i} beta_ij.
std::vector<double> order_residuals(const RosenbrockTableau<4>& t, const double (&b)[4]) {
  const double g = t.gamma;
  double beta[4][4] = {}, beta_prime[4] = {}, alpha[4] = {};
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < i; ++j) {
      beta[i][j] = t.alpha_ij[i][j] + t.gamma_ij[i][j];
      beta_prime[i] += beta[i][j];
      alpha[i] += t.alpha_ij[i][j];
    }
  }
  const auto& a = t.alpha_ij;
  std::vector<double> r;
  r.push_back(b[0] + b[1] + b[2] + b[3] - 1.0);                                                 // (36a)
  r.push_back(b[1] * beta_prime[1] + b[2] * beta_prime[2] + b[3] * beta_prime[3] - (0.5 - g));  // (36b)
  r.push_back(b[1] * alpha[1] * alpha[1] + b[2] * alpha[2] * alpha[2] + b[3] * alpha[3] * alpha[3] -
              1.0 / 3.0);  // (36c)
  r.push_back(b[2] * beta[2][1] * beta_prime[1] +
              b[3] * (beta[3][1] * beta_prime[1] + beta[3][2] * beta_prime[2]) -
              (1.0 / 6.0 - g + g * g));  // (36d)
  r.push_back(b[1] * std::pow(alpha[1], 3) + b[2] * std::pow(alpha[2], 3) + b[3] * std::pow(alpha[3], 3) -
              0.25);  // (36e)
  r.push_back(b[2] * alpha[2] * a[2][1] * beta_prime[1] +
              b[3] * alpha[3] * (a[3][1] * beta_prime[1] + a[3][2] * beta_prime[2]) -
              (1.0 / 8.0 - g / 3.0));  // (36f)
  r.push_back(b[2] * beta[2][1] * alpha[1] * alpha[1] +
              b[3] * (beta[3][1] * alpha[1] * alpha[1] + beta[3][2] * alpha[2] * alpha[2]) -
              (1.0 / 12.0 - g / 3.0));  // (36g)
  r.push_back(b[3] * beta[3][2] * beta[2][1] * beta_prime[1] -
              (1.0 / 24.0 - g / 2.0 + 1.5 * g * g - g * g * g));  // (36h)
  return r;
}

TEST(Rn4Coefficients, base_method_satisfies_the_eight_order_4_conditions_36a_to_36h) {
  const std::vector<double> r = order_residuals(kRn4BaseTableau, kRn4BaseTableau.b);
  ASSERT_EQ(r.size(), 8u);
  for (size_t k = 0; k < r.size(); ++k)
    EXPECT_LT(std::fabs(r[k]), 1e-14) << "condition (36" << char('a' + k) << ")";
}

TEST(Rn4Coefficients, embedded_weights_satisfy_the_order_3_conditions_and_not_all_order_4_ones) {
  const std::vector<double> r = order_residuals(kRn4BaseTableau, kRn4BaseTableau.b_hat);
  for (size_t k = 0; k < 4; ++k) EXPECT_LT(std::fabs(r[k]), 1e-14) << "condition (36" << char('a' + k) << ")";
  // An order-3 method, not a second order-4 one: some order-4 condition fails clearly.
  double worst_order4 = 0.0;
  for (size_t k = 4; k < 8; ++k) worst_order4 = std::fmax(worst_order4, std::fabs(r[k]));
  EXPECT_GT(worst_order4, 1e-3);
  // Distinct from the main weights (the point of eq. 38).
  EXPECT_GT(std::fabs(kRn4BaseTableau.b_hat[0] - kRn4BaseTableau.b[0]), 0.1);
}

TEST(Rn4Coefficients, the_printed_sign_of_gamma_21_breaks_conditions_36b_36d_36f_36h_as_the_errata_say) {
  RosenbrockTableau<4> printed = kRn4BaseTableau;
  printed.gamma_ij[1][0] = -printed.gamma_ij[1][0];  // +2.3419..., as printed in the seed
  const std::vector<double> r = order_residuals(printed, printed.b);
  for (int k : {1, 3, 5, 7}) {
    EXPECT_GT(std::fabs(r[k]), 0.1) << "(36" << char('a' + k) << ")";
    EXPECT_LT(std::fabs(r[k]), 0.3) << "(36" << char('a' + k) << ")";
  }
  for (int k : {0, 2, 4, 6}) EXPECT_LT(std::fabs(r[k]), 1e-14) << "(36" << char('a' + k) << ")";
}

TEST(Rn4Coefficients, design_conditions_38_to_42_hold) {
  const auto& t = kRn4BaseTableau;
  const auto& a = t.alpha_ij;
  double beta[4][4] = {}, bp[4] = {}, al[4] = {};
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < i; ++j) {
      beta[i][j] = a[i][j] + t.gamma_ij[i][j];
      bp[i] += beta[i][j];
      al[i] += a[i][j];
    }
  }
  // (38): the matrix of eq. 37 is singular.
  const double lhs38 = beta[2][1] * bp[1] * (bp[1] * al[3] * al[3] - bp[3] * al[1] * al[1]);
  const double rhs38 =
      (bp[1] * al[2] * al[2] - bp[2] * al[1] * al[1]) * (beta[3][1] * bp[1] + beta[3][2] * bp[2]);
  EXPECT_NEAR(lhs38, rhs38, 1e-14);
  // (39): stage 4 evaluates f where stage 3 does.
  EXPECT_EQ(a[3][0], a[2][0]);
  EXPECT_EQ(a[3][1], a[2][1]);
  EXPECT_EQ(a[3][2], 0.0);
  // (40) and (41): two order-5 conditions.
  EXPECT_NEAR(al[2], (0.2 - al[1] / 4.0) / (0.25 - al[1] / 3.0), 1e-14);
  EXPECT_NEAR(t.b[3] * beta[3][2] * al[2] * al[2] * (al[2] - al[1]),
              0.05 - t.gamma / 4.0 - al[1] * (1.0 / 12.0 - t.gamma / 3.0), 1e-14);
  // (42).
  EXPECT_EQ(t.b[2], 0.0);
  EXPECT_NEAR(al[1], 2.0 * t.gamma, 1e-16);
}

TEST(Rn4Coefficients, stability_function_nearly_vanishes_at_infinity) {
  // R(z) = 1 + z b^T (I - z B)^-1 1, B = A + Gamma (HNW II, sec. IV.7): R(inf) = 1 - b^T B^-1 1. Zero for the
  // exact L-stable gamma = 0.5728160624821..., small but non-zero for the seed's 8-digit gamma.
  const auto& t = kRn4BaseTableau;
  double B[4][4] = {};
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < i; ++j) B[i][j] = t.alpha_ij[i][j] + t.gamma_ij[i][j];
    B[i][i] = t.gamma;
  }
  double x[4];  // B x = 1 by forward substitution
  for (int i = 0; i < 4; ++i) {
    double s = 1.0;
    for (int j = 0; j < i; ++j) s -= B[i][j] * x[j];
    x[i] = s / B[i][i];
  }
  double r_inf = 1.0;
  for (int i = 0; i < 4; ++i) r_inf -= t.b[i] * x[i];
  EXPECT_LT(std::fabs(r_inf), 1e-7);
}

// A derived coefficient against the seed's second table. Values printed with 24-25 digits are compared at
// double precision (2e-15 relative, a few ulps after the O(S^3) derivation); values printed with fewer digits
// to half a unit of their last printed digit.
struct Printed {
  std::string name;
  double derived;
  double printed;
  int decimals;
};

TEST(Rn4Coefficients, theorem_2_1_reproduces_the_seeds_second_table) {
  const auto& n = kRn4Tableau;
  const std::vector<Printed> table = {
      {"theta_21", n.theta[1][0], 1.14563212, 8},
      {"theta_31", n.theta[2][0], 0.789509162815638629626980, 24},
      {"theta_32", n.theta[2][1], 0.134294186842504800149232, 24},
      {"theta_41", n.theta[3][0], 0.789509162815638629626980, 24},
      {"theta_42", n.theta[3][1], 0.134294186842504800149232, 24},
      {"theta_43", n.theta[3][2], 0.0, 24},
      {"a_21 (erratum: 2.0)", n.a[1][0], 2.0, 24},
      {"a_31", n.a[2][0], 1.86794814949823713234476, 23},
      {"a_32", n.a[2][1], 0.23444556851723885002322, 23},
      {"a_41", n.a[3][0], 1.86794814949823713234476, 23},
      {"a_42", n.a[3][1], 0.23444556851723885002322, 23},
      {"a_43", n.a[3][2], 0.0, 24},
      {"c_21", n.c[1][0], -7.137649943349979830369260, 24},
      {"c_31", n.c[2][0], 2.580923666509657714488050, 24},
      {"c_32", n.c[2][1], 0.651629887302032023387417, 24},
      {"c_41", n.c[3][0], -2.137115266506619116806370, 24},
      {"c_42", n.c[3][1], -0.321469531339951070769241, 24},
      {"c_43", n.c[3][2], -0.694966049282445225157329, 24},
      {"delta_21", n.delta[1][0], -1.196361007112013949170520, 24},
      {"delta_31", n.delta[2][0], 1.470280254409780714633870, 24},
      {"delta_32", n.delta[2][1], 0.348105837679204490016704, 24},
      {"delta_41", n.delta[3][0], 0.003765094355556165798974, 24},
      {"delta_42", n.delta[3][1], -0.109762486758103255675398, 24},
      {"delta_43", n.delta[3][2], -0.228031035973133829477744, 24},
      {"m_1", n.m[0], 2.255566228604565243728840, 24},
      {"m_2", n.m[1], 0.287055063194157607662630, 24},
      {"m_3", n.m[2], 0.435311963379983213402707, 24},
      {"m_4", n.m[3], 1.093507656403247803214820, 24},
      {"mhat_1", n.m_hat[0], 2.068399160527583734258670, 24},
      {"mhat_2", n.m_hat[1], 0.238681352067532797956493, 24},
      {"mhat_3", n.m_hat[2], 0.363373345435391708261747, 24},
      {"mhat_4", n.m_hat[3], 0.366557127936155144309163, 24},
      {"mu_1", n.mu[0], 1.592750819409585342074900, 24},
      {"mu_2", n.mu[1], 0.195938266310250609693329, 24},
      {"mu_3", n.mu[2], 0.0, 24},
      {"mu_4", n.mu[3], 0.626378747320742177841171, 24},
      {"muhat_1", n.mu_hat[0], 1.434903971848209472627100, 24},
      {"muhat_2", n.mu_hat[1], 0.222978672588698369045153, 24},
      {"muhat_3", n.mu_hat[2], 0.124559686414702049774897, 24},
      {"muhat_4", n.mu_hat[3], 0.209969809789304321311906, 24},
      {"gamma_1", n.gamma_i[0], 0.57281606, 8},
      {"gamma_2", n.gamma_i[1], -1.769177067112013949170520, 24},
      {"gamma_3", n.gamma_i[2], 0.759293964293209853670967, 24},
      {"gamma_4", n.gamma_i[3], -0.104894621490955803206743, 24},
      {"alpha_2", n.alpha_i[1], 1.145632120, 9},
      {"alpha_3", n.alpha_i[2], 0.655214975973133829477748, 24},
      {"alpha_4", n.alpha_i[3], 0.655214975973133829477748, 24},
  };
  for (const Printed& p : table) {
    const double tolerance =
        std::fmax(0.5 * std::pow(10.0, -p.decimals), 2e-15 * std::fmax(1.0, std::fabs(p.printed)));
    EXPECT_NEAR(p.derived, p.printed, tolerance) << p.name;
  }
}

TEST(Rn4Coefficients, stage_4_coincides_with_stage_3_so_one_evaluation_is_saved) {
  // eq. 39 carried through Theorem 2.1: Y_4 = Y_3 (theta, alpha_i) and Y'_4 = Y'_3 (a), bit for bit.
  const auto& n = kRn4Tableau;
  for (int j = 0; j < 4; ++j) {
    EXPECT_EQ(n.theta[3][j], n.theta[2][j]) << j;
    EXPECT_EQ(n.a[3][j], n.a[2][j]) << j;
  }
  EXPECT_EQ(n.alpha_i[3], n.alpha_i[2]);
}

TEST(Rn4Coefficients, derived_tableau_is_strictly_lower_where_theorem_2_1_says_so) {
  const auto& n = kRn4Tableau;
  for (int i = 0; i < 4; ++i) {
    for (int j = i; j < 4; ++j) {
      EXPECT_EQ(n.a[i][j], 0.0);
      EXPECT_EQ(n.c[i][j], 0.0);
      EXPECT_EQ(n.theta[i][j], 0.0);
      if (j > i) {
        EXPECT_EQ(n.delta[i][j], 0.0);
      }
    }
    EXPECT_DOUBLE_EQ(n.delta[i][i], n.gamma);
  }
  static_assert(myriad::kRn4Tableau.a[1][0] > 1.99 && myriad::kRn4Tableau.a[1][0] < 2.01,
                "the tableau is a compile-time constant");
}

}  // namespace rosenbrock_nystrom_coefficients_test
