// Study designs: Latin hypercube strata, the Sobol' sequence against hand-computed points and its net property
// under scrambling, Saltelli's cross-matrix layout and the full factorial order.
#include "study/samplers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "study/sobol_sequence.hpp"

namespace myriad::study {
namespace samplers_test {

// Whether each of the n = 2^m equal cells of [0, 1) holds exactly one of the values column `j` of rows
// [first, first + n).
bool stratified(const std::vector<double>& x, int dims, int j, long long first, int m) {
  const long long n = 1LL << m;
  std::vector<int> count(static_cast<std::size_t>(n), 0);
  for (long long i = first; i < first + n; ++i) {
    const double u = x[static_cast<std::size_t>(i * dims + j)];
    if (!(u >= 0.0 && u < 1.0)) return false;
    ++count[static_cast<std::size_t>(std::floor(u * static_cast<double>(n)))];
  }
  return std::all_of(count.begin(), count.end(), [](int c) { return c == 1; });
}

// Whether rows [first, first + 2^m) form a (0, m, 2)-net in columns 0 and 1: every box 2^-k x 2^-(m-k) holds one.
bool zero_net_2d(const std::vector<double>& x, int dims, long long first, int m) {
  const long long n = 1LL << m;
  for (int k = 0; k <= m; ++k) {
    std::vector<int> count(static_cast<std::size_t>(n), 0);
    for (long long i = first; i < first + n; ++i) {
      const auto c0 = static_cast<long long>(std::ldexp(x[static_cast<std::size_t>(i * dims)], k));
      const auto c1 = static_cast<long long>(std::ldexp(x[static_cast<std::size_t>(i * dims + 1)], m - k));
      ++count[static_cast<std::size_t>((c0 << (m - k)) + c1)];
    }
    if (!std::all_of(count.begin(), count.end(), [](int c) { return c == 1; })) return false;
  }
  return true;
}

void expect_one_point_per_stratum(const std::vector<double>& x, long long n, int dims) {
  ASSERT_EQ(x.size(), static_cast<std::size_t>(n * dims));
  for (int j = 0; j < dims; ++j) {
    std::vector<long long> strata;
    for (long long i = 0; i < n; ++i) {
      const double u = x[static_cast<std::size_t>(i * dims + j)];
      ASSERT_GE(u, 0.0);
      ASSERT_LT(u, 1.0);
      strata.push_back(static_cast<long long>(std::floor(u * static_cast<double>(n))));
    }
    std::sort(strata.begin(), strata.end());
    for (long long i = 0; i < n; ++i) ASSERT_EQ(strata[static_cast<std::size_t>(i)], i) << "column " << j;
  }
}

TEST(LatinHypercube, HasExactlyOnePointInEachStratumOfEveryDimension) {
  expect_one_point_per_stratum(latin_hypercube(1000, 8, 42), 1000, 8);
  expect_one_point_per_stratum(latin_hypercube(1, 8, 42), 1, 8);
  expect_one_point_per_stratum(latin_hypercube(7, 3, 0), 7, 3);
}

TEST(LatinHypercube, IsReproducibleForASeedAndDiffersForAnother) {
  const std::vector<double> a = latin_hypercube(100, 4, 7);
  EXPECT_EQ(a, latin_hypercube(100, 4, 7));
  const std::vector<double> b = latin_hypercube(100, 4, 8);
  int same = 0;
  for (std::size_t i = 0; i < a.size(); ++i) same += a[i] == b[i];
  EXPECT_EQ(same, 0);
}

TEST(LatinHypercube, AColumnDoesNotDependOnTheNumberOfColumns) {
  const std::vector<double> narrow = latin_hypercube(50, 2, 3), wide = latin_hypercube(50, 5, 3);
  for (int i = 0; i < 50; ++i) {
    for (int j = 0; j < 2; ++j) EXPECT_EQ(narrow[i * 2 + j], wide[i * 5 + j]);
  }
  EXPECT_TRUE(latin_hypercube(0, 3, 1).empty());
  EXPECT_THROW(latin_hypercube(-1, 3, 1), std::invalid_argument);
}

// By hand from the definition: x_i = XOR of v_k over the bits k of gray(i) = i ^ (i >> 1), v_k = m_k / 2^k.
// Dimension 0 (van der Corput): m = 1, 1, 1: v = 1/2, 1/4, 1/8. Dimension 1 (x + 1, m_1 = 1): m_k = 2 m_{k-1} ^
// m_{k-1}: 1, 3, 5: v = 1/2, 3/4, 5/8. Dimension 2 (x^2 + x + 1, m = 1, 3): m_3 = 2 m_2 ^ 4 m_1 ^ m_1 = 3:
// v = 1/2, 3/4, 3/8.
TEST(SobolPoints, UnscrambledFirstPointsMatchTheDefinition) {
  const std::vector<double> x = sobol_points(8, 3, false, 0);
  const std::vector<double> expected = {0,     0,     0,     0.5,   0.5,   0.5,   0.75,  0.25,
                                        0.25,  0.25,  0.75,  0.75,  0.375, 0.375, 0.625, 0.875,
                                        0.875, 0.125, 0.625, 0.125, 0.875, 0.125, 0.625, 0.375};
  EXPECT_EQ(x, expected);
}

TEST(SobolPoints, SkipContinuesTheSequence) {
  for (bool scramble : {false, true}) {
    const std::vector<double> all = sobol_points(40, 5, scramble, 9);
    const std::vector<double> tail = sobol_points(27, 5, scramble, 9, 13);
    EXPECT_TRUE(std::equal(tail.begin(), tail.end(), all.begin() + 13 * 5));
  }
  // The last point of the 32-bit sequence.
  const std::vector<double> last = sobol_points(1, 1, false, 0, (1LL << 32) - 1);
  EXPECT_EQ(last[0], 0x1.0p-32);  // gray(2^32 - 1) = 2^31: v_32 = 1 / 2^32 in van der Corput
}

TEST(SobolPoints, RejectsBadArguments) {
  EXPECT_THROW(sobol_points(4, 0, false, 0), std::invalid_argument);
  EXPECT_THROW(sobol_points(4, kSobolMaxDimensions + 1, false, 0), std::invalid_argument);
  EXPECT_THROW(sobol_points(-1, 2, false, 0), std::invalid_argument);
  EXPECT_THROW(sobol_points(2, 2, false, 0, (1LL << 32) - 1), std::invalid_argument);
  EXPECT_NO_THROW(sobol_points(1, kSobolMaxDimensions, true, 0, (1LL << 32) - 1));
  EXPECT_TRUE(sobol_points(0, 3, false, 0).empty());
}

TEST(SobolPoints, ScrambledPointsLieInTheUnitCubeAndEachPowerOfTwoPrefixIsANet) {
  const int dims = 4;
  const std::vector<double> x = sobol_points(2048, dims, true, 12345);
  for (double u : x) {
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
  for (int m = 1; m <= 10; ++m) {
    for (int j = 0; j < 2; ++j) {
      EXPECT_TRUE(stratified(x, dims, j, 0, m)) << "prefix 2^" << m << " dim " << j;
      EXPECT_TRUE(stratified(x, dims, j, 1024, m)) << "block [1024, 1024 + 2^" << m << ") dim " << j;
    }
    EXPECT_TRUE(zero_net_2d(x, dims, 0, m)) << "prefix 2^" << m;
  }
  // The unscrambled points are not the scrambled ones: the scramble did something.
  EXPECT_NE(x, sobol_points(2048, dims, false, 12345));
}

TEST(SobolPoints, ScrambledIsReproduciblePerSeedAndIndependentOfTheDimensionCount) {
  const std::vector<double> a = sobol_points(64, 3, true, 1);
  EXPECT_EQ(a, sobol_points(64, 3, true, 1));
  EXPECT_NE(a, sobol_points(64, 3, true, 2));
  const std::vector<double> wide = sobol_points(64, 10, true, 1);
  for (int i = 0; i < 64; ++i) {
    for (int j = 0; j < 3; ++j) EXPECT_EQ(a[i * 3 + j], wide[i * 10 + j]);
  }
}

TEST(SaltelliRows, FollowSalibOrderOnAHandExample) {
  // n = 2, p = 3: row i of the base is A_i | B_i.
  const std::vector<double> base = {1, 2, 3, 4, 5, 6, 11, 12, 13, 14, 15, 16};
  const std::vector<double> rows = saltelli_rows(base, 2, 3);
  ASSERT_EQ(rows.size(), 2u * (2 * 3 + 2) * 3);
  const std::vector<double> expected = {1,  2,  3,   // A_0
                                        4,  2,  3,   // AB_0^1
                                        1,  5,  3,   // AB_0^2
                                        1,  2,  6,   // AB_0^3
                                        1,  5,  6,   // BA_0^1
                                        4,  2,  6,   // BA_0^2
                                        4,  5,  3,   // BA_0^3
                                        4,  5,  6,   // B_0
                                        11, 12, 13,  // A_1
                                        14, 12, 13, 11, 15, 13, 11, 12, 16, 11, 15,
                                        16, 14, 12, 16, 14, 15, 13, 14, 15, 16};
  EXPECT_EQ(rows, expected);
  EXPECT_THROW(saltelli_rows(base, 3, 3), std::invalid_argument);
}

TEST(FullFactorial, FirstDimensionVariesSlowest) {
  const std::vector<long long> x = full_factorial({2, 3});
  EXPECT_EQ(x, (std::vector<long long>{0, 0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 2}));
  const std::vector<long long> y = full_factorial({2, 1, 2});
  EXPECT_EQ(y, (std::vector<long long>{0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1}));
  EXPECT_EQ(full_factorial({5}), (std::vector<long long>{0, 1, 2, 3, 4}));
}

TEST(FullFactorial, RejectsZeroCountsAndMoreThan2To40Rows) {
  EXPECT_THROW(full_factorial({3, 0}), std::invalid_argument);
  EXPECT_THROW(full_factorial({1LL << 21, 1LL << 20}), std::invalid_argument);
  EXPECT_THROW(full_factorial({1LL << 40, 2}), std::invalid_argument);
  EXPECT_THROW(full_factorial({-1}), std::invalid_argument);
}

}  // namespace samplers_test
}  // namespace myriad::study
