#pragma once
// Coefficients of Rosenbrock-Nystrom methods (seed 000, sec. 2, Theorem 2.1): the defining coefficients of an
// s-stage embedded Rosenbrock method (eqs. 11a-11b, 12) are typed in once, and every coefficient of the
// associated Rosenbrock-Nystrom method (eqs. 25a-25f) is computed from them here, in constexpr code, by the
// matrix formulas of Theorem 2.1. Host and device (constexpr, usable in constant expressions under nvcc with
// --expt-relaxed-constexpr); nothing here allocates.
//
// The RN4(3) method (seed 000, sec. 4): 4 stages, order 4, embedded order 3, gamma = 0.57281606 (the value
// the seed takes from its reference [7], Hairer & Wanner, for L-stability; being rounded to 8 digits it makes
// the stability function vanish at infinity only to about 1e-8, see the coefficient test), three function
// evaluations per step because alpha_4j = alpha_3j (eq. 39). Errata applied (shared/notes/seed-notes.md):
//   * gamma_21 = -2.341993127112013949170520: the seed's first table prints it without its minus sign. With
//     the sign the base method satisfies the order-4 conditions (36a)-(36h); with the printed sign (36b),
//     (36d), (36f) and (36h) fail by 0.1-0.26. The second table (c_21 < 0, delta_21, gamma_2) was computed
//     with the sign, which confirms it.
//   * a_21 = alpha_21 / gamma = 2.0 (the second table prints 0.2000...).
// The tests (tests/integrators/rosenbrock_nystrom_coefficients_test.cpp) check the order conditions and the
// derived values against the seed's second table.
#include "core/hd.hpp"

