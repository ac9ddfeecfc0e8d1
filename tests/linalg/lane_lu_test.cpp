// The lane-group LU (linalg/lane_lu.hpp), emulated on the host, against lu_factor / lu_solve
// (linalg/dense_lu.hpp): same pivots, factors, verdict and solution bit for bit, for any lane count.
#include "linalg/lane_lu.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "linalg/dense_lu.hpp"
#include "support/linear_residual.hpp"

namespace lane_lu_test {

const int kSizes[] = {0, 1, 2, 3, 5, 8, 17, 31, 32, 33, 47, 64};
const int kLaneCounts[] = {1, 2, 7, 32};

std::uint64_t bits_of(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

// Empty when a and b hold the same bit patterns (so NaN == NaN, +0 != -0); else where they first differ.
// Two NaNs count as the same: IEEE 754 leaves the sign and payload of a NaN an operation produces (inf - inf in
// the overflowing matrices) open, and in clang's ASan build lu_factor and the emulated lane group gave NaNs of
// opposite sign on an overflowing n = 5 matrix (which NaN an x86 operation returns follows its operand order).
std::string bitwise_difference(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return "sizes differ";
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) && std::isnan(b[i])) continue;
    if (bits_of(a[i]) != bits_of(b[i])) {
      return "first difference at " + std::to_string(i) + ": " + std::to_string(a[i]) + " vs " +
             std::to_string(b[i]);
    }
  }
  return "";
}

enum class MatrixKind { uniform, small_integers, singular, zero_column, nan_entry, inf_entry, overflowing };

const char* name_of(MatrixKind kind) {
  switch (kind) {
    case MatrixKind::uniform:
      return "uniform";
    case MatrixKind::small_integers:
      return "small_integers";
    case MatrixKind::singular:
      return "singular";
    case MatrixKind::zero_column:
      return "zero_column";
    case MatrixKind::nan_entry:
      return "nan_entry";
    case MatrixKind::inf_entry:
      return "inf_entry";
    case MatrixKind::overflowing:
      return "overflowing";
  }
  return "?";
}

// A random n x n row-major matrix of the given kind.
//   uniform: entries uniform in [-1, 1] (regular, moderately conditioned);
//   small_integers: entries -3..3, so pivot candidates tie in magnitude often (the tie-break decides);
//   singular: small integers with the last row the exact sum of two others (n >= 3; n = 2: twice row 0; n =
//   1:
//     zero), singular in exact arithmetic, the verdict decided by a rounding-level last pivot;
//   zero_column, nan_entry, inf_entry: uniform with one column zero / one entry NaN / one entry +-infinity;
//   overflowing: uniform times 1.7e308, finite but overflowing to infinity (then NaN) during elimination.
std::vector<double> random_matrix(int n, MatrixKind kind, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::uniform_int_distribution<int> small_integer(-3, 3);
  std::vector<double> A(static_cast<size_t>(n * n));
  if (n == 0) return A;
  const auto index = [&]() { return static_cast<size_t>(rng() % static_cast<unsigned>(n * n)); };
  switch (kind) {
    case MatrixKind::uniform:
    case MatrixKind::zero_column:
    case MatrixKind::nan_entry:
    case MatrixKind::inf_entry:
      for (double& v : A) v = uniform(rng);
      break;
    case MatrixKind::small_integers:
    case MatrixKind::singular:
      for (double& v : A) v = small_integer(rng);
      break;
    case MatrixKind::overflowing:
      for (double& v : A) v = 1.7e308 * uniform(rng);
      break;
  }
  if (kind == MatrixKind::singular) {
    const int last = n - 1;
    if (n >= 3) {
      const int a = static_cast<int>(rng() % static_cast<unsigned>(n - 1));
      const int b = static_cast<int>(rng() % static_cast<unsigned>(n - 1));
      for (int j = 0; j < n; ++j) A[last * n + j] = A[a * n + j] + A[b * n + j];
    } else {
      for (int j = 0; j < n; ++j) A[last * n + j] = 2.0 * A[j];
    }
  }
  if (kind == MatrixKind::zero_column) {
    const int column = static_cast<int>(rng() % static_cast<unsigned>(n));
    for (int i = 0; i < n; ++i) A[i * n + column] = 0.0;
  }
  if (kind == MatrixKind::nan_entry) A[index()] = std::numeric_limits<double>::quiet_NaN();
  if (kind == MatrixKind::inf_entry) A[index()] = (rng() % 2 ? 1.0 : -1.0) * HUGE_VAL;
  return A;
}

