#include "study/sobol_sequence.hpp"

#include <array>
#include <stdexcept>

#include "study/sobol_direction_numbers.hpp"
#include "study/splitmix64.hpp"

namespace myriad::study {

namespace {

static_assert(kSobolMaxDimensions == kSobolTableDimensions,
              "the direction-number table covers every dimension");

constexpr int kBits = 32;
constexpr long long kMaxPoints = 1LL << kBits;

using DirectionNumbers = std::array<std::uint32_t, kBits>;

int bit_length(std::uint32_t x) {
  int n = 0;
  for (; x != 0; x >>= 1) ++n;
  return n;
}

int parity(std::uint32_t x) {
  x ^= x >> 16;
  x ^= x >> 8;
  x ^= x >> 4;
  x ^= x >> 2;
  x ^= x >> 1;
  return static_cast<int>(x & 1U);
}

// Index of the lowest zero bit of i: the direction number that takes point i to point i + 1 in Gray-code
// order.
int lowest_zero_bit(unsigned long long i) {
  int b = 0;
  for (; (i & 1ULL) != 0; i >>= 1) ++b;
  return b;
}

// v_j = m_j / 2^(j+1) as 32-bit fractions (bit 31 is 1/2). The m_j beyond the polynomial's degree s follow
// the recurrence of Bratley & Fox 1988 (Algorithm 659, section 2): m_j = 2 a_1 m_{j-1} ^ 4 a_2 m_{j-2} ^ ...
// ^ 2^s m_{j-s} ^ m_{j-s}, the a_k being the polynomial's inner coefficients. This is what scipy's
// _initialize_v computes, so the unscrambled sequences agree bit for bit.
DirectionNumbers direction_numbers(int dim) {
  const SobolInitialNumbers& init = kSobolInitialNumbers[dim];
  std::array<std::uint64_t, kBits> m{};
  const int degree = bit_length(init.poly) - 1;
  if (degree == 0) {
    m.fill(1);  // van der Corput
  } else {
    for (int j = 0; j < degree; ++j) m[j] = init.m[j];
    for (int j = degree; j < kBits; ++j) {
      std::uint64_t next = m[j - degree];
      for (int k = 0; k < degree; ++k) {
        if (((init.poly >> (degree - 1 - k)) & 1U) != 0) next ^= m[j - k - 1] << (k + 1);
      }
      m[j] = next;
    }
  }
  DirectionNumbers v{};
  for (int j = 0; j < kBits; ++j) v[j] = static_cast<std::uint32_t>(m[j] << (kBits - 1 - j));
  return v;
}

// Left linear matrix scramble (Matousek 1998; Owen 2003 "Variance with alternative scramblings"): digit r of
// the result (r = 0 the 1/2 digit) is digit r of the input plus a random GF(2) combination of the more
// significant digits. The matrix is lower triangular with a unit diagonal, so it is invertible on every
// leading group of digits and each elementary interval still holds its share of points. Row r takes one draw
// from `rng`, in order r = 0..31.
void scramble_linear(DirectionNumbers& v, SplitMix64& rng) {
  std::array<std::uint32_t, kBits> rows{};
  for (int r = 0; r < kBits; ++r) {
    const std::uint32_t above = r == 0 ? 0U : ~0U << (kBits - r);  // the digits more significant than r
    rows[r] = (static_cast<std::uint32_t>(rng.next() >> 32) & above) | (1U << (kBits - 1 - r));
  }
  for (std::uint32_t& x : v) {
    std::uint32_t y = 0;
    for (int r = 0; r < kBits; ++r) y |= static_cast<std::uint32_t>(parity(rows[r] & x)) << (kBits - 1 - r);
    x = y;
  }
}

}  // namespace

std::vector<double> sobol_points(long long rows, int dims, bool scramble, std::uint64_t seed,
                                 long long skip) {
  if (dims < 1 || dims > kSobolMaxDimensions)
    throw std::invalid_argument("sobol_points: dims outside [1, 1024]");
  if (rows < 0) throw std::invalid_argument("sobol_points: rows < 0");
  if (skip < 0) throw std::invalid_argument("sobol_points: skip < 0");
  if (skip > kMaxPoints || rows > kMaxPoints - skip) {
    throw std::invalid_argument("sobol_points: skip + rows > 2^32, past the 32-bit sequence");
  }
  std::vector<DirectionNumbers> v(dims);
  std::vector<std::uint32_t> quasi(dims, 0U);
  for (int d = 0; d < dims; ++d) {
    v[d] = direction_numbers(d);
    if (scramble) {
      SplitMix64 rng = SplitMix64::stream(seed, static_cast<std::uint64_t>(d));
      scramble_linear(v[d], rng);
      quasi[d] = static_cast<std::uint32_t>(rng.next() >> 32);  // the digital shift
    }
  }
  // Point `skip` directly: the XOR of the direction numbers picked by the bits of its Gray code.
  const auto first = static_cast<unsigned long long>(skip);
  const unsigned long long gray = first ^ (first >> 1);
  for (int b = 0; b < kBits; ++b) {
    if (((gray >> b) & 1ULL) == 0) continue;
    for (int d = 0; d < dims; ++d) quasi[d] ^= v[d][b];
  }
  std::vector<double> out(static_cast<std::size_t>(rows) * static_cast<std::size_t>(dims));
  constexpr double kScale = 0x1.0p-32;
  const unsigned long long end = first + static_cast<unsigned long long>(rows);
  std::size_t k = 0;
  for (unsigned long long i = first; i < end; ++i) {
    for (int d = 0; d < dims; ++d) out[k++] = static_cast<double>(quasi[d]) * kScale;
    if (i + 1 == end) break;  // point 2^32 - 1 has no successor on 32 bits
    const int b = lowest_zero_bit(i);
    for (int d = 0; d < dims; ++d) quasi[d] ^= v[d][b];
  }
  return out;
}

}  // namespace myriad::study
