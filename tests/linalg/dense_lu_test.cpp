// Residuals, pivoting and singularity detection of the small dense LU (linalg/dense_lu.hpp).
#include "linalg/dense_lu.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "support/linear_residual.hpp"

namespace dense_lu_test {

using myriad::testing::relative_residual;

TEST(DenseLu, random_matrices_up_to_40_solve_with_relative_residual_below_1e_12) {
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (int n = 1; n <= 40; ++n) {
    for (int trial = 0; trial < 5; ++trial) {
      std::vector<double> A(n * n), b(n);
      for (double& v : A) v = uniform(rng);
      for (double& v : b) v = uniform(rng);
      std::vector<double> LU = A, x = b;
      std::vector<int> pivots(n);
      ASSERT_TRUE(myriad::lu_factor(n, LU.data(), pivots.data())) << "n = " << n;
      myriad::lu_solve(n, LU.data(), pivots.data(), x.data());
      EXPECT_LT(relative_residual(n, A, x, b), 1e-12) << "n = " << n << " trial " << trial;

      // The double-pivot overload gives bit-identical results.
      std::vector<double> LU2 = A, x2 = b, pivots2(n);
      ASSERT_TRUE(myriad::lu_factor(n, LU2.data(), pivots2.data()));
      myriad::lu_solve(n, LU2.data(), pivots2.data(), x2.data());
      for (int i = 0; i < n; ++i) EXPECT_EQ(x[i], x2[i]);
    }
  }
}

// lu_factor_sparse on matrices shaped like the index-3 iteration matrices (a saddle point [M B^T; B 0] whose rows
// touch a few columns, some of them -0 entries) and on dense ones: the same pivots as lu_factor, factors and
// solutions equal as numbers (a zero may differ in sign), residuals at round-off; both pivot types.
TEST(DenseLu, sparse_row_elimination_gives_lu_factors_factors_and_solutions) {
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::uniform_int_distribution<int> column_of(0, 1 << 20);
  int sparse_factored = 0;
  for (const int n : {1, 7, 40, 120}) {
    for (const bool dense : {false, true}) {
      const int m = n / 3;  // constraint rows at the end
      std::vector<double> A(static_cast<size_t>(n * n), 0.0), b(static_cast<size_t>(n));
      for (int i = 0; i < n; ++i) {
        b[static_cast<size_t>(i)] = uniform(rng);
        if (dense) {
          for (int j = 0; j < n; ++j) A[static_cast<size_t>(i * n + j)] = uniform(rng);
          continue;
        }
        if (i < n - m) A[static_cast<size_t>(i * n + i)] = 2.0 + uniform(rng);  // the mass block's diagonal
        for (int e = 0; e < 3; ++e) {  // a few entries in the other rows and the coupling columns
          const int j = column_of(rng) % n;
          A[static_cast<size_t>(i * n + j)] = uniform(rng);
          if (A[static_cast<size_t>(j * n + i)] == 0.0) A[static_cast<size_t>(j * n + i)] = -0.0;  // signed zeros
        }
        if (i >= n - m) A[static_cast<size_t>(i * n + column_of(rng) % (n - m))] = 1.0 + uniform(rng);
      }
      std::vector<double> LU = A, x = b;
      std::vector<int> pivots(static_cast<size_t>(n));
      const bool factored = myriad::lu_factor(n, LU.data(), pivots.data());
      std::vector<double> sparse = A, xs = b, pivots_d(static_cast<size_t>(n)), columns_d(static_cast<size_t>(n));
      ASSERT_EQ(myriad::lu_factor_sparse(n, sparse.data(), pivots_d.data(), columns_d.data()), factored) << n;
      std::vector<double> sparse_i = A;
      std::vector<int> pivots_i(static_cast<size_t>(n)), columns_i(static_cast<size_t>(n));
      ASSERT_EQ(myriad::lu_factor_sparse(n, sparse_i.data(), pivots_i.data(), columns_i.data()), factored) << n;
      if (!factored) continue;  // a random sparse draw may be singular; both said so
      if (!dense) ++sparse_factored;
      for (int k = 0; k < n; ++k) {
        ASSERT_EQ(pivots_d[static_cast<size_t>(k)], pivots[static_cast<size_t>(k)]) << n;
        ASSERT_EQ(pivots_i[static_cast<size_t>(k)], pivots[static_cast<size_t>(k)]) << n;
      }
      for (int i = 0; i < n * n; ++i) {
        ASSERT_EQ(sparse[static_cast<size_t>(i)], LU[static_cast<size_t>(i)]) << "n = " << n << " entry " << i;
        ASSERT_EQ(sparse_i[static_cast<size_t>(i)], LU[static_cast<size_t>(i)]) << "n = " << n << " entry " << i;
      }
      myriad::lu_solve(n, LU.data(), pivots.data(), x.data());
      myriad::lu_solve(n, sparse.data(), pivots_d.data(), xs.data());
      for (int i = 0; i < n; ++i) EXPECT_EQ(xs[static_cast<size_t>(i)], x[static_cast<size_t>(i)]) << n;
      EXPECT_LT(relative_residual(n, A, xs, b), 1e-10) << "n = " << n << (dense ? " dense" : " sparse");
    }
  }
  EXPECT_GE(sparse_factored, 2);
}

TEST(DenseLu, known_solution_recovered_to_round_off_on_a_well_conditioned_matrix) {
  // Diagonally dominant: condition number O(1), so the forward error is also at round-off.
  const int n = 25;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<double> A(n * n), x_true(n), b(n, 0.0);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) A[i * n + j] = uniform(rng) + (i == j ? 2.0 * n : 0.0);
    x_true[i] = uniform(rng);
  }
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) b[i] += A[i * n + j] * x_true[j];
  }
  std::vector<int> pivots(n);
  ASSERT_TRUE(myriad::lu_factor(n, A.data(), pivots.data()));
  myriad::lu_solve(n, A.data(), pivots.data(), b.data());
  for (int i = 0; i < n; ++i) EXPECT_NEAR(b[i], x_true[i], 1e-14);
}

