// Philox4x32-10 (core/philox.hpp) against Random123's published known-answer vectors (kat_vectors, the
// philox4x32 10-round lines), then the draws built on it: uniforms in [0, 1) with 53 bits, normals by Box-Muller,
// their distribution and the independence of neighbouring counters, instances and episodes. numpy's Philox is the
// 4x64 variant, so its numbers cannot be matched; the known answers are the check of the bijection.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "api/myriad/myriad.hpp"
#include "core/philox.hpp"

namespace myriad {
namespace philox_test {

struct KnownAnswer {
  std::uint32_t counter[4], key[2], result[4];
};

TEST(Philox, Random123KnownAnswerVectors) {
  const KnownAnswer answers[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
       {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
       {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const KnownAnswer& a : answers) {
    const Philox4x32 r = philox4x32_10(
        Philox4x32{{a.counter[0], a.counter[1], a.counter[2], a.counter[3]}}, a.key[0], a.key[1]);
    for (int w = 0; w < 4; ++w) EXPECT_EQ(r.v[w], a.result[w]) << "word " << w;
  }
}

// The packing of docs: key = seed (low, high word), counter = (counter low, counter high, episode, instance).
TEST(Philox, BlockPacksSeedInstanceEpisodeAndCounter) {
  const std::uint64_t seed = 0x299f31d0a4093822ull;
  const Philox4x32 b = philox_block(seed, 0x03707344u, 0x13198a2eu, 0x85a308d3243f6a88ull);
  EXPECT_EQ(b.v[0], 0xd16cfe09u);
  EXPECT_EQ(b.v[3], 0x24126ea1u);
  // The uniform is the top 53 bits of (v[1], v[0]): exactly representable.
  const double u = philox_uniform(seed, 0x03707344u, 0x13198a2eu, 0x85a308d3243f6a88ull);
  const std::uint64_t bits = (std::uint64_t{0x94fdcceb} << 32 | 0xd16cfe09u) >> 11;
  EXPECT_EQ(u, std::ldexp(static_cast<double>(bits), -53));
}

TEST(Philox, ApiDrawsAreTheCoreDrawsAndRefuseWideCounters) {
  for (std::uint64_t k = 0; k < 100; ++k) {
    EXPECT_EQ(api::philox_uniform(42, 7, 3, k), philox_uniform(42, 7, 3, k));
    EXPECT_EQ(api::philox_normal(42, 7, 3, k), philox_normal(42, 7, 3, k));
  }
  EXPECT_THROW(api::philox_uniform(1, std::uint64_t{1} << 32, 0, 0), std::invalid_argument);
  EXPECT_THROW(api::philox_uniform(1, 0, std::uint64_t{1} << 32, 0), std::invalid_argument);
  EXPECT_THROW(api::philox_normal(1, 0, 0, std::uint64_t{1} << 63), std::invalid_argument);
  EXPECT_NO_THROW(api::philox_uniform(1, 0xffffffffu, 0xffffffffu, ~std::uint64_t{0}));
}

// Chi-square over 64 bins of 2^18 uniforms (63 degrees of freedom: mean 63, sd 11.2; the bound is 6 sd), the
// mean and the lag-1 correlation; the same for uniforms across instances at one counter (streams of neighbouring
// environments) and across episodes.
void check_uniform_sequence(const std::vector<double>& u) {
  const int bins = 64;
  std::vector<double> count(bins, 0.0);
  double sum = 0.0, lag = 0.0, sq = 0.0;
  for (size_t i = 0; i < u.size(); ++i) {
    ASSERT_GE(u[i], 0.0);
    ASSERT_LT(u[i], 1.0);
    count[static_cast<size_t>(u[i] * bins)] += 1.0;
    sum += u[i];
    sq += (u[i] - 0.5) * (u[i] - 0.5);
    if (i > 0) lag += (u[i] - 0.5) * (u[i - 1] - 0.5);
  }
  const double n = static_cast<double>(u.size()), expected = n / bins;
  double chi2 = 0.0;
  for (double c : count) chi2 += (c - expected) * (c - expected) / expected;
  EXPECT_LT(chi2, 63.0 + 6.0 * 11.2);
  EXPECT_NEAR(sum / n, 0.5, 6.0 * std::sqrt(1.0 / 12.0 / n));
  EXPECT_NEAR(sq / n, 1.0 / 12.0, 1e-3);
  EXPECT_NEAR(lag / sq, 0.0, 6.0 / std::sqrt(n));  // correlation of neighbours
}

TEST(Philox, UniformsAreUniformAndNeighboursUncorrelated) {
  const int n = 1 << 18;
  std::vector<double> by_counter(n), by_instance(n), by_episode(n);
  for (int i = 0; i < n; ++i) {
    by_counter[static_cast<size_t>(i)] = philox_uniform(12345, 0, 0, static_cast<std::uint64_t>(i));
    by_instance[static_cast<size_t>(i)] = philox_uniform(12345, static_cast<std::uint32_t>(i), 0, 0);
    by_episode[static_cast<size_t>(i)] = philox_uniform(12345, 5, static_cast<std::uint32_t>(i), 0);
  }
  check_uniform_sequence(by_counter);
  check_uniform_sequence(by_instance);
  check_uniform_sequence(by_episode);
  // Seeds 0 and 1 give unrelated streams.
  int equal = 0;
  for (int i = 0; i < 1000; ++i)
    equal += philox_uniform(0, 0, 0, static_cast<std::uint64_t>(i)) == philox_uniform(1, 0, 0, static_cast<std::uint64_t>(i));
  EXPECT_EQ(equal, 0);
}

// Normals: mean 0, variance 1, third moment 0, fourth 3, and the fraction beyond 2 sd (0.0455).
TEST(Philox, NormalsHaveTheStandardNormalMoments) {
  const int n = 1 << 18;
  double m1 = 0, m2 = 0, m3 = 0, m4 = 0, beyond = 0;
  for (int i = 0; i < n; ++i) {
    const double z = philox_normal(777, 3, 9, static_cast<std::uint64_t>(i));
    ASSERT_TRUE(std::isfinite(z));
    m1 += z;
    m2 += z * z;
    m3 += z * z * z;
    m4 += z * z * z * z;
    beyond += std::fabs(z) > 2.0;
  }
  const double nn = n;
  EXPECT_NEAR(m1 / nn, 0.0, 6.0 / std::sqrt(nn));
  EXPECT_NEAR(m2 / nn, 1.0, 6.0 * std::sqrt(2.0 / nn));
  EXPECT_NEAR(m3 / nn, 0.0, 6.0 * std::sqrt(15.0 / nn));
  EXPECT_NEAR(m4 / nn, 3.0, 6.0 * std::sqrt(96.0 / nn));
  EXPECT_NEAR(beyond / nn, 0.0455, 6.0 * std::sqrt(0.0455 * 0.9545 / nn));
}

}  // namespace philox_test
}  // namespace myriad