namespace myriad {

// The defining coefficients of an s-stage embedded Rosenbrock method, seed 000 eqs. 11a-11b and 12:
//   k_i = h f(t + alpha_i h, y + sum_{j<i} alpha_ij k_j) + gamma_i h^2 f_t + h J sum_{j<=i} gamma_ij k_j,
//   y_1 = y_0 + sum b_i k_i,  yhat_1 = y_0 + sum bhat_i k_i,  gamma_ii = gamma for every stage.
template <int S>
struct RosenbrockTableau {
  double gamma;           // the diagonal gamma_ii
  double alpha_ij[S][S];  // alpha_ij, strictly lower triangular (row i, column j; zero on and above)
  double gamma_ij[S][S];  // gamma_ij below the diagonal (the diagonal is `gamma`; zero above)
  double b[S];            // weights of the order-p solution
  double b_hat[S];        // weights of the embedded solution
};

// The Rosenbrock-Nystrom coefficients of Theorem 2.1 (seed 000 eqs. 25a-25f), with Gamma = (gamma_ij) the
// full lower-triangular matrix (diagonal gamma) and A = (alpha_ij):
//   a = A Gamma^-1,  c = gamma^-1 I - Gamma^-1,  delta = Gamma + Gamma A Gamma^-1,  theta = A + A^2 Gamma^-1,
//   m = b Gamma^-1,  mhat = bhat Gamma^-1,  mu = b + b A Gamma^-1,  muhat = bhat + bhat A Gamma^-1,
//   gamma_i = sum_{j<=i} gamma_ij (diagonal included),  alpha_i = sum_{j<i} alpha_ij.
// a, c and theta are strictly lower triangular (c has a zero diagonal by construction). delta is lower
// triangular with diagonal gamma; eq. 25f uses only its strictly lower part (the seed's W-method table
// also prints the diagonal).
template <int S>
struct RosenbrockNystromTableau {
  double gamma;
  double a[S][S];
  double c[S][S];
  double delta[S][S];
  double theta[S][S];
  double m[S];
  double m_hat[S];
  double mu[S];
  double mu_hat[S];
  double gamma_i[S];
  double alpha_i[S];
};

namespace detail {

template <int S>
struct SquareMatrix {
  double v[S][S];
};

template <int S>
MYRIAD_HD constexpr SquareMatrix<S> multiply(const SquareMatrix<S>& x, const SquareMatrix<S>& y) {
  SquareMatrix<S> r{};
  for (int i = 0; i < S; ++i) {
    for (int j = 0; j < S; ++j) {
      double sum = 0.0;
      for (int k = 0; k < S; ++k) sum += x.v[i][k] * y.v[k][j];
      r.v[i][j] = sum;
    }
  }
  return r;
}

// Inverse of a lower-triangular matrix with a non-zero diagonal, by forward substitution column by column.
template <int S>
MYRIAD_HD constexpr SquareMatrix<S> invert_lower(const SquareMatrix<S>& L) {
  SquareMatrix<S> r{};
  for (int col = 0; col < S; ++col) {
    for (int i = col; i < S; ++i) {
      double sum = (i == col) ? 1.0 : 0.0;
      for (int k = col; k < i; ++k) sum -= L.v[i][k] * r.v[k][col];
      r.v[i][col] = sum / L.v[i][i];
    }
  }
  return r;
}

// row vector x times matrix y.
template <int S>
MYRIAD_HD constexpr void row_times(const double (&x)[S], const SquareMatrix<S>& y, double (&out)[S]) {
  for (int j = 0; j < S; ++j) {
    double sum = 0.0;
    for (int k = 0; k < S; ++k) sum += x[k] * y.v[k][j];
    out[j] = sum;
  }
}

}  // namespace detail

// Theorem 2.1 of seed 000: the Rosenbrock-Nystrom coefficients of `base` (formulas on
// RosenbrockNystromTableau). O(S^3), evaluated at compile time for the tableaus below.
template <int S>
MYRIAD_HD constexpr RosenbrockNystromTableau<S> rosenbrock_nystrom_tableau(const RosenbrockTableau<S>& base) {
  detail::SquareMatrix<S> A{}, G{};
  for (int i = 0; i < S; ++i) {
    for (int j = 0; j < S; ++j) {
      A.v[i][j] = j < i ? base.alpha_ij[i][j] : 0.0;
      G.v[i][j] = j < i ? base.gamma_ij[i][j] : (j == i ? base.gamma : 0.0);
    }
  }
  const detail::SquareMatrix<S> G_inverse = detail::invert_lower(G);
  const detail::SquareMatrix<S> A_G_inverse = detail::multiply(A, G_inverse);      // A Gamma^-1
  const detail::SquareMatrix<S> G_A_G_inverse = detail::multiply(G, A_G_inverse);  // Gamma A Gamma^-1
  const detail::SquareMatrix<S> A2_G_inverse = detail::multiply(A, A_G_inverse);   // A^2 Gamma^-1

  RosenbrockNystromTableau<S> r{};
  r.gamma = base.gamma;
  for (int i = 0; i < S; ++i) {
    double gamma_sum = 0.0, alpha_sum = 0.0;
    for (int j = 0; j < S; ++j) {
      r.a[i][j] = A_G_inverse.v[i][j];
      r.c[i][j] = (i == j ? 1.0 / base.gamma : 0.0) - G_inverse.v[i][j];
      r.delta[i][j] = G.v[i][j] + G_A_G_inverse.v[i][j];
      r.theta[i][j] = A.v[i][j] + A2_G_inverse.v[i][j];
      gamma_sum += G.v[i][j];
      alpha_sum += A.v[i][j];
    }
    r.c[i][i] = 0.0;  // exactly: gamma^-1 - (Gamma^-1)_ii = 0 (rounding aside)
    r.gamma_i[i] = gamma_sum;
    r.alpha_i[i] = alpha_sum;
  }
  double b_A_G_inverse[S] = {}, b_hat_A_G_inverse[S] = {};
  detail::row_times(base.b, G_inverse, r.m);
  detail::row_times(base.b_hat, G_inverse, r.m_hat);
  detail::row_times(base.b, A_G_inverse, b_A_G_inverse);
  detail::row_times(base.b_hat, A_G_inverse, b_hat_A_G_inverse);
  for (int i = 0; i < S; ++i) {
    r.mu[i] = base.b[i] + b_A_G_inverse[i];
    r.mu_hat[i] = base.b_hat[i] + b_hat_A_G_inverse[i];
  }
  return r;
}

// The RN4(3) base method, seed 000 sec. 4, first coefficient table, as printed (25 digits; double keeps 17)
// except gamma_21, whose sign is restored (erratum above). gamma = 0.57281606 and alpha_21 = 2 gamma are
// exact decimal choices of the seed (eq. 42); alpha_4j = alpha_3j and alpha_43 = 0 (eq. 39); b_3 = 0
// (eq. 42).
constexpr RosenbrockTableau<4> kRn4BaseTableau = {
    0.57281606,
    {{0.0, 0.0, 0.0, 0.0},
     {1.14563212, 0.0, 0.0, 0.0},
     {0.520920789130629029328516, 0.134294186842504800149232, 0.0, 0.0},
     {0.520920789130629029328516, 0.134294186842504800149232, 0.0, 0.0}},
    {{0.0, 0.0, 0.0, 0.0},
     {-2.341993127112013949170520, 0.0, 0.0, 0.0},
     {-0.027333746543489836196505, 0.213811650836699689867472, 0.0, 0.0},
     {-0.259083837785510222112641, -0.190595807732311751616358, -0.228031035973133829477744, 0.0}},
    {0.324534707891734513474196, 0.049086544787523308684633, 0.0, 0.626378747320742177841171},
    {0.520920789130629029328516, 0.144549714665364599584681, 0.124559686414702049774897,
     0.209969809789304321311906}};

// The RN4(3) Rosenbrock-Nystrom coefficients (seed 000 sec. 4, second table), derived at compile time.
constexpr RosenbrockNystromTableau<4> kRn4Tableau = rosenbrock_nystrom_tableau(kRn4BaseTableau);

// Orders of the RN4(3) pair: the solution is order 4, the embedded one order 3 (q of seed 000 eq. 15).
constexpr int kRn4Order = 4;
constexpr int kRn4LowerOrder = 3;

}  // namespace myriad