struct Outcome {
  int regular = 0, singular = 0, with_non_finite_factors = 0;
};

// Factors A with lu_factor and with the emulated lane group of `lanes`, and, if that succeeded, solves a
// random right-hand side with both: everything must agree bit for bit.
void expect_lane_lu_matches_lu(int n, const std::vector<double>& A, int lanes, std::mt19937_64& rng,
                               const std::string& where, Outcome& outcome) {
  // The threshold from the lane partials.
  double max_entry = 0.0;
  for (int lane = 0; lane < lanes; ++lane)
    max_entry = myriad::combine_max_entry(max_entry, myriad::lane_max_entry(n, A.data(), lane, lanes));
  EXPECT_EQ(bits_of(myriad::lu_singularity_threshold_from_max(n, max_entry)),
            bits_of(myriad::lu_singularity_threshold(n, A.data())))
      << where;

  // Pivot arrays start with the same filler, so that entries a failed factorization leaves alone compare too.
  std::vector<double> lu_reference = A, pivots_reference(static_cast<size_t>(n), -7.0);
  std::vector<double> lu_lane = A, pivots_lane(static_cast<size_t>(n), -7.0);
  const bool regular_reference = myriad::lu_factor(n, lu_reference.data(), pivots_reference.data());
  const bool regular_lane = myriad::lane_lu_factor_emulated(n, lu_lane.data(), pivots_lane.data(), lanes);
  ASSERT_EQ(regular_lane, regular_reference) << where;
  EXPECT_EQ(bitwise_difference(pivots_lane, pivots_reference), "") << where << ": pivots";
  EXPECT_EQ(bitwise_difference(lu_lane, lu_reference), "") << where << ": factors";
  (regular_reference ? outcome.regular : outcome.singular) += 1;
  if (std::any_of(lu_reference.begin(), lu_reference.end(), [](double v) { return !std::isfinite(v); }) &&
      std::all_of(A.begin(), A.end(), [](double v) { return std::isfinite(v); }))
    ++outcome.with_non_finite_factors;
  if (!regular_reference) return;

  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<double> b(static_cast<size_t>(n));
  for (double& v : b) v = uniform(rng);
  std::vector<double> x_reference = b, x_lane = b;
  myriad::lu_solve(n, lu_reference.data(), pivots_reference.data(), x_reference.data());
  myriad::lane_lu_solve_emulated(n, lu_lane.data(), pivots_lane.data(), x_lane.data(), lanes);
  EXPECT_EQ(bitwise_difference(x_lane, x_reference), "") << where << ": solution";
}

