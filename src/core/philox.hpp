#pragma once
// Philox4x32-10, the counter-based random number generator of Salmon, Moraes, Dror and Shaw, "Parallel random
// numbers: as easy as 1, 2, 3" (SC'11), as Random123 defines it (its known-answer vectors hold:
// tests/core/philox_test.cpp). A draw is a pure function of (key, counter): no state, no allocation, the same bits
// on the host and the device. Myriad keys it by the 64-bit seed and counts by (instance, episode, draw), so an
// environment's random numbers never depend on how many environments run beside it or in which order.
#include <cmath>
#include <cstdint>

#include "core/hd.hpp"

namespace myriad {

struct Philox4x32 {
  std::uint32_t v[4];
};

namespace philox_detail {
constexpr std::uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;  // round multipliers
constexpr std::uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;  // Weyl key increments (golden ratio, sqrt(3) - 1)

MYRIAD_HD_INLINE void mulhilo(std::uint32_t a, std::uint32_t b, std::uint32_t& hi, std::uint32_t& lo) {
  const std::uint64_t p = static_cast<std::uint64_t>(a) * b;
  hi = static_cast<std::uint32_t>(p >> 32);
  lo = static_cast<std::uint32_t>(p);
}
}  // namespace philox_detail

// The 10-round bijection of the 128-bit counter c under the 64-bit key (k0, k1). O(1).
MYRIAD_HD_INLINE Philox4x32 philox4x32_10(Philox4x32 c, std::uint32_t k0, std::uint32_t k1) {
  using namespace philox_detail;
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += kW0;
      k1 += kW1;
    }
    std::uint32_t hi0, lo0, hi1, lo1;
    mulhilo(kM0, c.v[0], hi0, lo0);
    mulhilo(kM1, c.v[2], hi1, lo1);
    c = Philox4x32{{hi1 ^ c.v[1] ^ k0, lo1, hi0 ^ c.v[3] ^ k1, lo0}};
  }
  return c;
}

// The block of draw `counter` of (seed, instance, episode): key = seed (low word k0, high word k1), counter words
// (counter low, counter high, episode, instance). Instance and episode are 32-bit here; the API refuses larger.
MYRIAD_HD_INLINE Philox4x32 philox_block(std::uint64_t seed, std::uint32_t instance, std::uint32_t episode,
                                         std::uint64_t counter) {
  const Philox4x32 c{{static_cast<std::uint32_t>(counter), static_cast<std::uint32_t>(counter >> 32), episode,
                      instance}};
  return philox4x32_10(c, static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
}

// Uniform in [0, 1): the top 53 bits of the block's first two words (v[1] high, v[0] low) times 2^-53, exact.
MYRIAD_HD_INLINE double philox_uniform(std::uint64_t seed, std::uint32_t instance, std::uint32_t episode,
                                       std::uint64_t counter) {
  const Philox4x32 b = philox_block(seed, instance, episode, counter);
  const std::uint64_t bits = (static_cast<std::uint64_t>(b.v[1]) << 32 | b.v[0]) >> 11;
  return static_cast<double>(bits) * 0x1.0p-53;
}

// Standard normal by Box-Muller from the uniforms u1, u2 of draws 2k and 2k+1 (k = counter < 2^63):
// sqrt(-2 ln(1 - u1)) cos(2 pi u2), 1 - u1 in (0, 1] so the logarithm is finite.
MYRIAD_HD_INLINE double philox_normal(std::uint64_t seed, std::uint32_t instance, std::uint32_t episode,
                                      std::uint64_t counter) {
  const double u1 = philox_uniform(seed, instance, episode, 2 * counter);
  const double u2 = philox_uniform(seed, instance, episode, 2 * counter + 1);
  const double r = std::sqrt(-2.0 * std::log(1.0 - u1));
  return r * std::cos(6.283185307179586476925286766559 * u2);
}

}  // namespace myriad
