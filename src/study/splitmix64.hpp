#pragma once
// The random stream of the study samplers: splitmix64 (Steele, Lea & Flood 2014, as in Vigna's reference
// code). Integer arithmetic only, so a seed gives the same numbers on every platform and compiler; the
// standard distributions (std::uniform_*_distribution) are implementation-defined and would not.
#include <cstdint>

namespace myriad::study {

// The splitmix64 output function: a bijective 64-bit mix.
constexpr std::uint64_t splitmix64_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

class SplitMix64 {
 public:
  explicit constexpr SplitMix64(std::uint64_t seed) : state_(seed) {}

  // Stream `stream` of `seed`: one independent-looking generator per column or dimension, so that a column's
  // numbers do not depend on how many columns are drawn.
  static constexpr SplitMix64 stream(std::uint64_t seed, std::uint64_t stream) {
    return SplitMix64(seed ^ splitmix64_mix(stream + 0x9E3779B97F4A7C15ULL));
  }

  constexpr std::uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ULL;
    return splitmix64_mix(state_);
  }

  // Uniform in [0, 1) on the 2^53 grid.
  constexpr double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // Uniform integer in [0, n), n >= 1, unbiased by rejection (the draws below 2^64 mod n are refused).
  constexpr std::uint64_t below(std::uint64_t n) {
    const std::uint64_t threshold = (std::uint64_t{0} - n) % n;
    std::uint64_t x = next();
    while (x < threshold) x = next();
    return x % n;
  }

 private:
  std::uint64_t state_;
};

}  // namespace myriad::study
