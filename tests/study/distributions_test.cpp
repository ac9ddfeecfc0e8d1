// Study distributions: the normal quantile (AS241) against the CDF over the whole double range and against known
// values; truncated normal bounds and medians, including both bounds far in a tail; lognormal and levels.
#include "study/distributions.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace myriad::study {
namespace distributions_test {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPi = 3.14159265358979323846;

double normal_pdf(double x) { return std::exp(-0.5 * x * x) / std::sqrt(2.0 * kPi); }

// p on a logarithmic grid of [1e-300, 0.5] and 1 - p for p in [1e-16, 0.5].
std::vector<double> probability_grid() {
  std::vector<double> ps;
  for (double e = -300.0; e <= std::log10(0.5); e += 0.01) ps.push_back(std::pow(10.0, e));
  for (double e = -16.0; e <= std::log10(0.5); e += 0.01) ps.push_back(1.0 - std::pow(10.0, e));
  return ps;
}

TEST(NormalQuantile, KnownValues) {
  EXPECT_NEAR(normal_quantile(0.975), 1.959963984540054, 1e-15);
  EXPECT_NEAR(normal_quantile(0.025), -1.959963984540054, 1e-15);
  EXPECT_EQ(normal_quantile(0.5), 0.0);
  EXPECT_NEAR(normal_quantile(0.75), 0.6744897501960817, 1e-15);
  EXPECT_NEAR(normal_quantile(1e-10), -6.361340902404056, 1e-14);  // the middle tail branch (r <= 5)
  EXPECT_NEAR(normal_quantile(1e-300), -37.0470962993612, 1e-13);  // the far tail branch (r > 5)
  EXPECT_EQ(normal_quantile(0.0), -kInf);
  EXPECT_EQ(normal_quantile(1.0), kInf);
  EXPECT_TRUE(std::isnan(normal_quantile(-1e-300)));
  EXPECT_TRUE(std::isnan(normal_quantile(1.0 + 1e-15)));
  EXPECT_TRUE(std::isnan(normal_quantile(std::nan(""))));
}

TEST(NormalQuantile, IsSymmetric) {
  // Dyadic p, so that 1 - p is exact.
  for (double p : {0x1.0p-53, 0x1.0p-40, 0x1.0p-20, 0x1.0p-5, 0.125, 0.3125, 0.4375}) {
    EXPECT_EQ(normal_quantile(p), -normal_quantile(1.0 - p)) << p;
  }
}

// Relative to p the round trip cannot be better than about x^2 eps far in the lower tail (d ln Phi / d ln|x| ~ x^2,
// ~1400 at p = 1e-300: even the double nearest the exact quantile is off by that much), so the round trip is
// measured where it is well conditioned, in x: the quantile must be within 1e-14 relative (absolute near 0) of the
// exact inverse of normal_cdf, (Phi(x) - p) / phi(x) being the distance to it.
TEST(NormalQuantile, InvertsTheCdfTo1e14RelativeOverTheWholeRange) {
  double worst = 0.0;
  for (double p : probability_grid()) {
    const double x = normal_quantile(p);
    ASSERT_TRUE(std::isfinite(x)) << p;
    const double dx = (normal_cdf(x) - p) / normal_pdf(x);
    worst = std::fmax(worst, std::fabs(dx) / std::fmax(1.0, std::fabs(x)));
  }
  EXPECT_LT(worst, 1e-14);
}

TEST(NormalQuantile, RoundTripIs1e14RelativeInPWhereTheTailIsNotSteep) {
  for (double p : probability_grid()) {
    if (p < 1e-3) continue;
    EXPECT_NEAR(normal_cdf(normal_quantile(p)), p, 1e-14 * p) << p;
  }
}

TEST(NormalCdf, KeepsRelativeAccuracyInTheLowerTail) {
  // Reference values from the series and continued fraction of erfc in 80-digit decimal arithmetic.
  EXPECT_NEAR(normal_cdf(-37.0), 5.7255712225245771e-300, 1e-13 * 5.7255712225245771e-300);
  EXPECT_NEAR(normal_cdf(-20.0), 2.7536241186062337e-89, 1e-14 * 2.7536241186062337e-89);
  EXPECT_NEAR(normal_cdf(-10.0), 7.6198530241605255e-24, 1e-14 * 7.6198530241605255e-24);
  EXPECT_EQ(normal_cdf(0.0), 0.5);
  EXPECT_EQ(normal_cdf(-kInf), 0.0);
  EXPECT_EQ(normal_cdf(kInf), 1.0);
}

TEST(Quantile, UniformMapsTheUnitIntervalOntoItsBounds) {
  Distribution d;
  d.lower = -2.0;
  d.upper = 6.0;
  EXPECT_EQ(quantile(d, 0.0), -2.0);
  EXPECT_EQ(quantile(d, 0.25), 0.0);
  EXPECT_EQ(quantile(d, 1.0), 6.0);
  EXPECT_TRUE(std::isnan(quantile(d, 1.5)));
}

TEST(Quantile, NormalIsMeanPlusSdTimesStandardQuantile) {
  Distribution d;
  d.kind = DistributionKind::normal;
  d.mean = 3.0;
  d.sd = 2.0;
  EXPECT_EQ(quantile(d, 0.5), 3.0);
  EXPECT_NEAR(quantile(d, 0.975), 3.0 + 2.0 * 1.959963984540054, 1e-14);
}

TEST(Quantile, LognormalMedianIsExpMu) {
  Distribution d;
  d.kind = DistributionKind::lognormal;
  d.mean = 1.3;
  d.sd = 0.7;
  EXPECT_DOUBLE_EQ(quantile(d, 0.5), std::exp(1.3));
  EXPECT_EQ(quantile(d, 0.0), 0.0);
  EXPECT_NEAR(quantile(d, 0.975), std::exp(1.3 + 0.7 * 1.959963984540054), 1e-13);
}

Distribution truncated(double mean, double sd, double lower, double upper) {
  Distribution d;
  d.kind = DistributionKind::truncated_normal;
  d.mean = mean;
  d.sd = sd;
  d.lower = lower;
  d.upper = upper;
  return d;
}

TEST(Quantile, TruncatedNormalStaysWithinItsBounds) {
  const std::vector<Distribution> cases = {truncated(0.0, 1.0, -1.0, 2.0),     // straddling the mean
                                           truncated(5.0, 0.1, 5.9, 6.0),      // both bounds far above the mean
                                           truncated(0.0, 1.0, 8.0, 8.5),      // far in the upper tail
                                           truncated(0.0, 1.0, -9.0, -8.0),    // far in the lower tail
                                           truncated(0.0, 1.0, 40.0, 41.0),    // beyond where Phi(-a) underflows
                                           truncated(0.0, 1.0, -50.0, -45.0),  // the same below
                                           truncated(0.0, 1.0, 1.0, kInf),     // one-sided
                                           truncated(0.0, 1.0, -kInf, -30.0),  // one-sided, far
                                           truncated(1.0, 2.0, 1.5, 1.5 + 1e-12)};
  for (const Distribution& d : cases) {
    double previous = -kInf;
    for (int i = 0; i <= 1000; ++i) {
      const double u = i / 1000.0;
      const double x = quantile(d, u);
      ASSERT_FALSE(std::isnan(x)) << d.lower << " " << d.upper << " u=" << u;
      EXPECT_GE(x, d.lower) << d.lower << " " << d.upper << " u=" << u;
      EXPECT_LE(x, d.upper) << d.lower << " " << d.upper << " u=" << u;
      EXPECT_GE(x, previous) << "not monotone: " << d.lower << " " << d.upper << " u=" << u;
      previous = x;
    }
  }
  EXPECT_THROW(quantile(truncated(0.0, 1.0, 2.0, 1.0), 0.5), std::invalid_argument);
}

TEST(Quantile, TruncatedNormalMedianIsTheAnalyticOne) {
  // Symmetric about the mean: the median is the mean.
  EXPECT_NEAR(quantile(truncated(2.0, 3.0, -1.0, 5.0), 0.5), 2.0, 1e-14);
  // Half line above the mean: Phi(z) = 3/4.
  EXPECT_NEAR(quantile(truncated(2.0, 3.0, 2.0, kInf), 0.5), 2.0 + 3.0 * 0.6744897501960817, 1e-14);
  // Both bounds far above the mean, where Phi(8) and Phi(9) both round to 1 and the direct formula would fail: the
  // median solves Phi(-z) = (Phi(-8) + Phi(-9)) / 2 (reference by bisection in 80-digit arithmetic).
  EXPECT_NEAR(quantile(truncated(0.0, 1.0, 8.0, 9.0), 0.5), 8.0848888990181664, 1e-13);
  EXPECT_NEAR(quantile(truncated(0.0, 1.0, -9.0, -8.0), 0.5), -8.0848888990181664, 1e-13);
  EXPECT_NEAR(quantile(truncated(10.0, 2.0, 26.0, 28.0), 0.5), 10.0 + 2.0 * 8.0848888990181664, 1e-12);
  // Beyond underflow (Phi(-40) is below the smallest double): the tail expansion.
  EXPECT_NEAR(quantile(truncated(0.0, 1.0, 40.0, kInf), 0.5), 40.017314126764653, 1e-9);
  EXPECT_NEAR(quantile(truncated(0.0, 1.0, 40.0, 40.01), 0.5), 40.004503239989489, 1e-9);
  EXPECT_NEAR(quantile(truncated(0.0, 1.0, -50.0, -45.0), 0.5), -45.01539304522889, 1e-9);
}

TEST(Quantile, LevelsAreEquallyLikely) {
  Distribution d;
  d.kind = DistributionKind::levels;
  d.levels = {10.0, 20.0, 30.0};
  std::vector<int> counts(3, 0);
  const int m = 3000;
  for (int i = 0; i < m; ++i) {
    const double x = quantile(d, (i + 0.5) / m);
    counts[static_cast<std::size_t>(x / 10.0) - 1]++;
  }
  EXPECT_EQ(counts, (std::vector<int>{1000, 1000, 1000}));
  EXPECT_EQ(quantile(d, 0.0), 10.0);
  EXPECT_EQ(quantile(d, 1.0), 30.0);
  EXPECT_EQ(quantile(d, std::nextafter(1.0 / 3.0, 0.0)), 10.0);
  EXPECT_EQ(quantile(d, 2.0 / 3.0), 30.0);
  d.levels.clear();
  EXPECT_THROW(quantile(d, 0.5), std::invalid_argument);
}

}  // namespace distributions_test
}  // namespace myriad::study