TEST(DenseLu, zero_leading_entry_needs_and_gets_a_row_swap) {
  // A[0][0] = 0: elimination without pivoting divides by zero.
  double A[9] = {0.0, 2.0, 1.0,  //
                 1.0, 1.0, 1.0,  //
                 3.0, 0.0, 2.0};
  const double A_copy[9] = {0.0, 2.0, 1.0, 1.0, 1.0, 1.0, 3.0, 0.0, 2.0};
  const double x_true[3] = {1.0, -2.0, 3.0};
  double b[3];
  for (int i = 0; i < 3; ++i) {
    b[i] = A_copy[3 * i] * x_true[0] + A_copy[3 * i + 1] * x_true[1] + A_copy[3 * i + 2] * x_true[2];
  }
  int pivots[3];
  ASSERT_TRUE(myriad::lu_factor(3, A, pivots));
  EXPECT_EQ(pivots[0], 2);  // the largest entry of column 0 is in row 2
  myriad::lu_solve(3, A, pivots, b);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(b[i], x_true[i], 1e-15);
}

TEST(DenseLu, singular_matrices_return_false) {
  int pivots[4];
  // Row 2 = row 0 + row 1, exactly.
  double dependent[9] = {1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 5.0, 7.0, 9.0};
  EXPECT_FALSE(myriad::lu_factor(3, dependent, pivots));
  // A zero column.
  double zero_column[9] = {1.0, 0.0, 3.0, 4.0, 0.0, 6.0, 5.0, 0.0, 9.0};
  EXPECT_FALSE(myriad::lu_factor(3, zero_column, pivots));
  // The zero matrix.
  double zero[16] = {};
  EXPECT_FALSE(myriad::lu_factor(4, zero, pivots));
  // Numerically singular: a pivot of 1e-17 relative to max|A| = 1.
  double nearly[4] = {1.0, 0.0, 0.0, 1e-17};
  EXPECT_FALSE(myriad::lu_factor(2, nearly, pivots));
  // ... while 1e-12 is ill-conditioned but regular, and solves correctly.
  double regular[4] = {1.0, 0.0, 0.0, 1e-12};
  ASSERT_TRUE(myriad::lu_factor(2, regular, pivots));
  double b[2] = {2.0, 3e-12};
  myriad::lu_solve(2, regular, pivots, b);
  EXPECT_DOUBLE_EQ(b[0], 2.0);
  EXPECT_DOUBLE_EQ(b[1], 3.0);
  // Non-finite entries.
  double with_nan[4] = {1.0, NAN, 0.0, 1.0};
  EXPECT_FALSE(myriad::lu_factor(2, with_nan, pivots));
  double with_inf[4] = {INFINITY, 0.0, 0.0, 1.0};
  EXPECT_FALSE(myriad::lu_factor(2, with_inf, pivots));
}

TEST(DenseLu, exactly_singular_integer_matrices_are_detected_and_random_regular_ones_never_are) {
  // Random integer matrices (entries -9..9) with row r replaced by the exact sum of rows a and b: singular in
  // exact arithmetic, but elimination rounds its multipliers, so the last pivot is rounding-level rather than
  // zero. The criterion (16 n eps max|A|) catches all but a rare tail (about 0.2%, see dense_lu.hpp).
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<int> digit(-9, 9);
  int detected = 0, total = 0;
  for (int n = 3; n <= 40; ++n) {
    for (int trial = 0; trial < 30; ++trial) {
      std::vector<double> A(n * n);
      for (double& v : A) v = digit(rng);
      const int a = static_cast<int>(rng() % static_cast<unsigned>(n - 1));
      const int b = static_cast<int>(rng() % static_cast<unsigned>(n - 1));
      const int r = n - 1;
      for (int j = 0; j < n; ++j) A[r * n + j] = A[a * n + j] + A[b * n + j];
      std::vector<int> pivots(n);
      detected += myriad::lu_factor(n, A.data(), pivots.data()) ? 0 : 1;
      ++total;
    }
  }
  EXPECT_GE(detected, total - total / 100) << detected << " of " << total;

  // Random regular matrices (uniform entries) are never reported singular.
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  int false_alarms = 0;
  for (int n = 1; n <= 40; ++n) {
    for (int trial = 0; trial < 25; ++trial) {
      std::vector<double> A(n * n);
      for (double& v : A) v = uniform(rng);
      std::vector<int> pivots(n);
      false_alarms += myriad::lu_factor(n, A.data(), pivots.data()) ? 0 : 1;
    }
  }
  EXPECT_EQ(false_alarms, 0);
}

}  // namespace dense_lu_test