TEST(LaneLu, factors_pivots_verdict_and_solution_match_lu_factor_and_lu_solve_bit_for_bit) {
  std::mt19937_64 rng(2024);
  const MatrixKind kinds[] = {MatrixKind::uniform,     MatrixKind::small_integers, MatrixKind::singular,
                              MatrixKind::zero_column, MatrixKind::nan_entry,      MatrixKind::inf_entry,
                              MatrixKind::overflowing};
  for (MatrixKind kind : kinds) {
    Outcome outcome;
    for (int n : kSizes) {
      for (int lanes : kLaneCounts) {
        for (int trial = 0; trial < 6; ++trial) {
          const std::vector<double> A = random_matrix(n, kind, rng);
          const std::string where = std::string(name_of(kind)) + " n = " + std::to_string(n) +
                                    " lanes = " + std::to_string(lanes) + " trial " + std::to_string(trial);
          expect_lane_lu_matches_lu(n, A, lanes, rng, where, outcome);
        }
      }
    }
    // Each kind reaches the verdicts it is meant to exercise (n = 0 is regular whatever the kind).
    const int sizes = static_cast<int>(sizeof kSizes / sizeof kSizes[0]);
    const int zero_size_cases = static_cast<int>(sizeof kLaneCounts / sizeof kLaneCounts[0]) * 6;
    switch (kind) {
      case MatrixKind::uniform:
      case MatrixKind::small_integers:
        EXPECT_GT(outcome.regular, outcome.singular) << name_of(kind);
        break;
      case MatrixKind::singular:
        EXPECT_GT(outcome.singular, outcome.regular) << name_of(kind);
        break;
      case MatrixKind::zero_column:
      case MatrixKind::nan_entry:
      case MatrixKind::inf_entry:
        EXPECT_EQ(outcome.regular, zero_size_cases) << name_of(kind);
        break;
      case MatrixKind::overflowing:
        EXPECT_GT(outcome.with_non_finite_factors, sizes) << name_of(kind);
        break;
    }
  }
}

TEST(LaneLu, better_pivot_is_commutative_and_associative_so_any_reduction_order_agrees) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // Real searches offer at most one NaN, row k's, the smallest row; the pool has a second NaN with a larger
  // row so that the rule "NaN first" is checked for itself, not through the row order.
  const std::vector<myriad::LanePivot> pool = {{-1.0, myriad::kNoPivotRow},
                                               {0.0, 3},
                                               {0.0, 5},
                                               {1.0, 4},
                                               {1.0, 2},
                                               {1.0, 9},
                                               {2.5, 7},
                                               {HUGE_VAL, 8},
                                               {HUGE_VAL, 6},
                                               {nan, 1},
                                               {nan, 10}};
  const auto same = [](myriad::LanePivot a, myriad::LanePivot b) {
    return bits_of(a.magnitude) == bits_of(b.magnitude) && a.row == b.row;
  };
  for (const auto& a : pool) {
    EXPECT_TRUE(same(myriad::better_pivot(a, {-1.0, myriad::kNoPivotRow}), a)) << a.row;
    for (const auto& b : pool) {
      EXPECT_TRUE(same(myriad::better_pivot(a, b), myriad::better_pivot(b, a))) << a.row << " " << b.row;
      for (const auto& c : pool) {
        EXPECT_TRUE(same(myriad::better_pivot(myriad::better_pivot(a, b), c),
                         myriad::better_pivot(a, myriad::better_pivot(b, c))))
            << a.row << " " << b.row << " " << c.row;
      }
    }
  }
  // Ties go to the smaller row, as lu_factor's first strict maximum; a NaN (row k's) wins.
  EXPECT_EQ(myriad::better_pivot({1.0, 9}, {1.0, 2}).row, 2);
  EXPECT_EQ(myriad::better_pivot({HUGE_VAL, 8}, {nan, 1}).row, 1);
  EXPECT_EQ(myriad::better_pivot({nan, 10}, {HUGE_VAL, 8}).row, 10);
}

TEST(LaneLu, thirty_two_lanes_solve_a_64_by_64_system_to_a_relative_residual_below_1e_12) {
  const int n = 64, lanes = 32;
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<double> A(n * n), b(n);
  for (double& v : A) v = uniform(rng);
  for (double& v : b) v = uniform(rng);
  std::vector<double> LU = A, pivots(n), x = b;
  ASSERT_TRUE(myriad::lane_lu_factor_emulated(n, LU.data(), pivots.data(), lanes));
  myriad::lane_lu_solve_emulated(n, LU.data(), pivots.data(), x.data(), lanes);
  EXPECT_LT(myriad::testing::relative_residual(n, A, x, b), 1e-12);
}

}  // namespace lane_lu_test
