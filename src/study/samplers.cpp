#include "study/samplers.hpp"

#include <cmath>
#include <cstddef>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "study/splitmix64.hpp"

namespace myriad::study {

std::vector<double> latin_hypercube(long long rows, int dims, std::uint64_t seed) {
  if (rows < 0 || dims < 0) throw std::invalid_argument("latin_hypercube: rows or dims < 0");
  const auto n = static_cast<std::size_t>(rows);
  const auto m = static_cast<std::size_t>(dims);
  std::vector<double> out(n * m);
  std::vector<long long> perm(n);
  const auto count = static_cast<double>(rows);
  for (std::size_t j = 0; j < m; ++j) {
    SplitMix64 rng = SplitMix64::stream(seed, j);
    std::iota(perm.begin(), perm.end(), 0LL);
    for (std::size_t i = n; i > 1; --i) std::swap(perm[i - 1], perm[rng.below(i)]);  // Fisher-Yates
    for (std::size_t i = 0; i < n; ++i) {
      const auto k = static_cast<double>(perm[i]);
      double u = (k + rng.uniform()) / count;
      // (k + U) / N can round onto the stratum's upper edge (or, for large N, just across either edge); step
      // back inside so that floor(u N) == k holds in floating point too: exactly one point per stratum.
      while (std::floor(u * count) > k) u = std::nextafter(u, 0.0);
      while (std::floor(u * count) < k) u = std::nextafter(u, 1.0);
      out[i * m + j] = u;
    }
  }
  return out;
}

std::vector<long long> full_factorial(const std::vector<long long>& counts) {
  constexpr long long kMaxRows = 1LL << 40;
  long long rows = 1;
  for (long long c : counts) {
    if (c < 1) throw std::invalid_argument("full_factorial: a level count < 1");
    if (c > kMaxRows / rows) throw std::invalid_argument("full_factorial: more than 2^40 rows");
    rows *= c;
  }
  const std::size_t m = counts.size();
  std::vector<long long> out(m == 0 ? 0 : static_cast<std::size_t>(rows) * m);
  if (m == 0) return out;
  std::vector<long long> index(m, 0);
  for (long long r = 0; r < rows; ++r) {
    for (std::size_t j = 0; j < m; ++j) out[static_cast<std::size_t>(r) * m + j] = index[j];
    // Odometer, last dimension fastest.
    for (std::size_t j = m; j-- > 0;) {
      if (++index[j] < counts[j]) break;
      index[j] = 0;
    }
  }
  return out;
}

std::vector<double> saltelli_rows(const std::vector<double>& base, long long n, int p) {
  if (n < 0 || p < 1) throw std::invalid_argument("saltelli_rows: n < 0 or p < 1");
  const auto rows = static_cast<std::size_t>(n);
  const auto d = static_cast<std::size_t>(p);
  if (base.size() != rows * 2 * d) throw std::invalid_argument("saltelli_rows: base is not n x 2p");
  std::vector<double> out(rows * (2 * d + 2) * d);
  double* o = out.data();
  for (std::size_t i = 0; i < rows; ++i) {
    const double* a = base.data() + i * 2 * d;
    const double* b = a + d;
    for (std::size_t j = 0; j < d; ++j) *o++ = a[j];
    for (std::size_t k = 0; k < d; ++k) {
      for (std::size_t j = 0; j < d; ++j) *o++ = j == k ? b[j] : a[j];
    }
    for (std::size_t k = 0; k < d; ++k) {
      for (std::size_t j = 0; j < d; ++j) *o++ = j == k ? a[j] : b[j];
    }
    for (std::size_t j = 0; j < d; ++j) *o++ = b[j];
  }
  return out;
}

}  // namespace myriad::study
