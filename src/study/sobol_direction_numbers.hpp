#pragma once
// The table of Sobol' initial direction numbers (Joe & Kuo 2008, new-joe-kuo-6.21201), read by
// sobol_sequence.cpp.
#include <cstdint>

namespace myriad::study {

constexpr int kSobolTableDimensions = 1024;
constexpr int kSobolMaxDegree = 13;  // the highest polynomial degree among the first 1024 dimensions

// poly: the primitive polynomial over GF(2) with its leading and constant terms as bits (degree = bit length
// - 1); m: the initial m_1..m_degree, zero beyond the degree.
struct SobolInitialNumbers {
  std::uint32_t poly;
  std::uint32_t m[kSobolMaxDegree];
};

extern const SobolInitialNumbers kSobolInitialNumbers[kSobolTableDimensions];

}  // namespace myriad::study
